"""Exile and the command zone: an object put where it already is becomes a new object there
(400.8, 400.10), and one turned face down in the command zone too (400.9). A card exiled face down
records the player an instruction lets look at it (406.3; who sees it is in visibility.py). A card
exiled with a permanent records that permanent, whose linked ability may return it while both are
the objects the link was made with (406.6, 607). A card exiled "until" a permanent leaves the
battlefield records it the same way, and the zone it came from, which it returns to once that
permanent has left (610.3)."""

from __future__ import annotations

from dataclasses import replace

import z3

from ..model import GAME_ZONES, ActionKind, Behaviour, Zone
from ..terms import And, If, Not, Or
from .battlefield import encode_enter_battlefield, enter_battlefield
from .kernel import encode_keep_reference, encode_move, keep_reference, move, renew_in_place, renewed, source_allowed, source_ok
from .registry import PlayerUse, Target, concrete, every_step, implements, symbolic
from .step import ConcreteStep, Effect, SymbolicStep

K = ActionKind


def move_or_renew(step: ConcreteStep, zone: Zone, behaviour: Behaviour) -> None:
    """Exile and move_to_command: an object already there stays and may become new (400.8, 400.10)."""
    c, o = step.target()
    step.require(source_allowed(step, o.zone, GAME_ZONES), f"{step.name(c)} cannot be moved from {o.zone.value} by {step.action.kind.value}")
    if o.zone is zone:
        renew_in_place(step, c, behaviour)
    else:
        move(step, c, zone, step.slot(c).owner)


def staying_or_moved(step: SymbolicStep, c: int, stays, moved) -> z3.BoolRef:
    """What the rules require of an action that leaves slot c where it is under `stays` and
    otherwise moves it with the outcome `moved`: staying is no move that a commander replacement
    could replace, so a commander's owner may not choose one (`to_command`) then."""
    if step.slots[c].is_commander:
        return Or(And(stays, Not(step.a.to_command)), And(Not(stays), moved))
    return Or(stays, moved)


def encode_move_or_renew(step: SymbolicStep, c: int, zone: Zone, behaviour: Behaviour) -> Effect:
    moved = encode_move(step, c, zone, step.owner(c))
    already = step.s.zone[c] == step.Z[zone]
    values = step.merge(c, already, renewed(step, c, behaviour), moved.values)
    return Effect(source_ok(step, c, GAME_ZONES), staying_or_moved(step, c, already, moved.outcome), values)


@concrete(K.EXILE, Target.CARD, moves_card=True, sources=GAME_ZONES)
@implements(Behaviour.EXILE_IN_EXILE, half="concrete")
def do_exile(step: ConcreteStep) -> None:
    move_or_renew(step, Zone.EXILE, Behaviour.EXILE_IN_EXILE)


@symbolic(K.EXILE)
@implements(Behaviour.EXILE_IN_EXILE, half="symbolic")
def encode_exile(step: SymbolicStep, c: int) -> Effect:
    return encode_move_or_renew(step, c, Zone.EXILE, Behaviour.EXILE_IN_EXILE)


@concrete(K.EXILE_FACE_DOWN, Target.CARD, PlayerUse.ALWAYS, moves_card=True, sources=GAME_ZONES)
def do_exile_face_down(step: ConcreteStep) -> None:
    """Exile a card face down; the acting player is the one the instruction lets look at it."""
    c, _ = step.target()
    step.require(not step.slot(c).is_token, "a token is not exiled face down in the model: 406.3 speaks of cards")
    move_or_renew(step, Zone.EXILE, Behaviour.EXILE_IN_EXILE)
    if step.objects[c].zone is Zone.EXILE:
        step.cite(step.on(Behaviour.FACE_DOWN_EXILE))
        step.objects[c] = step.objects[c].moved(face_down=True, looker=step.action.player)


@symbolic(K.EXILE_FACE_DOWN)
def encode_exile_face_down(step: SymbolicStep, c: int) -> Effect:
    if step.slots[c].is_token:
        return Effect(step.false, step.true, {})
    exiled = encode_move_or_renew(step, c, Zone.EXILE, Behaviour.EXILE_IN_EXILE)
    in_exile = exiled.values["zone"] == step.Z[Zone.EXILE]
    values = exiled.values | {"face_down": Or(in_exile, exiled.values["face_down"]),
                              "looker": If(in_exile, step.a.player, exiled.values["looker"])}
    return replace(exiled, values=values)


@concrete(K.EXILE_WITH, Target.CARD, moves_card=True, takes_targets=True, needs_target=True, sources=GAME_ZONES)
def do_exile_with(step: ConcreteStep) -> None:
    """Exile a card with a permanent, its source, named in `targets` (406.6): the card records it."""
    c, _ = step.target()
    step.require(len(step.action.targets) == 1, "name in `targets` the permanent the card is exiled with")
    (source,) = step.action.targets
    step.require(source != c, f"{step.name(c)} cannot be exiled with itself")
    step.require(step.objects[source].zone is Zone.BATTLEFIELD, f"{step.name(source)} is not a permanent, so nothing can be exiled with it")
    move_or_renew(step, Zone.EXILE, Behaviour.EXILE_IN_EXILE)
    if step.objects[c].zone is Zone.EXILE:
        step.objects[c] = step.objects[c].moved(exiled_with=source)


@symbolic(K.EXILE_WITH)
def encode_exile_with(step: SymbolicStep, c: int) -> Effect:
    s, codes, source = step.s, step.codes, step.a.aim
    on_battlefield = codes.any_of(And(source == codes.slot[d], s.zone[d] == step.Z[Zone.BATTLEFIELD]) for d in range(len(step.slots)) if d != c)
    exiled = encode_move_or_renew(step, c, Zone.EXILE, Behaviour.EXILE_IN_EXILE)
    in_exile = exiled.values["zone"] == step.Z[Zone.EXILE]
    values = exiled.values | {"exiled_with": If(in_exile, source, exiled.values["exiled_with"])}
    return replace(exiled, event=And(exiled.event, on_battlefield), values=values)


@concrete(K.RETURN_EXILED, Target.CARD, moves_card=True, sources=(Zone.EXILE,))
@implements(Behaviour.LINKS_CHECKED, half="concrete")
def do_return_exiled(step: ConcreteStep) -> None:
    """The ability linked to the one that exiled a card returns it to the battlefield under its
    owner's control. Under 406.6 (607) it finds the card only while the permanent it was exiled
    with is the object that exiled it; without the rule it follows the link to the card anyway."""
    c, o = step.target()
    step.require(o.zone is Zone.EXILE and o.exiled_with is not None, f"{step.name(c)} is not in exile with a permanent")
    rule = step.on(Behaviour.LINKS_CHECKED)
    if rule:
        step.cite(rule)
        step.require(not o.link_lost, f"{step.name(o.exiled_with)} has become a new object since {step.name(c)} was exiled with it,"
                                      f" so no ability of it finds {step.name(c)} ({rule})")
    enter_battlefield(step, c, step.slot(c).owner)


@symbolic(K.RETURN_EXILED)
@implements(Behaviour.LINKS_CHECKED, half="symbolic")
def encode_return_exiled(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    linked = And(s.zone[c] == step.Z[Zone.EXILE], s.exiled_with[c] != step.codes.no_slot,
                 Or(Not(step.on(Behaviour.LINKS_CHECKED)), Not(s.link_lost[c])))
    return encode_enter_battlefield(step, c, step.owner(c), linked)


# Where a card exiled until a permanent leaves may come from, and so return to (the model moves no
# card out of the game, so it takes none from there, even where 400.11c is removed).
UNTIL_SOURCES = (Zone.BATTLEFIELD, Zone.HAND)


@concrete(K.EXILE_UNTIL, Target.CARD, moves_card=True, takes_targets=True, needs_target=True, targets_anywhere=True, sources=UNTIL_SOURCES)
@implements(Behaviour.UNTIL_ALREADY_LEFT, half="concrete")
def do_exile_until(step: ConcreteStep) -> None:
    """Exile a permanent, or a card in a hand, until a permanent named in `targets` leaves the
    battlefield (610.3): the card records it as `exile_with` does, and the zone it came from, which
    it returns to (`returns_to`). A source no longer on the battlefield has already left: under
    610.3a the card does not move; without it the card is exiled for good, with nothing to return it."""
    c, o = step.target()
    step.require(len(step.action.targets) == 1, "name in `targets` the permanent whose leaving returns the card")
    (source,) = step.action.targets
    step.require(source != c, f"{step.name(c)} cannot be exiled until it leaves the battlefield itself")
    step.require(o.zone in UNTIL_SOURCES,
                 f"{step.name(c)} is neither a permanent nor a card in a hand: the model exiles only those until a permanent leaves")
    present = step.objects[source].zone is Zone.BATTLEFIELD
    rule = step.on(Behaviour.UNTIL_ALREADY_LEFT)
    if not present and rule:
        step.cite(rule)
        return
    move(step, c, Zone.EXILE, step.slot(c).owner)
    if present and step.objects[c].zone is Zone.EXILE:
        step.objects[c] = step.objects[c].moved(exiled_with=source, returns_to=o.zone)


@symbolic(K.EXILE_UNTIL)
@implements(Behaviour.UNTIL_ALREADY_LEFT, half="symbolic")
def encode_exile_until(step: SymbolicStep, c: int) -> Effect:
    s, codes, source = step.s, step.codes, step.a.aim
    others = [d for d in range(len(step.slots)) if d != c]
    names_another = codes.any_of(source == codes.slot[d] for d in others)
    present = codes.any_of(And(source == codes.slot[d], s.zone[d] == step.Z[Zone.BATTLEFIELD]) for d in others)
    exiled = encode_move(step, c, Zone.EXILE, step.owner(c))
    linked = And(present, exiled.values["zone"] == step.Z[Zone.EXILE])
    values = exiled.values | {"exiled_with": If(linked, source, exiled.values["exiled_with"]),
                              "returns_to": If(linked, s.zone[c], exiled.values["returns_to"])}
    stays = And(Not(present), step.on(Behaviour.UNTIL_ALREADY_LEFT))
    event = And(codes.zone_is(s.zone[c], UNTIL_SOURCES), names_another)
    return Effect(event, staying_or_moved(step, c, stays, exiled.outcome), step.merge(c, stays, step.current(c), values), arrival=exiled.arrival)


@concrete(K.RETURN_UNTIL, Target.CARD, PlayerUse.ALWAYS, moves_card=True, sources=(Zone.EXILE,))
@implements(Behaviour.UNTIL_RETURNS, Behaviour.UNTIL_OWNER_CONTROLS, half="concrete")
def do_return_until(step: ConcreteStep) -> None:
    """Once the permanent a card was exiled until has left the battlefield (it has become a new
    object: `link_lost`), the card returns to the zone it came from (610.3): a permanent to the
    battlefield under its owner's control (610.3c; without 610.3c, under the control of the player
    who returns it), a card from a hand to its owner's hand. Without 610.3 nothing returns it."""
    c, o = step.target()
    step.require(o.zone is Zone.EXILE and o.returns_to is not Zone.NOWHERE, f"{step.name(c)} is not exiled until a permanent leaves the battlefield")
    rule = step.on(Behaviour.UNTIL_RETURNS)
    step.require(rule is not None, "no rule in force returns a card exiled until a permanent leaves the battlefield")
    step.cite(rule)
    step.require(o.link_lost, f"{step.name(o.exiled_with)} has not left the battlefield since {step.name(c)} was exiled until it does ({rule})")
    if o.returns_to is not Zone.BATTLEFIELD:
        move(step, c, o.returns_to, step.slot(c).owner)
        return
    owner_controls = step.on(Behaviour.UNTIL_OWNER_CONTROLS)
    if owner_controls:
        step.cite(owner_controls)
    enter_battlefield(step, c, step.slot(c).owner if owner_controls else step.action.player)


@symbolic(K.RETURN_UNTIL)
@implements(Behaviour.UNTIL_RETURNS, Behaviour.UNTIL_OWNER_CONTROLS, half="symbolic")
def encode_return_until(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    due = And(step.on(Behaviour.UNTIL_RETURNS), s.zone[c] == step.Z[Zone.EXILE], s.returns_to[c] != step.Z[Zone.NOWHERE], s.link_lost[c])
    controller = If(step.on(Behaviour.UNTIL_OWNER_CONTROLS), step.owner(c), step.a.player)
    returned = encode_enter_battlefield(step, c, controller, due)
    outcome, values = returned.outcome, returned.values
    for zone in (z for z in UNTIL_SOURCES if z is not Zone.BATTLEFIELD):
        moved, back_there = encode_move(step, c, zone, step.owner(c)), s.returns_to[c] == step.Z[zone]
        outcome, values = If(back_there, moved.outcome, outcome), step.merge(c, back_there, moved.values, values)
    return Effect(due, outcome, values)


@every_step("link-memory", "concrete")
def track_lost_links(step: ConcreteStep) -> None:
    """400.7 for a link (406.6, 610.3): once the permanent a card was exiled with becomes a new
    object, the link no longer finds that permanent's card. An exile with a permanent makes the
    link afresh."""
    keep_reference(step, "exiled_with", "link_lost", LINKING_KINDS)


@every_step("link-memory", "symbolic")
def encode_lost_links(step: SymbolicStep) -> list:
    return encode_keep_reference(step, "exiled_with", "link_lost", LINKING_KINDS)


LINKING_KINDS = (K.EXILE_WITH, K.EXILE_UNTIL)


@concrete(K.MOVE_TO_COMMAND, Target.CARD, moves_card=True, sources=GAME_ZONES)
@implements(Behaviour.COMMAND_IN_COMMAND, half="concrete")
def do_move_to_command(step: ConcreteStep) -> None:
    move_or_renew(step, Zone.COMMAND, Behaviour.COMMAND_IN_COMMAND)


@symbolic(K.MOVE_TO_COMMAND)
@implements(Behaviour.COMMAND_IN_COMMAND, half="symbolic")
def encode_move_to_command(step: SymbolicStep, c: int) -> Effect:
    return encode_move_or_renew(step, c, Zone.COMMAND, Behaviour.COMMAND_IN_COMMAND)


@concrete(K.TURN_FACE_DOWN, Target.CARD)
@implements(Behaviour.COMMAND_FACE_DOWN, half="concrete")
def do_turn_face_down(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.COMMAND and not o.face_down, f"{step.name(c)} is not a face-up object in the command zone")
    renew_in_place(step, c, Behaviour.COMMAND_FACE_DOWN, face_down=True)


@symbolic(K.TURN_FACE_DOWN)
@implements(Behaviour.COMMAND_FACE_DOWN, half="symbolic")
def encode_turn_face_down(step: SymbolicStep, c: int) -> Effect:
    s = step.s
    guard = And(s.zone[c] == step.Z[Zone.COMMAND], Not(s.face_down[c]))
    return Effect(guard, step.true, renewed(step, c, Behaviour.COMMAND_FACE_DOWN, face_down=step.true))

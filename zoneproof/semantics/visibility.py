"""Who may see the face of each object (400.2, 402.3, 406.3, 708.5, 708.9, 903.8's look at the
cards set aside, and the post-mulligan look's audience: 810.5 in a team game)."""

from __future__ import annotations

import z3

from ..model import ActionKind, Behaviour, GameState, ObjectState, Zone
from ..ruleset import RuleSet
from ..terms import And, If, Not, Or
from .library import encode_scry_shown
from .registry import every_step, implements
from .step import ConcreteStep, SymbolicStep

K = ActionKind
# The zones 400.2 may make hidden: a rule set file says which of them are (`hidden = true`).
HIDEABLE_ZONES = (Zone.LIBRARY, Zone.HAND)


def hidden_zones(ruleset: RuleSet) -> tuple[Zone, ...]:
    return tuple(z for z in HIDEABLE_ZONES if ruleset.declares_hidden(z))


@implements(Behaviour.HIDDEN_ZONES, Behaviour.FACE_DOWN_CONTROLLER_LOOKS, Behaviour.MULLIGAN_LOOK_SET_ASIDE, half="concrete")
def sees(ruleset: RuleSet, state: GameState, player: int, index: int) -> bool:
    """Whether `player` may see the face of the object in slot `index` (400.2, 402.3, 406.3, 708.5, 708.9).

    Not in the game (outside, a token that does not exist): nobody. Revealed by the step that led
    here (708.9): everyone; shown by it (the post-mulligan look, a scry): those it was shown to. Face down:
    on the battlefield or the stack its controller (708.5); in exile before the game starts its
    owner where the Commander mulligan lets a player look at the cards it set aside (903.8), and the
    player an instruction lets look at it (406.3, see sees_exiled_face_down); elsewhere nobody
    (708.5). Face up: in a hand the file declares hidden only its player, in a hidden library
    nobody (400.2, 401.2, 402.3); elsewhere everyone."""
    o = state.objects[index]
    if o.zone in (Zone.OUTSIDE, Zone.NOWHERE):
        return False
    if o.revealed or player in o.shown:
        return True
    if o.face_down:
        if o.zone is Zone.EXILE:
            set_aside = not state.started and ruleset.active(Behaviour.MULLIGAN_LOOK_SET_ASIDE) is not None and o.whose == player
            return set_aside or sees_exiled_face_down(ruleset, o, player)
        return (
            o.zone in (Zone.BATTLEFIELD, Zone.STACK)
            and ruleset.active(Behaviour.FACE_DOWN_CONTROLLER_LOOKS) is not None
            and o.controller == player
        )
    if o.zone in hidden_zones(ruleset) and ruleset.active(Behaviour.HIDDEN_ZONES) is not None:
        return o.zone is Zone.HAND and o.whose == player
    return True


@implements(Behaviour.HIDDEN_ZONES, Behaviour.FACE_DOWN_CONTROLLER_LOOKS, half="symbolic")
def encode_sees(system, t: int, player: int, c: int) -> z3.BoolRef:
    """Player `player` may see the face of slot c in state t (see sees)."""
    s, codes = system.state(t), system.codes
    Z = codes.zone
    in_game = Not(codes.zone_is(s.zone[c], (Zone.OUTSIDE, Zone.NOWHERE)))
    face_down = Or(
        And(
            codes.zone_is(s.zone[c], (Zone.BATTLEFIELD, Zone.STACK)),
            system.on(Behaviour.FACE_DOWN_CONTROLLER_LOOKS),
            s.controller[c] == codes.player[player],
        ),
        encode_sees_set_aside(system, t, player, c),
        encode_sees_exiled_face_down(system, t, player, c),
    )
    hidden = And(system.on(Behaviour.HIDDEN_ZONES), codes.zone_is(s.zone[c], hidden_zones(system.ruleset)))
    own_hand = And(s.zone[c] == Z[Zone.HAND], s.whose[c] == codes.player[player])
    face_up = If(hidden, own_hand, codes.true)
    return And(in_game, Or(s.revealed[c], encode_shown(system, t, player, c), If(s.face_down[c], face_down, face_up)))


@implements(Behaviour.MULLIGAN_LOOK_SET_ASIDE, half="symbolic")
def encode_sees_set_aside(system, t: int, player: int, c: int) -> z3.BoolRef:
    """Slot c, face down, is a card of the player's in exile before the game starts, where the
    Commander mulligan lets them look at the cards it set aside (903.8)."""
    if not system.in_file(Behaviour.MULLIGAN_LOOK_SET_ASIDE):
        return system.codes.false
    s = system.state(t)
    started = s.started if system.player_records else system.codes.false
    return And(
        s.zone[c] == system.codes.zone[Zone.EXILE], system.on(Behaviour.MULLIGAN_LOOK_SET_ASIDE), Not(started),
        s.whose[c] == system.codes.player[player],
    )


@implements(Behaviour.FACE_DOWN_EXILE, half="concrete")
def sees_exiled_face_down(ruleset: RuleSet, o: ObjectState, player: int) -> bool:
    """Whether the player may see a card in exile face down, apart from the Commander mulligan's
    look: under 406.3 only the player an instruction lets look (`looker`); with 406.3 removed
    anyone, as any exiled card; in a file without 406.3 nobody (the file models no such card)."""
    if not ruleset.in_file(Behaviour.FACE_DOWN_EXILE):
        return False
    return ruleset.active(Behaviour.FACE_DOWN_EXILE) is None or o.looker == player


@implements(Behaviour.FACE_DOWN_EXILE, half="symbolic")
def encode_sees_exiled_face_down(system, t: int, player: int, c: int) -> z3.BoolRef:
    """Slot c, face down, is in exile where the player may see it (see sees_exiled_face_down)."""
    if not system.in_file(Behaviour.FACE_DOWN_EXILE):
        return system.codes.false
    s, codes = system.state(t), system.codes
    return And(s.zone[c] == codes.zone[Zone.EXILE], Or(Not(system.on(Behaviour.FACE_DOWN_EXILE)), s.looker[c] == codes.player[player]))


@implements(Behaviour.MULLIGAN_TEAM_LOOK, half="concrete")
def look_audience(step: ConcreteStep, p: int) -> tuple[int, ...]:
    """Who sees the card of the post-mulligan look: the player who looks and, in a team game
    under the Two-Headed Giant rule of 2015, their teammates."""
    teammates = step.world.teammates(p)
    rule = step.on(Behaviour.MULLIGAN_TEAM_LOOK)
    if not (rule and teammates):
        return (p,)
    step.cite(rule)
    return tuple(sorted((p, *teammates)))


def encode_shown(system, t: int, player: int, c: int) -> z3.BoolRef:
    """The step before state t showed slot c to the player: the post-mulligan look (see
    encode_look_shown) or a scry of theirs that looked at it (701.22). No variable of its own: it
    reads step t - 1."""
    if t == 0:
        return system.codes.false
    return Or(encode_look_shown(system, t, player, c), encode_scry_shown(system, t, player, c))


@implements(Behaviour.MULLIGAN_TEAM_LOOK, half="symbolic")
def encode_look_shown(system, t: int, player: int, c: int) -> z3.BoolRef:
    """The post-mulligan look before state t shows the top card to the player who looks and, under
    the team-look rule, to their teammates (see look_audience)."""
    if not system.ruleset.allows(K.POST_MULLIGAN_LOOK):
        return system.codes.false
    a, codes = system.step(t - 1), system.codes
    audience = a.player == codes.player[player]
    teammates = system.scope.teammates(player)
    if teammates and system.in_file(Behaviour.MULLIGAN_TEAM_LOOK):
        by_teammate = codes.any_of(a.player == codes.player[q] for q in teammates)
        audience = Or(audience, And(system.on(Behaviour.MULLIGAN_TEAM_LOOK), by_teammate))
    return And(a.kind == codes.kind[K.POST_MULLIGAN_LOOK], a.card == codes.slot[c], audience)


def revealed_by_move(before: ObjectState, after: ObjectState) -> bool:
    """708.9: a face-down permanent leaving the battlefield, or a face-down spell leaving the stack
    for anywhere but the battlefield."""
    if not before.face_down:
        return False
    if before.zone is Zone.BATTLEFIELD:
        return after.zone is not Zone.BATTLEFIELD
    return before.zone is Zone.STACK and after.zone not in (Zone.STACK, Zone.BATTLEFIELD)


@every_step("reveal", "concrete")
@implements(Behaviour.FACE_DOWN_REVEAL, half="concrete")
def reveal(step: ConcreteStep) -> None:
    """Mark what this step revealed to all players (708.9)."""
    rule = step.on(Behaviour.FACE_DOWN_REVEAL)
    if not rule:
        return
    for i, (old, new) in enumerate(zip(step.before.objects, step.objects)):
        if revealed_by_move(old, new):
            step.cite(rule)
            step.objects[i] = new.moved(revealed=True)


@every_step("reveal", "symbolic")
@implements(Behaviour.FACE_DOWN_REVEAL, half="symbolic")
def encode_reveal(step: SymbolicStep) -> list:
    s, s2, Z = step.s, step.s2, step.Z
    facts = []
    for c in range(len(step.slots)):
        leaves_field = And(s.zone[c] == Z[Zone.BATTLEFIELD], s2.zone[c] != Z[Zone.BATTLEFIELD])
        leaves_stack = And(s.zone[c] == Z[Zone.STACK], s2.zone[c] != Z[Zone.STACK], s2.zone[c] != Z[Zone.BATTLEFIELD])
        facts.append(s2.revealed[c] == And(step.on(Behaviour.FACE_DOWN_REVEAL), s.face_down[c], Or(leaves_field, leaves_stack)))
    return facts

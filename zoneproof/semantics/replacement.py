"""Replacement effects on a player's graveyard (614.1a; 400.6 of 2010): a step begins one ("if a
card would be put into that graveyard from anywhere, exile it instead", or "if a creature would die,
exile it instead") or ends them. The move kernel asks `replaced_zone` where an object headed for a
graveyard goes: under 614.6 the replaced event never happens and the object is exiled instead.

The graveyard an effect watches is the one the event would put the object into, which 400.3 has
already made its owner's: whose zone is decided first, the replacement after.
"""

from __future__ import annotations

from ..model import PLAYER_NAMES, REPLACEMENT_FIELDS, ActionKind, Behaviour, CardType, Zone
from ..terms import And, Not, Or
from .registry import PlayerUse, Target, concrete, implements, symbolic
from .step import ConcreteStep, SymbolicStep, Transition

K = ActionKind
# The action that begins each effect (the player field it sets), and what the effect does.
BEGUN_BY = {K.EXILE_INSTEAD: "exile_instead", K.EXILE_IF_DIES: "exile_if_dies"}
DESCRIBED = {"exile_instead": "exile instead of the graveyard", "exile_if_dies": "exile instead of dying"}


def declare_beginning(kind: ActionKind, effect: str) -> None:
    """The action `kind` begins `effect` on the named player's graveyard; not while it is in force."""

    @concrete(kind, Target.NONE, PlayerUse.ALWAYS)
    def do_begin(step: ConcreteStep) -> None:
        p, record = step.player_state()
        step.require(not getattr(record, effect), f"{PLAYER_NAMES[p]}'s graveyard already has the effect '{DESCRIBED[effect]}'")
        step.players[p] = record.moved(**{effect: True})

    @symbolic(kind)
    def encode_begin(step: SymbolicStep) -> Transition:
        return Transition(Not(step.player_of(step.s, effect, step.a.player)), players={effect: lambda p: step.true})


for begun_by, begun in BEGUN_BY.items():
    declare_beginning(begun_by, begun)


@concrete(K.END_REPLACEMENT, Target.NONE, PlayerUse.ALWAYS)
def do_end_replacement(step: ConcreteStep) -> None:
    p, record = step.player_state()
    step.require(any(getattr(record, f) for f in REPLACEMENT_FIELDS), f"no replacement effect is in force on {PLAYER_NAMES[p]}'s graveyard")
    step.players[p] = record.moved(**{f: False for f in REPLACEMENT_FIELDS})


@symbolic(K.END_REPLACEMENT)
def encode_end_replacement(step: SymbolicStep) -> Transition:
    in_force = step.codes.any_of(step.player_of(step.s, f, step.a.player) for f in REPLACEMENT_FIELDS)
    return Transition(in_force, players={f: lambda p: step.false for f in REPLACEMENT_FIELDS})


# ---------------------------------------------------------------- the replaced event (614.6)


@implements(Behaviour.REPLACED_BY_EXILE, half="concrete")
def replaced_zone(step: ConcreteStep, index: int, zone: Zone, whose: int) -> Zone:
    """Where an object that would be put into `whose`'s `zone` goes: exile, where an effect on that
    graveyard replaces the event (614.6); otherwise `zone`. Dying is being put into a graveyard from
    the battlefield, said of a creature (a face-down permanent is one, 708.2a)."""
    if zone is not Zone.GRAVEYARD or not step.players:
        return zone
    record, o = step.players[whose], step.objects[index]
    face_down_creature = o.face_down and step.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
    dies = o.zone is Zone.BATTLEFIELD and (step.card_type(index) is CardType.CREATURE or bool(face_down_creature))
    rule = (record.exile_instead or (record.exile_if_dies and dies)) and step.on(Behaviour.REPLACED_BY_EXILE)
    if not rule:
        return zone
    step.cite(rule)
    return Zone.EXILE


@implements(Behaviour.REPLACED_BY_EXILE, half="symbolic")
def exiled_instead(step: SymbolicStep, c: int, whose):
    """Slot c, headed for the graveyard of the player `whose` names, is exiled instead (see
    replaced_zone); None where the rule set has no replacement effect."""
    if not step.system.player_field_changes(REPLACEMENT_FIELDS[0]):
        return None
    s = step.s
    face_down_creature = And(s.face_down[c], step.on(Behaviour.FACE_DOWN_CHARACTERISTICS))
    dies = And(s.zone[c] == step.Z[Zone.BATTLEFIELD], Or(step.card_type(c) == step.codes.type[CardType.CREATURE], face_down_creature))
    applies = Or(step.player_of(s, "exile_instead", whose), And(step.player_of(s, "exile_if_dies", whose), dies))
    return And(step.on(Behaviour.REPLACED_BY_EXILE), applies)

"""Replacement effects on zone changes (614.1a; 400.6 of 2010), and a commander's (903.9b).

Two kinds, applied to a move by the move kernel in this order:

- an effect on a player's graveyard, which a step begins ("if a card would be put into that
  graveyard from anywhere, exile it instead", or "if a creature would die, exile it instead") and a
  later step ends. It applies without a choice: under 614.6 the replaced event never happens and
  the object is exiled instead (`replaced_zone`, `exiled_instead`);
- a commander's, which the rules give its owner for the whole game: a commander headed for a zone
  the rule set's wording of 903.9 names may go to the command zone instead. It applies only where
  the owner chooses it, a choice recorded on the action (`to_command`; `command_instead`,
  `commander_allowed`).

Symbolically each is an `Instead`: when it applies, the move's outcome is what it allows and the
object goes to its zone instead. 616.1 lets the owner order the two; the order here (the exile
first, then the owner's choice) reaches what the other does (docs/replacement.md).

The graveyard an effect watches is the one the event would put the object into, which 400.3 has
already made its owner's: whose zone is decided first, the replacement after.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from ..model import PLAYER_NAMES, REPLACEMENT_FIELDS, ActionKind, Behaviour, CardType, Zone
from ..ruleset import COMMANDER_REPLACEABLE
from ..terms import And, If, Not, Or
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


# ---------------------------------------------------------------- a commander's replacement (903.9b)


@implements(Behaviour.COMMANDER_REPLACE, half="concrete")
def command_instead(step: ConcreteStep, index: int, zone: Zone, whose: int) -> bool:
    """Whether the owner puts a commander headed for `whose`'s `zone` into the command zone
    instead (903.9b; 903.9 before July 2020), asked of an action that records that choice (once
    per action); the move kernel then moves it there. Not offered to a commander already in the
    command zone: it would only be put back where it is."""
    if step.replaced:
        return False
    step.replaced = True
    slot = step.slot(index)
    step.require(slot.is_commander, f"{slot.name} is not a commander; only a commander's owner may put it into the command zone instead")
    step.require(step.objects[index].zone is not Zone.COMMAND, f"{slot.name} is already in the command zone")
    step.require(whose == slot.owner, f"{slot.name} is headed for {PLAYER_NAMES[whose]}'s {zone.value}, not its owner's: no rule replaces that")
    rule = step.on(Behaviour.COMMANDER_REPLACE, zone)
    step.require(rule is not None or step.world.ruleset.fallback_replacement(zone) is not None,
                 f"no rule in force lets {slot.name} go to the command zone instead of the {zone.value}")
    step.cite(rule)
    return True


@implements(Behaviour.COMMANDER_REPLACE, half="symbolic")
def replaces(step: SymbolicStep, zone: Zone):
    """A commander that would be put into `zone` may go to the command zone instead: a rule in
    force replaces that zone (903.9b), or 903.9a is removed and the zone is a graveyard or exile
    (see RuleSet.fallback_replacement)."""
    if zone not in COMMANDER_REPLACEABLE:
        return step.false
    fallback = []
    if zone in (Zone.GRAVEYARD, Zone.EXILE):
        fallback = [Not(step.system.rule_literal[r.id]) for r in step.system.ruleset.rules if r.behaviour is Behaviour.COMMANDER_RETURN_SBA]
    return Or(step.on(Behaviour.COMMANDER_REPLACE, zone), step.codes.any_of(fallback))


def commander_allowed(step: SymbolicStep, c: int, zone: Zone, whose, exiled=None) -> z3.BoolRef:
    """Commander c, headed for `whose`'s `zone` (or for exile, where `exiled` says an effect on
    the graveyard has put exile in its place), may go to the command zone instead (see command_instead)."""
    replaced = And(replaces(step, zone), whose == step.owner(c))
    if exiled is not None:
        replaced = If(exiled, replaces(step, Zone.EXILE), replaced)
    return And(replaced, step.s.zone[c] != step.Z[Zone.COMMAND], Not(step.zone_closed(Zone.COMMAND)))


# ---------------------------------------------------------------- both, in the order they apply


@dataclass(frozen=True)
class Instead:
    """A replacement of a symbolic move: when `applies`, the object goes to `zone` instead (its
    owner's, face up, a new object), and the move's outcome is `allowed`."""

    applies: z3.BoolRef
    zone: Zone
    allowed: z3.BoolRef


def replacements(step: SymbolicStep, c: int, zone: Zone, whose) -> list[Instead]:
    """The replacements of slot c's move to `whose`'s `zone`, in the order they apply (each
    applied after the ones before it)."""
    found = []
    exiled = exiled_instead(step, c, whose) if zone is Zone.GRAVEYARD else None
    if exiled is not None:
        found.append(Instead(exiled, Zone.EXILE, Not(step.zone_closed(Zone.EXILE))))
    if step.slots[c].is_commander:
        found.append(Instead(step.a.to_command, Zone.COMMAND, commander_allowed(step, c, zone, whose, exiled)))
    return found

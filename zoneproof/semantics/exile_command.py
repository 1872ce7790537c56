"""Exile and the command zone: an object put where it already is becomes a new object there
(400.8, 400.10), and one turned face down in the command zone too (400.9)."""

from __future__ import annotations

from ..model import GAME_ZONES, ActionKind, Behaviour, Zone
from ..terms import And, Not, Or
from .kernel import encode_move, move, renew_in_place, renewed, source_allowed, source_ok
from .registry import Target, concrete, implements, symbolic
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


def encode_move_or_renew(step: SymbolicStep, c: int, zone: Zone, behaviour: Behaviour) -> Effect:
    moved = encode_move(step, c, zone, step.owner(c))
    already = step.s.zone[c] == step.Z[zone]
    values = step.merge(c, already, renewed(step, c, behaviour), moved.values)
    stays, outcome = already, moved.outcome
    if step.slots[c].is_commander:  # staying is no move that a commander replacement could replace
        stays = And(already, Not(step.a.to_command))
        outcome = And(Not(already), outcome)
    return Effect(source_ok(step, c, GAME_ZONES), Or(stays, outcome), values)


@concrete(K.EXILE, Target.CARD, moves_card=True, sources=GAME_ZONES)
@implements(Behaviour.EXILE_IN_EXILE, half="concrete")
def do_exile(step: ConcreteStep) -> None:
    move_or_renew(step, Zone.EXILE, Behaviour.EXILE_IN_EXILE)


@symbolic(K.EXILE)
@implements(Behaviour.EXILE_IN_EXILE, half="symbolic")
def encode_exile(step: SymbolicStep, c: int) -> Effect:
    return encode_move_or_renew(step, c, Zone.EXILE, Behaviour.EXILE_IN_EXILE)


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

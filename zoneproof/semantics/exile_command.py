"""Exile and the command zone: an object put where it already is becomes a new object there
(400.8, 400.10), and one turned face down in the command zone too (400.9). A card exiled face down
records the player an instruction lets look at it (406.3; who sees it is in visibility.py)."""

from __future__ import annotations

from dataclasses import replace

from ..model import GAME_ZONES, ActionKind, Behaviour, Zone
from ..terms import And, If, Not, Or
from .kernel import encode_move, move, renew_in_place, renewed, source_allowed, source_ok
from .registry import PlayerUse, Target, concrete, implements, symbolic
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

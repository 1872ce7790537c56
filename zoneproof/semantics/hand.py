"""Hands and outside the game: discard, return to a hand, bring a card into the game (400.11)."""

from __future__ import annotations

from dataclasses import replace

from ..model import ActionKind, Zone
from .kernel import encode_move, move, source_allowed, source_ok
from .registry import Target, concrete, symbolic
from .step import ConcreteStep, Effect, SymbolicStep

K = ActionKind
RETURN_TO_HAND_SOURCES = (Zone.BATTLEFIELD, Zone.STACK, Zone.GRAVEYARD, Zone.EXILE, Zone.COMMAND)


@concrete(K.DISCARD, Target.CARD, moves_card=True, graveyard_bound=True)
def do_discard(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.HAND, f"{step.name(c)} is not in a hand")
    move(step, c, Zone.GRAVEYARD, o.whose)


@symbolic(K.DISCARD)
def encode_discard(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.GRAVEYARD, step.s.whose[c]), event=step.s.zone[c] == step.Z[Zone.HAND])


@concrete(K.RETURN_TO_HAND, Target.CARD, moves_card=True, sources=RETURN_TO_HAND_SOURCES)
def do_return_to_hand(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(source_allowed(step, o.zone, RETURN_TO_HAND_SOURCES), f"{step.name(c)} cannot be returned to a hand from {o.zone.value}")
    move(step, c, Zone.HAND, o.controller)


@symbolic(K.RETURN_TO_HAND)
def encode_return_to_hand(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.HAND, step.s.controller[c]), event=source_ok(step, c, RETURN_TO_HAND_SOURCES))


@concrete(K.BRING_IN, Target.CARD, moves_card=True)
def do_bring_in(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(o.zone is Zone.OUTSIDE, f"{step.name(c)} is not outside the game")
    move(step, c, Zone.HAND, step.slot(c).owner)


@symbolic(K.BRING_IN)
def encode_bring_in(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.HAND, step.owner(c)), event=step.s.zone[c] == step.Z[Zone.OUTSIDE])

"""The property language over a transition system's variables (evaluate.Backend in Z3 terms)."""

from __future__ import annotations

from dataclasses import dataclass

import z3

from ..model import ActionKind, CardType, PlayerState, Zone, player_field
from ..properties import FUNCTIONS, Type
from ..terms import Eq, If, Implies, Not


@dataclass(frozen=True)
class Position:
    """pos(c) in state t. Kept apart from other integers so that comparing the positions of two
    objects of one pile reads the pile order directly; elsewhere it is the count."""

    t: int
    slot: int


class SymbolicBackend:
    """Evaluates a property over the variables of state t (and step t, state t+1 for step properties)."""

    def __init__(self, system, t: int):
        self.system = system
        self.codes = system.codes
        self.t = t

    def number(self, x):
        return self.system.position(x.t, x.slot) if isinstance(x, Position) else x

    def bool_const(self, b: bool):
        return z3.BoolVal(b, self.system.ctx)

    def int_const(self, n: int):
        return self.codes.int(n)

    def zone_const(self, z: Zone):
        return self.codes.zone[z]

    def type_const(self, t: CardType):
        return self.codes.type[t]

    def kind_const(self, k: ActionKind):
        return self.codes.kind[k]

    def player_const(self, p: int):
        return self.codes.player[p]

    def object_const(self, slot: int):
        return self.codes.slot[slot]

    def and_(self, xs):
        return self.codes.all_of(xs)

    def or_(self, xs):
        return self.codes.any_of(xs)

    def not_(self, x):
        return Not(x)

    def implies(self, a, b):
        return Implies(a, b)

    def iff(self, a, b):
        return Eq(a, b)

    @staticmethod
    def _same(a, b) -> bool:
        return isinstance(a, Position) and isinstance(b, Position) and a == b

    def _pile_pair(self, a, b) -> bool:
        return isinstance(a, Position) and isinstance(b, Position) and a.t == b.t and a.slot != b.slot

    def _below(self, a: Position, b: Position, otherwise):
        """a below b when they are in one pile (read from the order), else `otherwise`."""
        s = self.system.state(a.t)
        return If(self.system.same_pile(s, a.slot, b.slot), s.is_above(b.slot, a.slot), otherwise)

    def eq(self, a, b):
        if self._same(a, b):
            return self.codes.true
        if self._pile_pair(a, b):
            s = self.system.state(a.t)
            return If(self.system.same_pile(s, a.slot, b.slot), self.codes.false, Eq(self.number(a), self.number(b)))
        return Eq(self.number(a), self.number(b))

    def lt(self, a, b):
        if self._same(a, b):
            return self.codes.false
        if self._pile_pair(a, b):
            return self._below(a, b, self.number(a) < self.number(b))
        return self.number(a) < self.number(b)

    def le(self, a, b):
        if self._same(a, b):
            return self.codes.true
        if self._pile_pair(a, b):
            return self._below(a, b, self.number(a) <= self.number(b))
        return self.number(a) <= self.number(b)

    def add(self, a, b):
        return self.number(a) + self.number(b)

    def sub(self, a, b):
        return self.number(a) - self.number(b)

    def at(self, primed: bool) -> int:
        return self.t + 1 if primed else self.t

    def field(self, name: str, slot: int, primed: bool):
        system = self.system
        if name == "owner":
            return self.codes.player[system.slots[slot].owner]
        if FUNCTIONS[name] == (Type.BOOL, True):  # a static truth of the slot: is_token, is_commander, ...
            return z3.BoolVal(getattr(system.slots[slot], name), system.ctx)
        if name == "type":
            return system.card_type[slot]
        if name == "pos":
            return Position(self.at(primed), slot)
        return system.state(self.at(primed)).field(name, slot)

    def size(self, zone: Zone, player: int | None, primed: bool):
        return self.system.size(self.at(primed), zone, player)

    def player_field(self, name: str, player: int, primed: bool):
        system = self.system
        if name == "starting_hand":
            return self.codes.int(system.hand + system.scope.hand_modifier(player))
        if name == "team":
            return self.codes.int(system.scope.team(player))
        if name == "may_look":
            return system.may_look(self.at(primed), self.codes.player[player])
        if not system.player_records:  # no player records: every player is as at the start, the game not started
            return self.codes.false if name == "started" else self.codes.const(getattr(PlayerState(), player_field(name)))
        if name == "started":
            return system.state(self.at(primed)).started
        return system.state(self.at(primed)).player(player_field(name), player)

    def action_field(self, name: str):
        return getattr(self.system.step(self.t), name)

    def sees(self, player: int, slot: int, primed: bool):
        return self.system.sees(self.at(primed), player, slot)

    def shown(self, player: int, slot: int, primed: bool):
        return self.system.shown(self.at(primed), player, slot)

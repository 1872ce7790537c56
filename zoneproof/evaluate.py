"""Evaluate a property over a backend: plain Python values here, Z3 terms in the encoder.

Quantifiers are expanded over the finite scope, so a backend only ever sees closed terms about
concrete slots and players.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any, Protocol

from .interpreter import may_look, sees, starting_hand
from .model import Action, ActionKind, CardType, GameState, PlayerState, Slot, SlotKind, Zone, modifier_of, team_of
from .properties import (
    ActionField,
    Apply,
    BinOp,
    BoolLit,
    Const,
    Expr,
    In,
    IntLit,
    PLAYER_FUNCTIONS,
    Not,
    Property,
    PropertyKind,
    Quant,
    Sees,
    Shown,
    Size,
    Sort,
    Var,
)
from .ruleset import RuleSet


class Backend(Protocol):
    """The values a property is built from. Bool, Int and the other value types are whatever the
    backend chooses (Python values, Z3 expressions); the evaluator only passes them around."""

    def bool_const(self, b: bool) -> Any:
        """The Bool `b`."""

    def int_const(self, n: int) -> Any:
        """The Int `n`."""

    def zone_const(self, z: Zone) -> Any:
        """The Zone `z` (comparable with field("zone", ...) and action_field("zone"))."""

    def type_const(self, t: CardType) -> Any:
        """The CardType `t` (comparable with field("type", ...))."""

    def kind_const(self, k: ActionKind) -> Any:
        """The ActionKind `k` (comparable with action_field("kind"))."""

    def player_const(self, p: int) -> Any:
        """Player number `p` (comparable with whose/controller/owner and action_field("player"))."""

    def object_const(self, slot: int) -> Any:
        """The object in slot `slot` (comparable with action_field("card"))."""

    def and_(self, xs: list) -> Any:
        """The conjunction of the Bools `xs` (true when empty)."""

    def or_(self, xs: list) -> Any:
        """The disjunction of the Bools `xs` (false when empty)."""

    def not_(self, x: Any) -> Any:
        """The negation of the Bool `x`."""

    def implies(self, a: Any, b: Any) -> Any:
        """The Bool `a -> b`."""

    def iff(self, a: Any, b: Any) -> Any:
        """The Bool `a <-> b`."""

    def eq(self, a: Any, b: Any) -> Any:
        """The Bool `a == b`, for two values of the same type."""

    def lt(self, a: Any, b: Any) -> Any:
        """The Bool `a < b` for Ints."""

    def le(self, a: Any, b: Any) -> Any:
        """The Bool `a <= b` for Ints."""

    def add(self, a: Any, b: Any) -> Any:
        """The Int `a + b`."""

    def sub(self, a: Any, b: Any) -> Any:
        """The Int `a - b`."""

    def field(self, name: str, slot: int, primed: bool) -> Any:
        """A function of the object in `slot`, in the next state when `primed`. `name` is one of
        zone, whose, controller, owner, pos, gen, counters, face_down, tapped, attached, effect,
        type, is_token, is_commander (owner, type, is_token and is_commander are static and always
        come unprimed)."""

    def size(self, zone: Zone, player: int | None, primed: bool) -> Any:
        """The number of objects in `zone` (a player's zone when `player` is given, which happens
        only for library, hand and graveyard), in the next state when `primed`."""

    def player_field(self, name: str, player: int, primed: bool) -> Any:
        """A function of player number `player` (see properties.PLAYER_FUNCTIONS), in the next state
        when `primed` (starting_hand is static and always comes unprimed)."""

    def action_field(self, name: str) -> Any:
        """A field of the step's action: kind (ActionKind), card (Object), player (Player),
        n (Int) or zone (Zone). card and player are only ever passed to eq."""

    def sees(self, player: int, slot: int, primed: bool) -> Any:
        """The Bool: player `player` may see the face of the object in `slot` under the rules in
        force, in the next state when `primed`."""

    def shown(self, player: int, slot: int, primed: bool) -> Any:
        """The Bool: the step that led to the state showed the object in `slot` to player `player`."""


def evaluate(target: Property | Expr, backend: Backend, slots: tuple[Slot, ...], players: int) -> Any:
    """The backend's Bool for a property (or a closed expression) over the given scope."""
    expr = target.expr if isinstance(target, Property) else target
    return _Evaluator(backend, _domains(slots, players)).value(expr, {})


def falsifying_bindings(prop: Property, backend: Backend, slots: tuple[Slot, ...], players: int) -> list[dict[str, int]]:
    """For a property of the form `forall x, y. body`: the bindings of x, y for which the body is
    false (concrete backends only). Empty for any other form."""
    expr = prop.expr
    if not isinstance(expr, Quant) or expr.kind != "forall":
        return []
    evaluator = _Evaluator(backend, _domains(slots, players))
    names = [name for name, _ in expr.binders]
    found = []
    for choice in itertools.product(*(evaluator.domains[sort] for _, sort in expr.binders)):
        env = dict(zip(names, choice))
        if not evaluator.value(expr.body, env):
            found.append(env)
    return found


def int_reach(target: Property | Expr, variable_bound: int) -> int:
    """An upper bound on the magnitude of every integer the expression computes, given that each
    integer-valued function (pos, gen, counters, size, action.n) stays within variable_bound.
    The encoder sizes its bit-vectors by it, so no comparison of the property can overflow."""
    best = 0

    def walk(node) -> int:
        nonlocal best
        match node:
            case IntLit(value):
                reach = abs(value)
            case Apply(fn, _, _) if fn in ("pos", "gen", "counters", "mulligans", "owed", "starting_hand", "team"):
                reach = variable_bound
            case Size() | ActionField("n"):
                reach = variable_bound
            case BinOp("+" | "-", left, right):
                reach = walk(left) + walk(right)
            case _:
                for child in _children(node):
                    walk(child)
                reach = 0
        best = max(best, reach)
        return reach

    walk(target.expr if isinstance(target, Property) else target)
    return best


def _children(node) -> list:
    found = []
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        items = value if isinstance(value, tuple) else (value,)
        found += [x for x in items if dataclasses.is_dataclass(x)]
    return found


def _domains(slots: tuple[Slot, ...], players: int) -> dict[Sort, tuple[int, ...]]:
    return {
        Sort.OBJECT: tuple(s.index for s in slots),
        Sort.CARD: tuple(s.index for s in slots if s.kind in (SlotKind.CARD, SlotKind.SIDEBOARD, SlotKind.COMMANDER)),
        Sort.TOKEN: tuple(s.index for s in slots if s.kind is SlotKind.TOKEN),
        Sort.PLAYER: tuple(range(players)),
    }


BUILDERS = {
    "->": lambda b, x, y: b.implies(x, y),
    "<->": lambda b, x, y: b.iff(x, y),
    "==": lambda b, x, y: b.eq(x, y),
    "!=": lambda b, x, y: b.not_(b.eq(x, y)),
    "<": lambda b, x, y: b.lt(x, y),
    "<=": lambda b, x, y: b.le(x, y),
    ">": lambda b, x, y: b.lt(y, x),
    ">=": lambda b, x, y: b.le(y, x),
    "+": lambda b, x, y: b.add(x, y),
    "-": lambda b, x, y: b.sub(x, y),
}


@dataclass(frozen=True)
class _Evaluator:
    backend: Backend
    domains: dict[Sort, tuple[int, ...]]

    def value(self, node: Expr, env: dict[str, int]) -> Any:
        b = self.backend
        match node:
            case BoolLit(value):
                return b.bool_const(value)
            case IntLit(value):
                return b.int_const(value)
            case Const(value):
                return self.constant(value)
            case Var(name, sort):
                return b.player_const(env[name]) if sort is Sort.PLAYER else b.object_const(env[name])
            case Apply(fn, var_name, primed) if fn in PLAYER_FUNCTIONS:
                return b.player_field(fn, env[var_name], primed)
            case Apply(fn, var_name, primed):
                return b.field(fn, env[var_name], primed)
            case Size(zone, player_var, primed):
                return b.size(zone, None if player_var is None else env[player_var], primed)
            case ActionField(name):
                return b.action_field(name)
            case Sees(player_var, object_var, primed):
                return b.sees(env[player_var], env[object_var], primed)
            case Shown(player_var, object_var, primed):
                return b.shown(env[player_var], env[object_var], primed)
            case Not(operand):
                return b.not_(self.value(operand, env))
            case BinOp("and" | "or" as op, _, _):
                operands = [self.value(x, env) for x in _chain(node, op)]
                return b.and_(operands) if op == "and" else b.or_(operands)
            case BinOp(op, left, right):
                return BUILDERS[op](b, self.value(left, env), self.value(right, env))
            case In(expr, items):
                x = self.value(expr, env)
                return b.or_([b.eq(x, self.value(item, env)) for item in items])
            case Quant(kind, binders, body):
                names = [name for name, _ in binders]
                choices = itertools.product(*(self.domains[sort] for _, sort in binders))
                cases = [self.value(body, {**env, **dict(zip(names, choice))}) for choice in choices]
                return b.and_(cases) if kind == "forall" else b.or_(cases)
        raise TypeError(f"not an expression node: {node!r}")

    def constant(self, value: Zone | CardType | ActionKind) -> Any:
        if isinstance(value, Zone):
            return self.backend.zone_const(value)
        if isinstance(value, CardType):
            return self.backend.type_const(value)
        return self.backend.kind_const(value)


def _chain(node: Expr, op: str) -> list[Expr]:
    """The operands of a run of the same associative operator: a and b and c -> [a, b, c]."""
    operands: list[Expr] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, BinOp) and current.op == op:
            pending += [current.right, current.left]
        else:
            operands.append(current)
    return operands


@dataclass(frozen=True)
class ConcreteBackend:
    """Plain Python values: bools, ints, the model's enums; players and objects as ints.
    action_field("card") and ("player") may be None, which equals nothing."""

    slots: tuple[Slot, ...]
    card_types: tuple[CardType, ...]
    before: GameState
    action: Action | None = None
    after: GameState | None = None
    ruleset: RuleSet | None = None  # needed only by sees() and may_look()
    hand: int = 2  # the starting hand size, for starting_hand(p)
    hand_modifiers: tuple[int, ...] = ()  # each player's vanguard hand modifier (Scope.hand_modifiers)
    team_size: int = 0  # the scope's team size, for team(p)

    def bool_const(self, b: bool) -> bool:
        return b

    def int_const(self, n: int) -> int:
        return n

    def zone_const(self, z: Zone) -> Zone:
        return z

    def type_const(self, t: CardType) -> CardType:
        return t

    def kind_const(self, k: ActionKind) -> ActionKind:
        return k

    def player_const(self, p: int) -> int:
        return p

    def object_const(self, slot: int) -> int:
        return slot

    def and_(self, xs: list) -> bool:
        return all(xs)

    def or_(self, xs: list) -> bool:
        return any(xs)

    def not_(self, x: bool) -> bool:
        return not x

    def implies(self, a: bool, b: bool) -> bool:
        return (not a) or b

    def iff(self, a: bool, b: bool) -> bool:
        return a == b

    def eq(self, a: Any, b: Any) -> bool:
        return a is not None and b is not None and a == b

    def lt(self, a: int, b: int) -> bool:
        return a < b

    def le(self, a: int, b: int) -> bool:
        return a <= b

    def add(self, a: int, b: int) -> int:
        return a + b

    def sub(self, a: int, b: int) -> int:
        return a - b

    def field(self, name: str, slot: int, primed: bool) -> Any:
        if name == "owner":
            return self.slots[slot].owner
        if name == "is_token":
            return self.slots[slot].is_token
        if name == "is_commander":
            return self.slots[slot].is_commander
        if name == "type":
            return self.card_types[slot]
        return getattr(self.state(primed).objects[slot], name)

    def size(self, zone: Zone, player: int | None, primed: bool) -> int:
        return self.state(primed).size(zone, player)

    def player_field(self, name: str, player: int, primed: bool) -> Any:
        if name == "starting_hand":
            return self.hand + modifier_of(self.hand_modifiers, player)
        if name == "team":
            return team_of(self.team_size, player)
        state = self.state(primed)
        if name == "may_look":
            if self.ruleset is None:
                raise ValueError("may_look() needs the rule set: who may look depends on the rules in force")
            return may_look(self.ruleset, state, player, starting_hand(self.ruleset, self.hand, self.hand_modifiers, player))
        record = state.players[player] if state.players else PlayerState()
        return getattr(record, "free_taken" if name == "free_mulligan" else name)

    def action_field(self, name: str) -> Any:
        if self.action is None:
            raise ValueError("a step property needs an action to evaluate action fields")
        return getattr(self.action, name)

    def sees(self, player: int, slot: int, primed: bool) -> bool:
        if self.ruleset is None:
            raise ValueError("sees() needs the rule set: who may see a face depends on the rules in force")
        return sees(self.ruleset, self.state(primed), player, slot)

    def shown(self, player: int, slot: int, primed: bool) -> bool:
        return player in self.state(primed).objects[slot].shown

    def state(self, primed: bool) -> GameState:
        if not primed:
            return self.before
        if self.after is None:
            raise ValueError("a step property needs the next state to evaluate primed functions")
        return self.after


def evaluate_concrete(
    prop: Property,
    slots: tuple[Slot, ...],
    card_types: tuple[CardType, ...],
    before: GameState,
    action: Action | None = None,
    after: GameState | None = None,
    *,
    players: int | None = None,
    ruleset: RuleSet | None = None,
    hand: int = 2,
    hand_modifiers: tuple[int, ...] = (),
    team_size: int = 0,
) -> bool:
    """Whether the property holds of `before` (an always property) or of the step
    `before --action--> after` (a step property). `players` defaults to the owners in `slots`."""
    if prop.kind is PropertyKind.STEP and (action is None or after is None):
        raise ValueError(f"step property '{prop.id}' needs an action and the next state")
    if players is None:
        players = 1 + max((s.owner for s in slots), default=-1)
    backend = ConcreteBackend(slots, card_types, before, action, after, ruleset, hand, hand_modifiers, team_size)
    return bool(evaluate(prop, backend, slots, players))

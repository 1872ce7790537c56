"""Evaluate a property over a backend: plain Python values here, Z3 terms in the encoder.

Quantifiers are expanded over the finite scope, so a backend only ever sees closed terms about
concrete slots and players.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .interpreter import may_look, sees, starting_hand
from .model import Action, ActionKind, CardType, GameState, PlayerState, Slot, SlotKind, Zone, modifier_of, player_field, team_of
from .properties import (
    ActionField,
    Apply,
    BinOp,
    BoolLit,
    Const,
    Expr,
    In,
    IntLit,
    FUNCTIONS,
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
        zone, whose, controller, owner, pos, gen, counters, casts, looker, face_down, tapped,
        attached, effect, target, target_lost, exiled_with, link_lost, returns_to, copy, type, is_token, is_commander, is_sideboard
        (owner, type and the is_ functions are static and always come unprimed)."""

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


class _Undecided:
    """The value of a Bool that a concrete backend cannot give yet (a card whose type is not fixed)."""

    def __repr__(self) -> str:
        return "UNDECIDED"

    def __bool__(self) -> bool:
        raise TypeError("UNDECIDED is neither true nor false: test `is UNDECIDED` first")


# A lazy evaluation (compile_lazily, compile_staged) follows Kleene's three-valued logic: a backend
# may answer UNDECIDED for a Bool it cannot decide, and a connective is UNDECIDED only when its
# decided operands leave it open (false and UNDECIDED is false).
UNDECIDED = _Undecided()


def evaluate(target: Property | Expr, backend: Backend, slots: tuple[Slot, ...], players: int) -> Any:
    """The backend's Bool for a property (or a closed expression) over the given scope. Every
    operand is evaluated, in order, so a symbolic backend builds the whole term."""
    return _compiled(target, slots, players, lazy=False)(backend, {})


def compile_lazily(target: Property | Expr, slots: tuple[Slot, ...], players: int) -> Callable[[Backend], Any]:
    """The property as a function of a backend whose Bools are Python bools (or UNDECIDED): True,
    False or UNDECIDED, the same value as `evaluate`, found with as few backend calls as the
    connectives allow. A quantifier tests each conjunct of its body's condition as soon as the
    variables the conjunct uses are bound (`forall c, d. A(c) and B(c, d) -> ...` skips every d
    when A(c) is false). Compiled once for many evaluations."""
    compiled = _compiled(target, slots, players, lazy=True)
    return lambda backend: compiled(backend, {})


def compile_staged(target: Property | Expr, slots: tuple[Slot, ...], players: int) -> "Staged":
    """compile_lazily for many steps from one state, in two stages (see Staged)."""
    expr = target.expr if isinstance(target, Property) else target
    return _Compiler(_domains(slots, players), lazy=True).staged(expr)


def falsifying_kinds(target: Property | Expr) -> frozenset[ActionKind] | None:
    """The action kinds outside which a step property cannot be false, read off its form: each
    part of its top-level `and` a `forall ... . action.kind == k and ... -> ...` (or `action.kind in
    {...}`); None when some part could be false whatever the action."""
    expr = target.expr if isinstance(target, Property) else target
    kinds: set[ActionKind] = set()
    for part in _chain(expr, "and"):
        if not (isinstance(part, Quant) and part.kind == "forall" and isinstance(part.body, BinOp) and part.body.op == "->"):
            return None
        tested = [k for k in map(_kinds_tested, _chain(part.body.left, "and")) if k is not None]
        if not tested:
            return None
        kinds |= tested[0]
    return frozenset(kinds)


def _kinds_tested(condition: Expr) -> set[ActionKind] | None:
    """The kinds a condition `action.kind == k` or `action.kind in {...}` allows; None for any other condition."""
    match condition:
        case BinOp("==", ActionField("kind"), Const(kind)) | BinOp("==", Const(kind), ActionField("kind")):
            return {kind}
        case In(ActionField("kind"), items) if all(isinstance(item, Const) for item in items):
            return {item.value for item in items}
    return None


def falsifying_bindings(prop: Property, backend: Backend, slots: tuple[Slot, ...], players: int) -> list[dict[str, int]]:
    """For a property of the form `forall x, y. body`: the bindings of x, y for which the body is
    false (concrete backends only). Empty for any other form."""
    expr = prop.expr
    if not isinstance(expr, Quant) or expr.kind != "forall":
        return []
    domains = _domains(slots, players)
    body = _Compiler(domains, lazy=True).compile(expr.body)
    names = [name for name, _ in expr.binders]
    found = []
    for choice in itertools.product(*(domains[sort] for _, sort in expr.binders)):
        env = dict(zip(names, choice))
        if not body(backend, dict(env)):  # a copy: inner quantifiers leave their variables in it
            found.append(env)
    return found


def int_reach(target: Property | Expr, variable_bound: int) -> int:
    """An upper bound on the magnitude of every integer the expression computes, given that each
    integer-valued function (pos, gen, counters, casts, size, action.n) stays within variable_bound.
    The encoder sizes its bit-vectors by it, so no comparison of the property can overflow."""
    best = 0

    def walk(node) -> int:
        nonlocal best
        match node:
            case IntLit(value):
                reach = abs(value)
            case Apply(fn, _, _) if fn in ("pos", "gen", "counters", "casts", "mulligans", "owed", "starting_hand", "team"):
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


Compiled = Callable[[Backend, dict], Any]
_COMPILED: dict[tuple, tuple] = {}  # (id(expr), id(slots), players, lazy) -> (expr, slots, compiled)


def _compiled(target: Property | Expr, slots: tuple[Slot, ...], players: int, lazy: bool) -> Compiled:
    """The compiled expression, kept for the next call with the same expression and slots (the
    entry holds both, so their ids cannot be reused while it stands)."""
    expr = target.expr if isinstance(target, Property) else target
    key = (id(expr), id(slots), players, lazy)
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is expr and hit[1] is slots:
        return hit[2]
    compiled = _Compiler(_domains(slots, players), lazy).compile(expr)
    if len(_COMPILED) >= 1024:
        _COMPILED.clear()
    _COMPILED[key] = (expr, slots, compiled)
    return compiled


def _not3(v: Any) -> Any:
    return UNDECIDED if v is UNDECIDED else not v


@dataclass(frozen=True)
class _Compiler:
    """Turns an expression into a function of (backend, env), env binding the quantified variables.

    Eager (lazy=False), the function evaluates every operand, left to right, whatever the values:
    a symbolic backend gets the whole term. Lazy, the connectives are Python's, three-valued (see
    UNDECIDED), and stop as soon as their value is known; for a backend of plain values."""

    domains: dict[Sort, tuple[int, ...]]
    lazy: bool

    def compile(self, node: Expr) -> Compiled:
        match node:
            case BoolLit(value):
                return lambda b, env: b.bool_const(value)
            case IntLit(value):
                return lambda b, env: b.int_const(value)
            case Const(value):
                return self.constant(value)
            case Var(name, sort):
                if sort is Sort.PLAYER:
                    return lambda b, env: b.player_const(env[name])
                return lambda b, env: b.object_const(env[name])
            case Apply(fn, var_name, primed) if fn in PLAYER_FUNCTIONS:
                return lambda b, env: b.player_field(fn, env[var_name], primed)
            case Apply(fn, var_name, primed):
                return lambda b, env: b.field(fn, env[var_name], primed)
            case Size(zone, None, primed):
                return lambda b, env: b.size(zone, None, primed)
            case Size(zone, player_var, primed):
                return lambda b, env: b.size(zone, env[player_var], primed)
            case ActionField(name):
                return lambda b, env: b.action_field(name)
            case Sees(player_var, object_var, primed):
                return lambda b, env: b.sees(env[player_var], env[object_var], primed)
            case Shown(player_var, object_var, primed):
                return lambda b, env: b.shown(env[player_var], env[object_var], primed)
            case Not(operand):
                inner = self.compile(operand)
                if self.lazy:
                    return lambda b, env: _not3(inner(b, env))
                return lambda b, env: b.not_(inner(b, env))
            case BinOp("and" | "or" as op, _, _):
                operands = [self.compile(x) for x in _chain(node, op)]
                if self.lazy:
                    return _lazy_junction(operands, stop=op == "or")
                if op == "and":
                    return lambda b, env: b.and_([f(b, env) for f in operands])
                return lambda b, env: b.or_([f(b, env) for f in operands])
            case BinOp(op, left, right):
                return self.binary(op, self.compile(left), self.compile(right))
            case In(expr, items):
                x, choices = self.compile(expr), [self.compile(item) for item in items]
                if self.lazy:
                    return _lazy_membership(x, choices)

                def member(b, env):
                    value = x(b, env)
                    return b.or_([b.eq(value, item(b, env)) for item in choices])
                return member
            case Quant(kind, binders, body):
                if self.lazy:
                    return self.lazy_quantifier(kind, binders, body)
                return self.eager_quantifier(kind, binders, self.compile(body))
        raise TypeError(f"not an expression node: {node!r}")

    def constant(self, value: Zone | CardType | ActionKind) -> Compiled:
        if isinstance(value, Zone):
            return lambda b, env: b.zone_const(value)
        if isinstance(value, CardType):
            return lambda b, env: b.type_const(value)
        return lambda b, env: b.kind_const(value)

    def binary(self, op: str, left: Compiled, right: Compiled) -> Compiled:
        if self.lazy and op == "->":
            def implies(b, env):
                a = left(b, env)
                if a is not UNDECIDED and not a:
                    return True
                c = right(b, env)
                return c if a is not UNDECIDED else (True if c is True else UNDECIDED)
            return implies
        if self.lazy and op == "<->":
            def iff(b, env):
                x, y = left(b, env), right(b, env)
                return UNDECIDED if x is UNDECIDED or y is UNDECIDED else x == y
            return iff
        if self.lazy and op == "!=":
            return lambda b, env: _not3(b.eq(left(b, env), right(b, env)))
        build = BUILDERS[op]
        return lambda b, env: build(b, left(b, env), right(b, env))

    def eager_quantifier(self, kind: str, binders, body: Compiled) -> Compiled:
        names = [name for name, _ in binders]
        domains = [self.domains[sort] for _, sort in binders]

        def quantified(b, env):
            cases = [body(b, {**env, **dict(zip(names, choice))}) for choice in itertools.product(*domains)]
            return b.and_(cases) if kind == "forall" else b.or_(cases)
        return quantified

    def lazy_quantifier(self, kind: str, binders, body: Expr, staged: bool = False) -> "_Loops":
        """Nested loops, one per variable; each conjunct of the condition (forall: the antecedent
        of an implication; exists: the body) is tested at the loop that binds the last variable it
        uses, so a false one skips the inner loops. `staged`: the conjuncts that read only the state
        before the step are set apart, to be tested once per state (see compile_staged)."""
        names = [name for name, _ in binders]
        domains = [self.domains[sort] for _, sort in binders]
        if kind == "forall" and isinstance(body, BinOp) and body.op == "->":
            conditions, conclusion = _chain(body.left, "and"), self.compile(body.right)
        elif kind == "exists":
            conditions, conclusion = _chain(body, "and"), None
        else:
            conditions, conclusion = [], self.compile(body)
        used = [_variables(condition) & set(names) for condition in conditions]
        order = _loop_order(names, used)
        names, domains = [names[i] for i in order], [domains[i] for i in order]
        early: list[list[Compiled]] = [[] for _ in range(len(names) + 1)]
        late: list[list[Compiled]] = [[] for _ in range(len(names) + 1)]
        for condition, variables in zip(conditions, used):
            level = max((i + 1 for i, name in enumerate(names) if name in variables), default=0)
            (late if staged and _reads_step(condition) else early)[level].append(self.compile(condition))
        junctions = lambda levels: tuple(_lazy_junction(c, stop=False) for c in levels)  # noqa: E731
        return _Loops(kind == "forall", tuple(names), tuple(domains), junctions(early), junctions(late), conclusion)

    def staged(self, expr: Expr) -> "Staged":
        parts = _chain(expr, "and")
        compiled = [self.lazy_quantifier(p.kind, p.binders, p.body, staged=True) if isinstance(p, Quant) else self.compile(p) for p in parts]
        loops = [c for c in compiled if isinstance(c, _Loops)]

        def prepare(b):
            return [l.prepare(b, {}) for l in loops]

        def finish(prepared, b):
            trees, undecided = iter(prepared), False
            for part in compiled:
                v = part.finish(next(trees), b, {}) if isinstance(part, _Loops) else part(b, {})
                if v is UNDECIDED:
                    undecided = True
                elif not v:
                    return False
            return UNDECIDED if undecided else True

        def may_fail(prepared) -> bool:
            trees = iter(prepared)
            return any(not (isinstance(part, _Loops) and part.forall and next(trees) is NONE_OPEN) for part in compiled)
        return Staged(prepare, finish, may_fail)


@dataclass(frozen=True)
class Staged:
    """A property evaluated lazily over many steps from one state: `prepare(backend)`, once for the
    state (the backend needs no action and no next state), tests the quantifiers' conditions that
    read only that state; `finish(prepared, backend)` evaluates the rest for one step. The step's
    card types may be narrower than those `prepare` saw: a condition it found UNDECIDED is tested
    again. `may_fail(prepared)` is false when no step from the state can make the property false
    (each part of its top-level `and` a `forall` whose early conditions hold for no binding)."""

    prepare: Callable[[Backend], Any]
    finish: Callable[[Any, Backend], Any]
    may_fail: Callable[[Any], bool]


NONE_OPEN = object()  # what _Loops.prepare returns when the early conditions leave no binding open


@dataclass(frozen=True)
class _Prepared:
    """The bindings of a quantifier's loops that the conditions tested early leave open: for each
    value of the next variable, its own _Prepared (empty at the innermost loop)."""

    recheck: bool  # a condition tested early at this level was UNDECIDED: test it again
    children: tuple[tuple[int, "_Prepared"], ...]


@dataclass(frozen=True)
class _Loops:
    """A lazy quantifier (see _Compiler.lazy_quantifier): `early[k]` and `late[k]` are the
    conjunctions of the conditions completed by binding the first k variables, `conclusion` what a
    binding that meets them must satisfy (None for exists)."""

    forall: bool
    names: tuple[str, ...]
    domains: tuple[tuple[int, ...], ...]
    early: tuple[Compiled, ...]
    late: tuple[Compiled, ...]
    conclusion: Compiled | None

    def __call__(self, b, env):
        return self.finish(None, b, env)

    def prepare(self, b, env) -> object:
        """The bindings the early conditions leave open; NONE_OPEN when they leave none (the
        quantifier is then vacuously true, or false for exists)."""
        shadowed = [(name, env[name]) for name in self.names if name in env]
        found = self._prepare(0, b, env)
        env.update(shadowed)
        return NONE_OPEN if found is None else found

    def _prepare(self, level: int, b, env) -> _Prepared | None:
        met = self.early[level](b, env)
        if met is False:
            return None
        recheck = met is UNDECIDED
        if level == len(self.names):
            return _Prepared(recheck, ())
        name, children = self.names[level], []
        for value in self.domains[level]:
            env[name] = value
            child = self._prepare(level + 1, b, env)
            if child is not None:
                children.append((value, child))
        return _Prepared(recheck, tuple(children)) if children else None

    def finish(self, prepared, b, env):
        """The quantifier's value; with `prepared` (from prepare) only over the bindings it left
        open. Without preparation, prepared is None and every condition is tested here."""
        if prepared is NONE_OPEN:
            return self.forall
        shadowed = [(name, env[name]) for name in self.names if name in env]
        value = self._walk(0, prepared, b, env, False)
        env.update(shadowed)  # an outer variable of the same name; the loops' own bindings are never read again
        return value

    def _walk(self, level: int, prepared: _Prepared | None, b, env, undecided: bool):
        tested = (self.early[level], self.late[level]) if prepared is None or prepared.recheck else (self.late[level],)
        for conditions in tested:
            met = conditions(b, env)
            if met is False:
                return self.forall  # the binding's condition is false: true for forall, false for exists
            undecided = undecided or met is UNDECIDED
        if level == len(self.names):
            if self.conclusion is None:  # exists: every conjunct holds, or some is undecided
                return UNDECIDED if undecided else True
            c = self.conclusion(b, env)
            return c if not undecided else (True if c is True else UNDECIDED)
        name, open_case = self.names[level], False
        bindings = ((value, None) for value in self.domains[level]) if prepared is None else prepared.children
        for value, child in bindings:
            env[name] = value
            r = self._walk(level + 1, child, b, env, undecided)
            if r is UNDECIDED:
                open_case = True
            elif bool(r) is not self.forall:  # a counterexample (forall) or a witness (exists)
                return r
        return UNDECIDED if open_case else self.forall


def _reads_step(node: Expr) -> bool:
    """Whether the expression reads the step: its action or the next state."""
    match node:
        case ActionField():
            return True
        case Apply(_, _, primed) | Size(_, _, primed) | Sees(_, _, primed) | Shown(_, _, primed):
            return primed
    return any(_reads_step(child) for child in _children(node))


def _loop_order(names: list[str], used: list[set[str]]) -> list[int]:
    """The order of a quantifier's loops: at each level, the variable that completes the most
    conditions (given those bound outside it), first in the declaration on a tie."""
    bound: set[str] = set()
    order: list[int] = []
    while len(order) < len(names):
        remaining = [i for i in range(len(names)) if i not in order]
        best = max(remaining, key=lambda i: (sum(1 for v in used if names[i] in v and v <= bound | {names[i]}), -i))
        order.append(best)
        bound.add(names[best])
    return order


def _lazy_junction(operands: list[Compiled], stop: bool) -> Compiled:
    """`and` (stop at the first false) or `or` (stop = True: at the first true), three-valued."""

    def junction(b, env):
        undecided = False
        for f in operands:
            v = f(b, env)
            if v is UNDECIDED:
                undecided = True
            elif bool(v) is stop:
                return stop
        return UNDECIDED if undecided else not stop
    return junction


def _lazy_membership(x: Compiled, choices: list[Compiled]) -> Compiled:
    def member(b, env):
        value, undecided = x(b, env), False
        for item in choices:
            v = b.eq(value, item(b, env))
            if v is UNDECIDED:
                undecided = True
            elif v:
                return True
        return UNDECIDED if undecided else False
    return member


def _variables(node: Expr) -> set[str]:
    """The variables an expression uses freely."""
    match node:
        case Var(name, _) | Apply(_, name, _):
            return {name}
        case Size(_, player_var, _):
            return {player_var} if player_var else set()
        case Sees(player_var, object_var, _) | Shown(player_var, object_var, _):
            return {player_var, object_var}
        case Quant(_, binders, body):
            return _variables(body) - {name for name, _ in binders}
    return set().union(*(_variables(child) for child in _children(node)))


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


# The functions of an object that do not change during a game: the slot's, and the card type.
_STATIC_FIELDS = frozenset(name for name, (_, static) in FUNCTIONS.items() if static)


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
        return a == b  # none (no target, no looker) equals none, as the encoder's one code for it does

    def lt(self, a: int, b: int) -> bool:
        return a < b

    def le(self, a: int, b: int) -> bool:
        return a <= b

    def add(self, a: int, b: int) -> int:
        return a + b

    def sub(self, a: int, b: int) -> int:
        return a - b

    def field(self, name: str, slot: int, primed: bool) -> Any:
        if name in _STATIC_FIELDS:
            if name == "type":
                return self.card_types[slot]
            return getattr(self.slots[slot], name)
        return getattr((self.after if primed and self.after is not None else self.state(primed)).objects[slot], name)

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
        if name == "started":
            return state.started
        record = state.players[player] if state.players else PlayerState()
        return getattr(record, player_field(name))

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

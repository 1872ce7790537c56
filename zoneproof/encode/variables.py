"""The encoding's value codes and its time-indexed variables (`zone[A1]@3`, `above[A1,A2]@3`).

Every domain is a bit-vector just wide enough (bit-blasted to SAT). Enumerations are codes;
integers (sizes, identities, counters, n) carry a sign bit and stay far from overflow, so the
signed comparisons of z3py's `<` are exact. Pile order is kept twice: each object's position in
its pile (a number, as the interpreter has it), and for each pair of slots one Boolean that says
which of the two is nearer the top when both are in the same pile (its value means nothing
otherwise). An object that stays in its pile keeps its relation to every other object that
stays, whatever enters or leaves, so a claim about the order of two objects reads the relation and
needs no arithmetic; a claim about a number (n-th from the top, the bottom) reads the position.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import combinations

import z3

from ..model import MAX_COUNTERS, PLAYER_FIELDS, PLAYER_NAMES, SLOT_FIELDS, ZONE_FIELDS, ActionKind, CardType, PlayerState, Scope, Slot, Zone
from ..terms import And, Eq, If, Or

# The object fields the actions assign (each a list over the slots in StateVars), and those the
# rules that act at every step derive from the step before (see system.py); `order`, the pile
# relation, is derived too.
ASSIGNED_FIELDS = ("zone", "whose", "controller", "pos", "gen", "face_down", "counters", "tapped", "attached", "effect", "looker", "target",
                   "exiled_with", "returns_to", "copy")
DERIVED_FIELDS = ("revealed", "fresh", "casts", "target_lost", "link_lost")
PLAYER_REFERENCE_FIELDS = ("whose", "controller", "looker")
BOOL_FIELDS = ("face_down", "tapped", "attached", "effect", "revealed", "fresh", "target_lost", "link_lost", "copy")
BOOL_PLAYER_FIELDS = ("drawn", "kept", "looked", "free_taken", "searched", "exile_instead", "exile_if_dies")
# Every state field a slice may keep or drop (see slicing.py): the object fields, the pile order,
# and the players' records.
STATE_PARTS = (*ASSIGNED_FIELDS, "order", *DERIVED_FIELDS, *PLAYER_FIELDS, "started")


def bits_for(values: int) -> int:
    """Bits of an unsigned code for `values` distinct values."""
    return max(1, (values - 1).bit_length())


class Codes:
    """The bit-vector domains of one scope, in one Z3 context, and the constant of each value."""

    def __init__(self, scope: Scope, slots: tuple[Slot, ...], ctx: z3.Context, int_reach: int = 0):
        self.ctx = ctx
        self.slots = slots
        self.players = scope.players
        self.max_n = len(slots) + 1
        bound = self.variable_bound(scope, slots)
        self.width = {
            "zone": bits_for(len(Zone)),
            "kind": bits_for(len(ActionKind)),
            "type": bits_for(len(CardType)),
            "player": bits_for(self.players + 1),
            "slot": bits_for(len(slots) + 1),
            "int": bits_for(2 * (max(bound, int_reach) + 4)) + 1,
        }
        self._constants: dict[tuple[str, int], z3.BitVecRef] = {}
        self.zone = {z: self.code("zone", i) for i, z in enumerate(Zone)}
        self.kind = {k: self.code("kind", i) for i, k in enumerate(ActionKind)}
        self.type = {t: self.code("type", i) for i, t in enumerate(CardType)}
        self.player = [self.code("player", p) for p in range(self.players)]
        self.no_player = self.code("player", self.players)
        self.slot = [self.code("slot", c) for c in range(len(slots))]
        self.no_slot = self.code("slot", len(slots))
        self.true = z3.BoolVal(True, ctx)
        self.false = z3.BoolVal(False, ctx)

    @staticmethod
    def variable_bound(scope: Scope, slots: tuple[Slot, ...]) -> int:
        """No size, identity, counter or n exceeds this."""
        return max(len(slots), scope.depth, MAX_COUNTERS) + 2

    def code(self, domain: str, n: int) -> z3.BitVecRef:
        key = (domain, n)
        if key not in self._constants:
            self._constants[key] = z3.BitVecVal(n, self.width[domain], self.ctx)
        return self._constants[key]

    def int(self, n: int) -> z3.BitVecRef:
        return self.code("int", n)

    def grown(self, identity, by) -> z3.BitVecRef:
        """An object identity (`gen`) after `by` (0, 1 or 2) new objects. Past the largest positive
        value it wraps to 1, not to a negative number or 0, so that in an unbounded run a
        nonnegative identity stays nonnegative and is 0 only for a token never created
        (docs/proofs.md). No run within the depth bound comes near the wrap."""
        total = identity + by
        return If(total < identity, total - self.int(2 ** (self.width["int"] - 1) - 1), total)

    def var(self, name: str, domain: str = "int"):
        return z3.BitVec(name, self.width[domain], self.ctx)

    def bool(self, name: str) -> z3.BoolRef:
        return z3.Bool(name, self.ctx)

    def const(self, value: bool | int):
        return z3.BoolVal(value, self.ctx) if isinstance(value, bool) else self.int(value)

    def of_field(self, name: str, value) -> z3.ExprRef:
        """The constant of an object field's concrete value (ObjectState's `name`)."""
        if name in ZONE_FIELDS:
            return self.zone[value]
        if name in PLAYER_REFERENCE_FIELDS:
            return self.no_player if value is None else self.player[value]
        if name in SLOT_FIELDS:
            return self.no_slot if value is None else self.slot[value]
        return self.const(value)

    def zone_of(self, code: int) -> Zone:
        return tuple(Zone)[code]

    def player_of(self, code: int) -> int | None:
        """The player a player code stands for; None for `no_player`."""
        return (*range(self.players), None)[code]

    def slot_of(self, code: int) -> int | None:
        """The slot a slot code stands for; None for `no_slot`."""
        return (*range(len(self.slots)), None)[code]

    def field_of(self, name: str, value: bool | int):
        """The concrete value of an object field (ObjectState's `name`) whose constant has the
        number or truth `value`: the inverse of `of_field`."""
        if name in ZONE_FIELDS:
            return self.zone_of(value)
        if name in PLAYER_REFERENCE_FIELDS:
            return self.player_of(value)
        if name in SLOT_FIELDS:
            return self.slot_of(value)
        return value

    def all_of(self, xs) -> z3.BoolRef:
        xs = list(xs)
        return And(xs) if xs else self.true

    def any_of(self, xs) -> z3.BoolRef:
        xs = list(xs)
        return Or(xs) if xs else self.false

    def count(self, conditions):
        conditions = list(conditions)
        if not conditions:
            return self.int(0)
        return z3.Sum([If(c, self.int(1), self.int(0)) for c in conditions])

    def zone_is(self, expr, zones) -> z3.BoolRef:
        return self.any_of(Eq(expr, self.zone[z]) for z in zones)

    def select(self, index_expr, codes: list, values: list, default):
        """The value at the index that `index_expr` equals (one of `codes`), else `default`."""
        result = default
        for code, value in zip(codes, values):
            result = If(Eq(index_expr, code), value, result)
        return result


@dataclass
class StateVars:
    """The variables of one state (a slice asserts nothing about the fields it drops)."""

    zone: list
    whose: list
    controller: list
    pos: list
    gen: list
    face_down: list
    counters: list
    tapped: list
    attached: list
    effect: list
    revealed: list
    fresh: list  # a variable for each commander slot; False for every other slot (see ObjectState)
    casts: list  # a variable for each commander slot; 0 for every other slot
    looker: list  # a player code, no_player for none
    target: list  # a slot code, no_slot for none
    target_lost: list
    exiled_with: list  # a slot code, no_slot for none
    link_lost: list
    returns_to: list  # a zone code, NOWHERE for none
    copy: list  # a variable for each token slot; False for every other slot
    above: dict  # (c, d) with c < d -> "c is nearer the top than d" (meaningful within one pile)
    # With player records only (RuleSet.tracks_players): each PLAYER_FIELDS field per player (a
    # constant where the rule set cannot change it), and the started flag.
    players: dict | None = None
    started: z3.BoolRef | None = None

    def field(self, name: str, c: int):
        return getattr(self, name)[c]

    def player(self, name: str, p: int):
        return self.players[name][p]

    def is_above(self, c: int, d: int):
        """c is nearer the top than d (for c != d in the same pile)."""
        return self.above[(c, d)] if c < d else z3.Not(self.above[(d, c)])


@dataclass
class StepVars:
    kind: z3.ExprRef
    card: z3.ExprRef
    player: z3.ExprRef
    n: z3.ExprRef
    zone: z3.ExprRef
    pick: list  # the cards an action lists (`Action.cards`)
    aim: z3.ExprRef  # the object a cast's spell targets (`Action.targets`), no_slot for none
    to_command: z3.ExprRef
    # Where the step's target was and where it is after, for its bystanders' positions.
    src_zone: z3.ExprRef
    src_whose: z3.ExprRef
    src_pos: z3.ExprRef
    dst_zone: z3.ExprRef
    dst_whose: z3.ExprRef
    dst_pos: z3.ExprRef
    moves: z3.BoolRef
    permuted: list  # the slots whose pile the step puts in a new order of its own choosing
    reentering: list  # the slots that move within their pile to where the arrival says


def record_variables(record: StateVars | StepVars) -> list:
    """The Z3 variables of a state's or a step's record, in a fixed order (constants left out)."""
    found = []
    for f in fields(record):
        value = getattr(record, f.name)
        items = [x for xs in value.values() for x in xs] if isinstance(value, dict) and f.name == "players" else (
            list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else [value])
        found += [x for x in items if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED]
    return found


def state_vars(codes: Codes, t: int, player_fields: dict[str, bool] | None) -> StateVars:
    """State t's variables. `player_fields` maps each player field to whether the rule set can
    change it (None: no player records)."""
    slots = codes.slots

    def each(name: str, make):
        return [make(f"{name}[{s.name}]@{t}") for s in slots]

    def bv(domain):
        return lambda name: codes.var(name, domain)

    record = StateVars(
        zone=each("zone", bv("zone")),
        whose=each("whose", bv("player")),
        controller=each("controller", bv("player")),
        pos=each("pos", bv("int")),
        gen=each("gen", bv("int")),
        face_down=each("face_down", codes.bool),
        counters=each("counters", bv("int")),
        tapped=each("tapped", codes.bool),
        attached=each("attached", codes.bool),
        effect=each("effect", codes.bool),
        revealed=each("revealed", codes.bool),
        fresh=[codes.bool(f"fresh[{s.name}]@{t}") if s.is_commander else codes.false for s in slots],
        casts=[codes.var(f"casts[{s.name}]@{t}", "int") if s.is_commander else codes.int(0) for s in slots],
        looker=each("looker", bv("player")),
        target=each("target", bv("slot")),
        target_lost=each("target_lost", codes.bool),
        exiled_with=each("exiled_with", bv("slot")),
        link_lost=each("link_lost", codes.bool),
        returns_to=each("returns_to", bv("zone")),
        copy=[codes.bool(f"copy[{s.name}]@{t}") if s.is_token else codes.false for s in slots],
        above={
            (c, d): codes.bool(f"above[{slots[c].name},{slots[d].name}]@{t}")
            for c, d in combinations(range(len(slots)), 2)
        },
    )
    if player_fields is not None:
        record.players = {f: [player_var(codes, f, p, t, changes) for p in range(codes.players)] for f, changes in player_fields.items()}
        record.started = codes.bool(f"started@{t}")
    return record


def player_var(codes: Codes, f: str, p: int, t: int, variable: bool):
    """Player p's field f in state t: a variable where it can change, else its start value."""
    if variable:
        name = f"{f}[{PLAYER_NAMES[p]}]@{t}"
        return codes.bool(name) if f in BOOL_PLAYER_FIELDS else codes.var(name)
    return codes.const(getattr(PlayerState(), f))


def step_vars(codes: Codes, t: int) -> StepVars:
    slots = codes.slots
    return StepVars(
        kind=codes.var(f"action.kind@{t}", "kind"),
        card=codes.var(f"action.card@{t}", "slot"),
        player=codes.var(f"action.player@{t}", "player"),
        n=codes.var(f"action.n@{t}"),
        zone=codes.var(f"action.zone@{t}", "zone"),
        pick=[codes.bool(f"action.pick[{s.name}]@{t}") for s in slots],
        aim=codes.var(f"action.aim@{t}", "slot"),
        to_command=codes.bool(f"action.to_command@{t}"),
        src_zone=codes.var(f"src.zone@{t}", "zone"),
        src_whose=codes.var(f"src.whose@{t}", "player"),
        src_pos=codes.var(f"src.pos@{t}"),
        dst_zone=codes.var(f"dst.zone@{t}", "zone"),
        dst_whose=codes.var(f"dst.whose@{t}", "player"),
        dst_pos=codes.var(f"dst.pos@{t}"),
        moves=codes.bool(f"moves@{t}"),
        permuted=[codes.bool(f"permuted[{s.name}]@{t}") for s in slots],
        reentering=[codes.bool(f"reentering[{s.name}]@{t}") for s in slots],
    )

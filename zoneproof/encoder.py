"""The zone semantics as Z3 constraints over time-indexed variables (`zone[A1]@3`).

Mirrors `interpreter.py` action by action. Every rule's constraints are guarded by a Boolean
literal named after the rule (`rule[400.3]`); a check passes the literals of the rules in force
(and the negations of the removed ones) as assumptions, so the solver can name the rules that an
unsatisfiable query depends on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import combinations

import z3

from .interpreter import GRAVEYARD_BOUND, LISTS_CARDS, MOVES_CARD, NO_CARD, PILE_TARGET, SOURCES, USES_PLAYER
from .model import (
    COMMANDER_TYPES,
    START_ZONE,
    GAME_ZONES,
    MAX_COUNTERS,
    ORDERED_ZONES,
    PERSONAL_ZONES,
    PLAYER_FIELDS,
    PLAYER_NAMES,
    PREGAME_ACTIONS,
    SPELL_ONLY_TYPES,
    Action,
    ActionKind,
    Behaviour,
    CardType,
    GameState,
    ObjectState,
    PlayerState,
    Scope,
    Slot,
    Zone,
    slots_for,
    zone_key,
)
from .ruleset import COMMANDER_REPLACEABLE, RuleSet
from .terms import And, If, Implies, Not, Or, Xor, renamed

K = ActionKind


def _variables(record: StateVars | StepVars) -> list:
    """The Z3 variables of a state's or a step's record, in a fixed order (constants left out)."""
    found = []
    for f in fields(record):
        value = getattr(record, f.name)
        items = [x for xs in value.values() for x in xs] if isinstance(value, dict) else value if isinstance(value, list) else [value]
        found += [x for x in items if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED]
    return found


def bits_for(values: int) -> int:
    """Bits of an unsigned code for `values` distinct values."""
    return max(1, (values - 1).bit_length())


@dataclass
class StateVars:
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
    # With player records only (RuleSet.tracks_players): each PLAYER_FIELDS field per player (a
    # constant where the rule set cannot change it), and the started flag.
    players: dict | None = None
    started: z3.BoolRef | None = None

    def field(self, name: str, c: int):
        return getattr(self, name)[c]

    def player(self, name: str, p: int):
        return self.players[name][p]


@dataclass
class StepVars:
    kind: z3.ExprRef
    card: z3.ExprRef
    player: z3.ExprRef
    n: z3.ExprRef
    zone: z3.ExprRef
    pick: list  # zone-wide action without 400.12: which hand cards move
    src_zone: z3.ExprRef
    src_whose: z3.ExprRef
    src_pos: z3.ExprRef
    dst_zone: z3.ExprRef
    dst_whose: z3.ExprRef
    dst_pos: z3.ExprRef
    moves: z3.ExprRef
    to_command: z3.ExprRef


@dataclass(frozen=True)
class Effect:
    """A single-target action on its target: `event` says when the action applies (the target is
    where the action takes it from, the player may do it), `outcome` what the rules require of the
    result (it may be impossible: a conflict), `values` the target's next fields."""

    event: z3.BoolRef
    outcome: z3.BoolRef
    values: dict

    @property
    def both(self) -> tuple:
        return And(self.event, self.outcome), self.values


FIELDS = ("zone", "whose", "controller", "pos", "gen", "face_down", "counters", "tapped", "attached", "effect")
# Fields no frame condition copies: each step defines them afresh (see Encoding.revealed_after).
STEP_FIELDS = ("revealed",)
# `fresh` (903.9a's memory) is not among the FIELDS the actions assign: one constraint per step
# derives it for every action alike (see _fresh), as the interpreter's track_fresh does.
BOOL_PLAYER_FIELDS = ("drawn", "kept", "looked", "free_taken", "searched")
# The property language's functions of a player and the PlayerState fields they read.
PLAYER_FUNCTION_FIELDS = {"drawn": "drawn", "mulligans": "mulligans", "kept": "kept", "looked": "looked", "owed": "owed", "free_mulligan": "free_taken", "searched": "searched"}


class Encoding:
    """The transition system of one rule set within one scope, in its own Z3 context."""

    def __init__(self, ruleset: RuleSet, scope: Scope, int_reach: int = 0, ctx: z3.Context | None = None, literal_prefix: str = ""):
        """`int_reach` bounds the integers the checked properties compute (see evaluate.int_reach);
        the integer bit-vectors are wide enough for it and for every position, size and identity.

        Two encodings of the same scope given one `ctx` share their state and step variables (a
        variable is its name, `zone[A1]@3`); distinct `literal_prefix`es keep their rule literals
        apart (`a:rule[400.3]`). That is the product of two transition relations (see diff.py)."""
        self.ruleset = ruleset
        self.scope = scope
        self.ctx = ctx if ctx is not None else z3.Context()
        self._codes: dict[tuple[str, int], z3.BitVecRef] = {}
        self.slots: tuple[Slot, ...] = slots_for(scope)
        self.players = scope.players
        self.max_n = len(self.slots) + 1
        # Every domain is a bit-vector just wide enough (bit-blasted to SAT). Enumerations are codes;
        # integers (positions, sizes, identities, counters, n) carry a sign bit and stay far from
        # overflow, so the signed comparisons of z3py's `<` are exact.
        self.width = {
            "zone": bits_for(len(Zone)),
            "kind": bits_for(len(ActionKind)),
            "type": bits_for(len(CardType)),
            "player": bits_for(self.players + 1),
            "slot": bits_for(len(self.slots) + 1),
            "int": bits_for(2 * (max(self.variable_bound(), int_reach) + 4)) + 1,
        }
        self.zone_c = {z: self.code("zone", i) for i, z in enumerate(Zone)}
        self.kind_c = {k: self.code("kind", i) for i, k in enumerate(ActionKind)}
        self.type_c = {t: self.code("type", i) for i, t in enumerate(CardType)}
        self.player_c = [self.code("player", p) for p in range(self.players)]
        self.no_player = self.code("player", self.players)
        self.slot_c = [self.code("slot", c) for c in range(len(self.slots))]
        self.no_slot = self.code("slot", len(self.slots))
        self._on_cache: dict = {}
        self.card_type = [self.var(f"type[{s.name}]", "type") for s in self.slots]
        self.rule_literal = {r.id: z3.Bool(f"{literal_prefix}rule[{r.id}]", self.ctx) for r in ruleset.rules}
        self._states: list[StateVars] = []
        self._steps: list[StepVars] = []
        self._sizes: dict = {}
        self._trans: dict[int, list] = {}
        self.pregame = ruleset.has_pregame
        self.player_records = ruleset.tracks_players
        self.hand = scope.starting_hand

    # ---------------------------------------------------------------- basics

    def true(self):
        return z3.BoolVal(True, self.ctx)

    def false(self):
        return z3.BoolVal(False, self.ctx)

    def variable_bound(self) -> int:
        """No position, size, identity, counter or n exceeds this."""
        return max(len(self.slots), self.scope.depth, MAX_COUNTERS) + 2

    def code(self, domain: str, n: int):
        key = (domain, n)
        if key not in self._codes:
            self._codes[key] = z3.BitVecVal(n, self.width[domain], self.ctx)
        return self._codes[key]

    def int(self, n: int):
        return self.code("int", n)

    def var(self, name: str, domain: str = "int"):
        return z3.BitVec(name, self.width[domain], self.ctx)

    def all_of(self, xs):
        xs = list(xs)
        return And(xs) if xs else self.true()

    def any_of(self, xs):
        xs = list(xs)
        return Or(xs) if xs else self.false()

    def count(self, conditions):
        conditions = list(conditions)
        if not conditions:
            return self.int(0)
        return z3.Sum([If(c, self.int(1), self.int(0)) for c in conditions])

    def owner(self, c: int):
        return self.player_c[self.slots[c].owner]

    def rule_values(self) -> list:
        """Rule literals: true for the rules in force, false for the removed ones. A check asserts
        them as facts (Z3 then simplifies the rules away); an unsat-core query passes them as
        assumptions instead."""
        return [
            Not(lit) if rule_id in self.ruleset.removed else lit
            for rule_id, lit in self.rule_literal.items()
        ]

    def in_file(self, behaviour: Behaviour) -> bool:
        """Whether some rule of the file (in force or removed) provides the behaviour: where none
        does, the encoding leaves out what only that behaviour could make happen."""
        return any(r.behaviour is behaviour for r in self.ruleset.rules)

    def on(self, behaviour: Behaviour, zone: Zone | None = None):
        """True when some rule of the file that provides the behaviour is in force."""
        key = (behaviour, zone)
        if key not in self._on_cache:
            ids = [
                r.id for r in self.ruleset.rules
                if r.behaviour is behaviour and (zone is None or not r.zones or zone in r.zones)
            ]
            self._on_cache[key] = self.any_of(self.rule_literal[i] for i in ids)
        return self._on_cache[key]

    def state(self, t: int) -> StateVars:
        while len(self._states) <= t:
            i = len(self._states)
            ctx = self.ctx

            def each(name, make):
                return [make(f"{name}[{s.name}]@{i}") for s in self.slots]

            self._states.append(
                StateVars(
                    zone=each("zone", lambda n: self.var(n, "zone")),
                    whose=each("whose", lambda n: self.var(n, "player")),
                    controller=each("controller", lambda n: self.var(n, "player")),
                    pos=each("pos", self.var),
                    gen=each("gen", self.var),
                    face_down=each("face_down", lambda n: z3.Bool(n, ctx)),
                    counters=each("counters", self.var),
                    tapped=each("tapped", lambda n: z3.Bool(n, ctx)),
                    attached=each("attached", lambda n: z3.Bool(n, ctx)),
                    effect=each("effect", lambda n: z3.Bool(n, ctx)),
                    revealed=each("revealed", lambda n: z3.Bool(n, ctx)),
                    fresh=[
                        z3.Bool(f"fresh[{s.name}]@{i}", ctx) if s.is_commander else z3.BoolVal(False, ctx)
                        for s in self.slots
                    ],
                )
            )
            if self.player_records:
                state = self._states[-1]
                state.players = {f: [self._player_var(f, p, i) for p in range(self.players)] for f in PLAYER_FIELDS}
                state.started = z3.Bool(f"started@{i}", ctx)
        return self._states[t]

    def _player_var(self, f: str, p: int, i: int):
        """Player p's field f in state i: a variable where the rule set can change it, else its start value."""
        if self.player_field_changes(f):
            name = f"{f}[{PLAYER_NAMES[p]}]@{i}"
            return z3.Bool(name, self.ctx) if f in BOOL_PLAYER_FIELDS else self.var(name)
        value = getattr(PlayerState(), f)
        return z3.BoolVal(value, self.ctx) if isinstance(value, bool) else self.int(value)

    def player_field_changes(self, f: str) -> bool:
        return self.ruleset.allows(K.SEARCH_LIBRARY) if f == "searched" else self.pregame

    def step(self, t: int) -> StepVars:
        while len(self._steps) <= t:
            i = len(self._steps)
            ctx = self.ctx
            self._steps.append(
                StepVars(
                    kind=self.var(f"action.kind@{i}", "kind"),
                    card=self.var(f"action.card@{i}", "slot"),
                    player=self.var(f"action.player@{i}", "player"),
                    n=self.var(f"action.n@{i}"),
                    zone=self.var(f"action.zone@{i}", "zone"),
                    pick=[z3.Bool(f"action.pick[{s.name}]@{i}", ctx) for s in self.slots],
                    src_zone=self.var(f"src.zone@{i}", "zone"),
                    src_whose=self.var(f"src.whose@{i}", "player"),
                    src_pos=self.var(f"src.pos@{i}"),
                    dst_zone=self.var(f"dst.zone@{i}", "zone"),
                    dst_whose=self.var(f"dst.whose@{i}", "player"),
                    dst_pos=self.var(f"dst.pos@{i}"),
                    moves=z3.Bool(f"moves@{i}", ctx),
                    to_command=z3.Bool(f"action.to_command@{i}", ctx),
                )
            )
        return self._steps[t]

    def zone_is(self, expr, zones) -> z3.BoolRef:
        return self.any_of(expr == self.zone_c[z] for z in zones)

    def in_pile(self, s: StateVars, c: int, zone, whose) -> z3.BoolRef:
        """Slot c is in the ordered zone `zone` (of player `whose` for a personal zone)."""
        return And(
            s.zone[c] == zone,
            self.zone_is(zone, ORDERED_ZONES),
            Or(Not(self.zone_is(zone, PERSONAL_ZONES)), s.whose[c] == whose),
        )

    def size(self, t: int, zone: Zone, player: int | None):
        key = (t, zone, player if zone in PERSONAL_ZONES else None)
        if key not in self._sizes:
            s = self.state(t)
            if zone in PERSONAL_ZONES:
                conds = [And(s.zone[c] == self.zone_c[zone], s.whose[c] == self.player_c[player]) for c in range(len(self.slots))]
            else:
                conds = [s.zone[c] == self.zone_c[zone] for c in range(len(self.slots))]
            self._sizes[key] = self.count(conds)
        return self._sizes[key]

    def size_of(self, t: int, zone: Zone, player_expr):
        """Size of a zone whose player is a symbolic expression."""
        if zone not in PERSONAL_ZONES:
            return self.size(t, zone, None)
        result = self.size(t, zone, self.players - 1)
        for p in range(self.players - 1):
            result = If(player_expr == self.player_c[p], self.size(t, zone, p), result)
        return result

    # ---------------------------------------------------------------- initial state

    def init(self) -> list:
        s = self.state(0)
        facts = []
        for c, slot in enumerate(self.slots):
            zone = START_ZONE[slot.kind.value]
            facts += [
                s.zone[c] == self.zone_c[zone],
                s.whose[c] == self.owner(c),
                s.controller[c] == self.owner(c),
                s.gen[c] == 0,
                s.counters[c] == 0,
                Not(s.face_down[c]),
                Not(s.tapped[c]),
                Not(s.attached[c]),
                Not(s.effect[c]),
                Not(s.revealed[c]),
            ]
            facts.append(s.pos[c] == self.int(self.start_position(c)))
            facts += [Implies(self.on(Behaviour.ZONE_CLOSED, z), s.zone[c] != self.zone_c[z]) for z in self.closable_zones()]
            if slot.is_token:
                facts.append(self.card_type[c] == self.type_c[CardType.CREATURE])
            elif slot.is_commander:
                facts.append(Not(s.fresh[c]))
                facts.append(self._type_in(self.card_type[c], COMMANDER_TYPES))
            else:
                facts.append(self.any_of(self.card_type[c] == v for v in self.type_c.values()))
        if self.player_records:
            facts += self.players_are(0, tuple(PlayerState() for _ in range(self.players)), started=False)
        return facts

    def players_are(self, t: int, players: tuple[PlayerState, ...], started: bool) -> list:
        """Facts fixing the pregame state of state t."""
        s = self.state(t)
        facts = [s.started == z3.BoolVal(started, self.ctx)]
        for p, ps in enumerate(players):
            for f in PLAYER_FIELDS:
                value = getattr(ps, f)
                facts.append(s.player(f, p) == (z3.BoolVal(value, self.ctx) if isinstance(value, bool) else self.int(value)))
        return facts

    def closable_zones(self) -> list[Zone]:
        """The zones some rule of the file may close (see Behaviour.ZONE_CLOSED)."""
        return [z for z in GAME_ZONES if any(r.behaviour is Behaviour.ZONE_CLOSED and z in r.zones for r in self.ruleset.rules)]

    def start_position(self, c: int) -> int:
        """Deck cards are named by where they start: A1 on top of A's library (position from the
        bottom is cards - 1). The cards of a deck are interchangeable (each card's type is left to the
        solver), so fixing their names this way breaks a symmetry without losing any behaviour."""
        slot = self.slots[c]
        if slot.kind.value != "card":
            return 0
        deck = [x.index for x in self.slots if x.owner == slot.owner and x.kind.value == "card"]
        return len(deck) - 1 - deck.index(c)

    # ---------------------------------------------------------------- transitions

    def trans(self, t: int) -> list:
        """The constraints of step t (built once: lint asks for the same step once per rule). Steps 0
        and 1 are built (step 0 may differ: no step comes before it); every later step is step 1
        with its variables renamed, which Z3 does several times faster than building it again."""
        if t not in self._trans:
            self._trans[t] = self._renamed_trans(t) if t > 1 else self._build_trans(t)
        return list(self._trans[t])

    def _renamed_trans(self, t: int) -> list:
        """Step 1's constraints with every state's and step's variables moved t - 1 on."""
        template = self.trans(1)
        shift = t - 1
        records = [(self.state(i), self.state(i + shift)) for i in (0, 1, 2)]
        records += [(self.step(i), self.step(i + shift)) for i in (0, 1)]
        return renamed(template, [pair for old, new in records for pair in zip(_variables(old), _variables(new))])

    def _build_trans(self, t: int) -> list:
        s, s2, a = self.state(t), self.state(t + 1), self.step(t)
        facts = [self.any_of(a.kind == self.kind_c[d.kind] for d in self.ruleset.actions)]
        facts += self._canonical_fields(a)
        single = self.any_of(a.kind == self.kind_c[k] for k in ActionKind if k not in NO_CARD and k not in PILE_TARGET)
        for c in range(len(self.slots)):
            is_c = a.card == self.slot_c[c]
            facts.append(Implies(is_c, And(
                a.src_zone == s.zone[c], a.src_whose == s.whose[c], a.src_pos == s.pos[c],
                a.dst_zone == s2.zone[c], a.dst_whose == s2.whose[c], a.dst_pos == s2.pos[c],
                a.moves == Or(s2.zone[c] != s.zone[c], s2.whose[c] != s.whose[c]),
            )))
            facts.append(Implies(And(single, Not(is_c)), self._bystander(s, s2, a, c)))
            facts.append(s2.revealed[c] == self.revealed_after(s, s2, c))
        for kind in ActionKind:
            if not self.ruleset.allows(kind):
                continue
            if kind in NO_CARD or kind in PILE_TARGET:
                body = getattr(self, f"_{kind.value}")(t, s, s2, a)
            else:
                body = self.all_of(
                    Implies(a.card == self.slot_c[c], self._assign(s, s2, c, *self.target(kind, t, s, a, c).both))
                    for c in range(len(self.slots))
                )
            facts.append(Implies(a.kind == self.kind_c[kind], body))
        facts += self._fresh(s, s2, a)
        if self.player_records:
            facts += self._players_trans(t, s, s2, a)
        return facts

    def _fresh(self, s: StateVars, s2: StateVars, a: StepVars) -> list:
        """903.9a's memory of each commander: put into its zone, or made a new object there, since
        state-based actions were last performed."""
        sba = a.kind == self.kind_c[K.STATE_BASED_ACTIONS]
        return [
            s2.fresh[c] == And(Not(sba), Or(s.fresh[c], s2.zone[c] != s.zone[c], s2.whose[c] != s.whose[c], s2.gen[c] != s.gen[c]))
            for c, slot in enumerate(self.slots) if slot.is_commander
        ]

    def _canonical_fields(self, a: StepVars) -> list:
        """Fields an action does not use keep one value, so that every action has one form."""
        kind_in = lambda kinds: self.any_of(a.kind == self.kind_c[k] for k in kinds)  # noqa: E731
        no_card = kind_in(NO_CARD)
        stack_reorder = And(a.kind == self.kind_c[K.REORDER], a.zone == self.zone_c[Zone.STACK])
        uses_player = And(kind_in(USES_PLAYER), Not(stack_reorder))
        card_type = self._select_type(a.card)
        uses_n = Or(
            a.kind == self.kind_c[K.PUT_INTO_LIBRARY],
            a.kind == self.kind_c[K.POST_MULLIGAN_LOOK],
            And(a.kind == self.kind_c[K.CAST], Not(self.on(Behaviour.STACK_PUSH_TOP))),
            And(a.kind == self.kind_c[K.CAST_FACE_DOWN], Not(self.on(Behaviour.STACK_PUSH_TOP))),
            And(
                kind_in(GRAVEYARD_BOUND),
                Not(self.on(Behaviour.GRAVEYARD_TOP)),
                Or(a.kind != self.kind_c[K.RESOLVE], self._type_in(card_type, SPELL_ONLY_TYPES)),
            ),
        )
        return [
            z3.ULE(a.card, self.no_slot),
            z3.ULE(a.player, self.no_player),
            no_card == (a.card == self.no_slot),
            uses_player == (a.player != self.no_player),
            (a.kind == self.kind_c[K.REORDER]) == (a.zone != self.zone_c[Zone.NOWHERE]),
            a.n >= 0,
            a.n <= self.max_n,
            Implies(Not(uses_n), a.n == 0),
            Implies(Not(kind_in((K.SHUFFLE_HAND_INTO_LIBRARY, K.MULLIGAN))), self.all_of(
                Not(p) for c, p in enumerate(a.pick) if not self.slots[c].is_commander
            )),
            # A commander may also be listed by state-based actions (903.9a; the SBA says when).
            *[
                Implies(Not(kind_in(LISTS_CARDS)), Not(p))
                for c, p in enumerate(a.pick) if self.slots[c].is_commander
            ],
            # The owner's choice of the command zone instead (903.9b) is recorded only for a move of a commander.
            Implies(a.to_command, And(
                kind_in(MOVES_CARD),
                self.any_of(a.card == self.slot_c[c] for c, slot in enumerate(self.slots) if slot.is_commander),
            )),
        ]

    def _select_type(self, card_expr):
        result = self.type_c[CardType.CREATURE]
        for c in range(len(self.slots)):
            result = If(card_expr == self.slot_c[c], self.card_type[c], result)
        return result

    def _type_in(self, type_expr, types) -> z3.BoolRef:
        return self.any_of(type_expr == self.type_c[t] for t in types)

    def _current(self, s: StateVars, c: int) -> dict:
        return {f: s.field(f, c) for f in FIELDS}

    def _assign(self, s: StateVars, s2: StateVars, c: int, guard, values: dict) -> z3.BoolRef:
        """The guard holds and slot c takes the given values; fields not given stay as they are."""
        return And(guard, *[s2.field(f, c) == values.get(f, s.field(f, c)) for f in FIELDS])

    def _bystander(self, s: StateVars, s2: StateVars, a: StepVars, c: int) -> z3.BoolRef:
        """An object the action does not target: it stays, but closes or opens a gap in its pile."""
        leaves_gap = And(a.moves, self.in_pile(s, c, a.src_zone, a.src_whose), s.pos[c] > a.src_pos)
        makes_room = And(a.moves, self.in_pile(s, c, a.dst_zone, a.dst_whose), s.pos[c] >= a.dst_pos)
        shift = If(leaves_gap, self.int(-1), self.int(0)) + If(makes_room, self.int(1), self.int(0))
        same = [s2.field(f, c) == s.field(f, c) for f in FIELDS if f != "pos"]
        return And(*same, s2.pos[c] == s.pos[c] + shift)

    def _merge(self, s: StateVars, c: int, condition, if_true: dict, if_false: dict) -> dict:
        """Per field, if_true or if_false under the condition; a field either leaves out stays as it is."""
        current = self._current(s, c)
        merged = {}
        for f in FIELDS:
            a, b = if_true.get(f, current[f]), if_false.get(f, current[f])
            merged[f] = a if a.eq(b) else If(condition, a, b)
        return merged

    def _identity(self, s: StateVars, c: int, renew, carried_effect=None, keep_counters=None) -> dict:
        """Identity and memory of slot c: under `renew` a new object (gen + 1, no counters but under
        `keep_counters`, untapped, nothing attached, no effect but `carried_effect`); otherwise as they were."""
        wipe_counters = renew if keep_counters is None else And(renew, Not(keep_counters))
        return {
            "gen": If(renew, s.gen[c] + 1, s.gen[c]),
            "counters": If(wipe_counters, self.int(0), s.counters[c]),
            "tapped": And(Not(renew), s.tapped[c]),
            "attached": And(Not(renew), s.attached[c]),
            "effect": If(renew, self.false() if carried_effect is None else carried_effect, s.effect[c]),
        }

    def _renewed(self, s: StateVars, c: int, behaviour: Behaviour, **changes) -> dict:
        """Stays in its zone; becomes a new object where the behaviour's rule is in force."""
        return self._identity(s, c, self.on(behaviour)) | changes

    def _move_or_renew(self, s: StateVars, c: int, kind: ActionKind, zone: Zone, behaviour: Behaviour, moved, to_command=None):
        """Exile and move_to_command: an object already there stays and may become new (400.8, 400.10)."""
        constraint, values = moved(zone, self.owner(c))
        already = s.zone[c] == self.zone_c[zone]
        values = self._merge(s, c, already, self._renewed(s, c, behaviour), values)
        stays = already
        if self.slots[c].is_commander:  # staying is no move that a commander replacement could replace
            stays = And(already, Not(to_command))
            constraint = And(Not(already), constraint)
        return Effect(self._source_ok(s, c, SOURCES[kind]), Or(stays, constraint), values)

    def _moved(self, t: int, s: StateVars, a: StepVars, c: int, zone: Zone, named, controller=None, keep_effect=False, face_down=None):
        """(constraint, values) for moving slot c to `zone` of the named player (see interpreter.move)."""
        owner = self.owner(c)
        if zone in PERSONAL_ZONES:
            whose = If(self.on(Behaviour.OWNER_REDIRECT, zone), owner, named)
        else:
            whose = owner
        constraint = self.true()
        pos = self.int(0)
        if zone in ORDERED_ZONES:
            before = self.size_of(t, zone, whose)
            n = a.n
            nth = If(n == 0, self.int(0), before + 1 - n)
            if zone is Zone.LIBRARY:
                pos = If(n > before, self.int(0), nth)
                constraint = Implies(n > before, self.on(Behaviour.NTH_FROM_TOP_SHORT))
            else:
                fixed = self.on(Behaviour.GRAVEYARD_TOP if zone is Zone.GRAVEYARD else Behaviour.STACK_PUSH_TOP)
                pos = If(fixed, before, nth)
                constraint = Implies(Not(fixed), n <= before + 1)
        constraint = And(constraint, Not(self.on(Behaviour.ZONE_CLOSED, zone)))
        carried = And(self.on(Behaviour.SPELL_EFFECTS_CARRY), s.effect[c]) if keep_effect else None
        in_play = zone in (Zone.BATTLEFIELD, Zone.STACK)
        values = {
            "zone": self.zone_c[zone],
            "whose": whose,
            "pos": pos,
            "controller": controller if in_play and controller is not None else owner,
            "face_down": self.false() if face_down is None else face_down,
        } | self._identity(s, c, self.on(Behaviour.NEW_OBJECT), carried, self.keeps_markers(zone))
        if self.slots[c].is_token:
            stuck = And(self.token_left_battlefield(s, c), self.on(Behaviour.TOKEN_STAYS))
            return Or(stuck, constraint), self._merge(s, c, stuck, self._current(s, c), values)
        if self.slots[c].is_commander:
            return self._command_instead(s, a, c, zone, whose, constraint, values)
        return constraint, values

    def keeps_markers(self, zone: Zone):
        """Whether an object put into `zone` keeps its counters (Berserk 205.4: markers in a graveyard)."""
        return self.on(Behaviour.GRAVEYARD_KEEPS_MARKERS) if zone is Zone.GRAVEYARD else None

    def replaces(self, zone: Zone):
        """A commander that would be put into `zone` may go to the command zone instead: a rule in
        force replaces that zone (903.9b), or 903.9a is removed and the zone is a graveyard or exile
        (see RuleSet.fallback_replacement)."""
        if zone not in COMMANDER_REPLACEABLE:
            return self.false()
        fallback = []
        if zone in (Zone.GRAVEYARD, Zone.EXILE):
            fallback = [Not(self.rule_literal[r.id]) for r in self.ruleset.rules if r.behaviour is Behaviour.COMMANDER_RETURN_SBA]
        return Or(self.on(Behaviour.COMMANDER_REPLACE, zone), self.any_of(fallback))

    def _command_instead(self, s: StateVars, a: StepVars, c: int, zone: Zone, whose, constraint, values):
        """The owner's recorded choice (`to_command`) puts commander c into the command zone instead
        of its owner's `zone` (see interpreter.command_instead)."""
        owner = self.owner(c)
        allowed = And(
            self.replaces(zone),
            whose == owner,
            s.zone[c] != self.zone_c[Zone.COMMAND],
            Not(self.on(Behaviour.ZONE_CLOSED, Zone.COMMAND)),
        )
        instead = {
            "zone": self.zone_c[Zone.COMMAND], "whose": owner, "pos": self.int(0), "controller": owner, "face_down": self.false(),
        } | self._identity(s, c, self.on(Behaviour.NEW_OBJECT))
        return If(a.to_command, allowed, constraint), self._merge(s, c, a.to_command, instead, values)

    def same_pile(self, s: StateVars, c: int, d: int):
        return And(
            s.zone[c] == s.zone[d],
            Or(Not(self.zone_is(s.zone[c], PERSONAL_ZONES)), s.whose[c] == s.whose[d]),
        )

    def token_left_battlefield(self, s: StateVars, c: int):
        return And(s.zone[c] != self.zone_c[Zone.BATTLEFIELD], s.zone[c] != self.zone_c[Zone.NOWHERE])

    def _source_ok(self, s: StateVars, c: int, zones) -> z3.BoolRef:
        outside_ok = And(s.zone[c] == self.zone_c[Zone.OUTSIDE], Not(self.on(Behaviour.OUTSIDE_UNTOUCHABLE)))
        return Or(self.zone_is(s.zone[c], zones), outside_ok)

    def _castable(self, s: StateVars, c: int, player) -> z3.BoolRef:
        """Slot c is where the player may cast it from: their hand, or the command zone for a
        commander they own (903.8)."""
        in_hand = And(s.zone[c] == self.zone_c[Zone.HAND], s.whose[c] == player)
        if not self.slots[c].is_commander:
            return in_hand
        from_command = And(s.zone[c] == self.zone_c[Zone.COMMAND], player == self.owner(c), self.on(Behaviour.COMMANDER_CAST))
        return Or(in_hand, from_command)

    def target(self, kind: ActionKind, t: int, s: StateVars, a: StepVars, c: int) -> "Effect":
        """What a single-target action does to its target, slot c, at step t."""
        z = s.zone[c]
        Z = self.zone_c
        slot = self.slots[c]
        player = a.player
        owner = self.owner(c)
        is_spell_type = self._type_in(self.card_type[c], SPELL_ONLY_TYPES)

        def moved(zone, named, **kw):
            return self._moved(t, s, a, c, zone, named, **kw)

        if kind in (K.DRAW, K.MILL):
            guard = And(z == Z[Zone.LIBRARY], s.whose[c] == player, s.pos[c] == self.size_of(t, Zone.LIBRARY, player) - 1)
            constraint, values = moved(Zone.HAND if kind is K.DRAW else Zone.GRAVEYARD, player)
            return Effect(guard, constraint, values)
        if kind is K.DISCARD:
            constraint, values = moved(Zone.GRAVEYARD, s.whose[c])
            return Effect(z == Z[Zone.HAND], constraint, values)
        if kind is K.CAST:
            guard = And(
                self._castable(s, c, player),
                self.false() if slot.is_token else self.true(),
                self.card_type[c] != self.type_c[CardType.LAND],
            )
            constraint, values = moved(Zone.STACK, player, controller=player)
            return Effect(guard, constraint, values)
        if kind is K.REVERSE_ILLEGAL_CAST:
            guard = And(
                self._castable(s, c, player),
                self.false() if slot.is_token else self.true(),
                self.card_type[c] != self.type_c[CardType.LAND],
            )
            renew = And(Not(self.on(Behaviour.ILLEGAL_CAST_REVERSED)), self.on(Behaviour.NEW_OBJECT))
            return Effect(guard, self.true(), self._identity(s, c, renew))
        if kind is K.RESOLVE:
            top_ok = Implies(self.on(Behaviour.STACK_TOP_ONLY), s.pos[c] == self.size(t, Zone.STACK, None) - 1)
            to_grave, grave_values = moved(Zone.GRAVEYARD, s.controller[c])
            stays_face_down = And(s.face_down[c], self.on(Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN))
            to_field, field_values = moved(Zone.BATTLEFIELD, s.controller[c], controller=s.controller[c], keep_effect=True, face_down=stays_face_down)
            graveyard_bound = And(is_spell_type, Not(And(s.face_down[c], self.on(Behaviour.FACE_DOWN_CHARACTERISTICS))))
            constraint = If(graveyard_bound, to_grave, to_field)
            return Effect(And(z == Z[Zone.STACK], top_ok), constraint, self._merge(s, c, graveyard_bound, grave_values, field_values))
        if kind in (K.COUNTER, K.DESTROY):
            constraint, values = moved(Zone.GRAVEYARD, s.controller[c])
            source = Zone.STACK if kind is K.COUNTER else Zone.BATTLEFIELD
            return Effect(z == Z[source], constraint, values)
        if kind is K.SACRIFICE:
            constraint, values = moved(Zone.GRAVEYARD, player)
            return Effect(And(z == Z[Zone.BATTLEFIELD], s.controller[c] == player), constraint, values)
        if kind is K.EXILE:
            return self._move_or_renew(s, c, kind, Zone.EXILE, Behaviour.EXILE_IN_EXILE, moved, a.to_command)
        if kind is K.RETURN_TO_HAND:
            constraint, values = moved(Zone.HAND, s.controller[c])
            return Effect(self._source_ok(s, c, SOURCES[kind]), constraint, values)
        if kind is K.PUT_INTO_LIBRARY:
            constraint, values = moved(Zone.LIBRARY, player)
            return Effect(self._source_ok(s, c, SOURCES[kind]), constraint, values)
        if kind is K.GAIN_CONTROL:
            guard = And(self.zone_is(z, (Zone.BATTLEFIELD, Zone.STACK)), s.controller[c] != player)
            return Effect(guard, self.true(), {"controller": player})
        if kind is K.CREATE_TOKEN:
            if not slot.is_token:
                return Effect(self.false(), self.true(), {})
            guard = And(player == owner, z == Z[Zone.NOWHERE], s.gen[c] == 0)
            opens = Not(self.on(Behaviour.ZONE_CLOSED, Zone.BATTLEFIELD))
            return Effect(guard, opens, {"zone": Z[Zone.BATTLEFIELD], "whose": owner, "controller": player, "gen": self.int(1)})
        if kind is K.PUT_ONTO_BATTLEFIELD:
            constraint, values = moved(Zone.BATTLEFIELD, player, controller=player)
            stays = self.false() if slot.is_token else And(is_spell_type, self.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD))
            values = self._merge(s, c, stays, self._current(s, c), values)
            return Effect(self._source_ok(s, c, SOURCES[kind]), Or(stays, constraint), values)
        if kind is K.MOVE_TO_COMMAND:
            return self._move_or_renew(s, c, kind, Zone.COMMAND, Behaviour.COMMAND_IN_COMMAND, moved, a.to_command)
        if kind is K.TURN_FACE_DOWN:
            guard = And(z == Z[Zone.COMMAND], Not(s.face_down[c]))
            return Effect(guard, self.true(), self._renewed(s, c, Behaviour.COMMAND_FACE_DOWN, face_down=self.true()))
        if kind is K.BRING_IN:
            constraint, values = moved(Zone.HAND, owner)
            return Effect(z == Z[Zone.OUTSIDE], constraint, values)
        if kind is K.TAP:
            return Effect(And(z == Z[Zone.BATTLEFIELD], Not(s.tapped[c])), self.true(), {"tapped": self.true()})
        if kind is K.ATTACH:
            return Effect(And(z == Z[Zone.BATTLEFIELD], Not(s.attached[c])), self.true(), {"attached": self.true()})
        if kind is K.ADD_COUNTER:
            return Effect(And(z == Z[Zone.BATTLEFIELD], s.counters[c] < MAX_COUNTERS), self.true(), {"counters": s.counters[c] + 1})
        if kind is K.APPLY_EFFECT:
            guard = And(self.zone_is(z, (Zone.BATTLEFIELD, Zone.STACK)), Not(s.effect[c]))
            return Effect(guard, self.true(), {"effect": self.true()})
        if kind in (K.CAST_FACE_DOWN, K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, K.TURN_FACE_UP):
            return self._face_down_target(kind, s, c, player, moved)
        if kind is K.SEARCH_LIBRARY:
            constraint, values = moved(Zone.HAND, player)
            return Effect(And(z == Z[Zone.LIBRARY], s.whose[c] == player), constraint, values)
        if kind is K.BOTTOM:
            constraint, values = moved(Zone.LIBRARY, player)
            guard = And(z == Z[Zone.HAND], s.whose[c] == player, self.player_of(s, "owed", player) > 0)
            return Effect(guard, constraint, values)
        if kind is K.OPENING_HAND_ACTION:
            guard = And(z == Z[Zone.HAND], s.whose[c] == player, Not(is_spell_type), self._opening_hand_ready(t, s))
            constraint, values = moved(Zone.BATTLEFIELD, player, controller=player)
            return Effect(guard, constraint, values)
        raise AssertionError(f"no encoding for {kind}")

    def _face_down_target(self, kind: ActionKind, s: StateVars, c: int, player, moved) -> "Effect":
        """The actions of 708 (see the interpreter's do_cast_face_down and the two after it)."""
        z, Z = s.zone[c], self.zone_c
        is_spell_type = self._type_in(self.card_type[c], SPELL_ONLY_TYPES)
        is_token = self.slots[c].is_token
        characteristics = self.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
        keeps_out = self.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
        if kind is K.CAST_FACE_DOWN:
            guard = And(
                z == Z[Zone.HAND], s.whose[c] == player,
                self.false() if is_token else self.true(),
                Or(self.card_type[c] != self.type_c[CardType.LAND], characteristics),
            )
            constraint, values = moved(Zone.STACK, player, controller=player, face_down=self.true())
            return Effect(guard, constraint, values)
        if kind is K.PUT_ONTO_BATTLEFIELD_FACE_DOWN:
            constraint, values = moved(Zone.BATTLEFIELD, player, controller=player, face_down=self.true())
            turned_first = And(self.on(Behaviour.FACE_DOWN_BEFORE_ENTERING), characteristics)
            stays = self.false() if is_token else And(is_spell_type, keeps_out, Not(turned_first))
            values = self._merge(s, c, stays, self._current(s, c), values)
            return Effect(self._source_ok(s, c, SOURCES[kind]), Or(stays, constraint), values)
        on_field = z == Z[Zone.BATTLEFIELD]
        spell = And(z == Z[Zone.STACK], Not(self.on(Behaviour.FACE_UP_PERMANENTS_ONLY)))
        stays = self.false() if is_token else And(on_field, is_spell_type, keeps_out)
        face_up = self._identity(s, c, Not(self.on(Behaviour.FACE_UP_SAME_OBJECT))) | {"face_down": self.false()}
        return Effect(And(s.face_down[c], Or(on_field, spell)), self.true(), self._merge(s, c, stays, self._current(s, c), face_up))

    def revealed_after(self, s: StateVars, s2: StateVars, c: int) -> z3.BoolRef:
        """708.9: the step reveals a face-down permanent that leaves the battlefield and a face-down
        spell that leaves the stack for anywhere but the battlefield (interpreter: revealed_by_move)."""
        Z = self.zone_c
        leaves_field = And(s.zone[c] == Z[Zone.BATTLEFIELD], s2.zone[c] != Z[Zone.BATTLEFIELD])
        leaves_stack = And(s.zone[c] == Z[Zone.STACK], s2.zone[c] != Z[Zone.STACK], s2.zone[c] != Z[Zone.BATTLEFIELD])
        return And(self.on(Behaviour.FACE_DOWN_REVEAL), s.face_down[c], Or(leaves_field, leaves_stack))

    def sees(self, t: int, player: int, c: int) -> z3.BoolRef:
        """Player `player` may see the face of slot c in state t (interpreter: sees)."""
        s, Z = self.state(t), self.zone_c
        in_game = Not(self.zone_is(s.zone[c], (Zone.OUTSIDE, Zone.NOWHERE)))
        face_down = Or(
            And(
                self.zone_is(s.zone[c], (Zone.BATTLEFIELD, Zone.STACK)),
                self.on(Behaviour.FACE_DOWN_CONTROLLER_LOOKS),
                s.controller[c] == self.player_c[player],
            ),
            self.sees_set_aside(t, player, c),
        )
        hidden = And(self.on(Behaviour.HIDDEN_ZONES), self.zone_is(s.zone[c], (Zone.LIBRARY, Zone.HAND)))
        own_hand = And(s.zone[c] == Z[Zone.HAND], s.whose[c] == self.player_c[player])
        face_up = If(hidden, own_hand, self.true())
        return And(in_game, Or(s.revealed[c], self.shown(t, player, c), If(s.face_down[c], face_down, face_up)))

    def sees_set_aside(self, t: int, player: int, c: int) -> z3.BoolRef:
        """Slot c, face down, is a card of the player's in exile before the game starts, where the
        Commander mulligan lets them look at the cards it set aside (903.8)."""
        if not self.in_file(Behaviour.MULLIGAN_LOOK_SET_ASIDE):
            return self.false()
        s = self.state(t)
        started = s.started if self.player_records else self.false()
        return And(
            s.zone[c] == self.zone_c[Zone.EXILE], self.on(Behaviour.MULLIGAN_LOOK_SET_ASIDE), Not(started),
            s.whose[c] == self.player_c[player],
        )

    def shown(self, t: int, player: int, c: int) -> z3.BoolRef:
        """The step before state t showed slot c to the player: the post-mulligan look shows the top
        card to the player who looks and, under the team-look rule, to their teammates (interpreter:
        look_audience). No variable of its own: it reads step t - 1."""
        if t == 0 or not self.ruleset.allows(K.POST_MULLIGAN_LOOK):
            return self.false()
        a = self.step(t - 1)
        audience = a.player == self.player_c[player]
        teammates = self.scope.teammates(player)
        if teammates and self.in_file(Behaviour.MULLIGAN_TEAM_LOOK):
            by_teammate = self.any_of(a.player == self.player_c[q] for q in teammates)
            audience = Or(audience, And(self.on(Behaviour.MULLIGAN_TEAM_LOOK), by_teammate))
        return And(a.kind == self.kind_c[K.POST_MULLIGAN_LOOK], a.card == self.slot_c[c], audience)

    # ---------------------------------------------------------------- actions without a target card

    def _permutation(self, s2: StateVars, members: list, guard) -> list:
        """Under `guard`, the slots for which members[c] holds get the positions 0..size-1 in some order."""
        size = self.count(members)
        facts = [Implies(And(guard, m), And(s2.pos[c] >= 0, s2.pos[c] < size)) for c, m in enumerate(members)]
        facts += [
            Implies(And(guard, members[c], members[d]), s2.pos[c] != s2.pos[d])
            for c, d in combinations(range(len(members)), 2)
        ]
        return facts

    def _reordered(self, t: int, s: StateVars, s2: StateVars, in_pile: list) -> z3.BoolRef:
        """Every object keeps everything; those in the pile may take any order."""
        facts = []
        for c in range(len(self.slots)):
            facts += [s2.field(f, c) == s.field(f, c) for f in FIELDS if f != "pos"]
            facts.append(Implies(Not(in_pile[c]), s2.pos[c] == s.pos[c]))
        facts += self._permutation(s2, in_pile, self.true())
        return self.all_of(facts)

    def _shuffle(self, t, s, s2, a) -> z3.BoolRef:
        in_library = [And(s.zone[c] == self.zone_c[Zone.LIBRARY], s.whose[c] == a.player) for c in range(len(self.slots))]
        return self._reordered(t, s, s2, in_library)

    def _reorder(self, t, s, s2, a) -> z3.BoolRef:
        zone = a.zone
        fixed = If(
            zone == self.zone_c[Zone.LIBRARY], self.on(Behaviour.ORDER_FIXED, Zone.LIBRARY),
            If(zone == self.zone_c[Zone.GRAVEYARD], self.on(Behaviour.ORDER_FIXED, Zone.GRAVEYARD), self.on(Behaviour.ORDER_FIXED, Zone.STACK)),
        )
        is_stack = zone == self.zone_c[Zone.STACK]
        in_pile = [And(s.zone[c] == zone, Or(is_stack, s.whose[c] == a.player)) for c in range(len(self.slots))]
        return And(self.zone_is(zone, ORDERED_ZONES), Not(fixed), self._reordered(t, s, s2, in_pile))

    def _shuffle_hand_into_library(self, t, s, s2, a) -> z3.BoolRef:
        zone_wide = self.on(Behaviour.ZONE_WIDE)
        redirect = self.on(Behaviour.OWNER_REDIRECT, Zone.LIBRARY)
        facts = []
        moving = []
        for c in range(len(self.slots)):
            in_hand = And(s.zone[c] == self.zone_c[Zone.HAND], s.whose[c] == a.player)
            facts += [Implies(zone_wide, Not(a.pick[c])), Implies(Not(in_hand), Not(a.pick[c]))]
            chosen = And(in_hand, Or(zone_wide, a.pick[c]))
            if self.slots[c].is_token:
                chosen = And(chosen, Not(self.on(Behaviour.TOKEN_STAYS)))
            moving.append(chosen)
            facts.append(Implies(chosen, Not(self.on(Behaviour.ZONE_CLOSED, Zone.LIBRARY))))
            owner = self.owner(c)
            moved = {
                "zone": self.zone_c[Zone.LIBRARY],
                "whose": If(redirect, owner, a.player),
                "controller": owner,
                "face_down": self.false(),
            } | self._identity(s, c, self.on(Behaviour.NEW_OBJECT))
            facts += [s2.field(f, c) == If(chosen, moved[f], s.field(f, c)) for f in moved]
        receiving = []
        for q in range(self.players):
            receives = self.any_of(And(moving[c], s2.whose[c] == self.player_c[q]) for c in range(len(self.slots)))
            receiving.append(receives)
            members = [And(s2.zone[c] == self.zone_c[Zone.LIBRARY], s2.whose[c] == self.player_c[q]) for c in range(len(self.slots))]
            facts += self._permutation(s2, members, receives)
        for c in range(len(self.slots)):
            shuffled = self.any_of(
                And(receiving[q], s2.zone[c] == self.zone_c[Zone.LIBRARY], s2.whose[c] == self.player_c[q])
                for q in range(self.players)
            )
            facts.append(Implies(Not(shuffled), s2.pos[c] == s.pos[c]))
        return self.all_of(facts)

    def _state_based_actions(self, t, s, s2, a) -> z3.BoolRef:
        ceases = self.on(Behaviour.TOKEN_CEASES)
        ceasing = [
            And(ceases, self.token_left_battlefield(s, c)) if slot.is_token else self.false()
            for c, slot in enumerate(self.slots)
        ]
        facts, returning = self._commanders_to_command(s, a)
        leaving = [Or(ceasing[c], returning[c]) for c in range(len(self.slots))]
        for c in range(len(self.slots)):
            owner = self.owner(c)
            gone = {"zone": self.zone_c[Zone.NOWHERE], "whose": owner, "controller": owner, "pos": self.int(0), "face_down": self.false()}
            below_leaving = self.count(
                And(leaving[d], self.same_pile(s, c, d), s.pos[d] < s.pos[c])
                for d in range(len(self.slots)) if d != c and (self.slots[d].is_token or self.slots[d].is_commander)
            )
            stays = self._current(s, c)
            stays["pos"] = If(self.zone_is(s.zone[c], ORDERED_ZONES), s.pos[c] - below_leaving, s.pos[c])
            gone = stays | gone
            if self.slots[c].is_commander:
                home = {
                    "zone": self.zone_c[Zone.COMMAND], "whose": owner, "controller": owner, "pos": self.int(0), "face_down": self.false(),
                } | self._identity(s, c, self.on(Behaviour.NEW_OBJECT))
                facts += [s2.field(f, c) == If(returning[c], home[f], stays[f]) for f in FIELDS]
                continue
            facts += [s2.field(f, c) == If(ceasing[c], gone[f], stays[f]) for f in FIELDS]
        return self.all_of(facts)

    def _commanders_to_command(self, s: StateVars, a: StepVars) -> tuple[list, list]:
        """903.9a: the commanders the action lists (`pick`) go from a graveyard or exile, where they
        were put since state-based actions were last performed, to the command zone."""
        facts, returning = [], []
        for c, slot in enumerate(self.slots):
            if not slot.is_commander:
                returning.append(self.false())
                continue
            facts.append(Implies(a.pick[c], And(
                self.on(Behaviour.COMMANDER_RETURN_SBA),
                self.zone_is(s.zone[c], (Zone.GRAVEYARD, Zone.EXILE)),
                s.fresh[c],
                Not(self.on(Behaviour.ZONE_CLOSED, Zone.COMMAND)),
            )))
            returning.append(a.pick[c])
        return facts, returning

    def trans_without(self, t: int, rule_id: str) -> z3.BoolRef:
        """Step t's transition with one rule switched off, whatever the rule literals say."""
        return z3.substitute(And(self.trans(t)), (self.rule_literal[rule_id], self.false()))

    def visibility_without(self, t: int, rule_id: str) -> z3.BoolRef:
        """Some player sees the face of some object in state t with the rule in force and not
        without it, or the other way round (a rule that decides only who sees what changes no step)."""
        off = (self.rule_literal[rule_id], self.false())
        differ = []
        for p in range(self.players):
            for c in range(len(self.slots)):
                seen = self.sees(t, p, c)
                without = z3.substitute(seen, off)
                if not without.eq(seen):
                    differ.append(Xor(seen, without))
        return self.any_of(differ)

    def no_outcome(self, t: int) -> z3.BoolRef:
        """At step t a single-target action applies to its target but the rules leave it no legal
        outcome. A position the player chooses (n of a graveyard or stack arrival) is fixed at the
        bottom, which always exists; put_into_library's n is part of the effect. The actions the
        file declares as gaps (`[[gap]]`) are left out."""
        s, a = self.state(t), self.step(t)
        gaps = [d.name for d in self.ruleset.gaps]
        cases = []
        for kind in ActionKind:
            if kind in NO_CARD or kind in PILE_TARGET or not self.ruleset.allows(kind) or kind.value in gaps:
                continue
            for c in range(len(self.slots)):
                effect = self.target(kind, t, s, a, c)
                chosen_n = self.true() if kind is K.PUT_INTO_LIBRARY else a.n == 0
                chosen_n = And(chosen_n, Not(a.to_command))  # the replacement is a choice; declining it is always possible
                cases.append(And(a.kind == self.kind_c[kind], a.card == self.slot_c[c], chosen_n, effect.event, Not(effect.outcome)))
        return And(*self._canonical_fields(a), self.any_of(cases))

    def state_is(self, t: int, state: GameState) -> list:
        """Facts fixing state t to a concrete state."""
        s = self.state(t)
        facts = []
        for c, o in enumerate(state.objects):
            for name in FIELDS + STEP_FIELDS + ("fresh",):
                var, value = s.field(name, c), getattr(o, name)
                if name == "zone":
                    facts.append(var == self.zone_c[value])
                elif name in ("whose", "controller"):
                    facts.append(var == self.player_c[value])
                elif isinstance(value, bool):
                    facts.append(var == z3.BoolVal(value, self.ctx))
                else:
                    facts.append(var == self.int(value))
        if self.player_records and state.players:
            facts += self.players_are(t, state.players, state.started)
        return facts

    def shown_is(self, t: int, state: GameState) -> list:
        """Facts fixing what the step that led to state t showed (`shown` reads that step's action,
        so state_is leaves it out)."""
        return [self.shown(t, p, c) == z3.BoolVal(p in o.shown, self.ctx) for c, o in enumerate(state.objects) for p in range(self.players)]

    def action_is(self, t: int, action: Action) -> list:
        """Facts fixing step t's action to a concrete action (its `order` shows in the next state)."""
        a = self.step(t)
        return [
            a.kind == self.kind_c[action.kind],
            a.card == (self.no_slot if action.card is None else self.slot_c[action.card]),
            a.player == (self.no_player if action.player is None else self.player_c[action.player]),
            a.n == self.int(action.n),
            a.zone == self.zone_c[Zone.NOWHERE if action.zone is None else action.zone],
            *[a.pick[c] == z3.BoolVal(c in action.cards, self.ctx) for c in range(len(self.slots))],
            a.to_command == z3.BoolVal(action.to_command, self.ctx),
        ]

    def types_are(self, types: tuple[CardType, ...]) -> list:
        return [self.card_type[c] == self.type_c[t] for c, t in enumerate(types)]

    # ---------------------------------------------------------------- decoding a model

    def decode(self, model: z3.ModelRef, depth: int, final_state: bool = True) -> tuple[tuple[CardType, ...], list[GameState], list[Action]]:
        """Card types, states 0..depth and actions 0..depth-1 of a model. Without `final_state` the
        last action is one the rules leave with no outcome (lint's conflicts): state `depth` is
        free in the model, so it is not decoded, and the last action records no order."""
        def as_int(expr) -> int:
            return model.eval(expr, model_completion=True).as_long()

        def as_bool(expr) -> bool:
            return z3.is_true(model.eval(expr, model_completion=True))

        def enum_value(expr, values: list):
            return values[as_int(expr)]

        zones = list(Zone)
        players = list(range(self.players)) + [None]
        slot_index = list(range(len(self.slots))) + [None]
        kinds = list(ActionKind)
        types = list(CardType)

        card_types = tuple(enum_value(x, types) for x in self.card_type)
        states = []
        for t in range(depth + 1 if final_state else depth):
            s = self.state(t)
            states.append(GameState(tuple(
                ObjectState(
                    zone=enum_value(s.zone[c], zones),
                    whose=enum_value(s.whose[c], players),
                    controller=enum_value(s.controller[c], players),
                    pos=as_int(s.pos[c]),
                    gen=as_int(s.gen[c]),
                    face_down=as_bool(s.face_down[c]),
                    counters=as_int(s.counters[c]),
                    tapped=as_bool(s.tapped[c]),
                    attached=as_bool(s.attached[c]),
                    effect=as_bool(s.effect[c]),
                    revealed=as_bool(s.revealed[c]),
                    fresh=as_bool(s.fresh[c]),
                    shown=tuple(p for p in range(self.players) if as_bool(self.shown(t, p, c))),
                )
                for c in range(len(self.slots))
            ), self._decode_players(s, as_int, as_bool), self.player_records and as_bool(s.started)))
        actions = []
        for t in range(depth):
            a = self.step(t)
            kind = enum_value(a.kind, kinds)
            zone = enum_value(a.zone, zones)
            player = enum_value(a.player, players)
            picked = tuple(c for c in range(len(self.slots)) if as_bool(a.pick[c]))
            actions.append(Action(
                kind=kind,
                card=enum_value(a.card, slot_index),
                player=player,
                n=as_int(a.n),
                zone=None if zone is Zone.NOWHERE else zone,
                order=reordered_piles(kind, player, zone, states[t], states[t + 1]) if t + 1 < len(states) else (),
                cards=picked,
                to_command=as_bool(a.to_command),
            ))
        return card_types, states, actions

    def _decode_players(self, s: StateVars, as_int, as_bool) -> tuple[PlayerState, ...]:
        if not self.player_records:
            return ()
        return tuple(
            PlayerState(**{f: (as_bool if f in BOOL_PLAYER_FIELDS else as_int)(s.player(f, p)) for f in PLAYER_FIELDS})
            for p in range(self.players)
        )

    # ---------------------------------------------------------------- the pregame (103.4, 103.5)

    def player_of(self, s: StateVars, name: str, player_expr):
        """A pregame field of the player that `player_expr` names."""
        result = s.player(name, self.players - 1)
        for p in range(self.players - 1):
            result = If(player_expr == self.player_c[p], s.player(name, p), result)
        return result

    def _players_trans(self, t: int, s: StateVars, s2: StateVars, a: StepVars) -> list:
        """The started flag and the player records: a pregame action needs a game not yet started;
        an ordinary action starts it, from the bare start or once every player has kept. A deck
        looked through must be shuffled before anything else happens (204.3)."""
        if self.pregame:
            pregame_kind = self.any_of(a.kind == self.kind_c[k] for k in PREGAME_ACTIONS if self.ruleset.allows(k))
            untouched = self.all_of(Not(s.player("drawn", p)) for p in range(self.players))
            complete = self.all_of(And(s.player("kept", p), s.player("owed", p) == 0) for p in range(self.players))
            facts = [
                Implies(pregame_kind, And(Not(s.started), Not(s2.started))),
                Implies(Not(pregame_kind), And(Or(s.started, untouched, complete), s2.started)),
            ]
        else:
            facts = [s2.started == s.started]
        if self.ruleset.allows(K.SEARCH_LIBRARY):
            shuffle_first = self.on(Behaviour.SHUFFLE_AFTER_SEARCH)
            facts += [
                Implies(And(shuffle_first, s.player("searched", p)), And(a.kind == self.kind_c[K.SHUFFLE], a.player == self.player_c[p]))
                for p in range(self.players)
            ]
        changes = {
            K.DRAW_HAND: lambda p: {"drawn": self.true()},
            K.MULLIGAN: lambda p: self._mulligan_players(t, s, p),
            K.KEEP: lambda p: {"kept": self.true()},
            K.BOTTOM: lambda p: {"owed": s.player("owed", p) - 1},
            K.POST_MULLIGAN_LOOK: lambda p: {"looked": self.true()},
            K.SEARCH_LIBRARY: lambda p: {"searched": self.true()},
            K.SHUFFLE: lambda p: {"searched": self.false()},
        }
        for p in range(self.players):
            is_p = a.player == self.player_c[p]
            for f in PLAYER_FIELDS:
                if not self.player_field_changes(f):
                    continue
                value = s.player(f, p)
                for kind, change in changes.items():
                    if self.ruleset.allows(kind) and f in change(p):
                        value = If(And(is_p, a.kind == self.kind_c[kind]), change(p)[f], value)
                facts.append(s2.player(f, p) == value)
        return facts

    def _free_mulligan(self, s: StateVars, p: int):
        free = And(self.on(Behaviour.MULLIGAN_FREE_FIRST), Not(s.player("free_taken", p)))
        return free if self.players > 2 else self.false()  # a multiplayer game begins with more than two players

    def _mulligan_players(self, t: int, s: StateVars, p: int) -> dict:
        free = self._free_mulligan(s, p)
        counted = s.player("mulligans", p) + If(free, self.int(0), self.int(1))
        return {
            "mulligans": counted,
            "owed": If(self.on(Behaviour.MULLIGAN_LONDON), counted, self.int(0)),
            "free_taken": Or(s.player("free_taken", p), free),
        }

    def _declaring(self, s: StateVars, player) -> z3.BoolRef:
        """The player has an opening hand, has not kept it, and owes no card to the bottom."""
        return And(self.player_of(s, "drawn", player), Not(self.player_of(s, "kept", player)), self.player_of(s, "owed", player) == 0)

    def _unchanged(self, s: StateVars, s2: StateVars, c: int) -> list:
        return [s2.field(f, c) == s.field(f, c) for f in FIELDS]

    def starting_hand(self, player):
        """The starting hand size of the player (an expression), modified by their vanguard card
        where a rule in force says so (902.5, 103.5a; interpreter: starting_hand)."""
        if not any(self.scope.hand_modifiers):
            return self.int(self.hand)
        modified = self.int(self.hand + self.scope.hand_modifier(self.players - 1))
        for p in range(self.players - 1):
            modified = If(player == self.player_c[p], self.int(self.hand + self.scope.hand_modifier(p)), modified)
        return If(self.on(Behaviour.HAND_MODIFIER), modified, self.int(self.hand))

    def _draw_hand(self, t, s, s2, a) -> z3.BoolRef:
        p = a.player
        library = self.size_of(t, Zone.LIBRARY, p)
        hand = self.starting_hand(p)
        facts = [Not(self.player_of(s, "drawn", p)), library >= hand]
        for c in range(len(self.slots)):
            drawn = And(s.zone[c] == self.zone_c[Zone.LIBRARY], s.whose[c] == p, s.pos[c] >= library - hand)
            constraint, values = self._moved(t, s, a, c, Zone.HAND, p)
            facts.append(If(drawn, self._assign(s, s2, c, constraint, values), And(self._unchanged(s, s2, c))))
        return self.all_of(facts)

    def _mulligan(self, t, s, s2, a) -> z3.BoolRef:
        p = a.player
        hand_size = self.size_of(t, Zone.HAND, p)
        free = Or([And(p == self.player_c[q], self._free_mulligan(s, q)) for q in range(self.players)])
        one_fewer = If(free, hand_size, hand_size - 1)
        new_size = If(
            self.on(Behaviour.MULLIGAN_LONDON), self.starting_hand(p),
            If(self.on(Behaviour.MULLIGAN_ONE_FEWER), If(one_fewer < 0, self.int(0), one_fewer), self.starting_hand(p)),
        )
        facts = [self._declaring(s, p), Implies(self.on(Behaviour.MULLIGAN_KEEP_ZERO), hand_size > 0)]
        facts += [
            Implies(hand_size > 0, Not(self.on(Behaviour.ZONE_CLOSED, Zone.LIBRARY))),
            Implies(new_size > 0, Not(self.on(Behaviour.ZONE_CLOSED, Zone.HAND))),
        ]
        renew = self.on(Behaviour.NEW_OBJECT)
        in_library_after = []
        to_hand = []
        for c in range(len(self.slots)):
            in_hand = And(s.zone[c] == self.zone_c[Zone.HAND], s.whose[c] == p)
            member = And(self.zone_is(s.zone[c], (Zone.HAND, Zone.LIBRARY)), s.whose[c] == p)
            facts.append(a.pick[c] == And(member, a.pick[c]))
            drawn = a.pick[c]
            to_hand.append(drawn)
            in_library_after.append(And(member, Not(drawn)))
            changes = If(in_hand, self.int(1), self.int(0)) + If(drawn, self.int(1), self.int(0))
            wiped = And(renew, changes > 0)
            values = {
                "zone": If(drawn, self.zone_c[Zone.HAND], self.zone_c[Zone.LIBRARY]),
                "whose": p,
                "controller": self.owner(c),
                "face_down": self.false(),
                "gen": If(renew, s.gen[c] + changes, s.gen[c]),
                "counters": If(wiped, self.int(0), s.counters[c]),
                "tapped": And(Not(wiped), s.tapped[c]),
                "attached": And(Not(wiped), s.attached[c]),
                "effect": And(Not(wiped), s.effect[c]),
            }
            moved = And(*[s2.field(f, c) == values[f] for f in values], Implies(drawn, s2.pos[c] == 0))
            facts.append(If(member, moved, And(self._unchanged(s, s2, c))))
        facts.append(self.count(to_hand) == new_size)
        facts += self._permutation(s2, in_library_after, self.true())
        if not self.in_file(Behaviour.MULLIGAN_PARTIAL_PARIS):  # keep the formula small where it cannot apply
            return self.all_of(facts)
        partial = And(self.on(Behaviour.MULLIGAN_PARTIAL_PARIS), Not(self.on(Behaviour.MULLIGAN_LONDON)))
        return If(partial, self._partial_paris(t, s, s2, a, free), self.all_of(facts))

    def _partial_paris(self, t, s, s2, a, free) -> z3.BoolRef:
        """903.8: the hand cards not picked are exiled face down; the top cards of the library, one
        fewer than those (as many with a free mulligan), are drawn; the library is not shuffled."""
        p = a.player
        hand_size = self.size_of(t, Zone.HAND, p)
        library = self.size_of(t, Zone.LIBRARY, p)
        renew = self.on(Behaviour.NEW_OBJECT)
        facts = [self._declaring(s, p), Implies(self.on(Behaviour.MULLIGAN_KEEP_ZERO), hand_size > 0)]
        in_hand = [And(s.zone[c] == self.zone_c[Zone.HAND], s.whose[c] == p) for c in range(len(self.slots))]
        in_library = [And(s.zone[c] == self.zone_c[Zone.LIBRARY], s.whose[c] == p) for c in range(len(self.slots))]
        set_aside = [And(in_hand[c], Not(a.pick[c])) for c in range(len(self.slots))]
        count = self.count(set_aside) - If(free, self.int(0), self.int(1))
        facts += [self.count(set_aside) >= 1, count <= library]
        facts += [Implies(self.any_of(set_aside), Not(self.on(Behaviour.ZONE_CLOSED, Zone.EXILE))),
                  Implies(count > 0, Not(self.on(Behaviour.ZONE_CLOSED, Zone.HAND)))]
        for c in range(len(self.slots)):
            drawn = And(in_library[c], s.pos[c] >= library - count)
            facts.append(a.pick[c] == Or(And(in_hand[c], a.pick[c]), drawn))
            constraint, values = self._moved(t, s, a, c, Zone.HAND, p)
            exiled = {
                "zone": self.zone_c[Zone.EXILE], "whose": self.owner(c), "controller": self.owner(c), "pos": self.int(0),
                "face_down": self.true(),
            } | self._identity(s, c, renew)
            facts.append(If(
                drawn, self._assign(s, s2, c, constraint, values),
                If(set_aside[c], self._assign(s, s2, c, self.true(), exiled), And(self._unchanged(s, s2, c))),
            ))
        return self.all_of(facts)

    def _keep(self, t, s, s2, a) -> z3.BoolRef:
        """Keeping; under 903.8 the cards set aside face down are shuffled into the library."""
        p = a.player
        facts = [self._declaring(s, p)]
        if not self.in_file(Behaviour.MULLIGAN_RETURN_SET_ASIDE):  # nothing comes back: every object stays
            return self.all_of(facts + [f for c in range(len(self.slots)) for f in self._unchanged(s, s2, c)])
        returning = [
            And(self.on(Behaviour.MULLIGAN_RETURN_SET_ASIDE), s.zone[c] == self.zone_c[Zone.EXILE], s.face_down[c], self.owner(c) == p)
            for c in range(len(self.slots))
        ]
        shuffled = self.any_of(returning)
        facts.append(Implies(shuffled, Not(self.on(Behaviour.ZONE_CLOSED, Zone.LIBRARY))))
        renew = self.on(Behaviour.NEW_OBJECT)
        members = []
        for c in range(len(self.slots)):
            in_library = And(s.zone[c] == self.zone_c[Zone.LIBRARY], s.whose[c] == p)
            members.append(And(shuffled, Or(in_library, returning[c])))
            back = {
                "zone": self.zone_c[Zone.LIBRARY], "whose": p, "controller": p, "face_down": self.false(),
            } | self._identity(s, c, renew)
            facts.append(If(
                returning[c], And(*[s2.field(f, c) == back[f] for f in back]),
                And(*[s2.field(f, c) == s.field(f, c) for f in FIELDS if f != "pos"]),
            ))
            facts.append(Implies(Not(members[c]), s2.pos[c] == s.pos[c]))
        facts += self._permutation(s2, members, shuffled)
        return self.all_of(facts)

    def may_look(self, t: int, player) -> z3.BoolRef:
        """The player (an expression) may still take the post-mulligan look in state t
        (interpreter: look_refusal)."""
        if not self.pregame:
            return self.false()
        s = self.state(t)
        return And(
            self.on(Behaviour.MULLIGAN_LOOK),
            Not(s.started),
            self.all_of(s.player("kept", q) for q in range(self.players)),
            Not(self.player_of(s, "looked", player)),
            Implies(self.on(Behaviour.MULLIGAN_LOOK_SMALLER), self.size_of(t, Zone.HAND, player) < self.starting_hand(player)),
            Implies(self.on(Behaviour.OPENING_HAND_AFTER_LOOK), self.size(t, Zone.BATTLEFIELD, None) == 0),
        )

    def _opening_hand_ready(self, t: int, s: StateVars) -> z3.BoolRef:
        """103.6: opening-hand actions come once every player has kept; under the new text of 2015
        once no player may still look (interpreter: do_opening_hand_action)."""
        waiting = self.any_of(self.may_look(t, self.player_c[q]) for q in range(self.players))
        return And(
            self.on(Behaviour.OPENING_HAND_ACTIONS),
            self.all_of(s.player("kept", q) for q in range(self.players)),
            Implies(self.on(Behaviour.OPENING_HAND_AFTER_LOOK), Not(waiting)),
        )

    def _post_mulligan_look(self, t, s, s2, a) -> z3.BoolRef:
        p = a.player
        library = self.size_of(t, Zone.LIBRARY, p)
        facts = [self.may_look(t, p), a.n <= 1]
        to_bottom = a.n == 0
        for c in range(len(self.slots)):
            is_c = a.card == self.slot_c[c]
            in_library = And(s.zone[c] == self.zone_c[Zone.LIBRARY], s.whose[c] == p)
            facts.append(Implies(is_c, And(in_library, s.pos[c] == library - 1)))
            new_pos = If(
                And(to_bottom, is_c), self.int(0),
                If(And(to_bottom, in_library), s.pos[c] + 1, s.pos[c]),
            )
            facts += [s2.field(f, c) == s.field(f, c) for f in FIELDS if f != "pos"]
            facts.append(s2.pos[c] == new_pos)
        return self.all_of(facts)


def reordered_piles(kind: ActionKind, player: int | None, zone: Zone, before: GameState, after: GameState):
    """The `order` record of an action: the new top-to-bottom order of each pile it reordered."""
    if kind is K.SHUFFLE:
        keys = [(Zone.LIBRARY, player)]
    elif kind is K.REORDER:
        keys = [(zone, player)]
    elif kind is K.MULLIGAN:
        # a partial Paris mulligan (903.8) sets cards aside in exile and draws from the top: no shuffle
        set_aside = any(o.zone is Zone.HAND and o2.zone is Zone.EXILE for o, o2 in zip(before.objects, after.objects))
        keys = [] if set_aside else [(Zone.LIBRARY, player)]
    elif kind is K.KEEP:
        returned = any(o.zone is Zone.EXILE and o2.zone is Zone.LIBRARY for o, o2 in zip(before.objects, after.objects))
        keys = [(Zone.LIBRARY, player)] if returned else []
    elif kind is K.SHUFFLE_HAND_INTO_LIBRARY:
        receivers = sorted({
            after.objects[c].whose
            for c, (o, o2) in enumerate(zip(before.objects, after.objects))
            if o.zone is Zone.HAND and o2.zone is Zone.LIBRARY
        })
        keys = [(Zone.LIBRARY, q) for q in receivers]
    else:
        return ()
    return tuple(
        (zone_key(z, p), tuple(reversed(after.zone_members(z, p))))
        for z, p in keys
    )


class SymbolicBackend:
    """Evaluates a property over the variables of state t (and step t, state t+1 for step properties)."""

    def __init__(self, encoding: Encoding, t: int):
        self.e = encoding
        self.t = t

    def bool_const(self, b: bool):
        return z3.BoolVal(b, self.e.ctx)

    def int_const(self, n: int):
        return self.e.int(n)

    def zone_const(self, z: Zone):
        return self.e.zone_c[z]

    def type_const(self, t: CardType):
        return self.e.type_c[t]

    def kind_const(self, k: ActionKind):
        return self.e.kind_c[k]

    def player_const(self, p: int):
        return self.e.player_c[p]

    def object_const(self, slot: int):
        return self.e.slot_c[slot]

    def and_(self, xs):
        return self.e.all_of(xs)

    def or_(self, xs):
        return self.e.any_of(xs)

    def not_(self, x):
        return Not(x)

    def implies(self, a, b):
        return Implies(a, b)

    def iff(self, a, b):
        return a == b

    def eq(self, a, b):
        return a == b

    def lt(self, a, b):
        return a < b

    def le(self, a, b):
        return a <= b

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def field(self, name: str, slot: int, primed: bool):
        if name == "owner":
            return self.e.owner(slot)
        if name == "is_token":
            return z3.BoolVal(self.e.slots[slot].is_token, self.e.ctx)
        if name == "is_commander":
            return z3.BoolVal(self.e.slots[slot].is_commander, self.e.ctx)
        if name == "type":
            return self.e.card_type[slot]
        return self.e.state(self.t + 1 if primed else self.t).field(name, slot)

    def size(self, zone: Zone, player: int | None, primed: bool):
        return self.e.size(self.t + 1 if primed else self.t, zone, player)

    def player_field(self, name: str, player: int, primed: bool):
        if name == "starting_hand":
            return self.e.int(self.e.hand + self.e.scope.hand_modifier(player))
        if name == "team":
            return self.e.int(self.e.scope.team(player))
        if name == "may_look":
            return self.e.may_look(self.t + 1 if primed else self.t, self.e.player_c[player])
        field = PLAYER_FUNCTION_FIELDS[name]
        if not self.e.player_records:  # no player records: every player is as at the start
            value = getattr(PlayerState(), field)
            return z3.BoolVal(value, self.e.ctx) if isinstance(value, bool) else self.e.int(value)
        return self.e.state(self.t + 1 if primed else self.t).player(field, player)

    def action_field(self, name: str):
        a = self.e.step(self.t)
        return getattr(a, name)

    def sees(self, player: int, slot: int, primed: bool):
        return self.e.sees(self.t + 1 if primed else self.t, player, slot)

    def shown(self, player: int, slot: int, primed: bool):
        return self.e.shown(self.t + 1 if primed else self.t, player, slot)

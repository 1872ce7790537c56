"""The transition system of one rule set within one scope: its initial state and its steps, as Z3
constraints over time-indexed variables, built from the symbolic halves of the registry.

Every rule's constraints are guarded by a Boolean literal named after the rule (`rule[400.3]`); a
check asserts the literals of the rules in force (and the negations of the removed ones), or
passes them as assumptions, so that one encoding serves every set of removed rules.

A step is assembled from pieces, each a list of constraints that either constrains a part of the
next state (an object field, the pile order, a player record) or says when an action is possible
(its guard). A slice (slicing.py) keeps the pieces its property depends on and drops the rest.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from itertools import combinations

import z3

from ..model import (
    GAME_ZONES,
    ORDERED_ZONES,
    PERSONAL_ZONES,
    PLAYER_FIELDS,
    REFERENCES,
    REPLACEMENT_FIELDS,
    SLOT_FIELDS,
    START_ZONE,
    SPELL_ONLY_TYPES,
    Action,
    ActionKind,
    Behaviour,
    CardType,
    GameState,
    PlayerState,
    Scope,
    SlotKind,
    Zone,
    slots_for,
)
from ..ruleset import RuleSet
from ..semantics import HOOKS, PlayerUse, Target, spec
from ..semantics.pregame import encode_may_look
from ..semantics.step import Effect, SymbolicStep, Transition
from ..semantics.visibility import encode_shown, encode_sees
from ..terms import And, Eq, If, Implies, Not, Or, Renaming, Xor
from .variables import ASSIGNED_FIELDS, DERIVED_FIELDS, Codes, StateVars, StepVars, record_variables, state_vars, step_vars

K = ActionKind
# The pieces of a step that speak of no part of the next state: when an action may be taken.
GUARD = "guard"


@dataclass
class Pieces:
    """One step's constraints, sorted for slicing: `kinds[k][part]` are action k's constraints
    (GUARD: when it is possible; a part: what it makes of that part of the next state), under the
    condition that k is the step's action; `common[part]` hold whatever the action."""

    t: int
    kinds: dict = field(default_factory=dict)
    common: dict = field(default_factory=dict)

    def add(self, kind: ActionKind | None, part: str, terms) -> None:
        table = self.common if kind is None else self.kinds.setdefault(kind, {})
        table.setdefault(part, []).extend(terms)


@dataclass(frozen=True)
class Slice:
    """What a transition system keeps: the action kinds (None: all the rule set has) and the parts
    of the state (None: all of them)."""

    kinds: frozenset | None = None
    parts: frozenset | None = None

    def keeps_kind(self, kind: ActionKind) -> bool:
        return self.kinds is None or kind in self.kinds

    def keeps(self, part: str) -> bool:
        return self.parts is None or part in self.parts

    @property
    def projects_the_game(self) -> bool:
        """Whether each state the whole game reaches, read on the parts kept, is one the slice reaches:
        true of the whole game and of a cone of influence (`slicing.sliced`: the kinds it leaves out
        change no part it keeps), not of the pregame's actions alone (`slicing.pregame_system`)."""
        return self.kinds is None or self.parts is not None


EVERYTHING = Slice()


class TransitionSystem:
    """The initial state and step t's constraints of one rule set within one scope, in its own Z3
    context (or a shared one)."""

    def __init__(self, ruleset: RuleSet, scope: Scope, int_reach: int = 0, ctx: z3.Context | None = None,
                 literal_prefix: str = "", slice: Slice = EVERYTHING):
        """`int_reach` bounds the integers the checked properties compute (see evaluate.int_reach);
        the integer bit-vectors are wide enough for it and for every size, identity and counter.

        Two systems of the same scope given one `ctx` share their state and step variables (a
        variable is its name, `zone[A1]@3`); distinct `literal_prefix`es keep their rule literals
        apart (`a:rule[400.3]`). That is the product of two transition relations (see diff.py)."""
        self.ruleset = ruleset
        self.scope = scope
        self.ctx = ctx if ctx is not None else z3.Context()
        self.slots = slots_for(scope)
        self.players = scope.players
        self.int_reach = int_reach
        self.codes = Codes(scope, self.slots, self.ctx, int_reach)
        self.slice = slice
        self.pregame = ruleset.has_pregame
        self.player_records = ruleset.tracks_players
        self.hand = scope.starting_hand
        self.card_type = [self.codes.var(f"type[{s.name}]", "type") for s in self.slots]
        self.rule_literal = {r.id: z3.Bool(f"{literal_prefix}rule[{r.id}]", self.ctx) for r in ruleset.rules}
        self.kinds = tuple(k for k in ActionKind if ruleset.allows(k) and slice.keeps_kind(k))
        self._on: dict = {}
        self._states: list[StateVars] = []
        self._steps: list[StepVars] = []
        self._sizes: dict = {}
        self._pairs: dict = {}
        self._positions: dict = {}
        self._trans: dict[int, list] = {}
        self._pieces: dict[int, Pieces] = {}
        self._formulas: dict = {}
        self._shifts: dict[int, Renaming] = {}
        self._listed: dict[tuple[str, int], list] = {}

    @property
    def structure(self) -> tuple:
        """What the system's constraints depend on, rule values aside (they are literals): two systems
        with the same structure build the same constraints, in contexts of their own."""
        return (self.ruleset.sha256, replace(self.scope, depth=0), tuple(self.codes.width.items()), self.slice)

    # ---------------------------------------------------------------- rules

    def rule_values(self, ruleset: RuleSet | None = None) -> list:
        """Rule literals: true for the rules in force, false for the removed ones, in this system's
        rule set or in `ruleset` (the same file with other rules removed: coverage). A check
        asserts them as facts (Z3 then simplifies the rules away); an unsat-core query passes them
        as assumptions instead."""
        removed = (ruleset or self.ruleset).removed
        return [Not(lit) if rule_id in removed else lit for rule_id, lit in self.rule_literal.items()]

    def in_file(self, behaviour: Behaviour) -> bool:
        """Whether some rule of the file (in force or removed) provides the behaviour: where none
        does, the encoding leaves out what only that behaviour could make happen."""
        return self.ruleset.in_file(behaviour)

    def on(self, behaviour: Behaviour, zone: Zone | None = None) -> z3.BoolRef:
        """True when some rule of the file that provides the behaviour is in force."""
        key = (behaviour, zone)
        if key not in self._on:
            ids = [r.id for r in self.ruleset.rules if r.behaviour is behaviour and (zone is None or not r.zones or zone in r.zones)]
            self._on[key] = self.codes.any_of(self.rule_literal[i] for i in ids)
        return self._on[key]

    def player_field_changes(self, f: str) -> bool:
        if not self.player_records:
            return False
        if f == "searched":
            return self.ruleset.allows(K.SEARCH_LIBRARY)
        return self.ruleset.has_replacements if f in REPLACEMENT_FIELDS else self.pregame

    # ---------------------------------------------------------------- variables

    def state(self, t: int) -> StateVars:
        while len(self._states) <= t:
            fields = {f: self.player_field_changes(f) for f in PLAYER_FIELDS} if self.player_records else None
            self._states.append(state_vars(self.codes, len(self._states), fields))
        return self._states[t]

    def step(self, t: int) -> StepVars:
        while len(self._steps) <= t:
            self._steps.append(step_vars(self.codes, len(self._steps)))
        return self._steps[t]

    def kind_in(self, t: int, kinds) -> z3.BoolRef:
        """Step t's action is of one of `kinds`."""
        return self.codes.any_of(self.step(t).kind == self.codes.kind[k] for k in kinds)

    def same_pile(self, s: StateVars, c: int, d: int) -> z3.BoolRef:
        """c and d are in the same ordered zone (the same player's, for a personal one). Built once
        per state and pair: a property over pairs of objects asks for it in every comparison."""
        key = (id(s), c, d)  # s is kept beside the term, so that its id cannot be reused
        if key not in self._pairs:
            self._pairs[key] = (s, self._same_pile(s, c, d))
        return self._pairs[key][1]

    def _same_pile(self, s: StateVars, c: int, d: int) -> z3.BoolRef:
        return And(
            s.zone[c] == s.zone[d],
            self.codes.zone_is(s.zone[c], ORDERED_ZONES),
            Or(Not(self.codes.zone_is(s.zone[c], PERSONAL_ZONES)), s.whose[c] == s.whose[d]),
        )

    def size(self, t: int, zone: Zone, player: int | None):
        key = (t, zone, player if zone in PERSONAL_ZONES else None)
        if key not in self._sizes:
            s, codes = self.state(t), self.codes
            if zone in PERSONAL_ZONES:
                members = [And(s.zone[c] == codes.zone[zone], s.whose[c] == codes.player[player]) for c in range(len(self.slots))]
            else:
                members = [s.zone[c] == codes.zone[zone] for c in range(len(self.slots))]
            self._sizes[key] = codes.count(members)
        return self._sizes[key]

    def position(self, t: int, c: int):
        """Slot c's position counted from the bottom of its ordered zone in state t (0 elsewhere)."""
        return self.state(t).pos[c]

    # ---------------------------------------------------------------- the initial state

    def init(self) -> list:
        s, codes = self.state(0), self.codes
        facts = []
        for c, slot in enumerate(self.slots):
            zone = START_ZONE[slot.kind.value]
            facts += [
                s.zone[c] == codes.zone[zone],
                s.whose[c] == codes.player[slot.owner],
                s.controller[c] == codes.player[slot.owner],
                s.gen[c] == 0,
                s.counters[c] == 0,
                Not(s.face_down[c]),
                Not(s.tapped[c]),
                Not(s.attached[c]),
                Not(s.effect[c]),
                Not(s.revealed[c]),
                s.looker[c] == codes.no_player,
                *[s.field(f, c) == codes.no_slot for f in SLOT_FIELDS],
                *[Not(s.field(lost, c)) for lost in REFERENCES.values()],
                s.returns_to[c] == codes.zone[Zone.NOWHERE],
            ]
            facts += [Implies(self.on(Behaviour.ZONE_CLOSED, z), s.zone[c] != codes.zone[z]) for z in self.closable_zones()]
            if slot.is_commander:
                facts += [Not(s.fresh[c]), s.casts[c] == 0]
            if slot.is_token:
                facts.append(Not(s.copy[c]))
        facts += self.types()
        facts += [s.pos[c] == codes.int(self.start_position(c)) for c in range(len(self.slots))]
        decks = [c for c, slot in enumerate(self.slots) if slot.kind is SlotKind.CARD]
        facts += [s.is_above(c, d) == (self.start_position(c) > self.start_position(d)) for c, d in combinations(decks, 2)
                  if self.slots[c].owner == self.slots[d].owner]
        if self.player_records:
            facts += self.players_are(0, tuple(PlayerState() for _ in range(self.players)), started=False)
        return facts

    def types(self) -> list:
        """What each slot's card type may be (a fact of every run: types never change; Slot.types)."""
        return [self.codes.any_of(self.card_type[c] == self.codes.type[t] for t in slot.types) for c, slot in enumerate(self.slots)]

    def closable_zones(self) -> list[Zone]:
        """The zones some rule of the file may close (see Behaviour.ZONE_CLOSED)."""
        return [z for z in GAME_ZONES if any(r.behaviour is Behaviour.ZONE_CLOSED and z in r.zones for r in self.ruleset.rules)]

    def start_position(self, c: int) -> int:
        """Deck cards are named by where they start: A1 on top of A's library (position from the
        bottom is cards - 1). The cards of a deck are interchangeable (each card's type is left to the
        solver), so fixing their names this way breaks a symmetry without losing any behaviour."""
        slot = self.slots[c]
        if slot.kind is not SlotKind.CARD:
            return 0
        deck = [x.index for x in self.slots if x.owner == slot.owner and x.kind is SlotKind.CARD]
        return len(deck) - 1 - deck.index(c)

    # ---------------------------------------------------------------- steps

    def trans(self, t: int) -> list:
        """The constraints of step t (built once: lint asks for the same step once per rule). Steps 0
        and 1 are built (step 0 may differ: no step comes before it); every later step is step 1
        with its variables renamed, which Z3 does several times faster than building it again."""
        if t not in self._trans:
            self._trans[t] = self._renamed(t) if t > 1 else self.built(t)
        return list(self._trans[t])

    def formula(self, key: Hashable, build: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        """`build()`, built once per key: a property's formula at a depth is asked for by every
        question about it (the deepening's, Houdini's, the induction's, each rule removed)."""
        if key not in self._formulas:
            self._formulas[key] = build()
        return self._formulas[key]

    def at_state(self, key: Hashable, t: int, build: Callable[[int], z3.BoolRef]) -> z3.BoolRef:
        """`build(t)` for a formula of state t (and the step from it, and the state it leads to),
        built once per key and t (`formula`); past 1, the formula at 1 with the variables renamed
        (`shifted`), as the steps are (`trans`)."""
        if t > 1:
            return self.formula((key, t), lambda: self.shifted([self.at_state(key, 1, build)], t - 1)[0])
        return self.formula((key, t), lambda: build(t))

    def steps(self, start: int, stop: int) -> list:
        """The constraints of steps start .. stop - 1, in order."""
        return [x for t in range(start, stop) for x in self.trans(t)]

    def built(self, t: int) -> list:
        """Step t's constraints built from its pieces (`trans` renames step 1 instead, after it)."""
        return self._assemble(self.pieces(t))

    def _renamed(self, t: int) -> list:
        """Step 1's constraints with every state's and step's variables moved t - 1 on."""
        return self.shifted(self.trans(1), t - 1)

    def shifted(self, terms: list, shift: int) -> list:
        """Terms that read states 0 to 2 and steps 0 and 1 (step 1's constraints, a property's
        formula at state or step 1), with every state's and step's variables moved `shift` on."""
        if shift not in self._shifts:
            records = [(self._variables(self.state, i), self._variables(self.state, i + shift)) for i in (0, 1, 2)]
            records += [(self._variables(self.step, i), self._variables(self.step, i + shift)) for i in (0, 1)]
            self._shifts[shift] = Renaming([pair for old, new in records for pair in zip(old, new)])
        return self._shifts[shift](terms)

    def _variables(self, record: Callable[[int], StateVars | StepVars], t: int) -> list:
        """The variables of state or step t (`record` is `state` or `step`), listed once per record:
        every renaming from or to it lists them."""
        key = (record.__name__, t)
        if key not in self._listed:
            self._listed[key] = record_variables(record(t))
        return self._listed[key]

    def _assemble(self, pieces: Pieces) -> list:
        """The constraints the slice keeps: each kept action's guard and kept parts, under its
        kind; the common constraints of the kept parts."""
        a = self.step(pieces.t)
        facts = list(pieces.common.get(GUARD, []))
        for part, terms in pieces.common.items():
            if part != GUARD and self.slice.keeps(part):
                facts += terms
        for kind in self.kinds:
            body = [x for part, terms in pieces.kinds.get(kind, {}).items() if part == GUARD or self.slice.keeps(part) for x in terms]
            facts.append(Implies(a.kind == self.codes.kind[kind], self.codes.all_of(body)))
        return facts

    def pieces(self, t: int) -> Pieces:
        """Step t's constraints, sorted by what they speak of (see Pieces)."""
        if t in self._pieces:
            return self._pieces[t]
        step = SymbolicStep(self, t)
        s, s2, a, codes = step.s, step.s2, step.a, self.codes
        pieces = Pieces(t)
        pieces.add(None, GUARD, [codes.any_of(step.kind_is(k) for k in self.kinds)] + self.canonical_fields(step))
        single = step.kind_in(k for k in self.kinds if spec(k).target is Target.CARD)
        uses = {"permuted": [], "reentering": [], "arrivals": [], "players": {}, "others": []}
        for kind in self.kinds:
            if spec(kind).target is Target.CARD:
                self._card_kind(step, kind, pieces, uses)
            else:
                self._whole_kind(step, kind, spec(kind).symbolic(step), pieces, uses)
        for c in range(len(self.slots)):
            pieces.add(None, "pos", [Implies(Eq(a.card, codes.slot[c]), And(
                Eq(a.src_zone, s.zone[c]), Eq(a.src_whose, s.whose[c]), Eq(a.src_pos, s.pos[c]),
                Eq(a.dst_zone, s2.zone[c]), Eq(a.dst_whose, s2.whose[c]), Eq(a.dst_pos, s2.pos[c]),
                Eq(a.moves, Or(s2.zone[c] != s.zone[c], s2.whose[c] != s.whose[c])),
            ))])
            bystander = And(single, a.card != codes.slot[c])
            for f in ASSIGNED_FIELDS:
                value = self._bystander_position(step, c) if f == "pos" else s.field(f, c)
                for when, d, changes in uses["others"]:
                    if d == c and f in changes:
                        value = If(when, changes[f], value)
                pieces.add(None, f, [Implies(bystander, Eq(s2.field(f, c), value))])
        pieces.add(None, "order", self._order(step, uses))
        for f in filter(self.player_field_changes, PLAYER_FIELDS):
            changers = uses["players"].get(f, [])
            pieces.add(None, f, [Implies(Not(step.kind_in(changers)), s2.player(f, p) == s.player(f, p)) for p in range(self.players)])
        pieces.add(None, GUARD, HOOKS["pregame"].symbolic(step) + HOOKS["shuffle-after-search"].symbolic(step))
        pieces.add(None, "revealed", HOOKS["reveal"].symbolic(step))
        pieces.add(None, "fresh", HOOKS["commander-memory"].symbolic(step))
        pieces.add(None, "casts", HOOKS["commander-tax"].symbolic(step))
        pieces.add(None, "target_lost", HOOKS["target-memory"].symbolic(step))
        pieces.add(None, "link_lost", HOOKS["link-memory"].symbolic(step))
        self._pieces[t] = pieces
        return pieces

    def _card_kind(self, step: SymbolicStep, kind: ActionKind, pieces: Pieces, uses: dict) -> None:
        """A single-target action: on each possible target, its effect (its bystanders keep
        everything but their place in a pile it leaves or enters: a common piece)."""
        s, s2, a, codes = step.s, step.s2, step.a, self.codes
        for c in range(len(self.slots)):
            effect: Effect = spec(kind).symbolic(step, c)
            target = Eq(a.card, codes.slot[c])
            pieces.add(kind, GUARD, [Implies(target, And(effect.event, effect.outcome))])
            for f in ASSIGNED_FIELDS:
                pieces.add(kind, f, [Implies(target, Eq(s2.field(f, c), effect.values.get(f, s.field(f, c))))])
            if effect.arrival is not None:
                uses["arrivals"].append((And(step.kind_is(kind), target), effect.arrival.top, effect.arrival.bottom))
            uses["others"] += [(And(step.kind_is(kind), target), d, changes) for d, changes in effect.others.items()]
            self._players(step, kind, effect.players, pieces, uses)

    def _bystander_position(self, step: SymbolicStep, c: int):
        """An object the action does not target closes the gap its target leaves in its pile, and
        opens one where the target enters."""
        s, a, codes = step.s, step.a, self.codes

        def in_pile(zone, whose):
            return And(s.zone[c] == zone, codes.zone_is(zone, ORDERED_ZONES), Or(Not(codes.zone_is(zone, PERSONAL_ZONES)), s.whose[c] == whose))

        leaves_gap = And(a.moves, in_pile(a.src_zone, a.src_whose), s.pos[c] > a.src_pos)
        makes_room = And(a.moves, in_pile(a.dst_zone, a.dst_whose), s.pos[c] >= a.dst_pos)
        return s.pos[c] + If(leaves_gap, codes.int(-1), codes.int(0)) + If(makes_room, codes.int(1), codes.int(0))

    def _whole_kind(self, step: SymbolicStep, kind: ActionKind, tr: Transition, pieces: Pieces, uses: dict) -> None:
        s, s2, a, codes = step.s, step.s2, step.a, self.codes
        n = len(self.slots)
        permuted = [codes.any_of(group[c] for group in tr.permutations) for c in range(n)]
        pieces.add(kind, GUARD, [tr.guard, *tr.extra])
        for f in ASSIGNED_FIELDS:
            for c in range(n):
                assigned = Eq(s2.field(f, c), tr.objects.get(c, {}).get(f, s.field(f, c)))
                pieces.add(kind, f, [Implies(Not(permuted[c]), assigned) if f == "pos" and tr.permutations else assigned])
        for group in tr.permutations:  # the members take the positions 0..size-1 in some order
            size = codes.count(group)
            pieces.add(kind, "pos", [Implies(m, And(s2.pos[c] >= 0, s2.pos[c] < size)) for c, m in enumerate(group)])
            pieces.add(kind, "pos", [Implies(And(group[c], group[d]), s2.pos[c] != s2.pos[d]) for c, d in combinations(range(n), 2)])
        if tr.permutations:
            pieces.add(kind, "order", [a.permuted[c] == permuted[c] for c in range(n)])
            uses["permuted"].append(kind)
        if tr.reentering:
            pieces.add(kind, "order", [a.reentering[c] == tr.reentering.get(c, codes.false) for c in range(n)])
            uses["arrivals"].append((step.kind_is(kind), codes.false, codes.true))
            uses["reentering"].append(kind)
        self._players(step, kind, tr.players, pieces, uses)

    def _players(self, step: SymbolicStep, kind: ActionKind, changes: dict, pieces: Pieces, uses: dict) -> None:
        """The acting player's records the action changes (each at most once per kind)."""
        for f, value in changes.items():
            if not self.player_field_changes(f) or kind in uses["players"].get(f, []):
                continue
            uses["players"].setdefault(f, []).append(kind)
            s, s2, a = step.s, step.s2, step.a
            pieces.add(kind, f, [
                s2.player(f, p) == If(a.player == self.codes.player[p], value(p), s.player(f, p)) for p in range(self.players)
            ])

    def changes_pile(self, s: StateVars, s2: StateVars, c: int) -> z3.BoolRef:
        """Slot c enters an ordered pile at this step (it was elsewhere before)."""
        codes = self.codes
        return And(
            codes.zone_is(s2.zone[c], ORDERED_ZONES),
            Or(s2.zone[c] != s.zone[c], And(codes.zone_is(s2.zone[c], PERSONAL_ZONES), s2.whose[c] != s.whose[c])),
        )

    def _order(self, step: SymbolicStep, uses: dict) -> list:
        """The pile relation of state t + 1. Two objects that stay in their pile keep their
        relation; one that enters a pile (or moves within it) goes on top of it, at its bottom, or
        where its new position puts it, as its action says; in a pile the step permutes, the
        relation is read off the new positions. Which piles are permuted and which objects move
        within theirs, each action says; no other action marks any."""
        s, s2, a, codes = step.s, step.s2, step.a, self.codes
        n = len(self.slots)
        facts = []
        for c in range(n):
            facts.append(Implies(a.permuted[c], step.kind_in(uses["permuted"])))
            facts.append(Implies(a.reentering[c], step.kind_in(uses["reentering"])))
        enters = [Or(self.changes_pile(s, s2, c), a.reentering[c]) for c in range(n)]
        # Terms of the state and the action, not variables of their own: a rule that changes where
        # an object arrives but not the state it arrives in changes no step (lint's question).
        on_top = codes.any_of(And(when, top) for when, top, _ in uses["arrivals"])
        at_bottom = codes.any_of(And(when, bottom) for when, _, bottom in uses["arrivals"])

        def arrives_above(c: int, d: int):
            return If(on_top, codes.true, If(at_bottom, codes.false, s.pos[d] < s2.pos[c]))

        for c, d in combinations(range(n), 2):
            renumbered = Or(a.permuted[c], a.permuted[d], And(enters[c], enters[d]))
            value = If(renumbered, s2.pos[c] > s2.pos[d],
                       If(enters[c], arrives_above(c, d), If(enters[d], Not(arrives_above(d, c)), s.above[(c, d)])))
            facts.append(Implies(self.same_pile(s2, c, d), s2.above[(c, d)] == value))
        return facts

    def canonical_fields(self, step: SymbolicStep) -> list:
        """Fields an action does not use keep one value, so that every action has one form."""
        a, codes = step.a, self.codes
        kinds = lambda predicate: step.kind_in(k for k in self.kinds if predicate(spec(k)))  # noqa: E731
        stack_reorder = And(step.kind_is(K.REORDER), a.zone == codes.zone[Zone.STACK])
        card_type = codes.select(a.card, codes.slot, self.card_type, codes.type[CardType.CREATURE])
        uses_n = Or(
            kinds(lambda x: x.takes_n),
            And(kinds(lambda x: x.stack_bound), Not(self.on(Behaviour.STACK_PUSH_TOP))),
            And(
                kinds(lambda x: x.graveyard_bound),
                Not(self.on(Behaviour.GRAVEYARD_TOP)),
                Or(Not(step.kind_is(K.RESOLVE)), step.type_in(card_type, SPELL_ONLY_TYPES)),
            ),
        )
        commanders = [c for c, slot in enumerate(self.slots) if slot.is_commander]
        return [
            z3.ULE(a.card, codes.no_slot),
            z3.ULE(a.aim, codes.no_slot),
            Implies(Not(kinds(lambda x: x.takes_targets)), a.aim == codes.no_slot),
            z3.ULE(a.player, codes.no_player),
            kinds(lambda x: not x.takes_card) == (a.card == codes.no_slot),
            And(kinds(lambda x: x.player is not PlayerUse.NONE), Not(stack_reorder)) == (a.player != codes.no_player),
            kinds(lambda x: x.names_zone) == (a.zone != codes.zone[Zone.NOWHERE]),
            a.n >= 0,
            a.n <= codes.max_n,
            Implies(Not(uses_n), a.n == 0),
            Implies(Not(step.kind_in((K.SHUFFLE_HAND_INTO_LIBRARY, K.MULLIGAN))), codes.all_of(
                Not(p) for c, p in enumerate(a.pick) if not self.slots[c].is_commander
            )),
            # A commander may also be listed by state-based actions (903.9a; the SBA says when).
            *[Implies(Not(kinds(lambda x: x.lists_cards)), Not(a.pick[c])) for c in commanders],
            # The owner's choice of the command zone instead (903.9b) is recorded only for a move of a commander.
            Implies(a.to_command, And(kinds(lambda x: x.moves_card), codes.any_of(a.card == codes.slot[c] for c in commanders))),
        ]

    # ---------------------------------------------------------------- lint's questions

    def trans_without(self, t: int, rule_id: str) -> z3.BoolRef:
        """Step t's transition with one rule switched off, whatever the rule literals say."""
        return z3.substitute(And(self.trans(t)), (self.rule_literal[rule_id], self.codes.false))

    def visibility_without(self, t: int, rule_id: str) -> z3.BoolRef:
        """Some player sees the face of some object in state t with the rule in force and not
        without it, or the other way round (a rule that decides only who sees what changes no step)."""
        return self.at_state(("view without", rule_id), t, lambda at: self._visibility_without_built(at, rule_id))

    def _visibility_without_built(self, t: int, rule_id: str) -> z3.BoolRef:
        off = (self.rule_literal[rule_id], self.codes.false)
        differ = []
        for p in range(self.players):
            for c in range(len(self.slots)):
                seen = self.sees(t, p, c)
                without = z3.substitute(seen, off)
                if not without.eq(seen):
                    differ.append(Xor(seen, without))
        return self.codes.any_of(differ)

    def no_outcome(self, t: int) -> z3.BoolRef:
        """At step t a single-target action applies to its target but the rules leave it no legal
        outcome. A position the player chooses (n of a graveyard or stack arrival) is fixed at the
        bottom, which always exists; put_into_library's n is part of the effect. The actions the
        file declares as gaps (`[[gap]]`) are left out."""
        return self.at_state("no outcome", t, self._no_outcome_built)

    def _no_outcome_built(self, t: int) -> z3.BoolRef:
        step = SymbolicStep(self, t)
        a = step.a
        gaps = [d.name for d in self.ruleset.gaps]
        cases = []
        for kind in self.kinds:
            if spec(kind).target is not Target.CARD or kind.value in gaps:
                continue
            for c in range(len(self.slots)):
                effect = spec(kind).symbolic(step, c)
                chosen_n = self.codes.true if kind is K.PUT_INTO_LIBRARY else a.n == 0
                chosen_n = And(chosen_n, Not(a.to_command))  # the replacement is a choice; declining it is always possible
                cases.append(And(step.kind_is(kind), a.card == self.codes.slot[c], chosen_n, effect.event, Not(effect.outcome)))
        return And(*self.canonical_fields(step), self.codes.any_of(cases))

    # ---------------------------------------------------------------- who sees what

    def sees(self, t: int, player: int, c: int) -> z3.BoolRef:
        return self.formula(("sees", t, player, c), lambda: encode_sees(self, t, player, c))

    def shown(self, t: int, player: int, c: int) -> z3.BoolRef:
        return self.formula(("shown", t, player, c), lambda: encode_shown(self, t, player, c))

    def may_look(self, t: int, player) -> z3.BoolRef:
        return encode_may_look(self, t, player)

    # ---------------------------------------------------------------- concrete facts

    def state_is(self, t: int, state: GameState) -> list:
        """Facts fixing state t to a concrete state (its pile order included)."""
        s, codes = self.state(t), self.codes
        facts = []
        for c, o in enumerate(state.objects):
            facts += [s.field(name, c) == codes.of_field(name, getattr(o, name)) for name in (*ASSIGNED_FIELDS, *DERIVED_FIELDS)]
        for c, d in combinations(range(len(state.objects)), 2):
            o, q = state.objects[c], state.objects[d]
            if o.zone in ORDERED_ZONES and o.zone is q.zone and (o.zone not in PERSONAL_ZONES or o.whose == q.whose):
                facts.append(s.above[(c, d)] == z3.BoolVal(o.pos > q.pos, self.ctx))
        if self.player_records and state.players:
            facts += self.players_are(t, state.players, state.started)
        return facts

    def players_are(self, t: int, players: tuple[PlayerState, ...], started: bool) -> list:
        """Facts fixing the pregame state of state t."""
        s = self.state(t)
        facts = [s.started == z3.BoolVal(started, self.ctx)]
        for p, ps in enumerate(players):
            facts += [s.player(f, p) == self.codes.const(getattr(ps, f)) for f in PLAYER_FIELDS]
        return facts

    def shown_is(self, t: int, state: GameState) -> list:
        """Facts fixing what the step that led to state t showed (`shown` reads that step's action,
        so state_is leaves it out)."""
        return [self.shown(t, p, c) == z3.BoolVal(p in o.shown, self.ctx) for c, o in enumerate(state.objects) for p in range(self.players)]

    def action_is(self, t: int, action: Action) -> list:
        """Facts fixing step t's action to a concrete action (its `order` shows in the next state)."""
        a, codes = self.step(t), self.codes
        return [
            a.kind == codes.kind[action.kind],
            a.card == (codes.no_slot if action.card is None else codes.slot[action.card]),
            a.player == (codes.no_player if action.player is None else codes.player[action.player]),
            a.n == codes.int(action.n),
            a.zone == codes.zone[Zone.NOWHERE if action.zone is None else action.zone],
            *[a.pick[c] == z3.BoolVal(c in action.cards, self.ctx) for c in range(len(self.slots))],
            a.aim == (codes.slot[action.targets[0]] if action.targets else codes.no_slot),
            a.to_command == z3.BoolVal(action.to_command, self.ctx),
        ]

    def types_are(self, types: tuple[CardType, ...]) -> list:
        return [self.card_type[c] == self.codes.type[t] for c, t in enumerate(types)]

    def decode(self, model: z3.ModelRef, depth: int, final_state: bool = True):
        from .decode import decode
        return decode(self, model, depth, final_state)


_last_shared = threading.local()


def shared_system(ruleset: RuleSet, scope: Scope, int_reach: int) -> TransitionSystem:
    """The whole game's system of `ruleset` within `scope`: the one this thread asked for last when
    it is the same (a rule set's lint and then its check ask for the same one), with the steps and
    formulas it has built; else a new one, which replaces it."""
    key = (id(ruleset), scope, int_reach)
    last = getattr(_last_shared, "system", None)
    if last is None or (id(last.ruleset), last.scope, last.int_reach) != key:
        last = _last_shared.system = TransitionSystem(ruleset, scope, int_reach)
    return last

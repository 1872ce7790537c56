"""Explicit-state search: breadth-first over the interpreter, as TLC explores a specification.

Every state reachable within the depth bound is visited once, level by level, from the start of a
game; the actions tried in each are the encoder's whole action space (`candidate_actions`), and
`interpreter.apply` decides which are legal and what they do. `always` properties are checked on
every state, `step` properties on every step, with the properties' concrete evaluator. A level is
finished before the next begins, so the first violation found is a shortest one.

Card types are left open until something reads them. A search state pairs a game state with the
set of types still possible for each card; when the interpreter reads the type of a card that has
several, the step is tried with each, and the types that give the same outcome stay together. So
the classes of types that nothing can tell apart come from the interpreter itself, and one search
covers every deck. A property that reads an open type is evaluated in three-valued logic
(`evaluate.UNDECIDED`), and split the same way only when its value depends on the type.

A budget on the number of states kept makes the answer independent of the machine's speed and
load; the result says which levels were explored completely.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import chain, combinations, permutations, product

from .encode.system import TransitionSystem
from .evaluate import UNDECIDED, ConcreteBackend, compile_lazily, compile_staged, falsifying_kinds
from .interpreter import IllegalAction, Outcome, World, apply, check_initial, uses_position
from .model import Action, ActionKind, Behaviour, CardType, GameState, Scope, SlotKind, Step, Zone, initial_state, slots_for
from .properties import Property, PropertyKind
from .replay import execute, first_violation
from .ruleset import RuleSet
from .semantics import Listed, spec
from .semantics.stack import TARGETABLE
from .semantics.step import OrderMissing
from .trace import Trace, of_ruleset


# ---------------------------------------------------------------- open card types
#
# The types still possible for every slot, packed in one int: TYPE_BITS bits per slot, bit i for
# the i-th CardType. Cheap to hash, and one set of types is within another when `a & ~b == 0`.

TYPES = tuple(CardType)
TYPE_BITS = len(TYPES)
ANY_TYPE = (1 << TYPE_BITS) - 1
SINGLE = {1 << i: t for i, t in enumerate(TYPES)}
BIT = {t: b for b, t in SINGLE.items()}


def types_of(packed: int, slot: int) -> int:
    """The bits of the types still possible for the slot."""
    return (packed >> (TYPE_BITS * slot)) & ANY_TYPE


def narrowed(packed: int, slot: int, bits: int) -> int:
    shift = TYPE_BITS * slot
    return (packed & ~(ANY_TYPE << shift)) | (bits << shift)


def each_type(bits: int) -> Iterator[int]:
    """The single-type bits of a set of types, in the order of CardType."""
    return (1 << i for i in range(TYPE_BITS) if bits >> i & 1)


def chosen_deck(packed: int, slots: int) -> int:
    """One deck within the open types (packed, one type per card): the first possible type of each
    card, in the order of CardType."""
    deck = 0
    for s in range(slots):
        bits = types_of(packed, s)
        deck = narrowed(deck, s, bits & -bits)
    return deck


def deck_types(deck: int, slots: int) -> tuple[CardType, ...]:
    return tuple(SINGLE[types_of(deck, s)] for s in range(slots))


class TypeUndecided(Exception):
    """The interpreter read the type of a card that may still have several."""

    def __init__(self, slot: int):
        super().__init__(f"the type of slot {slot} is not fixed yet")
        self.slot = slot


@dataclass(frozen=True)
class StrictTypes(Sequence):
    """World.card_types for the interpreter: a card's type where only one is possible; reading
    any other raises TypeUndecided, and the search tries each type."""

    packed: int
    count: int

    def __getitem__(self, slot: int) -> CardType:
        t = SINGLE.get(types_of(self.packed, slot))
        if t is None:
            raise TypeUndecided(slot)
        return t

    def __len__(self) -> int:
        return self.count


class OpenType:
    """The type of a card that may be any of several, as a property sees it: equal to none of the
    types it cannot be, and UNDECIDED against the others."""

    __slots__ = ("bits",)

    def __init__(self, bits: int):
        self.bits = bits

    def __eq__(self, other):
        other_bits = other.bits if isinstance(other, OpenType) else BIT[other]
        return UNDECIDED if self.bits & other_bits else False

    __hash__ = None


@dataclass(frozen=True)
class OpenTypes(Sequence):
    """ConcreteBackend.card_types for the properties: a card's type, or an OpenType; `open_reads`
    collects the slots read while open, for splitting an UNDECIDED value."""

    packed: int
    count: int
    open_reads: list[int] = field(default_factory=list, compare=False)

    def __getitem__(self, slot: int):
        bits = types_of(self.packed, slot)
        t = SINGLE.get(bits)
        if t is not None:
            return t
        self.open_reads.append(slot)
        return OpenType(bits)

    def __len__(self) -> int:
        return self.count


# ---------------------------------------------------------------- the action space


@dataclass(frozen=True)
class Candidate:
    """One (kind, card, player, zone, to_command) of the action space, and what narrows it per
    state: the zones its card may be taken from (the spec's `sources`; outside the game too, where
    400.11c is off), whether it lists cards, and whether it may, or must, name a target."""

    action: Action
    sources: frozenset[Zone] | None
    lists_cards: bool
    pregame: bool
    takes_targets: bool = False
    needs_target: bool = False
    targets_anywhere: bool = False
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # its `n` variants by (cards, targets), made when first needed


def action_space(world: World) -> tuple[Candidate, ...]:
    """Every canonical form the action specs admit (see interpreter._check_fields): each card for a
    kind that takes one, each player for one that takes a player (for `reorder`, of each zone it
    may name), `to_command` on a move of a commander. Built once per world."""
    space = []
    commanders = {s.index for s in world.slots if s.is_commander}
    outside = () if world.on(Behaviour.OUTSIDE_UNTOUCHABLE) else (Zone.OUTSIDE,)
    for kind in dict.fromkeys(d.kind for d in world.ruleset.actions):
        kind_spec = spec(kind)
        cards = range(len(world.slots)) if kind_spec.takes_card else [None]
        zones = list(Zone) if kind_spec.names_zone else [None]
        sources = None if kind_spec.sources is None else frozenset((*kind_spec.sources, *outside))
        for card, zone in product(cards, zones):
            for player in range(world.players) if kind_spec.takes_player(zone) else [None]:
                for to_command in (False, True) if kind_spec.moves_card and card in commanders else (False,):
                    action = Action(kind, card=card, player=player, zone=zone, to_command=to_command)
                    space.append(Candidate(action, sources, kind_spec.lists_cards, kind_spec.pregame, kind_spec.takes_targets, kind_spec.needs_target,
                                           kind_spec.targets_anywhere))
    return tuple(space)


LISTED_FROM = {Listed.HAND: (Zone.HAND,), Listed.HAND_AND_LIBRARY: (Zone.HAND, Zone.LIBRARY)}


def listable_cards(world: World, state: GameState, action: Action) -> list[int]:
    """The cards an action may list, as its spec's `lists` says."""
    listed = spec(action.kind).lists
    if listed is Listed.COMMANDERS:
        return [s.index for s in world.slots if s.is_commander]
    zones = LISTED_FROM[listed]
    return [c for c in range(len(world.slots)) if state.objects[c].zone in zones and state.objects[c].whose == action.player]


def targetable(zones: list[Zone], card: int, anywhere: bool = False) -> list[int]:
    """The objects an action on `card` may name in `targets`: a spell or permanent
    (stack.TARGETABLE), or any other object where the action's spec says `targets_anywhere`."""
    return [t for t, zone in enumerate(zones) if t != card and (anywhere or zone in TARGETABLE)]


def _subsets(cards: list[int]) -> Iterator[tuple[int, ...]]:
    return chain.from_iterable(combinations(cards, k) for k in range(len(cards) + 1))


def candidate_forms(world: World, state: GameState, space: tuple[Candidate, ...]) -> Iterator[tuple[Candidate, Action]]:
    """Each candidate of the space worth trying in `state`, with its `cards` filled in: its card
    in a zone it may be taken from, no pregame action once the game has started, every subset of
    the cards it may list."""
    zones = [o.zone for o in state.objects]
    for candidate in space:
        if _worth_trying(candidate, zones, state.started):
            yield from _forms_of(world, state, zones, candidate)


def _worth_trying(candidate: Candidate, zones: list[Zone], started: bool) -> bool:
    action = candidate.action
    return (candidate.sources is None or zones[action.card] in candidate.sources) and not (started and candidate.pregame)


def _forms_of(world: World, state: GameState, zones: list[Zone], candidate: Candidate) -> Iterator[tuple[Candidate, Action]]:
    action = candidate.action
    if candidate.lists_cards:
        for cards in _subsets(listable_cards(world, state, action)):
            yield candidate, replace(action, cards=cards)
    elif not candidate.needs_target:
        yield candidate, action
    if candidate.takes_targets:
        for t in targetable(zones, action.card, candidate.targets_anywhere):
            yield candidate, replace(action, targets=(t,))


def grouped_by_kind(space: tuple[Candidate, ...]) -> dict[ActionKind, tuple[Candidate, ...]]:
    """The candidates of the space by action kind, in its order."""
    grouped: dict[ActionKind, list[Candidate]] = {}
    for candidate in space:
        grouped.setdefault(candidate.action.kind, []).append(candidate)
    return {kind: tuple(candidates) for kind, candidates in grouped.items()}


class FormsByKind(Mapping):
    """candidate_forms of a state by action kind, the kinds in the space's order: each kind that
    has one, and its forms, listed when first read (a random run reads one kind or a few)."""

    def __init__(self, world: World, state: GameState, grouped: dict[ActionKind, tuple[Candidate, ...]]):
        self._world, self._state = world, state
        self._zones = [o.zone for o in state.objects]
        self._worth = {}
        for kind, candidates in grouped.items():
            worth = [c for c in candidates if _worth_trying(c, self._zones, state.started)]
            if worth:
                self._worth[kind] = worth
        self._forms: dict[ActionKind, list[tuple[Candidate, Action]]] = {}

    def __getitem__(self, kind: ActionKind) -> list[tuple[Candidate, Action]]:
        found = self._forms.get(kind)
        if found is None:
            found = self._forms[kind] = [form for c in self._worth[kind] for form in _forms_of(self._world, self._state, self._zones, c)]
        return found

    def __iter__(self) -> Iterator[ActionKind]:
        return iter(self._worth)

    def __len__(self) -> int:
        return len(self._worth)

    def __contains__(self, kind: object) -> bool:
        return kind in self._worth

    def first(self, kind: ActionKind) -> Candidate:
        """The kind's first candidate worth trying (that of its first form)."""
        return self._worth[kind][0]


def positioned(world: World, candidate: Candidate, action: Action, places: Callable | None = None) -> Sequence[Action]:
    """The action with every `n` the encoder admits (0 .. len(slots) + 1) where n places the card
    (uses_position, or `places(world, candidate, action)`, a remembered answer of it), else with n = 0."""
    if not (uses_position(world, action) if places is None else places(world, candidate, action)):
        return (action,)
    key = (action.cards, action.targets)
    found = candidate.memo.get(key)
    if found is None:
        found = candidate.memo[key] = tuple(replace(action, n=n) for n in range(len(world.slots) + 2))
    return found


def candidate_actions(world: World, state: GameState) -> Iterator[Action]:
    """Every action of the encoder's action space worth trying in `state`, in canonical form, with
    `order` left empty (`outcomes` fills in the orders); apply() decides which are legal."""
    for candidate, action in candidate_forms(world, state, action_space(world)):
        yield from positioned(world, candidate, action)


def as_listed(members: tuple[int, ...]) -> tuple[int, ...]:
    """A pile's new order, top first, as the interpreter lists its members (bottom first): each
    pile left as it was, where the action rearranges it."""
    return tuple(reversed(members))


def outcomes(world: World, state: GameState, action: Action) -> list[tuple[Action, Outcome]]:
    """(action, interpreter Outcome) for every legal completion of the action: none when it is
    illegal, one when it rearranges no pile, and one for each order of the piles it rearranges
    (the interpreter names them: OrderMissing) when it does."""
    order: dict[str, tuple[int, ...]] = {}
    while True:
        try:
            outcome = apply(world, state, replace(action, order=tuple(order.items())) if order else action)
            break
        except OrderMissing as missing:
            if missing.key in order:
                return []
            order[missing.key] = as_listed(missing.members)
        except IllegalAction:
            return []
    if not order:
        return [(action, outcome)]
    keys = list(order)
    found = []
    for index, orders in enumerate(product(*(permutations(order[key]) for key in keys))):
        completed = replace(action, order=tuple(zip(keys, orders)))
        if index == 0:  # each pile in the order just applied
            found.append((completed, outcome))
            continue
        try:
            found.append((completed, apply(world, state, completed)))
        except IllegalAction:
            continue
    return found


def legal_steps(world: World, state: GameState) -> Iterator[tuple[Action, Outcome]]:
    """Every legal action in `state` with its outcome: the interpreter's successors of the state."""
    for action in candidate_actions(world, state):
        yield from outcomes(world, state, action)


# ---------------------------------------------------------------- the state space


@dataclass(frozen=True, slots=True)
class Arrival:
    """A step that reached a node: from `parent`, by `action`, under the open types `types`."""

    parent: "Node"
    action: Action
    rules: tuple[str, ...]
    types: int


class Node:
    """A search state: a game state and the types still open for each card (packed), with the
    steps that reached it (none for the start). Two steps that reach the same game state at the
    same level, under open types that differ in one card only, make one node whose open types are
    their union."""

    __slots__ = ("state", "types", "level", "arrivals")

    def __init__(self, state: GameState, types: int, level: int = 0, arrivals: list[Arrival] | None = None):
        self.state, self.types, self.level, self.arrivals = state, types, level, arrivals or []

    def path(self, deck: int) -> list[tuple[Arrival, "Node"]]:
        """The steps from the start to this node, each with the node it reached, for a deck
        (packed, one type per card) within its open types."""
        steps, node = [], self
        while node.arrivals:
            arrival = next(a for a in node.arrivals if deck & ~a.types == 0)
            steps.append((arrival, node))
            node = arrival.parent
        return steps[::-1]


def _unite(a: int, b: int) -> int | None:
    """The union of two sets of decks when it is a set of decks again (one within the other, or
    differing in one card's types); else None."""
    if a & ~b == 0 or b & ~a == 0:
        return a | b
    diff = a ^ b
    low, high = ((diff & -diff).bit_length() - 1) // TYPE_BITS, (diff.bit_length() - 1) // TYPE_BITS
    return a | b if low == high else None


@dataclass(frozen=True)
class Transition:
    before: Node
    action: Action
    rules: tuple[str, ...]
    state: GameState
    types: int  # the open types of the step: the node's, narrowed where the step read them


class StateSpace:
    """The interpreter's transition system for one rule set and scope, from the start of a game,
    with open card types."""

    def __init__(self, ruleset: RuleSet, scope: Scope):
        self.ruleset = ruleset
        self.scope = ruleset.scope_for(scope)
        self.slots = slots_for(self.scope)
        self._worlds: dict[int, World] = {}
        self._orders: dict[frozenset[ActionKind], tuple[Candidate, ...]] = {}
        system = TransitionSystem(ruleset, replace(self.scope, depth=0))  # the start positions: A1 on top of A's library
        decks = {
            p: sorted((s.index for s in self.slots if s.owner == p and s.kind is SlotKind.CARD), key=system.start_position)
            for p in range(self.scope.players)
        }
        self.start_state = initial_state(self.slots, decks, pregame_players=self.scope.players if ruleset.tracks_players else 0)
        types = self._starting_types()
        self.start = None if types is None else Node(self.start_state, types)
        self.space = action_space(self.world(0 if types is None else types))
        self.by_kind = grouped_by_kind(self.space)
        self.keep_expansions: dict[tuple[GameState, int], tuple] | None = None  # see successors

    def world(self, types: int) -> World:
        """The world of the open types (the interpreter's view: StrictTypes), kept for the types
        asked for lately."""
        found = self._worlds.get(types)
        if found is None:
            if len(self._worlds) >= 4096:
                self._worlds.clear()
            found = self._worlds[types] = World.of(self.ruleset, self.slots, StrictTypes(types, len(self.slots)), self.scope)
        return found

    def concrete_world(self, card_types: tuple[CardType, ...]) -> World:
        return World.of(self.ruleset, self.slots, card_types, self.scope)

    def _starting_types(self) -> int | None:
        """The types each slot may have at the start of a game, as check_initial allows them (a
        token is a creature, a commander a creature or planeswalker): each type tried in each slot,
        the others creatures. None when no game can start (a rule closes a zone cards start in)."""
        creatures = [CardType.CREATURE] * len(self.slots)

        def starts(card_types) -> bool:
            try:
                check_initial(self.concrete_world(tuple(card_types)), self.start_state)
            except IllegalAction:
                return False
            return True

        if not starts(creatures):
            return None
        packed = 0
        for s in range(len(self.slots)):
            bits = sum(1 << i for i, t in enumerate(TYPES) if starts(creatures[:s] + [t] + creatures[s + 1:]))
            packed = narrowed(packed, s, bits)
        return packed

    def successors(self, node: Node, first: frozenset[ActionKind] = frozenset()) -> Iterator[Transition]:
        """Every step from the node: each candidate tried with the node's types, and where the
        interpreter reads an open type, with each type (the types with the same steps together);
        the kinds in `first` before the others. With `keep_expansions` set, a node's steps are
        worked out once for its state and types, and given again to every later search."""
        if self.keep_expansions is None:
            yield from self._expanded(node, first)
            return
        key = (node.state, node.types)
        steps = self.keep_expansions.get(key)
        if steps is None:
            steps = self.keep_expansions[key] = tuple((t.action, t.rules, t.state, t.types) for t in self._expanded(node))
        ordered = sorted(steps, key=lambda step: step[0].kind not in first) if first else steps
        for action, rules, state, types in ordered:
            yield Transition(node, action, rules, state, types)

    def _expanded(self, node: Node, first: frozenset[ActionKind] = frozenset()) -> Iterator[Transition]:
        state = node.state
        space = self.space if not first else self._first(first)
        for candidate, action in candidate_forms(self.world(node.types), state, space):
            def steps(world, candidate=candidate, action=action):
                return tuple(step for a in positioned(world, candidate, action, self._places) for step in outcomes(world, state, a))

            for types, taken in self._split(steps, node.types):
                for a, outcome in taken:
                    yield Transition(node, a, outcome.rules, outcome.state, types)

    def _first(self, kinds: frozenset[ActionKind]) -> tuple[Candidate, ...]:
        found = self._orders.get(kinds)
        if found is None:
            found = self._orders[kinds] = tuple(sorted(self.space, key=lambda c: c.action.kind not in kinds))
        return found

    def _places(self, world: World, candidate: Candidate, action: Action) -> bool:
        """uses_position(world, action), remembered for each action as the types of its card for
        which it holds: it is a function of the world and the action, and (as checked when it is
        first asked, with every other card's type open) reads no other card's type. Asking it
        again splits a card's open types only where the answer depends on them."""
        if action.card is None or action is not candidate.action:
            return uses_position(world, action)
        placing = candidate.memo.get("placing")
        if placing is None:
            placing = candidate.memo["placing"] = self._placing_types(action)
        if placing < 0:  # it reads another card's type: not remembered
            return uses_position(world, action)
        bits = types_of(world.card_types.packed, action.card)
        if bits & ~placing == 0:
            return True
        if bits & placing == 0:
            return False
        raise TypeUndecided(action.card)

    def _placing_types(self, action: Action) -> int:
        """The types of the action's card for which uses_position holds; -1 when it reads the type
        of another card."""
        every = sum(narrowed(0, s, ANY_TYPE) for s in range(len(self.slots)))
        found = 0
        for bit in each_type(ANY_TYPE):
            try:
                found |= bit if uses_position(self.world(narrowed(every, action.card, bit)), action) else 0
            except TypeUndecided:
                return -1
        return found

    def _split(self, run: Callable[[World], tuple], types: int) -> list[tuple[int, tuple]]:
        """run(world) for every deck the open types allow, as (types, result) with the types that
        give the same result together."""
        try:
            return [(types, run(self.world(types)))]
        except TypeUndecided as undecided:
            slot = undecided.slot
        parts = [part for bit in each_type(types_of(types, slot)) for part in self._split(run, narrowed(types, slot, bit))]
        merged: dict[tuple, int] = {}
        for part_types, result in parts:
            key = (result, narrowed(part_types, slot, 0))
            merged[key] = merged.get(key, 0) | types_of(part_types, slot)
        return [(narrowed(rest, slot, bits), result) for (result, rest), bits in merged.items()]

    def backend(self, types: OpenTypes, before: GameState, action: Action | None = None, after: GameState | None = None) -> ConcreteBackend:
        s = self.scope
        return ConcreteBackend(self.slots, types, before, action, after, self.ruleset, s.starting_hand, s.hand_modifiers, s.team_size)


# ---------------------------------------------------------------- the search


@dataclass(frozen=True)
class Goal:
    """What the search looks for: a state (or, `on_step`, a step) where `reached(backend,
    prepared)` is true (True, False or UNDECIDED where it reads an open type). `prepare`, for a
    step goal, is called once per state with a backend of that state alone, and what it returns is
    passed to `reached` for every step from the state (None without it); it returns UNREACHABLE
    when no step from the state reaches the goal."""

    name: str
    on_step: bool
    reached: Callable[[ConcreteBackend, object], object]
    prepare: Callable[[ConcreteBackend], object] | None = None
    kinds: frozenset[ActionKind] | None = None  # a step goal: the only action kinds that may reach it (None: any)


UNREACHABLE = object()  # what a step goal's `prepare` returns for a state no step from which reaches it


@dataclass(frozen=True)
class Hit:
    """A shortest way to a goal: the path's last node (the state reached, or the state the step
    came from), the step for a step goal, and the open types under which the goal is reached."""

    goal: str
    depth: int
    node: Node
    step: Transition | None
    types: int


@dataclass(frozen=True)
class SearchResult:
    hits: dict[str, Hit]
    states_per_level: tuple[int, ...]  # the states kept at each level (level 0: the start)
    completed: int  # the deepest level whose every state and step was checked; -1 when no game can start
    explored_all: bool  # a level brought no new state: every reachable state was explored
    budget_reached: bool
    last_level: tuple["Node", ...] = field(default=(), repr=False)  # the nodes of the deepest level kept


class _Judge:
    """Evaluates goals on one state or step under its open types; one backend serves every goal."""

    def __init__(self, space: StateSpace, types: int, args: tuple):
        self.space, self.types, self.args = space, types, args
        self.view = OpenTypes(types, len(space.slots))
        self.backend = space.backend(self.view, *args)

    def reached(self, goal: Goal, prepared: object = None) -> int | None:
        """The open types (narrowed as needed) under which the goal is reached, or None when it is
        reached under none of them."""
        self.view.open_reads.clear()
        value = goal.reached(self.backend, prepared)
        if value is UNDECIDED:
            return self._split(goal, prepared, self.types, _open_slot(goal, self.view))
        return self.types if value else None

    def _split(self, goal: Goal, prepared: object, types: int, slot: int) -> int | None:
        for bit in each_type(types_of(types, slot)):
            narrower = narrowed(types, slot, bit)
            view = OpenTypes(narrower, len(self.space.slots))
            value = goal.reached(self.space.backend(view, *self.args), prepared)
            found = self._split(goal, prepared, narrower, _open_slot(goal, view)) if value is UNDECIDED else narrower if value else None
            if found is not None:
                return found
        return None


def _open_slot(goal: Goal, view: OpenTypes) -> int:
    """The card whose open type left the goal UNDECIDED, to split on; UNDECIDED without one is a bug,
    never a value to read as true or false."""
    if not view.open_reads:
        raise RuntimeError(f"{goal.name} is UNDECIDED though it read no open card type")
    return view.open_reads[0]


def search(space: StateSpace, goals: list[Goal], depth: int, max_states: int, deadline: float | None = None) -> SearchResult:
    """Breadth-first from the start of a game to `depth` steps, until every goal is reached or
    `max_states` states are kept (or the process's CPU clock passes `deadline`: a budget for
    benchmarks only, as its answer depends on the machine). A state is kept unless one kept before has the same
    game state and at least its open types (so it adds no deck)."""
    hits: dict[str, Hit] = {}
    on_state = [g for g in goals if not g.on_step]
    on_step = [g for g in goals if g.on_step]
    if space.start is None:
        return SearchResult(hits, (), -1, True, False, ())
    kept: dict[GameState, list[Node]] = {space.start.state: [space.start]}
    levels = [1]

    def check_state(node: Node, level: int) -> None:
        judge = None
        for goal in on_state:
            if goal.name not in hits:
                judge = judge or _Judge(space, node.types, (node.state,))
                types = judge.reached(goal)
                if types is not None:
                    hits[goal.name] = Hit(goal.name, level, node, None, types)

    def done() -> bool:
        return bool(goals) and len(hits) == len(goals)

    def preparations(node: Node) -> dict[str, object]:
        backend = space.backend(OpenTypes(node.types, len(space.slots)), node.state)
        return {g.name: g.prepare(backend) for g in on_step if g.prepare is not None and g.name not in hits}

    check_state(space.start, 0)
    frontier = [space.start]
    for level in range(1, depth + 1):
        if done():
            return SearchResult(hits, tuple(levels), level - 1, False, False, tuple(frontier))
        following: list[Node] = []
        # The order in which a level's nodes, and each node's steps, are tried changes nothing the
        # level holds, only how soon a violation in it is found: first the nodes from which some
        # step goal may be reached, and the action kinds that may reach one.
        prepared_for = {id(node): preparations(node) for node in frontier} if on_step else {}
        if prepared_for:
            frontier = sorted(frontier, key=lambda n: all(p is UNREACHABLE for p in prepared_for[id(n)].values()))
        for node in frontier:
            prepared = prepared_for.get(id(node), {})
            first = frozenset().union(*(g.kinds or () for g in on_step if g.name not in hits))
            for step in space.successors(node, first):
                judge = None
                for goal in on_step:
                    if goal.name not in hits and (goal.kinds is None or step.action.kind in goal.kinds):
                        if goal.prepare is not None and goal.name not in prepared:
                            prepared.update(preparations(node))
                        if prepared.get(goal.name) is UNREACHABLE:
                            continue
                        judge = judge or _Judge(space, step.types, (node.state, step.action, step.state))
                        types = judge.reached(goal, prepared.get(goal.name))
                        if types is not None:
                            hits[goal.name] = Hit(goal.name, level, node, step, types)
                known = kept.setdefault(step.state, [])
                if any(step.types & ~other.types == 0 for other in known):
                    continue  # a node kept before covers these decks
                arrival = Arrival(node, step.action, step.rules, step.types)
                widened = next((other for other in known if other.level == level and _unite(other.types, step.types) is not None), None)
                if widened is not None:
                    widened.types = _unite(widened.types, step.types)
                    widened.arrivals.append(arrival)
                    check_state(widened, level)
                    continue
                if sum(levels) + len(following) >= max_states or (
                        deadline is not None and len(following) % 256 == 0 and time.process_time() > deadline):
                    return SearchResult(hits, (*levels, len(following)), level - 1, False, True, tuple(following))
                reached = Node(step.state, step.types, level, [arrival])
                known.append(reached)
                following.append(reached)
                check_state(reached, level)
                if done():
                    return SearchResult(hits, (*levels, len(following)), level - 1, False, False, tuple(following))
        levels.append(len(following))
        if not following:
            return SearchResult(hits, tuple(levels), depth, True, False, tuple(frontier))
        frontier = following
    return SearchResult(hits, tuple(levels), depth, False, False, tuple(frontier))


# ---------------------------------------------------------------- checking properties


class Verdict(str, Enum):
    VIOLATED = "violated"  # a shortest counterexample, replayed in the interpreter
    HOLDS = "holds"  # no violation within the depth bound (at every depth when `every_depth`)
    BUDGET_EXHAUSTED = "budget-exhausted"  # the budget ran out: no violation up to `depth`, nothing known beyond (never a holds)
    ERROR = "error"  # a counterexample that does not replay: a bug in the search


@dataclass(frozen=True)
class PropertyResult:
    prop: Property = field(repr=False)
    verdict: Verdict
    depth: int  # violated: the counterexample's length; holds: the bound; undecided: the last level explored completely
    trace: Trace | None = field(default=None, repr=False, compare=False)
    every_depth: bool = False  # holds: every reachable state was explored, so it holds at any depth
    reason: str = ""  # error: what did not replay


@dataclass(frozen=True)
class Exploration:
    ruleset: RuleSet = field(repr=False)
    scope: Scope
    results: tuple[PropertyResult, ...]
    states_per_level: tuple[int, ...]
    completed: int
    explored_all: bool  # every reachable state was explored (a level brought no new state)
    budget_reached: bool
    seconds: float = field(compare=False)

    @property
    def states(self) -> int:
        return sum(self.states_per_level)


def property_goal(prop: Property, space: StateSpace) -> Goal:
    """The goal of reaching a violation of the property. A step property's conditions that read
    only the state before the step are tested once per state (evaluate.compile_staged)."""
    if prop.kind is PropertyKind.ALWAYS:
        holds = compile_lazily(prop, space.slots, space.scope.players)
        return Goal(prop.id, False, lambda backend, _: _negated(holds(backend)))
    staged = compile_staged(prop, space.slots, space.scope.players)

    def prepare(backend):
        prepared = staged.prepare(backend)
        return prepared if staged.may_fail(prepared) else UNREACHABLE

    return Goal(prop.id, True, lambda backend, prepared: _negated(staged.finish(prepared, backend)), prepare, falsifying_kinds(prop))


def _negated(value: object) -> object:
    return UNDECIDED if value is UNDECIDED else not value


# The budget when none is given, in states kept.
MAX_STATES = 300_000


def check_explicitly(ruleset: RuleSet, props: list[Property], scope: Scope, max_states: int = MAX_STATES, seed: int = 0,
                     space: StateSpace | None = None, max_cpu_seconds: float | None = None) -> Exploration:
    """Check each property to scope.depth by explicit search, keeping at most `max_states` states.
    A violation comes with a shortest counterexample as a Trace, in the form zoneproof check
    writes (its card types chosen within the open ones; `seed` is recorded in it, as check does),
    replayed in the interpreter."""
    started = time.monotonic()
    space = space or StateSpace(ruleset, scope)
    deadline = None if max_cpu_seconds is None else time.process_time() + max_cpu_seconds
    result = search(space, [property_goal(p, space) for p in props], space.scope.depth, max_states, deadline)
    verdicts = []
    for prop in props:
        hit = result.hits.get(prop.id)
        if hit is not None:
            verdicts.append(_counterexample(space, prop, hit, seed))
        elif result.completed >= space.scope.depth or result.explored_all:
            verdicts.append(PropertyResult(prop, Verdict.HOLDS, space.scope.depth, every_depth=result.explored_all))
        else:
            verdicts.append(PropertyResult(prop, Verdict.BUDGET_EXHAUSTED, result.completed))
    return Exploration(ruleset, space.scope, tuple(verdicts), result.states_per_level, result.completed, result.explored_all,
                       result.budget_reached, time.monotonic() - started)


def _counterexample(space: StateSpace, prop: Property, hit: Hit, seed: int) -> PropertyResult:
    deck = chosen_deck(hit.types, len(space.slots))
    path = hit.node.path(deck)
    actions = [arrival.action for arrival, _ in path] + ([hit.step.action] if hit.step else [])
    recorded = [node.state for _, node in path] + ([hit.step.state] if hit.step else [])
    card_types = deck_types(deck, len(space.slots))
    world = space.concrete_world(card_types)
    steps, mismatch = execute(world, space.start_state, actions, recorded=recorded)
    if mismatch is None and first_violation(world, prop, space.start_state, steps) != hit.depth:
        mismatch = f"the interpreter does not find {prop.id} violated first at step {hit.depth}"
    if mismatch:
        return PropertyResult(prop, Verdict.ERROR, hit.depth, reason=f"the explicit search's counterexample does not replay: {mismatch}")
    trace = Trace(
        **of_ruleset(space.ruleset),
                property_id=prop.id,
        property_cites=prop.cites,
        property_kind=prop.kind.value,
        property_text=prop.text,
        scope=space.scope,
        seed=seed,
        card_types=card_types,
        initial=space.start_state,
        steps=tuple(Step(s.action, s.state, s.rules) for s in steps),
        violation_step=hit.depth,
    )
    return PropertyResult(prop, Verdict.VIOLATED, hit.depth, trace)


# ---------------------------------------------------------------- a first stage for the checker


class Finding(str, Enum):
    VIOLATED = "violated"  # a shortest violating run, replayed in the interpreter
    NO_VIOLATION = "no-violation"  # none in levels 0 .. depth, each explored completely
    BUDGET_EXHAUSTED = "budget-exhausted"  # the budget ran out: none in levels 0 .. depth, nothing known beyond


@dataclass(frozen=True)
class StageResult:
    property_id: str
    finding: Finding
    depth: int  # violated: the run's length; otherwise the last level explored completely (-1: not even the start)
    every_depth: bool = False  # no violation: every reachable state was explored, so none at any depth
    world: World | None = field(default=None, repr=False)  # violated: the interpreter's world, card types chosen
    initial: GameState | None = field(default=None, repr=False)  # violated: the start of the game
    actions: tuple[Action, ...] = ()  # violated: the run, `apply`d one by one from `initial`
    trace: Trace | None = field(default=None, repr=False, compare=False)  # violated: the run as check writes it


class ReplayMismatch(RuntimeError):
    """A run the search found does not replay in the interpreter: a bug in the search, never a verdict."""


def first_stage(ruleset: RuleSet, scope: Scope, props: Sequence[Property], max_depth: int, max_states: int = MAX_STATES,
                space: StateSpace | None = None) -> tuple[StageResult, ...]:
    """For each property, breadth-first within max_depth steps and max_states states kept: a shortest violating run (world,
    initial state, actions) at depth d, or no violation up to the last completed level L, or budget-exhausted at L.
    `space`: one made for the scope (with max_depth), to share its `keep_expansions` with other searches."""
    exploration = check_explicitly(ruleset, list(props), replace(scope, depth=max_depth), max_states, space=space)
    found = []
    for result in exploration.results:
        prop_id = result.prop.id
        if result.verdict is Verdict.ERROR:
            raise ReplayMismatch(f"{prop_id}: {result.reason}")
        if result.verdict is Verdict.BUDGET_EXHAUSTED:
            found.append(StageResult(prop_id, Finding.BUDGET_EXHAUSTED, result.depth))
        elif result.verdict is Verdict.HOLDS:
            found.append(StageResult(prop_id, Finding.NO_VIOLATION, result.depth, every_depth=result.every_depth))
        else:
            trace = result.trace
            world = World.of(ruleset, slots_for(trace.scope), trace.card_types, trace.scope)
            actions = tuple(step.action for step in trace.steps)
            found.append(StageResult(prop_id, Finding.VIOLATED, result.depth, world=world, initial=trace.initial, actions=actions, trace=trace))
    return tuple(found)

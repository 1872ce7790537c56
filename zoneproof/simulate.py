"""Random runs through the interpreter: cheap witnesses of what a run can reach.

A run starts a game with card types drawn among those the start allows, and at each step takes an
action drawn at random: first its kind, among the kinds with a candidate in the state, then one of
that kind's candidates the interpreter carries out. The runs are seeded, so the same call finds the
same witnesses. A witness is the shortest run found on which a property first fails, then shrunk:
each of its steps is left out in turn while the rest still replays and still fails the property (a
rule's witness: still ends in a step the rule decides). It is the interpreter's own run, so it
replays; it is not always a shortest one. Runs prove nothing: a property no run violates may still fail.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import partial

from .evaluate import compile_lazily
from .explicit import SINGLE, TYPES, FormsByKind, StateSpace, as_listed, candidate_forms, outcomes, positioned, types_of
from .interpreter import IllegalAction, World, apply, outcome_or_refusal
from .semantics.step import OrderMissing
from .model import Action, ActionKind, CardType, GameState, Scope, Step, Zone
from .properties import Property, PropertyKind
from .replay import backend_at, first_violation
from .ruleset import RuleSet
from .trace import Trace, of_ruleset


@dataclass(frozen=True)
class Witness:
    """A run on which a property first fails at `depth` (a state, or the step into it)."""

    depth: int
    trace: Trace
    stored: bool = False  # the run is a stored one, replayed (`stored_witnesses`)


# The random runs tried before Z3, and their length in depth bounds: a longer run reaches more, and
# its witness shrinks.
RUNS = 200
RUN_LENGTH = 3
# The runs stop early after this many in a row have found no new witness.
STALE_RUNS = 30
# How likely each action kind is to be left out of a run (swarm testing: a run that never takes
# some kinds takes the others more often, and goes further along them), where another kind can be taken.
SWARM = 0.3
# The runs of the rule set without a rule (`_relaxed_run`) tried for each rule that no other run
# found deciding a step: they take the steps the rule forbids.
RELAXED_RUNS = 10
# The actions pregame_witnesses tries, level by level, before it stops (a mulligan down to no cards
# takes up to about 55,000 in the built-in rule sets at the default scope).
PREGAME_TRIES = 100_000
# The candidate forms of a kind tried in a state for a step property that a step of that kind violates.
TRIED_FORMS = 4
# The candidate forms of a kind tried in a state for a rule not yet found deciding a step.
PROBED_FORMS = 2


def found_witnesses(ruleset: RuleSet, scope: Scope, props: list[Property], rules: list[str], runs: int, length: int,
                    seed: int = 0, taking: dict[ActionKind, Property] | None = None,
                    stale: int = STALE_RUNS, deciding: dict[ActionKind, frozenset[str]] | None = None,
                    ) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """For each property some run of at most `length` steps violates, a run that does; and for each
    rule of `rules`, a run whose last step has another outcome without the rule, at the `depth` of
    the state it is taken in (the runs take the rule set's steps; for a rule none of them shows
    deciding a step, runs without the rule take the steps it forbids: `_relaxed_run`).
    `taking` names step properties that a step of one kind violates: in every state passed, a step
    of that kind is tried too; so is, for each rule not yet found, a step of a kind it decides,
    taken with or without the rule and compared with the other's outcome (a step the rule refuses
    is found so too). `deciding` (`slicing.rules_deciding_each`) names for each action kind
    the only rules whose removal can change a step of it: the others are not tried there, nor in
    runs without them. At most `runs` runs (`_walk`), fewer when `stale` in a row find
    nothing new; every other run stays in the pregame while it can (most of the actions that start
    the game are not the pregame's, so that a run at random would rarely stay). Every witness is
    shrunk (`_shrunk`): a long run finds more, and shrinks to a short one."""
    space = StateSpace(ruleset, scope)
    if space.start is None:
        return {}, {}
    rng = random.Random(seed)
    holds = {p.id: compile_lazily(p, space.slots, space.scope.players) for p in props}
    violated: dict[str, tuple[World, list[Action]]] = {}  # by property id (hashing a property is slow)
    changed: dict[str, tuple[World, list[Action]]] = {}
    withouts = {rule_id: ruleset.without([rule_id]) for rule_id in rules}
    worlds_without: dict[tuple, World] = {}

    def without(world: World, rule_id: str) -> World:
        key = (world.card_types, rule_id)
        if key not in worlds_without:
            worlds_without[key] = replace(world, ruleset=withouts[rule_id])
        return worlds_without[key]

    deciders = {rule_id: [kind for kind, rules_of in (deciding or {}).items() if rule_id in rules_of] for rule_id in rules}

    def state_goals(world: World, steps: list[Step], by_kind: FormsByKind) -> int:
        """Witnesses found in the run's last state: the rules a step of a kind they decide shows
        deciding, and the step properties a step of a kind violates."""
        k, new = len(steps), 0
        state = steps[-1].state if steps else space.start_state
        for rule_id in [r for r in rules if r not in changed]:
            kinds = [kind for kind in deciders[rule_id] if kind in by_kind]
            if kinds:
                forms = by_kind[rng.choice(kinds)]
                taking_world, other = (world, without(world, rule_id)) if rng.random() < 0.5 else (without(world, rule_id), world)
                step = _step_of(taking_world, state, rng.sample(forms, min(PROBED_FORMS, len(forms))), rng)
                if step is not None and outcome_or_refusal(other, state, step.action) != step.state:
                    changed[rule_id], new = (world, [*_actions(steps), step.action]), new + 1
        for kind, prop in (taking or {}).items():
            if prop.id not in violated and kind in by_kind:
                step = _step_of(world, state, rng.sample(by_kind[kind], min(TRIED_FORMS, len(by_kind[kind]))), rng)
                if step is not None and not holds[prop.id](backend_at(world, prop, space.start_state, (*steps, step), k + 1)):
                    violated[prop.id], new = (world, [*_actions(steps), step.action]), new + 1
        return new

    def step_goals(world: World, steps: list[Step]) -> int:
        return _step_goals(space, world, props, holds, violated, rules, partial(without, world), changed, steps, deciding)

    def run_one(world: World, pregame_first: bool) -> None:
        step_goals(world, [])
        _walk(space, world, rng, length, pregame_first, partial(state_goals, world), lambda steps: step_goals(world, steps) >= 0)

    _runs(space, rng, runs, run_one, lambda: len(violated) + len(changed), len(props) + len(rules), stale)
    for rule_id in [r for r in rules if r not in changed and (deciding is None or any(r in d for d in deciding.values()))]:
        for attempt in range(RELAXED_RUNS):
            world = space.concrete_world(_drawn_types(space, rng))
            found = _relaxed_run(space, world, without(world, rule_id), rng, length, attempt % 2 == 1)
            if found is not None:
                changed[rule_id] = (world, found)
                break
    return _witnesses(space, props, violated, withouts, changed, seed)


def _step_goals(space: StateSpace, world: World, props: list[Property], holds: dict, violated: dict, rules: list[str], without,
                changed: dict, steps, deciding: dict | None = None) -> int:
    """Witnesses found by the run's last step, or in the state it leads to: record the properties as
    `_violations` does, and in `changed` (by rule id: the world and the run's actions) each rule of
    `rules` not yet there whose removal (`without(rule_id)`, the world without it) gives the last
    step another outcome, among those `deciding` names for its kind (all without it); how many."""
    new = _violations(space, world, props, holds, violated, steps)
    if steps:
        before = steps[-2].state if len(steps) > 1 else space.start_state
        kind = steps[-1].action.kind
        for rule_id in rules if deciding is None else [r for r in rules if r in deciding.get(kind, ())]:
            if rule_id not in changed and outcome_or_refusal(without(rule_id), before, steps[-1].action) != steps[-1].state:
                changed[rule_id], new = (world, _actions(steps)), new + 1
    return new


def _violations(space: StateSpace, world: World, props: list[Property], holds: dict, violated: dict, steps) -> int:
    """Record in `violated` (by property id: the world and the run's actions) each property not yet
    violated that the run's last step, or the state it leads to, violates; how many."""
    k, new = len(steps), 0
    for prop in props:
        if prop.id not in violated and (k > 0 or prop.kind is PropertyKind.ALWAYS):
            if not holds[prop.id](backend_at(world, prop, space.start_state, steps, k)):
                violated[prop.id], new = (world, _actions(steps)), new + 1
    return new


def _witnesses(space: StateSpace, props: list[Property], violated: dict, withouts: dict, changed: dict,
               seed: int) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """The runs found (each a world and its actions, by property id and by rule id), shrunk."""
    by_id = {p.id: p for p in props}
    return ({by_id[i]: _shrunk(space, world, i, actions, partial(_violates, by_id[i], space), seed, by_id[i])
             for i, (world, actions) in violated.items()},
            {r: _shrunk(space, world, r, actions, partial(_decides_last, withouts[r], space), seed)
             for r, (world, actions) in changed.items()})


def lifted_witness(space: StateSpace, name: str, card_types: dict[str, CardType], actions: list[Action],
                   seed: int = 0, prop: Property | None = None) -> Witness | None:
    """A run found in a smaller game (its cards named as in `space`'s scope, with their types), as
    a witness in that scope: the same actions, replayed from its start with every other card left
    where it starts (each of the first type it may have), shrunk. None when the run does not replay
    to the same end there: `prop` violated, or else its last step decided by the rule `name`."""
    if space.start is None:
        return None
    world = _named_world(space, card_types)
    reached = partial(_violates, prop, space) if prop is not None else partial(_decides_last, space.ruleset.without([name]), space)
    if reached(world, actions) is None:
        return None
    return _shrunk(space, world, name, actions, reached, seed, prop)


def stored_witnesses(ruleset: RuleSet, scope: Scope, seed: int, wanted: dict) -> dict:
    """For each key of `wanted`, mapped to (a stored run, the name of its goal, the property it
    violates or None for a rule's removal, the depth bound), the run replayed as `lifted_witness`
    replays it, where it still reaches its goal within the bound (`store`)."""
    if not wanted:
        return {}
    space = StateSpace(ruleset, scope)
    replayed = {key: (lifted_witness(space, name, dict(run.card_types), list(run.actions), seed, prop), bound)
                for key, (run, name, prop, bound) in wanted.items()}
    return {key: replace(witness, stored=True) for key, (witness, bound) in replayed.items() if witness is not None and witness.depth <= bound}


def reached_on(space: StateSpace, card_types: dict[str, CardType], actions: list[Action], props: list[Property], rules: list[str],
               seed: int = 0) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """What found_witnesses finds on one given run (its cards as `lifted_witness` takes them) instead
    of on random ones: each property of `props` that the run violates and each rule of `rules` that
    decides one of its steps, with the run up to there, shrunk. The run's actions are replayed as a
    witness's are (`_replayed`: one the interpreter refuses is replaced or left out)."""
    if space.start is None:
        return {}, {}
    world = _named_world(space, card_types)
    steps = _replayed(space, world, actions)
    holds = {p.id: compile_lazily(p, space.slots, space.scope.players) for p in props}
    withouts = {rule_id: space.ruleset.without([rule_id]) for rule_id in rules}
    worlds_without = {rule_id: replace(world, ruleset=without) for rule_id, without in withouts.items()}
    violated: dict[str, tuple[World, list[Action]]] = {}
    changed: dict[str, tuple[World, list[Action]]] = {}
    for k in range(len(steps) + 1):
        _step_goals(space, world, props, holds, violated, rules, worlds_without.__getitem__, changed, steps[:k])
    return _witnesses(space, props, violated, withouts, changed, seed)


def _named_world(space: StateSpace, card_types: dict[str, CardType]) -> World:
    """The world of the cards named in `card_types` with those types, every other card of the first
    type it may have."""
    allowed = [types_of(space.start.types, slot.index) for slot in space.slots]
    return space.concrete_world(tuple(card_types.get(slot.name) or SINGLE[bits & -bits] for slot, bits in zip(space.slots, allowed)))


def differing_runs(allowing: RuleSet, refusing: RuleSet, scope: Scope, kinds: list[ActionKind], runs: int, length: int,
                   seed: int = 0) -> dict[ActionKind, Witness]:
    """For each action kind of `kinds`, a run of at most `length` steps whose steps both rule sets
    allow alike (the same next states) but the last, of that kind, which `allowing` allows and
    `refusing` does not: it refuses it, or it ends elsewhere. The witness's depth is that of the
    state the last step is taken in. Runs of `allowing`, as found_witnesses makes them (a step of
    each kind still wanted is tried in every state they pass); a run ends at its first step the two
    do not allow alike. Every witness is shrunk (`_shrunk`)."""
    space = StateSpace(allowing, scope)
    if space.start is None:
        return {}
    rng = random.Random(seed)
    found: dict[ActionKind, tuple[World, list[Action]]] = {}

    def differs(other: World, state: GameState, step: Step) -> bool:
        return outcome_or_refusal(other, state, step.action) != step.state

    def on_state(world: World, other: World, steps: list[Step], by_kind: FormsByKind) -> None:
        state = steps[-1].state if steps else space.start_state
        for kind in [k for k in kinds if k in by_kind and k not in found]:
            step = _step_of(world, state, rng.sample(by_kind[kind], min(TRIED_FORMS, len(by_kind[kind]))), rng)
            if step is not None and differs(other, state, step):
                found[kind] = (world, [*_actions(steps), step.action])

    def on_step(world: World, other: World, steps: list[Step]) -> bool:
        before = steps[-2].state if len(steps) > 1 else space.start_state
        if not differs(other, before, steps[-1]):
            return True
        if steps[-1].action.kind in kinds:
            found.setdefault(steps[-1].action.kind, (world, _actions(steps)))
        return False

    def run_one(world: World, pregame_first: bool) -> None:
        other = replace(world, ruleset=refusing)
        _walk(space, world, rng, length, pregame_first, partial(on_state, world, other), partial(on_step, world, other))

    _runs(space, rng, runs, run_one, lambda: len(found), len(kinds))
    return {kind: _shrunk(space, world, kind.value, actions, partial(_differs_last, kind, refusing, space), seed)
            for kind, (world, actions) in found.items()}


def pregame_witnesses(ruleset: RuleSet, scope: Scope, props: list[Property], rules: list[str],
                      seed: int = 0) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """What found_witnesses finds, found on every run of the pregame's actions instead of on runs
    at random: breadth-first from the start within the depth bound, each state once, in the deck
    of each card's first possible type. The pregame's states are few (tens to a few thousand in the
    built-in rule sets at the default scope), and the runs at random seldom take the same choice
    several times over (mulligans down to a hand of zero cards). For each rule of `rules`, a run
    whose last step (of a pregame action) is allowed with the rule and not without it, or the other
    way round, or leads elsewhere; for each property, a run that violates it. Shrunk as
    found_witnesses's are. The search stops after PREGAME_TRIES actions tried (each rule's
    comparison is a try), so that a goal the pregame never reaches costs little."""
    space = StateSpace(ruleset, scope)
    if space.start is None or not ruleset.has_pregame:
        return {}, {}
    world = space.concrete_world(tuple(SINGLE[bits & -bits] for bits in (types_of(space.start.types, s.index) for s in space.slots)))
    pregame = tuple(c for c in space.space if c.pregame)
    holds = {p.id: compile_lazily(p, space.slots, space.scope.players) for p in props}
    withouts = {rule_id: ruleset.without([rule_id]) for rule_id in rules}
    worlds_without = {rule_id: replace(world, ruleset=without) for rule_id, without in withouts.items()}
    violated: dict[str, tuple[World, list[Action]]] = {}
    changed: dict[str, tuple[World, list[Action]]] = {}
    runs = {space.start_state: ()}
    level = [space.start_state]
    _violations(space, world, props, holds, violated, ())
    tries = 0
    for _ in range(scope.depth):
        reached = []
        for state in level:
            steps = runs[state]
            for candidate, form in candidate_forms(world, state, pregame):
                for action in positioned(world, candidate, form):
                    taken = outcomes(world, state, action)  # the first, each pile as listed: as _completed makes it
                    pending = [r for r in rules if r not in changed]
                    tries += 1 + len(pending)
                    for rule_id in pending:
                        other = _completed(worlds_without[rule_id], state, action, as_listed)
                        if (taken[0][1].state if taken else None) != _state(other):
                            changed[rule_id] = (world, [*_actions(steps), taken[0][0] if taken else other.action])
                    for completed, outcome in taken:
                        step_run = (*steps, Step(completed, outcome.state, outcome.rules))
                        _violations(space, world, props, holds, violated, step_run)
                        if outcome.state not in runs:
                            runs[outcome.state] = step_run
                            reached.append(outcome.state)
        level = reached
        if not level or len(violated) + len(changed) == len(props) + len(rules) or tries >= PREGAME_TRIES:
            break
    return _witnesses(space, props, violated, withouts, changed, seed)


def falsified(ruleset: RuleSet, scope: Scope, props: list[Property], runs: int, seed: int = 0,
              kinds: frozenset[ActionKind] | None = None) -> set[str]:
    """The ids of the `always` properties among `props` that a reachable state falsifies: a state of
    some random run of at most `scope.depth` steps, taking only actions of `kinds` (None: of every
    kind), or a few steps past it, each of a kind that no step has taken yet (`_Untaken`)."""
    space = StateSpace(ruleset, scope)
    always = [p for p in props if p.kind is PropertyKind.ALWAYS]
    if space.start is None or not always:
        return set()
    rng = random.Random(seed)
    holds = {p.id: compile_lazily(p, space.slots, space.scope.players) for p in always}
    found: set[str] = set()
    untaken = _Untaken(space, rng, kinds)

    def falsify(world: World, steps) -> None:
        backend = backend_at(world, always[0], space.start_state, tuple(steps), len(steps))
        found.update([prop_id for prop_id, holds_in in holds.items() if prop_id not in found and not holds_in(backend)])

    def on_state(world: World, retypings: list, steps: list[Step], by_kind: FormsByKind) -> None:
        falsify(world, steps)
        untaken.probe(world, retypings, steps, by_kind, falsify)

    def on_step(retypings: list, steps: list[Step]) -> bool:
        untaken.taken(retypings, steps)
        return True

    def run_one(world: World, pregame_first: bool) -> None:
        retypings = untaken.start(world)
        _walk(space, world, rng, space.scope.depth, pregame_first, partial(on_state, world, retypings), partial(on_step, retypings), kinds)

    _runs(space, rng, runs, run_one, lambda: len(found), len(holds))
    return found


class _Untaken:
    """The action kinds (among `kinds`; None: every kind) that no step of the runs has taken yet, and
    the steps of them tried past a run: in each state a run passes, a step of each untaken kind
    where one is legal, then the same from the state it leads to (an action that is seldom possible
    is taken wherever it is, and so is one that needs it: a spell cast, then copied). Where a token
    slot of another type would make such a step possible, and the run is the same with it (the
    token is not in the game yet), the step is taken with that type: each run keeps the worlds that
    differ from its own only so (`retypings`: a token slot and a world, from `start`)."""

    def __init__(self, space: StateSpace, rng: random.Random, kinds: frozenset[ActionKind] | None = None):
        self.space, self.rng = space, rng
        self.kinds = set(ActionKind if kinds is None else kinds)

    def start(self, world: World) -> list[tuple[int, World]]:
        """A new run's retypings: each token slot with each other type it may have."""
        return [(token.index, replace(world, card_types=tuple(other if i == token.index else t for i, t in enumerate(world.card_types))))
                for token in self.space.slots if token.is_token for other in token.types if other is not world.card_types[token.index]]

    def taken(self, retypings: list, steps: list[Step]) -> None:
        """The run has taken its last step: its kind is taken, and its retypings narrow."""
        self.kinds.discard(steps[-1].action.kind)
        retypings[:] = _still_alike(retypings, steps[-2].state if len(steps) > 1 else self.space.start_state, steps[-1])

    def probe(self, world: World, retypings: list, steps: list[Step], by_kind: FormsByKind, reached) -> None:
        """The steps of untaken kinds from the state the steps lead to: `reached(world, steps)` is
        told each run they make (its world, its steps)."""
        state = steps[-1].state if steps else self.space.start_state
        for kind in [k for k in by_kind if k in self.kinds]:
            if kind not in self.kinds:  # taken by a step probed after an earlier kind
                continue
            forms = by_kind[kind]
            tries = [(world, forms, retypings), *((other, [f for f in forms if f[1].card == token], []) for token, other in retypings)]
            for other, its_forms, its_retypings in tries:
                step = _step_of(other, state, its_forms, self.rng)
                if step is not None:
                    self.kinds.discard(kind)
                    reached(other, [*steps, step])
                    self.probe(other, _still_alike(its_retypings, state, step), [*steps, step], FormsByKind(other, step.state, self.space.by_kind), reached)
                    break


def _still_alike(retypings: list[tuple[int, World]], before: GameState, step: Step) -> list[tuple[int, World]]:
    """Those of `retypings` (each a token slot, and a world alike with the run's up to `before`)
    whose token is still out of the game after `step`, and whose world takes the same step."""
    return [(token, other) for token, other in retypings
            if step.state.objects[token].zone is Zone.NOWHERE and _state(_step_or_none(other, before, step.action)) == step.state]


def _runs(space: StateSpace, rng: random.Random, runs: int, run_one, found, wanted: int, stale_after: int = STALE_RUNS) -> None:
    """Up to `runs` runs, each `run_one(world, pregame_first)` in a world of card types drawn at
    random, every other one pregame-first; they stop once `found()` reaches `wanted`, or when
    `stale_after` in a row add nothing to it."""
    stale = 0
    for run in range(runs):
        known = found()
        run_one(space.concrete_world(_drawn_types(space, rng)), run % 2 == 1)
        stale = 0 if found() > known else stale + 1
        if stale >= stale_after or found() == wanted:
            return


def _walk(space: StateSpace, world: World, rng: random.Random, length: int, pregame_first: bool, on_state, on_step,
          kinds: frozenset[ActionKind] | None = None) -> None:
    """One random run of at most `length` steps: `on_state(steps, by_kind)` is told each state it
    passes (the steps to it, and its candidate forms by kind), `on_step(steps)` each step it takes,
    and ends it by returning False. It takes only actions of `kinds` (None: of every kind), leaves
    out some of them (SWARM), and with `pregame_first` takes the pregame's actions while it can."""
    left_out = {kind for kind in ActionKind if rng.random() < SWARM}
    steps: list[Step] = []
    while True:
        state = steps[-1].state if steps else space.start_state
        by_kind = FormsByKind(world, state, space.by_kind)
        on_state(steps, by_kind)
        available = [kind for kind in by_kind if kinds is None or kind in kinds]
        chosen = [kind for kind in available if kind not in left_out] or available
        if pregame_first and not state.started:
            chosen = [kind for kind in chosen if by_kind.first(kind).pregame] or chosen
        taken = _random_step(world, state, by_kind, chosen, rng) if len(steps) < length else None
        if taken is None:
            return
        steps.append(taken)
        if not on_step(steps):
            return


def _relaxed_run(space: StateSpace, world: World, relaxed: World, rng: random.Random, length: int,
                 pregame_first: bool) -> list[Action] | None:
    """A random run of `relaxed` (the rule set without a rule) up to its first step that has another
    outcome with the rule, or None when it has none within `length` steps: the steps before it
    are the same with the rule, so the run's actions are a witness that the rule decides a step.
    With `pregame_first`, it takes the pregame's actions while it can (as `_walk`)."""
    found: list = []

    def on_step(steps: list[Step]) -> bool:
        before = steps[-2].state if len(steps) > 1 else space.start_state
        if outcome_or_refusal(world, before, steps[-1].action) == steps[-1].state:
            return True
        found.extend(_actions(steps))
        return False

    _walk(space, relaxed, rng, length, pregame_first, lambda steps, by_kind: None, on_step)
    return found or None


def _random_step(world: World, state: GameState, by_kind: FormsByKind, kinds: list[ActionKind], rng: random.Random) -> Step | None:
    """A legal step: a kind drawn at random among `kinds`, then one of its steps."""
    kinds = list(kinds)
    while kinds:
        kind = rng.choice(kinds)
        kinds.remove(kind)
        taken = _step_of(world, state, by_kind[kind], rng)
        if taken is not None:
            return taken
    return None


def _actions(steps) -> list[Action]:
    return [s.action for s in steps]


def _violates(prop: Property, space: StateSpace, world: World, actions: list[Action], replays: dict | None = None,
              ) -> tuple[int, tuple[Step, ...]] | None:
    """The depth at which the run of `actions` (`_replayed`, `replays` as there) first fails the
    property, and its steps to there; None when it does not fail it."""
    initial = space.start_state
    steps = _replayed(space, world, actions, replays)
    k = first_violation(world, prop, initial, steps)
    return None if k is None else (k, steps[:k])


def _decides_last(without: RuleSet, space: StateSpace, world: World, actions: list[Action], replays: dict | None = None,
                  ) -> tuple[int, tuple[Step, ...]] | None:
    """The depth of the last action's state in the run of the actions before it (`_replayed`,
    `replays` as there) when the last action has another outcome without the rule, with the run's
    steps (the last as the rules in force have it, or, where they refuse it, as it is without the
    rule); else None."""
    if not actions:
        return None
    steps = _replayed(space, world, actions[:-1], replays)
    before = steps[-1].state if steps else space.start_state
    last = actions[-1]
    with_rule, without_rule = _step_or_none(world, before, last), _step_or_none(replace(world, ruleset=without), before, last)
    if _state(with_rule) == _state(without_rule):
        return None
    return len(steps), (*steps, with_rule or without_rule)


def _replayed(space: StateSpace, world: World, actions: list[Action], replays: dict | None = None) -> tuple[Step, ...]:
    """The steps of the actions from the start, where an action the interpreter refuses is
    replaced by the first legal one of its kind (its player's first), or left out when its kind
    has none: a witness shrinks further when leaving a step out may change which card a later
    step takes, or make a later step pointless. `replays` (a tree of the runs replayed before in
    `world`: each action to its step, None where it was left out, and the tree of what came
    after it) gives the steps of a run's beginning already replayed, and keeps the new ones."""
    steps: list[Step] = []
    state = space.start_state
    after = replays if replays is not None else {}
    for action in actions:
        if action not in after:
            after[action] = (_step_or_none(world, state, action) or _replacement(space, world, state, action), {})
        step, after = after[action]
        if step is not None:
            steps.append(step)
            state = step.state
    return tuple(steps)


def _replacement(space: StateSpace, world: World, state: GameState, action: Action) -> Step | None:
    forms = sorted(candidate_forms(world, state, space.by_kind.get(action.kind, ())), key=lambda form: form[1].player != action.player)
    for candidate, form in forms:
        for choice in positioned(world, candidate, form):
            step = _completed(world, state, choice, as_listed)
            if step is not None:
                return step
    return None


def _differs_last(kind: ActionKind, refusing: RuleSet, space: StateSpace, world: World, actions: list[Action],
                  replays: dict | None = None) -> tuple[int, tuple[Step, ...]] | None:
    """The depth of the last action's state when the run of the actions before it (`_replayed`,
    `replays` as there) is the same under `refusing` and the last, of `kind`, is allowed in `world`
    and not alike under `refusing`, with the run's steps in `world`; else None."""
    if not actions or actions[-1].kind is not kind:
        return None
    other = replace(world, ruleset=refusing)
    steps = _replayed(space, world, actions[:-1], replays)
    states = [space.start_state, *(s.state for s in steps)]
    if any(_state(_step_or_none(other, states[i], step.action)) != step.state for i, step in enumerate(steps)):
        return None
    last = _step_or_none(world, states[-1], actions[-1])
    if last is None or _state(_step_or_none(other, states[-1], actions[-1])) == last.state:
        return None
    return len(steps), (*steps, last)


def _step_or_none(world: World, state: GameState, action: Action) -> Step | None:
    """The step the action makes, or None when the interpreter refuses it."""
    try:
        outcome = apply(world, state, action)
    except IllegalAction:
        return None
    return Step(action, outcome.state, outcome.rules)


def _state(step: Step | None) -> GameState | None:
    return step.state if step is not None else None



def _shrunk(space: StateSpace, world: World, name: str, actions: list[Action], reached, seed: int, prop: Property | None = None) -> Witness:
    """A witness of the run of `actions`, with the actions left out that it does without, as
    delta debugging does it: runs of actions, halving their length down to one, are each tried
    without, until none can go; `reached(world, actions)` must still give the witness's depth and
    steps (`replays`: as `_replayed` takes it, shared by every run tried)."""
    replays: dict = {}
    depth, steps = reached(world, actions, replays)
    actions, shorter = _actions(steps), True
    while shorter:
        shorter, size = False, max(1, len(actions) // 2)
        while size >= 1:
            i = len(actions) - size
            while i >= 0:
                found = reached(world, actions[:i] + actions[i + size:], replays)
                if found is None:
                    i -= 1
                    continue
                (depth, steps), actions, shorter = found, _actions(found[1]), True
                i = min(i - 1, len(actions) - size)
            size //= 2
    return Witness(depth, _trace(space, world, name, prop, list(steps), seed))


def _drawn_types(space: StateSpace, rng: random.Random) -> tuple:
    """A type for each slot, at random among those it may have; a token slot's is half the time a
    creature's (a token to create), half the time that of a card of its owner's (a spell to copy)."""
    allowed = space.start.types
    drawn = [SINGLE[1 << rng.choice([i for i in range(len(TYPES)) if types_of(allowed, s) >> i & 1])] for s in range(len(space.slots))]
    for token in (s for s in space.slots if s.is_token):
        choices = [drawn[c.index] for c in space.slots if c.owner == token.owner and not c.is_token and drawn[c.index] in token.types]
        drawn[token.index] = CardType.CREATURE if rng.random() < 0.5 or not choices else rng.choice(choices)
    return tuple(drawn)


def _step_of(world: World, state: GameState, forms: list, rng: random.Random) -> Step | None:
    """A legal step drawn at random among the candidate forms, or None when none is legal."""
    forms = list(forms)
    while forms:
        candidate, action = _drawn(forms, rng)
        choices = list(positioned(world, candidate, action))
        while choices:
            step = _completed(world, state, _drawn(choices, rng), lambda members: tuple(rng.sample(members, len(members))))
            if step is not None:
                return step
    return None


def _completed(world: World, state: GameState, action: Action, order_of) -> Step | None:
    """The step of the action with each pile it rearranges in the order `order_of(members)` gives
    (top first), or None when that is illegal. (`explicit.outcomes` gives every order: a shuffle of
    eight cards has 40,320.)"""
    order: dict[str, tuple[int, ...]] = {}
    while True:
        completed = replace(action, order=tuple(order.items())) if order else action
        try:
            outcome = apply(world, state, completed)
        except OrderMissing as missing:
            if missing.key in order:
                return None
            order[missing.key] = order_of(missing.members)
            continue
        except IllegalAction:
            return None
        return Step(completed, outcome.state, outcome.rules)


def _drawn(items: list, rng: random.Random):
    """An item taken out of `items` at random."""
    i = rng.randrange(len(items))
    items[i], items[-1] = items[-1], items[i]
    return items.pop()


def _trace(space: StateSpace, world: World, name: str, prop: Property | None, steps: list[Step], seed: int) -> Trace:
    """The run as check writes a counterexample; for a rule's witness (no `prop`), a trace of
    the rule's name with no property."""
    return Trace(
        **of_ruleset(space.ruleset),
        property_id=name, property_cites=prop.cites if prop else (), property_kind=(prop.kind if prop else PropertyKind.STEP).value,
        property_text=prop.text if prop else "",
        scope=space.scope, seed=seed, card_types=world.card_types, initial=space.start_state, steps=tuple(steps),
        violation_step=len(steps),
    )

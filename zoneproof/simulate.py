"""Random runs through the interpreter: cheap witnesses of what a run can reach.

A run starts a game with card types drawn among those the start allows, and at each step takes an
action drawn at random: first its kind, among the kinds with a candidate in the state, then one of
that kind's candidates the interpreter carries out. The runs are seeded, so the same call finds the
same witnesses. A witness is the shortest run found on which a property first fails; it is the
interpreter's own run, so it replays. Runs prove nothing: a property no run violates may still fail.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .evaluate import compile_lazily
from .explicit import SINGLE, TYPES, StateSpace, candidate_forms, outcomes, positioned, types_of
from .interpreter import World, outcome_or_refusal
from .model import ActionKind, GameState, Scope, Step
from .properties import Property, PropertyKind
from .replay import backend_at
from .ruleset import RuleSet
from .trace import Trace, of_ruleset


@dataclass(frozen=True)
class Witness:
    """A run on which a property first fails at `depth` (a state, or the step into it)."""

    depth: int
    trace: Trace


# The runs stop early after this many in a row have found no witness and no shorter one.
STALE_RUNS = 10


def shortest_witnesses(ruleset: RuleSet, scope: Scope, props: list[Property], rules: list[str], runs: int, length: int,
                       seed: int = 0, taking: dict[ActionKind, Property] | None = None) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """For each property some run of at most `length` steps violates, the shortest such run found
    in `runs` runs (fewer when STALE_RUNS in a row find nothing new); and for each rule of `rules`,
    the shortest run whose last step has another outcome without the rule (illegal, or another
    state), at the `depth` of the state it is taken in. `taking` names step properties that a step
    of one kind violates: in every state of a run, a step of that kind is tried too."""
    space = StateSpace(ruleset, scope)
    if space.start is None:
        return {}, {}
    rng = random.Random(seed)
    holds = {p.id: compile_lazily(p, space.slots, space.scope.players) for p in props}
    violated: dict[str, Witness] = {}  # by property id: hashing a property is slow
    changed: dict[str, Witness] = {}
    withouts = {rule_id: ruleset.without([rule_id]) for rule_id in rules}

    def shorter(found: dict, key, k: int) -> bool:
        return key not in found or k < found[key].depth

    stale = 0
    for _ in range(runs):
        before = len(violated) + len(changed), sum(w.depth for w in [*violated.values(), *changed.values()])
        world = space.concrete_world(_drawn_types(space, rng))
        steps, forms = _run(space, world, rng, length)
        states = [space.start_state] + [step.state for step in steps]
        for k, by_kind in enumerate(forms):
            for kind, prop in (taking or {}).items():
                if shorter(violated, prop.id, k + 1) and kind in by_kind:
                    step = _step_of(world, states[k], list(by_kind[kind]), rng)
                    if step is not None and not holds[prop.id](backend_at(world, prop, space.start_state, (*steps[:k], step), k + 1)):
                        violated[prop.id] = Witness(k + 1, _trace(space, world, prop.id, prop, [*steps[:k], step], seed))
        for prop in props:
            for k in range(0 if prop.kind is PropertyKind.ALWAYS else 1, len(steps) + 1):
                if not shorter(violated, prop.id, k):
                    break
                if not holds[prop.id](backend_at(world, prop, space.start_state, steps, k)):
                    violated[prop.id] = Witness(k, _trace(space, world, prop.id, prop, steps[:k], seed))
                    break
        for rule_id in rules:
            without = replace(world, ruleset=withouts[rule_id])
            for k in range(len(steps)):
                if not shorter(changed, rule_id, k):
                    break
                if outcome_or_refusal(without, states[k], steps[k].action) != steps[k].state:
                    changed[rule_id] = Witness(k, _trace(space, world, rule_id, None, steps[:k + 1], seed))
                    break
        after = len(violated) + len(changed), sum(w.depth for w in [*violated.values(), *changed.values()])
        stale = stale + 1 if after == before else 0
        if stale >= STALE_RUNS:
            break
    return {p: violated[p.id] for p in props if p.id in violated}, changed


def _drawn_types(space: StateSpace, rng: random.Random) -> tuple:
    allowed = space.start.types
    return tuple(SINGLE[1 << rng.choice([i for i in range(len(TYPES)) if types_of(allowed, s) >> i & 1])] for s in range(len(space.slots)))


def _run(space: StateSpace, world: World, rng: random.Random, length: int) -> tuple[list[Step], list[dict]]:
    """A random run of at most `length` steps, and the candidates of each state it passes (the
    last one's too), by kind."""
    state, steps, forms = space.start_state, [], []
    while True:
        by_kind: dict = {}
        for candidate, action in candidate_forms(world, state, space.space):
            by_kind.setdefault(action.kind, []).append((candidate, action))
        forms.append(by_kind)
        if len(steps) == length:
            return steps, forms
        kinds = dict(by_kind)
        taken = None
        while kinds and taken is None:
            taken = _step_of(world, state, list(kinds.pop(rng.choice(list(kinds)))), rng)
        if taken is None:
            return steps, forms
        steps.append(taken)
        state = taken.state


def _step_of(world: World, state: GameState, forms: list, rng: random.Random) -> Step | None:
    """A legal step drawn at random among the candidate forms, or None when none is legal."""
    rng.shuffle(forms)
    for candidate, action in forms:
        choices = list(positioned(world, candidate, action))
        rng.shuffle(choices)
        for choice in choices:
            legal = outcomes(world, state, choice)
            if legal:
                action, outcome = rng.choice(legal)
                return Step(action, outcome.state, outcome.rules)
    return None


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

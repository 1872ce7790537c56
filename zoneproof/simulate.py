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
from .interpreter import IllegalAction, World, apply
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


def shortest_witnesses(ruleset: RuleSet, scope: Scope, props: list[Property], rules: list[str], runs: int, length: int,
                       seed: int = 0, taking: dict[ActionKind, Property] | None = None) -> tuple[dict[Property, Witness], dict[str, Witness]]:
    """For each property some run of at most `length` steps violates, the shortest such run found
    in `runs` runs; and for each rule of `rules`, the shortest run whose last step has another
    outcome without the rule (illegal, or another state), at the `depth` of the state it is taken in.
    `taking` names step properties that a step of one kind violates: in every state of a run, a
    step of that kind is tried too."""
    space = StateSpace(ruleset, scope)
    if space.start is None:
        return {}, {}
    rng = random.Random(seed)
    holds = {p: compile_lazily(p, space.slots, space.scope.players) for p in props}
    violated: dict[Property, Witness] = {}
    changed: dict[str, Witness] = {}
    for _ in range(runs):
        world = space.concrete_world(_drawn_types(space, rng))
        steps = _run(space, world, rng, length)
        for kind, prop in (taking or {}).items():
            known = violated.get(prop)
            for k in range(min(len(steps) + 1, (known.depth if known else length + 1) - 1)):
                step = _random_step(space, world, steps[k - 1].state if k else space.start_state, rng, kind)
                if step is not None and not holds[prop](backend_at(world, prop, space.start_state, (*steps[:k], step), k + 1)):
                    violated[prop] = Witness(k + 1, _trace(space, world, prop.id, prop, [*steps[:k], step], seed))
                    break
        for prop in props:
            known = violated.get(prop)
            first = 0 if prop.kind is PropertyKind.ALWAYS else 1
            for k in range(first, min(len(steps) + 1, known.depth if known else length + 1)):
                if not holds[prop](backend_at(world, prop, space.start_state, steps, k)):
                    violated[prop] = Witness(k, _trace(space, world, prop.id, prop, steps[:k], seed))
                    break
        for rule_id in rules:
            known = changed.get(rule_id)
            without = replace(world, ruleset=ruleset.without([rule_id]))
            for k in range(min(len(steps), known.depth if known else length)):
                before = steps[k - 1].state if k else space.start_state
                if _outcome(without, before, steps[k].action) != steps[k].state:
                    changed[rule_id] = Witness(k, _trace(space, world, rule_id, None, steps[:k + 1], seed))
                    break
    return violated, changed


def _outcome(world: World, state: GameState, action) -> GameState | None:
    try:
        return apply(world, state, action).state
    except IllegalAction:
        return None


def _drawn_types(space: StateSpace, rng: random.Random) -> tuple:
    allowed = space.start.types
    return tuple(SINGLE[1 << rng.choice([i for i in range(len(TYPES)) if types_of(allowed, s) >> i & 1])] for s in range(len(space.slots)))


def _run(space: StateSpace, world: World, rng: random.Random, length: int) -> list[Step]:
    state, steps = space.start_state, []
    for _ in range(length):
        taken = _random_step(space, world, state, rng)
        if taken is None:
            break
        steps.append(taken)
        state = taken.state
    return steps


def _random_step(space: StateSpace, world: World, state: GameState, rng: random.Random, kind: ActionKind | None = None) -> Step | None:
    """A legal step drawn at random (of `kind` only, where given), or None when there is none."""
    by_kind: dict = {}
    for candidate, action in candidate_forms(world, state, space.space):
        if kind is None or action.kind is kind:
            by_kind.setdefault(action.kind, []).append((candidate, action))
    while by_kind:
        forms = by_kind.pop(rng.choice(list(by_kind)))
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

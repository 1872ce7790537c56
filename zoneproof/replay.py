"""Re-execute a trace in the interpreter: every state compared, the property evaluated at every step."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from pathlib import Path

from .errors import InputError
from .evaluate import ConcreteBackend, evaluate, falsifying_bindings
from .interpreter import IllegalAction, World, apply, check_initial
from .model import PLAYER_NAMES, Action, GameState, Step
from .properties import Property, PropertyKind, Sort, parse_properties
from .ruleset import RuleSet, builtin_file, load_ruleset
from .trace import Trace, read_trace


@dataclass(frozen=True)
class Replay:
    """The outcome of re-executing a trace.

    `mismatch` names the first step and value where the interpreter disagrees with the recorded
    trace (None when every state matches). `violation_step` is the first state at which the
    interpreter finds the property false (None when it never is).
    """

    steps: tuple[Step, ...]
    mismatch: str | None
    violation_step: int | None

    def confirms(self, recorded_step: int) -> bool:
        return self.mismatch is None and self.violation_step == recorded_step


def backend_at(world: World, prop: Property, initial: GameState, steps: tuple[Step, ...], index: int) -> ConcreteBackend:
    states = [initial] + [s.state for s in steps]
    if prop.kind is PropertyKind.ALWAYS:
        return ConcreteBackend(world.slots, world.card_types, states[index], ruleset=world.ruleset, hand=world.hand,
                               hand_modifiers=world.hand_modifiers, team_size=world.team_size)
    return ConcreteBackend(world.slots, world.card_types, states[index - 1], steps[index - 1].action, states[index], world.ruleset, world.hand,
                          world.hand_modifiers, world.team_size)


def first_violation(world: World, prop: Property, initial: GameState, steps: tuple[Step, ...]) -> int | None:
    """The first state index at which the property fails, or None."""
    start = 0 if prop.kind is PropertyKind.ALWAYS else 1
    for index in range(start, len(steps) + 1):
        if not evaluate(prop, backend_at(world, prop, initial, steps, index), world.slots, world.players):
            return index
    return None


def witness_bindings(world: World, prop: Property, initial: GameState, steps: tuple[Step, ...], index: int) -> list[tuple[tuple[str, Sort, int], ...]]:
    """Each binding of the property's outer `forall` that fails at state `index`, as (variable, sort,
    value) triples: the value is a player for Sort.PLAYER, else a slot."""
    backend = backend_at(world, prop, initial, steps, index)
    sorts = dict(prop.expr.binders) if hasattr(prop.expr, "binders") else {}
    return [
        tuple((name, sorts[name], value) for name, value in env.items())
        for env in falsifying_bindings(prop, backend, world.slots, world.players)
    ]


def witnesses(world: World, prop: Property, initial: GameState, steps: tuple[Step, ...], index: int) -> list[str]:
    """`c = A2` for each binding of the property's outer `forall` that fails at state `index`."""
    return [
        ", ".join(f"{name} = {PLAYER_NAMES[value] if sort is Sort.PLAYER else world.slots[value].name}" for name, sort, value in binding)
        for binding in witness_bindings(world, prop, initial, steps, index)
    ]


def execute(world: World, initial: GameState, actions: list[Action], recorded: list[GameState] | None = None,
            recorded_rules: list[tuple[str, ...]] | None = None, parts: frozenset | None = None) -> tuple[tuple[Step, ...], str | None]:
    """Run the actions in the interpreter; compare with the recorded states (and rules) where given:
    only the `parts` of a slice (see encode.slicing) where given."""
    try:
        check_initial(world, initial)
    except IllegalAction as e:
        return (), f"state 0: {e}"
    steps: list[Step] = []
    state = initial
    for index, action in enumerate(actions, start=1):
        try:
            outcome = apply(world, state, action)
        except IllegalAction as e:
            return tuple(steps), f"step {index} ({action.kind.value}) is illegal here: {e}"
        step = Step(action, outcome.state, outcome.rules)
        steps.append(step)
        if recorded is not None:
            difference = state_difference(world, recorded[index - 1], outcome.state, parts)
            if difference:
                return tuple(steps), f"step {index} ({action.kind.value}): {difference}"
        if recorded_rules is not None and tuple(recorded_rules[index - 1]) != outcome.rules:
            return tuple(steps), (
                f"step {index} ({action.kind.value}): the trace records rules {list(recorded_rules[index - 1])},"
                f" the interpreter applied {list(outcome.rules)}"
            )
        state = outcome.state
    return tuple(steps), None


def state_difference(world: World, recorded: GameState, actual: GameState, parts: frozenset | None = None) -> str | None:
    """The first value that differs (of the `parts` where given: `pos` is part of the order); the
    player records count only under a rule set that keeps them."""
    compared = lambda name: parts is None or (name if name != "pos" else "order") in parts  # noqa: E731
    if world.ruleset.tracks_players:
        if recorded.started != actual.started and compared("started"):
            return f"started is {recorded.started} in the trace but {actual.started} in the interpreter"
        for p, (r, a) in enumerate(zip(recorded.players, actual.players)):
            for f in fields(r):
                if getattr(r, f.name) != getattr(a, f.name) and compared(f.name):
                    return f"{PLAYER_NAMES[p]}.{f.name} is {getattr(r, f.name)} in the trace but {getattr(a, f.name)} in the interpreter"
    for slot, r, a in zip(world.slots, recorded.objects, actual.objects):
        for f in fields(r):
            rv, av = getattr(r, f.name), getattr(a, f.name)
            if rv != av and (f.name == "shown" or compared(f.name)):
                if f.name in ("whose", "controller"):
                    rv, av = PLAYER_NAMES[rv], PLAYER_NAMES[av]
                shown = lambda v: v.value if hasattr(v, "value") else v  # noqa: E731
                return f"{slot.name}.{f.name} is {shown(rv)} in the trace but {shown(av)} in the interpreter"
    return None


def ruleset_for_trace(trace: Trace, ruleset_file: str | None = None) -> RuleSet:
    """The rule set a trace was made with (read from `ruleset_file` when given), refusing one whose
    content has changed since. A trace of the older format (no chain) holds the hash of the file's
    bytes rather than of the resolved rule set."""
    recorded = trace.ruleset_name if trace.ruleset_origin == "builtin" else trace.ruleset_origin
    try:
        ruleset = load_ruleset(ruleset_file or recorded)
    except InputError as e:
        if ruleset_file is not None:
            raise
        raise InputError(f"{e.message}; if the rule set file has moved, name it with `zoneproof replay --ruleset FILE`", e.location) from None
    now = ruleset.sha256 if trace.ruleset_chain else _file_sha256(ruleset, trace.ruleset_sha256)
    if now != trace.ruleset_sha256:
        given = f" in {ruleset_file}" if ruleset_file else ""
        raise InputError(
            f"the trace was made with another version of rule set '{trace.ruleset_name}'"
            f" (sha256 {trace.ruleset_sha256[:12]}…, now {now[:12]}…{given}); re-run the check to get a new trace",
            None,
        ) from None
    return ruleset.without(trace.removed)


def _file_sha256(ruleset: RuleSet, recorded: str) -> str:
    """The hash a trace of the older format holds: of the rule set file's bytes. (A built-in edition
    that was a complete file before it was rewritten with `extends` no longer has those bytes, and
    every one has changed since: such a trace of it does not replay.)"""
    if ruleset.origin == "builtin":
        return hashlib.sha256(builtin_file(ruleset.name).read_bytes()).hexdigest()
    return hashlib.sha256(Path(ruleset.origin).read_bytes()).hexdigest()


def property_for_trace(trace: Trace, path: str) -> Property:
    props = parse_properties(trace.property_text, f"{path} (#meta.property.text)")
    if len(props) != 1 or props[0].id != trace.property_id:
        raise InputError(f"#meta.property.text does not define exactly the property '{trace.property_id}'", None)
    return props[0]


def replay_trace(trace: Trace, path: str, ruleset_file: str | None = None) -> tuple[Replay, World, Property]:
    ruleset = ruleset_for_trace(trace, ruleset_file)
    prop = property_for_trace(trace, path)
    world = World.of(ruleset, trace.slots, trace.card_types, trace.scope)
    steps, mismatch = execute(
        world,
        trace.initial,
        [s.action for s in trace.steps],
        recorded=[s.state for s in trace.steps],
        recorded_rules=[s.rules for s in trace.steps],
    )
    violation = first_violation(world, prop, trace.initial, steps) if mismatch is None else None
    return Replay(steps, mismatch, violation), world, prop


@dataclass(frozen=True)
class Confirmation:
    """A saved trace replayed: whether the interpreter reproduces every step and the recorded violation."""

    path: str
    trace: Trace
    prop: Property
    world: World
    replay: Replay
    witnesses: tuple[str, ...]  # the failing bindings at the recorded step, when confirmed

    @property
    def problem(self) -> str:
        """Why the trace is not reproduced, or "" when it is."""
        if self.replay.mismatch:
            return self.replay.mismatch
        if self.replay.violation_step != self.trace.violation_step:
            found = "never fails" if self.replay.violation_step is None else f"fails at step {self.replay.violation_step}"
            return f"the trace records a violation at step {self.trace.violation_step}, but {self.prop.id} {found}"
        return ""

    @property
    def confirmed(self) -> bool:
        return not self.problem


def confirm(path, ruleset_file: str | None = None) -> Confirmation:
    """Read a trace file and replay it, under the rule set file given or the one it records (bad
    input raises InputError)."""
    trace = read_trace(path)
    result, world, prop = replay_trace(trace, str(path), ruleset_file)
    found = ()
    if result.confirms(trace.violation_step):
        found = tuple(witnesses(world, prop, trace.initial, result.steps, trace.violation_step))
    return Confirmation(str(path), trace, prop, world, result, found)

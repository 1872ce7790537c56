"""What `zoneproof show` and `zoneproof diff --html` draw, as runs: a trace (a counterexample or a
lint witness), a scenario run through the interpreter, and the two sides of a behaviour difference."""

from __future__ import annotations

import re
from pathlib import Path

from ..check import CheckResult
from ..errors import InputError, Location
from ..interpreter import IllegalAction, World, apply
from ..model import Action, GameState, Step, slots_for
from ..properties import Property, stock_properties
from ..replay import replay_trace, witness_bindings
from ..ruleset import RuleSet
from ..scenario import Scenario, load_scenario, run_scenario
from ..trace import Trace, read_trace
from .board import Finding, Refused, Run

# lint names the probe for a property's trigger `<id>--trigger` (or `--trigger-N` for the N-th of
# several); a witness trace is a counterexample to "the trigger never fires"
TRIGGER_PROBE = re.compile(r"(?P<id>.+)--trigger(-\d+)?")


def load_run(path: Path) -> Run:
    """An ITF trace (`.json`) replayed in the interpreter, or a scenario file (`.toml`) run in it."""
    name = path.name.lower()
    if name.endswith(".json"):
        trace = read_trace(path)
        replayed, world, prop = replay_trace(trace, str(path))
        problem = replayed.mismatch or ""
        if not problem and replayed.violation_step != trace.violation_step:
            found = "never fails" if replayed.violation_step is None else f"fails at step {replayed.violation_step}"
            problem = f"the trace records a violation at step {trace.violation_step}, but in the interpreter {prop.id} {found}"
        return trace_run(trace, world, prop, problem)
    if name.endswith(".toml"):
        return scenario_run(load_scenario(path))
    raise InputError("give an ITF trace (.itf.json) or a scenario file (.toml)", Location(str(path)))


def ruleset_text(ruleset: RuleSet) -> str:
    return ruleset.name + (f" without {', '.join(ruleset.removed)}" if ruleset.removed else "")


def trace_run(trace: Trace, world: World, prop: Property, problem: str = "") -> Run:
    """A counterexample, or a lint witness (a counterexample to "the trigger never fires")."""
    bindings = tuple(witness_bindings(world, prop, trace.initial, trace.steps, trace.violation_step))
    probe = TRIGGER_PROBE.fullmatch(prop.id)
    if probe:
        watched = next((p for p in stock_properties() if p.id == probe["id"]), None)
        finding = Finding(trace.violation_step, "witness", probe["id"], watched.meaning if watched else "", prop.cites, prop.text, bindings)
        title = f"lint witness: a trigger of {probe['id']} fires under {ruleset_text(world.ruleset)}"
    else:
        finding = Finding(trace.violation_step, "violation", prop.id, prop.meaning, prop.cites, prop.text, bindings)
        title = f"counterexample to {prop.id} under {ruleset_text(world.ruleset)}"
    return Run(title, world, trace.initial, trace.steps, (finding,), problem=problem, note=f"seed {trace.seed}")


def result_run(r: CheckResult) -> Run:
    """The counterexample of a check (already replayed by the check)."""
    trace = r.trace
    return trace_run(trace, World.of(r.ruleset, trace.slots, trace.card_types, trace.scope), r.prop)


def interpret(world: World, initial: GameState, actions: list[Action]) -> tuple[Step | Refused, ...]:
    """The actions applied in turn in the interpreter; a refused one leaves the state as it was."""
    steps: list[Step | Refused] = []
    state = initial
    for action in actions:
        try:
            outcome = apply(world, state, action)
        except IllegalAction as e:
            steps.append(Refused(action, str(e)))
            continue
        steps.append(Step(action, outcome.state, outcome.rules))
        state = outcome.state
    return tuple(steps)


def scenario_run(scenario: Scenario) -> Run:
    result = run_scenario(scenario)
    steps = interpret(scenario.world, scenario.start, [s.action for s in scenario.steps])
    if len(result.steps) < len(scenario.steps):  # a step the rules refused, not marked illegal, stopped it
        steps = steps[: len(result.steps) + 1]
    failures = tuple((f.step, f.message) for f in result.failures)
    return Run(f"scenario: {scenario.name}", scenario.world, scenario.start, steps, failures=failures,
               note=f"{scenario.path}; {ruleset_text(scenario.world.ruleset)}")


def behaviour_runs(d, name) -> tuple[Run, Run]:
    """A behaviour difference of `diff` as two runs of the same actions: under the side that allows
    the last step, and under the side that refuses it or ends elsewhere. `name` labels a side."""
    slots = slots_for(d.scope)
    runs = []
    for side in (d.allowing, d.refusing):
        world = World.of(side, slots, d.card_types, d.scope)
        steps = interpret(world, d.initial, [s.action for s in d.steps])
        runs.append(Run(f"under {name(side)}", world, d.initial, steps))
    return runs[0], runs[1]

"""Bounded model checking: deepen one step at a time, so the first counterexample is a shortest one.

A counterexample is replayed in the interpreter before it is returned; one that does not replay is
a checker bug and comes back as verdict ERROR with what differed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum

import z3

from .encoder import Encoding, SymbolicBackend
from .evaluate import evaluate, int_reach
from .interpreter import World
from .model import Scope
from .properties import Property, PropertyKind
from .replay import execute, first_violation, witnesses
from .ruleset import Expectation, RuleSet
from .solver import Answer, SolverResult, check, new_solver
from .trace import Trace


class Verdict(str, Enum):
    VIOLATED = "violated"
    HOLDS = "holds"  # to the depth reached
    UNKNOWN = "unknown"  # Z3 gave no answer in time; never read as holds
    ERROR = "error"  # a counterexample that the interpreter does not reproduce: a checker bug


@dataclass(frozen=True)
class CheckResult:
    ruleset: RuleSet = field(repr=False)
    prop: Property = field(repr=False)
    verdict: Verdict
    depth: int  # the bound reached (holds), the counterexample's length (violated), or where it stopped
    seconds: float
    trace: Trace | None = field(default=None, repr=False, compare=False)
    reason: str = ""  # for UNKNOWN: Z3's reason; for ERROR: what did not replay
    witnesses: tuple[str, ...] = ()  # for VIOLATED: the bindings of the outer forall that fail

    @property
    def expectation(self) -> Expectation | None:
        """What the rule set file expects for this property; None when rules were removed (`--without`)."""
        return self.ruleset.expected(self.prop.id)

    @property
    def as_expected(self) -> bool | None:
        """Whether the verdict is the one expected (None when no expectation applies). An unknown or
        an error is never as expected."""
        e = self.expectation
        return None if e is None else self.verdict.value == e.verdict

    @property
    def counts_against(self) -> bool:
        """A definite verdict that makes the run fail: unexpected, or (without expectations) violated."""
        if self.verdict not in (Verdict.HOLDS, Verdict.VIOLATED):
            return False
        return self.verdict is Verdict.VIOLATED if self.expectation is None else not self.as_expected


class _Unrolling:
    """The transition system unrolled to the depth bound; each step switched on by a flag, so that
    one query can ask for a violation at any step up to a bound."""

    def __init__(self, ruleset: RuleSet, scope: Scope, props: list[Property]):
        bound = Encoding(ruleset, scope).variable_bound()
        self.encoding = Encoding(ruleset, scope, max([int_reach(p, bound) for p in props], default=0))
        e = self.encoding
        self.active = [z3.Bool(f"active@{t}", e.ctx) for t in range(scope.depth)]
        self.facts = e.init() + e.rule_values()
        self.facts += [z3.Implies(self.active[t + 1], self.active[t]) for t in range(scope.depth - 1)]
        self.steps = [z3.Implies(self.active[t], z3.And(e.trans(t))) for t in range(scope.depth)]
        self._violations: dict = {}

    def violation(self, prop: Property, k: int):
        """The property fails at state k (an `always` property) or on the step into state k."""
        key = (prop.id, k)
        if key not in self._violations:
            e = self.encoding
            at = k if prop.kind is PropertyKind.ALWAYS else k - 1
            bad = z3.Not(evaluate(prop, SymbolicBackend(e, at), e.slots, e.players))
            self._violations[key] = z3.And(self.active[k - 1], bad) if k > 0 else bad
        return self._violations[key]

    def first_depth(self, prop: Property) -> int:
        return 0 if prop.kind is PropertyKind.ALWAYS else 1

    def query(self, prop: Property, bound: int, seed: int, timeout_ms: float):
        """Is the property violated at some step up to `bound`?"""
        solver = new_solver(self.encoding.ctx, seed)
        solver.add(self.facts)
        solver.add(self.steps[:bound])
        solver.add(z3.Or([self.violation(prop, k) for k in range(self.first_depth(prop), bound + 1)]))
        return check(solver, [], timeout_ms)

    def violated_at(self, prop: Property, model, bound: int) -> int:
        for k in range(self.first_depth(prop), bound + 1):
            if z3.is_true(model.eval(self.violation(prop, k), model_completion=True)):
                return k
        raise AssertionError("the model satisfies no violation")


def check_properties(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0) -> list[CheckResult]:
    """Check each property to the depth bound; a violation comes back with a shortest counterexample.

    One query asks for a violation at any step up to the bound. When one is found at step k, the
    query is repeated with bound k - 1 until none is left, so the counterexample is a shortest one.
    `timeout` bounds the seconds spent on each property.
    """
    started = time.monotonic()
    unrolling = _Unrolling(ruleset, scope, props)
    setup = time.monotonic() - started
    return [_check_one(unrolling, ruleset, prop, scope, seed, timeout, setup) for prop in props]


def _check_one(unrolling: _Unrolling, ruleset, prop, scope, seed, timeout, setup) -> CheckResult:
    started = time.monotonic() - setup
    elapsed = lambda: time.monotonic() - started  # noqa: E731

    def result(verdict: Verdict, depth: int, trace: Trace | None = None, reason: str = "", found: tuple[str, ...] = ()) -> CheckResult:
        return CheckResult(ruleset, prop, verdict, depth, elapsed(), trace, reason, found)

    bound = scope.depth
    found = None  # (k, model) of the shortest violation so far
    while bound >= unrolling.first_depth(prop):
        remaining_ms = (timeout - elapsed()) * 1000
        answer = check_with_budget(unrolling, prop, bound, seed, remaining_ms)
        if answer.answer is Answer.UNKNOWN:
            reason = "timeout" if answer.reason in ("timeout", "canceled", "budget") else answer.reason
            if found is None:
                return result(Verdict.UNKNOWN, bound, reason=f"{reason} (no violation up to depth {bound} could be ruled out)")
            break
        if answer.answer is Answer.UNSAT:
            break
        k = unrolling.violated_at(prop, answer.model, bound)
        found = (k, answer.model)
        bound = k - 1
    if found is None:
        return result(Verdict.HOLDS, scope.depth)
    k, model = found
    trace, problem = counterexample(unrolling.encoding, model, k, ruleset, prop, scope, seed)
    if problem:
        return result(Verdict.ERROR, k, reason=problem)
    shortest = bound < unrolling.first_depth(prop) or answer.answer is Answer.UNSAT
    world = World(ruleset, trace.slots, trace.card_types, scope.players)
    found = tuple(witnesses(world, prop, trace.initial, trace.steps, k))
    return result(Verdict.VIOLATED, k, trace, "" if shortest else "a shorter counterexample was not ruled out in time", found)


def check_with_budget(unrolling: _Unrolling, prop: Property, bound: int, seed: int, remaining_ms: float):
    if remaining_ms <= 0:
        return SolverResult(Answer.UNKNOWN, reason="budget")
    return unrolling.query(prop, bound, seed, remaining_ms)


def counterexample(encoding: Encoding, model, k: int, ruleset: RuleSet, prop: Property, scope: Scope, seed: int):
    """(trace, None) for a model that replays in the interpreter, else (None, what went wrong)."""
    card_types, states, actions = encoding.decode(model, k)
    world = World(ruleset, encoding.slots, card_types, scope.players)
    steps, mismatch = execute(world, states[0], actions, recorded=states[1:])
    if mismatch:
        return None, f"the counterexample found by Z3 does not replay in the interpreter: {mismatch}"
    violation = first_violation(world, prop, states[0], steps)
    if violation != k:
        return None, (
            f"the interpreter evaluates {prop.id} to false at step {violation}, not at step {k} where Z3 found"
            " the violation"
        )
    trace = Trace(
        ruleset_name=ruleset.name,
        ruleset_origin=ruleset.origin,
        ruleset_sha256=ruleset.sha256,
        removed=ruleset.removed,
        property_id=prop.id,
        property_cites=prop.cites,
        property_kind=prop.kind.value,
        property_text=prop.text,
        scope=scope,
        seed=seed,
        card_types=card_types,
        initial=states[0],
        steps=steps,
        violation_step=k,
    )
    return trace, None

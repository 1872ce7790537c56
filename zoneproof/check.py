"""Bounded model checking: deepen one step at a time, so the first counterexample is a shortest one.

A counterexample is replayed in the interpreter before it is returned; one that does not replay is
a checker bug and comes back as verdict ERROR with what differed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import partial

import z3

from . import progress
from .encode.backend import SymbolicBackend
from .encode.system import TransitionSystem
from .encode.variables import Codes
from .errors import CheckerBug, Interrupted
from .evaluate import evaluate, int_reach
from .interpreter import World
from .model import Scope, slots_for
from .properties import Property, PropertyKind
from .replay import execute, first_violation, witnesses
from .ruleset import Expectation, RuleSet
from .solver import Answer, SolverResult, check, isolated, new_solver
from .terms import And, Implies, Not, Or
from .search import INDUCTION_SPAN, Budget, Deepening, Outcome, first_step, inductive, violation_alone
from .trace import Trace


class Verdict(str, Enum):
    VIOLATED = "violated"
    HOLDS = "holds"  # to the depth reached
    UNKNOWN = "unknown"  # Z3 gave no answer in time; never read as holds
    ERROR = "error"  # a counterexample that the interpreter does not reproduce: a checker bug
    VACUOUS = "vacuous"  # holds, but lint found that the property's trigger never fires within the scope


@dataclass(frozen=True)
class CheckResult:
    ruleset: RuleSet = field(repr=False)
    prop: Property = field(repr=False)
    verdict: Verdict
    depth: int  # the bound reached (holds), the counterexample's length (violated), or the depth completed (unknown; -1: none)
    seconds: float
    trace: Trace | None = field(default=None, repr=False, compare=False)
    reason: str = ""  # for UNKNOWN: Z3's reason; for ERROR: what did not replay
    witnesses: tuple[str, ...] = ()  # for VIOLATED: the bindings of the outer forall that fail
    inductive: bool = False  # for HOLDS: proved by induction, so it holds at every depth, not only to `depth`

    @property
    def expectation(self) -> Expectation | None:
        """What the rule set file expects for this property; None when rules were removed (`--without`)."""
        return self.ruleset.expected(self.prop.id)

    @property
    def as_expected(self) -> bool | None:
        """Whether the verdict is the one expected (None when no expectation applies). An unknown or
        an error is never as expected."""
        e = self.expectation
        if e is None:
            return None
        if e.verdict == "vacuous":  # vacuous within the default scope; a larger one may make it fire
            return self.verdict in (Verdict.VACUOUS, Verdict.HOLDS)
        return self.verdict.value == e.verdict

    @property
    def counts_against(self) -> bool:
        """A definite verdict that makes the run fail: unexpected, or (without expectations) violated."""
        if self.verdict not in (Verdict.HOLDS, Verdict.VIOLATED, Verdict.VACUOUS):
            return False
        if self.expectation is None:
            return self.verdict in (Verdict.VIOLATED, Verdict.VACUOUS)
        return not self.as_expected


# What one Z3 question of a check may cost, in Z3's resource units (see solver.check).
DEFAULT_RLIMIT = 4_000_000_000
# The least depth bound at which induction is tried: below it the bounded check to the full depth
# costs less than the induction questions (see the README's Speed section).
INDUCTION_FROM_DEPTH = 4
# The share of the time left that the induction queries may take: when they get no answer, the
# bounded check still has the rest.
INDUCTION_SHARE = 0.25


class Unrolling:
    """The transition system unrolled to the depth bound; each step switched on by a flag, so that
    one query can ask for a goal at any step up to a bound."""

    def __init__(self, ruleset: RuleSet, scope: Scope, props: list[Property] = (), rules_as_facts: bool = True):
        """With `rules_as_facts` false the rule literals are left open: each query passes the rules
        in force as assumptions (`rule_assumptions`), so one solver serves many removals (coverage)."""
        bound = Codes.variable_bound(scope, slots_for(scope))
        self.system = TransitionSystem(ruleset, scope, max([int_reach(p, bound) for p in props], default=0))
        self.depth = scope.depth
        e = self.system
        self.active = [z3.Bool(f"active@{t}", e.ctx) for t in range(scope.depth)]
        self.rules = e.rule_values() if rules_as_facts else []
        self.facts = e.init() + self.rules
        self.facts += [Implies(self.active[t + 1], self.active[t]) for t in range(scope.depth - 1)]
        self.steps = [Implies(self.active[t], And(e.trans(t))) for t in range(scope.depth)]
        self._violations: dict = {}
        self._goals = 0

    def violation(self, prop: Property, k: int):
        """The property fails at state k (an `always` property) or on the step into state k."""
        key = (prop.id, k)
        if key not in self._violations:
            e = self.system
            at = k if prop.kind is PropertyKind.ALWAYS else k - 1
            bad = Not(evaluate(prop, SymbolicBackend(e, at), e.slots, e.players))
            self._violations[key] = And(self.active[k - 1], bad) if k > 0 else bad
        return self._violations[key]

    def reached(self, k: int, goal):
        """The first k steps are taken and the goal holds of state k."""
        return And(self.active[k - 1], goal) if k > 0 else goal

    def before_step(self, k: int, goal):
        """The first k steps are taken and step k is not, so the goal may speak of step k's free
        variables (an action and a next state that the transition relation does not constrain)."""
        taken = [self.active[k - 1]] if k > 0 else []
        return And(*taken, Not(self.active[k]), goal)

    def rule_assumptions(self, ruleset: RuleSet) -> list:
        """The rule literals' values for `ruleset` (this file with some rules removed)."""
        e = self.system
        return [Not(lit) if rule_id in ruleset.removed else lit for rule_id, lit in e.rule_literal.items()]

    def query(self, goal_at: Callable[[int], z3.BoolRef], first: int, bound: int, seed: int, timeout_ms: float,
              solver: z3.Solver | None = None, assumptions: tuple = ()) -> SolverResult:
        """Does goal_at(k) hold for some k in first..bound? With `solver` (from `incremental`), the
        goal is added under a fresh assumption, so that one solver serves many small queries;
        `assumptions` are passed along with it."""
        if timeout_ms <= 0:
            return SolverResult(Answer.UNKNOWN, reason="budget")
        progress.at_depth(bound)
        goal = Or([goal_at(k) for k in range(first, bound + 1)])
        if solver is not None:
            self._goals += 1
            flag = z3.Bool(f"goal#{self._goals}", self.system.ctx)
            solver.add(Implies(flag, goal))
            return check(solver, [flag, *assumptions], timeout_ms)
        solver = new_solver(self.system.ctx, seed)
        solver.add(self.facts)
        solver.add(self.steps[:bound] if bound < self.depth else self.steps)
        solver.add(goal)
        return check(solver, [], timeout_ms)

    def inductive(self, props: list[Property], seed: int, deadline: float, assumptions: tuple = ()) -> list[Property]:
        """The properties among `props` that induction proves to hold at every depth, once a bounded
        check shows them to hold to depth INDUCTION_SPAN + 1 (the base case, left to the caller);
        none below a depth bound of INDUCTION_FROM_DEPTH.

        The query: assume every property on INDUCTION_SPAN consecutive states (or steps) of any run
        whatever its first state, reachable or not; can one of them fail on the next? Unsat proves
        them all. The run starts at state 1, so that its steps are shaped like every step after the
        first (step 0 has no step before it; that step is the base case's). A model drops the
        properties it makes fail, and the rest are asked again; with no answer within
        INDUCTION_SHARE of the time left before the deadline, none is proved. The query runs in a
        Z3 context of its own: the unrolling's own searches, and so the counterexamples they find,
        stay as they would be without it."""
        last = INDUCTION_SPAN + 2  # the state (or the step into the state) the induction concludes about
        if self.depth < max(last, INDUCTION_FROM_DEPTH) or not props:
            return []
        solver, copy = isolated(seed)
        solver.add([copy(f) for f in [*self.rules, *assumptions, *self.active[:last], *self.steps[1:last]]])
        assumed = {p.id: [copy(self.violation(p, k)) for k in range(first_step(p) + 1, last)] for p in props}
        concluded = {p.id: copy(self.violation(p, last)) for p in props}
        stop = time.monotonic() + (deadline - time.monotonic()) * INDUCTION_SHARE
        pending = list(props)
        while pending:
            solver.push()
            solver.add([Not(v) for p in pending for v in assumed[p.id]])
            solver.add(Or([concluded[p.id] for p in pending]))
            answer = check(solver, [], (stop - time.monotonic()) * 1000)
            solver.pop()
            if answer.answer is Answer.UNSAT:
                return pending
            if answer.answer is Answer.UNKNOWN:
                return []
            pending = [p for p in pending if not z3.is_true(answer.model.eval(concluded[p.id], model_completion=True))]
        return []

    def incremental(self, seed: int) -> z3.Solver:
        """A solver holding the whole unrolling, for many queries that are each quick (lint)."""
        solver = new_solver(self.system.ctx, seed)
        solver.add(self.facts)
        solver.add(self.steps)
        return solver

    def shortest(self, goal_at: Callable[[int], z3.BoolRef], first: int, bound: int, seed: int, deadline: float,
                 solver: z3.Solver | None = None, assumptions: tuple = ()) -> "Search":
        """The least k in first..bound where goal_at(k) can hold, with its model. One query asks for
        any k up to the bound; when one is found at k, the query is repeated with bound k - 1."""
        found = None  # (k, model) of the least k so far
        while bound >= first:
            answer = self.query(goal_at, first, bound, seed, (deadline - time.monotonic()) * 1000, solver, assumptions)
            if answer.answer is Answer.UNKNOWN:
                reason = "timeout" if answer.reason in ("timeout", "canceled", "budget") else answer.reason
                return Search(found, least=False, unknown=reason, completed=first - 1)
            if answer.answer is Answer.UNSAT:
                return Search(found, least=True)
            k = next(k for k in range(first, bound + 1) if z3.is_true(answer.model.eval(goal_at(k), model_completion=True)))
            found = (k, answer.model)
            bound = k - 1
        return Search(found, least=True)


@dataclass(frozen=True)
class Search:
    found: tuple | None  # (k, model), or None when no k was found
    least: bool  # no smaller k is possible (or, with nothing found, none at all up to the bound)
    unknown: str = ""  # why the search stopped without an answer
    completed: int = -1  # with `unknown`: the goal holds at no k up to this one (first - 1: nothing is known)


def check_properties(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0) -> list[CheckResult]:
    """Check each property to the depth bound; a violation comes back with a shortest counterexample.
    An interrupt raises Interrupted with the results finished before it, in the order of `props`.

    See each_checked for how.
    """
    results: list[CheckResult] = []
    try:
        results.extend(each_checked(ruleset, props, scope, seed, timeout))
    except Interrupted as e:
        raise Interrupted((*results, *e.known)) from e
    return results


def each_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0,
                 rlimit: int = DEFAULT_RLIMIT) -> Iterator[CheckResult]:
    """The results of check_properties one by one, in the order of `props`.

    Induction first tries to prove the properties the rule set expects to hold at every depth
    (`search.inductive`); then one deepening (`search.Deepening`) looks for the first violation of
    every property, to the depth bound, or to the base case of those induction proved. A property
    the base case finds violated (or cannot decide) leaves the others of the induction to be proved
    again without it. Each violation found is asked again in a Z3 context of its own for its
    counterexample, which is then replayed in the interpreter. Every question may use `rlimit` of
    Z3's resource units, and `timeout` seconds. An interrupt raises Interrupted (the results not
    yet given are not known: they all come from the one search)."""
    try:
        yield from _each_checked(ruleset, props, ruleset.scope_for(scope), seed, timeout, rlimit)
    except Interrupted:
        raise
    except KeyboardInterrupt as e:
        raise Interrupted(()) from e


def _each_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float, rlimit: int) -> Iterator[CheckResult]:
    started = time.monotonic()
    progress.working_on(ruleset.label, f"{len(props)} properties")
    budget = lambda: Budget(rlimit, time.monotonic() + timeout)  # noqa: E731
    system = TransitionSystem(ruleset, scope, max([int_reach(p, Codes.variable_bound(scope, slots_for(scope))) for p in props], default=0))
    facts = system.rule_values()
    base = min(scope.depth, INDUCTION_SPAN + 1)
    candidates = [p for p in props if _expected_to_hold(ruleset, p)] if scope.depth >= INDUCTION_FROM_DEPTH else []
    try:
        proved = set(inductive(system, candidates, seed, facts, budget()))
        deepening = Deepening(system, seed, facts)
        outcomes = deepening.first_violations({p: base if p in proved else scope.depth for p in props}, budget())
        while True:
            failed = {p for p in proved if outcomes[p].violated or outcomes[p].unknown}
            if not failed:
                break
            still = set(inductive(system, [p for p in proved if p not in failed], seed, facts, budget()))
            dropped = proved - failed - still
            proved = still
            outcomes |= deepening.first_violations({p: scope.depth for p in dropped}, budget(), start=base + 1)
    except CheckerBug as bug:
        for prop in props:
            yield CheckResult(ruleset, prop, Verdict.ERROR, scope.depth, time.monotonic() - started, reason=str(bug))
        return
    except Interrupted as stop:
        raise Interrupted(tuple(_interrupted(ruleset, prop, scope, stop.known.get(prop), time.monotonic() - started) for prop in props)) from stop
    for prop in props:
        yield _result(system, ruleset, prop, scope, seed, facts, outcomes[prop], prop in proved, time.monotonic() - started, budget)


def _interrupted(ruleset: RuleSet, prop: Property, scope: Scope, outcome: Outcome | None, seconds: float) -> CheckResult:
    """What the deepening knew of a property when an interrupt stopped it."""
    if outcome is not None and outcome.violated:
        return CheckResult(ruleset, prop, Verdict.UNKNOWN, outcome.depth - 1, seconds,
                           reason=f"interrupted: fails at depth {outcome.depth}, before its counterexample was extracted")
    if outcome is not None and not outcome.unknown and outcome.depth >= scope.depth:
        return CheckResult(ruleset, prop, Verdict.HOLDS, scope.depth, seconds)
    depth = outcome.depth if outcome is not None else -1
    reached = f"no violation up to depth {depth}" if depth >= first_step(prop) else "no depth completed"
    return CheckResult(ruleset, prop, Verdict.UNKNOWN, depth, seconds, reason=f"interrupted: {reached}")


def _result(system: TransitionSystem, ruleset: RuleSet, prop: Property, scope: Scope, seed: int, facts: list, outcome: Outcome,
            proved: bool, seconds: float, budget) -> CheckResult:
    if outcome.unknown:
        reached = f"no violation up to depth {outcome.depth}" if outcome.depth >= first_step(prop) else "no depth completed"
        return CheckResult(ruleset, prop, Verdict.UNKNOWN, outcome.depth, seconds, reason=f"{outcome.unknown}: {reached}")
    if not outcome.violated:
        return CheckResult(ruleset, prop, Verdict.HOLDS, scope.depth, seconds, inductive=proved)
    k = outcome.depth
    answer = violation_alone(system, prop, k, seed, facts, budget())
    if answer.answer is Answer.UNKNOWN:
        return CheckResult(ruleset, prop, Verdict.UNKNOWN, k - 1, seconds,
                           reason=f"{answer.reason}: no violation up to depth {k - 1}; it fails at depth {k}, but its counterexample was not found again alone")
    if answer.answer is not Answer.SAT:
        return CheckResult(ruleset, prop, Verdict.ERROR, k, seconds, reason=f"{prop.id} fails at depth {k} in one question and not when asked alone")
    trace, problem = counterexample(system, answer.model, k, ruleset, prop, scope, seed)
    if problem:
        return CheckResult(ruleset, prop, Verdict.ERROR, k, seconds, reason=problem)
    world = World.of(ruleset, trace.slots, trace.card_types, scope)
    return CheckResult(ruleset, prop, Verdict.VIOLATED, k, seconds, trace, "", tuple(witnesses(world, prop, trace.initial, trace.steps, k)))


def _expected_to_hold(ruleset: RuleSet, prop: Property) -> bool:
    """Holds or vacuous, as the rule set file expects; with no expectation (`--without`), holds."""
    expected = ruleset.expected(prop.id)
    return expected is None or expected.verdict != "violated"


def prove_together(unrolling: Unrolling, ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float,
                   setup: float, solver: z3.Solver | None = None) -> dict[str, CheckResult]:
    """Verdict HOLDS, keyed by property id, for the properties proved to hold together: those
    induction proves (`Unrolling.inductive`) in one query for the base case, the others in one
    query to the depth bound. A model of a violation drops the properties it violates (each is
    then checked on its own, for its shortest counterexample) and the query is asked again for the
    rest; when no answer comes within `timeout` seconds in all, none of them is proved. `seconds`
    of each is the time of these queries plus `setup`, the time of the unrolling, which counts
    against `timeout`. With `solver` (from `Unrolling.incremental`), the bounded queries are asked
    of it."""
    started = time.monotonic() - setup
    try:
        return _prove_together(unrolling, ruleset, props, scope, seed, started, started + timeout, solver)
    except CheckerBug as bug:
        return {p.id: CheckResult(ruleset, p, Verdict.ERROR, scope.depth, time.monotonic() - started, reason=str(bug)) for p in props}


def _prove_together(unrolling: Unrolling, ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, started: float,
                    deadline: float, solver: z3.Solver | None) -> dict[str, CheckResult]:
    candidates = list(props)
    while True:
        # Each property's induction step assumes all the others: the step proves the group only
        # when the base case holds for every one of them. A property the base case drops (or all,
        # without an answer) leaves the others to be proved again without it.
        by_induction = unrolling.inductive(candidates, seed, deadline)
        base = _hold_together(unrolling, by_induction, min(scope.depth, INDUCTION_SPAN + 1), seed, deadline, solver)
        if len(base) == len(by_induction):
            break
        candidates = [p for p in candidates if p in base or p not in by_induction]
    decided = {p.id: CheckResult(ruleset, p, Verdict.HOLDS, scope.depth, time.monotonic() - started, inductive=True) for p in base}
    others = [p for p in candidates if p not in by_induction]
    held = _hold_together(unrolling, others, scope.depth, seed, deadline, solver)
    return decided | {p.id: CheckResult(ruleset, p, Verdict.HOLDS, scope.depth, time.monotonic() - started) for p in held}


def _hold_together(unrolling: Unrolling, props: list[Property], bound: int, seed: int, deadline: float,
                   solver: z3.Solver | None) -> list[Property]:
    """The properties that one query shows to hold together to the bound (see prove_together)."""
    pending = list(props)
    while pending:
        goal_at = partial(_any_violation, unrolling, tuple(pending))
        first = min(first_step(p) for p in pending)
        if first > bound:  # no state or step to check (a depth bound of 0 and step properties only)
            return pending
        answer = unrolling.query(goal_at, first, bound, seed, (deadline - time.monotonic()) * 1000, solver)
        if answer.answer is Answer.UNKNOWN:
            return []
        if answer.answer is Answer.UNSAT:
            return pending
        still = [p for p in pending if not _violated_in(answer.model, unrolling, p, bound)]
        if len(still) == len(pending):
            raise CheckerBug(
                f"Z3's model of a violation of one of {', '.join(p.id for p in pending)} up to depth {bound} violates none of them"
                " when evaluated: the joint proof cannot be trusted"
            )
        pending = still
    return []


def _any_violation(unrolling: Unrolling, props: tuple[Property, ...], k: int):
    return Or([unrolling.violation(p, k) for p in props if k >= first_step(p)])


def _violated_in(model, unrolling: Unrolling, prop: Property, depth: int) -> bool:
    return any(z3.is_true(model.eval(unrolling.violation(prop, k), model_completion=True)) for k in range(first_step(prop), depth + 1))


def check_removals(ruleset: RuleSet, rule_ids: list[str], props: list[Property], scope: Scope, seed: int = 0,
                   timeout: float = 60.0) -> dict[str, list[CheckResult]]:
    """check_properties of `ruleset.without([rule])` for each rule, on one unrolling and one
    incremental solver: the rules in force are assumptions of each query, not facts. An interrupt
    raises Interrupted with the rules checked before it."""
    started = time.monotonic()
    unrolling = Unrolling(ruleset, scope, props, rules_as_facts=False)
    solver = unrolling.incremental(seed)
    setup = time.monotonic() - started
    results = {}
    try:
        for rule_id in rule_ids:
            removed = ruleset.without([rule_id])
            assumptions = tuple(unrolling.rule_assumptions(removed))
            results[rule_id] = [
                _check_one(unrolling, removed, prop, scope, seed, timeout, setup, solver, assumptions) for prop in props
            ]
            setup = 0.0
    except KeyboardInterrupt as e:
        raise Interrupted(results) from e
    return results


def _check_one(unrolling: Unrolling, ruleset, prop, scope, seed, timeout, setup, solver=None, assumptions=()) -> CheckResult:
    progress.working_on(ruleset.label, prop.id)
    started = time.monotonic() - setup
    elapsed = lambda: time.monotonic() - started  # noqa: E731

    def result(verdict: Verdict, depth: int, trace: Trace | None = None, reason: str = "", found: tuple[str, ...] = (),
               inductive: bool = False) -> CheckResult:
        return CheckResult(ruleset, prop, verdict, depth, elapsed(), trace, reason, found, inductive)

    proved = unrolling.inductive([prop], seed, started + timeout, assumptions)
    bound = min(scope.depth, INDUCTION_SPAN + 1) if proved else scope.depth
    search = unrolling.shortest(lambda k: unrolling.violation(prop, k), first_step(prop), bound, seed, started + timeout, solver, assumptions)
    if search.found is None:
        if search.unknown:
            done = search.completed
            reached = f"no violation up to depth {done}" if done >= first_step(prop) else "no depth completed"
            return result(Verdict.UNKNOWN, done, reason=f"{search.unknown}: {reached}; no violation up to depth {bound} could be ruled out")
        return result(Verdict.HOLDS, scope.depth, inductive=bool(proved))
    k, model = search.found
    trace, problem = counterexample(unrolling.system, model, k, ruleset, prop, scope, seed)
    if problem:
        return result(Verdict.ERROR, k, reason=problem)
    world = World.of(ruleset, trace.slots, trace.card_types, scope)
    found = tuple(witnesses(world, prop, trace.initial, trace.steps, k))
    return result(Verdict.VIOLATED, k, trace, "" if search.least else "a shorter counterexample was not ruled out in time", found)


def counterexample(system: TransitionSystem, model, k: int, ruleset: RuleSet, prop: Property, scope: Scope, seed: int):
    """(trace, None) for a model that replays in the interpreter, else (None, what went wrong)."""
    card_types, states, actions = system.decode(model, k)
    world = World.of(ruleset, system.slots, card_types, scope)
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
        ruleset_chain=ruleset.chain,
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

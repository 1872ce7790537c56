"""Compare two rule sets within one scope: the rules that differ, the properties whose verdict flips,
and, for each action kind, a run that one rule set allows and the other forbids.

Behaviours are compared on the product of the two transition relations: both encodings live in one
Z3 context and share their state and step variables, each with its own rule literals. A difference
under "A allows, B forbids" is a run whose steps 0..k-1 both allow, with the same states, and whose
step k A allows and B does not (B refuses the action, or makes it end in another state). Random
runs look for one first (not always a shortest one); one incremental solver per direction answers
for the kinds they miss, one action kind at a time, shortest first.

Every difference is replayed in the interpreter: the run under the side that allows it, state for
state, and its last step under the other side, which must refuse it or end elsewhere. One that does
not replay that way is a checker bug.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import z3

from . import progress
from .batch import Unfinished, in_order
from .check import CheckResult, Verdict, check_properties
from .encode.system import TransitionSystem
from .errors import Interrupted
from .interpreter import IllegalAction, World, apply
from .model import ActionKind, GameState, Scope, Step
from .properties import Property
from .replay import execute, state_difference
from .ruleset import Rule, RuleSet
from .scenario import name_the_refusal, scenario_from_trace
from .proof import invariant, lemmas, unreachable
from .search import INDUCTION_SPAN, Budget, violated_at
from .simulate import RUN_LENGTH, RUNS, differing_runs
from .solver import Answer, new_solver
from .terms import And, Not
from .trace import Trace, of_ruleset


@dataclass(frozen=True)
class RuleDifference:
    rule_id: str
    a: Rule | None  # None: the rule is not in force under A
    b: Rule | None


@dataclass(frozen=True)
class Flip:
    prop: Property = field(repr=False)
    a: CheckResult = field(repr=False)
    b: CheckResult = field(repr=False)

    @property
    def violated(self) -> CheckResult:
        return self.a if self.a.verdict is Verdict.VIOLATED else self.b


@dataclass(frozen=True)
class BehaviourDifference:
    """A run for `kind` that `allowing` allows and `refusing` forbids at its last step (a shortest
    one unless `shortest` says why not)."""

    kind: ActionKind
    scope: Scope = field(repr=False)
    allowing: RuleSet = field(repr=False)
    refusing: RuleSet = field(repr=False)
    card_types: tuple = field(repr=False)
    initial: GameState = field(repr=False)
    steps: tuple[Step, ...] = field(repr=False)  # under `allowing`
    refused: str  # why `refusing` does not allow the last step: "illegal: ..." or what it does instead
    refused_state: GameState | None = field(default=None, repr=False)  # where `refusing` ends instead, if legal
    shortest: str = ""  # "" when no shorter run exists; else why a shorter one was not ruled out


# Why a difference a random run shows may not be a shortest one.
FROM_A_RUN = "a random run, shrunk; no shorter run was looked for"


@dataclass(frozen=True)
class Problem:
    """A search that gave no answer (unknown) or a difference that did not replay (a checker bug)."""

    what: str
    checker_bug: bool


@dataclass
class DiffResult:
    a: RuleSet
    b: RuleSet
    scope: Scope
    rules: list[RuleDifference]
    actions: tuple[list[ActionKind], list[ActionKind]]  # only under A, only under B
    results: list[tuple[CheckResult, CheckResult]]
    behaviours: list[BehaviourDifference]
    problems: list[Problem]
    seconds: float = 0.0
    finished: bool = True  # False: interrupted; the verdicts and differences are those found before it

    @property
    def flips(self) -> list[Flip]:
        definite = (Verdict.HOLDS, Verdict.PROVED, Verdict.VIOLATED)
        return [
            Flip(ra.prop, ra, rb) for ra, rb in self.results
            if ra.verdict in definite and rb.verdict in definite and ra.verdict.holds is not rb.verdict.holds
        ]

    def name(self, ruleset: RuleSet) -> str:
        """The side's label, with `(A)` or `(B)` when both sides have the same label."""
        if self.a.label != self.b.label:
            return ruleset.label
        return f"{ruleset.label} ({'A' if ruleset is self.a else 'B'})"

    @property
    def agree(self) -> bool:
        return self.finished and not self.flips and not self.behaviours


def rule_differences(a: RuleSet, b: RuleSet) -> list[RuleDifference]:
    """Rules in force under one side only, and rules of the same number whose behaviour or zones differ."""
    in_a = {r.id: r for r in a.in_force}
    in_b = {r.id: r for r in b.in_force}
    order = list(in_a) + [i for i in in_b if i not in in_a]
    found = []
    for rule_id in order:
        ra, rb = in_a.get(rule_id), in_b.get(rule_id)
        if ra is None or rb is None or (ra.behaviour, ra.zones) != (rb.behaviour, rb.zones):
            found.append(RuleDifference(rule_id, ra, rb))
    return found


def diff(a: RuleSet, b: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0, jobs: int = 1,
         listener: Callable[[progress.Activity], None] | None = None, scheduler: str | None = None) -> DiffResult:
    """The comparison; the checks of A, those of B and the search for behaviours that differ are
    tasks for up to `jobs` worker processes, or a Dask `scheduler`'s cluster (`batch.in_order`,
    whose workers report their progress to `listener`). An interrupt raises Interrupted with the DiffResult of what was finished before
    it (`finished` false): the verdicts known (unknown where not), the behaviour differences found."""
    started = time.monotonic()
    # One state space for both: commander slots when either is of the Commander variant (in a rule
    # set of the base game a commander slot is an ordinary card that starts in the command zone).
    joint = max(a.scope_for(scope), b.scope_for(scope), key=lambda s: s.commanders)
    tasks = [partial(check_properties, side, props, scope, seed=seed, timeout=timeout) for side in (a, b)]
    tasks.append(partial(behaviour_differences, a, b, joint, seed, timeout))
    done: list = []
    try:
        for task_result in in_order(tasks, jobs, listener, scheduler):
            done.append(task_result)
    except Interrupted as e:
        known = dict(enumerate(done)) | {i: r.known if isinstance(r, Unfinished) else r for i, r in e.known.items()}
        checked = [_checked_before(side, props, scope, known.get(i, ()), time.monotonic() - started) for i, side in enumerate((a, b))]
        behaviours, problems = known.get(2, ([], []))
        raise Interrupted(_result(a, b, joint, checked, list(behaviours), list(problems), started, finished=False)) from e
    checked_a, checked_b, (behaviours, problems) = done
    return _result(a, b, joint, [checked_a, checked_b], behaviours, problems, started)


def _checked_before(ruleset: RuleSet, props: list[Property], scope: Scope, finished, seconds: float) -> list[CheckResult]:
    """The results of one side's checks an interrupt left: those finished, unknown for the others."""
    by_id = {r.prop.id: r for r in finished}
    not_checked = lambda p: CheckResult(ruleset, p, Verdict.UNKNOWN, -1, seconds, reason="interrupted: not checked")  # noqa: E731
    return [by_id.get(p.id) or not_checked(p) for p in props]


def _result(a: RuleSet, b: RuleSet, scope: Scope, checked: list[list[CheckResult]], behaviours: list[BehaviourDifference],
            problems: list[Problem], started: float, finished: bool = True) -> DiffResult:
    kinds_a = [d.kind for d in a.actions]
    kinds_b = [d.kind for d in b.actions]
    actions = ([k for k in kinds_a if k not in kinds_b], [k for k in kinds_b if k not in kinds_a])
    # Results made in a worker process hold copies of the rule sets; the report tells the sides apart by identity.
    side = lambda ruleset: a if ruleset == a else b  # noqa: E731
    results = [(replace(ra, ruleset=a), replace(rb, ruleset=b)) for ra, rb in zip(*checked)]
    behaviours = [replace(d, allowing=side(d.allowing), refusing=side(d.refusing)) for d in behaviours]
    for ra, rb in results:
        for r, ruleset in ((ra, a), (rb, b)):
            if r.verdict is Verdict.ERROR:
                problems.append(Problem(f"{r.prop.id} under {ruleset.label}: {r.reason}", checker_bug=True))
    return DiffResult(a, b, scope, rule_differences(a, b), actions, results, behaviours, problems, time.monotonic() - started, finished)


class _Product:
    """Both transition relations over one set of state and step variables, unrolled to the depth."""

    def __init__(self, a: RuleSet, b: RuleSet, scope: Scope):
        ctx = z3.Context()
        self.scope = scope
        self.enc = {"a": TransitionSystem(a, scope, ctx=ctx, literal_prefix="a:"), "b": TransitionSystem(b, scope, ctx=ctx, literal_prefix="b:")}
        ea, eb = self.enc["a"], self.enc["b"]
        self.ctx = ctx
        self.facts = ea.init() + eb.init() + ea.rule_values() + eb.rule_values()
        self.trans = {side: [z3.And(e.trans(t)) for t in range(scope.depth)] for side, e in self.enc.items()}

    def solver(self, allowing: str, refusing: str, seed: int):
        """A solver for runs whose last step `allowing` allows and `refusing` does not. `differs@t`
        marks that step; every step before it both allow. The assumptions `kind-ok[K]` choose the
        action kinds looked for, and `not differs@t` bounds the length."""
        ctx, depth = self.ctx, self.scope.depth
        e = self.enc[allowing]
        self.last = [z3.Bool(f"differs@{t}", ctx) for t in range(depth)]
        self.kind_ok = {k: z3.Bool(f"kind-ok[{k.value}]", ctx) for k in ActionKind}
        solver = new_solver(ctx, seed)
        solver.add(self.facts)
        for t in range(depth):
            later = z3.Or(self.last[t + 1:]) if t + 1 < depth else z3.BoolVal(False, ctx)
            solver.add(z3.Implies(later, z3.And(self.trans["a"][t], self.trans["b"][t])))
            kind = e.step(t).kind
            chosen = z3.Or([z3.And(kind == e.codes.kind[k], ok) for k, ok in self.kind_ok.items()])
            solver.add(z3.Implies(self.last[t], z3.And(self.trans[allowing][t], z3.Not(self.trans[refusing][t]), chosen)))
        solver.add(z3.Or(self.last))
        return solver


    def kinds(self, wanted) -> list:
        """Assumptions that look for the wanted action kinds only."""
        return [ok if k in wanted else z3.Not(ok) for k, ok in self.kind_ok.items()]


def behaviour_differences(a: RuleSet, b: RuleSet, scope: Scope, seed: int, timeout: float):
    """For each direction and each action kind, a shortest run allowed by one side and not the other.
    An interrupt raises Interrupted with (differences, problems) found before it."""
    progress.working_on(f"{a.label} vs {b.label}", "behaviours")
    found: list[BehaviourDifference] = []
    problems: list[Problem] = []
    if scope.depth == 0:
        return found, problems
    try:
        _behaviour_differences(a, b, scope, seed, timeout, found, problems)
    except KeyboardInterrupt as e:
        raise Interrupted((found, problems)) from e
    return found, problems


def _behaviour_differences(a: RuleSet, b: RuleSet, scope: Scope, seed: int, timeout: float, found: list, problems: list) -> None:
    """behaviour_differences, adding to `found` and `problems` as it goes. For each direction, the
    product is asked first for runs of up to two steps, kind by kind, shortest first; for the kinds
    of which it finds none, random runs look for a longer one (`simulate.differing_runs`: a run,
    shrunk, not always a shortest one); the structural lemmas then prove, where they can, that no
    later step of the kinds left differs (from a state where both rule sets' invariants hold); the
    rest are asked of the product to the depth bound."""
    product = _Product(a, b, scope)
    sides = {"a": a, "b": b}
    shallow = min(scope.depth, INDUCTION_SPAN + 1)
    for allowing, refusing in (("a", "b"), ("b", "a")):
        solver = product.solver(allowing, refusing, seed)
        remaining = _searched(product, solver, allowing, refusing, sides, [d.kind for d in sides[allowing].actions], shallow, timeout,
                              found, problems)
        if not remaining or scope.depth == shallow:
            continue
        runs = differing_runs(sides[allowing], sides[refusing], scope, remaining, RUNS, RUN_LENGTH * scope.depth, seed)
        found.extend(_from_run(w, kind, sides[allowing], sides[refusing]) for kind, w in runs.items() if w.depth < scope.depth)
        remaining = [k for k in remaining if k not in runs or runs[k].depth >= scope.depth]
        alike = _alike_after_the_base(product, allowing, refusing, remaining, seed, timeout) if remaining else set()
        _searched(product, solver, allowing, refusing, sides, [k for k in remaining if k not in alike], scope.depth, timeout, found, problems)


# What one question of the product may cost, in Z3's resource units for each second of `--timeout`:
# fewer than the other questions' (solver.UNITS_PER_SECOND), as Z3 spends them more slowly on the
# product; at the default timeout, more than the questions that find a difference use (docs/diff.md).
PRODUCT_UNITS_PER_SECOND = 2_500_000


def _searched(product: _Product, solver, allowing: str, refusing: str, sides: dict, remaining: list, steps: int, timeout: float,
              found: list, problems: list) -> list[ActionKind]:
    """Asks the product, kind by kind, for a shortest run of at most `steps` steps that `allowing`
    allows and `refusing` does not; returns the kinds it shows none of (unknowns are problems)."""
    remaining = list(remaining)
    within = [z3.Not(x) for x in product.last[steps:]]
    budget = Budget.each(timeout, int(timeout * PRODUCT_UNITS_PER_SECOND))
    while remaining:
        answer = budget.ask(solver, product.kinds(remaining) + within)
        if answer.answer is Answer.UNKNOWN:
            problems.append(Problem(
                f"no answer in time ({answer.reason}) for runs that {sides[allowing].label} allows and"
                f" {sides[refusing].label} forbids (kinds {', '.join(k.value for k in remaining)})", checker_bug=False))
            return []
        if answer.answer is Answer.UNSAT:
            return remaining
        model = answer.model
        e = product.enc[allowing]
        t = _last_step(product, model)
        kind = list(ActionKind)[model.eval(e.step(t).kind, model_completion=True).as_long()]
        not_shortest = ""
        while t > 0:  # shortest first
            shorter = budget.ask(solver, product.kinds([kind]) + [z3.Not(x) for x in product.last[t:]])
            if shorter.answer is Answer.UNKNOWN:
                not_shortest = f"{shorter.reason}: a run shorter than {t + 1} steps was not ruled out"
            if shorter.answer is not Answer.SAT:
                break
            model, t = shorter.model, _last_step(product, shorter.model)
        remaining.remove(kind)
        outcome = _replay(e, model, t, kind, sides[allowing], sides[refusing])
        if isinstance(outcome, Problem):
            problems.append(outcome)
        else:
            found.append(replace(outcome, shortest=not_shortest))
    return []


def _alike_after_the_base(product: _Product, allowing: str, refusing: str, kinds: list[ActionKind], seed: int, timeout: float) -> set:
    """The kinds of which no step from the third on is allowed by `allowing` and not by `refusing`:
    no step from a state where the structural lemmas of both hold (`proof.invariant`, each side's
    own) is, and every state both reach from the start is one. Empty when an invariant or the
    question has no answer."""
    budget = Budget.each(timeout)
    e, other = product.enc[allowing], product.enc[refusing]
    kept = [invariant(side, list(lemmas(side.ruleset)), seed, side.rule_values(), budget) for side in (e, other)]
    if None in kept:
        return set()
    steps = lambda t, kind: And(And(e.trans(t)), Not(And(other.trans(t))), e.step(t).kind == e.codes.kind[kind])  # noqa: E731
    facts = [*e.rule_values(), *other.rule_values(), *[Not(violated_at(other, lemma, t)) for lemma in kept[1] for t in (1, 2)]]
    return unreachable(e, {kind: partial(steps, kind=kind) for kind in kinds}, kept[0], seed, facts, budget)


def _from_run(witness, kind: ActionKind, allowing: RuleSet, refusing: RuleSet) -> BehaviourDifference:
    """The difference a random run shows (`simulate.differing_runs`): it replays under `allowing`,
    and its last step is refused or ends elsewhere under `refusing`."""
    trace = witness.trace
    other = World.of(refusing, trace.slots, trace.card_types, trace.scope)
    before = trace.steps[-2].state if len(trace.steps) > 1 else trace.initial
    try:
        outcome = apply(other, before, trace.steps[-1].action)
    except IllegalAction as err:
        refused, where = f"illegal: {err}", None
    else:
        refused, where = "legal, but ends elsewhere", outcome.state
    return BehaviourDifference(kind, trace.scope, allowing, refusing, trace.card_types, trace.initial, trace.steps, refused, where,
                               shortest=FROM_A_RUN)


def _last_step(product: _Product, model) -> int:
    return next(t for t, x in enumerate(product.last) if z3.is_true(model.eval(x, model_completion=True)))


def _replay(e: TransitionSystem, model, t: int, kind: ActionKind, allowing: RuleSet, refusing: RuleSet):
    """The run in the interpreter under both sides; a BehaviourDifference, or a Problem (checker bug)."""
    card_types, states, actions = e.decode(model, t + 1)
    where = f"the {kind.value} run that {allowing.label} allows and {refusing.label} forbids"
    world = World.of(allowing, e.slots, card_types, e.scope)
    steps, mismatch = execute(world, states[0], actions, recorded=states[1:])
    if mismatch:
        return Problem(f"{where} does not replay under {allowing.label}: {mismatch}", checker_bug=True)
    other = World.of(refusing, e.slots, card_types, e.scope)
    _, mismatch = execute(other, states[0], actions[:-1], recorded=states[1:-1])
    if mismatch:
        return Problem(f"{where}: its first {t} steps do not replay under {refusing.label}: {mismatch}", checker_bug=True)
    try:
        outcome = apply(other, states[-2], actions[-1])
    except IllegalAction as err:
        return BehaviourDifference(kind, e.scope, allowing, refusing, card_types, states[0], steps, f"illegal: {err}")
    difference = state_difference(world, states[-1], outcome.state)
    if difference is None:
        return Problem(f"{where}: the interpreter allows its last step under {refusing.label} too, with the same outcome", checker_bug=True)
    return BehaviourDifference(kind, e.scope, allowing, refusing, card_types, states[0], steps, "legal, but ends elsewhere", outcome.state)


# ---------------------------------------------------------------- a behaviour difference as scenarios


def _as_trace(d: BehaviourDifference, ruleset: RuleSet, steps: tuple[Step, ...]) -> Trace:
    return Trace(
        **of_ruleset(ruleset),
        property_id=d.kind.value, property_cites=(), property_kind="step", property_text="", scope=d.scope, seed=0,
        card_types=d.card_types, initial=d.initial, steps=steps, violation_step=len(steps),
    )


def behaviour_scenarios(d: BehaviourDifference, cites: list[str], folder: Path | None = None) -> tuple[dict, dict]:
    """Two scenario documents for `zoneproof run`: the run under the side that allows it, each step
    with what it changes; and the same run under the side that forbids its last step, which there is
    marked illegal or expected to end where that side puts it."""
    k = len(d.steps)
    allowed = scenario_from_trace(_as_trace(d, d.allowing, d.steps), "", folder)
    allowed["name"] = f"{d.allowing.label} allows this {d.kind.value} at step {k}; {d.refusing.label} does not"
    allowed["cites"] = cites
    if d.refused_state is None:
        refused = scenario_from_trace(_as_trace(d, d.refusing, d.steps[:-1]), "", folder)
        last = {key: value for key, value in scenario_from_trace(_as_trace(d, d.allowing, d.steps), "", folder)["step"][-1].items() if key != "expect"}
        refused["step"].append(last | {"illegal": True})
        name_the_refusal(refused, Path(folder or ".") / f"{d.refusing.label}--refuses-{d.kind.value}.scenario.toml")
    else:
        steps = d.steps[:-1] + (Step(d.steps[-1].action, d.refused_state),)
        refused = scenario_from_trace(_as_trace(d, d.refusing, steps), "", folder)
    refused["name"] = f"{d.refusing.label} does not allow the {d.kind.value} at step {k} that {d.allowing.label} allows"
    refused["cites"] = cites
    return allowed, refused

"""Bounded model checking: deepen one step at a time, so the first counterexample is a shortest one.

A counterexample is replayed in the interpreter before it is returned; one that does not replay is
a checker bug and comes back as verdict ERROR with what differed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from enum import Enum

from . import progress
from .encode.slicing import pregame_only, pregame_system, rules_deciding_each, rules_read, sliced
from .encode.system import TransitionSystem, shared_system
from .encode.variables import Codes
from .errors import CheckerBug, Interrupted
from .evaluate import int_reach
from .explicit import Finding, ReplayMismatch, StateSpace, first_stage
from .interpreter import World
from .model import ActionKind, Scope, slots_for
from .properties import Property, PropertyKind, stock_properties
from .replay import execute, first_violation, witnesses
from .ruleset import Expectation, RuleSet
from .proof import Proof, Then, invariant, lemmas, proved_with, rules_resting, wrap_safe
from .solver import Answer, SolverResult
from .search import (INDUCTION_SPAN, INDUCTION_STEPS, Budget, Deepening, Outcome, Unchanged, assumptions_needed, first_step, violated_at,
                     violation_alone)
from .simulate import RUN_LENGTH, RUNS, Witness, found_witnesses, stored_witnesses
from .store import VIOLATION, Runs
from .trace import Trace, of_ruleset


class Verdict(str, Enum):
    VIOLATED = "violated"
    HOLDS = "holds"  # to the depth reached
    PROVED = "proved"  # at every depth, within the scope's players and cards (see proof.py)
    UNKNOWN = "unknown"  # Z3 gave no answer in time; never read as holds
    ERROR = "error"  # a counterexample that the interpreter does not reproduce: a checker bug
    VACUOUS = "vacuous"  # holds, but lint found that the property's trigger never fires within the scope

    @property
    def holds(self) -> bool:
        """No violation: to the depth bound, or at every depth."""
        return self in (Verdict.HOLDS, Verdict.PROVED)


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
    certificate: Proof | None = field(default=None, repr=False, compare=False)  # for PROVED: its lemmas and joint properties (proof.py)
    from_store: bool = field(default=False, compare=False)  # for VIOLATED: the counterexample is a stored run, replayed (`store`)

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
            return self.verdict is Verdict.VACUOUS or self.verdict.holds
        if e.verdict == "holds":
            return self.verdict.holds
        return self.verdict.value == e.verdict

    @property
    def counts_against(self) -> bool:
        """A definite verdict that makes the run fail: unexpected, or (without expectations) violated."""
        if self.verdict not in (Verdict.HOLDS, Verdict.PROVED, Verdict.VIOLATED, Verdict.VACUOUS):
            return False
        if self.expectation is None:
            return self.verdict in (Verdict.VIOLATED, Verdict.VACUOUS)
        return not self.as_expected


# The least depth bound at which induction is tried: below it the bounded check to the full depth
# costs less than the lemmas and induction questions (see docs/speed.md).
INDUCTION_FROM_DEPTH = 3
# How deep a property with no expectation (rules removed) is checked before the lemmas are tried:
# most counterexamples there are this short, and the bounded check finds them sooner than the lemmas.
SHALLOW = 3


def check_properties(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0,
                     stored: Runs | None = None) -> list[CheckResult]:
    """Check each property to the depth bound; a violation comes back with a shortest counterexample.
    An interrupt raises Interrupted with the results finished before it, in the order of `props`.

    See each_checked for how.
    """
    results: list[CheckResult] = []
    try:
        results.extend(each_checked(ruleset, props, scope, seed, timeout, stored))
    except Interrupted as e:
        raise Interrupted((*results, *e.known)) from e
    return results


def each_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0,
                 stored: Runs | None = None) -> Iterator[CheckResult]:
    """The results of check_properties one by one, in the order of `props`.

    Each property is proved or checked to the depth bound as `_checked_on` says. Each violation
    found is asked again in a Z3 context of its own for its counterexample, which is then replayed
    in the interpreter; one that a random run of the property's own reached at that depth
    (`_violating_runs`), or that a `stored` run (`store`) still reaches there, has that run as its
    counterexample. Each phase (the lemmas, an induction,
    a deepening) shares the resource units of `timeout` seconds among its questions, within those
    seconds (`Budget.phase`). An interrupt raises Interrupted (the results not yet given are not
    known: they all come from the one search)."""
    try:
        yield from _each_checked(ruleset, props, ruleset.scope_for(scope), seed, timeout, stored=stored)
    except Interrupted:
        raise
    except KeyboardInterrupt as e:
        raise Interrupted(()) from e


# A check of at most this many properties (besides those checked on the pregame alone) runs on their
# cone of influence (`slicing.sliced`); reading it costs about half a second per rule set, and the
# cone of many is nearly the whole system (that of all stock properties keeps every action kind).
SLICE_AT_MOST = 4


def _systems(ruleset: RuleSet, props: list[Property], scope: Scope, whole_game: list[Property]) -> tuple[TransitionSystem, TransitionSystem]:
    """The system of the check of `props`, sliced to the cone of influence of `whole_game` (those
    not checked on the pregame alone) when they are few; and the whole system, whose models are
    the counterexamples (`_result`)."""
    whole = shared_system(ruleset, scope, _int_reach(props, scope))
    return (sliced(whole, whole_game) if 0 < len(whole_game) <= SLICE_AT_MOST else whole), whole


def _int_reach(props: list[Property], scope: Scope) -> int:
    return max([int_reach(p, Codes.variable_bound(scope, slots_for(scope))) for p in props], default=0)


def _each_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float,
                  systems: dict[bool, TransitionSystem] | None = None, intact: "Intact | None" = None, explicit_first: bool = True,
                  stored: Runs | None = None) -> Iterator[CheckResult]:
    """`systems`: the transition systems (`_by_pregame`) of the file `ruleset` has removed rules
    from (coverage), which goes without the explicit first stage (`explicit_first`, `_first_stage`). A
    property that only a pregame action can violate (`slicing.pregame_only`) is checked, and
    proved, on the runs of the pregame's actions alone, with the pregame's lemmas too
    (`proof.lemmas`). The `stored` runs (`store`) that still violate a property are its
    counterexamples at their depth, unless a shorter one exists (`_stored_violations`)."""
    started = time.monotonic()
    progress.working_on(ruleset.label, f"{len(props)} properties")
    budget = lambda: Budget.phase(timeout)  # noqa: E731
    early = _first_stage(ruleset, props, scope, seed) if explicit_first else {}
    rest = [p for p in props if p not in early]
    if not rest:
        yield from (early[p] for p in props)
        return
    in_pregame = [p for p in rest if pregame_only(ruleset, p)]
    violating = _stored_violations(ruleset, [p for p in rest if p not in in_pregame], scope, seed, stored or {})
    system, whole = (systems[False], systems[False]) if systems is not None else _systems(ruleset, rest, scope, [p for p in rest if p not in in_pregame])
    groups = [(system, [p for p in rest if p not in in_pregame], False)]
    if in_pregame:
        groups.append((systems[True] if systems is not None else pregame_system(ruleset, scope, system.int_reach), in_pregame, True))
    outcomes: dict = {}
    proofs: dict = {}
    owner: dict = {}
    try:
        for own, chosen, pregame in groups:
            found, proved = _checked_on(own, ruleset, chosen, scope, seed, budget, pregame, intact, violating)
            outcomes |= found
            proofs |= proved
            owner |= dict.fromkeys(chosen, own)
    except CheckerBug as bug:
        for prop in props:
            yield early.get(prop) or CheckResult(ruleset, prop, Verdict.ERROR, scope.depth, time.monotonic() - started, reason=str(bug))
        return
    except Interrupted as stop:
        found, proved = stop.known
        known, proved = outcomes | found, proofs | proved
        raise Interrupted(tuple(early.get(prop) or _interrupted(ruleset, prop, scope, known, time.monotonic() - started, proved.get(prop))
                                for prop in props)) from stop
    for prop in props:
        if prop in early:
            yield early[prop]
            continue
        own = owner[prop]
        yield _result(own, ruleset, prop, scope, seed, own.rule_values(ruleset), outcomes[prop], proofs.get(prop), time.monotonic() - started, budget,
                      whole if own is system else own, any_model=intact is not None)


def _stored_violations(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, runs: Runs) -> dict[Property, Witness]:
    """For each property with a stored run (`store.VIOLATION`) that still violates it in this rule
    set within the depth bound, that run replayed in the interpreter and shrunk
    (`simulate.stored_witnesses`). A run that no longer does is left out, and the property is checked
    as if it had none."""
    wanted = {p: (run, p.id, p, scope.depth) for p in props if (run := runs.get((VIOLATION, p.id))) is not None}
    return stored_witnesses(ruleset, scope, seed, wanted)


# The states the explicit search keeps, at most, in a check's first stage (`_first_stage`): about
# the first two levels of a built-in rule set at the default scope, a fraction of a second.
FIRST_STAGE_STATES = 500


def _first_stage(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int) -> dict[Property, CheckResult]:
    """The properties the rule set file has no expectation of (as when rules were removed: a
    violation is likely, and most are shallow), violated within the first FIRST_STAGE_STATES
    states of a breadth-first search over the interpreter (`explicit.first_stage`): each with
    a shortest counterexample, already replayed (ERROR where it does not replay). Each property has
    a search of its own, which takes first the states and actions that can violate it: its
    counterexample is the one it gets when checked alone. The searches share the steps worked out
    from each state (`StateSpace.keep_expansions`). Z3 checks the others. Coverage does without it:
    the base case its removals ask first (`_base_case_first`) finds their shallow violations for less."""
    tried = [p for p in props if ruleset.expected(p.id) is None]
    if not tried:
        return {}
    space = StateSpace(ruleset, scope)
    space.keep_expansions = {}
    found = {}
    for prop in tried:
        started = time.monotonic()
        try:
            [stage] = first_stage(ruleset, scope, [prop], scope.depth, FIRST_STAGE_STATES, space)
        except ReplayMismatch as mismatch:
            found[prop] = CheckResult(ruleset, prop, Verdict.ERROR, scope.depth, time.monotonic() - started, reason=str(mismatch))
            continue
        if stage.finding is Finding.VIOLATED:
            shown = tuple(witnesses(stage.world, prop, stage.initial, stage.trace.steps, stage.depth))
            found[prop] = CheckResult(ruleset, prop, Verdict.VIOLATED, stage.depth, time.monotonic() - started, stage.trace, witnesses=shown)
    return found


def _checked_on(system: TransitionSystem, ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, budget,
                pregame: bool, intact: "Intact | None" = None, stored: dict | None = None) -> tuple[dict, dict]:
    """The deepening's outcome of each property on one system, and the proofs of those proved.

    Induction first tries to prove the properties the rule set file expects to hold at every depth,
    with the structural lemmas (their invariant found once: `proof.invariant`, `proof.proved_with`).
    Then one deepening (`search.Deepening`) looks for the first violation of every property, to the
    depth bound, or to the base case of those induction proved. A property the base case finds
    violated (or cannot decide) leaves the others of the induction to be proved again without it.
    The properties with no expectation (rules were removed: a violation is likely, and the bounded
    check finds a shallow one sooner than the lemmas) are checked to SHALLOW first; those that hold
    so far are then tried the same way, and those not proved are checked on to the depth bound.
    With `intact` (coverage), the proofs start from the intact rule set's lemmas, in the order of
    `_base_case_first`. A property with a `stored` run that violates it (`_stored_violations`) is
    not tried by induction, and the deepening takes that run at its depth. An interrupt raises
    Interrupted whose `known` is (the outcomes so far, the proofs so far)."""
    if not props:
        return {}, {}
    stored = {p: witness for p, witness in (stored or {}).items() if p in props}
    facts = system.rule_values(ruleset)
    base = min(scope.depth, INDUCTION_SPAN + 1)
    candidates = [p for p in props if expected_to_hold(ruleset, p) and p not in stored] if scope.depth >= INDUCTION_FROM_DEPTH else []
    pool = intact.kept(pregame) if intact is not None else None
    prover = _Prover(system, seed, facts, budget, pregame, pool, inductive=intact is not None and intact.still_inductive(ruleset, pregame),
                     unchanged=intact.unchanged(ruleset, pregame) if intact is not None else Unchanged())
    expected = [p for p in candidates if ruleset.expected(p.id) is not None]
    proofs: dict = {}
    proved: set = set()
    outcomes: dict = {}
    try:
        deepening = Deepening(system, seed, facts, any_model=intact is not None)
        if intact is not None:
            return _base_case_first(deepening, prover, props, candidates, scope.depth, budget, intact.over_two, stored)
        proofs = prover.proved(expected)
        helpers = _helpers(ruleset, props) if not pregame and any(p not in proofs for p in expected) else []
        if helpers:
            proofs |= _proved_with_helpers(prover, [p for p in expected if p not in proofs], helpers)
        proved = set(proofs)
        shallow = min(scope.depth, max(SHALLOW, base))
        based = lambda p: min(scope.depth, proofs[p].steps)  # noqa: E731  (a proof's base case)
        bound = {p: based(p) if p in proved else shallow if p in candidates and p not in expected else scope.depth for p in props}
        known = stored | ({} if pregame else _violating_runs(ruleset, [p for p in props if p not in stored], scope, seed))
        outcomes = deepening.first_violations(bound | {h: based(h) for h in helpers if h in proved}, budget(), known=known)
        while True:
            failed = {p for p in proved if outcomes[p].violated or outcomes[p].unknown}
            shallower = {p: based(p) for p in proved if p not in failed and outcomes[p].depth < based(p)}
            if shallower:  # proved again with fewer, over more steps: the base case goes as deep
                outcomes |= deepening.first_violations(shallower, budget(), start=min(outcomes[p].depth for p in shallower) + 1)
                continue
            if not failed:
                break
            proofs = prover.proved([p for p in proved if p not in failed])
            still = set(proofs)
            dropped = [p for p in proved - failed - still if p not in helpers]
            proved = still
            if dropped:
                start = min(outcomes[p].depth for p in dropped) + 1
                outcomes |= deepening.first_violations(dict.fromkeys(dropped, scope.depth), budget(), start=start)
        holding = [p for p in candidates if p not in expected and not outcomes[p].violated and not outcomes[p].unknown]
        if holding:
            proofs |= prover.proved(holding)
            proved |= set(proofs)
            deeper = [p for p in holding if p not in proved and bound[p] < scope.depth]
            outcomes |= deepening.first_violations(dict.fromkeys(deeper, scope.depth), budget(), start=shallow + 1, known=known)
    except KeyboardInterrupt as stop:
        found = stop.known if isinstance(stop, Interrupted) else {}
        raise Interrupted((outcomes | found, {p: proof for p, proof in proofs.items() if p in proved})) from stop
    return outcomes, {p: proof for p, proof in proofs.items() if p in proved}


def _violating_runs(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int) -> dict:
    """For each property the rule set file expects violated, a random run of the interpreter that
    violates it, if one of RUNS does (`simulate.found_witnesses`, shrunk): the deepening then
    takes it at its depth instead of asking Z3 there, and asks only the depths before it. Each
    property has runs of its own, so its counterexample is the one it gets when checked alone."""
    violated = [p for p in props if (e := ruleset.expected(p.id)) is not None and e.verdict == "violated"]
    return {prop: witness for p in violated
            for prop, witness in found_witnesses(ruleset, scope, [p], [], RUNS, RUN_LENGTH * scope.depth, seed, stale=RUNS)[0].items()}


def _helpers(ruleset: RuleSet, props: list[Property]) -> list[Property]:
    """The stock `always` properties that the rule set file expects to hold (or to be vacuous) and
    that are not among those checked. A property that is not inductive with the structural lemmas
    alone may be when proved together with some of them, as in a whole check (708.9's
    `face-down-reveal` with 708.5's `face-down-visibility`). Each reads the growing fields only in
    ways that cannot wrap (`proof.wrap_safe`)."""
    checked = {p.id for p in props}
    return [h for h in stock_properties() if h.id not in checked and h.kind is PropertyKind.ALWAYS
            and ruleset.expected(h.id) is not None and expected_to_hold(ruleset, h) and wrap_safe(h, set())]


def _proved_with_helpers(prover: "_Prover", unproved: list[Property], helpers: list[Property]) -> dict:
    """The proofs of the properties `unproved` that the induction finds when they are proved
    together with the helpers (`_helpers`), with those helpers' own proofs: the caller checks
    their base case like the others'. Empty when no property of `unproved` is proved so. Asked over
    INDUCTION_SPAN + 1 steps only: that question proves whatever the one over one step proves, and
    here the property alone has already failed the one over one step, which then mostly fails again
    (a satisfiable question, the dearer kind: docs/speed.md)."""
    joint = prover.proved([*unproved, *helpers], wanted=unproved, forms=INDUCTION_STEPS[-1:])
    return joint if any(p in joint for p in unproved) else {}


def _base_case_first(deepening: Deepening, prover: "_Prover", props: list[Property], candidates: list[Property],
                     depth: int, budget, over_two: frozenset[Property] = frozenset(), known: dict | None = None) -> tuple[dict, dict]:
    """Coverage's order for a rule set with one rule removed, shallow first: most removals break a
    property within two steps, and a proof's base case is one step deep (or two). The first step
    of every property; the induction over one step of the candidates it leaves; the second step
    of the rest; the induction over two steps of the candidates still open whose proofs with every
    rule in force needed two steps (`over_two`: one step does not prove them whatever the removal),
    with those proved over one; the bounded check of the rest to the depth bound; then the
    induction over two steps of the candidates still open, those the bounded check left without an
    answer deeper included (proved: they hold at every depth). Any other candidate the
    induction over one step leaves is mostly one the removal breaks deeper, which the bounded
    check finds, and the question over two steps, the dearer, is then not asked (docs/speed.md).
    A property with a `known` run that violates it (`_stored_violations`) is no candidate, and the
    deepening takes the run at its depth."""
    shorter, longer = min(depth, INDUCTION_STEPS[0]), min(depth, INDUCTION_STEPS[-1])
    known = known or {}
    candidates = [p for p in candidates if p not in known]
    first_violations = partial(deepening.first_violations, known=known)
    outcomes = first_violations(dict.fromkeys(props, shorter), budget())
    clean = lambda outcome: not outcome.violated and not outcome.unknown  # noqa: E731
    open_ = lambda p: clean(outcomes[p])  # noqa: E731
    proofs = prover.proved([p for p in candidates if open_(p)], forms=INDUCTION_STEPS[:1])
    outcomes |= first_violations({p: longer for p in props if open_(p) and p not in proofs}, budget(), start=shorter + 1)
    based = dict(outcomes)  # the base case of a proof over two steps

    def proved_over_two(tried: list[Property]) -> None:
        if tried:
            proofs.update({p: proof for p, proof in prover.proved([*proofs, *tried], forms=INDUCTION_STEPS[-1:]).items() if p not in proofs})

    first_over_two = [p for p in candidates if p in over_two and p not in proofs and open_(p)]
    proved_over_two(first_over_two)
    outcomes |= first_violations({p: depth for p in props if open_(p) and p not in proofs}, budget(), start=longer + 1)
    still_open = [p for p in candidates if p not in proofs and clean(based[p]) and not outcomes[p].violated]
    if any(p not in first_over_two for p in still_open):  # else the question asked before, again
        proved_over_two(still_open)
    outcomes |= {p: based[p] for p in proofs if outcomes[p].unknown}  # no answer deeper: the proof answers for every depth
    return outcomes, proofs


class _Prover:
    """The proofs of one check: the lemmas' invariant (`proof.invariant`) is found once, when first
    needed, and every induction assumes it."""

    def __init__(self, system: TransitionSystem, seed: int, facts: list, budget, pregame: bool, pool: list[Property] | None = None,
                 inductive: bool = False, unchanged: Unchanged = Unchanged()):
        """`inductive`: the pool is known to be inductive (`Intact.still_inductive`), and is the
        invariant. `unchanged`: what the questions take from the intact rule set's (a removal's)."""
        self.system, self.seed, self.facts, self.budget, self.pregame, self.unchanged = system, seed, facts, budget, pregame, unchanged
        self.pool = pool if pool is not None else list(lemmas(system.ruleset, pregame))
        self._kept: list[Property] | None = self.pool if inductive else None  # None: not found yet, or no answer (asked again)

    def kept(self, then: Then | None = None) -> list[Property] | None:
        """The lemmas the invariant keeps; None when Z3 gave no answer. `then`: the induction that
        follows (`proof.invariant`)."""
        if self._kept is None:
            self._kept = invariant(self.system, self.pool, self.seed, self.facts, self.budget(), self.unchanged, then)
        return self._kept

    def proved(self, candidates: list[Property], wanted: list[Property] | None = None, forms: tuple[int, ...] = ()) -> dict:
        """The proofs of the candidates the induction proves. On a cone of influence (a check of a
        few properties) Houdini asks beside the induction (`proof.invariant`'s `then`); on the whole
        game, checked beside other rule sets' tasks, that costs more CPU than it saves (docs/speed.md)."""
        then = Then(tuple(candidates), (forms or INDUCTION_STEPS)[0]) if self.system.slice.parts is not None else None
        kept = self.kept(then) if candidates else None
        if kept is None:
            return {}
        return proved_with(self.system, candidates, kept, self.seed, self.facts, self.budget(), wanted, forms, self.unchanged)


def _interrupted(ruleset: RuleSet, prop: Property, scope: Scope, known: dict, seconds: float, proof: Proof | None = None) -> CheckResult:
    """What the deepening knew of a property (its outcome in `known`) when an interrupt stopped it:
    proved where induction had proved it and the base cases of it and of every property proved
    together with it were finished, with no violation; violated where a random run of its own had
    violated it at the depth reached (`_violating_runs`)."""
    outcome = known.get(prop)
    finished = lambda q: q in known and not known[q].violated and not known[q].unknown and known[q].depth >= min(scope.depth, proof.steps)  # noqa: E731
    if proof is not None and all(finished(q) for q in (prop, *proof.together)):
        return CheckResult(ruleset, prop, Verdict.PROVED, scope.depth, seconds, certificate=proof)
    if outcome is not None and outcome.witness is not None:
        return _run_violating(ruleset, prop, scope, outcome.witness, seconds)
    if outcome is not None and outcome.violated:
        return CheckResult(ruleset, prop, Verdict.UNKNOWN, outcome.depth - 1, seconds,
                           reason=f"interrupted: fails at depth {outcome.depth}, before its counterexample was extracted")
    if outcome is not None and not outcome.unknown and outcome.depth >= scope.depth:
        return CheckResult(ruleset, prop, Verdict.HOLDS, scope.depth, seconds)
    depth = outcome.depth if outcome is not None else -1
    reached = f"no violation up to depth {depth}" if depth >= first_step(prop) else "no depth completed"
    return CheckResult(ruleset, prop, Verdict.UNKNOWN, depth, seconds, reason=f"interrupted: {reached}")


def _result(system: TransitionSystem, ruleset: RuleSet, prop: Property, scope: Scope, seed: int, facts: list, outcome: Outcome,
            proof, seconds: float, budget, whole: TransitionSystem | None = None, any_model: bool = False) -> CheckResult:
    """The verdict of the outcome on `system`. A violation found on a slice of the `whole` system is
    asked again alone of the whole system at its depth (the same, the slice being exact), so that
    its counterexample is the one a check of any other properties with it gives. With `any_model`
    (coverage's removals, which show no trace), the model that found the violation is the
    counterexample replayed, whatever else it made fail."""
    if outcome.unknown:
        reached = f"no violation up to depth {outcome.depth}" if outcome.depth >= first_step(prop) else "no depth completed"
        return CheckResult(ruleset, prop, Verdict.UNKNOWN, outcome.depth, seconds, reason=f"{outcome.unknown}: {reached}")
    if not outcome.violated:
        if proof is not None:
            return CheckResult(ruleset, prop, Verdict.PROVED, scope.depth, seconds, certificate=proof)
        return CheckResult(ruleset, prop, Verdict.HOLDS, scope.depth, seconds)
    k = outcome.depth
    if outcome.witness is not None:
        return _run_violating(ruleset, prop, scope, outcome.witness, seconds)
    if whole is not None and whole is not system:
        system, facts, outcome = whole, whole.rule_values(ruleset), replace(outcome, alone=False)
    given = outcome.alone or (any_model and outcome.model is not None)
    answer = SolverResult(Answer.SAT, outcome.model) if given else violation_alone(system, prop, k, seed, facts, budget())
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


def _run_violating(ruleset: RuleSet, prop: Property, scope: Scope, run: Witness, seconds: float) -> CheckResult:
    """The violation a random run shows (`_violating_runs`), or a stored one (`_stored_violations`),
    with the run as its counterexample."""
    trace = run.trace
    world = World.of(ruleset, trace.slots, trace.card_types, scope)
    return CheckResult(ruleset, prop, Verdict.VIOLATED, run.depth, seconds, trace, "", tuple(witnesses(world, prop, trace.initial, trace.steps, run.depth)),
                       from_store=run.stored)


def expected_to_hold(ruleset: RuleSet, prop: Property) -> bool:
    """Holds or vacuous, as the rule set file expects; with no expectation (`--without`), holds."""
    expected = ruleset.expected(prop.id)
    return expected is None or expected.verdict != "violated"


@dataclass(frozen=True)
class Removals:
    """What check_removals found: each property with every rule in force (`baseline`), and with
    each rule removed (`removed`: the properties the baseline holds, in its order; the others say
    nothing about any rule, so they are not checked). `baseline` is None when an interrupt came
    before it was known."""

    baseline: tuple[CheckResult, ...] | None
    removed: dict[str, list[CheckResult]]


def check_removals(ruleset: RuleSet, rule_ids: list[str], props: list[Property], scope: Scope, seed: int = 0,
                   timeout: float = 60.0, stored: dict[str, Runs] | None = None) -> Removals:
    """check_properties of the rule set, then of `ruleset.without([rule])` for each rule, over one
    transition system (its steps are built once; the rules in force are each check's facts). The
    rule set's own checks are kept by the process for its next call with the same arguments
    (`_intact_checks`), so that coverage can give its removals out one at a time. `stored`: the
    stored runs of each rule set with a rule removed, by its label (`_stored_violations`). An
    interrupt raises Interrupted with the Removals found before it."""
    scope = ruleset.scope_for(scope)
    results: dict[str, list[CheckResult]] = {}
    try:
        start = _intact_checks(ruleset, props, scope, seed, timeout)
    except KeyboardInterrupt as e:
        raise Interrupted(Removals(None, results)) from e
    held = {r.prop: r for r in start.baseline}
    try:
        for rule_id in rule_ids:
            without = ruleset.without([rule_id])
            checked = {r.prop: r for r in _each_checked(without, start.asked_of(rule_id), scope, seed, timeout, start.systems, start.lemmas, False,
                                                        (stored or {}).get(without.label))}
            results[rule_id] = [checked.get(p) or replace(held[p], ruleset=without, seconds=0.0) for p in start.applicable]
    except KeyboardInterrupt as e:
        raise Interrupted(Removals(start.baseline, results)) from e
    return Removals(start.baseline, results)


@dataclass(frozen=True)
class _IntactChecks:
    """What every removal of one rule set starts from: the transition systems (`_by_pregame`), the
    checks with every rule in force, the properties they hold (the only ones a removal is asked of),
    their lemmas (`Intact`, None below INDUCTION_FROM_DEPTH) and the rules each of those properties'
    checks reads (`_rules_read_by`)."""

    systems: dict[bool, TransitionSystem]
    baseline: tuple[CheckResult, ...]
    applicable: list[Property]
    lemmas: "Intact | None"
    read: dict[Property, set[str]]

    @property
    def system(self) -> TransitionSystem:
        """The whole game's."""
        return self.systems[False]

    def asked_of(self, rule_id: str) -> list[Property]:
        """The properties a removal of the rule is asked of: those whose checks read it (all of
        them for a rule the system has no literal of)."""
        return [p for p in self.applicable if rule_id not in self.system.rule_literal or rule_id in self.read[p]]


# The last _IntactChecks each thread of this process found, with what they depend on.
_intact_found: dict[int, tuple[tuple, _IntactChecks]] = {}


def _intact_checks(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float) -> _IntactChecks:
    """The rule set's _IntactChecks, found once by each thread for the same arguments (the last ones
    only: coverage gives a worker the removals of one rule set)."""
    key = (ruleset.sha256, ruleset.removed, tuple((p.id, p.text) for p in props), scope, seed, timeout)
    thread = threading.get_ident()
    found = _intact_found.get(thread)
    if found is not None and found[0] == key:
        return found[1]
    systems = _by_pregame(TransitionSystem(ruleset, scope, _int_reach(props, scope)), props)
    baseline = tuple(_each_checked(ruleset, props, scope, seed, timeout, systems, explicit_first=False))
    applicable = [r.prop for r in baseline if r.verdict.holds]
    proofs = {r.prop: r.certificate for r in baseline if r.certificate is not None}
    lemmas = Intact.of(ruleset, applicable, _used_by(systems, applicable), seed, Budget.phase(timeout), proofs) if scope.depth >= INDUCTION_FROM_DEPTH else None
    checks = _IntactChecks(systems, baseline, applicable, lemmas, _rules_read_by(systems, applicable))
    _intact_found[thread] = (key, checks)
    return checks


def _by_pregame(system: TransitionSystem, props: list[Property]) -> dict[bool, TransitionSystem]:
    """The whole game's system and, where some property of `props` is checked on the pregame's
    actions alone (`slicing.pregame_only`), the pregame's, by `pregame`."""
    if not any(pregame_only(system.ruleset, p) for p in props):
        return {False: system}
    return {False: system, True: pregame_system(system.ruleset, system.scope, system.int_reach)}


def _used_by(systems: dict[bool, TransitionSystem], props: list[Property]) -> dict[bool, TransitionSystem]:
    """The whole game's system, and the pregame's where some property of `props` is checked on it."""
    return {pregame: system for pregame, system in systems.items() if not pregame or any(pregame_only(system.ruleset, p) for p in props)}


def _rules_read_by(systems: dict[bool, TransitionSystem], props: list[Property]) -> dict[Property, set[str]]:
    """For each property, the rules whose literals its check reads: those of the system it is
    checked on (the whole game's, or the pregame's for a property only a pregame action can
    violate: `_each_checked`), in the start of a game or the steps, and those of its formula (a
    rule of visibility that only `sees` reads). A rule a check does not read leaves its questions
    as they were with the rule in force, so its removal changes none of its verdicts."""
    in_pregame = {p for p in props if pregame_only(systems[False].ruleset, p)}
    read: dict[Property, set[str]] = {}
    for pregame, checked_on in _used_by(systems, props).items():
        memo: dict = {}
        in_steps = rules_read(checked_on, [*checked_on.init(), *checked_on.types(), *checked_on.trans(0), *checked_on.trans(1)], memo)
        for p in props:
            if (p in in_pregame) == pregame:
                read[p] = in_steps | rules_read(checked_on, [violated_at(checked_on, p, k) for k in (first_step(p), first_step(p) + 1)], memo)
    return read


@dataclass(frozen=True)
class IntactOn:
    """What the checks with every rule in force found on one system (the whole game's, or the
    pregame's: `pregame_system`): the lemmas' invariant `kept`, the rules it rests on (`resting`,
    `proof.rules_resting`; None when Z3 gave no answer), the properties proved together over one
    step with it (`one_step`), those of them whose assumption that proof needs
    (`search.assumptions_needed`), and for each rule, the action kinds whose steps it decides
    (`rules_deciding_each`), or None where the start, the card types or a formula of `kept` or
    `one_step` reads it (`narrowed_to`; a rule it does not list decides no step)."""

    kept: list[Property]
    resting: frozenset[str] | None
    one_step: frozenset[Property]
    needed: frozenset[Property]
    narrowed_to: dict[str, frozenset[ActionKind] | None]

    @classmethod
    def of(cls, system: TransitionSystem, kept: list[Property], one_step: frozenset[Property], seed: int, budget: Budget) -> "IntactOn":
        fixed = rules_read(system, [*system.init(), *system.types(), *[violated_at(system, p, first_step(p) + 1) for p in [*kept, *one_step]]])
        narrowed_to: dict[str, frozenset[ActionKind] | None] = {}
        for kind, rules in rules_deciding_each(system).items():
            for rule_id in rules:
                narrowed_to[rule_id] = narrowed_to.get(rule_id, frozenset()) | {kind}
        needed = assumptions_needed(system, sorted(one_step, key=lambda p: p.id), seed, system.rule_values(), budget, kept) if one_step else one_step
        return cls(kept, rules_resting(system, kept, seed, budget), one_step, needed, narrowed_to | dict.fromkeys(fixed))


@dataclass(frozen=True)
class Intact:
    """What the checks of a rule set with one rule removed start from (coverage): what the checks
    with every rule in force found on each system a property is checked on (`on`, by `pregame`).
    Each removal's invariant is found within the intact one's lemmas (a lemma that only the removal
    makes inductive is not tried), and every property the base case leaves is tried by induction
    before the bounded check goes deeper (`_base_case_first`), over two steps first where its intact
    proof needed two (`over_two`). A question over one step asks only of the steps the removal may
    change where the intact rule set's answers for the others (`unchanged`)."""

    on: dict[bool, IntactOn]
    over_two: frozenset[Property] = frozenset()  # the properties whose proofs with every rule in force are over two steps

    @classmethod
    def of(cls, ruleset: RuleSet, props: list[Property], systems: dict[bool, TransitionSystem], seed: int, budget: Budget,
           proofs: dict[Property, Proof] | None = None) -> "Intact":
        """`systems`: by `pregame` (`_by_pregame`); `proofs`: the intact rule set's proofs of `props`."""
        proofs = proofs or {}
        on = {}
        for pregame, system in systems.items():
            kept = _Prover(system, seed, system.rule_values(ruleset), lambda: budget, pregame).kept()
            if kept is not None:
                one_step = frozenset(p for p, proof in proofs.items() if pregame_only(ruleset, p) == pregame
                                     and proof.steps == INDUCTION_STEPS[0] and list(proof.lemmas) == kept)
                on[pregame] = IntactOn.of(system, kept, one_step, seed, budget)
        return cls(on, frozenset(p for p, proof in proofs.items() if proof.steps == INDUCTION_STEPS[-1]))

    def kept(self, pregame: bool) -> list[Property] | None:
        """The intact invariant's lemmas on the system; None when Z3 gave no answer there."""
        return self.on[pregame].kept if pregame in self.on else None

    def unchanged(self, ruleset: RuleSet, pregame: bool) -> Unchanged:
        """What a check of `ruleset` (rules removed) takes from the intact rule set's questions:
        nothing where the start, the card types or a formula reads a rule removed."""
        if pregame not in self.on:
            return Unchanged()
        on = self.on[pregame]
        kinds = [on.narrowed_to.get(rule_id, frozenset()) for rule_id in ruleset.removed]
        if any(k is None for k in kinds):
            return Unchanged()
        return Unchanged(frozenset().union(*kinds), frozenset(on.kept), on.one_step, on.needed)

    def still_inductive(self, ruleset: RuleSet, pregame: bool) -> bool:
        """Whether the intact invariant is still inductive with `ruleset`'s rules removed: it rests
        on none of them."""
        resting = self.on[pregame].resting if pregame in self.on else None
        return resting is not None and not resting & set(ruleset.removed)


def counterexample(system: TransitionSystem, model, k: int, ruleset: RuleSet, prop: Property, scope: Scope, seed: int):
    """(trace, None) for a model that replays in the interpreter, else (None, what went wrong)."""
    card_types, states, actions = system.decode(model, k)
    world = World.of(ruleset, system.slots, card_types, scope)
    steps, mismatch = execute(world, states[0], actions, recorded=states[1:], parts=system.slice.parts)
    if mismatch:
        return None, f"the counterexample found by Z3 does not replay in the interpreter: {mismatch}"
    violation = first_violation(world, prop, states[0], steps)
    if violation != k:
        return None, (
            f"the interpreter evaluates {prop.id} to false at step {violation}, not at step {k} where Z3 found"
            " the violation"
        )
    trace = Trace(
        **of_ruleset(ruleset),
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

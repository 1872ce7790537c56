"""Rule coverage: remove each rule in turn, re-check every property, and see which notices.

A rule whose removal no property notices is unguarded: the properties would not catch a change to
it. Each unguarded rule comes with its reason: documented (it constrains nothing), declared dead in
the rule set file, or simply not noticed within the scope.

The unmodified rule set is checked first: a property it already violates (or that has no verdict)
says nothing about any rule, so its column is not applicable and it is not checked with any rule
removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .batch import Unfinished, in_order
from .check import CheckResult, Removals, Verdict, check_removals
from .errors import Interrupted
from .model import Behaviour, Scope
from .progress import Activity
from .properties import Property
from .ruleset import RuleSet
from .store import Runs


@dataclass(frozen=True)
class CoverageRow:
    rule: str
    results: tuple[CheckResult, ...]  # one per applicable property, with the rule removed; empty when not checked
    reason: str = ""  # why the rule is unguarded ("" when some property notices its removal)
    guarded_by: tuple[CheckResult, ...] = ()  # the violations, of properties that hold with every rule in force
    checked: bool = True  # False: a documented rule, which constrains nothing and is not removed


@dataclass(frozen=True)
class Coverage:
    ruleset: RuleSet
    scope: Scope
    baseline: tuple[CheckResult, ...]  # each property with every rule in force
    rows: tuple[CoverageRow, ...]
    finished: bool = True  # False: interrupted, and only the rules checked before it have rows

    @property
    def replayed(self) -> int:
        """The counterexamples that are stored runs, replayed (`store`)."""
        return sum(r.from_store for r in (*self.baseline, *(r for row in self.rows for r in row.results)))

    @property
    def not_applicable(self) -> tuple[CheckResult, ...]:
        """The properties that do not hold with every rule in force (violated, unknown or an error)."""
        return tuple(r for r in self.baseline if not r.verdict.holds)


def coverage(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0, jobs: int = 1,
             listener: Callable[[Activity], None] | None = None, scheduler: str | None = None,
             stored: dict[str, Runs] | None = None) -> Coverage:
    """The matrix. With one job, one task checks every removal over one transition system; with
    more, or a Dask `scheduler`'s cluster, each removal is a task of its own, taken by whichever
    worker is free (`batch.in_order`, whose workers report their progress to `listener`): a
    worker checks the unmodified rule set once and keeps it for the removals it takes next
    (`check.check_removals`), so that the workers finish close together. An
    interrupt raises Interrupted with the Coverage of the rules checked before it, or None when
    the unmodified rule set was not checked yet. `stored`: the stored runs of each rule set with a
    rule removed, by its label, whose counterexamples are replayed first (`check.check_removals`)."""
    checked = [r.id for r in ruleset.in_force if r.behaviour is not Behaviour.DOCUMENTED]
    chunks = [[rule] for rule in checked] if (jobs > 1 or scheduler is not None) and checked else [checked]
    label_of = {rule: ruleset.without([rule]).label for rule in checked}
    tasks = [partial(check_removals, ruleset, chunk, props, scope, seed=seed, timeout=timeout,
                     stored={label_of[rule]: (stored or {}).get(label_of[rule], {}) for rule in chunk})
             for chunk in chunks]
    results = in_order(tasks, jobs, listener, scheduler)
    parts_found: list[Removals] = []
    stop: Interrupted | None = None
    try:
        for part in results:
            parts_found.append(part)
    except Interrupted as e:
        stop = e
        parts_found += [part.known if isinstance(part, Unfinished) else part for _, part in sorted(e.known.items())]
    baseline = _agreed([p.baseline for p in parts_found if p.baseline is not None])
    removals = {rule: found for p in parts_found for rule, found in p.removed.items()}
    if stop is None:
        return _matrix(ruleset, scope, baseline, removals)
    if baseline is None:
        raise Interrupted(None) from stop
    raise Interrupted(_matrix(ruleset, scope, baseline, removals, finished=False)) from stop


def _agreed(baselines: list[tuple[CheckResult, ...]]) -> tuple[CheckResult, ...] | None:
    """The unmodified rule set's results, which each task gives as its worker checked them: for each
    property, the first task's, or a task's where it does not hold (a wall-clock guard can stop one
    worker's question and not another's), so that a task that left the property out of its
    removals never leaves a hole in its column."""
    if not baselines:
        return None
    return tuple(next((b[i] for b in baselines if not b[i].verdict.holds), first) for i, first in enumerate(baselines[0]))


def _matrix(ruleset: RuleSet, scope: Scope, baseline: list[CheckResult], removals: dict[str, list[CheckResult]], finished: bool = True) -> Coverage:
    rows = []
    for rule in ruleset.in_force:
        if rule.behaviour is Behaviour.DOCUMENTED:
            why = f"restates {rule.restates}" if rule.restates else "constrains no transition"
            rows.append(CoverageRow(rule.id, (), f"documented: {why}", checked=False))
            continue
        if rule.id not in removals:
            continue
        results = tuple(removals[rule.id])
        guarded_by = tuple(r for r in results if r.verdict is Verdict.VIOLATED)
        reason = ""
        if not guarded_by:
            undecided = [r.prop.id for r in results if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR)]
            dead, unguarded = ruleset.dead_reason("rule", rule.id), ruleset.unguarded_reason(rule.id)
            if undecided:
                reason = f"not decided: {', '.join(undecided)} gave no answer"
            elif dead:
                reason = f"dead in this scope: {dead}"
            elif unguarded:
                reason = f"declared unguarded: {unguarded}"
            elif results and all(r.verdict is Verdict.PROVED for r in results):
                reason = "no property notices its removal: each is proved at every depth without it"
            else:
                reason = f"no property notices its removal within {scope.depth} steps"
        rows.append(CoverageRow(rule.id, results, reason, guarded_by))
    return Coverage(ruleset, scope, tuple(baseline), tuple(rows), finished)

"""Rule coverage: remove each rule in turn, re-check every property, and see which notices.

A rule whose removal no property notices is unguarded: the properties would not catch a change to
it. Each unguarded rule comes with its reason: documented (it constrains nothing), declared dead in
the rule set file, or simply not noticed within the scope.

The unmodified rule set is checked first: a property it already violates (or that has no verdict)
fails whatever rule is removed, so it says nothing about any rule; its column is not applicable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .batch import Unfinished, in_order
from .check import CheckResult, Verdict, check_properties, check_removals
from .errors import Interrupted
from .model import Behaviour, Scope
from .progress import Activity
from .properties import Property
from .ruleset import RuleSet


@dataclass(frozen=True)
class CoverageRow:
    rule: str
    results: tuple[CheckResult, ...]  # one per property, with the rule removed; empty when not checked
    reason: str = ""  # why the rule is unguarded ("" when some property notices its removal)
    guarded_by: tuple[CheckResult, ...] = ()  # the violations, of properties that hold with every rule in force


@dataclass(frozen=True)
class Coverage:
    ruleset: RuleSet
    scope: Scope
    baseline: tuple[CheckResult, ...]  # each property with every rule in force
    rows: tuple[CoverageRow, ...]
    finished: bool = True  # False: interrupted, and only the rules checked before it have rows

    @property
    def not_applicable(self) -> tuple[CheckResult, ...]:
        """The properties that do not hold with every rule in force (violated, unknown or an error)."""
        return tuple(r for r in self.baseline if not r.verdict.holds)


def _applies(baseline: CheckResult) -> bool:
    return baseline.verdict.holds


def coverage(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0, jobs: int = 1,
             listener: Callable[[Activity], None] | None = None, scheduler: str | None = None) -> Coverage:
    """The matrix, with the removals shared among `jobs` tasks (each a run of consecutive rules
    over one transition system), for as many worker processes or a Dask `scheduler`'s cluster
    (`batch.in_order`, whose workers report their progress to `listener`). An interrupt raises Interrupted with the Coverage of the rules checked before it,
    or None when the unmodified rule set was not checked yet."""
    checked = [r.id for r in ruleset.in_force if r.behaviour is not Behaviour.DOCUMENTED]
    parts = max(1, min(jobs, len(checked)))
    chunks = [checked[i * len(checked) // parts:(i + 1) * len(checked) // parts] for i in range(parts)]
    tasks = [partial(check_properties, ruleset, props, scope, seed=seed, timeout=timeout)]
    tasks += [partial(check_removals, ruleset, chunk, props, scope, seed=seed, timeout=timeout) for chunk in chunks if chunk]
    results = in_order(tasks, jobs, listener, scheduler)
    baseline: list[CheckResult] | None = None
    removals: dict[str, list[CheckResult]] = {}
    try:
        baseline = next(results)
        for part in results:
            removals |= part
    except Interrupted as e:
        if baseline is None and isinstance(e.known.get(0), list):
            baseline = e.known[0]
        for index, part in sorted(e.known.items()):
            if index > 0:
                removals |= part.known if isinstance(part, Unfinished) else part
        if baseline is None:
            raise Interrupted(None) from e
        raise Interrupted(_matrix(ruleset, scope, baseline, removals, finished=False)) from e
    return _matrix(ruleset, scope, baseline, removals)


def _matrix(ruleset: RuleSet, scope: Scope, baseline: list[CheckResult], removals: dict[str, list[CheckResult]], finished: bool = True) -> Coverage:
    rows = []
    for rule in ruleset.in_force:
        if rule.behaviour is Behaviour.DOCUMENTED:
            why = f"restates {rule.restates}" if rule.restates else "constrains no transition"
            rows.append(CoverageRow(rule.id, (), f"documented: {why}"))
            continue
        if rule.id not in removals:
            continue
        results = tuple(removals[rule.id])
        applicable = [(base, r) for base, r in zip(baseline, results) if _applies(base)]
        guarded_by = tuple(r for _, r in applicable if r.verdict is Verdict.VIOLATED)
        reason = ""
        if not guarded_by:
            undecided = [r.prop.id for _, r in applicable if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR)]
            dead, unguarded = ruleset.dead_reason("rule", rule.id), ruleset.unguarded_reason(rule.id)
            if undecided:
                reason = f"not decided: {', '.join(undecided)} gave no answer"
            elif dead:
                reason = f"dead in this scope: {dead}"
            elif unguarded:
                reason = f"declared unguarded: {unguarded}"
            elif applicable and all(r.verdict is Verdict.PROVED for _, r in applicable):
                reason = "no property notices its removal: each is proved at every depth without it"
            else:
                reason = f"no property notices its removal within {scope.depth} steps"
        rows.append(CoverageRow(rule.id, results, reason, guarded_by))
    return Coverage(ruleset, scope, tuple(baseline), tuple(rows), finished)

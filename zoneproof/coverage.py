"""Rule coverage: remove each rule in turn, re-check every property, and see which notices.

A rule whose removal no property notices is unguarded: the properties would not catch a change to
it. Each unguarded rule comes with its reason: documented (it constrains nothing), declared dead in
the rule set file, or simply not noticed within the scope.
"""

from __future__ import annotations

from dataclasses import dataclass

from .check import CheckResult, Verdict, check_removals
from .model import Behaviour, Scope
from .properties import Property
from .ruleset import RuleSet


@dataclass(frozen=True)
class CoverageRow:
    rule: str
    results: tuple[CheckResult, ...]  # one per property, with the rule removed; empty when not checked
    reason: str = ""  # why the rule is unguarded ("" when some property notices its removal)

    @property
    def guarded_by(self) -> tuple[CheckResult, ...]:
        return tuple(r for r in self.results if r.verdict is Verdict.VIOLATED)


def coverage(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0) -> tuple[CoverageRow, ...]:
    checked = [r.id for r in ruleset.in_force if r.behaviour is not Behaviour.DOCUMENTED]
    removals = check_removals(ruleset, checked, props, scope, seed=seed, timeout=timeout)
    rows = []
    for rule in ruleset.in_force:
        if rule.behaviour is Behaviour.DOCUMENTED:
            why = f"restates {rule.restates}" if rule.restates else "constrains no transition"
            rows.append(CoverageRow(rule.id, (), f"documented: {why}"))
            continue
        results = tuple(removals[rule.id])
        noticed = any(r.verdict is Verdict.VIOLATED for r in results)
        reason = ""
        if not noticed:
            undecided = [r.prop.id for r in results if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR)]
            dead, unguarded = ruleset.dead_reason("rule", rule.id), ruleset.unguarded_reason(rule.id)
            if undecided:
                reason = f"not decided: {', '.join(undecided)} gave no answer"
            elif dead:
                reason = f"dead in this scope: {dead}"
            elif unguarded:
                reason = f"declared unguarded: {unguarded}"
            else:
                reason = f"no property notices its removal within {scope.depth} steps"
        rows.append(CoverageRow(rule.id, results, reason))
    return tuple(rows)

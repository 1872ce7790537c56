"""`unknown` is never read as "nothing found".

Z3 is made to answer `unknown` from the n-th query of a run on (as a timeout would), for several n.
Every finding of such a run must be the finding of the full run, or say that it has no answer; a
"dead", "vacuous", "no conflict", "holds" or "agree" that the full run does not give is a bug.
The same runs through the command line must exit 3, not 0, when anything was left unanswered.
"""

from __future__ import annotations

import pytest
import z3

from conftest import EXAMPLE_REPO
import zoneproof.check as check_module
from zoneproof.check import Verdict, check_properties
from zoneproof.cli import lint_exit_code
from zoneproof.coverage import coverage
from zoneproof.diff import diff
from zoneproof.errors import Interrupted
from zoneproof.lint import Status, lint
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset
from zoneproof.solver import INTERRUPTED

PROPS = {p.id: p for p in stock_properties()}
TINY = Scope(players=2, cards=1, sideboard=0, tokens=1, depth=2)
SOME = [PROPS[p] for p in ("owner-zones", "tokens", "exile-in-exile")]


class Queries:
    """Counts Z3's queries and, from the `unknown_from`-th on (counting from 0), answers unknown."""

    def __init__(self, monkeypatch, unknown_from: int | None = None, reason: str = "timeout"):
        self.count = 0
        monkeypatch.setattr(check_module, "_first_stage", lambda *args: {})  # Z3 answers everything, shallow violations too
        monkeypatch.setattr(check_module, "SLICE_AT_MOST", 0)  # the queries counted are the search's, none a slice's
        real_check, real_reason = z3.Solver.check, z3.Solver.reason_unknown

        def check(solver, *assumptions):
            self.count += 1
            if unknown_from is not None and self.count > unknown_from:
                solver._zoneproof_unknown = True
                return z3.unknown
            solver._zoneproof_unknown = False
            return real_check(solver, *assumptions)

        def reason_unknown(solver):
            return reason if getattr(solver, "_zoneproof_unknown", False) else real_reason(solver)

        monkeypatch.setattr(z3.Solver, "check", check)
        monkeypatch.setattr(z3.Solver, "reason_unknown", reason_unknown)


def cut_points(total: int) -> list[int]:
    """Where to start answering unknown: the first query, one in the middle, and the last."""
    return sorted({0, total // 2, total - 1})


def full_run(monkeypatch, run):
    queries = Queries(monkeypatch)
    result = run()
    monkeypatch.undo()
    return result, queries.count


def test_check_unknown_is_never_holds(monkeypatch):
    ruleset = load_ruleset("mtg-current").without(["400.3"])
    run = lambda: check_properties(ruleset, SOME, TINY, timeout=30)  # noqa: E731
    full, total = full_run(monkeypatch, run)
    assert {r.prop.id: r.verdict for r in full}["owner-zones"] is Verdict.VIOLATED
    for n in cut_points(total):
        Queries(monkeypatch, unknown_from=n)
        for r, f in zip(run(), full):
            assert r.verdict in (f.verdict, Verdict.UNKNOWN), (n, r.prop.id)
            if r.verdict is Verdict.VIOLATED:  # a counterexample found before the cut: shortest, or said not to be
                assert r.depth == f.depth or "not ruled out" in r.reason
            if r.verdict is Verdict.UNKNOWN:  # the depth completed, not the bound
                assert -1 <= r.depth < TINY.depth
                assert "no depth completed" in r.reason or f"no violation up to depth {r.depth}" in r.reason
        monkeypatch.undo()


def _findings(report) -> dict:
    found = {("action", f.action): f.status for f in report.actions}
    found |= {("rule", f.rule): f.status for f in report.rules}
    found |= {("property", f.prop.id): f.status for f in report.properties}
    return found


def test_lint_unknown_is_never_dead_vacuous_or_no_conflict(monkeypatch):
    ruleset = load_ruleset("mtg-current")
    run = lambda: lint(ruleset, SOME, TINY, timeout=30)  # noqa: E731
    full, total = full_run(monkeypatch, run)
    assert lint_exit_code([full]) == 1  # dead actions and rules at this tiny scope: something to hide
    for n in cut_points(total):
        Queries(monkeypatch, unknown_from=n)
        report = run()
        monkeypatch.undo()
        findings, expected = _findings(report), _findings(full)
        changed = [key for key in expected if findings[key] is not expected[key]]
        assert all(findings[key] is Status.UNKNOWN for key in changed), (n, changed)
        assert [c.event for c in report.conflicts] == [c.event for c in full.conflicts] or report.unanswered, n
        if changed or report.unanswered:
            assert lint_exit_code([report]) in (1, 3)  # still 1 when a definite problem was found before the cut
            if not report.problems:
                assert lint_exit_code([report]) == 3


def test_lint_conflict_searches_without_an_answer_are_reported(monkeypatch):
    Queries(monkeypatch, unknown_from=0)
    report = lint(load_ruleset("mtg-current"), SOME, TINY, timeout=30)
    assert report.conflicts == ()
    assert len(report.unanswered) == 2  # the start of the game, and an action with no outcome
    assert lint_exit_code([report]) == 3


def test_diff_unknown_is_never_agree_and_a_longer_difference_says_so(monkeypatch):
    a, b = load_ruleset("mtg-current"), load_ruleset("mtg-current").without(["400.3"])
    props = [PROPS["owner-zones"]]
    run = lambda: diff(a, b, props, TINY, timeout=30)  # noqa: E731
    full, total = full_run(monkeypatch, run)
    lengths = {(d.kind, d.allowing is a): len(d.steps) for d in full.behaviours}
    assert lengths
    for n in cut_points(total):
        Queries(monkeypatch, unknown_from=n)
        result = run()
        monkeypatch.undo()
        for d in result.behaviours:
            assert len(d.steps) == lengths[(d.kind, d.allowing is a)] or d.shortest, n
        if len(result.behaviours) < len(full.behaviours) or len(result.flips) < len(full.flips):
            assert result.problems or any(r.verdict is Verdict.UNKNOWN for pair in result.results for r in pair), n


def test_coverage_unknown_is_never_unguarded_for_no_reason(monkeypatch):
    ruleset = load_ruleset(str(EXAMPLE_REPO / "model" / "league.toml"))  # four rules: 400.3, 400.7, 404.1 and 111.7
    props = [PROPS["owner-zones"], PROPS["exile-in-exile"]]
    run = lambda: coverage(ruleset, props, TINY, timeout=30)  # noqa: E731
    full, total = full_run(monkeypatch, run)
    reasons = {row.rule: row.reason for row in full.rows}
    for n in cut_points(total):
        Queries(monkeypatch, unknown_from=n)
        result = run()
        monkeypatch.undo()
        for row in result.rows:
            assert row.reason == reasons[row.rule] or row.reason.startswith("not decided") or result.not_applicable, (n, row.rule)


def test_a_model_that_violates_nothing_is_a_checker_bug_not_a_silent_fallback(monkeypatch):
    import zoneproof.search as search_module

    monkeypatch.setattr(search_module, "_holds_in", lambda model, goal: False)
    monkeypatch.setattr(check_module, "_first_stage", lambda *args: {})  # owner-zones is 2 steps deep: Z3's model, not the explicit search's run
    ruleset = load_ruleset("mtg-current").without(["400.3"])
    results = check_properties(ruleset, [PROPS["owner-zones"], PROPS["tokens"]], Scope(cards=2, depth=2), timeout=30)
    assert Verdict.ERROR in {r.verdict for r in results}
    assert "none of them when evaluated" in next(r.reason for r in results if r.verdict is Verdict.ERROR)


def test_a_search_that_ctrl_c_stops_is_an_interrupt_not_an_unknown(monkeypatch):
    # the deepening's first two questions are answered (no violation at depths 0 and 1); Ctrl-C
    # stops the question at depth 2: each property is known only up to depth 1
    Queries(monkeypatch, unknown_from=2, reason=INTERRUPTED)
    with pytest.raises(Interrupted) as caught:
        check_properties(load_ruleset("mtg-current").without(["400.3"]), SOME, TINY, timeout=30)
    assert [(r.prop.id, r.verdict, r.depth) for r in caught.value.known] == [(p.id, Verdict.UNKNOWN, 1) for p in SOME]
    assert all(r.reason == "interrupted: no violation up to depth 1" for r in caught.value.known)

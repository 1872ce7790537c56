"""JSON records of results, one per check, lint report, comparison, coverage matrix, scenario or
replayed trace; each names its `type`. The schema of every record is `schema.json` beside this file."""

from __future__ import annotations

from pathlib import Path

from ..check import CheckResult, Verdict
from ..report import cites_outside, padding


def check_record(r: CheckResult, path: Path | None) -> dict:
    return {
        "type": "check",
        "ruleset": r.ruleset.name,
        "removed": list(r.ruleset.removed),
        "property": r.prop.id,
        "cites": list(r.prop.cites),
        "verdict": r.verdict.value,
        "depth": depth_record(r),
        "seconds": round(r.seconds, 3),
        "trace": str(path) if path and r.trace is not None else None,
        "reason": r.reason or None,
        "certificate": str(path) if path and r.verdict is Verdict.PROVED else None,
        "expected": expected_record(r),
        "from_stored_run": r.from_store,
    }


def depth_record(r: CheckResult) -> int | None:
    """The depth, or null for an unknown that completed no depth."""
    return r.depth if r.depth >= 0 else None


def expected_record(r: CheckResult) -> dict | None:
    """`{"verdict", "reason", "met"}`, or null when no expectation applies (rules were removed)."""
    e = r.expectation
    if e is None:
        return None
    return {"verdict": e.verdict, "reason": e.reason or None, "met": bool(r.as_expected)}


def scope_record(scope) -> dict:
    return {"players": scope.players, "cards": scope.cards, "sideboard": scope.sideboard, "tokens": scope.tokens, "depth": scope.depth} | (
        {"commanders": scope.commanders} if scope.commanders else {}
    )


def diff_record(result, paths: dict) -> dict:
    def rule(r):
        return None if r is None else {"behaviour": r.behaviour.value, "zones": [z.value for z in r.zones]}

    flips = {f.prop.id for f in result.flips}
    return {
        "type": "diff",
        "a": {"ruleset": result.a.name, "removed": list(result.a.removed)},
        "b": {"ruleset": result.b.name, "removed": list(result.b.removed)},
        "rules": [{"id": d.rule_id, "a": rule(d.a), "b": rule(d.b)} for d in result.rules],
        "actions_only_a": [k.value for k in result.actions[0]],
        "actions_only_b": [k.value for k in result.actions[1]],
        "properties": [
            {
                "property": ra.prop.id, "a": ra.verdict.value, "b": rb.verdict.value, "flips": ra.prop.id in flips,
                "trace": next((str(paths[id(r)]) for r in (ra, rb) if id(r) in paths), None),
            }
            for ra, rb in result.results
        ],
        "behaviours": [
            {
                "kind": d.kind.value, "allowed_by": "a" if d.allowing is result.a else "b", "steps": len(d.steps),
                "refused": d.refused,
                "shortest": not d.shortest,
                "scenarios": [str(p) for p in paths[id(d)]] if id(d) in paths else None,
            }
            for d in result.behaviours
        ],
        "problems": [{"what": p.what, "checker_bug": p.checker_bug} for p in result.problems],
        "agree": result.agree,
        "finished": result.finished,
        "seconds": round(result.seconds, 3),
    }


def lint_record(report, written: dict) -> dict:
    def path(key) -> str | None:
        return str(written[key]) if key in written else None

    return {
        "type": "lint",
        "ruleset": report.ruleset.name,
        "removed": list(report.ruleset.removed),
        "scope": scope_record(report.scope),
        "seconds": round(report.seconds, 3),
        "stored_runs_replayed": report.replayed,
        "problems": report.problems,
        "actions": [{"action": f.action.value, "status": f.status.value, "step": f.step, "detail": f.detail, "known": f.known or None, "stale": f.stale or None} for f in report.actions],
        "rules": [{"rule": f.rule, "status": f.status.value, "detail": f.detail, "known": f.known or None, "stale": f.stale or None} for f in report.rules],
        "properties": [
            {
                "property": f.prop.id,
                "status": f.status.value,
                "known": f.known or None,
                "stale": f.stale or None,
                "detail": f.detail or None,
                "triggers": [{"condition": t.text, "status": t.status.value, "step": t.step} for t in f.triggers],
                "witness": path(("witness", f.prop.id)),
            }
            for f in report.properties
        ],
        "conflicts": [
            {"rules": list(c.rules), "event": c.event, "step": c.step, "scenario": path(("conflict", i))}
            for i, c in enumerate(report.conflicts)
        ],
        "gaps": [{"action": g.name, "known": g.reason} for g in report.ruleset.gaps],
        "unanswered": list(report.unanswered),
        "checker_bugs": list(report.checker_bugs),
    }


def coverage_record(result) -> dict:
    ruleset, failing = result.ruleset, {r.prop.id for r in result.not_applicable}
    return {
        "type": "coverage",
        "ruleset": ruleset.name,
        "removed": list(ruleset.removed),
        "scope": scope_record(result.scope),
        "baseline": {r.prop.id: {"verdict": r.verdict.value, "depth": depth_record(r), "applicable": r.prop.id not in failing} for r in result.baseline},
        "rules": [
            {
                "rule": row.rule,
                "results": {r.prop.id: {"verdict": r.verdict.value, "depth": depth_record(r)} for r in row.results},
                "guarded_by": [r.prop.id for r in row.guarded_by],
                "unguarded": row.reason or None,
            }
            for row in result.rows
        ],
        "finished": result.finished,
        "stored_runs_replayed": result.replayed,
    }


def scenario_record(result) -> dict:
    s = result.scenario
    return {
        "type": "scenario",
        "name": s.name,
        "path": s.path,
        "ruleset": s.world.ruleset.name,
        "removed": list(s.world.ruleset.removed),
        "cites": list(s.cites),
        "cites_outside": cites_outside(s),
        "padding": [{"card": card, "zone": zone, "owner": owner} for card, zone, owner in padding(s)],
        "passed": result.passed,
        "steps": len(s.steps),
        "failures": [{"step": f.step, "message": f.message} for f in result.failures],
    }


def replay_record(c) -> dict:
    return {
        "type": "replay",
        "trace": c.path,
        "ruleset": c.trace.ruleset_name,
        "removed": list(c.trace.removed),
        "property": c.prop.id,
        "violation_step": c.trace.violation_step,
        "confirmed": c.confirmed,
        "problem": c.problem or None,
    }


def summary_record(summary) -> dict:
    return {"type": "summary", "command": summary.command, "counts": dict(summary.counts), "seconds": round(summary.seconds, 3),
            "exit_code": summary.exit_code}

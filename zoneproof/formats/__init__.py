"""How a command's results reach the user: text for people; JSON Lines, JUnit XML and SARIF for machines.

A command hands each result to its `Output` as soon as it is known, then a `Summary`. Text and JSON
Lines are written at once, one result after another; JUnit XML and SARIF are single documents,
written whole when the command ends (so a failed run leaves no partial document).
"""

from __future__ import annotations

import json
from importlib import resources

from ..check import CheckResult, Verdict
from ..report import summary
from .output import JsonLines, JUnit, Output, Sarif, Summary
from .text import Text

FORMATS = ("text", "json", "junit", "sarif")
FORMAT_HELP = (
    "text; json: JSON Lines, one record per result and a summary record last; "
    "junit: JUnit XML; sarif: SARIF 2.1.0."
)


def json_schema() -> dict:
    """The JSON Schema of every record `--format json` writes (`schema.json`)."""
    return json.loads(resources.files(__name__).joinpath("schema.json").read_text(encoding="utf-8"))


def output_for(output_format: str, command: str, console=None) -> Output:
    if output_format == "text":
        return Text(command, console)
    return {"json": JsonLines, "junit": JUnit, "sarif": Sarif}[output_format](command)


# ---------------------------------------------------------------- summaries


def check_summary(results: list[CheckResult], reports: list, seconds: float, exit_code: int) -> Summary:
    counts = {"checks": len(results)} | {v.value: sum(r.verdict is v for r in results) for v in Verdict}
    counts["unexpected"] = sum(r.as_expected is False for r in results)
    counts |= lint_counts(reports)
    return Summary("check", counts, seconds, exit_code, summary(results, seconds))


def lint_counts(reports: list) -> dict[str, int]:
    return {"linted": len(reports), "lint_problems": sum(r.problems for r in reports)}


def lint_summary(reports: list, seconds: float, exit_code: int) -> Summary:
    return Summary("lint", lint_counts(reports), seconds, exit_code)


def run_summary(scenarios: list, replays: list, seconds: float, exit_code: int) -> Summary:
    failed = sum(not r.passed for r in scenarios)
    counts = {"scenarios": len(scenarios), "passed": len(scenarios) - failed, "failed": failed,
              "traces": len(replays), "confirmed": sum(c.confirmed for c in replays)}
    text = f"{len(scenarios)} scenarios: {len(scenarios) - failed} passed, {failed} failed" if scenarios else None
    return Summary("run", counts, seconds, exit_code, text)


def diff_summary(result, seconds: float, exit_code: int) -> Summary:
    counts = {"rules_differ": len(result.rules), "flips": len(result.flips), "behaviours": len(result.behaviours),
              "problems": len(result.problems)}
    return Summary("diff", counts, seconds, exit_code)


def coverage_summary(result, seconds: float, exit_code: int) -> Summary:
    """Of the Coverage, or of None (interrupted before the unmodified rule set was checked)."""
    rows = result.rows if result is not None else ()
    unguarded = [row for row in rows if row.reason]
    counts = {"rules": len(rows), "guarded": len(rows) - len(unguarded), "unguarded": len(unguarded),
              "unexplained": sum(row.reason.startswith(("no property", "not decided")) for row in unguarded),
              "not_applicable": len(result.not_applicable) if result is not None else 0}
    return Summary("coverage", counts, seconds, exit_code)

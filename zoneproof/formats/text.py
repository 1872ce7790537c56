"""The text output: each result printed as soon as it is known, as `report.py` words it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..check import CheckResult, Verdict
from ..report import format_certificate, format_counterexample, format_coverage, format_diff, format_lint, format_replay, format_scenario, result_line
from .output import Output, Summary

VERDICT_STYLE = {Verdict.PROVED: "bold green", Verdict.HOLDS: "green", Verdict.VIOLATED: "bold red", Verdict.UNKNOWN: "yellow", Verdict.ERROR: "bold magenta", Verdict.VACUOUS: "yellow"}


class Text(Output):
    def __init__(self, command: str, console: Console | None = None):
        super().__init__(command)
        self.console = console or Console(highlight=False, soft_wrap=True)

    def lines(self, lines: list[str]) -> None:
        for line in lines:
            self.console.print(line, markup=False)

    def check(self, r: CheckResult, trace: Path | None) -> None:
        line = result_line(r)
        style = "yellow" if r.verdict is Verdict.VIOLATED and r.as_expected else VERDICT_STYLE[r.verdict]
        self.console.print(escape(line).replace(f" {r.verdict.value} ", f" [{style}]{r.verdict.value}[/] ", 1), markup=True)
        if r.trace is not None:
            self.lines(format_counterexample(r, trace))
        elif r.verdict is Verdict.PROVED:
            self.lines(format_certificate(r, trace))

    def lint(self, report, written: dict) -> None:
        self.lines(format_lint(report, written))

    def diff(self, result, paths: dict) -> None:
        self.lines(format_diff(result, paths))

    def coverage(self, result, props) -> None:
        self.lines(format_coverage(result, props))

    def scenario(self, result) -> None:
        self.lines(format_scenario(result))

    def replay(self, c) -> None:
        self.lines(format_replay(c))

    def finish(self, summary: Summary) -> None:
        if summary.text:
            self.lines([summary.text])

"""The Output a command hands its results to, and the formats written as they go or as one document."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..check import CheckResult
from . import records
from .junit import junit_document
from .sarif import sarif_document


@dataclass(frozen=True)
class Summary:
    command: str
    counts: dict[str, int] = field(hash=False)
    seconds: float
    exit_code: int
    text: str | None = None  # the closing line of the text output, for commands that print one


class Output:
    """Collects a command's results; each format writes them its way."""

    def __init__(self, command: str, stream: TextIO | None = None):
        self.command = command
        self.stream = stream
        self.items: list[tuple] = []

    def check(self, result: CheckResult, trace: Path | None) -> None:
        self.add("check", result, trace)

    def lint(self, report, written: dict) -> None:
        self.add("lint", report, written)

    def diff(self, result, paths: dict) -> None:
        self.add("diff", result, paths)

    def coverage(self, result, props) -> None:
        self.add("coverage", result, props)

    def scenario(self, result) -> None:
        self.add("scenario", result)

    def replay(self, confirmation) -> None:
        self.add("replay", confirmation)

    def add(self, kind: str, *item) -> None:
        self.items.append((kind, *item))

    def finish(self, summary: Summary) -> None:
        self.write(self.document(summary))

    def document(self, summary: Summary) -> str:
        raise NotImplementedError(f"{type(self).__name__} writes as it goes")

    def write(self, text: str) -> None:
        stream = self.stream or sys.stdout
        stream.write(text)
        stream.flush()


class JsonLines(Output):
    """One JSON record per result, written and flushed as each is known; the summary record last."""

    def add(self, kind: str, *item) -> None:
        build = {
            "check": records.check_record, "lint": records.lint_record, "diff": records.diff_record,
            "coverage": lambda result, props: records.coverage_record(result),
            "scenario": records.scenario_record, "replay": records.replay_record,
        }[kind]
        self.line(build(*item))

    def finish(self, summary: Summary) -> None:
        self.line(records.summary_record(summary))

    def line(self, record: dict) -> None:
        self.write(json.dumps(record, ensure_ascii=False) + "\n")


class JUnit(Output):
    def document(self, summary: Summary) -> str:
        return junit_document(self.items, summary)


class Sarif(Output):
    def document(self, summary: Summary) -> str:
        return sarif_document(self.items, summary)

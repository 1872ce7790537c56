"""Checks and lint of several rule sets in worker processes.

A rule set's checks and its lint are independent of each other and of other rule sets, so they run
in parallel; the results come back in the order the rule sets were given, whatever the number of
workers, so the output does not depend on it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial

from .check import CheckResult, Verdict, check_properties
from .lint import LintReport, lint
from .model import Scope
from .properties import Property
from .ruleset import RuleSet


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def with_vacuity(checked: list[CheckResult], report: LintReport) -> list[CheckResult]:
    """A property that holds but whose trigger lint finds never fires is reported as vacuous."""
    vacuous = set(report.vacuous)
    return [replace(r, verdict=Verdict.VACUOUS) if r.verdict is Verdict.HOLDS and r.prop.id in vacuous else r for r in checked]


def check_rulesets(rulesets: list[RuleSet], props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool, jobs: int) -> Iterator[tuple[list[CheckResult], LintReport | None]]:
    """The checks of each rule set and, with `with_lint`, its lint report, in the given order.
    With more than one job, each rule set's checks and its lint are separate tasks for up to
    `jobs` worker processes (1: in this process, each result as soon as it is ready)."""
    check = partial(check_properties, props=props, scope=scope, seed=seed, timeout=timeout)
    linted = partial(lint, props=props, scope=scope, seed=seed, timeout=timeout)
    if jobs <= 1 or len(rulesets) * (1 + with_lint) == 1:
        for ruleset in rulesets:
            checked = check(ruleset)
            if not with_lint:
                yield checked, None
                continue
            report = linted(ruleset)
            yield with_vacuity(checked, report), report
        return
    # Fresh interpreters rather than forks: Z3 keeps native state that a fork would share.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        tasks = [(pool.submit(check, ruleset), pool.submit(linted, ruleset) if with_lint else None) for ruleset in rulesets]
        for checked, report in tasks:
            if report is None:
                yield checked.result(), None
            else:
                yield with_vacuity(checked.result(), report.result()), report.result()

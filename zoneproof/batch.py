"""Checks and lint of several rule sets in worker processes.

A rule set's checks and its lint are independent of each other and of other rule sets, so they run
in parallel; the results come back in the order the rule sets were given, whatever the number of
workers, so the output does not depend on it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial

from .check import CheckResult, Verdict, each_checked
from .lint import LintReport, lint
from .model import Scope
from .pool import task_pool
from .progress import Activity
from .properties import Property
from .ruleset import RuleSet


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def with_vacuity(checked: Iterable[CheckResult], report: LintReport) -> Iterator[CheckResult]:
    """A property that holds but whose trigger lint finds never fires is reported as vacuous."""
    vacuous = set(report.vacuous)
    return (replace(r, verdict=Verdict.VACUOUS) if r.verdict is Verdict.HOLDS and r.prop.id in vacuous else r for r in checked)


def check_rulesets(rulesets: list[RuleSet], props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool, jobs: int, listener: Callable[[Activity], None] | None = None,
                   scheduler: str | None = None) -> Iterator[tuple[Iterator[CheckResult], LintReport | None]]:
    """The checks of each rule set and, with `with_lint`, its lint report, in the given order.
    With more than one job, or a Dask `scheduler`, each rule set's checks and its lint are separate
    tasks (`pool.task_pool`; workers report their progress to `listener`). With one job they run in
    this process, the lint report first, then each check as soon as it is known."""
    check = partial(each_checked, props=props, scope=scope, seed=seed, timeout=timeout)
    linted = partial(lint, props=props, scope=scope, seed=seed, timeout=timeout)
    if scheduler is None and (jobs <= 1 or len(rulesets) * (1 + with_lint) == 1):
        for ruleset in rulesets:
            report = linted(ruleset) if with_lint else None
            yield (check(ruleset) if report is None else with_vacuity(check(ruleset), report)), report
        return
    checked_all = partial(_all_checked, props=props, scope=scope, seed=seed, timeout=timeout)
    with task_pool(jobs, scheduler, listener) as pool:
        tasks = [(pool.submit(checked_all, ruleset), pool.submit(linted, ruleset) if with_lint else None) for ruleset in rulesets]
        for checked, report in tasks:
            if report is None:
                yield iter(checked.result()), None
            else:
                yield with_vacuity(checked.result(), report.result()), report.result()


def _all_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float) -> list[CheckResult]:
    return list(each_checked(ruleset, props, scope, seed, timeout))

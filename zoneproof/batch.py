"""Independent tasks in worker processes: the checks and lint of several rule sets, the sides of a
diff, the removals of a coverage run, the lint of several rule sets.

The results come back in the order the tasks were given, whatever the number of workers, so the
output does not depend on it. The workers are those of `pool.task_pool`: local processes, or a Dask
cluster. An interrupt (Ctrl-C, SIGINT) stops them at once; the `Interrupted` raised then carries
the results of the tasks that had finished.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar

from .check import CheckResult, Verdict, each_checked
from .errors import Interrupted
from .lint import LintReport, lint
from .model import Scope
from .pool import task_pool
from .progress import Activity
from .properties import Property
from .ruleset import RuleSet

T = TypeVar("T")


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Unfinished:
    """What an interrupted task in this process had finished (the `known` of its Interrupted)."""

    known: object


def in_order(tasks: list[Callable[[], T]], jobs: int, listener: Callable[[Activity], None] | None = None,
             scheduler: str | None = None) -> Iterator[T]:
    """The result of each task (a picklable callable), in order. With more than one job and more
    than one task, or with a Dask `scheduler`, they run in `pool.task_pool` (whose workers report
    their progress to `listener`); otherwise this process runs them, each result as soon as it is ready.

    An interrupt while they run raises Interrupted whose `known` maps task indexes to the results
    that were ready but not yet yielded, and to Unfinished for a task this process was running."""
    if scheduler is None and (jobs <= 1 or len(tasks) <= 1):
        for index, task in enumerate(tasks):
            try:
                result = task()
            except Interrupted as e:
                raise Interrupted({index: Unfinished(e.known)}) from e
            except KeyboardInterrupt as e:
                raise Interrupted({}) from e
            yield result
        return
    futures: list = []
    yielded = 0
    try:
        with task_pool(min(jobs, len(tasks)), scheduler, listener) as pool:
            futures = [pool.submit(task) for task in tasks]
            for future in futures:
                result = future.result()
                yielded += 1
                yield result
    except KeyboardInterrupt as e:  # the pool has stopped its workers
        raise Interrupted({i: f.result() for i, f in enumerate(futures) if i >= yielded and _finished(f)}) from e


def _finished(future) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def with_vacuity(checked: Iterable[CheckResult], report: LintReport) -> Iterator[CheckResult]:
    """A property that holds but whose trigger lint finds never fires is reported as vacuous."""
    vacuous = set(report.vacuous)
    return (replace(r, verdict=Verdict.VACUOUS) if r.verdict.holds and r.prop.id in vacuous else r for r in checked)


def check_rulesets(rulesets: list[RuleSet], props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool, jobs: int, listener: Callable[[Activity], None] | None = None,
                   scheduler: str | None = None) -> Iterator[tuple[Iterator[CheckResult], LintReport | None]]:
    """The checks of each rule set and, with `with_lint`, its lint report, in the given order.
    With more than one job, or a Dask `scheduler`, each rule set's checks and its lint are separate
    tasks (`in_order`; workers report their progress to `listener`). With one job they run in
    this process, the lint report first, then each check as soon as it is known.

    On an interrupt, Interrupted's `known` lists, in order, (checks, report) of what had finished
    and was not yet given: the rest of the rule set being given, then each later rule set whose
    checks, or lint report, had finished (None for a report that had not)."""
    check = partial(each_checked, props=props, scope=scope, seed=seed, timeout=timeout)
    linted = partial(lint, props=props, scope=scope, seed=seed, timeout=timeout)
    if scheduler is None and (jobs <= 1 or len(rulesets) * (1 + with_lint) == 1):
        for ruleset in rulesets:
            try:
                report = linted(ruleset) if with_lint else None
            except KeyboardInterrupt as e:
                raise Interrupted([]) from e
            yield _streamed(check(ruleset), report), report
        return
    per_ruleset = 2 if with_lint else 1
    checked_all = partial(_all_checked, props=props, scope=scope, seed=seed, timeout=timeout)
    tasks = [task for ruleset in rulesets for task in (partial(checked_all, ruleset), partial(linted, ruleset))[:per_ruleset]]
    results = in_order(tasks, jobs, listener, scheduler)
    taken: list = []  # the results of the current rule set's tasks received so far
    current = 0
    try:
        for current in range(len(rulesets)):
            taken = []
            for _ in range(per_ruleset):
                taken.append(next(results))
            yield _combined(*taken)
    except Interrupted as e:
        known = []
        for r in range(current, len(rulesets)):
            parts = [taken[i] if r == current and i < len(taken) else e.known.get(r * per_ruleset + i) for i in range(per_ruleset)]
            if any(p is not None for p in parts):
                known.append(_combined(parts[0] or [], *parts[1:]))
        raise Interrupted(known) from e


def _streamed(checks: Iterator[CheckResult], report: LintReport | None) -> Iterator[CheckResult]:
    """The checks, as vacuous where the report says so; an interrupt raises Interrupted whose
    `known` is as check_rulesets gives it: the checks finished but not yet given, and the report."""
    try:
        yield from checks if report is None else with_vacuity(checks, report)
    except KeyboardInterrupt as e:
        rest = e.known if isinstance(e, Interrupted) else ()
        raise Interrupted([(iter(rest if report is None else with_vacuity(rest, report)), report)]) from e


def _combined(checked: list[CheckResult], report: LintReport | None = None) -> tuple[Iterator[CheckResult], LintReport | None]:
    return (iter(checked) if report is None else with_vacuity(checked, report)), report


def _all_checked(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float) -> list[CheckResult]:
    return list(each_checked(ruleset, props, scope, seed, timeout))

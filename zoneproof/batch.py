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


def expected_cost(ruleset: RuleSet) -> int:
    """A rough measure of what checking and linting the rule set costs, to start the dearest first:
    its action kinds times its rules in force (the goals lint asks, and the cases of each step)."""
    return len(ruleset.actions) * len(ruleset.in_force)


def in_order(tasks: list[Callable[[], T]], jobs: int, listener: Callable[[Activity], None] | None = None,
             scheduler: str | None = None, costs: list[int] | None = None) -> Iterator[T]:
    """The result of each task (a picklable callable), in order. With more than one job and more
    than one task, or with a Dask `scheduler`, they run in `pool.task_pool` (whose workers report
    their progress to `listener`), started dearest first by `costs` (one per task; the given order
    without) so that no large task is left to run alone at the end; otherwise this process runs
    them in order, each result as soon as it is ready.

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
            started = sorted(range(len(tasks)), key=lambda i: -costs[i]) if costs is not None else range(len(tasks))
            submitted = {i: pool.submit(tasks[i]) for i in started}
            futures = [submitted[i] for i in range(len(tasks))]
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
                   scheduler: str | None = None, stored: dict | None = None) -> Iterator[tuple[Iterator[CheckResult], LintReport | None]]:
    """The checks of each rule set and, with `with_lint`, its lint report, in the given order.
    A rule set's lint and its checks run in one process, lint first, so that they find the
    structural lemmas' invariant once (`proof.invariant`). With more than one job, or a Dask
    `scheduler`, each rule set is a task (`in_order`; workers report their progress to
    `listener`); with one job they run in this process, each check given as soon as it is known.

    On an interrupt, Interrupted's `known` lists, in order, (checks, report) of what had finished
    and was not yet given: the rest of the rule set being given, then each later rule set that
    had finished. `stored`: the runs each rule set's lint and checks replay first, by label (`store`)."""
    check = partial(each_checked, props=props, scope=scope, seed=seed, timeout=timeout)
    stored = stored or {}
    if scheduler is None and (jobs <= 1 or len(rulesets) == 1):
        for ruleset in rulesets:
            try:
                report = lint(ruleset, props, scope, seed, timeout, stored.get(ruleset.label)) if with_lint else None
            except KeyboardInterrupt as e:
                raise Interrupted([]) from e
            yield _streamed(check(ruleset, stored=stored.get(ruleset.label)), report), report
        return
    tasks = [partial(_checked_and_linted, ruleset, props=props, scope=scope, seed=seed, timeout=timeout, with_lint=with_lint,
                     stored=stored.get(ruleset.label)) for ruleset in rulesets]
    results = in_order(tasks, jobs, listener, scheduler, [expected_cost(ruleset) for ruleset in rulesets])
    try:
        for _ in rulesets:
            yield _combined(*next(results))
    except Interrupted as e:
        raise Interrupted([_combined(*e.known[i]) for i in sorted(e.known) if not isinstance(e.known[i], Unfinished)]) from e


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


def _checked_and_linted(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float,
                        with_lint: bool, stored=None) -> tuple[list[CheckResult], LintReport | None]:
    report = lint(ruleset, props, scope, seed, timeout, stored) if with_lint else None
    return list(each_checked(ruleset, props, scope, seed, timeout, stored)), report

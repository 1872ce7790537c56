"""Independent tasks in worker processes: the checks and lint of several rule sets, the sides of a
diff, the removals of a coverage run.

The results come back in the order the tasks were given, whatever the number of workers, so the
output does not depend on it. An interrupt (Ctrl-C, SIGINT) stops the workers at once; the
`Interrupted` raised then carries the results of the tasks that had finished.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar

from .check import CheckResult, Verdict, check_properties
from .errors import Interrupted
from .lint import LintReport, lint
from .model import Scope
from .properties import Property
from .ruleset import RuleSet

T = TypeVar("T")


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the workers now, whatever they are doing (a Z3 query may not return for minutes)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()


@dataclass(frozen=True)
class Unfinished:
    """What an interrupted task in this process had finished (the `known` of its Interrupted)."""

    known: object


def in_order(tasks: list[Callable[[], T]], jobs: int) -> Iterator[T]:
    """The result of each task (a picklable callable), in order. Up to `jobs` worker processes run
    them; with one job or one task, this process does, each result as soon as it is ready.

    An interrupt while they run raises Interrupted whose `known` maps task indexes to the results
    that were ready but not yet yielded, and to Unfinished for a task this process was running."""
    if jobs <= 1 or len(tasks) <= 1:
        for index, task in enumerate(tasks):
            try:
                result = task()
            except Interrupted as e:
                raise Interrupted({index: Unfinished(e.known)}) from e
            except KeyboardInterrupt as e:
                raise Interrupted({}) from e
            yield result
        return
    # Fresh interpreters rather than forks: Z3 keeps native state that a fork would share.
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=multiprocessing.get_context("spawn"))
    futures = []
    yielded = 0
    try:
        # The workers start with SIGINT ignored (an ignored signal stays ignored across exec): Ctrl-C
        # reaches every process of the terminal's group, and the parent stops the workers itself; a
        # worker that raised too would print a traceback of its own.
        parent = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            futures = [pool.submit(task) for task in tasks]
        finally:
            signal.signal(signal.SIGINT, parent)
        for future in futures:
            result = future.result()
            yielded += 1
            yield result
    except KeyboardInterrupt as e:
        ready = {i: f.result() for i, f in enumerate(futures) if i >= yielded and f.done() and not f.cancelled() and f.exception() is None}
        _stop(pool)
        raise Interrupted(ready) from e
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def with_vacuity(checked: list[CheckResult], report: LintReport) -> list[CheckResult]:
    """A property that holds but whose trigger lint finds never fires is reported as vacuous."""
    vacuous = set(report.vacuous)
    return [replace(r, verdict=Verdict.VACUOUS) if r.verdict is Verdict.HOLDS and r.prop.id in vacuous else r for r in checked]


def check_rulesets(rulesets: list[RuleSet], props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool, jobs: int) -> Iterator[tuple[list[CheckResult], LintReport | None]]:
    """The checks of each rule set and, with `with_lint`, its lint report, in the given order.
    Each rule set's checks and its lint are separate tasks for up to `jobs` worker processes.

    On an interrupt, Interrupted's `known` lists, in order, (checks, report) of the rule sets not
    yet given whose tasks had all finished, and (checks, None) where only the checks had, or
    (the checks finished so far, None) for a rule set this process was checking."""
    check = partial(check_properties, props=props, scope=scope, seed=seed, timeout=timeout)
    linted = partial(lint, props=props, scope=scope, seed=seed, timeout=timeout)
    per_ruleset = 2 if with_lint else 1
    tasks = [task for ruleset in rulesets for task in (partial(check, ruleset), partial(linted, ruleset))[:per_ruleset]]
    results = in_order(tasks, jobs)
    taken: list = []  # the results of the current rule set's tasks received so far
    current = 0
    try:
        for current in range(len(rulesets)):
            taken = []
            for _ in range(per_ruleset):
                taken.append(next(results))
            yield _combined(taken)
    except Interrupted as e:
        known = []
        for r in range(current, len(rulesets)):
            parts = [taken[i] if r == current and i < len(taken) else e.known.get(r * per_ruleset + i) for i in range(per_ruleset)]
            if all(p is not None and not isinstance(p, Unfinished) for p in parts):
                known.append(_combined(parts))
            elif isinstance(parts[0], Unfinished) and parts[0].known:
                known.append((list(parts[0].known), None))
            elif parts[0] is not None and not isinstance(parts[0], Unfinished):
                known.append((parts[0], None))
        raise Interrupted(known) from e


def _combined(parts: list) -> tuple[list[CheckResult], LintReport | None]:
    checked, report = parts[0], parts[1] if len(parts) > 1 else None
    return (checked if report is None else with_vacuity(checked, report)), report

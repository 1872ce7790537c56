"""Checks and lint of several rule sets, one rule set per worker process.

Each rule set is checked (and linted) on its own, so rule sets can run in parallel; the results
come back in the order the rule sets were given, whatever the number of workers, so the output
does not depend on it.
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


def check_and_lint(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool) -> tuple[list[CheckResult], LintReport | None]:
    """One rule set's checks and, with `with_lint`, its lint report; a property that holds but
    whose trigger lint finds never fires is reported as vacuous."""
    checked = check_properties(ruleset, props, scope, seed=seed, timeout=timeout)
    if not with_lint:
        return checked, None
    report = lint(ruleset, props, scope, seed=seed, timeout=timeout)
    vacuous = set(report.vacuous)
    return [replace(r, verdict=Verdict.VACUOUS) if r.verdict is Verdict.HOLDS and r.prop.id in vacuous else r for r in checked], report


def check_rulesets(rulesets: list[RuleSet], props: list[Property], scope: Scope, seed: int, timeout: float,
                   with_lint: bool, jobs: int) -> Iterator[tuple[list[CheckResult], LintReport | None]]:
    """check_and_lint of each rule set, in the given order, with up to `jobs` worker processes
    (1: in this process, each result as soon as it is ready)."""
    work = partial(check_and_lint, props=props, scope=scope, seed=seed, timeout=timeout, with_lint=with_lint)
    jobs = max(1, min(jobs, len(rulesets)))
    if jobs == 1:
        yield from map(work, rulesets)
        return
    # Fresh interpreters rather than forks: Z3 keeps native state that a fork would share.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield from pool.map(work, rulesets)

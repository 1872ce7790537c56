"""A CheckerBug (Z3 and the interpreter disagree: a bug in zoneproof) is never a traceback.

lint reports it as a finding of its own (exit 4) wherever in lint it is raised; one that no result
can carry, raised in this process or in a worker, ends the run with one line on stderr and exit 4,
and the pool's workers are ended rather than left running.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial

import pytest

import zoneproof.batch as batch
import zoneproof.check as check_module
import zoneproof.lint as lint_module
import zoneproof.search as search_module
from zoneproof.errors import CheckerBug

TINY = ("--players", "1", "--cards", "1", "--sideboard", "0", "--tokens", "0", "--depth", "2")
PLANTED = "planted: Z3's example does not replay"


def planted_bug(*args, **kwargs):
    raise CheckerBug(PLANTED)


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "File \"" not in err


@pytest.mark.parametrize("where", ["initial_conflict", "event_conflict", "_rule_finding", "_property_finding"])
def test_a_checker_bug_anywhere_in_lint_is_reported_with_exit_4(run, monkeypatch, where):
    monkeypatch.setattr(lint_module, where, planted_bug)
    code, out, err = run("lint", "berserk", "-p", "owner-zones", "--jobs", "1", *TINY)
    assert code == 4, out + err
    assert f"    error     {PLANTED}" in out
    assert "checker bug" in out
    no_traceback(err)


def test_a_checker_bug_after_an_unanswered_start_question_keeps_that_unknown(run, monkeypatch):
    monkeypatch.setattr(lint_module, "initial_conflict", lambda *a, **k: lint_module.ConflictSearch(unanswered="planted: no answer at the start"))
    monkeypatch.setattr(lint_module, "event_conflict", planted_bug)
    code, out, err = run("lint", "berserk", "-p", "owner-zones", "--jobs", "1", "--format", "json", *TINY)
    assert code == 4
    assert "planted: no answer at the start" in out and PLANTED in out
    no_traceback(err)


def test_a_model_that_satisfies_none_of_its_goals_is_a_checker_bug_of_lint(run, monkeypatch):
    """The deepening's own check (search.Deepening raises CheckerBug) on a model that is made to
    satisfy none of the goals asked about: lint's report says so, exit 4, in every format."""
    monkeypatch.setattr(search_module, "_holds_in", lambda model, goal: False)
    code, out, err = run("lint", "berserk", "-p", "owner-zones", "--jobs", "1", "--format", "json", *TINY)
    assert code == 4
    assert "satisfies none of them when evaluated" in out
    no_traceback(err)


@contextmanager
def thread_pool(jobs, scheduler=None, listener=None):
    """batch's task pool, with threads of this process for the worker processes (so that a
    function patched here is the one the workers run)."""
    executor = ThreadPoolExecutor(max_workers=jobs)
    try:
        yield executor
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def test_lint_of_several_rule_sets_in_workers_reports_the_checker_bug_of_each(run, monkeypatch):
    monkeypatch.setattr(batch, "task_pool", thread_pool)
    monkeypatch.setattr(lint_module, "event_conflict", planted_bug)
    code, out, err = run("lint", "berserk", "mtg-2010", "-p", "owner-zones", "--jobs", "2", *TINY)
    assert code == 4
    assert out.count(f"    error     {PLANTED}") == 2
    assert "lint berserk:" in out and "lint mtg-2010:" in out
    no_traceback(err)


def test_a_checker_bug_no_result_carries_ends_check_in_workers_with_one_line_and_exit_4(run, monkeypatch):
    monkeypatch.setattr(batch, "task_pool", thread_pool)
    monkeypatch.setattr(check_module, "_result", planted_bug)
    code, out, err = run("check", "berserk", "mtg-2010", "-p", "owner-zones", "--no-lint", "--jobs", "2", *TINY)
    assert code == 4
    assert err.strip().splitlines() == [f"zoneproof: checker bug: {PLANTED} (a bug in zoneproof, not in the input; please report it)"]


def test_a_checker_bug_in_a_worker_process_reaches_this_process_and_the_workers_end():
    """Real worker processes: the task before the bug gives its result, the bug arrives as the
    CheckerBug it is (not as a broken pool), and no worker outlives the run."""
    results = batch.in_order([partial(sum, [1, 2]), planted_bug, partial(sum, [3, 4])], jobs=2)
    assert next(results) == 3
    with pytest.raises(CheckerBug, match=PLANTED):
        next(results)
    ending = time.monotonic() + 10  # the pool is shut down as the bug is raised; its workers end soon after
    while multiprocessing.active_children() and time.monotonic() < ending:
        time.sleep(0.1)
    assert multiprocessing.active_children() == []

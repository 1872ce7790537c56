"""The order in which batch starts its tasks, and the order in which it gives their results."""

from concurrent.futures import Future
from contextlib import contextmanager

from zoneproof import batch
from zoneproof.ruleset import builtin_names, load_ruleset


def test_tasks_start_dearest_first_and_their_results_come_in_the_given_order(monkeypatch):
    started = []

    class RecordingPool:
        def submit(self, task):
            started.append(task())
            done = Future()
            done.set_result(started[-1])
            return done

    @contextmanager
    def recording_pool(jobs, scheduler=None, listener=None):
        yield RecordingPool()

    monkeypatch.setattr(batch, "task_pool", recording_pool)
    tasks = [lambda name=name: name for name in ("cheap", "dear", "middling")]
    assert list(batch.in_order(tasks, jobs=2, costs=[1, 5, 3])) == ["cheap", "dear", "middling"]
    assert started == ["dear", "middling", "cheap"]
    started.clear()
    assert list(batch.in_order(tasks, jobs=2)) == ["cheap", "dear", "middling"]
    assert started == ["cheap", "dear", "middling"]


def test_the_default_check_starts_a_commander_rule_set_first_and_berserk_last():
    rulesets = [load_ruleset(name) for name in builtin_names()]
    dearest_first = sorted(rulesets, key=lambda r: -batch.expected_cost(r))
    assert dearest_first[0].name.startswith("mtg-commander")
    assert dearest_first[-1].name == "berserk"


def test_a_consumer_that_stops_after_the_last_result_leaves_no_thread_of_the_pool_running():
    """The caller of in_order takes every result and drops it (as `zoneproof check` does, which
    never asks for one more): the pool, stopped then, leaves no thread of its own that the
    interpreter's exit would race with (an OSError on stderr after the output)."""
    import threading
    from functools import partial

    results = batch.in_order([partial(abs, -1), partial(abs, -2)], jobs=2)
    assert [next(results), next(results)] == [1, 2]
    results.close()
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive()]

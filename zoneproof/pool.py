"""Where independent tasks run: a pool of local worker processes (the default), or a Dask
distributed cluster (`--scheduler ADDRESS`, see cluster.py). Either way a task is a function of
zoneproof and its arguments, its result comes back to this process, and what it reports about its
progress reaches the listener here."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from . import progress


@contextmanager
def task_pool(jobs: int, scheduler: str | None = None, listener: Callable[[progress.Activity], None] | None = None) -> Iterator:
    """Something with `submit(function, *args)` returning a future with `result()`."""
    if scheduler is not None:
        from .cluster import dask_pool  # the optional extra `zoneproof[cluster]`

        with dask_pool(scheduler, listener) as pool:
            yield pool
        return
    # Fresh interpreters rather than forks: Z3 keeps native state that a fork would share.
    context = multiprocessing.get_context("spawn")
    with progress.relay(listener, context) as reporting:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, **reporting) as pool:
            yield pool

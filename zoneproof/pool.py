"""Where independent tasks run: a pool of local worker processes (the default), or a Dask
distributed cluster (`--scheduler ADDRESS`, see cluster.py). Either way a task is a function of
zoneproof and its arguments, its result comes back to this process, and what it reports about its
progress reaches the listener here.

Leaving the pool by an exception (an interrupt above all) stops its tasks at once rather than
waiting for them: a Z3 query may not return for minutes."""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from . import progress


@contextmanager
def task_pool(jobs: int, scheduler: str | None = None, listener: Callable[[progress.Activity], None] | None = None) -> Iterator:
    """Something with `submit(function, *args)` returning a future with `result()`, `done()`,
    `cancelled()` and `exception()`."""
    if scheduler is not None:
        from .cluster import dask_pool  # the optional extra `zoneproof[cluster]`

        with dask_pool(scheduler, listener) as pool:
            yield pool
        return
    # Fresh interpreters rather than forks: Z3 keeps native state that a fork would share.
    context = multiprocessing.get_context("spawn")
    with progress.relay(listener, context) as reporting:
        pool = LocalPool(ProcessPoolExecutor(max_workers=jobs, mp_context=context, **reporting))
        try:
            yield pool
        except BaseException:
            pool.stop()
            raise
        pool.executor.shutdown()


class LocalPool:
    """Worker processes that start with SIGINT ignored (an ignored signal stays ignored across the
    exec that starts them): Ctrl-C reaches every process of the terminal's group, and this process
    stops the workers itself; a worker that raised too would print a traceback of its own."""

    def __init__(self, executor: ProcessPoolExecutor):
        self.executor = executor

    def submit(self, function, *args):
        if threading.current_thread() is not threading.main_thread():  # only the main thread may set a handler
            return self.executor.submit(function, *args)
        parent = signal.getsignal(signal.SIGINT)
        try:  # an interrupt handled just after the handler is set must not leave SIGINT ignored
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the workers start in submit
            return self.executor.submit(function, *args)
        finally:
            signal.signal(signal.SIGINT, parent)

    def stop(self) -> None:
        """End the workers now, whatever they are doing."""
        terminate = getattr(self.executor, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
            return
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        # Waits for the executor's own thread too, which sees the workers end: left running, it
        # could close its wake-up pipe while the interpreter's exit writes to it (an OSError
        # printed on stderr after the command's output).
        self.executor.shutdown(wait=True, cancel_futures=True)
        for process in processes:
            process.join()

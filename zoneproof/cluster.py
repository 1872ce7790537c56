"""Tasks on a Dask distributed cluster: `--scheduler tcp://HOST:PORT` (`pip install 'zoneproof[cluster]'`
here and on every worker, the same version of zoneproof).

A task is the same function call the local pool makes; its result is pickled back to this
process, which writes the output and the traces, so they are byte for byte those of a local run.
Workers report their progress as Dask events on one topic, which this process subscribes to."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict

from . import progress
from .errors import InputError

PROGRESS_TOPIC = "zoneproof-progress"
CONNECT_SECONDS = 20


def _reporting(function, *args):
    """Run on a worker: the task, with its progress sent to the client as events."""
    from distributed import get_worker

    worker = get_worker()
    progress.listen(lambda activity: worker.log_event(PROGRESS_TOPIC, asdict(activity)))
    try:
        return function(*args)
    finally:
        progress.listen(None)


class _Future:
    def __init__(self, future):
        self.future = future

    def done(self) -> bool:
        return self.future.done()

    def cancelled(self) -> bool:
        return self.future.cancelled()

    def exception(self):
        return self.future.exception()

    def result(self):
        from concurrent.futures import CancelledError

        from distributed.comm.core import CommClosedError
        from distributed.scheduler import KilledWorker

        try:
            return self.future.result()
        except ModuleNotFoundError as e:
            raise InputError(f"a Dask worker cannot import {e.name}: install zoneproof (this version) on every worker") from None
        except (KilledWorker, CommClosedError, CancelledError) as e:
            raise InputError(f"the Dask cluster lost a task ({type(e).__name__}: {' '.join(str(e).split()[:12])}); check its workers and run again") from None


class DaskPool:
    def __init__(self, client, listener: Callable[[progress.Activity], None] | None):
        self.client = client
        self.listener = listener

    def submit(self, function, *args) -> _Future:
        task = _reporting if self.listener is not None else _plain
        return _Future(self.client.submit(task, function, *args, pure=False))


def _plain(function, *args):
    return function(*args)


@contextmanager
def dask_pool(address: str, listener: Callable[[progress.Activity], None] | None = None) -> Iterator[DaskPool]:
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs Dask's distributed package: pip install 'zoneproof[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(f"--scheduler {address}: cannot reach a Dask scheduler there ({' '.join(str(e).split()[:16])});"
                         " give the address `dask scheduler` prints, as in tcp://127.0.0.1:8786") from None
    with client:  # closing it releases the tasks it submitted, also when an interrupt leaves them unfinished
        if listener is not None:
            client.subscribe_topic(PROGRESS_TOPIC, lambda event: listener(progress.Activity(**event[1])))
        yield DaskPool(client, listener)
        if listener is not None:
            client.unsubscribe_topic(PROGRESS_TOPIC)

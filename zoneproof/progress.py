"""What a long run is doing, while it does it: the rule set and the property (or lint) each worker
is on and the depth of the query it asks Z3, reported by the checking code through `working_on`
and `at_depth`; shown on a terminal by `Display`, as log lines with --verbose, not at all with
--quiet or when no one listens. Reporting costs nothing while no one listens.

Worker processes report through a queue that a thread of the main process reads (`relay`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text


@dataclass(frozen=True)
class Activity:
    worker: int  # the process id
    ruleset: str
    what: str  # a property id, "N properties together", "lint"
    depth: int | None = None  # the depth bound of the query being asked


_listener: Callable[[Activity], None] | None = None
_current: Activity | None = None


def listen(listener: Callable[[Activity], None] | None) -> None:
    """Send this process's activities to `listener` (None: to no one)."""
    global _listener, _current
    _listener, _current = listener, None


def working_on(ruleset: str, what: str) -> None:
    global _current
    if _listener is not None:
        _current = Activity(os.getpid(), ruleset, what)
        _listener(_current)


def at_depth(depth: int) -> None:
    global _current
    if _listener is not None and _current is not None and _current.depth != depth:
        _current = Activity(_current.worker, _current.ruleset, _current.what, depth)
        _listener(_current)


def _put_on(queue) -> None:
    listen(queue.put)


@contextmanager
def relay(listener: Callable[[Activity], None] | None, mp_context) -> Iterator[dict]:
    """The worker-pool arguments (`initializer`, `initargs`) that make workers report to `listener`
    in this process; nothing while there is no listener."""
    if listener is None:
        yield {}
        return
    queue = mp_context.Queue()
    stopped = threading.Event()

    def forward():
        while (activity := queue.get()) is not None:
            if not stopped.is_set():
                listener(activity)

    reader = threading.Thread(target=forward, daemon=True)
    reader.start()
    try:
        yield {"initializer": _put_on, "initargs": (queue,)}
    except BaseException:
        # The workers were stopped (pool.py), perhaps while one wrote to the queue: leave the reader
        # waiting (it is a daemon thread) and pass on nothing more.
        stopped.set()
        raise
    queue.put(None)
    reader.join(timeout=5)


class Display:
    """A rich progress display on stderr: a bar over the whole run with its elapsed time and ETA,
    and below it a line per worker with the rule set, what it checks and the depth. As a `log`, a
    line on stderr for every activity instead (for logs and pipes); `off`, nothing."""

    def __init__(self, total: int | None, console: Console, mode: str):
        self.console = console
        self.mode = mode
        self.started = time.monotonic()
        self.bar = Progress(SpinnerColumn(), TextColumn("checking"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(), console=console)
        self.run = self.bar.add_task("checking", total=total)
        self.workers: dict[int, str] = {}
        self.live = Live(self, console=console, transient=True, refresh_per_second=8) if mode == "bar" else None

    def __rich__(self):
        return Group(self.bar.make_tasks_table(self.bar.tasks), *(Text(f"  {line}", overflow="ellipsis", no_wrap=True) for line in list(self.workers.values())))

    @property
    def listener(self) -> Callable[[Activity], None] | None:
        return None if self.mode == "off" else self.show

    def show(self, a: Activity) -> None:
        depth = f"  depth ≤ {a.depth}" if a.depth is not None else ""
        text = f"{a.ruleset}  {a.what}{depth}"
        if self.mode == "log":
            self.console.print(f"zoneproof: {time.monotonic() - self.started:7.1f}s  {text}", markup=False, highlight=False)
        else:
            self.workers[a.worker] = text

    def advance(self, amount: int) -> None:
        self.bar.advance(self.run, amount)


@contextmanager
def display(total: int | None, quiet: bool, verbose: bool) -> Iterator[Display]:
    """The progress of a run of `total` units of work (None: not known ahead), shown on stderr while this process listens:
    a progress display when stderr is a terminal, log lines with `verbose`, nothing with `quiet`
    (or on a pipe without `verbose`)."""
    console = Console(stderr=True, highlight=False)
    mode = "off" if quiet else "log" if verbose else "bar" if console.is_terminal else "off"
    shown = Display(total, console, mode)
    listen(shown.listener)
    if shown.live:
        shown.live.start()
    try:
        yield shown
    finally:
        if shown.live:
            shown.live.stop()
        listen(None)

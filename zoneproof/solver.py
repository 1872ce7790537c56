"""The one place that runs Z3: solver creation with a fixed seed, and a check that never hides `unknown`."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

import z3


class Answer(Enum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolverResult:
    answer: Answer
    model: z3.ModelRef | None = None
    reason: str = ""  # Z3's reason_unknown() for UNKNOWN
    core: tuple[str, ...] = ()  # names of the assumptions in the unsat core, for UNSAT


def new_solver(ctx: z3.Context, seed: int) -> z3.Solver:
    solver = z3.Solver(ctx=ctx)
    solver.set("random_seed", seed)
    # Z3 would catch SIGINT itself and give up with a reason that is sometimes "canceled", as after
    # a timeout; Python's handler sees it instead (see _interruptible).
    solver.set("ctrl_c", False)
    return solver


def isolated(seed: int) -> tuple[z3.Solver, Callable[[z3.ExprRef], z3.ExprRef]]:
    """A solver in a Z3 context of its own, and the function that copies a term there: its queries
    make no term in the original context and learn nothing there, so that context's own searches
    stay as they were."""
    ctx = z3.Context()
    return new_solver(ctx, seed), lambda term: term.translate(ctx)


def restated(formulas: list, seed: int) -> z3.Solver:
    """A solver of formulas, in a Z3 context of its own, read back from their SMT-LIB text: what
    Z3 finds then depends on the formulas alone, not on what their own context was asked before."""
    source = z3.Solver(ctx=formulas[0].ctx)
    source.add(formulas)
    solver = new_solver(z3.Context(), seed)
    solver.from_string(source.to_smt2())
    return solver


# The reason Z3 gives when it caught SIGINT itself (a solver made without new_solver): Ctrl-C, not a budget.
INTERRUPTED = "interrupted from keyboard"


# A Ctrl-C that came while Python was freeing a Z3 object: raised at the next solver call instead.
_deferred_interrupt = threading.Event()


def _on_sigint(signum, frame) -> None:
    """Python's own Ctrl-C, except inside a finaliser (a Z3 object's __del__), where Python would
    print the KeyboardInterrupt and drop it, inside the constructor of a Z3 object, which would
    be left half made (its finaliser then fails when Python frees it), or while ctypes converts an
    argument of a call into Z3 (z3py's types convert themselves in Python), where ctypes would turn
    it into an ArgumentError: that one waits for the next solver call."""
    while frame is not None:
        code = frame.f_code
        if (code.co_name == "__del__" or (code.co_name == "__init__" and code.co_filename == z3.z3.__file__)
                or (code.co_name == "from_param" and code.co_filename == z3.z3types.__file__)):
            _deferred_interrupt.set()
            return
        frame = frame.f_back
    signal.default_int_handler(signum, None)


@contextmanager
def interrupts_kept() -> Iterator[None]:
    """Within it, no Ctrl-C is lost to a finaliser (see _on_sigint). Where SIGINT is ignored, as in
    a job started in the background, it stays ignored."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    _deferred_interrupt.clear()
    previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _raise_deferred_interrupt() -> None:
    if _deferred_interrupt.is_set():
        _deferred_interrupt.clear()
        raise KeyboardInterrupt


def _interruptible(questions: list[tuple[z3.Solver, list]]) -> list:
    """solver.check(*assumptions) of each question, each in a thread of its own, all at once, so
    that Ctrl-C reaches Python at once (signal handlers run in the main thread, between bytecodes)
    and the searches run on as many cores: each solver is in a Z3 context of its own, which no other
    thread uses meanwhile. The interrupt stops every search and is raised again here."""
    _raise_deferred_interrupt()
    if len(questions) == 1 and threading.current_thread() is not threading.main_thread():
        solver, assumptions = questions[0]
        return [solver.check(*assumptions)]
    outcomes: list = [None] * len(questions)
    finished = [threading.Event() for _ in questions]

    def run(i: int) -> None:
        solver, assumptions = questions[i]
        try:
            outcomes[i] = (True, solver.check(*assumptions))
        except BaseException as e:  # handed to the caller below
            outcomes[i] = (False, e)
        finally:
            finished[i].set()

    # Events, not Thread.join: a KeyboardInterrupt inside join() can leave a running thread marked
    # as stopped (Python 3.11), and the caller would then free Z3 objects the search still uses.
    for i in range(len(questions)):
        threading.Thread(target=run, args=(i,), daemon=True).start()
    try:
        for event in finished:
            while not event.wait(0.05):
                _raise_deferred_interrupt()
    except KeyboardInterrupt:
        for (solver, _), event in zip(questions, finished):
            while not event.wait(0.05):  # an interrupt that came before Z3 began its search is lost: repeat it
                solver.ctx.interrupt()
        raise
    for ok, value in outcomes:
        if not ok:
            raise value
    return [value for _, value in outcomes]


# Z3's resource units a budget gives for each second of `--timeout`: fewer than Z3 spends in a
# second on these questions (docs/speed.md), so that the units, counted the same on a loaded machine
# and an idle one, run out before the wall-clock guard.
UNITS_PER_SECOND = 5_000_000


def units_for(seconds: float) -> int:
    """The resource units of a budget of `seconds`."""
    return int(seconds * UNITS_PER_SECOND)


# How many times a budget's seconds its wall-clock guard allows: Z3 spends UNITS_PER_SECOND units in
# less than a second on an idle core here, so the units run out first on a machine up to about
# that many times as loaded, and the verdicts do not depend on its load.
WALL_GUARD = 3


def guard_for(seconds: float) -> float:
    """The wall-clock seconds after which a budget of `seconds` gives up, its units left or not."""
    return seconds * WALL_GUARD


# The largest resource limit Z3 takes: it reads `rlimit` as an unsigned 32-bit number, so a larger
# one would wrap round to a small one.
MAX_RLIMIT = 2**32 - 1


def resource_count(solver: z3.Solver) -> int:
    """The resource units Z3 has spent in the solver's context so far (`rlimit` counts from it)."""
    return int(solver.statistics().get_key_value("rlimit count"))


def check(solver: z3.Solver, assumptions: list, timeout_ms: int, rlimit: int = 0) -> SolverResult:
    """Check under assumptions with a budget: Z3's resource units (`rlimit`, 0 for no limit) and
    wall-clock milliseconds. `unknown` comes back as UNKNOWN with Z3's reason; a search that Ctrl-C
    stopped raises KeyboardInterrupt, as Python code would."""
    return check_at_once([(solver, assumptions, timeout_ms, rlimit)])[0]


def check_at_once(questions: list[tuple[z3.Solver, list, int, int]]) -> list[SolverResult]:
    """`check` of each question (solver, assumptions, timeout_ms, rlimit), all asked at once: the
    solvers must be in Z3 contexts of their own (`isolated`)."""
    for solver, _, timeout_ms, rlimit in questions:
        solver.set("timeout", max(1, int(timeout_ms)))
        solver.set("rlimit", min(int(rlimit), MAX_RLIMIT))
    answers = _interruptible([(solver, assumptions) for solver, assumptions, _, _ in questions])
    return [_result(solver, answer) for (solver, *_), answer in zip(questions, answers)]


def _result(solver: z3.Solver, answer) -> SolverResult:
    if answer == z3.sat:
        return SolverResult(Answer.SAT, model=solver.model())
    if answer == z3.unsat:
        return SolverResult(Answer.UNSAT, core=tuple(str(x) for x in solver.unsat_core()))
    reason = solver.reason_unknown() or "unknown"
    if reason == INTERRUPTED:
        raise KeyboardInterrupt
    return SolverResult(Answer.UNKNOWN, reason=reason)

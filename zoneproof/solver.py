"""The one place that runs Z3: solver creation with a fixed seed, and a check that never hides `unknown`."""

from __future__ import annotations

from collections.abc import Callable
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
    return solver


def isolated(seed: int) -> tuple[z3.Solver, Callable[[z3.ExprRef], z3.ExprRef]]:
    """A solver in a Z3 context of its own, and the function that copies a term there: its queries
    make no term in the original context and learn nothing there, so that context's own searches
    stay as they were."""
    ctx = z3.Context()
    return new_solver(ctx, seed), lambda term: term.translate(ctx)


# Z3 catches SIGINT while it searches and gives up with this reason: the user's Ctrl-C, not a budget.
INTERRUPTED = "interrupted from keyboard"


def check(solver: z3.Solver, assumptions: list, timeout_ms: int) -> SolverResult:
    """Check under assumptions with a time budget. `unknown` comes back as UNKNOWN with Z3's reason;
    a search that Ctrl-C stopped raises KeyboardInterrupt, as Python code would."""
    solver.set("timeout", max(1, int(timeout_ms)))
    answer = solver.check(*assumptions)
    if answer == z3.sat:
        return SolverResult(Answer.SAT, model=solver.model())
    if answer == z3.unsat:
        return SolverResult(Answer.UNSAT, core=tuple(str(x) for x in solver.unsat_core()))
    reason = solver.reason_unknown() or "unknown"
    if reason == INTERRUPTED:
        raise KeyboardInterrupt
    return SolverResult(Answer.UNKNOWN, reason=reason)

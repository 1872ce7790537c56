"""Budgets in Z3's resource units: a check's verdicts do not depend on how loaded the machine is.

A phase of a check (its lemmas, an induction, a deepening) shares `solver.units_for(--timeout)`
units among its questions; the wall clock is only an outer guard.
"""

from __future__ import annotations

import os
import subprocess
import sys

import z3

from zoneproof import proof as proof_module
from zoneproof import solver as solver_module
from zoneproof.check import Verdict, check_properties
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset
from zoneproof.search import Budget, Units
from zoneproof.solver import Answer, new_solver

PROPS = {p.id: p for p in stock_properties()}


def pigeons(ctx: z3.Context, n: int) -> z3.Solver:
    """n + 1 pigeons in n holes: unsatisfiable, and dear for Z3 as n grows."""
    solver = new_solver(ctx, 0)
    holes = [[z3.Bool(f"p{i}h{j}", ctx) for j in range(n)] for i in range(n + 1)]
    solver.add([z3.Or(row) for row in holes])
    solver.add([z3.Not(z3.And(holes[a][j], holes[b][j])) for j in range(n) for a in range(n + 1) for b in range(a)])
    return solver


def test_the_questions_of_a_phase_share_its_units():
    budget = Budget(10**9, seconds=600, shared=Units(10**9))
    assert budget.ask(pigeons(z3.Context(), 5), []).answer is Answer.UNSAT
    spent = 10**9 - budget.shared.left
    assert spent > 0
    assert budget.ask(pigeons(z3.Context(), 5), []).answer is Answer.UNSAT
    assert 10**9 - budget.shared.left == 2 * spent  # the same question costs the same units again
    short = Budget(10**9, seconds=600, shared=Units(spent // 2))
    answer = short.ask(pigeons(z3.Context(), 5), [])
    assert (answer.answer, answer.reason) == (Answer.UNKNOWN, "budget")
    assert short.shared.left <= 0
    assert short.ask(pigeons(z3.Context(), 1), []).reason == "budget"  # nothing left: not even an easy question


def test_questions_asked_at_once_answer_as_one_by_one_each_with_the_units_left():
    """Certify asks its questions at once, one core each, and a check's Houdini asks one beside the
    induction (`Budget.ask_at_once`)."""
    def questions():
        easy = new_solver(z3.Context(), 0)
        easy.add(z3.Bool("x", easy.ctx))
        return [(pigeons(z3.Context(), 5), []), (easy, [])]

    one_by_one = Budget(10**9, seconds=600, shared=Units(10**9))
    answers = [one_by_one.ask(solver, assumptions) for solver, assumptions in questions()]
    at_once = Budget(10**9, seconds=600, shared=Units(10**9))
    assert [a.answer for a in at_once.ask_at_once(questions())] == [a.answer for a in answers] == [Answer.UNSAT, Answer.SAT]
    assert at_once.shared.left == one_by_one.shared.left  # the same units spent
    one = Budget(10**9, seconds=600, shared=Units(10**9))
    one.ask(pigeons(z3.Context(), 5), [])
    spent = 10**9 - one.shared.left
    # units for one of the two, not for both in turn: each has them all, however fast the other runs
    short = Budget(10**9, seconds=600, shared=Units(spent + spent // 2))
    assert [a.answer for a in short.ask_at_once([(pigeons(z3.Context(), 5), []), (pigeons(z3.Context(), 5), [])])] == [Answer.UNSAT] * 2
    assert short.shared.left == spent // 2 - spent
    uncharged = Budget(10**9, seconds=600, shared=Units(10**9))
    uncharged.ask_at_once([(pigeons(z3.Context(), 5), []), (pigeons(z3.Context(), 5), [])], charged=1)
    assert 10**9 - uncharged.shared.left == spent  # the question asked beside it is not charged


def test_a_budget_past_what_z3_can_count_is_not_wrapped_round_to_a_small_one():
    """Z3 reads its resource limit as an unsigned 32-bit number: `--timeout 1000` gives 5,000 million
    units, which would otherwise wrap round to 705 million, and 2**32 + 10 to 10."""
    answer = Budget(2**32 + 10, seconds=600).ask(pigeons(z3.Context(), 6), [])
    assert answer.answer is Answer.UNSAT


def busy_cores(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def test_a_check_that_runs_out_of_units_stops_at_the_same_depth_on_a_loaded_machine(monkeypatch):
    """With few units a second, the deepening runs out of units before the violation at depth 4
    (without 405.5, stack-lifo): the same verdict, depth and reason idle and with every core busy.
    Each run starts as a new process does: the lemmas' invariant that one finds is kept for the
    process's later checks (`proof.invariant`), and a later check, with the units Houdini took
    left to it and its formulas built in another order, is another run."""
    monkeypatch.setattr(solver_module, "UNITS_PER_SECOND", 80_000)
    ruleset = load_ruleset("mtg-current").without(["405.5"])

    def run():
        monkeypatch.setattr(proof_module, "_found", {})
        return [(r.verdict, r.depth, r.reason) for r in check_properties(ruleset, [PROPS["stack-lifo"]], Scope(), timeout=60)]
    idle = run()
    hogs = busy_cores(max(1, (os.cpu_count() or 2) - 1))  # with this process, every core busy
    try:
        loaded = run()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert idle == loaded
    [(verdict, depth, reason)] = idle
    # depth 2 or 3: where the units run out moves with the encoding's size (406.6's link made it
    # larger) and with what the process built before; at these units it stops before the violation (depth 4)
    assert verdict is Verdict.UNKNOWN and reason.startswith("budget") and depth in (2, 3)


def test_the_wall_clock_guard_is_looser_than_the_units(monkeypatch):
    """`--timeout 10` gives each question (and each phase) the units of 10 s, which Z3 spends in
    less than 10 s here, and 30 s of wall-clock time: on a machine loaded up to three times over,
    the units run out first."""
    asked = []
    monkeypatch.setattr("zoneproof.search.check", lambda solver, assumptions, timeout_ms, rlimit: asked.append((timeout_ms, rlimit)) or
                        solver_module.SolverResult(Answer.UNSAT))
    solver = new_solver(z3.Context(), 0)
    for budget in (Budget.each(10), Budget.phase(10)):
        budget.ask(solver, [])
    for timeout_ms, rlimit in asked:
        assert rlimit == solver_module.units_for(10)
        assert 29_000 < timeout_ms <= 30_000

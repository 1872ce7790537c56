"""Ctrl-C: the run stops promptly, workers included, prints the results finished before it and a
line saying it was interrupted, leaves no partial file, and exits 130.

Three ways in: SIGINT sent to the process alone (as `kill -INT` does), Ctrl-C typed in a
pseudo-terminal (the terminal sends SIGINT to every process of the foreground group, the worker
processes too), and, in this process, a Z3 search that SIGINT cancels (Z3 catches SIGINT while it
searches and answers `unknown`; that must stop the run, not read as a timeout).
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import z3

from conftest import json_records
from test_budget import pigeons
import zoneproof.check as check_module
from zoneproof.solver import INTERRUPTED, check, check_at_once, interrupts_kept, new_solver

# Long enough to be interrupted on any machine: without 405.5, stack-lifo's first violation lies five steps
# deep, past the explicit first stage and what induction can prove; at four cards Z3 takes about 15 s to reach it.
LONG = ["check", "mtg-current", "--without", "405.5", "-p", "owner-zones", "-p", "one-zone", "-p", "stack-lifo",
        "--cards", "4", "--depth", "14", "--timeout", "600", "--no-lint"]
PROMPT = 10.0  # seconds from the signal to the exit, with room for a loaded machine


def zoneproof(*args: str) -> list[str]:
    return [sys.executable, "-m", "zoneproof", *args]


def default_sigint() -> None:
    # A shell without job control starts background commands with SIGINT ignored; a user's terminal does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def no_partial_files(folder: Path) -> None:
    leftovers = [p.name for p in folder.rglob("*") if p.name.startswith(".zoneproof-") or p.suffix == ".tmp"]
    assert leftovers == []


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(pids, seconds: float) -> None:
    """Until the processes have used `seconds` of CPU time between them (or a minute has passed)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(cpu_seconds(p) for p in pids()) < seconds:
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def sigint_to_the_process(tmp_path: Path, args: list[str]) -> tuple[str, str]:
    """Run zoneproof, send SIGINT to it alone once it is solving, and check that it stops promptly
    with exit 130, a last line on stderr that says so and no traceback; its stdout and stderr."""
    process = subprocess.Popen(zoneproof(*args), cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    wait_for_cpu(lambda: [process.pid], 3.0)  # past the imports, into the solving, however loaded the machine is
    assert process.poll() is None, process.communicate()
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # a run that does not stop must not outlive the test
            process.kill()
            process.communicate()
    assert time.monotonic() - sent < PROMPT
    assert process.returncode == 130
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("zoneproof: interrupted")
    return out, err


def test_sigint_to_the_process_stops_it_promptly_with_exit_130(tmp_path):
    out, _ = sigint_to_the_process(tmp_path, [*LONG, "--jobs", "1", "--out", str(tmp_path / "out")])
    # what is printed is finished or says it was interrupted: never stack-lifo, which is violated, as
    # holds or proved
    lines = [line for line in out.splitlines() if line.startswith("mtg-current")]
    assert all(" proved " in line or (" unknown " in line and "(interrupted: " in line) for line in lines)
    assert not any("stack-lifo" in line and (" holds " in line or " proved " in line) for line in lines)
    assert out.splitlines()[-1].startswith(f"{len(lines)} checks:")
    no_partial_files(tmp_path)


def test_ctrl_c_in_a_terminal_stops_the_workers_too(tmp_path):
    code, text = ctrl_c_in_a_terminal(tmp_path, [*LONG[:1], "mtg-2010", *LONG[1:], "--jobs", "2"], solving=4.0)
    assert code == 130, text
    assert "zoneproof: interrupted" in text and "Traceback" not in text


def _read(fd: int, wait: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:  # the child closed the terminal
        return b""


def test_a_z3_search_cancelled_by_sigint_interrupts_and_the_finished_results_are_printed(run, monkeypatch):
    """In this process, deterministically: the deepening's first two questions are answered (no
    violation at depths 0 and 1), then Z3 reports the search it was in as cancelled by SIGINT:
    every property is printed with the depth completed."""
    monkeypatch.setattr(check_module, "_first_stage", lambda *args: {})  # every violation left to Z3's search
    monkeypatch.setattr(check_module, "SLICE_AT_MOST", 0)  # and every question counted below is the search's
    calls = []
    real_check, real_reason = z3.Solver.check, z3.Solver.reason_unknown

    def check(solver, *assumptions):
        calls.append(solver)
        return z3.unknown if len(calls) > 2 else real_check(solver, *assumptions)

    monkeypatch.setattr(z3.Solver, "check", check)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda solver: INTERRUPTED if len(calls) > 2 else real_reason(solver))
    code, out, err = run("check", "mtg-current", "-w", "400.3", "-p", "tokens", "-p", "exile-in-exile", "-p", "owner-zones",
                         "--cards", "1", "--depth", "2", "--no-lint", "--jobs", "1")
    assert code == 130
    lines = [line for line in out.splitlines() if line.startswith("mtg-current")]
    assert [line.split()[1:3] for line in lines] == [["tokens", "unknown"], ["exile-in-exile", "unknown"], ["owner-zones", "unknown"]]
    assert all("interrupted: no violation up to depth 1" in line for line in lines)
    assert out.splitlines()[-1].startswith("3 checks: 0 violated, 0 holds")
    assert err.strip().splitlines()[-1].startswith("zoneproof: interrupted")
    assert not Path("counterexamples").exists()


# ---------------------------------------------------------------- lint and coverage

LINT_LONG = ["lint", "mtg-current", "-p", "ordered-zones", "--depth", "6", "--timeout", "600"]
COVERAGE_LONG = ["coverage", "mtg-current", "-p", "ordered-zones", "--depth", "6", "--timeout", "600"]
TINY = ["--cards", "1", "--sideboard", "0", "--tokens", "0", "--depth", "2"]


def test_sigint_stops_lint_promptly_and_the_json_output_ends_with_its_summary(tmp_path):
    out, _ = sigint_to_the_process(tmp_path, [*LINT_LONG, "--jobs", "1", "--format", "json", "--witness"])
    [summary] = [json.loads(line) for line in out.splitlines()]  # no report was finished: the summary alone
    assert summary["type"] == "summary" and summary["command"] == "lint" and summary["exit_code"] == 130
    assert not (tmp_path / "counterexamples").exists() or not any((tmp_path / "counterexamples").iterdir())
    no_partial_files(tmp_path)


def ctrl_c_in_a_terminal(tmp_path: Path, args: list[str], solving: float) -> tuple[int, str]:
    """Run zoneproof in a pseudo-terminal of its own, type Ctrl-C once its workers are solving,
    and check that it and they stop promptly; the exit code and what the terminal showed."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: a terminal of its own, as a user's shell would give it
        default_sigint()
        os.chdir(tmp_path)
        os.execv(sys.executable, zoneproof(*args))
    output = b""
    workers: set[int] = set()
    started = time.monotonic()
    while not workers and time.monotonic() - started < 60:  # wait for the workers to start
        output += _read(terminal, 0.2)
        workers = children(pid)
    wait_for_cpu(lambda: children(pid), solving)  # the workers are solving
    workers = children(pid)
    assert workers
    os.write(terminal, b"\x03")  # Ctrl-C
    sent = time.monotonic()
    while True:
        output += _read(terminal, 0.2)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        assert time.monotonic() - sent < PROMPT, output
    output += _read(terminal, 0.2)
    deadline = time.monotonic() + PROMPT
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers)
    no_partial_files(tmp_path)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")


def test_ctrl_c_in_a_terminal_stops_coverage_and_its_workers(tmp_path):
    code, text = ctrl_c_in_a_terminal(tmp_path, [*COVERAGE_LONG, "--jobs", "2"], solving=2.5)
    assert code == 130, text
    assert "zoneproof: interrupted" in text and "Traceback" not in text


class Interrupting:
    """Z3 reports every search as cancelled by SIGINT once `progress.working_on` has announced
    `after` tasks: the run is interrupted at the start of the next one, deterministically."""

    def __init__(self, monkeypatch, after: int):
        import zoneproof.progress as progress

        self.started: list[str] = []
        real_working_on, real_check, real_reason = progress.working_on, z3.Solver.check, z3.Solver.reason_unknown

        def working_on(ruleset, what):
            self.started.append(ruleset)
            real_working_on(ruleset, what)

        stopped = lambda: len(self.started) > after  # noqa: E731
        monkeypatch.setattr(progress, "working_on", working_on)
        monkeypatch.setattr(z3.Solver, "check", lambda solver, *a: z3.unknown if stopped() else real_check(solver, *a))
        monkeypatch.setattr(z3.Solver, "reason_unknown", lambda solver: INTERRUPTED if stopped() else real_reason(solver))


def test_an_interrupted_lint_prints_the_reports_finished_and_writes_only_theirs(run, monkeypatch, tmp_path):
    """berserk's lint finishes, then Ctrl-C in mtg-current's: berserk's report and witness traces,
    nothing of mtg-current's, exit 130."""
    Interrupting(monkeypatch, after=1)
    code, out, err = run("lint", "berserk", "mtg-current", "-p", "owner-zones", "-p", "tokens", "--witness", "--jobs", "1", *TINY)
    assert code == 130
    assert out.startswith("lint berserk: ") and "lint mtg-current" not in out
    assert out.rstrip().splitlines()[-1].startswith("  ✗ ")  # berserk's report is there to its last line
    assert err.strip().splitlines()[-1].startswith("zoneproof: interrupted")
    written = sorted(p.name for p in (tmp_path / "counterexamples").iterdir())
    assert written == ["berserk--owner-zones--witness.itf.json"]
    code, replayed, _ = run("replay", str(tmp_path / "counterexamples" / written[0]))
    assert code == 0, replayed
    no_partial_files(tmp_path)


def test_an_interrupted_coverage_prints_the_rules_checked_before_it(run, monkeypatch):
    """Ctrl-C while the fourth rule's removal is checked: the three rules checked before it have
    rows, marked as the part checked; the JSON document says it is not finished; exit 130."""
    interrupting = Interrupting(monkeypatch, after=4)  # the unmodified rule set, then three removals
    code, out, err = run("coverage", "mtg-current", "-p", "owner-zones", "--jobs", "1", "--format", "json", *TINY)
    assert code == 130
    [matrix, summary] = json_records(out)
    checked = [row["rule"] for row in matrix["rules"] if row["results"]]
    # The first three rules that constrain something, in the file's order, and 704.5e between them,
    # whose removal owner-zones's checks do not read: its row has the intact verdicts, asked nothing.
    assert checked == ["111.7", "111.8", "704.5e", "400.2"]
    assert matrix["finished"] is False and matrix["baseline"]["owner-zones"]["verdict"] == "holds"
    assert summary["exit_code"] == 130
    assert err.strip().splitlines()[-1].startswith("zoneproof: interrupted")
    interrupting.started.clear()
    code, out, _ = run("coverage", "mtg-current", "-p", "owner-zones", "--jobs", "1", *TINY)
    assert code == 130
    assert "checked before the interrupt" in out


@pytest.fixture
def sigint_as_in_a_terminal():
    """Python's own SIGINT handler, as in a user's terminal: a shell without job control starts
    background commands (this suite, when CI runs it so) with SIGINT ignored, and interrupts_kept
    leaves an ignored SIGINT ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class FreedSlowly:
    """An object whose finaliser runs long enough for a signal sent in it to be handled there, as
    a Ctrl-C can come while Python frees one of Z3's terms."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline:
            pass


def test_a_ctrl_c_while_an_object_is_freed_is_not_lost_but_raised_at_the_next_solver_call(capfd, sigint_as_in_a_terminal):
    solver = new_solver(z3.Context(), 0)
    with interrupts_kept():
        del_in_finaliser = FreedSlowly()
        del del_in_finaliser  # Python alone would print "Exception ignored" and go on as if no Ctrl-C had come
        with pytest.raises(KeyboardInterrupt):
            check(solver, [], 10_000)
        assert check(solver, [], 10_000).answer.value == "sat"  # raised once, not again
    assert "Exception ignored" not in capfd.readouterr().err


def test_a_ctrl_c_while_a_z3_object_is_made_waits_for_the_next_solver_call(sigint_as_in_a_terminal):
    """Raised inside a constructor of z3.py, the interrupt would leave the object half made, and its
    finaliser would print a traceback when Python frees it."""
    namespace: dict = {}
    source = "def __init__(self):\n    os.kill(os.getpid(), signal.SIGINT)\n    deadline = time.monotonic() + 1\n" \
             "    while time.monotonic() < deadline:\n        pass\n"
    exec(compile(source, z3.z3.__file__, "exec"), {"os": os, "signal": signal, "time": time}, namespace)
    made_in_z3 = type("MadeInZ3", (), {"__init__": namespace["__init__"]})
    solver = new_solver(z3.Context(), 0)
    with interrupts_kept():
        made_in_z3()  # not interrupted here
        with pytest.raises(KeyboardInterrupt):
            check(solver, [], 10_000)


def test_a_ctrl_c_anywhere_else_is_raised_at_once(sigint_as_in_a_terminal):
    with interrupts_kept(), pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)


def test_a_ctrl_c_while_ctypes_converts_an_argument_for_z3_waits_for_the_next_solver_call(sigint_as_in_a_terminal):
    """z3py's types convert themselves for ctypes in Python; a Ctrl-C that lands there would come
    out of the Z3 call as ctypes.ArgumentError, which no interrupt handler takes (a traceback and
    exit 1). It waits for the next solver call instead, and is raised there as KeyboardInterrupt."""
    solver = new_solver(z3.Context(), 0)
    x = z3.Int("x", solver.ctx)
    sent = []

    def signal_inside_a_conversion(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "from_param" and not sent:
            sent.append(frame.f_code.co_filename)
            os.kill(os.getpid(), signal.SIGINT)

    with interrupts_kept():
        sys.setprofile(signal_inside_a_conversion)
        try:
            solver.add(x > 0)
        finally:
            sys.setprofile(None)
        assert sent == [z3.z3types.__file__]
        with pytest.raises(KeyboardInterrupt):
            check(solver, [], 10_000)


def test_a_ctrl_c_stops_every_search_asked_at_once_and_is_raised(sigint_as_in_a_terminal):
    solvers = [pigeons(z3.Context(), 12), pigeons(z3.Context(), 12)]
    threads = threading.active_count()
    with interrupts_kept():
        started = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        previous = signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
        try:
            with pytest.raises(KeyboardInterrupt):
                check_at_once([(solver, [], 600_000, 0) for solver in solvers])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < PROMPT
    assert threading.active_count() == threads  # every search has stopped before the interrupt is raised

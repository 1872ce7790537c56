"""Ctrl-C: the run stops promptly, workers included, prints the results finished before it and a
line saying it was interrupted, leaves no partial file, and exits 130.

Three ways in: SIGINT sent to the process alone (as `kill -INT` does), Ctrl-C typed in a
pseudo-terminal (the terminal sends SIGINT to every process of the foreground group, the worker
processes too), and, in this process, a Z3 search that SIGINT cancels (Z3 catches SIGINT while it
searches and answers `unknown`; that must stop the run, not read as a timeout).
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import z3

from zoneproof.solver import INTERRUPTED

# Long enough to be interrupted on any machine: ordered-zones at depth 6 takes minutes.
LONG = ["check", "mtg-current", "-p", "owner-zones", "-p", "one-zone", "-p", "ordered-zones", "--depth", "6", "--timeout", "600", "--no-lint"]
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


def test_sigint_to_the_process_stops_it_promptly_with_exit_130(tmp_path):
    process = subprocess.Popen(zoneproof(*LONG, "--jobs", "1", "--out", str(tmp_path / "out")), cwd=tmp_path, stdout=subprocess.PIPE,
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
    # what is printed is finished: the properties proved before the interrupt, never ordered-zones as holds or unknown
    lines = [line for line in out.splitlines() if line.startswith("mtg-current")]
    assert all(" holds " in line and "ordered-zones" not in line for line in lines)
    assert out.splitlines()[-1].startswith(f"{len(lines)} checks:")
    no_partial_files(tmp_path)


def test_ctrl_c_in_a_terminal_stops_the_workers_too(tmp_path):
    pid, terminal = pty.fork()
    if pid == 0:  # the child: a terminal of its own, as a user's shell would give it
        default_sigint()
        os.chdir(tmp_path)
        os.execv(sys.executable, zoneproof(*LONG[:1], "berserk", *LONG[1:], "--jobs", "2"))
    output = b""
    workers: set[int] = set()
    started = time.monotonic()
    while not workers and time.monotonic() - started < 60:  # wait for the workers to start
        output += _read(terminal, 0.2)
        workers = children(pid)
    wait_for_cpu(lambda: children(pid), 4.0)  # the workers are solving
    workers = children(pid)
    assert workers
    os.write(terminal, b"\x03")  # Ctrl-C
    sent = time.monotonic()
    while True:
        chunk = _read(terminal, 0.2)
        output += chunk
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        assert time.monotonic() - sent < PROMPT, output
    output += _read(terminal, 0.2)
    text = output.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 130, text
    assert "zoneproof: interrupted" in text and "Traceback" not in text
    deadline = time.monotonic() + PROMPT
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers)
    no_partial_files(tmp_path)


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

"""Progress and streaming: a progress display on a terminal's stderr, never in piped output; result
lines reach a pipe as soon as they are known."""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest

from tests.conftest import normalise

ZONEPROOF = [sys.executable, "-m", "zoneproof"]
ARGS = ["check", "--no-lint", "-p", "owner-zones", "-p", "tokens"]


@pytest.fixture
def repo(example_repo):
    return example_repo


def environment() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES")}
    return env | {"TERM": "xterm-256color"}


def run_with_terminal_stderr(args, cwd) -> tuple[int, str, str]:
    """Run zoneproof with stdout to a pipe and stderr to a pseudo-terminal; (exit code, stdout, screen)."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    process = subprocess.Popen(ZONEPROOF + args, cwd=cwd, env=environment(), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    screen = bytearray()

    def read_terminal():
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal closed: the process has ended
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    out, _ = process.communicate(timeout=300)
    reader.join(timeout=10)
    os.close(controller)
    return process.returncode, out.decode("utf-8"), screen.decode("utf-8", errors="replace")


def test_progress_shows_on_a_terminal_and_never_in_the_piped_output(repo):
    code, out, screen = run_with_terminal_stderr([*ARGS, "--runs", "terminal-runs"], repo)  # each run searches: neither replays the other's
    assert code == 0, out + screen
    assert "checking" in screen and "ETA" in screen  # the bar over the whole run
    assert "house" in screen and "depth ≤ 2" in screen  # what a worker is on, and the depth it asks
    assert "\x1b" not in out and "ETA" not in out and "checking" not in out
    piped = subprocess.run([*ZONEPROOF, *ARGS, "--runs", "piped-runs"], cwd=repo, env=environment(), capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and piped.stderr == ""
    assert normalise(piped.stdout) == normalise(out)


def test_quiet_shows_nothing_and_verbose_logs_to_a_pipe(repo):
    code, out, screen = run_with_terminal_stderr([*ARGS, "--quiet", "--jobs", "1"], repo)
    assert code == 0 and "checking" not in screen and "ETA" not in screen
    logged = subprocess.run(ZONEPROOF + [*ARGS, "--verbose", "--jobs", "1"], cwd=repo, capture_output=True, text=True, timeout=300)
    lines = logged.stderr.splitlines()
    assert logged.returncode == 0 and lines and all(line.startswith("zoneproof: ") for line in lines)
    assert any(line.endswith("house  2 properties  depth ≤ 2") for line in lines)
    assert "zoneproof:" not in logged.stdout


def test_each_result_reaches_a_pipe_as_soon_as_it_is_known(repo):
    """With one job, every line is written when its check ends: the first line arrives well before the last."""
    process = subprocess.Popen(ZONEPROOF + ["check", "--no-lint", "--jobs", "1", "--format", "json"], cwd=repo,
                               stdout=subprocess.PIPE, text=True)
    arrived = []
    for line in process.stdout:
        arrived.append((time.monotonic(), line))
    assert process.wait(timeout=300) == 0
    assert len(arrived) == 9  # eight checks and the summary
    # house's lines come out as soon as its deepening ends, before league's check has ended
    first = arrived[0][0]
    league_done = next(t for t, line in arrived if '"ruleset": "league"' in line)
    assert '"ruleset": "house"' in arrived[0][1] and first < league_done

"""A red CI is reproduced with one command: the Hypothesis seed the run's summary prints is the one
every xdist worker used, so the examples drawn there are drawn again from that seed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import Phase, given, seed, settings, strategies as st

REPO = Path(__file__).resolve().parent.parent
PROBE = """
import os
from hypothesis import Phase, given, settings, strategies as st

@settings(max_examples=5, database=None, phases=[Phase.generate])
@given(st.integers())
def test_draws(x):
    with open(os.environ["DRAWN"], "a") as out:
        out.write(f"{x}\\n")
"""


def drawn_in_process(from_seed: int) -> list[int]:
    found = []

    @seed(from_seed)
    @settings(max_examples=5, database=None, phases=[Phase.generate])
    @given(st.integers())
    def draws(x):
        found.append(x)

    draws()
    return found


def test_the_printed_seed_reproduces_what_an_xdist_worker_drew(tmp_path):
    (tmp_path / "test_probe.py").write_text(PROBE, encoding="utf-8")
    drawn = tmp_path / "drawn.txt"
    env = {k: v for k, v in os.environ.items() if k != "ZONEPROOF_SEED"} | {"DRAWN": str(drawn)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "-c", str(REPO / "pyproject.toml"), "--rootdir", str(REPO), str(tmp_path / "test_probe.py")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    printed = re.search(r"Hypothesis seed (\d+): reproduce this run's examples with ZONEPROOF_SEED=\1 pytest", run.stdout)
    assert printed, run.stdout
    assert [int(x) for x in drawn.read_text().split()] == drawn_in_process(int(printed.group(1)))

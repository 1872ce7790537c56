"""A red CI is reproduced with one command: the Hypothesis seed the run's summary prints is the one
every xdist worker used, so a run given that seed draws the same examples again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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
PRINTED_SEED = re.compile(r"Hypothesis seed (\d+): reproduce this run's examples with ZONEPROOF_SEED=\1 pytest")


def run_probe(tmp_path: Path, name: str, seed: str | None) -> tuple[str, list[int]]:
    """Run the probe in one xdist worker, as CI does; return the seed the summary printed and what was drawn."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    drawn = tmp_path / f"{name}.txt"
    env = {k: v for k, v in os.environ.items() if k != "ZONEPROOF_SEED"} | {"DRAWN": str(drawn)}
    if seed is not None:
        env["ZONEPROOF_SEED"] = seed
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "-c", str(REPO / "pyproject.toml"), "--rootdir", str(REPO), str(probe)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    printed = PRINTED_SEED.search(run.stdout)
    assert printed, run.stdout
    return printed.group(1), [int(x) for x in drawn.read_text().split()]


def test_the_printed_seed_reproduces_what_an_xdist_worker_drew(tmp_path):
    seed, first = run_probe(tmp_path, "first", seed=None)
    assert run_probe(tmp_path, "again", seed=seed) == (seed, first)

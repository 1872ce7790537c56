import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import settings

from zoneproof.cli import main

GOLDEN = Path(__file__).parent / "golden"

# A failing example is printed with the @reproduce_failure line that replays it exactly.
settings.register_profile("zoneproof", print_blob=True)
settings.load_profile("zoneproof")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """One Hypothesis seed for the whole run, every worker included: ZONEPROOF_SEED, or a fresh one.
    The run's summary prints it, so that a red CI is reproduced with one command."""
    if config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = os.environ.get("ZONEPROOF_SEED") or str(random.SystemRandom().randrange(2**32))


def pytest_terminal_summary(terminalreporter, config):
    seed = config.getoption("hypothesis_seed")
    terminalreporter.write_line(f"Hypothesis seed {seed}: reproduce this run's examples with ZONEPROOF_SEED={seed} pytest -q -n auto")
SECONDS = re.compile(r" *\d+\.\d+s\b")  # with the padding, which grows with the number


def normalise(text: str) -> str:
    """Timings vary from run to run; everything else in the output is deterministic."""
    return SECONDS.sub(" #.##s", text)


@pytest.fixture
def run(capsys, tmp_path, monkeypatch):
    """Run the CLI in-process from an empty folder; return (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture
def golden():
    def compare(name: str, actual: str) -> None:
        path = GOLDEN / name
        if os.environ.get("ZONEPROOF_REGENERATE_GOLDEN"):
            path.write_text(actual, encoding="utf-8")
        assert actual == path.read_text(encoding="utf-8")

    return compare

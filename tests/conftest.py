import os
import re
from pathlib import Path

import pytest

from zoneproof.cli import main

GOLDEN = Path(__file__).parent / "golden"
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

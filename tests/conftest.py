import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import settings
from jsonschema import Draft202012Validator

from zoneproof.cli import main
from zoneproof.formats import json_schema

GOLDEN = Path(__file__).parent / "golden"
# Tests marked `long` (a few minutes each on a 2-core machine) run only with ZONEPROOF_LONG=1.
long = pytest.mark.skipif(not os.environ.get("ZONEPROOF_LONG"), reason="a long run: set ZONEPROOF_LONG=1 to include it")
EXAMPLE_REPO = Path(__file__).resolve().parent.parent / "examples" / "rules-repo"

# A failing example is printed with the @reproduce_failure line that replays it exactly.
settings.register_profile("zoneproof", print_blob=True)
settings.load_profile("zoneproof")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """One Hypothesis seed for the whole run, every worker included: ZONEPROOF_SEED, or a fresh one.
    The run's summary prints it, so that a red CI is reproduced with one command."""
    if config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = os.environ.get("ZONEPROOF_SEED") or str(random.SystemRandom().randrange(2**32))
    # xdist's workers parse the command line again and start after this: they read the seed from
    # the environment they inherit.
    os.environ["ZONEPROOF_SEED"] = str(config.option.hypothesis_seed)


def pytest_terminal_summary(terminalreporter, config):
    seed = config.getoption("hypothesis_seed")
    terminalreporter.write_line(f"Hypothesis seed {seed}: reproduce this run's examples with ZONEPROOF_SEED={seed} pytest -q -n auto")


SECONDS = re.compile(r" *\d+\.\d+s\b")  # with the padding, which grows with the number


def normalise(text: str) -> str:
    """Timings vary from run to run; everything else in the output is deterministic."""
    return SECONDS.sub(" #.##s", text)


@pytest.fixture(autouse=True)
def runs_of_this_test(tmp_path_factory, monkeypatch):
    """lint's stored runs (`--runs`) in a folder of each test's own, so that no test replays
    another's; the `run` fixture gives each command a folder of its own."""
    monkeypatch.setenv("ZONEPROOF_RUNS", str(tmp_path_factory.mktemp("runs")))


@pytest.fixture
def run(capsys, tmp_path, tmp_path_factory, monkeypatch):
    """Run the CLI in-process from an empty folder; return (exit code, stdout, stderr). Each
    command stores lint's runs in a folder of its own: a command run twice gives the same output."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        monkeypatch.setenv("ZONEPROOF_RUNS", str(tmp_path_factory.mktemp("runs")))
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture
def without_face_down_set_aside(monkeypatch):
    """The structural lemmas without `face-down-set-aside`: Berserk's face-down-reveal, checked
    alone, is then inductive only with the properties proved together with it."""
    import zoneproof.proof

    monkeypatch.setattr(zoneproof.proof, "LEMMAS", tuple(lemma for lemma in zoneproof.proof.LEMMAS if lemma[0] != "face-down-set-aside"))


@pytest.fixture
def broken(run, tmp_path):
    """`zoneproof check RULESET --without RULE -p PROPERTY --no-lint OPTIONS`, which must exit 1:
    (its output, the counterexample's path, its first step of a kind)."""
    from zoneproof.trace import read_trace

    def check_without(ruleset: str, rule: str, prop: str, *options: str):
        code, out, _ = run("check", ruleset, "--without", rule, "-p", prop, "--no-lint", *options)
        assert code == 1, out
        path = tmp_path / "counterexamples" / f"{ruleset}--without-{rule}--{prop}.itf.json"
        trace = read_trace(path)
        return out, path, trace, lambda kind: next(i for i, s in enumerate(trace.steps) if s.action.kind is kind)

    return check_without


@pytest.fixture
def golden():
    def compare(name: str, actual: str) -> None:
        path = GOLDEN / name
        if os.environ.get("ZONEPROOF_REGENERATE_GOLDEN"):
            path.write_text(actual, encoding="utf-8")
        assert actual == path.read_text(encoding="utf-8")

    return compare


def json_records(out: str, record_type: str | None = None) -> list[dict]:
    """The records of `--format json` output, each checked against the documented schema, the
    summary last and only there; with `record_type`, only the records of that type."""
    records = [json.loads(line) for line in out.splitlines()]
    validator = Draft202012Validator(json_schema())
    for record in records:
        validator.validate(record)
    assert records and records[-1]["type"] == "summary"
    assert all(r["type"] != "summary" for r in records[:-1])
    return [r for r in records if r["type"] == record_type] if record_type else records


@pytest.fixture
def example_repo(tmp_path) -> Path:
    """A copy of the example rules repository (examples/rules-repo), without its counterexamples."""
    root = tmp_path / "rules-repo"
    shutil.copytree(EXAMPLE_REPO, root, ignore=shutil.ignore_patterns("counterexamples"))
    return root

"""The pytest plugin on the example rules repository: scenario files and the (rule set, property)
pairs of the project config are items; a failure reads as `zoneproof check` prints it; `-n` works;
and the plugin agrees with `zoneproof check`."""

import json
import re
import shutil

import pytest

from tests.conftest import EXAMPLE_REPO
from zoneproof.cli import main

pytest_plugins = ["pytester"]

ITEMS = [f"pyproject.toml::{rs}::{item}" for rs in ("house", "league") for item in ("owner-zones", "tokens", "one-zone", "hands-are-owned", "lint")]
ITEMS += ["scenarios/stolen-permanent-dies.toml::stolen-permanent-dies", "scenarios/stolen-permanent-returns.toml::stolen-permanent-returns"]


@pytest.fixture
def repo(pytester):
    shutil.copytree(EXAMPLE_REPO, pytester.path, dirs_exist_ok=True, ignore=shutil.ignore_patterns("counterexamples"))
    return pytester.path


def test_the_example_repository_passes_under_xdist(pytester, repo):
    collected = pytester.runpytest("--collect-only", "-q", "-p", "no:randomly")
    assert [line for line in collected.outlines if "::" in line] == ITEMS
    result = pytester.runpytest_subprocess("-n", "2", "-q")
    result.assert_outcomes(passed=len(ITEMS))
    assert (repo / "counterexamples" / "house--owner-zones.itf.json").is_file()  # an expected violation still writes its trace


def test_a_failure_shows_the_counterexample_and_agrees_with_zoneproof_check(pytester, repo, capsys, monkeypatch):
    config = (repo / "pyproject.toml").read_text(encoding="utf-8")
    config = config[: config.index("[[tool.zoneproof.expect]]")]  # house's owner-zones is now expected to hold
    (repo / "pyproject.toml").write_text(config.replace("[tool.zoneproof.scope]", "lint = false\n\n[tool.zoneproof.scope]"), encoding="utf-8")
    scenario = repo / "scenarios" / "stolen-permanent-returns.toml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace('whose = "B"', 'whose = "A"'), encoding="utf-8")
    result = pytester.runpytest("-q", "-W", "ignore::pytest.PytestAssertRewriteWarning")
    result.assert_outcomes(passed=8, failed=2)
    text = result.stdout.str()
    assert re.search(r"\nhouse +owner-zones +violated  depth 2 ", text)  # the line `zoneproof check` prints
    assert "counterexample: 2 steps, written to counterexamples/house--owner-zones.itf.json" in text
    card = r"[AB](?:\d|-sb\d|-tok\d)"  # a deck card, a sideboard card or a token
    assert re.search(rf"\n +1\.  [a-z_]+ {card}.*  \[[0-9a-z., ]+\]\n +{card}: ", text)  # a numbered step, its rules, what it changed
    assert re.search(rf"✗ owner-zones fails at step 2 for c = {card}: ", text)
    assert "✗ A stolen permanent returned to hand goes to its owner's hand  (scenarios/stolen-permanent-returns.toml" in text and "✗ Bear: expected whose = 'A', got 'B'" in text
    failed = {line.split()[1] for line in result.outlines if line.startswith("FAILED ")}
    assert failed == {"pyproject.toml::house::owner-zones", "scenarios/stolen-permanent-returns.toml::stolen-permanent-returns"}
    monkeypatch.chdir(repo)
    capsys.readouterr()
    assert main(["check", "--format", "json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    unexpected = {f"pyproject.toml::{r['ruleset']}::{r['property']}" for r in records if r["type"] == "check" and not r["expected"]["met"]}
    assert unexpected == failed - {"scenarios/stolen-permanent-returns.toml::stolen-permanent-returns"}


def test_without_a_project_config_the_plugin_collects_nothing(pytester):
    pytester.makefile(".toml", rules='name = "x"\n')
    pytester.makepyfile("def test_one():\n    pass\n")
    pytester.runpytest("-q").assert_outcomes(passed=1)

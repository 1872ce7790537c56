"""The project config: `zoneproof check`, `lint` and `run` with no arguments check what a rules
repository's `[tool.zoneproof]` (or `zoneproof.toml`) names; flags override it; bad config is one line."""

import json

import pytest

from tests.conftest import json_records
from tests.test_cli import one_line_error
from zoneproof.cli import main

@pytest.fixture
def repo(example_repo, monkeypatch):
    """A copy of the example rules repository, as the current folder."""
    monkeypatch.chdir(example_repo)
    return example_repo


@pytest.fixture
def run_here(capsys):
    """Run the CLI in-process in the current folder; return (exit code, stdout, stderr)."""

    def invoke(*args: str):
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


def test_check_with_no_arguments_checks_what_the_config_names(repo, run_here):
    code, out, err = run_here("check", "--format", "json")
    assert code == 0 and err == ""
    checks = json_records(out, "check")
    assert [(c["ruleset"], c["property"]) for c in checks] == [
        (ruleset, prop) for ruleset in ("house", "league") for prop in ("owner-zones", "tokens", "one-zone", "hands-are-owned")
    ]
    assert {c["depth"] for c in checks if c["verdict"] == "holds"} == {2}  # [tool.zoneproof.scope] depth = 2
    house_owner = checks[0]
    assert house_owner["verdict"] == "violated" and house_owner["expected"]["met"]
    assert house_owner["expected"]["reason"].startswith("the house rule")  # the config's expectation
    assert [r["ruleset"] for r in json_records(out, "lint")] == ["house", "league"]
    trace = json.loads((repo / "counterexamples" / "house--owner-zones.itf.json").read_text())
    assert [link["name"] for link in trace["#meta"]["ruleset"]["chain"]] == ["house", "league"]  # house.toml extends league.toml


def test_flags_override_the_config(repo, run_here):
    code, out, _ = run_here("check", "model/league.toml", "-p", "hands-are-owned", "--depth", "1", "--no-lint")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].split()[:5] == ["league", "hands-are-owned", "holds", "depth", "1"]


def test_the_config_is_found_from_a_folder_below_it(repo, run_here, monkeypatch):
    monkeypatch.chdir(repo / "properties")
    code, out, _ = run_here("check", "-p", "owner-zones", "--no-lint", "--out", "cx")
    assert code == 0, out
    assert out.splitlines()[0].startswith("house ") and "(expected: the house rule" in out.splitlines()[0]
    assert (repo / "properties" / "cx" / "house--owner-zones.itf.json").is_file()  # --out is the flag's, from here


def test_run_with_no_arguments_runs_the_scenario_folders(repo, run_here):
    code, out, _ = run_here("run", "--format", "json")
    assert code == 0
    assert sorted(s["path"] for s in json_records(out, "scenario")) == [
        "scenarios/stolen-permanent-dies.toml", "scenarios/stolen-permanent-returns.toml"]


def test_run_with_no_arguments_and_no_config_is_bad_input(run):
    assert "no scenario files" in one_line_error(run("run"))


def test_a_zoneproof_toml_works_like_the_pyproject_table(repo, run_here):
    (repo / "pyproject.toml").unlink()
    (repo / "zoneproof.toml").write_text(
        'rulesets = ["model/league.toml"]\nproperties = ["properties/house.zp"]\nproperty = ["hands-are-owned"]\nlint = false\n'
        "[scope]\ncards = 1\ndepth = 1\n"
        '[[expect]]\nruleset = "league"\nproperty = "hands-are-owned"\nverdict = "violated"\nreason = "to see that it applies"\n',
        encoding="utf-8",
    )
    code, out, _ = run_here("check")
    assert code == 1  # the expectation is not met: the property holds
    assert out.splitlines()[0].split()[:5] == ["league", "hands-are-owned", "holds", "depth", "1"]
    assert "(unexpected: violated expected: to see that it applies)" in out and "lint" not in out


@pytest.mark.parametrize("text, line, message", [
    ('[tool.zoneproof]\nrulesets = ["mtg-current"]\ndepht = 3\n', 3, "unknown setting 'depht'"),
    ('[tool.zoneproof]\nseed = "zero"\n', 2, "`seed` must be a whole number"),
    ('[tool.zoneproof]\n[tool.zoneproof.scope]\ndepth = 2\ncard = 2\n', 4, "unknown scope setting 'card' (did you mean 'cards'?)"),
    ('[tool.zoneproof]\n[[tool.zoneproof.expect]]\nruleset = "house"\nproperty = "owner-zones"\nverdict = "broken"\n', 5,
     "unknown verdict 'broken'"),
    ('[tool.zoneproof]\n[[tool.zoneproof.expect]]\nproperty = "owner-zones"\n', 2, "needs `ruleset = \"...\"`"),
])
def test_bad_config_is_one_line_naming_file_and_line(run, tmp_path, text, line, message):
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    err = one_line_error(run("check"))
    assert err.startswith(f"zoneproof: {tmp_path}/pyproject.toml:{line}: error: ") and message in err


def test_a_pyproject_without_the_table_is_not_a_config(run, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    code, out, err = run("check", "mtg-current", "-p", "owner-zones", "--cards", "1", "--depth", "1", "--no-lint")
    assert code == 0 and out.startswith("mtg-current")


def test_lint_stores_its_runs_where_the_config_says_relative_to_it(repo, run_here, monkeypatch):
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('scenarios = ["scenarios"]', 'scenarios = ["scenarios"]\nruns = "cache/runs"'))
    monkeypatch.chdir(repo / "properties")
    monkeypatch.delenv("ZONEPROOF_RUNS")  # the environment's folder would come before the config's
    code, _, err = run_here("lint", str(repo / "model" / "house.toml"))
    assert code == 0, err
    assert (repo / "cache" / "runs" / "house.json").is_file()
    assert not (repo / "properties" / ".zoneproof").exists()

"""Stored runs: lint keeps a run of each goal it reaches and replays it first next time."""

import json
import re

import pytest

from conftest import json_records, normalise
from zoneproof.explicit import StateSpace
from zoneproof.lint import probes
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import builtin_names, builtin_runs_file, load_ruleset
from zoneproof.simulate import lifted_witness
from zoneproof.store import PROPERTY, VIOLATION, runs_in_file, stored_runs

# A scope that no built-in rule set comes with runs for, so that the first lint searches.
SCOPE = ("--cards", "2", "--depth", "3")
REPLAYED = re.compile(r", (\d+) of its goals reached by stored runs")


def findings(out: str) -> str:
    """The report without its timings and without the count of goals that stored runs reached."""
    return REPLAYED.sub("", normalise(out))


def stored_goals(path) -> dict:
    return next(iter(json.loads(path.read_text())["scopes"].values()))


def test_lint_replays_the_runs_it_stored_and_reports_the_same_findings(run, tmp_path):
    code, cold, _ = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 0 and not REPLAYED.search(cold)
    goals = stored_goals(tmp_path / "runs" / "berserk.json")
    assert any(g.startswith("rule:") for g in goals) and any(g.startswith("property:") for g in goals)
    code, warm, _ = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 0
    assert int(REPLAYED.search(warm).group(1)) == len(goals)
    assert findings(warm) == findings(cold)
    code, out, _ = run("lint", "berserk", *SCOPE, "--runs", "runs", "--format", "json")
    assert json_records(out, "lint")[0]["stored_runs_replayed"] == len(goals)


def test_a_stored_run_that_no_longer_reaches_its_goal_is_dropped_and_the_goal_searched_for_again(run, tmp_path):
    code, cold, _ = run("lint", "berserk", *SCOPE, "--runs", "runs")
    path = tmp_path / "runs" / "berserk.json"
    data = json.loads(path.read_text())
    goals = next(iter(data["scopes"].values()))
    emptied = next(g for g, r in goals.items() if g.startswith("property:") and r["actions"])
    goals[emptied]["actions"] = []  # a run of no steps takes no action and fires no trigger
    path.write_text(json.dumps(data))
    code, warm, _ = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 0
    assert int(REPLAYED.search(warm).group(1)) == len(goals) - 1
    assert findings(warm) == findings(cold)
    assert stored_goals(path)[emptied]["actions"], "the goal found again is stored with its new run"


def test_fresh_neither_replays_nor_stores_runs(run, tmp_path):
    code, out, _ = run("lint", "berserk", *SCOPE, "--runs", "runs", "--fresh")
    assert code == 0 and not REPLAYED.search(out)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("content, problem", [
    ("{not json", "malformed stored runs"),
    ('{"format": "something else", "scopes": {}}', "not a file of stored runs"),
])
def test_a_malformed_file_of_stored_runs_is_a_one_line_error_naming_it(run, tmp_path, content, problem):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "berserk.json").write_text(content)
    code, out, err = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "berserk.json" in err and problem in err and "delete the file" in err


def test_a_stored_run_naming_a_card_the_scope_does_not_have_is_an_error(run, tmp_path):
    run("lint", "berserk", *SCOPE, "--runs", "runs")
    path = tmp_path / "runs" / "berserk.json"
    data = json.loads(path.read_text())
    goals = next(iter(data["scopes"].values()))
    goal = next(iter(goals))
    goals[goal]["card_types"]["Z9"] = "creature"
    path.write_text(json.dumps(data))
    code, _, err = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 2 and "Traceback" not in err
    assert "berserk.json" in err and "Z9" in err and goal in err


def _ruleset_of_label(label: str):
    name, _, removed = label.partition("--without-")
    return load_ruleset(name).without(removed.split("-") if removed else [])


@pytest.mark.parametrize("label", sorted(p.name.removesuffix(".json") for p in builtin_runs_file("any").parent.glob("*.json")))
def test_every_run_a_built_in_rule_set_comes_with_still_reaches_its_goal(label):
    ruleset = _ruleset_of_label(label)
    scope = ruleset.scope_for(Scope())  # the default scope of the command line
    runs = runs_in_file(builtin_runs_file(label), scope)
    assert runs, f"{label} comes with no runs for the default scope"
    by_id = probes(ruleset, list(stock_properties())) | {p.id: p for p in stock_properties()}
    space = StateSpace(ruleset, scope)
    for (kind, goal), stored in runs.items():
        prop = by_id[goal] if kind in (PROPERTY, VIOLATION) else None
        witness = lifted_witness(space, goal, dict(stored.card_types), list(stored.actions), 0, prop)
        assert witness is not None and witness.depth <= scope.depth, \
            f"{label}: the stored run of {kind} {goal} no longer reaches it: refresh them with `zoneproof check --runs model/runs`" \
            " and `zoneproof coverage RULESET --runs model/runs`"


def test_every_built_in_rule_set_comes_with_runs():
    assert all(builtin_runs_file(name).is_file() for name in builtin_names())


def test_a_rule_set_with_a_rule_removed_starts_from_the_runs_of_its_whole_self(run, tmp_path):
    run("lint", "berserk", *SCOPE, "--runs", "runs")
    removed = next(g.removeprefix("rule:") for g in stored_goals(tmp_path / "runs" / "berserk.json") if g.startswith("rule:"))
    code, fresh, _ = run("lint", "berserk", "--without", removed, *SCOPE, "--fresh")
    code_warm, warm, _ = run("lint", "berserk", "--without", removed, *SCOPE, "--runs", "runs")
    assert code_warm == code and int(REPLAYED.search(warm).group(1)) > 0
    assert findings(warm) == findings(fresh)
    assert (tmp_path / "runs" / f"berserk--without-{removed}.json").is_file()


def test_the_runs_of_another_version_of_the_store_are_replaced_not_an_error(run, tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "berserk.json").write_text('{"format": "zoneproof stored runs 0", "runs": []}')
    code, out, err = run("lint", "berserk", *SCOPE, "--runs", "runs")
    assert code == 0 and not REPLAYED.search(out) and err == ""
    assert json.loads((tmp_path / "runs" / "berserk.json").read_text())["format"] == "zoneproof stored runs 1"


def test_a_lint_of_fewer_properties_keeps_the_runs_of_the_goals_it_did_not_ask_of(run, tmp_path):
    run("lint", "berserk", *SCOPE, "--runs", "runs")
    every = stored_goals(tmp_path / "runs" / "berserk.json")
    code, out, _ = run("lint", "berserk", *SCOPE, "-p", "owner-zones", "--runs", "runs")
    assert code == 0 and int(REPLAYED.search(out).group(1)) < len(every)
    assert stored_goals(tmp_path / "runs" / "berserk.json") == every


def test_a_rule_set_that_extends_a_built_in_one_starts_from_its_runs(run, tmp_path):
    (tmp_path / "mine.toml").write_text('extends = "berserk"\nname = "mine"\ntitle = "Berserk as is"\nsource = "seed 004"\n')
    code, warm, _ = run("lint", "mine.toml")
    assert code == 0  # berserk lints clean, and so does a rule set that is berserk as is
    assert int(REPLAYED.search(warm).group(1)) == len(stored_runs(None, load_ruleset("berserk"), load_ruleset("berserk").scope_for(Scope())))


# Berserk's columns at SCOPE that some removal breaks: owner-zones (203.4, 204.5, 205.4 at depth 2) and
# ordered-zones (204.4 at depth 1, 205.1 at depth 2, 205.3 at depth 3).
GUARDING = ("-p", "owner-zones", "-p", "ordered-zones")


def test_coverage_keeps_each_removals_counterexamples_and_replays_them_to_the_same_matrix(run, tmp_path):
    code, cold, _ = run("coverage", "berserk", *SCOPE, *GUARDING, "--runs", "runs")
    kept = {path.name: stored_goals(path) for path in (tmp_path / "runs").glob("berserk--without-*.json")}
    assert kept["berserk--without-205.3.json"].keys() == {"violation:ordered-zones"}
    assert len(kept) == 6 and all(goal.startswith("violation:") for goals in kept.values() for goal in goals)
    code_warm, warm, _ = run("coverage", "berserk", *SCOPE, *GUARDING, "--runs", "runs")
    assert code_warm == code and normalise(warm) == normalise(cold)
    code_fresh, fresh, _ = run("coverage", "berserk", *SCOPE, *GUARDING, "--runs", "elsewhere", "--fresh")
    assert code_fresh == code and normalise(fresh) == normalise(cold) and not (tmp_path / "elsewhere").exists()


def _coverage_of(ruleset, prop, stored=None):
    from zoneproof.coverage import coverage

    return coverage(ruleset, [prop], Scope(cards=2, depth=3), stored=stored)


def test_a_stored_counterexample_that_still_violates_is_reported_at_the_shortest_depth(monkeypatch):
    import zoneproof.check
    from zoneproof.store import VIOLATION, run_of

    ruleset, prop = load_ruleset("berserk"), next(p for p in stock_properties() if p.id == "ordered-zones")
    cold = _coverage_of(ruleset, prop)
    [result] = next(row.results for row in cold.rows if row.rule == "205.3")
    assert result.depth == 3, "a counterexample deeper than coverage's first questions"
    rule = "205.3"
    replayed, replay = [], zoneproof.check.lifted_witness

    def recording(*args, **kwargs):
        replayed.append(replay(*args, **kwargs))
        return replayed[-1]

    monkeypatch.setattr(zoneproof.check, "lifted_witness", recording)
    warm = _coverage_of(ruleset, prop, {result.ruleset.label: {(VIOLATION, prop.id): run_of(result.trace)}})
    [row] = [row for row in warm.rows if row.rule == rule]
    assert replayed and replayed[0] is not None
    assert row.results[0].trace is replayed[0].trace, "the counterexample is the stored run, replayed"
    assert row.results[0].depth == result.depth


def test_a_stored_counterexample_that_no_longer_violates_is_dropped_and_searched_for_again():
    from zoneproof.store import VIOLATION, Run

    ruleset, prop = load_ruleset("berserk"), next(p for p in stock_properties() if p.id == "ordered-zones")
    cold = _coverage_of(ruleset, prop)
    rule = "205.3"
    [result] = next(row.results for row in cold.rows if row.rule == rule)
    warm = _coverage_of(ruleset, prop, {result.ruleset.label: {(VIOLATION, prop.id): Run((), ())}})
    [row] = [row for row in warm.rows if row.rule == rule]
    assert row.results[0].verdict is result.verdict and row.results[0].depth == result.depth

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


@pytest.mark.parametrize("name", builtin_names())
def test_every_run_a_built_in_rule_set_comes_with_still_reaches_its_goal(name):
    """Its lint's runs and its checks' counterexamples (`name.json`), and its coverage's
    (`name--without-RULE.json`, one per rule whose removal some property notices)."""
    whole = load_ruleset(name)
    files = {whole: builtin_runs_file(name)} | {whole.without([rule.id]): builtin_runs_file(f"{name}--without-{rule.id}") for rule in whole.in_force}
    for ruleset, path in files.items():
        scope = ruleset.scope_for(Scope())  # the default scope of the command line
        runs = runs_in_file(path, scope)
        assert runs or ruleset is not whole, f"{name} comes with no runs for the default scope"
        if not runs:
            continue  # a removal no property notices: no file
        by_id = probes(ruleset, list(stock_properties())) | {p.id: p for p in stock_properties()}
        space = StateSpace(ruleset, scope)
        for (kind, goal), stored in runs.items():
            prop = by_id[goal] if kind in (PROPERTY, VIOLATION) else None
            witness = lifted_witness(space, goal, dict(stored.card_types), list(stored.actions), 0, prop)
            assert witness is not None and witness.depth <= scope.depth, \
                f"{ruleset.label}: the stored run of {kind} {goal} no longer reaches it: refresh them with" \
                f" `zoneproof check --runs model/runs` and `zoneproof coverage {name} --runs model/runs`"


def test_the_built_in_runs_are_those_of_built_in_rule_sets_and_their_removals():
    names = {f"{name}--without-{rule.id}" for name in builtin_names() for rule in load_ruleset(name).in_force} | set(builtin_names())
    stray = {path.name for path in builtin_runs_file("any").parent.glob("*.json")} - {f"{name}.json" for name in names}
    assert not stray, "store files that no built-in rule set reads"


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
    berserk = load_ruleset("berserk")
    lint_goals = [kind for kind, _ in stored_runs(None, berserk, berserk.scope_for(Scope())) if kind != VIOLATION]
    assert int(REPLAYED.search(warm).group(1)) == len(lint_goals)


def test_coverage_keeps_each_removals_counterexamples_and_replays_them_to_the_same_matrix(run, tmp_path):
    # at SCOPE, berserk's ordered-zones breaks without 204.4 (depth 1), 205.1 (depth 2) or 205.3 (depth 3)
    code, cold, _ = run("coverage", "berserk", *SCOPE, "-p", "ordered-zones", "--runs", "runs")
    kept = {path.name: stored_goals(path) for path in (tmp_path / "runs").glob("berserk--without-*.json")}
    assert {name: list(goals) for name, goals in kept.items()} == {
        f"berserk--without-{rule}.json": ["violation:ordered-zones"] for rule in ("204.4", "205.1", "205.3")}
    code_warm, warm, _ = run("coverage", "berserk", *SCOPE, "-p", "ordered-zones", "--runs", "runs")
    assert code_warm == code and normalise(warm) == normalise(cold).replace(", depth 3\n", ", depth 3, 3 of its counterexamples replayed from stored runs\n", 1)
    assert "replayed" not in cold
    _, as_json, _ = run("coverage", "berserk", *SCOPE, "-p", "ordered-zones", "--runs", "runs", "--format", "json")
    assert json_records(as_json, "coverage")[0]["stored_runs_replayed"] == 3


def test_check_says_which_counterexamples_are_stored_runs_replayed(run):
    without = ("check", "berserk", "--without", "205.3", "-p", "ordered-zones", *SCOPE, "--runs", "runs")
    _, cold, _ = run(*without)
    _, warm, _ = run(*without)
    assert cold.splitlines()[-1].startswith("1 checks: 1 violated, 0 holds")
    assert warm.splitlines()[-1].startswith("1 checks: 1 violated (1 replayed from stored runs), 0 holds")
    _, as_json, _ = run(*without, "--format", "json")
    [record] = json_records(as_json, "check")
    assert record["verdict"] == "violated" and record["from_stored_run"] is True


def test_coverage_with_fresh_stores_no_counterexample(run, tmp_path):
    _, out, _ = run("coverage", "berserk", "--cards", "2", "--depth", "1", "-p", "ordered-zones", "--runs", "runs", "--fresh")
    assert re.search(r"204\.4 +1$", out, re.MULTILINE), "without 204.4 ordered-zones breaks at depth 1"
    assert not (tmp_path / "runs").exists()


@pytest.fixture(scope="module")
def without_205_3():
    """Berserk without 205.3, where ordered-zones breaks at depth 3 at SCOPE: the rule set, the
    property, and coverage's check of it without a stored run."""
    from zoneproof.check import check_removals

    ruleset, prop = load_ruleset("berserk"), next(p for p in stock_properties() if p.id == "ordered-zones")
    [result] = check_removals(ruleset, ["205.3"], [prop], Scope(cards=2, depth=3)).removed["205.3"]
    assert result.depth == 3, "a counterexample deeper than coverage's first questions"
    return ruleset, prop, result


def _removal_with(ruleset, prop, stored):
    from zoneproof.check import _intact_found, check_removals

    _intact_found.clear()  # the intact checks found again, as in a process of its own
    [result] = check_removals(ruleset, ["205.3"], [prop], Scope(cards=2, depth=3), stored=stored).removed["205.3"]
    return result


def test_a_stored_counterexample_that_still_violates_is_reported_at_the_shortest_depth(monkeypatch, without_205_3):
    import zoneproof.simulate
    from zoneproof.store import run_of

    ruleset, prop, cold = without_205_3
    replayed, replay = [], zoneproof.simulate.lifted_witness

    def recording(*args, **kwargs):
        replayed.append(replay(*args, **kwargs))
        return replayed[-1]

    monkeypatch.setattr(zoneproof.simulate, "lifted_witness", recording)
    warm = _removal_with(ruleset, prop, {cold.ruleset.label: {(VIOLATION, prop.id): run_of(cold.trace)}})
    assert replayed and replayed[0] is not None
    assert warm.trace is replayed[0].trace, "the counterexample is the stored run, replayed"
    assert warm.verdict is cold.verdict and warm.depth == cold.depth
    assert warm.from_store and not cold.from_store


def test_a_stored_counterexample_that_no_longer_violates_is_dropped_and_searched_for_again(without_205_3):
    from zoneproof.store import Run

    ruleset, prop, cold = without_205_3
    warm = _removal_with(ruleset, prop, {cold.ruleset.label: {(VIOLATION, prop.id): Run((), ())}})
    assert warm.verdict is cold.verdict and warm.depth == cold.depth and warm.trace is not None and not warm.from_store

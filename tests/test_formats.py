"""Machine-readable output: JSON Lines against the documented schema, JUnit XML read back with
junitparser, SARIF 2.1.0 against the OASIS schema, with locations that point at the right lines."""

import io
import json
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from jsonschema import Draft4Validator
from junitparser import Error, Failure, JUnitXml, Skipped

from tests.conftest import json_records
from zoneproof.check import check_properties
from zoneproof.coverage import coverage
from zoneproof.diff import diff
from zoneproof.formats import Summary, output_for
from zoneproof.lint import lint
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset

SARIF_SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
TINY = ("--cards", "1", "--depth", "2")
VIOLATED = ("mtg-current", "-w", "400.3", "-p", "owner-zones", "-p", "tokens", *TINY)
SCOPE = Scope(cards=1, depth=2)
LEAGUE = Path(__file__).parents[1] / "examples" / "rules-repo" / "model" / "league.toml"


def document(output_format: str, command: str, *items, exit_code: int = 1) -> str:
    """The document a command writes in this format for these results (as the CLI hands them over)."""
    output = output_for(output_format, command)
    stream = output.stream = io.StringIO()
    for kind, *args in items:
        getattr(output, kind)(*args)
    if output_format == "json":
        output.finish(Summary(command, {}, 1.0, exit_code))
        return stream.getvalue()
    return output.document(Summary(command, {}, 1.0, exit_code))


@pytest.fixture(scope="module")
def checked():
    """owner-zones (violated without 400.3) and tokens (holds), and the lint report, at a tiny scope."""
    ruleset = load_ruleset("mtg-current").without(["400.3"])
    props = [p for p in stock_properties() if p.id in ("owner-zones", "tokens")]
    return check_properties(ruleset, props, SCOPE), lint(ruleset, props, SCOPE)


def sarif(out: str) -> dict:
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA).validate(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    return log["runs"][0]


def located_line(run: dict, location: dict) -> str:
    """The text of the line a SARIF location points at (its file must exist)."""
    physical = location["physicalLocation"]
    uri = physical["artifactLocation"]["uri"]
    if "uriBaseId" in physical["artifactLocation"]:
        uri = run["originalUriBaseIds"][physical["artifactLocation"]["uriBaseId"]]["uri"] + uri
    lines = Path(unquote(urlparse(uri).path)).read_text(encoding="utf-8").splitlines()
    return lines[physical["region"]["startLine"] - 1]


def test_check_json_lines_end_in_a_summary_with_counts_and_exit_code(run):
    code, out, _ = run("check", *VIOLATED, "--format", "json")
    assert code == 1
    records = json_records(out)
    assert [r["type"] for r in records] == ["check", "check", "lint", "summary"]
    summary = records[-1]
    assert summary["command"] == "check" and summary["exit_code"] == 1 and summary["seconds"] > 0
    assert summary["counts"]["checks"] == 2 and summary["counts"]["violated"] == 1 and summary["counts"]["holds"] == 1
    assert summary["counts"]["linted"] == 1


def test_junit_has_a_suite_per_rule_set_and_a_case_per_property_and_lint_finding(checked, tmp_path):
    results, report = checked
    trace = Path("counterexamples/mtg-current--without-400.3--owner-zones.itf.json")
    xml = document("junit", "check", ("check", results[0], trace), ("check", results[1], None), ("lint", report, {}))
    (tmp_path / "report.xml").write_text(xml, encoding="utf-8")
    [suite] = list(JUnitXml.fromfile(str(tmp_path / "report.xml")))
    assert suite.name == "mtg-current--without-400.3"
    cases = {case.name: case for case in suite}
    assert {"owner-zones", "tokens", "lint: action draw", "lint: rule 400.7"} <= set(cases)
    assert len(cases) == 2 + len(report.actions) + len(report.rules) + len(report.properties) + len(report.conflicts)
    [failure] = cases["owner-zones"].result
    assert isinstance(failure, Failure) and failure.type == "violated"
    assert failure.message.startswith("✗ owner-zones fails at step 2")
    assert f"counterexample: 2 steps, written to {trace}" in failure.text
    assert "    1.  " in failure.text and "    2.  " in failure.text
    assert cases["tokens"].is_passed
    assert suite.tests == len(cases) and suite.failures == sum(not c.is_passed for c in cases.values())


def test_check_junit_from_the_command_line(run, tmp_path):
    code, out, _ = run("check", *VIOLATED, "--no-lint", "--format", "junit")
    assert code == 1
    [suite] = list(JUnitXml.fromstring(out))
    assert [(c.name, c.is_passed) for c in suite] == [("owner-zones", False), ("tokens", True)]
    assert (tmp_path / "counterexamples" / "mtg-current--without-400.3--owner-zones.itf.json").is_file()


def test_check_sarif_locates_the_property_and_the_removed_rule(run):
    code, out, _ = run("check", *VIOLATED, "--no-lint", "--format", "sarif")
    assert code == 1
    log = sarif(out)
    failed = [r for r in log["results"] if r["kind"] == "fail"]
    [result] = failed
    assert result["ruleId"] == "owner-zones" and result["level"] == "error"
    assert log["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "owner-zones"
    prop, rule = result["locations"]
    assert located_line(log, prop).startswith("property owner-zones")
    assert located_line(log, rule) == "[[rule]]"
    block = Path(unquote(urlparse(rule["physicalLocation"]["artifactLocation"]["uri"]).path)).read_text().splitlines()
    assert block[rule["physicalLocation"]["region"]["startLine"]] == 'id = "400.3"'
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert len(steps) == 2 and steps[0]["location"]["message"]["text"].startswith("1. ")
    assert [r["kind"] for r in log["results"]] == ["fail", "pass"]  # tokens holds
    assert log["invocations"][0]["exitCode"] == 1


def test_a_rule_set_file_of_ones_own_is_located_relative_to_the_source_root(run, tmp_path):
    text = (Path(__file__).resolve().parent.parent / "model" / "mtg-current.toml").read_text(encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.toml").write_text(text.replace('name = "mtg-current"', 'name = "mine"', 1), encoding="utf-8")
    code, out, _ = run("lint", "rules/mine.toml", "-p", "stack-lifo", *TINY, "--format", "sarif")
    log = sarif(out)
    dead_rules = [r for r in log["results"] if r["ruleId"] == "lint/dead-rule"]
    assert dead_rules and all(r["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "rules/mine.toml", "uriBaseId": "SRCROOT"}
                              for r in dead_rules)
    assert all(located_line(log, r["locations"][0]) == "[[rule]]" for r in dead_rules)
    # the file declares the action reorder dead: suppressed in source, with its reason
    [declared] = [r for r in log["results"] if r["ruleId"] == "lint/dead-action" and "action reorder" in r["message"]["text"]]
    assert declared["suppressions"][0]["kind"] == "inSource" and "400.5" in declared["suppressions"][0]["justification"]
    vacuous = [r for r in log["results"] if r["ruleId"] == "lint/vacuous-property"]
    assert [located_line(log, r["locations"][0]) for r in vacuous] == ["property stack-lifo {"]


def write_scenarios(tmp_path: Path) -> list[str]:
    good = tmp_path / "good.toml"
    good.write_text('name = "A drawn card is in hand"\ncites = ["400.7"]\n[[card]]\nname = "X"\nowner = "A"\ntype = "land"\n'
                    '[[step]]\naction = "draw"\nplayer = "A"\ncard = "X"\nexpect = [{ card = "X", zone = "hand" }]\n', encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('zone = "hand"', 'zone = "graveyard"').replace("A drawn card is in hand", "Wrong"), encoding="utf-8")
    return [str(good), str(bad)]


@pytest.mark.parametrize("output_format", ["json", "junit", "sarif"])
def test_run_reports_each_scenario(run, tmp_path, output_format):
    good, bad = write_scenarios(tmp_path)
    code, out, _ = run("run", good, bad, "--format", output_format)
    assert code == 1
    if output_format == "json":
        scenarios = json_records(out, "scenario")
        assert [(s["name"], s["passed"]) for s in scenarios] == [("A drawn card is in hand", True), ("Wrong", False)]
        assert json_records(out)[-1]["counts"] == {"scenarios": 2, "passed": 1, "failed": 1, "traces": 0, "confirmed": 0}
    elif output_format == "junit":
        [suite] = list(JUnitXml.fromstring(out))
        cases = {c.name: c for c in suite}
        assert cases["A drawn card is in hand"].is_passed and "step 1" in cases["Wrong"].result[0].message
    else:
        log = sarif(out)
        [failed] = [r for r in log["results"] if r["kind"] == "fail"]
        assert failed["ruleId"] == "run/scenario-expectation" and located_line(log, failed["locations"][0]) == 'action = "draw"'


def test_diff_in_every_format(run):
    code, out, _ = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", *TINY, "--format", "json")
    record, summary = json_records(out)
    assert code == 1 and record["type"] == "diff" and summary["counts"]["flips"] == 1
    a = load_ruleset("mtg-current")
    result = diff(a, a.without(["400.3"]), [p for p in stock_properties() if p.id == "owner-zones"], SCOPE)
    [suite] = list(JUnitXml.fromstring(document("junit", "diff", ("diff", result, {}))))
    cases = {c.name: c for c in suite}
    assert isinstance(cases["property owner-zones"].result[0], Failure)
    assert len(cases) == 1 + len(result.behaviours) + len(result.problems)
    assert "diff/verdict-flip" in {r["ruleId"] for r in sarif(document("sarif", "diff", ("diff", result, {})))["results"]}


def test_coverage_in_every_format(run):
    # the example repository's league rules: four rules, one of which (400.3) owner-zones notices
    code, out, _ = run("coverage", str(LEAGUE), "-p", "owner-zones", *TINY, "--format", "json")
    record, summary = json_records(out)
    assert record["type"] == "coverage" and summary["counts"]["rules"] == len(record["rules"]) and summary["exit_code"] == code == 1
    ruleset = load_ruleset(str(LEAGUE))
    props = [p for p in stock_properties() if p.id == "owner-zones"]
    result = coverage(ruleset, props, SCOPE)
    [suite] = list(JUnitXml.fromstring(document("junit", "coverage", ("coverage", result, props))))
    cases = {c.name: c for c in suite}
    assert cases["without 400.3"].is_passed  # owner-zones notices it
    unexplained = {f"without {row.rule}" for row in result.rows if row.reason.startswith("no property")}
    assert unexplained and {name for name, c in cases.items() if not c.is_passed} == unexplained
    assert all(isinstance(cases[name].result[0], Failure) for name in unexplained)
    log = sarif(document("sarif", "coverage", ("coverage", result, props)))
    unguarded = [r for r in log["results"] if r["ruleId"] == "coverage/unguarded-rule" and r["level"] == "error"]
    assert len(unguarded) == len(unexplained) and all(located_line(log, r["locations"][0]) == "[[rule]]" for r in unguarded)


def test_lint_searches_without_an_answer_or_with_a_checker_bug_in_every_format(checked):
    _, report = checked
    report = replace(report, unanswered=("timeout: no answer whether the start of a game is possible",),
                     checker_bugs=("a conflict found by Z3 does not replay: the interpreter carries out mill A1",))
    [record, summary] = json_records(document("json", "lint", ("lint", report, {}), exit_code=130))
    assert record["unanswered"] == list(report.unanswered) and record["checker_bugs"] == list(report.checker_bugs)
    assert summary["exit_code"] == 130
    [suite] = list(JUnitXml.fromstring(document("junit", "lint", ("lint", report, {}))))
    searches = [c.result[0] for c in suite if c.name.startswith("lint: search for conflicts")]
    assert [(type(r), r.type) for r in searches] == [(Error, "unknown"), (Error, "checker-bug")]
    assert report.unanswered[0] in searches[0].message and report.checker_bugs[0] in searches[1].message
    log = sarif(document("sarif", "lint", ("lint", report, {}), exit_code=130))
    undecided = {r["ruleId"]: r for r in log["results"] if r["ruleId"] in ("zoneproof/unknown", "zoneproof/checker-bug")}
    assert report.unanswered[0] in undecided["zoneproof/unknown"]["message"]["text"]
    assert report.checker_bugs[0] in undecided["zoneproof/checker-bug"]["message"]["text"]
    assert log["invocations"] == [{"executionSuccessful": False, "exitCode": 130}]


def test_coverage_marks_a_property_violated_with_every_rule_in_force_not_applicable_in_every_format():
    ruleset = load_ruleset(str(LEAGUE.with_name("house.toml")))  # breaks owner-zones
    props = [p for p in stock_properties() if p.id in ("owner-zones", "tokens")]
    result = coverage(ruleset, props, SCOPE)
    assert [r.prop.id for r in result.not_applicable] == ["owner-zones"]
    [record, _] = json_records(document("json", "coverage", ("coverage", result, props)))
    assert record["baseline"]["owner-zones"] == {"verdict": "violated", "depth": 2, "applicable": False}
    assert record["baseline"]["tokens"]["applicable"] is True and record["finished"] is True
    [suite] = list(JUnitXml.fromstring(document("junit", "coverage", ("coverage", result, props))))
    [skipped] = [c for c in suite if c.name == "with every rule in force: owner-zones"]
    assert isinstance(skipped.result[0], Skipped) and "not applicable" in skipped.result[0].message
    log = sarif(document("sarif", "coverage", ("coverage", result, props)))
    [warning] = [r for r in log["results"] if r["ruleId"] == "coverage/not-applicable"]
    assert warning["level"] == "warning" and "owner-zones" in located_line(log, warning["locations"][0])


def test_bad_input_writes_no_document(run):
    code, out, err = run("check", "no-such-rules", "--format", "junit")
    assert code == 2 and out == "" and err.count("\n") == 1

"""Expected verdicts declared by a rule set ([[expect]]), and the mtg-2010 rule set that relies on them."""

import re
from pathlib import Path

import pytest

from tests.conftest import json_records
from tests.test_cli import one_line_error
from zoneproof.ruleset import load_ruleset
from zoneproof.properties import stock_properties

REPO = Path(__file__).resolve().parent.parent
SMALL = ("--depth", "2", "--cards", "2", "--sideboard", "0", "--tokens", "0")


def without_400_10(name: str) -> str:
    """mtg-current renamed, with rule 400.10 left out of the file."""
    text = (REPO / "model" / "mtg-current.toml").read_text().replace('name = "mtg-current"', f'name = "{name}"')
    return re.sub(r'\[\[rule\]\]\nid = "400.10"\n(?:.+\n)*\n', "", text)


def expect(prop: str, verdict: str, reason: str | None = None) -> str:
    lines = ["", "[[expect]]", f'property = "{prop}"', f'verdict = "{verdict}"']
    if reason is not None:
        lines.append(f'reason = "{reason}"')
    return "\n".join(lines) + "\n"


def test_a_violation_the_file_expects_is_reported_as_expected_and_exits_0(run, tmp_path):
    (tmp_path / "old.toml").write_text(without_400_10("old") + expect("command-in-command", "violated", "no 400.10 here"))
    code, out, _ = run("check", "--no-lint", "old.toml", "-p", "command-in-command", "-p", "owner-zones", *SMALL)
    assert code == 0, out
    first = out.splitlines()[0]
    assert "violated" in first and first.endswith("(expected: no 400.10 here)")
    assert out.splitlines()[-1].startswith("2 checks: 1 violated, 1 holds; 0 unexpected")


def test_a_wrong_expectation_exits_1_and_is_named(run, tmp_path):
    (tmp_path / "wrong.toml").write_text(without_400_10("wrong") + expect("owner-zones", "violated", "a wrong guess"))
    code, out, _ = run("check", "--no-lint", "wrong.toml", "-p", "command-in-command", "-p", "owner-zones", *SMALL)
    assert code == 1
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("wrong ")}
    assert lines["command-in-command"].endswith("(unexpected: holds expected)")
    assert "holds" in lines["owner-zones"] and lines["owner-zones"].endswith("(unexpected: violated expected: a wrong guess)")
    assert "; 2 unexpected" in out.splitlines()[-1]


def test_json_carries_the_expectation(run, tmp_path):
    (tmp_path / "old.toml").write_text(without_400_10("old") + expect("command-in-command", "violated", "no 400.10 here"))
    code, out, _ = run("check", "--no-lint", "old.toml", "-p", "command-in-command", "-p", "owner-zones", *SMALL, "--format", "json")
    assert code == 0
    first, second = json_records(out, "check")
    assert first["expected"] == {"verdict": "violated", "reason": "no 400.10 here", "met": True}
    assert second["expected"] == {"verdict": "holds", "reason": None, "met": True}


def test_removing_rules_on_the_command_line_sets_the_expectations_aside(run, tmp_path):
    """--without makes another rule set: the file's expectations do not hide what the removal does."""
    (tmp_path / "old.toml").write_text(without_400_10("old") + expect("command-in-command", "violated", "no 400.10 here"))
    code, out, _ = run("check", "--no-lint", "old.toml", "-w", "400.8", "-p", "command-in-command", *SMALL)
    assert code == 1
    assert "expected" not in out and "unexpected" not in out
    code, out, _ = run("check", "--no-lint", "old.toml", "-w", "400.8", "-p", "command-in-command", *SMALL, "--format", "json")
    assert json_records(out, "check")[0]["expected"] is None


@pytest.mark.parametrize("block, key, message", [
    (expect("owner-zones", "violated", "r") + "reasn = 'x'\n", "reasn", "[[expect]]: unknown key 'reasn'"),
    (expect("owner-zones", "violatd", "r"), "violatd", "unknown verdict 'violatd' (did you mean 'violated'?)"),
    (expect("owner-zones", "violated"), "[[expect]]", 'expecting "violated" needs `reason'),
    (expect("owner-zones", "holds") + expect("owner-zones", "holds"), None, "an expectation for property 'owner-zones' is already given"),
])
def test_malformed_expectations_are_one_line_errors_at_their_line(run, tmp_path, block, key, message):
    text = without_400_10("bad") + block
    (tmp_path / "bad.toml").write_text(text)
    line = one_line_error(run("check", "--no-lint", "bad.toml", *SMALL))
    lines = text.splitlines()
    if key is None:  # the second [[expect]]'s property line
        expected_line = [i for i, l in enumerate(lines, 1) if l.startswith('property = "owner-zones"')][1]
    else:
        expected_line = [i for i, l in enumerate(lines, 1) if key in l][-1]  # the appended block, after the file's own
    assert line.startswith(f"zoneproof: bad.toml:{expected_line}: error: "), line
    assert message in line


# ---------------------------------------------------------------- mtg-2010


def test_mtg_2010_has_every_rule_of_section_400_of_seed_000():
    ruleset = load_ruleset("mtg-2010")
    ids = [r.id for r in ruleset.rules]
    section_400 = ["400.1", "400.2", "400.3", "400.4", "400.5", "400.6", "400.7", *(f"400.7{x}" for x in "abcdef"),
                   "400.8", "400.9", "400.10", "400.10a", "400.10b", "400.10c", "400.11"]
    assert [i for i in ids if i.startswith("400.")] == section_400
    behaviours = {r.id: r.behaviour.value for r in ruleset.rules}
    assert "command-in-command" not in behaviours.values()
    assert behaviours["400.10c"] == "outside-untouchable" and behaviours["400.11"] == "zone-wide"
    assert behaviours["400.7a"] == "spell-effects-carry"
    assert [(e.property, e.verdict) for e in ruleset.expectations] == [
        ("commander-return", "vacuous"), ("mulligan-look-smaller", "vacuous"), ("commander-tax", "vacuous"), ("command-in-command", "violated"),
        ("face-down-visibility", "vacuous"), ("face-down-reveal", "vacuous"), ("face-up-same-object", "vacuous"),
        ("hidden-zones", "holds"), ("illegal-cast-reversed", "vacuous"), ("face-down-exile", "vacuous"), ("copy-ceases", "vacuous"),
        ("until-owner", "vacuous"), ("until-already-left", "vacuous"), ("markers-kept", "violated"),
        ("deck-shuffled-after-search", "vacuous"), ("set-aside-visible", "vacuous"), ("team-look", "vacuous"),
        ("opening-hand-actions", "vacuous"), ("stale-references", "vacuous"),
    ]
    assert behaviours["400.2"] == "hidden-zones"
    assert "400.10" in ruleset.expected("command-in-command").reason


def test_mtg_2010_command_in_command_is_violated_as_expected_and_replays(run, tmp_path):
    code, out, _ = run("check", "--no-lint", "mtg-2010", "-p", "command-in-command", *SMALL)
    assert code == 0
    assert "violated  depth 2" in out and "(expected: no 400.10 in 2010" in out
    trace = tmp_path / "counterexamples" / "mtg-2010--command-in-command.itf.json"
    code, out, _ = run("replay", str(trace))
    assert code == 0 and "confirmed: the violation is at step 2" in out


def test_check_with_no_rule_set_covers_every_built_in_one_and_exits_0(run):
    # One player and depth 3: the shortest expected violations (markers-kept) take three steps.
    code, out, _ = run("check", "--no-lint", "--depth", "3", "--cards", "2", "--sideboard", "0", "--tokens", "0", "--players", "1")
    assert code == 0, out
    total = 9 * len(stock_properties())
    checked = {line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")} - {str(total)}
    assert checked == {
        "berserk", "mtg-2010", "mtg-2015-bfz", "mtg-2015-commander", "mtg-2015-commander-bfz", "mtg-2015-origins", "mtg-current",
        "mtg-commander", "mtg-commander-2020",
    }
    assert out.splitlines()[-1].startswith(f"{total} checks: 12 violated, 0 holds, {total - 12} proved; 0 unexpected")


def test_an_expectation_for_a_property_no_file_defines_is_refused_at_its_line(run, tmp_path):
    text = without_400_10("typo") + expect("owner-zone", "violated", "a typo: it would be ignored")
    (tmp_path / "typo.toml").write_text(text)
    line = one_line_error(run("check", "--no-lint", "typo.toml", "-p", "owner-zones", *SMALL))
    number = text.splitlines().index('property = "owner-zone"') + 1
    assert line.startswith(f"zoneproof: typo.toml:{number}: error: [[expect]] names property 'owner-zone'") and "did you mean 'owner-zones'" in line

"""The command line as a user meets it: output, exit codes, trace files, and bad input."""

import re
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import json_records, normalise

REPO = Path(__file__).resolve().parent.parent


def test_list_shows_rule_sets_and_properties(run, golden):
    code, out, err = run("list")
    assert code == 0 and err == ""
    golden("list.txt", out)


def test_list_a_rule_set_shows_its_rules(run, golden):
    code, out, _ = run("list", "mtg-current")
    assert code == 0
    assert re.search(r"\n    400\.3 +owner-redirect", out)
    golden("list-mtg-current.txt", out)


def test_check_without_400_3_prints_writes_and_replays(run, golden, tmp_path):
    code, out, err = run("check", "--no-lint", "mtg-current", "--without", "400.3", "--property", "owner-zones")
    assert code == 1 and err == ""
    golden("check-without-400.3.txt", normalise(out))
    trace = tmp_path / "counterexamples" / "mtg-current--without-400.3--owner-zones.itf.json"
    assert trace.is_file()
    code, out, err = run("replay", str(trace))
    assert code == 0 and err == ""
    golden("replay-without-400.3.txt", out.replace(str(trace), "TRACE"))


def test_check_json_prints_one_object_per_check(run):
    code, out, _ = run("check", "--no-lint", "mtg-current", "-w", "400.12", "-p", "zone-wide", "-p", "tokens", "--format", "json", "--out", "cx")
    assert code == 1
    lines = json_records(out, "check")
    assert [(o["property"], o["verdict"], o["depth"]) for o in lines] == [("zone-wide", "violated", 2), ("tokens", "proved", 7)]
    assert lines[0]["trace"] == "cx/mtg-current--without-400.12--zone-wide.itf.json"
    assert lines[1]["trace"] is None
    assert all({"ruleset", "property", "verdict", "depth", "seconds", "trace"} <= o.keys() for o in lines)


def test_a_property_proved_says_so_and_its_certificate_checks(run):
    scope = ["--no-lint", "mtg-current", "-p", "owner-zones", "--cards", "2", "--depth", "4", "--out", "cx"]
    code, out, _ = run("check", *scope, "--format", "json")
    assert code == 0
    [line] = json_records(out, "check")
    assert (line["verdict"], line["trace"], line["certificate"]) == ("proved", None, "cx/mtg-current--owner-zones.proof.zp")
    code, out, _ = run("certify", line["certificate"], "mtg-current")
    assert code == 0 and "valid: owner-zones holds at every depth" in out
    forged = Path("cx/forged.proof.zp")
    text = Path(line["certificate"]).read_text()
    forged.write_text(text[:text.rindex("whose(c) == owner(c)")] + "whose(c) != owner(c)" + text[text.rindex("whose(c) == owner(c)") + 20:])
    code, out, _ = run("certify", str(forged), "mtg-current")
    assert code == 1 and "fails: owner-zones holds in the first two states" in out  # the form its steps line names
    # a lemma that holds in the first two states (nothing is cast before step 2) but that a step breaks
    lemma = 'property stack-empty {\n  cites 405.1\n  means "not inductive"\n  always forall c: object. zone(c) != stack\n}\n\n'
    forged.write_text(text.replace("property owner-zones", lemma + "property owner-zones"))
    code, out, _ = run("certify", str(forged), "mtg-current")
    assert code == 1 and "fails: stack-empty is kept by every step" in out
    forged.write_text("property x {\n")
    code, _, err = run("certify", str(forged), "mtg-current")
    assert code == 2 and err.count("\n") == 1 and "forged.proof.zp:1: error: not a certificate" in err


def test_same_seed_same_output_and_files(run, tmp_path):
    # three properties (two broken, one holding) keep the test to seconds
    args = ("check", "--no-lint", "mtg-current", "-w", "400.7", "-w", "400.11c", "--seed", "7",
            "-p", "new-object", "-p", "outside-the-game", "-p", "face-down-reveal")
    first = run(*args, "--out", "one")
    second = run(*args, "--out", "two")
    assert first[0] == second[0] == 1
    assert normalise(first[1]).replace("one/", "") == normalise(second[1]).replace("two/", "")
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "two").iterdir()) and names
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert not list((tmp_path / "one").glob(".*"))  # no temporary files left behind


def test_the_number_of_jobs_changes_neither_output_nor_files(run, tmp_path):
    args = ("check", "mtg-2010", "berserk", "--depth", "2", "--cards", "1", "-p", "command-in-command", "-p", "spells-not-permanents")
    one = run(*args, "--jobs", "1", "--out", "one")
    two = run(*args, "--jobs", "2", "--out", "two")
    assert one[0] == two[0] == 1  # lint at depth 2 finds 205.4.markers dead (it needs three steps)
    assert "mtg-2010" in one[1] and "berserk" in one[1] and "lint berserk" in one[1]
    assert normalise(one[1]).replace("one/", "") == normalise(two[1]).replace("two/", "")
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "two").iterdir()) and len(names) == 2
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_unknown_verdict_exits_3(run):
    code, out, _ = run("check", "--no-lint", "mtg-current", "-p", "ordered-zones", "--depth", "6", "--timeout", "0.5")
    assert code == 3
    assert "unknown" in out and "holds" not in out.split("\n")[0]


def test_a_tiny_timeout_gives_unknown_and_never_holds(run):
    code, out, _ = run("check", "--no-lint", "mtg-current", "-p", "owner-zones", "-p", "one-zone", "-p", "zone-wide", "--timeout", "0.01")
    assert code == 3
    lines = [line for line in out.splitlines() if line.startswith("mtg-current")]
    assert len(lines) == 3 and all(" unknown " in line for line in lines)


def test_user_property_file(run, tmp_path):
    (tmp_path / "mine.zp").write_text(
        'property hand-only-own {\n  cites 400.3\n  means "hands hold only their owner\'s cards"\n'
        "  always forall c: card. zone(c) == hand -> whose(c) == owner(c)\n}\n"
    )
    code, out, _ = run("check", "--no-lint", "mtg-current", "--properties", "mine.zp", "-p", "hand-only-own", "--depth", "2")
    assert code == 0 and "hand-only-own" in out and "holds" in out
    # without 400.3: put B's card onto the battlefield under A, then return it to its controller's hand
    code, out, _ = run("check", "--no-lint", "mtg-current", "--properties", "mine.zp", "-p", "hand-only-own", "-w", "400.3", "--depth", "2")
    assert code == 1 and "violated  depth 2" in out
    assert "return_to_hand" in out


# ---------------------------------------------------------------- bad input: one line, exit 2


def one_line_error(result) -> str:
    code, out, err = result
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_unknown_rule_set(run):
    line = one_line_error(run("check", "--no-lint", "mtg-curent"))
    assert "unknown rule set 'mtg-curent'" in line and "did you mean 'mtg-current'" in line


def test_unknown_rule(run):
    line = one_line_error(run("check", "--no-lint", "mtg-current", "--without", "400.33"))
    assert "no rule '400.33'" in line and "did you mean '400.3'" in line


def test_unknown_property(run):
    line = one_line_error(run("check", "--no-lint", "-p", "owner-zone"))
    assert "unknown property 'owner-zone'" in line and "did you mean 'owner-zones'" in line


def test_scope_out_of_range(run):
    assert "--depth must be 0..40, got 99" in one_line_error(run("check", "--no-lint", "--depth", "99"))
    assert "--players must be 1..4, got 0" in one_line_error(run("check", "--no-lint", "--players", "0"))


def test_wrong_flag(run):
    line = one_line_error(run("check", "--no-lint", "--bogus"))
    assert "No such option" in line and "--help" in line


def test_malformed_rule_set_file(run, tmp_path):
    (tmp_path / "broken.toml").write_text('name = "x"\ntitle = \n')
    line = one_line_error(run("check", "--no-lint", "broken.toml"))
    assert line.startswith("zoneproof: broken.toml:2:") and "malformed TOML" in line


def test_rule_set_with_unknown_behaviour(run, tmp_path):
    text = (REPO / "model" / "mtg-current.toml").read_text().replace('behaviour = "owner-redirect"', 'behaviour = "owner-redirekt"')
    (tmp_path / "typo.toml").write_text(text)
    line = one_line_error(run("check", "--no-lint", "typo.toml"))
    lineno = next(i for i, l in enumerate(text.splitlines(), 1) if "owner-redirekt" in l)
    assert line.startswith(f"zoneproof: typo.toml:{lineno}: error: unknown behaviour")
    assert "did you mean 'owner-redirect'" in line


def test_malformed_property_file(run, tmp_path):
    (tmp_path / "bad.zp").write_text('property p {\n  cites 400.3\n  means "m"\n  always zone(c) == graveyrd\n}\n')
    line = one_line_error(run("check", "--no-lint", "--properties", "bad.zp"))
    assert line.startswith("zoneproof: bad.zp:4:")


def test_no_partial_output_on_bad_input(run, tmp_path):
    one_line_error(run("check", "--no-lint", "mtg-current", "--without", "999.9", "--out", "cx"))
    assert not (tmp_path / "cx").exists()


@pytest.fixture
def trace_file(run, tmp_path):
    code, _, _ = run("check", "--no-lint", "mtg-current", "-w", "400.8", "-p", "exile-in-exile")
    assert code == 1
    return tmp_path / "counterexamples" / "mtg-current--without-400.8--exile-in-exile.itf.json"


def test_replay_of_a_tampered_state_is_not_reproduced(run, trace_file):
    data = json.loads(trace_file.read_text())
    record = dict(data["states"][1]["objects"]["#map"])
    name, kind = data["states"][1]["action"]["card"], data["states"][1]["action"]["kind"]  # an exile, face up or down
    record[name]["zone"] = "graveyard"
    data["states"][1]["objects"]["#map"] = [[k, v] for k, v in record.items()]
    trace_file.write_text(json.dumps(data))
    code, out, _ = run("replay", str(trace_file))
    assert code == 1
    assert f"not reproduced: step 1 ({kind}): {name}.zone is graveyard in the trace but exile in the interpreter" in out


def test_replay_of_a_wrong_violation_step_is_not_reproduced(run, trace_file):
    data = json.loads(trace_file.read_text())
    data["#meta"]["violation_step"] = 1
    trace_file.write_text(json.dumps(data))
    code, out, _ = run("replay", str(trace_file))
    assert code == 1 and "records a violation at step 1" in out


def test_replay_refuses_a_changed_rule_set(run, tmp_path):
    text = (REPO / "model" / "mtg-current.toml").read_text()
    (tmp_path / "mine.toml").write_text(text)
    code, _, _ = run("check", "--no-lint", "mine.toml", "-w", "400.8", "-p", "exile-in-exile")
    assert code == 1
    trace = "counterexamples/mtg-current--without-400.8--exile-in-exile.itf.json"
    (tmp_path / "mine.toml").write_text(text + "\n# a comment is not part of the rule set\n")
    assert run("replay", trace)[0] == 0
    (tmp_path / "mine.toml").write_text(text.replace("Cards put into a graveyard go on top of it.", "Cards go on top of a graveyard."))
    line = one_line_error(run("replay", trace))
    assert "another version of rule set 'mtg-current'" in line and "re-run the check" in line


def test_replay_of_malformed_json(run, tmp_path):
    (tmp_path / "t.itf.json").write_text('{"vars": [\n  1,\n  }')
    line = one_line_error(run("replay", "t.itf.json"))
    assert line.startswith("zoneproof: t.itf.json:3:") and "malformed JSON" in line


def test_replay_of_a_trace_from_another_tool(run, tmp_path):
    (tmp_path / "t.itf.json").write_text('{"#meta": {"source": "x.qnt"}, "vars": ["x"], "states": [{"x": {"#bigint": "1"}}]}')
    line = one_line_error(run("replay", "t.itf.json"))
    assert "only zoneproof traces can be replayed" in line


def test_replay_of_a_missing_file(run):
    assert "cannot read trace file" in one_line_error(run("replay", "nope.itf.json"))


def test_installed_entry_point_runs_without_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "zoneproof", "check", "--no-lint", "--without", "4x"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_same_seed_same_trace_across_processes(tmp_path):
    """Python randomises hashing per process; the encoding must not depend on it."""
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        env = {**__import__("os").environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "zoneproof", "check", "--no-lint", "mtg-current", "-w", "400.12", "-p", "zone-wide", "--out", str(out)],
            capture_output=True, text=True, cwd=tmp_path, env=env,
        )
        assert done.returncode == 1, done.stderr
        outputs.append((out / "mtg-current--without-400.12--zone-wide.itf.json").read_bytes())
    assert outputs[0] == outputs[1]


def test_emit_scenario_writes_a_scenario_that_runs(run, tmp_path):
    code, out, _ = run("check", "--no-lint", "mtg-current", "-w", "400.3", "-p", "owner-zones", "--emit", "scenario", "--out", "cx")
    assert code == 1
    scenario = tmp_path / "cx" / "mtg-current--without-400.3--owner-zones.scenario.toml"
    assert scenario.is_file()
    assert not (tmp_path / "cx" / "mtg-current--without-400.3--owner-zones.itf.json").exists()
    text = scenario.read_text()
    assert 'without = [\n    "400.3",\n]' in text and "[[step]]" in text
    code, out, _ = run("run", str(scenario))
    assert code == 0 and "1 scenarios: 1 passed, 0 failed" in out


FACE_DOWN_ORACLE = [("708.5", "face-down-visibility"), ("708.9", "face-down-reveal"), ("708.8", "face-up-same-object"), ("400.2", "hidden-zones")]


@pytest.mark.parametrize("rule, prop_id", FACE_DOWN_ORACLE, ids=[p for _, p in FACE_DOWN_ORACLE])
def test_removing_a_visibility_rule_gives_a_counterexample_that_replay_confirms(run, tmp_path, rule, prop_id):
    code, out, _ = run("check", "--no-lint", "mtg-current", "--without", rule, "-p", prop_id, "--emit", "itf", "--emit", "scenario", "--out", "cx")
    assert code == 1 and f"{prop_id}" in out and "violated" in out
    stem = tmp_path / "cx" / f"mtg-current--without-{rule}--{prop_id}"
    code, out, err = run("replay", f"{stem}.itf.json")
    assert code == 0 and err == "" and "✓ confirmed" in out
    code, out, _ = run("run", f"{stem}.scenario.toml")
    assert code == 0 and "1 scenarios: 1 passed, 0 failed" in out


def test_no_command_prints_the_help(run):
    code, out, err = run()
    assert code == 2 and err == ""
    assert out.startswith("Usage: zoneproof") and "error" not in out


def test_every_error_of_a_rule_set_file_is_reported_at_its_own_line(run, tmp_path):
    text = (Path(__file__).parent.parent / "model" / "mtg-current.toml").read_text(encoding="utf-8")
    text = text.replace("# section 400 (seed 001)", "# section 400 (seed 001); rule 400.3 names behaviour = \"bogus\"", 1)
    text = text.replace('id = "400.3"\nbehaviour = "owner-redirect"', 'id = "400.3"\nbehaviour = "owner-redirct"', 1)
    text = text.replace('id = "400.5"\n', 'id = "400.5"\nzone = ["library"]\n', 1)
    text = text.replace("title = ", 'titel = "x"\ntitle = ', 1)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    code, out, err = run("list", str(path))
    assert code == 2 and out == ""
    reported = err.strip().splitlines()
    assert len(reported) == 3  # no knock-on errors from the rules that could not be read
    for message, wanted in zip(reported, ['titel = "x"', 'behaviour = "owner-redirct"', 'zone = ["library"]']):
        line = int(message.split(":")[2])
        assert lines[line - 1] == wanted, message
    assert "did you mean 'title'" in reported[0] and "did you mean 'owner-redirect'" in reported[1] and "did you mean 'zones'" in reported[2]

"""`zoneproof diff`: rules that differ, verdict flips, and shortest runs one rule set allows and the other forbids."""

import re
from pathlib import Path

from tests.conftest import json_records, normalise
from tests.test_cli import one_line_error

REPO = Path(__file__).resolve().parent.parent
SMALL = ("--depth", "2", "--cards", "2", "--sideboard", "0", "--tokens", "0")


def test_removing_400_3_flips_owner_zones_and_changes_behaviours(run, golden, tmp_path):
    code, out, err = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", "-p", "tokens", *SMALL)
    assert code == 1 and err == ""
    golden("diff-without-400.3.txt", normalise(out))
    assert "400.3    mtg-current: owner-redirect" in out and "mtg-current--without-400.3: removed" in out
    assert "owner-zones            holds       violated                    ← flips" in out
    assert "tokens                 holds       holds\n" in out
    # the flip's counterexample replays
    trace = tmp_path / "counterexamples" / "mtg-current--without-400.3--owner-zones.itf.json"
    assert run("replay", str(trace))[0] == 0
    # a sacrificed stolen creature: its owner's graveyard with 400.3, its controller's without
    assert "sacrifice: allowed by mtg-current, not by mtg-current--without-400.3 (2 steps)" in out
    assert "sacrifice: allowed by mtg-current--without-400.3, not by mtg-current (2 steps)" in out
    scenarios = sorted((tmp_path / "counterexamples").glob("*.scenario.toml"))
    assert len(scenarios) == 16
    code, ran, _ = run("run", *map(str, scenarios))
    assert code == 0 and "16 scenarios: 16 passed, 0 failed" in ran


def test_the_refused_scenario_fails_under_the_side_that_allows_the_step(run, tmp_path):
    """The two scenarios of a difference disagree: run under the other rule set, each fails."""
    run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "tokens", *SMALL)
    folder = tmp_path / "counterexamples"
    refused = (folder / "mtg-current--without-400.3--refuses-sacrifice.scenario.toml").read_text()
    assert 'without = [\n    "400.3",\n]' in refused
    (folder / "swapped.scenario.toml").write_text(refused.replace('without = [\n    "400.3",\n]\n', ""))
    code, out, _ = run("run", str(folder / "swapped.scenario.toml"))
    assert code == 1 and "✗" in out and "expected whose = " in out


def test_a_rule_set_against_itself_agrees(run, tmp_path):
    code, out, _ = run("diff", "mtg-current", "mtg-current", "-p", "owner-zones", *SMALL)
    assert code == 0
    assert "rules: the same rules in force" in out and "behaviours: no action kind" in out
    assert out.splitlines()[-1].startswith("0 rules differ; they agree within the scope")
    assert not (tmp_path / "counterexamples").exists()


def test_mtg_2010_against_mtg_current_json(run, tmp_path):
    code, out, _ = run("diff", "mtg-2010", "mtg-current", "-p", "command-in-command", *SMALL, "--format", "json")
    assert code == 1
    doc, summary = json_records(out)
    assert summary["counts"]["flips"] == 1 and summary["exit_code"] == 1
    rules = {r["id"]: r for r in doc["rules"]}
    assert rules["400.10"]["a"]["behaviour"] == "documented" and rules["400.10"]["b"]["behaviour"] == "command-in-command"
    assert rules["400.12"]["a"] is None
    [prop] = doc["properties"]
    assert prop == {"property": "command-in-command", "a": "violated", "b": "holds", "flips": True,
                    "trace": "counterexamples/mtg-2010--command-in-command.itf.json"}
    # mtg-2010 has no face-down actions (708, 406.3) and no reverse_illegal_cast (601.2): mtg-current alone
    # allows them, and exile_with (406.6) and exile_until (610.3), once a permanent is on the battlefield; turn_face_up needs
    # a face-down permanent first, and return_exiled a card exiled with one, which no step allowed by
    # both can make; and the mulligan: Paris in 2010, London today
    assert {(b["kind"], b["allowed_by"], b["steps"]) for b in doc["behaviours"]} == {
        ("move_to_command", "a", 2), ("move_to_command", "b", 2), ("mulligan", "a", 2), ("mulligan", "b", 2),
        ("put_onto_battlefield_face_down", "b", 1), ("cast_face_down", "b", 2), ("reverse_illegal_cast", "b", 2),
        ("exile_face_down", "b", 1), ("scry", "b", 1), ("exile_with", "b", 2), ("exile_until", "b", 2),
    }
    assert doc["agree"] is False and doc["problems"] == []


def test_an_interpreter_that_disagrees_is_a_checker_bug(run, monkeypatch):
    """If the interpreter let the forbidding side take the last step to the same state, exit 4."""
    import zoneproof.diff as diff_module
    from zoneproof.interpreter import Outcome

    monkeypatch.setattr(diff_module, "apply", lambda world, state, action: Outcome(state, ()))
    monkeypatch.setattr(diff_module, "state_difference", lambda world, recorded, actual: None)
    # in this process (--jobs 1): the patched interpreter does not reach worker processes
    code, out, _ = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "tokens", "--jobs", "1", *SMALL)
    assert code == 4 and "checker bug:" in out and "allows its last step under" in out


def test_bad_input_is_one_line(run, tmp_path):
    assert "unknown rule set 'mtg-curent'" in one_line_error(run("diff", "mtg-curent", "mtg-current"))
    assert "no rule '400.33'" in one_line_error(run("diff", "mtg-current", "mtg-current", "--without-b", "400.33"))
    assert "--depth must be 0..40" in one_line_error(run("diff", "mtg-current", "mtg-current", "--depth", "41"))
    assert "Missing argument" in one_line_error(run("diff", "mtg-current"))
    (tmp_path / "broken.toml").write_text('name = "x"\ntitle = \n')
    assert one_line_error(run("diff", "broken.toml", "mtg-current")).startswith("zoneproof: broken.toml:2:")
    assert not (tmp_path / "counterexamples").exists()


def test_two_rule_sets_of_one_name_are_told_apart(run, tmp_path):
    text = (REPO / "model" / "mtg-current.toml").read_text()
    text = text.replace('behaviour = "owner-redirect"\nzones = ["library", "hand", "graveyard"]', 'behaviour = "documented"')
    (tmp_path / "mine.toml").write_text(text)
    code, out, _ = run("diff", "mine.toml", "mtg-current", "-p", "tokens", *SMALL)
    assert code == 1
    assert out.startswith("diff mtg-current (A) vs mtg-current (B):")
    assert "400.3    mtg-current (A): documented" in out
    names = {p.name for p in (tmp_path / "counterexamples").iterdir()}
    assert "mtg-current--a--allows-sacrifice.scenario.toml" in names and "mtg-current--b--allows-sacrifice.scenario.toml" in names
    assert len(names) == 16


def test_the_vancouver_mulligan_lets_the_library_change_without_a_shuffle(run, tmp_path):
    """mtg-2015-bfz allows the post-mulligan look after a mulligan, which mtg-2015-origins has not:
    a shortest run of four steps (draw_hand, mulligan, keep, look), replayed as two scenarios."""
    scope = ("--players", "1", "--cards", "2", "--hand", "1", "--sideboard", "0", "--tokens", "0", "--depth", "4")
    code, out, err = run("diff", "mtg-2015-origins", "mtg-2015-bfz", "-p", "mulligan-hand-size", *scope)
    assert code == 1 and err == "", out
    assert re.search(r"\n  103\.4\.look +mtg-2015-origins: not in the file", out), out
    assert "actions only under mtg-2015-bfz: post_mulligan_look" in out
    assert "post_mulligan_look: allowed by mtg-2015-bfz, not by mtg-2015-origins (4 steps)" in out
    assert "has no action 'post_mulligan_look'" in out
    steps = [line.split()[1] for line in out.splitlines() if re.match(r"\s+\d\.\s", line)]
    assert steps == ["draw_hand", "mulligan", "keep", "post_mulligan_look"]
    scenarios = sorted((tmp_path / "counterexamples").glob("*.scenario.toml"))
    assert [p.name for p in scenarios] == [
        "mtg-2015-bfz--allows-post_mulligan_look.scenario.toml", "mtg-2015-origins--refuses-post_mulligan_look.scenario.toml",
    ]
    code, ran, _ = run("run", *map(str, scenarios))
    assert code == 0 and "2 scenarios: 2 passed, 0 failed" in ran, ran


def test_the_new_103_6_refuses_an_opening_hand_action_while_a_player_may_still_look(run, tmp_path):
    """Under mtg-2015-origins an opening-hand action comes once every player has kept; under
    mtg-2015-bfz (103.6.process-complete) not while a player may still look. No verdict flips: under
    Origins nobody may look, so opening-hand-actions holds under both (proved, where induction reaches it)."""
    scope = ("--players", "1", "--cards", "3", "--sideboard", "0", "--tokens", "0", "--depth", "4")
    code, out, err = run("diff", "mtg-2015-origins", "mtg-2015-bfz", "-p", "opening-hand-actions", *scope)
    assert code == 1 and err == "", out
    assert re.search(r"\n  opening-hand-actions +(holds|proved) +(holds|proved)\n", out), out
    assert "opening_hand_action: allowed by mtg-2015-origins, not by mtg-2015-bfz (4 steps)" in out
    assert "the mulligan process is not complete: A may still look at the top card (103.6.process-complete)" in out
    scenarios = sorted((tmp_path / "counterexamples").glob("*opening_hand_action.scenario.toml"))
    assert [p.name for p in scenarios] == [
        "mtg-2015-bfz--refuses-opening_hand_action.scenario.toml", "mtg-2015-origins--allows-opening_hand_action.scenario.toml",
    ]
    assert 'illegal = "103.6.process-complete"' in scenarios[0].read_text()  # the rule the refusal cites
    code, ran, _ = run("run", *map(str, scenarios))
    assert code == 0 and "2 scenarios: 2 passed, 0 failed" in ran, ran


def test_the_commander_mulligan_of_2015_against_its_replacement(run, tmp_path):
    """mtg-2015-commander (903.8, partial Paris) against mtg-2015-bfz, which Commander adopted in
    January 2016: each side has a mulligan the other refuses."""
    scope = ("--players", "1", "--cards", "3", "--sideboard", "0", "--tokens", "0", "--depth", "3")
    code, out, _ = run("diff", "mtg-2015-commander", "mtg-2015-bfz", "-p", "mulligan-conserves", *scope)
    assert code == 1, out
    assert "mulligan: allowed by mtg-2015-commander, not by mtg-2015-bfz (2 steps)" in out
    assert "mulligan: allowed by mtg-2015-bfz, not by mtg-2015-commander (2 steps)" in out
    assert "face_down False → True" in out
    code, ran, _ = run("run", *map(str, sorted((tmp_path / "counterexamples").glob("*.scenario.toml"))))
    assert code == 0, ran


def test_ctrl_c_prints_the_differences_found_before_it_and_exits_130(run, monkeypatch, tmp_path):
    """Ctrl-C (the solver raises KeyboardInterrupt, as an interrupted query does) right after the
    first behaviour difference is found: the verdicts and that difference are printed and written,
    then the line saying the run was interrupted, and the exit code is 130."""
    import zoneproof.diff as diff_module

    found = []
    real_replay = diff_module._replay

    def replay(*args):
        found.append(real_replay(*args))
        return found[-1]

    class Budget(diff_module.Budget):
        def ask(self, solver, assumptions):
            if found:
                raise KeyboardInterrupt
            return super().ask(solver, assumptions)

    monkeypatch.setattr(diff_module, "_replay", replay)
    monkeypatch.setattr(diff_module, "Budget", Budget)
    code, out, err = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", "-p", "tokens", "--jobs", "1", *SMALL)
    assert code == 130
    assert "owner-zones            holds       violated                    ← flips" in out
    assert "tokens                 holds       holds\n" in out
    [difference] = [line for line in out.splitlines() if ": allowed by " in line]
    assert difference.startswith(f"  {found[0].kind.value}: allowed by mtg-current, not by mtg-current--without-400.3")
    assert out.splitlines()[-1].startswith("1 rules differ; interrupted: 1 verdict flip, 1 behaviour differ in what was finished before it")
    assert err.strip().splitlines()[-1].startswith("zoneproof: interrupted (Ctrl-C)")
    written = sorted(p.name for p in (tmp_path / "counterexamples").iterdir())
    assert written == sorted(["mtg-current--without-400.3--owner-zones.itf.json",
                              f"mtg-current--allows-{found[0].kind.value}.scenario.toml",
                              f"mtg-current--without-400.3--refuses-{found[0].kind.value}.scenario.toml"])
    code, ran, _ = run("run", *(str(tmp_path / "counterexamples" / n) for n in written if n.endswith(".toml")))
    assert code == 0 and "2 scenarios: 2 passed" in ran


def test_an_interrupt_during_the_checks_leaves_the_verdicts_not_known_unknown_in_json(run, monkeypatch):
    import zoneproof.diff as diff_module
    from zoneproof.errors import Interrupted

    real = diff_module.check_properties

    def check_properties(ruleset, props, scope, **options):
        results = real(ruleset, props, scope, **options)
        if ruleset.removed:  # B: Ctrl-C after its first property
            raise Interrupted(tuple(results[:1]))
        return results

    monkeypatch.setattr(diff_module, "check_properties", check_properties)
    code, out, err = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", "-p", "tokens",
                         "--jobs", "1", "--format", "json", *SMALL)
    assert code == 130
    doc, summary = json_records(out)
    assert [(p["property"], p["a"], p["b"], p["flips"]) for p in doc["properties"]] == [
        ("owner-zones", "holds", "violated", True), ("tokens", "holds", "unknown", False)]
    assert doc["behaviours"] == [] and doc["finished"] is False and doc["agree"] is False
    assert summary["exit_code"] == 130 and summary["counts"]["flips"] == 1


def test_a_product_question_that_needs_more_than_its_budget_is_unknown_whatever_the_time(run, monkeypatch):
    """The product's questions end on Z3's resource budget, not on the clock: with a budget too
    small for any of them and an hour's guard, each direction's search says so (exit 3, `budget`)."""
    import zoneproof.diff as diff_module

    monkeypatch.setattr(diff_module, "PRODUCT_UNITS_PER_SECOND", 1)
    code, out, _ = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "tokens", "--jobs", "1", "--timeout", "3600", *SMALL)
    assert code == 3, out
    assert out.count("unknown: no answer in time (budget) for runs that") == 2

"""`zoneproof show` on every kind of file zoneproof writes, and `zoneproof diff --html`."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import one_line_error
from zoneproof.interpreter import World, sees
from zoneproof.replay import ruleset_for_trace
from zoneproof.report import describe_action, where
from zoneproof.trace import read_trace

SCENARIOS = Path(__file__).parent / "scenarios"
SMALL = ("--depth", "2", "--cards", "2", "--sideboard", "0", "--tokens", "0")


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """The counterexample to owner-zones without 400.3, made once for the tests of this file."""
    folder = tmp_path_factory.mktemp("cx")
    # In a process of its own, as a user runs it: in this one, Z3's model could depend on the tests run before.
    made = subprocess.run([sys.executable, "-m", "zoneproof", "check", "mtg-current", "--without", "400.3", "-p", "owner-zones",
                           "--no-lint", "--out", str(folder)], capture_output=True, text=True, timeout=300)
    assert made.returncode == 1, made.stderr
    return folder / "mtg-current--without-400.3--owner-zones.itf.json"


@pytest.fixture
def counterexample(made, tmp_path) -> Path:
    (tmp_path / "cx").mkdir()
    return Path(shutil.copy(made, tmp_path / "cx" / made.name))


def culprit_of(path: Path):
    """The trace, the name of the card its last step put into another player's zone, and that card's slot."""
    trace = read_trace(path)
    before, after = trace.steps[-2].state if len(trace.steps) > 1 else trace.initial, trace.steps[-1].state
    [slot] = [i for i, (o, o2) in enumerate(zip(before.objects, after.objects)) if (o.zone, o.whose) != (o2.zone, o2.whose)]
    return trace, trace.slots[slot].name, slot


def never_seen_by(trace, player: int) -> list[str]:
    """The cards whose face the player sees in no state of the trace."""
    world = World.of(ruleset_for_trace(trace), trace.slots, trace.card_types, trace.scope)
    states = [trace.initial, *(s.state for s in trace.steps)]
    return [slot.name for i, slot in enumerate(trace.slots) if not any(sees(world.ruleset, state, player, i) for state in states)]


def test_show_prints_the_steps_and_the_board_at_the_violation(run, counterexample):
    code, out, err = run("show", str(counterexample))
    assert code == 0 and err == ""
    assert out.startswith("counterexample to owner-zones under mtg-current without 400.3  (seed 0; the view of everyone)")
    trace, culprit, slot = culprit_of(counterexample)
    last = trace.steps[-1]
    assert f"▶  2.  {describe_action(last.action, trace.slots)}  [{', '.join(last.rules)}]" in out
    assert f"✗ owner-zones fails at step 2 for c = {culprit}: a card in a library, hand or graveyard is in its owner's" in out
    assert f"{where(last.state.objects[slot])} · " in out and f"⋯ {culprit} left → {where(last.state.objects[slot])}" in out
    assert "✗ witness" in out and "\nempty: " in out


def test_show_all_prints_a_board_after_every_step(run, counterexample):
    code, out, _ = run("show", str(counterexample), "--all")
    assert code == 0 and out.count("outside the game · 2") == 3


def test_show_a_step_as_a_player_sees_it(run, counterexample):
    code, out, _ = run("show", str(counterexample), "--step", "1", "--view-as", "b")
    trace, _, _ = culprit_of(counterexample)
    hidden = never_seen_by(trace, 1)
    assert code == 0 and "the view of player B" in out and "▶  1.  " in out
    assert len(hidden) >= 3 and not any(name in out for name in hidden)  # library cards, among others: nobody sees their faces
    assert "hidden" in out


def test_show_html_writes_one_page_with_every_view(run, counterexample, tmp_path):
    code, out, err = run("show", str(counterexample), "--html", "page.html")
    assert code == 0 and err == ""
    assert out == "page written to page.html: 2 steps, as seen by everyone, player A, player B; open it in a browser\n"
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.count("<template data-view=") == 3


def test_show_html_for_one_player_writes_that_view_only(run, counterexample, tmp_path):
    code, out, _ = run("show", str(counterexample), "--html", "b.html", "--view-as", "B")
    assert code == 0 and "as seen by player B;" in out
    page = (tmp_path / "b.html").read_text(encoding="utf-8")
    trace, culprit, _ = culprit_of(counterexample)
    assert page.count("<template data-view=") == 1 and not any(f">{name}<" in page for name in never_seen_by(trace, 1))


def test_show_a_lint_witness(run, tmp_path):
    code, _, _ = run("lint", "mtg-current", "-p", "face-down-visibility", "--witness", *SMALL, "--out", "lint")
    witness = tmp_path / "lint" / "mtg-current--face-down-visibility--witness.itf.json"
    assert witness.exists()
    code, out, _ = run("show", str(witness))
    assert code == 0 and out.startswith("lint witness: a trigger of face-down-visibility fires under mtg-current")
    assert "◆ a trigger of face-down-visibility fires at step 1: the controller of a face-down spell or permanent" in out


def test_show_a_scenario_runs_it_in_the_interpreter(run):
    code, out, _ = run("show", str(SCENARIOS / "stolen-creature-dies.toml"))
    assert code == 0 and out.startswith("scenario: A stolen creature that dies goes to its owner's graveyard")
    assert "▶  5.  destroy Bear  [400.3, 404.1, 400.7]" in out and "graveyard/A · 1" in out


def test_show_the_scenarios_of_a_diff_with_the_refused_step(run, tmp_path):
    code, _, _ = run("diff", "mtg-2010", "mtg-current", "-p", "owner-zones", *SMALL, "--out", "d")
    assert code == 1
    refused = tmp_path / "d" / "mtg-2010--refuses-cast_face_down.scenario.toml"
    code, out, _ = run("show", str(refused))
    assert code == 0 and "refused: rule set 'mtg-2010' has no action 'cast_face_down'" in out
    code, out, _ = run("show", str(tmp_path / "d" / "mtg-current--allows-cast_face_down.scenario.toml"))
    assert code == 0 and "face_down False → True" in out


def test_show_a_trace_that_does_not_replay_warns_and_exits_1(run, counterexample):
    trace, culprit, _ = culprit_of(counterexample)
    data = json.loads(counterexample.read_text(encoding="utf-8"))
    dict(data["states"][2]["objects"]["#map"])[culprit]["zone"] = "exile"  # instead of the other player's zone
    counterexample.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run("show", str(counterexample))
    kind = trace.steps[1].action.kind.value
    assert code == 1 and f"⚠ the interpreter does not reproduce this trace: step 2 ({kind}): {culprit}.zone is exile in the" in out


def test_show_a_scenario_whose_expectation_fails_exits_1(run, tmp_path):
    text = (SCENARIOS / "stolen-creature-dies.toml").read_text(encoding="utf-8").replace('whose = "A", position', 'whose = "B", position')
    (tmp_path / "wrong.toml").write_text(text, encoding="utf-8")
    code, out, _ = run("show", "wrong.toml")
    assert code == 1 and "✗ Bear: expected whose = 'B', got 'A'" in out


@pytest.mark.parametrize("args, message", [
    (("notes.txt",), "notes.txt: error: give an ITF trace (.itf.json) or a scenario file (.toml)"),
    (("missing.itf.json",), "missing.itf.json: error: cannot read trace file"),
    (("TRACE", "--step", "3"), "error: --step must be 0..2 (the run has 2 steps), got 3"),
    (("TRACE", "--view-as", "C"), "error: --view-as C: choose everyone or a player of the run (A, B)"),
    (("TRACE", "--html", "."), "error: --html . is a folder"),
])
def test_show_bad_input_is_one_line_and_exit_2(run, counterexample, args, message):
    (counterexample.parent.parent / "notes.txt").write_text("hello", encoding="utf-8")
    result = run("show", *(str(counterexample) if a == "TRACE" else a for a in args))
    assert result[0] == 2 and message in one_line_error(result)


def test_diff_html_draws_each_flip_and_each_behaviour_side_by_side(run, tmp_path):
    code, out, _ = run("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", *SMALL, "--html", "diff.html")
    assert code == 1 and out.endswith("page written to diff.html; open it in a browser\n")
    page = (tmp_path / "diff.html").read_text(encoding="utf-8")
    behaviours = int(out.split(" behaviours differ")[0].rsplit(" ", 1)[1])
    assert page.count('<section class="game"') == 1 + behaviours
    assert page.count('<div class="runs runs-2">') == behaviours and page.count('<div class="runs runs-1">') == 1
    assert "owner-zones is violated under mtg-current--without-400.3 only" in page


def test_diff_html_to_a_folder_is_refused_before_solving(run):
    result = run("diff", "mtg-current", "mtg-current", *SMALL, "--html", ".")
    assert result[0] == 2 and "--html . is a folder" in one_line_error(result)

"""A card exiled face down (406.3): who may look at it, how long the permission lasts, and the
stock property face-down-exile, in the interpreter, in checks and in traces."""

from __future__ import annotations

import json

import pytest

from zoneproof.interpreter import IllegalAction, sees
from zoneproof.model import Action, Zone
from zoneproof.ruleset import load_ruleset
from zoneproof.trace import read_trace

from tests.test_cli import one_line_error
from test_interpreter import A, A1, A_TOK, B, B1, K, onto_battlefield, play, world


def exile_face_down(looker: int, card: int) -> Action:
    return Action(K.EXILE_FACE_DOWN, card=card, player=looker)


def viewers(w, state, card: int) -> list[int]:
    return [p for p in (A, B) if sees(w.ruleset, state, p, card)]


def test_only_the_player_an_instruction_lets_look_sees_a_card_exiled_face_down():
    w = world()
    outcome = play(w, exile_face_down(B, A1))  # an effect of B's exiles A's card face down: B may look at it
    card = outcome.state.objects[A1]
    assert (card.zone, card.face_down, card.looker) == (Zone.EXILE, True, B) and "406.3" in outcome.rules
    assert viewers(w, outcome.state, A1) == [B]  # not even its owner


def test_the_permission_lasts_until_the_card_leaves_exile():
    w = world()
    exiled = play(w, exile_face_down(B, A1)).state
    later = play(w, onto_battlefield(B, B1), state=exiled).state
    assert later.objects[A1].looker == B and viewers(w, later, A1) == [B]
    back = play(w, onto_battlefield(A, A1), state=later).state  # a new object (400.7): no permission, face up
    assert (back.objects[A1].face_down, back.objects[A1].looker) == (False, None) and viewers(w, back, A1) == [A, B]


def test_a_card_exiled_face_down_again_is_a_new_object_with_the_new_permission():
    w = world()
    again = play(w, exile_face_down(B, A1), exile_face_down(A, A1))
    card = again.state.objects[A1]
    assert (card.gen, card.looker) == (2, A) and {"400.8", "406.3"} <= set(again.rules)
    assert viewers(w, again.state, A1) == [A]


def test_without_406_3_every_player_may_examine_a_card_exiled_face_down():
    w = world(("406.3",))
    outcome = play(w, exile_face_down(B, A1))
    assert outcome.state.objects[A1].face_down and "406.3" not in outcome.rules
    assert viewers(w, outcome.state, A1) == [A, B]


def test_a_face_down_permanent_exiled_face_down_is_revealed_as_it_leaves_the_battlefield():
    w = world()
    outcome = play(w, Action(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, card=A1, player=A), exile_face_down(A, A1))
    assert outcome.state.objects[A1].revealed and "708.9" in outcome.rules
    assert viewers(w, outcome.state, A1) == [A, B]  # for this step only: 708.9 shows it to all


def test_a_token_is_not_exiled_face_down():
    with pytest.raises(IllegalAction, match="406.3 speaks of cards"):
        play(world(), Action(K.CREATE_TOKEN, card=A_TOK, player=A), exile_face_down(A, A_TOK))


def test_a_file_without_406_3_has_no_exile_face_down():
    assert not load_ruleset("mtg-2015-origins").allows(K.EXILE_FACE_DOWN)
    assert load_ruleset("mtg-commander").allows(K.EXILE_FACE_DOWN)


def test_removing_406_3_breaks_face_down_exile_with_a_trace_that_replays(run, tmp_path):
    code, out, _ = run("check", "mtg-current", "--without", "406.3", "-p", "face-down-exile", "--no-lint",
                       "--cards", "1", "--sideboard", "0", "--tokens", "0")
    assert code == 1 and "violated  depth 1" in out and "exile_face_down" in out, out
    path = tmp_path / "counterexamples" / "mtg-current--without-406.3--face-down-exile.itf.json"
    [step] = read_trace(path).steps
    exiled = step.action.card
    assert step.state.objects[exiled].looker == step.action.player
    assert run("replay", str(path))[0] == 0 and run("run", str(path))[0] == 0
    code, out, _ = run("check", "mtg-current", "-p", "face-down-exile", "--no-lint", "--cards", "1", "--sideboard", "0", "--tokens", "0")
    assert code == 0 and "proved" in out


@pytest.mark.parametrize("looker, message", [("C", "looker"), (True, "looker")])
def test_a_trace_with_a_bad_looker_is_refused(run, tmp_path, looker, message):
    run("check", "mtg-current", "--without", "406.3", "-p", "face-down-exile", "--no-lint", "--cards", "1", "--sideboard", "0", "--tokens", "0")
    path = tmp_path / "counterexamples" / "mtg-current--without-406.3--face-down-exile.itf.json"
    data = json.loads(path.read_text())
    records = dict(data["states"][1]["objects"]["#map"])
    [name] = [n for n, o in records.items() if "looker" in o]
    records[name]["looker"] = looker
    data["states"][1]["objects"]["#map"] = [[k, v] for k, v in records.items()]
    (tmp_path / "bad.itf.json").write_text(json.dumps(data))
    line = one_line_error(run("replay", "bad.itf.json"))
    assert line.startswith("zoneproof: bad.itf.json") and f"state 1, {name}.{message}" in line, line

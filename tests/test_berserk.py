"""The berserk rule set (seed 004): the game's zone names, the deck search and its shuffle
obligation (204.3) in the interpreter and the encoder, markers kept in a graveyard (205.4), the
declared gap in the rules, and the input errors of the new keys. The removal of each Berserk rule
and its shortest counterexample are in test_check.py's oracle table; the seed's examples are
scenarios (tests/scenarios/berserk-*.toml)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import z3

from tests.conftest import json_records
from tests.test_cli import one_line_error
from zoneproof.encode.system import TransitionSystem
from zoneproof.interpreter import IllegalAction, World, apply
from zoneproof.model import Action, ActionKind, CardType, GameState, PlayerState, Scope, Zone, initial_state, slots_for
from zoneproof.ruleset import load_ruleset

K = ActionKind
MODEL = Path(__file__).resolve().parent.parent / "model" / "berserk.toml"
BERSERK = load_ruleset("berserk")
SCOPE = Scope(players=2, cards=2, sideboard=0, tokens=0, depth=2)
SLOTS = slots_for(SCOPE)
A1, A2, B1, B2 = range(4)
TYPES = (CardType.CREATURE,) * 4


def world(ruleset=BERSERK) -> World:
    return World(ruleset, SLOTS, TYPES, SCOPE.players)


def start() -> GameState:
    state = initial_state(SLOTS, {0: [A2, A1], 1: [B2, B1]})  # bottom first: A1 and B1 on top
    return GameState(state.objects, (PlayerState(), PlayerState()))


def run_steps(actions, ruleset=BERSERK) -> GameState:
    state = start()
    for action in actions:
        state = apply(world(ruleset), state, action).state
    return state


def test_list_shows_the_games_own_zone_names(run):
    code, out, _ = run("list", "berserk")
    assert code == 0
    assert "library (deck)" in out and "battlefield (play)" in out
    assert "stack" not in out.split("rules:")[0]  # Berserk has no stack


def test_searching_takes_a_card_of_ones_own_deck_and_then_only_its_shuffle_may_happen():
    searched = run_steps([Action(K.SEARCH_LIBRARY, card=A2, player=0)])
    assert searched.objects[A2].zone is Zone.HAND and searched.players[0].searched
    with pytest.raises(IllegalAction, match="looked through and must be shuffled first"):
        apply(world(), searched, Action(K.DRAW, card=A1, player=0))
    with pytest.raises(IllegalAction, match="looked through and must be shuffled first"):
        apply(world(), searched, Action(K.SHUFFLE, player=1, order=(("library/B", (B1, B2)),)))
    shuffled = apply(world(), searched, Action(K.SHUFFLE, player=0, order=(("library/A", (A1,)),))).state
    assert not shuffled.players[0].searched
    with pytest.raises(IllegalAction, match="is not in A's library"):
        apply(world(), start(), Action(K.SEARCH_LIBRARY, card=B1, player=0))


def test_without_204_3_the_looked_through_deck_stays_marked_until_a_shuffle():
    without = BERSERK.without(["204.3"])
    state = run_steps([Action(K.SEARCH_LIBRARY, card=A2, player=0), Action(K.DRAW, card=A1, player=0)], without)
    assert state.players[0].searched
    state = apply(world(without), state, Action(K.SHUFFLE, player=0, order=(("library/A", ()),))).state
    assert not state.players[0].searched


@pytest.mark.parametrize("keeps", [True, False], ids=["205.4.markers", "without-205.4.markers"])
def test_a_destroyed_card_keeps_its_markers_only_under_205_4(keeps):
    ruleset = BERSERK if keeps else BERSERK.without(["205.4.markers"])
    state = run_steps([
        Action(K.PUT_ONTO_BATTLEFIELD, card=A1, player=0),
        Action(K.ADD_COUNTER, card=A1),
        Action(K.TAP, card=A1),
        Action(K.DESTROY, card=A1),
    ], ruleset)
    o = state.objects[A1]
    assert (o.zone, o.counters, o.tapped) == (Zone.GRAVEYARD, 1 if keeps else 0, False)


@pytest.mark.parametrize("without", [(), ("204.3",)], ids=["berserk", "without-204.3"])
def test_the_encoder_allows_exactly_the_interpreters_step_after_a_search(without):
    """From the state after a search, a draw is possible in the encoder exactly when the interpreter
    allows it, and the looked-through record is the interpreter's."""
    ruleset = BERSERK.without(list(without))
    searched = run_steps([Action(K.SEARCH_LIBRARY, card=A2, player=0)], ruleset)
    e = TransitionSystem(ruleset, SCOPE)
    solver = z3.Solver(ctx=e.ctx)
    solver.add(e.rule_values() + e.types_are(TYPES) + e.state_is(0, searched) + e.trans(0))
    solver.add(e.action_is(0, Action(K.DRAW, card=A1, player=0)))
    allowed = solver.check() == z3.sat
    assert allowed == bool(without)
    if allowed:
        after = apply(world(ruleset), searched, Action(K.DRAW, card=A1, player=0)).state
        _, states, _ = e.decode(solver.model(), 1)
        assert states[1] == after


def test_markers_in_the_encoder_match_the_interpreter():
    actions = [
        Action(K.PUT_ONTO_BATTLEFIELD, card=B1, player=0),
        Action(K.ADD_COUNTER, card=B1),
        Action(K.DESTROY, card=B1),
    ]
    e = TransitionSystem(BERSERK, SCOPE)
    solver = z3.Solver(ctx=e.ctx)
    solver.add(e.rule_values() + e.types_are(TYPES) + e.init())
    state = start()
    for t, action in enumerate(actions):
        state = apply(world(), state, action).state
        solver.add(e.trans(t) + e.action_is(t, action) + e.state_is(t + 1, state))
    assert solver.check() == z3.sat
    assert state.objects[B1].counters == 1 and state.objects[B1].whose == 1


def test_lint_reports_the_declared_gap_as_known_and_finds_the_conflict_without_it(run, tmp_path):
    code, out, _ = run("lint", "berserk", "--depth", "3", "-p", "owner-zones")  # 205.4.markers is live from depth 3
    assert code == 0, out
    assert "gap       put_into_library: left out of the search for conflicts" in out and "conflicts   none" in out
    text = MODEL.read_text(encoding="utf-8").replace('name = "berserk"', 'name = "berserk-no-gap"', 1)
    gap = text.index("[[gap]]")
    (tmp_path / "no-gap.toml").write_text(text[:gap] + text[text.index("# ----", gap):], encoding="utf-8")
    code, out, _ = run("lint", "no-gap.toml", "--depth", "2", "-p", "owner-zones", "--format", "json")
    [report] = json_records(out, "lint")
    assert code == 1 and report["gaps"] == []
    assert [c["event"].split()[0] for c in report["conflicts"]] == ["put_into_library"]


@pytest.mark.parametrize("edit, message", [
    ('called = "deck"', 'called = 3'),
    ('action = "put_into_library"\nreason', 'action = "put_into_the_deck"\nreason'),
    ('action = "put_into_library"\nreason', 'rule = "204.4"\nreason'),
])
def test_bad_zone_names_and_gaps_are_one_line_errors(edit, message, run, tmp_path):
    text = MODEL.read_text(encoding="utf-8")
    assert edit in text
    (tmp_path / "bad.toml").write_text(text.replace(edit, message, 1), encoding="utf-8")
    line = one_line_error(run("check", "--no-lint", "bad.toml", "--depth", "0"))
    assert re.search(r"bad\.toml:\d+: error: ", line), line

"""Permanents and cards in a hand exiled until a permanent leaves the battlefield (610.3, 610.3a,
610.3c): in the interpreter, in the encoder, in checks, in traces and in the rule sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoneproof.check import Verdict, check_properties
from zoneproof.interpreter import IllegalAction
from zoneproof.model import Action, Behaviour, Scope, Zone
from zoneproof.properties import stock_properties
from zoneproof.ruleset import builtin_names, load_ruleset
from zoneproof.scenario import load_scenario

from test_interpreter import A, A1, A_SB, B, B1, K, draw, onto_battlefield, play, world

PROPS = {p.id: p for p in stock_properties() if p.id in ("until-owner", "until-already-left")}
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("until-*.toml"))


def exile_until(card: int, source: int) -> Action:
    return Action(K.EXILE_UNTIL, card=card, targets=(source,))


def return_until(card: int, player: int) -> Action:
    return Action(K.RETURN_UNTIL, card=card, player=player)


# B1, a permanent of B's, exiles A1, a permanent of A's that B controls, until B1 leaves the battlefield.
EXILED = (onto_battlefield(B, B1), onto_battlefield(B, A1), exile_until(A1, B1))


def test_the_card_records_the_permanent_it_is_exiled_until():
    state = play(world(), *EXILED).state
    card = state.objects[A1]
    assert (card.zone, card.exiled_with, card.returns_to, card.link_lost) == (Zone.EXILE, B1, Zone.BATTLEFIELD, False)


def test_it_returns_only_once_that_permanent_has_left_and_under_its_owners_control():
    with pytest.raises(IllegalAction, match=r"B1 has not left the battlefield .*\(610\.3\)"):
        play(world(), *EXILED, return_until(A1, B))
    before = play(world(), *EXILED, Action(K.DESTROY, card=B1)).state
    assert before.objects[A1].link_lost
    outcome = play(world(), *EXILED, Action(K.DESTROY, card=B1), return_until(A1, B))
    card = outcome.state.objects[A1]
    assert (card.zone, card.controller, card.returns_to, card.exiled_with) == (Zone.BATTLEFIELD, A, Zone.NOWHERE, None)
    assert card.gen == before.objects[A1].gen + 1
    assert {"610.3", "610.3c"} <= set(outcome.rules)


def test_without_610_3c_it_returns_under_the_player_who_returns_it():
    state = play(world(without=("610.3c",)), *EXILED, Action(K.DESTROY, card=B1), return_until(A1, B)).state
    assert state.objects[A1].controller == B


def test_without_610_3_nothing_returns_it():
    with pytest.raises(IllegalAction, match="no rule in force returns"):
        play(world(without=("610.3",)), *EXILED, Action(K.DESTROY, card=B1), return_until(A1, B))


def test_610_3a_a_source_that_has_already_left_moves_nothing_and_without_it_the_card_is_exiled_for_good():
    actions = (onto_battlefield(B, A1), exile_until(A1, B1))  # B1 is still in B's library: not on the battlefield
    outcome = play(world(), *actions)
    assert outcome.state == play(world(), actions[0]).state and "610.3a" in outcome.rules
    exiled = play(world(without=("610.3a",)), *actions).state.objects[A1]
    assert (exiled.zone, exiled.returns_to, exiled.exiled_with) == (Zone.EXILE, Zone.NOWHERE, None)


# B1, a permanent of B's, exiles A1 from A's hand until B1 leaves the battlefield.
FROM_HAND = (draw(A, A1), onto_battlefield(B, B1), exile_until(A1, B1))


def test_a_card_exiled_from_a_hand_returns_to_its_owners_hand_as_a_new_object():
    exiled = play(world(), *FROM_HAND).state.objects[A1]
    assert (exiled.zone, exiled.exiled_with, exiled.returns_to) == (Zone.EXILE, B1, Zone.HAND)
    outcome = play(world(), *FROM_HAND, Action(K.DESTROY, card=B1), return_until(A1, B))
    card = outcome.state.objects[A1]
    assert (card.zone, card.whose, card.returns_to, card.exiled_with, card.gen) == (Zone.HAND, A, Zone.NOWHERE, None, exiled.gen + 1)
    assert "610.3" in outcome.rules and "610.3c" not in outcome.rules


def test_a_card_in_a_hand_whose_source_has_already_left_stays_in_the_hand():
    outcome = play(world(), draw(A, A1), exile_until(A1, B1))
    assert outcome.state.objects[A1].zone is Zone.HAND and "610.3a" in outcome.rules


def test_no_card_is_exiled_until_from_outside_the_game_even_without_400_11c():
    with pytest.raises(IllegalAction, match="neither a permanent nor a card in a hand"):
        play(world(without=("400.11c",)), onto_battlefield(B, B1), exile_until(A_SB, B1))


@pytest.mark.parametrize("actions, reason", [
    ((onto_battlefield(B, B1), exile_until(B1, B1)), "itself"),
    ((onto_battlefield(B, A1), Action(K.EXILE_UNTIL, card=A1)), "name in `targets`"),
    ((Action(K.EXILE, card=A1), return_until(A1, A)), "is not exiled until"),
])
def test_an_exile_until_the_model_does_not_allow_is_refused(actions, reason):
    with pytest.raises(IllegalAction, match=reason):
        play(world(), *actions)


def test_there_are_scenarios_with_and_without_each_rule():
    """(tests/test_scenarios.py runs every scenario.)"""
    assert len(SCENARIOS) >= 6
    removed = {rule for p in SCENARIOS for rule in ("610.3", "610.3a", "610.3c") if load_scenario(p).world.ruleset.active(
        {"610.3": Behaviour.UNTIL_RETURNS, "610.3a": Behaviour.UNTIL_ALREADY_LEFT, "610.3c": Behaviour.UNTIL_OWNER_CONTROLS}[rule]) is None}
    assert removed == {"610.3", "610.3a", "610.3c"}


@pytest.mark.parametrize("name", ["mtg-current", "mtg-commander"])
def test_both_properties_are_proved_under_the_intact_rules(name):
    ruleset = load_ruleset(name)
    results = check_properties(ruleset, list(PROPS.values()), ruleset.scope_for(Scope(cards=2)), timeout=900)
    assert {r.prop.id: r.verdict for r in results} == dict.fromkeys(PROPS, Verdict.PROVED)


def test_only_the_rule_sets_with_the_text_of_610_model_it():
    having = {name for name in builtin_names() if load_ruleset(name).allows(K.EXILE_UNTIL)}
    assert having == {"mtg-current", "mtg-commander", "mtg-commander-2020"}
    for name in set(builtin_names()) - having:
        ruleset = load_ruleset(name)
        assert not ruleset.allows(K.RETURN_UNTIL)
        assert {p: ruleset.expected(p).verdict for p in PROPS} == dict.fromkeys(PROPS, "vacuous")


def test_without_610_3c_until_owner_breaks_with_a_trace_that_records_the_exile_and_replays(run, broken):
    out, path, trace, first = broken("mtg-current", "610.3c", "until-owner", "--cards", "2")
    assert "until-owner" in out and "violated  depth 5" in out and "exile_until" in out and "return_until" in out
    exiled = first(K.EXILE_UNTIL)
    card = trace.steps[exiled].action.card
    assert trace.steps[exiled].state.objects[card].returns_to is Zone.BATTLEFIELD
    recorded = dict(json.loads(path.read_text())["states"][exiled + 1]["objects"]["#map"])[trace.slots[card].name]
    assert recorded["returns_to"] == "battlefield"
    last = trace.steps[-1]
    assert last.action.kind is K.RETURN_UNTIL and last.state.objects[card].controller != trace.slots[card].owner
    assert run("run", str(path))[0] == 0

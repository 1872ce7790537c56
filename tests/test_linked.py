"""Cards exiled with a permanent and the ability linked to that exile (406.6, 607.2a), and what 400.7
makes of the link: in the interpreter, in the encoder, in checks and in traces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoneproof.check import Verdict, check_properties
from zoneproof.interpreter import IllegalAction, World, apply
from zoneproof.model import Action, Behaviour, CardType, Scope, Zone
from zoneproof.properties import stock_properties
from zoneproof.report import describe_action
from zoneproof.ruleset import load_ruleset
from zoneproof.scenario import load_scenario, run_scenario

from test_interpreter import A, A1, A2, B, B1, K, SLOTS, onto_battlefield, play, world

STALE = next(p for p in stock_properties() if p.id == "stale-references")
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("exiled-with-*.toml"))


def exile_with(card: int, source: int) -> Action:
    return Action(K.EXILE_WITH, card=card, targets=(source,))


def return_exiled(card: int) -> Action:
    return Action(K.RETURN_EXILED, card=card)


def flicker(card: int, player: int) -> tuple[Action, ...]:
    return Action(K.EXILE, card=card), onto_battlefield(player, card)


# B1, a permanent of B's, exiles A1 from the top of A's library.
EXILED = (onto_battlefield(B, B1), exile_with(A1, B1))


def test_an_exile_with_a_permanent_records_it_on_the_card():
    state = play(world(), *EXILED).state
    assert state.objects[A1].zone is Zone.EXILE
    assert state.objects[A1].exiled_with == B1 and not state.objects[A1].link_lost


def test_the_linked_ability_returns_the_card_under_its_owners_control_as_a_new_object():
    before = play(world(), *EXILED).state
    outcome = play(world(), *EXILED, return_exiled(A1))
    card = outcome.state.objects[A1]
    assert (card.zone, card.controller, card.exiled_with) == (Zone.BATTLEFIELD, A, None)
    assert card.gen == before.objects[A1].gen + 1
    assert "406.6" in outcome.rules


def test_400_4a_an_instant_returned_stays_in_exile_with_its_link():
    state = play(world(types={A1: CardType.INSTANT}), *EXILED, return_exiled(A1)).state
    assert state.objects[A1].zone is Zone.EXILE and state.objects[A1].exiled_with == B1


def test_400_7_a_permanent_that_leaves_and_returns_loses_its_links_and_the_card_stays_in_exile():
    state = play(world(), *EXILED, *flicker(B1, B)).state
    assert state.objects[A1].zone is Zone.EXILE and state.objects[A1].link_lost
    with pytest.raises(IllegalAction, match=r"has become a new object.*\(406\.6\)"):
        play(world(), *EXILED, *flicker(B1, B), return_exiled(A1))


def test_the_new_object_makes_links_of_its_own():
    state = play(world(), *EXILED, *flicker(B1, B), exile_with(A2, B1), return_exiled(A2)).state
    assert state.objects[A2].zone is Zone.BATTLEFIELD
    assert state.objects[A1].zone is Zone.EXILE and state.objects[A1].link_lost


def test_a_permanent_that_only_changes_controller_keeps_its_links():
    state = play(world(), *EXILED, Action(K.GAIN_CONTROL, card=B1, player=A), return_exiled(A1)).state
    assert state.objects[A1].zone is Zone.BATTLEFIELD


@pytest.mark.parametrize("leaves", [(Action(K.EXILE, card=A1),), (onto_battlefield(A, A1), Action(K.EXILE, card=A1))],
                         ids=["exiled-again-from-exile", "left-exile-and-came-back"])
def test_400_7_a_card_that_becomes_a_new_object_has_no_link(leaves):
    state = play(world(), *EXILED, *leaves).state
    assert state.objects[A1].zone is Zone.EXILE and state.objects[A1].exiled_with is None
    with pytest.raises(IllegalAction, match="not in exile with a permanent"):
        play(world(), *EXILED, *leaves, return_exiled(A1))


def test_without_406_6_the_lost_link_still_finds_the_card():
    outcome = play(world(("406.6",)), *EXILED, Action(K.DESTROY, card=B1), return_exiled(A1))
    assert outcome.state.objects[A1].zone is Zone.BATTLEFIELD
    assert "406.6" not in outcome.rules


def test_without_400_7_nothing_becomes_a_new_object_so_no_link_is_lost():
    state = play(world(("400.7",)), *EXILED, *flicker(B1, B)).state
    assert not state.objects[A1].link_lost


@pytest.mark.parametrize("actions, reason", [
    ((exile_with(A1, B1),), "not a permanent"),
    ((onto_battlefield(B, B1), exile_with(B1, B1)), "cannot be exiled with itself"),
    ((onto_battlefield(B, B1), Action(K.EXILE_WITH, card=A1)), "name in `targets`"),
    ((Action(K.EXILE, card=A1), return_exiled(A1)), "not in exile with a permanent"),
])
def test_a_link_the_model_does_not_allow_is_refused(actions, reason):
    with pytest.raises(IllegalAction, match=reason):
        play(world(), *actions)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenarios_of_links_pass(path):
    result = run_scenario(load_scenario(path))
    assert result.passed, "\n".join(f"step {f.step}: {f.message}" for f in result.failures)


def test_there_are_scenarios_of_links_from_the_rules_examples():
    assert len(SCENARIOS) >= 5
    assert any(load_scenario(p).world.ruleset.active(Behaviour.LINKS_CHECKED) is None for p in SCENARIOS)


@pytest.mark.parametrize("name", ["mtg-current", "mtg-commander", "mtg-2015-bfz"])
def test_stale_references_is_proved_under_the_intact_rules(name):
    [result] = check_properties(load_ruleset(name), [STALE], load_ruleset(name).scope_for(Scope(cards=2)), timeout=900)
    assert result.verdict is Verdict.PROVED


def test_stale_references_is_vacuous_in_mtg_2010_which_has_no_link():
    ruleset = load_ruleset("mtg-2010")
    assert ruleset.expected("stale-references").verdict == "vacuous"
    assert not ruleset.allows(K.EXILE_WITH) and not ruleset.allows(K.RETURN_EXILED)


def test_without_406_6_stale_references_breaks_with_a_trace_that_replays(run, broken):
    """`check --without 406.6 -p stale-references` exits 1 with a counterexample whose trace records
    the link, the permanent named by the exile, and replays with `zoneproof run`."""
    out, path, trace, first = broken("mtg-current", "406.6", "stale-references", "--cards", "2")
    assert "stale-references" in out and "violated  depth 4" in out and "exile_with" in out and "targets=" in out
    exiled = first(K.EXILE_WITH)
    card, (source,) = trace.steps[exiled].action.card, trace.steps[exiled].action.targets
    assert trace.steps[exiled].state.objects[card].exiled_with == source
    assert trace.steps[-1].action == Action(K.RETURN_EXILED, card=card) and trace.steps[-2].state.objects[card].link_lost
    recorded = dict(json.loads(path.read_text())["states"][exiled + 1]["objects"]["#map"])[trace.slots[card].name]
    assert (recorded["exiled_with"], recorded["link_lost"]) == (trace.slots[source].name, False)
    assert run("run", str(path))[0] == 0


def test_a_link_is_shown_in_an_action():
    assert describe_action(exile_with(A1, B1), SLOTS) == "exile_with A1 targets=B1"


@pytest.mark.parametrize("removed", [(), ("406.6",), ("400.7",)], ids=["intact", "without-406.6", "without-400.7"])
def test_the_encoder_admits_exactly_the_interpreters_run_through_a_broken_link(removed):
    """A card exiled with a permanent, the permanent flickered, the link followed: the encoder allows
    the interpreter's states and no others, whichever of the rules is removed (with both in force the
    return is refused, so the run stops before it)."""
    from test_differential import HAND, START, encoder_disagrees
    from test_differential import SLOTS as D_SLOTS, A1 as D_A1, B as D_B, B1 as D_B1  # the differential harness's own scope
    w = World(load_ruleset("mtg-current").without(list(removed)), D_SLOTS, tuple(CardType.CREATURE for _ in D_SLOTS), 2, HAND)
    actions = [onto_battlefield(D_B, D_B1), exile_with(D_A1, D_B1), Action(K.EXILE, card=D_B1), onto_battlefield(D_B, D_B1)]
    if removed:
        actions.append(return_exiled(D_A1))
    states = [START]
    for action in actions:
        states.append(apply(w, states[-1], action).state)
    assert (states[-1].objects[D_A1].zone is Zone.BATTLEFIELD) == bool(removed)
    assert encoder_disagrees(removed, w.card_types, states, actions) is None

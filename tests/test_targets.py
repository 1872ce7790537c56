"""A spell's target (115.1) and what 400.7 and 608.2b make of it, in the interpreter and in checks."""

from __future__ import annotations

import json

import pytest

from zoneproof.interpreter import IllegalAction
from zoneproof.model import Action, CardType, Zone, slots_for
from zoneproof.report import describe_action
from zoneproof.trace import read_trace

from test_interpreter import A, A1, A2, B, B1, B2, K, SLOTS, cast, draw, onto_battlefield, play, resolve, world

INSTANTS = {A1: CardType.INSTANT, A2: CardType.INSTANT}


def cast_at(player: int, card: int, target: int) -> Action:
    return Action(K.CAST, card=card, player=player, targets=(target,))


def flicker(card: int, player: int) -> tuple[Action, ...]:
    return Action(K.EXILE, card=card), onto_battlefield(player, card)


# A1 (an instant) targets B1, a creature on the battlefield.
AIMED = (onto_battlefield(B, B1), draw(A, A1), cast_at(A, A1, B1))


def test_a_cast_records_the_target_of_its_spell():
    state = play(world(types=INSTANTS), *AIMED).state
    assert state.objects[A1].target == B1
    assert not state.objects[A1].target_lost


def test_a_spell_whose_target_is_still_there_acts_on_it():
    outcome = play(world(types=INSTANTS), *AIMED, resolve(A1))
    assert outcome.state.objects[B1].effect
    assert outcome.state.objects[A1].zone is Zone.GRAVEYARD and outcome.state.objects[A1].target is None
    assert "608.2b" in outcome.rules


def test_400_7_a_target_that_leaves_and_returns_is_a_new_object_lost_to_the_spell():
    state = play(world(types=INSTANTS), *AIMED, *flicker(B1, B)).state
    assert state.objects[B1].zone is Zone.BATTLEFIELD
    assert state.objects[A1].target_lost


def test_608_2b_a_spell_whose_target_became_a_new_object_does_nothing():
    outcome = play(world(types=INSTANTS), *AIMED, *flicker(B1, B), resolve(A1))
    assert not outcome.state.objects[B1].effect
    assert outcome.state.objects[A1].zone is Zone.GRAVEYARD
    assert "608.2b" in outcome.rules


def test_608_2b_a_spell_whose_target_left_the_battlefield_does_nothing():
    outcome = play(world(types=INSTANTS), *AIMED, Action(K.DESTROY, card=B1), resolve(A1))
    assert not outcome.state.objects[B1].effect


def test_without_608_2b_the_effect_acts_on_the_new_object_the_card_became():
    outcome = play(world(("608.2b",), types=INSTANTS), *AIMED, *flicker(B1, B), resolve(A1))
    assert outcome.state.objects[B1].effect
    assert "608.2b" not in outcome.rules


def test_without_400_7_a_returned_target_is_the_same_object_and_still_legal():
    state = play(world(("400.7",), types=INSTANTS), *AIMED, *flicker(B1, B)).state
    assert not state.objects[A1].target_lost
    assert play(world(("400.7",), types=INSTANTS), *AIMED, *flicker(B1, B), resolve(A1)).state.objects[B1].effect


def test_a_spell_may_target_a_spell_below_it_which_is_illegal_once_countered():
    w = world(types=INSTANTS)
    both = (draw(A, A1), draw(A, A2), cast(A, A1), cast_at(A, A2, A1))
    assert play(w, *both, resolve(A2)).state.objects[A1].effect
    countered = play(w, *both, Action(K.COUNTER, card=A1), resolve(A2)).state
    assert not countered.objects[A1].effect


@pytest.mark.parametrize("actions, reason", [
    ((draw(A, A1), cast_at(A, A1, A1)), "cannot target itself"),
    ((draw(A, A1), cast_at(A, A1, B2)), "neither a spell nor a permanent"),
    ((onto_battlefield(B, B1), draw(A, A1), Action(K.CAST, card=A1, player=A, targets=(B1, B1))), "at most one target"),
    ((onto_battlefield(B, B1), Action(K.DESTROY, card=B1, targets=(B1,))), "takes no target"),
])
def test_a_target_the_model_does_not_allow_is_refused(actions, reason):
    with pytest.raises(IllegalAction, match=reason):
        play(world(types={A1: CardType.INSTANT}), *actions)


def test_only_an_instant_or_sorcery_has_a_target():
    with pytest.raises(IllegalAction, match="not an instant or sorcery"):
        play(world(), onto_battlefield(B, B1), draw(A, A1), cast_at(A, A1, B1))


def test_a_target_is_shown_in_an_action_and_read_back_from_a_trace(run, tmp_path):
    """`check --without 608.2b -p fizzle` finds the spell acting on a new object; its trace records
    the cast's target and the spell's, and `zoneproof run` replays it."""
    code, out, _ = run("check", "mtg-current", "--without", "608.2b", "-p", "fizzle", "--no-lint", "--cards", "1", "--sideboard", "0", "--tokens", "0")
    assert code == 1, out  # a rule removed and a property violated, as a what-if check reports it
    assert "fizzle" in out and "violated" in out and "targets=" in out
    path = tmp_path / "counterexamples" / "mtg-current--without-608.2b--fizzle.itf.json"
    trace = read_trace(path)
    cast_step = next(s for s in trace.steps if s.action.kind is K.CAST)
    assert len(cast_step.action.targets) == 1
    aimed = json.loads(path.read_text())["states"][trace.steps.index(cast_step) + 1]["action"]["targets"]["#set"]
    assert aimed == [slots_for(trace.scope)[cast_step.action.targets[0]].name]
    assert run("run", str(path))[0] == 0
    assert describe_action(AIMED[2], SLOTS) == "cast A1 player=A targets=B1"

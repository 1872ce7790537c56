"""Copies of spells (707.10): what a copy is, where it goes, and when it ceases to exist (704.5e,
608.3f), in the interpreter and in checks."""

from __future__ import annotations

import json

import pytest

from zoneproof.interpreter import IllegalAction
from zoneproof.model import Action, CardType, Zone
from zoneproof.trace import read_trace

from test_interpreter import A, A1, A2, A_TOK, B, B1, K, cast, draw, onto_battlefield, play, resolve, world

INSTANT_AND_COPY = {A1: CardType.INSTANT, A_TOK: CardType.INSTANT}


def copy_of(spell: int, slot: int = A_TOK, player: int = A) -> Action:
    return Action(K.COPY_SPELL, card=slot, player=player, targets=(spell,))


def sba() -> Action:
    return Action(K.STATE_BASED_ACTIONS)


# A1 (an instant) targets B1, a creature on the battlefield; A copies it.
AIMED_AND_COPIED = (onto_battlefield(B, B1), draw(A, A1), Action(K.CAST, card=A1, player=A, targets=(B1,)), copy_of(A1))


def test_a_copy_goes_on_top_of_the_stack_with_the_spells_target_under_its_copiers_control():
    state = play(world(types=INSTANT_AND_COPY), *AIMED_AND_COPIED).state
    copy, spell = state.objects[A_TOK], state.objects[A1]
    assert copy.zone is Zone.STACK and copy.copy and copy.controller == A
    assert copy.pos > spell.pos
    assert copy.target == B1 and not copy.target_lost


def test_a_copy_of_an_instant_acts_on_the_target_then_ceases_to_exist_704_5e():
    w = world(types=INSTANT_AND_COPY)
    resolved = play(w, *AIMED_AND_COPIED, resolve(A_TOK)).state
    assert resolved.objects[B1].effect
    assert resolved.objects[A_TOK].zone is Zone.GRAVEYARD
    outcome = play(w, *AIMED_AND_COPIED, resolve(A_TOK), sba())
    assert outcome.state.objects[A_TOK].zone is Zone.NOWHERE and "704.5e" in outcome.rules
    assert outcome.state.objects[A1].zone is Zone.STACK


def test_without_704_5e_a_copy_stays_in_the_graveyard():
    state = play(world(("704.5e",), types=INSTANT_AND_COPY), *AIMED_AND_COPIED, resolve(A_TOK), sba()).state
    assert state.objects[A_TOK].zone is Zone.GRAVEYARD and state.objects[A_TOK].copy


def test_a_copy_of_a_spell_whose_target_is_lost_has_it_lost_too():
    w = world(types=INSTANT_AND_COPY)
    flickered = AIMED_AND_COPIED[:3] + (Action(K.EXILE, card=B1), onto_battlefield(B, B1), copy_of(A1))
    state = play(w, *flickered).state
    assert state.objects[A_TOK].target == B1 and state.objects[A_TOK].target_lost
    assert not play(w, *flickered, resolve(A_TOK)).state.objects[B1].effect


def test_a_copy_of_a_creature_spell_becomes_a_token_608_3f_and_then_ceases_as_one_111_7():
    w = world()
    copied = (draw(A, A1), cast(A, A1), copy_of(A1), resolve(A_TOK))
    outcome = play(w, *copied)
    assert outcome.state.objects[A_TOK].zone is Zone.BATTLEFIELD and not outcome.state.objects[A_TOK].copy
    assert "608.3f" in outcome.rules
    assert play(w, *copied, sba()).state.objects[A_TOK].zone is Zone.BATTLEFIELD
    died = play(w, *copied, Action(K.DESTROY, card=A_TOK), sba())
    assert died.state.objects[A_TOK].zone is Zone.NOWHERE and "111.7" in died.rules


def test_without_608_3f_a_copy_of_a_creature_spell_is_still_a_copy_on_the_battlefield_and_ends_there():
    w = world(("608.3f",))
    copied = (draw(A, A1), cast(A, A1), copy_of(A1), resolve(A_TOK))
    assert play(w, *copied).state.objects[A_TOK].copy
    assert play(w, *copied, sba()).state.objects[A_TOK].zone is Zone.NOWHERE


def test_111_8_does_not_hold_a_copy_which_is_no_token():
    w = world(types=INSTANT_AND_COPY)
    state = play(w, draw(A, A1), cast(A, A1), copy_of(A1), resolve(A_TOK), Action(K.RETURN_TO_HAND, card=A_TOK)).state
    assert state.objects[A_TOK].zone is Zone.HAND


@pytest.mark.parametrize("without, actions, reason", [
    ((), (draw(A, A1), copy_of(A1)), "not a face-up spell on the stack"),
    ((), (draw(A, A1), cast(A, A1), copy_of(A1, slot=A2)), "not a token slot of A"),
    ((), (draw(A, A1), cast(A, A1), copy_of(A1, player=B)), "not a token slot of B"),
    ((), (draw(A, A1), cast(A, A1), Action(K.COPY_SPELL, card=A_TOK, player=A)), "name the spell to copy"),
    ((), (draw(A, A1), draw(A, A2), cast(A, A2), copy_of(A2)), "token slot of type instant, and A2 is a creature"),
    ((), (draw(A, A1), Action(K.CAST_FACE_DOWN, card=A1, player=A), copy_of(A1)), "not a face-up spell"),
    (("707.10",), (draw(A, A1), cast(A, A1), copy_of(A1)), "no rule in force lets a player copy a spell"),
    ((), (Action(K.CREATE_TOKEN, card=A_TOK, player=A),), "tokens of the model are creatures"),
])
def test_a_copy_the_rules_do_not_allow_is_refused(without, actions, reason):
    with pytest.raises(IllegalAction, match=reason):
        play(world(without, types=INSTANT_AND_COPY), *actions)


def test_a_token_slot_used_once_holds_no_second_copy():
    w = world(types=INSTANT_AND_COPY)
    with pytest.raises(IllegalAction, match="has already held an object"):
        play(w, draw(A, A1), cast(A, A1), copy_of(A1), resolve(A_TOK), sba(), copy_of(A1))


@pytest.mark.parametrize("rule", ["704.5e", "608.3f"])
def test_removing_a_copy_rule_breaks_copy_ceases_with_a_replayed_trace(run, tmp_path, rule):
    """`check --without R -p copy-ceases` finds a copy outside the stack that survives; its trace
    records the copy and the spell it copies, and `zoneproof replay` re-executes it."""
    code, out, _ = run("check", "mtg-current", "--without", rule, "-p", "copy-ceases", "--no-lint", "--cards", "1", "--sideboard", "0")
    assert code == 1, out
    assert "violated" in out and "copy_spell" in out and "copy False → True" in out
    path = tmp_path / "counterexamples" / f"mtg-current--without-{rule}--copy-ceases.itf.json"
    trace = read_trace(path)
    copied = next(s for s in trace.steps if s.action.kind is K.COPY_SPELL)
    assert copied.state.objects[copied.action.card].copy
    states = json.loads(path.read_text())["states"]
    assert any(record.get("copy") for state in states for _, record in state["objects"]["#map"])
    assert run("replay", str(path))[0] == 0


def test_copy_ceases_is_proved_with_a_certificate_that_checks(run, tmp_path):
    code, out, _ = run("check", "mtg-current", "-p", "copy-ceases", "--no-lint", "--cards", "1", "--sideboard", "0")
    assert code == 0, out
    assert "proved" in out
    certificate = tmp_path / "counterexamples" / "mtg-current--copy-ceases.proof.zp"
    code, out, _ = run("certify", str(certificate), "mtg-current")
    assert code == 0, out

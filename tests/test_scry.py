"""Scry (701.22): the one sanctioned rearrangement of a library besides shuffles and the
post-mulligan look, in the interpreter, in `ordered-zones` and in checks."""

from __future__ import annotations

import pytest

from zoneproof.evaluate import evaluate_concrete
from zoneproof.interpreter import IllegalAction, sees
from zoneproof.model import Action
from zoneproof.properties import stock_properties

from test_interpreter import A, A1, A2, A3, B, SLOTS, START, K, library, play, world

ORDERED_ZONES = next(p for p in stock_properties() if p.id == "ordered-zones")


def scry(player: int, n: int, *top_to_bottom: int) -> Action:
    return Action(K.SCRY, player=player, n=n, order=((f"library/{'AB'[player]}", top_to_bottom),))


@pytest.mark.parametrize("n, order", [
    (1, (A1, A2, A3)),  # the card looked at stays on top
    (1, (A2, A3, A1)),  # ... or goes to the bottom
    (2, (A2, A1, A3)),  # both on top, in another order
    (2, (A3, A2, A1)),  # both on the bottom
    (2, (A1, A3, A2)),  # one on top, one on the bottom
    (3, (A3, A1, A2)),  # every card looked at: any order
])
def test_a_scry_puts_the_cards_looked_at_on_top_or_bottom_in_any_order(n, order):
    w = world()
    outcome = play(w, scry(A, n, *order))
    assert library(outcome.state, A) == list(order) and "701.22" in outcome.rules
    looked = set(library(START, A)[:n])
    assert {c for c in (A1, A2, A3) if outcome.state.objects[c].shown == (A,)} == looked  # shown to the player who scries
    assert [sees(w.ruleset, outcome.state, B, c) for c in looked] == [False] * n
    assert evaluate_concrete(ORDERED_ZONES, SLOTS, w.card_types, START, scry(A, n, *order), outcome.state)


@pytest.mark.parametrize("n, order", [
    (1, (A1, A3, A2)),  # the cards not looked at swap
    (1, (A2, A1, A3)),  # the card looked at goes between them
    (1, (A3, A2, A1)),  # the card looked at goes to the bottom, and the others swap
])
def test_a_scry_keeps_the_cards_not_looked_at_together_and_in_order(n, order):
    with pytest.raises(IllegalAction, match="701.22"):
        play(world(), scry(A, n, *order))
    unrestricted = world(("701.22",))
    outcome = play(unrestricted, scry(A, n, *order))
    assert library(outcome.state, A) == list(order) and "701.22" not in outcome.rules
    assert not evaluate_concrete(ORDERED_ZONES, SLOTS, unrestricted.card_types, START, scry(A, n, *order), outcome.state)


@pytest.mark.parametrize("n", [0, 4])
def test_a_scry_looks_at_one_card_up_to_the_whole_library(n):
    with pytest.raises(IllegalAction, match="1..3"):
        play(world(), scry(A, n, A1, A2, A3))


def test_removing_701_22_breaks_ordered_zones_at_depth_1(run, tmp_path):
    code, out, _ = run("check", "mtg-current", "--without", "701.22", "-p", "ordered-zones", "--no-lint", "--sideboard", "0", "--tokens", "0")
    assert code == 1 and "violated  depth 1" in out and "scry player=" in out, out
    trace = tmp_path / "counterexamples" / "mtg-current--without-701.22--ordered-zones.itf.json"
    assert run("replay", str(trace))[0] == 0

"""The view model of `zoneproof show`: which cards go where, what moved, and what each player sees."""

import re
from dataclasses import asdict
from pathlib import Path

import pytest

from zoneproof.interpreter import sees
from zoneproof.model import PERSONAL_ZONES, PLAYER_NAMES, Zone, zone_key
from zoneproof.view.board import EVERYONE, HIDDEN, Refused, hidden_from, view, viewers
from zoneproof.view.page import run_page
from zoneproof.view.sources import load_run, scenario_run
from zoneproof.scenario import parse_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))

SECRETS = '''
name = "A keeps two cards from B: one face down on the battlefield, one drawn into the hand"
cites = ["708.5", "400.2"]

[[card]]
name = "Secret Morph"
owner = "A"
type = "planeswalker"
start = "hand"

[[card]]
name = "Quiet Draw"
owner = "A"

[[card]]
name = "Open Land"
owner = "B"
type = "land"
start = "hand"

[[step]]
action = "cast_face_down"
card = "Secret Morph"
player = "A"

[[step]]
action = "resolve"
card = "Secret Morph"

[[step]]
action = "draw"
card = "Quiet Draw"
player = "A"

[[step]]
action = "discard"
card = "Open Land"
'''


def pile_of(o) -> str | None:
    """The pile a card is in, read off the state itself: where the board must draw it."""
    if o.zone is Zone.NOWHERE:
        return None
    if o.zone is Zone.OUTSIDE:
        return "outside"
    return zone_key(o.zone, o.whose if o.zone in PERSONAL_ZONES else None)


def expected_piles(state) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in state.objects:
        if pile_of(o) is not None:
            counts[pile_of(o)] = counts.get(pile_of(o), 0) + 1
    return counts


def drawn_piles(board) -> dict[str, int]:
    return {p.key: len(p.chips) for p in board.piles if p.chips}


@pytest.fixture(scope="module")
def scenario_runs():
    return [scenario_run(parse_scenario(path.read_text(encoding="utf-8"), str(path))) for path in SCENARIOS]


def secrets():
    return scenario_run(parse_scenario(SECRETS, "secrets.toml"))


def test_every_card_is_drawn_in_its_pile_at_every_step(scenario_runs):
    assert len(scenario_runs) > 100
    for run in scenario_runs:
        for viewer in viewers(run):
            for step, state in zip(view(run, viewer), run.states):
                assert drawn_piles(step.board) == expected_piles(state), (run.title, viewer, step.number)


def test_piles_run_from_the_top_and_moved_cards_are_highlighted_with_where_they_were(scenario_runs):
    for run in scenario_runs:
        states = run.states
        for step in view(run, EVERYONE)[1:]:
            before, after = states[step.number - 1], states[step.number]
            moved = {run.world.slots[i].name for i, (o, o2) in enumerate(zip(before.objects, after.objects))
                     if pile_of(o) != pile_of(o2) and pile_of(o) is not None and pile_of(o2) is not None}
            chips = [c for p in step.board.piles for c in p.chips]
            assert {c.name for c in chips if c.change == "moved"} == moved, (run.title, step.number)
            ghosts = [g for p in step.board.piles for g in p.ghosts if not g.gone]
            assert sorted(g.move for g in ghosts) == sorted(c.move for c in chips if c.change == "moved")
            for pile in step.board.piles:
                if pile.ordered:
                    positions = [after.objects[run.world.slots.index(next(s for s in run.world.slots if s.name == c.name))].pos for c in pile.chips]
                    assert positions == sorted(positions, reverse=True)


def test_a_ghost_stands_where_the_card_left():
    run = secrets()
    step = view(run, EVERYONE)[3]  # A draws Quiet Draw: it leaves A's library for A's hand
    library, hand = step.board.pile("library/A"), step.board.pile("hand/A")
    assert [g.index for g in library.ghosts] == [0] and library.chips == ()
    (drawn,) = hand.chips
    assert drawn.name == "Quiet Draw" and drawn.change == "moved" and drawn.new_object and drawn.move == library.ghosts[0].move
    assert library.ghosts[0].name == "Quiet Draw"
    (unseen,) = view(run, 1)[3].board.pile("library/A").ghosts
    assert unseen.name is None  # B sees the card neither in A's library nor in A's hand


def test_the_view_of_everyone_shows_every_face_and_who_may_see_it():
    run = secrets()
    steps = view(run, EVERYONE)
    (morph,) = steps[2].board.pile("battlefield").chips
    assert morph.name == "Secret Morph" and morph.card_type == "planeswalker" and morph.object.face_down and morph.seen_by == ("A",)
    (hand_card,) = steps[3].board.pile("hand/A").chips
    assert hand_card.name == "Quiet Draw" and hand_card.seen_by == ("A",)


def test_a_player_sees_the_face_of_their_own_face_down_permanent_and_their_own_hand():
    steps = view(secrets(), 0)
    (morph,) = steps[2].board.pile("battlefield").chips
    assert morph.name == "Secret Morph" and morph.seen_by is None
    assert [c.name for c in steps[3].board.pile("hand/A").chips] == ["Quiet Draw"]


def test_the_other_player_sees_neither_name_nor_type_of_what_is_hidden_from_them():
    steps = view(secrets(), 1)
    (morph,) = steps[2].board.pile("battlefield").chips
    assert morph.hidden and morph.card_type is None and morph.kind is None and morph.object.face_down and morph.owner == "A"
    (hand_card,) = steps[3].board.pile("hand/A").chips
    assert hand_card.hidden and hand_card.card_type is None
    assert steps[1].action == f"cast_face_down {HIDDEN} player=A"
    assert steps[3].changes[0].startswith(f"{HIDDEN}: library/A → hand/A")
    assert steps[4].action == "discard Open Land"  # B's own card, which B sees in the hand


def test_a_players_view_carries_no_face_hidden_from_them_in_any_field():
    run = secrets()
    text = repr([asdict(s) for s in view(run, 1)])
    assert "Secret Morph" not in text and "Quiet Draw" not in text and "planeswalker" not in text
    assert "Open Land" in text


def test_no_view_of_any_scenario_names_a_card_its_viewer_may_not_see(scenario_runs):
    for run in scenario_runs:
        states = run.states
        for viewer in viewers(run)[1:]:
            for step in view(run, viewer):
                hidden_now = hidden_from(run, states[step.number], viewer)
                for pile in step.board.piles:
                    for chip in pile.chips:
                        assert not chip.hidden or (chip.card_type, chip.kind, chip.seen_by) == (None, None, None)
                chips = {c.name for p in step.board.piles for c in p.chips}
                for i in hidden_now:
                    name = run.world.slots[i].name
                    assert name not in chips, (run.title, viewer, step.number, name)
                seen_now = [c for p in step.board.piles for c in p.chips if not c.hidden]
                assert len(seen_now) == sum(1 for i, o in enumerate(states[step.number].objects)
                                            if pile_of(o) is not None and sees(run.world.ruleset, states[step.number], viewer, i))
                unnamed = hidden_now & hidden_from(run, states[step.number - 1], viewer) if step.number else hidden_now
                texts = " | ".join([step.action, step.refused, *step.changes, *(w for f in step.findings for w in f.witnesses)])
                for i in unnamed:
                    name = run.world.slots[i].name
                    assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", texts), (run.title, viewer, step.number, name, texts)


def test_a_page_for_one_player_holds_only_that_players_view():
    run = secrets()
    page_b = run_page(run, only=(1,))
    assert "Secret Morph" not in page_b and "Quiet Draw" not in page_b and "planeswalker" not in page_b
    assert "Open Land" in page_b and 'data-view="B"' in page_b and 'data-view="all"' not in page_b
    page_a = run_page(run, only=(0,))
    assert "Secret Morph" in page_a and "Quiet Draw" in page_a
    full = run_page(run)
    assert all(f'<template data-view="{key}">' in full for key in ("all", "A", "B"))


def test_the_page_is_self_contained():
    page = run_page(secrets()).replace('"http://www.w3.org/2000/svg"', "SVG")  # a namespace name, not a place to load from
    assert "<script>" in page and "<style>" in page
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=|@import|https?://", page)


def test_a_refused_step_leaves_the_board_as_it_was():
    path = next(p for p in SCENARIOS if "illegal = true" in p.read_text(encoding="utf-8"))
    run = load_run(path)
    index = next(i for i, s in enumerate(run.steps) if isinstance(s, Refused))
    steps = view(run, EVERYONE)
    refused = steps[index + 1]
    assert refused.refused and refused.changes == ()
    assert drawn_piles(refused.board) == drawn_piles(steps[index].board)
    assert not any(c.change for p in refused.board.piles for c in p.chips)


def test_players_are_named_in_turn_order():
    run = secrets()
    assert [name for name, _ in view(run, EVERYONE)[0].board.players] == list(PLAYER_NAMES[: run.world.players])

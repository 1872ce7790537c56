"""Replacement effects on a player's graveyard (614.1a, 614.6; 400.6 of 2010), how 400.3 decides
the graveyard they watch, and how a commander's replacement (903.9, 903.9b) combines with them: in
the interpreter, in checks and in traces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoneproof.check import Verdict, check_properties
from zoneproof.interpreter import IllegalAction, World, apply
from zoneproof.model import PLAYER_NAMES, Action, Behaviour, CardType, Scope, Zone, initial_state, slots_for
from zoneproof.properties import stock_properties
from zoneproof.ruleset import builtin_names, load_ruleset
from zoneproof.scenario import load_scenario
from zoneproof.trace import read_trace

from test_interpreter import A, A1, A2, B, K, START, onto_battlefield, play, world

OWNER = next(p for p in stock_properties() if p.id == "replacement-owner")
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*replacement*.toml")) + sorted(
    (Path(__file__).parent / "scenarios").glob("*exile-instead*.toml"))


def begin(kind: K, player: int) -> Action:
    return Action(kind, player=player)


def test_a_discarded_card_is_exiled_while_the_effect_lasts_and_reaches_the_graveyard_after_it_ends():
    w = world()
    drawn = play(w, Action(K.DRAW, card=A1, player=A), Action(K.DRAW, card=A2, player=A), begin(K.EXILE_INSTEAD, A)).state
    exiled = apply(w, drawn, Action(K.DISCARD, card=A1))
    assert exiled.state.objects[A1].zone is Zone.EXILE and exiled.state.objects[A1].gen == drawn.objects[A1].gen + 1
    assert "614.6" in exiled.rules
    ended = apply(w, exiled.state, begin(K.END_REPLACEMENT, A)).state
    assert not ended.players[A].exile_instead
    after = apply(w, ended, Action(K.DISCARD, card=A2))
    assert after.state.objects[A2].zone is Zone.GRAVEYARD and "614.6" not in after.rules


def test_without_614_6_the_effect_does_nothing():
    outcome = play(world(("614.6",)), begin(K.EXILE_INSTEAD, A), Action(K.MILL, card=A1, player=A))
    assert outcome.state.objects[A1].zone is Zone.GRAVEYARD and outcome.state.objects[A1].whose == A


def test_an_effect_watches_one_players_graveyard_only():
    outcome = play(world(), begin(K.EXILE_INSTEAD, B), Action(K.MILL, card=A1, player=A))
    assert outcome.state.objects[A1].zone is Zone.GRAVEYARD


@pytest.mark.parametrize("without, zone, whose", [((), Zone.EXILE, A), (("400.3",), Zone.GRAVEYARD, B)], ids=["intact", "without-400.3"])
def test_400_3_decides_the_graveyard_first_so_a_stolen_creature_that_dies_meets_its_owners_effect(without, zone, whose):
    outcome = play(world(without), onto_battlefield(B, A1), begin(K.EXILE_IF_DIES, A), Action(K.DESTROY, card=A1))
    assert (outcome.state.objects[A1].zone, outcome.state.objects[A1].whose) == (zone, whose)


@pytest.mark.parametrize("card_type, zone", [(CardType.CREATURE, Zone.EXILE), (CardType.ARTIFACT, Zone.GRAVEYARD)])
def test_only_a_creature_put_into_a_graveyard_from_the_battlefield_dies(card_type, zone):
    w = world(types={A1: card_type, A2: CardType.CREATURE})
    died = play(w, onto_battlefield(A, A1), begin(K.EXILE_IF_DIES, A), Action(K.SACRIFICE, card=A1, player=A))
    assert died.state.objects[A1].zone is zone
    discarded = play(w, Action(K.DRAW, card=A1, player=A), Action(K.DRAW, card=A2, player=A), begin(K.EXILE_IF_DIES, A),
                     Action(K.DISCARD, card=A2))
    assert discarded.state.objects[A2].zone is Zone.GRAVEYARD


@pytest.mark.parametrize("actions, reason", [
    ([begin(K.END_REPLACEMENT, A)], "no replacement effect is in force on A's graveyard"),
    ([begin(K.EXILE_IF_DIES, B), begin(K.EXILE_IF_DIES, B)], "B's graveyard already has the effect 'exile instead of dying'"),
], ids=["nothing-to-end", "begun-twice"])
def test_an_effect_the_model_does_not_allow_is_refused(actions, reason):
    with pytest.raises(IllegalAction, match=reason):
        play(world(), *actions)


def test_the_two_effects_are_begun_and_ended_together():
    state = play(world(), begin(K.EXILE_INSTEAD, A), begin(K.EXILE_IF_DIES, A)).state
    assert state.players[A].exile_instead and state.players[A].exile_if_dies
    ended = apply(world(), state, begin(K.END_REPLACEMENT, A)).state
    assert ended.players == START.players


def test_there_are_scenarios_of_replacement_effects_from_the_rules_examples():
    """They run with every scenario (test_scenarios.py); here, that they are there and cite the rule."""
    assert len(SCENARIOS) >= 8
    assert all("614.6" in load_scenario(path).cites or "614.1a" in load_scenario(path).cites for path in SCENARIOS)


# ---------------------------------------------------------------- a commander's replacement (903.9, 903.9b)

COMMANDER_SETS = [n for n in builtin_names() if load_ruleset(n).is_commander]


@pytest.mark.parametrize("name", COMMANDER_SETS)
@pytest.mark.parametrize("removed", [(), ("903.9a",)], ids=["intact", "without-903.9a"])
def test_the_order_of_the_two_replacements_does_not_change_where_a_commander_may_go(name, removed):
    """616.1 lets the owner order the exile and the commander's replacement. Applied first, the
    commander's replacement offers the command zone where it replaces the graveyard; applied
    after the exile, where it replaces exile. Every rule set replaces both or neither, so the
    model's one order (exile first) reaches what either order reaches."""
    ruleset = load_ruleset(name)
    if not all(r in [x.id for x in ruleset.rules] for r in removed):
        pytest.skip(f"{name} has no {', '.join(removed)}")
    ruleset = ruleset.without(list(removed))
    assert bool(ruleset.replaces(Zone.GRAVEYARD)) == bool(ruleset.replaces(Zone.EXILE))
    slots = slots_for(ruleset.scope_for(Scope(cards=2)))
    commander = next(s.index for s in slots if s.is_commander and s.owner == A)
    start = initial_state(slots, {p: [s.index for s in slots if s.owner == p and s.kind.value == "card"] for p in (A, B)}, pregame_players=2)
    w = World(ruleset, slots, tuple(CardType.CREATURE for _ in slots), players=2)
    on_battlefield = play(w, onto_battlefield(A, commander), begin(K.EXILE_INSTEAD, A), state=start).state
    declined = apply(w, on_battlefield, Action(K.DESTROY, card=commander)).state
    assert declined.objects[commander].zone is Zone.EXILE
    if ruleset.replaces(Zone.GRAVEYARD):
        chosen = apply(w, on_battlefield, Action(K.DESTROY, card=commander, to_command=True))
        assert chosen.state.objects[commander].zone is Zone.COMMAND
        assert ruleset.active(Behaviour.REPLACED_BY_EXILE) in chosen.rules  # both replacements applied, the exile first
    else:
        with pytest.raises(IllegalAction, match="instead of the exile"):
            apply(w, on_battlefield, Action(K.DESTROY, card=commander, to_command=True))


# ---------------------------------------------------------------- checks and traces


@pytest.mark.parametrize("name", ["mtg-current", "mtg-2010", "mtg-commander"])
def test_replacement_owner_is_proved_under_the_intact_rules(name):
    ruleset = load_ruleset(name)
    [result] = check_properties(ruleset, [OWNER], ruleset.scope_for(Scope(cards=2)), timeout=900)
    assert result.verdict is Verdict.PROVED


def test_2010s_400_6_is_modelled_and_carries_the_replacement():
    ruleset = load_ruleset("mtg-2010")
    assert next(r for r in ruleset.rules if r.id == "400.6").behaviour.value == "replaced-by-exile"
    assert "614.6" not in [r.id for r in ruleset.rules]
    outcome = play(World(ruleset, world().slots, world().card_types, players=2), begin(K.EXILE_INSTEAD, A), Action(K.MILL, card=A1, player=A))
    assert outcome.state.objects[A1].zone is Zone.EXILE and "400.6" in outcome.rules


def test_without_614_6_replacement_owner_breaks_with_a_trace_that_replays(run, tmp_path):
    code, out, _ = run("check", "mtg-current", "--without", "614.6", "-p", "replacement-owner", "--no-lint", "--cards", "2")
    assert code == 1, out
    assert "replacement-owner" in out and "violated  depth 2" in out
    path = tmp_path / "counterexamples" / "mtg-current--without-614.6--replacement-owner.itf.json"
    trace = read_trace(path)
    effect, moved = trace.steps[0], trace.steps[1]
    assert effect.action.kind in (K.EXILE_INSTEAD, K.EXILE_IF_DIES)
    watched = effect.action.player
    card = moved.action.card
    assert moved.state.objects[card].zone is Zone.GRAVEYARD and moved.state.objects[card].whose == watched
    recorded = dict(json.loads(path.read_text())["states"][1]["players"]["#map"])
    assert recorded[PLAYER_NAMES[watched]][effect.action.kind.value] is True
    assert run("run", str(path))[0] == 0


def test_a_trace_written_before_replacement_effects_reads_with_none_in_force(run, tmp_path):
    code, _, _ = run("check", "mtg-current", "--without", "614.6", "-p", "replacement-owner", "--no-lint", "--cards", "2")
    assert code == 1
    path = tmp_path / "counterexamples" / "mtg-current--without-614.6--replacement-owner.itf.json"
    data = json.loads(path.read_text())
    for state in data["states"]:
        for _, record in state["players"]["#map"]:
            del record["exile_instead"], record["exile_if_dies"]
    older = tmp_path / "older.itf.json"
    older.write_text(json.dumps(data))
    assert all(not p.exile_instead and not p.exile_if_dies for step in read_trace(older).steps for p in step.state.players)

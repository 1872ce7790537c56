"""The pregame (103.4 of 2015, the Paris and Vancouver mulligans): per-player state in the
interpreter, the checker, the traces and the property language, and a counterexample for each
mulligan property when its rule is removed. Scopes are one player with two or three cards."""

import json
import re
from pathlib import Path

import pytest

from tests.conftest import json_records
from zoneproof.check import Verdict, check_properties
from zoneproof.evaluate import evaluate_concrete
from zoneproof.interpreter import IllegalAction, World, apply, check_initial, may_look
from zoneproof.model import Action, ActionKind, CardType, GameState, PlayerState, Scope, Zone, initial_state, slots_for
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset
from zoneproof.trace import read_trace

K = ActionKind
REPO = Path(__file__).resolve().parent.parent
ORIGINS, BFZ = load_ruleset("mtg-2015-origins"), load_ruleset("mtg-2015-bfz")
PROPS = {p.id: p for p in stock_properties()}
ONE = ("--depth", "3", "--players", "1", "--sideboard", "0", "--tokens", "0", "--no-lint")
A1, A2, A3 = 0, 1, 2


def world(ruleset, hand: int = 2, players: int = 1) -> tuple[World, GameState]:
    scope = Scope(players=players, cards=3, sideboard=0, tokens=0, hand=hand)
    slots = slots_for(scope)
    decks = {p: [s.index for s in slots if s.owner == p][::-1] for p in range(players)}  # A1 on top
    w = World(ruleset, slots, tuple(CardType.CREATURE for _ in slots), players, scope.starting_hand)
    start = initial_state(slots, decks, pregame_players=players)
    check_initial(w, start)
    return w, start


def run(w: World, state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(w, state, action).state
    return state


def mulligan(hand: tuple[int, ...], library: tuple[int, ...], player: int = 0) -> Action:
    return Action(K.MULLIGAN, player=player, cards=hand, order=((f"library/{'AB'[player]}", library),))


def hand_size(state: GameState, p: int = 0) -> int:
    return state.size(Zone.HAND, p)


def test_the_paris_mulligan_draws_one_card_fewer_each_time_and_a_zero_hand_must_be_kept():
    w, start = world(ORIGINS)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    assert hand_size(drawn) == 2 and drawn.players[0] == PlayerState(drawn=True)
    once = run(w, drawn, mulligan((A3,), (A2, A1)))
    assert hand_size(once) == 1 and once.players[0].mulligans == 1
    assert [once.objects[c].zone for c in (A1, A2, A3)] == [Zone.LIBRARY, Zone.LIBRARY, Zone.HAND]
    assert once.objects[A2].pos == 1  # the recorded order: A2 on top of A1
    twice = run(w, once, mulligan((), (A1, A2, A3)))
    assert hand_size(twice) == 0
    with pytest.raises(IllegalAction, match="must be kept"):
        apply(w, twice, mulligan((), (A1, A2, A3)))
    with pytest.raises(IllegalAction, match="the new hand has 0 cards"):
        apply(w, once, mulligan((A1,), (A2, A3)))


def test_without_103_4_a_mulligan_draws_a_full_new_hand():
    w, start = world(ORIGINS.without(["103.4"]))
    state = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A2, A3), (A1,)))
    assert hand_size(state) == 2 and state.players[0].mulligans == 1


def test_the_game_starts_from_the_bare_start_or_once_every_player_has_kept():
    w, start = world(ORIGINS)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    with pytest.raises(IllegalAction, match="mulligan process is not over"):
        apply(w, drawn, Action(K.DRAW, card=A3, player=0))
    kept = run(w, drawn, Action(K.KEEP, player=0))
    started = run(w, kept, Action(K.DRAW, card=A3, player=0))
    assert started.started and hand_size(started) == 3
    with pytest.raises(IllegalAction, match="the game has started"):
        apply(w, started, mulligan((), (A1, A2, A3)))
    # skipping the pregame: the first ordinary action starts the game with empty hands
    skipped = run(w, start, Action(K.DRAW, card=A1, player=0))
    assert skipped.started
    with pytest.raises(IllegalAction, match="the game has started"):
        apply(w, skipped, Action(K.DRAW_HAND, player=0))


def test_the_vancouver_look_puts_the_top_card_on_the_bottom_only_below_the_starting_size():
    w, start = world(BFZ)
    full = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.KEEP, player=0))
    with pytest.raises(IllegalAction, match="not smaller than the starting hand size"):
        apply(w, full, Action(K.POST_MULLIGAN_LOOK, card=A3, player=0))
    smaller = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A3,), (A1, A2)), Action(K.KEEP, player=0))
    looked = run(w, smaller, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0, n=0))
    assert [looked.objects[c].pos for c in (A1, A2)] == [0, 1] and looked.players[0].looked
    assert looked.objects[A1].gen == smaller.objects[A1].gen  # it stays in the library: the same object
    stays = run(w, smaller, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0, n=1))
    assert [o.moved(shown=()) for o in stays.objects] == list(smaller.objects)
    assert stays.objects[A1].shown == looked.objects[A1].shown == (0,)  # the look shows the card to its player
    with pytest.raises(IllegalAction, match="already looked"):
        apply(w, looked, Action(K.POST_MULLIGAN_LOOK, card=A2, player=0, n=1))
    # no look before Vancouver, and none with 103.4.look removed
    w_origins, _ = world(ORIGINS)
    with pytest.raises(IllegalAction, match="no action 'post_mulligan_look'"):
        apply(w_origins, smaller, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0))
    w_without, _ = world(BFZ.without(["103.4.look"]))
    with pytest.raises(IllegalAction, match="no rule in force lets a player look"):
        apply(w_without, smaller, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0))


def test_the_look_waits_for_every_player_to_keep():
    w, start = world(BFZ, players=2)
    state = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.DRAW_HAND, player=1),
                mulligan((A3,), (A1, A2)), Action(K.KEEP, player=0))
    with pytest.raises(IllegalAction, match="after every player has kept"):
        apply(w, state, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0))
    state = run(w, state, Action(K.KEEP, player=1), Action(K.POST_MULLIGAN_LOOK, card=A1, player=0))
    assert state.players[0].looked and not state.players[1].looked


def test_mulligan_conserves_catches_a_mulligan_that_loses_a_card():
    """Outside the Commander rule set no rule's removal breaks the conservation property (the
    pregame moves cards only between a hand and a library); it does fail on a step that loses one."""
    w, start = world(ORIGINS)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    action = mulligan((A3,), (A2, A1))
    after = apply(w, drawn, action).state
    prop = PROPS["mulligan-conserves"]
    assert evaluate_concrete(prop, w.slots, w.card_types, drawn, action, after, players=1)
    lost = GameState(tuple(o.moved(zone=Zone.GRAVEYARD, pos=0) if c == A1 else o for c, o in enumerate(after.objects)), after.players)
    assert not evaluate_concrete(prop, w.slots, w.card_types, drawn, action, lost, players=1)


def test_an_opening_hand_action_comes_once_every_player_has_kept_and_puts_a_permanent_onto_the_battlefield():
    w, start = world(ORIGINS, players=2)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.DRAW_HAND, player=1), Action(K.KEEP, player=0))
    with pytest.raises(IllegalAction, match="once every player has kept"):
        apply(w, drawn, Action(K.OPENING_HAND_ACTION, card=A1, player=0))
    kept = run(w, drawn, Action(K.KEEP, player=1))
    with pytest.raises(IllegalAction, match="not in B's hand"):
        apply(w, kept, Action(K.OPENING_HAND_ACTION, card=A1, player=1))
    outcome = apply(w, kept, Action(K.OPENING_HAND_ACTION, card=A1, player=0))
    leyline = outcome.state.objects[A1]
    assert (leyline.zone, leyline.controller, leyline.gen) == (Zone.BATTLEFIELD, 0, kept.objects[A1].gen + 1)
    assert "103.6" in outcome.rules and not outcome.state.started  # still the pregame
    w_bolt = World(ORIGINS, w.slots, tuple(CardType.INSTANT for _ in w.slots), 2, 2)
    with pytest.raises(IllegalAction, match="not a permanent card"):
        apply(w_bolt, kept, Action(K.OPENING_HAND_ACTION, card=A1, player=0))
    w_without, _ = world(ORIGINS.without(["103.6"]), players=2)
    with pytest.raises(IllegalAction, match="no rule in force"):
        apply(w_without, kept, Action(K.OPENING_HAND_ACTION, card=A1, player=0))


def test_under_the_new_103_6_an_opening_hand_action_waits_for_the_look_and_ends_it():
    w, start = world(BFZ)
    smaller = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A3,), (A1, A2)), Action(K.KEEP, player=0))
    assert may_look(BFZ, smaller, 0, 2)
    assert not may_look(BFZ, run(w, smaller, Action(K.DRAW, card=A1, player=0)), 0, 2)  # the game has started: no look any more
    with pytest.raises(IllegalAction, match="A may still look"):
        apply(w, smaller, Action(K.OPENING_HAND_ACTION, card=A3, player=0))
    looked = run(w, smaller, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0, n=1))  # declining: the card stays on top
    assert not may_look(BFZ, looked, 0, 2)
    assert run(w, looked, Action(K.OPENING_HAND_ACTION, card=A3, player=0)).objects[A3].zone is Zone.BATTLEFIELD
    # a full hand may not look; an opening-hand action then makes it smaller, and the look is still over
    full = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.KEEP, player=0), Action(K.OPENING_HAND_ACTION, card=A1, player=0))
    with pytest.raises(IllegalAction, match="the mulligan process is complete"):
        apply(w, full, Action(K.POST_MULLIGAN_LOOK, card=A3, player=0))
    # the old text (103.6.process-complete removed): the action may come first, and the look after it
    old = BFZ.without(["103.6.process-complete"])
    w_old, _ = world(old)
    acted = run(w_old, smaller, Action(K.OPENING_HAND_ACTION, card=A3, player=0))
    assert may_look(old, acted, 0, 2) and run(w_old, acted, Action(K.POST_MULLIGAN_LOOK, card=A1, player=0, n=0)).players[0].looked


COMMANDER = load_ruleset("mtg-2015-commander")


def test_the_commander_mulligan_sets_cards_aside_and_shuffles_them_back_on_keeping():
    w, start = world(COMMANDER)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    # set A2 aside (exiled face down), keep A1, draw one fewer than set aside: none
    once = run(w, drawn, Action(K.MULLIGAN, player=0, cards=(A1,)))
    assert once.objects[A2].zone is Zone.EXILE and once.objects[A2].face_down and hand_size(once) == 1
    assert once.objects[A3].pos == 0 and once.players[0].mulligans == 1  # the library is not shuffled
    with pytest.raises(IllegalAction, match="at least one card"):
        apply(w, drawn, Action(K.MULLIGAN, player=0, cards=(A1, A2)))
    with pytest.raises(IllegalAction, match="does not shuffle"):
        apply(w, drawn, Action(K.MULLIGAN, player=0, cards=(A1,), order=(("library/A", (A3,)),)))
    kept = run(w, once, Action(K.KEEP, player=0, order=(("library/A", (A2, A3)),)))
    assert kept.objects[A2].zone is Zone.LIBRARY and not kept.objects[A2].face_down
    assert [kept.objects[c].pos for c in (A2, A3)] == [1, 0]
    # two set aside, one drawn from the top
    both = run(w, drawn, Action(K.MULLIGAN, player=0, cards=(A3,)))
    assert {both.objects[c].zone for c in (A1, A2)} == {Zone.EXILE} and hand_size(both) == 1
    # without 903.8.shuffle-back the cards set aside stay in exile
    w_lost, _ = world(COMMANDER.without(["903.8.shuffle-back"]))
    lost = run(w_lost, once, Action(K.KEEP, player=0))
    assert lost.objects[A2].zone is Zone.EXILE
    # without 903.8 it is the Paris mulligan of 103.4
    w_paris, _ = world(COMMANDER.without(["903.8"]))
    paris = run(w_paris, drawn, mulligan((A3,), (A2, A1)))
    assert {paris.objects[c].zone for c in (A1, A2)} == {Zone.LIBRARY}


COMMANDER_BFZ = load_ruleset("mtg-2015-commander-bfz")


def test_the_new_commander_mulligan_looks_at_the_top_card_after_the_set_aside_cards_are_shuffled_back():
    w, start = world(COMMANDER_BFZ)
    once = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.MULLIGAN, player=0, cards=(A1,)))
    with pytest.raises(IllegalAction, match="after every player has kept"):
        apply(w, once, Action(K.POST_MULLIGAN_LOOK, card=A3, player=0))
    kept = run(w, once, Action(K.KEEP, player=0, order=(("library/A", (A2, A3)),)))
    looked = run(w, kept, Action(K.POST_MULLIGAN_LOOK, card=A2, player=0, n=0))
    assert [looked.objects[c].pos for c in (A2, A3)] == [0, 1] and looked.objects[A2].gen == kept.objects[A2].gen
    full = run(w, start, Action(K.DRAW_HAND, player=0), Action(K.KEEP, player=0))
    with pytest.raises(IllegalAction, match="not smaller than the starting hand size"):
        apply(w, full, Action(K.POST_MULLIGAN_LOOK, card=A3, player=0))
    w_old, _ = world(COMMANDER_BFZ.without(["903.8.look"]))
    with pytest.raises(IllegalAction, match="no rule in force lets a player look"):
        apply(w_old, kept, Action(K.POST_MULLIGAN_LOOK, card=A2, player=0))


@pytest.mark.parametrize("ruleset, removed, prop, scope, depth", [
    ("mtg-2015-origins", "103.4", "mulligan-hand-size", ("--cards", "2", "--depth", "2"), 2),
    ("mtg-2015-origins", "103.4.keep-zero", "mulligan-keep-zero", ("--cards", "2", "--hand", "1", "--depth", "3"), 3),
    ("mtg-2015-bfz", "103.4.look-smaller", "mulligan-look-smaller", ("--cards", "3", "--depth", "3"), 3),
    ("mtg-2015-commander", "903.8.shuffle-back", "mulligan-conserves", ("--cards", "2", "--depth", "3"), 3),
    ("mtg-2015-bfz", "103.6.process-complete", "opening-hand-actions", ("--cards", "3", "--depth", "4"), 4),
    ("mtg-2015-commander-bfz", "903.8.look-smaller", "mulligan-look-smaller", ("--cards", "3", "--depth", "3"), 3),
    ("mtg-commander", "103.5", "mulligan-hand-size", ("--cards", "3", "--depth", "2"), 2),
    ("mtg-commander-2020", "103.4", "mulligan-hand-size", ("--cards", "3", "--depth", "2"), 2),
])
def test_removing_a_mulligan_rule_gives_a_counterexample_that_replays(run_cli, tmp_path, ruleset, removed, prop, scope, depth):
    code, out, _ = run_cli("check", ruleset, "--without", removed, "-p", prop, *ONE, *scope)
    assert code == 1 and f"violated  depth {depth}" in out, out
    trace_path = tmp_path / "counterexamples" / f"{ruleset}--without-{removed}--{prop}.itf.json"
    trace = read_trace(trace_path)
    expected_hand = int(scope[scope.index("--hand") + 1]) if "--hand" in scope else 2
    assert trace.initial.players == (PlayerState(),) and trace.scope.hand == expected_hand
    data = json.loads(trace_path.read_text())
    assert data["vars"][-2:] == ["players", "started"] and "hand" in data["#meta"]["scope"]
    code, replayed, _ = run_cli("replay", str(trace_path))
    assert code == 0 and "✓ confirmed" in replayed, replayed


def test_the_mulligan_properties_hold_under_the_2015_rule_sets():
    scope = Scope(players=1, cards=2, sideboard=0, tokens=0, depth=4)
    props = [PROPS[p] for p in ("mulligan-hand-size", "mulligan-conserves", "mulligan-keep-zero", "mulligan-look-smaller", "opening-hand-actions", "ordered-zones")]
    for ruleset in (ORIGINS, BFZ, COMMANDER, COMMANDER_BFZ):
        results = check_properties(ruleset, props, scope)
        assert all(r.verdict.holds for r in results), [(r.prop.id, r.verdict, r.reason) for r in results]


@pytest.fixture
def run_cli(run):
    return run


def without_pregame(name: str) -> str:
    """mtg-current renamed, with its mulligan rules and pregame actions left out of the file, and the
    actions of replacement effects, which keep a record per player too."""
    text = (REPO / "model" / "mtg-current.toml").read_text().replace('name = "mtg-current"', f'name = "{name}"')
    text = re.sub(r'\[\[action\]\]\nname = "(draw_hand|mulligan|bottom|keep|opening_hand_action|exile_instead|exile_if_dies|end_replacement)"\n(?:.+\n)*\n', "", text)
    text = re.sub(r'\[\[dead\]\]\naction = "opening_hand_action"\n(?:.+\n)*\n', "", text)
    return re.sub(r'\[\[(rule|dead|unguarded)\]\]\n(id|rule) = "103\.[56][^"]*"\n(?:.+\n)*(?:\n|$)', "", text)


def test_a_rule_set_without_a_mulligan_rule_keeps_its_trace_format(run, tmp_path):
    (tmp_path / "zones-only.toml").write_text(without_pregame("zones-only"))
    assert not load_ruleset(str(tmp_path / "zones-only.toml")).tracks_players
    code, _, _ = run("check", "zones-only.toml", "--without", "400.3", "-p", "owner-zones", "--no-lint", "--depth", "2", "--cards", "2")
    assert code == 1
    data = json.loads(next((tmp_path / "counterexamples").glob("*.itf.json")).read_text())
    assert data["vars"] == ["action", "rules", "objects", "card_type"] and "hand" not in data["#meta"]["scope"]
    assert "players" not in data["states"][0]


def test_hand_larger_than_the_deck_is_refused(run):
    code, _, err = run("check", "mtg-2015-origins", "--cards", "2", "--hand", "3")
    assert code == 2 and "--hand must be 0..2" in err


# ---------------------------------------------------------------- the London mulligan (mtg-current)

CURRENT = load_ruleset("mtg-current")


def test_the_london_mulligan_draws_a_full_hand_then_puts_one_card_per_mulligan_on_the_bottom():
    w, start = world(CURRENT)
    state = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A1, A3), (A2,)))
    assert hand_size(state) == 2 and state.players[0].owed == 1 and state.players[0].mulligans == 1
    with pytest.raises(IllegalAction, match="must first put 1 more card"):
        apply(w, state, Action(K.KEEP, player=0))
    state = run(w, state, Action(K.BOTTOM, card=A3, player=0))
    assert state.objects[A3].zone is Zone.LIBRARY and state.objects[A3].pos == 0 and state.players[0].owed == 0
    with pytest.raises(IllegalAction, match="owes no card"):
        apply(w, state, Action(K.BOTTOM, card=A1, player=0))
    kept = run(w, state, Action(K.KEEP, player=0))
    assert hand_size(kept) == 1 and kept.players[0].kept
    # the second mulligan draws two again and owes two; then the hand would be zero: no third
    state = run(w, state, mulligan((A1, A2), (A3,)), Action(K.BOTTOM, card=A2, player=0), Action(K.BOTTOM, card=A1, player=0))
    assert hand_size(state) == 0 and [state.objects[c].pos for c in (A1, A2, A3)] == [0, 1, 2]
    with pytest.raises(IllegalAction, match="must be kept"):
        apply(w, state, mulligan((A1, A2), (A3,)))


def test_the_first_mulligan_of_a_multiplayer_game_is_free_under_103_5c():
    w, start = world(CURRENT, players=3)
    state = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A1, A3), (A2,)))
    assert state.players[0] == PlayerState(drawn=True, mulligans=0, owed=0, free_taken=True)
    state = run(w, state, mulligan((A1, A2), (A3,)))
    assert state.players[0].mulligans == 1 and state.players[0].owed == 1
    w_without, _ = world(CURRENT.without(["103.5c"]), players=3)
    counted = run(w_without, start, Action(K.DRAW_HAND, player=0), mulligan((A1, A3), (A2,)))
    assert counted.players[0].mulligans == 1 and counted.players[0].owed == 1
    w_two, start_two = world(CURRENT, players=2)  # two players: not a multiplayer game
    two = run(w_two, start_two, Action(K.DRAW_HAND, player=0), mulligan((A1, A3), (A2,)))
    assert two.players[0].mulligans == 1


FREE_FIRST = """
property free-first-mulligan {
  cites 103.5c
  means "in a game of more than two players, a player's first mulligan does not count"
  step forall p: player.
    (exists q: player, r: player. q != p and r != p and q != r)
    and action.kind == mulligan and action.player == p and not free_mulligan(p) ->
      mulligans'(p) == mulligans(p) and free_mulligan'(p)
}
"""


def test_removing_103_5c_makes_the_first_multiplayer_mulligan_count(run_cli, tmp_path):
    (tmp_path / "free.zp").write_text(FREE_FIRST)
    scope = ("--players", "3", "--cards", "2", "--sideboard", "0", "--tokens", "0", "--depth", "2", "--no-lint")
    code, out, _ = run_cli("check", "mtg-current", "--properties", "free.zp", "-p", "free-first-mulligan", *scope)
    assert code == 0 and "holds     depth 2" in out, out
    code, out, _ = run_cli("check", "mtg-current", "--without", "103.5c", "--properties", "free.zp", "-p", "free-first-mulligan", *scope)
    assert code == 1 and "violated  depth 2" in out, out
    trace = tmp_path / "counterexamples" / "mtg-current--without-103.5c--free-first-mulligan.itf.json"
    code, replayed, _ = run_cli("replay", str(trace))
    assert code == 0 and "✓ confirmed" in replayed, replayed


def test_removing_103_5_gives_a_full_new_hand_that_breaks_mulligan_hand_size(run_cli, tmp_path):
    code, out, _ = run_cli("check", "mtg-current", "--without", "103.5", "-p", "mulligan-hand-size", *ONE, "--cards", "2", "--depth", "2")
    assert code == 1 and "violated  depth 2" in out, out
    trace = tmp_path / "counterexamples" / "mtg-current--without-103.5--mulligan-hand-size.itf.json"
    assert run_cli("replay", str(trace))[0] == 0


def test_the_first_paris_mulligan_of_a_multiplayer_game_keeps_the_hand_size_under_103_4c():
    w, start = world(BFZ, players=3)
    state = run(w, start, Action(K.DRAW_HAND, player=0), mulligan((A1, A3), (A2,)))
    assert hand_size(state) == 2 and state.players[0] == PlayerState(drawn=True, free_taken=True)
    state = run(w, state, mulligan((A2,), (A1, A3)))
    assert hand_size(state) == 1 and state.players[0].mulligans == 1
    w_without, _ = world(BFZ.without(["103.4c"]), players=3)
    with pytest.raises(IllegalAction, match="the new hand has 1 cards"):
        apply(w_without, run(w_without, start, Action(K.DRAW_HAND, player=0)), mulligan((A1, A3), (A2,)))


# ---------------------------------------------------------------- the London mulligan in the Commander variant

def commander_world(ruleset) -> tuple[World, GameState]:
    scope = ruleset.scope_for(Scope(players=1, cards=3, sideboard=0, tokens=0, hand=2))
    slots = slots_for(scope)
    w = World(ruleset, slots, tuple(CardType.CREATURE for _ in slots), 1, scope.starting_hand)
    start = initial_state(slots, {0: [1, 0]}, pregame_players=1)  # A1 on top of A2; A-cmd1 in the command zone
    check_initial(w, start)
    return w, start


@pytest.mark.parametrize("name", ["mtg-commander", "mtg-commander-2020"])
def test_the_commander_mulligan_is_the_london_mulligan_and_leaves_the_commander_in_the_command_zone(name):
    w, start = commander_world(load_ruleset(name))
    cmd = next(s.index for s in w.slots if s.is_commander)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    assert hand_size(drawn) == 2 and drawn.objects[cmd] == start.objects[cmd]
    with pytest.raises(IllegalAction, match="must together be the old hand and library"):
        apply(w, drawn, Action(K.MULLIGAN, player=0, cards=(A1, cmd), order=(("library/A", (A2,)),)))
    state = run(w, drawn, Action(K.MULLIGAN, player=0, cards=(A1, A2), order=(("library/A", ()),)), Action(K.BOTTOM, card=A2, player=0))
    kept = run(w, state, Action(K.KEEP, player=0))
    assert hand_size(kept) == 1 and kept.objects[cmd] == start.objects[cmd]
    started = run(w, kept, Action(K.CAST, card=cmd, player=0))  # the first ordinary action starts the game
    assert started.started and started.objects[cmd].zone is Zone.STACK


@pytest.mark.parametrize("name, rule", [("mtg-commander", "103.6"), ("mtg-commander-2020", "103.5")])
def test_an_opening_hand_action_of_a_commander_game_comes_once_the_hand_is_kept(name, rule):
    ruleset = load_ruleset(name)
    w, start = commander_world(ruleset)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    leyline = Action(K.OPENING_HAND_ACTION, card=A1, player=0)
    with pytest.raises(IllegalAction, match="once every player has kept"):
        apply(w, drawn, leyline)
    outcome = apply(w, run(w, drawn, Action(K.KEEP, player=0)), leyline)
    assert outcome.state.objects[A1].zone is Zone.BATTLEFIELD and rule in outcome.rules and not outcome.state.started
    w_without, _ = commander_world(ruleset.without([rule]))
    with pytest.raises(IllegalAction, match="no rule in force"):
        apply(w_without, run(w_without, drawn, Action(K.KEEP, player=0)), leyline)


def test_mulligan_conserves_catches_a_mulligan_that_draws_the_commander():
    w, start = commander_world(load_ruleset("mtg-commander"))
    cmd = next(s.index for s in w.slots if s.is_commander)
    drawn = run(w, start, Action(K.DRAW_HAND, player=0))
    action = Action(K.MULLIGAN, player=0, cards=(A1, A2), order=(("library/A", ()),))
    after = apply(w, drawn, action).state
    prop = PROPS["mulligan-conserves"]
    assert evaluate_concrete(prop, w.slots, w.card_types, drawn, action, after, players=1)
    drawn_commander = GameState(tuple(o.moved(zone=Zone.HAND) if c == cmd else o for c, o in enumerate(after.objects)), after.players)
    assert not evaluate_concrete(prop, w.slots, w.card_types, drawn, action, drawn_commander, players=1)



# ---------------------------------------------------------------- Vanguard: hand modifiers (902.5, 103.5a)

def vanguard_world(ruleset, modifiers: tuple[int, ...]) -> tuple[World, GameState]:
    scope = Scope(players=2, cards=3, sideboard=0, tokens=0, hand=2, hand_modifiers=modifiers)
    slots = slots_for(scope)
    decks = {p: [s.index for s in slots if s.owner == p][::-1] for p in range(2)}
    w = World.of(ruleset, slots, tuple(CardType.CREATURE for _ in slots), scope)
    start = initial_state(slots, decks, pregame_players=2)
    check_initial(w, start)
    return w, start


@pytest.mark.parametrize("ruleset, rule", [(ORIGINS, "902.5"), (BFZ, "902.5"), (CURRENT, "103.5a")])
def test_a_vanguard_hand_modifier_changes_the_starting_hand_size_only_while_its_rule_is_in_force(ruleset, rule):
    w, start = vanguard_world(ruleset, (-1, 1))
    outcome = apply(w, start, Action(K.DRAW_HAND, player=1))
    assert hand_size(outcome.state, 1) == 3 and rule in outcome.rules
    assert hand_size(run(w, start, Action(K.DRAW_HAND, player=0)), 0) == 1
    plain, start = vanguard_world(ruleset.without([rule]), (-1, 1))
    outcome = apply(plain, start, Action(K.DRAW_HAND, player=1))
    assert hand_size(outcome.state, 1) == 2 and rule not in outcome.rules


def test_a_london_mulligan_in_a_vanguard_game_draws_the_modified_starting_hand():
    w, start = vanguard_world(CURRENT, (0, 1))
    drawn = run(w, start, Action(K.DRAW_HAND, player=1))
    B1, B2, B3 = 3, 4, 5
    again = run(w, drawn, mulligan((B1, B2, B3), (), player=1))
    assert hand_size(again, 1) == 3 and again.players[1].owed == 1


@pytest.mark.parametrize("ruleset, rule", [("mtg-2015-origins", "902.5"), ("mtg-2015-bfz", "902.5"), ("mtg-current", "103.5a")])
def test_removing_the_vanguard_rule_breaks_mulligan_hand_size_with_a_counterexample_that_replays(run_cli, tmp_path, ruleset, rule):
    code, out, _ = run_cli("check", ruleset, "-p", "mulligan-hand-size", "--hand-modifier", "B=+1", "--no-lint", "--depth", "2")
    assert code == 0 and "holds" in out, out
    code, out, _ = run_cli("check", ruleset, "--without", rule, "-p", "mulligan-hand-size", "--hand-modifier", "B=+1", "--no-lint")
    assert code == 1 and "violated  depth 2" in out and "for p = B" in out, out
    trace_path = tmp_path / "counterexamples" / f"{ruleset}--without-{rule}--mulligan-hand-size.itf.json"
    assert json.loads(trace_path.read_text())["#meta"]["scope"]["hand_modifiers"] == {"A": 0, "B": 1}
    assert read_trace(trace_path).scope.hand_modifiers == (0, 1)
    code, replayed, _ = run_cli("replay", str(trace_path))
    assert code == 0 and "✓ confirmed" in replayed, replayed


def test_the_vanguard_rule_is_live_in_a_game_with_a_hand_modifier(run_cli):
    # without one in the scope, lint shows it live in a larger game of its own (lint.larger_games)
    small = ("--cards", "2", "--hand", "1", "--sideboard", "0", "--tokens", "0")
    code, out, _ = run_cli("lint", "mtg-2015-bfz", "--format", "json", "--depth", "1", *small)
    rules = {r["rule"]: r for r in json_records(out, "lint")[0]["rules"]}
    assert rules["902.5"]["status"] == "live" and rules["902.5"]["detail"].startswith("with the hand modifier B=+1: ")
    code, out, _ = run_cli("lint", "mtg-2015-bfz", "--format", "json", "--depth", "1", *small, "--hand-modifier", "A=-1")
    [report] = json_records(out, "lint")
    assert {r["rule"]: r for r in report["rules"]}["902.5"]["status"] == "live"


@pytest.mark.parametrize("flag, message", [
    ("C=+1", "--hand-modifier C=+1: the player must be one of A, B"),
    ("B=two", "--hand-modifier B=two: the modifier must be a whole number"),
    ("B=+2", "--hand-modifier: B's hand modifier +2 makes a starting hand of 4; it must be 0..3"),
    ("A=-3", "--hand-modifier: A's hand modifier -3 makes a starting hand of -1; it must be 0..3"),
])
def test_a_bad_hand_modifier_is_refused_in_one_line(run_cli, flag, message):
    code, out, err = run_cli("check", "mtg-current", "--hand-modifier", flag)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err


def test_a_trace_with_bad_hand_modifiers_is_refused(run_cli, tmp_path):
    run_cli("check", "mtg-current", "--without", "103.5a", "-p", "mulligan-hand-size", "--hand-modifier", "B=+1", "--no-lint")
    trace_path = tmp_path / "counterexamples" / "mtg-current--without-103.5a--mulligan-hand-size.itf.json"
    for bad, message in [({"A": 0}, "must map exactly the players A, B"), ({"A": 0, "B": True}, "should be int"),
                         ({"A": 0, "B": 9}, "B's hand modifier +9 makes a starting hand of 11")]:
        data = json.loads(trace_path.read_text())
        data["#meta"]["scope"]["hand_modifiers"] = bad
        (tmp_path / "bad.itf.json").write_text(json.dumps(data))
        code, _, err = run_cli("replay", str(tmp_path / "bad.itf.json"))
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err

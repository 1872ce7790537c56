"""Two-Headed Giant's mulligan (810.5 of 2015, seed 002) and the Commander mulligan's look at the
cards set aside (903.8): the team scope option, who sees what in the interpreter and in the
encoder, a counterexample that replays for each new rule removed, and bad input (exit 2, one line)."""

import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest
import z3

from zoneproof.cli import main
from zoneproof.encode.system import TransitionSystem
from zoneproof.interpreter import World, apply, check_initial, sees
from zoneproof.model import Action, ActionKind, CardType, GameState, Scope, Zone, initial_state, slots_for
from zoneproof.ruleset import RuleSet, load_ruleset, parse_ruleset
from zoneproof.trace import read_trace

K = ActionKind
BFZ = load_ruleset("mtg-2015-bfz")
COMMANDERS = [load_ruleset("mtg-2015-commander"), load_ruleset("mtg-2015-commander-bfz")]
A, B, C, D = range(4)
# Four players with one card each, a starting hand of one: A and B one team, C and D the other.
TEAMS = Scope(players=4, cards=1, sideboard=0, tokens=0, hand=1, team_size=2, depth=3)
A1, B1, C1, D1 = range(4)
TEAM_OPTIONS = ("--players", "4", "--team-size", "2", "--cards", "1", "--hand", "1", "--sideboard", "0", "--tokens", "0", "--no-lint", "--depth", "3")
# Two players with two cards each, a starting hand of two: slots A1, A2, B1, B2.
TWO = Scope(players=2, cards=2, sideboard=0, tokens=0, hand=2, depth=3)
CA1, CA2, CB1, CB2 = range(4)


def world(ruleset: RuleSet, scope: Scope) -> tuple[World, GameState]:
    slots = slots_for(scope)
    decks = {p: [s.index for s in slots if s.owner == p][::-1] for p in range(scope.players)}  # the first card on top
    w = World.of(ruleset, slots, tuple(CardType.CREATURE for _ in slots), scope)
    start = initial_state(slots, decks, pregame_players=scope.players)
    check_initial(w, start)
    return w, start


def run(w: World, state: GameState, actions: list[Action]) -> list[GameState]:
    states = [state]
    for action in actions:
        states.append(apply(w, states[-1], action).state)
    return states


def seers(ruleset: RuleSet, state: GameState, card: int, players: int) -> list[int]:
    return [p for p in range(players) if sees(ruleset, state, p, card)]


# B takes two mulligans (the first of a four-player game is free), every player keeps, B looks.
TEAM_RUN = (
    [Action(K.DRAW_HAND, player=p) for p in (A, B, C, D)]
    + [Action(K.MULLIGAN, player=B, cards=(B1,), order=(("library/B", ()),)), Action(K.MULLIGAN, player=B, order=(("library/B", (B1,)),))]
    + [Action(K.KEEP, player=p) for p in (A, B, C, D)]
    + [Action(K.POST_MULLIGAN_LOOK, card=B1, player=B, n=1)]
)
# A sets A2 aside with the Commander mulligan, keeps (A2 is shuffled back), and the game starts.
SET_ASIDE_RUN = [
    Action(K.DRAW_HAND, player=A), Action(K.MULLIGAN, player=A, cards=(CA1,)),
    Action(K.DRAW_HAND, player=B), Action(K.KEEP, player=B), Action(K.KEEP, player=A, order=(("library/A", (CA2,)),)),
    Action(K.EXILE, CA1),
]
# The same without 903.8.shuffle-back: A2 stays in exile after the keep.
SET_ASIDE_KEPT_IN_EXILE = SET_ASIDE_RUN[:4] + [Action(K.KEEP, player=A), Action(K.EXILE, CA1)]


def test_players_in_turn_order_form_teams():
    assert [TEAMS.team(p) for p in range(4)] == [0, 0, 1, 1]
    assert TEAMS.teammates(A) == (B,) and TEAMS.teammates(D) == (C,)
    assert Scope(players=4).teammates(A) == () and Scope(players=4).team(C) == C


def test_in_a_team_game_the_look_shows_the_card_to_the_teammates():
    w, start = world(BFZ, TEAMS)
    looked = run(w, start, TEAM_RUN)[-1]
    assert looked.objects[B1].shown == (A, B) and seers(BFZ, looked, B1, 4) == [A, B]
    assert "810.5.team-look" in apply(w, run(w, start, TEAM_RUN[:-1])[-1], TEAM_RUN[-1]).rules
    w_old, _ = world(BFZ.without(["810.5.team-look"]), TEAMS)
    alone = run(w_old, start, TEAM_RUN)[-1]
    assert alone.objects[B1].shown == (B,) and seers(w_old.ruleset, alone, B1, 4) == [B]
    w_no_teams, _ = world(BFZ, replace(TEAMS, team_size=0))
    assert run(w_no_teams, start, TEAM_RUN)[-1].objects[B1].shown == (B,)
    after = apply(w, looked, Action(K.DRAW, B1, B)).state  # a look shows the card for one step
    assert after.objects[B1].shown == () and seers(BFZ, after, B1, 4) == [B]


@pytest.mark.parametrize("ruleset", COMMANDERS, ids=lambda r: r.name)
def test_a_player_sees_the_cards_they_set_aside_until_the_game_starts(ruleset):
    w, start = world(ruleset, TWO)
    states = run(w, start, SET_ASIDE_RUN)
    assert states[2].objects[CA2].zone is Zone.EXILE and states[2].objects[CA2].face_down
    assert seers(ruleset, states[2], CA2, 2) == [A]
    assert seers(ruleset.without(["903.8.look-set-aside"]), states[2], CA2, 2) == []
    assert seers(ruleset, states[5], CA2, 2) == []  # shuffled back into the library
    w_lost, _ = world(ruleset.without(["903.8.shuffle-back"]), TWO)
    lost = run(w_lost, start, SET_ASIDE_KEPT_IN_EXILE)
    assert seers(w_lost.ruleset, lost[5], CA2, 2) == [A]  # the pregame lasts
    assert lost[6].started and seers(w_lost.ruleset, lost[6], CA2, 2) == []


# ---------------------------------------------------------------- the encoder agrees


def encoder_agrees(ruleset: RuleSet, removed: list[str], scope: Scope, actions: list[Action]) -> None:
    """Each step of the interpreter's run, from the state before it, is the only outcome the
    encoder allows (the libraries of these runs have one order at most), and in the state after it
    the encoder's sees(p, c) is the interpreter's for every player and object."""
    w, start = world(ruleset.without(removed), scope)
    states = run(w, start, actions)
    e = TransitionSystem(ruleset.without(removed), replace(scope, depth=1))
    for t, action in enumerate(actions):
        solver = z3.SolverFor("QF_BV", ctx=e.ctx)
        solver.add(e.rule_values() + e.types_are(w.card_types) + e.trans(0) + e.state_is(0, states[t]) + e.action_is(0, action))
        after = e.state_is(1, states[t + 1]) + e.shown_is(1, states[t + 1])
        assert solver.check(z3.Not(z3.And(after))) == z3.unsat, f"step {t + 1}: the encoder allows another outcome"
        assert solver.check(*after) == z3.sat, f"step {t + 1}: the encoder rejects the interpreter's outcome"
        model = solver.model()
        for p in range(scope.players):
            for c in range(len(w.slots)):
                expected = sees(w.ruleset, states[t + 1], p, c)
                assert z3.is_true(model.eval(e.sees(1, p, c), model_completion=True)) == expected, f"step {t + 1}: sees({p}, {c})"


@pytest.mark.parametrize("removed, team_size", [([], 2), (["810.5.team-look"], 2), ([], 0)], ids=["team-look", "without-team-look", "no-teams"])
def test_the_encoder_shows_the_look_as_the_interpreter_does(removed, team_size):
    encoder_agrees(BFZ, removed, replace(TEAMS, team_size=team_size), TEAM_RUN)


@pytest.mark.parametrize("removed, actions", [
    ([], SET_ASIDE_RUN), (["903.8.look-set-aside"], SET_ASIDE_RUN), (["903.8.shuffle-back"], SET_ASIDE_KEPT_IN_EXILE),
], ids=["set-aside-look", "without-set-aside-look", "without-shuffle-back"])
@pytest.mark.parametrize("ruleset", COMMANDERS, ids=lambda r: r.name)
def test_the_encoder_sees_the_set_aside_cards_as_the_interpreter_does(ruleset, removed, actions):
    encoder_agrees(ruleset, removed, TWO, actions)


# ---------------------------------------------------------------- counterexamples that replay


@pytest.mark.parametrize("ruleset", ["mtg-2015-commander", "mtg-2015-commander-bfz"])
def test_removing_the_set_aside_look_gives_a_counterexample_that_replays(run_cli, tmp_path, ruleset):
    code, out, _ = run_cli("check", ruleset, "--without", "903.8.look-set-aside", "-p", "set-aside-visible",
                           "--players", "1", "--cards", "2", "--sideboard", "0", "--tokens", "0", "--no-lint")
    assert code == 1 and "violated  depth 2" in out, out
    trace_path = tmp_path / "counterexamples" / f"{ruleset}--without-903.8.look-set-aside--set-aside-visible.itf.json"
    code, replayed, _ = run_cli("replay", str(trace_path))
    assert code == 0 and "✓ confirmed" in replayed, replayed


TEAM_TRACE = "mtg-2015-bfz--without-810.5.team-look--team-look.itf.json"


@pytest.fixture(scope="module")
def team_check(tmp_path_factory) -> tuple[int, str, str]:
    """The check without 810.5.team-look (ten seconds), made once: its exit code, its output and
    the trace it writes."""
    folder = tmp_path_factory.mktemp("team-look")
    printed = io.StringIO()
    with redirect_stdout(printed):
        code = main(["check", "mtg-2015-bfz", "--without", "810.5.team-look", "-p", "team-look", *TEAM_OPTIONS, "--depth", "11", "--out", str(folder)])
    return code, printed.getvalue(), (folder / TEAM_TRACE).read_text()


@pytest.fixture
def team_trace(team_check, tmp_path):
    path = tmp_path / TEAM_TRACE
    path.write_text(team_check[2])
    return path


def test_removing_the_team_look_gives_a_counterexample_that_replays(run_cli, team_check, team_trace):
    code, out, _ = team_check
    assert code == 1 and "violated  depth 11" in out, out
    trace_path = team_trace
    trace = read_trace(trace_path)
    assert trace.scope.team_size == 2 and trace.steps[-1].action.kind is K.POST_MULLIGAN_LOOK
    looked = trace.steps[-1].action
    assert trace.steps[-1].state.objects[looked.card].shown == (looked.player,)
    assert json.loads(trace_path.read_text())["#meta"]["scope"]["team_size"] == 2
    code, replayed, _ = run_cli("replay", str(trace_path))
    assert code == 0 and "✓ confirmed" in replayed, replayed


def test_the_team_look_holds_with_the_new_text(run_cli):
    code, out, _ = run_cli("check", "mtg-2015-bfz", "-p", "team-look", "-p", "hidden-zones", *TEAM_OPTIONS, "--depth", "11")
    assert code == 0 and out.count("proved    depth ∞") == 2, out


def test_a_trace_records_a_team_size_and_a_shown_card_only_where_there_are_some(run_cli, tmp_path):
    code, _, _ = run_cli("check", "mtg-2015-bfz", "--without", "103.4.look-smaller", "-p", "mulligan-look-smaller",
                         "--players", "1", "--cards", "3", "--sideboard", "0", "--tokens", "0", "--no-lint")
    assert code == 1
    data = json.loads(next((tmp_path / "counterexamples").glob("*.itf.json")).read_text())
    assert "team_size" not in data["#meta"]["scope"]
    shown = [(i, name, record["shown"]) for i, state in enumerate(data["states"]) for name, record in state["objects"]["#map"] if "shown" in record]
    look = data["states"][-1]["action"]
    assert look["kind"] == "post_mulligan_look" and shown == [(len(data["states"]) - 1, look["card"], {"#set": ["A"]})]


@pytest.fixture
def run_cli(run):
    return run


# ---------------------------------------------------------------- bad input


def one_line(code: int, out: str, err: str) -> str:
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, out, err)
    return err


@pytest.mark.parametrize("options, message", [
    (("--players", "3", "--team-size", "2"), "--team-size 2 does not divide 3 players into whole teams"),
    (("--players", "4", "--team-size", "5"), "--team-size must be 0..4, got 5"),
    (("--players", "4", "--team-size", "-1"), "--team-size must be 0..4, got -1"),
])
def test_a_bad_team_size_is_refused(run_cli, options, message):
    assert message in one_line(*run_cli("check", "mtg-2015-bfz", "--no-lint", "--depth", "1", *options))


def tamper(path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def shown_by(data, value) -> None:
    for _, record in data["states"][-1]["objects"]["#map"]:
        if "shown" in record:
            record["shown"] = value


@pytest.mark.parametrize("change, message", [
    (lambda d: d["#meta"]["scope"].update(team_size=3), "#meta.scope.team_size 3 does not divide 4 players"),
    (lambda d: d["#meta"]["scope"].update(team_size="two"), "#meta.scope.team_size should be int"),
    (lambda d: shown_by(d, {"#set": ["E"]}), "unknown name 'E'"),
    (lambda d: shown_by(d, {"#set": []}), "must be a #set of one or more players"),
    (lambda d: shown_by(d, ["A"]), "must be a #set of one or more players"),
], ids=["indivisible", "not-an-int", "unknown-player", "empty", "not-a-set"])
def test_a_trace_with_a_bad_team_record_is_refused(run_cli, team_trace, change, message):
    tamper(team_trace, change)
    assert message in one_line(*run_cli("replay", str(team_trace)))


def test_a_replayed_look_must_show_the_card_to_whom_the_rules_show_it(run_cli, team_trace):
    tamper(team_trace, lambda d: shown_by(d, {"#set": ["A", "B"]}))
    code, out, _ = run_cli("replay", str(team_trace))
    assert code == 1 and "shown" in out, out


SCENARIO = """\
name = "teams"
cites = ["810.5"]
ruleset = "mtg-2015-bfz"
players = 3
team_size = {team_size}

[[card]]
name = "Bear"
owner = "A"

[[step]]
action = "draw_hand"
player = "A"
"""


@pytest.mark.parametrize("team_size, message", [("2", "`team_size` 2 does not divide 3 players"), ('"2"', "`team_size` must be an integer")])
def test_a_scenario_with_a_bad_team_size_is_refused(run_cli, tmp_path, team_size, message):
    (tmp_path / "teams.toml").write_text(SCENARIO.format(team_size=team_size))
    assert message in one_line(*run_cli("run", "teams.toml"))


# ---------------------------------------------------------------- zones the file declares hidden or not

HAND = 'name = "hand"\npersonal = true\nhidden = true\n'


def with_public_hands() -> RuleSet:
    text = (Path(__file__).resolve().parent.parent / "model" / "mtg-current.toml").read_text(encoding="utf-8")
    assert HAND in text
    return parse_ruleset(text.replace(HAND, HAND.replace("hidden = true", "hidden = false")).encode(), "public-hands.toml", origin="public-hands.toml")


def test_a_hand_the_file_declares_public_is_seen_by_every_player_in_the_interpreter_and_the_encoder():
    draw = [Action(K.DRAW_HAND, player=A)]
    for ruleset, seen_by in ((load_ruleset("mtg-current"), [A]), (with_public_hands(), [A, B])):
        w, start = world(ruleset, TWO)
        [_, drawn] = run(w, start, draw)
        assert drawn.objects[CA1].zone is Zone.HAND
        assert seers(ruleset, drawn, CA1, 2) == seen_by
        encoder_agrees(ruleset, [], TWO, draw)

"""The Commander variant (mtg-commander, mtg-commander-2020) and the casting proposal of 601.2:
commander slots only where a rule set declares the variant, the owner's choices recorded in the
action, the stock properties commander-return and illegal-cast-reversed with a replayable
counterexample when their rule is removed, and the input errors of the new keys.

Scopes are small (one or two players, two deck cards, no sideboard or token) to keep this file fast;
in a Commander rule set one of each deck's cards is the commander (903.5a).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import one_line_error
from zoneproof.check import Verdict, check_properties
from zoneproof.encode.system import TransitionSystem
from zoneproof.interpreter import IllegalAction, World, apply, check_initial
from zoneproof.model import MAX_CASTS, Action, ActionKind, CardType, Scope, SlotKind, Zone, initial_state, slots_for
from zoneproof.properties import stock_properties
from zoneproof.replay import replay_trace
from zoneproof.ruleset import load_ruleset
from zoneproof.scenario import load_scenario, run_scenario, write_scenario
from zoneproof.trace import read_trace, write_trace

K = ActionKind
PROPS = {p.id: p for p in stock_properties()}
COMMANDER = load_ruleset("mtg-commander")
COMMANDER_2020 = load_ruleset("mtg-commander-2020")
SMALL = Scope(players=1, cards=2, sideboard=0, tokens=0, depth=2)  # for a Commander rule set: one library card and the commander


def replayed(result, tmp_path) -> None:
    """The counterexample survives a round trip through its ITF file and replays in the interpreter."""
    path = tmp_path / "trace.itf.json"
    write_trace(result.trace, path)
    trace = read_trace(path)
    assert trace == result.trace
    replay, _, _ = replay_trace(trace, str(path))
    assert replay.mismatch is None
    assert replay.confirms(result.trace.violation_step)


# ---------------------------------------------------------------- slots and the start of a game


def test_only_a_rule_set_of_the_commander_variant_has_commander_slots():
    assert COMMANDER.is_commander and COMMANDER_2020.is_commander
    for name in ("mtg-current", "mtg-2010"):
        ruleset = load_ruleset(name)
        assert not ruleset.is_commander
        assert ruleset.scope_for(Scope(commanders=1)).commanders == 0
        encoding = TransitionSystem(ruleset, ruleset.scope_for(Scope()))
        assert not any(s.is_commander for s in encoding.slots)
        assert all(f.eq(encoding.codes.false) for f in encoding.state(0).fresh)  # no new variables
    made = COMMANDER.scope_for(Scope(players=2, cards=3))
    assert (made.cards, made.commanders) == (2, 1)  # 903.5a: the commander is one of the deck's cards
    assert COMMANDER.scope_for(made) == made and load_ruleset("mtg-current").scope_for(made) == Scope(players=2, cards=3)
    assert COMMANDER.scope_for(Scope(cards=0)).commanders == 0
    slots = slots_for(made)
    assert [s.name for s in slots if s.kind is SlotKind.COMMANDER] == ["A-cmd1", "B-cmd1"]


def test_a_commander_starts_in_the_command_zone_and_is_a_creature_or_planeswalker():
    slots = slots_for(COMMANDER.scope_for(SMALL))
    start = initial_state(slots, {0: [0]}, pregame_players=1)
    assert start.objects[1].zone is Zone.COMMAND
    check_initial(World(COMMANDER, slots, (CardType.INSTANT, CardType.PLANESWALKER), 1), start)
    with pytest.raises(IllegalAction, match="903.3"):
        check_initial(World(COMMANDER, slots, (CardType.INSTANT, CardType.SORCERY), 1), start)


# ---------------------------------------------------------------- the interpreter


def commander_world(ruleset=COMMANDER, without=()):
    slots = slots_for(ruleset.scope_for(SMALL))
    world = World(ruleset.without(list(without)), slots, (CardType.CREATURE, CardType.CREATURE), 1, ruleset.scope_for(SMALL).starting_hand)
    return world, initial_state(slots, {0: [0]}, pregame_players=1)


CMD, DECK = 1, 0


def run(world, state, *actions):
    for action in actions:
        state = apply(world, state, action).state
    return state


def test_a_commander_is_cast_from_the_command_zone_only_with_903_8():
    world, start = commander_world()
    assert run(world, start, Action(K.CAST, card=CMD, player=0)).objects[CMD].zone is Zone.STACK
    world, start = commander_world(without=("903.8",))
    with pytest.raises(IllegalAction, match="command zone"):
        apply(world, start, Action(K.CAST, card=CMD, player=0))


def test_the_state_based_action_takes_only_a_commander_put_there_since_the_last_check():
    world, start = commander_world()
    exiled = run(world, start, Action(K.EXILE, card=CMD))
    assert exiled.objects[CMD].fresh
    back = run(world, exiled, Action(K.STATE_BASED_ACTIONS, cards=(CMD,)))
    assert back.objects[CMD].zone is Zone.COMMAND and not back.objects[CMD].fresh
    declined = run(world, exiled, Action(K.STATE_BASED_ACTIONS))
    assert declined.objects[CMD].zone is Zone.EXILE and not declined.objects[CMD].fresh
    with pytest.raises(IllegalAction, match="since state-based actions"):
        apply(world, declined, Action(K.STATE_BASED_ACTIONS, cards=(CMD,)))
    with pytest.raises(IllegalAction, match="not a commander"):
        apply(world, start, Action(K.STATE_BASED_ACTIONS, cards=(DECK,)))


@pytest.mark.parametrize("action, allowed_today, allowed_2020", [
    (Action(K.RETURN_TO_HAND, card=CMD, to_command=True), True, True),
    (Action(K.PUT_INTO_LIBRARY, card=CMD, player=0, to_command=True), True, True),
    (Action(K.DESTROY, card=CMD, to_command=True), False, True),
    (Action(K.EXILE, card=CMD, to_command=True), False, True),
    (Action(K.TAP, card=CMD, to_command=True), False, False),
], ids=["hand", "library", "graveyard", "exile", "no-move"])
def test_the_replacement_applies_where_its_wording_says(action, allowed_today, allowed_2020):
    for ruleset, allowed in ((COMMANDER, allowed_today), (COMMANDER_2020, allowed_2020)):
        world, start = commander_world(ruleset)
        on_battlefield = run(world, start, Action(K.PUT_ONTO_BATTLEFIELD, card=CMD, player=0))
        if allowed:
            after = apply(world, on_battlefield, action).state
            assert after.objects[CMD].zone is Zone.COMMAND
            assert after.objects[CMD].gen == on_battlefield.objects[CMD].gen + 1  # 400.7
        else:
            with pytest.raises(IllegalAction):
                apply(world, on_battlefield, action)


def test_without_903_9a_graveyard_and_exile_are_replaced_as_before_july_2020():
    world, start = commander_world(without=("903.9a",))
    on_battlefield = run(world, start, Action(K.PUT_ONTO_BATTLEFIELD, card=CMD, player=0))
    assert run(world, on_battlefield, Action(K.DESTROY, card=CMD, to_command=True)).objects[CMD].zone is Zone.COMMAND
    exiled = run(world, on_battlefield, Action(K.EXILE, card=CMD))
    with pytest.raises(IllegalAction, match="no rule in force"):
        apply(world, exiled, Action(K.STATE_BASED_ACTIONS, cards=(CMD,)))


def test_only_a_commander_may_be_put_into_the_command_zone_instead():
    world, start = commander_world()
    hand = run(world, start, Action(K.DRAW, card=DECK, player=0))
    with pytest.raises(IllegalAction, match="not a commander"):
        apply(world, hand, Action(K.PUT_INTO_LIBRARY, card=DECK, player=0, to_command=True))


def test_an_illegal_proposal_leaves_the_commander_in_the_command_zone_as_the_same_object():
    world, start = commander_world()
    after = apply(world, start, Action(K.REVERSE_ILLEGAL_CAST, card=CMD, player=0))
    assert after.state.objects == start.objects and after.state.started  # the first ordinary action starts the game
    assert set(after.rules) == {"601.2", "903.8"}
    world, start = commander_world(without=("601.2",))
    assert apply(world, start, Action(K.REVERSE_ILLEGAL_CAST, card=CMD, player=0)).state.objects[CMD].gen == 1


def test_the_tax_counts_casts_from_the_command_zone_for_the_whole_game_only_with_903_8_tax():
    cast, back = Action(K.CAST, card=CMD, player=0), Action(K.RETURN_TO_HAND, card=CMD, to_command=True)
    resolve = Action(K.RESOLVE, card=CMD)
    world, start = commander_world()
    once = run(world, start, cast)
    assert once.objects[CMD].casts == 1
    returned = run(world, once, resolve, back)
    assert returned.objects[CMD].zone is Zone.COMMAND and returned.objects[CMD].casts == 1
    assert "903.8.tax" in apply(world, returned, cast).rules
    assert run(world, returned, cast, resolve, back, cast).objects[CMD].casts == MAX_CASTS  # the count stops at the scope's bound
    from_hand = run(world, once, resolve, Action(K.RETURN_TO_HAND, card=CMD), cast)
    assert from_hand.objects[CMD].zone is Zone.STACK and from_hand.objects[CMD].casts == 1
    world, start = commander_world(without=("903.8.tax",))
    assert run(world, start, cast, resolve, back).objects[CMD].casts == 0  # the object's memory, lost with it (400.7)
    assert run(world, start, cast, resolve, back, cast).objects[CMD].casts == 1


# ---------------------------------------------------------------- the properties


@pytest.mark.parametrize("ruleset", [COMMANDER, COMMANDER_2020], ids=lambda r: r.name)
def test_commander_tax_holds_in_both_commander_rule_sets_and_breaks_without_903_8_tax(ruleset, tmp_path):
    scope = Scope(players=1, cards=2, sideboard=0, tokens=0, depth=3)
    [result] = check_properties(ruleset, [PROPS["commander-tax"]], scope)
    assert result.verdict.holds
    [broken] = check_properties(ruleset.without(["903.8.tax"]), [PROPS["commander-tax"]], scope)
    assert broken.verdict is Verdict.VIOLATED and broken.depth == 2  # cast from the command zone, then a new object
    first, second = broken.trace.steps
    assert first.action.kind is K.CAST and first.state.objects[CMD].casts == 1 and second.state.objects[CMD].casts == 0
    replayed(broken, tmp_path)


def test_commander_return_holds_today_and_is_violated_under_the_2020_wording(tmp_path):
    [today] = check_properties(COMMANDER, [PROPS["commander-return"]], SMALL)
    assert today.verdict is Verdict.HOLDS
    [old] = check_properties(COMMANDER_2020, [PROPS["commander-return"]], SMALL)
    assert old.verdict is Verdict.VIOLATED and old.depth == 2
    assert COMMANDER_2020.expected("commander-return").verdict == "violated"
    replayed(old, tmp_path)


def test_a_commander_counterexample_becomes_a_scenario_that_runs(tmp_path):
    [old] = check_properties(COMMANDER_2020, [PROPS["commander-return"]], SMALL)
    path = tmp_path / "cx.scenario.toml"
    write_scenario(old.trace, "commander-return fails", path)
    text = path.read_text()
    assert "commander = true" in text and "to_command = true" in text
    result = run_scenario(load_scenario(path))
    assert result.passed, result.failures


def test_removing_903_9a_breaks_commander_return_with_a_replayable_counterexample(tmp_path):
    [result] = check_properties(COMMANDER.without(["903.9a"]), [PROPS["commander-return"]], SMALL)
    assert result.verdict is Verdict.VIOLATED and result.depth == 2
    last = result.trace.steps[-1]
    assert last.action.to_command and last.action.kind in (K.DESTROY, K.EXILE, K.EXILE_FACE_DOWN, K.MILL, K.DISCARD, K.COUNTER, K.SACRIFICE)
    replayed(result, tmp_path)


def test_removing_601_2_breaks_illegal_cast_reversed_with_a_replayable_counterexample(tmp_path):
    [holds] = check_properties(load_ruleset("mtg-current"), [PROPS["illegal-cast-reversed"]], SMALL)
    assert holds.verdict is Verdict.HOLDS
    [result] = check_properties(load_ruleset("mtg-current").without(["601.2"]), [PROPS["illegal-cast-reversed"]], SMALL)
    assert result.verdict is Verdict.VIOLATED and result.depth == 2  # draw, then the reversed proposal
    assert result.trace.steps[-1].action.kind is K.REVERSE_ILLEGAL_CAST
    replayed(result, tmp_path)


@pytest.mark.parametrize("ruleset", [COMMANDER, COMMANDER_2020], ids=lambda r: r.name)
def test_owner_zones_holds_under_both_commander_rule_sets(ruleset):
    [result] = check_properties(ruleset, [PROPS["owner-zones"]], Scope(players=2, cards=2, sideboard=0, tokens=0, depth=3))
    assert result.verdict.holds


# ---------------------------------------------------------------- input errors


def test_a_commander_behaviour_needs_the_variant(run_cli, tmp_path):
    model = Path(__file__).resolve().parent.parent / "model" / "mtg-commander.toml"
    (tmp_path / "plain.toml").write_text(model.read_text().replace('variant = "commander"\n', "").replace('name = "mtg-commander"', 'name = "plain"'))
    code, out, err = run_cli("list", "plain.toml")
    lines = model.read_text().replace('variant = "commander"\n', "").splitlines()
    # every commander rule is reported, each at its behaviour
    reported = err.strip().splitlines()
    assert code == 2 and out == "" and len(reported) == 4
    for line, rule in zip(reported, ["903.8", "903.8.tax", "903.9a", "903.9b"]):
        number = int(line.split(":")[2])
        start = lines.index(f'id = "{rule}"')  # the rule's block: its id, perhaps its place (`after`), its behaviour
        assert lines[number - 1].startswith("behaviour = ") and start < number - 1 <= start + 2
        assert line.startswith(f"zoneproof: plain.toml:{number}: error: rule {rule}") and 'variant = "commander"' in line
    (tmp_path / "odd.toml").write_text(model.read_text().replace('variant = "commander"', 'variant = "comander"').replace('name = "mtg-commander"', 'name = "odd"'))
    assert "did you mean 'commander'" in one_line_error(run_cli("list", "odd.toml"))


def test_a_scenario_commander_needs_a_commander_rule_set(run_cli, tmp_path):
    (tmp_path / "s.toml").write_text(
        'name = "x"\ncites = ["903.6"]\nruleset = "mtg-current"\n\n[[card]]\nname = "General"\nowner = "A"\ncommander = true\n\n'
        '[[step]]\naction = "move_to_command"\ncard = "General"\n'
    )
    line = one_line_error(run_cli("run", "s.toml"))
    assert line.startswith("zoneproof: s.toml:8: error:") and "Commander variant" in line  # at `commander = true`


def test_a_trace_with_a_bad_cast_count_is_refused(run_cli, tmp_path):
    code, _, _ = run_cli("check", "mtg-commander", "--without", "903.8.tax", "-p", "commander-tax", "--no-lint",
                         "--players", "1", "--cards", "2", "--sideboard", "0", "--tokens", "0", "--depth", "2")
    path = tmp_path / "counterexamples" / "mtg-commander--without-903.8.tax--commander-tax.itf.json"
    assert code == 1 and '"casts"' in path.read_text()  # with --without, a violation exits 1
    for bad, message in [(3, "casts must be 1..2 (leave it out for none)"), (0, "casts must be 1..2"), (True, "casts should be int")]:
        data = json.loads(path.read_text())
        data["states"][1]["objects"]["#map"][1][1]["casts"] = bad if isinstance(bad, bool) else {"#bigint": str(bad)}
        (tmp_path / "bad.itf.json").write_text(json.dumps(data))
        line = one_line_error(run_cli("replay", "bad.itf.json"))
        assert line.startswith("zoneproof: bad.itf.json") and "state 1, A-cmd1.casts" in line and message in line, line


@pytest.fixture
def run_cli(run):
    return run

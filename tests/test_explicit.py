"""The explicit-state search (zoneproof.explicit) as an oracle of zoneproof's bounded checks.

On every built-in rule set, at a small scope, the search and check_properties agree on the
verdict of every stock property and on the length of every shortest counterexample; so they do on
the removed-rule cases of the benchmark's oracle table. Each counterexample the search finds is
written as a trace file that `zoneproof replay` confirms. From a sample of reachable states the
encoder allows no step that the search does not take (its action space is the encoder's). The
budget, the exhausted state space and the levels explored are checked on scopes small enough to
count by hand.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations, product

import pytest
import z3

from benchmarks.bench import ORACLE
from zoneproof.check import check_properties
from zoneproof.encode.system import TransitionSystem
from zoneproof.explicit import Finding, StateSpace, Verdict, check_explicitly, first_stage, legal_steps, search
from zoneproof.interpreter import World
from zoneproof.model import Action, ActionKind, CardType, Scope, Zone
from zoneproof.properties import stock_properties
from zoneproof.replay import execute, first_violation, replay_trace
from zoneproof.ruleset import builtin_names, load_ruleset
from zoneproof.terms import And, Not
from zoneproof.trace import read_trace, write_trace

K = ActionKind
PROPS = {p.id: p for p in stock_properties()}

# The scopes of the agreement checks: two players with a card each (in the Commander rule sets a
# card and the commander), a sideboard card and a token slot, a starting hand of one card, two steps;
# and, for the current rules and Berserk, one player with two cards and three steps. Both checks
# of all the stock properties take a few seconds at each.
TWO_PLAYERS = Scope(players=2, cards=1, sideboard=1, tokens=1, depth=2, hand=1)
THREE_STEPS = Scope(players=1, cards=2, sideboard=1, tokens=1, depth=3, hand=1)


def assert_agree(ruleset, props, scope, tmp_path):
    """The explicit search and check_properties give the same verdicts and depths; the search's
    counterexamples replay. Returns the search's results."""
    explicit = check_explicitly(ruleset, props, scope)
    symbolic = check_properties(ruleset, props, scope, timeout=300)
    assert not explicit.budget_reached
    found = {r.prop.id: (r.verdict.value, r.depth) for r in explicit.results}
    expected = {r.prop.id: ("holds" if r.verdict.value == "proved" else r.verdict.value, r.depth) for r in symbolic}  # the search cannot prove
    assert found == expected
    for result in explicit.results:
        if result.verdict is Verdict.VIOLATED:
            assert_replays(result, tmp_path)
    return explicit.results


def assert_replays(result, tmp_path) -> None:
    """The counterexample, written and read back as an ITF trace, replays: every state and rule as
    recorded, the property false first at the recorded step."""
    path = tmp_path / f"{result.prop.id}.itf.json"
    write_trace(result.trace, path)
    replay, _, _ = replay_trace(read_trace(path), str(path))
    assert replay.mismatch is None
    assert replay.confirms(result.depth)


@pytest.mark.parametrize("name", builtin_names())
def test_the_explicit_search_agrees_with_zoneproof_on_every_stock_property(name, tmp_path):
    ruleset = load_ruleset(name)
    scope = replace(TWO_PLAYERS, cards=2) if ruleset.is_commander else TWO_PLAYERS
    assert_agree(ruleset, list(PROPS.values()), scope, tmp_path)


@pytest.mark.parametrize("name", ["mtg-current", "berserk"])
def test_the_explicit_search_agrees_with_zoneproof_three_steps_deep(name, tmp_path):
    assert_agree(load_ruleset(name), list(PROPS.values()), THREE_STEPS, tmp_path)


# The scope of each removed-rule case: the benchmark's depth, two players with a card each, a
# sideboard card and a token slot; two cards for 400.5 (the order of two cards in a library); for
# 405.5, whose counterexample needs two spells on the stack (five steps), one player with two cards
# and nothing else.
ORACLE_SCOPE = Scope(players=2, cards=1, sideboard=1, tokens=1, depth=3)
SMALLEST = {"400.5": replace(ORACLE_SCOPE, cards=2), "405.5": Scope(players=1, cards=2, sideboard=0, tokens=0)}


@pytest.mark.parametrize("rule, prop_id, depth", ORACLE, ids=[f"{r}-{p}" for r, p, _ in ORACLE])
def test_the_explicit_search_finds_each_removed_rules_shortest_counterexample(rule, prop_id, depth, tmp_path):
    scope = replace(SMALLEST.get(rule, ORACLE_SCOPE), depth=depth)
    ruleset = load_ruleset("mtg-current").without([rule])
    [result] = assert_agree(ruleset, [PROPS[prop_id]], scope, tmp_path)
    assert result.verdict is Verdict.VIOLATED


def test_the_counterexample_is_the_shortest_and_written_as_check_writes_it(tmp_path):
    ruleset = load_ruleset("mtg-current").without(["400.3"])
    scope = Scope(players=2, cards=4, depth=3)
    exploration = check_explicitly(ruleset, [PROPS["owner-zones"]], scope)
    [result] = exploration.results
    assert (result.verdict, result.depth) == (Verdict.VIOLATED, 2)
    assert exploration.completed == 1  # levels 0 and 1 explored completely: no shorter one
    trace = result.trace
    assert (trace.ruleset_name, trace.removed, trace.property_id, trace.scope) == ("mtg-current", ("400.3",), "owner-zones", scope)
    assert len(trace.steps) == trace.violation_step == 2
    assert_replays(result, tmp_path)


# ---------------------------------------------------------------- the action space is the encoder's


def explicit_actions_cover_the_encoder(ruleset, scope: Scope, card_types: tuple[CardType, ...], states) -> None:
    """From each state, the encoder allows no action (kind, card, player, n, zone, cards,
    to_command) that legal_steps does not take. (Where each leads, the differential tests check:
    the encoder admits exactly the interpreter's outcome; every order of a pile is a step of its
    own, see the shuffle test below.)"""
    e = TransitionSystem(ruleset, replace(scope, depth=1))
    world = World.of(ruleset, e.slots, card_types, e.scope)
    solver = z3.SolverFor("QF_BV", ctx=e.ctx)
    solver.add(e.rule_values() + e.trans(0) + e.types_are(card_types))
    for state in states:
        taken = {replace(action, order=()) for action, _ in legal_steps(world, state)}
        solver.push()
        solver.add(e.state_is(0, state) + [Not(And(e.action_is(0, a))) for a in taken])
        answer = solver.check()
        if answer == z3.sat:
            _, _, actions = e.decode(solver.model(), 1)
            pytest.fail(f"the encoder allows {actions[0]} from a state where the explicit search does not take it")
        assert answer == z3.unsat
        solver.pop()


def reachable_sample(ruleset, scope: Scope, card_types, levels: int, count: int) -> list:
    """About `count` states reached within `levels` steps, the start among them: breadth first,
    with these card types, each level's new states thinned out to `count` spread over them."""
    space = StateSpace(ruleset, scope)
    world = World.of(ruleset, space.slots, card_types, space.scope)
    seen, frontier = {space.start_state: None}, [space.start_state]
    for _ in range(levels):
        following = list({o.state: None for s in frontier for _, o in legal_steps(world, s) if o.state not in seen})
        frontier = following[::max(1, len(following) // count)]
        seen.update(dict.fromkeys(frontier))
    return list(seen)


TYPES_OF_A_DECK = {"A1": CardType.INSTANT, "B1": CardType.LAND, "A-sb1": CardType.SORCERY}


@pytest.mark.parametrize("name, removed", [
    ("mtg-current", ("400.5", "400.12", "404.1", "405.2", "400.11c")),  # rearrangements, listed cards, positions, outside the game
    ("mtg-commander", ("903.9a",)),  # the commander's moves to the command zone instead, state-based actions' lists
    ("mtg-2015-commander", ()),  # the Commander mulligan: cards set aside, shuffled back on keeping
    ("mtg-2015-bfz", ()),  # the Paris mulligan's shuffle, the post-mulligan look
], ids=["mtg-current-without-orders-and-places", "mtg-commander-without-903.9a", "mtg-2015-commander", "mtg-2015-bfz"])
def test_the_encoder_allows_no_step_the_explicit_search_misses(name, removed):
    ruleset = load_ruleset(name).without(list(removed))
    scope = ruleset.scope_for(Scope(players=2, cards=2 if ruleset.is_commander else 1, sideboard=1, tokens=1, depth=3, hand=1))
    space = StateSpace(ruleset, scope)
    card_types = tuple(TYPES_OF_A_DECK.get(s.name, CardType.CREATURE) for s in space.slots)
    explicit_actions_cover_the_encoder(ruleset, scope, card_types, reachable_sample(ruleset, scope, card_types, 3, 10))


def test_every_order_of_a_shuffled_library_is_a_step():
    ruleset = load_ruleset("mtg-current")
    space = StateSpace(ruleset, Scope(players=2, cards=3, depth=1))
    world = World.of(ruleset, space.slots, tuple(CardType.CREATURE for _ in space.slots), space.scope)
    shuffles = [a for a, _ in legal_steps(world, space.start_state) if a.kind is K.SHUFFLE and a.player == 0]
    assert sorted(order for a in shuffles for _, order in a.order) == sorted(permutations((0, 1, 2)))


# ---------------------------------------------------------------- open card types


def test_one_search_covers_every_deck():
    """Under 400.4a an instant or sorcery put onto the battlefield stays where it is. The search
    leaves the card's type open, splits it where the interpreter reads it, and without 400.4a finds
    the counterexample of a deck whose card is an instant."""
    one_card = Scope(players=1, cards=1, sideboard=0, tokens=0, depth=3)
    prop = PROPS["spells-not-permanents"]
    [result] = check_explicitly(load_ruleset("mtg-current").without(["400.4a"]), [prop], one_card).results
    assert (result.verdict, result.depth) == (Verdict.VIOLATED, 1)
    assert result.trace.card_types == (CardType.INSTANT,)  # the first type, in CardType's order, of those that break it
    assert result.trace.steps[0].action == Action(K.PUT_ONTO_BATTLEFIELD, card=0, player=0)
    [held] = check_explicitly(load_ruleset("mtg-current"), [prop], one_card).results
    assert held.verdict is Verdict.HOLDS


def test_types_nothing_tells_apart_make_no_new_states():
    """Putting a card onto the battlefield tells a permanent card from an instant or sorcery
    (400.4a), and nothing else: the one card's five permanent types stay together."""
    ruleset = load_ruleset("mtg-current")
    space = StateSpace(ruleset, Scope(players=1, cards=1, sideboard=0, tokens=0, depth=1))
    onto = [t for t in space.successors(space.start) if t.action == Action(K.PUT_ONTO_BATTLEFIELD, card=0, player=0)]
    moved = {t.state.objects[0].zone: {c.value for c in CardType if t.types >> list(CardType).index(c) & 1} for t in onto}
    assert moved == {Zone.BATTLEFIELD: {"land", "creature", "artifact", "enchantment", "planeswalker"},
                     Zone.LIBRARY: {"instant", "sorcery"}}


# ---------------------------------------------------------------- levels, budget, exhaustion


def test_the_budget_stops_the_search_and_says_how_far_it_went():
    ruleset, prop = load_ruleset("mtg-current"), PROPS["owner-zones"]
    scope = Scope(players=2, cards=2, depth=3)
    full = check_explicitly(ruleset, [prop], replace(scope, depth=2))
    assert full.results[0].verdict is Verdict.HOLDS and full.completed == 2
    levels = full.states_per_level
    cut = check_explicitly(ruleset, [prop], scope, max_states=sum(levels) + 10)
    assert cut.budget_reached and cut.completed == 2
    assert cut.states_per_level == (*levels, 10)
    assert (cut.results[0].verdict, cut.results[0].depth) == (Verdict.BUDGET_EXHAUSTED, 2)
    again = check_explicitly(ruleset, [prop], scope, max_states=sum(levels) + 10)
    assert again.states_per_level == cut.states_per_level  # the budget counts states, not seconds


def test_a_state_space_explored_to_the_end_holds_at_every_depth():
    """One player with no cards at all: the pregame (an opening hand of none, kept) and the start
    of the game are all that can change, a few states the search exhausts long before depth 40."""
    exploration = check_explicitly(load_ruleset("mtg-current"), [PROPS["mulligan-hand-size"]], Scope(players=1, cards=0, sideboard=0, tokens=0, depth=40))
    [result] = exploration.results
    assert exploration.explored_all and not exploration.budget_reached
    assert (result.verdict, result.depth, result.every_depth) == (Verdict.HOLDS, 40, True)
    assert exploration.states_per_level[-1] == 0 and len(exploration.states_per_level) < 10


def test_the_states_of_a_level_are_those_some_deck_reaches_each_kept_once():
    """The first step from the start of a game, for every deck: a land, a creature or an instant in
    each of the four deck cards (the interpreter tells no other types apart). The search's level 1
    holds each of the states these steps reach once, and no other."""
    ruleset = load_ruleset("mtg-current")
    space = StateSpace(ruleset, Scope(players=2, cards=2, sideboard=0, tokens=0, depth=1))
    reached = set()
    for deck in product((CardType.LAND, CardType.CREATURE, CardType.INSTANT), repeat=len(space.slots)):
        world = World.of(ruleset, space.slots, deck, space.scope)
        reached |= {o.state for _, o in legal_steps(world, space.start_state)}
    result = search(space, [], 1, 10_000)
    level_1 = [n.state for n in result.last_level]
    assert result.states_per_level == (1, len(reached - {space.start_state}))
    assert set(level_1) == reached - {space.start_state} and len(set(level_1)) == len(level_1)


# ---------------------------------------------------------------- the checker's first stage


def test_the_first_stage_gives_a_violating_run_no_violation_to_a_level_or_the_budget_exhausted():
    one_card = Scope(players=1, cards=1, sideboard=0, tokens=0, depth=9)  # the stage's max_depth, not the scope's, bounds it
    prop = PROPS["spells-not-permanents"]
    [violated] = first_stage(load_ruleset("mtg-current").without(["400.4a"]), one_card, [prop], max_depth=3, max_states=10_000)
    assert (violated.finding, violated.depth) == (Finding.VIOLATED, 1)
    steps, mismatch = execute(violated.world, violated.initial, list(violated.actions))
    assert mismatch is None and first_violation(violated.world, prop, violated.initial, steps) == 1

    current = load_ruleset("mtg-current")
    [held] = first_stage(current, one_card, [prop], max_depth=3, max_states=10_000)
    assert (held.finding, held.depth, held.actions) == (Finding.NO_VIOLATION, 3, ())

    levels = check_explicitly(current, [prop], replace(one_card, depth=1)).states_per_level
    [cut] = first_stage(current, one_card, [prop], max_depth=3, max_states=sum(levels) + 1)
    assert (cut.finding, cut.depth) == (Finding.BUDGET_EXHAUSTED, 1)  # levels 0 and 1 explored, level 2 not

"""Random runs (zoneproof.simulate): every witness is the interpreter's own run, never shorter than
the shortest the explicit search finds, shrunk so that no step can be left out, the same for the
same seed. That lint's findings, with them, are at steps the explicit search confirms is
tests/test_lint_explicit.py's."""

from dataclasses import replace

from zoneproof.encode.slicing import rules_deciding, rules_deciding_each
from zoneproof.encode.system import TransitionSystem
from zoneproof.explicit import Verdict, check_explicitly
from zoneproof.interpreter import World
from zoneproof.model import PREGAME_ACTIONS, ActionKind, Scope
from zoneproof.properties import stock_properties
from zoneproof.replay import execute, first_violation
from zoneproof.ruleset import load_ruleset
from zoneproof.simulate import found_witnesses, pregame_witnesses

PROPS = list(stock_properties())
SMALL = Scope(players=2, cards=2, sideboard=0, tokens=1, depth=3, hand=1)


def replays(witness, ruleset, prop=None) -> bool:
    trace = witness.trace
    world = World.of(ruleset, trace.slots, trace.card_types, trace.scope)
    steps, mismatch = execute(world, trace.initial, [s.action for s in trace.steps], recorded=[s.state for s in trace.steps])
    return mismatch is None and (prop is None or first_violation(world, prop, trace.initial, steps) == witness.depth)


def test_a_witness_replays_and_is_never_shorter_than_the_shortest_counterexample():
    ruleset = load_ruleset("mtg-current").without(["400.3", "400.7"])
    violated, _ = found_witnesses(ruleset, SMALL, PROPS, [], runs=60, length=3)
    assert violated, "no random run violated a property with 400.3 and 400.7 removed"
    shortest = {r.prop: r.depth for r in check_explicitly(ruleset, list(violated), SMALL).results if r.verdict is Verdict.VIOLATED}
    for prop, witness in violated.items():
        assert replays(witness, ruleset, prop), prop.id
        assert witness.depth >= shortest[prop], prop.id


def test_no_run_violates_a_property_that_holds_and_the_runs_are_those_of_their_seed():
    ruleset = load_ruleset("mtg-current")
    holding = [p for p in PROPS if p.id in ("owner-zones", "one-zone", "tokens")]
    assert found_witnesses(ruleset, SMALL, holding, [], runs=40, length=4) == ({}, {})
    removed = ruleset.without(["400.3"])
    first = found_witnesses(removed, SMALL, holding, ["400.7"], runs=40, length=4, seed=5)
    assert first == found_witnesses(removed, SMALL, holding, ["400.7"], runs=40, length=4, seed=5)


def test_the_last_step_of_a_rules_witness_has_another_outcome_without_the_rule():
    ruleset = load_ruleset("mtg-current")
    _, changed = found_witnesses(ruleset, SMALL, [], ["400.3", "400.7"], runs=60, length=9)
    assert set(changed) == {"400.3", "400.7"}
    for rule_id, witness in changed.items():
        assert replays(witness, ruleset) and len(witness.trace.steps) == witness.depth + 1
        trace = witness.trace
        without = World.of(ruleset.without([rule_id]), trace.slots, trace.card_types, trace.scope)
        before = [s.action for s in trace.steps]
        steps, refused = execute(without, trace.initial, before)
        assert refused or steps[-1].state != trace.steps[-1].state, rule_id



def test_no_single_step_of_a_witness_can_be_left_out():
    ruleset = load_ruleset("mtg-current").without(["400.3", "400.7"])
    violated, _ = found_witnesses(ruleset, SMALL, PROPS, [], runs=60, length=9)
    assert violated
    for prop, witness in violated.items():
        trace = witness.trace
        world = World.of(ruleset, trace.slots, trace.card_types, trace.scope)
        actions = [s.action for s in trace.steps]
        for i in range(len(actions)):
            steps, refused = execute(world, trace.initial, actions[:i] + actions[i + 1:])
            assert refused or first_violation(world, prop, trace.initial, steps) is None, (prop.id, i)


DEFAULT = Scope(players=2, cards=3, sideboard=1, tokens=1, depth=7, hand=2)


def test_the_pregame_runs_all_searched_find_the_mulligan_the_rule_against_a_zero_card_hand_refuses():
    """Mulligans down to a hand of no cards: a choice the random runs seldom take three times over."""
    ruleset = load_ruleset("mtg-current")
    _, changed = pregame_witnesses(ruleset, ruleset.scope_for(DEFAULT), [], ["103.5.keep-zero"])
    trace = changed["103.5.keep-zero"].trace
    actions = [s.action for s in trace.steps]
    assert actions[-1].kind is ActionKind.MULLIGAN
    with_rule = World.of(ruleset, trace.slots, trace.card_types, trace.scope)
    steps, refused = execute(with_rule, trace.initial, actions)
    assert len(steps) == len(actions) - 1 and "103.5.keep-zero" in refused
    without = World.of(ruleset.without(["103.5.keep-zero"]), trace.slots, trace.card_types, trace.scope)
    assert execute(without, trace.initial, actions, recorded=[s.state for s in trace.steps])[1] is None


def test_the_rules_deciding_the_pregame_are_read_off_the_encoder_and_the_search_for_others_finds_nothing():
    ruleset = load_ruleset("mtg-current")
    scope = ruleset.scope_for(DEFAULT)
    deciding = rules_deciding(TransitionSystem(ruleset, scope), PREGAME_ACTIONS)
    assert {"103.5", "103.5.keep-zero", "103.6"} <= deciding
    assert not deciding & {"405.5", "608.2b", "903.8.tax"}
    assert pregame_witnesses(ruleset, replace(scope, depth=3), [], ["405.5"]) == ({}, {})


def test_the_runs_try_each_kind_a_pending_rule_decides_in_every_state_they_pass():
    """Turning a face-down spell face up is what 708.7 refuses, and it needs a face-down spell on the
    stack first: the runs seldom take such a step themselves, but each state they pass tries a
    step of a kind the rule decides, with and without the rule."""
    ruleset, scope = load_ruleset("mtg-current"), Scope()
    deciding = rules_deciding_each(TransitionSystem(ruleset, scope))
    _, changed = found_witnesses(ruleset, scope, [], ["708.7"], 200, 3 * scope.depth, 0, deciding=deciding)
    assert "708.7" in changed
    assert replays(changed["708.7"], ruleset.without(["708.7"]))  # its last step is one the rule refuses
    assert changed["708.7"].trace.steps[-1].action.kind is ActionKind.TURN_FACE_UP

"""The deepening asked of one solver kept across depths (incremental) or of a solver per question
gives the same verdicts and the same shortest depths."""

from dataclasses import replace

import pytest

from zoneproof.encode.system import TransitionSystem
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset
from zoneproof.search import Budget, Deepening

PROPS = {p.id: p for p in stock_properties()}
SCOPE = Scope(players=2, cards=1, sideboard=1, tokens=1, depth=3)
INT_REACH = 8  # more than any integer these properties compute in this scope


@pytest.mark.parametrize("name, removed", [("mtg-current", ["400.3"]), ("mtg-current", ["400.7"]), ("berserk", [])])
def test_incremental_deepening_changes_no_verdict_and_no_shortest_depth(name, removed):
    ruleset = load_ruleset(name).without(removed) if removed else load_ruleset(name)
    props = [PROPS[p] for p in ("owner-zones", "new-object", "tokens", "markers-kept", "one-zone")]
    found = []
    for incremental in (False, True):
        system = TransitionSystem(ruleset, ruleset.scope_for(SCOPE), INT_REACH)
        deepening = Deepening(system, 0, system.rule_values(), incremental=incremental)
        outcomes = deepening.first_violations({p: SCOPE.depth for p in props}, Budget(4_000_000_000, 10**12))
        found.append({p.id: (o.violated, o.depth, o.unknown) for p, o in outcomes.items()})
    assert found[0] == found[1]
    assert any(violated for violated, _, _ in found[0].values())


def test_a_goal_asked_by_itself_gets_the_model_its_property_gets_alone():
    """In a deepening of several properties, a question about one of them is asked as
    `violation_alone` asks it, so a check keeps that model as its counterexample instead of asking
    again: the same model, every value."""
    from zoneproof.search import violation_alone

    ruleset = load_ruleset("mtg-current").without(["400.3"])
    system = TransitionSystem(ruleset, ruleset.scope_for(SCOPE), INT_REACH)
    budget = Budget(4_000_000_000, 10**12)
    prop = PROPS["owner-zones"]
    outcome = Deepening(system, 0, system.rule_values()).first_violations({prop: SCOPE.depth, PROPS["one-zone"]: 0}, budget)[prop]
    assert outcome.violated and outcome.alone
    again = violation_alone(system, prop, outcome.depth, 0, system.rule_values(), budget)
    assert again.model is not None
    assert str(sorted(again.model.sexpr().splitlines())) == str(sorted(outcome.model.sexpr().splitlines()))
    shared = Deepening(system, 0, system.rule_values()).first_violations({prop: SCOPE.depth, PROPS["one-zone"]: SCOPE.depth}, budget)[prop]
    assert shared.violated and not shared.alone
    only = Deepening(system, 0, system.rule_values()).first_violations({prop: SCOPE.depth}, budget)[prop]
    assert only.violated and not only.alone  # a check of one property asks plainly, then alone once


@pytest.mark.parametrize("name", ["mtg-current", "mtg-2015-bfz"])
def test_a_property_formula_past_depth_1_is_the_one_its_evaluation_there_builds(name):
    """violated_at renames a property's formula at 1 rather than evaluating it again: the terms
    must be those the evaluation builds (positions, sizes, what a scry or a look showed, read off
    the step before)."""
    from zoneproof.encode.backend import SymbolicBackend
    from zoneproof.evaluate import evaluate
    from zoneproof.properties import PropertyKind
    from zoneproof.search import violated_at
    from zoneproof.terms import Not

    ruleset = load_ruleset(name)
    scope = ruleset.scope_for(replace(Scope(), depth=5))
    system = TransitionSystem(ruleset, scope)
    for prop in stock_properties():
        for k in (2, 3, 5):
            at = k if prop.kind is PropertyKind.ALWAYS else k - 1
            built = Not(evaluate(prop, SymbolicBackend(system, at), system.slots, system.players))
            assert violated_at(system, prop, k).eq(built), (prop.id, k)

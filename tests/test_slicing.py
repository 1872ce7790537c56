"""A check of a few properties runs on their cone of influence (`slicing.sliced`): it must give the
verdicts and shortest depths of the whole system, and counterexamples that replay."""

import os
from dataclasses import replace
from functools import partial

import pytest

from zoneproof import check
from zoneproof.check import Verdict, check_properties
from zoneproof.encode.slicing import pregame_only, sliced
from zoneproof.encode.system import TransitionSystem
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset

PROPS = list(stock_properties())
SCOPE = Scope(players=2, cards=1, sideboard=0, tokens=1, depth=4)
# Rules whose removal breaks owner-zones, stack-lifo, new-object, replacement-owner and the
# tokens' rules: violations at depths 2 to 4 for the sliced check to find (fizzle's, without
# 608.2b, is at depth 5: within the scope it holds).
REMOVED = ["400.3", "405.5", "400.7", "608.2b", "111.7"]
BROKEN = ["owner-zones", "stack-lifo", "tokens", "replacement-owner"]
# Besides those, two that hold without them (the others run with ZONEPROOF_LONG=1).
STILL_HOLDING = ["ordered-zones", "face-down-reveal"]
# With the rules intact, properties of slices of every size, from the zones' owners alone to the
# stack and the face-down objects (every sliced property with ZONEPROOF_LONG=1).
INTACT = ["owner-zones", "one-zone", "command-in-command", "stack-lifo", "tokens", "face-down-visibility", "hidden-zones", "zone-wide"]
LONG = bool(os.environ.get("ZONEPROOF_LONG"))


def test_a_single_property_checks_on_a_slice_that_leaves_out_action_kinds():
    ruleset = load_ruleset("mtg-current")
    scope = ruleset.scope_for(SCOPE)
    whole = TransitionSystem(ruleset, scope)
    owner_zones = sliced(whole, [p for p in PROPS if p.id == "owner-zones"])
    assert owner_zones is not whole
    assert set(owner_zones.kinds) < set(whole.kinds)
    assert "counters" not in owner_zones.slice.parts
    assert sliced(whole, [p for p in PROPS if not pregame_only(ruleset, p)]) is whole


def _on_a_slice(ruleset, prop) -> bool:
    """Whether the check of the property alone runs on a slice: a property of the pregame alone is
    checked on the pregame's system either way, and a cone that keeps every action kind is the
    whole system (`slicing.sliced`), so for those the two checks are one computation."""
    scope = ruleset.scope_for(SCOPE)
    whole = TransitionSystem(ruleset, scope, check._int_reach([prop], scope))
    return not pregame_only(ruleset, prop) and sliced(whole, [prop]) is not whole


@pytest.mark.parametrize("removed", [[], REMOVED], ids=["intact", "rules-removed"])
def test_a_sliced_check_gives_the_whole_systems_verdict_and_shortest_depth(removed, monkeypatch):
    monkeypatch.setattr(check, "_first_stage", lambda *args: {})  # Z3's own search, sliced or not
    ruleset = load_ruleset("mtg-current").without(removed)
    props = [p for p in PROPS if _on_a_slice(ruleset, p)]
    chosen = BROKEN + STILL_HOLDING if removed else INTACT
    if not LONG:
        props = [p for p in props if p.id in chosen]
    assert len(props) >= (len(chosen) if removed or not LONG else 20)
    alone = {p.id: check_properties(ruleset, [p], SCOPE)[0] for p in props}
    monkeypatch.setattr(check, "SLICE_AT_MOST", 0)
    whole = {p.id: check_properties(ruleset, [p], SCOPE)[0] for p in props}
    assert {i: (r.verdict, r.depth) for i, r in alone.items()} == {i: (r.verdict, r.depth) for i, r in whole.items()}
    verdicts = {r.verdict for r in alone.values()}
    assert Verdict.ERROR not in verdicts and Verdict.UNKNOWN not in verdicts
    assert (Verdict.VIOLATED if removed else Verdict.PROVED) in verdicts
    for result in alone.values():
        if result.verdict is Verdict.VIOLATED:
            assert result.trace is not None and len(result.trace.steps) == result.depth


@pytest.mark.parametrize("rule_id, kinds", [("400.3", 12), ("404.1", 6), ("405.2", 3), ("608.2b", 1)])
def test_a_rule_of_the_constraints_every_step_shares_decides_only_the_steps_of_its_kinds(rule_id, kinds):
    """A rule whose literal occurs in what every step shares (where a pile's newcomer goes, which
    object a resolving spell's target is) is named by `rules_deciding_each` only for the kinds
    whose steps it can change: Z3 shows every step of another kind the same with the rule and
    without it, and some step of a named kind not (coverage asks a removal only of those kinds)."""
    import z3

    from zoneproof.encode.slicing import rules_deciding_each
    from zoneproof.solver import Answer, check as ask, new_solver

    ruleset = load_ruleset("mtg-current")
    system = TransitionSystem(ruleset, ruleset.scope_for(Scope()))
    deciding = rules_deciding_each(system)
    named = [kind for kind in system.kinds if rule_id in deciding[kind]]
    assert len(named) == kinds
    in_force = z3.substitute(z3.And(system.trans(1)), (system.rule_literal[rule_id], z3.BoolVal(True, system.ctx)))
    changed = z3.Xor(in_force, system.trans_without(1, rule_id))
    for among, answer in ((named, Answer.SAT), ([kind for kind in system.kinds if kind not in named], Answer.UNSAT)):
        solver = new_solver(system.ctx, 0)
        solver.add(system.kind_in(1, among), changed)
        assert ask(solver, [], 60_000).answer is answer, (rule_id, answer)


@pytest.mark.parametrize("name", ["mtg-current", "mtg-2015-commander-bfz"])
def test_a_rule_whose_removal_changes_a_step_is_among_those_deciding_its_kind(name):
    """`rules_deciding_each`, by which lint's random runs try a rule's removal only on the steps of
    the kinds it can decide, checked against the interpreter: on random runs, every rule whose
    removal gives a step another outcome is among those named for the step's kind."""
    import random

    from zoneproof.explicit import StateSpace
    from zoneproof.interpreter import outcome_or_refusal
    from zoneproof.encode.slicing import rules_deciding_each
    from zoneproof.model import ActionKind
    from zoneproof.simulate import _drawn_types, _walk

    ruleset = load_ruleset(name)
    scope = ruleset.scope_for(Scope())
    deciding = rules_deciding_each(TransitionSystem(ruleset, scope))
    assert "405.5" in deciding[ActionKind.RESOLVE] and "405.5" not in deciding[ActionKind.DRAW]
    space, rng = StateSpace(ruleset, scope), random.Random(0)
    withouts = {rule.id: ruleset.without([rule.id]) for rule in ruleset.in_force}
    shown: set = set()

    def on_step(world, steps) -> bool:
        before = steps[-2].state if len(steps) > 1 else space.start_state
        step = steps[-1]
        for rule_id, without in withouts.items():
            if outcome_or_refusal(replace(world, ruleset=without), before, step.action) != step.state:
                assert rule_id in deciding[step.action.kind], (rule_id, step.action)
                shown.add(rule_id)
        return True

    for run in range(20):
        world = space.concrete_world(_drawn_types(space, rng))
        _walk(space, world, rng, 3 * scope.depth, run % 2 == 1, lambda steps, by_kind: None, partial(on_step, world))
    assert len(shown) >= 10  # the runs showed that many rules deciding a step

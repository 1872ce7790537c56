"""The encoder's rule literals: each rule's constraints are tracked under its number."""

import pytest
import z3

from zoneproof.encode.system import TransitionSystem
from zoneproof.model import Scope, Zone
from zoneproof.ruleset import builtin_names, load_ruleset
from zoneproof.solver import Answer, check, new_solver


def test_unsat_core_names_the_rule_that_forbids_an_outcome():
    """Under mtg-current no card of A's can be in B's graveyard after two actions; asked with the
    rule literals as assumptions, Z3 names 400.3 as the rule that forbids it."""
    encoding = TransitionSystem(load_ruleset("mtg-current"), Scope(depth=2))
    solver = new_solver(encoding.ctx, 0)
    solver.add(encoding.init())
    solver.add(encoding.trans(0))
    solver.add(encoding.trans(1))
    later = encoding.state(2)
    a_cards = [c for c, slot in enumerate(encoding.slots) if slot.owner == 0]
    solver.add(z3.Or([
        z3.And(later.zone[c] == encoding.codes.zone[Zone.GRAVEYARD], later.whose[c] == encoding.codes.player[1])
        for c in a_cards
    ]))
    answer = check(solver, encoding.rule_values(), 60_000)
    assert answer.answer is Answer.UNSAT
    assert "rule[400.3]" in answer.core

    without = TransitionSystem(load_ruleset("mtg-current").without(["400.3"]), Scope(depth=2))
    solver = new_solver(without.ctx, 0)
    solver.add(without.init() + without.trans(0) + without.trans(1))
    later = without.state(2)
    solver.add(z3.Or([
        z3.And(later.zone[c] == without.codes.zone[Zone.GRAVEYARD], later.whose[c] == without.codes.player[1])
        for c in a_cards
    ]))
    assert check(solver, without.rule_values(), 60_000).answer is Answer.SAT


def test_rule_literals_are_named_by_rule_number():
    encoding = TransitionSystem(load_ruleset("mtg-current").without(["400.7"]), Scope(depth=1))
    values = {str(v) for v in encoding.rule_values()}
    assert "rule[400.3]" in values and "Not(rule[400.7])" in values
    assert len(values) == len(load_ruleset("mtg-current").rules)


@pytest.mark.parametrize("name", builtin_names())
def test_later_steps_are_the_first_step_renamed(name):
    """Steps after the second, and lint's questions there (an event left with no outcome, a view
    changed by a rule's removal), are step 1's with the variables renamed: the very terms that
    building each anew gives (two players, and four in two teams; the pregame and the post-mulligan
    look where the rule set has them), so that every check sees the same formula either way."""
    ruleset = load_ruleset(name)
    for scope in (ruleset.scope_for(Scope(depth=3)), ruleset.scope_for(Scope(players=4, cards=1, depth=3, team_size=2))):
        encoding = TransitionSystem(ruleset, scope)
        for t in range(scope.depth):
            renamed, built = encoding.trans(t), encoding.built(t)
            assert len(renamed) == len(built)
            assert all(a.eq(b) for a, b in zip(renamed, built)), f"step {t} of {name} differs"
            assert encoding.no_outcome(t).eq(encoding._no_outcome_built(t)), f"lint's conflict at step {t} of {name} differs"
        last = scope.depth - 1  # the only state here whose view is renamed
        for rule in ruleset.in_force:
            assert encoding.visibility_without(last, rule.id).eq(encoding._visibility_without_built(last, rule.id)), (
                f"lint's view without {rule.id} at state {last} of {name} differs")

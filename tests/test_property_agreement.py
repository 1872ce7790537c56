"""The interpreter's and the encoder's evaluations of every stock property agree.

On the states and steps of random legal interpreter runs (see test_differential), each stock
property is evaluated concretely by the interpreter's backend and symbolically by the encoder's;
the symbolic value, evaluated in a model that gives every variable of the run its value (and no
other variable any), must be the concrete one. Hypothesis runs as many runs as test_differential
runs per direction: 40 under mtg-current and 10 under each other rule set of the base game by default
(ZONEPROOF_EXAMPLES sets the first; the others get a quarter of it).
"""

from functools import cache

import pytest
import z3
from hypothesis import given, note

from hypothesis import strategies as st

from tests.test_differential import (
    CURRENT,
    DIFFERENTIAL,
    EACH_OTHER_RULE_SET,
    OTHER_BASES,
    describe,
    harness_for,
    legal_runs,
)
from zoneproof.encode.backend import SymbolicBackend
from zoneproof.encode.system import TransitionSystem
from zoneproof.evaluate import ConcreteBackend, evaluate
from zoneproof.interpreter import sees
from zoneproof.properties import PropertyKind, parse_properties, stock_properties

# Besides the stock properties, one that compares references where there may be none: two objects
# that target nothing target the same (no) object, in both evaluations.
NONE_EQUAL = """property none-references-equal {
  cites 115.1, 406.3
  means "two objects with the same target and the same looker, none counting as one value"
  always exists c: object, d: object. c != d and target(c) == target(d) and looker(c) == looker(d)
}
"""
PROPERTIES = stock_properties() + parse_properties(NONE_EQUAL, "none-references-equal.zp")


def variable_and_value(equality):
    left, right = equality.arg(0), equality.arg(1)
    is_value = lambda x: z3.is_bv_value(x) or z3.is_true(x) or z3.is_false(x)  # noqa: E731
    return (right, left) if is_value(left) else (left, right)


@cache
def encoding_of(base):
    """The variables of the differential tests' encoding of `base` (no transition relation)."""
    return TransitionSystem(base, harness_for(base).scope)


@cache
def symbolic(prop_index: int, t: int, base=CURRENT):
    """A property over the variables of step t of the cached encoding: the same for every run."""
    e = encoding_of(base)
    return evaluate(PROPERTIES[prop_index], SymbolicBackend(e, t), e.slots, e.players)


def pairs(equalities) -> list:
    return [variable_and_value(eq) for eq in equalities]


def static_values(e, removed, types) -> list:
    """(variable, value) pairs fixing a run's card types and its rules in force."""
    rules = [(literal, z3.BoolVal(rule_id not in removed, e.ctx)) for rule_id, literal in e.rule_literal.items()]
    return pairs(e.types_are(types)) + rules


def interpreting(e, values) -> z3.ModelRef:
    """A model that gives each of the (variable, value) pairs' variables its value, and no other
    variable any: evaluated in it, an expression that reads another variable keeps it."""
    model = z3.Model(e.ctx)
    for var, value in values:
        model.update_value(var, value)
    return model


@cache
def symbolic_views(t: int, base=CURRENT):
    """One bit per (player, slot), first player first: sees(player, slot) over the variables of
    state t of the cached encoding (one expression, so that one evaluation gives them all)."""
    e = encoding_of(base)
    one, zero = z3.BitVecVal(1, 1, e.ctx), z3.BitVecVal(0, 1, e.ctx)
    bits = [z3.If(e.sees(t, p, c), one, zero) for p in range(e.players) for c in range(len(e.slots))]
    return z3.Concat(bits) if len(bits) > 1 else bits[0]


@DIFFERENTIAL
@given(legal_runs())
def test_both_evaluations_of_every_stock_property_and_of_sees_agree(run):
    """Under mtg-current (the London mulligan)."""
    both_evaluations_agree(CURRENT, run)


@pytest.mark.parametrize("base", OTHER_BASES, ids=lambda r: r.name)
@EACH_OTHER_RULE_SET
@given(st.data())
def test_both_evaluations_agree_under_the_other_bases(base, data):
    """Under mtg-2010, the 2015 rule sets and berserk."""
    both_evaluations_agree(base, data.draw(legal_runs(base=base), label="run"))


def both_evaluations_agree(base, run) -> None:
    removed, types, states, actions = run
    note(describe(removed, types, actions))
    e = encoding_of(base)
    ruleset = base.without(list(removed))
    # every variable a property reads is fixed to the run's value: evaluate in a model of the run
    static = static_values(e, removed, types)
    at = [pairs(e.state_is(t, state)) for t, state in enumerate(states)]
    steps = pairs(f for t, action in enumerate(actions) for f in e.action_is(t, action))
    run = interpreting(e, static + [pair for state in at for pair in state] + steps)
    for index, prop in enumerate(PROPERTIES):
        for t in range(len(states)):
            if prop.kind is PropertyKind.ALWAYS:
                concrete = ConcreteBackend(e.slots, types, states[t], ruleset=ruleset, hand=e.hand)
            elif t < len(actions):
                concrete = ConcreteBackend(e.slots, types, states[t], actions[t], states[t + 1], ruleset, e.hand)
            else:
                continue
            expected = evaluate(prop, concrete, e.slots, e.players)
            value = run.eval(symbolic(index, t, base))
            assert z3.is_true(value) or z3.is_false(value), f"{prop.id} at step {t} reads a variable the run does not fix"
            actual = z3.is_true(value)
            assert actual == expected, f"{prop.id} at step {t}: the interpreter says {expected}, the encoder {actual}"
    # who may see each face: sees(p, c) for every player and object in every state of the run; it
    # reads state t, the step that led to it (the action and the state it acted on: what it showed)
    # and the rules only, so only their values are in the model
    for t, state in enumerate(states):
        shown_by = pairs(e.action_is(t - 1, actions[t - 1])) + at[t - 1] if t else []
        value = interpreting(e, static + at[t] + shown_by).eval(symbolic_views(t, base))
        assert z3.is_bv_value(value), f"sees at step {t} reads a variable the run does not fix"
        seen = format(value.as_long(), f"0{e.players * len(e.slots)}b")
        for p in range(e.players):
            for c, slot in enumerate(e.slots):
                expected = sees(ruleset, state, p, c)
                actual = seen[p * len(e.slots) + c] == "1"
                assert actual == expected, f"step {t}: may {'ABCD'[p]} see {slot.name}? the interpreter says {expected}, the encoder {actual}"


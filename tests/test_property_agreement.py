"""The interpreter's and the encoder's evaluations of every stock property agree.

On the states and steps of random legal interpreter runs (see test_differential), each stock
property is evaluated concretely by the interpreter's backend and symbolically by the encoder's,
with every variable replaced by the run's value; the simplified symbolic value must equal the
concrete one.
"""

from functools import cache

import z3
from hypothesis import given, note

from hypothesis import strategies as st

from tests.test_differential import (
    CURRENT,
    DIFFERENTIAL,
    PREGAME_BASES,
    describe,
    encoding,
    legal_runs,
)
from zoneproof.encoder import SymbolicBackend
from zoneproof.evaluate import ConcreteBackend, evaluate
from zoneproof.properties import PropertyKind, stock_properties

PROPERTIES = stock_properties()


def variable_and_value(equality):
    left, right = equality.arg(0), equality.arg(1)
    is_value = lambda x: z3.is_bv_value(x) or z3.is_true(x) or z3.is_false(x)  # noqa: E731
    return (right, left) if is_value(left) else (left, right)


@cache
def symbolic(depth: int, prop_index: int, t: int, base=CURRENT):
    """A property over the variables of step t of the cached encoding: the same for every run."""
    e = encoding(depth, base)[0]
    return evaluate(PROPERTIES[prop_index], SymbolicBackend(e, t), e.slots, e.players)


@DIFFERENTIAL
@given(st.sampled_from([CURRENT, *PREGAME_BASES]).flatmap(lambda base: st.tuples(st.just(base), legal_runs(base=base))))
def test_both_evaluations_of_every_stock_property_agree(based_run):
    """Under mtg-current (the London mulligan) and the 2015 pregames (Vancouver, Commander)."""
    base, (removed, types, states, actions) = based_run
    note(f"rule set: {base.name}\n" + describe(removed, types, actions))
    e = encoding(len(actions), base)[0]
    fixed = e.types_are(types)
    for t, state in enumerate(states):
        fixed += e.state_is(t, state)
    for t, action in enumerate(actions):
        fixed += e.action_is(t, action)
    # every variable a property reads is fixed to the run's value: substitute and simplify
    values = [variable_and_value(eq) for eq in fixed]
    for index, prop in enumerate(PROPERTIES):
        for t in range(len(states)):
            if prop.kind is PropertyKind.ALWAYS:
                concrete = ConcreteBackend(e.slots, types, states[t], hand=e.hand)
            elif t < len(actions):
                concrete = ConcreteBackend(e.slots, types, states[t], actions[t], states[t + 1], e.hand)
            else:
                continue
            expected = evaluate(prop, concrete, e.slots, e.players)
            value = z3.simplify(z3.substitute(symbolic(len(actions), index, t, base), *values))
            assert z3.is_true(value) or z3.is_false(value), f"{prop.id} at step {t} reads a variable the run does not fix"
            actual = z3.is_true(value)
            assert actual == expected, f"{prop.id} at step {t}: the interpreter says {expected}, the encoder {actual}"

"""The interpreter's and the encoder's evaluations of every stock property agree.

On the states and steps of random legal interpreter runs (see test_differential), each stock
property is evaluated concretely by the interpreter's backend and symbolically by the encoder's,
with every variable fixed to the run's values; the symbolic value in that (unique) model must
equal the concrete one.
"""

import z3
from hypothesis import given, note

from tests.test_differential import (
    CURRENT,
    DIFFERENTIAL,
    describe,
    encoding,
    fix_action,
    fix_state,
    fix_types,
    legal_runs,
    rule_values,
)
from zoneproof.encoder import SymbolicBackend
from zoneproof.evaluate import ConcreteBackend, evaluate
from zoneproof.properties import PropertyKind, stock_properties

PROPERTIES = stock_properties()


@DIFFERENTIAL
@given(legal_runs())
def test_both_evaluations_of_every_stock_property_agree(run):
    removed, types, states, actions = run
    note(describe(removed, types, actions))
    e, facts = encoding(len(actions))
    solver = z3.Solver(ctx=e.ctx)
    solver.add(list(facts) + rule_values(e, CURRENT.without(list(removed))) + fix_types(e, types))
    for t, state in enumerate(states):
        solver.add(fix_state(e, t, state))
    for t, action in enumerate(actions):
        solver.add(fix_action(e, t, action))
    assert solver.check() == z3.sat
    model = solver.model()  # every variable the properties read is fixed, so this model is the run
    for prop in PROPERTIES:
        for t in range(len(states)):
            if prop.kind is PropertyKind.ALWAYS:
                concrete = ConcreteBackend(e.slots, types, states[t])
            elif t < len(actions):
                concrete = ConcreteBackend(e.slots, types, states[t], actions[t], states[t + 1])
            else:
                continue
            expected = evaluate(prop, concrete, e.slots, e.players)
            symbolic = evaluate(prop, SymbolicBackend(e, t), e.slots, e.players)
            actual = z3.is_true(model.eval(symbolic, model_completion=True))
            assert actual == expected, f"{prop.id} at step {t}: the interpreter says {expected}, the encoder {actual}"

"""The fast connectives build the very terms z3py builds (same term, same id), so a check's queries,
and so its counterexamples, do not depend on which of the two built them."""

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from zoneproof import terms

CTX = z3.Context()
BOOLS = [z3.Bool(f"p{i}", CTX) for i in range(4)]
BITS = [z3.BitVec(f"b{i}", 4, CTX) for i in range(3)] + [z3.BitVecVal(3, 4, CTX)]

bool_terms = st.recursive(
    st.sampled_from(BOOLS),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: ("and", xs)),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: ("or", xs)),
        inner.map(lambda x: ("not", x)),
        st.tuples(inner, inner).map(lambda xy: ("implies", xy)),
        st.tuples(inner, inner).map(lambda xy: ("xor", xy)),
        st.tuples(inner, inner, inner).map(lambda xyz: ("ite", xyz)),
        st.tuples(inner, st.sampled_from(BITS), st.sampled_from(BITS)).map(lambda xyz: ("bv-ite", xyz)),
        st.tuples(st.sampled_from(BITS), st.sampled_from(BITS)).map(lambda xy: ("eq", xy)),
        st.tuples(inner, inner).map(lambda xy: ("eq", xy)),
    ),
    max_leaves=8,
)


def build(tree, lib):
    """The term for `tree` built with `lib` (terms or z3)."""
    if isinstance(tree, z3.ExprRef):
        return tree
    op, args = tree
    if op == "and":
        return lib.And([build(a, lib) for a in args])
    if op == "or":
        return lib.Or(*[build(a, lib) for a in args])
    if op == "not":
        return lib.Not(build(args, lib))
    if op == "implies":
        return lib.Implies(build(args[0], lib), build(args[1], lib))
    if op == "xor":
        return lib.Xor(build(args[0], lib), build(args[1], lib))
    if op == "eq":
        x, y = build(args[0], lib), build(args[1], lib)
        return terms.Eq(x, y) if lib is terms else x == y
    if op == "ite":
        return lib.If(*[build(a, lib) for a in args])
    condition, x, y = args
    return lib.If(build(condition, lib), x, y) == x


@given(bool_terms)
def test_the_same_term_as_z3py(tree):
    fast, slow = build(tree, terms), build(tree, z3)
    assert fast.get_id() == slow.get_id()
    assert type(fast) is type(slow)


def test_python_values_go_to_z3py():
    p = BOOLS[0]
    assert terms.And(p, True).eq(z3.And(p, True))
    assert terms.Or([p, False]).eq(z3.Or(p, False))
    assert terms.If(p, BITS[0], 2).eq(z3.If(p, BITS[0], 2))
    assert terms.Eq(BITS[0], 3).eq(BITS[0] == 3)


def test_bit_vectors_of_two_widths_are_refused_as_z3py_refuses_them():
    wide = z3.BitVec("wide", 5, CTX)
    with pytest.raises(z3.Z3Exception):
        terms.Eq(BITS[0], wide)
    with pytest.raises(z3.Z3Exception):
        BITS[0] == wide  # noqa: B015

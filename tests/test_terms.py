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


def z3py_names(term) -> set[str]:
    """The variables of the term, as z3py's own traversal finds them."""
    if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return {term.decl().name()}
    return set().union(*(z3py_names(x) for x in term.children())) if z3.is_app(term) else set()


@given(st.lists(bool_terms, min_size=1, max_size=3))
def test_the_variables_z3py_finds(trees):
    built = [build(tree, z3) for tree in trees]
    assert terms.constant_names(built) == set().union(*map(z3py_names, built))
    memo: dict = {}
    assert set().union(*(terms.constant_names([b], memo) for b in built)) == set().union(*map(z3py_names, built))


@given(bool_terms, st.booleans())
def test_equated_variables_as_z3py_reads_the_term(tree, implied):
    term = build(tree, z3)
    term = z3.Implies(BOOLS[0], term) if implied else term
    body = term.arg(1) if z3.is_implies(term) else term
    if z3.is_true(body) or (z3.is_eq(body) and body.arg(0).eq(body.arg(1))):
        expected = ("", "")
    elif z3.is_eq(body) and all(z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED for x in body.children()):
        expected = (body.arg(0).decl().name(), body.arg(1).decl().name())
    else:
        expected = None
    assert terms.equated_variables(term) == expected


def test_the_walks_call_z3s_c_functions():
    assert all(type(f).__name__ == "_FuncPtr" for f in terms._QUERIES)

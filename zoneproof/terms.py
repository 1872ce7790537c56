"""The Boolean connectives and if-then-else over z3 terms, built through Z3's C API.

They build exactly the terms z3py's `And`, `Or`, `Not`, `Implies`, `Xor`, `If` and `==` build, without
the sort checks and coercions z3py makes on every call (several times the cost of the term itself,
and most of the cost of building an unrolling). Arguments that are not all z3 terms of the right
kind (a Python bool or int, a probe) go to z3py unchanged. `renamed` substitutes variables in many
terms with one pair of arrays (the unrolling's later steps are its step 1 renamed).
"""

from __future__ import annotations

from collections.abc import Iterable

import z3
from z3 import z3core


def _arguments(args: tuple) -> tuple | list:
    if len(args) == 1 and not isinstance(args[0], z3.ExprRef):
        return args[0] if isinstance(args[0], (list, tuple)) else list(args[0])
    return args


def _all_bool(args: Iterable) -> bool:
    return all(type(a) is z3.BoolRef for a in args)


def _nary(make, fallback, args: tuple) -> z3.BoolRef:
    args = _arguments(args)
    if not args or not _all_bool(args):
        return fallback(*args)
    ctx = args[0].ctx
    array = (z3core.Ast * len(args))(*[a.ast for a in args])
    return z3.BoolRef(make(ctx.ref(), len(args), array), ctx)


def And(*args) -> z3.BoolRef:
    return _nary(z3core.Z3_mk_and, z3.And, args)


def Or(*args) -> z3.BoolRef:
    return _nary(z3core.Z3_mk_or, z3.Or, args)


def Not(a) -> z3.BoolRef:
    if type(a) is not z3.BoolRef:
        return z3.Not(a)
    return z3.BoolRef(z3core.Z3_mk_not(a.ctx.ref(), a.ast), a.ctx)


def _binary(make, fallback, a, b) -> z3.BoolRef:
    if type(a) is not z3.BoolRef or type(b) is not z3.BoolRef:
        return fallback(a, b)
    return z3.BoolRef(make(a.ctx.ref(), a.ast, b.ast), a.ctx)


def Implies(a, b) -> z3.BoolRef:
    return _binary(z3core.Z3_mk_implies, z3.Implies, a, b)


def Xor(a, b) -> z3.BoolRef:
    return _binary(z3core.Z3_mk_xor, z3.Xor, a, b)


def Eq(a, b) -> z3.BoolRef:
    """`a == b` for two bit-vectors (Z3 refuses two widths, as z3py does) or two Booleans; other
    arguments go to z3py's `==`."""
    if (isinstance(a, z3.BitVecRef) and isinstance(b, z3.BitVecRef)) or (type(a) is z3.BoolRef and type(b) is z3.BoolRef):
        if type(b) is not type(a) and issubclass(type(b), type(a)):
            a, b = b, a  # Python asks the subclass's operand first: z3py's `a == 3` is the term `3 == a`
        return z3.BoolRef(z3core.Z3_mk_eq(a.ctx.ref(), a.ast, b.ast), a.ctx)
    return a == b


def If(condition, then, otherwise):
    """Bit-vector or Boolean if-then-else; both branches must have one sort (as for z3py, which
    raises otherwise)."""
    if type(condition) is not z3.BoolRef:
        return z3.If(condition, then, otherwise)
    if isinstance(then, z3.BitVecRef) and isinstance(otherwise, z3.BitVecRef):
        wrap = z3.BitVecRef
    elif type(then) is z3.BoolRef and type(otherwise) is z3.BoolRef:
        wrap = z3.BoolRef
    else:
        return z3.If(condition, then, otherwise)
    ctx = condition.ctx
    return wrap(z3core.Z3_mk_ite(ctx.ref(), condition.ast, then.ast, otherwise.ast), ctx)


class Renaming:
    """Each variable of `pairs` replaced by its partner (z3py's `substitute`), the two arrays the C
    API takes built once for every term renamed."""

    def __init__(self, pairs: list[tuple]):
        self.pairs = pairs  # the arrays hold bare pointers: the terms must live as long as they do
        self.count = len(pairs)
        self.sources = (z3core.Ast * self.count)(*[old.ast for old, _ in pairs])
        self.targets = (z3core.Ast * self.count)(*[new.ast for _, new in pairs])

    def __call__(self, terms: list) -> list:
        if not terms or not self.count:
            return list(terms)
        ctx = terms[0].ctx
        return [z3.BoolRef(z3core.Z3_substitute(ctx.ref(), term.ast, self.count, self.sources, self.targets), ctx) for term in terms]


def _unchecked(wrapper):
    """The C function a z3core wrapper calls, without the wrapper's look at the error code after the
    call (the wrapper itself where z3py does not keep it as its default argument)."""
    kept = (wrapper.__defaults__ or (None,))[-1]
    return getattr(kept, "f", wrapper)


# What the walks of terms (constant_names, equated_variables) ask: questions about terms that exist, which cannot fail.
_QUERIES = tuple(_unchecked(f) for f in (z3core.Z3_get_ast_id, z3core.Z3_get_ast_kind, z3core.Z3_get_app_num_args, z3core.Z3_get_app_arg,
                                          z3core.Z3_get_app_decl, z3core.Z3_get_decl_kind, z3core.Z3_get_decl_name, z3core.Z3_get_symbol_string_bytes))


def equated_variables(term: z3.BoolRef) -> tuple[str, str] | None:
    """The names of x and y where the term is `x == y` for two variables, or `c -> x == y`; ("", "")
    where it is `true`, `x == x` for any x, or either under an implication; None otherwise. Asked
    through the C API, as `constant_names` asks."""
    ast_id, ast_kind, num_args, arg, app_decl, decl_kind, _, _ = _QUERIES
    ctx, ast = term.ctx.ref(), term.as_ast()

    def kind(x) -> int | None:
        return decl_kind(ctx, app_decl(ctx, x)) if ast_kind(ctx, x) == z3.Z3_APP_AST else None

    if kind(ast) == z3.Z3_OP_IMPLIES:
        ast = arg(ctx, ast, 1)
    if kind(ast) == z3.Z3_OP_TRUE:
        return "", ""
    if kind(ast) != z3.Z3_OP_EQ:
        return None
    left, right = arg(ctx, ast, 0), arg(ctx, ast, 1)
    if ast_id(ctx, left) == ast_id(ctx, right):
        return "", ""
    names = tuple(_uninterpreted_name(ctx, x) if ast_kind(ctx, x) == z3.Z3_APP_AST and not num_args(ctx, x) else None for x in (left, right))
    return None if None in names else names


def _uninterpreted_name(ctx, ast) -> str | None:
    """The name of the function an application applies where it is uninterpreted (for an
    application of no arguments, a variable); None for any other function."""
    _, _, _, _, app_decl, decl_kind, decl_name, symbol = _QUERIES
    decl = app_decl(ctx, ast)
    return symbol(ctx, decl_name(ctx, decl)).decode() if decl_kind(ctx, decl) == z3.Z3_OP_UNINTERPRETED else None


def constant_names(terms: Iterable, memo: dict | None = None) -> set[str]:
    """The names of the variables (uninterpreted constants) that occur in the terms, walked through
    the C API: several times faster than z3py's `children()`, which wraps every subterm it meets.
    `memo` (by AST id: the names under it) may be shared by calls on terms of one context that
    share subterms, each of which is then walked once. It holds on to the terms walked: an id is an
    AST's only while the AST lives, and Z3 gives a freed one's id to the next AST it makes."""
    terms = list(terms)
    if not terms:
        return set()
    ctx = terms[0].ctx.ref()
    memo = {} if memo is None else memo
    memo.setdefault("walked", []).extend(terms)
    ast_id, ast_kind, num_args, arg = _QUERIES[:4]
    names: set[str] = set()
    for term in terms:
        root = term.as_ast()
        pending = [(root, False)]
        while pending:
            ast, children_done = pending.pop()
            key = ast_id(ctx, ast)
            if key in memo:
                continue
            if ast_kind(ctx, ast) != z3.Z3_APP_AST:
                memo[key] = frozenset()
                continue
            args = [arg(ctx, ast, i) for i in range(num_args(ctx, ast))]
            if not args:
                name = _uninterpreted_name(ctx, ast)
                memo[key] = frozenset(() if name is None else [name])
            elif children_done:
                memo[key] = frozenset().union(*(memo[ast_id(ctx, x)] for x in args))
            else:
                pending.append((ast, True))
                pending.extend((x, False) for x in args)
        names |= memo[ast_id(ctx, root)]
    return names


def occurs(literal: z3.BoolRef, term: z3.ExprRef) -> bool:
    """Whether the Boolean constant occurs in the term: Z3 rebuilds a term only where a
    substitution replaces something in it."""
    return not z3.substitute(term, (literal, z3.Not(literal))).eq(term)


def simplified(term: z3.ExprRef, variable: z3.ExprRef, value: z3.ExprRef) -> z3.ExprRef:
    """The term with the variable set to the value, as Z3 simplifies it."""
    return z3.simplify(z3.substitute(term, (variable, value)))

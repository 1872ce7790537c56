"""Property files: parse and type-check the property language into `Property` values.

The grammar lives in `property_grammar.lark`; this module turns Lark's parse tree into a small
typed AST (the node classes below), resolving every name and checking every type, so that a
backend (`evaluate.py`) never meets an ill-formed expression.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Union

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import InputError, Location, did_you_mean
from .model import PERSONAL_ZONES, ActionKind, CardType, Zone

MAX_INT = 10**6
MAX_NESTING = 100  # the evaluator and the encoder recurse on the AST


class PropertyKind(str, Enum):
    ALWAYS = "always"  # a predicate on one state
    STEP = "step"  # a predicate on (state, action, next state)


class Sort(str, Enum):
    """What a quantified variable ranges over."""

    OBJECT = "object"  # every slot
    CARD = "card"  # deck, sideboard and commander cards
    TOKEN = "token"  # token slots
    PLAYER = "player"

    @property
    def type(self) -> Type:
        return Type.PLAYER if self is Sort.PLAYER else Type.OBJECT


class Type(str, Enum):
    BOOL = "Bool"
    INT = "Int"
    OBJECT = "Object"
    PLAYER = "Player"
    ZONE = "Zone"
    CARD_TYPE = "CardType"
    ACTION_KIND = "ActionKind"

    @property
    def with_article(self) -> str:
        return f"an {self.value}" if self.value[0] in "AEIOU" else f"a {self.value}"


ConstValue = Union[Zone, CardType, ActionKind]
CONST_TYPES: dict[type, Type] = {Zone: Type.ZONE, CardType: Type.CARD_TYPE, ActionKind: Type.ACTION_KIND}

# One-argument functions of an object: name -> (result type, static). A static function never
# changes, so its primed form reads the same value and is stored unprimed.
FUNCTIONS: dict[str, tuple[Type, bool]] = {
    "zone": (Type.ZONE, False),
    "whose": (Type.PLAYER, False),
    "controller": (Type.PLAYER, False),
    "owner": (Type.PLAYER, True),
    "pos": (Type.INT, False),
    "gen": (Type.INT, False),
    "counters": (Type.INT, False),
    "face_down": (Type.BOOL, False),
    "tapped": (Type.BOOL, False),
    "attached": (Type.BOOL, False),
    "effect": (Type.BOOL, False),
    "type": (Type.CARD_TYPE, True),
    "is_token": (Type.BOOL, True),
    "revealed": (Type.BOOL, False),
    "is_commander": (Type.BOOL, True),
    "is_sideboard": (Type.BOOL, True),
    "casts": (Type.INT, False),  # a commander's casts from the command zone (903.8); 0 for other objects
    "looker": (Type.PLAYER, False),  # the player an instruction lets look at the card exiled face down (406.3); equal to no player where none
    "target": (Type.OBJECT, False),  # the object a spell targets (an object equal to none where it targets nothing)
    "target_lost": (Type.BOOL, False),  # the object it targets has become a new object since (400.7)
    "exiled_with": (Type.OBJECT, False),  # the permanent a card in exile was exiled with (406.6; equal to none where there is none)
    "link_lost": (Type.BOOL, False),  # that permanent has become a new object since (400.7), so its abilities no longer find the card (607)
    "returns_to": (Type.ZONE, False),  # the zone a card exiled until the permanent it was exiled with leaves the battlefield returns to (610.3); nowhere for any other
    "copy": (Type.BOOL, False),  # a token slot holds a copy of a spell (707.10)
}
# `sees(p, c)`: player p may see the face of object c (400.2, 402.3, 708.5, 708.9); it depends on
# the rules in force, so each backend asks the rule set. `shown(p, c)`: the step that led here
# showed object c to player p (the post-mulligan look), as `revealed(c)` says it revealed c to all.
SEES = "sees"
SHOWN = "shown"
# One-argument functions of a player (the pregame, 103.4/103.5): name -> (result type, static).
# In a rule set without a pregame every player stays as at the start: nothing drawn, no mulligan.
PLAYER_FUNCTIONS: dict[str, tuple[Type, bool]] = {
    "drawn": (Type.BOOL, False),  # has drawn an opening hand
    "mulligans": (Type.INT, False),  # mulligans taken that count toward the hand size
    "free_mulligan": (Type.BOOL, False),  # has taken the free first mulligan of a multiplayer game
    "kept": (Type.BOOL, False),  # has kept an opening hand
    "owed": (Type.INT, False),  # cards still to put on the bottom after a London mulligan
    "looked": (Type.BOOL, False),  # has taken the post-mulligan look
    "may_look": (Type.BOOL, False),  # may still take the post-mulligan look (depends on the rules in force)
    "started": (Type.BOOL, False),  # the game has started: an ordinary action ended the pregame (the same for every player)
    "starting_hand": (Type.INT, True),  # the starting hand size (the scope's --hand)
    "searched": (Type.BOOL, False),  # has looked through their library, not shuffled since (Berserk 204.3)
    "exile_instead": (Type.BOOL, False),  # an effect exiles what would be put into their graveyard from anywhere (614.1a)
    "exile_if_dies": (Type.BOOL, False),  # an effect exiles a creature that would die and go to their graveyard (614.1a)
    "team": (Type.INT, True),  # the player's team, numbered in turn order (--team-size); without teams, each player's own
}
ACTION_FIELDS: dict[str, Type] = {
    "kind": Type.ACTION_KIND,
    "card": Type.OBJECT,
    "player": Type.PLAYER,
    "n": Type.INT,
    "zone": Type.ZONE,
}
KEYWORDS = frozenset({"property", "cites", "means", "always", "step", "forall", "exists", "not", "and", "or", "in"})
BOOL_NAMES = {"true": True, "false": False}


def _constants() -> dict[str, tuple[ConstValue, ...]]:
    """Every constant name with its meanings. Only `exile` has two (a zone and an action kind);
    the type expected where it is used picks one."""
    table: dict[str, tuple[ConstValue, ...]] = {}
    for enum in (Zone, CardType, ActionKind):
        for member in enum:
            table[member.value] = table.get(member.value, ()) + (member,)
    return table


CONSTANTS = _constants()


# --- the AST ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, compare=False, repr=False, kw_only=True)
    column: int = field(default=0, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class Const(Node):
    value: ConstValue

    @property
    def type(self) -> Type:
        return CONST_TYPES[type(self.value)]


@dataclass(frozen=True)
class Var(Node):
    """A quantified variable used as a value (an object or a player)."""

    name: str
    sort: Sort


@dataclass(frozen=True)
class Apply(Node):
    """`fn(var_name)`, or `fn'(var_name)` (the next state) when primed."""

    fn: str
    var_name: str
    primed: bool


@dataclass(frozen=True)
class Size(Node):
    """`size(zone)` or `size(zone, p)`; the player is given only for library, hand, graveyard."""

    zone: Zone
    player_var: str | None
    primed: bool


@dataclass(frozen=True)
class Sees(Node):
    """`sees(p, c)`, or `sees'(p, c)` in the next state: player p may see the face of object c."""

    player_var: str
    object_var: str
    primed: bool


@dataclass(frozen=True)
class Shown(Node):
    """`shown(p, c)`, or `shown'(p, c)` in the next state: the step that led to the state showed
    object c to player p."""

    player_var: str
    object_var: str
    primed: bool


@dataclass(frozen=True)
class ActionField(Node):
    name: str  # kind, card, player, n, zone


@dataclass(frozen=True)
class Not(Node):
    operand: Expr


BOOL_OPS = ("<->", "->", "or", "and")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
ARITHMETIC = ("+", "-")


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # one of BOOL_OPS, COMPARISONS, ARITHMETIC
    left: Expr
    right: Expr


@dataclass(frozen=True)
class In(Node):
    """`expr in {a, b}`: the items are literals (Const, IntLit, BoolLit) of the expression's type."""

    expr: Expr
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Quant(Node):
    kind: str  # "forall" or "exists"
    binders: tuple[tuple[str, Sort], ...]
    body: Expr


Expr = Union[BoolLit, IntLit, Const, Var, Apply, Size, ActionField, Not, BinOp, In, Quant, Sees, Shown]


@dataclass(frozen=True)
class Property:
    id: str
    cites: tuple[str, ...]
    meaning: str
    kind: PropertyKind
    expr: Expr
    location: Location
    text: str = field(default="", repr=False, compare=False)  # the property's source, carried into traces


# --- public entry points ---------------------------------------------------------------------


def parse_properties(text: str, path: str) -> tuple[Property, ...]:
    """Parse and type-check a property file; raise InputError on the first problem."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, path) from None
    except (LarkError, RecursionError):
        raise InputError("cannot parse the property file", Location(path, 1, 1)) from None
    try:
        return _build_file(tree, path, text)
    except RecursionError:  # MAX_NESTING should prevent it; never let it out
        raise InputError(f"expression nested too deeply (more than {MAX_NESTING} levels)", Location(path, 1, 1))


def load_properties(path: str | Path) -> tuple[Property, ...]:
    return parse_properties(_read_text(Path(path), str(path)), str(path))


STOCK_FILE = "stock.zp"  # how the stock properties' locations name their file


def stock_file():
    """The file of the stock properties (a path, or a resource of the installed package)."""
    try:
        return resources.files("zoneproof.builtin_properties") / STOCK_FILE
    except ModuleNotFoundError:  # running from a source tree that is not installed
        return Path(__file__).resolve().parent.parent / "properties" / STOCK_FILE


@functools.cache
def stock_properties() -> tuple[Property, ...]:
    """The properties shipped with zoneproof (`properties/stock.zp`)."""
    return parse_properties(_read_text(stock_file(), STOCK_FILE), STOCK_FILE)


def _read_text(source, shown_as: str) -> str:
    try:
        data = source.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read the property file: {error.strerror or error}", Location(shown_as)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        message = f"not UTF-8 text: byte 0x{data[error.start]:02x} cannot be decoded"
        raise InputError(message, Location(shown_as, line, column)) from None


@functools.cache
def _parser() -> Lark:
    grammar = resources.files("zoneproof").joinpath("property_grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True)


# --- syntax errors ---------------------------------------------------------------------------

EXPRESSION_START = frozenset({"NAME", "PRIMED_NAME", "INT", "LPAR", "NOT", "FORALL", "EXISTS"})
OPERATOR_TERMINALS = frozenset({"AND", "OR", "IMPLIES", "IFF", "COMPARE", "ADD_OP", "_IN"})
TERMINAL_WORDS = {
    "_PROPERTY": "'property'",
    "PROPERTY_ID": "a property id such as owner-zones",
    "_CITES": "'cites'",
    "_MEANS": "'means'",
    "ALWAYS": "'always'",
    "STEP": "'step'",
    "RULE_NUMBER": "a rule number such as 400.7a",
    "STRING": "a quoted string",
    "NAME": "a name",
    "INT": "a number",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "DOT": "'.'",
    "COLON": "':'",
    "FORALL": "'forall'",
    "EXISTS": "'exists'",
    "NOT": "'not'",
    "$END": "end of file",
}


def _syntax_error(error: UnexpectedInput, text: str, path: str) -> InputError:
    if isinstance(error, UnexpectedCharacters):
        where = Location(path, error.line, error.column)
        if error.char == '"':
            return InputError("unterminated string: a string ends with '\"' on the line it starts", where)
        found = f"'{error.char}'" if error.char.isprintable() else f"character U+{ord(error.char):04X}"
        return InputError(f"unexpected {found}{_expected(_accepted(error, error.allowed))}", where)
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":  # Lark places it on the last token; point just after that token
            found = "end of file"
            where = Location(path, token.end_line or token.line, token.end_column or token.column)
        else:
            found = _describe(token)
            where = Location(path, token.line, token.column)
        return InputError(f"unexpected {found}{_expected(_accepted(error, error.expected))}", where)
    if isinstance(error, UnexpectedEOF):
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        return InputError(f"unexpected end of file{_expected(error.expected)}", Location(path, line, column))
    return InputError("cannot parse the property file", Location(path, error.line, error.column))


def _accepted(error: UnexpectedInput, fallback) -> set[str]:
    """The terminals the parser would really take here (Lark's own list may be too wide)."""
    try:
        return set(error.interactive_parser.accepts())
    except Exception:  # only a better message is lost
        return set(fallback or ())


def _describe(token: Token) -> str:
    if token.type == "STRING":
        return "a string"
    text = token.value if len(token.value) <= 30 else token.value[:27] + "..."
    return f"'{text}'"


def _expected(terminals) -> str:
    names = set(terminals)
    words: list[str] = []
    if {"NAME", "INT"} <= names:
        words.append("an expression")
        names -= EXPRESSION_START
    if names & OPERATOR_TERMINALS:
        words.append("an operator")
        # After an operand, '(' '.' and further clauses are possible too, but rarely meant.
        names -= OPERATOR_TERMINALS | {"LPAR", "DOT", "_CITES", "_MEANS", "ALWAYS", "STEP"}
    words += sorted(TERMINAL_WORDS.get(name, name) for name in names)
    if not words:
        return ""
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f" — expected {listed}"


# --- building properties ---------------------------------------------------------------------


def _at(path: str, item: Tree | Token) -> Location:
    if isinstance(item, Token):
        return Location(path, item.line, item.column)
    return Location(path, getattr(item.meta, "line", 1), getattr(item.meta, "column", 1))


def _build_file(tree: Tree, path: str, text: str) -> tuple[Property, ...]:
    if not tree.children:
        raise InputError("no property in file", Location(path, 1, 1))
    properties: list[Property] = []
    seen: dict[str, Property] = {}
    for prop_tree in tree.children:
        prop = _build_property(prop_tree, path, text)
        if prop.id in seen:
            first = seen[prop.id].location.line
            message = f"duplicate property '{prop.id}' (first defined at line {first})"
            raise InputError(message, _at(path, prop_tree.children[0]))
        seen[prop.id] = prop
        properties.append(prop)
    return tuple(properties)


def _build_property(tree: Tree, path: str, text: str) -> Property:
    id_token, *clauses = tree.children
    found: dict[str, Tree] = {}
    for clause in clauses:
        if clause.data in found:
            what = "a body ('always' or 'step')" if clause.data == "body" else f"'{clause.data}'"
            first = found[clause.data].meta.line
            raise InputError(f"property '{id_token}' has {what} twice (first at line {first})", _at(path, clause))
        found[clause.data] = clause
    for needed, what in (("cites", "'cites' line"), ("means", "'means' line"), ("body", "body ('always' or 'step')")):
        if needed not in found:
            raise InputError(f"property '{id_token}' has no {what}", _at(path, tree))
    meaning = found["means"].children[0].value[1:-1]
    if not meaning.strip():
        raise InputError(f"property '{id_token}' has an empty meaning", _at(path, found["means"]))
    kind_token, body = found["body"].children
    kind = PropertyKind(kind_token.value)
    _check_nesting(body, path)
    expr = _Checker(path, kind).expect(body, {}, Type.BOOL, f"the body of property '{id_token}'")
    return Property(
        id=str(id_token),
        cites=tuple(str(token) for token in found["cites"].children),
        meaning=meaning,
        kind=kind,
        expr=expr,
        location=_at(path, tree),
        text=text[tree.meta.start_pos : tree.meta.end_pos],
    )


def _check_nesting(body: Tree, path: str) -> None:
    """Reject absurdly deep expressions before anything recurses on them."""
    stack = [(body, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise InputError(f"expression nested too deeply (more than {MAX_NESTING} levels)", _at(path, node))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


Scope = dict[str, Sort]  # the quantified variables in force


class _Checker:
    """Resolves names and checks types of one property body, building the AST as it goes."""

    def __init__(self, path: str, kind: PropertyKind):
        self.path = path
        self.kind = kind

    def error(self, message: str, item: Tree | Token) -> InputError:
        return InputError(message, _at(self.path, item))

    def position(self, item: Tree | Token) -> dict[str, int]:
        where = _at(self.path, item)
        return {"line": where.line or 0, "column": where.column or 0}

    def expect(self, tree: Tree, scope: Scope, wanted: Type, what: str) -> Expr:
        node, found = self.infer(tree, scope, hint=wanted)
        if found is not wanted:
            raise self.error(f"{what} must be {wanted.with_article}, got {found.with_article}", tree)
        return node

    def infer(self, tree: Tree, scope: Scope, hint: Type | None = None, in_equality: bool = False) -> tuple[Expr, Type]:
        """The node for `tree` and its type. `hint` picks among the meanings of a constant name;
        `in_equality` is set for the operands of == and !=, the only place action.card and
        action.player may stand."""
        match tree.data:
            case "binop":
                return self.binop(tree, scope)
            case "negation":
                operand = self.expect(tree.children[1], scope, Type.BOOL, "the operand of 'not'")
                return Not(operand, **self.position(tree)), Type.BOOL
            case "member":
                return self.member(tree, scope)
            case "quantified":
                return self.quantified(tree, scope)
            case "int_literal":
                return self.int_literal(tree.children[0]), Type.INT
            case "name":
                return self.name(tree.children[0], scope, hint)
            case "apply":
                return self.apply(tree, scope)
            case "field":
                return self.action_field(tree, in_equality)
        raise self.error(f"unexpected construct '{tree.data}'", tree)  # the grammar makes no others

    def binop(self, tree: Tree, scope: Scope) -> tuple[Expr, Type]:
        left_tree, op_token, right_tree = tree.children
        op = str(op_token)
        where = self.position(tree)
        if op in BOOL_OPS:
            left = self.expect(left_tree, scope, Type.BOOL, f"each side of '{op}'")
            right = self.expect(right_tree, scope, Type.BOOL, f"each side of '{op}'")
            return BinOp(op, left, right, **where), Type.BOOL
        if op in ("==", "!="):
            # Infer the side that is not a bare name first, so that it can tell the name's type.
            if _is_bare_name(left_tree) and not _is_bare_name(right_tree):
                right, right_type = self.infer(right_tree, scope, in_equality=True)
                left, left_type = self.infer(left_tree, scope, hint=right_type, in_equality=True)
            else:
                left, left_type = self.infer(left_tree, scope, in_equality=True)
                right, right_type = self.infer(right_tree, scope, hint=left_type, in_equality=True)
            if left_type is not right_type:
                raise self.error(f"'{op}' compares {left_type.with_article} with {right_type.with_article}", op_token)
            return BinOp(op, left, right, **where), Type.BOOL
        left = self.expect(left_tree, scope, Type.INT, f"each side of '{op}'")
        right = self.expect(right_tree, scope, Type.INT, f"each side of '{op}'")
        return BinOp(op, left, right, **where), Type.BOOL if op in COMPARISONS else Type.INT

    def member(self, tree: Tree, scope: Scope) -> tuple[Expr, Type]:
        left_tree, *item_trees = tree.children
        expr, expr_type = self.infer(left_tree, scope)
        items: list[Expr] = []
        for item_tree in item_trees:
            token = item_tree.children[0]
            if item_tree.data == "name" and token.value in scope:
                raise self.error(f"the elements of 'in' must be constants; '{token}' is a variable", token)
            item, item_type = self.infer(item_tree, scope, hint=expr_type)
            if item_type is not expr_type:
                left = expr_type.with_article
                raise self.error(f"'{token}' is {item_type.with_article}, but the left side of 'in' is {left}", token)
            items.append(item)
        return In(expr, tuple(items), **self.position(tree)), Type.BOOL

    def quantified(self, tree: Tree, scope: Scope) -> tuple[Expr, Type]:
        quantifier, *binder_trees, body_tree = tree.children
        inner = dict(scope)
        binders: list[tuple[str, Sort]] = []
        for binder in binder_trees:
            name_token, sort_token = binder.children
            name = str(name_token)
            self.check_variable_name(name_token, inner)
            if sort_token.value not in Sort._value2member_map_:
                sorts = [s.value for s in Sort]
                message = f"unknown sort '{sort_token}'{did_you_mean(sort_token.value, sorts)}"
                raise self.error(f"{message}; the sorts are {', '.join(sorts)}", sort_token)
            inner[name] = Sort(sort_token.value)
            binders.append((name, inner[name]))
        body = self.expect(body_tree, inner, Type.BOOL, f"the body of '{quantifier}'")
        return Quant(str(quantifier), tuple(binders), body, **self.position(tree)), Type.BOOL

    def check_variable_name(self, token: Token, scope: Scope) -> None:
        name = str(token)
        if name in KEYWORDS:
            raise self.error(f"'{name}' is a keyword and cannot name a variable", token)
        if name in scope:
            raise self.error(f"variable '{name}' is already bound; choose another name", token)
        if name in CONSTANTS or name in BOOL_NAMES:
            raise self.error(f"'{name}' is a constant; choose another variable name", token)
        if name in FUNCTIONS or name in PLAYER_FUNCTIONS or name in ("size", "action", SEES, SHOWN):
            raise self.error(f"'{name}' is a built-in name; choose another variable name", token)

    def int_literal(self, token: Token) -> IntLit:
        digits = str(token)
        if len(digits) > len(str(MAX_INT)) or int(digits) > MAX_INT:
            shown = digits if len(digits) <= 12 else digits[:9] + "..."
            raise self.error(f"number {shown} is too large (at most {MAX_INT})", token)
        return IntLit(int(digits), **self.position(token))

    def name(self, token: Token, scope: Scope, hint: Type | None) -> tuple[Expr, Type]:
        name = str(token)
        where = self.position(token)
        if name in KEYWORDS:
            raise self.error(f"'{name}' is a keyword and cannot be used as a name", token)
        if name in scope:
            return Var(name, scope[name], **where), scope[name].type
        if name in BOOL_NAMES:
            return BoolLit(BOOL_NAMES[name], **where), Type.BOOL
        if name in CONSTANTS:
            meanings = CONSTANTS[name]
            if len(meanings) > 1:
                if hint is None:
                    kinds = " and ".join(CONST_TYPES[type(m)].with_article for m in meanings)
                    advice = f"compare it with something of the type you mean, e.g. zone(c) == {name}"
                    raise self.error(f"'{name}' is both {kinds}; {advice}", token)
                # Where no meaning fits, any will do: the caller reports the type mismatch.
                meanings = tuple(m for m in meanings if CONST_TYPES[type(m)] is hint) or meanings
            const = Const(meanings[0], **where)
            return const, const.type
        if name in FUNCTIONS or name in PLAYER_FUNCTIONS or name in ("size", SEES, SHOWN):
            raise self.error(f"'{name}' is a function; write {name}(...)", token)
        if name == "action":
            raise self.error(f"'action' needs a field: {', '.join('action.' + f for f in ACTION_FIELDS)}", token)
        known = [*scope, *BOOL_NAMES, *CONSTANTS]
        raise self.error(f"unknown name '{name}'{did_you_mean(name, known)}", token)

    def apply(self, tree: Tree, scope: Scope) -> tuple[Expr, Type]:
        fn_token, arguments = tree.children
        fn = fn_token.value.rstrip("'")
        primed = fn_token.value.endswith("'")
        args = arguments.children if arguments is not None else []
        if fn not in ("size", SEES, SHOWN) and fn not in FUNCTIONS and fn not in PLAYER_FUNCTIONS:
            raise self.error(f"unknown function '{fn}'{did_you_mean(fn, [*FUNCTIONS, *PLAYER_FUNCTIONS, 'size', SEES, SHOWN])}", fn_token)
        if primed and self.kind is PropertyKind.ALWAYS:
            raise self.error(f"{fn}'(...) reads the next state; only a step property can use it", fn_token)
        if fn == "size":
            return self.size(tree, fn_token, args, scope, primed)
        if fn in (SEES, SHOWN):
            return self.player_and_object(fn, tree, fn_token, args, scope, primed)
        if len(args) != 1:
            raise self.error(f"{fn}() takes 1 argument, got {len(args)}", fn_token)
        var = self.variable(args[0], scope, f"the argument of {fn}()")
        if fn in PLAYER_FUNCTIONS:
            if var.sort is not Sort.PLAYER:
                raise self.error(f"{fn}() takes a player, but '{var.name}' is an object", args[0])
            result, static = PLAYER_FUNCTIONS[fn]
            return Apply(fn, var.name, primed and not static, **self.position(tree)), result
        if var.sort is Sort.PLAYER:
            raise self.error(f"{fn}() takes an object, but '{var.name}' is a player", args[0])
        result, static = FUNCTIONS[fn]
        return Apply(fn, var.name, primed and not static, **self.position(tree)), result

    def size(self, tree: Tree, fn_token: Token, args: list[Tree], scope: Scope, primed: bool) -> tuple[Expr, Type]:
        if len(args) not in (1, 2):
            raise self.error(f"size() takes a zone and optionally a player, got {len(args)} arguments", fn_token)
        zone_node = self.infer(args[0], scope, hint=Type.ZONE)[0] if _is_bare_name(args[0]) else None
        if not (isinstance(zone_node, Const) and isinstance(zone_node.value, Zone)):
            raise self.error("the first argument of size() must be a zone, as in size(hand, p)", args[0])
        zone = zone_node.value
        player_var = None
        if len(args) == 2:
            if zone not in PERSONAL_ZONES:
                message = f"{zone.value} is not a player's zone; write size({zone.value}) without a player"
                raise self.error(message, args[1])
            var = self.variable(args[1], scope, "the second argument of size()")
            if var.sort is not Sort.PLAYER:
                message = f"the second argument of size() must be a player, but '{var.name}' is an object"
                raise self.error(message, args[1])
            player_var = var.name
        return Size(zone, player_var, primed, **self.position(tree)), Type.INT

    def player_and_object(self, fn: str, tree: Tree, fn_token: Token, args: list[Tree], scope: Scope, primed: bool) -> tuple[Expr, Type]:
        """sees(p, c) and shown(p, c)."""
        if len(args) != 2:
            raise self.error(f"{fn}() takes a player and an object, as in {fn}(p, c), got {len(args)} arguments", fn_token)
        player = self.variable(args[0], scope, f"the first argument of {fn}()")
        if player.sort is not Sort.PLAYER:
            raise self.error(f"the first argument of {fn}() must be a player, but '{player.name}' is an object", args[0])
        obj = self.variable(args[1], scope, f"the second argument of {fn}()")
        if obj.sort is Sort.PLAYER:
            raise self.error(f"the second argument of {fn}() must be an object, but '{obj.name}' is a player", args[1])
        node = Sees if fn == SEES else Shown
        return node(player.name, obj.name, primed, **self.position(tree)), Type.BOOL

    def variable(self, tree: Tree, scope: Scope, what: str) -> Var:
        if _is_bare_name(tree) and tree.children[0].value in scope:
            node, _ = self.infer(tree, scope)
            assert isinstance(node, Var)
            return node
        raise self.error(f"{what} must be a variable bound by forall or exists", tree)

    def action_field(self, tree: Tree, in_equality: bool) -> tuple[Expr, Type]:
        base, field_token = tree.children
        name = str(field_token)
        if base.value != "action":
            raise self.error(f"'{base}' has no fields; only action does (action.kind, action.card, ...)", base)
        if name not in ACTION_FIELDS:
            raise self.error(f"unknown action field '{name}'{did_you_mean(name, ACTION_FIELDS)}", field_token)
        if self.kind is PropertyKind.ALWAYS:
            raise self.error(f"action.{name} describes a step; only a step property can use it", tree)
        if name in ("card", "player") and not in_equality:
            raise self.error(f"action.{name} can only be compared with == or !=", tree)
        return ActionField(name, **self.position(tree)), ACTION_FIELDS[name]


def _is_bare_name(tree: Tree) -> bool:
    return isinstance(tree, Tree) and tree.data == "name"


# --- back to text ------------------------------------------------------------------------------


def expr_text(node: Expr) -> str:
    """Source text for an expression; parsing it gives the same expression back. Every compound
    operand is parenthesised, so no precedence rule is needed to read it."""

    def operand(x: Expr) -> str:
        atomic = isinstance(x, (BoolLit, IntLit, Const, Var, Apply, Size, ActionField, Sees, Shown))
        return expr_text(x) if atomic else f"({expr_text(x)})"

    match node:
        case BoolLit(value):
            return "true" if value else "false"
        case IntLit(value):
            return str(value)
        case Const(value):
            return value.value
        case Var(name, _):
            return name
        case Apply(fn, var_name, primed):
            return f"{fn}{chr(39) if primed else ''}({var_name})"
        case Size(zone, player_var, primed):
            player = f", {player_var}" if player_var else ""
            return f"size{chr(39) if primed else ''}({zone.value}{player})"
        case ActionField(name):
            return f"action.{name}"
        case Sees(player_var, object_var, primed):
            return f"{SEES}{chr(39) if primed else ''}({player_var}, {object_var})"
        case Shown(player_var, object_var, primed):
            return f"{SHOWN}{chr(39) if primed else ''}({player_var}, {object_var})"
        case Not(operand_):
            return f"not {operand(operand_)}"
        case BinOp(op, left, right):
            return f"{operand(left)} {op} {operand(right)}"
        case In(expr, items):
            return f"{operand(expr)} in {{{', '.join(expr_text(i) for i in items)}}}"
        case Quant(kind, binders, body):
            return f"{kind} {', '.join(f'{name}: {sort.value}' for name, sort in binders)}. {expr_text(body)}"
    raise TypeError(f"not an expression node: {node!r}")

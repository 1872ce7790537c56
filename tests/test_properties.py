"""The property language: the stock file, error messages with their positions, robustness against
garbage, and concrete evaluation on hand-built states."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoneproof.errors import InputError
from zoneproof.evaluate import evaluate_concrete
from zoneproof.model import Action, ActionKind, CardType, GameState, Scope, Zone, initial_state, slots_for
from zoneproof.ruleset import load_ruleset
from zoneproof.properties import (
    BinOp,
    Const,
    Node,
    PropertyKind,
    Quant,
    expr_text,
    load_properties,
    parse_properties,
    stock_properties,
)

STOCK = {
    "owner-zones": ("400.3",),
    "new-object": ("400.7", "403.4"),
    "exile-in-exile": ("400.8", "406.7"),
    "command-in-command": ("400.10",),
    "command-face-down": ("400.9",),
    "ordered-zones": ("400.5", "401.2", "404.2", "405.2"),
    "stack-lifo": ("405.2", "405.5"),
    "one-zone": ("400.1", "400.11"),
    "tokens": ("111.7", "111.8", "704.5d"),
    "spells-not-permanents": ("400.4a",),
    "outside-the-game": ("400.11c",),
    "zone-wide": ("400.12",),
    "face-down-visibility": ("708.5",),
    "face-down-reveal": ("708.9",),
    "face-up-same-object": ("708.7", "708.8"),
    "hidden-zones": ("400.2", "401.2", "402.3"),
    "set-aside-visible": ("903.8",),
    "illegal-cast-reversed": ("601.2", "601.2e"),
    "commander-return": ("903.9", "903.9a", "903.9b"),
    "commander-tax": ("903.8", "400.7"),
    "mulligan-hand-size": ("103.4", "103.5"),
    "mulligan-conserves": ("103.4", "103.5", "903.6", "903.8"),
    "mulligan-keep-zero": ("103.4", "103.5"),
    "mulligan-look-smaller": ("103.4",),
    "team-look": ("103.4", "810.5"),
    "opening-hand-actions": ("103.6",),
    "markers-kept": ("203.4", "205.4"),
    "deck-shuffled-after-search": ("204.3",),
    "fizzle": ("608.2b", "400.7"),
    "stale-references": ("406.6", "607.2a", "400.7"),
    "until-owner": ("610.3", "610.3c"),
    "until-already-left": ("610.3a",),
    "face-down-exile": ("406.3",),
    "copy-ceases": ("704.5e", "608.3f", "707.10"),
    "replacement-owner": ("614.6", "400.3"),
}
ALWAYS = {"owner-zones", "one-zone", "spells-not-permanents", "face-down-visibility", "hidden-zones", "set-aside-visible", "face-down-exile"}


def stock(prop_id: str):
    return next(p for p in stock_properties() if p.id == prop_id)


def one_property(body: str) -> str:
    """A property file whose body line (line 4) is `body`."""
    return f'property p {{\n  cites 400.3\n  means "m"\n  {body}\n}}\n'


def error_of(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_properties(text, "f.zp")
    return str(caught.value)


# --- the stock file ---------------------------------------------------------------------------


def test_stock_file_has_the_documented_properties_in_order():
    props = stock_properties()
    assert [p.id for p in props] == list(STOCK)
    assert {p.id: p.cites for p in props} == STOCK
    assert {p.id for p in props if p.kind is PropertyKind.ALWAYS} == ALWAYS
    assert all(p.meaning for p in props)


def test_stock_locations_point_at_the_property_keyword():
    assert str(stock("owner-zones").location) == "stock.zp:8:1"


def test_exile_means_a_zone_or_an_action_kind_by_what_it_is_compared_with():
    # action.kind == exile and action.card == c and zone(c) == exile -> zone'(c) == exile and ...
    constants = {n.value for n in _nodes(stock("exile-in-exile").expr) if isinstance(n, Const)}
    assert constants == {ActionKind.EXILE, Zone.EXILE}


def _nodes(node: Node):
    yield node
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, Node):
                yield from _nodes(child)


def test_quantifier_body_extends_to_the_right():
    text = one_property("always forall c: object. tapped(c) and face_down(c) or true")
    (prop,) = parse_properties(text, "f.zp")
    assert isinstance(prop.expr, Quant)
    assert isinstance(prop.expr.body, BinOp) and prop.expr.body.op == "or"


def test_implication_is_right_associative():
    (prop,) = parse_properties(one_property("always true -> false -> true"), "f.zp")
    assert prop.expr.op == "->" and prop.expr.right.op == "->"


def test_load_properties_reads_a_file(tmp_path):
    path = tmp_path / "mine.zp"
    path.write_text(one_property("always true"), encoding="utf-8")
    assert [p.id for p in load_properties(path)] == ["p"]


# --- errors and their positions ---------------------------------------------------------------


@pytest.mark.parametrize(
    "body, expected",
    [
        (
            "always forall c: object. zone(c) == graveyrd",
            "f.zp:4:39: error: unknown name 'graveyrd' (did you mean 'graveyard'?)",
        ),
        (
            "always forall c: object. zon(c) == hand",
            "f.zp:4:28: error: unknown function 'zon' (did you mean 'zone'?)",
        ),
        ("always true $", "f.zp:4:15: error: unexpected '$' — expected an operator or '}'"),
        ("always (true and )", "f.zp:4:20: error: unexpected ')' — expected an expression"),
        ("always forall c: object. zone(c) == 3", "f.zp:4:36: error: '==' compares a Zone with an Int"),
        (
            "always forall c: object. zone'(c) == hand",
            "f.zp:4:28: error: zone'(...) reads the next state; only a step property can use it",
        ),
        (
            "always action.kind == draw",
            "f.zp:4:10: error: action.kind describes a step; only a step property can use it",
        ),
        ("always forall c: object. zone(c, c) == hand", "f.zp:4:28: error: zone() takes 1 argument, got 2"),
        ("step forall c: object. action.card", "f.zp:4:26: error: action.card can only be compared with == or !="),
        ("always 1000001 > 0", "f.zp:4:10: error: number 1000001 is too large (at most 1000000)"),
        ("always forall c: object. true and pos(c)", "f.zp:4:37: error: each side of 'and' must be a Bool, got an Int"),
        (
            "always forall c: object. size(stack, c) > 0",
            "f.zp:4:40: error: stack is not a player's zone; write size(stack) without a player",
        ),
        (
            "always forall c: object, p: player. sees(c, p)",
            "f.zp:4:44: error: the first argument of sees() must be a player, but 'c' is an object",
        ),
        ("always forall p: player. sees(p)", "f.zp:4:28: error: sees() takes a player and an object, as in sees(p, c), got 1 arguments"),
        (
            "always forall p: player, q: player. sees(p, q)",
            "f.zp:4:47: error: the second argument of sees() must be an object, but 'q' is a player",
        ),
        (
            "always forall p: player, c: object. sees'(p, c)",
            "f.zp:4:39: error: sees'(...) reads the next state; only a step property can use it",
        ),
        (
            "always forall c: objet. true",
            "f.zp:4:20: error: unknown sort 'objet' (did you mean 'object'?); the sorts are object, card, token, player",
        ),
    ],
)
def test_error_messages_carry_the_position(body, expected):
    assert error_of(one_property(body)) == expected


def test_missing_closing_brace_is_reported_at_the_end_of_the_file():
    text = 'property p {\n  cites 400.3\n  means "m"\n  always true\n'
    assert error_of(text) == "f.zp:4:14: error: unexpected end of file — expected an operator or '}'"


def test_duplicate_ids_point_at_the_second():
    text = one_property("always true") + one_property("always false")
    assert error_of(text) == "f.zp:6:10: error: duplicate property 'p' (first defined at line 1)"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "f.zp:1:1: error: no property in file"),
        ("# only a comment\n", "f.zp:1:1: error: no property in file"),
        ("property p {\n  cites 1.1\n  always true\n}", "f.zp:1:1: error: property 'p' has no 'means' line"),
        ('property p {\n  cites 1.1\n  means "m"\n}', "f.zp:1:1: error: property 'p' has no body ('always' or 'step')"),
        (
            'property p {\n  cites 1.1\n  means "m"\n  always true\n  step true\n}',
            "f.zp:5:3: error: property 'p' has a body ('always' or 'step') twice (first at line 4)",
        ),
        (
            'property p {\n  cites 1.1\n  cites 1.2\n  means "m"\n  always true }',
            "f.zp:3:3: error: property 'p' has 'cites' twice (first at line 2)",
        ),
        ('property p {\n  cites 400\n', "f.zp:2:9: error: unexpected '400' — expected a rule number such as 400.7a"),
        (
            'property p {\n  means "unfinished\n}',
            "f.zp:2:9: error: unterminated string: a string ends with '\"' on the line it starts",
        ),
    ],
)
def test_file_structure_errors(text, expected):
    assert error_of(text) == expected


def test_unreadable_and_non_utf8_files_name_the_path(tmp_path):
    missing = tmp_path / "missing.zp"
    with pytest.raises(InputError) as caught:
        load_properties(missing)
    assert str(caught.value).startswith(f"{missing}: error: cannot read the property file")
    binary = tmp_path / "binary.zp"
    binary.write_bytes(b"property p {\n  \xff\xfe }")
    with pytest.raises(InputError) as caught:
        load_properties(binary)
    assert str(caught.value) == f"{binary}:2:3: error: not UTF-8 text: byte 0xff cannot be decoded"


# --- garbage never escapes as anything but InputError -------------------------------------------


def parse_or_input_error(text: str) -> None:
    try:
        parse_properties(text, "garbage.zp")
    except InputError as error:
        assert error.location is not None and error.location.line is not None


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300).map(lambda data: data.decode("utf-8", errors="replace")))
def test_random_bytes_raise_only_input_error(text):
    parse_or_input_error(text)


KEYWORDISH = [
    "property", "p", "{", "}", "cites", "400.3", "means", '"m"', "always", "step", "forall", "exists", "c", ":",
    "object", "player", ".", "zone(c)", "zone'(c)", "size(hand, p)", "action.card", "==", "<", "->", "<->",
    "and", "or", "not", "in", "{hand, exile}", "exile", "(", ")", ",", "1", "+", "99999999", "#", "\n",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(KEYWORDISH), max_size=40).map(" ".join))
def test_near_miss_files_raise_only_input_error(text):
    parse_or_input_error(text)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 5000,
        "(" * 5000 + ")" * 5000,
        one_property("always " + "(" * 5000 + "true" + ")" * 5000),
        one_property("always " + "not (" * 5000 + "true" + ")" * 5000),
        one_property("always " + " and ".join(["true"] * 5000)),
        one_property("always " + "1" * 5000 + " > 0"),
    ],
)
def test_deep_or_huge_input_raises_only_input_error(text):
    parse_or_input_error(text)


def test_too_deep_nesting_is_reported():
    assert "nested too deeply" in error_of(one_property("always " + "not (" * 200 + "true" + ")" * 200))


# --- concrete evaluation ------------------------------------------------------------------------

SLOTS = slots_for(Scope(players=2, cards=2, sideboard=1, tokens=1))  # A1 A2 A-sb1 A-tok1 B1 B2 B-sb1 B-tok1
A1 = 0
CARD_TYPES = tuple(CardType.CREATURE for _ in SLOTS)
START = initial_state(SLOTS, {0: [0, 1], 1: [4, 5]})


def changed(state: GameState, slot: int, **changes) -> GameState:
    objects = list(state.objects)
    objects[slot] = dataclasses.replace(objects[slot], **changes)
    return dataclasses.replace(state, objects=tuple(objects))


def test_owner_zones_holds_for_a_card_in_its_owners_hand():
    state = changed(START, A1, zone=Zone.HAND, whose=0, pos=0)
    assert evaluate_concrete(stock("owner-zones"), SLOTS, CARD_TYPES, state) is True


def test_owner_zones_fails_for_a_card_in_another_players_graveyard():
    state = changed(START, A1, zone=Zone.GRAVEYARD, whose=1, pos=0)
    assert evaluate_concrete(stock("owner-zones"), SLOTS, CARD_TYPES, state) is False


def test_team_and_starting_hand_take_the_scope_they_are_given():
    """team(p) reads the team size, starting_hand(p) the hand size and the player's modifier."""
    slots = slots_for(Scope(players=4, cards=0, sideboard=0, tokens=0))
    state = initial_state(slots, {p: [] for p in range(4)})
    (prop,) = parse_properties(one_property("always exists p: player, q: player. p != q and team(p) == team(q)"), "f.zp")
    assert evaluate_concrete(prop, slots, (), state, players=4, team_size=2) is True
    assert evaluate_concrete(prop, slots, (), state, players=4) is False  # no teams: each player is a team of one
    (hand,) = parse_properties(one_property("always forall p: player. starting_hand(p) == 3"), "f.zp")
    assert evaluate_concrete(hand, slots, (), state, players=4, hand=2, hand_modifiers=(1, 1, 1, 1)) is True
    assert evaluate_concrete(hand, slots, (), state, players=4, hand=2, hand_modifiers=(1, 0, 1, 1)) is False


EXILED = changed(START, A1, zone=Zone.EXILE, whose=0, pos=0)
EXILE_A1 = Action(ActionKind.EXILE, card=A1)


def test_exile_in_exile_holds_when_the_card_becomes_a_new_object():
    after = changed(EXILED, A1, gen=1)
    assert evaluate_concrete(stock("exile-in-exile"), SLOTS, CARD_TYPES, EXILED, EXILE_A1, after) is True


@pytest.mark.parametrize("changes", [{}, {"zone": Zone.GRAVEYARD, "gen": 1}])
def test_exile_in_exile_fails_when_the_card_keeps_its_identity_or_leaves_exile(changes):
    after = changed(EXILED, A1, **changes)
    assert evaluate_concrete(stock("exile-in-exile"), SLOTS, CARD_TYPES, EXILED, EXILE_A1, after) is False


def test_step_property_about_another_action_holds_vacuously():
    draw = Action(ActionKind.DRAW, player=0)
    assert evaluate_concrete(stock("exile-in-exile"), SLOTS, CARD_TYPES, EXILED, draw, EXILED) is True


def test_step_property_without_action_is_a_programming_error():
    with pytest.raises(ValueError):
        evaluate_concrete(stock("exile-in-exile"), SLOTS, CARD_TYPES, EXILED)


def test_size_and_players_quantifier():
    text = one_property("always exists p: player. size(hand, p) == 1 and size(library) == 3")
    (prop,) = parse_properties(text, "f.zp")
    assert evaluate_concrete(prop, SLOTS, CARD_TYPES, changed(START, A1, zone=Zone.HAND, pos=0)) is True
    assert evaluate_concrete(prop, SLOTS, CARD_TYPES, START) is False


def test_stock_always_properties_hold_initially():
    for prop in stock_properties():
        if prop.kind is PropertyKind.ALWAYS:
            assert evaluate_concrete(prop, SLOTS, CARD_TYPES, START, ruleset=load_ruleset("mtg-current")), prop.id


SEES_OWN_HAND = one_property("always forall p: player, c: object. zone(c) == hand -> (sees(p, c) <-> whose(c) == p)")


def test_sees_depends_on_the_rules_in_force():
    (prop,) = parse_properties(SEES_OWN_HAND, "f.zp")
    in_hand = changed(START, A1, zone=Zone.HAND, pos=0)
    assert evaluate_concrete(prop, SLOTS, CARD_TYPES, in_hand, ruleset=load_ruleset("mtg-current")) is True
    assert evaluate_concrete(prop, SLOTS, CARD_TYPES, in_hand, ruleset=load_ruleset("mtg-current").without(["400.2"])) is False
    assert evaluate_concrete(prop, SLOTS, CARD_TYPES, changed(in_hand, A1, revealed=True), ruleset=load_ruleset("mtg-current")) is False


def test_sees_without_a_rule_set_is_a_programming_error():
    (prop,) = parse_properties(SEES_OWN_HAND, "f.zp")
    with pytest.raises(ValueError, match="rule set"):
        evaluate_concrete(prop, SLOTS, CARD_TYPES, START)


def test_sees_prints_back_as_it_reads():
    text = one_property("step forall p: player, c: object. sees(p, c) -> sees'(p, c)")
    (prop,) = parse_properties(text, "f.zp")
    assert expr_text(prop.expr) == "forall p: player, c: object. sees(p, c) -> sees'(p, c)"


TEAMS_AND_HANDS = """
property one-team {
  cites 810.1
  means "every player is on one team"
  always forall p: player, q: player. team(p) == team(q)
}
property hands-of-two {
  cites 103.5a
  means "every starting hand is of two cards"
  always forall p: player. starting_hand(p) == 2
}
"""


def test_evaluate_concrete_passes_team_size_and_hand_modifiers_each_to_its_own_slot():
    one_team, hands = parse_properties(TEAMS_AND_HANDS, "<teams>")
    assert evaluate_concrete(one_team, SLOTS, CARD_TYPES, START, players=4, team_size=4) is True
    assert evaluate_concrete(one_team, SLOTS, CARD_TYPES, START, players=4, team_size=2) is False
    assert evaluate_concrete(one_team, SLOTS, CARD_TYPES, START, players=4) is False  # no teams: each player is one
    assert evaluate_concrete(hands, SLOTS, CARD_TYPES, START, players=4, hand=2, team_size=2) is True
    assert evaluate_concrete(hands, SLOTS, CARD_TYPES, START, players=2, hand=2, hand_modifiers=(0, 1)) is False

"""The interpreter checked the way a rules designer would: one hand-built situation per rule,
the concrete state it must lead to, and what changes when the rule is removed.

The scope is two players with three deck cards, one sideboard card and one token slot each. Deck
cards are named by where they start, as the encoder names them: A1 is on top of A's library.
"""

from __future__ import annotations

import pytest

from zoneproof.interpreter import IllegalAction, Outcome, World, apply, check_initial
from zoneproof.model import (
    Action,
    ActionKind,
    CardType,
    GameState,
    ObjectState,
    Scope,
    Zone,
    initial_state,
    slots_for,
)
from zoneproof.ruleset import load_ruleset

K = ActionKind
CURRENT = load_ruleset("mtg-current")
SLOTS = slots_for(Scope(players=2, cards=3, sideboard=1, tokens=1))
SLOT = {s.name: s.index for s in SLOTS}
A, B = 0, 1
A1, A2, A3, A_SB, A_TOK = SLOT["A1"], SLOT["A2"], SLOT["A3"], SLOT["A-sb1"], SLOT["A-tok1"]
B1, B2, B3, B_SB, B_TOK = SLOT["B1"], SLOT["B2"], SLOT["B3"], SLOT["B-sb1"], SLOT["B-tok1"]
# Bottom first, so that A1 and B1 are on top.
# mtg-current has a pregame (the London mulligan): a record per player, nothing drawn yet.
START = initial_state(SLOTS, {A: [A3, A2, A1], B: [B3, B2, B1]}, pregame_players=2)


def world(without: tuple[str, ...] = (), types: dict[int, CardType] | None = None) -> World:
    """mtg-current without the given rules; every card a creature unless `types` says otherwise."""
    card_types = [CardType.CREATURE] * len(SLOTS)
    for slot, card_type in (types or {}).items():
        card_types[slot] = card_type
    w = World(CURRENT.without(list(without)), SLOTS, tuple(card_types), players=2)
    check_initial(w, START)
    return w


def play(w: World, *actions: Action, state: GameState = START) -> Outcome:
    """Apply the actions in order; the outcome of the last one."""
    outcome = Outcome(state, ())
    for action in actions:
        outcome = apply(w, outcome.state, action)
    return outcome


def draw(player: int, card: int) -> Action:
    return Action(K.DRAW, card=card, player=player)


def cast(player: int, card: int) -> Action:
    return Action(K.CAST, card=card, player=player)


def mill(player: int, card: int, n: int = 0) -> Action:
    return Action(K.MILL, card=card, player=player, n=n)


def resolve(card: int) -> Action:
    return Action(K.RESOLVE, card=card)


def onto_battlefield(player: int, card: int) -> Action:
    return Action(K.PUT_ONTO_BATTLEFIELD, card=card, player=player)


def library(state: GameState, player: int) -> list[int]:
    """The library top first."""
    return list(reversed(state.zone_members(Zone.LIBRARY, player)))


def stack(state: GameState) -> list[int]:
    """The stack top first."""
    return list(reversed(state.zone_members(Zone.STACK)))


# --- draw ----------------------------------------------------------------------------------------


def test_draw_takes_the_top_card_of_the_library():
    """draw (401.2, 402.1): the top card goes to its player's hand; the library below it stays in order."""
    outcome = play(world(), draw(A, A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose, a1.controller, a1.pos, a1.gen) == (Zone.HAND, A, A, 0, 1)
    assert library(outcome.state, A) == [A2, A3]
    assert [outcome.state.objects[c].pos for c in (A2, A3)] == [1, 0]
    assert library(outcome.state, B) == [B1, B2, B3]


@pytest.mark.parametrize("card, player", [(A2, A), (A3, A), (B1, A)])
def test_draw_of_a_card_that_is_not_on_top_of_that_players_library_is_illegal(card, player):
    with pytest.raises(IllegalAction):
        play(world(), draw(player, card))


# --- 400.3 owner redirect -------------------------------------------------------------------------


def _creature_of_a_controlled_by_b() -> tuple[Action, ...]:
    return (onto_battlefield(A, A1), Action(K.GAIN_CONTROL, card=A1, player=B))


def test_400_3_a_permanent_b_controls_goes_to_its_owners_graveyard_when_destroyed():
    """400.3: a card headed for a graveyard other than its owner's goes to its owner's instead."""
    w = world()
    on_field = play(w, *_creature_of_a_controlled_by_b()).state.objects[A1]
    assert (on_field.zone, on_field.controller) == (Zone.BATTLEFIELD, B)
    outcome = play(w, *_creature_of_a_controlled_by_b(), Action(K.DESTROY, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose, a1.controller, a1.pos) == (Zone.GRAVEYARD, A, A, 0)
    assert "400.3" in outcome.rules
    assert outcome.state.size(Zone.GRAVEYARD, B) == 0


def test_without_400_3_the_destroyed_permanent_goes_to_its_controllers_graveyard():
    outcome = play(world(without=("400.3",)), *_creature_of_a_controlled_by_b(), Action(K.DESTROY, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose, a1.controller) == (Zone.GRAVEYARD, B, A)
    assert "400.3" not in outcome.rules
    assert outcome.state.size(Zone.GRAVEYARD, A) == 0


def test_400_3_a_card_put_into_another_players_library_goes_into_its_owners():
    """400.3 for libraries: put_into_library naming B puts A's card on A's library."""
    put = Action(K.PUT_INTO_LIBRARY, card=A1, player=B, n=1)
    outcome = play(world(), draw(A, A1), put)
    assert library(outcome.state, A) == [A1, A2, A3]
    assert library(outcome.state, B) == [B1, B2, B3]
    assert outcome.rules == ("400.3", "400.7")
    without = play(world(without=("400.3",)), draw(A, A1), put)
    assert library(without.state, B) == [A1, B1, B2, B3]
    assert without.state.objects[A1].whose == B
    assert without.rules == ("400.7",)


def test_400_3_is_not_cited_when_the_named_player_is_the_owner():
    outcome = play(world(), onto_battlefield(A, A1), Action(K.DESTROY, card=A1))
    assert outcome.state.objects[A1].whose == A
    assert "400.3" not in outcome.rules


# --- 401.7 N-th from the top of a short library ---------------------------------------------------


def test_put_into_library_n_th_from_the_top():
    """put_into_library n >= 1 puts the card n-th from the top when the library has n or more cards."""
    outcome = play(world(), draw(A, A1), Action(K.PUT_INTO_LIBRARY, card=A1, player=A, n=2))
    assert library(outcome.state, A) == [A2, A1, A3]
    assert "401.7" not in outcome.rules


def test_put_into_library_n_zero_puts_the_card_at_the_bottom():
    outcome = play(world(), draw(A, A1), Action(K.PUT_INTO_LIBRARY, card=A1, player=A, n=0))
    assert library(outcome.state, A) == [A2, A3, A1]
    assert outcome.state.objects[A1].pos == 0


@pytest.mark.parametrize("n", [3, 5])
def test_401_7_n_th_from_the_top_of_a_shorter_library_goes_to_the_bottom(n):
    """401.7: a card put N-th from the top of a library with fewer than N cards goes to the bottom."""
    outcome = play(world(), draw(A, A1), Action(K.PUT_INTO_LIBRARY, card=A1, player=A, n=n))
    assert library(outcome.state, A) == [A2, A3, A1]
    assert [outcome.state.objects[c].pos for c in (A2, A3, A1)] == [2, 1, 0]
    assert "401.7" in outcome.rules


def test_without_401_7_n_th_from_the_top_of_a_shorter_library_is_illegal():
    w = world(without=("401.7",))
    with pytest.raises(IllegalAction, match="401.7"):
        play(w, draw(A, A1), Action(K.PUT_INTO_LIBRARY, card=A1, player=A, n=3))
    # N no larger than the library stays possible.
    assert library(play(w, draw(A, A1), Action(K.PUT_INTO_LIBRARY, card=A1, player=A, n=2)).state, A) == [A2, A1, A3]


# --- 400.7 new object -----------------------------------------------------------------------------

MARKS = (Action(K.TAP, card=A1), Action(K.ADD_COUNTER, card=A1), Action(K.ATTACH, card=A1), Action(K.APPLY_EFFECT, card=A1))


def test_400_7_a_permanent_that_changes_zones_is_a_new_object_without_memory():
    """400.7: the object that leaves the battlefield has a new identity and no counters,
    tapped status, attachments or effects."""
    w = world()
    marked = play(w, onto_battlefield(A, A1), *MARKS).state.objects[A1]
    assert (marked.gen, marked.counters, marked.tapped, marked.attached, marked.effect) == (1, 1, True, True, True)
    outcome = play(w, onto_battlefield(A, A1), *MARKS, Action(K.RETURN_TO_HAND, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose) == (Zone.HAND, A)
    assert (a1.gen, a1.counters, a1.tapped, a1.attached, a1.effect) == (2, 0, False, False, False)
    assert outcome.rules == ("400.7",)


def test_without_400_7_a_card_that_changes_zones_keeps_its_identity_and_memory():
    outcome = play(world(without=("400.7",)), onto_battlefield(A, A1), *MARKS, Action(K.RETURN_TO_HAND, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose) == (Zone.HAND, A)
    assert (a1.gen, a1.counters, a1.tapped, a1.attached, a1.effect) == (0, 1, True, True, True)
    assert outcome.rules == ()


def test_400_7_every_zone_change_counts_one_new_object():
    outcome = play(world(), draw(A, A1), cast(A, A1), resolve(A1), Action(K.DESTROY, card=A1))
    assert outcome.state.objects[A1].gen == 4


# --- 400.7a effects on a permanent spell carry over -----------------------------------------------


def test_400_7a_an_effect_on_a_permanent_spell_applies_to_the_permanent_it_becomes():
    """400.7a: effects applied to a permanent spell still apply to the permanent."""
    outcome = play(world(), draw(A, A1), cast(A, A1), Action(K.APPLY_EFFECT, card=A1), resolve(A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.controller, a1.gen, a1.effect) == (Zone.BATTLEFIELD, A, 3, True)
    assert "400.7a" in outcome.rules and "400.7" in outcome.rules


def test_without_400_7a_the_resolving_permanent_spell_loses_its_effect():
    outcome = play(world(without=("400.7a",)), draw(A, A1), cast(A, A1), Action(K.APPLY_EFFECT, card=A1), resolve(A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.gen, a1.effect) == (Zone.BATTLEFIELD, 3, False)
    assert "400.7a" not in outcome.rules


def test_400_7a_does_not_carry_an_effect_into_the_graveyard_of_a_resolving_instant():
    w = world(types={A1: CardType.INSTANT})
    outcome = play(w, draw(A, A1), cast(A, A1), Action(K.APPLY_EFFECT, card=A1), resolve(A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose, a1.effect) == (Zone.GRAVEYARD, A, False)
    assert "400.7a" not in outcome.rules


def test_400_7a_is_not_cited_for_a_spell_without_an_effect():
    outcome = play(world(), draw(A, A1), cast(A, A1), resolve(A1))
    assert outcome.state.objects[A1].effect is False
    assert outcome.rules == ("405.5", "400.7")


# --- 400.8, 400.9, 400.10: new objects without a zone change --------------------------------------

EXILE_A1 = Action(K.EXILE, card=A1)
TO_COMMAND = Action(K.MOVE_TO_COMMAND, card=A1)


def test_400_8_exiling_an_object_in_exile_makes_a_new_object():
    """400.8: exiling an object already in exile leaves it there as a new object."""
    w = world()
    first = play(w, EXILE_A1)
    assert (first.state.objects[A1].zone, first.state.objects[A1].gen) == (Zone.EXILE, 1)
    assert library(first.state, A) == [A2, A3]
    again = play(w, EXILE_A1, state=first.state)
    assert again.state.objects[A1] == first.state.objects[A1].moved(gen=2)
    assert again.rules == ("400.8",)


def test_without_400_8_exiling_an_object_in_exile_does_nothing():
    w = world(without=("400.8",))
    first = play(w, EXILE_A1)
    again = play(w, EXILE_A1, state=first.state)
    assert again.state == first.state
    assert again.rules == ()


def test_400_10_moving_an_object_in_the_command_zone_to_the_command_zone_makes_a_new_object():
    """400.10: command -> command leaves the object there as a new object."""
    w = world()
    first = play(w, TO_COMMAND)
    assert (first.state.objects[A1].zone, first.state.objects[A1].whose, first.state.objects[A1].gen) == (Zone.COMMAND, A, 1)
    again = play(w, TO_COMMAND, state=first.state)
    assert again.state.objects[A1] == first.state.objects[A1].moved(gen=2)
    assert again.rules == ("400.10",)


def test_without_400_10_command_to_command_does_nothing():
    w = world(without=("400.10",))
    first = play(w, TO_COMMAND)
    again = play(w, TO_COMMAND, state=first.state)
    assert again.state == first.state
    assert again.rules == ()


def test_400_9_turning_a_command_zone_object_face_down_makes_a_new_object():
    """400.9: a face-up object in the command zone turned face down becomes a new object."""
    outcome = play(world(), TO_COMMAND, Action(K.TURN_FACE_DOWN, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.face_down, a1.gen) == (Zone.COMMAND, True, 2)
    assert outcome.rules == ("400.9",)


def test_without_400_9_turning_face_down_keeps_the_object():
    outcome = play(world(without=("400.9",)), TO_COMMAND, Action(K.TURN_FACE_DOWN, card=A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.face_down, a1.gen) == (Zone.COMMAND, True, 1)
    assert outcome.rules == ()


def test_turn_face_down_needs_a_face_up_object_in_the_command_zone():
    w = world()
    with pytest.raises(IllegalAction):
        play(w, TO_COMMAND, Action(K.TURN_FACE_DOWN, card=A1), Action(K.TURN_FACE_DOWN, card=A1))
    with pytest.raises(IllegalAction):
        play(w, EXILE_A1, Action(K.TURN_FACE_DOWN, card=A1))


def test_an_object_leaving_the_command_zone_is_turned_face_up():
    outcome = play(world(), TO_COMMAND, Action(K.TURN_FACE_DOWN, card=A1), Action(K.RETURN_TO_HAND, card=A1))
    assert (outcome.state.objects[A1].zone, outcome.state.objects[A1].face_down) == (Zone.HAND, False)


# --- the stack: 405.2, 405.5, counter -------------------------------------------------------------

THREE_SPELLS = (draw(A, A1), draw(A, A2), draw(A, A3), cast(A, A1), cast(A, A2), cast(A, A3))


def test_405_2_cast_spells_go_on_top_of_the_stack():
    state = play(world(), *THREE_SPELLS).state
    assert stack(state) == [A3, A2, A1]
    assert [state.objects[c].pos for c in (A1, A2, A3)] == [0, 1, 2]
    assert all(state.objects[c].controller == A for c in (A1, A2, A3))


def test_405_5_only_the_top_of_the_stack_resolves():
    """405.5: only the top object of the stack resolves."""
    w = world()
    for below in (A1, A2):
        with pytest.raises(IllegalAction, match="405.5"):
            play(w, *THREE_SPELLS, resolve(below))
    outcome = play(w, *THREE_SPELLS, resolve(A3))
    assert outcome.state.objects[A3].zone is Zone.BATTLEFIELD
    assert stack(outcome.state) == [A2, A1]
    assert "405.5" in outcome.rules


def test_without_405_5_any_spell_on_the_stack_may_resolve():
    outcome = play(world(without=("405.5",)), *THREE_SPELLS, resolve(A1))
    assert (outcome.state.objects[A1].zone, outcome.state.objects[A1].controller) == (Zone.BATTLEFIELD, A)
    assert stack(outcome.state) == [A3, A2]
    assert [outcome.state.objects[c].pos for c in (A2, A3)] == [0, 1]
    assert "405.5" not in outcome.rules


def test_countering_a_spell_in_the_middle_of_the_stack_keeps_the_others_in_order():
    """counter: any spell on the stack, not only the top, goes to its controller's graveyard."""
    outcome = play(world(), *THREE_SPELLS, Action(K.COUNTER, card=A2))
    a2 = outcome.state.objects[A2]
    assert (a2.zone, a2.whose, a2.pos) == (Zone.GRAVEYARD, A, 0)
    assert stack(outcome.state) == [A3, A1]
    assert [outcome.state.objects[c].pos for c in (A1, A3)] == [0, 1]


def test_400_3_a_countered_spell_b_controls_goes_to_its_owners_graveyard():
    outcome = play(world(), draw(A, A1), cast(A, A1), Action(K.GAIN_CONTROL, card=A1, player=B), Action(K.COUNTER, card=A1))
    assert (outcome.state.objects[A1].zone, outcome.state.objects[A1].whose) == (Zone.GRAVEYARD, A)
    assert "400.3" in outcome.rules


def test_404_1_cards_go_on_top_of_the_graveyard_and_take_no_position():
    """404.1: cards put into a graveyard go on top; without it a position may be chosen."""
    state = play(world(), mill(A, A1), mill(A, A2)).state
    assert list(reversed(state.zone_members(Zone.GRAVEYARD, A))) == [A2, A1]
    with pytest.raises(IllegalAction):
        play(world(), mill(A, A1), mill(A, A2, n=2))
    without = play(world(without=("404.1",)), mill(A, A1), mill(A, A2, n=2)).state
    assert list(reversed(without.zone_members(Zone.GRAVEYARD, A))) == [A1, A2]


# --- tokens: 111.7, 111.8 -------------------------------------------------------------------------

CREATE = Action(K.CREATE_TOKEN, card=A_TOK, player=A)
DESTROY_TOKEN = Action(K.DESTROY, card=A_TOK)


def test_a_created_token_enters_the_battlefield_as_a_new_object():
    token = play(world(), CREATE).state.objects[A_TOK]
    assert (token.zone, token.whose, token.controller, token.gen) == (Zone.BATTLEFIELD, A, A, 1)
    with pytest.raises(IllegalAction):
        play(world(), Action(K.CREATE_TOKEN, card=A_TOK, player=B))


def test_111_8_a_token_that_left_the_battlefield_cannot_return():
    """111.8: a token that has left the battlefield cannot change zones; the effect leaves it where it is."""
    w = world()
    in_graveyard = play(w, CREATE, DESTROY_TOKEN).state
    token = in_graveyard.objects[A_TOK]
    assert (token.zone, token.whose, token.pos, token.gen) == (Zone.GRAVEYARD, A, 0, 2)
    outcome = play(w, onto_battlefield(A, A_TOK), state=in_graveyard)
    assert outcome.state == in_graveyard
    assert outcome.rules == ("111.8",)
    exiled = play(w, Action(K.EXILE, card=A_TOK), state=in_graveyard)
    assert exiled.state == in_graveyard and exiled.rules == ("111.8",)


def test_without_111_8_a_token_that_left_the_battlefield_can_return():
    w = world(without=("111.8",))
    outcome = play(w, CREATE, DESTROY_TOKEN, onto_battlefield(B, A_TOK))
    token = outcome.state.objects[A_TOK]
    assert (token.zone, token.controller, token.gen) == (Zone.BATTLEFIELD, B, 3)
    assert outcome.state.size(Zone.GRAVEYARD, A) == 0


def test_111_7_state_based_actions_remove_a_token_outside_the_battlefield():
    """111.7: a token in any zone but the battlefield ceases to exist; the pile closes the gap."""
    w = world()
    before = play(w, CREATE, DESTROY_TOKEN, mill(A, A1)).state
    assert [before.objects[c].pos for c in (A_TOK, A1)] == [0, 1]
    outcome = play(w, Action(K.STATE_BASED_ACTIONS), state=before)
    token = outcome.state.objects[A_TOK]
    assert (token.zone, token.whose, token.controller, token.pos) == (Zone.NOWHERE, A, A, 0)
    assert outcome.state.zone_members(Zone.GRAVEYARD, A) == [A1]
    assert outcome.state.objects[A1].pos == 0
    assert outcome.rules == ("111.7",)
    # A token that ceased to exist cannot be created again.
    with pytest.raises(IllegalAction):
        play(w, CREATE, state=outcome.state)


def test_111_7_state_based_actions_leave_a_token_on_the_battlefield():
    w = world()
    on_field = play(w, CREATE).state
    outcome = play(w, Action(K.STATE_BASED_ACTIONS), state=on_field)
    assert outcome.state == on_field and outcome.rules == ()


def test_without_111_7_state_based_actions_leave_the_token_in_the_graveyard():
    w = world(without=("111.7",))
    in_graveyard = play(w, CREATE, DESTROY_TOKEN).state
    outcome = play(w, Action(K.STATE_BASED_ACTIONS), state=in_graveyard)
    assert outcome.state == in_graveyard
    assert outcome.rules == ()


# --- 400.4a instants and sorceries stay off the battlefield ---------------------------------------


@pytest.mark.parametrize("card_type", [CardType.INSTANT, CardType.SORCERY])
def test_400_4a_an_instant_or_sorcery_put_onto_the_battlefield_stays_where_it_was(card_type):
    """400.4a: an instant or sorcery card that would enter the battlefield stays in its zone."""
    w = world(types={A1: card_type})
    in_hand = play(w, draw(A, A1)).state
    outcome = play(w, onto_battlefield(A, A1), state=in_hand)
    assert outcome.state == in_hand
    assert outcome.rules == ("400.4a",)


def test_without_400_4a_an_instant_put_onto_the_battlefield_enters_it():
    w = world(without=("400.4a",), types={A1: CardType.INSTANT})
    outcome = play(w, draw(A, A1), onto_battlefield(B, A1))
    a1 = outcome.state.objects[A1]
    assert (a1.zone, a1.whose, a1.controller, a1.gen) == (Zone.BATTLEFIELD, A, B, 2)
    assert "400.4a" not in outcome.rules


# --- 400.11c outside the game ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Action(K.EXILE, card=A_SB),
        Action(K.PUT_ONTO_BATTLEFIELD, card=A_SB, player=A),
        Action(K.PUT_INTO_LIBRARY, card=A_SB, player=A),
        Action(K.MOVE_TO_COMMAND, card=A_SB),
        Action(K.RETURN_TO_HAND, card=A_SB),
    ],
    ids=lambda a: a.kind.value,
)
def test_400_11c_a_card_outside_the_game_cannot_be_affected(action):
    """400.11c: spells and abilities cannot affect cards outside the game."""
    with pytest.raises(IllegalAction):
        play(world(), action)


def test_without_400_11c_a_card_outside_the_game_can_be_exiled():
    outcome = play(world(without=("400.11c",)), Action(K.EXILE, card=A_SB))
    sb = outcome.state.objects[A_SB]
    assert (sb.zone, sb.whose, sb.gen) == (Zone.EXILE, A, 1)


def test_bring_in_puts_a_sideboard_card_into_its_owners_hand():
    """400.11b/400.11c: the one way in from outside the game."""
    outcome = play(world(), Action(K.BRING_IN, card=B_SB))
    sb = outcome.state.objects[B_SB]
    assert (sb.zone, sb.whose, sb.controller, sb.gen) == (Zone.HAND, B, B, 1)
    with pytest.raises(IllegalAction):
        play(world(), Action(K.BRING_IN, card=B_SB), Action(K.BRING_IN, card=B_SB))


# --- 400.12 zone-wide actions ---------------------------------------------------------------------


def shuffle_hand(player: int, top_to_bottom: tuple[int, ...], cards: tuple[int, ...] = ()) -> Action:
    return Action(K.SHUFFLE_HAND_INTO_LIBRARY, player=player, order=(("library/" + "AB"[player], top_to_bottom),), cards=cards)


def test_400_12_shuffle_hand_into_library_moves_every_card_of_the_hand():
    """400.12: an instruction to do something to a zone is done to every card in it."""
    outcome = play(world(), draw(A, A1), draw(A, A2), shuffle_hand(A, (A2, A3, A1)))
    assert outcome.state.size(Zone.HAND, A) == 0
    assert library(outcome.state, A) == [A2, A3, A1]
    assert [outcome.state.objects[c].gen for c in (A1, A2, A3)] == [2, 2, 0]
    assert outcome.rules == ("400.12", "400.7")


def test_400_12_shuffle_hand_into_library_cannot_pick_cards():
    with pytest.raises(IllegalAction, match="400.12"):
        play(world(), draw(A, A1), draw(A, A2), shuffle_hand(A, (A1, A3), cards=(A1,)))


def test_shuffle_hand_into_library_needs_the_new_library_order():
    w = world()
    with pytest.raises(IllegalAction):
        play(w, draw(A, A1), Action(K.SHUFFLE_HAND_INTO_LIBRARY, player=A))
    with pytest.raises(IllegalAction):  # A1 left out of the new order
        play(w, draw(A, A1), draw(A, A2), shuffle_hand(A, (A2, A3)))


def test_without_400_12_shuffle_hand_into_library_may_move_some_cards():
    outcome = play(world(without=("400.12",)), draw(A, A1), draw(A, A2), shuffle_hand(A, (A3, A1), cards=(A1,)))
    assert outcome.state.zone_members(Zone.HAND, A) == [A2]
    assert library(outcome.state, A) == [A3, A1]
    assert "400.12" not in outcome.rules


# --- 400.5, 401.2, 404.2 fixed order --------------------------------------------------------------


def reorder(zone: Zone, player: int | None, top_to_bottom: tuple[int, ...]) -> Action:
    key = zone.value if player is None else f"{zone.value}/{'AB'[player]}"
    return Action(K.REORDER, player=player, zone=zone, order=((key, top_to_bottom),))


LIBRARY_REORDER = reorder(Zone.LIBRARY, A, (A3, A1, A2))
MILLS = (mill(A, A1), mill(A, A2))
GRAVEYARD_REORDER = reorder(Zone.GRAVEYARD, A, (A1, A2))
CASTS = (draw(A, A1), draw(A, A2), cast(A, A1), cast(A, A2))
STACK_REORDER = reorder(Zone.STACK, None, (A1, A2))


@pytest.mark.parametrize(
    "setup, action, fixed_by",
    [
        ((), LIBRARY_REORDER, ("400.5",)),
        (MILLS, GRAVEYARD_REORDER, ("400.5",)),
        (CASTS, STACK_REORDER, ("400.5",)),
    ],
    ids=["library", "graveyard", "stack"],
)
def test_400_5_reorder_is_illegal_while_a_rule_fixes_the_order(setup, action, fixed_by):
    """400.5 (which 401.2 and 404.2 restate): the order of a library, graveyard or the stack can
    change only when no rule in force fixes it."""
    for kept in fixed_by:
        removed = tuple(r for r in fixed_by if r != kept)
        with pytest.raises(IllegalAction, match=kept.replace(".", r"\.")):
            play(world(without=removed), *setup, action)
    w = world(without=fixed_by)
    before = play(w, *setup).state
    outcome = play(w, action, state=before)
    (_, top_to_bottom), = action.order
    assert list(reversed(outcome.state.zone_members(action.zone, action.player))) == list(top_to_bottom)
    assert list(reversed(before.zone_members(action.zone, action.player))) != list(top_to_bottom)
    # Only the positions change: the cards stay the same objects.
    assert [o.moved(pos=0) for o in outcome.state.objects] == [o.moved(pos=0) for o in before.objects]
    assert outcome.rules == ()


@pytest.mark.parametrize("setup, action", [((), LIBRARY_REORDER), (MILLS, GRAVEYARD_REORDER)], ids=["library", "graveyard"])
def test_without_401_2_and_404_2_the_order_stays_fixed_by_400_5(setup, action):
    """401.2 and 404.2 restate 400.5 for libraries and graveyards: removing them changes nothing."""
    with pytest.raises(IllegalAction, match=r"400\.5"):
        play(world(without=("401.2", "404.2")), *setup, action)


def test_reorder_of_an_unordered_zone_is_illegal():
    with pytest.raises(IllegalAction):
        play(world(without=("400.5",)), draw(A, A1), Action(K.REORDER, player=A, zone=Zone.HAND, order=(("hand/A", (A1,)),)))


def test_shuffle_rearranges_the_library_as_recorded():
    """shuffle (401.2): the one way to change a library's order while 400.5 is in force."""
    outcome = play(world(), Action(K.SHUFFLE, player=B, order=(("library/B", (B2, B3, B1)),)))
    assert library(outcome.state, B) == [B2, B3, B1]
    assert all(outcome.state.objects[c].gen == 0 for c in (B1, B2, B3))
    with pytest.raises(IllegalAction):
        play(world(), Action(K.SHUFFLE, player=B, order=(("library/B", (B2, B3)),)))


# --- fields ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Action(K.DRAW, card=A1),  # no player
        Action(K.DESTROY, card=A1, player=A),  # player on an action without one
        Action(K.SHUFFLE, card=A1, player=A, order=(("library/A", (A1, A2, A3)),)),  # card on a zone action
        Action(K.DRAW, card=A1, player=A, n=1),  # n on an action that takes no position
        Action(K.CAST, card=A_TOK, player=A),
    ],
)
def test_malformed_actions_are_illegal(action):
    with pytest.raises(IllegalAction):
        play(world(), action)


def test_a_land_cannot_be_cast():
    with pytest.raises(IllegalAction, match="land"):
        play(world(types={A1: CardType.LAND}), draw(A, A1), cast(A, A1))


def test_start_state_matches_the_encoders_naming():
    assert library(START, A) == [A1, A2, A3]
    assert START.objects[A_SB] == ObjectState(Zone.OUTSIDE, A, A)
    assert START.objects[B_TOK] == ObjectState(Zone.NOWHERE, B, B)

"""Libraries and the order of piles: draw, mill, put into a library, shuffle, rearrange (400.5),
scry (701.22), shuffle a hand into a library (400.12), and Berserk's deck search (204.3)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..model import ORDERED_ZONES, PLAYER_NAMES, ActionKind, Behaviour, Zone, zone_key
from ..terms import And, If, Implies, Not, Or
from .kernel import (
    destination_player, encode_move, identity, move, new_object, require_open, set_order, source_allowed, source_ok, token_stuck,
)
from .registry import Listed, PlayerUse, Target, concrete, every_step, implements, symbolic
from .step import ConcreteStep, Effect, SymbolicStep, Transition

K = ActionKind
PUT_INTO_LIBRARY_SOURCES = (Zone.HAND, Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.STACK, Zone.EXILE, Zone.COMMAND)


def draw_like(step: ConcreteStep, zone: Zone) -> None:
    p = step.action.player
    top = step.top_of_library(p)
    step.require(step.action.card == top, f"{step.name(step.action.card)} is not the top card of {PLAYER_NAMES[p]}'s library")
    move(step, top, zone, p)


def encode_draw_like(step: SymbolicStep, c: int, zone: Zone) -> Effect:
    top = And(step.in_zone(step.s, c, Zone.LIBRARY, step.a.player), step.is_top(step.s, c))
    return replace(encode_move(step, c, zone, step.a.player), event=top)


@concrete(K.DRAW, Target.CARD, PlayerUse.ALWAYS, moves_card=True)
def do_draw(step: ConcreteStep) -> None:
    draw_like(step, Zone.HAND)


@symbolic(K.DRAW)
def encode_draw(step: SymbolicStep, c: int) -> Effect:
    return encode_draw_like(step, c, Zone.HAND)


@concrete(K.MILL, Target.CARD, PlayerUse.ALWAYS, moves_card=True, graveyard_bound=True)
def do_mill(step: ConcreteStep) -> None:
    draw_like(step, Zone.GRAVEYARD)


@symbolic(K.MILL)
def encode_mill(step: SymbolicStep, c: int) -> Effect:
    return encode_draw_like(step, c, Zone.GRAVEYARD)


@concrete(K.PUT_INTO_LIBRARY, Target.CARD, PlayerUse.ALWAYS, moves_card=True, takes_n=True, sources=PUT_INTO_LIBRARY_SOURCES)
def do_put_into_library(step: ConcreteStep) -> None:
    c, o = step.target()
    step.require(source_allowed(step, o.zone, PUT_INTO_LIBRARY_SOURCES), f"{step.name(c)} cannot be put into a library from {o.zone.value}")
    move(step, c, Zone.LIBRARY, step.action.player)


@symbolic(K.PUT_INTO_LIBRARY)
def encode_put_into_library(step: SymbolicStep, c: int) -> Effect:
    return replace(encode_move(step, c, Zone.LIBRARY, step.a.player), event=source_ok(step, c, PUT_INTO_LIBRARY_SOURCES))


@concrete(K.SHUFFLE, Target.NONE, PlayerUse.ALWAYS, records_order=True)
def do_shuffle(step: ConcreteStep) -> None:
    set_order(step, Zone.LIBRARY, step.action.player)


@symbolic(K.SHUFFLE)
def encode_shuffle(step: SymbolicStep) -> Transition:
    library = [step.in_zone(step.s, c, Zone.LIBRARY, step.a.player) for c in range(len(step.slots))]
    return Transition(step.true, permutations=[library], players=looked_through(step, step.false))


@concrete(K.REORDER, Target.NONE, PlayerUse.UNLESS_SHARED_ZONE, names_zone=True, records_order=True)
@implements(Behaviour.ORDER_FIXED, half="concrete")
def do_reorder(step: ConcreteStep) -> None:
    zone = step.action.zone
    step.require(zone in ORDERED_ZONES, f"{zone.value} has no order to rearrange")
    fixed_by = step.world.ruleset.rules_for(Behaviour.ORDER_FIXED, zone)
    step.require(not fixed_by, f"the order of the {zone.value} is fixed by {', '.join(fixed_by)}")
    set_order(step, zone, step.action.player)


@symbolic(K.REORDER)
@implements(Behaviour.ORDER_FIXED, half="symbolic")
def encode_reorder(step: SymbolicStep) -> Transition:
    s, a, Z = step.s, step.a, step.Z
    zone = a.zone
    fixed = If(
        zone == Z[Zone.LIBRARY], step.on(Behaviour.ORDER_FIXED, Zone.LIBRARY),
        If(zone == Z[Zone.GRAVEYARD], step.on(Behaviour.ORDER_FIXED, Zone.GRAVEYARD), step.on(Behaviour.ORDER_FIXED, Zone.STACK)),
    )
    is_stack = zone == Z[Zone.STACK]
    pile = [And(s.zone[c] == zone, Or(is_stack, s.whose[c] == a.player)) for c in range(len(step.slots))]
    return Transition(And(step.codes.zone_is(zone, ORDERED_ZONES), Not(fixed)), permutations=[pile])


@concrete(K.SCRY, Target.NONE, PlayerUse.ALWAYS, records_order=True, takes_n=True)
@implements(Behaviour.SCRY, half="concrete")
def do_scry(step: ConcreteStep) -> None:
    """701.22: the player looks at the top n cards of their library (they are shown to that player)
    and puts them back in the recorded order: under the rule, any of them on the bottom and the
    rest on top, each group in any order, the cards not looked at together and in their order."""
    p, n = step.action.player, step.action.n
    before = step.pile(Zone.LIBRARY, p)[::-1]  # top first
    step.require(1 <= n <= len(before), f"n is how many cards {PLAYER_NAMES[p]} looks at: 1..{len(before)}, the cards of the library")
    looked, rest = before[:n], before[n:]
    set_order(step, Zone.LIBRARY, p)
    rule = step.on(Behaviour.SCRY)
    if rule:
        after = step.pile(Zone.LIBRARY, p)[::-1]
        start = next((k for k, c in enumerate(after) if c not in looked), len(after))
        step.require(after[start:start + len(rest)] == rest,
                     f"the cards not looked at stay together in their order, between those put on top and those put on the bottom ({rule})")
        step.cite(rule)
    for c in looked:
        step.objects[c] = step.objects[c].moved(shown=(p,))


@symbolic(K.SCRY)
@implements(Behaviour.SCRY, half="symbolic")
def encode_scry(step: SymbolicStep) -> Transition:
    s, s2, a, codes = step.s, step.s2, step.a, step.codes
    slots = range(len(step.slots))
    library = [step.in_zone(s, c, Zone.LIBRARY, a.player) for c in slots]
    looked = [And(library[c], looked_at_by_scry(step, c)) for c in slots]
    rest = [And(library[c], Not(looked[c])) for c in slots]
    limited = step.on(Behaviour.SCRY)
    # The new order is read off the new positions; the cards not looked at keep the pile relation
    # they had, and each card looked at ends above all of them or below all of them.
    extra = [Implies(And(limited, rest[c], rest[d]), (s2.pos[c] > s2.pos[d]) == s.is_above(c, d)) for c, d in combinations(slots, 2)]
    for c in slots:
        others = [d for d in slots if d != c]
        on_top = codes.all_of(Implies(rest[d], s2.pos[c] > s2.pos[d]) for d in others)
        at_bottom = codes.all_of(Implies(rest[d], s2.pos[c] < s2.pos[d]) for d in others)
        extra.append(Implies(And(limited, looked[c]), Or(on_top, at_bottom)))
    guard = And(a.n >= 1, a.n <= step.size_of(Zone.LIBRARY, a.player))
    return Transition(guard, permutations=[library], extra=extra)


def encode_scry_shown(system, t: int, player: int, c: int):
    """The step before state t was a scry of the player's that looked at slot c (see do_scry)."""
    if not system.ruleset.allows(K.SCRY):
        return system.codes.false
    step = SymbolicStep(system, t - 1)
    mine = step.codes.player[player]
    return And(step.kind_is(K.SCRY), step.a.player == mine, step.in_zone(step.s, c, Zone.LIBRARY, mine), looked_at_by_scry(step, c))


def looked_at_by_scry(step: SymbolicStep, c: int):
    """Slot c, in the acting player's library before the step, is among its top n cards (`a.n`)."""
    return step.s.pos[c] >= step.size_of(Zone.LIBRARY, step.a.player) - step.a.n


@concrete(K.SHUFFLE_HAND_INTO_LIBRARY, Target.NONE, PlayerUse.ALWAYS, records_order=True, lists=Listed.HAND)
@implements(Behaviour.ZONE_WIDE, half="concrete")
def do_shuffle_hand_into_library(step: ConcreteStep) -> None:
    p = step.action.player
    hand = step.hand_of(p)
    rule = step.on(Behaviour.ZONE_WIDE)
    if rule:
        step.require(not step.action.cards, "with 400.12 in force the whole hand moves; the action lists no cards")
        step.cite(rule)
        moving = hand
    else:
        step.require(set(step.action.cards) <= set(hand), "the action lists cards that are not in the hand")
        moving = sorted(step.action.cards)
    receiving = set()
    for i in moving:
        if token_stuck(step, i):
            continue
        require_open(step, Zone.LIBRARY)
        whose = destination_player(step, i, Zone.LIBRARY, p)
        receiving.add(whose)
        old = step.objects[i]
        changes = dict(zone=Zone.LIBRARY, whose=whose, controller=step.slot(i).owner, face_down=False, pos=0)
        changes.update(new_object(step, old))
        step.objects[i] = old.moved(**changes)
    for q in sorted(receiving):
        set_order(step, Zone.LIBRARY, q)
    expected = {zone_key(Zone.LIBRARY, q) for q in receiving}
    step.require({k for k, _ in step.action.order} == expected, "the action must record the new order of exactly the libraries that received cards")


@symbolic(K.SHUFFLE_HAND_INTO_LIBRARY)
@implements(Behaviour.ZONE_WIDE, half="symbolic")
def encode_shuffle_hand_into_library(step: SymbolicStep) -> Transition:
    s, a = step.s, step.a
    zone_wide = step.on(Behaviour.ZONE_WIDE)
    redirect = step.on(Behaviour.OWNER_REDIRECT, Zone.LIBRARY)
    slots = range(len(step.slots))
    extra, objects, destination, moving = [], {}, {}, {}
    for c in slots:
        in_hand = step.in_zone(s, c, Zone.HAND, a.player)
        extra += [Implies(zone_wide, Not(a.pick[c])), Implies(Not(in_hand), Not(a.pick[c]))]
        chosen = And(in_hand, Or(zone_wide, a.pick[c]))
        if step.slots[c].is_token:
            chosen = And(chosen, Not(And(step.token_left_battlefield(s, c), step.on(Behaviour.TOKEN_STAYS))))
        moving[c] = chosen
        extra.append(Implies(chosen, Not(step.zone_closed(Zone.LIBRARY))))
        owner = step.owner(c)
        destination[c] = If(redirect, owner, a.player)
        moved = {"zone": step.Z[Zone.LIBRARY], "whose": destination[c], "controller": owner, "face_down": step.false}
        moved |= identity(step, c, step.on(Behaviour.NEW_OBJECT))
        objects[c] = step.merge(c, chosen, moved, {})
    receiving = [step.codes.any_of(And(moving[c], destination[c] == step.codes.player[q]) for c in slots) for q in range(step.players)]
    libraries = [[And(receiving[q], step.in_zone(step.s2, c, Zone.LIBRARY, step.codes.player[q])) for c in slots] for q in range(step.players)]
    return Transition(step.true, objects=objects, permutations=libraries, extra=extra)


# ---------------------------------------------------------------- Berserk's deck search (204.3)


@concrete(K.SEARCH_LIBRARY, Target.CARD, PlayerUse.ALWAYS, moves_card=True)
def do_search_library(step: ConcreteStep) -> None:
    """204.3: a player looks through their own deck (only its owner may) and takes a card from it
    into their hand; the deck now counts as looked through until it is shuffled."""
    c, o = step.target()
    p = step.action.player
    step.require(o.zone is Zone.LIBRARY and o.whose == p, f"{step.name(c)} is not in {PLAYER_NAMES[p]}'s library")
    move(step, c, Zone.HAND, p)
    step.players[p] = step.players[p].moved(searched=True)


@symbolic(K.SEARCH_LIBRARY)
def encode_search_library(step: SymbolicStep, c: int) -> Effect:
    moved = encode_move(step, c, Zone.HAND, step.a.player)
    return replace(moved, event=step.in_zone(step.s, c, Zone.LIBRARY, step.a.player), players=looked_through(step, step.true))


def looked_through(step: SymbolicStep, value) -> dict:
    """The acting player's `searched` record, where the rule set keeps one."""
    return {"searched": lambda p: value} if step.system.player_field_changes("searched") else {}


@every_step("shuffle-after-search", "concrete")
@implements(Behaviour.SHUFFLE_AFTER_SEARCH, half="concrete")
def shuffle_first(step: ConcreteStep) -> None:
    """204.3: a deck looked through is shuffled before anything else happens; a shuffle of a
    player's library ends its looked-through state whatever the rules."""
    if not step.players:
        return
    rule = step.on(Behaviour.SHUFFLE_AFTER_SEARCH)
    for p, record in enumerate(step.players):
        if not record.searched:
            continue
        shuffles = step.action.kind is K.SHUFFLE and step.action.player == p
        if rule:
            step.require(shuffles, f"{PLAYER_NAMES[p]}'s library was looked through and must be shuffled first ({rule})")
            step.cite(rule)
        if shuffles:
            step.players[p] = record.moved(searched=False)


@every_step("shuffle-after-search", "symbolic")
@implements(Behaviour.SHUFFLE_AFTER_SEARCH, half="symbolic")
def encode_shuffle_first(step: SymbolicStep) -> list:
    if not step.system.player_field_changes("searched"):
        return []
    s, a = step.s, step.a
    shuffle_first = step.on(Behaviour.SHUFFLE_AFTER_SEARCH)
    return [
        Implies(And(shuffle_first, s.player("searched", p)), And(step.kind_is(K.SHUFFLE), a.player == step.codes.player[p]))
        for p in range(step.players)
    ]

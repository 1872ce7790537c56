"""The pregame (103): opening hands, mulligans (Paris, Vancouver, London, Commander's partial
Paris of 903.8), keeping, the London mulligan's cards to the bottom, the post-mulligan look, and
opening-hand actions (103.6). Pregame actions happen before the first ordinary action, which starts
the game."""

from __future__ import annotations

from ..model import PLAYER_NAMES, PREGAME_ACTIONS, SPELL_ONLY_TYPES, ActionKind, Behaviour, GameState, PlayerState, Zone, zone_key
from ..ruleset import RuleSet
from ..terms import And, If, Implies, Not, Or
from .kernel import NO_MEMORY, encode_move, identity, move, require_open, set_order, wiped_memory
from .registry import Listed, PlayerUse, Target, concrete, every_step, implements, symbolic
from .step import ConcreteStep, Effect, IllegalAction, OrderMissing, SymbolicStep, Transition
from .visibility import look_audience

K = ActionKind


# ---------------------------------------------------------------- who is where in the pregame


@every_step("pregame", "concrete")
def pregame_gate(step: ConcreteStep) -> None:
    """Pregame actions happen before the game starts; the first ordinary action starts it, which
    it may do from the bare start (nobody has drawn an opening hand: the pregame is skipped, as
    in a rule set without one) or once every player has kept (the mulligan process is over)."""
    if not step.world.ruleset.has_pregame:
        return
    step.require(len(step.players) == step.world.players, "the state has no pregame record for every player")
    if step.action.kind in PREGAME_ACTIONS:
        step.require(not step.started, "the game has started: the pregame is over")
        return
    untouched = not any(p.drawn for p in step.players)
    complete = all(p.kept and p.owed == 0 for p in step.players)
    step.require(step.started or untouched or complete, "the mulligan process is not over: some player has not kept an opening hand")
    step.started = True


@every_step("pregame", "symbolic")
def encode_pregame_gate(step: SymbolicStep) -> list:
    system, s, s2 = step.system, step.s, step.s2
    if not system.player_records:
        return []
    if not system.pregame:
        return [s2.started == s.started]
    pregame_kind = step.kind_in(k for k in PREGAME_ACTIONS if system.ruleset.allows(k))
    untouched = step.codes.all_of(Not(s.player("drawn", p)) for p in range(step.players))
    complete = step.codes.all_of(And(s.player("kept", p), s.player("owed", p) == 0) for p in range(step.players))
    return [
        Implies(pregame_kind, And(Not(s.started), Not(s2.started))),
        Implies(Not(pregame_kind), And(Or(s.started, untouched, complete), s2.started)),
    ]


def require_declaring(step: ConcreteStep, p: int, ps: PlayerState, what: str) -> None:
    step.require(ps.drawn and not ps.kept, f"{PLAYER_NAMES[p]} cannot {what}: no opening hand drawn, or already kept")
    step.require(ps.owed == 0, f"{PLAYER_NAMES[p]} must first put {ps.owed} more card(s) on the bottom (103.5)")


def declaring(step: SymbolicStep, player) -> object:
    """The player has an opening hand, has not kept it, and owes no card to the bottom."""
    s = step.s
    return And(step.player_of(s, "drawn", player), Not(step.player_of(s, "kept", player)), step.player_of(s, "owed", player) == 0)


@implements(Behaviour.HAND_MODIFIER, half="concrete")
def starting_hand(step: ConcreteStep, p: int) -> int:
    """The player's starting hand size, citing the vanguard rule where it changes it."""
    size = step.world.starting_hand(p)
    if size != step.world.hand:
        step.cite(step.on(Behaviour.HAND_MODIFIER))
    return size


@implements(Behaviour.HAND_MODIFIER, half="symbolic")
def encode_starting_hand(step: SymbolicStep, player):
    """The starting hand size of the player (an expression), modified by their vanguard card
    where a rule in force says so (902.5, 103.5a)."""
    scope, hand = step.system.scope, step.system.hand
    if not any(scope.hand_modifiers):
        return step.int(hand)
    sizes = [step.int(hand + scope.hand_modifier(p)) for p in range(step.players)]
    modified = step.codes.select(player, step.codes.player[:-1], sizes[:-1], sizes[-1])
    return If(step.on(Behaviour.HAND_MODIFIER), modified, step.int(hand))


# ---------------------------------------------------------------- opening hands and mulligans


@concrete(K.DRAW_HAND, Target.NONE, PlayerUse.ALWAYS)
def do_draw_hand(step: ConcreteStep) -> None:
    p, ps = step.player_state()
    step.require(not ps.drawn, f"{PLAYER_NAMES[p]} has already drawn an opening hand")
    library = step.pile(Zone.LIBRARY, p)
    size = starting_hand(step, p)
    step.require(len(library) >= size, f"{PLAYER_NAMES[p]}'s library has fewer cards than the starting hand size")
    for i in reversed(library[len(library) - size:]):  # top first: each is the top when it moves
        move(step, i, Zone.HAND, p)
    step.players[p] = ps.moved(drawn=True)


@symbolic(K.DRAW_HAND)
def encode_draw_hand(step: SymbolicStep) -> Transition:
    s, p = step.s, step.a.player
    library = step.size_of(Zone.LIBRARY, p)
    hand = encode_starting_hand(step, p)
    objects, extra = {}, []
    for c in range(len(step.slots)):
        drawn = And(step.in_zone(s, c, Zone.LIBRARY, p), s.pos[c] >= library - hand)
        moved = encode_move(step, c, Zone.HAND, p)
        objects[c] = step.merge(c, drawn, moved.values, {})
        extra.append(Implies(drawn, moved.outcome))
    guard = And(Not(step.player_of(s, "drawn", p)), library >= hand)
    return Transition(guard, objects, {"drawn": lambda q: step.true}, extra=extra)


@concrete(K.MULLIGAN, Target.NONE, PlayerUse.ALWAYS, records_order=True, lists=Listed.HAND_AND_LIBRARY)
@implements(Behaviour.MULLIGAN_KEEP_ZERO, Behaviour.MULLIGAN_FREE_FIRST, Behaviour.MULLIGAN_LONDON, Behaviour.MULLIGAN_ONE_FEWER,
            half="concrete")
def do_mulligan(step: ConcreteStep) -> None:
    p, ps = step.player_state()
    require_declaring(step, p, ps, "take a mulligan")
    hand = step.hand_of(p)
    library = step.pile(Zone.LIBRARY, p)
    zero_rule = step.on(Behaviour.MULLIGAN_KEEP_ZERO)
    if zero_rule:
        step.require(bool(hand), f"{PLAYER_NAMES[p]}'s hand has no cards: it must be kept ({zero_rule})")
        step.cite(zero_rule)
    free_rule = step.on(Behaviour.MULLIGAN_FREE_FIRST)
    free = bool(free_rule) and step.world.players > 2 and not ps.free_taken  # a multiplayer game begins with more than two players
    if free:
        step.cite(free_rule)
    counted = ps.mulligans + (0 if free else 1)
    london, paris = step.on(Behaviour.MULLIGAN_LONDON), step.on(Behaviour.MULLIGAN_ONE_FEWER)
    partial = step.on(Behaviour.MULLIGAN_PARTIAL_PARIS)
    if partial and not london:
        step.cite(partial)
        partial_paris(step, p, hand, library, free)
        step.players[p] = ps.moved(mulligans=counted, free_taken=ps.free_taken or free)
        return
    owed = 0
    if london:
        step.cite(london)
        size, owed = starting_hand(step, p), counted
    elif paris:
        step.cite(paris)
        size = max(0, len(hand) - (0 if free else 1))
    else:  # the mulligan of early Magic: a full new hand
        size = starting_hand(step, p)
    members = hand + library
    step.require(size <= len(members), f"{PLAYER_NAMES[p]} has fewer cards than the new hand needs")
    if hand:
        require_open(step, Zone.LIBRARY)
    if size:
        require_open(step, Zone.HAND)
    key = zone_key(Zone.LIBRARY, p)
    order = step.action.order_for(key)
    new_hand = set(step.action.cards)
    if order is None:
        raise OrderMissing(key, [i for i in members if i not in new_hand])
    step.require({k for k, _ in step.action.order} == {key}, f"a mulligan records the new order of {key} and nothing else")
    step.require(len(new_hand) == size, f"the new hand has {size} cards, the action lists {len(new_hand)}")
    step.require(sorted([*new_hand, *order]) == sorted(members), f"the new hand and {key} must together be the old hand and library")
    renew = step.on(Behaviour.NEW_OBJECT)
    for i in members:
        old = step.objects[i]
        changes = int(old.zone is Zone.HAND) + int(i in new_hand)  # into the library, then into the hand
        fields = dict(zone=Zone.HAND if i in new_hand else Zone.LIBRARY, whose=p, controller=step.slot(i).owner, face_down=False,
                      pos=0 if i in new_hand else len(order) - 1 - order.index(i))
        if renew and changes:
            step.cite(renew)
            fields.update(gen=old.gen + changes, **NO_MEMORY, effect=False)
        step.objects[i] = old.moved(**fields)
    step.players[p] = ps.moved(mulligans=counted, owed=owed, free_taken=ps.free_taken or free)



def free_mulligan(step: SymbolicStep, p: int):
    free = And(step.on(Behaviour.MULLIGAN_FREE_FIRST), Not(step.s.player("free_taken", p)))
    return free if step.players > 2 else step.false  # a multiplayer game begins with more than two players


@symbolic(K.MULLIGAN)
@implements(Behaviour.MULLIGAN_KEEP_ZERO, Behaviour.MULLIGAN_FREE_FIRST, Behaviour.MULLIGAN_LONDON, Behaviour.MULLIGAN_ONE_FEWER,
            half="symbolic")
def encode_mulligan(step: SymbolicStep) -> Transition:
    s, a, p = step.s, step.a, step.a.player
    codes = step.codes
    hand_size = step.size_of(Zone.HAND, p)
    free = codes.any_of(And(p == codes.player[q], free_mulligan(step, q)) for q in range(step.players))
    one_fewer = If(free, hand_size, hand_size - 1)
    new_size = If(
        step.on(Behaviour.MULLIGAN_LONDON), encode_starting_hand(step, p),
        If(step.on(Behaviour.MULLIGAN_ONE_FEWER), If(one_fewer < 0, step.int(0), one_fewer), encode_starting_hand(step, p)),
    )
    guard = [
        declaring(step, p), Implies(step.on(Behaviour.MULLIGAN_KEEP_ZERO), hand_size > 0),
        Implies(hand_size > 0, Not(step.zone_closed(Zone.LIBRARY))), Implies(new_size > 0, Not(step.zone_closed(Zone.HAND))),
    ]
    renew = step.on(Behaviour.NEW_OBJECT)
    objects, extra, to_hand, in_library_after = {}, [], [], []
    for c in range(len(step.slots)):
        in_hand = step.in_zone(s, c, Zone.HAND, p)
        member = And(codes.zone_is(s.zone[c], (Zone.HAND, Zone.LIBRARY)), s.whose[c] == p)
        drawn = a.pick[c]
        extra.append(drawn == And(member, drawn))
        to_hand.append(drawn)
        in_library_after.append(And(member, Not(drawn)))
        changes = If(in_hand, step.int(1), step.int(0)) + If(drawn, step.int(1), step.int(0))
        wiped = And(renew, changes > 0)
        values = {
            "zone": If(drawn, step.Z[Zone.HAND], step.Z[Zone.LIBRARY]), "whose": p, "pos": step.int(0), "controller": step.owner(c),
            "face_down": step.false,
            "gen": If(renew, step.codes.grown(s.gen[c], changes), s.gen[c]),
            "counters": If(wiped, step.int(0), s.counters[c]),
            "effect": And(Not(wiped), s.effect[c]),
        } | wiped_memory(step, c, wiped)
        objects[c] = step.merge(c, member, values, {})
    extra.append(codes.count(to_hand) == new_size)
    players = mulligan_players(step)
    whole = Transition(codes.all_of(guard), objects, players, permutations=[in_library_after], extra=extra)
    if not step.in_file(Behaviour.MULLIGAN_PARTIAL_PARIS):  # keep the formula small where it cannot apply
        return whole
    partial = And(step.on(Behaviour.MULLIGAN_PARTIAL_PARIS), Not(step.on(Behaviour.MULLIGAN_LONDON)))
    return either(step, partial, encode_partial_paris(step, free, players), whole)


def mulligan_players(step: SymbolicStep) -> dict:
    """The acting player's records after a mulligan: the mulligans that count, the cards owed to
    the bottom (London), and whether the free first mulligan is taken."""
    s = step.s

    def counted(p):
        return s.player("mulligans", p) + If(free_mulligan(step, p), step.int(0), step.int(1))

    return {
        "mulligans": counted,
        "owed": lambda p: If(step.on(Behaviour.MULLIGAN_LONDON), counted(p), step.int(0)),
        "free_taken": lambda p: Or(s.player("free_taken", p), free_mulligan(step, p)),
    }


def either(step: SymbolicStep, condition, when: Transition, otherwise: Transition) -> Transition:
    """`when` under the condition, else `otherwise` (both with the same player changes; neither
    reenters an object in its pile)."""
    objects = {
        c: step.merge(c, condition, when.objects.get(c, {}), otherwise.objects.get(c, {}))
        for c in {*when.objects, *otherwise.objects}
    }
    if when.players is not otherwise.players:
        raise TypeError("either() needs the same player changes on both sides")
    permutations = [[And(condition, x) for x in group] for group in when.permutations]
    permutations += [[And(Not(condition), x) for x in group] for group in otherwise.permutations]
    extra = [Implies(condition, x) for x in when.extra] + [Implies(Not(condition), x) for x in otherwise.extra]
    return Transition(If(condition, when.guard, otherwise.guard), objects, when.players, permutations, extra=extra)


@implements(Behaviour.MULLIGAN_PARTIAL_PARIS, half="concrete")
def partial_paris(step: ConcreteStep, p: int, hand: list[int], library: list[int], free: bool) -> None:
    """903.8 (Commander until 2016): the cards of the hand not in the new hand are exiled face
    down, and one card fewer than that is drawn from the top of the library (as many with a free
    mulligan); the library is not shuffled. `cards` is the new hand."""
    new_hand = set(step.action.cards)
    set_aside = [i for i in hand if i not in new_hand]
    drawn = sorted(i for i in new_hand if i not in hand)
    step.require(bool(set_aside), "a partial Paris mulligan sets aside at least one card")
    step.require(not step.action.order, "a partial Paris mulligan does not shuffle the library: it records no order")
    count = len(set_aside) - (0 if free else 1)
    step.require(count <= len(library), f"{PLAYER_NAMES[p]}'s library has fewer than {count} cards")
    step.require(drawn == sorted(library[len(library) - count:]), f"the new hand must be the kept cards and the top {count} card(s) of the library")
    if set_aside:
        require_open(step, Zone.EXILE)
    if drawn:
        require_open(step, Zone.HAND)
    for i in reversed(library[len(library) - count:]):  # top first
        move(step, i, Zone.HAND, p)
    renew = step.on(Behaviour.NEW_OBJECT)
    may_look = step.on(Behaviour.MULLIGAN_LOOK_SET_ASIDE)
    for i in set_aside:
        old = step.objects[i]
        fields = dict(zone=Zone.EXILE, whose=step.slot(i).owner, controller=step.slot(i).owner, pos=0, face_down=True)
        if renew:
            step.cite(renew)
            fields.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
        if may_look:  # the instruction that lets the owner look at the cards set aside (406.3)
            fields.update(looker=step.slot(i).owner)
        step.objects[i] = old.moved(**fields)


@implements(Behaviour.MULLIGAN_PARTIAL_PARIS, half="symbolic")
def encode_partial_paris(step: SymbolicStep, free, players: dict) -> Transition:
    """903.8: the hand cards not picked are exiled face down; the top cards of the library, one
    fewer than those (as many with a free mulligan), are drawn; the library is not shuffled."""
    s, a, p = step.s, step.a, step.a.player
    codes = step.codes
    hand_size = step.size_of(Zone.HAND, p)
    library = step.size_of(Zone.LIBRARY, p)
    slots = range(len(step.slots))
    in_hand = [step.in_zone(s, c, Zone.HAND, p) for c in slots]
    set_aside = [And(in_hand[c], Not(a.pick[c])) for c in slots]
    count = codes.count(set_aside) - If(free, step.int(0), step.int(1))
    guard = [
        declaring(step, p), Implies(step.on(Behaviour.MULLIGAN_KEEP_ZERO), hand_size > 0),
        codes.count(set_aside) >= 1, count <= library,
        Implies(codes.any_of(set_aside), Not(step.zone_closed(Zone.EXILE))), Implies(count > 0, Not(step.zone_closed(Zone.HAND))),
    ]
    renew = step.on(Behaviour.NEW_OBJECT)
    objects, extra = {}, []
    for c in slots:
        drawn = And(step.in_zone(s, c, Zone.LIBRARY, p), s.pos[c] >= library - count)
        extra.append(a.pick[c] == Or(And(in_hand[c], a.pick[c]), drawn))
        moved = encode_move(step, c, Zone.HAND, p)
        extra.append(Implies(drawn, moved.outcome))
        exiled = {"zone": step.Z[Zone.EXILE], "whose": step.owner(c), "pos": step.int(0), "controller": step.owner(c), "face_down": step.true}
        exiled |= identity(step, c, renew)
        exiled["looker"] = If(step.on(Behaviour.MULLIGAN_LOOK_SET_ASIDE), step.owner(c), exiled["looker"])
        objects[c] = step.merge(c, drawn, moved.values, step.merge(c, set_aside[c], exiled, {}))
    return Transition(codes.all_of(guard), objects, players, extra=extra)


@concrete(K.KEEP, Target.NONE, PlayerUse.ALWAYS, records_order=True)
@implements(Behaviour.MULLIGAN_RETURN_SET_ASIDE, half="concrete")
def do_keep(step: ConcreteStep) -> None:
    """Keeping; under 903.8 the cards set aside face down are shuffled into the library."""
    p, ps = step.player_state()
    require_declaring(step, p, ps, "keep")
    step.players[p] = ps.moved(kept=True)
    rule = step.on(Behaviour.MULLIGAN_RETURN_SET_ASIDE)
    returning = [i for i, o in enumerate(step.objects) if o.zone is Zone.EXILE and o.face_down and step.slot(i).owner == p]
    if not rule or not returning:
        step.require(not step.action.order, "keep records no order unless cards set aside are shuffled back")
        return
    step.cite(rule)
    require_open(step, Zone.LIBRARY)
    renew = step.on(Behaviour.NEW_OBJECT)
    for i in returning:
        old = step.objects[i]
        fields = dict(zone=Zone.LIBRARY, whose=p, controller=p, pos=0, face_down=False)
        if renew:
            step.cite(renew)
            fields.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
        step.objects[i] = old.moved(**fields)
    set_order(step, Zone.LIBRARY, p)
    step.require({k for k, _ in step.action.order} == {zone_key(Zone.LIBRARY, p)}, "the keep records the new order of the library the set-aside cards are shuffled into")


@symbolic(K.KEEP)
@implements(Behaviour.MULLIGAN_RETURN_SET_ASIDE, half="symbolic")
def encode_keep(step: SymbolicStep) -> Transition:
    s, p = step.s, step.a.player
    kept = {"kept": lambda q: step.true}
    if not step.in_file(Behaviour.MULLIGAN_RETURN_SET_ASIDE):  # nothing comes back: every object stays
        return Transition(declaring(step, p), players=kept)
    returning = [
        And(step.on(Behaviour.MULLIGAN_RETURN_SET_ASIDE), s.zone[c] == step.Z[Zone.EXILE], s.face_down[c], step.owner(c) == p)
        for c in range(len(step.slots))
    ]
    shuffled = step.codes.any_of(returning)
    renew = step.on(Behaviour.NEW_OBJECT)
    objects = {}
    for c in range(len(step.slots)):
        back = {"zone": step.Z[Zone.LIBRARY], "whose": p, "controller": p, "face_down": step.false} | identity(step, c, renew)
        objects[c] = step.merge(c, returning[c], back, {})
    library = [And(shuffled, step.in_zone(step.s2, c, Zone.LIBRARY, p)) for c in range(len(step.slots))]
    guard = And(declaring(step, p), Implies(shuffled, Not(step.zone_closed(Zone.LIBRARY))))
    return Transition(guard, objects, kept, permutations=[library])


@concrete(K.BOTTOM, Target.CARD, PlayerUse.ALWAYS)
def do_bottom(step: ConcreteStep) -> None:
    c, o = step.target()
    p, ps = step.player_state()
    step.require(ps.owed > 0, f"{PLAYER_NAMES[p]} owes no card to the bottom of their library")
    step.require(o.zone is Zone.HAND and o.whose == p, f"{step.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
    move(step, c, Zone.LIBRARY, p)
    step.players[p] = ps.moved(owed=ps.owed - 1)


@symbolic(K.BOTTOM)
def encode_bottom(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    moved = encode_move(step, c, Zone.LIBRARY, p)
    guard = And(step.in_zone(s, c, Zone.HAND, p), step.player_of(s, "owed", p) > 0)
    return Effect(guard, moved.outcome, moved.values, {"owed": lambda q: s.player("owed", q) - 1}, moved.arrival)


# ---------------------------------------------------------------- the post-mulligan look (Vancouver, 103.4)


@implements(Behaviour.MULLIGAN_LOOK, Behaviour.MULLIGAN_LOOK_SMALLER, Behaviour.OPENING_HAND_AFTER_LOOK, half="concrete")
def look_refusal(ruleset: RuleSet, state: GameState, player: int, hand: int) -> str | None:
    """Why `player` may not take the post-mulligan look in `state` (None: they may). The look comes
    once every player has kept, once per player (a player who declines it is modelled as looking
    and leaving the card on top), only below the starting hand size under the look-smaller rule,
    and, where the opening-hand actions wait for the mulligan process (103.6 since 2015), not after
    one of them: in the pregame only an opening-hand action puts a card onto the battlefield."""
    rule = ruleset.active(Behaviour.MULLIGAN_LOOK)
    if rule is None or not state.players:
        return "no rule in force lets a player look at the top card after the mulligans"
    if state.started:
        return "the game has started: the pregame is over"
    if not all(q.kept for q in state.players):
        return "a player looks only after every player has kept an opening hand"
    if state.players[player].looked:
        return f"{PLAYER_NAMES[player]} has already looked"
    smaller = ruleset.active(Behaviour.MULLIGAN_LOOK_SMALLER)
    if smaller and state.size(Zone.HAND, player) >= hand:
        return f"{PLAYER_NAMES[player]}'s hand is not smaller than the starting hand size ({smaller})"
    complete = ruleset.active(Behaviour.OPENING_HAND_AFTER_LOOK)
    if complete and state.size(Zone.BATTLEFIELD) > 0:
        return f"the mulligan process is complete: an opening-hand action has been taken ({complete})"
    return None


def may_look(ruleset: RuleSet, state: GameState, player: int, hand: int) -> bool:
    """Whether `player` may still take the post-mulligan look (the property language's may_look(p))."""
    return look_refusal(ruleset, state, player, hand) is None


@implements(Behaviour.MULLIGAN_LOOK, Behaviour.MULLIGAN_LOOK_SMALLER, Behaviour.OPENING_HAND_AFTER_LOOK, half="symbolic")
def encode_may_look(system, t: int, player):
    """The player (an expression) may still take the post-mulligan look in state t (see look_refusal)."""
    if not system.pregame:
        return system.codes.false
    step = SymbolicStep(system, t)
    s = step.s
    return And(
        step.on(Behaviour.MULLIGAN_LOOK),
        Not(s.started),
        step.codes.all_of(s.player("kept", q) for q in range(step.players)),
        Not(step.player_of(s, "looked", player)),
        Implies(step.on(Behaviour.MULLIGAN_LOOK_SMALLER), step.size_of(Zone.HAND, player) < encode_starting_hand(step, player)),
        Implies(step.on(Behaviour.OPENING_HAND_AFTER_LOOK), step.size(Zone.BATTLEFIELD) == 0),
    )


@concrete(K.POST_MULLIGAN_LOOK, Target.PILE, PlayerUse.ALWAYS, takes_n=True)
def do_post_mulligan_look(step: ConcreteStep) -> None:
    c, o = step.target()
    p, ps = step.player_state()
    refusal = look_refusal(step.world.ruleset, step.before, p, step.world.starting_hand(p))
    if refusal:
        raise IllegalAction(refusal)
    step.cite(step.on(Behaviour.MULLIGAN_LOOK))
    step.cite(step.on(Behaviour.MULLIGAN_LOOK_SMALLER))
    step.require(c == step.top_of_library(p), f"{step.name(c)} is not the top card of {PLAYER_NAMES[p]}'s library")
    step.require(step.action.n in (0, 1), "n is 0 (the card goes to the bottom) or 1 (it stays on top)")
    if step.action.n == 0:
        for i in step.pile(Zone.LIBRARY, p):
            if i != c:
                step.objects[i] = step.objects[i].moved(pos=step.objects[i].pos + 1)
    step.objects[c] = o.moved(pos=0 if step.action.n == 0 else o.pos, shown=look_audience(step, p))
    step.players[p] = ps.moved(looked=True)


@symbolic(K.POST_MULLIGAN_LOOK)
def encode_post_mulligan_look(step: SymbolicStep) -> Transition:
    s, a, p = step.s, step.a, step.a.player
    on_top = [
        Implies(a.card == step.codes.slot[c], And(step.in_zone(s, c, Zone.LIBRARY, p), step.is_top(s, c)))
        for c in range(len(step.slots))
    ]
    guard = And(encode_may_look(step.system, step.t, p), a.n <= 1, *on_top)
    objects, to_bottom = {}, {}
    for c in range(len(step.slots)):
        to_bottom[c] = And(a.card == step.codes.slot[c], a.n == 0)
        below = And(a.n == 0, step.in_zone(s, c, Zone.LIBRARY, p))
        objects[c] = {"pos": If(to_bottom[c], step.int(0), If(below, s.pos[c] + 1, s.pos[c]))}
    return Transition(guard, objects, {"looked": lambda q: step.true}, reentering=to_bottom)


# ---------------------------------------------------------------- opening-hand actions (103.6)


@concrete(K.OPENING_HAND_ACTION, Target.CARD, PlayerUse.ALWAYS)
@implements(Behaviour.OPENING_HAND_ACTIONS, Behaviour.OPENING_HAND_AFTER_LOOK, half="concrete")
def do_opening_hand_action(step: ConcreteStep) -> None:
    """103.6: a player puts a permanent card from their opening hand onto the battlefield (as a
    Leyline does), once every player has kept; under the new text of 2015 only once the mulligan
    process is complete, that is once no player may still take the post-mulligan look."""
    c, o = step.target()
    p = step.action.player
    rule = step.on(Behaviour.OPENING_HAND_ACTIONS)
    step.require(rule is not None, "no rule in force lets a player act with a card of their opening hand")
    step.cite(rule)
    step.require(all(q.kept for q in step.players), "opening-hand actions come once every player has kept an opening hand")
    after_look = step.on(Behaviour.OPENING_HAND_AFTER_LOOK)
    if after_look:
        waiting = [PLAYER_NAMES[q] for q in range(step.world.players) if may_look(step.world.ruleset, step.before, q, step.world.starting_hand(q))]
        step.require(not waiting, f"the mulligan process is not complete: {', '.join(waiting)} may still look at the top card ({after_look})")
        step.cite(after_look)
    step.require(o.zone is Zone.HAND and o.whose == p, f"{step.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
    step.require(step.card_type(c) not in SPELL_ONLY_TYPES, f"{step.name(c)} is an instant or sorcery: not a permanent card")
    move(step, c, Zone.BATTLEFIELD, p, controller=p)


@symbolic(K.OPENING_HAND_ACTION)
@implements(Behaviour.OPENING_HAND_ACTIONS, Behaviour.OPENING_HAND_AFTER_LOOK, half="symbolic")
def encode_opening_hand_action(step: SymbolicStep, c: int) -> Effect:
    s, p = step.s, step.a.player
    waiting = step.codes.any_of(encode_may_look(step.system, step.t, step.codes.player[q]) for q in range(step.players))
    ready = And(
        step.on(Behaviour.OPENING_HAND_ACTIONS),
        step.codes.all_of(s.player("kept", q) for q in range(step.players)),
        Implies(step.on(Behaviour.OPENING_HAND_AFTER_LOOK), Not(waiting)),
    )
    guard = And(step.in_zone(s, c, Zone.HAND, p), Not(step.is_spell_type(c)), ready)
    moved = encode_move(step, c, Zone.BATTLEFIELD, p, controller=p)
    return Effect(guard, moved.outcome, moved.values)

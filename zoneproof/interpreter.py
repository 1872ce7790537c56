"""The plain-Python meaning of every action: `apply(world, state, action) -> Outcome`.

This is the readable half of the model. The encoder states the same semantics as Z3 constraints;
each is the other's oracle (every counterexample is replayed here before it is reported).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import (
    BOTTOM,
    COMMANDER_TYPES,
    START_ZONE,
    GAME_ZONES,
    MAX_COUNTERS,
    ORDERED_ZONES,
    PERSONAL_ZONES,
    PLAYER_NAMES,
    SPELL_ONLY_TYPES,
    Action,
    ActionKind,
    Behaviour,
    CardType,
    PREGAME_ACTIONS,
    GameState,
    ObjectState,
    PlayerState,
    Scope,
    Slot,
    Zone,
    modifier_of,
    teammates_of,
    zone_key,
)
from .ruleset import RuleSet

K = ActionKind

# The zones each moving action may take an object from (outside the game is added when 400.11c is off).
SOURCES: dict[ActionKind, tuple[Zone, ...]] = {
    K.EXILE: GAME_ZONES,
    K.MOVE_TO_COMMAND: GAME_ZONES,
    K.PUT_ONTO_BATTLEFIELD: (Zone.HAND, Zone.LIBRARY, Zone.GRAVEYARD, Zone.EXILE, Zone.COMMAND),
    K.PUT_INTO_LIBRARY: (Zone.HAND, Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.STACK, Zone.EXILE, Zone.COMMAND),
    K.RETURN_TO_HAND: (Zone.BATTLEFIELD, Zone.STACK, Zone.GRAVEYARD, Zone.EXILE, Zone.COMMAND),
    K.PUT_ONTO_BATTLEFIELD_FACE_DOWN: (Zone.HAND, Zone.LIBRARY, Zone.GRAVEYARD, Zone.EXILE, Zone.COMMAND),
}
# Actions that use the `player` field, and those that take no card. Tuples, not sets: the encoder
# iterates them, and set order varies between processes.
USES_PLAYER = (
    K.DRAW, K.MILL, K.CAST, K.SACRIFICE, K.PUT_INTO_LIBRARY, K.SHUFFLE, K.GAIN_CONTROL,
    K.CREATE_TOKEN, K.PUT_ONTO_BATTLEFIELD, K.SHUFFLE_HAND_INTO_LIBRARY, K.REORDER,
    K.CAST_FACE_DOWN, K.PUT_ONTO_BATTLEFIELD_FACE_DOWN,
    K.REVERSE_ILLEGAL_CAST,
    K.DRAW_HAND, K.MULLIGAN, K.KEEP, K.BOTTOM, K.POST_MULLIGAN_LOOK, K.OPENING_HAND_ACTION,
    K.SEARCH_LIBRARY,
)
NO_CARD = (K.SHUFFLE, K.REORDER, K.SHUFFLE_HAND_INTO_LIBRARY, K.STATE_BASED_ACTIONS, K.DRAW_HAND, K.MULLIGAN, K.KEEP)
# Actions that name a card but act on a whole pile (the encoder gives them a body of their own
# instead of the single-target form): the look moves the top card of a library to its bottom.
PILE_TARGET = (K.POST_MULLIGAN_LOOK,)
# Actions whose `n` places the card when the rule that fixes the place is off.
GRAVEYARD_BOUND = (K.DISCARD, K.MILL, K.RESOLVE, K.COUNTER, K.DESTROY, K.SACRIFICE)
# Actions that list cards: the zone-wide one (without 400.12) and state-based actions (the
# commanders whose owners put them into the command zone, 903.9a) and a mulligan (the new hand).
LISTS_CARDS = (K.SHUFFLE_HAND_INTO_LIBRARY, K.STATE_BASED_ACTIONS, K.MULLIGAN)
# Single-target actions that move their card to another zone: the moves a 903.9b replacement
# (`to_command`) may replace.
MOVES_CARD = (
    K.DRAW, K.DISCARD, K.MILL, K.CAST, K.RESOLVE, K.COUNTER, K.DESTROY, K.SACRIFICE, K.EXILE,
    K.RETURN_TO_HAND, K.PUT_INTO_LIBRARY, K.PUT_ONTO_BATTLEFIELD, K.MOVE_TO_COMMAND, K.BRING_IN,
    K.SEARCH_LIBRARY,
)
# Actions that may record the new order of piles they rearrange (`order`): shuffles, a rearrangement, a
# hand shuffled away, a mulligan, and a keep that shuffles back the cards a Commander mulligan set aside (903.8).
RECORDS_ORDER = (K.SHUFFLE, K.REORDER, K.SHUFFLE_HAND_INTO_LIBRARY, K.MULLIGAN, K.KEEP)
# What 400.7 wipes, apart from the effects (which 400.7a may carry).
NO_MEMORY = dict(counters=0, tapped=False, attached=False)


class IllegalAction(Exception):
    """The action is not possible in this state under these rules."""


class OrderMissing(IllegalAction):
    """The action rearranges a pile but does not record its new order: `key` names the pile
    (`zone_key`), `members` are the objects it must order, bottom first. Illegal as it stands; an
    explorer that fills in each order the interpreter asks for learns every outcome of the action."""

    def __init__(self, key: str, members: list[int]):
        super().__init__(f"the action does not record the new order of {key}")
        self.key = key
        self.members = tuple(members)


@dataclass(frozen=True)
class World:
    """What stays fixed during a run: the rule set, the scope's slots, and each card's type."""

    ruleset: RuleSet
    slots: tuple[Slot, ...]
    card_types: tuple[CardType, ...]
    players: int
    hand: int = 2  # the starting hand size (103.4), for rule sets with a pregame
    hand_modifiers: tuple[int, ...] = ()  # each player's vanguard hand modifier (Scope.hand_modifiers)
    team_size: int = 0  # see Scope.team_size

    def teammates(self, player: int) -> tuple[int, ...]:
        return teammates_of(self.team_size, self.players, player)

    def on(self, behaviour: Behaviour, zone: Zone | None = None) -> str | None:
        return self.ruleset.active(behaviour, zone)

    def starting_hand(self, player: int) -> int:
        """The player's starting hand size: the scope's, modified by their vanguard card where a
        rule in force says so (902.5, 103.5a)."""
        return starting_hand(self.ruleset, self.hand, self.hand_modifiers, player)

    @classmethod
    def of(cls, ruleset: RuleSet, slots: tuple[Slot, ...], card_types: tuple[CardType, ...], scope: Scope) -> "World":
        return cls(ruleset, slots, card_types, scope.players, scope.starting_hand, scope.hand_modifiers, scope.team_size)


@dataclass(frozen=True)
class Outcome:
    state: GameState
    rules: tuple[str, ...]  # the rules that decided the outcome


def apply(world: World, state: GameState, action: Action) -> Outcome:
    if not world.ruleset.allows(action.kind):
        raise IllegalAction(f"rule set '{world.ruleset.name}' has no action '{action.kind.value}'")
    _check_fields(world, action)
    if action.n != 0 and not uses_position(world, action):
        raise IllegalAction(f"{action.kind.value} takes no position here (n must be 0)")
    return _Step(world, state, action).run()


def uses_position(world: World, action: Action) -> bool:
    """Whether `n` places the card: always for put_into_library; for graveyard and stack arrivals
    only when 404.1 or 405.2 is not in force."""
    k = action.kind
    if k in (K.PUT_INTO_LIBRARY, K.POST_MULLIGAN_LOOK):
        return True
    if k in (K.CAST, K.CAST_FACE_DOWN):
        return not world.on(Behaviour.STACK_PUSH_TOP)
    if k in GRAVEYARD_BOUND:
        if k is K.RESOLVE and world.card_types[action.card] not in SPELL_ONLY_TYPES:
            return False
        return not world.on(Behaviour.GRAVEYARD_TOP)
    return False


def _check_fields(world: World, action: Action) -> None:
    k = action.kind
    if (k in NO_CARD) != (action.card is None):
        raise IllegalAction(f"{k.value} {'takes no' if k in NO_CARD else 'needs a'} card")
    if action.card is not None and not 0 <= action.card < len(world.slots):
        raise IllegalAction(f"no object slot {action.card}")
    needs_player = k in USES_PLAYER and not (k is K.REORDER and action.zone is Zone.STACK)
    if needs_player != (action.player is not None):
        raise IllegalAction(f"{k.value} {'needs a' if needs_player else 'takes no'} player")
    if action.player is not None and not 0 <= action.player < world.players:
        raise IllegalAction(f"no player {action.player}")
    if (k is K.REORDER) != (action.zone is not None):
        raise IllegalAction("only reorder names a zone")
    if action.n < 0:
        raise IllegalAction("n must be 0 or more")
    if action.cards and k not in LISTS_CARDS:
        raise IllegalAction("only a zone-wide action, state-based actions and a mulligan list cards")
    if action.to_command and k not in MOVES_CARD:
        raise IllegalAction(f"{k.value} moves no card to another zone: there is no move to put into the command zone instead")


class _Step:
    """One application of one action. Collects the rules that decided the outcome."""

    def __init__(self, world: World, state: GameState, action: Action):
        self.world = world
        # `revealed` and `shown` speak of one step only: each step starts with nothing revealed or shown.
        self.objects = [o.moved(revealed=False, shown=()) if o.revealed or o.shown else o for o in state.objects]
        self.players = list(state.players)
        self.started = state.started
        self.before = state
        self.action = action
        self.rules: list[str] = []
        self.replaced = False  # the action's `to_command` was used (903.9b)

    # ---------------------------------------------------------------- helpers

    def cite(self, rule_id: str | None) -> None:
        if rule_id and rule_id not in self.rules:
            self.rules.append(rule_id)

    def require(self, condition: bool, reason: str) -> None:
        if not condition:
            raise IllegalAction(reason)

    def slot(self, index: int) -> Slot:
        return self.world.slots[index]

    def name(self, index: int) -> str:
        return self.slot(index).name

    def pile(self, zone: Zone, player: int) -> list[int]:
        """Members of an ordered zone in the current (possibly half-updated) objects, bottom first."""
        members = [
            i for i, o in enumerate(self.objects)
            if o.zone is zone and (zone not in PERSONAL_ZONES or o.whose == player)
        ]
        return sorted(members, key=lambda i: self.objects[i].pos)

    def top_of_library(self, player: int) -> int:
        pile = self.pile(Zone.LIBRARY, player)
        self.require(bool(pile), f"{PLAYER_NAMES[player]}'s library is empty")
        return pile[-1]

    def new_object(self, old: ObjectState, keep_effect: bool = False, to_zone: Zone | None = None) -> dict:
        """Field changes for an object that becomes a new object (400.7), or for one that does not.
        A card put into a graveyard keeps its counters where Berserk's 205.4 is in force."""
        rule = self.world.on(Behaviour.NEW_OBJECT)
        if not rule:
            return {}
        self.cite(rule)
        carried = keep_effect and old.effect and self.world.on(Behaviour.SPELL_EFFECTS_CARRY)
        if carried:
            self.cite(self.world.on(Behaviour.SPELL_EFFECTS_CARRY))
        changes = dict(gen=old.gen + 1, **NO_MEMORY, effect=bool(carried))
        keeps_markers = to_zone is Zone.GRAVEYARD and self.world.on(Behaviour.GRAVEYARD_KEEPS_MARKERS)
        if keeps_markers and old.counters:
            self.cite(keeps_markers)
            changes["counters"] = old.counters
        return changes

    def renew_in_place(self, index: int, behaviour: Behaviour, **changes) -> None:
        """An object that stays in its zone but may become a new object (400.8, 400.9, 400.10)."""
        old = self.objects[index]
        rule = self.world.on(behaviour)
        if rule:
            self.cite(rule)
            changes.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
        self.objects[index] = old.moved(**changes)

    def token_stuck(self, index: int) -> bool:
        """111.8: a token that has left the battlefield stays where it is."""
        o = self.objects[index]
        if self.slot(index).is_token and o.zone not in (Zone.BATTLEFIELD, Zone.NOWHERE):
            rule = self.world.on(Behaviour.TOKEN_STAYS)
            if rule:
                self.cite(rule)
                return True
        return False

    def source_allowed(self, zone: Zone, sources: tuple[Zone, ...]) -> bool:
        if zone is Zone.OUTSIDE:
            return not self.world.on(Behaviour.OUTSIDE_UNTOUCHABLE)
        return zone in sources

    def destination_player(self, index: int, zone: Zone, named: int) -> int:
        owner = self.slot(index).owner
        if zone not in PERSONAL_ZONES:
            return owner
        rule = self.world.on(Behaviour.OWNER_REDIRECT, zone)
        if rule and named != owner:
            self.cite(rule)
            return owner
        return named

    def insertion_pos(self, zone: Zone, size_before: int) -> int:
        """Where a newcomer goes in an ordered zone, counted from the bottom."""
        n = self.action.n
        fixed_rule = {Zone.GRAVEYARD: Behaviour.GRAVEYARD_TOP, Zone.STACK: Behaviour.STACK_PUSH_TOP}.get(zone)
        if zone is Zone.LIBRARY:
            if n == BOTTOM:
                return 0
            if n > size_before:
                rule = self.world.on(Behaviour.NTH_FROM_TOP_SHORT)
                self.require(rule is not None, f"the library has fewer than {n} cards and 401.7 is not in force")
                self.cite(rule)
                return 0
            return size_before + 1 - n
        rule = self.world.on(fixed_rule)
        if rule:
            self.cite(rule)
            return size_before
        self.require(n <= size_before + 1, f"position {n} from the top is past the bottom of the {zone.value}")
        return 0 if n == BOTTOM else size_before + 1 - n

    def move(self, index: int, zone: Zone, named: int, controller: int | None = None, keep_effect: bool = False, face_down: bool = False) -> None:
        """Move one object to another zone: leave its old pile, enter the new one, become a new object."""
        old = self.objects[index]
        if self.token_stuck(index):
            return
        if self.command_instead(index, zone, named):
            return
        self.require_open(zone)
        whose = self.destination_player(index, zone, named)
        self.require((zone, whose) != (old.zone, old.whose) or zone not in ORDERED_ZONES, "the object is already there")
        if old.zone in ORDERED_ZONES:
            for i in self.pile(old.zone, old.whose):
                if self.objects[i].pos > old.pos:
                    self.objects[i] = self.objects[i].moved(pos=self.objects[i].pos - 1)
        pos = 0
        if zone in ORDERED_ZONES:
            pile = [i for i in self.pile(zone, whose) if i != index]
            pos = self.insertion_pos(zone, len(pile))
            for i in pile:
                if self.objects[i].pos >= pos:
                    self.objects[i] = self.objects[i].moved(pos=self.objects[i].pos + 1)
        owner = self.slot(index).owner
        in_play = zone in (Zone.BATTLEFIELD, Zone.STACK)
        changes = dict(
            zone=zone,
            whose=whose,
            pos=pos,
            controller=controller if in_play and controller is not None else owner,
            face_down=face_down,
        )
        changes.update(self.new_object(old, keep_effect, zone))
        self.objects[index] = old.moved(**changes)

    def command_instead(self, index: int, zone: Zone, named: int) -> bool:
        """The owner puts a commander into the command zone instead of `zone` (903.9b; 903.9 before
        July 2020), when the action records that choice. Not offered to a commander already in the
        command zone: it would only be put back where it is."""
        if not self.action.to_command or self.replaced:
            return False
        self.replaced = True
        slot = self.slot(index)
        self.require(slot.is_commander, f"{slot.name} is not a commander; only a commander's owner may put it into the command zone instead")
        self.require(self.objects[index].zone is not Zone.COMMAND, f"{slot.name} is already in the command zone")
        whose = self.destination_player(index, zone, named)
        self.require(whose == slot.owner, f"{slot.name} is headed for {PLAYER_NAMES[whose]}'s {zone.value}, not its owner's: no rule replaces that")
        rule = self.world.on(Behaviour.COMMANDER_REPLACE, zone)
        self.require(rule is not None or self.world.ruleset.fallback_replacement(zone) is not None,
                     f"no rule in force lets {slot.name} go to the command zone instead of the {zone.value}")
        self.cite(rule)
        self.move(index, Zone.COMMAND, slot.owner)
        return True

    def require_open(self, zone: Zone) -> None:
        closed_by = self.world.ruleset.rules_for(Behaviour.ZONE_CLOSED, zone)
        self.require(not closed_by, f"nothing may enter the {zone.value}: rule {closed_by[0] if closed_by else ''} closes it")

    def set_order(self, zone: Zone, player: int | None) -> None:
        """Apply the order recorded in the action to one ordered zone (a shuffle or rearrangement)."""
        key = zone_key(zone, player)
        order = self.action.order_for(key)
        members = self.pile(zone, player if player is not None else 0)
        if order is None:
            raise OrderMissing(key, members)
        self.require(sorted(order) == sorted(members), f"the recorded order of {key} is not a rearrangement of its cards")
        for depth_from_top, i in enumerate(order):
            self.objects[i] = self.objects[i].moved(pos=len(order) - 1 - depth_from_top)

    # ---------------------------------------------------------------- actions

    def run(self) -> Outcome:
        if self.world.ruleset.has_pregame:
            self.pregame_gate()
        self.shuffle_first()
        handler = getattr(self, f"do_{self.action.kind.value}")
        handler()
        self.reveal()
        if self.action.kind not in RECORDS_ORDER:
            self.require(not self.action.order, f"{self.action.kind.value} records no order")
        self.require(not self.action.to_command or self.replaced, f"{self.action.kind.value} moved no commander that could go to the command zone instead")
        self.track_fresh()
        return Outcome(GameState(tuple(self.objects), tuple(self.players), self.started), tuple(self.rules))

    def track_fresh(self) -> None:
        """903.9a's memory, kept for commanders: put into a zone (or made a new object there) since
        state-based actions were last performed."""
        for i, slot in enumerate(self.world.slots):
            if not slot.is_commander:
                continue
            old, new = self.before.objects[i], self.objects[i]
            if self.action.kind is K.STATE_BASED_ACTIONS:
                fresh = False
            else:
                fresh = old.fresh or (new.zone, new.whose, new.gen) != (old.zone, old.whose, old.gen)
            self.objects[i] = new.moved(fresh=fresh)

    def shuffle_first(self) -> None:
        """204.3: a deck looked through is shuffled before anything else happens; a shuffle of a
        player's library ends its looked-through state whatever the rules."""
        if not self.players:
            return
        rule = self.world.on(Behaviour.SHUFFLE_AFTER_SEARCH)
        for p, record in enumerate(self.players):
            if not record.searched:
                continue
            shuffles = self.action.kind is K.SHUFFLE and self.action.player == p
            if rule:
                self.require(shuffles, f"{PLAYER_NAMES[p]}'s library was looked through and must be shuffled first ({rule})")
                self.cite(rule)
            if shuffles:
                self.players[p] = record.moved(searched=False)

    def pregame_gate(self) -> None:
        """Pregame actions happen before the game starts; the first ordinary action starts it, which
        it may do from the bare start (nobody has drawn an opening hand: the pregame is skipped, as
        in a rule set without one) or once every player has kept (the mulligan process is over)."""
        self.require(len(self.players) == self.world.players, "the state has no pregame record for every player")
        if self.action.kind in PREGAME_ACTIONS:
            self.require(not self.started, "the game has started: the pregame is over")
            return
        untouched = not any(p.drawn for p in self.players)
        complete = all(p.kept and p.owed == 0 for p in self.players)
        self.require(self.started or untouched or complete, "the mulligan process is not over: some player has not kept an opening hand")
        self.started = True
    def target(self) -> tuple[int, ObjectState]:
        return self.action.card, self.objects[self.action.card]

    def do_draw(self) -> None:
        self.draw_like(Zone.HAND)

    def do_mill(self) -> None:
        self.draw_like(Zone.GRAVEYARD)

    def draw_like(self, zone: Zone) -> None:
        p = self.action.player
        top = self.top_of_library(p)
        self.require(self.action.card == top, f"{self.name(self.action.card)} is not the top card of {PLAYER_NAMES[p]}'s library")
        self.move(top, zone, p)

    def do_discard(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.HAND, f"{self.name(c)} is not in a hand")
        self.move(c, Zone.GRAVEYARD, o.whose)

    def do_cast(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require_castable(c, o, p)
        self.require(not self.slot(c).is_token, "a token cannot be cast")
        self.require(self.world.card_types[c] is not CardType.LAND, f"{self.name(c)} is a land and cannot be cast")
        self.move(c, Zone.STACK, p, controller=p)

    def require_castable(self, c: int, o: ObjectState, p: int) -> None:
        """The card is where player p may cast it from: p's hand, or the command zone for a
        commander p owns (903.8)."""
        if o.zone is Zone.COMMAND and self.slot(c).is_commander and self.slot(c).owner == p:
            rule = self.world.on(Behaviour.COMMANDER_CAST)
            self.require(rule is not None, f"no rule in force lets {PLAYER_NAMES[p]} cast {self.name(c)} from the command zone")
            self.cite(rule)
            return
        self.require(o.zone is Zone.HAND and o.whose == p, f"{self.name(c)} is not in {PLAYER_NAMES[p]}'s hand")

    def do_reverse_illegal_cast(self) -> None:
        """Player p proposes casting a card (601.2a moves it to the stack), the proposal turns out
        illegal (601.2e), and the game returns to the moment before the proposal (601.2): the card
        is where it was, the same object. Without 601.2 the move back is an ordinary zone change,
        so the card returns to where it was as a new object (400.7)."""
        c, o = self.target()
        p = self.action.player
        self.require_castable(c, o, p)
        self.require(not self.slot(c).is_token, "a token cannot be cast")
        self.require(self.world.card_types[c] is not CardType.LAND, f"{self.name(c)} is a land and cannot be cast")
        rule = self.world.on(Behaviour.ILLEGAL_CAST_REVERSED)
        if rule:
            self.cite(rule)
            return
        self.objects[c] = o.moved(**self.new_object(o))

    def do_resolve(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.STACK, f"{self.name(c)} is not on the stack")
        rule = self.world.on(Behaviour.STACK_TOP_ONLY)
        if rule:
            self.require(o.pos == len(self.pile(Zone.STACK, 0)) - 1, f"{self.name(c)} is not the top of the stack (405.5)")
            self.cite(rule)
        if self.world.card_types[c] in SPELL_ONLY_TYPES and not self.face_down_creature(o):
            self.move(c, Zone.GRAVEYARD, o.controller)
        else:
            face_down = o.face_down and self.world.on(Behaviour.FACE_DOWN_SPELL_BECOMES_FACE_DOWN)
            if face_down:
                self.cite(face_down)
            self.move(c, Zone.BATTLEFIELD, o.controller, controller=o.controller, keep_effect=True, face_down=bool(face_down))

    def face_down_creature(self, o: ObjectState) -> bool:
        """708.2a: a face-down spell is a creature spell whatever the card is, so even a face-down
        instant or sorcery resolves onto the battlefield."""
        rule = o.face_down and self.world.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
        if rule:
            self.cite(rule)
        return bool(rule)

    def do_counter(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.STACK, f"{self.name(c)} is not on the stack")
        self.move(c, Zone.GRAVEYARD, o.controller)

    def do_destroy(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.BATTLEFIELD, f"{self.name(c)} is not on the battlefield")
        self.move(c, Zone.GRAVEYARD, o.controller)

    def do_sacrifice(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require(o.zone is Zone.BATTLEFIELD and o.controller == p, f"{PLAYER_NAMES[p]} does not control {self.name(c)} on the battlefield")
        self.move(c, Zone.GRAVEYARD, p)

    def do_exile(self) -> None:
        self.move_or_renew(Zone.EXILE, Behaviour.EXILE_IN_EXILE)

    def move_or_renew(self, zone: Zone, behaviour: Behaviour) -> None:
        """Exile and move_to_command: an object already there stays and may become new (400.8, 400.10)."""
        c, o = self.target()
        self.require(self.source_allowed(o.zone, SOURCES[self.action.kind]), f"{self.name(c)} cannot be moved from {o.zone.value} by {self.action.kind.value}")
        if o.zone is zone:
            self.renew_in_place(c, behaviour)
        else:
            self.move(c, zone, self.slot(c).owner)

    def do_return_to_hand(self) -> None:
        c, o = self.target()
        self.require(self.source_allowed(o.zone, SOURCES[K.RETURN_TO_HAND]), f"{self.name(c)} cannot be returned to a hand from {o.zone.value}")
        self.move(c, Zone.HAND, o.controller)

    def do_put_into_library(self) -> None:
        c, o = self.target()
        self.require(self.source_allowed(o.zone, SOURCES[K.PUT_INTO_LIBRARY]), f"{self.name(c)} cannot be put into a library from {o.zone.value}")
        self.move(c, Zone.LIBRARY, self.action.player)

    def do_shuffle(self) -> None:
        self.set_order(Zone.LIBRARY, self.action.player)

    def do_reorder(self) -> None:
        zone = self.action.zone
        self.require(zone in ORDERED_ZONES, f"{zone.value} has no order to rearrange")
        fixed_by = self.world.ruleset.rules_for(Behaviour.ORDER_FIXED, zone)
        self.require(not fixed_by, f"the order of the {zone.value} is fixed by {', '.join(fixed_by)}")
        self.set_order(zone, self.action.player)

    def do_gain_control(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require(o.zone in (Zone.BATTLEFIELD, Zone.STACK), f"{self.name(c)} is neither a permanent nor a spell")
        self.require(o.controller != p, f"{PLAYER_NAMES[p]} already controls {self.name(c)}")
        self.objects[c] = o.moved(controller=p)

    def do_create_token(self) -> None:
        c, o = self.target()
        p = self.action.player
        slot = self.slot(c)
        self.require(slot.is_token and slot.owner == p, f"{slot.name} is not a token slot of {PLAYER_NAMES[p]}")
        self.require(o.zone is Zone.NOWHERE and o.gen == 0, f"{slot.name} has already been created")
        self.require_open(Zone.BATTLEFIELD)
        self.objects[c] = o.moved(zone=Zone.BATTLEFIELD, whose=p, controller=p, gen=1)

    def do_put_onto_battlefield(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require(self.source_allowed(o.zone, SOURCES[K.PUT_ONTO_BATTLEFIELD]), f"{self.name(c)} cannot be put onto the battlefield from {o.zone.value}")
        if not self.slot(c).is_token and self.world.card_types[c] in SPELL_ONLY_TYPES:
            rule = self.world.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
            if rule:
                self.cite(rule)
                return
        self.move(c, Zone.BATTLEFIELD, p, controller=p)

    def do_move_to_command(self) -> None:
        self.move_or_renew(Zone.COMMAND, Behaviour.COMMAND_IN_COMMAND)

    def do_turn_face_down(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.COMMAND and not o.face_down, f"{self.name(c)} is not a face-up object in the command zone")
        self.renew_in_place(c, Behaviour.COMMAND_FACE_DOWN, face_down=True)

    def do_search_library(self) -> None:
        """204.3: a player looks through their own deck (only its owner may) and takes a card from it
        into their hand; the deck now counts as looked through until it is shuffled."""
        c, o = self.target()
        p = self.action.player
        self.require(o.zone is Zone.LIBRARY and o.whose == p, f"{self.name(c)} is not in {PLAYER_NAMES[p]}'s library")
        self.move(c, Zone.HAND, p)
        self.players[p] = self.players[p].moved(searched=True)

    def do_bring_in(self) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.OUTSIDE, f"{self.name(c)} is not outside the game")
        self.move(c, Zone.HAND, self.slot(c).owner)

    def do_shuffle_hand_into_library(self) -> None:
        p = self.action.player
        hand = [i for i, o in enumerate(self.objects) if o.zone is Zone.HAND and o.whose == p]
        rule = self.world.on(Behaviour.ZONE_WIDE)
        if rule:
            self.require(not self.action.cards, "with 400.12 in force the whole hand moves; the action lists no cards")
            self.cite(rule)
            moving = hand
        else:
            self.require(set(self.action.cards) <= set(hand), "the action lists cards that are not in the hand")
            moving = sorted(self.action.cards)
        receiving = set()
        for i in moving:
            if self.token_stuck(i):
                continue
            self.require_open(Zone.LIBRARY)
            whose = self.destination_player(i, Zone.LIBRARY, p)
            receiving.add(whose)
            old = self.objects[i]
            changes = dict(zone=Zone.LIBRARY, whose=whose, controller=self.slot(i).owner, face_down=False, pos=0)
            changes.update(self.new_object(old))
            self.objects[i] = old.moved(**changes)
        for q in sorted(receiving):
            self.set_order(Zone.LIBRARY, q)
        expected = {zone_key(Zone.LIBRARY, q) for q in receiving}
        self.require({k for k, _ in self.action.order} == expected, "the action must record the new order of exactly the libraries that received cards")

    def do_tap(self) -> None:
        self.mark(lambda o: not o.tapped, "untapped permanent", tapped=True)

    def do_attach(self) -> None:
        self.mark(lambda o: not o.attached, "permanent with nothing attached", attached=True)

    def do_add_counter(self) -> None:
        c, o = self.target()
        self.mark(lambda o: o.counters < MAX_COUNTERS, f"permanent with fewer than {MAX_COUNTERS} counters", counters=o.counters + 1)

    def mark(self, allowed, description: str, **changes) -> None:
        c, o = self.target()
        self.require(o.zone is Zone.BATTLEFIELD and allowed(o), f"{self.name(c)} is not an {description}")
        self.objects[c] = o.moved(**changes)

    def do_apply_effect(self) -> None:
        c, o = self.target()
        self.require(o.zone in (Zone.BATTLEFIELD, Zone.STACK) and not o.effect, f"{self.name(c)} is not a permanent or spell without an effect")
        self.objects[c] = o.moved(effect=True)

    def do_state_based_actions(self) -> None:
        self.commanders_to_command()
        rule = self.world.on(Behaviour.TOKEN_CEASES)
        if not rule:
            return
        ceasing = [
            i for i, o in enumerate(self.objects)
            if self.slot(i).is_token and o.zone not in (Zone.BATTLEFIELD, Zone.NOWHERE)
        ]
        if ceasing:
            self.cite(rule)
        for i in ceasing:
            old = self.objects[i]
            self.objects[i] = old.moved(zone=Zone.NOWHERE, whose=self.slot(i).owner, controller=self.slot(i).owner, pos=0, face_down=False)
        self.compact_piles()

    def commanders_to_command(self) -> None:
        """903.9a: each commander the action lists, in a graveyard or exile since state-based actions
        were last performed, goes to the command zone (its owner's choice, recorded in `cards`)."""
        for i in self.action.cards:
            slot, o = self.slot(i), self.objects[i]
            self.require(slot.is_commander, f"{slot.name} is not a commander")
            rule = self.world.on(Behaviour.COMMANDER_RETURN_SBA)
            self.require(rule is not None, f"no rule in force lets state-based actions put {slot.name} into the command zone")
            self.require(o.zone in (Zone.GRAVEYARD, Zone.EXILE) and o.fresh,
                         f"{slot.name} was not put into a graveyard or exile since state-based actions were last performed")
            self.cite(rule)
            self.move(i, Zone.COMMAND, slot.owner)

    def compact_piles(self) -> None:
        """Close the gaps that leaving objects left in ordered zones, keeping the order of those that stay."""
        piles: dict[tuple, list[int]] = {}
        for i, o in enumerate(self.objects):
            if o.zone in ORDERED_ZONES:
                piles.setdefault((o.zone, o.whose if o.zone in PERSONAL_ZONES else None), []).append(i)
        for members in piles.values():
            for rank, i in enumerate(sorted(members, key=lambda i: self.objects[i].pos)):
                self.objects[i] = self.objects[i].moved(pos=rank)

    # ---------------------------------------------------------------- face-down spells and permanents (708)

    @staticmethod
    def revealed_by_move(before: ObjectState, after: ObjectState) -> bool:
        """708.9: a face-down permanent leaving the battlefield, or a face-down spell leaving the stack
        for anywhere but the battlefield."""
        if not before.face_down:
            return False
        if before.zone is Zone.BATTLEFIELD:
            return after.zone is not Zone.BATTLEFIELD
        return before.zone is Zone.STACK and after.zone not in (Zone.STACK, Zone.BATTLEFIELD)

    def reveal(self) -> None:
        """Mark what this step revealed to all players (708.9)."""
        rule = self.world.on(Behaviour.FACE_DOWN_REVEAL)
        if not rule:
            return
        for i, (old, new) in enumerate(zip(self.before.objects, self.objects)):
            if self.revealed_by_move(old, new):
                self.cite(rule)
                self.objects[i] = new.moved(revealed=True)

    def do_cast_face_down(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require(o.zone is Zone.HAND and o.whose == p, f"{self.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
        self.require(not self.slot(c).is_token, "a token cannot be cast")
        if self.world.card_types[c] is CardType.LAND:
            rule = self.world.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
            self.require(rule is not None, f"{self.name(c)} is a land and cannot be cast (without 708.2a a face-down spell keeps its card types)")
            self.cite(rule)
        self.move(c, Zone.STACK, p, controller=p, face_down=True)

    def do_put_onto_battlefield_face_down(self) -> None:
        c, o = self.target()
        p = self.action.player
        self.require(self.source_allowed(o.zone, SOURCES[K.PUT_ONTO_BATTLEFIELD_FACE_DOWN]), f"{self.name(c)} cannot be put onto the battlefield from {o.zone.value}")
        if not self.slot(c).is_token and self.world.card_types[c] in SPELL_ONLY_TYPES:
            keeps_out = self.world.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
            turned_first = self.world.on(Behaviour.FACE_DOWN_BEFORE_ENTERING)
            characteristics = self.world.on(Behaviour.FACE_DOWN_CHARACTERISTICS)
            if keeps_out and turned_first and characteristics:
                # 708.3: turned face down before it enters, so it enters as a 2/2 creature (708.2a).
                self.cite(turned_first)
                self.cite(characteristics)
            elif keeps_out:
                self.cite(keeps_out)
                return
        self.move(c, Zone.BATTLEFIELD, p, controller=p, face_down=True)

    def do_turn_face_up(self) -> None:
        c, o = self.target()
        permanents_only = self.world.on(Behaviour.FACE_UP_PERMANENTS_ONLY)
        on_field = o.zone is Zone.BATTLEFIELD
        spell = o.zone is Zone.STACK and not permanents_only
        self.require(
            o.face_down and (on_field or spell),
            f"{self.name(c)} is not a face-down permanent" + (" (708.7: a spell cannot be turned face up)" if o.zone is Zone.STACK and permanents_only else ""),
        )
        if on_field and not self.slot(c).is_token and self.world.card_types[c] in SPELL_ONLY_TYPES:
            keeps_out = self.world.on(Behaviour.SPELLS_STAY_OFF_BATTLEFIELD)
            if keeps_out:
                # Face up it would be an instant or sorcery on the battlefield: it stays face down.
                self.cite(keeps_out)
                return
        same = self.world.on(Behaviour.FACE_UP_SAME_OBJECT)
        if same:
            self.cite(same)
            self.objects[c] = o.moved(face_down=False)
        else:
            self.objects[c] = o.moved(face_down=False, gen=o.gen + 1, **NO_MEMORY, effect=False)


    # ---------------------------------------------------------------- the pregame (103.4, 103.5)

    def starting_hand(self, p: int) -> int:
        """The player's starting hand size, citing the vanguard rule where it changes it."""
        size = self.world.starting_hand(p)
        if size != self.world.hand:
            self.cite(self.world.on(Behaviour.HAND_MODIFIER))
        return size

    def player_state(self) -> tuple[int, PlayerState]:
        p = self.action.player
        return p, self.players[p]

    def do_draw_hand(self) -> None:
        p, ps = self.player_state()
        self.require(not ps.drawn, f"{PLAYER_NAMES[p]} has already drawn an opening hand")
        library = self.pile(Zone.LIBRARY, p)
        size = self.starting_hand(p)
        self.require(len(library) >= size, f"{PLAYER_NAMES[p]}'s library has fewer cards than the starting hand size")
        for i in reversed(library[len(library) - size:]):  # top first: each is the top when it moves
            self.move(i, Zone.HAND, p)
        self.players[p] = ps.moved(drawn=True)

    def require_declaring(self, p: int, ps: PlayerState, what: str) -> None:
        self.require(ps.drawn and not ps.kept, f"{PLAYER_NAMES[p]} cannot {what}: no opening hand drawn, or already kept")
        self.require(ps.owed == 0, f"{PLAYER_NAMES[p]} must first put {ps.owed} more card(s) on the bottom (103.5)")

    def do_mulligan(self) -> None:
        p, ps = self.player_state()
        self.require_declaring(p, ps, "take a mulligan")
        hand = [i for i, o in enumerate(self.objects) if o.zone is Zone.HAND and o.whose == p]
        library = self.pile(Zone.LIBRARY, p)
        zero_rule = self.world.on(Behaviour.MULLIGAN_KEEP_ZERO)
        if zero_rule:
            self.require(bool(hand), f"{PLAYER_NAMES[p]}'s hand has no cards: it must be kept ({zero_rule})")
            self.cite(zero_rule)
        free_rule = self.world.on(Behaviour.MULLIGAN_FREE_FIRST)
        free = bool(free_rule) and self.world.players > 2 and not ps.free_taken  # a multiplayer game begins with more than two players
        if free:
            self.cite(free_rule)
        counted = ps.mulligans + (0 if free else 1)
        london, paris = self.world.on(Behaviour.MULLIGAN_LONDON), self.world.on(Behaviour.MULLIGAN_ONE_FEWER)
        partial = self.world.on(Behaviour.MULLIGAN_PARTIAL_PARIS)
        if partial and not london:
            self.cite(partial)
            self.partial_paris(p, ps, hand, library, free)
            self.players[p] = ps.moved(mulligans=counted, free_taken=ps.free_taken or free)
            return
        owed = 0
        if london:
            self.cite(london)
            size, owed = self.starting_hand(p), counted
        elif paris:
            self.cite(paris)
            size = max(0, len(hand) - (0 if free else 1))
        else:  # the mulligan of early Magic: a full new hand
            size = self.starting_hand(p)
        members = hand + library
        self.require(size <= len(members), f"{PLAYER_NAMES[p]} has fewer cards than the new hand needs")
        if hand:
            self.require_open(Zone.LIBRARY)
        if size:
            self.require_open(Zone.HAND)
        key = zone_key(Zone.LIBRARY, p)
        order = self.action.order_for(key)
        new_hand = set(self.action.cards)
        if order is None:
            raise OrderMissing(key, [i for i in members if i not in new_hand])
        self.require({k for k, _ in self.action.order} == {key}, f"a mulligan records the new order of {key} and nothing else")
        self.require(len(new_hand) == size, f"the new hand has {size} cards, the action lists {len(new_hand)}")
        self.require(sorted([*new_hand, *order]) == sorted(members), f"the new hand and {key} must together be the old hand and library")
        renew = self.world.on(Behaviour.NEW_OBJECT)
        for i in members:
            old = self.objects[i]
            changes = int(old.zone is Zone.HAND) + int(i in new_hand)  # into the library, then into the hand
            fields = dict(zone=Zone.HAND if i in new_hand else Zone.LIBRARY, whose=p, controller=self.slot(i).owner, face_down=False,
                          pos=0 if i in new_hand else len(order) - 1 - order.index(i))
            if renew and changes:
                self.cite(renew)
                fields.update(gen=old.gen + changes, **NO_MEMORY, effect=False)
            self.objects[i] = old.moved(**fields)
        self.players[p] = ps.moved(mulligans=counted, owed=owed, free_taken=ps.free_taken or free)

    def partial_paris(self, p: int, ps: PlayerState, hand: list[int], library: list[int], free: bool) -> None:
        """903.8 (Commander until 2016): the cards of the hand not in the new hand are exiled face
        down, and one card fewer than that is drawn from the top of the library (as many with a free
        mulligan); the library is not shuffled. `cards` is the new hand."""
        new_hand = set(self.action.cards)
        set_aside = [i for i in hand if i not in new_hand]
        drawn = sorted(i for i in new_hand if i not in hand)
        self.require(bool(set_aside), "a partial Paris mulligan sets aside at least one card")
        self.require(not self.action.order, "a partial Paris mulligan does not shuffle the library: it records no order")
        count = len(set_aside) - (0 if free else 1)
        self.require(count <= len(library), f"{PLAYER_NAMES[p]}'s library has fewer than {count} cards")
        self.require(drawn == sorted(library[len(library) - count:]), f"the new hand must be the kept cards and the top {count} card(s) of the library")
        if set_aside:
            self.require_open(Zone.EXILE)
        if drawn:
            self.require_open(Zone.HAND)
        for i in reversed(library[len(library) - count:]):  # top first
            self.move(i, Zone.HAND, p)
        renew = self.world.on(Behaviour.NEW_OBJECT)
        for i in set_aside:
            old = self.objects[i]
            fields = dict(zone=Zone.EXILE, whose=self.slot(i).owner, controller=self.slot(i).owner, pos=0, face_down=True)
            if renew:
                self.cite(renew)
                fields.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
            self.objects[i] = old.moved(**fields)

    def do_keep(self) -> None:
        p, ps = self.player_state()
        self.require_declaring(p, ps, "keep")
        self.players[p] = ps.moved(kept=True)
        rule = self.world.on(Behaviour.MULLIGAN_RETURN_SET_ASIDE)
        returning = [i for i, o in enumerate(self.objects) if o.zone is Zone.EXILE and o.face_down and self.slot(i).owner == p]
        if not rule or not returning:
            self.require(not self.action.order, "keep records no order unless cards set aside are shuffled back")
            return
        self.cite(rule)  # the cards set aside face down are shuffled into the library
        self.require_open(Zone.LIBRARY)
        renew = self.world.on(Behaviour.NEW_OBJECT)
        for i in returning:
            old = self.objects[i]
            fields = dict(zone=Zone.LIBRARY, whose=p, controller=p, pos=0, face_down=False)
            if renew:
                self.cite(renew)
                fields.update(gen=old.gen + 1, **NO_MEMORY, effect=False)
            self.objects[i] = old.moved(**fields)
        self.set_order(Zone.LIBRARY, p)
        self.require({k for k, _ in self.action.order} == {zone_key(Zone.LIBRARY, p)}, "the keep records the new order of the library the set-aside cards are shuffled into")

    def do_bottom(self) -> None:
        c, o = self.target()
        p, ps = self.player_state()
        self.require(ps.owed > 0, f"{PLAYER_NAMES[p]} owes no card to the bottom of their library")
        self.require(o.zone is Zone.HAND and o.whose == p, f"{self.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
        self.move(c, Zone.LIBRARY, p)
        self.players[p] = ps.moved(owed=ps.owed - 1)

    def do_post_mulligan_look(self) -> None:
        c, o = self.target()
        p, ps = self.player_state()
        refusal = look_refusal(self.world.ruleset, self.before, p, self.world.starting_hand(p))
        if refusal:
            raise IllegalAction(refusal)
        self.cite(self.world.on(Behaviour.MULLIGAN_LOOK))
        self.cite(self.world.on(Behaviour.MULLIGAN_LOOK_SMALLER))
        self.require(c == self.top_of_library(p), f"{self.name(c)} is not the top card of {PLAYER_NAMES[p]}'s library")
        self.require(self.action.n in (0, 1), "n is 0 (the card goes to the bottom) or 1 (it stays on top)")
        if self.action.n == 0:
            for i in self.pile(Zone.LIBRARY, p):
                if i != c:
                    self.objects[i] = self.objects[i].moved(pos=self.objects[i].pos + 1)
        self.objects[c] = o.moved(pos=0 if self.action.n == 0 else o.pos, shown=self.look_audience(p))
        self.players[p] = ps.moved(looked=True)

    def look_audience(self, p: int) -> tuple[int, ...]:
        """Who sees the card of the post-mulligan look: the player who looks and, in a team game
        under the Two-Headed Giant rule of 2015, their teammates."""
        teammates = self.world.teammates(p)
        rule = self.world.on(Behaviour.MULLIGAN_TEAM_LOOK)
        if not (rule and teammates):
            return (p,)
        self.cite(rule)
        return tuple(sorted((p, *teammates)))

    def do_opening_hand_action(self) -> None:
        """103.6: a player puts a permanent card from their opening hand onto the battlefield (as a
        Leyline does), once every player has kept; under the new text of 2015 only once the mulligan
        process is complete, that is once no player may still take the post-mulligan look."""
        c, o = self.target()
        p = self.action.player
        rule = self.world.on(Behaviour.OPENING_HAND_ACTIONS)
        self.require(rule is not None, "no rule in force lets a player act with a card of their opening hand")
        self.cite(rule)
        self.require(all(q.kept for q in self.players), "opening-hand actions come once every player has kept an opening hand")
        after_look = self.world.on(Behaviour.OPENING_HAND_AFTER_LOOK)
        if after_look:
            waiting = [PLAYER_NAMES[q] for q in range(self.world.players) if may_look(self.world.ruleset, self.before, q, self.world.starting_hand(q))]
            self.require(not waiting, f"the mulligan process is not complete: {', '.join(waiting)} may still look at the top card ({after_look})")
            self.cite(after_look)
        self.require(o.zone is Zone.HAND and o.whose == p, f"{self.name(c)} is not in {PLAYER_NAMES[p]}'s hand")
        self.require(self.world.card_types[c] not in SPELL_ONLY_TYPES, f"{self.name(c)} is an instant or sorcery: not a permanent card")
        self.move(c, Zone.BATTLEFIELD, p, controller=p)


def starting_hand(ruleset: RuleSet, hand: int, hand_modifiers: tuple[int, ...], player: int) -> int:
    return hand + modifier_of(hand_modifiers, player) if ruleset.active(Behaviour.HAND_MODIFIER) else hand


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


def check_initial(world: World, state: GameState) -> None:
    """A check starts at the start of a game: each deck in its owner's library, sideboards outside."""
    for slot, o in zip(world.slots, state.objects):
        expected = START_ZONE[slot.kind.value]
        if o.zone is not expected or o.whose != slot.owner or o.controller != slot.owner or o.gen != 0 or o.fresh:
            raise IllegalAction(f"{slot.name} does not start where a game starts ({expected.value} of {PLAYER_NAMES[slot.owner]})")
    for slot, o in zip(world.slots, state.objects):
        closed_by = world.ruleset.rules_for(Behaviour.ZONE_CLOSED, o.zone)
        if closed_by:
            raise IllegalAction(f"{slot.name} starts in the {o.zone.value}, which rule {closed_by[0]} closes")
    for p in range(world.players):
        positions = sorted(state.objects[i].pos for i in state.zone_members(Zone.LIBRARY, p))
        if positions != list(range(len(positions))):
            raise IllegalAction(f"{PLAYER_NAMES[p]}'s library positions are not 0..{len(positions) - 1}")
    for slot, t in zip(world.slots, world.card_types):
        if slot.is_token and t is not CardType.CREATURE:
            raise IllegalAction(f"token {slot.name} must be a creature")
        if slot.is_commander and t not in COMMANDER_TYPES:
            raise IllegalAction(f"commander {slot.name} must be a creature or a planeswalker (903.3)")
    if world.ruleset.tracks_players and (state.players != tuple(PlayerState() for _ in range(world.players)) or state.started):
        raise IllegalAction("a game starts with no opening hand drawn, no mulligan taken and no library looked through")


def sees(ruleset: RuleSet, state: GameState, player: int, index: int) -> bool:
    """Whether `player` may see the face of the object in slot `index` (400.2, 402.3, 708.5, 708.9).

    Not in the game (outside, a token that does not exist): nobody. Revealed by the step that led
    here (708.9): everyone; shown by it (the post-mulligan look): those it was shown to. Face down:
    on the battlefield or the stack its controller (708.5), in exile before the game starts its
    owner where the Commander mulligan lets a player look at the cards it set aside (903.8),
    elsewhere nobody (406.3, 708.5). Face up: a hand only its player, a library nobody (400.2,
    401.2, 402.3); a public zone everyone."""
    o = state.objects[index]
    if o.zone in (Zone.OUTSIDE, Zone.NOWHERE):
        return False
    if o.revealed or player in o.shown:
        return True
    if o.face_down:
        if o.zone is Zone.EXILE:
            return not state.started and ruleset.active(Behaviour.MULLIGAN_LOOK_SET_ASIDE) is not None and o.whose == player
        return (
            o.zone in (Zone.BATTLEFIELD, Zone.STACK)
            and ruleset.active(Behaviour.FACE_DOWN_CONTROLLER_LOOKS) is not None
            and o.controller == player
        )
    if o.zone in (Zone.LIBRARY, Zone.HAND) and ruleset.active(Behaviour.HIDDEN_ZONES) is not None:
        return o.zone is Zone.HAND and o.whose == player
    return True

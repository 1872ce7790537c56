"""Core types of the zone model: zones, card types, actions, objects, states and scope.

Everything here is plain data. The interpreter (`interpreter.py`) gives the actions their
meaning in Python; the encoder (`encoder.py`) gives them the same meaning in Z3.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum


class Zone(str, Enum):
    LIBRARY = "library"
    HAND = "hand"
    GRAVEYARD = "graveyard"
    BATTLEFIELD = "battlefield"
    STACK = "stack"
    EXILE = "exile"
    COMMAND = "command"
    # Not zones (400.11): a card outside the game, and a token slot that does not exist.
    OUTSIDE = "outside"
    NOWHERE = "nowhere"


PERSONAL_ZONES = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD)
ORDERED_ZONES = (Zone.LIBRARY, Zone.GRAVEYARD, Zone.STACK)
GAME_ZONES = tuple(z for z in Zone if z not in (Zone.OUTSIDE, Zone.NOWHERE))


class CardType(str, Enum):
    LAND = "land"
    CREATURE = "creature"
    ARTIFACT = "artifact"
    ENCHANTMENT = "enchantment"
    PLANESWALKER = "planeswalker"
    INSTANT = "instant"
    SORCERY = "sorcery"


PERMANENT_TYPES = (CardType.LAND, CardType.CREATURE, CardType.ARTIFACT, CardType.ENCHANTMENT, CardType.PLANESWALKER)
SPELL_ONLY_TYPES = (CardType.INSTANT, CardType.SORCERY)


class ActionKind(str, Enum):
    DRAW = "draw"
    DISCARD = "discard"
    MILL = "mill"
    CAST = "cast"
    RESOLVE = "resolve"
    COUNTER = "counter"
    DESTROY = "destroy"
    SACRIFICE = "sacrifice"
    EXILE = "exile"
    RETURN_TO_HAND = "return_to_hand"
    PUT_INTO_LIBRARY = "put_into_library"
    SHUFFLE = "shuffle"
    REORDER = "reorder"
    GAIN_CONTROL = "gain_control"
    CREATE_TOKEN = "create_token"
    PUT_ONTO_BATTLEFIELD = "put_onto_battlefield"
    MOVE_TO_COMMAND = "move_to_command"
    TURN_FACE_DOWN = "turn_face_down"
    BRING_IN = "bring_in"
    SHUFFLE_HAND_INTO_LIBRARY = "shuffle_hand_into_library"
    TAP = "tap"
    ADD_COUNTER = "add_counter"
    ATTACH = "attach"
    APPLY_EFFECT = "apply_effect"
    STATE_BASED_ACTIONS = "state_based_actions"
    CAST_FACE_DOWN = "cast_face_down"
    PUT_ONTO_BATTLEFIELD_FACE_DOWN = "put_onto_battlefield_face_down"
    TURN_FACE_UP = "turn_face_up"
    REVERSE_ILLEGAL_CAST = "reverse_illegal_cast"
    EXILE_FACE_DOWN = "exile_face_down"  # 406.3: exiled face down; the player named may look at it
    SCRY = "scry"  # 701.22: look at the top n cards of your library, put any of them on the bottom, the rest on top
    COPY_SPELL = "copy_spell"  # 707.10: a player puts a copy of a spell onto the stack, in a token slot of theirs
    EXILE_WITH = "exile_with"  # 406.6: a card is exiled with a permanent (its source), which can find it later
    RETURN_EXILED = "return_exiled"  # 406.6, 607: the source's linked ability returns a card exiled with it to the battlefield
    EXILE_UNTIL = "exile_until"  # 610.3: a permanent is exiled until a permanent (its source) leaves the battlefield
    RETURN_UNTIL = "return_until"  # 610.3: once that source has left, the permanent returns to the battlefield
    # The pregame (103): legal only before the first ordinary action, in rule sets that declare them.
    DRAW_HAND = "draw_hand"
    MULLIGAN = "mulligan"
    KEEP = "keep"
    BOTTOM = "bottom"
    POST_MULLIGAN_LOOK = "post_mulligan_look"
    # Berserk (204.3): a player looks through their deck and takes a card from it into their hand.
    SEARCH_LIBRARY = "search_library"
    OPENING_HAND_ACTION = "opening_hand_action"  # 103.6: a card of an opening hand onto the battlefield (a Leyline)
    # 614.1a: a replacement effect on the named player's graveyard begins, or the effects on it end
    EXILE_INSTEAD = "exile_instead"  # a card that would be put into the player's graveyard from anywhere is exiled instead
    EXILE_IF_DIES = "exile_if_dies"  # a creature that would die (go from the battlefield to the player's graveyard) is exiled instead
    END_REPLACEMENT = "end_replacement"  # the replacement effects on the player's graveyard end


class Behaviour(str, Enum):
    """What a rule does in the model. A rule set maps its rule numbers to these."""

    OWNER_REDIRECT = "owner-redirect"  # 400.3
    NEW_OBJECT = "new-object"  # 400.7, 403.4
    SPELL_EFFECTS_CARRY = "spell-effects-carry"  # 400.7a
    EXILE_IN_EXILE = "exile-in-exile"  # 400.8, 406.7
    COMMAND_FACE_DOWN = "command-face-down"  # 400.9
    COMMAND_IN_COMMAND = "command-in-command"  # 400.10
    ORDER_FIXED = "order-fixed"  # 400.5, 401.2, 404.2
    STACK_TOP_ONLY = "stack-top-only"  # 405.5
    STACK_PUSH_TOP = "stack-push-top"  # 405.2
    GRAVEYARD_TOP = "graveyard-top"  # 404.1
    NTH_FROM_TOP_SHORT = "nth-from-top-short"  # 401.7
    SPELLS_STAY_OFF_BATTLEFIELD = "spells-stay-off-battlefield"  # 400.4a
    TOKEN_CEASES = "token-ceases"  # 111.7, 704.5d
    TOKEN_STAYS = "token-stays"  # 111.8
    OUTSIDE_UNTOUCHABLE = "outside-untouchable"  # 400.11c
    ZONE_WIDE = "zone-wide"  # 400.12
    HIDDEN_ZONES = "hidden-zones"  # 400.2: only a hand's player sees it; nobody sees a library
    FACE_DOWN_CHARACTERISTICS = "face-down-characteristics"  # 708.2a: a face-down object is a 2/2 creature
    FACE_DOWN_BEFORE_ENTERING = "face-down-before-entering"  # 708.3
    FACE_DOWN_SPELL_BECOMES_FACE_DOWN = "face-down-spell-becomes-face-down"  # 708.4
    FACE_DOWN_CONTROLLER_LOOKS = "face-down-controller-looks"  # 708.5
    FACE_UP_PERMANENTS_ONLY = "face-up-permanents-only"  # 708.7
    FACE_UP_SAME_OBJECT = "face-up-same-object"  # 708.8
    FACE_DOWN_REVEAL = "face-down-reveal"  # 708.9
    FACE_DOWN_EXILE = "face-down-exile"  # 406.3: only a player an instruction lets look sees a card exiled face down
    SCRY = "scry"  # 701.22: after a scry the cards looked at are above or below the rest, which keep their order
    ZONE_CLOSED = "zone-closed"  # no rule of the Comprehensive Rules: for experiments, "what if nothing could enter exile"
    COMMANDER_CAST = "commander-cast"  # 903.8
    COMMANDER_TAX = "commander-tax"  # 903.8: the count of a commander's casts from the command zone belongs to the card, for the whole game
    COMMANDER_RETURN_SBA = "commander-return-sba"  # 903.9a (since July 2020)
    COMMANDER_REPLACE = "commander-replace"  # 903.9b; 903.9 before July 2020
    ILLEGAL_CAST_REVERSED = "illegal-cast-reversed"  # 601.2, 601.2e
    MULLIGAN_ONE_FEWER = "mulligan-one-fewer"  # 103.4 (Paris): the new hand has one card fewer
    MULLIGAN_LONDON = "mulligan-london"  # 103.5 (London): a full new hand, then one card per mulligan to the bottom
    MULLIGAN_KEEP_ZERO = "mulligan-keep-zero"  # 103.4, 103.5: a player with a zero-card hand must keep it
    MULLIGAN_FREE_FIRST = "mulligan-free-first"  # 103.4c, 103.5c: in a multiplayer game the first mulligan is free
    MULLIGAN_LOOK = "mulligan-look"  # 103.4 (Vancouver): after all keep, a look at the top card, which may go to the bottom
    MULLIGAN_LOOK_SMALLER = "mulligan-look-smaller"  # 103.4 (Vancouver): only a player below the starting hand size looks
    MULLIGAN_PARTIAL_PARIS = "mulligan-partial-paris"  # 903.8 (Commander until 2016): set aside part of the hand, draw one fewer
    MULLIGAN_RETURN_SET_ASIDE = "mulligan-return-set-aside"  # 903.8: on keeping, the cards set aside are shuffled back
    MULLIGAN_LOOK_SET_ASIDE = "mulligan-look-set-aside"  # 903.8: before the game starts, a player sees their own cards set aside
    MULLIGAN_TEAM_LOOK = "mulligan-team-look"  # 810.5 (Two-Headed Giant, BFZ): teammates also see the card of a post-mulligan look
    SHUFFLE_AFTER_SEARCH = "shuffle-after-search"  # Berserk 204.3: a deck looked through is shuffled before anything else happens
    GRAVEYARD_KEEPS_MARKERS = "graveyard-keeps-markers"  # Berserk 205.4: a card put into a graveyard keeps its markers (counters)
    DOCUMENTED = "documented"  # a rule the model records but that constrains no transition
    OPENING_HAND_ACTIONS = "opening-hand-actions"  # 103.6: once every player has kept, cards of opening hands may act
    OPENING_HAND_AFTER_LOOK = "opening-hand-after-look"  # 103.6 (BFZ): only once the mulligan process, the look included, is complete
    HAND_MODIFIER = "hand-modifier"  # 902.5, 103.5a (Vanguard): a player's starting hand size is modified by their vanguard card
    TARGETS_CHECKED = "targets-checked"  # 608.2b: a spell whose target is illegal on resolution does not resolve
    LINKS_CHECKED = "links-checked"  # 406.6, 607: an ability finds only the cards that the same object exiled
    UNTIL_RETURNS = "until-returns"  # 610.3: once the source of an "until" exile has left the battlefield, the card returns
    UNTIL_ALREADY_LEFT = "until-already-left"  # 610.3a: an "until" exile whose source has already left moves nothing
    UNTIL_OWNER_CONTROLS = "until-owner-controls"  # 610.3c: a permanent an "until" exile returns comes back under its owner's control
    COPY_SPELL = "copy-spell"  # 707.10: a copy of a spell may be put onto the stack; it copies the spell's target
    COPY_BECOMES_TOKEN = "copy-becomes-token"  # 608.3f: a copy of a permanent spell becomes a token as it resolves
    COPY_CEASES = "copy-ceases"  # 704.5e: a copy of a spell anywhere but on the stack ceases to exist
    REPLACED_BY_EXILE = "replaced-by-exile"  # 614.6 (400.6 of 2010): an event a replacement effect replaces never happens; exile instead


# Where a move into a library puts the card: 0 is the bottom, n >= 1 is n-th from the top.
BOTTOM = 0


@dataclass(frozen=True)
class Scope:
    players: int = 2
    cards: int = 3  # main-deck cards per player
    sideboard: int = 1  # cards per player outside the game at the start
    tokens: int = 1  # token slots per player
    depth: int = 7
    commanders: int = 0  # commander cards per player (903.3): 1 for a rule set of the Commander variant, else 0
    hand: int = 2  # the starting hand size (103.4) of rule sets with a pregame; at most `cards`
    # Vanguard (902.5, 103.5a): each player's hand modifier, in turn order; () for a game without
    # vanguard cards. The starting hand size of player p is hand + hand_modifiers[p].
    hand_modifiers: tuple[int, ...] = ()
    team_size: int = 0  # 0: no teams; else players in turn order form teams of this size (Two-Headed Giant: 2)

    LIMITS = {"players": (1, 4), "cards": (0, 8), "sideboard": (0, 3), "tokens": (0, 3), "depth": (0, 40), "commanders": (0, 1), "hand": (0, 8), "team_size": (0, 4)}

    @property
    def starting_hand(self) -> int:
        """The starting hand size the pregame uses: `hand`, but never more than the deck holds."""
        return min(self.hand, self.cards)

    def hand_modifier(self, player: int) -> int:
        return modifier_of(self.hand_modifiers, player)

    def hand_modifier_problem(self) -> str | None:
        """What is wrong with the hand modifiers, if anything: one per player at most, and each
        player's modified starting hand size within 0..cards."""
        if len(self.hand_modifiers) > self.players:
            return f"{len(self.hand_modifiers)} hand modifiers for {self.players} players"
        for p, modifier in enumerate(self.hand_modifiers):
            if not 0 <= self.starting_hand + modifier <= self.cards:
                return (f"{PLAYER_NAMES[p]}'s hand modifier {modifier:+d} makes a starting hand of {self.starting_hand + modifier};"
                        f" it must be 0..{self.cards} (the cards of a deck)")
        return None

    def team(self, player: int) -> int:
        return team_of(self.team_size, player)

    def teammates(self, player: int) -> tuple[int, ...]:
        return teammates_of(self.team_size, self.players, player)


def modifier_of(hand_modifiers: tuple[int, ...], player: int) -> int:
    """A player's vanguard hand modifier; 0 for a player the tuple leaves out (no modifiers: ())."""
    return hand_modifiers[player] if player < len(hand_modifiers) else 0


def team_of(team_size: int, player: int) -> int:
    """The team of a player: teams are numbered in turn order; without teams each player is a team."""
    return player // team_size if team_size else player


def teammates_of(team_size: int, players: int, player: int) -> tuple[int, ...]:
    return tuple(q for q in range(players) if q != player and team_of(team_size, q) == team_of(team_size, player))


def team_size_problem(team_size: int, players: int) -> str | None:
    """Why a team size does not fit the scope (None when it does): 0 (no teams), or a size that
    divides the players into whole teams."""
    low, high = Scope.LIMITS["team_size"]
    if not low <= team_size <= high:
        return f"must be {low}..{high}, got {team_size}"
    if team_size and players % team_size:
        return f"{team_size} does not divide {players} players into whole teams"
    return None


PLAYER_NAMES = ("A", "B", "C", "D")
# Where each kind of slot starts a game (903.6: a commander starts in the command zone).
START_ZONE = {"card": Zone.LIBRARY, "sideboard": Zone.OUTSIDE, "token": Zone.NOWHERE, "commander": Zone.COMMAND}
# What a commander may be (903.3: a legendary creature, or a card that says it can be a commander).
COMMANDER_TYPES = (CardType.CREATURE, CardType.PLANESWALKER)
# What a token slot may be: a creature token, or a copy of a spell, which has the spell's type (707.10).
TOKEN_TYPES = tuple(t for t in CardType if t is not CardType.LAND)


class SlotKind(str, Enum):
    CARD = "card"
    SIDEBOARD = "sideboard"
    TOKEN = "token"
    COMMANDER = "commander"


@dataclass(frozen=True)
class Slot:
    """One object slot of the scope: a card of a player's deck or sideboard, or a token slot."""

    index: int
    name: str
    owner: int
    kind: SlotKind

    @property
    def is_token(self) -> bool:
        return self.kind is SlotKind.TOKEN

    @property
    def is_commander(self) -> bool:
        return self.kind is SlotKind.COMMANDER

    @property
    def is_sideboard(self) -> bool:
        return self.kind is SlotKind.SIDEBOARD

    @property
    def types(self) -> tuple[CardType, ...]:
        """The card types the slot may have."""
        return TOKEN_TYPES if self.is_token else COMMANDER_TYPES if self.is_commander else tuple(CardType)

    def type_problem(self, t: CardType, name: str | None = None) -> str | None:
        """Why the slot (called `name`, by default its own) cannot have type t, or None where it can."""
        if t in self.types:
            return None
        if self.is_commander:
            return f"commander {name or self.name} must be a creature or a planeswalker (903.3)"
        return f"token {name or self.name} cannot be a land: a token slot holds a creature token or a copy of a spell (707.10)"


def slots_for(scope: Scope) -> tuple[Slot, ...]:
    slots: list[Slot] = []
    for p in range(scope.players):
        letter = PLAYER_NAMES[p]
        for i in range(scope.cards):
            slots.append(Slot(len(slots), f"{letter}{i + 1}", p, SlotKind.CARD))
        for i in range(scope.sideboard):
            slots.append(Slot(len(slots), f"{letter}-sb{i + 1}", p, SlotKind.SIDEBOARD))
        for i in range(scope.tokens):
            slots.append(Slot(len(slots), f"{letter}-tok{i + 1}", p, SlotKind.TOKEN))
        for i in range(scope.commanders):
            slots.append(Slot(len(slots), f"{letter}-cmd{i + 1}", p, SlotKind.COMMANDER))
    return tuple(slots)


@dataclass(frozen=True)
class ObjectState:
    """What the game knows of one slot at one moment.

    `whose` is the player whose zone it is for library, hand and graveyard; elsewhere it is the
    owner. `controller` is meaningful on the battlefield and the stack; elsewhere it is the owner.
    `pos` counts from the bottom of an ordered zone (library, graveyard, stack); elsewhere 0.
    `gen` is the object identity: it goes up by one each time the card becomes a new object.
    counters, tapped, attached and effect are the memory that 400.7 wipes.
    `revealed`: the step that led to this state revealed the object to all players (708.9); every
    step sets it afresh, so it says nothing about earlier steps.
    `shown`: likewise, the players the step that led here showed the object to (the post-mulligan
    look shows the top card to the player who looks and, in a team game, to their teammates).
    `fresh` is kept for commanders only (always False for other slots): the object was put into its
    zone (or became a new object there) since state-based actions were last performed (903.9a).
    `casts` is kept for commanders only (always 0 for other slots): the times the commander was
    cast from the command zone (903.8's commander tax counts them), up to MAX_CASTS.
    `looker` is the player an instruction lets look at the card while it is exiled face down (406.3:
    the player named by `exile_face_down`, or the owner of a card the Commander mulligan set aside
    where 903.8 lets them look); None otherwise. Like the rest of its memory, 400.7 wipes it.
    `target` is the slot of the object a spell targets (115.1), None where it targets nothing;
    `target_lost` that the object targeted has become a new object since (400.7), so the card in
    that slot is not what the spell targeted. Every step sets it afresh from the step before.
    `exiled_with` is the slot of the permanent a card in exile was exiled with (406.6), None where
    there is none; `link_lost` that this permanent has become a new object since (400.7), so its
    linked abilities no longer find the card (607). Kept like `target` and `target_lost`.
    `returns_to`: the zone a card exiled until the permanent it was exiled with leaves the
    battlefield came from, and returns to once `link_lost` says that permanent has left (610.3);
    NOWHERE for every other object.
    `copy`: a token slot holds a copy of a spell (707.10), not a token; it stays one until it
    becomes a token on the battlefield (608.3f) or ceases to exist. Always False for other slots.
    """

    zone: Zone
    whose: int
    controller: int
    pos: int = 0
    gen: int = 0
    face_down: bool = False
    counters: int = 0
    tapped: bool = False
    attached: bool = False
    effect: bool = False
    revealed: bool = False
    fresh: bool = False
    casts: int = 0
    looker: int | None = None
    shown: tuple[int, ...] = ()
    target: int | None = None
    target_lost: bool = False
    exiled_with: int | None = None
    link_lost: bool = False
    returns_to: Zone = Zone.NOWHERE
    copy: bool = False

    def moved(self, **changes) -> "ObjectState":
        return _changed(self, changes)


def _changed(state, changes: dict):
    """`dataclasses.replace(state, **changes)` for a frozen dataclass with no `__post_init__`,
    without calling `__init__` again: the interpreter makes one for every field it changes."""
    unknown = changes.keys() - _FIELD_NAMES[type(state)]
    if unknown:
        raise TypeError(f"{type(state).__name__} has no field {', '.join(sorted(unknown))}")
    changed = object.__new__(type(state))
    changed.__dict__.update(state.__dict__, **changes)
    return changed


STATE_FIELDS = ("zone", "whose", "controller", "pos", "gen", "face_down", "counters", "tapped", "attached", "effect", "revealed", "fresh",
                "casts", "looker", "target", "target_lost", "exiled_with", "link_lost", "returns_to", "copy")
# The references from one object to another (400.7): the field naming the other object by its slot
# (None for none), and the field saying that object has become a new object since.
REFERENCES = {"target": "target_lost", "exiled_with": "link_lost"}
SLOT_FIELDS = tuple(REFERENCES)
# The object fields whose value is a zone.
ZONE_FIELDS = ("zone", "returns_to")
MAX_COUNTERS = 2
MAX_CASTS = 2

# The pregame actions (103.4/103.5): legal only before the first ordinary action. A rule set that
# declares none of them has no pregame and no per-player state (GameState.players is empty).
PREGAME_ACTIONS = (
    ActionKind.DRAW_HAND, ActionKind.MULLIGAN, ActionKind.KEEP, ActionKind.BOTTOM, ActionKind.POST_MULLIGAN_LOOK,
    ActionKind.OPENING_HAND_ACTION,
)

# The actions that begin and end replacement effects on a player's graveyard (614.1a).
REPLACEMENT_ACTIONS = (ActionKind.EXILE_INSTEAD, ActionKind.EXILE_IF_DIES, ActionKind.END_REPLACEMENT)


@dataclass(frozen=True)
class PlayerState:
    """What the game knows of one player beyond their objects: the pregame's record, a deck search, and
    the replacement effects on their graveyard.

    `mulligans` counts the mulligans that count toward the hand size (the free first mulligan of a
    multiplayer game, 103.4c/103.5c, does not; `free_taken` records it). `owed` is the number of
    cards still to put on the bottom of the library after a London mulligan (103.5).
    `exile_instead` and `exile_if_dies` are the replacement effects in force on the player's
    graveyard (614.1a): an object that would be put into it from anywhere, or from the battlefield
    (it dies), is exiled instead.
    """

    drawn: bool = False
    mulligans: int = 0
    kept: bool = False
    looked: bool = False
    owed: int = 0
    free_taken: bool = False
    searched: bool = False
    exile_instead: bool = False
    exile_if_dies: bool = False

    def moved(self, **changes) -> "PlayerState":
        return _changed(self, changes)


_FIELD_NAMES = {cls: frozenset(f.name for f in fields(cls)) for cls in (ObjectState, PlayerState)}

PLAYER_FIELDS = ("drawn", "mulligans", "kept", "looked", "owed", "free_taken", "searched", "exile_instead", "exile_if_dies")

# The player fields that record replacement effects on the player's graveyard (614.1a).
REPLACEMENT_FIELDS = ("exile_instead", "exile_if_dies")


def player_field(name: str) -> str:
    """The PlayerState field that the property language's player function (and a scenario's player
    expectation) `name` reads: its own name, but for `free_mulligan`."""
    return "free_taken" if name == "free_mulligan" else name


@dataclass(frozen=True)
class GameState:
    objects: tuple[ObjectState, ...]
    # With a pregame, a deck search or replacement effects only (RuleSet.tracks_players): each player's state, and
    # whether the game has started (the first ordinary action ends the pregame).
    players: tuple[PlayerState, ...] = ()
    started: bool = False

    def zone_members(self, zone: Zone, player: int | None = None) -> list[int]:
        """Slots in the zone, bottom first for ordered zones."""
        members = [
            i
            for i, o in enumerate(self.objects)
            if o.zone is zone and (player is None or zone not in PERSONAL_ZONES or o.whose == player)
        ]
        return sorted(members, key=lambda i: self.objects[i].pos)

    def size(self, zone: Zone, player: int | None = None) -> int:
        return len(self.zone_members(zone, player))


@dataclass(frozen=True)
class Action:
    """One step. Unused fields keep their defaults so that an action has one canonical form.

    `order` records the outcome of a shuffle or rearrangement: for each ordered zone that was
    reordered, the slots from top to bottom, keyed by `zone_key`. `cards` records which cards a
    zone-wide action moved when 400.12 is not in force, and for state_based_actions the commanders
    whose owners put them into the command zone (903.9a). `to_command` records that the owner of the
    commander the action moves puts it into the command zone instead (a 903.9b replacement).
    `targets` are the objects a spell targets as it is cast (115.1; at most one in the model), the
    spell a copy copies, or the permanent a card is exiled with (406.6).
    """

    kind: ActionKind
    card: int | None = None
    player: int | None = None
    n: int = 0
    zone: Zone | None = None
    order: tuple[tuple[str, tuple[int, ...]], ...] = ()
    cards: tuple[int, ...] = ()
    to_command: bool = False
    targets: tuple[int, ...] = ()

    def order_for(self, key: str) -> tuple[int, ...] | None:
        return dict(self.order).get(key)


def zone_key(zone: Zone, player: int | None) -> str:
    """A name for one zone: `library/A` for a player's zone, `stack` for a shared one."""
    if zone in PERSONAL_ZONES:
        return f"{zone.value}/{PLAYER_NAMES[player]}"
    return zone.value


@dataclass(frozen=True)
class Step:
    action: Action
    state: GameState
    rules: tuple[str, ...] = field(default=())


def initial_state(slots: tuple[Slot, ...], library_order: dict[int, list[int]], pregame_players: int = 0) -> GameState:
    """The start of a game: deck cards in their owner's library in the given order (bottom first),
    sideboard cards outside the game, token slots empty, commanders in the command zone (903.6); with
    a pregame, `pregame_players` players who have drawn nothing yet."""
    objects: list[ObjectState] = []
    for s in slots:
        if s.kind is SlotKind.CARD:
            objects.append(ObjectState(Zone.LIBRARY, s.owner, s.owner, library_order[s.owner].index(s.index)))
        elif s.kind is SlotKind.SIDEBOARD:
            objects.append(ObjectState(Zone.OUTSIDE, s.owner, s.owner))
        elif s.kind is SlotKind.COMMANDER:
            objects.append(ObjectState(Zone.COMMAND, s.owner, s.owner))
        else:
            objects.append(ObjectState(Zone.NOWHERE, s.owner, s.owner))
    return GameState(tuple(objects), tuple(PlayerState() for _ in range(pregame_players)))

"""The two contexts an action's meaning is written against.

`ConcreteStep` is one application of one action to a concrete state, in plain Python: the
interpreter's. `SymbolicStep` is step t of the transition system, over Z3 variables: the
encoder's. The family modules (library.py, stack.py, ...) give each action kind a function of each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import z3

from ..model import (
    PERSONAL_ZONES,
    PLAYER_NAMES,
    SPELL_ONLY_TYPES,
    Action,
    ActionKind,
    Behaviour,
    CardType,
    GameState,
    ObjectState,
    PlayerState,
    Slot,
    Zone,
    modifier_of,
    teammates_of,
)
from ..ruleset import RuleSet
from ..encode.variables import ASSIGNED_FIELDS
from ..terms import And, If, Not, Or

if TYPE_CHECKING:
    from ..encode.system import TransitionSystem
    from ..encode.variables import StateVars, StepVars


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
    def of(cls, ruleset: RuleSet, slots: tuple[Slot, ...], card_types, scope) -> "World":
        return cls(ruleset, slots, card_types, scope.players, scope.starting_hand, scope.hand_modifiers, scope.team_size)


def starting_hand(ruleset: RuleSet, hand: int, hand_modifiers: tuple[int, ...], player: int) -> int:
    return hand + modifier_of(hand_modifiers, player) if ruleset.active(Behaviour.HAND_MODIFIER) else hand


@dataclass(frozen=True)
class Outcome:
    state: GameState
    rules: tuple[str, ...]  # the rules that decided the outcome


class ConcreteStep:
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

    def cite(self, rule_id: str | None) -> None:
        if rule_id and rule_id not in self.rules:
            self.rules.append(rule_id)

    def require(self, condition: bool, reason: str) -> None:
        if not condition:
            raise IllegalAction(reason)

    def on(self, behaviour: Behaviour, zone: Zone | None = None) -> str | None:
        return self.world.on(behaviour, zone)

    def slot(self, index: int) -> Slot:
        return self.world.slots[index]

    def name(self, index: int) -> str:
        return self.slot(index).name

    def card_type(self, index: int) -> CardType:
        return self.world.card_types[index]

    def target(self) -> tuple[int, ObjectState]:
        return self.action.card, self.objects[self.action.card]

    def player_state(self) -> tuple[int, PlayerState]:
        p = self.action.player
        return p, self.players[p]

    def pile(self, zone: Zone, player: int) -> list[int]:
        """Members of an ordered zone in the current (possibly half-updated) objects, bottom first."""
        members = [
            i for i, o in enumerate(self.objects)
            if o.zone is zone and (zone not in PERSONAL_ZONES or o.whose == player)
        ]
        return sorted(members, key=lambda i: self.objects[i].pos)

    def hand_of(self, player: int) -> list[int]:
        return [i for i, o in enumerate(self.objects) if o.zone is Zone.HAND and o.whose == player]

    def top_of_library(self, player: int) -> int:
        pile = self.pile(Zone.LIBRARY, player)
        self.require(bool(pile), f"{PLAYER_NAMES[player]}'s library is empty")
        return pile[-1]

    def state(self) -> GameState:
        return GameState(tuple(self.objects), tuple(self.players), self.started)


@dataclass(frozen=True)
class Arrival:
    """Where an object entering an ordered pile goes: its position from the bottom, and whether
    that is on top or at the bottom whatever the pile holds."""

    pos: z3.ExprRef
    top: z3.BoolRef
    bottom: z3.BoolRef


@dataclass(frozen=True)
class Effect:
    """A single-target action on its target: `event` says when the action applies (the target is
    where the action takes it from, the player may do it), `outcome` what the rules require of the
    result (it may be impossible: a conflict), `values` the target's next fields (the others stay;
    its bystanders close or open a gap in their piles), `players[f](p)` the acting player p's next
    field f, where the action changes it; `arrival` where it goes in an ordered pile it enters;
    `others[d]` the next fields of a bystander d that the action changes all the same (what a
    resolving spell does to the object it targets)."""

    event: z3.BoolRef
    outcome: z3.BoolRef
    values: dict
    players: dict = field(default_factory=dict)
    arrival: Arrival | None = None
    others: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Transition:
    """An action that acts on several objects or on a whole pile: `guard` says when it is possible;
    `objects[c]` are slot c's next fields (a slot left out keeps everything); each group of
    `permutations` (a membership condition per slot) is a pile that takes a new order of the step's
    choosing (its positions any permutation); `reentering[c]` that c moves within its pile to the
    bottom;
    `players[f](p)` the acting player p's next field f; `extra` are further constraints."""

    guard: z3.BoolRef
    objects: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    permutations: list = field(default_factory=list)
    reentering: dict = field(default_factory=dict)
    extra: list = field(default_factory=list)


class SymbolicStep:
    """Step t of a transition system: state t, its action, and state t + 1."""

    def __init__(self, system: "TransitionSystem", t: int):
        self.system = system
        self.codes = system.codes
        self.t = t
        self.s: StateVars = system.state(t)
        self.s2: StateVars = system.state(t + 1)
        self.a: StepVars = system.step(t)
        self.Z = self.codes.zone
        self.slots = system.slots
        self.players = system.players

    # ---------------------------------------------------------------- values and rules

    @property
    def true(self):
        return self.codes.true

    @property
    def false(self):
        return self.codes.false

    def int(self, n: int):
        return self.codes.int(n)

    def on(self, behaviour: Behaviour, zone: Zone | None = None) -> z3.BoolRef:
        return self.system.on(behaviour, zone)

    def in_file(self, behaviour: Behaviour) -> bool:
        return self.system.in_file(behaviour)

    def kind_is(self, kind: ActionKind) -> z3.BoolRef:
        return self.a.kind == self.codes.kind[kind]

    def kind_in(self, kinds) -> z3.BoolRef:
        return self.codes.any_of(self.kind_is(k) for k in kinds)

    # ---------------------------------------------------------------- objects

    def owner(self, c: int):
        return self.codes.player[self.slots[c].owner]

    def card_type(self, c: int):
        return self.system.card_type[c]

    def type_in(self, type_expr, types) -> z3.BoolRef:
        return self.codes.any_of(type_expr == self.codes.type[t] for t in types)

    def is_spell_type(self, c: int) -> z3.BoolRef:
        return self.type_in(self.card_type(c), SPELL_ONLY_TYPES)

    def current(self, c: int) -> dict:
        """Slot c's assigned fields as they are in state t."""
        return {f: self.s.field(f, c) for f in ASSIGNED_FIELDS}

    def merge(self, c: int, condition, if_true: dict, if_false: dict) -> dict:
        """Per field, if_true or if_false under the condition; a field either leaves out stays as it is."""
        current = self.current(c)
        merged = {}
        for f in ASSIGNED_FIELDS:
            a, b = if_true.get(f, current[f]), if_false.get(f, current[f])
            merged[f] = a if a.eq(b) else If(condition, a, b)
        return merged

    def in_zone(self, s: "StateVars", c: int, zone: Zone, player=None) -> z3.BoolRef:
        """Slot c is in the zone (of the player, an expression, for a player's zone)."""
        here = s.zone[c] == self.Z[zone]
        return And(here, s.whose[c] == player) if player is not None and zone in PERSONAL_ZONES else here

    def same_pile(self, s: "StateVars", c: int, d: int) -> z3.BoolRef:
        """c and d are in the same ordered zone (the same player's, for a personal one)."""
        return self.system.same_pile(s, c, d)

    def is_top(self, s: "StateVars", c: int) -> z3.BoolRef:
        """Nothing in c's pile is above c."""
        return self.codes.all_of(
            Or(Not(self.same_pile(s, c, d)), s.is_above(c, d)) for d in range(len(self.slots)) if d != c
        )

    def token_left_battlefield(self, s: "StateVars", c: int):
        """Token slot c holds a token that has left the battlefield (not a copy of a spell, 707.10)."""
        return And(s.zone[c] != self.Z[Zone.BATTLEFIELD], s.zone[c] != self.Z[Zone.NOWHERE], Not(s.copy[c]))

    # ---------------------------------------------------------------- zones and players

    def size(self, zone: Zone, player: int | None = None, after: bool = False):
        return self.system.size(self.t + 1 if after else self.t, zone, player)

    def size_of(self, zone: Zone, player_expr, after: bool = False):
        """Size of a zone whose player is a symbolic expression."""
        if zone not in PERSONAL_ZONES:
            return self.size(zone, None, after)
        sizes = [self.size(zone, p, after) for p in range(self.players)]
        return self.codes.select(player_expr, self.codes.player[:-1], sizes[:-1], sizes[-1])

    def player_of(self, s: "StateVars", name: str, player_expr):
        """A player field of the player that `player_expr` names."""
        values = [s.player(name, p) for p in range(self.players)]
        return self.codes.select(player_expr, self.codes.player[:-1], values[:-1], values[-1])

    def zone_closed(self, zone: Zone) -> z3.BoolRef:
        """Nothing may enter `zone`: a rule closes it, or the rule set does not declare it."""
        return self.on(Behaviour.ZONE_CLOSED, zone) if self.system.ruleset.declares(zone) else self.true

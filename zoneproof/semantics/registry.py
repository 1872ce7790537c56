"""What each action kind is, and where its two meanings live.

Every action kind has one `ActionSpec`: its signature (the fields of `Action` it takes), the zones
it may take its card from, and its two meanings, the concrete one (`@concrete`, run by the
interpreter) and the symbolic one (`@symbolic`, built into Z3 constraints by the encoder). The
same holds for the rules that act at every step whatever the action (`@every_step`) and for the
behaviours (`@implements`). `check_complete` fails at import when a half is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ..model import PREGAME_ACTIONS, ActionKind, Behaviour, Zone


class Target(str, Enum):
    NONE = "none"  # no card: the action acts on a zone or the whole state
    CARD = "card"  # one card, which the action acts on alone (bystanders keep everything)
    PILE = "pile"  # names a card but acts on its whole pile (the encoder gives it a body of its own)


class Listed(str, Enum):
    """Which cards an action's `cards` may name."""

    NONE = "none"
    HAND = "hand"  # the acting player's hand (a hand shuffled away in part, without 400.12)
    HAND_AND_LIBRARY = "hand-and-library"  # the acting player's hand and library (a mulligan's new hand)
    COMMANDERS = "commanders"  # the commanders (those state-based actions put into the command zone, 903.9a)


class PlayerUse(str, Enum):
    NONE = "none"
    ALWAYS = "always"
    UNLESS_SHARED_ZONE = "unless-shared-zone"  # reorder: a player's zone needs its player, the stack none


@dataclass
class ActionSpec:
    kind: ActionKind
    target: Target
    player: PlayerUse
    names_zone: bool = False  # `zone`: which ordered zone (reorder)
    records_order: bool = False  # `order`: the new top-to-bottom order of each pile it reorders
    lists: Listed = Listed.NONE  # `cards`: which cards it acts on, and from where
    takes_targets: bool = False  # `targets`: a spell or permanent the card, as a spell, targets (115.1); the spell a copy copies; the permanent a card is exiled with
    needs_target: bool = False  # a form without `targets` is always refused, so the explicit search and the random runs do not try one
    targets_anywhere: bool = False  # its target may be in any zone, not only a spell or permanent (an "until" exile's source that has left, 610.3a)
    moves_card: bool = False  # the card changes zones, so a commander's owner may put it into the command zone instead (`to_command`)
    takes_n: bool = False  # `n` is always part of the action: a place in a library, or how many cards are looked at
    graveyard_bound: bool = False  # `n` places the card in the graveyard where 404.1 is not in force
    stack_bound: bool = False  # `n` places the spell on the stack where 405.2 is not in force
    sources: tuple[Zone, ...] | None = None  # zones the card may come from (and outside the game, without 400.11c)
    concrete: Callable | None = field(default=None, repr=False)
    symbolic: Callable | None = field(default=None, repr=False)

    @property
    def takes_card(self) -> bool:
        return self.target is not Target.NONE

    @property
    def lists_cards(self) -> bool:
        return self.lists is not Listed.NONE

    @property
    def pregame(self) -> bool:
        return self.kind in PREGAME_ACTIONS

    def takes_player(self, zone: Zone | None) -> bool:
        if self.player is PlayerUse.UNLESS_SHARED_ZONE:
            return zone is not Zone.STACK
        return self.player is PlayerUse.ALWAYS


ACTIONS: dict[ActionKind, ActionSpec] = {}


@dataclass
class Hook:
    """A rule that acts at every step, whatever the action (the pregame's gate, 708.9's reveal, ...)."""

    name: str
    concrete: Callable | None = field(default=None, repr=False)
    symbolic: Callable | None = field(default=None, repr=False)


HOOKS: dict[str, Hook] = {}
BEHAVIOURS: dict[Behaviour, dict[str, list[str]]] = {}


def concrete(kind: ActionKind, target: Target, player: PlayerUse = PlayerUse.NONE, **signature):
    """Declares an action kind with its signature, and its concrete meaning: a function of a
    `ConcreteStep` that changes the step's objects or raises IllegalAction."""

    def register(fn: Callable) -> Callable:
        if kind in ACTIONS:
            raise TypeError(f"action kind {kind.value} is declared twice ({ACTIONS[kind].concrete.__qualname__}, {fn.__qualname__})")
        ACTIONS[kind] = ActionSpec(kind, target, player, concrete=fn, **signature)
        return fn

    return register


def symbolic(kind: ActionKind):
    """The symbolic meaning of a declared action kind: for a CARD action, a function of a
    `SymbolicStep` and a slot returning an `Effect`; otherwise a function of the step returning a
    `Transition`."""

    def register(fn: Callable) -> Callable:
        if kind not in ACTIONS:
            raise TypeError(f"{fn.__qualname__}: declare action kind {kind.value} with @concrete before its symbolic half")
        ACTIONS[kind].symbolic = fn
        return fn

    return register


def every_step(name: str, half: str):
    """One half ("concrete" or "symbolic") of a rule that acts at every step."""

    def register(fn: Callable) -> Callable:
        hook = HOOKS.setdefault(name, Hook(name))
        if getattr(hook, half) is not None:
            raise TypeError(f"the {half} half of the step rule {name!r} is declared twice")
        setattr(hook, half, fn)
        return fn

    return register


def implements(*behaviours: Behaviour, half: str):
    """Marks a function as (part of) one half of the behaviours' meaning."""

    def register(fn: Callable) -> Callable:
        for b in behaviours:
            BEHAVIOURS.setdefault(b, {"concrete": [], "symbolic": []})[half].append(fn.__qualname__)
        return fn

    return register


def check_complete() -> None:
    """Every action kind and step rule has both meanings, and every behaviour a function in each."""
    missing = [k.value for k in ActionKind if k not in ACTIONS]
    missing += [f"{s.kind.value} (symbolic)" for s in ACTIONS.values() if s.symbolic is None]
    missing += [f"step rule {h.name} ({half})" for h in HOOKS.values() for half in ("concrete", "symbolic") if getattr(h, half) is None]
    for b in Behaviour:
        if b is Behaviour.DOCUMENTED:
            continue
        halves = BEHAVIOURS.get(b, {"concrete": [], "symbolic": []})
        missing += [f"behaviour {b.value} ({half})" for half in ("concrete", "symbolic") if not halves[half]]
    if missing:
        raise ImportError(f"zoneproof's semantics are incomplete; missing: {', '.join(missing)}")


def spec(kind: ActionKind) -> ActionSpec:
    return ACTIONS[kind]


def kinds_where(predicate: Callable[[ActionSpec], bool]) -> tuple[ActionKind, ...]:
    """The action kinds whose spec satisfies the predicate, in ActionKind order (never set order:
    the encoder iterates these, and the terms it builds must not vary between processes)."""
    return tuple(k for k in ActionKind if predicate(ACTIONS[k]))

"""The view model of a run: for each viewer and each step, the board as piles of card chips, the
step's text, and what the run shows there (a violation, a witness, a refused step).

Who may see a face is `interpreter.sees`, and nothing else: a chip hidden from its viewer carries no
face (no name, no type, no kind of card), and a viewer's texts name a card only where that viewer
may see it before or after the step. Where cards are, and that they moved, every viewer sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import InputError
from ..interpreter import World, sees
from ..model import (
    ORDERED_ZONES,
    PERSONAL_ZONES,
    PLAYER_NAMES,
    STATE_FIELDS,
    Action,
    GameState,
    ObjectState,
    SlotKind,
    Step,
    Zone,
    zone_key,
)
from ..properties import Sort
from ..report import changes, describe_action

EVERYONE = None  # the viewer who sees every face
HIDDEN = "hidden card"  # how a viewer's texts name a card whose face that viewer may not see
# What the board draws: the zones of the rule set, each player's personal ones in a row; "outside
# the game" as a tray. A token slot that does not exist (Zone.NOWHERE) is not drawn.
ZONE_ORDER = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD, Zone.BATTLEFIELD, Zone.STACK, Zone.EXILE, Zone.COMMAND, Zone.OUTSIDE)
CHANGED_FIELDS = tuple(f for f in STATE_FIELDS if f not in ("zone", "whose", "pos", "revealed"))


# ---------------------------------------------------------------- what is drawn


@dataclass(frozen=True)
class Refused:
    """A step the rules refuse: the state stays as it was."""

    action: Action
    reason: str


@dataclass(frozen=True)
class Finding:
    """What a run shows at one state: a property that fails there, or a lint trigger that fires."""

    step: int
    kind: str  # "violation" or "witness"
    property_id: str
    meaning: str
    cites: tuple[str, ...]
    text: str  # the property's source
    bindings: tuple[tuple[tuple[str, Sort, int], ...], ...] = ()  # as replay.witness_bindings gives them


@dataclass(frozen=True)
class Run:
    """A start and steps under one rule set, with what to show about them."""

    title: str
    world: World
    initial: GameState
    steps: tuple[Step | Refused, ...]
    findings: tuple[Finding, ...] = ()
    failures: tuple[tuple[int, str], ...] = ()  # (step, message): a scenario's expectations that fail
    problem: str = ""  # why the interpreter does not reproduce the recorded run, if it does not
    note: str = ""  # one line on what the run is (a scenario's name, a diff's side)

    @property
    def states(self) -> tuple[GameState, ...]:
        """The state after each step (the start first); a refused step leaves the state as it was."""
        states = [self.initial]
        for step in self.steps:
            states.append(states[-1] if isinstance(step, Refused) else step.state)
        return tuple(states)


# ---------------------------------------------------------------- the view model


@dataclass(frozen=True)
class Chip:
    """One card as a viewer sees it. `name`, `card_type` and `kind` are None when the face is hidden;
    `object` is its state (where it is, its controller, identity, face-down state and memory), which
    holds nothing of its face."""

    name: str | None
    card_type: str | None
    kind: str | None  # "token", "commander", "sideboard"; None for a deck card or a hidden face
    owner: str
    controller: str
    object: ObjectState
    new_object: bool  # it became a new object on this step (400.7)
    seen_by: tuple[str, ...] | None  # who may see its face: in the view of everyone only
    change: str  # "moved", "created", "reordered", "changed" or ""
    move: int | None  # the number of the move that brought it here (its arrow)
    witness: bool  # a witness of the finding at this state

    @property
    def hidden(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class Ghost:
    """Where a card was before the step that took it away: `index` is its place (top first)."""

    index: int
    move: int
    gone: bool  # it left the game's zones for nowhere (a token that ceases to exist)
    name: str | None  # None when the viewer may see the card neither before the step nor after it


@dataclass(frozen=True)
class Pile:
    key: str  # "library/A", "battlefield", "outside"
    zone: Zone
    player: str | None  # the player whose zone it is; None for a shared zone or the tray
    label: str
    ordered: bool  # the chips run from the top down
    chips: tuple[Chip, ...]
    ghosts: tuple[Ghost, ...] = ()

    @property
    def items(self) -> tuple[Chip | Ghost, ...]:
        """The chips, with each ghost at the place its card left."""
        items: list[Chip | Ghost] = list(self.chips)
        for ghost in sorted(self.ghosts, key=lambda g: g.index):
            items.insert(min(ghost.index, len(items)), ghost)
        return tuple(items)


@dataclass(frozen=True)
class Board:
    players: tuple[tuple[str, tuple[Pile, ...]], ...]  # each player's name and personal piles
    shared: tuple[Pile, ...]
    tray: Pile  # outside the game

    @property
    def piles(self) -> tuple[Pile, ...]:
        return tuple(p for _, piles in self.players for p in piles) + self.shared + (self.tray,)

    def pile(self, key: str) -> Pile:
        return next(p for p in self.piles if p.key == key)


@dataclass(frozen=True)
class FindingView:
    kind: str
    title: str  # "owner-zones fails at step 2", "a trigger of owner-zones fires at step 2"
    meaning: str
    cites: tuple[str, ...]
    text: str
    witnesses: tuple[str, ...]  # "c = B2", with the viewer's names


@dataclass(frozen=True)
class StepView:
    number: int  # 0: the start
    action: str  # "" for the start
    rules: tuple[tuple[str, str], ...]  # (rule, its summary in the rule set)
    changes: tuple[str, ...]
    refused: str  # why the rules refuse the step, or ""
    board: Board
    findings: tuple[FindingView, ...]
    failures: tuple[str, ...]


def viewers(run: Run) -> tuple[int | None, ...]:
    return (EVERYONE,) + tuple(range(run.world.players))


def viewer_label(viewer: int | None) -> str:
    return "everyone" if viewer is EVERYONE else f"player {PLAYER_NAMES[viewer]}"


def viewer_key(viewer: int | None) -> str:
    return "all" if viewer is EVERYONE else PLAYER_NAMES[viewer]


def hidden_from(run: Run, state: GameState, viewer: int | None) -> frozenset[int]:
    """The slots whose face `viewer` may not see in `state` (none for everyone)."""
    if viewer is EVERYONE:
        return frozenset()
    return frozenset(i for i in range(len(state.objects)) if not sees(run.world.ruleset, state, viewer, i))


def view(run: Run, viewer: int | None) -> tuple[StepView, ...]:
    """The run as `viewer` sees it: the start, then one view per step."""
    states = run.states
    hidden = [hidden_from(run, s, viewer) for s in states]
    views = []
    for number, state in enumerate(states):
        before = states[number - 1] if number else state
        step = run.steps[number - 1] if number else None
        # a card is named in a step's text when the viewer may see it before or after the step
        unnamed = hidden[number] & hidden[number - 1] if number else hidden[0]
        names = _names(run, unnamed)
        findings = tuple(f for f in run.findings if f.step == number)
        witnesses = {value for f in findings for b in f.bindings for _, sort, value in b if sort is not Sort.PLAYER}
        views.append(StepView(
            number=number,
            action="" if step is None else describe_action(step.action, names),
            rules=() if step is None or isinstance(step, Refused) else tuple((r, _summary(run, r)) for r in step.rules),
            changes=() if step is None or isinstance(step, Refused) else tuple(changes(before, state, names)),
            refused=_redact(step.reason, run, unnamed) if isinstance(step, Refused) else "",
            board=board(run, before, state, hidden[number], viewer, witnesses, unnamed),
            findings=tuple(_finding_view(f, run, hidden[number]) for f in findings),
            failures=tuple(_failure_text(message, viewer) for n, message in run.failures if n == number),
        ))
    return tuple(views)


def board(run: Run, before: GameState, after: GameState, hidden: frozenset[int], viewer: int | None,
          witnesses: frozenset[int] | set[int] = frozenset(), unnamed: frozenset[int] | None = None) -> Board:
    """The state `after` as piles, with what the step from `before` changed. `hidden`: the cards
    whose face the viewer may not see after the step; `unnamed`: those it may see neither before
    nor after (by default, `hidden`)."""
    unnamed = hidden if unnamed is None else unnamed
    moves = _moves(before, after)
    ghosts: dict[str, list[Ghost]] = {}
    for slot, number in moves.items():
        old = _pile_key(before.objects[slot])
        if old is not None:
            new = _pile_key(after.objects[slot])
            name = None if slot in unnamed else run.world.slots[slot].name
            ghosts.setdefault(old, []).append(Ghost(_place(before, slot), number, new is None, name))
    reordered = _reordered(before, after)
    declared = {z.zone: z for z in run.world.ruleset.zones}
    occupied = {o.zone for s in run.states for o in s.objects}
    zones = [z for z in ZONE_ORDER if z in declared or z in occupied]

    def pile(zone: Zone, player: int | None) -> Pile:
        members = after.zone_members(zone, player)
        if zone in ORDERED_ZONES:
            members = list(reversed(members))
        key = "outside" if zone is Zone.OUTSIDE else zone_key(zone, player)
        chips = tuple(
            _chip(run, before, after, i, i in hidden, viewer, moves, reordered, i in witnesses) for i in members
        )
        called = declared[zone].called if zone in declared else ""
        label = "outside the game" if zone is Zone.OUTSIDE else (f"{called} ({zone.value})" if called else zone.value)
        return Pile(key, zone, PLAYER_NAMES[player] if player is not None else None, label, zone in ORDERED_ZONES,
                    chips, tuple(ghosts.get(key, ())))

    players = tuple(
        (PLAYER_NAMES[p], tuple(pile(z, p) for z in zones if z in PERSONAL_ZONES)) for p in range(run.world.players)
    )
    shared = tuple(pile(z, None) for z in zones if z not in PERSONAL_ZONES and z is not Zone.OUTSIDE)
    return Board(players, shared, pile(Zone.OUTSIDE, None))


def _chip(run: Run, before: GameState, after: GameState, i: int, hidden: bool, viewer: int | None,
          moves: dict[int, int], reordered: set[int], witness: bool) -> Chip:
    o, was = after.objects[i], before.objects[i]
    slot = run.world.slots[i]
    if i in moves:
        change = "moved" if _pile_key(was) is not None else "created"
    elif i in reordered:
        change = "reordered"
    elif any(getattr(o, f) != getattr(was, f) for f in CHANGED_FIELDS):
        change = "changed"
    else:
        change = ""
    return Chip(
        name=None if hidden else slot.name,
        card_type=None if hidden else run.world.card_types[i].value,
        kind=None if hidden or slot.kind is SlotKind.CARD else slot.kind.value,
        owner=PLAYER_NAMES[slot.owner],
        controller=PLAYER_NAMES[o.controller],
        object=o,
        new_object=o.gen != was.gen,
        seen_by=tuple(PLAYER_NAMES[p] for p in range(run.world.players) if sees(run.world.ruleset, after, p, i)) if viewer is EVERYONE else None,
        change=change,
        move=moves.get(i) if change == "moved" else None,
        witness=witness,
    )


def _pile_key(o: ObjectState) -> str | None:
    if o.zone is Zone.NOWHERE:
        return None
    return "outside" if o.zone is Zone.OUTSIDE else zone_key(o.zone, o.whose if o.zone in PERSONAL_ZONES else None)


def _place(state: GameState, slot: int) -> int:
    """The card's place in its pile, top first (0 is the top)."""
    o = state.objects[slot]
    members = state.zone_members(o.zone, o.whose)
    if o.zone in ORDERED_ZONES:
        members = list(reversed(members))
    return members.index(slot)


def _moves(before: GameState, after: GameState) -> dict[int, int]:
    """Each card that changed piles (or came into or left the game's zones), numbered from 1."""
    moved = [i for i, (o, o2) in enumerate(zip(before.objects, after.objects)) if _pile_key(o) != _pile_key(o2)]
    return {slot: number for number, slot in enumerate(moved, start=1)}


def _reordered(before: GameState, after: GameState) -> set[int]:
    """Cards that stayed in their ordered pile but not in the same order as the others that stayed."""
    found: set[int] = set()
    stayed: dict[str, list[int]] = {}
    for i, (o, o2) in enumerate(zip(before.objects, after.objects)):
        if o.zone in ORDERED_ZONES and _pile_key(o) == _pile_key(o2):
            stayed.setdefault(_pile_key(o), []).append(i)
    for members in stayed.values():
        old = sorted(members, key=lambda i: before.objects[i].pos)
        new = sorted(members, key=lambda i: after.objects[i].pos)
        found |= {a for a, b in zip(old, new) if a != b}
    return found


def _names(run: Run, unnamed: frozenset[int]):
    """The slots with the name of each card the viewer may not see replaced."""
    return tuple(replace(s, name=HIDDEN) if s.index in unnamed else s for s in run.world.slots)


def _redact(text: str, run: Run, unnamed: frozenset[int]) -> str:
    """A message with the names of the cards the viewer may not see replaced."""
    for i in sorted(unnamed, key=lambda i: -len(run.world.slots[i].name)):
        text = re.sub(rf"(?<![\w-]){re.escape(run.world.slots[i].name)}(?![\w-])", HIDDEN, text)
    return text


def _failure_text(message: str, viewer: int | None) -> str:
    """A scenario's failed expectation, which may name any card: in full for everyone only."""
    return message if viewer is EVERYONE else "an expectation of the scenario fails here (the view of everyone shows which)"


def _summary(run: Run, rule_id: str) -> str:
    return next((r.summary for r in run.world.ruleset.rules if r.id == rule_id), "")


def _finding_view(f: Finding, run: Run, hidden: frozenset[int]) -> FindingView:
    if f.kind == "witness":
        title = f"a trigger of {f.property_id} fires at step {f.step}"
    else:
        title = f"{f.property_id} fails at step {f.step}"
    witnesses = tuple(
        ", ".join(
            f"{name} = {PLAYER_NAMES[value] if sort is Sort.PLAYER else HIDDEN if value in hidden else run.world.slots[value].name}"
            for name, sort, value in binding
        )
        for binding in f.bindings
    )
    return FindingView(f.kind, title, f.meaning, f.cites, f.text, witnesses)


def parse_viewer(text: str, players: int) -> int | None:
    """`everyone`, or a player's name (A, B, ...) among the run's players."""
    names = PLAYER_NAMES[:players]
    if text.lower() == "everyone":
        return EVERYONE
    if text.upper() in names:
        return names.index(text.upper())
    raise InputError(f"--view-as {text}: choose everyone or a player of the run ({', '.join(names)})")

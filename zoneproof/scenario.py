"""Scenario files: concrete situations a rules designer writes down and checks in the interpreter.

A scenario names its rule set, its cards (owner, type, token or sideboard, where each starts) and
its steps, written with the same action names the traces use; after any step it may state what a
person expects: where a card is, who controls it, its place in a pile, who may see its face, whether it is still the same
object, whether its memory survived, how many cards a zone holds, or that the step is illegal (and why).
"""

from __future__ import annotations

import os
import re

import tomli_w

from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import InputError, Location, did_you_mean
from .interpreter import IllegalAction, World, apply, sees
from .model import (
    GAME_ZONES,
    ORDERED_ZONES,
    PERSONAL_ZONES,
    PLAYER_NAMES,
    REFERENCES,
    START_ZONE,
    ZONE_FIELDS,
    Action,
    ActionKind,
    CardType,
    GameState,
    ObjectState,
    PlayerState,
    Scope,
    SlotKind,
    Step,
    Zone,
    player_field,
    slots_for,
    team_size_problem,
    zone_key,
)
from .ruleset import RULE_ID, RULE_NUMBER, RuleSet, builtin_names, load_ruleset
from .tomlfile import TomlFile
from .trace import Trace, write_atomically

EXPECTATION_KEYS = {"card", "zone", "whose", "controller", "position", "same_object_as_step", "new_object_since_step",
                    "counters", "casts", "looker", "tapped", "attached", "effect", "exists", "face_down", "revealed", "seen_by", *REFERENCES, *REFERENCES.values(), "returns_to", "copy"}
# What a step may expect of a player: its pregame record (103.4/103.5), its deck search, the
# replacement effects on its graveyard (614.1a), the size of its hand and library, and whether the
# game has started.
PLAYER_EXPECTATION_KEYS = {"player", "drawn", "mulligans", "free_mulligan", "kept", "owed", "looked", "searched", "exile_instead", "exile_if_dies",
                           "hand", "library", "started"}
ZONE_EXPECTATION_KEYS = {"zone", "player", "size"}
STEP_KEYS = {"action", "card", "player", "n", "zone", "order", "cards", "targets", "to_command", "illegal", "expect"}
CARD_KEYS = {"name", "owner", "type", "token", "sideboard", "commander", "start"}


@dataclass(frozen=True)
class Expectation:
    card: str  # the card; for a player expectation or one of a personal zone the player's name
    checks: tuple[tuple[str, object], ...]  # (key, expected value) in file order
    player: bool = False
    zone: Zone | None = None  # for a zone expectation, the zone whose size it checks


@dataclass(frozen=True)
class ScenarioStep:
    action: Action
    illegal: bool
    reason: str | None  # what the refusal of an illegal step must say (refusal_matches); None: any refusal
    expectations: tuple[Expectation, ...]
    line: int | None  # of its `action` in the file (of its [[step]] header without one)


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    cites: tuple[str, ...]
    world: World
    start: GameState
    names: dict[str, int]  # card name -> slot
    steps: tuple[ScenarioStep, ...]
    padding: tuple[str, ...] = ()  # the cards the file does not list, added so that every player has as many


@dataclass(frozen=True)
class Failure:
    step: int
    message: str


@dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    steps: tuple[Step | None, ...]  # None for a step that was (expectedly) illegal
    failures: tuple[Failure, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return not self.failures


# ---------------------------------------------------------------- reading


class _Reader:
    """Records each error at the table and key that hold the offending value (TomlFile)."""

    def __init__(self, file: TomlFile):
        self.file = file
        self.fail = file.fail

    def known_keys(self, table: dict, allowed: set[str], where: str, key: str | None = None):
        for k in table:
            if k not in allowed:
                self.fail(f"{where}: unknown key '{k}'{did_you_mean(k, allowed)}", key or k)

    def choice(self, value, choices: dict, what: str, key: str | None):
        if not isinstance(value, str) or value not in choices:
            self.fail(f"unknown {what} {value!r}{did_you_mean(str(value), choices)}", key)
        return choices[value]


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise InputError(f"cannot read scenario file: {e.strerror}", Location(str(path))) from None
    except UnicodeDecodeError as e:
        raise InputError(f"the file is not UTF-8 text (byte {e.start})", Location(str(path))) from None
    return parse_scenario(text, str(path))


def _ruleset_of(name: str, scenario_path: str) -> RuleSet:
    """A built-in name, or a path relative to the scenario's folder (as a file's `include` would be)."""
    if name in builtin_names() or Path(name).is_absolute():
        return load_ruleset(name)
    return load_ruleset(str(Path(scenario_path).parent / name))


def parse_scenario(text: str, path: str) -> Scenario:
    """The scenario of a file; every error of the file is reported at once (InputErrors)."""
    file = TomlFile(text, path)
    r, doc, attempt = _Reader(file), file.doc, file.attempt
    attempt(lambda: r.known_keys(doc, {"name", "cites", "ruleset", "without", "players", "hand", "hand_modifiers", "team_size", "card", "step"}, "the scenario"))
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        attempt(lambda: r.fail('a scenario needs `name = "..."`', "name" if "name" in doc else None))
    cites = doc.get("cites", [])
    if not isinstance(cites, list) or not all(isinstance(c, str) for c in cites):
        attempt(lambda: r.fail("`cites` is a list of rule numbers", "cites"))
        cites = []
    for cite in cites:
        if not RULE_ID.match(cite):
            attempt(lambda: r.fail(f"`cites` names '{cite}', which is not a rule number like 400.3 or 103.5.keep-zero", "cites"))
    ruleset_name = doc.get("ruleset", "mtg-current")
    without = doc.get("without", [])
    ruleset = None
    if not isinstance(ruleset_name, str):
        attempt(lambda: r.fail("`ruleset` is a rule set name or path", "ruleset"))
    elif not isinstance(without, list) or not all(isinstance(w, str) for w in without):
        attempt(lambda: r.fail("`without` is a list of rule numbers", "without"))
    else:
        try:
            ruleset = _ruleset_of(ruleset_name, path).without(without)
        except InputError as e:
            file.errors.append(InputError(e.message, Location(path, file.line("ruleset" if "ruleset" in doc else "without"))))
    players = doc.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= len(PLAYER_NAMES):
        attempt(lambda: r.fail(f"`players` must be 1..{len(PLAYER_NAMES)}", "players"))
        players = 2
    player_names = {PLAYER_NAMES[p]: p for p in range(players)}
    cards = doc.get("card", [])
    if not isinstance(cards, list) or not cards or not all(isinstance(c, dict) for c in cards):
        attempt(lambda: r.fail("a scenario needs one or more [[card]] tables", "card"))
        cards = []
    hand = doc.get("hand", 2)
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand <= Scope.LIMITS["hand"][1]:
        attempt(lambda: r.fail(f"`hand` (the starting hand size) must be 0..{Scope.LIMITS['hand'][1]}", "hand"))
    team_size = doc.get("team_size", 0)
    problem = "must be an integer" if not isinstance(team_size, int) or isinstance(team_size, bool) else team_size_problem(team_size, players)
    if problem:
        attempt(lambda: r.fail(f"`team_size` {problem}", "team_size"))
    modifiers = doc.get("hand_modifiers", {})
    if not isinstance(modifiers, dict) or not set(modifiers) <= set(player_names) or not all(
        isinstance(m, int) and not isinstance(m, bool) and abs(m) <= Scope.LIMITS["hand"][1] for m in modifiers.values()
    ):
        attempt(lambda: r.fail("`hand_modifiers` maps players to whole numbers (Vanguard, 902.5), as in { B = 1 }", "hand_modifiers"))
    steps_raw = doc.get("step", [])
    if not isinstance(steps_raw, list) or not all(isinstance(s, dict) for s in steps_raw):
        attempt(lambda: r.fail("steps are [[step]] tables", "step"))
        steps_raw = []
    built = None if ruleset is None else _build_world(r, ruleset, players, player_names, cards, hand)
    file.finish()  # the steps name the cards: read them only once the cards are sound
    world, start, names, padding = built
    world = replace(world, hand_modifiers=tuple(modifiers.get(n, 0) for n in player_names) if modifiers else (), team_size=team_size)
    steps = tuple(file.each("step", steps_raw, lambda raw, i: _step(r, raw, i + 1, names, player_names)))
    file.finish()
    return Scenario(path, name, tuple(cites), world, start, names, steps, padding)


def _build_world(r: _Reader, ruleset: RuleSet, players: int, player_names: dict, cards: list[dict], hand: int = 2):
    """The world and start of the scenario; every player has as many deck cards as the one with the
    most (the padding: cards the file does not list, named as in a check, each in its owner's library)."""
    per_kind: dict[tuple[int, SlotKind], list[dict]] = {}
    seen = set()

    def read_card(card: dict, index: int) -> None:
        r.known_keys(card, CARD_KEYS, "a [[card]]")
        name = card.get("name")
        if not isinstance(name, str) or not name:
            r.fail("every [[card]] needs a `name`", "name" if "name" in card else None)
        if name in seen:
            r.fail(f"card '{name}' is defined twice", "name")
        seen.add(name)
        owner = r.choice(card.get("owner"), player_names, f"owner of {name}", "owner")
        kind = SlotKind.TOKEN if card.get("token") else SlotKind.SIDEBOARD if card.get("sideboard") else SlotKind.CARD
        if card.get("commander"):
            if kind is not SlotKind.CARD:
                r.fail(f"{name}: a commander is neither a token nor a sideboard card", "commander")
            if not ruleset.is_commander:
                r.fail(f"{name}: commanders need a rule set of the Commander variant (`variant = \"commander\"`), not '{ruleset.name}'", "commander")
            kind = SlotKind.COMMANDER
        per_kind.setdefault((owner, kind), []).append((card, index))

    r.file.each("card", cards, read_card)
    count = lambda kind: max([len(per_kind.get((p, kind), [])) for p in range(players)] + [0])  # noqa: E731
    if count(SlotKind.COMMANDER) > 1:
        r.file.attempt(lambda: r.fail("each player has at most one commander", "card"))
    scope = Scope(players=players, cards=count(SlotKind.CARD), sideboard=count(SlotKind.SIDEBOARD), tokens=count(SlotKind.TOKEN),
                  commanders=count(SlotKind.COMMANDER))
    slots = slots_for(scope)
    names: dict[str, int] = {}
    card_types = [CardType.CREATURE] * len(slots)
    starts: dict[int, Zone] = {}
    for (owner, kind), listed in per_kind.items():
        own_slots = [s.index for s in slots if s.owner == owner and s.kind is kind]
        for slot, (card, index) in zip(own_slots, listed):
            def read_slot(card=card, slot=slot, kind=kind):
                names[card["name"]] = slot
                card_types[slot] = r.choice(card.get("type", "creature"), {t.value: t for t in CardType}, f"card type of {card['name']}", "type")
                problem = slots[slot].type_problem(card_types[slot], card["name"])
                if problem:
                    r.fail(problem, "type")
                default = START_ZONE[kind.value].value
                starts[slot] = r.choice(card.get("start", default), {z.value: z for z in Zone}, f"start of {card['name']}", "start")
            outer, r.file.context = r.file.context, ("card", index)
            r.file.attempt(read_slot)
            r.file.context = outer
    shown = {slot: name for name, slot in names.items()}
    padding = []
    for s in slots:
        if s.index in shown:
            continue
        padding.append(s.name)
        if s.name in names:  # a listed card took the name the padding would have
            r.file.attempt(lambda: r.fail(
                f"card '{s.name}' has the name of a card of {PLAYER_NAMES[s.owner]}'s that the scenario adds (every player has as many"
                f" {'deck' if s.kind is SlotKind.CARD else s.kind.value} cards as the one with most), so that card could not be named; rename it", "name", "card", _card_index(cards, s.name)))
    slots = tuple(replace(s, name=shown.get(s.index, s.name)) for s in slots)
    for s in slots:
        names.setdefault(s.name, s.index)
        starts.setdefault(s.index, START_ZONE[s.kind.value])
    world = World(ruleset, slots, tuple(card_types), players, hand)
    start = _start_state(slots, starts, cards, names) if not r.file.errors else None
    if start is not None and ruleset.tracks_players:
        start = replace(start, players=tuple(PlayerState() for _ in range(players)))
    return world, start, names, tuple(padding)


def _card_index(cards: list[dict], name: str) -> int | None:
    return next((i for i, c in enumerate(cards) if isinstance(c, dict) and c.get("name") == name), None)


def _start_state(slots, starts: dict[int, Zone], cards: list[dict], names: dict[str, int]) -> GameState:
    """Piles are built in the order the cards are listed: the first listed is on top."""
    listed_order = [names[c["name"]] for c in cards] + [s.index for s in slots]
    objects = {}
    piles: dict[tuple, list[int]] = {}
    for slot_index in dict.fromkeys(listed_order):
        slot = slots[slot_index]
        zone = starts[slot_index]
        gen = 1 if slot.is_token and zone is not Zone.NOWHERE else 0
        objects[slot_index] = ObjectState(zone, slot.owner, slot.owner, gen=gen)
        if zone in ORDERED_ZONES:
            piles.setdefault((zone, slot.owner if zone in PERSONAL_ZONES else None), []).append(slot_index)
    for members in piles.values():
        for depth_from_top, i in enumerate(members):
            objects[i] = replace(objects[i], pos=len(members) - 1 - depth_from_top)
    return GameState(tuple(objects[s.index] for s in slots))


def _step(r: _Reader, raw: dict, number: int, names: dict, player_names: dict) -> ScenarioStep:
    where = f"step {number}"
    r.known_keys(raw, STEP_KEYS, where)
    kind = r.choice(raw.get("action"), {k.value: k for k in ActionKind}, f"action in {where}", "action")
    card = None if "card" not in raw else r.choice(raw["card"], names, f"card in {where}", "card")
    player = None if "player" not in raw else r.choice(raw["player"], player_names, f"player in {where}", "player")
    zone = None if "zone" not in raw else r.choice(raw["zone"], {z.value: z for z in Zone}, f"zone in {where}", "zone")
    n = raw.get("n", 0)
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99:
        r.fail(f"{where}: `n` is 0 (the bottom) or a position from the top, 1..99", "n")
    order = ()
    if "order" in raw:
        listed = raw["order"]
        if not isinstance(listed, list):
            r.fail(f"{where}: `order` lists the cards of the reordered pile, top first", "order")
        pile_zone = zone if kind is ActionKind.REORDER else Zone.LIBRARY
        if pile_zone is None:
            r.fail(f"{where}: a reorder names its `zone`", "order")
        if pile_zone in PERSONAL_ZONES and player is None:
            r.fail(f"{where}: name the `player` whose {pile_zone.value} is reordered", "order")
        order = ((zone_key(pile_zone, player), tuple(r.choice(x, names, f"card in {where} order", "order") for x in listed)),)
    listed_cards = raw.get("cards", [])
    if not isinstance(listed_cards, list):
        r.fail(f"{where}: `cards` is a list of card names", "cards")
    cards = tuple(sorted(r.choice(x, names, f"card in {where}", "cards") for x in listed_cards))
    listed_targets = raw.get("targets", [])
    if not isinstance(listed_targets, list):
        r.fail(f'{where}: `targets` lists the spells or permanents the spell targets, as in targets = ["Bear"]', "targets")
    targets = tuple(r.choice(x, names, f"target in {where}", "targets") for x in listed_targets)
    illegal = raw.get("illegal", False)
    reason = None
    if isinstance(illegal, str):
        reason = illegal.strip()
        if not reason:
            r.fail(f'{where}: `illegal` is empty; write why the rules refuse the step, as in illegal = "405.5", or illegal = true', "illegal")
        illegal = True
    elif not isinstance(illegal, bool):
        r.fail(f'{where}: `illegal` is true or, in quotes, why the rules refuse the step, as in illegal = "405.5"'
               f' or illegal = "not the top of the stack"; not {illegal!r}', "illegal")
    to_command = raw.get("to_command", False)
    if not isinstance(to_command, bool):
        r.fail(f"{where}: `to_command` is true or false", "to_command")
    expectations = raw.get("expect", [])
    if not isinstance(expectations, list) or not all(isinstance(e, dict) for e in expectations):
        r.fail(f"{where}: `expect` is a list of tables like {{ card = \"Bear\", zone = \"graveyard\" }}", "expect")
    parsed = []
    for e in expectations:
        if "zone" in e and "card" not in e:
            parsed.append(_zone_expectation(r, e, where, player_names))
            continue
        if "player" in e:
            r.known_keys(e, PLAYER_EXPECTATION_KEYS, f"{where} expectation of a player", "expect")
            r.choice(e.get("player"), player_names, f"player in {where} expectation", "expect")
            parsed.append(Expectation(e["player"], tuple((k, v) for k, v in e.items() if k != "player"), player=True))
            continue
        if "size" in e:
            r.fail(f'{where}: `size` is the number of cards in a zone, expected of a zone and no card: {{ zone = "stack", size = 1 }}', "expect")
        r.known_keys(e, EXPECTATION_KEYS, f"{where} expectation", "expect")
        r.choice(e.get("card"), names, f"card in {where} expectation", "expect")
        seen_by = e.get("seen_by", [])
        if not isinstance(seen_by, list):
            r.fail(f"{where}: `seen_by` lists the players who may see the card's face, e.g. [\"A\"] or []", "expect")
        for player_name in seen_by:
            r.choice(player_name, player_names, f"player in {where} seen_by", "expect")
        for ref in REFERENCES:
            if ref in e and e[ref] != "none":
                r.choice(e[ref], names, f"{ref} in {where} expectation (or \"none\")", "expect")
        if "looker" in e and e["looker"] != "none":
            r.choice(e["looker"], player_names, f"looker in {where} expectation (or \"none\")", "expect")
        parsed.append(Expectation(e["card"], tuple((k, v) for k, v in e.items() if k != "card")))
    action = Action(kind=kind, card=card, player=player, n=n, zone=zone, order=order, cards=cards, to_command=to_command, targets=targets)
    return ScenarioStep(action, illegal, reason, tuple(parsed), r.file.line("action", "step", number - 1))


def _zone_expectation(r: _Reader, e: dict, where: str, player_names: dict) -> Expectation:
    """{ zone = "stack", size = 1 }, or with the `player` whose library, hand or graveyard it is."""
    r.known_keys(e, ZONE_EXPECTATION_KEYS, f"{where} expectation of a zone", "expect")
    zone = r.choice(e["zone"], {z.value: z for z in GAME_ZONES}, f"zone in {where} expectation", "expect")
    example = f'{{ zone = "{zone.value}", player = "A", size = 1 }}' if zone in PERSONAL_ZONES else f'{{ zone = "{zone.value}", size = 1 }}'
    size = e.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        r.fail(f"{where}: an expectation of a zone states its `size`, the number of cards in it (0 or more), as in {example}", "expect")
    player = e.get("player")
    if zone in PERSONAL_ZONES and player is None:
        r.fail(f"{where}: each player has a {zone.value}; name whose: {example}", "expect")
    if zone not in PERSONAL_ZONES and player is not None:
        r.fail(f"{where}: the {zone.value} is shared by the players; an expectation of it names no `player`: {example}", "expect")
    if player is not None:
        r.choice(player, player_names, f"player in {where} expectation", "expect")
    return Expectation(player or "", (("size", size),), zone=zone)


def refusal_matches(reason: str, message: str) -> bool:
    """Whether a refusal's message gives the reason: it holds the reason's text, ignoring case, but not
    as part of a longer word or rule number ("405.5" is in "(405.5)", not in "405.55", "405.5a" or
    "405.5.keep-zero"; "stack" is not in "stacked")."""
    before = r"(?<!\w)(?<!\w[.-])" if reason[:1].isalnum() else ""
    after = r"(?!\w|[.-]\w)" if reason[-1:].isalnum() else ""
    return re.search(before + re.escape(reason) + after, message, re.IGNORECASE) is not None


# ---------------------------------------------------------------- running


def run_scenario(scenario: Scenario) -> ScenarioResult:
    world = scenario.world
    states = [scenario.start]
    steps: list[Step | None] = []
    failures: list[Failure] = []
    for number, step in enumerate(scenario.steps, start=1):
        state = states[-1]
        try:
            outcome = apply(world, state, step.action)
        except IllegalAction as e:
            if step.illegal:
                if step.reason is not None and not refusal_matches(step.reason, str(e)):
                    failures.append(Failure(number, f"expected the action to be illegal for {step.reason!r}, but it is illegal for another reason: {e}"))
                steps.append(None)
                states.append(state)
                failures += _check(scenario, number, step, states)
                continue
            failures.append(Failure(number, f"the action is illegal: {e}"))
            break
        if step.illegal:
            why = f" for {step.reason!r}" if step.reason is not None else ""
            failures.append(Failure(number, f"expected the action to be illegal{why}, but it was carried out"))
        steps.append(Step(step.action, outcome.state, outcome.rules))
        states.append(outcome.state)
        failures += _check(scenario, number, step, states)
    return ScenarioResult(scenario, tuple(steps), tuple(failures))


def _check(scenario: Scenario, number: int, step: ScenarioStep, states: list[GameState]) -> list[Failure]:
    failures = []
    now = states[-1]
    for e in step.expectations:
        if e.player:
            failures += _check_player(scenario, number, e, now)
            continue
        if e.zone is not None:
            [(_, expected)] = e.checks
            p = PLAYER_NAMES.index(e.card) if e.card else None
            actual = now.size(e.zone, p)
            if actual != expected:
                failures.append(Failure(number, f"{zone_key(e.zone, p)}: expected size = {expected!r}, got {actual!r}"))
            continue
        slot = scenario.names[e.card]
        o = now.objects[slot]
        for key, expected in e.checks:
            if key == "seen_by":
                world = scenario.world
                actual = [PLAYER_NAMES[p] for p in range(world.players) if sees(world.ruleset, now, p, slot)]
                expected = sorted(expected)
            elif key == "position" and o.zone not in ORDERED_ZONES:
                failures.append(Failure(number, f"{e.card}: expected position = {expected!r}, but it is in {o.zone.value}, where cards have no order"))
                continue
            else:
                actual = _observe(key, expected, slot, o, now, states, scenario.names)
            if actual != expected:
                failures.append(Failure(number, f"{e.card}: expected {key} = {expected!r}, got {actual!r}"))
    return failures


def _check_player(scenario: Scenario, number: int, e: Expectation, now: GameState) -> list[Failure]:
    p = PLAYER_NAMES.index(e.card)
    record = now.players[p] if now.players else PlayerState()
    failures = []
    for key, expected in e.checks:
        if key in ("hand", "library"):
            actual = now.size(Zone(key), p)
        elif key == "started":
            actual = now.started
        else:
            actual = getattr(record, player_field(key))
        if actual != expected:
            failures.append(Failure(number, f"player {e.card}: expected {key} = {expected!r}, got {actual!r}"))
    return failures


def _observe(key: str, expected, slot: int, o: ObjectState, now: GameState, states: list[GameState], names: dict[str, int]):
    """The value of an expectation's key in the current state, in the form the file writes it."""
    if key in ZONE_FIELDS:
        return getattr(o, key).value
    if key in ("whose", "controller"):
        return PLAYER_NAMES[getattr(o, key)]
    if key == "position":
        if o.zone not in ORDERED_ZONES:
            return None
        size = now.size(o.zone, o.whose)
        from_top = size - o.pos
        if expected == "top" and from_top == 1 or expected == "bottom" and o.pos == 0:
            return expected
        return from_top
    if key == "same_object_as_step":
        return expected if _valid_step(expected, states) and states[expected].objects[slot].gen == o.gen else f"a new object since step {expected}"
    if key == "new_object_since_step":
        return expected if _valid_step(expected, states) and states[expected].objects[slot].gen != o.gen else f"the same object as at step {expected}"
    if key == "exists":
        return o.zone is not Zone.NOWHERE
    if key == "looker":
        return "none" if o.looker is None else PLAYER_NAMES[o.looker]
    if key in REFERENCES:
        ref = getattr(o, key)
        return "none" if ref is None else next((name for name, index in names.items() if index == ref), f"slot {ref}")
    return getattr(o, key)


def _valid_step(value, states) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(states)


# ---------------------------------------------------------------- a trace as a scenario


def scenario_from_trace(trace: Trace, violation: str, folder: Path | None = None) -> dict:
    """The counterexample as a scenario document a person can read, edit and `zoneproof run`:
    the same cards, starting places and steps, with what each step changed as expectations. A rule
    set file is named by its path from `folder`, where the scenario is written (a scenario's
    `ruleset` is read from its own folder)."""
    slots = trace.slots
    ruleset = trace.ruleset_name if trace.ruleset_origin == "builtin" else ruleset_path(trace.ruleset_origin, folder)
    doc: dict = {
        "name": f"{trace.property_id} under {trace.ruleset_name}{' without ' + ', '.join(trace.removed) if trace.removed else ''}: {violation}",
        "cites": list(trace.property_cites),
        "ruleset": ruleset,
        "players": trace.scope.players,
    }
    if trace.removed:
        doc["without"] = list(trace.removed)
    if trace.initial.players:
        doc["hand"] = trace.scope.hand
    if any(trace.scope.hand_modifiers):
        doc["hand_modifiers"] = {PLAYER_NAMES[p]: m for p, m in enumerate(trace.scope.hand_modifiers)}
    if trace.scope.team_size:
        doc["team_size"] = trace.scope.team_size
    listing = sorted(range(len(slots)), key=lambda i: (slots[i].owner, slots[i].kind.value != "card", -trace.initial.objects[i].pos))
    doc["card"] = []
    for i in listing:
        slot, start = slots[i], trace.initial.objects[i]
        card = {"name": slot.name, "owner": PLAYER_NAMES[slot.owner], "type": trace.card_types[i].value, "start": start.zone.value}
        if slot.kind is SlotKind.TOKEN:
            card["token"] = True
        if slot.kind is SlotKind.SIDEBOARD:
            card["sideboard"] = True
        if slot.kind is SlotKind.COMMANDER:
            card["commander"] = True
        doc["card"].append(card)
    doc["step"] = []
    before = trace.initial
    for number, step in enumerate(trace.steps, start=1):
        entry = action_entry(step.action, slots)
        expectations = []
        for i, (o, o2) in enumerate(zip(before.objects, step.state.objects)):
            if o == o2:
                continue
            e: dict = {"card": slots[i].name, "zone": o2.zone.value, "controller": PLAYER_NAMES[o2.controller]}
            if o2.zone in PERSONAL_ZONES:
                e["whose"] = PLAYER_NAMES[o2.whose]
            if o2.zone in ORDERED_ZONES:
                e["position"] = step.state.size(o2.zone, o2.whose) - o2.pos
            if o.face_down or o2.face_down:
                e["face_down"] = o2.face_down
            if o.revealed or o2.revealed:
                e["revealed"] = o2.revealed
            for ref, lost in REFERENCES.items():
                if getattr(o, ref) is not None or getattr(o2, ref) is not None:
                    e[ref] = "none" if getattr(o2, ref) is None else slots[getattr(o2, ref)].name
                if getattr(o, lost) or getattr(o2, lost):
                    e[lost] = getattr(o2, lost)
            if (o.returns_to, o2.returns_to) != (Zone.NOWHERE, Zone.NOWHERE):
                e["returns_to"] = o2.returns_to.value
            if o.copy or o2.copy:
                e["copy"] = o2.copy
            if o.casts or o2.casts:
                e["casts"] = o2.casts
            if o.looker is not None or o2.looker is not None:
                e["looker"] = "none" if o2.looker is None else PLAYER_NAMES[o2.looker]
            key = "same_object_as_step" if o.gen == o2.gen else "new_object_since_step"
            e[key] = number - 1
            expectations.append(e)
        for p, (ps, ps2) in enumerate(zip(before.players, step.state.players)):
            if ps != ps2:
                expectations.append({
                    "player": PLAYER_NAMES[p], "mulligans": ps2.mulligans, "kept": ps2.kept, "owed": ps2.owed, "looked": ps2.looked,
                    "hand": step.state.size(Zone.HAND, p), "library": step.state.size(Zone.LIBRARY, p),
                })
        if expectations:
            entry["expect"] = expectations
        doc["step"].append(entry)
        before = step.state
    return doc


def ruleset_path(origin: str, folder: Path | None) -> str:
    """The path of a rule set file as a scenario in `folder` names it (absolute without a folder)."""
    path = Path(origin).resolve()
    return os.path.relpath(path, folder.resolve()) if folder is not None else str(path)


def action_entry(a: Action, slots) -> dict:
    """A scenario step for the action (without expectations)."""
    entry: dict = {"action": a.kind.value}
    if a.card is not None:
        entry["card"] = slots[a.card].name
    if a.player is not None:
        entry["player"] = PLAYER_NAMES[a.player]
    if a.n:
        entry["n"] = a.n
    if a.zone is not None:
        entry["zone"] = a.zone.value
    if a.order:
        (_, order), *_ = a.order
        entry["order"] = [slots[x].name for x in order]
    if a.cards:
        entry["cards"] = [slots[x].name for x in a.cards]
    if a.targets:
        entry["targets"] = [slots[x].name for x in a.targets]
    if a.to_command:
        entry["to_command"] = True
    return entry


CITED_RULE = re.compile(rf"(?<![\w.]){RULE_NUMBER}(?![\w-])")


def write_scenario(trace: Trace, violation: str, path: Path, refused: Action | None = None) -> None:
    """Write the trace as a scenario; `refused` adds a last step that must be illegal, for the reason
    the interpreter gives: the rule number its refusal cites, if just one, else its message."""
    doc = scenario_from_trace(trace, violation, path.parent)
    if refused is not None:
        doc["step"].append(action_entry(refused, trace.slots) | {"illegal": True})
        path.parent.mkdir(parents=True, exist_ok=True)  # a rule set named from the folder is read through it
        name_the_refusal(doc, path)
    write_atomically(path, tomli_w.dumps(doc))


def name_the_refusal(doc: dict, path: Path) -> None:
    """Mark the scenario's last step illegal for the reason the interpreter gives, the file run as
    from `path`: the rule number its refusal cites, if just one, else its message (left `true` when
    the run does not end in that refusal)."""
    message = _last_refusal(doc, path)
    if message is not None:
        cited = set(CITED_RULE.findall(message))
        reason = cited.pop() if len(cited) == 1 else message
        doc["step"][-1]["illegal"] = reason if refusal_matches(reason, message) else message


def _last_refusal(doc: dict, path: Path) -> str | None:
    """The message with which the interpreter refuses the scenario's last step, run as the file
    will be; None if the file would not read or the run does not end in that refusal."""
    try:
        scenario = parse_scenario(tomli_w.dumps(doc), str(path))
        state = scenario.start
        for step in scenario.steps[:-1]:
            state = apply(scenario.world, state, step.action).state
    except (InputError, IllegalAction):
        return None
    try:
        apply(scenario.world, state, scenario.steps[-1].action)
    except IllegalAction as e:
        return str(e)
    return None

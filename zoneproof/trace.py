"""Counterexample traces and their ITF JSON form (the Informal Trace Format of Apalache and Quint).

A trace file is canonical: the same check writes the same bytes. Each state holds the action that
led to it (`init` for the first), the rules that action applied, every object's fields and the card
types. `#meta` carries the rule set (name, origin, the hash of its resolved content, removed rules,
and the chain of files it extends), the property (with its source text, so a trace replays on its
own), the scope, the seed and the step that violates it. The origin and the chain name files by
absolute paths, so a trace replays from any folder. A trace without a chain is of an older
format, whose sha256 is of the rule set file's bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
import tempfile
from dataclasses import dataclass
from pathlib import Path

import itf_py

from . import __version__
from .errors import InputError, Location
from .ruleset import Link
from .model import (
    MAX_CASTS,
    PLAYER_FIELDS,
    PLAYER_NAMES,
    REFERENCES,
    REPLACEMENT_FIELDS,
    STATE_FIELDS,
    Action,
    ActionKind,
    CardType,
    GameState,
    ObjectState,
    PlayerState,
    Scope,
    Slot,
    Step,
    Zone,
    slots_for,
    team_size_problem,
)

ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
INIT = "init"


@dataclass(frozen=True)
class Trace:
    ruleset_name: str
    ruleset_origin: str  # "builtin" or a path
    ruleset_sha256: str
    removed: tuple[str, ...]
    property_id: str
    property_cites: tuple[str, ...]
    property_kind: str
    property_text: str
    scope: Scope
    seed: int
    card_types: tuple[CardType, ...]
    initial: GameState
    steps: tuple[Step, ...]
    violation_step: int  # the state index at which the property fails
    ruleset_chain: tuple[Link, ...] = ()  # the rule set's file, then the one it extends, ...; () in older traces

    @property
    def slots(self) -> tuple[Slot, ...]:
        return slots_for(self.scope)


# ---------------------------------------------------------------- writing


def of_ruleset(ruleset) -> dict:
    """The fields of a Trace that name its rule set (`Trace(**of_ruleset(ruleset), ...)`)."""
    return dict(ruleset_name=ruleset.name, ruleset_origin=ruleset.origin, ruleset_sha256=ruleset.sha256,
                ruleset_chain=ruleset.chain, removed=ruleset.removed)


def _int(n: int) -> dict:
    return {"#bigint": str(n)}


def _player(p: int | None) -> str:
    return "" if p is None else PLAYER_NAMES[p]


# A trace of a Commander rule set (a scope with commanders) also records each action's `to_command`
# and each object's `fresh`; other traces leave them out, as they always are false there. An
# action's `targets` only where it names one, an object's references (`target` and `target_lost`,
# `exiled_with` and `link_lost`) only where it refers to an object, a commander's `casts` only
# where it has been cast from the command zone, an object's
# `looker` only where an instruction lets a player look at it in exile face down (406.3), its
# `returns_to` only where it is exiled until a permanent leaves (610.3), and its `copy` only where it is a
# copy of a spell (707.10).


def action_json(action: Action | None, slots: tuple[Slot, ...]) -> dict:
    record = _action_record(action, slots)
    if any(s.is_commander for s in slots):
        record["to_command"] = action is not None and action.to_command
    if action is not None and action.targets:
        record["targets"] = {"#set": sorted(slots[i].name for i in action.targets)}
    return record


def _action_record(action: Action | None, slots: tuple[Slot, ...]) -> dict:
    if action is None:
        return {"kind": INIT, "card": "", "player": "", "n": _int(0), "zone": "", "order": {"#map": []}, "cards": {"#set": []}}
    return {
        "kind": action.kind.value,
        "card": "" if action.card is None else slots[action.card].name,
        "player": _player(action.player),
        "n": _int(action.n),
        "zone": "" if action.zone is None else action.zone.value,
        "order": {"#map": [[key, [slots[i].name for i in order]] for key, order in action.order]},
        "cards": {"#set": sorted(slots[i].name for i in action.cards)},
    }


def _objects_json(state: GameState, slots: tuple[Slot, ...]) -> dict:
    with_fresh = any(s.is_commander for s in slots)

    def record(o: ObjectState) -> dict:
        return {
            "zone": o.zone.value,
            "whose": PLAYER_NAMES[o.whose],
            "controller": PLAYER_NAMES[o.controller],
            "pos": _int(o.pos),
            "gen": _int(o.gen),
            "face_down": o.face_down,
            "counters": _int(o.counters),
            "tapped": o.tapped,
            "attached": o.attached,
            "effect": o.effect,
            "revealed": o.revealed,
        } | ({"fresh": o.fresh} if with_fresh else {}) | ({"casts": _int(o.casts)} if o.casts else {}) | ({"looker": PLAYER_NAMES[o.looker]} if o.looker is not None else {}) | ({"shown": {"#set": [PLAYER_NAMES[p] for p in o.shown]}} if o.shown else {}) | (
            references_json(o, slots)) | ({"returns_to": o.returns_to.value} if o.returns_to is not Zone.NOWHERE else {}) | ({"copy": True} if o.copy else {})

    return {"#map": [[slot.name, record(o)] for slot, o in zip(slots, state.objects)]}


def references_json(o: ObjectState, slots: tuple[Slot, ...]) -> dict:
    """The object's references that name an object, each with whether it is lost."""
    record = {}
    for ref, lost in REFERENCES.items():
        if getattr(o, ref) is not None:
            record |= {ref: slots[getattr(o, ref)].name, lost: getattr(o, lost)}
    return record


def _players_json(state: GameState) -> dict:
    def record(ps: PlayerState) -> dict:
        return {f: _int(getattr(ps, f)) if isinstance(getattr(ps, f), int) and not isinstance(getattr(ps, f), bool) else getattr(ps, f) for f in PLAYER_FIELDS}

    return {"#map": [[PLAYER_NAMES[p], record(ps)] for p, ps in enumerate(state.players)]}


def trace_to_itf(trace: Trace) -> dict:
    slots = trace.slots
    types = {"#map": [[slot.name, t.value] for slot, t in zip(slots, trace.card_types)]}
    pregame = bool(trace.initial.players)  # a rule set with a pregame or a deck search records each player's state and `started`
    states = []
    frames = [(None, trace.initial, ())] + [(s.action, s.state, s.rules) for s in trace.steps]
    for index, (action, state, rules) in enumerate(frames):
        states.append({
            "#meta": {"index": index},
            "action": action_json(action, slots),
            "rules": list(rules),
            "objects": _objects_json(state, slots),
            "card_type": types,
        })
        if pregame:
            states[-1] |= {"players": _players_json(state), "started": state.started}
    scope = trace.scope
    scope_json = {
        "players": scope.players,
        "cards": scope.cards,
        "sideboard": scope.sideboard,
        "tokens": scope.tokens,
        "depth": scope.depth,
    }
    if scope.commanders:
        scope_json["commanders"] = scope.commanders
    if pregame:
        scope_json["hand"] = scope.hand
    if any(scope.hand_modifiers):
        scope_json["hand_modifiers"] = {PLAYER_NAMES[p]: m for p, m in enumerate(scope.hand_modifiers)}
    if scope.team_size:
        scope_json["team_size"] = scope.team_size
    origin = trace.ruleset_chain[0].origin if trace.ruleset_chain else trace.ruleset_origin
    chain = {"chain": [{"name": link.name, "origin": link.origin} for link in trace.ruleset_chain]} if trace.ruleset_chain else {}
    return {
        "#meta": {
            "format": "ITF",
            "format-description": ITF_DESCRIPTION,
            "source": f"model/{trace.ruleset_name}.toml" if origin == "builtin" else origin,
            "description": f"counterexample to {trace.property_id} under {trace.ruleset_name}",
            "tool": "zoneproof",
            "version": __version__,
            "ruleset": {
                "name": trace.ruleset_name,
                "origin": origin,
                "sha256": trace.ruleset_sha256,
                "removed": list(trace.removed),
            } | chain,
            "property": {
                "id": trace.property_id,
                "cites": list(trace.property_cites),
                "kind": trace.property_kind,
                "text": trace.property_text,
            },
            "scope": scope_json,
            "seed": trace.seed,
            "violation_step": trace.violation_step,
        },
        "vars": ["action", "rules", "objects", "card_type"] + (["players", "started"] if pregame else []),
        "states": states,
    }


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".zoneproof-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, 0o644)  # mkstemp makes the file private; a trace is an ordinary file
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def itf_text(trace: Trace) -> str:
    return json.dumps(trace_to_itf(trace), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_trace(trace: Trace, path: Path) -> None:
    write_atomically(path, itf_text(trace))


# ---------------------------------------------------------------- reading


class TraceReader:
    """Reads the values itf-py decoded, turning every shape error into an InputError on the file."""

    def __init__(self, path: str):
        self.path = path

    def fail(self, message: str):
        raise InputError(f"invalid trace: {message}", Location(self.path))

    def get(self, record, key: str, where: str):
        if isinstance(record, Mapping):
            if key in record:
                return record[key]
        elif hasattr(record, "_fields") and key in record._fields:
            return getattr(record, key)
        self.fail(f"{where} has no '{key}'")

    def typed(self, value, kind, where: str):
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            self.fail(f"{where} should be {kind.__name__}, got {type(value).__name__}")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                self.fail(f"{where} holds a character that is not valid Unicode text")
        return value

    def enum(self, enum_type, value, where: str):
        try:
            member = enum_type(value) if isinstance(value, str) else None
        except ValueError:
            member = None
        if member is None:
            self.fail(f"{where}: unknown value {value!r}")
        return member

    def name(self, table: dict, value, where: str):
        if not isinstance(value, str) or value not in table:
            self.fail(f"{where}: unknown name {value!r}")
        return table[value]


def _hand_modifiers(r, raw, players: int) -> tuple[int, ...]:
    """#meta.scope.hand_modifiers: a map from player names to ints."""
    modifiers = r.typed(raw, dict, "#meta.scope.hand_modifiers")
    names = PLAYER_NAMES[:players]
    if set(modifiers) != set(names):
        r.fail(f"#meta.scope.hand_modifiers must map exactly the players {', '.join(names)}")
    return tuple(r.typed(modifiers[name], int, f"#meta.scope.hand_modifiers.{name}") for name in names)


def recorded(rec, key: str) -> bool:
    """Whether a record holds a field written only where it has a value (shown, looker, target, targets, returns_to, copy)."""
    return key in (rec if isinstance(rec, Mapping) else getattr(rec, "_fields", ()))


def action_from_record(r: TraceReader, rec, at: str, slot_by_name: dict[str, int], player_by_name: dict[str, int], scope: Scope) -> Action:
    """An action from its record as a trace writes it (`action_json`), as itf-py decodes it."""
    kind = r.get(rec, "kind", at)
    card = r.get(rec, "card", at)
    player = r.get(rec, "player", at)
    zone = r.get(rec, "zone", at)
    order = r.get(rec, "order", at)
    cards = r.get(rec, "cards", at)
    if not isinstance(order, Mapping) or not isinstance(cards, frozenset):
        r.fail(f"{at}: 'order' must be a #map and 'cards' a #set")
    if not all(isinstance(key, str) for key in order):
        r.fail(f"{at}: the keys of 'order' are zone names such as 'library/A'")
    targets = ()
    if recorded(rec, "targets"):
        listed = r.get(rec, "targets", at)
        if not isinstance(listed, frozenset):
            r.fail(f"{at}.targets must be a #set of cards")
        targets = tuple(sorted(r.name(slot_by_name, x, f"{at}.targets") for x in listed))
    return Action(
        kind=r.enum(ActionKind, kind, f"{at}.kind"),
        card=None if card == "" else r.name(slot_by_name, card, f"{at}.card"),
        player=None if player == "" else r.name(player_by_name, player, f"{at}.player"),
        n=r.typed(r.get(rec, "n", at), int, f"{at}.n"),
        zone=None if zone == "" else r.enum(Zone, zone, f"{at}.zone"),
        order=tuple(
            (r.typed(key, str, f"{at}.order key"), tuple(r.name(slot_by_name, x, f"{at}.order") for x in r.typed(value, list, f"{at}.order value")))
            for key, value in sorted(order.items())
        ),
        cards=tuple(sorted(r.name(slot_by_name, x, f"{at}.cards") for x in cards)),
        to_command=r.typed(r.get(rec, "to_command", at), bool, f"{at}.to_command") if scope.commanders else False,
        targets=targets,
    )


def read_trace(path: Path) -> Trace:
    where = str(path)
    try:
        raw_text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise InputError(f"cannot read trace file: {e.strerror}", Location(where)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"the trace is not UTF-8 text (byte {e.start})", Location(where)) from None
    try:
        data = json.loads(raw_text)
    except json.JSONDecodeError as e:
        raise InputError(f"malformed JSON: {e.msg}", Location(where, e.lineno, e.colno)) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", Location(where)) from None
    except ValueError as e:  # e.g. an integer with more digits than Python reads
        raise InputError(f"malformed JSON: {' '.join(str(e).split()[:12])}", Location(where)) from None
    r = TraceReader(where)
    if not isinstance(data, dict) or not isinstance(data.get("states"), list) or not isinstance(data.get("vars"), list):
        r.fail("an ITF trace is an object with 'vars' and 'states'")
    if not all(isinstance(name, str) for name in data["vars"]):
        r.fail("'vars' is a list of variable names (strings)")
    try:
        itf = itf_py.trace_from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        r.fail(f"not ITF ({type(e).__name__}: {e})")
    except RecursionError:
        r.fail("nested too deeply")
    meta = r.typed(itf.meta, dict, "#meta")
    if meta.get("tool") != "zoneproof":
        r.fail("#meta.tool is not 'zoneproof'; only zoneproof traces can be replayed")
    ruleset = r.typed(r.get(meta, "ruleset", "#meta"), dict, "#meta.ruleset")
    prop = r.typed(r.get(meta, "property", "#meta"), dict, "#meta.property")
    scope_raw = r.typed(r.get(meta, "scope", "#meta"), dict, "#meta.scope")
    scope_values = {k: r.typed(r.get(scope_raw, k, "#meta.scope"), int, f"#meta.scope.{k}") for k in ("players", "cards", "sideboard", "tokens", "depth")}
    if "commanders" in scope_raw:
        scope_values["commanders"] = r.typed(scope_raw["commanders"], int, "#meta.scope.commanders")
    for key, value in scope_values.items():
        low, high = Scope.LIMITS[key]
        if not low <= value <= high:
            r.fail(f"#meta.scope.{key} is {value}; it must be {low}..{high}")
    if "hand" in scope_raw:
        scope_values["hand"] = r.typed(scope_raw["hand"], int, "#meta.scope.hand")
        low, high = Scope.LIMITS["hand"]
        if not low <= scope_values["hand"] <= high:
            r.fail(f"#meta.scope.hand is {scope_values['hand']}; it must be {low}..{high}")
    if "hand_modifiers" in scope_raw:
        scope_values["hand_modifiers"] = _hand_modifiers(r, scope_raw["hand_modifiers"], scope_values["players"])
    if "team_size" in scope_raw:
        scope_values["team_size"] = r.typed(scope_raw["team_size"], int, "#meta.scope.team_size")
        problem = team_size_problem(scope_values["team_size"], scope_values["players"])
        if problem:
            r.fail(f"#meta.scope.team_size {problem}")
    scope = Scope(**scope_values)
    if scope.hand_modifier_problem():
        r.fail(f"#meta.scope.hand_modifiers: {scope.hand_modifier_problem()}")
    slots = slots_for(scope)
    slot_by_name = {s.name: s.index for s in slots}
    player_by_name = {name: i for i, name in enumerate(PLAYER_NAMES[: scope.players])}
    if not itf.states:
        r.fail("the trace has no states")
    pregame_vars = {"players", "started"} & set(data["vars"])
    if pregame_vars and pregame_vars != {"players", "started"}:
        r.fail("'vars' lists 'players' and 'started' together or neither")

    def shown_players(rec, at: str) -> tuple[int, ...]:
        """The players a look showed the object to: recorded only where there are some."""
        if not recorded(rec, "shown"):
            return ()
        listed = r.get(rec, "shown", at)
        if not isinstance(listed, frozenset) or not listed:
            r.fail(f"{at}.shown must be a #set of one or more players")
        return tuple(sorted(r.name(player_by_name, x, f"{at}.shown") for x in listed))

    def references_of(rec, at: str) -> dict:
        """The objects the object refers to, each with whether it is lost: recorded only where there is one."""
        found = {}
        for ref, lost in REFERENCES.items():
            if recorded(rec, ref):
                found |= {ref: r.name(slot_by_name, r.get(rec, ref, at), f"{at}.{ref}"),
                          lost: r.typed(r.get(rec, lost, at), bool, f"{at}.{lost}")}
        return found

    def casts_of(rec, at: str) -> int:
        """A commander's casts from the command zone: recorded only where there are some."""
        if not recorded(rec, "casts"):
            return 0
        count = r.typed(r.get(rec, "casts", at), int, f"{at}.casts")
        if not 0 < count <= MAX_CASTS:
            r.fail(f"{at}.casts must be 1..{MAX_CASTS} (leave it out for none)")
        return count

    def objects_of(state_values, i) -> tuple[GameState, tuple[CardType, ...]]:
        objects = r.get(state_values, "objects", f"state {i}")
        types = r.get(state_values, "card_type", f"state {i}")
        if not isinstance(objects, Mapping) or set(objects) != set(slot_by_name):
            r.fail(f"state {i}: 'objects' must map exactly the cards {', '.join(slot_by_name)}")
        if not isinstance(types, Mapping) or set(types) != set(slot_by_name):
            r.fail(f"state {i}: 'card_type' must map exactly the cards {', '.join(slot_by_name)}")
        result = []
        for slot in slots:
            rec = objects[slot.name]
            at = f"state {i}, {slot.name}"
            values = {f: r.get(rec, f, at) for f in STATE_FIELDS if f not in ("fresh", "casts", "looker", "returns_to", "copy", *REFERENCES, *REFERENCES.values())}
            values["fresh"] = r.get(rec, "fresh", at) if scope.commanders else False
            result.append(ObjectState(
                zone=r.enum(Zone, values["zone"], f"{at}.zone"),
                whose=r.name(player_by_name, values["whose"], f"{at}.whose"),
                controller=r.name(player_by_name, values["controller"], f"{at}.controller"),
                pos=r.typed(values["pos"], int, f"{at}.pos"),
                gen=r.typed(values["gen"], int, f"{at}.gen"),
                face_down=r.typed(values["face_down"], bool, f"{at}.face_down"),
                counters=r.typed(values["counters"], int, f"{at}.counters"),
                tapped=r.typed(values["tapped"], bool, f"{at}.tapped"),
                attached=r.typed(values["attached"], bool, f"{at}.attached"),
                effect=r.typed(values["effect"], bool, f"{at}.effect"),
                revealed=r.typed(values["revealed"], bool, f"{at}.revealed"),
                fresh=r.typed(values["fresh"], bool, f"{at}.fresh"),
                casts=casts_of(rec, at),
                looker=r.name(player_by_name, r.get(rec, "looker", at), f"{at}.looker") if recorded(rec, "looker") else None,
                shown=shown_players(rec, at),
                **references_of(rec, at),
                returns_to=r.enum(Zone, r.get(rec, "returns_to", at), f"{at}.returns_to") if recorded(rec, "returns_to") else Zone.NOWHERE,
                copy=r.typed(r.get(rec, "copy", at), bool, f"{at}.copy") if recorded(rec, "copy") else False,
            ))
        card_types = tuple(r.enum(CardType, types[s.name], f"state {i}, card_type[{s.name}]") for s in slots)
        players: tuple[PlayerState, ...] = ()
        started = False
        if "players" in pregame_vars:
            records = r.get(state_values, "players", f"state {i}")
            if not isinstance(records, Mapping) or set(records) != set(player_by_name):
                r.fail(f"state {i}: 'players' must map exactly the players {', '.join(player_by_name)}")
            # A trace written before replacement effects has no record of them: none was in force.
            players = tuple(
                PlayerState(**{
                    f: r.typed(r.get(records[name], f, f"state {i}, player {name}"), bool if isinstance(getattr(PlayerState(), f), bool) else int, f"state {i}, {name}.{f}")
                    for f in PLAYER_FIELDS if f not in REPLACEMENT_FIELDS or recorded(records[name], f)
                })
                for name in player_by_name
            )
            started = r.typed(r.get(state_values, "started", f"state {i}"), bool, f"state {i}.started")
        return GameState(tuple(result), players, started), card_types

    first = itf.states[0].values
    if r.get(r.get(first, "action", "state 0"), "kind", "state 0, action") != INIT:
        r.fail("state 0 must have action kind 'init'")
    initial, card_types = objects_of(first, 0)
    steps = []
    for i, state in enumerate(itf.states[1:], start=1):
        game_state, types_here = objects_of(state.values, i)
        if types_here != card_types:
            r.fail(f"state {i}: card types differ from state 0")
        rules = r.get(state.values, "rules", f"state {i}")
        if not isinstance(rules, list) or not all(isinstance(x, str) for x in rules):
            r.fail(f"state {i}: 'rules' must be a list of rule numbers")
        steps.append(Step(action_from_record(r, r.get(state.values, "action", f"state {i}"), f"state {i}, action", slot_by_name, player_by_name, scope),
                          game_state, tuple(rules)))
    violation = r.typed(r.get(meta, "violation_step", "#meta"), int, "#meta.violation_step")
    if not 0 <= violation <= len(steps):
        r.fail(f"#meta.violation_step is {violation}, but the trace has states 0..{len(steps)}")
    seed = r.typed(r.get(meta, "seed", "#meta"), int, "#meta.seed")
    removed = r.typed(r.get(ruleset, "removed", "#meta.ruleset"), list, "#meta.ruleset.removed")
    cites = r.typed(r.get(prop, "cites", "#meta.property"), list, "#meta.property.cites")
    chain = []
    for i, link in enumerate(r.typed(ruleset.get("chain", []), list, "#meta.ruleset.chain")):
        where = f"#meta.ruleset.chain[{i}]"
        link = r.typed(link, dict, where)
        chain.append(Link(r.typed(r.get(link, "name", where), str, f"{where}.name"), r.typed(r.get(link, "origin", where), str, f"{where}.origin")))
    return Trace(
        ruleset_name=r.typed(r.get(ruleset, "name", "#meta.ruleset"), str, "#meta.ruleset.name"),
        ruleset_origin=r.typed(r.get(ruleset, "origin", "#meta.ruleset"), str, "#meta.ruleset.origin"),
        ruleset_sha256=r.typed(r.get(ruleset, "sha256", "#meta.ruleset"), str, "#meta.ruleset.sha256"),
        removed=tuple(r.typed(x, str, "#meta.ruleset.removed") for x in removed),
        property_id=r.typed(r.get(prop, "id", "#meta.property"), str, "#meta.property.id"),
        property_cites=tuple(r.typed(x, str, "#meta.property.cites") for x in cites),
        property_kind=r.typed(r.get(prop, "kind", "#meta.property"), str, "#meta.property.kind"),
        property_text=r.typed(r.get(prop, "text", "#meta.property"), str, "#meta.property.text"),
        scope=scope,
        seed=seed,
        card_types=card_types,
        initial=initial,
        steps=tuple(steps),
        violation_step=violation,
        ruleset_chain=tuple(chain),
    )

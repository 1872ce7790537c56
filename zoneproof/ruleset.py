"""Rule set files: parse a TOML file into a RuleSet, and switch rules off by number."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources
from pathlib import Path

from .errors import InputError, Location, did_you_mean
from .model import GAME_ZONES, ORDERED_ZONES, PERSONAL_ZONES, PREGAME_ACTIONS, ActionKind, Behaviour, Scope, Zone

# A rule number (400.3, 400.7a), optionally with a named part (103.4.look): one rule of the
# Comprehensive Rules that holds several behaviours is split into parts, each removable on its own.
RULE_ID = re.compile(r"^\d{3}\.\d+[a-z]?(\.[a-z][a-z-]*[a-z])?$")
EXPECTED_VERDICTS = ("holds", "violated", "vacuous")
EXPECT_KEYS = ("property", "verdict", "reason")
# The zones a commander replacement may name: the destinations it replaces (903.9b; 903.9 before July 2020).
COMMANDER_REPLACEABLE = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD, Zone.EXILE)
BEHAVIOUR_ZONES = {
    Behaviour.OWNER_REDIRECT: PERSONAL_ZONES, Behaviour.ORDER_FIXED: ORDERED_ZONES, Behaviour.ZONE_CLOSED: GAME_ZONES,
    Behaviour.COMMANDER_REPLACE: COMMANDER_REPLACEABLE,
}
# Behaviours whose rule must name its zones (a default of "every zone" would make no sense).
ZONES_REQUIRED = (Behaviour.ZONE_CLOSED, Behaviour.COMMANDER_REPLACE)
# The variants a rule set may declare (`variant = "commander"`), and the behaviours only a variant has.
VARIANTS = ("commander",)
COMMANDER_BEHAVIOURS = (Behaviour.COMMANDER_CAST, Behaviour.COMMANDER_RETURN_SBA, Behaviour.COMMANDER_REPLACE)


@dataclass(frozen=True)
class Rule:
    id: str
    behaviour: Behaviour
    summary: str
    without: str
    zones: tuple[Zone, ...] = ()  # for owner-redirect, order-fixed and zone-closed: the zones it governs
    restates: str | None = None  # a rule whose text another rule already carries in the model
    line: int | None = field(default=None, compare=False)  # of its [[rule]] header in the file


@dataclass(frozen=True)
class ActionDecl:
    kind: ActionKind
    cites: tuple[str, ...]
    summary: str
    line: int | None = field(default=None, compare=False)  # of its [[action]] header in the file


@dataclass(frozen=True)
class ZoneDecl:
    zone: Zone
    personal: bool
    hidden: bool
    ordered: bool
    called: str = ""  # the game's own name for the zone (Berserk's deck is the model's library), or ""


@dataclass(frozen=True)
class Expectation:
    """The verdict a rule set file expects for a property (`[[expect]]`); `holds` when none is given."""

    property: str
    verdict: str  # "holds", "violated", or "vacuous" (holds; lint may find its trigger never fires)
    reason: str = ""


@dataclass(frozen=True)
class KnownDead:
    """An action or rule the file declares dead within the default scope (`[[dead]]`), with why:
    lint reports it but does not count it as a problem."""

    what: str  # "action" or "rule"
    name: str
    reason: str
    table: str = "dead"  # or "unguarded": a live rule that no property can notice removing (coverage);
    # or "gap": an action the rules leave without an outcome in some states (lint's conflicts)


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    source: str
    origin: str  # "builtin" or the file's path
    sha256: str
    zones: tuple[ZoneDecl, ...]
    rules: tuple[Rule, ...]  # every rule of the file, in file order
    actions: tuple[ActionDecl, ...]
    removed: tuple[str, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    known_dead: tuple[KnownDead, ...] = ()
    variant: str = ""  # "commander" for the Commander variant (section 903), "" for the base game

    @property
    def is_commander(self) -> bool:
        return self.variant == "commander"

    def scope_for(self, scope: Scope) -> Scope:
        """The scope a check of this rule set uses. In the Commander variant a deck's cards include
        its commander (903.5a), which starts in the command zone (903.6): of each player's `cards`,
        one is the commander (when there is at least one card) and the rest start in the library.
        Other rule sets have no commander. Idempotent: a scope already made for the variant, or for
        the base game, comes back unchanged."""
        deck = scope.cards + scope.commanders
        commanders = min(1, deck) if self.is_commander else 0
        return replace(scope, cards=deck - commanders, commanders=commanders)

    def fallback_replacement(self, zone: Zone) -> str | None:
        """903.9a removed: the rule whose removal brings back the replacement of the rules before
        July 2020 for graveyards and exile (a commander that would go there may go to the command
        zone instead). None while every such rule is in force, or for other zones."""
        if zone not in (Zone.GRAVEYARD, Zone.EXILE):
            return None
        return next((r.id for r in self.rules if r.behaviour is Behaviour.COMMANDER_RETURN_SBA and r.id in self.removed), None)

    def replaces(self, zone: Zone) -> str | None:
        """The rule under which a commander that would be put into `zone` may go to the command zone instead."""
        return self.active(Behaviour.COMMANDER_REPLACE, zone) or self.fallback_replacement(zone)

    def dead_reason(self, what: str, name: str) -> str:
        """Why the file expects the action or rule to be dead, or "" when it does not."""
        return next((d.reason for d in self.known_dead if (d.table, d.what, d.name) == ("dead", what, name)), "")

    def unguarded_reason(self, rule_id: str) -> str:
        """Why the file expects no property to notice the rule's removal (`[[unguarded]]`), or ""."""
        return next((d.reason for d in self.known_dead if (d.table, d.name) == ("unguarded", rule_id)), "")

    @property
    def gaps(self) -> tuple[KnownDead, ...]:
        """The actions the file declares its rules leave without an outcome in some states (`[[gap]]`)."""
        return tuple(d for d in self.known_dead if d.table == "gap")

    def expected(self, property_id: str) -> Expectation | None:
        """The verdict expected for a property, or None when expectations do not apply.

        The file's expectations describe the rule set as written. Removing rules on the command line
        (`--without`) makes another rule set, so they do not apply to it: its verdicts are plain, and
        any violation counts (as it always has)."""
        if self.removed:
            return None
        for e in self.expectations:
            if e.property == property_id:
                return e
        return Expectation(property_id, "holds")

    @cached_property
    def in_force(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.id not in self.removed)

    @property
    def label(self) -> str:
        """`mtg-current` or `mtg-current--without-400.3-400.7` (used in file names)."""
        if not self.removed:
            return self.name
        return f"{self.name}--without-{'-'.join(self.removed)}"

    def rules_for(self, behaviour: Behaviour, zone: Zone | None = None) -> tuple[str, ...]:
        """The rules in force that switch the behaviour on (for `zone`, where the behaviour is per zone)."""
        found = self._rules_for.get((behaviour, zone))
        if found is None:
            found = self._rules_for[behaviour, zone] = tuple(
                r.id
                for r in self.in_force
                if r.behaviour is behaviour and (zone is None or not r.zones or zone in r.zones)
            )
        return found

    @cached_property
    def _rules_for(self) -> dict[tuple[Behaviour, Zone | None], tuple[str, ...]]:
        """rules_for's answers, filled as they are asked (the interpreter asks the same few very often)."""
        return {}

    def active(self, behaviour: Behaviour, zone: Zone | None = None) -> str | None:
        """The first rule in force that provides the behaviour, or None."""
        ids = self.rules_for(behaviour, zone)
        return ids[0] if ids else None

    def declares_hidden(self, zone: Zone) -> bool:
        """Whether the file declares the zone hidden (`hidden = true`)."""
        return any(d.zone is zone and d.hidden for d in self.zones)

    def allows(self, kind: ActionKind) -> bool:
        return kind in self._kinds

    @cached_property
    def _kinds(self) -> frozenset[ActionKind]:
        return frozenset(a.kind for a in self.actions)

    @cached_property
    def has_pregame(self) -> bool:
        """Whether the rule set declares pregame actions (and so tracks per-player state)."""
        return any(a.kind in PREGAME_ACTIONS for a in self.actions)

    @cached_property
    def tracks_players(self) -> bool:
        """Whether states carry per-player records: for the pregame, or for a deck search (204.3)."""
        return self.has_pregame or self.allows(ActionKind.SEARCH_LIBRARY)

    def without(self, rule_ids: list[str] | tuple[str, ...]) -> "RuleSet":
        known = [r.id for r in self.rules]
        for rule_id in rule_ids:
            if rule_id not in known:
                raise InputError(
                    f"rule set '{self.name}' has no rule '{rule_id}'{did_you_mean(rule_id, known)};"
                    f" `zoneproof list {self.name}` shows its rules"
                )
        removed = sorted(set(self.removed) | set(rule_ids), key=_rule_sort_key)
        return replace(self, removed=tuple(removed))


def _rule_sort_key(rule_id: str) -> tuple:
    section, _, rest = rule_id.partition(".")
    digits = re.match(r"\d+", rest)
    return (int(section), int(digits.group()) if digits else 0, rest)


def builtin_names() -> list[str]:
    return sorted(p.name.removesuffix(".toml") for p in _builtin_dir().iterdir() if p.name.endswith(".toml"))


def builtin_file(name: str):
    """The file of a built-in rule set (a path, or a resource of the installed package)."""
    return _builtin_dir() / f"{name}.toml"


def _builtin_dir():
    try:
        return resources.files("zoneproof.builtin_model")
    except ModuleNotFoundError:  # running from a source tree that was not installed
        return Path(__file__).resolve().parent.parent / "model"


def load_ruleset(name_or_path: str) -> RuleSet:
    """A built-in rule set by name (`mtg-current`) or a rule set file by path."""
    if name_or_path in builtin_names():
        resource = builtin_file(name_or_path)
        return parse_ruleset(resource.read_bytes(), f"model/{name_or_path}.toml", origin="builtin")
    path = Path(name_or_path)
    if name_or_path.endswith(".toml") or _exists(path):
        try:
            data = path.read_bytes()
        except OSError as e:
            raise InputError(f"cannot read rule set file: {e.strerror}", Location(str(path))) from None
        except ValueError:  # a NUL byte or an unencodable character in the path
            raise InputError("not a usable file name for a rule set", Location(repr(name_or_path))) from None
        return parse_ruleset(data, str(path), origin=str(path))
    raise InputError(
        f"unknown rule set '{name_or_path}'{did_you_mean(name_or_path, builtin_names())};"
        " give a built-in name (`zoneproof list`) or the path of a .toml file"
    )


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def parse_ruleset(data: bytes, path: str, origin: str) -> RuleSet:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"the file is not UTF-8 text (byte {e.start})", Location(path)) from None
    doc = parse_toml(text, path)
    reader = _Reader(text, path)
    name = reader.string(doc, "name", "the top level")
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        reader.fail(f"rule set name '{name}' must be lower-case letters, digits and hyphens", name)
    zones = tuple(reader.zone(z) for z in reader.table_list(doc, "zone"))
    rules = tuple(replace(reader.rule(r), line=reader.block_line("rule", i)) for i, r in enumerate(reader.table_list(doc, "rule")))
    actions = tuple(replace(reader.action(a), line=reader.block_line("action", i)) for i, a in enumerate(reader.table_list(doc, "action")))
    expectations = tuple(reader.expectation(e, i) for i, e in enumerate(reader.optional_table_list(doc, "expect")))
    for i, e in enumerate(expectations):
        if any(x.property == e.property for x in expectations[:i]):
            reader.fail_in_block("expect", i, f"an expectation for property '{e.property}' is already given; keep one", "property")
    known_dead = tuple(reader.known_dead(d, i, rules, actions) for i, d in enumerate(reader.optional_table_list(doc, "dead")))
    known_dead += tuple(
        reader.known_dead(d, i, rules, (), table_name="unguarded") for i, d in enumerate(reader.optional_table_list(doc, "unguarded"))
    )
    known_dead += tuple(
        reader.known_dead(d, i, (), actions, table_name="gap") for i, d in enumerate(reader.optional_table_list(doc, "gap"))
    )
    variant = doc.get("variant", "")
    if variant != "" and variant not in VARIANTS:
        reader.fail(f"unknown variant {variant!r}{did_you_mean(str(variant), VARIANTS)}; one of: {', '.join(VARIANTS)} (or leave it out)", "variant")
    for r in rules:
        if r.behaviour in COMMANDER_BEHAVIOURS and variant != "commander":
            reader.fail(f"rule {r.id}: {r.behaviour.value} needs `variant = \"commander\"` at the top level (commanders exist only in that variant)", f'id = "{r.id}"')
    reader.check_unique([r.id for r in rules], "rule")
    reader.check_unique([a.kind.value for a in actions], "action")
    reader.check_unique([z.zone.value for z in zones], "zone")
    for r in rules:
        if r.restates is not None and r.restates not in [x.id for x in rules]:
            reader.fail(f"rule {r.id} restates '{r.restates}', which the file does not define", r.restates)
    for a in actions:
        for cite in a.cites:
            if not RULE_ID.match(cite):
                reader.fail(f"action {a.kind.value} cites '{cite}', which is not a rule number like 400.3", cite)
    return RuleSet(
        name=name,
        title=reader.string(doc, "title", "the top level"),
        source=reader.string(doc, "source", "the top level"),
        origin=origin,
        sha256=hashlib.sha256(data).hexdigest(),
        zones=zones,
        rules=rules,
        actions=actions,
        expectations=expectations,
        known_dead=known_dead,
        variant=variant,
    )


def read_expectation(table: dict, index: int, text: str, path: str, header: str) -> Expectation:
    """The index-th [[header]] table of a TOML file as an expectation (bad input points at its line)."""
    return _Reader(text, path).expectation(table, index, header)


def parse_toml(text: str, path: str) -> dict:
    """TOML to a dict; a syntax error becomes an InputError at its line and column."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise InputError("malformed TOML: nested too deeply", Location(path)) from None
    except ValueError as e:
        if not isinstance(e, tomllib.TOMLDecodeError):  # e.g. an integer with more digits than Python reads
            raise InputError(f"malformed TOML: {' '.join(str(e).split()[:12])}", Location(path)) from None
        m = re.search(r"line (\d+), column (\d+)", str(e))
        line, column = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        message = re.sub(r"\s*\(at .*\)$", "", str(e))
        raise InputError(f"malformed TOML: {message}", Location(path, line, column)) from None


class _Reader:
    """Reads the parsed TOML document, pointing errors at the line that holds the offending value."""

    def __init__(self, text: str, path: str):
        self.lines = text.splitlines()
        self.path = path

    def fail(self, message: str, needle: str | None = None):
        line = None
        if needle:
            for number, content in enumerate(self.lines, start=1):
                if needle in content:
                    line = number
                    break
        raise InputError(message, Location(self.path, line))

    def string(self, table: dict, key: str, where: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{where} needs `{key} = \"...\"` (a non-empty string)", key if key in table else None)
        return value

    def table_list(self, doc: dict, key: str) -> list[dict]:
        value = doc.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            self.fail(f"the rule set needs one or more [[{key}]] tables", f"[[{key}]]")
        return value

    def optional_table_list(self, doc: dict, key: str) -> list[dict]:
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(f"`{key}` must be [[{key}]] tables", key)
        return value

    def block_line(self, header: str, index: int, key: str | None = None) -> int | None:
        """The line of `key` inside the index-th [[header]] table (or of its header line)."""
        starts = [n for n, content in enumerate(self.lines, start=1) if content.strip().startswith(f"[[{header}]]")]
        if index >= len(starts):
            return None
        start = starts[index]
        if key is None:
            return start
        for n in range(start + 1, len(self.lines) + 1):
            content = self.lines[n - 1].strip()
            if content.startswith("["):
                break
            if re.match(rf"[\"']?{re.escape(key)}[\"']?\s*=", content):
                return n
        return start

    def fail_in_block(self, header: str, index: int, message: str, key: str | None = None):
        raise InputError(message, Location(self.path, self.block_line(header, index, key)))

    def known_dead(self, table: dict, index: int, rules, actions, table_name: str = "dead") -> KnownDead:
        keys = [k for k in table if k in ("action", "rule")]
        unknown = [k for k in table if k not in ("action", "rule", "reason")]
        if unknown or len(keys) != 1:
            self.fail_in_block(table_name, index, f'[[{table_name}]] takes `action = "..."` or `rule = "..."`, and `reason = "..."`', unknown[0] if unknown else None)
        what = keys[0]
        if table_name == "unguarded" and what != "rule":
            self.fail_in_block(table_name, index, "[[unguarded]] names a rule", what)
        if table_name == "gap" and what != "action":
            self.fail_in_block(table_name, index, "[[gap]] names an action", what)
        name = table[what]
        known = [a.kind.value for a in actions] if what == "action" else [r.id for r in rules]
        if not isinstance(name, str) or name not in known:
            self.fail_in_block(table_name, index, f"[[{table_name}]] names {what} {name!r}, which the file does not define{did_you_mean(str(name), known)}", what)
        reason = table.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            self.fail_in_block(table_name, index, f'[[{table_name}]] for {what} {name} needs `reason = "..."` saying why', "reason" if "reason" in table else None)
        return KnownDead(what, name, reason.strip(), table_name)

    def expectation(self, table: dict, index: int, header: str = "expect") -> Expectation:
        """An [[expect]] table (or the header given, in a project config)."""
        for key in table:
            if key not in EXPECT_KEYS:
                self.fail_in_block(
                    header, index,
                    f"unknown key '{key}' in [[{header}]]{did_you_mean(key, EXPECT_KEYS)}; the keys are {', '.join(EXPECT_KEYS)}",
                    key,
                )
        prop = table.get("property")
        if not isinstance(prop, str) or not prop.strip():
            self.fail_in_block(header, index, f'[[{header}]] needs `property = "..."` (a property id)', "property" if "property" in table else None)
        verdict = table.get("verdict")
        if not isinstance(verdict, str) or verdict not in EXPECTED_VERDICTS:
            shown = verdict if isinstance(verdict, str) else repr(verdict)
            self.fail_in_block(
                header, index,
                f"[[{header}]] for '{prop}': unknown verdict '{shown}'{did_you_mean(str(shown), EXPECTED_VERDICTS)};"
                f" one of: {', '.join(EXPECTED_VERDICTS)}",
                "verdict" if "verdict" in table else None,
            )
        reason = table.get("reason", "")
        if not isinstance(reason, str) or (verdict != "holds" and not reason.strip()):
            self.fail_in_block(
                header, index,
                f'[[{header}]] for \'{prop}\': expecting "{verdict}" needs `reason = "..."` saying why', "reason" if "reason" in table else None,
            )
        return Expectation(prop, verdict, reason.strip())

    def enum(self, enum_type, value, what: str):
        choices = [e.value for e in enum_type]
        if not isinstance(value, str) or value not in choices:
            shown = value if isinstance(value, str) else repr(value)
            self.fail(f"unknown {what} '{shown}'{did_you_mean(str(shown), choices)}; one of: {', '.join(choices)}", str(shown))
        return enum_type(value)

    def boolean(self, table: dict, key: str, where: str) -> bool:
        value = table.get(key)
        if not isinstance(value, bool):
            self.fail(f"{where} needs `{key} = true` or `false`", key)
        return value

    def zone(self, table: dict) -> ZoneDecl:
        zone = self.enum(Zone, table.get("name"), "zone")
        where = f"zone {zone.value}"
        called = table.get("called", "")
        if not isinstance(called, str) or not re.fullmatch(r"([a-z][a-z -]*)?", called):
            self.fail(f"{where}: `called` is the game's own name for the zone, in lower-case letters", "called")
        decl = ZoneDecl(
            zone, self.boolean(table, "personal", where), self.boolean(table, "hidden", where), self.boolean(table, "ordered", where), called,
        )
        if zone in (Zone.OUTSIDE, Zone.NOWHERE):
            self.fail(f"'{zone.value}' is not a zone (400.11); leave it out of [[zone]]", zone.value)
        if decl.personal != (zone in PERSONAL_ZONES) or decl.ordered != (zone in ORDERED_ZONES):
            self.fail(
                f"zone {zone.value} is modelled as {'personal' if zone in PERSONAL_ZONES else 'shared'} and"
                f" {'ordered' if zone in ORDERED_ZONES else 'unordered'}; the declaration says otherwise",
                zone.value,
            )
        return decl

    def rule(self, table: dict) -> Rule:
        rule_id = table.get("id")
        if not isinstance(rule_id, str) or not RULE_ID.match(rule_id):
            self.fail(f"a rule needs `id = \"NNN.N\"` (a rule number like 400.3), got {rule_id!r}", str(rule_id) if rule_id else "[[rule]]")
        behaviour = self.enum(Behaviour, table.get("behaviour"), f"behaviour of rule {rule_id}")
        where = f"rule {rule_id}"
        zones: tuple[Zone, ...] = ()
        if "zones" in table:
            raw = table["zones"]
            if behaviour not in BEHAVIOUR_ZONES or not isinstance(raw, list) or not raw:
                self.fail(f"{where}: `zones` is a non-empty list, and only for {', '.join(b.value for b in BEHAVIOUR_ZONES)}", "zones")
            zones = tuple(self.enum(Zone, z, f"zone in rule {rule_id}") for z in raw)
            allowed = BEHAVIOUR_ZONES[behaviour]
            for z in zones:
                if z not in allowed:
                    self.fail(f"{where}: {behaviour.value} governs only {', '.join(a.value for a in allowed)}, not {z.value}", z.value)
        elif behaviour in ZONES_REQUIRED:
            self.fail(f"{where}: {behaviour.value} needs `zones = [...]`, the zones it closes", rule_id)
        elif behaviour in BEHAVIOUR_ZONES:
            zones = BEHAVIOUR_ZONES[behaviour]
        restates = table.get("restates")
        if restates is not None and not isinstance(restates, str):
            self.fail(f"{where}: `restates` names one rule number", "restates")
        return Rule(rule_id, behaviour, self.string(table, "summary", where), self.string(table, "without", where), zones, restates)

    def action(self, table: dict) -> ActionDecl:
        kind = self.enum(ActionKind, table.get("name"), "action")
        cites = table.get("cites")
        if not isinstance(cites, list) or not cites or not all(isinstance(c, str) for c in cites):
            self.fail(f"action {kind.value} needs `cites = [\"...\"]` (rule numbers)", kind.value)
        return ActionDecl(kind, tuple(cites), self.string(table, "summary", f"action {kind.value}"))

    def check_unique(self, ids: list[str], what: str):
        seen = set()
        for i in ids:
            if i in seen:
                self.fail(f"{what} '{i}' is defined twice", i)
            seen.add(i)

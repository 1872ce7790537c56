"""Rule set files: parse a TOML file into a RuleSet (with the bases it extends), and switch rules off by number."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum
from functools import cached_property
from importlib import resources
from pathlib import Path

from .errors import InputError, Location, did_you_mean
from .extends import CHANGES, Change, MergedFile
from .tomlfile import TomlFile
from .model import GAME_ZONES, ORDERED_ZONES, PERSONAL_ZONES, PREGAME_ACTIONS, REPLACEMENT_ACTIONS, ActionKind, Behaviour, Scope, Zone

# A rule number (400.3, 400.7a), optionally with a named part (103.4.look): one rule of the
# Comprehensive Rules that holds several behaviours is split into parts, each removable on its own.
RULE_NUMBER = r"\d{3}\.\d+[a-z]?(?:\.[a-z][a-z-]*[a-z])?"
RULE_ID = re.compile(rf"^{RULE_NUMBER}$")
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
COMMANDER_BEHAVIOURS = (Behaviour.COMMANDER_CAST, Behaviour.COMMANDER_TAX, Behaviour.COMMANDER_RETURN_SBA, Behaviour.COMMANDER_REPLACE)


@dataclass(frozen=True)
class Rule:
    id: str
    behaviour: Behaviour
    summary: str
    without: str
    zones: tuple[Zone, ...] = ()  # for owner-redirect, order-fixed and zone-closed: the zones it governs
    restates: str | None = None  # a rule whose text another rule already carries in the model
    line: int | None = field(default=None, compare=False)  # of its [[rule]] header in the file
    defined_in: str = field(default="", compare=False)  # the name of the rule set whose file writes it


@dataclass(frozen=True)
class ActionDecl:
    kind: ActionKind
    cites: tuple[str, ...]
    summary: str
    line: int | None = field(default=None, compare=False)  # of its [[action]] header in the file
    defined_in: str = field(default="", compare=False)  # the name of the rule set whose file writes it


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
    location: Location | None = field(default=None, compare=False)  # where the file declares it


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
class Link:
    """A file of a rule set's chain: the rule set's own, or one it extends."""

    name: str
    origin: str  # "builtin", or the file's absolute path


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    source: str
    origin: str  # "builtin" or the file's path
    sha256: str  # of the rule set's content, bases included (content_sha256)
    zones: tuple[ZoneDecl, ...]
    rules: tuple[Rule, ...]  # every rule of the file, in file order
    actions: tuple[ActionDecl, ...]
    removed: tuple[str, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    known_dead: tuple[KnownDead, ...] = ()
    variant: str = ""  # "commander" for the Commander variant (section 903), "" for the base game
    chain: tuple[Link, ...] = field(default=(), compare=False)  # its own file, then the one it extends, ...
    changes: tuple[Change, ...] = field(default=(), compare=False)  # what its file changes in the one it extends

    @property
    def base(self) -> Link | None:
        """The rule set the file extends, or None."""
        return self.chain[1] if len(self.chain) > 1 else None

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

    def declares(self, zone: Zone) -> bool:
        """Whether the file has a [[zone]] for `zone`: nothing may enter a zone it leaves out."""
        return any(z.zone is zone for z in self.zones)

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

    def in_file(self, behaviour: Behaviour) -> bool:
        """Whether some rule of the file (in force or removed) provides the behaviour."""
        return any(r.behaviour is behaviour for r in self.rules)

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
        """Whether states carry per-player records: for the pregame, a deck search (204.3), or the
        replacement effects on a player's graveyard (614.1a)."""
        return self.has_pregame or self.allows(ActionKind.SEARCH_LIBRARY) or self.has_replacements

    @cached_property
    def has_replacements(self) -> bool:
        """Whether the rule set declares the actions that begin and end replacement effects."""
        return any(self.allows(k) for k in REPLACEMENT_ACTIONS)

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


def builtin_runs_file(name: str):
    """The runs a built-in rule set comes with (`store`), found or not."""
    return _builtin_dir() / "runs" / f"{name}.json"


def _builtin_dir():
    try:
        return resources.files("zoneproof.builtin_model")
    except ModuleNotFoundError:  # running from a source tree that was not installed
        return Path(__file__).resolve().parent.parent / "model"


def load_ruleset(name_or_path: str) -> RuleSet:
    """A built-in rule set by name (`mtg-current`) or a rule set file by path."""
    if name_or_path in builtin_names():
        return _builtin(name_or_path)[0]
    path = Path(name_or_path)
    if name_or_path.endswith(".toml") or _exists(path):
        return _resolve(_read(path, name_or_path), str(path), str(path), ())[0]
    raise InputError(
        f"unknown rule set '{name_or_path}'{did_you_mean(name_or_path, builtin_names())};"
        " give a built-in name (`zoneproof list`) or the path of a .toml file"
    )


def _read(path: Path, as_given: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read rule set file: {e.strerror}", Location(str(path))) from None
    except ValueError:  # a NUL byte or an unencodable character in the path
        raise InputError("not a usable file name for a rule set", Location(repr(as_given))) from None


@functools.cache
def _builtin(name: str) -> tuple[RuleSet, TomlFile]:
    """A built-in rule set and its document, read once: its files do not change while zoneproof
    runs. (A built-in extends only built-ins, so no chain through a user's file reaches it twice.)"""
    return _resolve(builtin_file(name).read_bytes(), f"model/{name}.toml", "builtin", ())


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


TOP_KEYS = ("extends", "name", "title", "source", "variant", "zone", "rule", "action", "expect", "dead", "unguarded", "gap")
ZONE_KEYS = ("name", "personal", "hidden", "ordered", "called")
RULE_KEYS = ("id", "behaviour", "summary", "without", "zones", "restates")
ACTION_KEYS = ("name", "cites", "summary")
KNOWN_KEYS = ("action", "rule", "reason")


def parse_ruleset(data: bytes, path: str, origin: str) -> RuleSet:
    """The rule set of a file, with the bases it extends; every error of the file is reported at
    once (InputErrors)."""
    return _resolve(data, path, origin, ())[0]


def _resolve(data: bytes, path: str, origin: str, seen: tuple[str, ...]) -> tuple[RuleSet, TomlFile]:
    """The rule set of a file and its document (merged with its bases'). `seen` holds the files
    that extend this one, down the chain, to find a cycle."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"the file is not UTF-8 text (byte {e.start})", Location(path)) from None
    file = TomlFile(text, path)
    me = _identity(path, origin)
    chain: tuple[Link, ...] = ()
    if "extends" in file.doc:
        base, base_file = _base(file, origin, (*seen, me))
        _check_own_name(file, base)
        file, chain = MergedFile(file, base_file, base.name, base.name if base.origin == "builtin" else base.origin), base.chain
    reader = _Reader(file)
    ruleset = reader.ruleset(origin)
    file.finish()
    if isinstance(file, MergedFile):
        ruleset = replace(
            ruleset, changes=tuple(file.changes),
            rules=tuple(replace(r, defined_in=file.defined_in("rule", i)) for i, r in enumerate(ruleset.rules)),
            actions=tuple(replace(a, defined_in=file.defined_in("action", i)) for i, a in enumerate(ruleset.actions)),
        )
    else:
        ruleset = replace(
            ruleset, rules=tuple(replace(r, defined_in=ruleset.name) for r in ruleset.rules),
            actions=tuple(replace(a, defined_in=ruleset.name) for a in ruleset.actions),
        )
    return replace(ruleset, chain=(Link(ruleset.name, "builtin" if origin == "builtin" else me), *chain)), file


def _identity(path: str, origin: str) -> str:
    """What names the file in a chain: a built-in's name, or the absolute path of a file."""
    if origin == "builtin":
        return Path(path).stem
    try:
        return str(Path(origin).resolve())
    except (OSError, ValueError):
        return origin


def _base(file: TomlFile, origin: str, seen: tuple[str, ...]) -> tuple[RuleSet, TomlFile]:
    """The rule set a file extends (`extends`: a built-in's name, or a path from the file's folder)."""
    value = file.doc["extends"]
    where = file.location("extends")
    if not isinstance(value, str) or not value.strip():
        raise InputError('`extends` names the rule set this one changes: a built-in name ("mtg-current") or a .toml path from this file\'s folder', where)
    if value in builtin_names():
        key = value
        load = lambda: _builtin(value)  # noqa: E731
    else:
        folder = Path(os.path.dirname(origin)) if origin != "builtin" else None
        path = folder / value if folder is not None else None
        if path is None or not _exists(path):
            elsewhere = f"no file {path}" if path is not None else "a built-in rule set extends only built-in ones"
            raise InputError(
                f"`extends` names unknown rule set '{value}'{did_you_mean(value, builtin_names())}: not a built-in name, and {elsewhere};"
                " give a built-in name (`zoneproof list`) or the path of a .toml file from this file's folder", where,
            )
        key = _identity(str(path), str(path))
        load = lambda: _resolve(_read(path, value), os.path.normpath(path), os.path.normpath(path), seen)  # noqa: E731
    if key in seen:
        cycle = " → ".join(Path(s).name for s in (*seen[seen.index(key):], key))
        raise InputError(f"`extends` makes a cycle ({cycle}); a rule set cannot extend itself, through others or directly", where)
    return load()


def _check_own_name(file: TomlFile, base: RuleSet) -> None:
    """A file that extends another names itself and says what it is: it is another rule set."""
    for key in ("name", "title"):
        if key not in file.doc:
            file.attempt(lambda: file.fail(f"a rule set that extends {base.name} needs its own `{key} = \"...\"`", "extends"))
    name = file.doc.get("name")
    if name in [link.name for link in base.chain]:
        file.attempt(lambda: file.fail(f"rule set name '{name}' is taken by the rule set it extends; give it a name of its own", "name"))


def content_sha256(ruleset: RuleSet) -> str:
    """The hash of what a rule set says: its zones, rules, actions, expectations and declarations,
    resolved through the files it extends. Comments, layout, line numbers and the files' paths do
    not count, so the same rule set written another way has the same hash."""
    def plain(value):
        if is_dataclass(value):
            return {f.name: plain(getattr(value, f.name)) for f in fields(value) if f.compare}
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    content = {k: v for k, v in plain(ruleset).items() if k not in ("origin", "sha256", "removed")}
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def read_expectation(table: dict, index: int, text: str, path: str, header: str) -> Expectation:
    """The index-th [[header]] table of a TOML file (`expect`, `tool.zoneproof.expect`) as an
    expectation; its errors are located in that table."""
    file = TomlFile(text, path)
    file.context = (header, index)
    expectation = file.attempt(lambda: _Reader(file).expectation(table, index, header))
    file.finish()
    return expectation


class _Reader:
    """Reads the parsed TOML document. Each error is recorded at the table and key that hold the
    offending value, and reading goes on with the next table (TomlFile)."""

    def __init__(self, file: TomlFile):
        self.file = file
        self.fail = file.fail

    def ruleset(self, origin: str) -> RuleSet:
        f, doc = self.file, self.file.doc
        for key in doc:
            if key in CHANGES:
                f.attempt(lambda: self.fail(f"`{key}` changes the rule set a file extends; name it with `extends = \"mtg-current\"` (a built-in name or a .toml path)", None, key))
            elif key not in TOP_KEYS:
                f.attempt(lambda: self.fail(f"unknown key '{key}' at the top level{did_you_mean(key, TOP_KEYS)}; the model reads only {', '.join(TOP_KEYS)}", key))
        name = f.attempt(lambda: self.string(doc, "name", "the top level"), "")
        if name and not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            f.attempt(lambda: self.fail(f"rule set name '{name}' must be lower-case letters, digits and hyphens", "name"))
        title = f.attempt(lambda: self.string(doc, "title", "the top level"), "")
        source = f.attempt(lambda: self.string(doc, "source", "the top level"), "")
        zones = tuple(f.each("zone", f.attempt(lambda: self.table_list(doc, "zone"), []), self.zone))
        rules = tuple(f.each("rule", f.attempt(lambda: self.table_list(doc, "rule"), []), self.rule))
        actions = tuple(f.each("action", f.attempt(lambda: self.table_list(doc, "action"), []), self.action))
        expectations = tuple(f.each("expect", f.attempt(lambda: self.optional_table_list(doc, "expect"), []), self.expectation))
        for i, e in enumerate(expectations):
            if any(x.property == e.property for x in expectations[:i]):
                f.attempt(lambda: self.fail(f"an expectation for property '{e.property}' is already given; keep one", "property", "expect", i))
        # Names as written, so that a zone, rule or action with an error of its own raises no second error where it is named.
        zone_names = [t.get("name") for t in doc.get("zone", []) if isinstance(t, dict)] if isinstance(doc.get("zone"), list) else []
        rule_ids = [t.get("id") for t in doc.get("rule", []) if isinstance(t, dict)] if isinstance(doc.get("rule"), list) else []
        action_names = [t.get("name") for t in doc.get("action", []) if isinstance(t, dict)] if isinstance(doc.get("action"), list) else []
        known_dead = tuple(f.each("dead", f.attempt(lambda: self.optional_table_list(doc, "dead"), []), lambda d, i: self.known_dead(d, rule_ids, action_names, "dead")))
        known_dead += tuple(f.each("unguarded", f.attempt(lambda: self.optional_table_list(doc, "unguarded"), []), lambda d, i: self.known_dead(d, rule_ids, (), "unguarded")))
        known_dead += tuple(f.each("gap", f.attempt(lambda: self.optional_table_list(doc, "gap"), []), lambda d, i: self.known_dead(d, (), action_names, "gap")))
        variant = doc.get("variant", "")
        if variant != "" and variant not in VARIANTS:
            f.attempt(lambda: self.fail(f"unknown variant {variant!r}{did_you_mean(str(variant), VARIANTS)}; one of: {', '.join(VARIANTS)} (or leave it out)", "variant"))
        rule_tables = doc.get("rule") if isinstance(doc.get("rule"), list) else []
        index_of = {t.get("id"): i for i, t in enumerate(rule_tables) if isinstance(t, dict) and isinstance(t.get("id"), str)}
        for r in rules if variant in ("", *VARIANTS) else ():  # an unknown variant is error enough
            if r.behaviour in COMMANDER_BEHAVIOURS and variant != "commander":
                f.attempt(lambda: self.fail(f"rule {r.id}: {r.behaviour.value} needs `variant = \"commander\"` at the top level (commanders exist only in that variant)", "behaviour", "rule", index_of.get(r.id)))
        self.check_unique([r.id for r in rules], "rule", "id")
        self.check_unique([a.kind.value for a in actions], "action", "name")
        self.check_unique([z.zone.value for z in zones], "zone", "name")
        for r in rules:
            named = rule_tables[index_of[r.id]].get("zones", []) if r.id in index_of else []
            undeclared = [z.value for z in r.zones if z.value in named and z.value not in zone_names]
            if zone_names and undeclared:
                f.attempt(lambda: self.fail(f"rule {r.id} names zone {undeclared[0]}, which the file does not declare; add a [[zone]] for it or leave it out of `zones`", "zones", "rule", index_of[r.id]))
            if r.restates is not None and r.restates not in rule_ids:
                f.attempt(lambda: self.fail(f"rule {r.id} restates '{r.restates}', which the file does not define", "restates", "rule", index_of.get(r.id)))
        for i, a in enumerate(actions):
            for cite in a.cites:
                if not RULE_ID.match(cite):
                    f.attempt(lambda: self.fail(f"action {a.kind.value} cites '{cite}', which is not a rule number like 400.3", "cites", "action", i))
        ruleset = RuleSet(
            name=name, title=title, source=source, origin=origin, sha256="", zones=zones, rules=rules,
            actions=actions, expectations=expectations, known_dead=known_dead, variant=variant if isinstance(variant, str) else "",
        )
        return replace(ruleset, sha256=content_sha256(ruleset))

    def known_keys(self, table: dict, allowed: tuple[str, ...], where: str):
        for key in table:
            if key not in allowed:
                self.fail(f"{where}: unknown key '{key}'{did_you_mean(key, allowed)}; the model reads only {', '.join(allowed)}", key)

    def string(self, table: dict, key: str, where: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{where} needs `{key} = \"...\"` (a non-empty string)", key if key in table else None)
        return value

    def table_list(self, doc: dict, key: str) -> list[dict]:
        value = doc.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            self.fail(f"the rule set needs one or more [[{key}]] tables", key)
        return value

    def optional_table_list(self, doc: dict, key: str) -> list[dict]:
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(f"`{key}` must be [[{key}]] tables", key)
        return value

    def known_dead(self, table: dict, rule_ids, action_names, table_name: str) -> KnownDead:
        keys = [k for k in table if k in ("action", "rule")]
        unknown = [k for k in table if k not in KNOWN_KEYS]
        if unknown or len(keys) != 1:
            self.fail(f'[[{table_name}]] takes `action = "..."` or `rule = "..."`, and `reason = "..."`', unknown[0] if unknown else None)
        what = keys[0]
        if table_name == "unguarded" and what != "rule":
            self.fail("[[unguarded]] names a rule", what)
        if table_name == "gap" and what != "action":
            self.fail("[[gap]] names an action", what)
        name = table[what]
        known = [n for n in (action_names if what == "action" else rule_ids) if isinstance(n, str)]
        if not isinstance(name, str) or name not in known:
            self.fail(f"[[{table_name}]] names {what} {name!r}, which the file does not define{did_you_mean(str(name), known)}", what)
        reason = table.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            self.fail(f'[[{table_name}]] for {what} {name} needs `reason = "..."` saying why', "reason" if "reason" in table else None)
        return KnownDead(what, name, reason.strip(), table_name)

    def expectation(self, table: dict, index: int, header: str = "expect") -> Expectation:
        """An [[expect]] table (or the [[header]] given, in a project config)."""
        self.known_keys(table, EXPECT_KEYS, f"[[{header}]]")
        prop = table.get("property")
        if not isinstance(prop, str) or not prop.strip():
            self.fail(f'[[{header}]] needs `property = "..."` (a property id)', "property" if "property" in table else None)
        verdict = table.get("verdict")
        if not isinstance(verdict, str) or verdict not in EXPECTED_VERDICTS:
            shown = verdict if isinstance(verdict, str) else repr(verdict)
            self.fail(
                f"[[{header}]] for '{prop}': unknown verdict '{shown}'{did_you_mean(str(shown), EXPECTED_VERDICTS)};"
                f" one of: {', '.join(EXPECTED_VERDICTS)}",
                "verdict" if "verdict" in table else None,
            )
        reason = table.get("reason", "")
        if not isinstance(reason, str) or (verdict != "holds" and not reason.strip()):
            self.fail(f'[[{header}]] for \'{prop}\': expecting "{verdict}" needs `reason = "..."` saying why', "reason" if "reason" in table else None)
        return Expectation(prop, verdict, reason.strip(), self.file.location("property", header, index))

    def enum(self, enum_type, value, what: str, key: str):
        choices = [e.value for e in enum_type]
        if not isinstance(value, str) or value not in choices:
            shown = value if isinstance(value, str) else repr(value)
            self.fail(f"unknown {what} '{shown}'{did_you_mean(str(shown), choices)}; one of: {', '.join(choices)}", key)
        return enum_type(value)

    def boolean(self, table: dict, key: str, where: str) -> bool:
        value = table.get(key)
        if not isinstance(value, bool):
            self.fail(f"{where} needs `{key} = true` or `false`", key if key in table else None)
        return value

    def zone(self, table: dict, index: int) -> ZoneDecl:
        self.known_keys(table, ZONE_KEYS, "a [[zone]]")
        zone = self.enum(Zone, table.get("name"), "zone", "name")
        where = f"zone {zone.value}"
        called = table.get("called", "")
        if not isinstance(called, str) or not re.fullmatch(r"([a-z][a-z -]*)?", called):
            self.fail(f"{where}: `called` is the game's own name for the zone, in lower-case letters", "called")
        decl = ZoneDecl(
            zone, self.boolean(table, "personal", where), self.boolean(table, "hidden", where), self.boolean(table, "ordered", where), called,
        )
        if zone in (Zone.OUTSIDE, Zone.NOWHERE):
            self.fail(f"'{zone.value}' is not a zone (400.11); leave it out of [[zone]]", "name")
        if decl.personal != (zone in PERSONAL_ZONES) or decl.ordered != (zone in ORDERED_ZONES):
            self.fail(
                f"zone {zone.value} is modelled as {'personal' if zone in PERSONAL_ZONES else 'shared'} and"
                f" {'ordered' if zone in ORDERED_ZONES else 'unordered'}; the declaration says otherwise",
                "personal" if decl.personal != (zone in PERSONAL_ZONES) else "ordered",
            )
        return decl

    def rule(self, table: dict, index: int) -> Rule:
        rule_id = table.get("id")
        if not isinstance(rule_id, str) or not RULE_ID.match(rule_id):
            self.fail(f"a rule needs `id = \"NNN.N\"` (a rule number like 400.3), got {rule_id!r}", "id" if "id" in table else None)
        self.known_keys(table, RULE_KEYS, f"rule {rule_id}")
        behaviour = self.enum(Behaviour, table.get("behaviour"), f"behaviour of rule {rule_id}", "behaviour")
        where = f"rule {rule_id}"
        zones: tuple[Zone, ...] = ()
        if "zones" in table:
            raw = table["zones"]
            if behaviour not in BEHAVIOUR_ZONES or not isinstance(raw, list) or not raw:
                self.fail(f"{where}: `zones` is a non-empty list, and only for {', '.join(b.value for b in BEHAVIOUR_ZONES)}", "zones")
            zones = tuple(self.enum(Zone, z, f"zone in rule {rule_id}", "zones") for z in raw)
            allowed = BEHAVIOUR_ZONES[behaviour]
            for z in zones:
                if z not in allowed:
                    self.fail(f"{where}: {behaviour.value} governs only {', '.join(a.value for a in allowed)}, not {z.value}", "zones")
        elif behaviour in ZONES_REQUIRED:
            self.fail(f"{where}: {behaviour.value} needs `zones = [...]`, the zones it closes", "behaviour")
        elif behaviour in BEHAVIOUR_ZONES:
            zones = BEHAVIOUR_ZONES[behaviour]
        restates = table.get("restates")
        if restates is not None and not isinstance(restates, str):
            self.fail(f"{where}: `restates` names one rule number", "restates")
        return Rule(rule_id, behaviour, self.string(table, "summary", where), self.string(table, "without", where), zones, restates,
                    self.file.line(None, "rule", index))

    def action(self, table: dict, index: int) -> ActionDecl:
        kind = self.enum(ActionKind, table.get("name"), "action", "name")
        self.known_keys(table, ACTION_KEYS, f"action {kind.value}")
        cites = table.get("cites")
        if not isinstance(cites, list) or not cites or not all(isinstance(c, str) for c in cites):
            self.fail(f"action {kind.value} needs `cites = [\"...\"]` (rule numbers)", "cites" if "cites" in table else None)
        return ActionDecl(kind, tuple(cites), self.string(table, "summary", f"action {kind.value}"), self.file.line(None, "action", index))

    def check_unique(self, ids: list[str], what: str, key: str):
        tables = self.file.doc.get(what) if isinstance(self.file.doc.get(what), list) else []
        seen = set()
        for i in ids:
            if i in seen:
                index = [n for n, t in enumerate(tables) if isinstance(t, dict) and t.get(key) == i][-1:]
                self.file.attempt(lambda: self.fail(f"{what} '{i}' is defined twice", key, what, index[0] if index else None))
            seen.add(i)

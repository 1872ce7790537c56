"""The project config of a rules repository: `zoneproof.toml`, or `[tool.zoneproof]` in
`pyproject.toml`, in the current folder or the nearest folder above it that has one.

It names the rule sets, the property files, the scenario folders, the scope and the expectations
the project checks, so that `zoneproof check`, `lint` and `run` with no arguments, and the pytest
plugin, check what the project means. Paths are relative to the config file's folder. Flags given
on the command line override it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import InputError, Location, did_you_mean
from .ruleset import Expectation, RuleSet, load_ruleset, read_expectation
from .tomlfile import parse_toml

CONFIG_FILE = "zoneproof.toml"
PYPROJECT = "pyproject.toml"
# Each key of the config, with the type of its value and the command-line parameter it sets.
SETTINGS = {
    "rulesets": (list, "rulesets"),
    "properties": (list, "properties"),
    "property": (list, "property_ids"),
    "scenarios": (list, "scenarios"),
    "seed": (int, "seed"),
    "timeout": ((int, float), "timeout"),
    "out": (str, "out_dir"),
    "runs": (str, "runs_dir"),
    "lint": (bool, "no_lint"),
    "jobs": (int, "jobs"),
}
SCOPE_KEYS = {"players": int, "cards": int, "sideboard": int, "tokens": int, "depth": int, "hand": int, "team_size": int,
              "hand_modifier": list}
TABLES = ("scope", "expect")


@dataclass(frozen=True)
class ProjectExpectation:
    ruleset: str  # the rule set's name
    expectation: Expectation


@dataclass(frozen=True)
class Project:
    path: Path  # the config file
    table: str  # where the settings are: "" at the top of zoneproof.toml, "tool.zoneproof" in pyproject.toml
    settings: dict  # command-line parameter name -> value, paths resolved
    expectations: tuple[ProjectExpectation, ...]

    @property
    def root(self) -> Path:
        return self.path.parent

    def scenario_files(self) -> list[Path]:
        """Every `.toml` file in the scenario folders (recursively, in name order), and the files named."""
        found = []
        for entry in self.settings.get("scenarios", ()):
            path = Path(entry)
            found += sorted(path.rglob("*.toml")) if path.is_dir() else [path]
        return found

    def with_expectations(self, ruleset: RuleSet) -> RuleSet:
        """The rule set with the project's expectations for it in place of its file's for the same property."""
        mine = [e.expectation for e in self.expectations if e.ruleset == ruleset.name]
        if not mine:
            return ruleset
        kept = tuple(e for e in ruleset.expectations if e.property not in {m.property for m in mine})
        return replace(ruleset, expectations=kept + tuple(mine))

    def rulesets(self) -> list[RuleSet]:
        return [self.with_expectations(load_ruleset(name)) for name in self.settings.get("rulesets", ())]

    def location(self, key: str) -> Location:
        """Where the config sets `key` (for an error about its value)."""
        return _ConfigReader(self.path.read_text(encoding="utf-8"), str(self.path), self.table).location(key)


def find_project(start: Path | None = None) -> Project | None:
    """The config of the nearest folder, from `start` (default: the current folder) up, that has one."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / CONFIG_FILE).is_file():
            return load_project(candidate / CONFIG_FILE)
        pyproject = candidate / PYPROJECT
        if pyproject.is_file():
            project = load_project(pyproject)
            if project is not None:
                return project
    return None


def load_project(path: Path) -> Project | None:
    """The project config in this file; None for a pyproject.toml without [tool.zoneproof]."""
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read the project config: {getattr(e, 'strerror', None) or e}", Location(str(path))) from None
    doc = parse_toml(text, str(path))
    if path.name == PYPROJECT:
        doc = doc.get("tool", {}).get("zoneproof")
        if doc is None:
            return None
        table = "tool.zoneproof"
    else:
        table = ""
    reader = _ConfigReader(text, str(path), table)
    if not isinstance(doc, dict):
        reader.fail("[tool.zoneproof] must be a table", "zoneproof")
    settings = {}
    for key, value in doc.items():
        if key in TABLES:
            continue
        if key not in SETTINGS:
            reader.fail(f"unknown setting '{key}'{did_you_mean(key, [*SETTINGS, *TABLES])}; the settings are {', '.join([*SETTINGS, *TABLES])}", key)
        kind, parameter = SETTINGS[key]
        reader.expect_type(key, value, kind)
        settings[parameter] = value
    scope = doc.get("scope", {})
    if not isinstance(scope, dict):
        reader.fail("`scope` is a table: [scope] (or [tool.zoneproof.scope]) with players, cards, depth, ...", "scope")
    for key, value in scope.items():
        if key not in SCOPE_KEYS:
            reader.fail(f"unknown scope setting '{key}'{did_you_mean(key, SCOPE_KEYS)}; one of: {', '.join(SCOPE_KEYS)}", key)
        reader.expect_type(key, value, SCOPE_KEYS[key])
        settings[key] = tuple(value) if isinstance(value, list) else value
    root = path.parent
    for parameter in ("rulesets", "properties", "scenarios"):
        if parameter in settings:
            reader.expect_strings(parameter, settings[parameter])
            settings[parameter] = tuple(_resolve(root, entry, parameter == "rulesets") for entry in settings[parameter])
    if "property_ids" in settings:
        reader.expect_strings("property", settings["property_ids"])
        settings["property_ids"] = tuple(settings["property_ids"])
    for parameter in ("out_dir", "runs_dir"):
        if parameter in settings:
            settings[parameter] = Path(_resolve(root, settings[parameter], False))
    if "properties" in settings:
        settings["properties"] = tuple(Path(p) for p in settings["properties"])
    if "no_lint" in settings:
        settings["no_lint"] = not settings["no_lint"]
    return Project(path, table, settings, reader.expectations(doc.get("expect", [])))


def _resolve(root: Path, entry: str, may_be_a_name: bool) -> str:
    """A path of the config, relative to its folder, as seen from the current folder; a built-in
    rule set's name stays a name."""
    if may_be_a_name and not entry.endswith(".toml") and "/" not in entry:
        return entry
    path = Path(entry) if Path(entry).is_absolute() else root / entry
    relative = os.path.relpath(path, Path.cwd())
    return relative if not relative.startswith("..") else str(path)


class _ConfigReader:
    def __init__(self, text: str, path: str, table: str):
        self.text = text
        self.lines = text.splitlines()
        self.path = path
        self.table = table

    def location(self, needle: str | None) -> Location:
        line = next((n for n, content in enumerate(self.lines, start=1) if needle and content.strip().startswith(needle)), None)
        return Location(self.path, line)

    def fail(self, message: str, needle: str | None = None):
        raise InputError(message, self.location(needle))

    def expect_type(self, key: str, value, kind) -> None:
        names = {list: "a list", int: "a whole number", bool: "true or false", str: "a string", (int, float): "a number"}
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            self.fail(f"`{key}` must be {names[kind]}", key)

    def expect_strings(self, key: str, values) -> None:
        if not all(isinstance(v, str) and v for v in values):
            self.fail(f"`{key}` must be a list of strings", key)

    def expectations(self, tables) -> tuple[ProjectExpectation, ...]:
        header = f"{self.table}.expect" if self.table else "expect"
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            self.fail(f"expectations are [[{header}]] tables", "expect")
        found: list[ProjectExpectation] = []
        for index, table in enumerate(tables):
            ruleset = table.get("ruleset")
            if not isinstance(ruleset, str) or not ruleset:
                self.fail(f'[[{header}]] needs `ruleset = "..."`: the name of the rule set it is about', f"[[{header}]]")
            rest = {k: v for k, v in table.items() if k != "ruleset"}
            e = ProjectExpectation(ruleset, read_expectation(rest, index, self.text, self.path, header))
            if any((x.ruleset, x.expectation.property) == (e.ruleset, e.expectation.property) for x in found):
                self.fail(f"[[{header}]]: an expectation for '{e.expectation.property}' under '{ruleset}' is already given; keep one", f"[[{header}]]")
            found.append(e)
        return tuple(found)

"""Rule set files that extend another (`extends = "mtg-current"`): the base's document with the
file's changes applied (its removals, replacements, moves, then additions in the order written),
read as one rule set file.

Each table of the merged document is located in the file that wrote it, so that an error in a
table the file wrote names that file and line. The base has been read as a rule set of its own
first, so an error found in a table the file inherits comes from what the file changed: it is
reported at the file's `extends` line, naming where the inherited table is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, did_you_mean
from .tomlfile import Skip, TomlFile

# The lists of tables a rule set file holds, with the keys that name an entry of each.
LISTS = {
    "zone": ("name",), "rule": ("id",), "action": ("name",), "expect": ("property",),
    "dead": ("rule", "action"), "unguarded": ("rule",), "gap": ("action",),
}
CHANGES = ("replace", "move", "remove")
PLACEMENT = ("before", "after")
# The declarations about a rule or an action, which go with it when a file removes it.
ABOUT = {"rule": ("dead", "unguarded"), "action": ("dead", "gap")}


@dataclass(frozen=True)
class Change:
    """What a file that extends another changed: `how` is added, replaced, moved or removed."""

    kind: str  # a key of LISTS
    key: str  # the rule number, the action's or zone's name, the property
    how: str


@dataclass(frozen=True)
class Written:
    """Where a table of a merged document was written: the index-th [[table]] of a file."""

    file: TomlFile
    table: str  # "rule", "replace.rule", ...
    index: int
    ruleset: str  # the name of the rule set of that file


def entry_key(kind: str, table) -> str | None:
    if not isinstance(table, dict):
        return None
    return next((table[k] for k in LISTS[kind] if isinstance(table.get(k), str)), None)


def written(file: TomlFile, ruleset: str) -> dict[str, list[Written]]:
    """Where each table of a file's document was written."""
    if isinstance(file, MergedFile):
        return file.sources
    return {kind: [Written(file, kind, i, ruleset) for i in range(len(file.doc[kind]))] for kind in LISTS if isinstance(file.doc.get(kind), list)}


class MergedFile(TomlFile):
    """A file that extends a base, merged with the base's document (`base`, a TomlFile or a
    MergedFile of its own): the tables of the result, with the file each comes from."""

    def __init__(self, leaf: TomlFile, base: TomlFile, base_name: str, base_label: str):
        self.path = leaf.path
        self.leaf = leaf
        self.base_name = base_name
        self.base_label = base_label  # what `zoneproof list` takes to show the base
        self.errors = leaf.errors
        self.context = None
        self.changes: list[Change] = []
        self.doc = {k: v for k, v in base.doc.items() if k not in LISTS}
        self.top = {k: base.top.get(k, base) if isinstance(base, MergedFile) else base for k in self.doc}
        for key, value in leaf.doc.items():
            if key not in LISTS and key not in CHANGES and key != "extends":
                self.doc[key], self.top[key] = value, leaf
        inherited = written(base, base_name)
        self.entries: dict[str, list[tuple[dict, Written]]] = {
            kind: list(zip(base.doc[kind], inherited[kind])) for kind in LISTS if kind in inherited
        }
        mine = leaf.doc.get("name") if isinstance(leaf.doc.get("name"), str) else ""
        for kind, names in self._change_tables("remove").items():
            self._remove(kind, names)
        for kind, tables in self._change_tables("replace").items():
            self._replace(kind, tables, mine)
        for kind, tables in self._change_tables("move").items():
            self._move(kind, tables)
        for kind in LISTS:
            tables = leaf.doc.get(kind, [])
            if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
                leaf.attempt(lambda: leaf.fail(f"`{kind}` must be [[{kind}]] tables", kind))
                continue
            for index, table in enumerate(tables):
                leaf.attempt(lambda: self._add(kind, table, index, mine))
        self.sources = {kind: [w for _, w in pairs] for kind, pairs in self.entries.items()}
        for kind, pairs in self.entries.items():
            self.doc[kind] = [t for t, _ in pairs]

    # ---------------------------------------------------------------- the changes

    def _change_tables(self, how: str) -> dict:
        leaf = self.leaf
        value = leaf.doc.get(how, {})
        shape = "[remove] with lists of names (rule = [\"400.3\"])" if how == "remove" else f"[[{how}.rule]], [[{how}.action]], ... tables"
        if not isinstance(value, dict):
            leaf.attempt(lambda: leaf.fail(f"`{how}` must be {shape}", how))
            return {}
        found = {}
        for kind, tables in value.items():
            if kind not in LISTS:
                leaf.attempt(lambda: leaf.fail(f"`{how}.{kind}`: unknown table '{kind}'{did_you_mean(kind, LISTS)}; one of: {', '.join(LISTS)}", kind, how))
            elif how == "remove" and not (isinstance(tables, list) and all(isinstance(t, str) for t in tables)):
                leaf.attempt(lambda: leaf.fail(f"`remove.{kind}` is a list of the names of what the file removes", kind, how))
            elif how != "remove" and not (isinstance(tables, list) and all(isinstance(t, dict) for t in tables)):
                leaf.attempt(lambda: leaf.fail(f"`{how}.{kind}` must be [[{how}.{kind}]] tables", f"{how}.{kind}"))
            else:
                found[kind] = tables
        return found

    def _position(self, kind: str, key: str | None) -> int | None:
        return next((i for i, (t, _) in enumerate(self.entries.get(kind, [])) if entry_key(kind, t) == key), None)

    def _missing(self, kind: str, key) -> str:
        known = [k for t, _ in self.entries.get(kind, []) if (k := entry_key(kind, t)) is not None]
        return f"{kind} {key!r}, which {self.base_name} does not have{did_you_mean(str(key), known)}; `zoneproof list {self.base_label}` shows what it has"

    def _remove(self, kind: str, keys: list[str]):
        leaf = self.leaf
        for key in keys:
            at = self._position(kind, key)
            if at is None:
                leaf.attempt(lambda: leaf.fail(f"[remove] names {self._missing(kind, key)}", kind, "remove"))
                continue
            del self.entries[kind][at]
            self.changes.append(Change(kind, key, "removed"))
            for about in ABOUT.get(kind, ()):
                pairs = self.entries.get(about, [])
                gone = [t for t, _ in pairs if t.get(kind) == key]
                self.entries[about] = [(t, w) for t, w in pairs if t.get(kind) != key]
                self.changes += [Change(about, key, "removed") for _ in gone]

    def _replace(self, kind: str, tables: list[dict], mine: str):
        leaf, header = self.leaf, f"replace.{kind}"
        for index, table in enumerate(tables):
            def replace_one():
                key = entry_key(kind, table)
                if key is None:
                    leaf.fail(f"[[{header}]] needs `{LISTS[kind][0]} = \"...\"`, naming the {kind} it replaces", None, header, index)
                placed = [k for k in PLACEMENT if k in table]
                if placed:
                    leaf.fail(f"[[{header}]] keeps {kind} {key} in its place; to move it, write a [[move.{kind}]]", placed[0], header, index)
                at = self._position(kind, key)
                if at is None:
                    leaf.fail(f"[[{header}]] names {self._missing(kind, key)}; to add it, write [[{kind}]]", LISTS[kind][0], header, index)
                self.entries[kind][at] = (table, Written(leaf, header, index, mine))
                self.changes.append(Change(kind, key, "replaced"))
            leaf.attempt(replace_one)

    def _move(self, kind: str, tables: list[dict]):
        leaf, header = self.leaf, f"move.{kind}"
        for index, table in enumerate(tables):
            def move_one():
                key = entry_key(kind, table)
                if key is None or set(table) - {*LISTS[kind], *PLACEMENT}:
                    leaf.fail(f"[[{header}]] takes `{LISTS[kind][0]} = \"...\"` and `before = \"...\"` or `after = \"...\"`", None, header, index)
                at = self._position(kind, key)
                if at is None:
                    leaf.fail(f"[[{header}]] names {self._missing(kind, key)}", LISTS[kind][0], header, index)
                entry = self.entries[kind].pop(at)
                if not self._place(kind, key, entry, table, header, index, required=True):
                    self.entries[kind].insert(at, entry)
                    return
                self.changes.append(Change(kind, key, "moved"))
            leaf.attempt(move_one)

    def _add(self, kind: str, table: dict, index: int, mine: str):
        leaf = self.leaf
        key = entry_key(kind, table)
        entry = ({k: v for k, v in table.items() if k not in PLACEMENT}, Written(leaf, kind, index, mine))
        self.entries.setdefault(kind, [])
        if key is not None and self._position(kind, key) is not None:
            leaf.fail(
                f"{kind} {key!r} is already in {self.base_name}; to change it, write [[replace.{kind}]] instead of [[{kind}]]"
                f" (or name it in [remove])", LISTS[kind][0] if LISTS[kind][0] in table else None, kind, index,
            )
        if self._place(kind, key, entry, table, kind, index, required=False) and key is not None:
            self.changes.append(Change(kind, key, "added"))

    def _place(self, kind: str, key, entry, table: dict, header: str, index: int, required: bool) -> bool:
        """Insert the entry before or after the one the table names (at the end when it names none)."""
        leaf = self.leaf
        placed = [k for k in PLACEMENT if k in table]
        if len(placed) > 1 or (required and not placed):
            leaf.fail(f"[[{header}]] for {kind} {key}: give one of `before = \"...\"` or `after = \"...\"`", placed[-1] if placed else None, header, index)
        if not placed:
            self.entries[kind].append(entry)
            return True
        target = table[placed[0]]
        at = self._position(kind, target) if isinstance(target, str) else None
        if at is None:
            known = [k for t, _ in self.entries[kind] if (k := entry_key(kind, t)) is not None]
            leaf.fail(f"[[{header}]] for {kind} {key}: `{placed[0]}` names {kind} {target!r}, which is not in the rule set{did_you_mean(str(target), known)}", placed[0], header, index)
        self.entries[kind].insert(at + (placed[0] == "after"), entry)
        return True

    # ---------------------------------------------------------------- locating

    def _source(self, key: str | None, table: str | None, index: int | None) -> tuple[TomlFile, str | None, int | None]:
        if table is None:
            return self.top.get(key, self.leaf) if key is not None else self.leaf, None, None
        pairs = self.entries.get(table)
        if pairs is None or index is None or index >= len(pairs):
            return self.leaf, None, None
        w = pairs[index][1]
        return w.file, w.table, w.index

    def line(self, key: str | None = None, table: str | None = None, index: int | None = None) -> int | None:
        file, table, index = self._source(key, table, index)
        return file.line(key, table, index)

    def location(self, key: str | None = None, table: str | None = None, index: int | None = None):
        file, table, index = self._source(key, table, index)
        return file.location(key, table, index)

    def defined_in(self, kind: str, index: int) -> str:
        """The name of the rule set whose file wrote the index-th entry of the kind."""
        return self.entries[kind][index][1].ruleset

    def fail(self, message: str, key: str | None = None, table: str | None = None, index: int | None = None):
        if table is None and self.context is not None:
            table, index = self.context
        file, own_table, own_index = self._source(key, table, index)
        where = file.location(key, own_table, own_index)
        if file is not self.leaf:
            message = f"{message} (inherited from {where}; replace or remove it in this file)"
            where = self.leaf.location("extends")
        self.errors.append(InputError(message, where))
        raise Skip

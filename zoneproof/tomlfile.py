"""TOML files (rule sets, scenarios): parsing, locating errors by table and key, and collecting
every error of a file before reporting them, as a compiler does.

tomllib gives values but not their positions, so an error about a value is located by where the
value sits in the document: the line of `key` inside the index-th `[[table]]`, or of a top-level
key. Lines inside multi-line strings are never taken for headers or keys. When the headers found
do not match the document (a table written inline), the error names the file without a line
rather than a wrong line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from typing import TypeVar

from .errors import InputError, InputErrors, Location

T = TypeVar("T")
NAME = r"[A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*"  # a table's name, dotted for a table inside another (tool.zoneproof)
HEADER = re.compile(rf"\[\[\s*({NAME})\s*\]\]|\[\s*({NAME})\s*\]")
MULTILINE_QUOTES = ('"""', "'''")


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


class Skip(Exception):
    """Raised by TomlFile.fail after recording the error: the rest of that table is not read."""


class TomlFile:
    """A parsed TOML file whose readers record errors (`fail`) and go on with the next table."""

    def __init__(self, text: str, path: str):
        self.path = path
        self.doc = parse_toml(text, path)
        self.lines = text.splitlines()
        self.errors: list[InputError] = []
        self.context: tuple[str, int] | None = None  # the [[table]] and index being read
        self._strings: set[int] = set()  # lines inside multi-line strings
        self.headers: list[tuple[int, str]] = []  # (line, name) of each [table] and [[table]] header
        inside = None
        for number, line in enumerate(self.lines, start=1):
            if inside is not None:
                self._strings.add(number)
            elif (m := HEADER.match(line.strip())) is not None:
                self.headers.append((number, re.sub(r"\s+", "", m.group(1) or m.group(2))))
            for quote in MULTILINE_QUOTES:
                if line.count(quote) % 2 and inside in (None, quote):
                    inside = None if inside == quote else quote

    def line(self, key: str | None = None, table: str | None = None, index: int | None = None) -> int | None:
        """The line of `key` in the index-th [[table]] (of its header without a key), in a [table], or
        of a top-level key. A table inside another is named with dots: `tool.zoneproof.expect`."""
        if table is None:
            end = self.headers[0][0] if self.headers else len(self.lines) + 1
            return self._key_line(key, 1, end) if key else None
        starts = [n for n, name in self.headers if name == table]
        value = self.doc
        for part in table.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, dict) and index is None and len(starts) == 1:  # a [table] of its own
            start = starts[0]
        elif not isinstance(value, list) or len(starts) != len(value) or index is None or index >= len(starts):
            return None
        else:
            start = starts[index]
        later = [n for n, _ in self.headers if n > start]
        return (self._key_line(key, start + 1, later[0] if later else len(self.lines) + 1) if key else None) or start

    def location(self, key: str | None = None, table: str | None = None, index: int | None = None) -> Location:
        """Where `key` of the index-th [[table]] (or a top-level key) is: this file, at its line."""
        return Location(self.path, self.line(key, table, index))

    def _key_line(self, key: str, start: int, end: int) -> int | None:
        pattern = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*[=.]")
        for number in range(start, end):
            if number not in self._strings and pattern.match(self.lines[number - 1]):
                return number
        return None

    def fail(self, message: str, key: str | None = None, table: str | None = None, index: int | None = None):
        """Record an error at `key` of the table being read (or of the one named), and skip the rest of that table."""
        if table is None and self.context is not None:
            table, index = self.context
        self.errors.append(InputError(message, self.location(key, table, index)))
        raise Skip

    def each(self, table: str, tables: list[dict], read: Callable[[dict, int], T]) -> list[T]:
        """read(table, index) of each [[table]]; those with an error are left out (the error is recorded)."""
        read_ones = []
        for index, value in enumerate(tables):
            outer, self.context = self.context, (table, index)
            try:
                read_ones.append(read(value, index))
            except Skip:
                pass
            finally:
                self.context = outer
        return read_ones

    def attempt(self, read: Callable[[], T], default: T | None = None) -> T | None:
        """read(), or `default` when it recorded an error."""
        try:
            return read()
        except Skip:
            return default

    def finish(self) -> None:
        """Raise every error recorded, in the order of the file."""
        if self.errors:
            unique = {str(e): e for e in self.errors}.values()
            ordered = sorted(unique, key=lambda e: e.location.line or 0)
            raise InputErrors(ordered)

"""Errors that reach the user as one line, and the exit codes of the command line."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable


class ExitCode(IntEnum):
    OK = 0
    VIOLATED = 1  # for replay: the trace did not reproduce
    BAD_INPUT = 2
    UNKNOWN = 3
    CHECKER_BUG = 4  # a counterexample or example that did not replay in the interpreter
    INTERRUPTED = 130  # Ctrl-C (SIGINT), as a shell reports a command that SIGINT ended


@dataclass(frozen=True)
class Location:
    path: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class InputError(Exception):
    """Bad input: a malformed file, an unknown name, a value out of range.

    Rendered as `path:line:col: error: message` (or `error: message` when no file is involved).
    """

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        one_line = " ".join(self.message.split())
        if self.location is None:
            return f"error: {one_line}"
        where = str(self.location).encode("unicode_escape").decode("ascii")  # a file name may hold a newline
        return f"{where}: error: {one_line}"


class InputErrors(InputError):
    """Every error found in one file, each rendered on a line of its own."""

    def __init__(self, errors: list[InputError]):
        super().__init__(errors[0].message, errors[0].location)
        self.errors = tuple(errors)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close match exists, else ''."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{matches[0]}'?)" if matches else ""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped the work; `known` holds what was finished before it (what that is
    depends on who raises it: the results of the checks done, the tasks that had finished)."""

    def __init__(self, known=()):
        super().__init__()
        self.known = known

    def __reduce__(self):  # raised in a worker process, it is pickled with what it carries
        return (type(self), (self.known,))


class CheckerBug(Exception):
    """Z3 and the interpreter disagree about an example: a bug in zoneproof, not in the input."""

"""Every numeric option of every subcommand at its documented minimum and maximum, one beyond each,
and a negative value: each is a valid run (exit 0, 1 or 3) or a one-line error naming the option
(exit 2), never a traceback.

The runs are tiny (one or two players, a card or two, one property) so that even the largest
depth and the most workers finish in seconds; the value under test is the only one that is not.
"""

from __future__ import annotations

import pytest

from zoneproof.cli import MAX_JOBS
from zoneproof.model import Scope
from zoneproof.ruleset import load_ruleset

BERSERK_RULES = [r.id for r in load_ruleset("berserk").in_force if r.behaviour.value != "documented"]
COMMANDS = {
    "check": ["check", "mtg-current", "--no-lint"],
    "lint": ["lint", "berserk"],  # the smallest rule set: lint at each limit in seconds
    "diff": ["diff", "mtg-2010", "mtg-current"],
    # a few rules, so that the largest --jobs starts few workers
    "coverage": ["coverage", "berserk", *[f"--without={r}" for r in BERSERK_RULES[2:]]],
}
BASE = {"players": 1, "cards": 1, "sideboard": 0, "tokens": 0, "depth": 1, "timeout": 30, "jobs": 1}


def limits(name: str) -> tuple:
    low, high = Scope.LIMITS[name]
    return low, high


# option -> (documented minimum, maximum, other options its maximum needs to stay valid and quick)
RANGES = {
    "players": (*limits("players"), {}),
    "cards": (*limits("cards"), {}),
    "sideboard": (*limits("sideboard"), {}),
    "tokens": (*limits("tokens"), {}),
    # nothing to move, and little time per question: the deepest unrolling, quickly (lint asks over a thousand)
    "depth": (*limits("depth"), {"cards": 0, "timeout": 0.05}),
    "hand": (0, 2, {"cards": 2}),  # 0..--cards
    "team-size": (0, 4, {"players": 4}),  # a size that divides the players
    "seed": (0, 2**32 - 1, {}),
    "timeout": (0.001, 10**6, {}),  # more than 0
    "jobs": (0, MAX_JOBS, {}),
}
MINIMUMS = {option: low for option, (low, _, _) in RANGES.items()}


def arguments(command: str, values: dict) -> list[str]:
    return [*COMMANDS[command], "-p", "owner-zones", *[f"--{name}={v}" for name, v in (BASE | values).items()]]


def assert_valid_run(code: int, err: str) -> None:
    assert "Traceback" not in err
    assert code in (0, 1, 3), (code, err)
    assert "error" not in err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_numeric_option_at_its_minimum(command, run):
    code, _, err = run(*arguments(command, MINIMUMS))
    assert_valid_run(code, err)


@pytest.mark.parametrize("command, option", [(c, o) for c in COMMANDS for o in RANGES])
def test_a_numeric_option_at_its_maximum(command, option, run):
    _, high, needs = RANGES[option]
    code, _, err = run(*arguments(command, needs | {option: high}))
    assert_valid_run(code, err)


def beyond():
    for command in COMMANDS:
        for option, (low, high, needs) in RANGES.items():
            step = 1 if isinstance(low, int) else low
            for value in sorted({0 if option == "timeout" else low - step, high + step, -1}):
                yield pytest.param(command, option, value, needs, id=f"{command}-{option}={value}")


@pytest.mark.parametrize("command, option, value, needs", list(beyond()))
def test_a_numeric_option_beyond_its_limits_is_one_line_and_exit_2(command, option, value, needs, run):
    code, out, err = run(*arguments(command, needs | {option: value}))
    assert "Traceback" not in err
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and f"--{option}" in err, err
    assert out == ""


@pytest.mark.parametrize("modifier, valid", [("B=-1", True), ("B=+1", True), ("B=-2", False), ("B=+2", False), ("B=-99999999999999999999", False)])
@pytest.mark.parametrize("command", COMMANDS)
def test_hand_modifier_at_and_beyond_its_limits(command, modifier, valid, run):
    # a starting hand of 1 from a deck of 2: the modified hand must stay within 0..2
    code, out, err = run(*arguments(command, {"players": 2, "cards": 2, "hand": 1}), "--hand-modifier", modifier)
    if valid:
        assert_valid_run(code, err)
    else:
        assert "Traceback" not in err
        assert code == 2 and len(err.strip().splitlines()) == 1 and "--hand-modifier" in err, err

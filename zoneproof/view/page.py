"""The HTML page of a run (`zoneproof show --html`) and of a comparison (`zoneproof diff --html`).

One self-contained file from the jinja2 templates beside this module: styles and script inline, no
network. Each viewer's boards are rendered into a `<template>` of their own, and the script puts the
chosen viewer's into the page, so the page's live content is only ever that viewer's view.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from .. import __version__
from ..model import PLAYER_NAMES
from .board import Board, Ghost, Pile, Run, StepView, view, viewer_key, viewer_label, viewers
from .sources import behaviour_runs, result_run, ruleset_text

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("zoneproof.view", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
ENVIRONMENT.tests["ghost"] = lambda item: isinstance(item, Ghost)


@dataclass(frozen=True)
class RunView:
    run: Run
    views: tuple[tuple[str, tuple[StepView, ...]], ...]  # (viewer key, the run as that viewer sees it)


@dataclass(frozen=True)
class Game:
    """One slider and one "view as" for one run, or for two side by side."""

    runs: tuple[RunView, ...]
    viewers: tuple[tuple[str, str], ...]  # (key, label)
    last: int  # the last step


def game(runs: tuple[Run, ...], only: tuple[int | None, ...] | None = None) -> Game:
    """The runs as each viewer sees them; `only` keeps just those viewers (and their data)."""
    chosen = tuple(v for v in viewers(runs[0]) if only is None or v in only)
    return Game(
        tuple(RunView(r, tuple((viewer_key(v), view(r, v)) for v in chosen)) for r in runs),
        tuple((viewer_key(v), viewer_label(v)) for v in chosen),
        max(len(r.steps) for r in runs),
    )


def rows(board: Board) -> list[tuple[str, str, tuple[Pile, ...]]]:
    """The board's rows, as at a table: half the players across the shared zones from the others."""
    half = (len(board.players) + 1) // 2
    players = [("player", f"player {name}", piles) for name, piles in board.players]
    return players[half:][::-1] + [("shared", "shared zones", board.shared)] + players[:half]


ENVIRONMENT.globals.update(rows=rows, players=PLAYER_NAMES, version=__version__)


def _render(template: str, **values) -> str:
    return ENVIRONMENT.get_template(template).render(**values)


def run_page(run: Run, only: tuple[int | None, ...] | None = None) -> str:
    return _render("run.html.j2", title=run.title, run=run, game=game((run,), only))


def diff_page(result, paths: dict) -> str:
    """Each verdict flip's counterexample, and each behaviour difference as its two runs side by side."""
    flips = [(f, game((result_run(f.violated),))) for f in result.flips]
    behaviours = [(d, game(behaviour_runs(d, result.name))) for d in result.behaviours]
    title = f"diff {result.name(result.a)} vs {result.name(result.b)}"
    return _render("diff.html.j2", title=title, result=result, paths=paths, flips=flips, behaviours=behaviours,
                   sides=(ruleset_text(result.a), ruleset_text(result.b)))

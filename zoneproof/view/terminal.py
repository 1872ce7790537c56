"""The board in the terminal (`zoneproof show` without `--html`), drawn with rich: the steps, then
one panel per zone at the chosen step, with what that step changed highlighted."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..model import PLAYER_NAMES
from .board import Chip, Ghost, Pile, Run, StepView, viewer_label
from .page import rows

PLAYER_STYLE = {"A": "blue", "B": "red", "C": "green", "D": "yellow"}
CHANGE_STYLE = {"moved": "bold black on yellow", "created": "bold black on green", "reordered": "bold magenta", "changed": "bold"}


def chip_text(c: Chip, came_from: str | None, players: int) -> Text:
    text = Text()
    style = CHANGE_STYLE.get(c.change, "")
    text.append("hidden" if c.hidden else c.name, style=style or "bold")
    if not c.hidden:
        text.append(f" {c.card_type}" + (f" · {c.kind}" if c.kind else ""), style="dim")
    text.append(f" {c.owner}", style=PLAYER_STYLE[c.owner])
    if c.controller != c.owner:
        text.append(f"→{c.controller}", style=PLAYER_STYLE[c.controller])
    o = c.object
    marks = [f"gen {o.gen}" + (" new" if c.new_object else "")]
    marks += [name for name, on in (("face down", o.face_down), ("tapped", o.tapped), ("attached", o.attached), ("effect", o.effect),
                                    ("revealed", o.revealed)) if on]
    if o.counters:
        marks.append(f"{o.counters} counter{'s' * (o.counters != 1)}")
    if o.shown:
        marks.append(f"shown to {', '.join(PLAYER_NAMES[p] for p in o.shown)}")
    if c.seen_by is not None and (o.face_down or 0 < len(c.seen_by) < players):
        marks.append(f"seen by {', '.join(c.seen_by) or 'nobody'}")
    text.append(f" ({'; '.join(marks)})", style="dim")
    if c.change == "moved" and came_from:
        text.append(f" ← {came_from}", style="yellow")
    elif c.change in ("created", "reordered"):
        text.append(f" {c.change}", style=CHANGE_STYLE[c.change])
    if c.witness:
        text.append(" ✗ witness", style="bold red")
    return text


def pile_panel(p: Pile, origins: dict[int, str], targets: dict[int, str], players: int) -> Panel:
    lines: list[Text] = []
    place = 0
    for item in p.items:
        if isinstance(item, Ghost):
            lines.append(Text(f"⋯ {item.name + ' ' if item.name else ''}" + ("ceased to exist" if item.gone else f"left → {targets.get(item.move, '?')}"), style="yellow dim"))
            continue
        place += 1
        line = Text(f"#{place} " if p.ordered else "", style="dim")  # places from the top, as in `#1/3`
        lines.append(line + chip_text(item, origins.get(item.move) if item.move else None, players))
    title = f"{p.label}{'/' + p.player if p.player else ''} · {len(p.chips)}"
    return Panel(Text("\n").join(lines), title=title, title_align="left", border_style=PLAYER_STYLE.get(p.player, "white"), padding=(0, 1))


def board_renderable(step: StepView) -> RenderableType:
    """A row of panels per player and one for the shared zones; empty zones are listed in one line."""
    piles = step.board.piles
    origins = {g.move: p.key for p in piles for g in p.ghosts}
    targets = {c.move: p.key for p in piles for c in p.chips if c.move}
    grid = Table.grid(expand=True)
    grid.add_column()
    for _, label, row in rows(step.board) + [("tray", "outside the game", (step.board.tray,))]:
        drawn = [p for p in row if p.items]
        if drawn:
            line = Table.grid(expand=True, padding=(0, 1))
            for _ in drawn:
                line.add_column(ratio=1)
            line.add_row(*(pile_panel(p, origins, targets, len(step.board.players)) for p in drawn))
            grid.add_row(line)
    empty = [f"{p.label}{'/' + p.player if p.player else ''}" for p in piles if not p.items]
    if empty:
        grid.add_row(Text(f"empty: {', '.join(empty)}", style="dim"))
    return grid


def step_lines(step: StepView, current: bool) -> list[Text]:
    mark = "▶" if current else " "
    head = Text(f"{mark} {step.number:>2}.  " if step.number else f"{mark} start", style="bold" if current else "")
    head.append(step.action)
    if step.rules:
        head.append(f"  [{', '.join(r for r, _ in step.rules)}]", style="cyan")
    lines = [head]
    if step.refused:
        lines.append(Text(f"        refused: {step.refused}", style="yellow"))
    elif step.number:
        lines += [Text(f"        {phrase}", style="" if current else "dim") for phrase in step.changes or ("nothing changes",)]
    for f in step.findings:
        witnessed = f" for {'; '.join(f.witnesses)}" if f.witnesses else ""
        meaning = f": {f.meaning}" if f.meaning else ""
        lines.append(Text(f"  {'✗' if f.kind == 'violation' else '◆'} {f.title}{witnessed}{meaning}", style="bold red" if f.kind == "violation" else "bold green"))
    lines += [Text(f"  ✗ {message}", style="bold red") for message in step.failures]
    return lines


def show_renderables(run: Run, viewer: int | None, steps: tuple[StepView, ...], chosen: int | None) -> list[RenderableType]:
    """The run's title; then its steps with the board after step `chosen`, or (None) each step
    followed by the board after it."""
    out: list[RenderableType] = [Text(f"{run.title}  ({run.note + '; ' if run.note else ''}the view of {viewer_label(viewer)})", style="bold")]
    if run.problem:
        out.append(Text(f"⚠ the interpreter does not reproduce this trace: {run.problem}", style="bold yellow"))
    if chosen is None:
        for s in steps:
            out += [Group(*step_lines(s, True)), board_renderable(s)]
        return out
    out.append(Group(*(line for s in steps for line in step_lines(s, s.number == chosen))))
    out.append(board_renderable(steps[chosen]))
    return out

"""The documentation: the site builds with `mkdocs build --strict`, and every example of the README
and of docs/ that starts with `$ zoneproof` prints what the page shows, so the pages cannot drift
from the program. How the examples are run and compared is described in docs/testing.md."""

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import normalise

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The repository folders an example may read; each page's examples run in a fresh folder that
# links to them, so that what the examples write (counterexamples/, pages) lands there.
INPUTS = ("model", "properties", "tests", "examples", "benchmarks")
LONG = re.compile(r"<!--\s*example:\s*long\b")
FENCE = "```"
# `zoneproof` in an example is the zoneproof of the Python running the tests.
PRELUDE = 'zoneproof() { "$ZONEPROOF_PYTHON" -m zoneproof "$@"; }\n'


@dataclass(frozen=True)
class Command:
    line: int  # where the command is on its page, counted from 1
    text: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    page: Path
    line: int
    long: bool
    commands: tuple[Command, ...]


def examples(page: Path) -> list[Example]:
    """The fenced blocks whose first line is `$ zoneproof ...`: each `$ ` line is a command, the
    lines up to the next one its output. The last line of text before the fence can mark the
    block `<!-- example: long ... -->`."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, index = [], 0
    while index < len(lines):
        if not lines[index].startswith(FENCE):
            index += 1
            continue
        close = next(i for i in range(index + 1, len(lines)) if lines[i].startswith(FENCE))
        body = lines[index + 1:close]
        if body and body[0].startswith("$ zoneproof"):
            before = next((line for line in reversed(lines[:index]) if line.strip()), "")
            commands, start = [], None
            for offset, line in enumerate(body + ["$ "]):
                if line.startswith("$ "):
                    if start is not None:
                        commands.append(Command(index + 2 + start, body[start][2:], tuple(body[start + 1:offset])))
                    start = offset
            found.append(Example(page, index + 1, bool(LONG.match(before.strip())), tuple(commands)))
        index = close + 1
    return found


def pattern(expected: tuple[str, ...]) -> re.Pattern:
    """`...` alone on a line stands for any lines (none too), `...` within a line for any text."""
    parts = []
    for line in expected:
        line = normalise(line).rstrip()
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r".*?".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def matches(expected: tuple[str, ...], output: str) -> bool:
    text = "".join(normalise(line).rstrip() + "\n" for line in output.splitlines())
    return pattern(expected).fullmatch(text) is not None


def run_examples(page: Path, chosen: list[Example], folder: Path) -> None:
    """Run the examples in order; with ZONEPROOF_REGENERATE_GOLDEN=1, the output shown after a
    command that printed something else is replaced by what it printed, where the page shows it
    whole (an excerpt, with `...`, is left for a person to choose)."""
    for name in INPUTS:
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)
    env = {**os.environ, "ZONEPROOF_PYTHON": sys.executable}
    exit_code, drifted, printed = 0, [], {}
    for example in chosen:
        for command in example.commands:
            done = subprocess.run(["bash", "-c", f"{PRELUDE}(exit {exit_code}); {command.text}"], cwd=folder, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=1200)
            exit_code = done.returncode
            if matches(command.expected, done.stdout):
                continue
            if os.environ.get("ZONEPROOF_REGENERATE_GOLDEN") and not any("..." in line for line in command.expected):
                printed[command] = done.stdout.rstrip("\n").splitlines()
                continue
            drifted.append(f"{page.relative_to(ROOT)}:{command.line}: `{command.text}` (exit {exit_code}) printed\n"
                           f"{done.stdout}\nwhere the page shows\n" + "\n".join(command.expected))
    if printed:
        lines = page.read_text(encoding="utf-8").splitlines()
        for command in sorted(printed, key=lambda c: c.line, reverse=True):
            lines[command.line:command.line + len(command.expected)] = printed[command]
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert not drifted, "\n\n".join(drifted)


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


QUICK = [page for page in PAGES if any(not e.long for e in examples(page))]
WITH_LONG = [page for page in PAGES if any(e.long for e in examples(page))]


@pytest.mark.parametrize("page", QUICK, ids=page_id)
def test_quick_examples_print_what_the_page_shows(page, tmp_path):
    run_examples(page, [e for e in examples(page) if not e.long], tmp_path)


@pytest.mark.skipif(not os.environ.get("ZONEPROOF_LONG"), reason="examples marked long: set ZONEPROOF_LONG=1 to run them")
@pytest.mark.parametrize("page", WITH_LONG, ids=page_id)
def test_every_example_prints_what_the_page_shows(page, tmp_path):
    run_examples(page, examples(page), tmp_path)


def test_an_example_that_drifted_fails():
    shown = ("berserk  new-object  violated  depth 3     0.55s  [400.7]", "...", "  ✗ fails at step 2 for c = A2: ...", "1 checks in 2.5s")
    printed = "berserk  new-object  violated  depth 3    12.10s  [400.7]\n  start\n    1.  draw\n  ✗ fails at step 2 for c = A2: a card\n1 checks in 0.3s\n"
    assert matches(shown, printed)
    assert not matches(shown, printed.replace("depth 3", "depth 2"))
    assert not matches(shown, printed + "an extra line\n")
    assert not matches(shown[:1], printed)
    assert matches((), "") and not matches((), "output the page does not show\n")


def test_the_readme_test_command_is_the_one_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^python3 -m venv .*$", readme, flags=re.M)
    assert len(commands) == 2 and commands[0].endswith("pip install . && zoneproof check")
    assert commands[1].endswith("pip install '.[test]' && pytest -q -n auto")
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()[-1] == commands[1]


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install '.[docs]'): the site is not built")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
                            "--site-dir", str(tmp_path / "site")], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "A five-minute tour" in home and 'href="lint-and-coverage/' in home  # the README, its links into docs/ made the site's

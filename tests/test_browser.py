"""The pages of `zoneproof show --html` and `zoneproof diff --html` in a real browser: headless
Chromium, driven through Selenium and chromedriver (Debian's chromium and chromium-driver, which
.ci/run installs). Without them every test here is skipped, and says why.

Each page is stepped through with the keys, the slider and the buttons; at every step a screenshot
is taken and the DOM is checked against the run itself (read from the trace or run in the
interpreter, not from the view model): the cards in each zone, the moves highlighted, and, as
each player, the faces that player may not see.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.test_view import SECRETS, expected_piles, pile_of
from zoneproof.cli import main
from zoneproof.interpreter import sees
from zoneproof.replay import ruleset_for_trace
from zoneproof.scenario import load_scenario, parse_scenario
from zoneproof.trace import read_trace
from zoneproof.view.sources import scenario_run

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
# the flags that let headless Chromium start as root on a machine without a network
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--window-size=1400,1000", "--hide-scrollbars")
README_SCREENSHOT = Path(__file__).parent / "golden" / "show-owner-zones.png"


def no_browser() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install '.[test]'"
    missing = [name for name, path in (("chromium", BROWSER), ("chromedriver", DRIVER)) if path is None]
    if missing:
        return f"no {' and no '.join(missing)} on PATH: install Debian's chromium and chromium-driver (as .ci/run does)"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = no_browser()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="zoneproof-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """One page in the browser, read through the DOM."""

    def __init__(self, driver, path: Path, shots: Path):
        self.driver, self.shots = driver, shots
        driver.get(path.as_uri())
        assert driver.execute_script("return document.querySelectorAll('.live .state').length") > 0
        self.errors()  # what loading printed

    def errors(self) -> list[str]:
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    def script(self, body: str, *args):
        return self.driver.execute_script(body, *args)

    def visible_state(self, game: int = 0, run: int = 0) -> dict:
        """The cards in each pile of the step shown, the moves highlighted, their arrows."""
        return self.script("""
            const run = document.querySelectorAll('.game')[arguments[0]].querySelectorAll('.run')[arguments[1]];
            const shown = Array.from(run.querySelectorAll('.live .state')).filter(s => !s.hidden);
            if (shown.length !== 1) return {shown: shown.length};
            const state = shown[0];
            const piles = {};
            const hidden = {};
            const text = {};
            state.querySelectorAll('.pile').forEach(p => {
              const chips = p.querySelectorAll('.chip');
              if (chips.length) piles[p.dataset.pile] = chips.length;
              hidden[p.dataset.pile] = p.querySelectorAll('.chip.hidden').length;
              text[p.dataset.pile] = p.innerText;
              if (Number(p.querySelector('.count').textContent) !== chips.length) piles['count differs: ' + p.dataset.pile] = -1;
            });
            const moved = Array.from(state.querySelectorAll('.chip.moved')).map(c => c.classList.contains('hidden') ? null : c.querySelector('.name').textContent);
            return {shown: 1, step: Number(state.dataset.step), visible: state.offsetParent !== null, piles, hidden, text, moved,
                    ghosts: state.querySelectorAll('.ghost:not(.gone)').length,
                    arrows: state.querySelectorAll('svg.arrows path.move').length,
                    finding: Array.from(state.querySelectorAll('.finding .title')).map(t => t.textContent),
                    html: state.innerHTML,
                    current: Array.from(run.querySelectorAll('.live .steps > li.current')).map(li => Number(li.dataset.step))};
        """, game, run)

    def position(self, game: int = 0) -> str:
        return self.script("return document.querySelectorAll('.game')[arguments[0]].querySelector('.position').textContent", game)

    def press(self, key, game: int = 0) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self.click(".position", game)  # makes the game the one the keys act on
        ActionChains(self.driver).send_keys(key).perform()

    def click(self, selector: str, game: int = 0) -> None:
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", self.game(game).find_element("css selector", selector))
        self.game(game).find_element("css selector", selector).click()

    def game(self, index: int):
        return self.driver.find_elements("css selector", ".game")[index]

    def view_as(self, key: str, game: int = 0) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.game(game).find_element("css selector", "select.view-as")).select_by_value(key)

    def screenshot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        assert self.driver.save_screenshot(str(path))
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        return path


def moved_names(world, before, after) -> list[str]:
    return sorted(world.slots[i].name for i, (o, o2) in enumerate(zip(before.objects, after.objects))
                  if pile_of(o) != pile_of(o2) and None not in (pile_of(o), pile_of(o2)))


def hidden_per_pile(ruleset, state, player: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i, o in enumerate(state.objects):
        if pile_of(o) is not None and not sees(ruleset, state, player, i):
            counts[pile_of(o)] = counts.get(pile_of(o), 0) + 1
    return counts


def check_step(page: Page, states, world, step: int, game: int = 0, run: int = 0) -> dict:
    seen = page.visible_state(game, run)
    assert seen["shown"] == 1 and seen["step"] == step and seen["visible"] and seen["current"] == [step]
    assert seen["piles"] == expected_piles(states[step]), step
    if step:
        moved = moved_names(world, states[step - 1], states[step])
        named = [n for n in seen["moved"] if n is not None]  # a hidden card moved is highlighted without its name
        assert set(named) <= set(moved) and (sorted(named) == moved or None in seen["moved"]), (step, seen["moved"], moved)
        assert len(seen["moved"]) == len(moved) == seen["ghosts"] == seen["arrows"], (step, seen["moved"], moved)
    return seen


def make(*args: str) -> None:
    assert main(list(args)) in (0, 1)


def counterexample(tmp_path: Path, rule: str, prop: str) -> Path:
    """Made in a process of its own, as a user makes it (in this one, Z3's model could depend on the tests run before)."""
    made = subprocess.run([sys.executable, "-m", "zoneproof", "check", "mtg-current", "--without", rule, "-p", prop, "--no-lint",
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert made.returncode == 1, made.stderr
    return tmp_path / f"mtg-current--without-{rule}--{prop}.itf.json"


def trace_states(path: Path):
    trace = read_trace(path)
    from zoneproof.interpreter import World

    world = World.of(ruleset_for_trace(trace), trace.slots, trace.card_types, trace.scope)
    return trace, world, [trace.initial] + [s.state for s in trace.steps]


def png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


def test_a_counterexample_step_by_step_with_the_keys(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    trace_file = counterexample(tmp_path, "400.3", "owner-zones")
    make("show", str(trace_file), "--html", str(tmp_path / "page.html"))
    trace, world, states = trace_states(trace_file)
    page = Page(browser, tmp_path / "page.html", tmp_path)
    assert page.position() == "start (2 steps)"
    for step in range(len(states)):
        if step:
            page.press(Keys.ARROW_RIGHT)
        seen = check_step(page, states, world, step)
        shot = page.screenshot(f"owner-zones-{step}")
    assert page.position() == "step 2 of 2"
    [culprit] = moved_names(world, states[1], states[2])  # the card the last step put into another player's zone
    assert seen["finding"] == [f"✗ owner-zones fails at step 2 for c = {culprit}"]
    assert "witness" in seen["html"] and seen["moved"] == [culprit]
    if os.environ.get("ZONEPROOF_REGENERATE_GOLDEN"):
        shutil.copy(shot, README_SCREENSHOT)
    assert png_size(README_SCREENSHOT) == png_size(shot)  # the README's picture is this page, at this size
    page.press(Keys.ARROW_RIGHT)  # past the end: stays
    check_step(page, states, world, 2)
    page.press(Keys.HOME)
    check_step(page, states, world, 0)
    page.press(Keys.END)
    check_step(page, states, world, 2)
    page.press(Keys.ARROW_LEFT)
    check_step(page, states, world, 1)
    page.view_as("B")
    seen = check_step(page, states, world, 1)
    # library cards: nobody sees their faces, and B sees none of the hidden cards' names
    hidden = hidden_per_pile(world.ruleset, states[1], 1)
    assert {k: v for k, v in seen["hidden"].items() if v} == hidden and hidden["library/A"] + hidden.get("library/B", 0) >= 3
    for i, o in enumerate(states[1].objects):
        if pile_of(o) is not None and not sees(world.ruleset, states[1], 1, i):
            assert not re.search(rf">{re.escape(world.slots[i].name)}<", seen["html"]), world.slots[i].name
    assert page.errors() == []


def test_a_face_down_trace_with_the_slider_as_each_player(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    trace_file = counterexample(tmp_path, "708.9", "face-down-reveal")
    make("show", str(trace_file), "--html", str(tmp_path / "page.html"))
    trace, world, states = trace_states(trace_file)
    assert any(o.face_down for s in states for o in s.objects)
    page = Page(browser, tmp_path / "page.html", tmp_path)
    for viewer in ("all", "A", "B"):
        page.view_as(viewer)
        page.click(".slider")
        page.driver.execute_script("arguments[0].value = 0; arguments[0].dispatchEvent(new Event('input'))",
                                   page.game(0).find_element("css selector", ".slider"))
        for step in range(len(states)):
            if step:
                page.game(0).find_element("css selector", ".slider").send_keys(Keys.ARROW_RIGHT)
            seen = check_step(page, states, world, step)
            page.screenshot(f"face-down-{viewer}-{step}")
            if viewer != "all":
                player = "AB".index(viewer)
                expected = hidden_per_pile(world.ruleset, states[step], player)
                assert {k: v for k, v in seen["hidden"].items() if v} == expected, (viewer, step)
                for i, o in enumerate(states[step].objects):
                    if pile_of(o) is not None and not sees(world.ruleset, states[step], player, i):
                        assert not re.search(rf">{re.escape(world.slots[i].name)}<", seen["html"]), (viewer, step, world.slots[i].name)
    assert page.errors() == []


def test_a_mulligan_as_each_player(browser, tmp_path):
    trace_file = counterexample(tmp_path, "103.5", "mulligan-hand-size")
    make("show", str(trace_file), "--html", str(tmp_path / "page.html"))
    trace, world, states = trace_states(trace_file)
    page = Page(browser, tmp_path / "page.html", tmp_path)
    page.click(".next")
    seen = check_step(page, states, world, 1)  # a hand drawn
    drawer = trace.steps[0].action.player
    hand = f"hand/{'AB'[drawer]}"
    in_hand = [world.slots[i].name for i, o in enumerate(states[1].objects) if pile_of(o) == hand]
    assert seen["piles"][hand] == len(in_hand) > 0 and seen["hidden"][hand] == 0
    assert all(name in seen["text"][hand] for name in in_hand)
    page.view_as("AB"[1 - drawer])  # the other player: the hand is hidden
    seen = check_step(page, states, world, 1)
    assert seen["hidden"][hand] == len(in_hand) and not any(name in seen["text"][hand] for name in in_hand)
    page.screenshot("mulligan-other-1")
    page.view_as("AB"[drawer])  # its player sees it
    seen = check_step(page, states, world, 1)
    assert seen["hidden"][hand] == 0 and all(name in seen["text"][hand] for name in in_hand)
    page.click(".next")
    seen = check_step(page, states, world, 2)
    assert seen["finding"][0].startswith("✗ mulligan-hand-size fails at step 2 for p = ")
    page.screenshot("mulligan-2")
    assert page.errors() == []


def test_view_as_b_hides_as_hand(browser, tmp_path):
    scenario = tmp_path / "secrets.toml"
    scenario.write_text(SECRETS, encoding="utf-8")
    make("show", str(scenario), "--html", str(tmp_path / "page.html"))
    run = scenario_run(parse_scenario(SECRETS, str(scenario)))
    page = Page(browser, tmp_path / "page.html", tmp_path)
    for _ in range(3):
        page.click(".next")
    seen = check_step(page, run.states, run.world, 3)
    assert "Quiet Draw" in seen["text"]["hand/A"] and "Secret Morph" in seen["text"]["battlefield"]
    page.view_as("B")
    seen = check_step(page, run.states, run.world, 3)
    assert seen["hidden"]["hand/A"] == 1 and seen["hidden"]["battlefield"] == 1 and seen["hidden"]["hand/B"] == 0
    live = page.script("return document.querySelector('.live').innerHTML")
    assert "Quiet Draw" not in live and "Secret Morph" not in live and "planeswalker" not in live and "Open Land" in live
    page.screenshot("secrets-as-B")
    page.view_as("A")
    seen = check_step(page, run.states, run.world, 3)
    assert seen["hidden"]["hand/A"] == 0 and "Quiet Draw" in seen["text"]["hand/A"]
    assert page.errors() == []


def test_a_diff_side_by_side(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    out = tmp_path / "d"
    make("diff", "mtg-current", "mtg-current", "--without-b", "400.3", "-p", "owner-zones", "--depth", "2", "--cards", "2",
         "--sideboard", "0", "--tokens", "0", "--out", str(out), "--html", str(tmp_path / "diff.html"))
    page = Page(browser, tmp_path / "diff.html", tmp_path)
    headings = page.script("return Array.from(document.querySelectorAll('main > h2')).map(h => h.textContent)")
    games = len(page.driver.find_elements("css selector", ".game"))
    assert games == len(headings) > 1 and headings[0] == "owner-zones is violated under mtg-current--without-400.3 only"
    behaviours = 0
    for index, heading in enumerate(headings[1:], start=1):
        kind, allowing, refusing = re.fullmatch(r"(\w+): allowed by (\S+), not by (\S+) \(\d+ steps?\)", heading).groups()
        runs = [scenario_run(load_scenario(out / f"{allowing}--allows-{kind}.scenario.toml")),
                scenario_run(load_scenario(out / f"{refusing}--refuses-{kind}.scenario.toml"))]
        assert page.script("return arguments[0].querySelectorAll('.run').length", page.game(index)) == 2
        last = len(runs[0].steps)
        for step in range(last + 1):
            if step:
                page.press(Keys.ARROW_RIGHT, index)
            for side, run in enumerate(runs):
                check_step(page, run.states, run.world, step, game=index, run=side)
        refused = page.visible_state(index, 1)
        allowed = page.visible_state(index, 0)
        assert refused["piles"] != allowed["piles"] or refused["html"] != allowed["html"]
        page.driver.execute_script("arguments[0].scrollIntoView()", page.game(index))
        page.screenshot(f"diff-{kind}")
        behaviours += 1
    assert behaviours == games - 1
    assert page.errors() == []

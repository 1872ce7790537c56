"""Scenario files: every checked-in scenario passes, `zoneproof run` reports failures without
stopping, and bad scenario input ends in one line on stderr with exit code 2."""

import re
from pathlib import Path

import pytest

from zoneproof.cli import main
from zoneproof.interpreter import apply
from zoneproof.model import Action, ActionKind, Scope, Step
from zoneproof.scenario import load_scenario, parse_scenario, refusal_matches, run_scenario, write_scenario
from zoneproof.trace import Trace, of_ruleset

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.toml"))
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\.toml")


def test_there_are_enough_scenarios():
    assert len(FILES) >= 32
    assert all(KEBAB.fullmatch(f.name) for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_passes(path):
    scenario = load_scenario(path)
    assert scenario.name.strip() and scenario.cites
    assert scenario.steps
    result = run_scenario(scenario)
    assert result.passed, "\n".join(f"step {f.step}: {f.message}" for f in result.failures)
    assert len(result.steps) == len(scenario.steps)


def test_run_all_scenarios_from_the_command_line(capsys):
    code = main(["run", *map(str, FILES)])
    out, err = capsys.readouterr()
    n = len(FILES)
    assert n >= 30
    assert code == 0, out
    assert err == ""
    assert out.splitlines()[-1] == f"{n} scenarios: {n} passed, 0 failed"
    assert out.count("✓ ") == n and "✗" not in out


WRONG = """\
name = "A wrongly expected bounce"
cites = ["400.3"]

[[card]]
name = "Bear"
owner = "A"
start = "battlefield"

[[step]]
action = "tap"
card = "Bear"

[[step]]
action = "destroy"
card = "Bear"
expect = [{ card = "Bear", zone = "hand", whose = "A" }]
"""


def test_a_failing_expectation_is_reported_and_the_others_still_run(capsys, tmp_path):
    good = SCENARIOS / "stolen-creature-dies.toml"
    good2 = SCENARIOS / "token-cannot-return.toml"
    bad = tmp_path / "wrong.toml"
    bad.write_text(WRONG, encoding="utf-8")
    code = main(["run", str(good), str(bad), str(good2)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err == ""
    lines = out.splitlines()
    assert f"✗ A wrongly expected bounce  ({bad}; cites 400.3)" in lines
    failing = lines.index("        ✗ Bear: expected zone = 'hand', got 'graveyard'")
    step_lines = [line for line in lines[:failing] if re.match(r"\s+\d+\.\s", line)]
    assert step_lines[-1].strip().startswith("2.  destroy Bear")
    assert "expected whose" not in out  # the graveyard is A's, as expected
    for path in (good, good2):
        name = load_scenario(path).name
        assert any(line.startswith(f"✓ {name}  ({path};") for line in lines)
    assert lines[-1] == "3 scenarios: 2 passed, 1 failed"


def test_an_unexpectedly_legal_step_fails(capsys, tmp_path):
    bad = tmp_path / "legal.toml"
    bad.write_text(WRONG.replace('expect = [{ card = "Bear", zone = "hand", whose = "A" }]', "illegal = true"), encoding="utf-8")
    assert main(["run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "✗ expected the action to be illegal, but it was carried out" in out


def test_an_unexpectedly_illegal_step_fails_and_stops_the_scenario(capsys, tmp_path):
    bad = tmp_path / "illegal.toml"
    bad.write_text(WRONG.replace('action = "tap"', 'action = "exile"\ncard = "Bear"\n\n[[step]]\naction = "tap"'), encoding="utf-8")
    assert main(["run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "✗ the action is illegal: Bear is not an untapped permanent" in out
    assert "destroy" not in out


SCENARIO_HEAD = """\
name = "Bad input"

[[card]]
name = "Bear"
owner = "A"
start = "battlefield"
"""

BAD_INPUT = {
    "unknown-action": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destory"\ncard = "Bear"\n',
        9,
        "unknown action in step 1 'destory' (did you mean 'destroy'?)",
    ),
    "unknown-card": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bera"\n',
        10,
        "unknown card in step 1 'Bera' (did you mean 'Bear'?)",
    ),
    "unknown-card-in-expectation": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ card = "Wolf", zone = "graveyard" }]\n',
        11,
        "unknown card in step 1 expectation 'Wolf'",
    ),
    "unknown-step-key": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncrad = "Bear"\n',
        10,
        "step 1: unknown key 'crad' (did you mean 'card'?)",
    ),
    "unknown-card-key": (
        SCENARIO_HEAD.replace('start = "battlefield"', 'strat = "battlefield"'),
        6,
        "a [[card]]: unknown key 'strat' (did you mean 'start'?)",
    ),
    "unknown-expectation-key": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ card = "Bear", zoen = "graveyard" }]\n',
        11,
        "step 1 expectation: unknown key 'zoen' (did you mean 'zone'?)",
    ),
    "illegal-a-number": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nillegal = 405.5\n',
        11,
        'step 1: `illegal` is true or, in quotes, why the rules refuse the step, as in illegal = "405.5" or illegal = "not the top of the stack"; not 405.5',
    ),
    "illegal-empty": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nillegal = " "\n',
        11,
        'step 1: `illegal` is empty; write why the rules refuse the step, as in illegal = "405.5", or illegal = true',
    ),
    "zone-expectation-without-size": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "battlefield" }]\n',
        11,
        'step 1: an expectation of a zone states its `size`, the number of cards in it (0 or more), as in { zone = "battlefield", size = 1 }',
    ),
    "zone-expectation-negative-size": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "stack", size = -1 }]\n',
        11,
        "step 1: an expectation of a zone states its `size`",
    ),
    "zone-expectation-size-true": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "stack", size = true }]\n',
        11,
        "step 1: an expectation of a zone states its `size`",
    ),
    "personal-zone-without-player": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "graveyard", size = 1 }]\n',
        11,
        'step 1: each player has a graveyard; name whose: { zone = "graveyard", player = "A", size = 1 }',
    ),
    "shared-zone-with-player": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "stack", player = "A", size = 0 }]\n',
        11,
        'step 1: the stack is shared by the players; an expectation of it names no `player`: { zone = "stack", size = 1 }',
    ),
    "zone-expectation-unknown-player": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "library", player = "C", size = 0 }]\n',
        11,
        "unknown player in step 1 expectation 'C'",
    ),
    "zone-expectation-not-a-zone": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "outside", player = "A", size = 0 }]\n',
        11,
        "unknown zone in step 1 expectation 'outside'",
    ),
    "zone-expectation-unknown-key": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ zone = "stack", szie = 0 }]\n',
        11,
        "step 1 expectation of a zone: unknown key 'szie' (did you mean 'size'?)",
    ),
    "size-of-a-card": (
        SCENARIO_HEAD + '\n[[step]]\naction = "destroy"\ncard = "Bear"\nexpect = [{ card = "Bear", zone = "graveyard", size = 1 }]\n',
        11,
        'step 1: `size` is the number of cards in a zone, expected of a zone and no card: { zone = "stack", size = 1 }',
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_scenario_input_is_one_line_naming_file_and_line(case, capsys, tmp_path):
    text, line, message = BAD_INPUT[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    good = SCENARIOS / "stolen-creature-dies.toml"
    code = main(["run", str(good), str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""  # nothing runs when an input is bad
    assert err.count("\n") == 1
    assert err.startswith(f"zoneproof: {path}:{line}: error: ")
    assert message in err
    assert text.splitlines()[line - 1].strip()  # the named line is the offending one, not a blank


def test_malformed_toml_names_file_and_line(capsys, tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('name = "Broken"\n\n[[card]]\nname = "Bear\nowner = "A"\n', encoding="utf-8")
    code = main(["run", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"zoneproof: {path}:4:")
    assert "malformed TOML" in err


def test_missing_scenario_file_is_bad_input(capsys, tmp_path):
    code = main(["run", str(tmp_path / "nowhere.toml")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "nowhere.toml" in err and "cannot read scenario file" in err


def test_an_itf_trace_given_to_run_is_replayed(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-lint", "mtg-current", "-w", "400.8", "-p", "exile-in-exile"]) == 1
    capsys.readouterr()
    trace = Path("counterexamples") / "mtg-current--without-400.8--exile-in-exile.itf.json"
    assert trace.is_file()
    good = SCENARIOS / "exile-from-exile-without-400-8.toml"
    code = main(["run", str(trace), str(good)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert err == ""
    assert f"replaying {trace}: exile-in-exile under mtg-current without 400.8" in out
    assert "✓ confirmed: the violation is at step" in out
    assert out.splitlines()[-1] == "1 scenarios: 1 passed, 0 failed"
    code = main(["run", str(trace)])
    out, _ = capsys.readouterr()
    assert code == 0 and "✓ confirmed" in out and "scenarios:" not in out


HONEST = """
name = "padding and exile"
cites = ["400.3", "405.1"]
ruleset = "{ruleset}"

[[card]]
name = "Bear"
owner = "A"

[[card]]
name = "{second}"
owner = "A"

[[step]]
action = "exile"
card = "Bear"
expect = [{{ card = "Bear", position = "top" }}]
"""


def write_honest(tmp_path, ruleset="mtg-current", second="Wolf", cites=None) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir(exist_ok=True)
    text = HONEST.format(ruleset=ruleset, second=second)
    if cites is not None:
        text = text.replace('cites = ["400.3", "405.1"]', f"cites = {cites}")
    path = folder / "honest.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_scenario_shows_its_padding_the_cites_outside_its_rule_set_and_says_a_card_in_exile_has_no_place(capsys, tmp_path):
    code = main(["run", str(write_honest(tmp_path))])
    out = capsys.readouterr().out
    assert code == 1
    assert "cites 400.3, 405.1; 405.1 not in mtg-current" in out
    assert "also in the game (so that every player has as many cards of each kind): B1 (library/B), B2 (library/B)" in out
    assert "Bear: expected position = 'top', but it is in exile, where cards have no order" in out


def test_a_scenario_refuses_a_malformed_cite_and_a_card_named_like_a_padded_one_reporting_both(capsys, tmp_path):
    path = write_honest(tmp_path, second="B1", cites='["400.3", "999.9zz"]')
    code = main(["run", str(path)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 2
    assert err[0].startswith(f"zoneproof: {path}:3: error: `cites` names '999.9zz', which is not a rule number")
    assert err[1].startswith(f"zoneproof: {path}:11: error: card 'B1' has the name of a card of B's that the scenario adds")


def test_a_scenario_reads_its_rule_set_file_from_its_own_folder(capsys, tmp_path, monkeypatch):
    (tmp_path / "mine.toml").write_text((SCENARIOS.parent.parent / "model" / "mtg-current.toml").read_text(encoding="utf-8"), encoding="utf-8")
    path = write_honest(tmp_path, ruleset="../mine.toml")
    monkeypatch.chdir(tmp_path / "scenarios")
    code = main(["run", "honest.toml"])
    out, err = capsys.readouterr()
    assert code == 1 and err == "" and "not in mtg-current" in out
    monkeypatch.chdir(SCENARIOS)
    assert main(["run", str(path)]) == 1


REASONS = SCENARIOS / "resolve-under-the-top-refused-citing-405-5.toml"


@pytest.mark.parametrize("reason, given", [
    ("405.5", True), ("(405.5)", True), ("not the top of the stack", True), ("NOT THE TOP OF THE STACK", True),
    ("Shock is not the top", True), ("405", False), ("405.55", False), ("05.5", False), ("stac", False), ("not on the stack", False),
])
def test_a_reason_is_matched_ignoring_case_and_never_inside_a_longer_word_or_rule_number(reason, given):
    assert refusal_matches(reason, "Shock is not the top of the stack (405.5)") is given


@pytest.mark.parametrize("message, given", [
    ("the library is empty (405.55)", False), ("x (405.5a)", False), ("x (103.5.keep-zero)", False), ("x 1405.5", False),
    ("x (405.5: a spell)", True), ("rule 405.5 closes it", True), ("fixed by 400.1, 405.5", True), ("405.5.", True),
])
def test_a_rule_number_matches_only_that_rule(message, given):
    assert refusal_matches("405.5", message) is given


def run_text(tmp_path, text: str, name: str = "reasons.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return run_scenario(load_scenario(path))


def test_a_refusal_for_the_stated_reason_passes_and_true_still_accepts_any_refusal(tmp_path):
    text = REASONS.read_text(encoding="utf-8")
    assert 'illegal = "405.5"' in text and 'illegal = "not the top of the stack"' in text
    assert run_text(tmp_path, text).passed
    assert run_text(tmp_path, text.replace('"not the top of the stack"', '"Not The Top Of The Stack"')).passed
    assert run_text(tmp_path, text.replace('illegal = "405.5"', "illegal = true").replace('illegal = "not the top of the stack"', "illegal = true")).passed


def test_a_refusal_for_another_reason_fails_naming_the_step_the_reason_and_the_refusal(capsys, tmp_path):
    path = tmp_path / "other-reason.toml"
    path.write_text(REASONS.read_text(encoding="utf-8").replace('illegal = "405.5"', 'illegal = "405.55"'), encoding="utf-8")
    result = run_scenario(load_scenario(path))
    assert [(f.step, f.message) for f in result.failures] == [
        (4, "expected the action to be illegal for '405.55', but it is illegal for another reason: Shock is not the top of the stack (405.5)"),
    ]
    assert len(result.steps) == 7  # the step is still refused: the run goes on
    assert main(["run", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    failing = lines.index("        ✗ expected the action to be illegal for '405.55', but it is illegal for another reason: Shock is not the top of the stack (405.5)")
    assert lines[failing - 1].strip().startswith("4.  resolve Shock")


def test_a_refusal_caused_by_a_malformed_step_does_not_pass_for_a_rule(tmp_path):
    text = REASONS.read_text(encoding="utf-8").replace('card = "Shock"\nillegal = "405.5"', 'card = "Shock"\nplayer = "A"\nillegal = "405.5"')
    [failure] = run_text(tmp_path, text).failures
    assert failure.step == 4 and failure.message.endswith("but it is illegal for another reason: resolve takes no player")
    assert run_text(tmp_path, text.replace('illegal = "405.5"', "illegal = true")).passed


def test_a_step_with_a_reason_that_is_carried_out_fails(tmp_path):
    [failure] = run_text(tmp_path, WRONG.replace('expect = [{ card = "Bear", zone = "hand", whose = "A" }]', 'illegal = "400.3"')).failures
    assert failure.step == 2 and failure.message == "expected the action to be illegal for '400.3', but it was carried out"


def test_zone_sizes_are_checked_for_shared_and_personal_zones(tmp_path):
    text = WRONG.replace('expect = [{ card = "Bear", zone = "hand", whose = "A" }]',
                         'expect = [{ zone = "battlefield", size = 1 }, { zone = "graveyard", player = "A", size = 0 }, { zone = "graveyard", player = "B", size = 0 }]')
    assert [(f.step, f.message) for f in run_text(tmp_path, text).failures] == [
        (2, "battlefield: expected size = 1, got 0"), (2, "graveyard/A: expected size = 0, got 1"),
    ]


PILES = """\
name = "The trace's cards"
cites = ["405.5"]
ruleset = "mine.toml"

[[card]]
name = "A1"
owner = "A"
type = "instant"
start = "hand"

[[card]]
name = "A2"
owner = "A"

[[card]]
name = "B1"
owner = "B"
type = "instant"
start = "hand"

[[card]]
name = "B2"
owner = "B"
"""


def trace_of(tmp_path, moves: list[tuple[str, str, int]]) -> tuple[Trace, dict]:
    """A trace of the moves (action, card, player), from the start PILES describes (its cards have
    the names a check gives them)."""
    (tmp_path / "mine.toml").write_text((SCENARIOS.parent.parent / "model" / "mtg-current.toml").read_text(encoding="utf-8"), encoding="utf-8")
    scenario = parse_scenario(PILES, str(tmp_path / "piles.toml"))
    world, state, steps = scenario.world, scenario.start, []
    for kind, card, player in moves:
        action = Action(ActionKind(kind), card=scenario.names[card], player=player)
        outcome = apply(world, state, action)
        steps.append(Step(action, outcome.state, outcome.rules))
        state = outcome.state
    trace = Trace(**of_ruleset(world.ruleset), property_id="conflict", property_cites=(), property_kind="step", property_text="",
                  scope=Scope(players=2, cards=2, sideboard=0, tokens=0), seed=0, card_types=world.card_types,
                  initial=scenario.start, steps=tuple(steps), violation_step=len(steps))
    return trace, scenario.names


@pytest.mark.parametrize("refused, reason", [
    ("resolve A1", "405.5"),  # the refusal cites one rule: its number
    ("discard A2", "A2 is not in a hand"),  # none: the whole message
])
def test_a_written_scenario_names_the_reason_of_its_refused_last_step_and_passes(tmp_path, refused, reason):
    kind, card = refused.split()
    trace, names = trace_of(tmp_path, [("cast", "A1", 0), ("cast", "B1", 1)])
    path = tmp_path / "out" / "written.scenario.toml"  # a new folder, where the rule set is "../mine.toml"
    write_scenario(trace, "no legal outcome", path, refused=Action(ActionKind(kind), card=names[card]))
    text = path.read_text(encoding="utf-8")
    assert 'ruleset = "../mine.toml"' in text
    assert text.count("illegal") == 1 and f'illegal = "{reason}"' in text
    result = run_scenario(load_scenario(path))
    assert result.passed and result.steps[-1] is None

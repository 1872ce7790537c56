"""zoneproof lint and coverage: planted dead action, vacuous property and conflicts, each reported
exactly; the mtg-current rule set clean with its declared findings; the coverage matrix as a golden."""

from pathlib import Path

from conftest import EXAMPLE_REPO, json_records, long, normalise
from zoneproof.lint import AT_EVERY_DEPTH

MODEL = Path(__file__).resolve().parent.parent / "model" / "mtg-current.toml"
SMALL = ("--depth", "2", "-p", "owner-zones")
NO_EXTRAS = ("--sideboard", "0", "--tokens", "0")
HOUSE = EXAMPLE_REPO / "model" / "house.toml"  # its house rule breaks owner-zones
LEAGUE = EXAMPLE_REPO / "model" / "league.toml"


def current_text(name: str) -> str:
    return MODEL.read_text(encoding="utf-8").replace('name = "mtg-current"', f'name = "{name}"', 1)


def closing_rule(rule_id: str, zone: str) -> str:
    return f"""
[[rule]]
id = "{rule_id}"
behaviour = "zone-closed"
zones = ["{zone}"]
summary = "Planted: nothing may enter the {zone}."
without = "The {zone} takes objects again."
"""


def lint_json(run, *args):
    code, out, err = run("lint", *args, "--format", "json")
    return code, json_records(out, "lint"), err


def test_a_planted_dead_action_is_reported_and_nothing_else_is_dead(run, tmp_path):
    text = current_text("no-command-entry")
    start = text.index('name = "move_to_command"')
    block_start = text.rindex("[[action]]", 0, start)
    block_end = text.index("[[action]]", start)
    (tmp_path / "dead.toml").write_text(text[:block_start] + text[block_end:], encoding="utf-8")
    # depth 5: every other action is taken by then (opening_hand_action first at depth 5)
    code, (report,), _ = lint_json(run, "dead.toml", "-p", "owner-zones", "--cards", "1", "--depth", "5")
    dead = {a["action"]: a["detail"] for a in report["actions"] if a["status"] == "dead" and not a["known"]}
    assert list(dead) == ["turn_face_down"]
    assert AT_EVERY_DEPTH in dead["turn_face_down"]  # with the lemma that nothing enters the command zone
    assert code == 1 and report["conflicts"] == []


def test_check_runs_lint_and_reports_a_planted_vacuous_property_as_vacuous_not_holds(run, tmp_path):
    (tmp_path / "mine.zp").write_text(
        'property face-down-from-hand {\n  cites 400.9\n  means "turning a card in a hand face down keeps it there"\n'
        "  step forall c: object. action.kind == turn_face_down and action.card == c and zone(c) == hand -> zone'(c) == hand\n}\n",
        encoding="utf-8",
    )
    code, out, _ = run("check", "mtg-current", "--properties", "mine.zp", "-p", "face-down-from-hand", "--depth", "2", "--cards", "1", "--format", "json")
    result, report = json_records(out)[:-1]
    assert result["property"] == "face-down-from-hand" and result["verdict"] == "vacuous"
    (finding,) = report["properties"]
    assert finding["status"] == "vacuous" and finding["known"] is None and code == 1


def test_a_planted_conflict_is_named_by_its_rule_and_written_as_a_scenario_that_runs(run, tmp_path):
    (tmp_path / "closed.toml").write_text(current_text("closed-graveyard") + closing_rule("999.1", "graveyard"), encoding="utf-8")
    code, (report,), _ = lint_json(run, "closed.toml", "--depth", "1", "-p", "owner-zones")
    (conflict,) = report["conflicts"]
    assert conflict["rules"] == ["999.1"] and conflict["step"] == 0 and code == 1
    assert "nothing may enter the graveyard" in conflict["event"]
    assert 'illegal = "999.1"' in Path(conflict["scenario"]).read_text(encoding="utf-8")  # the rule the refusal cites
    assert run("run", conflict["scenario"])[0] == 0  # the scenario confirms the event is refused


def test_an_impossible_start_of_the_game_is_a_conflict_named_by_its_rule(run, tmp_path):
    (tmp_path / "closed.toml").write_text(current_text("closed-library") + closing_rule("999.2", "library"), encoding="utf-8")
    code, (report,), _ = lint_json(run, "closed.toml", *SMALL)
    assert [c["rules"] for c in report["conflicts"]] == [["999.2"]] and report["conflicts"][0]["step"] == 0
    assert code == 1


def test_mtg_current_is_clean_with_its_declared_findings_and_witnesses_replay(run):
    code, (report,), _ = lint_json(run, "mtg-current", "--witness", "-p", "owner-zones", "-p", "stack-lifo")
    assert code == 0 and report["problems"] == 0 and report["conflicts"] == []
    known = {(a["action"], a["status"]) for a in report["actions"] if a["known"]}
    assert known == {("reorder", "dead")}
    # at the default scope every rule is live; the multiplayer free mulligan and the Vanguard hand
    # size in a larger game (lint.larger_games)
    rules = {r["rule"]: r for r in report["rules"]}
    assert [r for r, f in rules.items() if f["status"] not in ("live", "documented")] == []
    assert rules["103.5c"]["detail"].startswith("with 3 players, depth 9: ") and rules["103.5a"]["detail"].startswith("with the hand modifier B=+1: ")
    for prop in ("owner-zones", "stack-lifo"):
        [finding] = [p for p in report["properties"] if p["property"] == prop]
        assert finding["status"] == "triggered" and run("replay", finding["witness"])[0] == 0


def test_dead_declarations_are_validated(run, tmp_path):
    (tmp_path / "bad.toml").write_text(current_text("bad") + '\n[[dead]]\naction = "untap"\nreason = "x"\n', encoding="utf-8")
    code, out, err = run("lint", "bad.toml")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "bad.toml:" in err and "untap" in err


@long
def test_coverage_matrix_of_mtg_current(run, golden):
    code, out, _ = run("coverage", "mtg-current", "--cards", "2", "--depth", "2")
    golden("coverage-mtg-current-2x2-depth2.txt", normalise(out))
    assert code == 1  # at this small scope some modelled rules go unnoticed for no declared reason


def test_the_witness_of_a_property_is_that_of_a_trigger_that_fires(run, tmp_path):
    (tmp_path / "two.zp").write_text(
        'property two-triggers {\n  cites 400.3\n  means "the first trigger cannot fire, the second fires on the first draw"\n'
        "  step forall c: card. (zone(c) == hand and zone(c) == exile -> zone'(c) == hand)\n"
        "    and (action.kind == draw and action.card == c -> zone'(c) == hand)\n}\n",
        encoding="utf-8",
    )
    code, out, _ = run("lint", "mtg-current", "--properties", "two.zp", "-p", "two-triggers", "--depth", "1", "--witness", "--cards", "1", *NO_EXTRAS)
    assert "note      two-triggers: trigger 1 of 2 is vacuous within 1 steps" in out
    (line,) = [x for x in out.splitlines() if "witness   two-triggers" in x]
    assert "fires at step 1, trace written to" in line
    path = line.rsplit(" ", 1)[-1]
    assert run("replay", path)[0] == 0


@long
def test_findings_the_file_declares_are_still_searched_for_when_the_scope_grows(run):
    # The file declares nothing dead for lack of steps at the default depth 7; at depth 4, 400.7a and
    # stack-lifo's trigger are already live, and what needs more steps is reported, not hidden.
    code, (report,), _ = lint_json(run, "mtg-current", "--depth", "4", "-p", "owner-zones", "-p", "stack-lifo")
    rules = {r["rule"]: r["status"] for r in report["rules"]}
    assert rules["400.7a"] == "live" and rules["405.5"] == "dead"
    statuses = {p["property"]: p["status"] for p in report["properties"]}
    assert statuses == {"owner-zones": "triggered", "stack-lifo": "triggered"}
    dead_rules = {r for r, status in rules.items() if status == "dead"}
    assert {"405.5", "608.2b", "103.6"} <= dead_rules
    assert code == 1 and report["problems"] >= len(dead_rules)


def test_coverage_of_a_rule_set_that_already_fails_a_property_is_no_all_clear(run):
    # the example repository's house rules already violate owner-zones: removing any rule "breaks"
    # it, which says nothing about that rule
    code, out, _ = run("coverage", str(HOUSE), "-p", "owner-zones", "--cards", "1", "--sideboard", "0", "--depth", "2", "--jobs", "1")
    assert "warning: owner-zones is violated at depth 2 with every rule in force: its column is not applicable" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  ") and "." in line.split()[0] and len(line.split()) == 2]
    assert rows and {cell for _, cell in rows} <= {"na", "-"}
    assert "unguarded: 0 of" not in out
    assert code == 1  # rules no applicable property notices, for no declared reason


def test_a_conflict_the_interpreter_does_not_reproduce_is_a_checker_bug_exit_4(run, tmp_path, monkeypatch):
    import zoneproof.lint as lint_module

    (tmp_path / "closed.toml").write_text(current_text("closed-graveyard") + closing_rule("999.1", "graveyard"), encoding="utf-8")
    # an interpreter that carries out every action: the conflict Z3 finds does not replay
    monkeypatch.setattr(lint_module, "outcome_or_refusal", lambda world, state, action: state)
    code, (report,), err = lint_json(run, "closed.toml", "--cards", "1", *NO_EXTRAS, "--depth", "1", "-p", "owner-zones", "--jobs", "1")
    assert code == 4 and report["conflicts"] == []
    assert report["checker_bugs"] and "does not replay" in report["checker_bugs"][0]
    code, out, err = run("check", "closed.toml", "--cards", "1", *NO_EXTRAS, "--depth", "1", "-p", "owner-zones", "--jobs", "1")
    assert code == 4 and "Traceback" not in err and "error     a conflict found by Z3 does not replay" in out


def test_a_declaration_that_the_findings_contradict_is_a_stale_problem(run, tmp_path):
    """A rule set that declares a live action dead and a triggered property vacuous: both are
    problems (stale declarations), with the declared reason, and lint exits 1."""
    (tmp_path / "stale.toml").write_text(
        'extends = "mtg-current"\nname = "stale"\ntitle = "stale declarations"\n'
        '[[dead]]\naction = "draw"\nreason = "nobody draws"\n'
        '[[replace.expect]]\nproperty = "commander-return"\nverdict = "vacuous"\nreason = "no commanders"\n'
        '[[expect]]\nproperty = "owner-zones"\nverdict = "vacuous"\nreason = "nothing moves"\n', encoding="utf-8")
    code, (report,), _ = lint_json(run, "stale.toml", "--cards", "1", *NO_EXTRAS, "--depth", "3", "-p", "owner-zones", "-p", "commander-return")
    silent = [f for f in report["actions"] + report["rules"] + report["properties"] if f["status"] in ("dead", "vacuous") and not f["known"]]
    assert code == 1 and report["problems"] == 2 + len(silent)  # at depth 3 some rules are dead, undeclared
    [draw] = [a for a in report["actions"] if a["action"] == "draw"]
    assert draw["status"] == "live" and draw["stale"] == "nobody draws"
    stale = {p["property"]: p["stale"] for p in report["properties"]}
    assert stale == {"owner-zones": "nothing moves", "commander-return": None}  # commander-return is vacuous, as declared
    _, out, _ = run("lint", "stale.toml", "--cards", "1", *NO_EXTRAS, "--depth", "3", "-p", "owner-zones", "-p", "commander-return")
    assert "    stale     draw: the rule set declares it dead (nobody draws), but it is live" in out
    assert "    stale     owner-zones: the rule set declares it vacuous (nothing moves), but it is triggered" in out


def test_coverage_shows_a_property_proved_without_a_rule_as_still_holding(run):
    code, out, _ = run("coverage", str(LEAGUE), "-p", "owner-zones", "--cards", "1", "--sideboard", "0", "--depth", "3", "--jobs", "1")
    rows = dict(line.split() for line in out.splitlines() if line.startswith("  4") and len(line.split()) == 2)
    assert rows == {"400.3": "2", "400.7": ".", "404.1": "."}
    assert "    400.7    no property notices its removal: each is proved at every depth without it" in out


def test_coverage_asks_a_removal_only_of_the_properties_whose_checks_read_its_rule():
    """400.2 (hidden and public zones) decides only who may see what: neither the start of a game
    nor any step reads its literal, only properties that speak of what a player sees. 405.5 decides
    steps of the game, not of the pregame, where the mulligan's properties are checked. Coverage
    asks each removal of the properties it can change alone; the others keep the intact rule set's
    verdicts, which are the ones a check without the rule gives."""
    from dataclasses import replace

    from zoneproof.check import _intact_checks, check_properties, check_removals
    from zoneproof.model import Scope
    from zoneproof.properties import stock_properties
    from zoneproof.ruleset import load_ruleset

    mtg = load_ruleset("mtg-current")
    props = [p for p in stock_properties() if p.id in ("owner-zones", "hidden-zones", "tokens", "mulligan-hand-size")]
    scope = replace(Scope(), cards=1, depth=3)
    intact = _intact_checks(mtg, props, mtg.scope_for(scope), 0, 60.0)
    assert {rule: sorted(p.id for p in intact.asked_of(rule)) for rule in ["400.2", "405.5", "400.3"]} == {
        "400.2": ["hidden-zones"], "405.5": ["hidden-zones", "owner-zones", "tokens"], "400.3": sorted(p.id for p in props)}
    found = check_removals(mtg, ["400.2", "405.5"], props, scope)
    shown = lambda results: [(r.prop.id, r.verdict.value, r.depth) for r in results]  # noqa: E731
    for rule in ("400.2", "405.5"):
        assert shown(found.removed[rule]) == shown(check_properties(mtg.without([rule]), props, scope))
        assert [r.ruleset.removed for r in found.removed[rule]] == [(rule,)] * len(props)


def test_coverage_gives_the_same_matrix_with_one_job_or_with_a_task_per_removal(run):
    """With more than one job each removal is a task of its own, taken by whichever worker is free;
    the matrix is the one a single process prints, but for the seconds."""
    args = ("coverage", "berserk", "-p", "owner-zones", "-p", "tokens", "--cards", "1", "--depth", "3")
    (code, one, _), (code_two, two, _) = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert code == code_two and normalise(one) == normalise(two)
    assert "  203.4            2  ." in one.splitlines()  # owner-zones broken at depth 2, tokens proved
    assert "no property notices its removal: each is proved at every depth without it" in one


def test_a_process_checks_the_intact_rule_set_once_for_the_removals_it_is_given_in_turn(monkeypatch):
    """A worker given removals one at a time checks the unmodified rule set with the first and keeps
    it: the removals' results are those of one call for all of them."""
    from dataclasses import replace

    from zoneproof import check
    from zoneproof.model import Scope
    from zoneproof.properties import stock_properties
    from zoneproof.ruleset import load_ruleset

    mtg = load_ruleset("mtg-current")
    props = [p for p in stock_properties() if p.id in ("owner-zones", "stack-lifo", "tokens")]
    scope = replace(Scope(), cards=1, depth=3)
    together = check.check_removals(mtg, ["400.3", "405.5"], props, scope)
    monkeypatch.setattr(check, "_intact_found", {})
    asked = []
    each_checked = check._each_checked
    monkeypatch.setattr(check, "_each_checked", lambda ruleset, *args, **kw: asked.append(ruleset.removed) or each_checked(ruleset, *args, **kw))
    first, second = (check.check_removals(mtg, [rule], props, scope) for rule in ("400.3", "405.5"))
    assert asked == [(), ("400.3",), ("405.5",)]
    shown = lambda results: [(r.prop.id, r.verdict.value, r.depth) for r in results]  # noqa: E731
    assert shown(first.baseline) == shown(second.baseline) == shown(together.baseline)
    assert {**first.removed, **second.removed}.keys() == together.removed.keys()
    for rule, results in together.removed.items():
        assert shown({**first.removed, **second.removed}[rule]) == shown(results)
    assert any(r.verdict.value == "violated" for results in together.removed.values() for r in results)


def test_coverage_gives_each_removal_the_verdicts_and_depths_of_a_check_without_the_rule():
    """Coverage starts each removal from the intact rule set's invariant and proves first; a check
    with the rule removed (`--without`) starts from every lemma. They must agree, proved included.
    Berserk expects new-object violated: with every rule in force it is, so its column is not
    applicable and no removal checks it; removing 205.4.markers breaks markers-kept."""
    from dataclasses import replace

    from zoneproof.check import check_properties, check_removals
    from zoneproof.model import Scope
    from zoneproof.properties import stock_properties
    from zoneproof.ruleset import load_ruleset

    berserk = load_ruleset("berserk")
    props = [p for p in stock_properties() if p.id in ("owner-zones", "new-object", "ordered-zones", "tokens", "markers-kept")]
    scope = replace(Scope(), cards=2, depth=3)
    rules = ["205.4.markers", "204.4"]
    found = check_removals(berserk, rules, props, scope)
    shown = lambda results: [(r.prop.id, r.verdict.value, r.depth) for r in results]  # noqa: E731
    assert shown(found.baseline) == shown(check_properties(berserk, props, scope))
    assert ("new-object", "violated", 3) in shown(found.baseline)
    applicable = [p for p in props if p.id != "new-object"]
    for rule in rules:
        assert shown(found.removed[rule]) == shown(check_properties(berserk.without([rule]), applicable, scope))
    assert ("markers-kept", "violated", 3) in shown(found.removed["205.4.markers"])
    assert ("owner-zones", "proved", 3) in shown(found.removed["204.4"])
    from zoneproof.replay import replay_trace
    for rule, results in found.removed.items():
        for r in results:
            if r.verdict.value == "violated":  # the model that found it, not one asked alone: replayed all the same
                replay, _, _ = replay_trace(r.trace, f"{rule} {r.prop.id}")
                assert replay.confirms(r.depth), (rule, r.prop.id)


def test_coverage_asks_a_property_whose_intact_proof_needed_two_steps_over_two_steps_before_deeper_steps(monkeypatch):
    """mulligan-conserves is proved over two steps with every rule in force (the question over one
    step breaks it). With 401.7 removed, one step still does not prove it: coverage asks the
    question over two steps right after the property's first two steps, and proves it without a
    bounded question deeper; the verdicts are those of a check without the rule."""
    from dataclasses import replace

    from zoneproof import search
    from zoneproof.check import Verdict, _intact_checks, check_properties, check_removals
    from zoneproof.model import Scope
    from zoneproof.properties import stock_properties
    from zoneproof.ruleset import load_ruleset

    mtg = load_ruleset("mtg-current")
    props = [p for p in stock_properties() if p.id in ("mulligan-hand-size", "mulligan-conserves")]
    scope = replace(Scope(), cards=1, depth=4)
    intact = _intact_checks(mtg, props, mtg.scope_for(scope), 0, 60.0)
    assert {r.prop.id: r.certificate.steps for r in intact.baseline if r.verdict is Verdict.PROVED} == {"mulligan-hand-size": 2, "mulligan-conserves": 2}
    asked = []
    first_violations = search.Deepening.first_violations
    monkeypatch.setattr(search.Deepening, "first_violations",
                        lambda self, bounds, budget, start=0, **kw: asked.append((start, sorted(p.id for p in bounds))) or first_violations(self, bounds, budget, start, **kw))
    found = check_removals(mtg, ["401.7"], props, scope)
    assert [(start, ids) for start, ids in asked if start > 2 and ids] == []  # no step past the second
    assert (2, ["mulligan-conserves"]) in asked  # its second step, the base case of the proof over two steps
    shown = lambda results: [(r.prop.id, r.verdict.value, r.depth) for r in results]  # noqa: E731
    assert shown(found.removed["401.7"]) == shown(check_properties(mtg.without(["401.7"]), props, scope))
    assert all(r.verdict is Verdict.PROVED for r in found.removed["401.7"])


def test_the_smaller_game_is_two_cards_a_player_and_nothing_else():
    from zoneproof.lint import smaller_game
    from zoneproof.model import Scope
    from zoneproof.ruleset import load_ruleset

    current, commander = load_ruleset("mtg-current"), load_ruleset("mtg-commander")
    assert smaller_game(current, Scope()) == Scope(cards=2, sideboard=0, tokens=0)
    # a Commander deck of two cards: the commander and one more (903.5a)
    assert smaller_game(commander, commander.scope_for(Scope())) == Scope(cards=1, commanders=1, sideboard=0, tokens=0)
    assert smaller_game(current, Scope(cards=2, sideboard=0, tokens=0)) is None


def test_the_token_game_is_one_card_and_one_token_slot_a_player():
    from zoneproof.lint import token_game
    from zoneproof.model import Scope
    from zoneproof.ruleset import load_ruleset

    current, commander = load_ruleset("mtg-current"), load_ruleset("mtg-commander")
    assert token_game(current, Scope()) == Scope(cards=1, sideboard=0, tokens=1, hand=1)
    assert token_game(commander, commander.scope_for(Scope())) == Scope(cards=0, commanders=1, sideboard=0, tokens=1, hand=1)
    assert token_game(current, Scope(tokens=0)) is None


def test_a_run_of_the_smaller_game_is_a_witness_of_the_scope_only_where_it_replays_to_its_goal():
    """Two spells on the stack and the lower one resolving: 405.5's step, found in the smaller game
    and replayed from the start of the default scope."""
    from zoneproof.lint import renamed_action
    from zoneproof.model import Action, ActionKind as K, CardType, Scope, slots_for
    from zoneproof.ruleset import load_ruleset
    from zoneproof.explicit import StateSpace
    from zoneproof.simulate import lifted_witness

    small, scope = slots_for(Scope(cards=2, sideboard=0, tokens=0)), Scope()
    a1, a2 = 0, 1
    run = [Action(K.DRAW, card=a1, player=0), Action(K.DRAW, card=a2, player=0), Action(K.CAST, card=a1, player=0),
           Action(K.CAST, card=a2, player=0), Action(K.RESOLVE, card=a1)]
    actions = [renamed_action(a, small, slots_for(scope)) for a in run]
    types = {"A1": CardType.INSTANT, "A2": CardType.INSTANT}
    space = StateSpace(load_ruleset("mtg-current"), scope)
    witness = lifted_witness(space, "405.5", types, actions)
    assert witness is not None and witness.depth == 4
    last = witness.trace.steps[-1].action
    assert (last.kind, witness.trace.slots[last.card].name) == (K.RESOLVE, "A1")
    assert lifted_witness(space, "405.5", types, actions[:4]) is None


def test_one_run_found_for_one_goal_is_a_witness_of_every_other_goal_it_reaches():
    """The run of two spells on the stack, the upper one resolving first: besides `stack-lifo`'s
    second trigger (a spell resolving with another below it) and its first (one cast onto another),
    it reaches 400.7 (a drawn card is a new object), shrunk to the first draw, and not 405.5 (the
    top resolves) or 400.3."""
    from zoneproof.model import Action, ActionKind as K, CardType, Scope, slots_for
    from zoneproof.ruleset import load_ruleset
    from zoneproof.explicit import StateSpace
    from zoneproof.lint import _trigger_probes, _triggers
    from zoneproof.properties import stock_properties
    from zoneproof.simulate import reached_on

    scope = Scope()
    a1, a2 = (next(s.index for s in slots_for(scope) if s.name == name) for name in ("A1", "A2"))
    run = [Action(K.DRAW, card=a1, player=0), Action(K.DRAW, card=a2, player=0), Action(K.CAST, card=a1, player=0),
           Action(K.CAST, card=a2, player=0), Action(K.RESOLVE, card=a2)]
    types = {"A1": CardType.CREATURE, "A2": CardType.INSTANT}
    lifo = next(p for p in stock_properties() if p.id == "stack-lifo")
    probes = {q.id: q for q in _trigger_probes(lifo, _triggers(lifo))}
    violated, changed = reached_on(StateSpace(load_ruleset("mtg-current"), scope), types, run, list(probes.values()),
                                   ["405.5", "400.7", "400.3"])
    assert {p.id: w.depth for p, w in violated.items()} == {"stack-lifo--trigger-1": 4, "stack-lifo--trigger-2": 5}
    assert set(changed) == {"400.7"}
    assert [(s.action.kind, changed["400.7"].depth) for s in changed["400.7"].trace.steps] == [(K.DRAW, 0)]


@long
def test_the_smaller_game_changes_no_finding(run, monkeypatch):
    import zoneproof.lint

    args = ("mtg-current", "--depth", "5", "-p", "stack-lifo", "-p", "new-object")

    def statuses():
        _, (report,), _ = lint_json(run, *args)
        return {(section, f.get("action") or f.get("rule") or f.get("property")): f["status"]
                for section in ("actions", "rules", "properties") for f in report[section]}

    with_it = statuses()
    monkeypatch.setattr(zoneproof.lint, "smaller_game", lambda ruleset, scope: None)
    assert statuses() == with_it


def test_declared_silent_goals_are_proved_before_the_smaller_game_and_a_wrong_declaration_is_still_found(run, tmp_path, monkeypatch):
    """The triggers of a property the file expects vacuous are tried with the lemmas before the
    smaller game: `commander-return`'s, which never fires without commanders, is proved and never
    asked there. `fizzle`, wrongly declared vacuous, fails its proof, is found in the smaller game
    and reported stale. A rule whose removal changes a player's view (400.2) is not looked for there."""
    import zoneproof.lint

    asked: list = []
    in_smaller_game = zoneproof.lint._Sweep._in_smaller_game

    def recorded(self, goals, budget, start, game=None):
        asked.extend(key.id if hasattr(key, "id") else key for key in goals)
        return in_smaller_game(self, goals, budget, start, game)

    monkeypatch.setattr(zoneproof.lint._Sweep, "_in_smaller_game", recorded)
    (tmp_path / "wrong.toml").write_text(
        'extends = "mtg-current"\nname = "wrong"\ntitle = "a wrong declaration"\n'
        '[[expect]]\nproperty = "fizzle"\nverdict = "vacuous"\nreason = "never fizzles"\n', encoding="utf-8")
    code, (report,), _ = lint_json(run, "wrong.toml", *NO_EXTRAS, "--cards", "1", "--depth", "5", "-p", "fizzle", "-p", "commander-return", "--jobs", "1")
    findings = {p["property"]: (p["status"], p["known"], p["stale"]) for p in report["properties"]}
    assert findings["fizzle"] == ("triggered", None, "never fizzles") and code == 1
    assert findings["commander-return"][:2] == ("vacuous", load_reason("commander-return"))
    assert "fizzle--trigger" in asked and "commander-return--trigger" not in asked
    assert ("changes a step", "400.2") not in asked


def load_reason(property_id: str) -> str:
    from zoneproof.ruleset import load_ruleset

    return load_ruleset("mtg-current").expected(property_id).reason

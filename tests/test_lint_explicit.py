"""lint's verdicts that rest on Z3's "unsat", found again by the explicit-state search.

A dead action, a vacuous property (or one vacuous trigger of it) and a dead rule are all claims
that something never happens within the scope; Z3 says so by answering unsat. The explicit search
(zoneproof.explicit) visits every reachable state through the interpreter, so it can look for
the same thing directly:

- an action is dead when no step taken from a state reachable within depth - 1 steps is of its kind;
- a trigger is vacuous when no reachable state (always) or step (step properties) satisfies it;
- a rule is dead when, in every state reachable within depth - 1 steps, the interpreter allows
  exactly the same steps (action and next state) with the rule and without it, and in every state
  reachable within depth steps every player sees the same faces with it and without it.

The live, triggered and rule-matters findings are compared as well: lint's witness takes the
action or fires the trigger at a step the explicit search reaches no earlier (a witness of lint's
is a run it found, shrunk, not always a shortest one). A disagreement names the rule set, the
finding and the run that shows it.

lint's "no conflict" at the start of a game (some deck can start one) is compared with the
interpreter's own check of the start. Its "no conflict" for the events (no action that applies but
has no legal outcome) is not: the interpreter does not tell an action that does not apply from
one left with no outcome.

In CI every built-in rule set runs at one player with one card, two steps, and the base games at
two players; ZONEPROOF_LONG=1 runs every built-in rule set at two players with two cards each,
three steps deep, and compares coverage's unnoticed rules of mtg-current with the explicit search.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest

from conftest import long
from zoneproof.coverage import coverage
from zoneproof.explicit import Node, StateSpace, Verdict, check_explicitly, chosen_deck, deck_types, outcomes
from zoneproof.interpreter import sees
from zoneproof.lint import AT_EVERY_DEPTH, Conflict, LintReport, Status, lint
from zoneproof.model import Action, Scope, slots_for
from zoneproof.properties import parse_properties, stock_properties
from zoneproof.report import describe_action
from zoneproof.ruleset import RuleSet, builtin_names, load_ruleset

PROPS = stock_properties()


# ---------------------------------------------------------------- the reachable states


@dataclass(frozen=True)
class Reached:
    """A state the explicit search reaches, the card types still open in it (packed), and a run
    from the start of the game that reaches it."""

    node: Node
    run: tuple[Action, ...]


def levels(space: StateSpace, depth: int) -> Iterator[list[Reached]]:
    """The states reachable in 0, 1, .. depth steps (each kept once per state and set of open
    types, unless a state kept before covers its types)."""
    kept: dict = {space.start.state: [space.start.types]}
    frontier = [Reached(space.start, ())]
    yield frontier
    for _ in range(depth):
        following = []
        for reached in frontier:
            for step in space.successors(reached.node):
                known = kept.setdefault(step.state, [])
                if any(step.types & ~types == 0 for types in known):
                    continue
                known.append(step.types)
                following.append(Reached(Node(step.state, step.types), reached.run + (step.action,)))
        yield following
        frontier = following


def shown(space: StateSpace, types: int, run: tuple[Action, ...]) -> str:
    deck = deck_types(chosen_deck(types, len(space.slots)), len(space.slots))
    cards = ", ".join(f"{s.name}={t.value}" for s, t in zip(space.slots, deck))
    steps = "; ".join(describe_action(a, space.slots) for a in run) or "(the start of the game)"
    return f"deck {cards}: {steps}"


def trace_text(trace) -> str:
    slots = slots_for(trace.scope)
    cards = ", ".join(f"{s.name}={t.value}" for s, t in zip(slots, trace.card_types))
    return f"deck {cards}: " + ("; ".join(describe_action(s.action, slots) for s in trace.steps) or "(the start of the game)")


# ---------------------------------------------------------------- a rule that matters


def steps(space: StateSpace, reached: Reached) -> set[tuple]:
    """The steps from the reached state: (action, next state, open types), the rules cited left out."""
    return {(t.action, t.state, t.types) for t in space.successors(reached.node)}


def missing(steps, other: StateSpace, reached: Reached) -> str:
    """A step of `steps` (from the reached state) that the interpreter does not allow under `other`
    (it refuses it, or it ends elsewhere) for some deck within the step's open types, as a run; ""
    if there is none."""
    state = reached.node.state
    for action, after, types in steps:
        parts = other._split(lambda world, a=action: tuple((b, o.state) for b, o in outcomes(world, state, a)), types)
        for part, allowed in parts:
            if (action, after) not in allowed:
                return shown(other, part, reached.run + (action,))
    return ""


class Removals:
    """The reachable states of a rule set within the scope, for the question of lint's dead rules:
    does removing a rule change a step or a player's view?"""

    def __init__(self, ruleset: RuleSet, scope: Scope):
        self.ruleset, self.scope = ruleset, scope
        self.space = StateSpace(ruleset, scope)
        self.levels = list(levels(self.space, scope.depth))
        self.steps = [[steps(self.space, r) for r in found] for found in self.levels[:scope.depth]]

    def change(self, rule_id: str) -> str:
        """How removing the rule changes a step or a player's view, as a run; "" when it changes
        neither."""
        removed = self.ruleset.without([rule_id])
        without = StateSpace(removed, self.scope)
        for level, found in enumerate(self.levels):
            for i, reached in enumerate(found):
                seen = view_changed(self.ruleset, removed, self.space, reached)
                if seen:
                    return seen
                if level == self.scope.depth:
                    continue
                with_it, without_it = self.steps[level][i], steps(without, reached)
                if with_it == without_it:  # the same steps under the same open types: the same for every deck
                    continue
                taken = missing(with_it - without_it, without, reached)
                if taken:
                    return f"with it, not without it: {taken}"
                taken = missing(without_it - with_it, self.space, reached)
                if taken:
                    return f"without it, not with it: {taken}"
        return ""


def view_changed(ruleset: RuleSet, without: RuleSet, space: StateSpace, reached: Reached) -> str:
    state = reached.node.state
    for p in range(space.scope.players):
        for c, slot in enumerate(space.slots):
            if sees(ruleset, state, p, c) != sees(without, state, p, c):
                return f"who sees {slot.name} changes after {shown(space, reached.node.types, reached.run)}"
    return ""


# ---------------------------------------------------------------- actions and triggers


def probe(name: str, cites: tuple[str, ...], kind: str, condition: str):
    """A property that the condition never holds: violated where it does."""
    text = f'property {name} {{\n  cites {", ".join(cites)}\n  means "never {name}"\n  {kind} not ({condition})\n}}\n'
    return parse_properties(text, "<cross-check>")[0]


def disagreements(report: LintReport) -> list[str]:
    """Every finding of the lint report that the explicit search contradicts."""
    ruleset, scope = report.ruleset, report.scope
    assert report.count(Status.UNKNOWN) == report.count(Status.ERROR) == 0, [f for f in report.findings if f.status in (Status.UNKNOWN, Status.ERROR)]
    # lint's claims: (probe, what lint says, the step it gives when live)
    claims = {}
    cites = {a.kind: a.cites for a in ruleset.actions}
    for a in report.actions:
        name = f"action-{a.action.value.replace('_', '-')}"
        claims[name] = (probe(name, cites[a.action], "step", f"action.kind == {a.action.value}"), a.status, a.step)
    for f in report.properties:
        for i, t in enumerate(f.triggers, start=1):
            name = f"{f.prop.id}--trigger-{i}"
            claims[name] = (probe(name, f.prop.cites, f.prop.kind.value, t.text), t.status, t.step)
    exploration = check_explicitly(ruleset, [p for p, _, _ in claims.values()], scope)
    assert not exploration.budget_reached
    wrong = []
    starts = StateSpace(ruleset, scope).start is not None
    if starts == any(c.step == 0 and c.trace is None for c in report.conflicts):
        wrong.append(f"{ruleset.label}: lint says the start of a game is {'impossible' if starts else 'possible'}; the interpreter {'allows' if starts else 'refuses'} it")
    for result in exploration.results:
        name = result.prop.id
        _, status, step = claims[name]
        assert result.verdict in (Verdict.VIOLATED, Verdict.HOLDS), f"{ruleset.label} {name}: {result.reason}"
        happens = result.verdict is Verdict.VIOLATED
        if status in (Status.DEAD, Status.VACUOUS) and happens:
            wrong.append(f"{ruleset.label} {name}: lint says {status.value}, the explicit search reaches it at step {result.depth}: {trace_text(result.trace)}")
        elif status in (Status.LIVE, Status.TRIGGERED) and (not happens or result.depth > step):
            found = f"first at step {result.depth}" if happens else "never"
            wrong.append(f"{ruleset.label} {name}: lint says {status.value} at step {step}, the explicit search finds it {found}")
    removals = Removals(ruleset, scope)
    for finding in report.rules:  # a rule live in a larger game only is test_lint.py's
        if finding.status in (Status.DEAD, Status.LIVE) and not finding.game:
            change = removals.change(finding.rule)
            if finding.status is Status.DEAD and change:
                wrong.append(f"{ruleset.label} rule {finding.rule}: lint says dead; removing it changes something: {change}")
            if finding.status is Status.LIVE and not change:
                wrong.append(f"{ruleset.label} rule {finding.rule}: lint says it matters ({finding.detail}); the explicit search finds no change")
    return wrong


# The scopes of the cross-check in CI (CPU seconds measured on a 2-core machine, lint and the
# explicit search together, for all nine rule sets: two players with one card each, no sideboard
# or token, two steps: 39 s; one player with two cards, two steps: 24 s; with one card, three
# steps: 23 s; with one card, two steps: 15 s). Every rule set at one player with one card, two
# steps; the base games (mtg-current, Berserk) at two players too, where the rules about whose
# zone a card goes to act; ZONEPROOF_LONG=1 adds every rule set at two players with two cards, three steps.
ONE_PLAYER = Scope(players=1, cards=1, sideboard=0, tokens=0, depth=2, hand=1)
TWO_PLAYERS = Scope(players=2, cards=1, sideboard=0, tokens=0, depth=2, hand=1)


@pytest.mark.parametrize("name", builtin_names())
def test_the_explicit_search_confirms_every_finding_of_lint_of_every_rule_set_at_one_player(name):
    assert disagreements(lint(load_ruleset(name), PROPS, ONE_PLAYER)) == []


@pytest.mark.parametrize("name", ["mtg-current", "berserk"])
def test_the_explicit_search_confirms_every_finding_of_lint_of_the_base_games_at_two_players(name):
    assert disagreements(lint(load_ruleset(name), PROPS, TWO_PLAYERS)) == []


@long
@pytest.mark.parametrize("name", builtin_names())
def test_every_lint_finding_of_every_rule_set_is_confirmed_at_two_cards_and_three_steps(name):
    scope = Scope(players=2, cards=2, sideboard=1, tokens=1, depth=3)
    assert disagreements(lint(load_ruleset(name), PROPS, scope)) == []


@long
def test_every_rule_whose_removal_coverage_says_no_property_notices_is_unnoticed_by_the_explicit_search():
    """coverage's "no property notices its removal" rests on Z3's unsat for each property with
    the rule removed: the explicit search finds no violation of any of them either."""
    ruleset = load_ruleset("mtg-current")
    props = [p for p in PROPS if p.id in ("owner-zones", "one-zone", "exile-in-exile", "tokens", "hidden-zones")]
    unnoticed = [row.rule for row in coverage(ruleset, props, TWO_PLAYERS).rows if row.reason.startswith("no property")]
    assert "400.7" in unnoticed  # the scope is small: most rules go unnoticed by these five
    for rule in unnoticed:
        found = check_explicitly(ruleset.without([rule]), props, TWO_PLAYERS)
        assert not found.budget_reached
        assert [(r.prop.id, r.verdict) for r in found.results if r.verdict is not Verdict.HOLDS] == [], rule


def test_a_wrong_dead_or_vacuous_finding_is_named_with_the_run_that_refutes_it():
    """lint's findings of a small game, with a live rule, a live action and a fired trigger
    turned into dead and vacuous ones: each is reported with a run that shows it happens."""
    scope = Scope(players=1, cards=1, sideboard=0, tokens=0, depth=2)
    report = lint(load_ruleset("mtg-current"), [p for p in PROPS if p.id == "owner-zones"], scope)
    assert disagreements(report) == []
    rule = next(f for f in report.rules if f.rule == "400.7")
    action = next(f for f in report.actions if f.action.value == "draw")
    [prop] = report.properties
    wrong = replace(
        report,
        rules=tuple(replace(f, status=Status.DEAD) if f is rule else f for f in report.rules),
        actions=tuple(replace(f, status=Status.DEAD) if f is action else f for f in report.actions),
        properties=(replace(prop, status=Status.VACUOUS, triggers=tuple(replace(t, status=Status.VACUOUS) for t in prop.triggers)),),
    )
    found = disagreements(wrong)
    assert len(found) == 3
    assert found[0].startswith("mtg-current action-draw: lint says dead, the explicit search reaches it at step 1: deck A1=")
    assert found[0].endswith(": draw A1 player=A")
    assert found[1].startswith("mtg-current owner-zones--trigger-1: lint says vacuous, the explicit search reaches it at step 0: deck A1=land: (the start of the game)")
    assert found[2].startswith("mtg-current rule 400.7: lint says dead; removing it changes something: with it, not without it: deck A1=")
    impossible_start = replace(report, conflicts=(Conflict(("400.1",), "the start of a game", 0, None, None),))
    assert disagreements(impossible_start) == ["mtg-current: lint says the start of a game is impossible; the interpreter allows it"]



# One player with one card, four steps: lint tries the goals it has not reached within two steps
# with the structural lemmas (lint.PROOF_FROM_DEPTH), after random runs. The explicit search
# cannot visit every state (an identity grows with every zone change), so what lint proves at
# every depth is compared with it to five steps (mtg-current: 9 s of CPU, 17 s to six, 32 s to
# seven). In CI the base games; ZONEPROOF_LONG=1 every rule set, to seven steps.
DEEPER = replace(ONE_PLAYER, depth=4)
FURTHER = replace(ONE_PLAYER, depth=7 if os.environ.get("ZONEPROOF_LONG") else 5)


def at_every_depth(report: LintReport) -> LintReport:
    """The findings of the report that lint proved at every depth, and nothing else."""
    props = tuple(replace(f, triggers=tuple(t for t in f.triggers if t.every_depth)) for f in report.properties)
    return replace(
        report, scope=FURTHER, conflicts=(),
        actions=tuple(f for f in report.actions if AT_EVERY_DEPTH in f.detail),
        rules=tuple(f for f in report.rules if AT_EVERY_DEPTH in f.detail),
        properties=tuple(f for f in props if f.triggers),
    )


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in ("mtg-current", "berserk") else long) for n in builtin_names()])
def test_the_explicit_search_confirms_lint_where_it_proves_findings_at_every_depth(name):
    """lint at four steps agrees with the explicit search to four steps; each finding it proves at
    every depth agrees with the search to five steps (seven with ZONEPROOF_LONG=1). A rule proved
    dead at every depth is searched to the further depth only: its first steps are the same."""
    report = lint(load_ruleset(name), PROPS, DEEPER)
    proved = at_every_depth(report)
    assert proved.findings, "lint proved nothing at every depth"
    assert disagreements(replace(report, rules=tuple(f for f in report.rules if f not in proved.rules))) == []
    assert disagreements(proved) == []

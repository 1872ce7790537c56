"""The interpreter and the Z3 encoder as each other's oracle.

interpreter -> encoder: Hypothesis builds random legal runs in the interpreter (random card types,
under mtg-current and with random rules removed) and the encoder must admit exactly that run:
with every state variable, every action field and every card type fixed to the interpreter's
values the unrolled transition relation is satisfiable, and with only the action fields fixed it
allows no other states. Long runs are checked the same way one step at a time, and hand-made
scenarios of the rules (the interpreter unit tests' situations) from the start.

encoder -> interpreter: random models of the unrolled transition relation (random rules removed;
random action kinds, cards and card types fixed; random solver seeds) are decoded and replayed in
the interpreter with zoneproof.replay.execute, which must reach every recorded state.

The Commander rule sets (mtg-commander, mtg-commander-2020) get the same two directions on a
smaller scope of their own (one deck card, one token slot and one commander per player), with
runs that use the owner's choices: `to_command` on a move and the commanders state-based actions
list (`cards`).

Hypothesis runs 25 examples per direction for mtg-current by default, 6 per direction for
each other built-in rule set (mtg-2010, the 2015 ones, berserk, the Commander ones; the tests are parametrized by rule
set) and 5 long runs. Examples are cheap because nothing is rebuilt per example: each rule set's
relation is unrolled and bit-blasted once per session into a solver that is kept (see Relation),
the removed rules and the number of steps are assumptions, and a run's facts are pushed and popped.
The run generator draws among the legal actions the explicit search finds (zoneproof.explicit: the
encoder's whole action space). With
test_property_agreement.py the file takes a few minutes with `pytest -n 2` on a 2-core machine.
The environment variable ZONEPROOF_EXAMPLES sets the number for mtg-current (each other rule set
gets a quarter of it, the long runs an eighth) for a longer local run:

    ZONEPROOF_EXAMPLES=2000 pytest -q -n 2 tests/test_differential.py tests/test_property_agreement.py

A failing example takes minutes to shrink: each one solves a few Z3 queries. The kept solver's
models depend on the queries before as well as on the seed, so a failing encoder -> interpreter
example shows its decoded run (the numbered steps) and Hypothesis may call it flaky on replay.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import chain, combinations

import pytest
import z3
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from zoneproof.encode.system import TransitionSystem
from zoneproof.explicit import legal_steps
from zoneproof.interpreter import World, apply
from zoneproof.model import (
    PREGAME_ACTIONS,
    Action,
    ActionKind,
    CardType,
    GameState,
    Scope,
    SlotKind,
    Zone,
    initial_state,
    slots_for,
)
from zoneproof.replay import execute, state_difference
from zoneproof.semantics import spec
from zoneproof.ruleset import RuleSet, builtin_names, load_ruleset

K = ActionKind
EXAMPLES = int(os.environ.get("ZONEPROOF_EXAMPLES", "25"))
DIFFERENTIAL = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

EACH_OTHER_RULE_SET = settings(DIFFERENTIAL, max_examples=max(1, EXAMPLES // 4))  # every other rule set (eight of them)
LONG_RUNS = settings(DIFFERENTIAL, max_examples=max(1, EXAMPLES // 8))
LONG_RUN = 12

CURRENT = load_ruleset("mtg-current")
# The Vancouver mulligan (the Paris mulligan and the post-mulligan look) under the zone rules of
# mtg-current: the pregame actions that mtg-current does not have.
VANCOUVER = load_ruleset("mtg-2015-bfz")
# The Commander mulligan of 2015 (903.8: part of the hand set aside in exile, shuffled back on keeping).
COMMANDER = load_ruleset("mtg-2015-commander")
# Berserk (seed 004): its own zone rules, the deck search and its shuffle obligation (a player record).
BERSERK = load_ruleset("berserk")
# The rule sets checked in the base game's scope besides mtg-current: every other built-in rule set
# of the base game (the Commander rule sets have a scope of their own, below).
OTHER_BASES = [VANCOUVER, COMMANDER, BERSERK] + [load_ruleset(n) for n in ("mtg-2010", "mtg-2015-origins", "mtg-2015-commander-bfz")]
RULE_IDS = [r.id for r in CURRENT.rules]
KINDS = [a.kind for a in CURRENT.actions] + [a.kind for a in VANCOUVER.actions if a.kind not in [b.kind for b in CURRENT.actions]]
MAX_DEPTH = 5
HAND = 1  # the starting hand size: with two cards per player, room for a mulligan that shrinks the hand


def scope(depth: int) -> Scope:
    return Scope(players=2, cards=2, sideboard=1, tokens=1, depth=depth, hand=HAND)


@dataclass(frozen=True)
class Harness:
    """What a run is checked against: a rule set of the file (the removed rules are drawn per run),
    its scope's slots and the start of a game."""

    ruleset: RuleSet
    scope: Scope
    slots: tuple
    start: GameState

    @property
    def kinds(self) -> list[ActionKind]:
        return [a.kind for a in self.ruleset.actions]

    @property
    def commanders(self) -> list[int]:
        return commanders_among(self.slots)


def harness(ruleset: RuleSet, base: Scope) -> Harness:
    sc = ruleset.scope_for(base)
    slots = slots_for(sc)
    e = TransitionSystem(ruleset, replace(sc, depth=0))
    decks = {
        p: sorted((s.index for s in slots if s.owner == p and s.kind is SlotKind.CARD), key=e.start_position)
        for p in range(sc.players)
    }
    return Harness(ruleset, sc, slots, initial_state(slots, decks, pregame_players=sc.players if ruleset.tracks_players else 0))


SLOTS = slots_for(scope(MAX_DEPTH))
A, B = 0, 1
A1, A2, A_SB, A_TOK, B1, B2, B_SB, B_TOK = range(len(SLOTS))  # checked in test_the_start_state_...


def start_state(base: RuleSet = CURRENT) -> GameState:
    """The start of a game with each library in the order the encoder fixes (A1 on top)."""
    e = TransitionSystem(base, scope(MAX_DEPTH))
    decks = {
        p: sorted((s.index for s in SLOTS if s.owner == p and s.kind is SlotKind.CARD), key=e.start_position)
        for p in range(2)
    }
    return initial_state(SLOTS, decks, pregame_players=2 if base.tracks_players else 0)


START = start_state()
STARTS = {CURRENT.name: START, **{b.name: start_state(b) for b in OTHER_BASES}}
CREATURES = tuple(CardType.CREATURE for _ in SLOTS)
NAMES_ONLY = World(VANCOUVER, SLOTS, CREATURES, 2, HAND)  # for state_difference, which needs the slots' names (and compares the pregame)
CURRENT_HARNESS = Harness(CURRENT, scope(MAX_DEPTH), SLOTS, START)
OTHER_HARNESSES = {b.name: Harness(b, scope(MAX_DEPTH), SLOTS, STARTS[b.name]) for b in OTHER_BASES}
COMMANDER_SCOPE = Scope(players=2, cards=2, sideboard=0, tokens=1, depth=MAX_DEPTH)  # one of the two cards is the commander
COMMANDER_HARNESSES = [harness(load_ruleset(name), COMMANDER_SCOPE) for name in ("mtg-commander", "mtg-commander-2020")]
# A Vanguard game (902.5, 103.5a): A's starting hand is one card larger, B's one smaller.
VANGUARD_HARNESSES = [harness(base, replace(scope(MAX_DEPTH), hand_modifiers=(1, -1))) for base in (VANCOUVER, CURRENT)]
VARIANT_HARNESSES = COMMANDER_HARNESSES + VANGUARD_HARNESSES


def variant_id(h: Harness) -> str:
    return h.ruleset.name + ("-vanguard" if h.scope.hand_modifiers else "")


def names_only(h: Harness) -> World:
    return World.of(h.ruleset, h.slots, tuple(CardType.CREATURE for _ in h.slots), h.scope)


def harness_for(base: RuleSet) -> Harness:
    """The harness of mtg-current or of another base rule set (in the base game's scope)."""
    return CURRENT_HARNESS if base is CURRENT else OTHER_HARNESSES[base.name]


def names_of(h: Harness) -> World:
    """A world for state_difference, which needs the slots' names."""
    return NAMES_ONLY if h.slots == SLOTS else names_only(h)


# ---------------------------------------------------------------- the transition relation, built once


def solver_holding(e: TransitionSystem, facts: list) -> z3.Solver:
    """An incremental bit-vector solver (bit-blasted to SAT) holding `facts`. Its decisions take a
    random phase, so that a query's random_seed gives varied models."""
    solver = z3.SolverFor("QF_BV", ctx=e.ctx)
    solver.set("phase", "random")
    solver.add(facts)
    return solver


@dataclass(frozen=True)
class Relation:
    """A harness's transition relation, built and bit-blasted once per session: MAX_DEPTH steps
    from the start of a game, each switched on by a flag (`active[t]`: step t is taken, and so is
    every step before it), in one solver, and one step from any state (trans(0)) in another. The
    rules in force and the number of steps taken are assumptions of each query, and a run's facts
    are pushed and popped, so one solver serves every example. That one encoding serves every
    subset of removed rules rests on test_transition_constraints_do_not_depend_on_the_removed_rules."""

    e: TransitionSystem
    active: list
    runs: z3.Solver
    steps: z3.Solver

    def assumptions(self, ruleset: RuleSet, depth: int | None = None) -> list:
        """The rules in force in `ruleset` (the harness's rule set less some rules), and with
        `depth` exactly that many steps taken."""
        taken = [self.active[depth - 1]] if depth else []
        no_more = [z3.Not(self.active[depth])] if depth is not None and depth < len(self.active) else []
        return self.e.rule_values(ruleset) + taken + no_more


@cache
def relation(h: Harness) -> Relation:
    e = TransitionSystem(h.ruleset, replace(h.scope, depth=MAX_DEPTH))
    active = [z3.Bool(f"active@{t}", e.ctx) for t in range(MAX_DEPTH)]
    flagged = [z3.Implies(active[t + 1], active[t]) for t in range(MAX_DEPTH - 1)]
    flagged += [z3.Implies(active[t], z3.And(e.trans(t))) for t in range(MAX_DEPTH)]
    return Relation(e, active, solver_holding(e, e.init() + flagged), solver_holding(e, e.trans(0)))


@dataclass(frozen=True)
class Query:
    """Facts about a run asked of a solver that holds the transition relation, under assumptions
    (the rules in force, the number of steps, the card types)."""

    e: TransitionSystem
    solver: z3.Solver
    assumptions: list
    names: World

    def check(self, extra: list = ()) -> z3.CheckSatResult:
        answer = self.solver.check(self.assumptions + list(extra))
        assert answer != z3.unknown, self.solver.reason_unknown()
        return answer


def whole_runs(h: Harness, removed, types, depth: int) -> Query:
    """Runs of `depth` steps from the start of a game, with `removed` rules removed."""
    rel = relation(h)
    return Query(rel.e, rel.runs, rel.assumptions(h.ruleset.without(list(removed)), depth) + rel.e.types_are(types), names_of(h))


def single_steps(h: Harness, removed, types) -> Query:
    """One step, state 0 to state 1, from any state."""
    rel = relation(h)
    return Query(rel.e, rel.steps, rel.assumptions(h.ruleset.without(list(removed))) + rel.e.types_are(types), names_of(h))


@contextmanager
def pushed(solver: z3.Solver, facts: list):
    """`facts` asserted for the duration of the block, then taken back."""
    solver.push()
    try:
        solver.add(facts)
        yield
    finally:
        solver.pop()


# ---------------------------------------------------------------- generating legal runs


def removed_rules_of(base: RuleSet):
    return st.one_of(
        st.just(()),
        st.sets(st.sampled_from([r.id for r in base.rules]), min_size=1).map(lambda ids: tuple(sorted(ids))),
    )


removed_rules = removed_rules_of(CURRENT)


@st.composite
def card_types(draw, slots=SLOTS) -> tuple[CardType, ...]:
    return tuple(draw(st.sampled_from(s.types)) for s in slots)


def _subsets(cards: list[int]):
    return chain.from_iterable(combinations(cards, k) for k in range(len(cards) + 1))


def commanders_among(slots) -> list[int]:
    return [s.index for s in slots if s.is_commander]


@lru_cache(maxsize=4096)  # runs share prefixes, shrinking above all; the result is only read
def legal_actions(world: World, state: GameState) -> dict[ActionKind, list[Action]]:
    """Every legal action from the state, by kind: the explicit search's successors (the encoder's
    whole action space, every order of a shuffled or rearranged pile included)."""
    legal: dict[ActionKind, list[Action]] = {}
    for action, _ in legal_steps(world, state):
        legal.setdefault(action.kind, []).append(action)
    return legal


# Five uniformly random steps rarely make rules interact. So a run mostly acts on one or two focus
# cards (zone-wide actions count as acting on every card), mostly draws a kind it has not used yet,
# and draws the kinds that are legal only after other actions (a card in a hand, a spell on the
# stack, a permanent) three times as often as the others.
mostly = st.sampled_from([True, True, True, False])
NEEDS_SETUP = {
    K.CAST, K.RESOLVE, K.COUNTER, K.DESTROY, K.SACRIFICE, K.REORDER,
    K.GAIN_CONTROL, K.TURN_FACE_DOWN, K.TAP, K.ADD_COUNTER, K.ATTACH, K.APPLY_EFFECT,
    K.CAST_FACE_DOWN, K.TURN_FACE_UP, K.COPY_SPELL, K.EXILE_WITH, K.RETURN_EXILED, K.EXILE_UNTIL, K.RETURN_UNTIL,
}


@st.composite
def legal_runs(draw, length: int = MAX_DEPTH, h: Harness = CURRENT_HARNESS, base: RuleSet | None = None):
    """(removed rules, card types, states, actions) of a legal run of `length` actions (fewer at a
    dead end, a state where no action is legal). A run of the greatest length holds every shorter
    run as a prefix, and a failure names the first step that goes wrong (Hypothesis draws short runs far more often than long ones when given the choice).
    `base` names a rule set with a pregame (its harness has the base game's slots)."""
    if base is not None:
        h = harness_for(base)
    removed = draw(removed_rules if h is CURRENT_HARNESS else removed_rules_of(h.ruleset))
    types = draw(card_types(h.slots))
    world = World.of(h.ruleset.without(list(removed)), h.slots, types, h.scope)
    focus = draw(st.sets(st.sampled_from(range(len(h.slots))), min_size=1, max_size=2))
    # Under a rule set with a pregame, half of the runs play the pregame first, for as long as a
    # pregame action is legal: random kinds seldom reach the mulligans and the look.
    pregame_first = h.ruleset.has_pregame and draw(st.booleans())
    states, actions = [h.start], []
    for _ in range(length):
        legal = legal_actions(world, states[-1])
        if not legal:  # a dead end: without 103.5.keep-zero a player may owe cards their empty hand cannot give
            break
        pregame = {k: v for k, v in legal.items() if k in PREGAME_ACTIONS}
        if pregame_first and pregame:
            legal = pregame
        on_focus = {k: [a for a in v if a.card is None or a.card in focus] for k, v in legal.items()}
        on_focus = {k: v for k, v in on_focus.items() if v}
        if on_focus and draw(mostly):
            legal = on_focus
        kinds = sorted(legal, key=h.kinds.index)
        fresh = [k for k in kinds if k not in {a.kind for a in actions}]
        if fresh and draw(mostly):
            kinds = fresh
        kind = draw(st.sampled_from([k for k in kinds for _ in range(3 if k in NEEDS_SETUP else 1)]))
        action = draw(st.sampled_from(legal[kind]))  # every order of a shuffled pile is an action of its own
        states.append(apply(world, states[-1], action).state)
        actions.append(action)
    return removed, types, states, actions


# ---------------------------------------------------------------- fixing a run in the encoding


def run_facts(e: TransitionSystem, states: list[GameState], actions: list[Action], fixed_states) -> list:
    """Facts fixing every action of a run and the states numbered in `fixed_states`, with what the
    step before each showed (a run's first state has no step before it in the query)."""
    fixed = [f for t in fixed_states for f in e.state_is(t, states[t]) + (e.shown_is(t, states[t]) if t else [])]
    return fixed + [f for t, a in enumerate(actions) for f in e.action_is(t, a)]


def first_rejected_step(q: Query, states: list[GameState], actions: list[Action]) -> int | None:
    """The first step the encoder does not admit (1-based), or None when it admits the whole run."""
    with pushed(q.solver, q.e.state_is(0, states[0])):
        for t, action in enumerate(actions):
            q.solver.add(q.e.action_is(t, action) + q.e.state_is(t + 1, states[t + 1]) + q.e.shown_is(t + 1, states[t + 1]))
            if q.check() != z3.sat:
                return t + 1
    return None


def rejection(q: Query, states: list[GameState], actions: list[Action]) -> str:
    """Which step of the run the encoder rejects, and what it would make of that step instead."""
    step = first_rejected_step(q, states, actions)
    assert step is not None, "the encoder admits every step on its own but not the whole run"
    problem = f"the encoder rejects step {step} ({actions[step - 1]}) of a legal interpreter run"
    with pushed(q.solver, run_facts(q.e, states, actions[:step], range(step))):
        if q.check() != z3.sat:
            return f"{problem}: it allows no step with these fields from the state before it"
        _, decoded, _ = q.e.decode(q.solver.model(), step)
    difference = state_difference(q.names, decoded[step], states[step])
    return f"{problem}; from the same state the encoder goes to one (the trace) where {difference}"




def other_outcome(q: Query, states: list[GameState], actions: list[Action]) -> str | None:
    """An outcome of the actions, other than the interpreter's, that the encoder allows; None when
    the interpreter's states are the only ones. The action fields determine the states except for
    the new order of a shuffle or rearrangement (recorded in `order`, which the encoder does not
    have), so those states are fixed."""
    e = q.e
    orders = [t + 1 for t, action in enumerate(actions) if spec(action.kind).records_order]
    elsewhere = z3.Or([z3.Not(z3.And(e.state_is(t, states[t]))) for t in range(1, len(states))])
    with pushed(q.solver, run_facts(e, states, actions, [0, *orders]) + [elsewhere]):
        if q.check() == z3.unsat:
            return None
        _, decoded, _ = e.decode(q.solver.model(), len(actions))
    for t in range(1, len(states)):
        difference = state_difference(q.names, decoded[t], states[t])
        if difference:
            return f"after step {t} ({actions[t - 1]}) the encoder also allows a state (the trace) where {difference}"
    raise AssertionError("the model differs from the run in no state")


def encoder_disagrees(removed, types, states: list[GameState], actions: list[Action], h: Harness = CURRENT_HARNESS) -> str | None:
    """None when the encoder admits exactly the interpreter's run from the start of a game, else
    what it gets wrong: a step it rejects, or another outcome it allows."""
    q = whole_runs(h, removed, types, len(actions))
    with pushed(q.solver, run_facts(q.e, states, actions, range(len(states)))):
        admitted = q.check() == z3.sat
    if not admitted:
        return rejection(q, states, actions)
    return other_outcome(q, states, actions)


# ---------------------------------------------------------------- interpreter -> encoder


def describe(removed, types, actions, slots=SLOTS) -> str:
    lines = [f"removed rules: {list(removed)}", f"types: {[f'{s.name}={t.value}' for s, t in zip(slots, types)]}"]
    lines += [f"  {i}. {a}" for i, a in enumerate(actions, start=1)]
    return "\n".join(lines)


@DIFFERENTIAL
@given(legal_runs())
def test_the_encoder_admits_exactly_every_legal_interpreter_run(run):
    removed, types, states, actions = run
    note(describe(removed, types, actions))
    problem = encoder_disagrees(removed, types, states, actions)
    assert problem is None, problem


@pytest.mark.parametrize("h", VARIANT_HARNESSES, ids=variant_id)
@EACH_OTHER_RULE_SET
@given(st.data())
def test_the_encoder_admits_exactly_every_legal_interpreter_run_of_a_commander_or_vanguard_game(h, data):
    removed, types, states, actions = data.draw(legal_runs(h=h), label="run")
    for action in actions:
        if action.to_command or action.cards and action.kind is K.STATE_BASED_ACTIONS:
            event(f"owner's choice: {action.kind.value}")
    note(describe(removed, types, actions, h.slots))
    problem = encoder_disagrees(removed, types, states, actions, h)
    assert problem is None, problem


@pytest.mark.parametrize("ruleset", OTHER_BASES, ids=lambda r: r.name)
@EACH_OTHER_RULE_SET
@given(st.data())
def test_the_encoder_admits_exactly_every_legal_interpreter_run_of_the_other_bases(ruleset, data):
    removed, types, states, actions = data.draw(legal_runs(base=ruleset), label="run")
    note(describe(removed, types, actions))
    for action in actions:
        event(f"kind {action.kind.value}")
    problem = encoder_disagrees(removed, types, states, actions, harness_for(ruleset))
    assert problem is None, problem


@LONG_RUNS
@given(st.sampled_from([CURRENT, *OTHER_BASES]).flatmap(lambda base: st.tuples(st.just(base), legal_runs(length=LONG_RUN, base=base))))
def test_the_encoder_admits_exactly_every_step_of_long_interpreter_runs(based_run):
    """Five steps from the start of a game seldom reach the states where rules interact (a token in
    a graveyard under a card, an effect on a spell a player gained control of...). Long interpreter
    runs do; each of their steps is checked against one step of the encoding, trans(0), from the
    interpreter's state before it (the states are reachable, so no init())."""
    ruleset, (removed, types, states, actions) = based_run
    note(f"rule set: {ruleset.name}\n" + describe(removed, types, actions))
    for action in actions:
        event(f"kind {action.kind.value}")
    q = single_steps(harness_for(ruleset), removed, types)
    for t, action in enumerate(actions):
        step = states[t:t + 2]
        assert first_rejected_step(q, step, [action]) is None, f"step {t + 1}: " + rejection(q, step, [action])
        problem = other_outcome(q, step, [action])
        assert problem is None, f"step {t + 1}: {problem}"


# ---------------------------------------------------------------- scenarios of the rules

INSTANT = {A1: CardType.INSTANT}


def act(kind: ActionKind, card: int | None = None, player: int | None = None, **fields) -> Action:
    return Action(kind, card=card, player=player, **fields)


def order(key: str, *top_to_bottom: int) -> dict:
    return {"order": ((key, top_to_bottom),)}


CAST_BOTH = [act(K.DRAW, A1, A), act(K.DRAW, A2, A), act(K.CAST, A1, A), act(K.CAST, A2, A)]
TOKEN_IN_GRAVEYARD = [act(K.CREATE_TOKEN, A_TOK, A), act(K.DESTROY, A_TOK), act(K.MILL, A1, A)]
B1_TO_A = [act(K.PUT_ONTO_BATTLEFIELD, B1, A), act(K.RETURN_TO_HAND, B1)]
SPELL_WITH_EFFECT = [act(K.DRAW, A1, A), act(K.CAST, A1, A), act(K.APPLY_EFFECT, A1), act(K.RESOLVE, A1)]
MARKED_AND_RETURNED = [act(K.PUT_ONTO_BATTLEFIELD, A1, A), act(K.TAP, A1), act(K.ADD_COUNTER, A1), act(K.APPLY_EFFECT, A1), act(K.RETURN_TO_HAND, A1)]
COMMAND = [act(K.MOVE_TO_COMMAND, A1), act(K.TURN_FACE_DOWN, A1), act(K.MOVE_TO_COMMAND, A1)]
FACE_DOWN_SPELL = [act(K.DRAW, A1, A), act(K.CAST_FACE_DOWN, A1, A), act(K.APPLY_EFFECT, A1), act(K.RESOLVE, A1)]
FACE_DOWN_MARKED = [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, A1, B), act(K.TAP, A1), act(K.APPLY_EFFECT, A1), act(K.TURN_FACE_UP, A1)]
FACE_DOWN_LEAVES = [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, A1, A), act(K.GAIN_CONTROL, A1, B), act(K.RETURN_TO_HAND, A1), act(K.DRAW, A2, A)]
LAND = {A1: CardType.LAND}
AIMED = [act(K.PUT_ONTO_BATTLEFIELD, B1, B), act(K.DRAW, A1, A), act(K.CAST, A1, A, targets=(B1,))]
# without 708.8, turning B1 face up makes it a new object on the battlefield
AIMED_FACE_DOWN = [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, B1, B), act(K.DRAW, A1, A), act(K.CAST, A1, A, targets=(B1,))]
TARGET_SPELL = [act(K.DRAW, A1, A), act(K.DRAW, A2, A), act(K.CAST, A1, A), act(K.CAST, A2, A, targets=(A1,))]
# an effect of B's exiles A1 face down, then exiles it face down again for A to look at (400.8, 406.3)
COPIED = [act(K.DRAW, A1, A), act(K.CAST, A1, A), act(K.COPY_SPELL, A_TOK, A, targets=(A1,))]
COPIED_INSTANT = {A1: CardType.INSTANT, A_TOK: CardType.INSTANT}
EXILED_FACE_DOWN = [act(K.EXILE_FACE_DOWN, A1, B), act(K.EXILE_FACE_DOWN, A1, A)]
# A1 exiled from A's library with B1, a permanent of B's (406.6)
EXILED_WITH = [act(K.PUT_ONTO_BATTLEFIELD, B1, B), act(K.EXILE_WITH, A1, targets=(B1,))]
# A's creature on the battlefield under B's control, with an effect on A's graveyard (614.1a)
STOLEN_UNDER_EFFECT = [act(K.PUT_ONTO_BATTLEFIELD, A1, B), act(K.EXILE_IF_DIES, player=A)]
MILLED_UNDER_EFFECT = [act(K.EXILE_INSTEAD, player=B), act(K.MILL, B1, B), act(K.END_REPLACEMENT, player=B), act(K.MILL, B2, B)]
FLICKERED_SOURCE = EXILED_WITH + [act(K.EXILE, B1), act(K.PUT_ONTO_BATTLEFIELD, B1, B)]
# A1, A's permanent under B's control, exiled until B1, a permanent of B's, leaves the battlefield (610.3)
EXILED_UNTIL = [act(K.PUT_ONTO_BATTLEFIELD, B1, B), act(K.PUT_ONTO_BATTLEFIELD, A1, B), act(K.EXILE_UNTIL, A1, targets=(B1,))]
# A1, a card in A's hand, exiled until B1, a permanent of B's, leaves the battlefield (610.3)
FROM_HAND_UNTIL = [act(K.PUT_ONTO_BATTLEFIELD, B1, B), act(K.DRAW, A1, A), act(K.EXILE_UNTIL, A1, targets=(B1,))]
SCENARIOS = [
    # (id, removed rules, card types other than creature, actions)
    ("400.3-destroy", (), {}, [act(K.PUT_ONTO_BATTLEFIELD, A1, A), act(K.GAIN_CONTROL, A1, B), act(K.DESTROY, A1)]),
    ("400.3-off-destroy", ("400.3",), {}, [act(K.PUT_ONTO_BATTLEFIELD, A1, A), act(K.GAIN_CONTROL, A1, B), act(K.DESTROY, A1)]),
    ("400.3-resolve-instant", (), INSTANT, [act(K.DRAW, A1, A), act(K.CAST, A1, A), act(K.GAIN_CONTROL, A1, B), act(K.RESOLVE, A1)]),
    ("400.3-off-resolve-instant", ("400.3",), INSTANT, [act(K.DRAW, A1, A), act(K.CAST, A1, A), act(K.GAIN_CONTROL, A1, B), act(K.RESOLVE, A1)]),
    ("400.3-sacrifice", (), {}, [act(K.PUT_ONTO_BATTLEFIELD, B1, A), act(K.SACRIFICE, B1, A)]),
    ("400.3-off-sacrifice", ("400.3",), {}, [act(K.PUT_ONTO_BATTLEFIELD, B1, A), act(K.SACRIFICE, B1, A)]),
    ("400.3-return-and-shuffle-hand", (), {}, B1_TO_A + [act(K.SHUFFLE_HAND_INTO_LIBRARY, player=B, **order("library/B", B2, B1))]),
    ("400.3-off-return-and-shuffle-hand", ("400.3",), {}, B1_TO_A + [act(K.SHUFFLE_HAND_INTO_LIBRARY, player=A, **order("library/A", A1, B1, A2))]),
    ("400.3-put-into-library", (), {}, [act(K.DRAW, A1, A), act(K.PUT_INTO_LIBRARY, A1, B, n=1)]),
    ("400.3-off-put-into-library", ("400.3",), {}, [act(K.DRAW, A1, A), act(K.PUT_INTO_LIBRARY, A1, B, n=2)]),
    ("401.7-bottom", (), {}, [act(K.DRAW, A1, A), act(K.PUT_INTO_LIBRARY, A1, A, n=3)]),
    ("401.7-top", (), {}, [act(K.DRAW, A1, A), act(K.PUT_INTO_LIBRARY, A1, A, n=1)]),
    ("400.7-memory", (), {}, MARKED_AND_RETURNED),
    ("400.7-off-memory", ("400.7",), {}, MARKED_AND_RETURNED),
    ("400.7-counters-attach-destroy", (), {}, [act(K.PUT_ONTO_BATTLEFIELD, A1, B), act(K.ATTACH, A1), act(K.ADD_COUNTER, A1), act(K.ADD_COUNTER, A1), act(K.DESTROY, A1)]),
    ("400.7a", (), {}, SPELL_WITH_EFFECT),
    ("400.7a-off", ("400.7a",), {}, SPELL_WITH_EFFECT),
    ("400.7a-without-400.7", ("400.7",), {}, SPELL_WITH_EFFECT),
    ("400.7a-instant", (), INSTANT, SPELL_WITH_EFFECT),
    ("400.8", (), {}, [act(K.EXILE, A1), act(K.EXILE, A1)]),
    ("400.8-off", ("400.8",), {}, [act(K.EXILE, A1), act(K.EXILE, A1)]),
    ("400.9-400.10", (), {}, COMMAND),
    ("400.9-400.10-off", ("400.9", "400.10"), {}, COMMAND),
    ("405.5", (), {}, CAST_BOTH + [act(K.RESOLVE, A2)]),
    ("405.5-off", ("405.5",), {}, CAST_BOTH + [act(K.RESOLVE, A1)]),
    ("405.2-off", ("405.2",), {}, CAST_BOTH[:3] + [act(K.CAST, A2, A, n=2), act(K.RESOLVE, A1)]),
    ("counter-below", (), {}, [act(K.BRING_IN, A_SB), act(K.DRAW, A1, A), act(K.CAST, A_SB, A), act(K.CAST, A1, A), act(K.COUNTER, A_SB)]),
    ("404.1-off", ("404.1",), {}, [act(K.MILL, A1, A), act(K.MILL, A2, A, n=2), act(K.MILL, B1, B, n=1)]),
    ("111.7-111.8", (), {}, TOKEN_IN_GRAVEYARD + [act(K.PUT_ONTO_BATTLEFIELD, A_TOK, A), act(K.STATE_BASED_ACTIONS)]),
    ("111.8-off", ("111.8",), {}, TOKEN_IN_GRAVEYARD + [act(K.PUT_ONTO_BATTLEFIELD, A_TOK, B), act(K.STATE_BASED_ACTIONS)]),
    ("111.7-off", ("111.7",), {}, TOKEN_IN_GRAVEYARD + [act(K.STATE_BASED_ACTIONS), act(K.EXILE, A_TOK)]),
    ("111.8-token-in-library", (), {}, [act(K.CREATE_TOKEN, B_TOK, B), act(K.PUT_INTO_LIBRARY, B_TOK, A, n=1), act(K.DRAW, B_TOK, B), act(K.STATE_BASED_ACTIONS)]),
    ("111.8-off-token-in-hand", ("111.8",), {}, [act(K.CREATE_TOKEN, A_TOK, A), act(K.RETURN_TO_HAND, A_TOK), act(K.DRAW, A1, A), act(K.SHUFFLE_HAND_INTO_LIBRARY, player=A, **order("library/A", A_TOK, A2, A1)), act(K.STATE_BASED_ACTIONS)]),
    ("111.8-token-in-hand", (), {}, [act(K.CREATE_TOKEN, A_TOK, A), act(K.RETURN_TO_HAND, A_TOK), act(K.SHUFFLE_HAND_INTO_LIBRARY, player=A), act(K.STATE_BASED_ACTIONS)]),
    ("111.7-face-down-token", (), {}, [act(K.CREATE_TOKEN, B_TOK, B), act(K.MOVE_TO_COMMAND, B_TOK), act(K.TURN_FACE_DOWN, B_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("400.4a", (), INSTANT, [act(K.DRAW, A1, A), act(K.PUT_ONTO_BATTLEFIELD, A1, B)]),
    ("400.4a-off", ("400.4a",), INSTANT, [act(K.DRAW, A1, A), act(K.PUT_ONTO_BATTLEFIELD, A1, B)]),
    ("400.11c-off", ("400.11c",), {}, [act(K.EXILE, A_SB), act(K.PUT_ONTO_BATTLEFIELD, B_SB, A), act(K.PUT_INTO_LIBRARY, A_SB, A, n=1)]),
    ("bring-in-and-cast", (), {}, [act(K.BRING_IN, A_SB), act(K.CAST, A_SB, A), act(K.RESOLVE, A_SB)]),
    ("400.12", (), {}, [act(K.DRAW, A1, A), act(K.DRAW, A2, A), act(K.SHUFFLE_HAND_INTO_LIBRARY, player=A, **order("library/A", A2, A1))]),
    ("400.12-off", ("400.12",), {}, [act(K.DRAW, A1, A), act(K.DRAW, A2, A), act(K.SHUFFLE_HAND_INTO_LIBRARY, player=A, cards=(A1,), **order("library/A", A1))]),
    ("400.5-off-library", ("400.5",), {}, [act(K.REORDER, player=A, zone=Zone.LIBRARY, **order("library/A", A2, A1))]),
    ("400.5-off-graveyard", ("400.5",), {}, [act(K.MILL, A1, A), act(K.MILL, A2, A), act(K.REORDER, player=A, zone=Zone.GRAVEYARD, **order("graveyard/A", A1, A2))]),
    ("400.5-off-stack", ("400.5",), {}, CAST_BOTH + [act(K.REORDER, zone=Zone.STACK, **order("stack", A1, A2))]),
    ("shuffle", (), {}, [act(K.SHUFFLE, player=B, **order("library/B", B2, B1))]),
    ("708.4-face-down-spell", (), {}, FACE_DOWN_SPELL),
    ("708.4-off", ("708.4",), {}, FACE_DOWN_SPELL),
    ("708.2a-face-down-instant-resolves", (), INSTANT, FACE_DOWN_SPELL),
    ("708.2a-off-instant", ("708.2a",), INSTANT, FACE_DOWN_SPELL),
    ("708.2a-face-down-land", (), LAND, [act(K.DRAW, A1, A), act(K.CAST_FACE_DOWN, A1, A), act(K.COUNTER, A1)]),
    ("708.3-face-down-instant-enters", (), INSTANT, [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, A1, A), act(K.TURN_FACE_UP, A1), act(K.DESTROY, A1)]),
    ("708.3-off", ("708.3",), INSTANT, [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, A1, A), act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, B1, A)]),
    ("708.3-off-400.4a-off", ("708.3", "400.4a"), INSTANT, [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, A1, A), act(K.TURN_FACE_UP, A1)]),
    ("708.8", (), {}, FACE_DOWN_MARKED),
    ("708.8-off", ("708.8",), {}, FACE_DOWN_MARKED),
    ("708.7-off", ("708.7",), {}, [act(K.DRAW, A1, A), act(K.CAST_FACE_DOWN, A1, A), act(K.TURN_FACE_UP, A1), act(K.RESOLVE, A1)]),
    ("708.9", (), {}, FACE_DOWN_LEAVES),
    ("708.9-off", ("708.9",), {}, FACE_DOWN_LEAVES),
    ("708.9-spell-countered", (), {}, [act(K.DRAW, A1, A), act(K.CAST_FACE_DOWN, A1, A), act(K.COUNTER, A1), act(K.STATE_BASED_ACTIONS)]),
    ("601.2", (), INSTANT, [act(K.DRAW, A1, A), act(K.REVERSE_ILLEGAL_CAST, A1, A)]),
    ("601.2-off", ("601.2",), INSTANT, [act(K.DRAW, A1, A), act(K.REVERSE_ILLEGAL_CAST, A1, A)]),
    ("601.2-off-without-400.7", ("601.2", "400.7"), {}, [act(K.BRING_IN, A_SB), act(K.REVERSE_ILLEGAL_CAST, A_SB, A)]),
    ("608.2b-legal-target", (), INSTANT, AIMED + [act(K.RESOLVE, A1)]),
    ("608.2b-target-destroyed", (), INSTANT, AIMED + [act(K.DESTROY, B1), act(K.RESOLVE, A1)]),
    ("608.2b-off-target-destroyed", ("608.2b",), INSTANT, AIMED + [act(K.DESTROY, B1), act(K.RESOLVE, A1)]),
    ("608.2b-new-object", ("708.8",), INSTANT, AIMED_FACE_DOWN + [act(K.TURN_FACE_UP, B1), act(K.RESOLVE, A1)]),
    ("608.2b-off-new-object", ("708.8", "608.2b"), INSTANT, AIMED_FACE_DOWN + [act(K.TURN_FACE_UP, B1), act(K.RESOLVE, A1)]),
    ("608.2b-spell-target", (), {A2: CardType.INSTANT}, TARGET_SPELL + [act(K.RESOLVE, A2)]),
    ("608.2b-spell-target-countered", (), {A2: CardType.INSTANT}, TARGET_SPELL + [act(K.COUNTER, A1)]),
    ("701.22-top", (), {}, [act(K.SCRY, player=A, n=1, **order("library/A", A1, A2))]),
    ("701.22-bottom", (), {}, [act(K.SCRY, player=B, n=1, **order("library/B", B2, B1))]),
    ("701.22-all", (), {}, [act(K.DRAW, A1, A), act(K.SCRY, player=A, n=1, **order("library/A", A2))]),
    ("701.22-off", ("701.22",), {}, [act(K.SCRY, player=A, n=1, **order("library/A", A2, A1))]),
    ("707.10-instant", (), COPIED_INSTANT, COPIED + [act(K.RESOLVE, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("707.10-target", (), COPIED_INSTANT, AIMED + [act(K.COPY_SPELL, A_TOK, A, targets=(A1,)), act(K.RESOLVE, A_TOK)]),
    ("707.10-lost-target", (), COPIED_INSTANT, AIMED + [act(K.EXILE, B1), act(K.COPY_SPELL, A_TOK, A, targets=(A1,))]),
    ("707.10-by-the-other-player", (), {}, [act(K.DRAW, B1, B), act(K.CAST, B1, B), act(K.COPY_SPELL, A_TOK, A, targets=(B1,)), act(K.COUNTER, A_TOK)]),
    ("707.10-405.2-off", ("405.2",), {}, [act(K.DRAW, A1, A), act(K.CAST, A1, A, n=1), act(K.COPY_SPELL, A_TOK, A, targets=(A1,), n=0), act(K.RESOLVE, A1)]),
    ("707.10-returned-to-hand", (), COPIED_INSTANT, COPIED + [act(K.RESOLVE, A_TOK), act(K.RETURN_TO_HAND, A_TOK)]),
    ("704.5e-off", ("704.5e",), COPIED_INSTANT, COPIED + [act(K.RESOLVE, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("608.3f", (), {}, COPIED + [act(K.RESOLVE, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("608.3f-off", ("608.3f",), {}, COPIED + [act(K.RESOLVE, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("406.3", (), {}, EXILED_FACE_DOWN + [act(K.PUT_ONTO_BATTLEFIELD, A1, A)]),
    ("406.3-off", ("406.3",), {}, EXILED_FACE_DOWN + [act(K.PUT_ONTO_BATTLEFIELD, A1, A)]),
    ("406.3-exiled-again-400.8-off", ("400.8",), {}, EXILED_FACE_DOWN + [act(K.EXILE, A1)]),
    ("406.3-face-down-permanent", (), {}, [act(K.PUT_ONTO_BATTLEFIELD_FACE_DOWN, B1, A), act(K.EXILE_FACE_DOWN, B1, B), act(K.STATE_BASED_ACTIONS)]),
    ("406.3-400.7-off", ("400.7",), {}, EXILED_FACE_DOWN + [act(K.RETURN_TO_HAND, A1), act(K.EXILE, A1)]),
    ("406.6", (), {}, EXILED_WITH + [act(K.RETURN_EXILED, A1)]),
    ("406.6-instant-stays-in-exile", (), INSTANT, EXILED_WITH + [act(K.RETURN_EXILED, A1)]),
    ("406.6-source-flickered-exiles-again", (), {}, FLICKERED_SOURCE + [act(K.EXILE_WITH, A2, targets=(B1,))]),
    ("406.6-off-source-flickered", ("406.6",), {}, FLICKERED_SOURCE + [act(K.RETURN_EXILED, A1)]),
    ("406.6-card-exiled-again", (), {}, EXILED_WITH + [act(K.EXILE, A1), act(K.EXILE_WITH, A1, targets=(B1,))]),
    ("406.6-400.8-off", ("400.8",), {}, EXILED_WITH + [act(K.EXILE, A1), act(K.RETURN_EXILED, A1)]),
    ("406.6-400.7-off", ("400.7",), {}, EXILED_WITH + [act(K.DESTROY, B1), act(K.RETURN_EXILED, A1)]),
    ("406.6-token-source", (), {}, [act(K.CREATE_TOKEN, A_TOK, A), act(K.EXILE_WITH, B1, targets=(A_TOK,)), act(K.DESTROY, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("610.3", (), {}, EXILED_UNTIL + [act(K.DESTROY, B1), act(K.RETURN_UNTIL, A1, B)]),
    ("610.3c-off", ("610.3c",), {}, EXILED_UNTIL + [act(K.DESTROY, B1), act(K.RETURN_UNTIL, A1, B)]),
    ("610.3-source-exiled", (), {}, EXILED_UNTIL + [act(K.EXILE, B1), act(K.RETURN_UNTIL, A1, A)]),
    ("610.3a", (), {}, [act(K.PUT_ONTO_BATTLEFIELD, A1, B), act(K.EXILE_UNTIL, A1, targets=(B1,))]),
    ("610.3a-off", ("610.3a",), {}, [act(K.PUT_ONTO_BATTLEFIELD, A1, B), act(K.EXILE_UNTIL, A1, targets=(B1,))]),
    ("610.3-400.7-off", ("400.7",), {}, EXILED_UNTIL + [act(K.DESTROY, B1), act(K.EXILE, A1)]),
    ("610.3-from-hand", (), {}, FROM_HAND_UNTIL + [act(K.DESTROY, B1), act(K.RETURN_UNTIL, A1, B)]),
    ("610.3-from-hand-400.3-off", ("400.3",), {}, FROM_HAND_UNTIL + [act(K.DESTROY, B1), act(K.RETURN_UNTIL, A1, B)]),
    ("610.3a-from-hand", (), {}, [act(K.DRAW, A1, A), act(K.EXILE_UNTIL, A1, targets=(B1,))]),
    ("610.3-token-exiled", (), {}, [act(K.PUT_ONTO_BATTLEFIELD, B1, B), act(K.CREATE_TOKEN, A_TOK, A), act(K.EXILE_UNTIL, A_TOK, targets=(B1,)), act(K.STATE_BASED_ACTIONS)]),
    ("614.6", (), {}, MILLED_UNDER_EFFECT),
    ("614.6-off", ("614.6",), {}, MILLED_UNDER_EFFECT),
    ("614.6-stolen-dies", (), {}, STOLEN_UNDER_EFFECT + [act(K.DESTROY, A1)]),
    ("614.6-stolen-dies-400.3-off", ("400.3",), {}, STOLEN_UNDER_EFFECT + [act(K.SACRIFICE, A1, B)]),
    ("614.6-discard-does-not-die", (), {}, [act(K.EXILE_IF_DIES, player=A), act(K.DRAW, A1, A), act(K.DISCARD, A1)]),
    ("614.6-instant-resolves", (), INSTANT, [act(K.EXILE_INSTEAD, player=A), act(K.DRAW, A1, A), act(K.CAST, A1, A), act(K.RESOLVE, A1)]),
    ("614.6-token-dies", (), {}, [act(K.EXILE_INSTEAD, player=A), act(K.CREATE_TOKEN, A_TOK, A), act(K.DESTROY, A_TOK), act(K.STATE_BASED_ACTIONS)]),
    ("614.6-404.1-off", ("404.1",), {}, [act(K.EXILE_INSTEAD, player=A), act(K.MILL, A1, A, n=1)]),
]


@pytest.mark.parametrize("removed, types, actions", [pytest.param(*s[1:], id=s[0]) for s in SCENARIOS])
def test_the_encoder_admits_exactly_the_scenarios_of_the_rules(removed, types, actions):
    """Hand-made runs through the interactions the random runs reach only now and then; the same
    situations as the interpreter's unit tests, with the interpreter as the oracle."""
    world = World(CURRENT.without(list(removed)), SLOTS, tuple(types.get(c, CardType.CREATURE) for c in range(len(SLOTS))), 2, HAND)
    states = [START]
    for action in actions:
        states.append(apply(world, states[-1], action).state)
    problem = encoder_disagrees(removed, world.card_types, states, actions)
    assert problem is None, problem


# Commander rule sets: slots A1, A-tok1, A-cmd1, B1, B-tok1, B-cmd1 (see COMMANDER_SCOPE).
CA1, CA_TOK, CA_CMD, CB1, CB_TOK, CB_CMD = range(6)
TODAY, OLD = COMMANDER_HARNESSES
ON_BATTLEFIELD = [act(K.CAST, CA_CMD, A), act(K.RESOLVE, CA_CMD)]
COMMANDER_SCENARIOS = [
    # (id, harness, removed rules, actions)
    ("903.9a", TODAY, (), ON_BATTLEFIELD + [act(K.DESTROY, CA_CMD), act(K.STATE_BASED_ACTIONS, cards=(CA_CMD,))]),
    ("903.9a-declined", TODAY, (), [act(K.EXILE, CB_CMD), act(K.STATE_BASED_ACTIONS), act(K.EXILE, CB_CMD), act(K.STATE_BASED_ACTIONS, cards=(CB_CMD,))]),
    ("903.9a-stolen", TODAY, (), ON_BATTLEFIELD + [act(K.GAIN_CONTROL, CA_CMD, B), act(K.SACRIFICE, CA_CMD, B), act(K.STATE_BASED_ACTIONS, cards=(CA_CMD,))]),
    ("903.9a-with-token", TODAY, (), [act(K.CREATE_TOKEN, CA_TOK, A), act(K.DESTROY, CA_TOK), act(K.PUT_ONTO_BATTLEFIELD, CA_CMD, A), act(K.DESTROY, CA_CMD), act(K.STATE_BASED_ACTIONS, cards=(CA_CMD,))]),
    ("903.9a-off", TODAY, ("903.9a",), ON_BATTLEFIELD + [act(K.DESTROY, CA_CMD, to_command=True)]),
    ("903.9b", TODAY, (), ON_BATTLEFIELD + [act(K.RETURN_TO_HAND, CA_CMD, to_command=True)]),
    ("903.9b-library", TODAY, (), [act(K.PUT_INTO_LIBRARY, CA_CMD, A, n=1), act(K.DRAW, CA_CMD, A, to_command=True)]),
    ("903.9b-off", TODAY, ("903.9b",), ON_BATTLEFIELD + [act(K.RETURN_TO_HAND, CA_CMD), act(K.CAST, CA_CMD, A)]),
    ("903.9b-400.3-off", TODAY, ("400.3",), [act(K.PUT_INTO_LIBRARY, CA_CMD, B, n=0), act(K.PUT_ONTO_BATTLEFIELD, CA_CMD, B), act(K.RETURN_TO_HAND, CA_CMD)]),
    ("903.8.tax", TODAY, (), ON_BATTLEFIELD + [act(K.RETURN_TO_HAND, CA_CMD, to_command=True), act(K.CAST, CA_CMD, A), act(K.RESOLVE, CA_CMD)]),
    ("903.8.tax-off", TODAY, ("903.8.tax",), ON_BATTLEFIELD + [act(K.RETURN_TO_HAND, CA_CMD, to_command=True), act(K.CAST, CA_CMD, A)]),
    ("903.8.tax-from-hand", TODAY, (), ON_BATTLEFIELD + [act(K.RETURN_TO_HAND, CA_CMD), act(K.CAST, CA_CMD, A)]),
    ("406.3-commander-2020", OLD, (), ON_BATTLEFIELD + [act(K.EXILE_FACE_DOWN, CA_CMD, B, to_command=True), act(K.EXILE_FACE_DOWN, CB_CMD, A)]),
    ("903.8-off", TODAY, ("903.8",), [act(K.PUT_ONTO_BATTLEFIELD, CB_CMD, A), act(K.EXILE, CB_CMD), act(K.STATE_BASED_ACTIONS, cards=(CB_CMD,))]),
    ("601.2-commander", TODAY, (), [act(K.REVERSE_ILLEGAL_CAST, CA_CMD, A), act(K.CAST, CA_CMD, A)]),
    ("601.2-off-commander", TODAY, ("601.2",), [act(K.REVERSE_ILLEGAL_CAST, CB_CMD, B), act(K.CAST, CB_CMD, B)]),
    ("2020-903.9", OLD, (), ON_BATTLEFIELD + [act(K.DESTROY, CA_CMD, to_command=True), act(K.EXILE, CA_CMD), act(K.STATE_BASED_ACTIONS)]),
    ("2020-903.9-mill", OLD, (), [act(K.PUT_INTO_LIBRARY, CB_CMD, B, n=1), act(K.MILL, CB_CMD, B, to_command=True)]),
    ("2020-903.9-off", OLD, ("903.9",), ON_BATTLEFIELD + [act(K.EXILE, CA_CMD), act(K.STATE_BASED_ACTIONS)]),
    ("614.6-commander", TODAY, (), ON_BATTLEFIELD + [act(K.EXILE_INSTEAD, player=A), act(K.DESTROY, CA_CMD), act(K.STATE_BASED_ACTIONS, cards=(CA_CMD,))]),
    ("614.6-commander-903.9a-off", TODAY, ("903.9a",), ON_BATTLEFIELD + [act(K.EXILE_IF_DIES, player=A), act(K.DESTROY, CA_CMD, to_command=True)]),
    ("614.6-commander-2020", OLD, (), ON_BATTLEFIELD + [act(K.EXILE_IF_DIES, player=A), act(K.DESTROY, CA_CMD, to_command=True)]),
    ("614.6-commander-2020-stolen-400.3-off", OLD, ("400.3",), ON_BATTLEFIELD + [act(K.GAIN_CONTROL, CA_CMD, B), act(K.EXILE_IF_DIES, player=B), act(K.DESTROY, CA_CMD, to_command=True)]),
]


MARKED_AND_DESTROYED = [act(K.PUT_ONTO_BATTLEFIELD, A1, A), act(K.ADD_COUNTER, A1), act(K.GAIN_CONTROL, A1, B), act(K.DESTROY, A1)]
BERSERK_SCENARIOS = [
    # (id, harness, removed rules, actions): the deck search and its shuffle, markers in a graveyard
    ("204.3", harness_for(BERSERK), (), [act(K.SEARCH_LIBRARY, A2, A), act(K.SHUFFLE, player=A, **order("library/A", A1)), act(K.DRAW, A1, A)]),
    ("204.3-off", harness_for(BERSERK), ("204.3",), [act(K.SEARCH_LIBRARY, A2, A), act(K.DRAW, A1, A), act(K.SHUFFLE, player=A, **order("library/A"))]),
    ("205.4.markers", harness_for(BERSERK), (), MARKED_AND_DESTROYED),
    ("205.4.markers-off", harness_for(BERSERK), ("205.4.markers",), MARKED_AND_DESTROYED),
    ("205.4-off", harness_for(BERSERK), ("205.4",), MARKED_AND_DESTROYED + [act(K.MILL, A2, A)]),
]


@pytest.mark.parametrize("h, removed, actions", [pytest.param(*s[1:], id=s[0]) for s in COMMANDER_SCENARIOS + BERSERK_SCENARIOS])
def test_the_encoder_admits_exactly_the_scenarios_of_the_other_rule_sets(h, removed, actions):
    world = World.of(h.ruleset.without(list(removed)), h.slots, tuple(CardType.CREATURE for _ in h.slots), h.scope)
    states = [h.start]
    for action in actions:
        states.append(apply(world, states[-1], action).state)
    problem = encoder_disagrees(removed, world.card_types, states, actions, h)
    assert problem is None, problem


def test_the_commander_harness_slots():
    assert [s.name for s in TODAY.slots] == ["A1", "A-tok1", "A-cmd1", "B1", "B-tok1", "B-cmd1"]
    assert TODAY.commanders == [CA_CMD, CB_CMD]
    assert TODAY.start.objects[CA_CMD].zone is Zone.COMMAND


# ---------------------------------------------------------------- encoder -> interpreter


@st.composite
def constrained_models(draw, h: Harness = CURRENT_HARNESS):
    """(removed rules, depth, extra constraints, solver seed). An extra constraint fixes the kind
    of action at a step, the card an action takes or targets, or a card's type. Half of the examples take the
    kinds of a legal interpreter run, which reach the actions that need several steps of setup
    (resolve, counter, reorder...) far more often than free models do."""
    if draw(st.booleans()):
        removed, _, _, actions = draw(legal_runs(length=MAX_DEPTH - 1, h=h))
        depth = len(actions)
        kinds = [("kind", t, a.kind) for t, a in enumerate(actions)]
    else:
        rules = removed_rules if h is CURRENT_HARNESS else removed_rules_of(h.ruleset)
        removed, depth, kinds = draw(rules), draw(st.sampled_from(range(1, MAX_DEPTH + 1))), []
    step = st.sampled_from(range(depth))
    slot = st.sampled_from(range(len(h.slots)))
    choices = [
        st.tuples(st.just("kind"), step, st.sampled_from(h.kinds)),
        st.tuples(st.just("card"), step, slot),
        st.tuples(st.just("type"), slot, st.sampled_from(list(CardType))),
        st.tuples(st.just("aim"), step, slot),
    ]
    if h.commanders:  # the owner's choices: a replaced move, a commander listed by state-based actions
        choices += [
            st.tuples(st.just("to_command"), step, st.just(True)),
            st.tuples(st.just("pick"), step, st.sampled_from(h.commanders)),
        ]
    constraint = st.one_of(*choices)
    extra = kinds + draw(st.lists(constraint, max_size=3))
    seed = draw(st.integers(0, 2**16))
    return removed, depth, extra, seed


def extra_fact(e: TransitionSystem, constraint: tuple):
    what, where, value = constraint
    if what == "kind":
        return e.step(where).kind == e.codes.kind[value]
    if what == "card":
        return e.step(where).card == e.codes.slot[value]
    if what == "to_command":
        return e.step(where).to_command
    if what == "pick":
        return e.step(where).pick[value]
    if what == "aim":
        return e.step(where).aim == e.codes.slot[value]
    return e.card_type[where] == e.codes.type[value]


@DIFFERENTIAL
@given(constrained_models())
def test_every_encoder_model_replays_in_the_interpreter(example):
    replays_in_the_interpreter(CURRENT_HARNESS, example)


@pytest.mark.parametrize("h", VARIANT_HARNESSES, ids=variant_id)
@EACH_OTHER_RULE_SET
@given(st.data())
def test_every_encoder_model_of_a_commander_or_vanguard_game_replays_in_the_interpreter(h, data):
    replays_in_the_interpreter(h, data.draw(constrained_models(h), label="model"))


def replays_in_the_interpreter(h: Harness, example) -> None:
    removed, depth, extra, seed = example
    q = whole_runs(h, removed, (), depth)
    q.solver.set("random_seed", seed)
    # Extra constraints that leave no model are dropped from the last one back; with none left
    # the unrolled relation must have a model (shuffle is always possible).
    while True:
        answer = q.check([extra_fact(q.e, c) for c in extra])
        if answer == z3.sat or not extra:
            break
        extra = extra[:-1]
    assert answer == z3.sat, "the unrolled transition relation has no model"
    event(f"extra constraints kept: {len(extra)}")
    the_model_replays(q, h.ruleset.without(list(removed)), depth)


def the_model_replays(q: Query, ruleset: RuleSet, depth: int) -> None:
    """The solver's model, decoded, replays in the interpreter under `ruleset`, which must reach
    every recorded state."""
    decoded_types, states, actions = q.e.decode(q.solver.model(), depth)
    note(describe(ruleset.removed, decoded_types, actions, q.e.slots))
    for action in actions:
        event(f"kind {action.kind.value}{' to_command' if action.to_command else ''}{' cards' if action.cards else ''}")
    world = World.of(ruleset, q.e.slots, decoded_types, q.e.scope)
    _, mismatch = execute(world, states[0], actions, recorded=states[1:])
    assert mismatch is None, mismatch


@pytest.mark.parametrize("base", OTHER_BASES, ids=lambda r: r.name)
@EACH_OTHER_RULE_SET
@given(st.data(), st.integers(0, 2**16))
def test_every_encoder_model_of_the_other_bases_replays_in_the_interpreter(base, data, seed):
    """Random models of the mtg-2015-bfz and mtg-2015-commander encodings with the action kinds of
    a legal run fixed (they reach the pregame far more often than free models do), replayed in the
    interpreter."""
    removed, _, _, actions = data.draw(legal_runs(length=MAX_DEPTH - 1, base=base), label="run")
    q = whole_runs(harness_for(base), removed, (), len(actions))
    q.solver.set("random_seed", seed)
    answer = q.check([q.e.step(t).kind == q.e.codes.kind[a.kind] for t, a in enumerate(actions)])
    assert answer == z3.sat, "the kinds of a legal interpreter run have no model"
    the_model_replays(q, base.without(list(removed)), len(actions))


# ---------------------------------------------------------------- the harness itself


def test_transition_constraints_do_not_depend_on_the_removed_rules():
    """The premise of building each harness's relation once: the rule literals' values are all
    that differs between rule sets with different rules removed, and the assumptions give them."""
    removed = ["400.3", "400.7", "401.7", "111.8", "400.12"]
    full, partial = TransitionSystem(CURRENT, scope(1)), TransitionSystem(CURRENT.without(removed), scope(1))
    assert [f.sexpr() for f in full.init() + full.trans(0)] == [f.sexpr() for f in partial.init() + partial.trans(0)]
    assumed = relation(CURRENT_HARNESS).assumptions(CURRENT.without(removed))
    assert [f.sexpr() for f in assumed] == [f.sexpr() for f in partial.rule_values()]


def test_every_built_in_rule_set_is_tested_in_both_directions():
    tested = {CURRENT.name, *(b.name for b in OTHER_BASES), *(h.ruleset.name for h in COMMANDER_HARNESSES)}
    assert tested == set(builtin_names())


def test_the_start_state_is_the_encoders_initial_state():
    assert [s.name for s in SLOTS] == ["A1", "A2", "A-sb1", "A-tok1", "B1", "B2", "B-sb1", "B-tok1"]
    assert (A1, A2, A_SB, A_TOK, B1, B2, B_SB, B_TOK) == tuple(range(8))
    e = relation(CURRENT_HARNESS).e
    solver = z3.Solver(ctx=e.ctx)
    solver.add(e.init() + e.state_is(0, START))
    assert solver.check() == z3.sat
    assert [START.objects[c].pos for c in range(4)] == [1, 0, 0, 0]  # A1 on top of A2


@pytest.mark.parametrize("h", COMMANDER_HARNESSES, ids=lambda h: h.ruleset.name)
def test_the_run_generator_offers_the_owners_choices(h):
    """From a commander on the battlefield the generator offers the replaced moves its rule set
    allows, and after it is destroyed (today's rules) the state-based action that lists it."""
    world = World.of(h.ruleset, h.slots, tuple(CardType.CREATURE for _ in h.slots), h.scope)
    state = h.start
    for action in ON_BATTLEFIELD:
        state = apply(world, state, action).state
    replaced = {a.kind for kind, actions in legal_actions(world, state).items() for a in actions if a.to_command}
    assert replaced == ({K.RETURN_TO_HAND, K.PUT_INTO_LIBRARY} | ({K.DESTROY, K.SACRIFICE, K.EXILE, K.EXILE_FACE_DOWN} if h is OLD else set()))
    destroyed = apply(world, state, act(K.DESTROY, CA_CMD)).state
    listing = [a.cards for a in legal_actions(world, destroyed).get(K.STATE_BASED_ACTIONS, [])]
    assert sorted(listing) == ([(), (CA_CMD,)] if h is TODAY else [()])


def test_the_run_generator_reaches_every_kind():
    """Each action kind of mtg-current has a legal instance from some reachable state; a kind the
    generator could never produce would go untested in both directions."""
    world = World(CURRENT.without(["111.8", "400.5", "400.12", "405.2", "404.1"]), SLOTS, CREATURES, 2, HAND)
    seen: set[ActionKind] = set()
    frontier = [START]
    for _ in range(3):
        following: dict[ActionKind, list[GameState]] = {}
        for state in frontier:
            for kind, actions in legal_actions(world, state).items():
                seen.add(kind)
                following.setdefault(kind, []).extend(apply(world, state, a).state for a in actions[:2])
        # every kind keeps some of its states (the pregame kinds come last in the order of kinds)
        frontier = [state for states in following.values() for state in states[:2]]
    # the opening-hand action (103.6) needs both players to have kept: five steps, past the three rounds
    kept = START
    for step in (Action(K.DRAW_HAND, player=A), Action(K.DRAW_HAND, player=B), Action(K.KEEP, player=A), Action(K.KEEP, player=B)):
        kept = apply(world, kept, step).state
    seen |= set(legal_actions(world, kept))
    # an exile until a permanent leaves (610.3) needs two permanents, and its return that one gone: four steps
    returning = START
    for step in EXILED_UNTIL[:2]:
        returning = apply(world, returning, step).state
    seen |= set(legal_actions(world, returning))
    for step in EXILED_UNTIL[2:] + [act(K.DESTROY, B1)]:
        returning = apply(world, returning, step).state
    seen |= set(legal_actions(world, returning))
    assert seen == {a.kind for a in CURRENT.actions}


def test_the_harness_rejects_a_run_the_interpreter_did_not_make():
    """The admission check can fail: a run whose second state is not what its action gives is
    rejected at step 2, and the true run is admitted."""
    world = World(CURRENT, SLOTS, CREATURES, 2)
    draw_a1, mill_a2 = act(K.DRAW, A1, A), act(K.MILL, A2, A)
    after_draw = apply(world, START, draw_a1).state
    after_mill = apply(world, after_draw, mill_a2).state
    a2_tapped = GameState(tuple(o.moved(tapped=True) if c == A2 else o for c, o in enumerate(after_mill.objects)))
    q = whole_runs(CURRENT_HARNESS, (), world.card_types, 2)
    assert first_rejected_step(q, [START, after_draw, after_mill], [draw_a1, mill_a2]) is None
    assert first_rejected_step(q, [START, after_draw, a2_tapped], [draw_a1, mill_a2]) == 2


@pytest.mark.parametrize("removed", [(), ("400.3",), ("400.12",), ("111.8",), ("111.8", "400.3", "400.12")])
def test_the_generator_offers_every_way_to_shuffle_a_hand_away(removed):
    """The generator predicts which libraries a shuffle_hand_into_library fills; a wrong prediction
    would silently drop the action. From a hand holding A1, a token and (without 400.3) B's card B1,
    it must offer every outcome the rules allow: the whole hand (400.12) or any part of it, less a
    token that 111.8 keeps in the hand."""
    world = World(CURRENT.without(list(removed)), SLOTS, CREATURES, 2)
    state = START
    for action in [act(K.DRAW, A1, A), act(K.CREATE_TOKEN, A_TOK, A), act(K.RETURN_TO_HAND, A_TOK)] + B1_TO_A:
        state = apply(world, state, action).state
    hand = set(state.zone_members(Zone.HAND, A))
    assert hand == ({A1, A_TOK} if "400.3" not in removed else {A1, A_TOK, B1})
    stays = {A_TOK} if "111.8" not in removed else set()
    if "400.12" not in removed:
        expected = {frozenset(stays)}
    else:
        expected = {frozenset((hand - set(moved)) | (stays & set(moved))) for moved in _subsets(sorted(hand))}
    offered = [a for a in legal_actions(world, state).get(K.SHUFFLE_HAND_INTO_LIBRARY, []) if a.player == A]
    assert {frozenset(apply(world, state, a).state.zone_members(Zone.HAND, A)) for a in offered} == expected

"""Proofs at every depth: strengthen the properties with structural lemmas until they are
inductive, and check the inductive invariant that results (the certificate).

The lemmas are `always` properties written in the property language (LEMMA_TEXT): valid codes,
well-formed piles, bounded counters, inert token slots, the players' records in order. Houdini's
algorithm proves the largest subset that is inductive together: a lemma false in one of the first
two states is dropped; then, assuming all the rest of any state 1 whatever, a step that breaks one
of them drops it, until no step breaks any. The always properties to prove are candidates like the
lemmas; a step property is proved when the surviving lemmas imply it of every step.

A proof is made in the bit-vector encoding. It holds of the game's integers only when no value the
property reads can wrap around in an unbounded run (`wrap_safe`; the argument is docs/proofs.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from .encode.system import TransitionSystem
from .errors import CheckerBug
from .model import Zone
from .properties import COMPARISONS, Apply, BinOp, IntLit, Property, PropertyKind, parse_properties
from .ruleset import RuleSet
from .simulate import falsified
from .search import (INDUCTION_SPAN, Budget, Unchanged, answered_ahead, first_step, held_at, induction_key, induction_question, induction_solver,
                     inductive, violated_at)
from .solver import Answer, isolated
from .terms import Not, Or

LEMMA_FILE = "lemmas.zp"  # how the lemmas' locations name their file
# Fields that grow without bound in some run: their bit-vectors may wrap (docs/proofs.md).
GROWING = ("gen", "mulligans")
# The lemma that bounds a growing field, where there is one.
BOUNDED_BY = {"mulligans": "mulligans-bounded"}

# Stands for the zones of the rule set's game, and outside the game and nowhere, in a lemma's body.
RULE_SET_ZONES = "RULE_SET_ZONES"

# The candidate lemmas: (id, the rule it rests on, body of an `always` property).
LEMMAS = (
    ("valid-zone", "400.1", f"forall c: object. zone(c) in {RULE_SET_ZONES}"),
    ("valid-whose", "400.1", "forall c: object. exists p: player. whose(c) == p"),
    ("valid-controller", "400.1", "forall c: object. exists p: player. controller(c) == p"),
    ("cards-exist", "400.11", "forall c: card. zone(c) != nowhere"),
    ("counters-bounded", "122.1", "forall c: object. counters(c) >= 0 and counters(c) <= 2"),
    ("counters-on-battlefield", "122.1", "forall c: object. counters(c) > 0 -> zone(c) in {battlefield, graveyard}"),
    ("counters-off-graveyard", "122.1", "forall c: object. zone(c) != battlefield -> counters(c) == 0"),
    ("tapped-on-battlefield", "400.7", "forall c: object. tapped(c) or attached(c) -> zone(c) == battlefield"),
    ("effect-in-play", "400.7", "forall c: object. effect(c) -> zone(c) in {battlefield, stack, nowhere}"),
    ("face-down-in-play", "708.2", "forall c: object. face_down(c) -> zone(c) in {battlefield, stack, exile, command}"),
    ("face-down-set-aside", "903.8", "forall c: object. face_down(c) -> zone(c) in {exile, command}"),
    ("controller-off-battlefield", "108.4", "forall c: object. not (zone(c) in {battlefield, stack}) -> controller(c) == owner(c)"),
    ("whose-personal", "400.3", "forall c: object. zone(c) in {library, hand, graveyard} -> whose(c) == owner(c)"),
    ("whose-shared", "400.3", "forall c: object. not (zone(c) in {library, hand, graveyard}) -> whose(c) == owner(c)"),
    ("identities-nonnegative", "400.7", "forall c: object. gen(c) >= 0"),
    ("tokens-never-outside", "111.7", "forall t: token. zone(t) != outside"),
    ("commanders-never-outside", "903.6", "forall c: card. is_commander(c) -> zone(c) != outside"),
    ("tokens-off-stack", "111.7", "forall t: token. zone(t) != stack"),
    ("no-copies", "707.10", "forall t: token. not copy(t)"),
    ("stack-tokens-are-copies", "707.10", "forall t: token. zone(t) == stack -> copy(t)"),
    ("copies-off-battlefield", "608.3f", "forall t: token. copy(t) -> zone(t) != battlefield"),
    ("tokens-after-start", "103.6", "forall t: token, p: player. zone(t) != nowhere -> started(p)"),
    ("tokens-unborn", "111.7", "forall t: token. gen(t) == 0 -> zone(t) == nowhere"),
    ("tokens-never-made", "111.7", "forall t: token. zone(t) == nowhere"),
    ("unborn-inert", "111.7", "forall t: token. zone(t) == nowhere and gen(t) == 0 -> counters(t) == 0 and not tapped(t) and not attached(t) and not effect(t) and not face_down(t) and not revealed(t)"),
    ("unborn-no-copy", "707.10", "forall t: token. zone(t) == nowhere and gen(t) == 0 -> not copy(t)"),
    ("revealed-in-library", "701.16", "forall c: object. revealed(c) -> zone(c) == library"),
    ("position-unordered", "400.5", "forall c: object. not (zone(c) in {library, graveyard, stack}) -> pos(c) + 0 == 0"),
    ("mulligans-bounded", "103.5", "forall p: player. mulligans(p) >= 0 and mulligans(p) <= starting_hand(p) + 2"),
    ("owed-nonnegative", "103.5", "forall p: player. owed(p) >= 0"),
    ("owed-bounded", "103.5", "forall p: player. owed(p) <= mulligans(p)"),
    ("owed-before-keeping", "103.5", "forall p: player. owed(p) > 0 -> drawn(p) and not kept(p)"),
    ("kept-after-drawing", "103.5", "forall p: player. kept(p) -> drawn(p)"),
    ("undrawn-untouched", "103.4", "forall p: player. not drawn(p) -> mulligans(p) == 0 and owed(p) == 0 and not kept(p) and not free_mulligan(p)"),
    ("looked-after-keeping", "103.4", "forall p: player. looked(p) -> kept(p)"),
    ("pregame-zones", "103.4", "forall c: card, p: player. not started(p) -> zone(c) in {library, hand, outside, command, battlefield}"),
)

# One more candidate lemma for each zone of the rule set: nothing ever enters it. Random runs rule it
# out where a zone is used; where no action fills one, it proves the actions and rules that need an
# object there dead at every depth.
ZONE_NEVER_ENTERED = ("never-in-{zone}", "400.1", "forall c: object. zone(c) != {zone}")

# The lemmas tried on the runs of the pregame's actions alone besides LEMMAS (slicing.pregame_system):
# the library well ordered from position 0 up, and a player's hand as the mulligans leave it. Tried
# on the whole game they make each question many times harder and prove nothing more there.
PREGAME_LEMMAS = (
    ("library-positions", "400.5", "forall c: object, p: player. zone(c) == library and whose(c) == p -> pos(c) + 0 >= 0 and pos(c) + 0 < size(library, p)"),
    ("positions-distinct", "400.5", "forall c: object, d: object. c != d and zone(c) in {library, graveyard, stack} and zone(d) == zone(c) and (zone(c) == stack or whose(d) == whose(c)) -> pos(c) + 0 != pos(d) + 0"),
    ("order-matches-positions", "400.5", "forall c: object, d: object. c != d and zone(c) in {library, graveyard, stack} and zone(d) == zone(c) and (zone(c) == stack or whose(d) == whose(c)) -> (pos(c) > pos(d) <-> pos(c) + 0 > pos(d) + 0)"),
    ("hand-while-mulliganing", "103.5", "forall p: player. drawn(p) and not kept(p) -> size(hand, p) - owed(p) == starting_hand(p) - mulligans(p)"),
    ("hand-empty-before-drawing", "103.4", "forall p: player. not drawn(p) and not started(p) -> size(hand, p) == 0"),
    ("deck-before-keeping", "103.4", "forall p: player. not started(p) and not kept(p) -> size(library, p) + size(hand, p) >= starting_hand(p)"),
    ("undrawn-deck", "103.4", "forall c: card, p: player. owner(c) == p and not drawn(p) and not started(p) -> zone(c) in {library, outside, command}"),
    ("sideboard-before-start", "400.11", "forall c: card, p: player. is_sideboard(c) and not started(p) -> zone(c) == outside"),
    ("deck-before-start", "103.1", "forall c: card, p: player. not is_sideboard(c) and not started(p) -> zone(c) != outside"),
    ("pregame-zones-set-aside", "903.8", "forall c: card, p: player. not started(p) -> zone(c) in {library, hand, outside, command, battlefield, exile}"),
    ("set-aside-face-down", "903.8", "forall c: card, p: player. not started(p) and zone(c) == exile -> face_down(c)"),
)



# The lemmas of LEMMAS that are not inductive on the whole game of a rule set with a pregame (the
# mulligans' bound needs the hand's size, which needs PREGAME_LEMMAS; without it the count may wrap,
# and what a mulligan owes with it: docs/proofs.md): they are tried there only on the runs of the
# pregame's actions alone.
MULLIGAN_COUNTS = ("mulligans-bounded", "owed-nonnegative", "owed-bounded")


def lemma_text(zones: tuple[Zone, ...], pregame: bool = False, counts: bool = True) -> str:
    in_game = "{" + ", ".join(z.value for z in (*zones, Zone.OUTSIDE, Zone.NOWHERE)) + "}"
    never_entered = tuple(tuple(part.format(zone=z.value) for part in ZONE_NEVER_ENTERED) for z in zones)
    return "".join(f'property {i} {{\n  cites {c}\n  means "a structural lemma"\n  always {body.replace(RULE_SET_ZONES, in_game)}\n}}\n\n'
                   for i, c, body in (*LEMMAS, *never_entered, *(PREGAME_LEMMAS if pregame else ())) if counts or i not in MULLIGAN_COUNTS)


def lemmas(ruleset: RuleSet, pregame: bool = False) -> tuple[Property, ...]:
    """The candidate lemmas of a rule set: LEMMAS, and PREGAME_LEMMAS for the pregame's actions
    alone; on the whole game of a rule set with a pregame, without MULLIGAN_COUNTS."""
    counts = pregame or not ruleset.has_pregame
    return parse_properties(lemma_text(tuple(z.zone for z in ruleset.zones), pregame, counts), LEMMA_FILE)


@dataclass(frozen=True)
class Proof:
    """A property proved at every depth: the lemmas of its inductive invariant, and the properties
    proved together with it (each induction step assumed all of them)."""

    prop: Property
    lemmas: tuple[Property, ...]
    together: tuple[Property, ...] = ()
    steps: int = INDUCTION_SPAN + 1  # of the induction's question: the base case is the bounded check to this depth


def wrap_safe(prop: Property, proved_lemmas: set[str]) -> bool:
    """Whether the property reads each growing field (GROWING) only as a comparison of one
    object's (or player's) value with its next one, `gen'(c) != gen(c)`, an identity only against
    0 as well, or a field only where a proved lemma bounds it: those readings mean the same in the
    bit-vectors as in the integers of any run."""
    safe = {f for f in GROWING if BOUNDED_BY.get(f) in proved_lemmas}

    def walk(node) -> bool:
        if isinstance(node, Apply):
            return node.fn not in GROWING or node.fn in safe
        if isinstance(node, BinOp) and node.op in ("==", "!=") and _same_value_across_step(node.left, node.right):
            return True
        if isinstance(node, BinOp) and node.op in COMPARISONS and _identity_against_zero(node.left, node.right):
            return True
        children = [getattr(node, f) for f in getattr(node, "__dataclass_fields__", {}) if f not in ("line", "column")]
        return all(walk(x) for c in children for x in (c if isinstance(c, tuple) else (c,)) if hasattr(x, "__dataclass_fields__"))

    return walk(prop.expr)


def _identity_against_zero(a, b) -> bool:
    """`gen(c) > 0`, `gen(c) == 0`, `0 <= gen(c)`, ...: an identity grows (Codes.grown) so that its
    sign and whether it is 0 are those of the game's integer, whatever its size."""
    return any(isinstance(x, Apply) and x.fn == "gen" and isinstance(y, IntLit) and y.value == 0 for x, y in ((a, b), (b, a)))


def _same_value_across_step(a, b) -> bool:
    return isinstance(a, Apply) and isinstance(b, Apply) and a.fn == b.fn and a.var_name == b.var_name and a.primed != b.primed


@dataclass(frozen=True)
class Obligation:
    """One question of a certificate: `goal` cannot hold together with `context` (unsat).
    `of_lemma`: it speaks of a lemma of the invariant, not of a property it proves."""

    what: str
    context: list
    goal: z3.BoolRef
    of_lemma: bool = False


def obligations(system: TransitionSystem, facts: list, invariant: list[Property], prop: Property,
                together: tuple[Property, ...] = (), steps: int = INDUCTION_SPAN + 1, on_lemmas_step: bool = False) -> list[Obligation]:
    """What makes `invariant` (state lemmas) and `prop` hold at every depth, with the properties
    `together` proved jointly with it, by an induction over `steps` steps (the shapes of
    `search.inductive`: one step where that is enough). The lemmas hold in the first two states
    and every step from a state where they hold keeps them (each asked of no more steps than it
    speaks of: a step after it would hide a state that has none).
    Each of the joint properties holds in the first `steps` + 1 states (an always property) or on
    the first `steps` steps (a step property), and is kept by every step after `steps` states
    (steps) where the lemmas and every joint property held. Step 1 stands for every later step:
    each is step 1 with its variables renamed.
    With `on_lemmas_step` (one step, step properties only: `shares_lemmas_step`), each joint
    property is asked of every step from a state where the lemmas hold, with no assumption on the
    step before: a stronger obligation, asked with the lemmas' own step in one question."""
    fails = lambda p, k: violated_at(system, p, k)  # noqa: E731
    first, one_step = _lemmas_base(system, facts), _lemmas_step(system, facts, invariant)
    found = [Obligation(f"{p.id} holds in the first two states", first, Or(fails(p, 0), fails(p, 1)), of_lemma=True) for p in invariant]
    found += [Obligation(f"{p.id} is kept by every step", one_step, fails(p, 2), of_lemma=True) for p in invariant]
    joint = (*together, prop)
    start = first if steps == 1 else [*system.init(), *facts, *system.steps(0, steps)]
    context, assumed, concluded = induction_question(system, joint, steps, facts, invariant)
    later = context + [Not(v) for q in joint for v in assumed[q]]
    held = ", and the properties proved together with it, held" if together else " held"
    for q in joint:
        base = range(first_step(q), steps + 1)
        found.append(Obligation(f"{q.id} holds {_first(q, steps)}", start, Or([fails(q, k) for k in base])))
    if on_lemmas_step:
        return found + [Obligation(f"{q.id} holds on every step from a state where the lemmas hold", one_step, fails(q, 2)) for q in joint]
    for q in joint:
        after = {(PropertyKind.ALWAYS, 1): "a state where it", (PropertyKind.ALWAYS, 2): "two states where it"}.get(
            (q.kind, steps), "one on which it")
        found.append(Obligation(f"{q.id} is kept by every step after {after}{held}", later, concluded[q]))
    return found


def shares_lemmas_step(props, steps: int) -> bool:
    """Whether `obligations` can ask the properties of the lemmas' step (`on_lemmas_step`): step
    properties proved over one step read no state before that step."""
    return steps == 1 and all(p.kind is PropertyKind.STEP for p in props)


def _lemmas_base(system: TransitionSystem, facts: list) -> list:
    """The context of the lemmas' base case: the start and the first step (they hold in states 0 and 1)."""
    return [*system.init(), *facts, *system.trans(0)]


def _lemmas_step(system: TransitionSystem, facts: list, lemmas: list[Property]) -> list:
    """The context of the lemmas' step: the lemmas hold in a state 1 otherwise arbitrary, then a step
    (which must keep them in state 2)."""
    return [*facts, *system.types(), *system.trans(1), *held_at(system, lemmas, (1,))]


def _first(prop: Property, steps: int) -> str:
    """The base case's words: "in the first three states", "on the first step"."""
    if prop.kind is PropertyKind.ALWAYS:
        return f"in the first {('two', 'three')[steps - 1]} states"
    return f"on the first {('step', 'two steps')[steps - 1]}"


def discharged(system: TransitionSystem, obligations: list[Obligation], seed: int, budget: Budget) -> list[Answer]:
    """For each obligation, UNSAT: it holds; SAT: it fails; UNKNOWN: no answer within the budget.
    The obligations with the same context are asked together, those of the lemmas apart from
    those of the properties, and all these questions at once (`Budget.ask_at_once`); where one is
    not unsat, its obligations are asked again as `_drop_failing` asks them (each model drops
    those it breaks), and where a question of several has no answer, each is asked alone."""
    groups: dict[tuple[int, bool], list[int]] = {}
    for i, o in enumerate(obligations):
        groups.setdefault((id(o.context), o.of_lemma), []).append(i)

    def answered(members: list[int]) -> dict[int, Answer]:
        held = _drop_failing(system, members, obligations[members[0]].context, lambda i: [obligations[i].goal], seed, budget)
        if held is None:
            return {members[0]: Answer.UNKNOWN} if len(members) == 1 else {i: a for m in members for i, a in answered([m]).items()}
        return {i: Answer.UNSAT if i in held else Answer.SAT for i in members}

    questions = [(_asked_together(obligations[members[0]].context, [Or([obligations[i].goal]) for i in members], seed), [])
                 for members in groups.values()]
    answers = {}
    for members, first in zip(groups.values(), budget.ask_at_once(questions)):
        held = first.answer is Answer.UNSAT
        answers |= {i: Answer.UNSAT for i in members} if held else answered(members)
    return [answers[i] for i in range(len(obligations))]


def proved_with(system: TransitionSystem, props: list[Property], kept: list[Property], seed: int, facts: list,
                budget: Budget, wanted: list[Property] | None = None, forms: tuple[int, ...] = (),
                unchanged: Unchanged = Unchanged()) -> dict[Property, Proof]:
    """The properties among `props` that the induction step proves with the lemmas `kept` (an
    inductive invariant) assumed: the properties' step is asked of all of them together
    (`search.inductive`, `wanted`, `forms` and `unchanged` as there), their base case is the
    bounded check's."""
    proved_ids = {p.id for p in kept}
    safe = [p for p in props if wrap_safe(p, proved_ids)]
    proved, steps = inductive(system, safe, seed, facts, budget, kept, None if wanted is None else [p for p in wanted if p in safe], forms, unchanged)
    return {p: Proof(p, tuple(kept), tuple(q for q in proved if q is not p), steps) for p in proved}


# The least depth from which `unreachable` rules a goal out: its question's step, from state 1, is
# shaped like every step after the first.
UNREACHABLE_FROM = 2


def unreachable(system: TransitionSystem, goals: dict, kept: list[Property], seed: int, facts: list, budget: Budget) -> set:
    """The keys of `goals` (each a function of a depth k, like `search.Goal.at`: a condition on
    state k and on step k's action and next state) whose condition holds after no step from a
    state where the lemmas `kept` (an inductive invariant) hold: so at no depth from
    UNREACHABLE_FROM on, the base case being the bounded search's. Empty when Z3 gives no answer."""
    context = [*facts, *system.types(), *system.trans(UNREACHABLE_FROM - 1), *held_at(system, kept, (UNREACHABLE_FROM - 1, UNREACHABLE_FROM))]
    return set(_drop_failing(system, list(goals), context, lambda key: [goals[key](UNREACHABLE_FROM)], seed, budget) or ())


# The invariants found in this process, by what they depend on (`_invariant_key`): a rule set's
# check and its lint ask for the same one.
_found: dict[tuple, frozenset[str]] = {}


def _invariant_key(system: TransitionSystem, pool: list[Property], seed: int, facts: list) -> tuple:
    return (system.structure, seed, tuple(p.id for p in pool), tuple(f.sexpr() for f in facts))


@dataclass(frozen=True)
class Then:
    """The induction a caller asks once Houdini has found the invariant (`proved_with`): its
    properties, and the steps of its first question."""

    props: tuple[Property, ...]
    steps: int


def invariant(system: TransitionSystem, pool: list[Property], seed: int, facts: list, budget: Budget,
              unchanged: Unchanged = Unchanged(), then: Then | None = None) -> list[Property] | None:
    """The largest subset of `pool` inductive together (Houdini), or None when Z3 gives no answer.
    Found once per process for the same system, pool, seed and facts. With the system's own rules
    (facts of another rule set, as coverage gives, leave it out), the candidates that a state of a
    few random runs falsifies (`simulate.falsified`) are left out first: such a state is reachable,
    so no inductive invariant holding at the start has them, and Houdini finds the same subset with
    fewer questions. The runs are the whole game's on the whole game or a cone of influence of it
    (`Slice.projects_the_game`; a candidate that reads a part a cone leaves out is not kept there
    either: nothing constrains that part after the start), and take only the system's actions on a
    system of fewer actions that keeps every part (the pregame's). With `unchanged` (a removal's,
    whose pool is the intact invariant), Houdini asks its base case, and its first step, only of
    the steps the removal may change (`search.Unchanged`). With `then`, each of Houdini's questions
    about a step is asked at once with the first question of that induction, assuming the lemmas
    it asks about (`_houdini`)."""
    key = _invariant_key(system, pool, seed, facts)
    if key not in _found:
        own_rules = [f.sexpr() for f in facts] == [f.sexpr() for f in system.rule_values()]
        kinds = None if system.slice.projects_the_game else system.slice.kinds
        reached = falsified(system.ruleset, system.scope, pool, FALSIFYING_RUNS, seed, kinds) if own_rules else set()
        kept = _houdini(system, [p for p in pool if p.id not in reached], seed, facts, budget, unchanged, then)
        if kept is None:
            return None
        _found[key] = frozenset(p.id for p in kept)
    return [p for p in pool if p.id in _found[key]]


# The random runs, at most, whose states rule candidate lemmas out before Houdini (`invariant`): they
# stop sooner once simulate.STALE_RUNS in a row rule out nothing new.
FALSIFYING_RUNS = 60


def rules_resting(system: TransitionSystem, kept: list[Property], seed: int, budget: Budget) -> frozenset[str] | None:
    """The rules in force that the lemmas `kept` (inductive with the system's rules in force) rest
    on: those in Z3's unsat cores of their base case and of their step, the rule literals assumed.
    With any other rule removed, the same questions are still unsat, so `kept` is still inductive.
    None when Z3 gives no answer."""
    ruleset = system.ruleset
    removed = [Not(system.rule_literal[r]) for r in ruleset.removed]
    literals = {r.id: system.rule_literal[r.id] for r in ruleset.in_force if r.id in system.rule_literal}
    questions = [
        [*_lemmas_base(system, removed), Or([violated_at(system, p, k) for p in kept for k in (0, 1)])],
        [*_lemmas_step(system, removed, kept), Or([violated_at(system, p, 2) for p in kept])],
    ]
    resting: set[str] = set()
    for question in questions:
        solver, copy = isolated(seed)
        solver.add([copy(f) for f in question])
        answer = budget.ask(solver, [copy(lit) for lit in literals.values()])
        if answer.answer is not Answer.UNSAT:
            return None
        resting |= {rule_id for rule_id, lit in literals.items() if str(lit) in answer.core}
    return frozenset(resting)


def _houdini(system: TransitionSystem, pool: list[Property], seed: int, facts: list, budget: Budget,
            unchanged: Unchanged = Unchanged(), then: Then | None = None) -> list[Property] | None:
    """Houdini. With `then`, its question whether every step keeps the lemmas still pending is
    asked at once with the first question of that induction assuming them (`search.induction_solver`):
    where those lemmas are the invariant, as they mostly are by then, the induction's answer is
    already there when it is asked (an unsat one is kept in `search.answered_ahead`), and the two
    questions have run side by side."""
    base = _lemmas_base(system, facts) + unchanged.from_start(system, pool)
    pending = _drop_failing(system, pool, base, lambda p: [violated_at(system, p, 0), violated_at(system, p, 1)], seed, budget)
    while pending is not None:
        step = _lemmas_step(system, facts, pending) + unchanged.steps_of(system, 1, pending, pending)
        still = _drop_failing(system, pending, step, lambda p: [violated_at(system, p, 2)], seed, budget, once=True,
                              beside=_induction_beside(system, pending, seed, facts, then) if unchanged.kinds is None else None)
        if still is None or len(still) == len(pending):
            return still
        pending = still
    return None


def _asked_together(context: list, goals: list, seed: int) -> z3.Solver:
    """A solver, in a Z3 context of its own, of whether any of `goals` can hold with `context`."""
    solver, copy = isolated(seed)
    solver.add([copy(f) for f in context] + [copy(Or(goals))])
    return solver


def _induction_beside(system: TransitionSystem, lemmas: list[Property], seed: int, facts: list, then: Then | None) -> tuple | None:
    """The first question of the induction `then` assuming the lemmas `lemmas`, and its key in
    `search.answered_ahead`; None when there is no induction to ask, or no property of it that
    these lemmas let it prove (`proved_with`)."""
    if then is None:
        return None
    safe = [p for p in then.props if wrap_safe(p, {q.id for q in lemmas})]
    if not safe:
        return None
    return induction_solver(system, safe, then.steps, seed, facts, lemmas), induction_key(system, safe, then.steps, seed, facts, lemmas)


def _drop_failing(system: TransitionSystem, pool: list, context: list, failures, seed: int, budget: Budget,
                  once: bool = False, beside: tuple | None = None) -> list | None:
    """The members of `pool` (properties, or any keys) that cannot fail given `context`: each model
    drops those it makes fail, and the question is asked again of the rest. With `once`, the
    members the first model does not make fail (all of `pool` when none can fail): Houdini's step
    asks again only with the context that assumes fewer lemmas. None when Z3 gives no answer.
    `beside` (a solver in a context of its own, and a key): a question asked at once with the
    first, with as many units and not charged to the budget (the first is asked as it would be
    alone), whose key goes to `search.answered_ahead` where it is unsat."""
    goals = {p: Or(failures(p)) for p in pool}
    pending = list(pool)
    while pending:
        solver = _asked_together(context, [goals[p] for p in pending], seed)
        if beside is not None:
            other, key = beside
            answer, ahead = budget.ask_at_once([(solver, []), (other, [])], charged=1)
            if ahead.answer is Answer.UNSAT:
                answered_ahead.add(key)
            beside = None
        else:
            answer = budget.ask(solver, [])
        if answer.answer is Answer.UNSAT:
            return pending
        if answer.answer is Answer.UNKNOWN:
            return None
        model = answer.model.translate(system.ctx)
        failing = [p for p in pending if z3.is_true(model.eval(goals[p], model_completion=True))]
        if not failing:
            raise CheckerBug(f"Z3's model of one of {len(pending)} questions asked together satisfies none of them when evaluated")
        pending = [p for p in pending if p not in failing]
        if once:
            return pending
    return pending


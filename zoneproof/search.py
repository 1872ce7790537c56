"""The two searches of a check, over one transition system.

`Deepening` is bounded model checking deepened one step at a time: at each depth, one question
asks whether some property still pending fails there, so the first depth at which a property fails
is its shortest counterexample's. The steps are built once and reused at every depth.

`inductive` is induction strengthened with lemmas: the properties, assumed of consecutive states
(or steps) of any run whatever its first state, cannot fail on the next (one state or step where
that is enough, else INDUCTION_SPAN + 1 states). With a bounded check as many steps deep as that
question (the base case), that proves them at every depth.

Every question has a budget in Z3's resource units (`rlimit`: the same on a loaded machine and an
idle one), its own or what its phase's earlier questions left, and a wall-clock guard.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

import z3

from . import progress
from .encode.backend import SymbolicBackend
from .encode.system import TransitionSystem
from .errors import CheckerBug, Interrupted
from .evaluate import evaluate
from .properties import Property, PropertyKind
from .solver import Answer, SolverResult, check, check_at_once, guard_for, isolated, new_solver, resource_count, restated, units_for
from .terms import Implies, Not, Or

# The states (or steps) an induction hypothesis spans: a property assumed of INDUCTION_SPAN in a
# row is proved of the next.
INDUCTION_SPAN = 1
# Z3's reasons for an answer it gave up on within its resource budget.
OUT_OF_BUDGET = ("canceled", "max. resource limit exceeded", "resource limits reached")


def first_step(prop: Property) -> int:
    """The first state (always) or step (step properties) a property speaks of."""
    return 0 if prop.kind is PropertyKind.ALWAYS else 1


def violated_at(system: TransitionSystem, prop: Property, k: int) -> z3.BoolRef:
    """The property fails at state k (an `always` property) or on the step into state k: past the
    first state or step, its formula at 1 renamed (`TransitionSystem.at_state`)."""
    at = k if prop.kind is PropertyKind.ALWAYS else k - 1
    return system.at_state(prop, at, lambda t: Not(evaluate(prop, SymbolicBackend(system, t), system.slots, system.players)))


def held_at(system: TransitionSystem, props, states) -> list[z3.BoolRef]:
    """Each property holding at each of the states (or on the step into each)."""
    return [Not(violated_at(system, p, k)) for p in props for k in states]


class Units:
    """Resource units left to the questions of one phase, which spend them in turn."""

    def __init__(self, left: int):
        self.left = left


@dataclass(frozen=True)
class Budget:
    """What questions may cost: Z3's resource units, and wall-clock seconds as an outer guard:
    until `deadline`, and at most `seconds` for any one question. The units are `rlimit` for each
    question or, with `shared` (a `phase`), those its earlier questions left. Made from a number
    of seconds (`--timeout`), the guard is `solver.guard_for` them."""

    rlimit: int
    deadline: float = math.inf
    seconds: float = math.inf
    shared: Units | None = None

    @classmethod
    def phase(cls, seconds: float) -> "Budget":
        """`units_for(seconds)` for all the questions asked under it."""
        units = units_for(seconds)
        return cls(units, time.monotonic() + guard_for(seconds), shared=Units(units))

    @classmethod
    def each(cls, seconds: float, units: int | None = None) -> "Budget":
        """`units` (`units_for(seconds)` unless given) for each question asked under it."""
        return cls(units_for(seconds) if units is None else units, seconds=guard_for(seconds))

    def ask(self, solver: z3.Solver, assumptions: list) -> SolverResult:
        return self.ask_at_once([(solver, assumptions)])[0]

    def ask_at_once(self, questions: list[tuple[z3.Solver, list]], charged: int | None = None) -> list[SolverResult]:
        """Each question (solver, assumptions) asked, several at once (`solver.check_at_once`: each
        solver in a Z3 context of its own), each with the units the first would have alone (a
        phase's: those its earlier questions left), so that no answer depends on which finishes
        first. A phase is charged with what the first `charged` spend (every one's unless given)."""
        now = time.monotonic()
        seconds = min(self.deadline - now, self.seconds)
        if seconds <= 0:
            return [SolverResult(Answer.UNKNOWN, reason="timeout") for _ in questions]
        units = self.rlimit if self.shared is None else self.shared.left
        if units <= 0:
            return [SolverResult(Answer.UNKNOWN, reason="budget") for _ in questions]
        before = [resource_count(solver) if self.shared is not None else 0 for solver, _ in questions]
        asked = [(solver, assumptions, seconds * 1000, units) for solver, assumptions in questions]
        answers = [check(*asked[0])] if len(asked) == 1 else check_at_once(asked)
        if self.shared is not None:
            self.shared.left -= sum(resource_count(solver) - spent for (solver, _), spent in list(zip(questions, before))[:charged])
        within_guard = time.monotonic() - now < seconds
        return [SolverResult(Answer.UNKNOWN, reason="budget") if a.answer is Answer.UNKNOWN and a.reason in OUT_OF_BUDGET and within_guard else a
                for a in answers]


@dataclass(frozen=True)
class Goal:
    """A question the deepening asks at each depth k from `first` to `bound`: can `at(k)` hold after
    k steps? `at(k)` may speak of state k and of step k's action and next state, which no step
    constrains yet. The goals of one `group` are asked together, one question per depth."""

    first: int
    bound: int
    at: Callable[[int], z3.BoolRef]
    group: str = ""


@dataclass(frozen=True)
class Outcome:
    """What the deepening found of one goal (a property's violation, or a lint question): reached
    at `depth` (`violated`, with the model), not reached up to `depth`, or no answer past `depth`
    (`unknown`, with the reason)."""

    depth: int
    model: z3.ModelRef | None = None
    unknown: str = ""
    witness: object = None  # reached: a run the caller knew of (`earliest`'s `known`) instead of a model
    alone: bool = False  # the model is the one `alone` gives for this goal at this depth

    @property
    def violated(self) -> bool:
        return self.model is not None or self.witness is not None


class Deepening:
    """The start of a game and the steps built so far, asked one depth at a time."""

    def __init__(self, system: TransitionSystem, seed: int, facts: list, incremental: bool = False, any_model: bool = False):
        """With `incremental`, every question is asked of one solver that keeps what it learned;
        otherwise each question is a solver of its own over the steps built so far (Z3 then
        simplifies the whole formula with the rules in force before it searches, which measured
        faster for a check's questions). With `any_model` (coverage's removals, which show no
        trace), a question about one goal is asked plainly (`_ask_at`)."""
        self.system = system
        self.any_model = any_model
        self.seed = seed
        self.facts = system.init() + facts
        self.incremental = incremental
        self.solver = new_solver(system.ctx, seed)
        self.solver.add(self.facts)
        self.steps = 0
        self.completed = -1  # the last depth at which every pending property was asked about
        self._questions = 0
        self._named: dict = {}

    def goal_at(self, key: Hashable, goal: Goal, k: int) -> z3.BoolRef:
        """`goal.at(k)`; for the incremental solver, a literal it holds equal to it once, so that
        asking again for fewer of a group's goals adds only their disjunction."""
        if not self.incremental:
            return goal.at(k)
        if (key, k) not in self._named:
            name = z3.Bool(f"goal#{len(self._named)}", self.system.ctx)
            self.solver.add(name == goal.at(k))
            self._named[(key, k)] = name
        return self._named[(key, k)]

    def reach(self, k: int) -> None:
        while self.steps < k:
            if self.incremental:
                self.solver.add(self.system.trans(self.steps))
            self.steps += 1

    def ask(self, goal: z3.BoolRef, budget: Budget, assumptions: tuple = (), by_itself: bool = False) -> SolverResult:
        """Can the goal hold (of the steps built so far)? `by_itself` (not incremental, no
        assumptions): asked as `alone` asks it."""
        if by_itself:
            return alone([*self.facts, *self.system.steps(0, self.steps), goal], self.system, self.seed, budget)
        if not self.incremental:
            solver = new_solver(self.system.ctx, self.seed)
            solver.add(self.facts + self.system.steps(0, self.steps) + [goal])
            return budget.ask(solver, list(assumptions))
        self._questions += 1
        flag = z3.Bool(f"question#{self._questions}", self.system.ctx)
        self.solver.add(Implies(flag, goal))
        return budget.ask(self.solver, [flag, *assumptions])

    def first_violations(self, bounds: dict[Property, int], budget: Budget, start: int = 0,
                         assumptions: tuple = (), known: dict | None = None) -> dict[Property, Outcome]:
        """For each property, the least depth from `start` up to its bound at which it fails, or
        that it does not fail up to its bound (`earliest`, with its `known` runs)."""
        goals = {p: Goal(first_step(p), bound, partial(violated_at, self.system, p)) for p, bound in bounds.items()}
        return self.earliest(goals, budget, start, assumptions, known)

    def earliest(self, goals: dict[Hashable, Goal], budget: Budget, start: int = 0,
                 assumptions: tuple = (), known: dict | None = None) -> dict[Hashable, Outcome]:
        """For each goal, the least depth from `start` up to its bound at which it can hold (with
        the model), or that it cannot up to its bound. At each depth, one question per group asks
        for any of the group's goals still pending there; a model drops those it satisfies and the
        question is asked again for the rest. A question with no answer leaves its group's pending
        goals unknown past the depth before; the other groups go on. `known` maps a goal to a run
        the caller has that reaches it (with its `depth`): still pending at that depth, the goal is
        reached there by that run (its `witness`), without a question."""
        found: dict[Hashable, Outcome] = {}
        pending = dict(goals)
        try:
            self._deepen(found, pending, start, budget, assumptions, known or {}, alone_when_one=len(goals) > 1 and not self.any_model)
        except KeyboardInterrupt as e:
            raise Interrupted(found | {key: Outcome(self.completed, unknown="interrupted") for key in pending}) from e
        return found

    def _deepen(self, found: dict, pending: dict, k: int, budget: Budget, assumptions: tuple, known: dict,
                alone_when_one: bool) -> None:
        self.completed = k - 1
        while pending:
            for key in [key for key, goal in pending.items() if goal.bound < k]:
                found[key] = Outcome(pending.pop(key).bound)
            groups: dict[str, list] = {}
            for key, goal in pending.items():
                if goal.first <= k:
                    groups.setdefault(goal.group, []).append(key)
            if groups:
                self.reach(k)
                progress.at_depth(k)
            for keys in groups.values():
                for key in [key for key in keys if key in known and known[key].depth == k]:
                    found[key] = Outcome(k, witness=known[key])
                    del pending[key]
                    keys.remove(key)
                self._ask_at(found, pending, keys, k, budget, assumptions, alone_when_one)
            self.completed = k
            k += 1

    def _ask_at(self, found: dict, pending: dict, keys: list, k: int, budget: Budget, assumptions: tuple,
                alone_when_one: bool = False) -> None:
        """Settle at depth k the goals `keys` of one group: those a model satisfies are found there.
        With `alone_when_one` (the deepening was given several goals), a question about one goal is
        asked as `alone` asks it, so that its model is the one the goal would get by itself; a
        deepening of one goal asks plainly (restating a question costs more than the plain one,
        which only a violation pays back: docs/speed.md)."""
        while keys:
            goals = {key: self.goal_at(key, pending[key], k) for key in keys}
            by_itself = alone_when_one and len(keys) == 1 and not self.incremental and not assumptions
            answer = self.ask(goals[keys[0]] if by_itself else Or(list(goals.values())), budget, assumptions, by_itself)
            if answer.answer is Answer.UNKNOWN:
                group = pending[keys[0]].group
                for key in [key for key, goal in pending.items() if goal.group == group]:
                    found[key] = Outcome(k - 1, unknown=answer.reason)
                    del pending[key]
                return
            if answer.answer is Answer.UNSAT:
                return
            hit = [key for key in keys if _holds_in(answer.model, goals[key])]
            if not hit:
                raise CheckerBug(f"Z3's model of one of {', '.join(map(_named, keys))} at depth {k}"
                                 " satisfies none of them when evaluated")
            for key in hit:
                found[key] = Outcome(k, answer.model, alone=by_itself)
                del pending[key]
            keys = [key for key in keys if key not in hit]


def _named(key: Hashable) -> str:
    return key.id if isinstance(key, Property) else str(key)


def _holds_in(model: z3.ModelRef, goal: z3.BoolRef) -> bool:
    return z3.is_true(model.eval(goal, model_completion=True))


def violation_alone(system: TransitionSystem, prop: Property, k: int, seed: int, facts: list, budget: Budget) -> SolverResult:
    """A model of the property failing at depth k, asked in a Z3 context of its own (and given
    back in the system's): the counterexample is the one a check of this property alone finds,
    whatever else the check asks."""
    return alone([*system.init(), *facts, *system.steps(0, k), violated_at(system, prop, k)], system, seed, budget)


def alone(formulas: list, system: TransitionSystem, seed: int, budget: Budget) -> SolverResult:
    """The formulas asked in a Z3 context of their own (`solver.restated`), the model given back in
    the system's: what Z3 finds depends on the formulas alone."""
    solver = restated(formulas, seed)
    answer = budget.ask(solver, [])
    if answer.model is None:
        return answer
    return SolverResult(answer.answer, answer.model.translate(system.ctx))


@dataclass(frozen=True)
class Unchanged:
    """What a removal's questions of one system can take from the intact rule set's (coverage): a
    step of any action kind but `kinds` (those the removed rule decides) is one of the intact rule
    set's own steps, and the start is its start, so such a step keeps its invariant of the lemmas
    `lemmas` and its proof over one step of the properties `proved` together, which assumes only
    `needed` of them (`assumptions_needed`; all of them unless given). A question over one step
    that assumes at least what an intact one needed, and concludes about no more, is asked of the
    steps of `kinds` alone. `Unchanged()` knows nothing: every step is asked."""

    kinds: frozenset | None = None
    lemmas: frozenset[Property] = frozenset()
    proved: frozenset[Property] = frozenset()
    needed: frozenset[Property] | None = None

    def steps_of(self, system: TransitionSystem, t: int, assumed: list[Property], concluded: list[Property]) -> list:
        """[step t is of `kinds`] for a question over step t that assumes `assumed` (lemmas and
        properties) and concludes about `concluded`, when the intact rule set's question answers
        for every other step; else []."""
        if self.kinds is None:
            return []
        assumed, concluded = set(assumed), set(concluded)
        needed = self.proved if self.needed is None else self.needed
        if assumed >= self.lemmas and (concluded <= self.lemmas or (concluded <= self.proved and assumed >= needed)):
            return [system.kind_in(t, self.kinds)]
        return []

    def from_start(self, system: TransitionSystem, concluded: list[Property]) -> list:
        """`steps_of` the first step, from the start, where every intact lemma holds."""
        return self.steps_of(system, 0, list(self.lemmas), concluded)


def inductive(system: TransitionSystem, props: list[Property], seed: int, facts: list, budget: Budget,
              invariant: list[Property] = (), wanted: list[Property] | None = None,
              forms: tuple[int, ...] = (), unchanged: Unchanged = Unchanged()) -> tuple[list[Property], int]:
    """The properties among `props` that the induction step proves, the lemmas `invariant` (an
    inductive invariant) assumed, and the steps of the question that proved them. Their base case
    is left to the caller: no violation in the first that many steps (states 0 to that many, or
    the steps into them): the question's steps stand for every step after the first.

    The question: assume the lemmas, and every property, on INDUCTION_SPAN + 1 consecutive states
    (on the step into the last of them) of any run whatever its first state, reachable or not; can
    one of them fail on the next state (step)? Unsat proves them all. The run starts at state 1, so
    that its steps are shaped like every step after the first (step 0 has no step before it). A
    model drops the properties it makes fail, and the rest are asked again. The question is first
    asked over one step (assumed of one state, or of the step into it): half the unrolling, and a
    base case one step deep, where that proves all the properties `wanted` (all of them unless
    named: the others help); a model that breaks one of those sends them all to the question over
    INDUCTION_SPAN + 1 steps (one property may hold only because another did a step earlier).
    `forms` (the steps of the questions to ask, in that order; INDUCTION_STEPS unless given) may
    name one form only: the question over it drops what each model breaks and proves the rest.
    Each question runs in a Z3 context of its own: the bounded searches, and the counterexamples
    they find, stay as they would be without it. With `unchanged` (a removal's), a question over
    one step asks only of the steps it may change (`Unchanged.steps_of`)."""
    *first_tried, steps = forms or INDUCTION_STEPS
    for shorter in first_tried:
        proved = _inductive_over(system, props, shorter, seed, facts, budget, invariant, props if wanted is None else wanted, unchanged)
        if proved:
            return proved, shorter
    return _inductive_over(system, props, steps, seed, facts, budget, invariant, (), unchanged), steps


# The steps of the induction's questions, in the order they are asked (`inductive`).
INDUCTION_STEPS = (1, INDUCTION_SPAN + 1)


# The state (or the step into the state) an induction's question concludes about.
CONCLUDED_AT = INDUCTION_SPAN + 2


def induction_question(system: TransitionSystem, props, steps: int, facts: list, invariant) -> tuple[list, dict, dict]:
    """The induction's question over `steps` steps, to CONCLUDED_AT: its context (the steps, and the
    lemmas `invariant` holding on every state, the last too: they are inductive, so the steps
    make them hold there, and Z3 then rules out more of the last state sooner), and for each
    property the violations assumed away (it held on the states or steps before) and the one
    concluded about."""
    first = CONCLUDED_AT - steps
    context = [*facts, *system.types(), *system.steps(first, CONCLUDED_AT), *held_at(system, invariant, range(first, CONCLUDED_AT + 1))]
    assumed = {p: [violated_at(system, p, k) for k in range(max(first_step(p) + 1, first), CONCLUDED_AT)] for p in props}
    return context, assumed, {p: violated_at(system, p, CONCLUDED_AT) for p in props}


def assumptions_needed(system: TransitionSystem, props: list[Property], seed: int, facts: list, budget: Budget,
                       invariant: list[Property]) -> frozenset[Property]:
    """The properties among `props` (proved together over one step, the lemmas `invariant`
    assumed) whose assumption the induction's question over one step needs to prove them all: those
    in Z3's unsat core of that question, each property's assumption a literal. All of them when Z3
    gives no unsat answer. Any set of them that holds these proves every one of them over one step."""
    context, assumed, concluded = induction_question(system, props, 1, facts, invariant)
    solver, copy = isolated(seed)
    literals = {p: z3.Bool(f"assumed#{i}", solver.ctx) for i, p in enumerate(props)}
    solver.add([copy(f) for f in context] + [copy(Or([concluded[p] for p in props]))])
    solver.add([Implies(literals[p], copy(Not(v))) for p in props for v in assumed[p]])
    answer = budget.ask(solver, list(literals.values()))
    if answer.answer is not Answer.UNSAT:
        return frozenset(props)
    return frozenset(p for p in props if str(literals[p]) in answer.core)


# The induction questions answered unsat ahead of time, while Houdini asked whether their lemmas
# are inductive (`proof.invariant`'s `then`), by `induction_key`.
answered_ahead: set[tuple] = set()


def induction_key(system: TransitionSystem, props: list[Property], steps: int, seed: int, facts: list, invariant: list[Property]) -> tuple:
    return (system.structure, steps, seed, tuple(p.id for p in props), tuple(p.id for p in invariant), tuple(f.sexpr() for f in facts))


def induction_solver(system: TransitionSystem, props: list[Property], steps: int, seed: int, facts: list,
                     invariant: list[Property]) -> z3.Solver:
    """`inductive`'s first question over `steps` steps, of every property of `props`, in a Z3
    context of its own (with no removal's narrowing)."""
    return _induction_solver(props, seed, induction_question(system, props, steps, facts, invariant))


def _induction_solver(pending: list[Property], seed: int, question: tuple, narrowed: list = ()) -> z3.Solver:
    context, assumed, concluded = question
    solver, copy = isolated(seed)
    solver.add([copy(f) for f in [*context, *narrowed, *[Not(v) for p in pending for v in assumed[p]], Or([concluded[p] for p in pending])]])
    return solver


def _inductive_over(system: TransitionSystem, props: list[Property], steps: int, seed: int, facts: list, budget: Budget,
                    invariant: list[Property], wanted: list[Property] = (), unchanged: Unchanged = Unchanged()) -> list[Property]:
    """`inductive`'s question over `steps` steps: none proved once a model breaks one of `wanted`."""
    if unchanged.kinds is None and induction_key(system, props, steps, seed, facts, invariant) in answered_ahead:
        return list(props)
    question = induction_question(system, props, steps, facts, invariant)
    _, _, concluded = question
    pending = list(props)
    while pending:
        narrowed = unchanged.steps_of(system, CONCLUDED_AT - 1, [*invariant, *pending], pending) if steps == 1 else []
        solver = _induction_solver(pending, seed, question, narrowed)
        answer = budget.ask(solver, [])
        if answer.answer is Answer.UNSAT:
            return pending
        if answer.answer is Answer.UNKNOWN:
            return []
        model = answer.model.translate(system.ctx)
        if any(_holds_in(model, concluded[p]) for p in wanted):
            return []
        pending = [p for p in pending if not _holds_in(model, concluded[p])]
    return []

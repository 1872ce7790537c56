"""Rule-set lint: dead actions and rules, vacuous properties, conflicting rules.

What happens is shown by a run that replays in the interpreter: a live action or a fired trigger
comes with a trace, a rule that matters with a step whose outcome the interpreter sees change, a
conflict with a state where the interpreter refuses the event. The run is one lint stored last
time (`store`, replayed), one of the random runs (`simulate`, shrunk) or one Z3 finds; it is not
always a shortest one. What never happens (a dead
action or rule, a vacuous property, no conflict) is decided by Z3 within the scope, or proved at
every depth with the structural lemmas.
"""

from __future__ import annotations

from collections.abc import Callable
import time
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import partial

import z3

from . import progress
from .check import CheckResult, Verdict, counterexample
from .encode.slicing import pregame_only, pregame_system, rules_deciding, rules_deciding_each
from .encode.system import TransitionSystem, shared_system
from .encode.variables import Codes
from .errors import CheckerBug, Interrupted
from .evaluate import int_reach
from .explicit import StateSpace
from .interpreter import World, outcome_or_refusal, sees
from .model import PLAYER_NAMES, PREGAME_ACTIONS, Action, ActionKind, Behaviour, GameState, Scope, slots_for
from .properties import BinOp, Expr, Property, PropertyKind, Quant, expr_text, parse_properties
from .replay import execute
from .report import changes, describe_action
from .ruleset import RuleSet
from .proof import UNREACHABLE_FROM, Proof, invariant, lemmas, proved_with, unreachable
from .simulate import RUN_LENGTH, RUNS, found_witnesses, lifted_witness, pregame_witnesses, reached_on, stored_witnesses
from .search import INDUCTION_SPAN, Budget, Deepening, Goal, Outcome, first_step, violated_at
from .solver import Answer, SolverResult, new_solver
from .terms import And, Not, Xor
from .store import PROPERTY, RULE, Run, Runs, run_of
from .trace import Trace, of_ruleset


class Status(str, Enum):
    LIVE = "live"  # an action taken, or a rule that changes some step
    DEAD = "dead"
    DOCUMENTED = "documented"  # a rule the file declares as constraining nothing
    TRIGGERED = "triggered"  # a property whose trigger fires in some reachable step
    VACUOUS = "vacuous"  # a property whose trigger never fires within the scope
    UNCONDITIONAL = "unconditional"  # a property with no trigger: it speaks of every state or step
    UNKNOWN = "unknown"  # Z3 gave no answer in time
    ERROR = "error"  # Z3's example does not replay in the interpreter: a checker bug


@dataclass(frozen=True)
class ActionFinding:
    action: ActionKind
    status: Status  # LIVE, DEAD, UNKNOWN or ERROR
    step: int  # LIVE: the step at which the witness takes the action (not always the first step that can)
    detail: str
    witness: Trace | None = None
    known: str = ""  # DEAD: why the rule set file expects it (`[[dead]]`)
    stale: str = ""  # LIVE: why the rule set file says it is dead (`[[dead]]`), which it is not


@dataclass(frozen=True)
class RuleFinding:
    rule: str
    status: Status  # LIVE, DEAD, DOCUMENTED, UNKNOWN or ERROR
    detail: str
    known: str = ""  # DEAD: why the rule set file expects it (`[[dead]]`)
    stale: str = ""  # LIVE: why the rule set file says it is dead (`[[dead]]`), which it is not
    game: str = ""  # LIVE: the larger game a run showed it live in (`larger_games`); "" within the scope


@dataclass(frozen=True)
class Trigger:
    text: str  # the condition, as property-language text (its variables existentially bound)
    status: Status  # TRIGGERED, VACUOUS, UNKNOWN or ERROR
    step: int  # TRIGGERED: the state (always) or step (step properties) where it fires in the witness
    witness: Trace | None = None
    every_depth: bool = False  # VACUOUS: proved never to fire at any depth, not only within the depth bound


@dataclass(frozen=True)
class PropertyFinding:
    prop: Property
    status: Status  # TRIGGERED, VACUOUS, UNCONDITIONAL, UNKNOWN or ERROR
    triggers: tuple[Trigger, ...]  # one per implication; a trigger that never fires is noted
    detail: str = ""
    known: str = ""  # VACUOUS: why the rule set file expects it (`[[expect]]` verdict "vacuous")
    stale: str = ""  # TRIGGERED or UNCONDITIONAL: why the rule set file expects it vacuous, which it is not

    @property
    def fired(self) -> Trigger | None:
        """The first trigger that fires with a witness trace."""
        return next((t for t in self.triggers if t.witness is not None), None)

    @property
    def witness(self) -> Trace | None:
        return self.fired.witness if self.fired is not None else None


@dataclass(frozen=True)
class Conflict:
    rules: tuple[str, ...]  # a minimal set of rules in force that leaves the event no outcome
    event: str
    step: int  # the state the event happens in (0: the start of the game)
    trace: Trace | None  # the steps that reach that state (None for the start of the game)
    action: Action | None


@dataclass(frozen=True)
class LintReport:
    ruleset: RuleSet
    scope: Scope
    actions: tuple[ActionFinding, ...]
    rules: tuple[RuleFinding, ...]
    properties: tuple[PropertyFinding, ...]
    conflicts: tuple[Conflict, ...]
    seconds: float
    unanswered: tuple[str, ...] = ()  # the searches for conflicts that Z3 gave no answer to in time
    checker_bugs: tuple[str, ...] = ()  # examples of Z3's that the interpreter does not reproduce
    runs: dict = field(default_factory=dict)  # a run of each goal reached, None for each one not reached (`store`)
    replayed: int = 0  # the goals a stored run reached

    @property
    def findings(self) -> tuple:
        return (*self.actions, *self.rules, *self.properties)

    def named_findings(self) -> list[tuple[str, str, ActionFinding | RuleFinding | PropertyFinding]]:
        """(kind, name, finding) for every finding: "action", "rule" or "property", and its name."""
        return ([("action", f.action.value, f) for f in self.actions] + [("rule", f.rule, f) for f in self.rules]
                + [("property", f.prop.id, f) for f in self.properties])

    def count(self, status: Status) -> int:
        return sum(f.status is status for f in self.findings)

    @property
    def problems(self) -> int:
        """Dead actions and rules and vacuous properties that the file does not expect, declarations
        of the file that they are that the findings contradict (`stale`), and conflicts."""
        return sum((f.status in (Status.DEAD, Status.VACUOUS) and not f.known) or bool(f.stale) for f in self.findings) + len(self.conflicts)

    @property
    def vacuous(self) -> tuple[str, ...]:
        return tuple(f.prop.id for f in self.properties if f.status is Status.VACUOUS)


def lint(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int = 0, timeout: float = 60.0,
         stored: Runs | None = None) -> LintReport:
    """Every lint check of one rule set; each question may use the resource units of `timeout`
    seconds (`search.Budget.each`). The `stored` runs (`store`) are replayed first: a goal that its
    run still reaches is not searched for.

    After the start of a game, every other question is a goal of one deepening (`search.Deepening`)
    to the depth bound: each action and each trigger of a property taken or fired (a probe
    property violated), each rule's removal changing a step or a player's view, an event left
    with no legal outcome. So each is found at its least depth, and the goals of a kind that are
    not found at a depth are ruled out there by one question. A disagreement between Z3 and the
    interpreter (CheckerBug) anywhere in it gives a report of that checker bug alone."""
    progress.working_on(ruleset.label, "lint")
    started = time.monotonic()
    scope = ruleset.scope_for(scope)
    budget = Budget.each(timeout)
    start = ConflictSearch()
    try:
        start = initial_conflict(ruleset, scope, seed, budget)
        return _lint(ruleset, props, scope, seed, budget, start, started, stored or {})
    except CheckerBug as bug:
        return LintReport(ruleset, scope, (), (), (), (), time.monotonic() - started, (start.unanswered,) if start.unanswered else (), (str(bug),))


def _lint(ruleset: RuleSet, props: list[Property], scope: Scope, seed: int, budget: Budget, start: ConflictSearch,
          started: float, stored: Runs) -> LintReport:
    if start.conflict is not None:
        unreachable = "nothing is reachable: the start of the game is impossible under these rules"
        return LintReport(
            ruleset, scope,
            tuple(ActionFinding(a.kind, Status.DEAD, 0, unreachable) for a in ruleset.actions),
            (), tuple(PropertyFinding(p, Status.VACUOUS, (), unreachable) for p in props),
            (start.conflict,), time.monotonic() - started,
        )
    trigger_probes = {p.id: _trigger_probes(p, _triggers(p)) for p in props}
    sweep = _Sweep(ruleset, scope, [q for probes in trigger_probes.values() for q in probes] + list(props), seed)
    action_probes = sweep.action_probes
    every_probe = list(action_probes.values()) + [q for probes in trigger_probes.values() for q in probes]
    goals = sweep.goals(every_probe)
    replayed = sweep.replayed(goals, stored)
    try:
        outcomes = replayed | sweep.outcomes({key: goal for key, goal in goals.items() if key not in replayed},
                                             budget, _declared_silent(ruleset, action_probes, trigger_probes))
    except Interrupted as e:
        raise KeyboardInterrupt from e
    probe = lambda q: sweep.probe_result(q, outcomes[q])  # noqa: E731
    actions = tuple(_action_finding(kind, probe(q)) for kind, q in action_probes.items())
    properties = tuple(_property_finding(p, [probe(q) for q in trigger_probes[p.id]]) for p in props)
    rules = _live_in_larger_games(ruleset, scope, seed, tuple(_rule_finding(sweep, rule.id, outcomes) for rule in ruleset.in_force), sweep.rules_read())
    event = event_conflict(sweep, outcomes[_CONFLICT], budget)
    searches = (start, event)
    return LintReport(
        ruleset, scope,
        tuple(_against_declaration(f, ruleset.dead_reason("action", f.action.value), Status.DEAD) for f in actions),
        tuple(_against_declaration(f, ruleset.dead_reason("rule", f.rule), Status.DEAD) for f in rules),
        tuple(_against_declaration(f, _vacuity_expected(ruleset, f.prop.id), Status.VACUOUS) for f in properties),
        tuple(s.conflict for s in searches if s.conflict is not None), time.monotonic() - started,
        tuple(s.unanswered for s in searches if s.unanswered), tuple(s.checker_bug for s in searches if s.checker_bug),
        sweep.runs(outcomes), len(replayed),
    )


def _against_declaration(finding, declared: str, silent: Status):
    """The finding with the rule set's declaration that it is `silent` (dead or vacuous), if any:
    as `known` where it is, as `stale` where it is live or fires (a problem: the declaration is wrong)."""
    if not declared:
        return finding
    if finding.status is silent:
        return replace(finding, known=declared)
    if finding.status in (Status.LIVE, Status.TRIGGERED, Status.UNCONDITIONAL):
        return replace(finding, stale=declared)
    return finding


def _declared_silent(ruleset: RuleSet, action_probes: dict, trigger_probes: dict) -> frozenset:
    """The goals that the rule set file declares never reached: the probes of its dead actions, the
    trigger probes of the properties it expects vacuous, and its dead rules' removals."""
    return frozenset([*(q for kind, q in action_probes.items() if ruleset.dead_reason("action", kind.value)),
                      *(q for prop_id, probes in trigger_probes.items() if _vacuity_expected(ruleset, prop_id) for q in probes),
                      *(_changes(r.id) for r in ruleset.in_force if ruleset.dead_reason("rule", r.id))])


def _vacuity_expected(ruleset: RuleSet, property_id: str) -> str:
    e = ruleset.expected(property_id)
    return e.reason if e is not None and e.verdict == "vacuous" else ""


# The goal keys of the sweep besides the probes (which are keyed by themselves).
_CONFLICT = ("conflict",)


def _changes(rule_id: str) -> tuple:
    return ("changes a step", rule_id)


def _by_goal(violated: dict, changed: dict) -> dict:
    """The witnesses of the interpreter's runs (`simulate`) by goal key: the probes they violate,
    the removals of the rules whose steps they show changed."""
    return {**violated, **{_changes(rule_id): w for rule_id, w in changed.items()}}


def _within_bounds(goals: dict, witnesses: dict) -> dict:
    """The outcomes of the goals that a witness reaches within the goal's bound."""
    return {key: Outcome(w.depth, witness=w) for key, w in witnesses.items() if w.depth <= goals[key].bound}


def _store_key(goal_key) -> tuple[str, str] | None:
    """A goal's key in a store of runs: a probe's or a rule's removal changing a step (the others
    are not kept)."""
    if isinstance(goal_key, Property):
        return (PROPERTY, goal_key.id)
    return (RULE, goal_key[1]) if goal_key[0] == _changes("")[0] else None


def _goal_name(goal_key) -> str:
    """A probe's id, or the rule of a rule's removal: the goal a run is replayed to reach (`simulate.lifted_witness`)."""
    return goal_key.id if isinstance(goal_key, Property) else goal_key[1]


def _view(rule_id: str) -> tuple:
    return ("changes a view", rule_id)


# The least depth bound from which lint tries to prove the goals it has not reached within the
# base case of an induction unreachable at every depth: below it, asking each depth up to the
# bound costs less than the lemmas (docs/speed.md).
PROOF_FROM_DEPTH = 4


class _Sweep:
    """The transition system of a lint and the deepening that asks all its questions."""

    def __init__(self, ruleset: RuleSet, scope: Scope, props: list[Property], seed: int):
        """`props`: the properties and probes the goals read, besides the probes of the actions."""
        bound = Codes.variable_bound(scope, slots_for(scope))
        self.action_probes = {a.kind: _action_probe(ruleset, a.kind) for a in ruleset.actions}
        read = [*self.action_probes.values(), *props]
        self.system = shared_system(ruleset, scope, max([int_reach(p, bound) for p in read], default=0))
        self.deepening = Deepening(self.system, seed, self.system.rule_values(), incremental=True)
        self.ruleset = ruleset
        self.scope = scope
        self.seed = seed
        self.proofs: dict[Property, Proof] = {}  # probes proved at every depth
        self.unreachable: set = set()  # goals of the rules reached at no depth
        self.asked: set = set()  # the keys of every goal
        self.answered_by: dict = {}  # the goals another system than `system` answered (its models are of that system)
        self._games: dict[Scope, Deepening] = {}  # the smaller games' deepenings (`_in_smaller_game`), once asked
        self.deciding = rules_deciding_each(self.system)
        self.viewed: set[str] = set()  # the rules some player's view reads (`goals`)

    def rules_read(self) -> frozenset[str]:
        """The rules whose literals some step of this game (`rules_deciding_each`) or some player's
        view reads."""
        return frozenset(self.viewed).union(*self.deciding.values())

    def outcomes(self, goals: dict, budget: Budget, declared: frozenset = frozenset()) -> dict:
        """What lint finds of every goal. Random runs come first (`simulate`): a goal a run reaches
        within its bound is taken with that run, shrunk, and Z3 is not asked of it. The deepening
        asks of the rest. From PROOF_FROM_DEPTH, the goals it does not reach within the base case
        of their proof (an induction's for a probe; for the other goals, the depths before
        `proof.UNREACHABLE_FROM`) are looked for in a smaller game (`_in_smaller_game`), up to
        SMALLER_GAME_FIRST_DEPTHS past a probe's base case. Those no run reaches are then tried
        with the structural lemmas: a probe proved at every depth (`proof.proved_with`), a rule's
        removal changing nothing after any step, or no event left without an outcome
        (`proof.unreachable`); those need no question past the base case. The rest are looked for
        in the smaller game's deeper steps, then in this game's. The goals the rule set file
        `declared` never reached (a dead action or rule, a vacuous property's triggers) are tried with the
        lemmas before the smaller game: a smaller game that reaches none of its goals costs more
        than the proof; one that fails goes on as the others. A rule's removal is not looked for
        past the base case once it changes a player's view there: the view shows the rule live."""
        rules = [key[1] for key, goal in goals.items() if goal.group == "changes"]
        probes = [key for key in goals if isinstance(key, Property)]
        taking = {kind: q for kind, q in self.action_probes.items() if q in goals}
        violated, changed = found_witnesses(self.ruleset, self.scope, probes, rules, RUNS, RUN_LENGTH * self.scope.depth, self.seed,
                                            taking, deciding=self.deciding)
        walks = _by_goal(violated, changed)
        found = _within_bounds(goals, walks)
        found |= self._on_pregame_runs({key: goal for key, goal in goals.items() if key not in found})
        rest = {key: goal for key, goal in goals.items() if key not in found}
        if self.scope.depth < PROOF_FROM_DEPTH:
            return found | self.deepening.earliest(rest, budget)
        base = INDUCTION_SPAN + 1
        covered = {key: base if isinstance(key, Property) else UNREACHABLE_FROM - 1 for key in rest}
        found |= self.deepening.earliest({key: replace(g, bound=min(g.bound, covered[key])) for key, g in rest.items()}, budget)
        pending = [key for key, g in rest.items() if not found[key].violated and not found[key].unknown and g.bound > covered[key]
                   and not (g.group == "changes" and _view(key[1]) in found and found[_view(key[1])].violated)]
        self._prove([key for key in pending if key in declared and key not in walks], goals, budget)
        pending = [key for key in pending if key not in self.proofs and key not in self.unreachable]
        rest = {key: replace(rest[key], first=max(rest[key].first, covered[key] + 1)) for key in pending}
        near = base + SMALLER_GAME_FIRST_DEPTHS
        lifted: dict = {}
        for game in (smaller_game, token_game):
            lifted |= self._in_smaller_game({key: replace(rest[key], bound=min(rest[key].bound, near)) for key in pending}, budget, UNREACHABLE_FROM, game)
            pending = [key for key in pending if key not in lifted]
        self._prove([key for key in pending if key not in walks], goals, budget)
        deeper = {key: rest[key] for key in pending if key not in self.proofs and key not in self.unreachable}
        for game in (smaller_game, token_game):
            lifted |= self._in_smaller_game({key: goal for key, goal in deeper.items() if goal.bound > near}, budget, near + 1, game)
            deeper = {key: goal for key, goal in deeper.items() if key not in lifted}
        settled = self._in_pregame(deeper, budget, UNREACHABLE_FROM)
        deeper = {key: goal for key, goal in deeper.items() if key not in settled}
        return found | lifted | settled | self.deepening.earliest(deeper, budget, start=UNREACHABLE_FROM)

    def replayed(self, goals: dict, stored: Runs) -> dict:
        """The goals whose `stored` run still reaches them within their bound, each with that run
        replayed in this game (`simulate.lifted_witness`: shrunk, as a found run is)."""
        wanted = {key: (run, _goal_name(key), key if isinstance(key, Property) else None, goal.bound)
                  for key, goal in goals.items() if (run := stored.get(_store_key(key))) is not None}
        return {key: Outcome(witness.depth, witness=witness) for key, witness in stored_witnesses(self.ruleset, self.scope, self.seed, wanted).items()}

    def runs(self, outcomes: dict) -> dict[tuple[str, str], Run | None]:
        """For each goal a store keeps (`_store_key`), a run that reaches it (its witness's, or
        the one Z3's model gives), or None where it was not reached."""
        runs: dict[tuple[str, str], Run | None] = {}
        for key, outcome in outcomes.items():
            if _store_key(key) is None:
                continue
            if not outcome.violated:
                runs[_store_key(key)] = None
                continue
            if outcome.witness is not None:
                runs[_store_key(key)] = run_of(outcome.witness.trace)
                continue
            system = self.answered_by.get(key, self.system)
            steps = outcome.depth if isinstance(key, Property) else outcome.depth + 1
            card_types, _, actions = system.decode(outcome.model, steps)
            runs[_store_key(key)] = Run.of(self.system.slots, card_types, actions[:steps])
        return runs

    def _prove(self, keys: list, goals: dict, budget: Budget) -> None:
        """Add to `proofs` the probes among `keys` that the structural lemmas prove, and to
        `unreachable` the other goals they show reached at no depth."""
        if not keys:
            return
        facts = self.system.rule_values()
        kept = invariant(self.system, list(lemmas(self.ruleset)), self.seed, facts, budget)
        if kept is None:
            return
        probes = [key for key in keys if isinstance(key, Property)]
        others = {key: goals[key].at for key in keys if not isinstance(key, Property)}
        if probes:
            self.proofs |= proved_with(self.system, probes, kept, self.seed, facts, budget)
        if others:
            self.unreachable |= unreachable(self.system, others, kept, self.seed, facts, budget)

    def _on_pregame_runs(self, goals: dict) -> dict:
        """The probes that only a pregame action can violate (`slicing.pregame_only`), and the
        removals of rules, that some run of the pregame's actions reaches within their bound
        (`pregame_runs`)."""
        probes = [key for key in goals if isinstance(key, Property) and pregame_only(self.ruleset, key)]
        rules = [key[1] for key, goal in goals.items() if goal.group == "changes"]
        return _within_bounds(goals, _by_goal(*pregame_runs(self.ruleset, self.scope, probes, rules, self.seed)))

    def _in_smaller_game(self, goals: dict, budget: Budget, start: int, game: Callable | None = None) -> dict:
        """The probes and rules' removals that Z3 reaches in a smaller game (`game`, by default
        `smaller_game`: two deck cards per player, no sideboard, no tokens) from depth `start` to
        their bound, each with the run it finds replayed in this game (`simulate.lifted_witness`); a
        run that does not replay here is dropped. It asks one depth at a time, so that a goal that
        a run found at one depth reaches is not asked at the next (`_lifted`). Its questions are a
        fraction of the budget (SMALLER_GAME_SHARE): what it misses is asked of this game. Asked
        again from a greater `start`, it goes on with the same solver."""
        small = (game or smaller_game)(self.ruleset, self.scope)
        asked = {key: goal for key, goal in goals.items() if isinstance(key, Property) or goal.group == "changes"}
        if small is None or not asked:
            return {}
        if small not in self._games:
            system = TransitionSystem(self.ruleset, small, self.system.int_reach)
            self._games[small] = Deepening(system, self.seed, system.rule_values(), incremental=True)
        deepening = self._games[small]
        system = deepening.system
        own = {key: replace(goal, at=partial(violated_at, system, key) if isinstance(key, Property) else partial(_removal_changes, system, rule_id=key[1]))
               for key, goal in asked.items()}
        share = replace(budget, rlimit=budget.rlimit // SMALLER_GAME_SHARE)
        found, space = {}, StateSpace(self.ruleset, self.scope)
        pending = dict(own)
        for k in range(start, max(goal.bound for goal in own.values()) + 1):
            if not pending:
                break
            outcomes = deepening.earliest({key: replace(goal, bound=k) for key, goal in pending.items()}, share, start=k)
            for key in [key for key, outcome in outcomes.items() if outcome.unknown or outcome.violated or pending[key].bound == k]:
                del pending[key]
            for key, outcome in outcomes.items():
                if outcome.violated and key not in found:
                    found |= self._lifted(system, space, key, outcome, asked, pending)
        return found

    def _lifted(self, system: TransitionSystem, space: StateSpace, key, outcome: Outcome, goals: dict, pending: dict) -> dict:
        """The outcome of `key` that `system`'s model reaches, as its run replayed in this game
        (`simulate.lifted_witness`; none when it does not replay here), and the outcomes of the goals
        still `pending` that the same run reaches within their bound (`simulate.reached_on`), which are
        no longer pending."""
        prop = key if isinstance(key, Property) else None
        steps = outcome.depth if prop is not None else outcome.depth + 1
        card_types, _, actions = system.decode(outcome.model, steps)
        named = {slot.name: card_types[slot.index] for slot in system.slots}
        renamed = [renamed_action(a, system.slots, self.system.slots) for a in actions[:steps]]
        witness = lifted_witness(space, _goal_name(key), named, renamed, self.seed, prop)
        if witness is None:
            return {}
        others = _within_bounds(goals, _by_goal(*reached_on(space, named, renamed, [q for q in pending if isinstance(q, Property)],
                                                            [q[1] for q in pending if not isinstance(q, Property)], self.seed)))
        for other in others:
            del pending[other]
        return {key: Outcome(witness.depth, witness=witness), **others}

    def _in_pregame(self, goals: dict, budget: Budget, start: int) -> dict:
        """What the runs of the pregame's actions alone (`slicing.pregame_system`) settle: a probe
        that only a pregame action can violate, reached or not (as in the whole game), and a rule's
        removal changing a pregame step (one that changes none there may change a later step)."""
        asked = {key: goal for key, goal in goals.items()
                 if (isinstance(key, Property) and pregame_only(self.ruleset, key)) or goal.group == "changes"}
        if not asked or not self.ruleset.has_pregame:
            return {}
        system = pregame_system(self.ruleset, self.scope, self.system.int_reach)
        own = {key: replace(goal, at=partial(violated_at, system, key) if isinstance(key, Property) else partial(_removal_changes, system, rule_id=key[1]))
               for key, goal in asked.items()}
        settled = {key: outcome for key, outcome in Deepening(system, self.seed, system.rule_values()).earliest(own, budget, start=start).items()
                   if outcome.violated or (isinstance(key, Property) and not outcome.unknown)}
        self.answered_by |= dict.fromkeys(settled, system)
        return settled

    def goals(self, probes: list[Property]) -> dict:
        """Every goal of the sweep, grouped by kind: the probes violated, each rule's removal
        changing a step (a goal on step k's free action and next state) or a player's view, and an
        event with no legal outcome."""
        e, depth = self.system, self.scope.depth
        goals: dict = {q: Goal(first_step(q), depth, partial(violated_at, self.deepening.system, q), "probes") for q in probes}
        for rule in self.ruleset.in_force:
            if rule.behaviour is Behaviour.DOCUMENTED:
                continue
            goals[_changes(rule.id)] = Goal(0, depth - 1, partial(_removal_changes, e, rule_id=rule.id), "changes")
            if not z3.is_false(e.visibility_without(0, rule.id)):
                goals[_view(rule.id)] = Goal(0, depth, partial(e.visibility_without, rule_id=rule.id), "views")
                self.viewed.add(rule.id)
        goals[_CONFLICT] = Goal(0, depth - 1, e.no_outcome, "conflict")
        self.asked = set(goals)
        return goals

    def probe_result(self, prop: Property, outcome: Outcome) -> CheckResult:
        """A probe property's result: violated (with a trace that replays) means what it denies happens."""
        if outcome.unknown:
            reached = f"no violation up to depth {outcome.depth}" if outcome.depth >= first_step(prop) else "no depth completed"
            return CheckResult(self.ruleset, prop, Verdict.UNKNOWN, outcome.depth, 0.0, reason=f"{outcome.unknown}: {reached}")
        if prop in self.proofs:
            return CheckResult(self.ruleset, prop, Verdict.PROVED, self.scope.depth, 0.0, certificate=self.proofs[prop])
        if not outcome.violated:
            return CheckResult(self.ruleset, prop, Verdict.HOLDS, outcome.depth, 0.0)
        if outcome.witness is not None:
            return CheckResult(self.ruleset, prop, Verdict.VIOLATED, outcome.depth, 0.0, outcome.witness.trace)
        k = outcome.depth
        trace, problem = counterexample(self.answered_by.get(prop, self.system), outcome.model, k, self.ruleset, prop, self.scope, self.seed)
        if problem:
            return CheckResult(self.ruleset, prop, Verdict.ERROR, k, 0.0, reason=problem)
        return CheckResult(self.ruleset, prop, Verdict.VIOLATED, k, 0.0, trace)


# ---------------------------------------------------------------- dead actions

AT_EVERY_DEPTH = "proved at every depth (players and cards of the scope)"


# What a question of the smaller game may cost: this fraction of a question's resource budget.
SMALLER_GAME_SHARE = 8

# The depths past the base case at which the smaller game is asked before the structural lemmas
# try to prove what is left: a goal reached there costs no failed proof (docs/speed.md).
SMALLER_GAME_FIRST_DEPTHS = 3


def smaller_game(ruleset: RuleSet, scope: Scope) -> Scope | None:
    """The game in which lint first looks for what it has not found within the base case: decks of
    two cards, the commander one of them in a Commander game (903.5a), no sideboard, no tokens (a
    run there is a run here, every other card left where it starts); None when the scope is no larger."""
    small = _with_decks_of(ruleset, replace(scope, sideboard=0, tokens=0, hand=min(scope.hand, 2)), 2)
    if small == scope or small.hand_modifier_problem() is not None:
        return None
    return small


def token_game(ruleset: RuleSet, scope: Scope) -> Scope | None:
    """The game in which lint looks for what neither the smaller game nor the proofs settled: decks
    of one card (the commander in a Commander game) and one token slot per player, no sideboard (a
    spell cast and copied, a token made); None when the scope has no tokens or is no larger."""
    small = _with_decks_of(ruleset, replace(scope, sideboard=0, tokens=min(scope.tokens, 1), hand=min(scope.hand, 1)), 1)
    if not scope.tokens or small == scope or small.hand_modifier_problem() is not None:
        return None
    return small


def _with_decks_of(ruleset: RuleSet, scope: Scope, cards: int) -> Scope:
    """The scope with each deck cut to `cards` cards, its commander counted among them (`RuleSet.scope_for`)."""
    return ruleset.scope_for(replace(scope, cards=min(scope.cards + scope.commanders, cards), commanders=0))


def renamed_action(action: Action, slots: tuple, into: tuple) -> Action:
    """The action with each card it names given as the slot of the same name among `into`."""
    index = {slot.name: slot.index for slot in into}
    one = lambda c: None if c is None else index[slots[c].name]  # noqa: E731
    return replace(action, card=one(action.card), cards=tuple(sorted(index[slots[c].name] for c in action.cards)),
                   targets=tuple(index[slots[c].name] for c in action.targets),
                   order=tuple((key, tuple(index[slots[c].name] for c in order)) for key, order in action.order))


def probes(ruleset: RuleSet, props: list[Property]) -> dict[str, Property]:
    """Every probe property of lint, by id: each action's (the action is never taken) and each
    trigger's of `props` (it never fires)."""
    every = [*(_action_probe(ruleset, a.kind) for a in ruleset.actions), *(q for p in props for q in _trigger_probes(p, _triggers(p)))]
    return {q.id: q for q in every}


def _action_probe_id(kind: ActionKind) -> str:
    return f"{kind.value.replace('_', '-')}-is-never-taken"


def _action_probe(ruleset: RuleSet, kind: ActionKind) -> Property:
    cites = ", ".join(next(a.cites for a in ruleset.actions if a.kind is kind))
    text = (
        f'property {_action_probe_id(kind)} {{\n  cites {cites}\n'
        f'  means "no reachable step takes the action {kind.value}"\n  step action.kind != {kind.value}\n}}\n'
    )
    return parse_properties(text, f"<lint: {kind.value}>")[0]


def _action_finding(kind: ActionKind, result: CheckResult) -> ActionFinding:
    if result.verdict is Verdict.VIOLATED:
        return ActionFinding(kind, Status.LIVE, result.depth, f"taken at step {result.depth} of a run that replays", result.trace)
    if result.verdict is Verdict.PROVED:
        return ActionFinding(kind, Status.DEAD, 0, f"never enabled in any reachable state: {AT_EVERY_DEPTH}")
    if result.verdict is Verdict.HOLDS:
        return ActionFinding(kind, Status.DEAD, 0, f"never enabled in a state reachable within {result.depth} steps")
    return ActionFinding(kind, Status(result.verdict.value), 0, result.reason)


# ---------------------------------------------------------------- vacuous properties


def _triggers(prop: Property) -> tuple[list, bool]:
    """The conditions under which the property says something, and whether some part of it speaks
    of every state or step unconditionally. A trigger is (the variables bound so far, the
    antecedents on the way) for each implication reached through `forall` and `and`; an implication
    inside a consequent refines its outer trigger, which stays a trigger of its own when the
    consequent also says something unconditionally."""
    found: list = []

    def walk(node: Expr, binders: tuple, context: list[Expr]) -> bool:
        """Record the triggers below node; True when node has an unconditional part."""
        if isinstance(node, Quant) and node.kind == "forall":
            return walk(node.body, binders + node.binders, context)
        if isinstance(node, BinOp) and node.op == "and":
            left = walk(node.left, binders, context)
            return walk(node.right, binders, context) or left
        if isinstance(node, BinOp) and node.op == "->":
            inner = len(found)
            if walk(node.right, binders, context + [node.left]) or len(found) == inner:
                found.insert(inner, (binders, context + [node.left]))
            return False
        return True

    unconditional = walk(prop.expr, (), [])
    return found, unconditional


def _condition_text(binders: tuple, conditions: list[Expr]) -> str:
    body = " and ".join(f"({expr_text(c)})" for c in conditions)
    if not binders:
        return body
    return f"exists {', '.join(f'{name}: {sort.value}' for name, sort in binders)}. {body}"


def _trigger_probe(prop: Property, probe_id: str, conditions: list[str]) -> Property:
    fires = " or ".join(f"({c})" for c in conditions)
    text = (
        f'property {probe_id} {{\n  cites {", ".join(prop.cites)}\n'
        f'  means "the trigger of {prop.id} never fires"\n  {prop.kind.value} not ({fires})\n}}\n'
    )
    return parse_properties(text, f"<lint: trigger of {prop.id}>")[0]


def _trigger_probes(prop: Property, found: tuple[list, bool]) -> list[Property]:
    """One probe for each trigger."""
    texts = [_condition_text(binders, conditions) for binders, conditions in found[0]]
    if len(texts) == 1:
        return [_trigger_probe(prop, f"{prop.id}--trigger", texts)]
    return [_trigger_probe(prop, f"{prop.id}--trigger-{i}", [t]) for i, t in enumerate(texts, start=1)]


def _trigger(text: str, result: CheckResult) -> Trigger:
    if result.verdict is Verdict.VIOLATED:
        return Trigger(text, Status.TRIGGERED, result.depth, result.trace)
    if result.verdict.holds:
        return Trigger(text, Status.VACUOUS, 0, every_depth=result.verdict is Verdict.PROVED)
    return Trigger(text, Status(result.verdict.value), 0)


def _property_finding(prop: Property, results: list[CheckResult]) -> PropertyFinding:
    """The finding of a property from the results of its trigger probes (`_trigger_probes`)."""
    triggers, unconditional = _triggers(prop)
    texts = [_condition_text(b, c) for b, c in triggers]
    if not texts:
        return PropertyFinding(prop, Status.UNCONDITIONAL, ())
    each = tuple(_trigger(t, result) for t, result in zip(texts, results))
    status = Status.UNCONDITIONAL if unconditional else _any_fires(each)
    reason = next((r.reason for r in results if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR)), "")
    if status is Status.VACUOUS and all(t.every_depth for t in each):
        reason = f"no trigger fires in any reachable state: {AT_EVERY_DEPTH}"
    return PropertyFinding(prop, status, each, "" if status is Status.TRIGGERED else reason)


def _any_fires(triggers: tuple[Trigger, ...]) -> Status:
    """Whether some trigger fires: TRIGGERED when one does; else ERROR or UNKNOWN when a trigger's
    probe went wrong or had no answer; VACUOUS when none can fire."""
    statuses = {t.status for t in triggers}
    return next(s for s in (Status.TRIGGERED, Status.ERROR, Status.UNKNOWN, Status.VACUOUS) if s in statuses)


# ---------------------------------------------------------------- dead rules


def _rule_finding(sweep: _Sweep, rule_id: str, outcomes: dict) -> RuleFinding:
    ruleset, scope, e = sweep.ruleset, sweep.scope, sweep.system
    rule = _rule(ruleset, rule_id)
    if rule.behaviour is Behaviour.DOCUMENTED:
        reason = f"restates {rule.restates}" if rule.restates else "constrains no transition"
        return RuleFinding(rule_id, Status.DOCUMENTED, reason)
    view = outcomes.get(_view(rule_id), Outcome(scope.depth))
    if view.violated:
        return _confirm_view_change(e, view.depth, view.model, ruleset, rule_id, scope)
    change = outcomes[_changes(rule_id)]
    if change.witness is not None:
        trace = change.witness.trace
        world = World.of(ruleset, trace.slots, trace.card_types, scope)
        k = change.depth
        return _rule_matters(world, trace.steps[k - 1].state if k else trace.initial, trace.steps[k].action, k, rule_id)
    if change.violated:
        return _confirm_rule_matters(sweep.answered_by.get(_changes(rule_id), e), change.model, change.depth, ruleset, rule_id, scope)
    if change.unknown:
        return RuleFinding(rule_id, Status.UNKNOWN, f"{change.unknown}: no answer whether removing it changes a step{_completed(change)}")
    if view.unknown:
        return RuleFinding(rule_id, Status.UNKNOWN, f"{view.unknown}: removing it changes no step within {scope.depth} steps, but there was no answer whether it changes a player's view")
    return RuleFinding(rule_id, Status.DEAD, _dead_rule_detail(sweep, rule_id))


# The steps each player adds to the pregame: drawing an opening hand and keeping it.
PREGAME_STEPS_PER_PLAYER = 2


def larger_games(ruleset: RuleSet, scope: Scope) -> list[tuple[str, Scope]]:
    """The games, larger than the scope, in which lint looks for runs that a rule dead within the
    scope decides a step of (a rule may act only there), the smallest first: a Vanguard hand
    modifier (902.5, 103.5a), three players (the free first mulligan of a multiplayer game, 103.4c
    and 103.5c), and four in teams of two (Two-Headed Giant, 810), each with no more cards than the
    default scope's and the scope's depth, PREGAME_STEPS_PER_PLAYER more for each player more. A
    run shows a rule live; no run shows it dead."""
    games = []
    default = Scope()
    small = replace(scope, cards=min(scope.cards, default.cards), sideboard=min(scope.sideboard, default.sideboard),
                    tokens=min(scope.tokens, default.tokens), hand=min(scope.hand, default.hand), hand_modifiers=())

    def with_players(players: int, **more) -> Scope:
        return replace(small, players=players, depth=scope.depth + PREGAME_STEPS_PER_PLAYER * (players - scope.players), **more)

    if ruleset.has_pregame and not scope.hand_modifiers:
        modified = replace(small, hand_modifiers=(*[0] * (scope.players - 1), 1))
        if modified.hand_modifier_problem() is None:
            games.append((f"with the hand modifier {PLAYER_NAMES[scope.players - 1]}=+1", modified))
    if scope.players < 3:
        larger = with_players(3)
        games.append((f"with 3 players, depth {larger.depth}", larger))
    if scope.team_size == 0 and scope.players < 4:
        larger = with_players(4, team_size=2)
        games.append((f"with 4 players in teams of 2, depth {larger.depth}", larger))
    return games


def _live_in_larger_games(ruleset: RuleSet, scope: Scope, seed: int, findings: tuple[RuleFinding, ...],
                          read: frozenset[str]) -> tuple[RuleFinding, ...]:
    """The findings, with each dead rule that a run of a larger game (`larger_games`) shows deciding
    a step live, in that game: a run of the pregame's actions (`pregame_runs`), or else a random run.
    Only the rules that no step and no view of the scope's game reads (`read`) are looked for: those
    can act only in a larger game. A rule read here and dead within the bound keeps that finding,
    which is true of the scope (more steps, `--depth`, are what reach it). A rule the file declares
    dead is not looked for either: its declaration says why it acts nowhere, and the sweep checks it
    within the scope."""
    live: dict[str, RuleFinding] = {}
    for game, larger in larger_games(ruleset, scope):
        dead = [f.rule for f in findings if f.status is Status.DEAD and f.rule not in live and f.rule not in read
                and not ruleset.dead_reason("rule", f.rule)]
        if not dead:
            break
        _, changed = pregame_runs(ruleset, larger, [], dead, seed)
        rest = [rule_id for rule_id in dead if rule_id not in changed]
        if rest:
            changed |= found_witnesses(ruleset, larger, [], rest, RUNS, RUN_LENGTH * larger.depth, seed)[1]
        for rule_id, witness in changed.items():
            if _past_the_bound(witness, scope, larger):
                continue
            trace, k = witness.trace, witness.depth
            world = World.of(ruleset, trace.slots, trace.card_types, larger)
            found = _rule_matters(world, trace.steps[k - 1].state if k else trace.initial, trace.steps[k].action, k, rule_id)
            live[rule_id] = replace(found, detail=f"{game}: {found.detail}", game=game)
    return tuple(live.get(f.rule, f) for f in findings)


def pregame_runs(ruleset: RuleSet, scope: Scope, probes: list[Property], rule_ids: list[str], seed: int) -> tuple[dict, dict]:
    """`simulate.pregame_witnesses` of the probes and of the rules among `rule_ids` that the
    encoder's pregame steps read within the scope (`slicing.rules_deciding`): the removal of
    any other rule changes no step of the pregame's actions. A rule the file declares dead is
    left to Z3 and the random runs: searching the pregame for it would mostly cost the whole budget."""
    if not ruleset.has_pregame:
        return {}, {}
    deciding = rules_deciding(pregame_system(ruleset, scope), PREGAME_ACTIONS)
    rules = [rule_id for rule_id in rule_ids if rule_id in deciding and not ruleset.dead_reason("rule", rule_id)]
    if not probes and not rules:
        return {}, {}
    return pregame_witnesses(ruleset, scope, probes, rules, seed)


def _past_the_bound(witness, scope: Scope, larger: Scope) -> bool:
    """Whether the step a larger game's run shows a rule deciding lies past the scope's depth bound
    once the pregame steps of the players more (up to PREGAME_STEPS_PER_PLAYER each, those the run
    takes) are left out: a rule that needs more steps is not made live by a larger game."""
    extra = PREGAME_STEPS_PER_PLAYER * (larger.players - scope.players)
    pregame = sum(step.action.kind in PREGAME_ACTIONS for step in witness.trace.steps[:witness.depth + 1])
    return witness.depth - min(pregame, extra) >= scope.depth


def _completed(outcome: Outcome) -> str:
    """How far a search for a step that had no answer got: the steps it ruled out before it."""
    return f" (none in steps 1..{outcome.depth + 1})" if outcome.depth >= 0 else ""


def _removal_changes(e, k: int, rule_id: str) -> z3.BoolRef:
    """Step k's action and next state are allowed with the rule and not without it, or the other way round."""
    return Xor(And(e.trans(k)), e.trans_without(k, rule_id))


def _dead_rule_detail(sweep: _Sweep, rule_id: str) -> str:
    ruleset, rule = sweep.ruleset, _rule(sweep.ruleset, rule_id)
    others = [r for r in ruleset.rules_for(rule.behaviour) if r != rule_id and set(rule.zones) <= set(_rule(ruleset, r).zones)]
    also = f"; {', '.join(others)} provide{'s' if len(others) == 1 else ''} the same behaviour" if others else ""
    if {_changes(rule_id), _view(rule_id)} & sweep.asked <= sweep.unreachable:
        return f"removing it changes no step from any reachable state, and no player's view: {AT_EVERY_DEPTH}{also}"
    return f"removing it changes no step and no player's view within {sweep.scope.depth} steps{also}"


def _rule(ruleset: RuleSet, rule_id: str):
    return next(r for r in ruleset.rules if r.id == rule_id)


def _confirm_rule_matters(e, model, k: int, ruleset: RuleSet, rule_id: str, scope: Scope) -> RuleFinding:
    """The interpreter must see step k's outcome change when the rule is removed."""
    card_types, states, actions = e.decode(model, k + 1)
    world = World.of(ruleset, e.slots, card_types, scope)
    steps, mismatch = execute(world, states[0], actions[:k], recorded=states[1:k + 1])
    if mismatch:
        return RuleFinding(rule_id, Status.ERROR, f"the run found by Z3 does not replay in the interpreter: {mismatch}")
    return _rule_matters(world, steps[-1].state if steps else states[0], actions[k], k, rule_id)


def _rule_matters(world: World, before: GameState, action: Action, k: int, rule_id: str) -> RuleFinding:
    """How removing the rule changes the outcome of `action` taken in `before`, the state after
    k steps; ERROR when the interpreter sees no change."""
    with_rule = outcome_or_refusal(world, before, action)
    without_rule = outcome_or_refusal(replace(world, ruleset=world.ruleset.without([rule_id])), before, action)
    shown = describe_action(action, world.slots)
    if isinstance(with_rule, str) and isinstance(without_rule, str) or with_rule == without_rule:
        return RuleFinding(rule_id, Status.ERROR, f"Z3 says removing it changes step {k + 1} ({shown}); the interpreter sees no change")

    def effect(outcome: GameState) -> str:
        return "; ".join(changes(before, outcome, world.slots)) or "nothing changes"

    if isinstance(with_rule, str):
        change = f"without it, {shown} at step {k + 1} is possible ({effect(without_rule)}); with it, it is not ({with_rule})"
    elif isinstance(without_rule, str):
        change = f"with it, {shown} at step {k + 1} is possible ({effect(with_rule)}); without it, it is not ({without_rule})"
    else:
        change = f"decides {shown} at step {k + 1}: with it, {effect(with_rule)}; without it, {effect(without_rule)}"
    return RuleFinding(rule_id, Status.LIVE, change)


def _confirm_view_change(e, k: int, model, ruleset: RuleSet, rule_id: str, scope: Scope) -> RuleFinding:
    """The interpreter must see who may see a face change in state k when the rule is removed."""
    card_types, states, actions = e.decode(model, k)
    world = World.of(ruleset, e.slots, card_types, scope)
    steps, mismatch = execute(world, states[0], actions, recorded=states[1:])
    if mismatch:
        return RuleFinding(rule_id, Status.ERROR, f"the run found by Z3 does not replay in the interpreter: {mismatch}")
    seen = _view_change(world, _final(steps, states[0]), _state_without(world, states[0], actions, rule_id, steps), rule_id)
    if not seen:
        return RuleFinding(rule_id, Status.ERROR, f"Z3 says removing it changes who sees what after step {k}; the interpreter sees no change")
    return RuleFinding(rule_id, Status.LIVE, f"decides who sees what after step {k}: {seen}")


def _final(steps, initial: GameState) -> GameState:
    return steps[-1].state if steps else initial


def _state_without(world: World, initial: GameState, actions: list[Action], rule_id: str, steps) -> GameState:
    """Where the same actions lead without the rule: a rule may decide what a step shows (the team
    look of 810.5) rather than who sees what in a state. Where they are not all legal without it,
    the state the run reaches with it."""
    without = replace(world, ruleset=world.ruleset.without([rule_id]))
    steps_without, refused = execute(without, initial, actions)
    return _final(steps if refused else steps_without, initial)


def _view_change(world: World, state: GameState, state_without: GameState, rule_id: str) -> str:
    """How removing the rule changes who may see the face of an object in the state the run reaches
    ("" if not at all)."""
    without = world.ruleset.without([rule_id])
    for c, slot in enumerate(world.slots):
        for p in range(world.players):
            with_it, without_it = sees(world.ruleset, state, p, c), sees(without, state_without, p, c)
            if with_it != without_it:
                can = lambda yes: "may" if yes else "may not"  # noqa: E731
                return f"with it, {PLAYER_NAMES[p]} {can(with_it)} see the face of {slot.name}; without it, {PLAYER_NAMES[p]} {can(without_it)}"
    return ""


# ---------------------------------------------------------------- conflicts


@dataclass(frozen=True)
class ConflictSearch:
    """The outcome of a search for a conflict: one found, no answer in time, or a checker bug."""

    conflict: Conflict | None = None
    unanswered: str = ""  # why there was no answer, and what the question was
    checker_bug: str = ""


def _minimal_core(solver: z3.Solver, literals: dict[str, z3.BoolRef], budget: Budget) -> tuple[SolverResult, tuple[str, ...], bool]:
    """Whether the solver's facts are unsatisfiable with every rule in force (the answer) and, when
    they are, a set of rules responsible: Z3's core, minimised by deletion; and whether it is
    minimal (a deletion query without an answer keeps its rule)."""
    answer = budget.ask(solver, list(literals.values()))
    if answer.answer is not Answer.UNSAT:
        return answer, (), False
    core = [rule_id for rule_id, lit in literals.items() if str(lit) in answer.core]
    minimal = True
    for rule_id in list(core):
        trial = budget.ask(solver, [literals[r] for r in core if r != rule_id])
        if trial.answer is Answer.UNSAT:
            core.remove(rule_id)
        minimal = minimal and trial.answer is not Answer.UNKNOWN
    return answer, tuple(core), minimal


def _rule_solver(e, ruleset: RuleSet, seed: int) -> tuple[z3.Solver, dict[str, z3.BoolRef]]:
    """A solver in which the removed rules are off and the rules in force are left to assumptions."""
    solver = new_solver(e.ctx, seed)
    solver.add([Not(e.rule_literal[r]) for r in ruleset.removed])
    return solver, {r.id: e.rule_literal[r.id] for r in ruleset.in_force}


def _core_rules(core: tuple[str, ...], minimal: bool) -> tuple[str, ...]:
    return core if minimal else (*core, "(not minimised: no answer in time)")


def initial_conflict(ruleset: RuleSet, scope: Scope, seed: int, budget: Budget) -> ConflictSearch:
    """The rules that make the start of a game impossible, if any."""
    e = TransitionSystem(ruleset, replace(scope, depth=0))
    solver, literals = _rule_solver(e, ruleset, seed)
    solver.add(e.init())
    answer, core, minimal = _minimal_core(solver, literals, budget)
    if answer.answer is Answer.UNKNOWN:
        return ConflictSearch(unanswered=f"{answer.reason}: no answer whether the start of a game is possible")
    if answer.answer is Answer.SAT:
        return ConflictSearch()
    return ConflictSearch(Conflict(_core_rules(core, minimal), "the start of a game (each deck in its owner's library)", 0, None, None))


def event_conflict(sweep: _Sweep, outcome: Outcome, budget: Budget) -> ConflictSearch:
    """The first reachable state where some action applies to its target but has no legal outcome
    (the sweep's `outcome` of that goal), with the rules that leave it none."""
    e, ruleset, scope, seed = sweep.system, sweep.ruleset, sweep.scope, sweep.seed
    if not outcome.violated:
        if outcome.unknown:
            return ConflictSearch(unanswered=f"{outcome.unknown}: no answer whether some action is left with no legal outcome{_completed(outcome)}")
        return ConflictSearch()
    k, model = outcome.depth, outcome.model
    card_types, states, actions = e.decode(model, k + 1, final_state=False)
    world = World.of(ruleset, e.slots, card_types, scope)
    steps, mismatch = execute(world, states[0], actions[:k], recorded=states[1:k + 1])
    event = actions[k]
    shown = describe_action(event, e.slots)
    refused = outcome_or_refusal(world, states[k], event)
    if mismatch or not isinstance(refused, str):
        return ConflictSearch(checker_bug=f"a conflict found by Z3 does not replay: {mismatch or f'the interpreter carries out {shown}'}")
    solver, literals = _rule_solver(e, ruleset, seed)
    solver.add(e.types_are(card_types) + e.state_is(k, states[k]) + e.action_is(k, event) + e.trans(k))
    answer, core, minimal = _minimal_core(solver, literals, budget)
    if answer.answer is Answer.SAT:
        return ConflictSearch(checker_bug=f"Z3 finds no legal outcome for {shown} after {k} steps, but has one for that state and action")
    rules = ("(not named: no answer in time)",) if answer.answer is Answer.UNKNOWN else _core_rules(core, minimal)
    trace = Trace(
        **of_ruleset(ruleset),
        property_id="conflict", property_cites=core, property_kind=PropertyKind.STEP.value, property_text="",
        scope=scope, seed=seed, card_types=card_types, initial=states[0], steps=tuple(steps), violation_step=k,
    )
    return ConflictSearch(Conflict(rules, f"{shown} ({refused})", k, trace, event))

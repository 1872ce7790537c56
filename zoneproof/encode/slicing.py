"""Cone-of-influence slicing: the parts of the state and the action kinds a property depends on.

A part (an object field, the pile order, a player record) is needed when the property reads it,
when a guard of a kept action reads it, or when what a kept action makes of a needed part reads it.
An action kind is kept when it changes a needed part. Every other action changes nothing the
property can see: in a run it only stands still, so leaving it out removes no violation and makes
none shorter. For a `step` property, a standing-still step could itself be the violation (the
property may speak of the action); a kind whose steps can violate it that way is kept too. The
slice is exact: the same verdicts and the same shortest depths as the whole system
(tests/test_slicing.py).

What each action reads and writes is read off the constraints the encoder builds (the variables in
each piece), not declared anywhere by hand.
"""

from __future__ import annotations

import z3

from ..model import PREGAME_ACTIONS, ActionKind
from ..properties import Property, PropertyKind
from ..solver import Answer, check, new_solver, units_for
from ..terms import And, Not, constant_names, equated_variables, occurs, simplified
from .backend import SymbolicBackend
from .system import GUARD, Slice, TransitionSystem
from .variables import ASSIGNED_FIELDS

# Parts every action's guard reads in practice; kept always so that the fixpoint starts near its end.
ALWAYS = frozenset({"zone", "whose", "controller"})
STEP_VARIABLE_PARTS = {"src.zone": "pos", "src.whose": "pos", "src.pos": "pos", "dst.zone": "pos", "dst.whose": "pos", "dst.pos": "pos",
                       "moves": "pos", "arrive.top": "order", "arrive.bottom": "order", "permuted": "order", "reentering": "order", "above": "order"}


def part_of(name: str) -> str | None:
    """The state part a variable belongs to (`zone[A1]@2` -> zone, `above[A1,A2]@2` -> order), or
    None for the action's own fields, card types and rule literals, which are not parts."""
    base = name.split("@")[0].split("[")[0]
    if base in STEP_VARIABLE_PARTS:
        return STEP_VARIABLE_PARTS[base]
    if base.startswith(("action.", "type", "rule", "active", "goal")) or ":" in base:
        return None
    return base


def parts_read(terms, memo: dict | None = None) -> set[str]:
    """The parts whose variables occur in the terms (`memo`: as `terms.constant_names`)."""
    return {part for name in constant_names(terms, memo) if (part := part_of(name)) is not None}


def rules_read(system: TransitionSystem, terms, memo: dict | None = None) -> set[str]:
    """The rules whose literals occur in the terms (`memo`: as `terms.constant_names`)."""
    rule_of = {literal.decl().name(): rule_id for rule_id, literal in system.rule_literal.items()}
    return {rule_of[name] for name in constant_names(terms, memo) if name in rule_of}


def rules_deciding(system: TransitionSystem, kinds, memo: dict | None = None) -> set[str]:
    """The rules whose literals occur in the constraints of the steps of `kinds` (when each is
    possible, and what it makes of each part): removing any other rule changes such a step only
    through the constraints every step shares."""
    pieces = system.pieces(1)
    return rules_read(system, [x for kind in kinds for part_terms in pieces.kinds.get(kind, {}).values() for x in part_terms], memo)


def rules_deciding_each(system: TransitionSystem) -> dict[ActionKind, frozenset[str]]:
    """For each action kind of the system, the rules whose literals occur in its steps' own
    constraints (`rules_deciding`) or in those every step shares once the step's action is of that
    kind (`_shared_deciding`): removing any other rule changes no step of that kind."""
    memo: dict = {}
    shared = _shared_deciding(system, [x for terms in system.pieces(1).common.values() for x in terms], memo)
    return {kind: frozenset(shared[kind] | rules_deciding(system, [kind], memo)) for kind in system.kinds}


def _shared_deciding(system: TransitionSystem, common: list, memo: dict) -> dict[ActionKind, set[str]]:
    """For each action kind, the rules whose literals still occur in the constraints every step
    shares (`common`) once Z3 has simplified them with the step's action of that kind: where a
    pile's newcomer goes, for one, is a rule's only for the actions that move an object there."""
    literals = {rule_id: system.rule_literal[rule_id] for rule_id in sorted(rules_read(system, common, memo))}
    if not literals:
        return {kind: set() for kind in system.kinds}
    reading = And([x for x in common if any(occurs(literal, x) for literal in literals.values())])
    kind_of_step = system.step(1).kind
    shared = {}
    for kind in system.kinds:
        specialised = simplified(reading, kind_of_step, system.codes.kind[kind])
        shared[kind] = {rule_id for rule_id, literal in literals.items() if occurs(literal, specialised)}
    return shared


def _is_frame(term) -> bool:
    """`x@t+1 == x@t` for one variable, possibly under an implication: a part left as it was (or one
    that is a constant for some slots, such as `copy` for a card, which no step can change)."""
    names = equated_variables(term)
    if names is None:
        return False
    a, b = names
    return a == b == "" or (a.split("@")[0] == b.split("@")[0] and a != b)


class Dependencies:
    """What each kept action of one system reads and changes, from its step-1 pieces."""

    def __init__(self, system: TransitionSystem):
        self.kinds = system.kinds
        pieces, memo = system.pieces(1), {}
        self.common = {part: parts_read(terms, memo) for part, terms in pieces.common.items()}
        self.guard = {k: parts_read(p.get(GUARD, []), memo) for k, p in pieces.kinds.items()}
        self.reads = {k: {part: parts_read(terms, memo) for part, terms in p.items() if part != GUARD} for k, p in pieces.kinds.items()}
        self.writes = {
            k: {part for part, terms in p.items() if part != GUARD and not all(_is_frame(x) for x in terms)}
            for k, p in pieces.kinds.items()
        }

    def closure(self, needed: set[str], forced: set[ActionKind]) -> tuple[set[str], set[ActionKind]]:
        needed = set(needed) | ALWAYS | self.common.get(GUARD, set())
        while True:
            kinds = {k for k in self.kinds if self.writes.get(k, set()) & needed} | forced
            grown = set(needed)
            for k in kinds:
                grown |= self.guard.get(k, set())
                grown |= {x for part in needed for x in self.reads.get(k, {}).get(part, set())}
            for part in needed:
                grown |= self.common.get(part, set())
            if grown == needed:
                return needed, kinds
            needed = grown


# What the systems of this process read and change, by their structure: every check of a rule set
# at one scope slices the same system.
_known: dict[tuple, Dependencies] = {}


def dependencies(system: TransitionSystem) -> Dependencies:
    if system.structure not in _known:
        _known[system.structure] = Dependencies(system)
    return _known[system.structure]


def _read_at_step_1(system: TransitionSystem, props: list[Property]) -> dict[Property, z3.BoolRef]:
    """Each property's formula at a step in the middle of a run, so that a step property's primed
    functions are read too."""
    from ..evaluate import evaluate
    return {p: evaluate(p, SymbolicBackend(system, 1), system.slots, system.players) for p in props}


def sliced(system: TransitionSystem, props: list[Property]) -> TransitionSystem:
    """The transition system of the properties' cone of influence: `system` itself (a whole
    system) when the cone keeps every action kind (then it leaves out at most the frame conditions
    of a few parts, and an unrolling of its own would cost more than it saves)."""
    deps = dependencies(system)
    read = _read_at_step_1(system, props)
    needed, kinds = deps.closure(parts_read(list(read.values())), set())
    violated = [Not(term) for p, term in read.items() if p.kind is PropertyKind.STEP]
    while violated:
        visible = {k for k in system.kinds if k not in kinds and _standstill_violates(system, violated, k, needed)}
        if not visible:
            break
        needed, kinds = deps.closure(needed, kinds | visible)
    if set(system.kinds) <= kinds:
        return system
    return TransitionSystem(system.ruleset, system.scope, system.int_reach, slice=Slice(frozenset(kinds), frozenset(needed)))


def _standstill_violates(system: TransitionSystem, violated: list, kind: ActionKind, needed: set[str]) -> bool:
    """Whether a step of `kind` that leaves every needed part as it was can make one of `violated`
    (the step properties' violations at step 1) hold, from any state: an over-approximation, so a
    kind it cannot rule out is kept."""
    s, s2, a = system.state(1), system.state(2), system.step(1)
    same = [s2.field(f, c) == s.field(f, c) for f in ASSIGNED_FIELDS if f in needed for c in range(len(system.slots))]
    if "order" in needed:
        same += [s2.above[pair] == s.above[pair] for pair in s.above]
    solver = new_solver(system.ctx, 0)
    solver.add(system.rule_values() + same + [a.kind == system.codes.kind[kind], system.codes.any_of(violated)])
    return check(solver, [], 10_000, units_for(10)).answer is not Answer.UNSAT


def pregame_only(ruleset, prop: Property) -> bool:
    """A step property that only a pregame action can violate (`evaluate.falsifying_kinds`). The
    pregame gate allows a pregame action only before the game starts, and nothing ends the start,
    so every step of a run to its violation is a pregame action: the runs of the pregame's actions
    alone (`pregame_system`) violate it at the same depths as the whole game's."""
    from ..evaluate import falsifying_kinds
    kinds = falsifying_kinds(prop) if prop.kind is PropertyKind.STEP else None
    return ruleset.has_pregame and kinds is not None and kinds <= set(PREGAME_ACTIONS)


def pregame_system(ruleset, scope, int_reach: int = 0) -> TransitionSystem:
    """The transition system of the pregame's actions alone."""
    return TransitionSystem(ruleset, scope, int_reach, slice=Slice(kinds=frozenset(k for k in PREGAME_ACTIONS if ruleset.allows(k))))

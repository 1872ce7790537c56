"""Certificates: the inductive invariant of a proof, as a property file anyone can check again.

A certificate is a property file: the lemmas, the properties proved together with the property
(each step of a joint induction assumes them all), then the property proved (last). Its first lines are
comments that name what it is about:

    # zoneproof certificate
    # proves: owner-zones
    # scope: {"players": 2, "cards": 4, ...}
    # together: stack-lifo, ...  (the properties proved jointly with it, if any)
    # removed: 400.3, 400.4a      (the rules removed from the rule set, if any)
    # runs: the pregame's actions alone (a property only a pregame action can violate)
    # steps: 1                    (the steps of the induction's question that proved it)

`certify` rebuilds the transition system of the rule set in that scope (of the pregame's actions
alone for a property only a pregame action can violate: `slicing.pregame_only`), in a Z3 context
of its own, and asks every obligation of proof.obligations: the invariant holds initially, every
step keeps it, and it implies the property. The property (with those proved together with it) is
first asked to be kept over one step, with its base case one step deep; where that fails, over two
steps with a base case of two (the two forms of `search.inductive`); the steps line, where there
is one, names the form to ask. Step properties over one step are first asked with the lemmas' own step
(`proof.shares_lemmas_step`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from .encode.slicing import pregame_only, pregame_system
from .encode.system import TransitionSystem
from .encode.variables import Codes
from .errors import InputError, Location
from .evaluate import int_reach
from .model import Scope, slots_for
from .properties import Property, expr_text, parse_properties
from .proof import Proof, discharged, obligations, shares_lemmas_step, wrap_safe
from .ruleset import RuleSet
from .search import INDUCTION_STEPS, Budget
from .solver import Answer

HEADER = "# zoneproof certificate"
PREGAME_RUNS = "the pregame's actions alone (a property only a pregame action can violate)"
SUFFIX = ".proof.zp"


def property_text(p: Property) -> str:
    return (f"property {p.id} {{\n  cites {', '.join(p.cites)}\n  means \"{p.meaning}\"\n"
            f"  {p.kind.value} {expr_text(p.expr)}\n}}\n")


def certificate_text(proof: Proof, ruleset: RuleSet, scope: Scope) -> str:
    prop = proof.prop
    lines = [HEADER, f"# proves: {prop.id}", f"# scope: {json.dumps(asdict(scope))}"]
    if proof.together:
        lines.append(f"# together: {', '.join(p.id for p in proof.together)}")
    if ruleset.removed:
        lines.append(f"# removed: {', '.join(ruleset.removed)}")
    if pregame_only(ruleset, prop):
        lines.append(f"# runs: {PREGAME_RUNS}")
    lines.append(f"# steps: {proof.steps}")
    lines.append(f"# rule set: {ruleset.name} (sha256 {ruleset.sha256})")
    return "\n".join(lines) + "\n\n" + "\n".join(property_text(p) for p in (*proof.lemmas, *proof.together, prop))


@dataclass(frozen=True)
class Certificate:
    prop: Property
    lemmas: tuple[Property, ...]
    scope: Scope
    removed: tuple[str, ...]
    together: tuple[Property, ...] = ()  # proved jointly with `prop` (each induction step assumes them all)
    steps: tuple[int, ...] = INDUCTION_STEPS  # the forms of the induction to ask, in order


def read_certificate(path: Path) -> Certificate:
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read the certificate: {getattr(e, 'strerror', None) or e}", Location(shown)) from None
    head = {}
    lines = text.splitlines()
    if not lines or lines[0].strip() != HEADER:
        raise InputError(f"not a certificate: its first line must be '{HEADER}' (`zoneproof check` writes certificates)", Location(shown, 1))
    for number, line in enumerate(lines[1:], start=2):
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(": ")
        head[key] = (value, number)
    for key in ("proves", "scope"):
        if key not in head:
            raise InputError(f"the certificate has no '# {key}: ' line", Location(shown, 2))
    props = parse_properties(text, shown)
    if not props or props[-1].id != head["proves"][0]:
        raise InputError(f"the last property must be '{head['proves'][0]}', the one the certificate proves", Location(shown, head["proves"][1]))
    together = _names(head.get("together", ("", 0))[0])
    unknown = [name for name in together if name not in {p.id for p in props[:-1]}]
    if unknown:
        raise InputError(f"the together line names {', '.join(unknown)}, which the certificate does not define", Location(shown, head["together"][1]))
    return Certificate(props[-1], tuple(p for p in props[:-1] if p.id not in together), _scope(head["scope"][0], Location(shown, head["scope"][1])),
                       _names(head.get("removed", ("", 0))[0]), tuple(p for p in props[:-1] if p.id in together), _steps(head.get("steps"), shown))


def _steps(line: tuple[str, int] | None, shown: str) -> tuple[int, ...]:
    if line is None:
        return INDUCTION_STEPS
    value, number = line
    if value.strip() not in {str(steps) for steps in INDUCTION_STEPS}:
        raise InputError(f"the steps line must be one of {', '.join(map(str, INDUCTION_STEPS))}, got {value.strip()!r}", Location(shown, number))
    return (int(value),)


def _names(value: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in value.split(",") if name.strip())


def _scope(value: str, at: Location) -> Scope:
    try:
        given = json.loads(value)
        names = {f.name for f in fields(Scope)}
        if not isinstance(given, dict) or not set(given) <= names:
            raise ValueError
        scope = Scope(**{k: tuple(v) if k == "hand_modifiers" else v for k, v in given.items()})
    except (ValueError, TypeError):
        raise InputError("the scope line must be a JSON object of the scope's fields, as `zoneproof check` writes it", at) from None
    for name, (low, high) in Scope.LIMITS.items():
        value = getattr(scope, name)
        if not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"scope {name} must be {low}..{high}, got {value!r}", at)
    return scope


@dataclass(frozen=True)
class Verification:
    """What `certify` found: the obligations that hold, fail, or got no answer."""

    failed: tuple[str, ...]
    unknown: tuple[str, ...]
    checked: int
    problem: str = ""  # why the certificate cannot prove the property whatever Z3 says

    @property
    def valid(self) -> bool:
        return not self.failed and not self.unknown and not self.problem


def verify(certificate: Certificate, ruleset: RuleSet, seed: int = 0, timeout: float = 600.0) -> Verification:
    c = certificate
    for p in (*c.together, c.prop):
        if not wrap_safe(p, {lemma.id for lemma in c.lemmas}):
            return Verification((), (), 0, f"{p.id} reads a value that grows without bound (gen, mulligans) other than as its change in one step: the bit-vectors may wrap (docs/proofs.md)")
    every = (*c.lemmas, *c.together, c.prop)
    bound = Codes.variable_bound(c.scope, slots_for(c.scope))
    reach = max(int_reach(p, bound) for p in every)
    system = pregame_system(ruleset, c.scope, reach) if pregame_only(ruleset, c.prop) else TransitionSystem(ruleset, c.scope, reach)
    budget = Budget.phase(timeout)
    answers: dict[str, Answer] = {}  # by what each obligation says: the lemmas' are the same in each form
    forms = [(steps, shared) for steps in c.steps for shared in ((True, False) if shares_lemmas_step((*c.together, c.prop), steps) else (False,))]
    for steps, shared in forms:
        todo = obligations(system, system.rule_values(), list(c.lemmas), c.prop, c.together, steps, shared)
        asked = [o for o in todo if o.what not in answers]
        answers |= {o.what: answer for o, answer in zip(asked, discharged(system, asked, seed, budget))}
        if all(answers[o.what] is Answer.UNSAT for o in todo):
            break
    failed = tuple(o.what for o in todo if answers[o.what] is Answer.SAT)
    unknown = tuple(o.what for o in todo if answers[o.what] is Answer.UNKNOWN)
    return Verification(failed, unknown, len(todo))

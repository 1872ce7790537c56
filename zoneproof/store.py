"""Stored runs: the runs that last reached each goal, kept to be tried first next time.

A rule set's file in the store folder holds, for each scope, one run per goal reached: for lint, a
property violated (an action's or a trigger's probe) or a rule's removal changing a step; for
check and coverage, a property's counterexample (coverage's in the file of the rule set with the
rule removed). Each is the cards' types and the actions of the run. A stored run is replayed in
the interpreter before any search (`simulate.lifted_witness`): a run that still reaches its goal
is that goal's witness, as a random run's would be (a counterexample's depths before it are still
asked: `check._stored_violations`); one that no longer does is dropped and the goal is searched
for as if it had none. So a stored run can make a command faster, never make it report what the
rule set does not do. The built-in rule sets come with the runs of their default scope
(`model/runs/`), which a store folder's own runs take the place of; a rule set starts from the runs
of the rule sets it extends, and of itself with every rule in force (`stored_runs`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import itf_py

from .errors import InputError, Location
from .model import PLAYER_NAMES, Action, CardType, Scope, slots_for
from .ruleset import Link, RuleSet, builtin_runs_file
from .trace import Trace, TraceReader, action_from_record, action_json, write_atomically

FORMAT_NAME = "zoneproof stored runs"
FORMAT = f"{FORMAT_NAME} 1"
PROPERTY, RULE, VIOLATION = "property", "rule", "violation"


@dataclass(frozen=True)
class Run:
    """The cards' types by card name (the others: the first type each may have) and the actions."""

    card_types: tuple[tuple[str, CardType], ...]
    actions: tuple[Action, ...]

    @classmethod
    def of(cls, slots, card_types, actions) -> "Run":
        """The run of the cards of `slots`, of the types `card_types` lists by slot, and its actions."""
        return cls(tuple((slot.name, card_types[slot.index]) for slot in slots), tuple(actions))


def run_of(trace: Trace) -> Run:
    """The run of a trace: its cards' types and its actions."""
    return Run.of(trace.slots, trace.card_types, [step.action for step in trace.steps])


def counterexamples(results) -> dict[tuple[str, str], Run | None]:
    """The entries of checks' results (`check.CheckResult`) in a store: each property's
    counterexample as a run, or None where it has none."""
    return {(VIOLATION, r.prop.id): run_of(r.trace) if r.trace is not None else None for r in results}


# A goal's key in a store: (PROPERTY, a lint probe's id), (RULE, a rule's id) or (VIOLATION, the id
# of a property checked: a counterexample).
Runs = dict[tuple[str, str], Run]


def scope_key(scope: Scope) -> str:
    return repr(scope)


def stored_runs(folder: Path | None, ruleset: RuleSet, scope: Scope) -> Runs:
    """The runs kept for `ruleset` in `scope`, each over the one before: those of each built-in
    rule set in its chain (itself, or one it extends), the farthest first; `folder`'s of each rule
    set of its chain; and `folder`'s of `ruleset` with its rules removed (none without a folder).
    A variant starts from the runs of what it varies, a rule set with rules removed (`--without`)
    from those of its whole self: most still reach their goals there."""
    chain = list(reversed(ruleset.chain)) or [Link(ruleset.name, ruleset.origin)]
    files = [builtin_runs_file(link.name) for link in chain if link.origin == "builtin"]
    if folder is not None:
        files += [_runs_file(folder, link.name) for link in chain]
    return _read_runs([*files, *_own_files(folder, ruleset)], scope)


def stored_removals(folder: Path | None, ruleset: RuleSet, rule_ids: list[str], scope: Scope) -> dict[str, Runs]:
    """For each rule of `rule_ids`, by the label of `ruleset` without it, the runs kept for that
    rule set itself (coverage's counterexamples), without those of the rule sets in its chain."""
    return {(without := ruleset.without([rule])).label: _read_runs(_own_files(folder, without), scope) for rule in rule_ids}


def _own_files(folder: Path | None, ruleset: RuleSet) -> list[Path]:
    """The store files of the rule set's label: a built-in rule set's with rules removed comes
    with one too, beside its own."""
    files = [builtin_runs_file(ruleset.label)] if ruleset.removed and ruleset.origin == "builtin" else []
    return [*files, _runs_file(folder, ruleset.label)] if folder is not None else files


def _read_runs(files: list[Path], scope: Scope) -> Runs:
    runs: Runs = {}
    for path in dict.fromkeys(files):
        runs |= runs_in_file(path, scope)
    return runs


def runs_in_file(path: Path, scope: Scope) -> Runs:
    """The runs of `scope` in one store file (none where there is no such file)."""
    if not path.is_file():
        return {}
    entries = _scopes(_text(path), str(path)).get(scope_key(scope))
    return {} if entries is None else _scope_runs(_RunsReader(str(path)), scope, entries)


def store_runs(folder: Path, ruleset: RuleSet, scope: Scope, runs: dict[tuple[str, str], Run | None]) -> None:
    """Keep `runs` among the runs of `ruleset` in `scope`: each goal's run replaces the one kept,
    and a goal's None (asked, not reached) removes it. The runs of goals not asked, and of the
    file's other scopes, stay as they were. No file is made to keep nothing."""
    path = _runs_file(folder, ruleset.label)
    if not path.is_file() and all(run is None for run in runs.values()):
        return
    scopes = _scopes(_text(path), str(path)) if path.is_file() else {}
    slots = slots_for(scope)
    kept = scopes.get(scope_key(scope), {})
    for (kind, name), run in runs.items():
        kept.pop(f"{kind}:{name}", None)
        if run is not None:
            kept[f"{kind}:{name}"] = {"card_types": dict(run.card_types), "actions": [action_json(a, slots) for a in run.actions]}
    scopes[scope_key(scope)] = kept
    try:
        write_atomically(path, json.dumps({"format": FORMAT, "scopes": scopes}, separators=(",", ":"), sort_keys=True) + "\n")
    except OSError as e:
        raise InputError(f"cannot write the stored runs: {e.strerror}; choose another --runs folder or pass --fresh", Location(str(path))) from None


def _runs_file(folder: Path, label: str) -> Path:
    return folder / f"{label}.json"


class _RunsReader(TraceReader):
    def fail(self, message: str):
        raise InputError(f"invalid stored runs: {message}; delete the file to search afresh", Location(self.path))


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read the stored runs: {e.strerror}; delete the file to search afresh", Location(str(path))) from None
    except UnicodeDecodeError as e:
        raise InputError(f"the stored runs are not UTF-8 text (byte {e.start}); delete the file to search afresh", Location(str(path))) from None


def _scopes(text: str, where: str) -> dict[str, dict]:
    """A store file's runs by scope key, as JSON (each scope's are read when asked for: `_scope_runs`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"malformed stored runs: {e.msg}; delete the file to search afresh", Location(where, e.lineno, e.colno)) from None
    kind = data.get("format") if isinstance(data, dict) else None
    if isinstance(kind, str) and kind.startswith(FORMAT_NAME) and kind != FORMAT:
        return {}  # another version's runs: none is replayed, and storing replaces them
    if kind != FORMAT or not isinstance(data.get("scopes"), dict):
        _RunsReader(where).fail(f"not a file of stored runs (an object with \"format\": \"{FORMAT}\" and \"scopes\")")
    return data["scopes"]


def _scope_runs(r: TraceReader, scope: Scope, entries) -> Runs:
    slot_by_name = {s.name: s.index for s in slots_for(scope)}
    player_by_name = {name: i for i, name in enumerate(PLAYER_NAMES[: scope.players])}
    runs: Runs = {}
    for goal, run in r.typed(entries, dict, "a scope's runs").items():
        kind, _, name = goal.partition(":")
        if kind not in (PROPERTY, RULE, VIOLATION) or not name:
            r.fail(f"goal {goal!r}: a goal is 'property:ID', 'rule:NUMBER' or 'violation:ID'")
        at = f"goal {goal}"
        types = r.typed(r.get(run, "card_types", at), dict, f"{at}.card_types")
        for slot in types:
            r.name(slot_by_name, slot, f"{at}.card_types")
        card_types = tuple((slot, r.enum(CardType, value, f"{at}.card_types.{slot}")) for slot, value in sorted(types.items()))
        records = r.typed(r.get(run, "actions", at), list, f"{at}.actions")
        try:
            # field by field: itf-py would make a record's object a namedtuple of a class of its own each time
            decoded = [{key: itf_py.value_from_json(value) for key, value in r.typed(record, dict, f"{at}.actions").items()} for record in records]
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            r.fail(f"{at}: an action is not ITF ({type(e).__name__}: {e})")
        actions = tuple(action_from_record(r, record, f"{at}, action {i}", slot_by_name, player_by_name, scope) for i, record in enumerate(decoded))
        runs[(kind, name)] = Run(card_types, actions)
    return runs

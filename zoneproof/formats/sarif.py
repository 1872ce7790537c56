"""SARIF 2.1.0: one run whose results are located in the files a user edits: a check at the property
in its `.zp` file and at the `[[rule]]` blocks of the rules it cites or that were removed, with the
counterexample as a code flow through the rules each step applied; a lint finding at its `[[rule]]`
or `[[action]]` block or its property; a conflict at the blocks of its rules. Findings the rule set
file declares, with a reason, are suppressed in source with that reason as the justification."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..check import CheckResult, Verdict
from ..errors import ExitCode
from ..lint import Status
from ..properties import Property, stock_file, stock_properties
from ..report import changes, cites_outside, describe_action, expectation_note, not_applicable_warning, padding_labels, shortest_note, violation_line
from ..ruleset import RuleSet, builtin_file

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SOURCE_ROOT = "SRCROOT"
# The analyses whose results are not about one property, with what each reports (property ids have no "/").
RULES = {
    "lint/dead-action": "An action of the rule set is never enabled in a state reachable within the scope.",
    "lint/dead-rule": "Removing the rule changes no reachable step and no player's view within the scope.",
    "lint/vacuous-property": "No trigger of the property fires within the scope, so it holds vacuously.",
    "lint/stale-declaration": "The rule set declares an action or rule dead, or a property vacuous, and lint finds it live or firing.",
    "lint/conflict": "The rules leave an action that applies to its target with no legal outcome, or make the start of the game impossible.",
    "coverage/unguarded-rule": "No property notices the rule's removal within the scope.",
    "coverage/not-applicable": "The property does not hold with every rule in force, so it says nothing about the removal of any rule.",
    "diff/verdict-flip": "A property holds under one rule set and is violated under the other.",
    "diff/behaviour-difference": "A run one rule set allows and the other forbids at its last step.",
    "run/scenario-expectation": "A scenario's expectation does not hold in the interpreter.",
    "run/trace-not-reproduced": "A saved trace does not replay in the interpreter as recorded.",
    "zoneproof/unknown": "Z3 gave no answer in time; never read as a pass.",
    "zoneproof/checker-bug": "An example found by Z3 did not replay in the interpreter: a bug in zoneproof.",
}


def _artifact(path: str) -> dict:
    if Path(path).is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(Path(path).as_posix()), "uriBaseId": SOURCE_ROOT}


def _location(path: str, line: int | None = None, column: int | None = None, message: str | None = None) -> dict:
    physical: dict = {"artifactLocation": _artifact(path)}
    if line:
        physical["region"] = {"startLine": line} | ({"startColumn": column} if column else {})
    return {"physicalLocation": physical} | ({"message": {"text": message}} if message else {})


def ruleset_file(ruleset: RuleSet, defined_in: str | None = None) -> str:
    """The file of the rule set, or of the rule set of its chain named `defined_in` (a base it extends)."""
    if defined_in not in (None, ruleset.name):
        link = next(link for link in ruleset.chain if link.name == defined_in)
        return str(builtin_file(link.name)) if link.origin == "builtin" else os.path.relpath(link.origin)
    return str(builtin_file(ruleset.name)) if ruleset.origin == "builtin" else ruleset.origin


def property_location(prop: Property) -> dict:
    path = str(stock_file()) if prop in stock_properties() else prop.location.path
    return _location(path, prop.location.line, prop.location.column)


def rule_locations(ruleset: RuleSet, rule_ids) -> list[dict]:
    rules = {r.id: r for r in ruleset.rules}
    return [_location(ruleset_file(ruleset, rules[i].defined_in), rules[i].line) for i in dict.fromkeys(rule_ids) if i in rules]


def action_location(ruleset: RuleSet, kind) -> list[dict]:
    return [_location(ruleset_file(ruleset, a.defined_in), a.line) for a in ruleset.actions if a.kind is kind]


def check_message(r: CheckResult) -> str:
    text = f"{r.prop.id} {r.verdict.value} under {r.ruleset.label} (depth {r.depth}){expectation_note(r)}"
    return text + (f": {violation_line(r.prop, r.trace.violation_step, r.witnesses)}" if r.trace is not None else "")


def code_flow(r: CheckResult) -> dict:
    """The counterexample's steps, each located at the first rule it applied (or at its action)."""
    trace = r.trace
    steps, state = [], trace.initial
    for number, step in enumerate(trace.steps, start=1):
        applied = f"  [{', '.join(step.rules)}]" if step.rules else ""
        what = "; ".join(changes(state, step.state, trace.slots)) or "nothing changes"
        text = f"{number}. {describe_action(step.action, trace.slots)}{applied}: {what}"
        where = rule_locations(r.ruleset, step.rules)[:1] or action_location(r.ruleset, step.action.kind)[:1] or [_location(ruleset_file(r.ruleset))]
        steps.append({"location": where[0] | {"message": {"text": text}}})
        state = step.state
    return {"threadFlows": [{"locations": steps}]}


class _Log:
    def __init__(self):
        self.rules: dict[str, dict] = {}
        self.results: list[dict] = []

    def rule(self, rule_id: str, description: str, cites: tuple[str, ...] = ()) -> int:
        if rule_id not in self.rules:
            descriptor = {"id": rule_id, "shortDescription": {"text": description}}
            if cites:
                descriptor["properties"] = {"cites": list(cites)}
            self.rules[rule_id] = descriptor
        return list(self.rules).index(rule_id)

    def add(self, rule_id: str, message: str, locations: list[dict], failed: bool, level: str = "error",
            suppressed: str = "", flows: list[dict] = (), properties: dict | None = None, description: str = "",
            cites: tuple[str, ...] = ()) -> None:
        index = self.rule(rule_id, description or RULES[rule_id], cites)
        result = {"ruleId": rule_id, "ruleIndex": index, "message": {"text": message}}
        result |= {"kind": "fail", "level": level} if failed else {"kind": "pass", "level": "none"}
        result["locations"] = locations
        if flows:
            result["codeFlows"] = list(flows)
        if suppressed:
            result["suppressions"] = [{"kind": "inSource", "justification": suppressed}]
        if properties:
            result["properties"] = properties
        self.results.append(result)

    def undecided(self, what: str, reason: str, locations: list[dict], checker_bug: bool) -> None:
        self.add("zoneproof/checker-bug" if checker_bug else "zoneproof/unknown", f"{what}: {reason}", locations, True, "error" if checker_bug else "warning")


def _check(log: _Log, r: CheckResult, trace) -> None:
    locations = [property_location(r.prop)] + rule_locations(r.ruleset, [*r.ruleset.removed, *r.prop.cites])
    written = {("trace" if r.trace is not None else "certificate"): str(trace)} if trace else {}
    properties = {"ruleset": r.ruleset.label, "verdict": r.verdict.value, "depth": r.depth} | written
    if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR):
        log.undecided(f"{r.ruleset.label} {r.prop.id}", r.reason, locations, r.verdict is Verdict.ERROR)
        return
    log.add(r.prop.id, check_message(r), locations, bool(r.counts_against), flows=[code_flow(r)] if r.trace else (),
            properties=properties, description=r.prop.meaning, cites=r.prop.cites)


def _lint(log: _Log, report) -> None:
    ruleset = report.ruleset
    findings = [("lint/dead-action", f, action_location(ruleset, f.action), f"action {f.action.value}") for f in report.actions]
    findings += [("lint/dead-rule", f, rule_locations(ruleset, [f.rule]), f"rule {f.rule}") for f in report.rules]
    findings += [("lint/vacuous-property", f, [property_location(f.prop)], f"property {f.prop.id}") for f in report.properties]
    for rule_id, f, locations, what in findings:
        locations = locations or [_location(ruleset_file(ruleset))]
        if f.status in (Status.UNKNOWN, Status.ERROR):
            log.undecided(f"lint {ruleset.label}: {what}", f.detail, locations, f.status is Status.ERROR)
        elif f.status in (Status.DEAD, Status.VACUOUS):
            log.add(rule_id, f"{ruleset.label}: {what} is {f.status.value}: {f.detail}", locations, True,
                    "note" if f.known else "error", suppressed=f.known)
        elif f.stale:
            log.add("lint/stale-declaration", f"{ruleset.label}: {what} is {f.status.value}, but the rule set declares otherwise: {f.stale}", locations, True)
    for c in report.conflicts:
        locations = rule_locations(ruleset, c.rules) or [_location(ruleset_file(ruleset))]
        log.add("lint/conflict", f"{ruleset.label}: rules {', '.join(c.rules) or '(none)'} leave no outcome for {c.event}", locations, True)
    for what in report.unanswered:
        log.undecided(f"lint {ruleset.label}: conflicts", what, [_location(ruleset_file(ruleset))], False)
    for what in report.checker_bugs:
        log.undecided(f"lint {ruleset.label}: conflicts", what, [_location(ruleset_file(ruleset))], True)


def _diff(log: _Log, result) -> None:
    differing = [d.rule_id for d in result.rules]
    for f in result.flips:
        r = f.violated
        locations = [property_location(f.prop)] + rule_locations(result.a, differing) + rule_locations(result.b, differing)
        log.add("diff/verdict-flip", f"{f.prop.id} is violated under {result.name(r.ruleset)} only", locations, True, flows=[code_flow(r)])
    for d in result.behaviours:
        locations = action_location(d.allowing, d.kind) + action_location(d.refusing, d.kind)
        log.add("diff/behaviour-difference", f"{d.kind.value}: allowed by {result.name(d.allowing)}, not by {result.name(d.refusing)}: {d.refused}{shortest_note(d)}",
                locations or [_location(ruleset_file(d.allowing))], True)
    for p in result.problems:
        log.undecided(f"diff {result.name(result.a)} vs {result.name(result.b)}", p.what, [_location(ruleset_file(result.a))], p.checker_bug)


def _coverage(log: _Log, result) -> None:
    ruleset = result.ruleset
    for r in result.not_applicable:
        if r.verdict in (Verdict.UNKNOWN, Verdict.ERROR):
            log.undecided(f"coverage {ruleset.label} with every rule in force: {r.prop.id}", r.reason, [property_location(r.prop)], r.verdict is Verdict.ERROR)
        else:
            log.add("coverage/not-applicable", f"{ruleset.label}: {not_applicable_warning(r)}", [property_location(r.prop)], True, "warning")
    for row in result.rows:
        locations = rule_locations(ruleset, [row.rule])
        if any(r.verdict is Verdict.ERROR for r in row.results) or row.reason.startswith("not decided"):
            bug = next((r.reason for r in row.results if r.verdict is Verdict.ERROR), "")
            log.undecided(f"coverage {ruleset.label} without {row.rule}", bug or row.reason, locations, bool(bug))
        elif row.reason.startswith("no property"):
            log.add("coverage/unguarded-rule", f"{ruleset.label}: rule {row.rule}: {row.reason}", locations, True)
        elif row.reason and not row.reason.startswith("documented"):
            log.add("coverage/unguarded-rule", f"{ruleset.label}: rule {row.rule} is unguarded", locations, True, "note", suppressed=row.reason)


def _scenario(log: _Log, result) -> None:
    s = result.scenario
    noted = {"cites_outside": cites_outside(s), "padding": padding_labels(s)}
    properties = {key: value for key, value in noted.items() if value} or None
    if result.passed:
        log.add("run/scenario-expectation", f"{s.name}: every expectation holds", [_location(s.path)], False, properties=properties)
    for f in result.failures:
        line = s.steps[f.step - 1].line if 0 < f.step <= len(s.steps) else None
        log.add("run/scenario-expectation", f"{s.name}: step {f.step}: {f.message}", [_location(s.path, line)], True, properties=properties)


def _replay(log: _Log, c) -> None:
    text = f"{c.prop.id} under {c.trace.ruleset_name}: " + ("confirmed" if c.confirmed else f"not reproduced: {c.problem}")
    log.add("run/trace-not-reproduced", text, [_location(c.path)], not c.confirmed)


def sarif_document(items: list[tuple], summary) -> str:
    log = _Log()
    for kind, *item in items:
        if kind == "check":
            _check(log, *item)
        elif kind == "lint":
            _lint(log, item[0])
        elif kind == "diff":
            _diff(log, item[0])
        elif kind == "coverage":
            _coverage(log, item[0])
        elif kind == "scenario":
            _scenario(log, *item)
        elif kind == "replay":
            _replay(log, *item)
    run = {
        "tool": {"driver": {"name": "zoneproof", "version": __version__, "semanticVersion": __version__, "rules": list(log.rules.values())}},
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": Path.cwd().as_uri() + "/"}},
        "invocations": [{"executionSuccessful": summary.exit_code != ExitCode.INTERRUPTED, "exitCode": summary.exit_code}],
        "results": log.results,
        "properties": {"command": summary.command, "counts": dict(summary.counts), "seconds": round(summary.seconds, 3)},
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, ensure_ascii=False, indent=2) + "\n"

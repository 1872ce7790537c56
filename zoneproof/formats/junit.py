"""JUnit XML: one testsuite per rule set (its checks and its lint findings), per comparison, per
coverage matrix, and one for the scenarios and traces run; one testcase per property, lint finding,
rule removed, scenario or trace. A failure is a verdict or finding that fails the run, with the
counterexample's steps as `zoneproof check` prints them; an unknown answer or a checker bug is an error."""

from __future__ import annotations

from dataclasses import replace

from junitparser import Error, Failure, JUnitXml, Skipped, TestCase, TestSuite

from ..check import CheckResult, Verdict
from ..lint import Status
from ..report import (
    expectation_note,
    format_certificate,
    format_counterexample,
    format_diff_behaviours,
    format_replay,
    format_scenario,
    not_applicable_warning,
    result_line,
)


def _case(name: str, classname: str, seconds: float | None = None, out: list[str] = ()) -> TestCase:
    case = TestCase(name, classname, round(seconds, 3) if seconds is not None else None)
    if out:
        case.system_out = "\n".join(out)
    return case


def _fail(case: TestCase, message: str, text: list[str], kind: str, error: bool = False) -> TestCase:
    result = (Error if error else Failure)(message, kind)
    result.text = "\n".join(text)
    case.result = [result]
    return case


class _Suites:
    def __init__(self):
        self.suites: dict[str, TestSuite] = {}

    def add(self, suite_name: str, case: TestCase) -> None:
        if suite_name not in self.suites:
            self.suites[suite_name] = TestSuite(suite_name)
        self.suites[suite_name].add_testcase(case)


def check_case(r: CheckResult, trace) -> TestCase:
    line = result_line(r)
    steps = format_counterexample(r, trace) if r.trace is not None else format_certificate(r, trace) if r.verdict is Verdict.PROVED else []
    case = _case(r.prop.id, r.ruleset.label, r.seconds)
    if r.verdict is Verdict.ERROR:
        return _fail(case, f"checker bug: {r.reason}", [line], "checker-bug", error=True)
    if r.verdict is Verdict.UNKNOWN:
        return _fail(case, f"unknown: {r.reason}", [line], "unknown", error=True)
    if r.counts_against:
        message = steps[-1].strip() if steps else f"{r.verdict.value}{expectation_note(r)}"
        return _fail(case, message, [line, *steps], r.verdict.value)
    case.system_out = "\n".join([line, *steps])
    return case


def lint_cases(report, written: dict) -> list[TestCase]:
    label = report.ruleset.label
    cases = []
    for name, f in [(f"lint: {kind} {name}", f) for kind, name, f in report.named_findings()]:
        text = f"{f.status.value}: {f.detail}" + (f" (known: {f.known})" if f.known else "")
        case = _case(name, label, out=[text])
        if f.status is Status.ERROR:
            _fail(case, f"checker bug: {f.detail}", [text], "checker-bug", error=True)
        elif f.status is Status.UNKNOWN:
            _fail(case, f"unknown: {f.detail}", [text], "unknown", error=True)
        elif f.status in (Status.DEAD, Status.VACUOUS) and not f.known:
            _fail(case, text, [text], f.status.value)
        elif f.stale:
            _fail(case, f"stale declaration: {text} (declared: {f.stale})", [text], "stale")
        cases.append(case)
    for index, c in enumerate(report.conflicts):
        text = f"rules {', '.join(c.rules) or '(none)'} leave no outcome for {c.event}"
        scenario = written.get(("conflict", index))
        cases.append(_fail(_case(f"lint: conflict {index + 1}", label), text, [text] + ([f"scenario written to {scenario}"] if scenario else []), "conflict"))
    searches = [(what, False) for what in report.unanswered] + [(what, True) for what in report.checker_bugs]
    for index, (what, bug) in enumerate(searches, start=1):
        case = _case(f"lint: search for conflicts {index}", label)
        cases.append(_fail(case, f"{'checker bug' if bug else 'unknown'}: {what}", [what], "checker-bug" if bug else "unknown", error=True))
    return cases


def diff_cases(result, paths: dict) -> list[TestCase]:
    classname = f"diff {result.name(result.a)} vs {result.name(result.b)}"
    flips = {f.prop.id: f for f in result.flips}
    cases = []
    for ra, rb in result.results:
        text = f"{ra.prop.id}: {result.name(result.a)} {ra.verdict.value}, {result.name(result.b)} {rb.verdict.value}"
        case = _case(f"property {ra.prop.id}", classname, ra.seconds + rb.seconds, [text])
        if ra.prop.id in flips:
            violated = flips[ra.prop.id].violated
            _fail(case, f"{text}: the verdict flips", [text, *format_counterexample(violated, paths.get(id(violated)))], "flip")
        cases.append(case)
    for d in result.behaviours:
        text = f"{d.kind.value}: allowed by {result.name(d.allowing)}, not by {result.name(d.refusing)}"
        lines = format_diff_behaviours(replace(result, behaviours=[d]), paths)[1:]
        cases.append(_fail(_case(f"behaviour {d.kind.value} ({result.name(d.allowing)})", classname), text, lines, "behaviour"))
    for index, p in enumerate(result.problems):
        cases.append(_fail(_case(f"problem {index + 1}", classname), p.what, [p.what], "checker-bug" if p.checker_bug else "unknown", error=True))
    return cases


def coverage_cases(result) -> list[TestCase]:
    """A testcase per property that does not hold with every rule in force (skipped: not applicable),
    then one per rule removed."""
    classname = f"coverage {result.ruleset.label}"
    cases = []
    for r in result.not_applicable:
        text = not_applicable_warning(r)
        case = _case(f"with every rule in force: {r.prop.id}", classname, r.seconds, [text])
        if r.verdict in (Verdict.ERROR, Verdict.UNKNOWN):
            bug = r.verdict is Verdict.ERROR
            _fail(case, f"{'checker bug' if bug else 'unknown'}: {r.reason}", [text], "checker-bug" if bug else "unknown", error=True)
        else:
            case.result = [Skipped(text)]
        cases.append(case)
    for row in result.rows:
        guarded = ", ".join(f"{r.prop.id} (depth {r.depth})" for r in row.guarded_by)
        text = f"{row.rule}: " + (f"guarded by {guarded}" if guarded else row.reason)
        case = _case(f"without {row.rule}", classname, sum(r.seconds for r in row.results), [text])
        if any(r.verdict is Verdict.ERROR for r in row.results):
            _fail(case, text, [text], "checker-bug", error=True)
        elif row.reason.startswith("not decided"):
            _fail(case, text, [text], "unknown", error=True)
        elif row.reason.startswith("no property"):
            _fail(case, text, [text], "unguarded")
        cases.append(case)
    return cases


def scenario_case(result) -> TestCase:
    s = result.scenario
    lines = format_scenario(result)
    case = _case(s.name, s.path, out=lines)
    if not result.passed:
        first = result.failures[0]
        _fail(case, f"step {first.step}: {first.message}", lines, "expectation")
    return case


def replay_case(c) -> TestCase:
    lines = format_replay(c)
    case = _case(f"{c.prop.id} under {c.trace.ruleset_name}", c.path, out=lines)
    if not c.confirmed:
        _fail(case, f"not reproduced: {c.problem}", lines, "not-reproduced")
    return case


def junit_document(items: list[tuple], summary) -> str:
    suites = _Suites()
    for kind, *item in items:
        if kind == "check":
            r, trace = item
            suites.add(r.ruleset.label, check_case(r, trace))
        elif kind == "lint":
            report, written = item
            for case in lint_cases(report, written):
                suites.add(report.ruleset.label, case)
        elif kind == "diff":
            result, paths = item
            for case in diff_cases(result, paths):
                suites.add(f"diff {result.name(result.a)} vs {result.name(result.b)}", case)
        elif kind == "coverage":
            result, _ = item
            for case in coverage_cases(result):
                suites.add(f"coverage {result.ruleset.label}", case)
        elif kind == "scenario":
            suites.add("scenarios", scenario_case(*item))
        elif kind == "replay":
            suites.add("traces", replay_case(*item))
    xml = JUnitXml(f"zoneproof {summary.command}")
    for suite in suites.suites.values():
        suite.update_statistics()
        xml.add_testsuite(suite)
    xml.update_statistics()
    xml.time = round(summary.seconds, 3)
    return xml.tostring().decode("utf-8") + "\n"

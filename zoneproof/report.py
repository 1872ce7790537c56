"""Turn results into text. Nothing here prints; the CLI does (machine formats: `formats/`)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from .check import CheckResult, Verdict
from .model import ORDERED_ZONES, PERSONAL_ZONES, PLAYER_NAMES, SLOT_FIELDS, Action, CardType, GameState, ObjectState, Slot, Step, Zone, slots_for
from .properties import Property
from .ruleset import RuleSet


def where(o: ObjectState) -> str:
    """`library/A #2` (positions from the top, #1 is the top), `battlefield`, `outside`."""
    text = o.zone.value
    if o.zone in PERSONAL_ZONES:
        text += f"/{PLAYER_NAMES[o.whose]}"
    return text


def describe_action(action: Action, slots: tuple[Slot, ...]) -> str:
    parts = [action.kind.value]
    if action.card is not None:
        parts.append(slots[action.card].name)
    if action.zone is not None:
        parts.append(f"zone={action.zone.value}")
    if action.player is not None:
        parts.append(f"player={PLAYER_NAMES[action.player]}")
    if action.n:
        parts.append(f"n={action.n}")
    if action.cards:
        parts.append("cards=" + ",".join(slots[i].name for i in action.cards))
    if action.targets:
        parts.append("targets=" + ",".join(slots[i].name for i in action.targets))
    if action.to_command:
        parts.append("to_command")
    for key, order in action.order:
        parts.append(f"{key}=[" + " ".join(slots[i].name for i in order) + "]")
    return " ".join(parts)


def _position(state: GameState, index: int) -> str:
    o = state.objects[index]
    if o.zone not in ORDERED_ZONES:
        return ""
    size = state.size(o.zone, o.whose)
    return f" #{size - o.pos}/{size}"


def changes(before: GameState, after: GameState, slots: tuple[Slot, ...]) -> list[str]:
    """One phrase per object that changed: where it went and which fields changed."""
    phrases = []
    for i, (o, o2) in enumerate(zip(before.objects, after.objects)):
        if o.moved(revealed=False, shown=()) == o2.moved(revealed=False, shown=()) and not o2.revealed and not o2.shown:
            continue  # a reveal or a look lasts one step: its end is no change
        bits = []
        if (o.zone, o.whose) != (o2.zone, o2.whose):
            bits.append(f"{where(o)} → {where(o2)}{_position(after, i)}")
        elif o.pos != o2.pos:
            bits.append(f"{where(o)}{_position(before, i)} → {_position(after, i).strip()}")
        for f in fields(o):
            if f.name in ("zone", "whose", "pos", "revealed", "shown"):
                continue
            a, b = getattr(o, f.name), getattr(o2, f.name)
            if a != b:
                if f.name == "controller":
                    a, b = PLAYER_NAMES[a], PLAYER_NAMES[b]
                elif f.name == "looker":
                    a, b = ("none" if x is None else PLAYER_NAMES[x] for x in (a, b))
                elif f.name in SLOT_FIELDS:
                    a, b = ("none" if x is None else slots[x].name for x in (a, b))
                elif isinstance(a, Zone):
                    a, b = a.value, b.value
                bits.append(f"{f.name} {a} → {b}")
        if o2.revealed:
            bits.append("revealed to all (708.9)")
        if o2.shown:
            bits.append("shown to " + ", ".join(PLAYER_NAMES[p] for p in o2.shown))
        phrases.append(f"{slots[i].name}: " + ", ".join(bits))
    for p, (ps, ps2) in enumerate(zip(before.players, after.players)):
        bits = [f"{f.name} {getattr(ps, f.name)} → {getattr(ps2, f.name)}" for f in fields(ps) if getattr(ps, f.name) != getattr(ps2, f.name)]
        if bits:
            phrases.append(f"player {PLAYER_NAMES[p]}: " + ", ".join(bits))
    if after.started and not before.started and any(ps.drawn for ps in before.players):
        phrases.append("the game starts: the mulligans are over")
    return phrases


def describe_start(state: GameState, slots: tuple[Slot, ...], card_types: tuple[CardType, ...], players: int) -> list[str]:
    lines = []
    for p in range(players):
        library = list(reversed(state.zone_members(Zone.LIBRARY, p)))
        shown = ", ".join(f"{slots[i].name} ({card_types[i].value})" for i in library) or "empty"
        lines.append(f"library/{PLAYER_NAMES[p]}, top first: {shown}")
    outside = [f"{slots[i].name} ({card_types[i].value})" for i in state.zone_members(Zone.OUTSIDE)]
    if outside:
        lines.append("outside the game: " + ", ".join(outside))
    return lines


def format_steps(slots, card_types, players, initial: GameState, steps: tuple[Step, ...]) -> list[str]:
    lines = [f"  start  {line}" for line in describe_start(initial, slots, card_types, players)]
    state = initial
    for number, step in enumerate(steps, start=1):
        rules = f"  [{', '.join(step.rules)}]" if step.rules else ""
        lines.append(f"  {number:>3}.  {describe_action(step.action, slots)}{rules}")
        for phrase in changes(state, step.state, slots) or ["nothing changes"]:
            lines.append(f"        {phrase}")
        state = step.state
    return lines


def result_line(r: CheckResult, width: int = 24) -> str:
    cites = ", ".join(r.prop.cites)
    depth = "∞" if r.verdict is Verdict.PROVED else r.depth if r.depth >= 0 else "-"
    line = f"{r.ruleset.label:<{max(width, len(r.ruleset.label))}} {r.prop.id:<22} {r.verdict.value:<9} depth {depth:<3} {r.seconds:6.2f}s  [{cites}]"
    if r.reason:
        line += f"  ({r.reason})"
    return line + expectation_note(r)


def expectation_note(r: CheckResult) -> str:
    """`  (expected: why)` for a non-holds verdict the rule set expects, `  (unexpected: ...)` for a
    verdict it does not; nothing for an expected holds or when no expectation applies."""
    e = r.expectation
    if e is None or r.verdict in (Verdict.UNKNOWN, Verdict.ERROR):
        return ""
    if r.as_expected:
        return f"  (expected: {e.reason})" if e.verdict != "holds" else ""
    if e.verdict == "holds":
        return "  (unexpected: holds expected)"
    return f"  (unexpected: {e.verdict} expected: {e.reason})"


def format_certificate(r: CheckResult, path: Path | None) -> list[str]:
    n, together = len(r.certificate.lemmas), len(r.certificate.together)
    lemmas = f"{n} lemma{'s' * (n != 1)}" if n else "the property alone, inductive"
    if together:
        lemmas += f", proved together with {together} propert{'ies' if together != 1 else 'y'}"
    return [f"  proved at every depth (players and cards of the scope); certificate: {lemmas}" + (f", written to {path}" if path else "")]


def format_counterexample(r: CheckResult, path: Path | None) -> list[str]:
    trace = r.trace
    lines = [f"  counterexample: {len(trace.steps)} step{'s' * (len(trace.steps) != 1)}" + (f", written to {path}" if path else "")]
    lines += format_steps(trace.slots, trace.card_types, trace.scope.players, trace.initial, trace.steps)
    lines.append("  " + violation_line(r.prop, trace.violation_step, r.witnesses))
    return lines


def violation_line(prop: Property, step: int, found: tuple[str, ...] | list[str]) -> str:
    witnessed = f" for {'; '.join(found)}" if found else ""
    return f"✗ {prop.id} fails at step {step}{witnessed}: {prop.meaning}"


def summary(results: list[CheckResult], wall_seconds: float) -> str:
    counts = {v: sum(r.verdict is v for r in results) for v in Verdict}
    replayed = sum(r.from_store for r in results)
    from_store = {Verdict.VIOLATED: f" ({replayed} replayed from stored runs)"} if replayed else {}
    parts = [f"{counts[v]} {v.value}{from_store.get(v, '')}" for v in Verdict if counts[v] or v in (Verdict.HOLDS, Verdict.VIOLATED)]
    if any(r.expectation is not None for r in results):
        unexpected = sum(r.as_expected is False for r in results)
        parts[-1] += f"; {unexpected} unexpected"
    return f"{len(results)} checks: {', '.join(parts)} in {wall_seconds:.1f}s"


CHANGE_MARKS = {"added": "+", "replaced": "~", "moved": ">"}


def format_ruleset(ruleset: RuleSet) -> list[str]:
    """The rule set's zones, rules, expectations and actions. For a file that extends another, the
    chain it inherits from, and each entry the file adds (+), replaces (~) or moves (>), then what
    it removes; the entries without a mark are inherited."""
    marks = {(c.kind, c.key): CHANGE_MARKS[c.how] for c in ruleset.changes if c.how in CHANGE_MARKS}

    def entry(kind: str, key: str, text: str) -> str:
        return f"  {marks.get((kind, key), ' ')} {text}" if ruleset.base is not None else f"    {text}"

    lines = [f"{ruleset.name}: {ruleset.title}", f"  source: {ruleset.source}"]
    if ruleset.base is not None:
        lines.append(f"  extends: {' → '.join(_link_label(link) for link in ruleset.chain[1:])}")
        lines.append(f"  changes to {ruleset.base.name}: {_change_counts(ruleset.changes)} (+ added, ~ replaced, > moved; unmarked: inherited)")
    if ruleset.is_commander:
        lines.append("  variant: commander (one commander per player, starting in the command zone: 903.3, 903.6)")
    lines.append("  zones:")
    for z in ruleset.zones:
        traits = ["personal" if z.personal else "shared", "hidden" if z.hidden else "public", "ordered" if z.ordered else "unordered"]
        name = f"{z.zone.value} ({z.called})" if z.called else z.zone.value
        lines.append(entry("zone", z.zone.value, f"{name:<20} {', '.join(traits)}"))
    lines.append("  rules:")
    width = max([8] + [len(r.id) for r in ruleset.rules])
    behaviour_width = max([28] + [len(r.behaviour.value) + 1 for r in ruleset.rules])
    for rule in ruleset.rules:
        lines.append(entry("rule", rule.id, f"{rule.id:<{width}} {rule.behaviour.value:<{behaviour_width}} {rule.summary}"))
    if ruleset.expectations:
        lines.append("  expected verdicts (holds for every other property):")
        for e in ruleset.expectations:
            lines.append(entry("expect", e.property, f"{e.property:<22} {e.verdict:<9} {e.reason}"))
    lines.append("  actions:")
    action_width = max([26] + [len(a.kind.value) + 1 for a in ruleset.actions])
    for a in ruleset.actions:
        lines.append(entry("action", a.kind.value, f"{a.kind.value:<{action_width}} [{', '.join(a.cites)}] {a.summary}"))
    removed = {}
    for c in ruleset.changes:
        if c.how == "removed":
            removed.setdefault(c.kind, []).append(c.key)
    if removed:
        lines.append(f"  removed from {ruleset.base.name}:")
        lines += [f"    {TABLE_NAMES[kind]:<20} {', '.join(keys)}" for kind, keys in removed.items()]
    return lines


# The tables of a rule set file as `list` names them.
TABLE_NAMES = {
    "zone": "zones", "rule": "rules", "action": "actions", "expect": "expected verdicts",
    "dead": "[[dead]]", "unguarded": "[[unguarded]]", "gap": "[[gap]]",
}


def _link_label(link) -> str:
    return link.name if link.origin == "builtin" else f"{link.name} ({link.origin})"


def _change_counts(changes) -> str:
    counts = {how: sum(c.how == how for c in changes) for how in ("added", "replaced", "moved", "removed")}
    return ", ".join(f"{n} {how}" for how, n in counts.items() if n) or "nothing but its name"


def format_property(p: Property) -> str:
    return f"  {p.id:<22} {p.kind.value:<6} [{', '.join(p.cites)}] {p.meaning}"


def format_scenario(result) -> list[str]:
    """The scenario's steps (what changed, the rules that applied) and each failed expectation."""
    scenario = result.scenario
    world = scenario.world
    mark = "✓" if result.passed else "✗"
    outside = cites_outside(scenario)
    note = f"; {', '.join(outside)} not in {world.ruleset.name}" if outside else ""
    lines = [f"{mark} {scenario.name}  ({scenario.path}; cites {', '.join(scenario.cites) or 'nothing'}{note})"]
    if scenario.padding:
        lines.append(f"  also in the game (so that every player has as many cards of each kind): {', '.join(padding_labels(scenario))}")
    state = scenario.start
    failures = {}
    for f in result.failures:
        failures.setdefault(f.step, []).append(f.message)
    for number, (planned, step) in enumerate(zip(scenario.steps, result.steps), start=1):
        if step is None:
            refused = "refused" if failures.get(number) else "illegal, as expected"
            lines.append(f"  {number:>3}.  {describe_action(planned.action, world.slots)}  ({refused})")
        else:
            rules = f"  [{', '.join(step.rules)}]" if step.rules else ""
            lines.append(f"  {number:>3}.  {describe_action(step.action, world.slots)}{rules}")
            for phrase in changes(state, step.state, world.slots) or ["nothing changes"]:
                lines.append(f"        {phrase}")
            state = step.state
        lines += [f"        ✗ {message}" for message in failures.get(number, [])]
    for number in sorted(failures):
        if number > len(result.steps):
            lines += [f"  {number:>3}.  ✗ {message}" for message in failures[number]]
    return lines


def cites_outside(scenario) -> list[str]:
    """The rules a scenario cites that its rule set does not model."""
    modelled = {r.id for r in scenario.world.ruleset.rules}
    return [c for c in scenario.cites if c not in modelled]


def padding(scenario) -> list[tuple[str, str, str]]:
    """(card, zone, owner) of each card the scenario file does not list, added so that every player
    has as many cards of each kind."""
    slots = {s.name: s for s in scenario.world.slots}
    return [(name, scenario.start.objects[slots[name].index].zone.value, PLAYER_NAMES[slots[name].owner]) for name in scenario.padding]


def padding_labels(scenario) -> list[str]:
    """`B1 (library/B)` for each card of the padding."""
    return [f"{name} ({zone}/{owner})" for name, zone, owner in padding(scenario)]


def format_replay(c) -> list[str]:
    """What `zoneproof replay` prints: the steps replayed, then whether the violation is confirmed."""
    trace = c.trace
    removed = f" without {', '.join(trace.removed)}" if trace.removed else ""
    lines = [f"replaying {c.path}: {c.prop.id} under {trace.ruleset_name}{removed} (seed {trace.seed})"]
    lines += format_steps(c.world.slots, c.world.card_types, c.world.players, trace.initial, c.replay.steps)
    if not c.confirmed:
        return lines + [f"✗ not reproduced: {c.problem}"]
    return lines + [
        violation_line(c.prop, trace.violation_step, c.witnesses),
        f"✓ confirmed: the violation is at step {trace.violation_step}, as recorded",
    ]


# ---------------------------------------------------------------- diff


def rule_in_file(ruleset: RuleSet, rule_id: str | None) -> bool:
    return rule_id is not None and any(r.id == rule_id for r in ruleset.rules)


def format_diff_rules(result) -> list[str]:
    a, b = result.a, result.b
    if not result.rules and not any(result.actions):
        return ["rules: the same rules in force, with the same behaviours"]
    lines = ["rules that differ:"] if result.rules else []
    width = max([8] + [len(d.rule_id) for d in result.rules])
    for d in result.rules:
        sides = []
        for ruleset, rule in ((a, d.a), (b, d.b)):
            if rule is not None:
                zones = f" [{', '.join(z.value for z in rule.zones)}]" if rule.zones and (d.a and d.b and d.a.zones != d.b.zones) else ""
                shown = rule.behaviour.value + zones
            else:
                shown = "removed" if rule_in_file(ruleset, d.rule_id) else "not in the file"
            sides.append(f"{result.name(ruleset)}: {shown}")
        lines.append(f"  {d.rule_id:<{width}} {sides[0]:<46} {sides[1]}")
    for ruleset, kinds in zip((a, b), result.actions):
        if kinds:
            lines.append(f"actions only under {result.name(ruleset)}: {', '.join(k.value for k in kinds)}")
    return lines


def format_diff_properties(result, paths: dict) -> list[str]:
    a, b = result.a, result.b
    if not result.results:
        return []
    na, nb = result.name(a), result.name(b)
    wa, wb = max(9, len(na)), max(9, len(nb))
    lines = [f"properties:{'':<13} {na:<{wa}} {nb:<{wb}}"]
    flips = {f.prop.id for f in result.flips}
    for ra, rb in result.results:
        mark = "  ← flips" if ra.prop.id in flips else ""
        lines.append(f"  {ra.prop.id:<22} {ra.verdict.value:<{wa}} {rb.verdict.value:<{wb}}{mark}".rstrip())
    for f in result.flips:
        r = f.violated
        lines.append(f"  {f.prop.id} is violated under {result.name(r.ruleset)} only:")
        lines += ["  " + line for line in format_counterexample(r, paths.get(id(r)))]
    return lines


def shortest_note(d) -> str:
    """What a behaviour difference says when it is not known to be a shortest run, else ""."""
    return f" (not known to be the shortest: {d.shortest})" if d.shortest else ""


def format_diff_behaviours(result, paths: dict) -> list[str]:
    lines = []
    if not result.behaviours:
        if not result.finished:
            return ["behaviours: none found before the interrupt"]
        return ["behaviours: no action kind is allowed by one and forbidden by the other within the scope"]
    lines.append("behaviours that differ (steps before the last are allowed by both, with the same outcome):")
    for d in result.behaviours:
        k = len(d.steps)
        written = paths.get(id(d))
        lines.append(
            f"  {d.kind.value}: allowed by {result.name(d.allowing)}, not by {result.name(d.refusing)} ({k} step{'s' * (k != 1)})"
            + (f", written to {written[0]} and {written[1]}" if written else "")
            + shortest_note(d)
        )
        slots = slots_for(d.scope)
        body = format_steps(slots, d.card_types, d.scope.players, d.initial, d.steps)
        lines += ["  " + line for line in body]
        before = d.steps[-2].state if k > 1 else d.initial
        if d.refused_state is None:
            lines.append(f"    under {result.name(d.refusing)}, step {k} is {d.refused}")
        else:
            lines.append(f"    under {result.name(d.refusing)}, step {k} ends elsewhere:")
            lines += [f"        {phrase}" for phrase in changes(before, d.refused_state, slots) or ["nothing changes"]]
    return lines


def format_diff(result, paths: dict) -> list[str]:
    s = result.scope
    lines = [
        f"diff {result.name(result.a)} vs {result.name(result.b)}: {s.players} players, {s.cards} cards,"
        f"{' 1 commander,' if s.commanders else ''} {s.sideboard} sideboard, {s.tokens} tokens, depth {s.depth}"
        + (f", starting hand {s.starting_hand}" if result.a.has_pregame or result.b.has_pregame else "")
    ]
    lines += format_diff_rules(result)
    lines += format_diff_properties(result, paths)
    lines += format_diff_behaviours(result, paths)
    for p in result.problems:
        lines.append(f"{'checker bug' if p.checker_bug else 'unknown'}: {p.what}")
    differ = f"{len(result.flips)} verdict{'s' * (len(result.flips) != 1)} flip, {len(result.behaviours)} behaviour{'s' * (len(result.behaviours) != 1)} differ"
    if not result.finished:
        verdict = f"interrupted: {differ} in what was finished before it"
    elif result.agree:
        verdict = "they agree within the scope" + (" (some questions had no answer)" if result.problems else "")
    else:
        verdict = differ
    lines.append(f"{len(result.rules)} rules differ; {verdict}; in {result.seconds:.1f}s")
    return lines


# ---------------------------------------------------------------- lint


def _scope_text(scope) -> str:
    return (
        f"{scope.players} players × {scope.cards} cards (+{'1 commander, ' if scope.commanders else ''}{scope.sideboard} sideboard, {scope.tokens} token"
        f"{'s' * (scope.tokens != 1)}), depth {scope.depth}"
        + (f", hand modifiers {', '.join(f'{PLAYER_NAMES[p]} {m:+d}' for p, m in enumerate(scope.hand_modifiers))}" if any(scope.hand_modifiers) else "")
    )


def _known(finding) -> str:
    return f" (known: {finding.known})" if finding.known else ""


def _tally(findings) -> str:
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.status.value] = counts.get(f.status.value, 0) + 1
    return ", ".join(f"{n} {status}" for status, n in counts.items()) or "none"


def format_lint(report, written: dict) -> list[str]:
    """The lint report of one rule set: tallies, then every finding that is not plain good news.
    `written` maps ("conflict", index) and ("witness", property id) to the files written."""
    label = report.ruleset.label
    replayed = f", {report.replayed} of its goals reached by stored runs" if report.replayed else ""
    lines = [f"lint {label}: {_scope_text(report.scope)}, {report.seconds:.1f}s{replayed}"]
    lines.append(f"  actions     {_tally(report.actions)}")
    lines += [f"    {f.status.value:<9} {f.action.value}: {f.detail}{_known(f)}" for f in report.actions if f.status.value not in ("live",)]
    lines.append(f"  rules       {_tally(report.rules)}")
    lines += [f"    {f.status.value:<9} {f.rule}: {f.detail}{_known(f)}" for f in report.rules if f.status.value not in ("live", "documented")]
    lines.append(f"  properties  {_tally(report.properties)}")
    for f in report.properties:
        if f.status.value in ("vacuous", "unknown", "error"):
            why = f.detail or f"no trigger fires within {report.scope.depth} steps"
            lines.append(f"    {f.status.value:<9} {f.prop.id}: {why}{_known(f)}")
        elif len(f.triggers) > 1:
            for number, t in enumerate(f.triggers, start=1):
                if t.status.value != "triggered":
                    where = "at every depth" if t.every_depth else f"within {report.scope.depth} steps"
                    lines.append(f"    note      {f.prop.id}: trigger {number} of {len(f.triggers)} is {t.status.value} {where}: {t.text}")
        if ("witness", f.prop.id) in written:
            lines.append(f"    witness   {f.prop.id}: fires at step {f.fired.step}, trace written to {written[('witness', f.prop.id)]}")
    for kind, name, f in report.named_findings():
        if f.stale:
            declared = "vacuous" if kind == "property" else "dead"
            lines.append(f"    stale     {name}: the rule set declares it {declared} ({f.stale}), but it is {f.status.value}"
                         + (f": {f.detail}" if f.detail else ""))
    for gap in report.ruleset.gaps:
        lines.append(f"    gap       {gap.name}: left out of the search for conflicts (known: {gap.reason})")
    if not report.conflicts:
        lines.append("  conflicts   none" if not report.unanswered and not report.checker_bugs else "  conflicts   none found")
    lines += [f"    unknown   {what}" for what in report.unanswered]
    lines += [f"    error     {what}" for what in report.checker_bugs]
    for index, c in enumerate(report.conflicts):
        where = "at the start of a game" if c.action is None else f"after {c.step} step{'s' * (c.step != 1)}"
        lines.append(f"  conflict    rules {', '.join(c.rules) or '(none: the model itself)'} leave no outcome {where}: {c.event}")
        if ("conflict", index) in written:
            lines.append(f"              scenario written to {written[('conflict', index)]}")
    known = sum(bool(f.known) for f in report.findings) + len(report.ruleset.gaps)
    if report.problems:
        lines.append(f"  ✗ {report.problems} problem{'s' * (report.problems != 1)}" + (f" ({known} more known)" if known else ""))
    elif report.checker_bugs or any(f.status.value == "error" for f in report.findings):
        lines.append("  ! no problem found, but Z3 and the interpreter disagree about an example (a checker bug)")
    elif report.unanswered or any(f.status.value == "unknown" for f in report.findings):
        lines.append("  ? no problem found, but some questions had no answer in time (see `unknown` above)")
    else:
        lines.append("  ✓ no problems" + (f" ({known} known finding{'s' * (known != 1)}, with reasons in the rule set)" if known else ""))
    return lines


# ---------------------------------------------------------------- coverage


def _cell(r: CheckResult) -> str:
    return {"violated": str(r.depth), "holds": ".", "proved": ".", "unknown": "?", "error": "!"}.get(r.verdict.value, "?")


def not_applicable_warning(r: CheckResult) -> str:
    state = f"is violated at depth {r.depth}" if r.verdict is Verdict.VIOLATED else f"has no verdict ({r.verdict.value}: {r.reason})"
    return f"{r.prop.id} {state} with every rule in force: its column is not applicable (na), and no rule counts as guarded by it"


def format_coverage(result, props: list[Property]) -> list[str]:
    """The rule × property matrix: the depth of the counterexample when the rule is removed, `.` when
    the property still holds (to the depth bound, or proved), `?` unknown, `!` a checker bug, `-` not checked, `na` a property that
    does not hold with every rule in force; then the unguarded rules."""
    rows, failing = result.rows, {r.prop.id for r in result.not_applicable}
    replayed = f", {result.replayed} of its counterexamples replayed from stored runs" if result.replayed else ""
    lines = [f"coverage {result.ruleset.label}: {_scope_text(result.scope)}{replayed}", "  properties:"]
    lines += [f"    {i:>2}  {p.id}" for i, p in enumerate(props, start=1)]
    lines += [f"  warning: {not_applicable_warning(r)}" for r in result.not_applicable]
    width = max([12] + [len(row.rule) for row in rows])  # a named part (103.5.keep-zero) is longer than a number
    lines.append(f"  {'rule removed':<{width}}  " + " ".join(f"{i:>2}" for i in range(1, len(props) + 1)))
    for row in rows:
        found = {r.prop.id: r for r in row.results}
        cells = ["na" if p.id in failing else _cell(found[p.id]) for p in props] if row.checked else ["-"] * len(props)
        lines.append(f"  {row.rule:<{width}}  " + " ".join(f"{c:>2}" for c in cells))
    unguarded = [row for row in rows if row.reason]
    lines.append(f"  unguarded: {len(unguarded)} of {len(rows)} rules" + ("" if result.finished else f" checked before the interrupt (of {len(result.ruleset.in_force)})"))
    reason_width = max([8] + [len(row.rule) for row in unguarded])
    lines += [f"    {row.rule:<{reason_width}} {row.reason}" for row in unguarded]
    return lines

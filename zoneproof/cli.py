"""The `zoneproof` command: check, replay, list.

Handlers return an exit code; bad input of any kind ends in one line on stderr and exit code 2.
"""

from __future__ import annotations

import os
import sys
import time
from functools import partial, wraps
from pathlib import Path

import click
from rich.console import Console

from . import __version__, certify, progress
from .batch import Unfinished, available_cores, check_rulesets, expected_cost, in_order
from .check import CheckResult, Verdict
from .lint import Status, lint
from .config import SETTINGS, Project, find_project
from .errors import CheckerBug, ExitCode, InputError, InputErrors, Interrupted, did_you_mean
from .formats import FORMAT_HELP, FORMATS, check_summary, coverage_summary, diff_summary, lint_summary, output_for, run_summary
from .model import PLAYER_NAMES, ActionKind, Scope, team_size_problem
from .properties import Property, load_properties, stock_properties
from .report import format_property, format_replay, format_ruleset, violation_line
from .solver import UNITS_PER_SECOND, WALL_GUARD, interrupts_kept
from .ruleset import RuleSet, _rule_sort_key, builtin_names, load_ruleset
from .store import counterexamples, store_runs, stored_removals, stored_runs
from .trace import write_atomically, write_trace

# The modules only some commands use (diff, coverage, scenarios, the viewer) are imported by those
# commands, so that a check does not wait for them.

EXIT_CODES_HELP = (
    "Exit codes: 0 every verdict as the rule set expects (holds unless it declares [[expect]]); "
    "1 a verdict is not as expected (with --without: a property is violated); 2 bad input or usage; "
    "3 no definite verdict unexpected, but some check is unknown (Z3 gave no answer in time); "
    "4 a counterexample did not replay in the interpreter (a checker bug); "
    "130 interrupted (Ctrl-C): the results finished before it are printed."
)
CHECKER_BUG = ExitCode.CHECKER_BUG

out = Console(highlight=False, soft_wrap=True)


@click.group(help="Bounded model checking of card-game zone rules with Z3.\n\n" + EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="zoneproof")
def app() -> None:
    pass


def project_defaults(command):
    """Settings of the project config (`zoneproof.toml` or `[tool.zoneproof]`) for every parameter
    not given on the command line; the command gets the project (or None) as `project`."""

    @wraps(command)
    def with_project(**params):
        ctx = click.get_current_context()
        project = find_project()
        if project is not None:
            for name, value in project.settings.items():
                if name in params and ctx.get_parameter_source(name) is click.core.ParameterSource.DEFAULT:
                    params[name] = _setting(ctx, project, name, value)
        return command(project=project, **params)

    return with_project


def _setting(ctx: click.Context, project: Project, name: str, value):
    """A value of the project config, checked as its option checks a value given on the command line."""
    option = next(p for p in ctx.command.params if p.name == name)
    try:
        return option.process_value(ctx, value)
    except click.BadParameter as e:
        key = next((key for key, (_, parameter) in SETTINGS.items() if parameter == name), name)
        raise InputError(f"`{key}`: {e.message}", project.location(key)) from None


def _ruleset(project: Project | None, name: str):
    ruleset = load_ruleset(name)
    return project.with_expectations(ruleset) if project is not None else ruleset


def progress_options(command):
    """--quiet and --verbose: how much of a run's progress goes to stderr."""
    command = click.option("--verbose", "-v", is_flag=True,
                           help="Log each rule set, property and depth on stderr as it starts, on a terminal or not.")(command)
    return click.option("--quiet", "-q", is_flag=True, help="No progress display (it shows only when stderr is a terminal).")(command)


def property_options(command):
    """Which properties a command uses: the stock ones, files added with --properties, narrowed by -p."""
    command = click.option("--properties", multiple=True, type=click.Path(path_type=Path), metavar="FILE",
                           help="A property file to add to the stock properties (repeatable).")(command)
    return click.option("--property", "-p", "property_ids", multiple=True, metavar="ID",
                        help="Use only this property (repeatable; default all).")(command)


def scope_options(command):
    """The scope options every checking command takes."""
    for option in reversed([
        click.option("--players", default=2, show_default=True, help="Players in the scope (1..4)."),
        click.option("--cards", default=3, show_default=True, help="Deck cards per player, in the library at the start; in a Commander rule set one of them is the commander, in the command zone (0..8)."),
        click.option("--sideboard", default=1, show_default=True, help="Sideboard cards per player, outside the game (0..3)."),
        click.option("--tokens", default=1, show_default=True, help="Token slots per player (0..3)."),
        click.option("--depth", default=Scope().depth, show_default=True, help="Number of actions to explore (0..40)."),
        click.option("--hand", default=None, type=int, help="Starting hand size for rule sets with a mulligan rule (0..--cards; default 2, or --cards if smaller)."),
        click.option("--hand-modifier", "hand_modifier", multiple=True, metavar="PLAYER=N",
                     help="A Vanguard game: the hand modifier of PLAYER's vanguard card, as in B=+1 (repeatable; 902.5, 103.5a)."),
        click.option("--team-size", default=0, show_default=True, help="Players in turn order form teams of this size (Two-Headed Giant: 2, with --players 4); 0: no teams."),
    ]):
        command = option(command)
    return command


def _positive_seconds(ctx, param, value: float) -> float:
    low, high = 0, 10**6
    if not low < value <= high:  # also refuses nan
        raise click.BadParameter(f"must be more than {low} seconds and at most {high}, got {value:g}")
    return value


def runs_options(command):
    """--runs and --fresh: the runs replayed before any search (`store`)."""
    command = click.option("--fresh", is_flag=True, help="Search anew: replay no stored run, and store none.")(command)
    return click.option("--runs", "runs_dir", default=".zoneproof/runs", show_default=True, envvar="ZONEPROOF_RUNS",
                        type=click.Path(file_okay=False, path_type=Path),
                        help="Folder where lint, check and coverage keep, for each rule set and scope, a run that reaches each lint goal"
                             " and each counterexample they found, and replay them first next time (a run that no longer reaches its"
                             " goal is searched for again; a counterexample stays a shortest one); the built-in rule sets come with"
                             " their default scope's. Also $ZONEPROOF_RUNS.")(command)


def _stored(chosen: list, scope: Scope, runs_dir: Path, fresh: bool) -> dict:
    """The stored runs of each rule set (`store.stored_runs`), by label; none with --fresh."""
    if not _replaying(runs_dir, fresh):
        return {}
    return {rs.label: stored_runs(runs_dir, rs, rs.scope_for(scope)) for rs in chosen}


def _replaying(runs_dir: Path, fresh: bool) -> bool:
    """Whether the stored runs are replayed (not with --fresh), once their folder is known usable."""
    if not fresh:
        _refuse_unusable_folder(runs_dir, "--runs", "choose another folder for the stored runs, or pass --fresh")
    return not fresh


def _store(ruleset: RuleSet, scope: Scope, runs: dict, runs_dir: Path, fresh: bool) -> None:
    """Keep `runs` among the stored runs of the rule set in the scope (`store.store_runs`); none with --fresh."""
    if not fresh:
        store_runs(runs_dir, ruleset, ruleset.scope_for(scope), runs)


def seed_option(command):
    return click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**32 - 1),
                        help="Z3's random seed (0..4294967295); the same seed gives the same output.")(command)


def timeout_option(what: str):
    return click.option("--timeout", default=60.0, show_default=True, callback=_positive_seconds,
                        help=f"Z3's resource units per {what}, so many seconds' worth (more than 0, at most 1000000;"
                             f" {UNITS_PER_SECOND:,} a second), counted the same on a loaded machine; {WALL_GUARD} times as"
                             " many seconds of wall-clock time are an outer guard.")


def jobs_option(tasks: str):
    return click.option("--jobs", "-j", default=0, show_default=True, type=click.IntRange(0, MAX_JOBS),
                        help=f"Worker processes (0..{MAX_JOBS}): {tasks} are separate tasks; 0: one per core. The output is the same for any value.")


MAX_JOBS = 256


def scheduler_option(command):
    return click.option("--scheduler", metavar="ADDRESS", help="Run the tasks on the Dask cluster of this scheduler (tcp://HOST:PORT) instead of local processes; needs `pip install 'zoneproof[cluster]'`. The output is the same.")(command)


def _scope(players: int, cards: int, sideboard: int, tokens: int, depth: int, hand: int | None = None,
           hand_modifier: tuple[str, ...] = (), team_size: int = 0) -> Scope:
    values = dict(players=players, cards=cards, sideboard=sideboard, tokens=tokens, depth=depth)
    for name, value in values.items():
        low, high = Scope.LIMITS[name]
        if not low <= value <= high:
            raise InputError(f"--{name} must be {low}..{high}, got {value}")
    if hand is None:
        hand = min(Scope.hand, cards)
    elif not 0 <= hand <= cards:
        raise InputError(f"--hand must be 0..{cards} (at most --cards), got {hand}")
    problem = team_size_problem(team_size, players)
    if problem:
        raise InputError(f"--team-size {problem}")
    scope = Scope(**values, hand=hand, hand_modifiers=_hand_modifiers(hand_modifier, players), team_size=team_size)
    if scope.hand_modifier_problem():
        raise InputError(f"--hand-modifier: {scope.hand_modifier_problem()}")
    return scope


def _hand_modifiers(given: tuple[str, ...], players: int) -> tuple[int, ...]:
    """Each player's modifier from PLAYER=N options; () when every modifier is zero."""
    modifiers = [0] * players
    for text in given:
        name, _, number = text.partition("=")
        name = name.strip().upper()
        if name not in PLAYER_NAMES[:players]:
            raise InputError(f"--hand-modifier {text}: the player must be one of {', '.join(PLAYER_NAMES[:players])}, as in B=+1")
        try:
            modifiers[PLAYER_NAMES.index(name)] = int(number)
        except ValueError:
            raise InputError(f"--hand-modifier {text}: the modifier must be a whole number, as in B=+1 or B=-1") from None
    return tuple(modifiers) if any(modifiers) else ()


def _select_properties(extra_files: list[Path], wanted: list[str], rulesets=()) -> list[Property]:
    """The properties to use; the rule sets' expectations must each name one of all those defined."""
    props = list(stock_properties())
    for path in extra_files:
        for p in load_properties(path):
            if any(q.id == p.id for q in props):
                raise InputError(f"property '{p.id}' is already defined (stock or an earlier file); rename it", p.location)
            props.append(p)
    defined = [p.id for p in props]
    unknown = [InputError(f"[[expect]] names property '{e.property}', which is neither a stock property nor in a --properties file"
                          f"{did_you_mean(e.property, defined)}", e.location)
               for ruleset in rulesets for e in ruleset.expectations if e.property not in defined]
    if unknown:
        raise InputErrors(unknown)
    if not wanted:
        return props
    by_id = {p.id: p for p in props}
    for w in wanted:
        if w not in by_id:
            raise InputError(f"unknown property '{w}'{did_you_mean(w, by_id)}; `zoneproof list` shows the properties")
    return [by_id[w] for w in dict.fromkeys(wanted)]


def _check_out_dir(out_dir: Path, file_names: list[str]) -> None:
    """Refuse an unusable --out before any solving, so that no check is lost to it."""
    _refuse_unusable_folder(out_dir, "--out", "give a folder for the counterexamples")
    for name in file_names:
        if len(name.encode("utf-8")) > 250:
            raise InputError(f"the counterexample file name '{name[:40]}…' would be too long; shorten the rule set name or the property id")


def _refuse_unusable_folder(wanted: Path, option: str, advice: str) -> None:
    """An InputError before any solving where `wanted`, or the nearest folder above it that exists,
    is not a folder this process can write in."""
    for folder in (wanted, *wanted.parents):
        if folder.exists():
            if not folder.is_dir():
                raise InputError(f"{option} {wanted}: {folder} is not a folder; {advice}")
            if not os.access(folder, os.W_OK):
                raise InputError(f"{option} {wanted}: cannot write in {folder}; {advice}")
            return


def _write_certificate(r: CheckResult, directory: Path, scope) -> Path:
    """Write the inductive invariant of a proof (see certify.py); return its path."""
    path = directory / f"{r.ruleset.label}--{r.prop.id}{certify.SUFFIX}"
    try:
        write_atomically(path, certify.certificate_text(r.certificate, r.ruleset, r.ruleset.scope_for(scope)))
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror}; choose another --out") from None
    return path


def _write_counterexample(r: CheckResult, directory: Path, emit: tuple[str, ...]) -> Path:
    """Write the counterexample in the forms asked for; return the path shown (the trace's if written)."""
    from .scenario import write_scenario

    stem = directory / f"{r.ruleset.label}--{r.prop.id}"
    shown = []
    try:
        if "itf" in emit:
            shown.append(stem.with_name(stem.name + ".itf.json"))
            write_trace(r.trace, shown[-1])
        if "scenario" in emit:
            shown.append(stem.with_name(stem.name + ".scenario.toml"))
            write_scenario(r.trace, violation_line(r.prop, r.trace.violation_step, r.witnesses).removeprefix("✗ "), shown[-1])
    except OSError as e:
        raise InputError(f"cannot write {shown[-1]}: {e.strerror}; choose another --out") from None
    return shown[0]


@app.command(epilog=EXIT_CODES_HELP)
@click.argument("rulesets", nargs=-1)
@click.option("--without", "-w", multiple=True, metavar="RULE", help="Remove this rule (repeatable), e.g. --without 400.3.")
@property_options
@scope_options
@seed_option
@timeout_option("check (rule set and property)")
@click.option("--out", "out_dir", default="counterexamples", show_default=True, type=click.Path(path_type=Path), help="Folder for counterexample traces.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True, help=FORMAT_HELP)
@click.option("--emit", multiple=True, type=click.Choice(["itf", "scenario"]), default=("itf",), show_default=True, help="What to write for each counterexample: an ITF trace, a scenario file for `zoneproof run`, or both (repeat the option).")
@click.option("--no-lint", is_flag=True, help="Skip lint (dead actions and rules, vacuous properties, conflicts; see `zoneproof lint`).")
@runs_options
@jobs_option("each rule set's checks and its lint")
@scheduler_option
@progress_options
@project_defaults
def check(rulesets, without, property_ids, properties, players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size, seed, timeout, out_dir, output_format, emit, no_lint, runs_dir, fresh, jobs, scheduler, quiet, verbose, project) -> int:
    """Check RULESETS (names or .toml paths; default: those of the project config, or every built-in rule set) against the properties.

    Prints one line per rule set and property, each counterexample as numbered steps, and a summary;
    writes every counterexample to --out as an ITF trace.
    """
    scope = _scope(players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size)
    chosen = [_ruleset(project, name).without(list(without)) for name in (rulesets or builtin_names())]
    props = _select_properties(list(properties), list(property_ids), chosen)
    _check_out_dir(out_dir, [f"{rs.label}--{p.id}.scenario.toml" for rs in chosen for p in props])
    results = []
    reports = []
    started = time.monotonic()
    output = output_for(output_format, "check", out)
    # the units of the progress bar: a rule set's lint takes about as long as its checks
    with progress.display(len(chosen) * len(props) * (1 if no_lint else 2), quiet, verbose) as shown:

        def show(checked, report) -> None:
            shown_here = []
            for r in checked:
                shown_here.append(r)
                path = None
                if r.trace is not None:
                    path = _write_counterexample(r, out_dir, emit)
                elif r.verdict is Verdict.PROVED:
                    path = _write_certificate(r, out_dir, scope)
                output.check(r, path)
                results.append(r)
                shown.advance(1)
            if shown_here:
                _store(shown_here[0].ruleset, scope, counterexamples(shown_here), runs_dir, fresh)
            if report is not None:
                reports.append(report)
                output.lint(report, _write_lint_files(report, out_dir, witness=False))
                _store(report.ruleset, scope, report.runs, runs_dir, fresh)
                shown.advance(len(props))

        try:
            stored = _stored(chosen, scope, runs_dir, fresh)
            for checked, report in check_rulesets(chosen, props, scope, seed, timeout, not no_lint, jobs or available_cores(), shown.listener, scheduler, stored):
                show(checked, report)
        except Interrupted as e:
            for checked, report in e.known:
                show(checked, report)
            output.finish(check_summary(results, reports, time.monotonic() - started, ExitCode.INTERRUPTED))
            raise
    code = max(check_exit_code(results), lint_exit_code(reports), key=EXIT_PRIORITY.index)
    output.finish(check_summary(results, reports, time.monotonic() - started, code))
    return code


# When several outcomes apply, the exit code is the first of these that does.
EXIT_PRIORITY = [CHECKER_BUG, ExitCode.VIOLATED, ExitCode.UNKNOWN, ExitCode.OK][::-1]


def lint_exit_code(reports) -> int:
    """4 a finding that did not replay; 1 a problem (dead, vacuous or conflict, not expected by the
    file); 3 some question unknown; 0 clean."""
    statuses = {f.status for r in reports for f in r.findings}
    if Status.ERROR in statuses or any(r.checker_bugs for r in reports):
        return CHECKER_BUG
    if any(r.problems for r in reports):
        return ExitCode.VIOLATED
    if Status.UNKNOWN in statuses or any(r.unanswered for r in reports):
        return ExitCode.UNKNOWN
    return ExitCode.OK


def _write_lint_files(report, out_dir: Path, witness: bool) -> dict:
    """Write each conflict as a scenario (its last step must be refused) and, with `witness`, each
    triggered property's witness trace. Returns what was written, keyed as format_lint expects."""
    from .scenario import write_scenario

    written: dict = {}
    try:
        for index, c in enumerate(report.conflicts):
            if c.trace is not None:
                path = out_dir / f"{report.ruleset.label}--conflict-{index + 1}.scenario.toml"
                write_scenario(c.trace, f"no legal outcome for {c.event} (rules {', '.join(c.rules)})", path, refused=c.action)
                written[("conflict", index)] = path
        for f in report.properties:
            if witness and f.witness is not None:
                path = out_dir / f"{report.ruleset.label}--{f.prop.id}--witness.itf.json"
                write_trace(f.witness, path)
                written[("witness", f.prop.id)] = path
    except OSError as e:
        raise InputError(f"cannot write in {out_dir}: {e.strerror}; choose another --out") from None
    return written


LINT_EXIT_CODES = (
    "Exit codes: 0 clean (every dead action or rule and vacuous property is expected by the rule set file, with a reason); "
    "1 a dead action or rule, a vacuous property or a conflict; 2 bad input or usage; "
    "3 no problem found but some question had no answer in time; 4 an example that did not replay (a checker bug); "
    "130 interrupted (Ctrl-C): the finished reports are printed."
)


@app.command(name="lint", epilog=LINT_EXIT_CODES)
@click.argument("rulesets", nargs=-1)
@click.option("--without", "-w", multiple=True, metavar="RULE", help="Remove this rule (repeatable), e.g. --without 400.3.")
@property_options
@scope_options
@seed_option
@timeout_option("solver question")
@click.option("--out", "out_dir", default="counterexamples", show_default=True, type=click.Path(path_type=Path), help="Folder for conflict scenarios and witness traces.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True, help=FORMAT_HELP)
@click.option("--witness", is_flag=True, help="Write, for every property whose trigger fires, a trace where it does (an ITF trace for `zoneproof replay`).")
@runs_options
@jobs_option("the rule sets")
@scheduler_option
@progress_options
@project_defaults
def lint_command(rulesets, without, property_ids, properties, players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size, seed, timeout, out_dir, output_format, witness, runs_dir, fresh, jobs, scheduler, quiet, verbose, project) -> int:
    """Lint RULESETS (default: those of the project config, or every built-in rule set) within the scope.

    Dead actions (never enabled in a reachable state), dead rules (removing them changes no reachable
    step), vacuous properties (their trigger never fires) and conflicts (an action that applies but
    that the rules leave with no legal outcome, or an impossible start of the game), each conflict
    named by a minimal set of rules from Z3's unsat core and written as a scenario.
    """
    scope = _scope(players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size)
    chosen = [_ruleset(project, name).without(list(without)) for name in (rulesets or builtin_names())]
    props = _select_properties(list(properties), list(property_ids), chosen)
    _check_out_dir(out_dir, [f"{rs.label}--{p.id}--witness.itf.json" for rs in chosen for p in props])
    reports = []
    started = time.monotonic()
    output = output_for(output_format, "lint", out)
    with progress.display(len(chosen), quiet, verbose) as shown:

        def show(report) -> None:
            reports.append(report)
            output.lint(report, _write_lint_files(report, out_dir, witness))
            _store(report.ruleset, scope, report.runs, runs_dir, fresh)
            shown.advance(1)

        stored = _stored(chosen, scope, runs_dir, fresh)
        tasks = [partial(lint, ruleset, props, scope, seed=seed, timeout=timeout, stored=stored.get(ruleset.label)) for ruleset in chosen]
        try:
            for report in in_order(tasks, jobs or available_cores(), shown.listener, scheduler, [expected_cost(r) for r in chosen]):
                show(report)
        except Interrupted as e:
            for _, report in sorted(e.known.items()):
                if not isinstance(report, Unfinished):
                    show(report)
            output.finish(lint_summary(reports, time.monotonic() - started, ExitCode.INTERRUPTED))
            raise
    code = lint_exit_code(reports)
    output.finish(lint_summary(reports, time.monotonic() - started, code))
    return code


def check_exit_code(results: list[CheckResult]) -> int:
    """4 a checker bug; 1 a verdict not as expected (without expectations: a violation); 3 some
    check unknown; 0 every verdict as expected."""
    verdicts = {r.verdict for r in results}
    if Verdict.ERROR in verdicts:
        return CHECKER_BUG
    if any(r.counts_against for r in results):
        return ExitCode.VIOLATED
    if Verdict.UNKNOWN in verdicts:
        return ExitCode.UNKNOWN
    return ExitCode.OK


CERTIFY_EXIT_CODES = (
    "Exit codes: 0 the certificate proves its property in the rule set; 1 it does not (an obligation fails); "
    "2 bad input or usage; 3 some obligation got no answer in time."
)


@app.command(name="certify", epilog=CERTIFY_EXIT_CODES)
@click.argument("certificate", type=click.Path(path_type=Path))
@click.argument("ruleset")
@seed_option
@timeout_option("certificate")
@project_defaults
def certify_command(certificate, ruleset, seed, timeout, project) -> int:
    """Check a proof's CERTIFICATE (a .proof.zp file that `zoneproof check` writes beside the
    counterexamples) against RULESET, in a Z3 context of its own: its invariant holds initially,
    every step keeps it, and it implies the property, at every depth within the certificate's scope."""
    found = certify.read_certificate(certificate)
    rules = _ruleset(project, ruleset).without(list(found.removed))
    result = certify.verify(found, rules, seed, timeout)
    if result.problem:
        out.print(f"{certificate}: not a proof: {result.problem}", markup=False)
        return ExitCode.VIOLATED
    for what in result.failed:
        out.print(f"{certificate}: fails: {what}", markup=False)
    for what in result.unknown:
        out.print(f"{certificate}: no answer in time: {what}", markup=False)
    if result.valid:
        out.print(f"{certificate}: valid: {found.prop.id} holds at every depth in {rules.label} within its scope"
                  f" ({result.checked} obligations, {len(found.lemmas)} lemmas)", markup=False)
        return ExitCode.OK
    return ExitCode.VIOLATED if result.failed else ExitCode.UNKNOWN


DIFF_EXIT_CODES = (
    "Exit codes: 0 the two agree within the scope (no verdict flips, no behaviour differs); 1 they differ; "
    "2 bad input or usage; 3 no difference found, but some question had no answer in time; "
    "4 a difference did not replay in the interpreter (a checker bug); 130 interrupted (Ctrl-C): the verdicts and differences found so far are printed."
)


@app.command(name="diff", epilog=DIFF_EXIT_CODES)
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--without-a", multiple=True, metavar="RULE", help="Remove this rule from A (repeatable).")
@click.option("--without-b", multiple=True, metavar="RULE", help="Remove this rule from B (repeatable).")
@property_options
@scope_options
@seed_option
@timeout_option("check and per solver question")
@click.option("--out", "out_dir", default="counterexamples", show_default=True, type=click.Path(path_type=Path), help="Folder for the traces and scenarios.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True, help=FORMAT_HELP)
@click.option("--html", "html_file", type=click.Path(path_type=Path), metavar="FILE", help="Also write a page that draws each verdict flip's counterexample and each behaviour difference's two runs side by side.")
@jobs_option("the checks of A, those of B and the search for behaviours that differ")
@scheduler_option
@progress_options
@project_defaults
def diff_command(ruleset_a, ruleset_b, without_a, without_b, property_ids, properties, players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size, seed, timeout, out_dir, output_format, html_file, jobs, scheduler, quiet, verbose, project) -> int:
    """Compare rule sets A and B (names or .toml paths) within the scope.

    Shows the rules that differ; each property's verdict under A and under B, with a counterexample
    (an ITF trace for `zoneproof replay`) for each verdict that flips; and, for each action kind, a
    shortest run that one allows and the other forbids, written as two scenarios for `zoneproof run`
    (the run under the side that allows it, and under the other side, where the last step is refused
    or ends elsewhere).
    """
    from .diff import diff
    from .view.page import diff_page

    scope = _scope(players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size)
    a = _ruleset(project, ruleset_a).without(list(without_a))
    b = _ruleset(project, ruleset_b).without(list(without_b))
    props = _select_properties(list(properties), list(property_ids), (a, b))
    names = [f"{rs.label}--{p.id}.itf.json" for rs in (a, b) for p in props]
    names += [f"{rs.label}--b--{verb}-{k.value}.scenario.toml" for rs in (a, b) for verb in ("allows", "refuses") for k in ActionKind]
    _check_out_dir(out_dir, names)
    _check_page_file(html_file)
    started = time.monotonic()
    output = output_for(output_format, "diff", out)
    with progress.display(None, quiet, verbose) as shown:
        try:
            result = diff(a, b, props, scope, seed=seed, timeout=timeout, jobs=jobs or available_cores(), listener=shown.listener, scheduler=scheduler)
        except Interrupted as e:
            output.diff(e.known, _write_diff_files(e.known, out_dir))
            output.finish(diff_summary(e.known, time.monotonic() - started, ExitCode.INTERRUPTED))
            raise
    paths = _write_diff_files(result, out_dir)
    if html_file is not None:
        _write_page(html_file, diff_page(result, paths))
    output.diff(result, paths)
    if html_file is not None and output_format == "text":
        out.print(f"page written to {html_file}; open it in a browser", markup=False)
    code = diff_exit_code(result)
    output.finish(diff_summary(result, result.seconds, code))
    return code


def _write_diff_files(result, out_dir: Path) -> dict:
    """Write each verdict flip's counterexample and each behaviour difference's two scenarios;
    the paths, by id of the flip's violated result or of the difference."""
    import tomli_w

    from .diff import behaviour_scenarios

    a, b = result.a, result.b
    paths: dict = {}
    for f in result.flips:
        r = f.violated
        paths[id(r)] = _write_counterexample(r, out_dir, ("itf",))
    cites = sorted({d.rule_id for d in result.rules}, key=_rule_sort_key)
    # two files of one name (`diff x.toml mtg-current`, both named mtg-current) get the side as a suffix
    stem = {id(a): a.label, id(b): b.label} if a.label != b.label else {id(a): f"{a.label}--a", id(b): f"{b.label}--b"}
    for d in result.behaviours:
        allowed, refused = behaviour_scenarios(d, cites, out_dir)
        written = (
            out_dir / f"{stem[id(d.allowing)]}--allows-{d.kind.value}.scenario.toml",
            out_dir / f"{stem[id(d.refusing)]}--refuses-{d.kind.value}.scenario.toml",
        )
        try:
            for doc, path in zip((allowed, refused), written):
                write_atomically(path, tomli_w.dumps(doc))
        except OSError as e:
            raise InputError(f"cannot write in {out_dir}: {e.strerror}; choose another --out") from None
        paths[id(d)] = written
    return paths


def diff_exit_code(result) -> int:
    if any(p.checker_bug for p in result.problems):
        return CHECKER_BUG
    if not result.agree:
        return ExitCode.VIOLATED
    if result.problems or any(r.verdict is Verdict.UNKNOWN for pair in result.results for r in pair):
        return ExitCode.UNKNOWN
    return ExitCode.OK


COVERAGE_EXIT_CODES = (
    "Exit codes: 0 every rule in force is guarded or unguarded with a reason the file gives (documented, or declared dead);"
    " 1 some rule is unguarded for no declared reason; 2 bad input or usage; 3 some check had no answer in time;"
    " 4 a counterexample did not replay (a checker bug); 130 interrupted (Ctrl-C): the rows checked so far are printed."
)


@app.command(name="coverage", epilog=COVERAGE_EXIT_CODES)
@click.argument("ruleset_name", metavar="RULESET")
@click.option("--without", "-w", multiple=True, metavar="RULE", help="Remove this rule before measuring (repeatable).")
@property_options
@scope_options
@seed_option
@timeout_option("check (rule removed and property)")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True, help=FORMAT_HELP)
@runs_options
@jobs_option("the unmodified rule set and runs of the rules to remove")
@scheduler_option
@progress_options
@project_defaults
def coverage_command(ruleset_name, without, property_ids, properties, players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size, seed, timeout, output_format, runs_dir, fresh, jobs, scheduler, quiet, verbose, project) -> int:
    """Remove each rule of RULESET in turn and re-check every property: print which property fails (at
    which depth) for each removed rule, and list the unguarded rules, whose removal no property notices."""
    from .coverage import coverage

    scope = _scope(players, cards, sideboard, tokens, depth, hand, hand_modifier, team_size)
    ruleset = _ruleset(project, ruleset_name).without(list(without))
    props = _select_properties(list(properties), list(property_ids), (ruleset,))
    started = time.monotonic()
    output = output_for(output_format, "coverage", out)
    stored = _stored_removals(ruleset, scope, runs_dir, fresh)
    with progress.display(None, quiet, verbose) as shown:
        try:
            result = coverage(ruleset, props, scope, seed=seed, timeout=timeout, jobs=jobs or available_cores(), listener=shown.listener, scheduler=scheduler,
                              stored=stored)
        except Interrupted as e:
            if e.known is not None:
                output.coverage(e.known, props)
                _store_removals(e.known, runs_dir, fresh)
            output.finish(coverage_summary(e.known, time.monotonic() - started, ExitCode.INTERRUPTED))
            raise
    output.coverage(result, props)
    _store_removals(result, runs_dir, fresh)
    code = coverage_exit_code(result)
    output.finish(coverage_summary(result, time.monotonic() - started, code))
    return code


def _stored_removals(ruleset: RuleSet, scope: Scope, runs_dir: Path, fresh: bool) -> dict:
    """The stored runs of the rule set with each of its rules removed (`store.stored_removals`), by label; none with --fresh."""
    if not _replaying(runs_dir, fresh):
        return {}
    return stored_removals(runs_dir, ruleset, [r.id for r in ruleset.in_force], ruleset.scope_for(scope))


def _store_removals(result, runs_dir: Path, fresh: bool) -> None:
    for row in result.rows:
        if row.results:
            _store(row.results[0].ruleset, result.scope, counterexamples(row.results), runs_dir, fresh)


def coverage_exit_code(result) -> int:
    verdicts = {r.verdict for row in result.rows for r in row.results} | {r.verdict for r in result.baseline}
    if Verdict.ERROR in verdicts:
        return CHECKER_BUG
    if any(row.reason.startswith("no property") for row in result.rows):
        return ExitCode.VIOLATED
    if any(row.reason.startswith("not decided") for row in result.rows) or Verdict.UNKNOWN in verdicts:
        return ExitCode.UNKNOWN
    return ExitCode.OK


@app.command(epilog="Exit codes: 0 the violation is confirmed; 1 not reproduced; 2 unreadable or invalid trace.")
@click.argument("trace_file", type=click.Path(path_type=Path))
@click.option("--ruleset", "ruleset_file", metavar="FILE", help="The rule set to replay under (a built-in name or a .toml path), when the file the trace records has moved; its content must be the recorded one.")
def replay(trace_file: Path, ruleset_file: str | None) -> int:
    """Re-execute a trace in the interpreter, compare every state, and confirm the violation."""
    from .replay import confirm

    confirmation = confirm(trace_file, ruleset_file)
    for line in format_replay(confirmation):
        out.print(line, markup=False)
    return ExitCode.OK if confirmation.confirmed else ExitCode.VIOLATED


@app.command(epilog="Exit codes: 0 every expectation holds; 1 some expectation fails; 2 bad input.")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True, help=FORMAT_HELP)
@project_defaults
def run(files, output_format, project) -> int:
    """Run scenario files (.toml) in the interpreter and check their expectations; an ITF trace
    (.itf.json) is replayed instead. A failing expectation never stops the other scenarios.
    Without FILES, the scenario folders of the project config."""
    from .replay import confirm
    from .scenario import load_scenario, run_scenario

    started = time.monotonic()
    if project is not None and not files:
        files = project.scenario_files()
    if not files:
        where = f"the `scenarios` of {project.path} name none" if project is not None else "no project config names scenario folders"
        raise InputError(f"no scenario files: give FILES ({where}); see `zoneproof run --help`")
    traces = [f for f in files if str(f).endswith(".itf.json")]
    scenarios = [load_scenario(f) for f in files if f not in traces]
    output = output_for(output_format, "run", out)
    replays = []
    for trace in traces:
        replays.append(confirm(trace))
        output.replay(replays[-1])
    results = []
    for scenario in scenarios:
        results.append(run_scenario(scenario))
        output.scenario(results[-1])
    failed = not all(c.confirmed for c in replays) or not all(r.passed for r in results)
    code = ExitCode.VIOLATED if failed else ExitCode.OK
    output.finish(run_summary(results, replays, time.monotonic() - started, code))
    return code


SHOW_EXIT_CODES = (
    "Exit codes: 0 shown (a trace replays as recorded; a scenario's expectations hold); 1 shown, but the trace does not"
    " replay in the interpreter as recorded, or an expectation of the scenario fails; 2 bad input."
)


def _check_page_file(path: Path | None) -> None:
    if path is not None and path.is_dir():
        raise InputError(f"--html {path} is a folder; give the name of the page to write, such as trace.html")


def _write_page(path: Path, html: str) -> None:
    try:
        write_atomically(path, html)
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror}; choose another --html file") from None


@app.command(epilog=SHOW_EXIT_CODES)
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--html", "html_file", type=click.Path(path_type=Path), metavar="FILE", help="Write a self-contained page (a board per step, a slider, arrow keys, a \"view as\" selector) instead of printing.")
@click.option("--view-as", "view_as", metavar="VIEWER", help="everyone (the default), or a player (A, B, ...): hide the faces that player may not see. With --html, the page holds that view only.")
@click.option("--step", type=int, metavar="N", help="The step whose board is printed (0 is the start; default: the violation, or the last step).")
@click.option("--all", "all_steps", is_flag=True, help="Print the board after every step.")
def show(file: Path, html_file: Path | None, view_as: str | None, step: int | None, all_steps: bool) -> int:
    """Draw a trace (a counterexample, a lint witness: .itf.json) or a scenario (.toml, run in the
    interpreter) as boards: in the terminal, or as an HTML page with --html."""
    from .view.board import parse_viewer, view, viewer_label, viewers
    from .view.page import run_page
    from .view.sources import load_run
    from .view.terminal import show_renderables

    _check_page_file(html_file)
    shown = load_run(file)
    viewer = parse_viewer(view_as or "everyone", shown.world.players)
    last = len(shown.steps)
    if step is not None and not 0 <= step <= last:
        raise InputError(f"--step must be 0..{last} (the run has {last} steps), got {step}")
    if html_file is not None:
        _write_page(html_file, run_page(shown, None if view_as is None else (viewer,)))
        chosen = viewers(shown) if view_as is None else (viewer,)
        out.print(f"page written to {html_file}: {last} steps, as seen by {', '.join(viewer_label(v) for v in chosen)}; open it in a browser", markup=False)
    else:
        steps = view(shown, viewer)
        default = next((f.step for f in shown.findings), last)
        for renderable in show_renderables(shown, viewer, steps, None if all_steps else (default if step is None else step)):
            out.print(renderable)
    return ExitCode.VIOLATED if shown.problem or shown.failures else ExitCode.OK


@app.command(name="list")
@click.argument("ruleset", required=False)
@click.option("--properties", multiple=True, type=click.Path(path_type=Path), metavar="FILE", help="Also list the properties of this file (repeatable).")
def list_(ruleset: str | None, properties) -> int:
    """List the built-in rule sets and the properties, or the rules of one rule set."""
    if ruleset is not None:
        for line in format_ruleset(load_ruleset(ruleset)):
            out.print(line, markup=False)
        return ExitCode.OK
    out.print("rule sets:", markup=False)
    for name in builtin_names():
        rs = load_ruleset(name)
        base = f", extends {rs.base.name}" if rs.base is not None else ""
        out.print(f"  {name:<22} {rs.title} ({len(rs.rules)} rules{base})", markup=False)
    out.print("properties:", markup=False)
    for p in _select_properties(list(properties), []):
        out.print(format_property(p), markup=False)
    return ExitCode.OK


def main(argv: list[str] | None = None) -> int:
    try:
        with interrupts_kept():
            code = app.main(args=argv if argv is not None else sys.argv[1:], prog_name="zoneproof", standalone_mode=False)
    except InputError as e:
        for line in str(e).splitlines():  # every error of a file, one per line
            print(f"zoneproof: {line}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except click.exceptions.NoArgsIsHelpError as e:
        print(e.ctx.get_help() if e.ctx else "usage: zoneproof COMMAND; see `zoneproof --help`")
        return ExitCode.BAD_INPUT
    except click.UsageError as e:
        hint = f"; see `{e.ctx.command_path} --help`" if e.ctx else "; see `zoneproof --help`"
        print(f"zoneproof: error: {e.format_message()}{hint}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.exceptions.Abort as e:
        if isinstance(e.__cause__, KeyboardInterrupt):
            return _interrupted()
        print("zoneproof: aborted", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:
        return _interrupted()
    except CheckerBug as e:  # one that no result could carry, from this process or a worker
        print(f"zoneproof: checker bug: {' '.join(str(e).split())} (a bug in zoneproof, not in the input; please report it)", file=sys.stderr)
        return CHECKER_BUG
    return int(code) if isinstance(code, int) else ExitCode.OK


def _interrupted() -> int:
    print("zoneproof: interrupted (Ctrl-C): the results printed are those finished before it; nothing else was written", file=sys.stderr)
    return ExitCode.INTERRUPTED


def entry_point() -> None:
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`zoneproof list | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = ExitCode.OK
    except KeyboardInterrupt:
        code = _interrupted()
    sys.exit(code)

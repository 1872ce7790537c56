"""The pytest plugin (entry point `pytest11`): a rules repository's checks as items of its own test suite.

With a project config in the rootdir (or above it), the config file holds one item per (rule set,
property) pair it names and a lint item per rule set, and each scenario file of its scenario
folders is an item. An item fails as `zoneproof check` or `zoneproof run` would make the run fail
(an unexpected verdict, a lint problem, an unknown answer, a failed expectation), and its report
is what they print: the result line and the counterexample as numbered steps. Without a project
config the plugin collects nothing. Disable it with `-p no:zoneproof`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .check import Verdict, check_properties
from .cli import _scope, _select_properties, _store, _stored, _write_counterexample, check, lint_exit_code
from .config import Project, find_project
from .errors import ExitCode, InputError
from .lint import lint
from .report import format_counterexample, format_lint, format_scenario, result_line
from .scenario import load_scenario, run_scenario
from .store import counterexamples

PROJECT = pytest.StashKey[Project | None]()
SCENARIOS = pytest.StashKey[set[Path]]()


class ZoneproofFailure(Exception):
    """An item's failure, with the lines zoneproof prints for it."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def pytest_configure(config: pytest.Config) -> None:
    try:
        project = config.stash[PROJECT] = find_project(config.rootpath)
    except InputError as e:
        raise pytest.UsageError(f"zoneproof: {e}") from None
    config.stash[SCENARIOS] = {p.resolve() for p in project.scenario_files()} if project is not None else set()


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    project = parent.config.stash.get(PROJECT, None)
    if project is None:
        return None
    if file_path.resolve() == project.path:
        return ProjectFile.from_parent(parent, path=file_path, project=project)
    if file_path.resolve() in parent.config.stash[SCENARIOS]:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class _Settings:
    """The check command's parameters as the project sets them (its defaults where it does not)."""

    def __init__(self, project: Project):
        self.values = check.make_context("check", []).params | project.settings

    def __getitem__(self, name: str):
        return self.values[name]

    def scope(self):
        v = self.values
        return _scope(v["players"], v["cards"], v["sideboard"], v["tokens"], v["depth"], v["hand"], tuple(v["hand_modifier"]), v["team_size"])

    def properties(self):
        return _select_properties([Path(p) for p in self.values["properties"]], list(self.values["property_ids"]))


class ProjectFile(pytest.File):
    def __init__(self, *, project: Project, **kwargs):
        super().__init__(**kwargs)
        self.project = project

    def collect(self):
        settings = _Settings(self.project)
        try:
            rulesets = self.project.rulesets()
            props = settings.properties()
            scope = settings.scope()
        except InputError as e:
            raise self.CollectError(f"zoneproof: {e}") from None
        for ruleset in rulesets:
            yield RuleSetCollector.from_parent(self, name=ruleset.name, ruleset=ruleset, props=props, scope=scope, settings=settings)


class RuleSetCollector(pytest.Collector):
    def __init__(self, *, ruleset, props, scope, settings, **kwargs):
        super().__init__(**kwargs)
        self.ruleset, self.props, self.scope, self.settings = ruleset, props, scope, settings

    def stored(self):
        """The rule set's stored runs (`store`), as the CLI reads them with the project's settings."""
        return _stored([self.ruleset], self.scope, Path(self.settings["runs_dir"]), self.settings["fresh"]).get(self.ruleset.label)

    def store(self, runs: dict) -> None:
        _store(self.ruleset, self.scope, runs, Path(self.settings["runs_dir"]), self.settings["fresh"])

    def collect(self):
        for prop in self.props:
            yield CheckItem.from_parent(self, name=prop.id, prop=prop)
        if not self.settings["no_lint"]:
            yield LintItem.from_parent(self, name="lint")


class _ZoneproofItem(pytest.Item):
    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (ZoneproofFailure, InputError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)


class CheckItem(_ZoneproofItem):
    def __init__(self, *, prop, **kwargs):
        super().__init__(**kwargs)
        self.prop = prop

    def runtest(self):
        parent, settings = self.parent, self.parent.settings
        [r] = check_properties(parent.ruleset, [self.prop], parent.scope, settings["seed"], settings["timeout"], parent.stored())
        parent.store(counterexamples([r]))
        path = _write_counterexample(r, Path(settings["out_dir"]), settings["emit"]) if r.trace is not None else None
        if r.counts_against or r.verdict in (Verdict.UNKNOWN, Verdict.ERROR):
            raise ZoneproofFailure([result_line(r), *(format_counterexample(r, path) if r.trace is not None else [])])

    def reportinfo(self):
        return self.path, None, f"{self.parent.ruleset.label} {self.prop.id}"


class LintItem(_ZoneproofItem):
    def runtest(self):
        parent, settings = self.parent, self.parent.settings
        report = lint(parent.ruleset, parent.props, parent.scope, seed=settings["seed"], timeout=settings["timeout"], stored=parent.stored())
        parent.store(report.runs)
        if lint_exit_code([report]) != ExitCode.OK:
            raise ZoneproofFailure(format_lint(report, {}))

    def reportinfo(self):
        return self.path, None, f"lint {self.parent.ruleset.label}"


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(_ZoneproofItem):
    def runtest(self):
        shown = self.path.relative_to(Path.cwd()) if self.path.is_relative_to(Path.cwd()) else self.path
        result = run_scenario(load_scenario(shown))
        if not result.passed:
            raise ZoneproofFailure(format_scenario(result))

    def reportinfo(self):
        return self.path, None, f"scenario {self.path.name}"

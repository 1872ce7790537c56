"""The CI examples in examples/ci/: the GitHub Actions workflow is valid (against the workflow schema
that check-jsonschema ships) and its commands, run in a copy of the example rules repository with
zoneproof installed from this source tree into a fresh virtual environment, write JUnit reports
for the upload step; the pre-commit hook lints the rule set files a commit changes, and stops one
that brings an undeclared finding."""

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml
from junitparser import JUnitXml

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
WORKFLOW = EXAMPLES / "ci" / "zoneproof.yml"
PRE_COMMIT = EXAMPLES / "ci" / "pre-commit-config.yaml"


@pytest.fixture
def rules_repo(example_repo) -> Path:
    return example_repo


def test_the_workflow_is_a_valid_github_actions_workflow():
    checked = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def fresh_environment(folder: Path) -> Path:
    """A virtual environment that sees this one's packages (zoneproof's dependencies) but has no
    zoneproof of its own until the workflow installs it; its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=120)
    purelib = subprocess.run([str(folder / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return folder / "bin"


def test_the_workflow_commands_install_check_and_write_the_reports_it_uploads(rules_repo, tmp_path):
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    [job] = workflow["jobs"].values()
    runs = [step for step in job["steps"] if "run" in step]
    assert [step["run"].split()[:3] for step in runs] == [["python", "-m", "pip"], ["zoneproof", "check", "--format"], ["zoneproof", "run", "--format"]]
    bin_folder = fresh_environment(tmp_path / "venv")
    env = os.environ | workflow["env"] | {"ZONEPROOF_PACKAGE": str(REPO), "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}"}
    env.pop("VIRTUAL_ENV", None)
    for step in runs:
        done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=rules_repo, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (step["name"], done.stdout[-2000:], done.stderr[-2000:])
    installed = subprocess.run(["bash", "-c", "command -v zoneproof"], env=env, capture_output=True, text=True).stdout.strip()
    assert installed == str(bin_folder / "zoneproof")  # the commands ran the zoneproof the workflow installed
    [upload] = [step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact")]
    reports = sorted(glob.glob(upload["with"]["path"], root_dir=rules_repo))
    assert reports == ["zoneproof-check.xml", "zoneproof-scenarios.xml"]
    check = JUnitXml.fromfile(str(rules_repo / "zoneproof-check.xml"))
    assert [suite.name for suite in check] == ["house", "league"] and check.failures == 0 and check.tests > 8
    scenarios = JUnitXml.fromfile(str(rules_repo / "zoneproof-scenarios.xml"))
    assert scenarios.tests == 2 and scenarios.failures == 0


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git, which is not installed")
def test_the_pre_commit_hook_lints_the_changed_rule_sets(rules_repo, tmp_path):
    pytest.importorskip("pre_commit", reason="pre-commit is not installed")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])  # the hook runs `zoneproof`
    env = os.environ | {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PATH": path}
    subprocess.run(["git", "init", "-q"], cwd=rules_repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=rules_repo, check=True)

    def hook(*files: str):
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--config", str(PRE_COMMIT), "--files", *files],
                              cwd=rules_repo, env=env, capture_output=True, text=True, timeout=600)

    clean = hook("model/house.toml", "scenarios/stolen-permanent-dies.toml")
    assert clean.returncode == 0 and "zoneproof lint (changed rule sets)" in clean.stdout and "Passed" in clean.stdout, clean.stdout
    assert "Skipped" in hook("scenarios/stolen-permanent-dies.toml").stdout  # not a rule set file: nothing to lint
    league = rules_repo / "model" / "league.toml"  # house.toml extends it, and inherits its [[dead]]
    text = league.read_text(encoding="utf-8")
    league.write_text(text[: text.index("[[dead]]")], encoding="utf-8")  # 111.7 is dead at depth 2, now without a reason
    broken = hook("model/league.toml")
    assert broken.returncode == 1 and "Failed" in broken.stdout
    assert "dead      111.7: removing it changes no step" in broken.stdout and "✗ 1 problem" in broken.stdout

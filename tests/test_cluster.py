"""`--scheduler`: the tasks of a check run on a Dask cluster, with output and traces byte for byte
those of a local run; against a LocalCluster, and against `dask scheduler` and `dask worker`
processes started here on localhost."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import normalise
from tests.test_cli import one_line_error
from zoneproof.cli import main

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install '.[cluster]'")

DASK = Path(sys.executable).with_name("dask")


@pytest.fixture
def repo(example_repo, monkeypatch):
    monkeypatch.chdir(example_repo)
    return example_repo


def check(capsys, *args) -> tuple[int, str]:
    code = main(["check", *args])
    return code, capsys.readouterr().out


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_local_cluster_gives_the_output_and_traces_of_a_local_run(repo, capsys):
    # The local run in a process of its own, as a user runs it: in this one, Z3's model could depend
    # on the tests run before (the cluster's tasks run in worker processes of their own).
    made = subprocess.run([sys.executable, "-m", "zoneproof", "check", "--jobs", "1", "--out", "local", "--runs", "local-runs"],
                          cwd=repo, capture_output=True, text=True, timeout=600)
    local_code, local = made.returncode, made.stdout
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        code, remote = check(capsys, "--scheduler", cluster.scheduler_address, "--out", "cluster", "--runs", "cluster-runs")
    assert code == local_code == 0
    assert normalise(remote).replace("cluster/", "local/") == normalise(local)
    assert files(repo / "cluster") == files(repo / "local") == {"house--owner-zones.itf.json": files(repo / "local")["house--owner-zones.itf.json"]}
    assert files(repo / "cluster-runs") == files(repo / "local-runs") and len(files(repo / "local-runs")) == 2  # lint's stored runs
    assert "lint house" in remote and "lint league" in remote and remote.splitlines()[-1].startswith("8 checks: 1 violated, 7 holds; 0 unexpected")


def test_lint_diff_and_coverage_on_a_local_cluster_print_what_a_local_run_prints(repo, capsys):
    commands = [
        ["lint", "--out", "{out}", "--runs", "{out}-runs"],  # each run searches: none replays the other's runs
        ["diff", "model/house.toml", "model/league.toml", "--out", "{out}"],
        ["coverage", "model/house.toml", "-p", "owner-zones", "-p", "hands-are-owned", "--cards", "1", "--depth", "2", "--runs", "{out}-runs"],
    ]

    def run(args, out, *where) -> tuple[int, str]:
        code = main([a.format(out=out) for a in args] + list(where))
        return code, normalise(capsys.readouterr().out).replace(out, "OUT")

    local = [run(args, "local", "--jobs", "2") for args in commands]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = [run(args, "cluster", "--scheduler", cluster.scheduler_address) for args in commands]
    assert remote == local
    assert [code for code, _ in local] == [0, 1, 1]  # the house rule flips owner-zones; two rules are unguarded
    assert local[1][1].splitlines()[-1].startswith("1 rules differ; 1 verdict flip")
    assert "unguarded: 3 of 4 rules" in local[2][1]


def wait_for(path: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert path.exists(), f"{path} did not appear within {seconds} s"


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.skipif(not DASK.exists(), reason="no `dask` command beside this Python")
def test_real_scheduler_and_worker_processes_on_localhost(repo, tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(scheduler_file)], **quiet)
    worker = None
    try:
        wait_for(scheduler_file, 60)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        worker = subprocess.Popen([str(DASK), "worker", "--scheduler-file", str(scheduler_file), "--nworkers", "2",
                                   "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"], **quiet)
        args = [sys.executable, "-m", "zoneproof", "check", "--no-lint", "-p", "owner-zones", "-p", "hands-are-owned"]
        env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
        remote = subprocess.run([*args, "--scheduler", address, "--out", "cluster", "--runs", "cluster-runs"], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
        local = subprocess.run([*args, "--jobs", "1", "--out", "local", "--runs", "local-runs"], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                stop(process)
    assert remote.returncode == local.returncode == 0, remote.stderr
    assert remote.stderr == ""
    assert normalise(remote.stdout).replace("cluster/", "local/") == normalise(local.stdout)
    assert files(repo / "cluster") == files(repo / "local") and files(repo / "local")
    assert scheduler.returncode is not None and worker.returncode is not None  # both stopped


def test_a_scheduler_that_is_not_there_is_one_line_of_bad_input(run, monkeypatch):
    monkeypatch.setattr("zoneproof.cluster.CONNECT_SECONDS", 1)
    line = one_line_error(run("check", "mtg-current", "-p", "owner-zones", "--no-lint", "--scheduler", "tcp://127.0.0.1:9"))
    assert "--scheduler tcp://127.0.0.1:9: cannot reach a Dask scheduler there" in line

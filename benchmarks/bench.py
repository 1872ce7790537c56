"""Speed and memory figures for zoneproof, printed as a table (not a test).

    python benchmarks/bench.py                 # everything, one run per case
    python benchmarks/bench.py --repeat 3      # medians over three runs

Measures, on this machine:
  1. the default `zoneproof check` (wall and CPU seconds, the workers' included);
  2. each stock property alone at --players 2 --cards 4 --depth 10 (the solver time of that check);
  3. each removed-rule counterexample of the oracle table at the default scope.
Runs 2 and 3 check one property without the lint report (`--no-lint`): the figure is that check's.
Every run is a separate `zoneproof` process, so peak memory is that process's maximum RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ORACLE = [
    ("400.3", "owner-zones", 3), ("400.7", "new-object", 3), ("400.8", "exile-in-exile", 3),
    ("400.10", "command-in-command", 3), ("400.9", "command-face-down", 3), ("400.5", "ordered-zones", 3),
    ("405.5", "stack-lifo", 5), ("111.8", "tokens", 3), ("400.4a", "spells-not-permanents", 3),
    ("400.11c", "outside-the-game", 3), ("400.12", "zone-wide", 3),
]
STOCK = [
    "owner-zones", "new-object", "exile-in-exile", "command-in-command", "command-face-down", "ordered-zones",
    "stack-lifo", "one-zone", "tokens", "spells-not-permanents", "outside-the-game", "zone-wide",
]


def run(args: list[str], workdir: str) -> tuple[float, float, str, float]:
    """(wall seconds, peak RSS in MiB, stdout, CPU seconds) of one zoneproof process and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "zoneproof", *args], capture_output=True, text=True, cwd=workdir)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1, 3) or not done.stdout.strip():
        sys.exit(f"zoneproof {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, max(after.ru_maxrss, before.ru_maxrss) / 1024, done.stdout, cpu


def _depth(result: dict) -> str:
    """The depth of a JSON result; an unknown that completed no depth has none."""
    return "-" if result["depth"] is None else str(result["depth"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the median is shown")
    parser.add_argument("--timeout", type=float, default=60.0, help="zoneproof --timeout for the 2x4x10 runs")
    parser.add_argument("--skip-default", action="store_true", help="skip the default `zoneproof check`")
    parser.add_argument("--skip-large", action="store_true", help="skip the 2 players x 4 cards x depth 10 runs")
    options = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="zoneproof-bench-")
    peaks = []

    def median_of(args):
        runs = [run(args, workdir) for _ in range(options.repeat)]
        peaks.extend(r[1] for r in runs)
        return statistics.median(r[0] for r in runs), statistics.median(r[3] for r in runs), runs[-1][2]

    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; runs per case: {options.repeat}")
    if not options.skip_default:
        wall, cpu, out = median_of(["check"])
        print(f"\n1. default `zoneproof check`: {wall:.1f} s wall, {cpu:.1f} s CPU; {out.strip().splitlines()[-1]}")

    if not options.skip_large:
        print("\n2. each stock property alone, --players 2 --cards 4 --depth 10"
              f" (--timeout {options.timeout:g}; seconds reported by zoneproof for the check)")
        print(f"   {'property':<24}{'verdict':<10}{'depth':>6}{'seconds':>10}  proof")
        large = []
        for prop in STOCK:
            args = ["check", "mtg-current", "-p", prop, "--players", "2", "--cards", "4", "--depth", "10",
                    "--timeout", str(options.timeout), "--format", "json", "--no-lint"]
            runs = [run(args, workdir) for _ in range(options.repeat)]
            peaks.extend(r[1] for r in runs)
            results = [json.loads(r[2].splitlines()[0]) for r in runs]  # the check record; the summary follows
            seconds = statistics.median(r["seconds"] for r in results)
            large.append(seconds)
            proof = "induction" if results[-1]["inductive"] else "bounded" if results[-1]["verdict"] == "holds" else ""
            print(f"   {prop:<24}{results[-1]['verdict']:<10}{_depth(results[-1]):>6}{seconds:>10.2f}  {proof}")
        print(f"   median {statistics.median(large):.2f} s (target 5 s); {sum(x <= 5 for x in large)} of {len(large)} within 5 s")

    print("\n3. removed-rule counterexamples at the default scope (seconds reported by zoneproof)")
    oracle = []
    print(f"   {'without':<10}{'property':<24}{'verdict':<10}{'depth':>6}{'seconds':>10}{'wall':>8}")
    for rule, prop, depth in ORACLE:
        args = ["check", "mtg-current", "-w", rule, "-p", prop, "--depth", str(depth), "--format", "json", "--no-lint"]
        runs = [run(args, workdir) for _ in range(options.repeat)]
        peaks.extend(r[1] for r in runs)
        results = [json.loads(r[2].splitlines()[0]) for r in runs]  # the check record; the summary follows
        seconds = statistics.median(r["seconds"] for r in results)
        wall = statistics.median(r[0] for r in runs)
        oracle.append(seconds)
        print(f"   {rule:<10}{prop:<24}{results[-1]['verdict']:<10}{_depth(results[-1]):>6}{seconds:>10.2f}{wall:>8.1f}")
    print(f"   median {statistics.median(oracle):.2f} s (target 2 s)")

    print(f"\n4. peak memory of any zoneproof process: {max(peaks):.0f} MiB")


if __name__ == "__main__":
    main()

"""Speed and memory figures for zoneproof, printed as a table (not a test).

    python benchmarks/bench.py                 # everything, one run per case
    python benchmarks/bench.py --repeat 3      # medians over three runs
    python benchmarks/bench.py --skip-default --skip-large --skip-oracle --peer-cards 2 --peer-depths 4-5
    python benchmarks/bench.py --only-spin --spin-cards 2 --spin-depths 8,12   # SPIN beside zoneproof only

Measures, on this machine:
  1. the default `zoneproof check` (wall and CPU seconds, the workers' included), and the same with
     --fresh (lint replays none of the runs the built-in rule sets come with), with their ratio;
     with --coverage, `zoneproof coverage mtg-current` the same two ways (1b.);
  2. each stock property alone at --players 2 --cards 4 --depth 10 (the solver time of that check);
  3. each removed-rule counterexample of the oracle table at the default scope, by zoneproof and by
     the explicit-state search (benchmarks/explicit_peer.py), side by side;
  4. each stock property at --players 2, 2 to 4 cards, depth 4 to 10, by both, side by side: the
     seconds, their ratio, and each one's growth per extra step;
  5. the core model (benchmarks/spin/) by zoneproof and by SPIN (benchmarks/spin_peer.py), side by
     side, for its two properties at --players 2, 2 to 4 cards, depth 4 to 12: zoneproof's wall
     seconds (the process's, Python's start included) against SPIN's search and, in a column of its
     own, SPIN's compilation, with their ratios and the speed target of each cell. Needs `spin` and
     `gcc` on PATH; without them it says so and is skipped;
  6. each proof alone (--proofs): every stock property that a built-in rule set expects to hold,
     checked alone at --players 2 --cards 4 (the default depth), and its certificate checked by
     `zoneproof certify`: the check's seconds as it reports them (the lemmas' invariant, the base
     case and the induction step), certify's process in wall seconds (Python's start included),
     and their sum against the target of 10 s.
Runs 2 to 6 replay no stored run (`--fresh`), as a peer has none. Runs 2 to 4 and 6 check one
property without the lint report (`--no-lint`): the figure is that check's
own seconds, as each reports them. The explicit search has a budget of states (`--max-states`);
where it runs out, its figure is a lower bound, printed as "> N s", and a deeper search with the
same budget is the same search (it stops at the same state), so it is not run again.
Every run is a separate process, so peak memory is that process's maximum RSS.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import zoneproof
from zoneproof.check import expected_to_hold
from zoneproof.explicit import MAX_STATES
from zoneproof.properties import stock_properties
from zoneproof.ruleset import builtin_names, load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spin_peer  # noqa: E402  (beside this file)

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


PEER = str(Path(__file__).resolve().parent / "explicit_peer.py")


def run(args: list[str], workdir: str, program: tuple[str, ...] = ("-m", "zoneproof")) -> tuple[float, float, str, float]:
    """(wall seconds, peak RSS in MiB, stdout, CPU seconds) of one zoneproof process (or, with
    `program`, the explicit peer's) and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, *program, *args], capture_output=True, text=True, cwd=workdir)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1, 3) or not done.stdout.strip():
        sys.exit(f"{' '.join(program)} {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, max(after.ru_maxrss, before.ru_maxrss) / 1024, done.stdout, cpu


def depth_text(result: dict) -> str:
    """The depth of a JSON result; an unknown that completed no depth has none."""
    return "-" if result["depth"] is None else str(result["depth"])


def check_record(output: str) -> dict:
    """The check record of `zoneproof check --format json` (JSON Lines: the summary follows)."""
    return json.loads(output.splitlines()[0])


def explicit_seconds(result: dict) -> str:
    """The explicit search's seconds; "> N" where its budget ran out before an answer."""
    return f"> {result['seconds']:.2f}" if result["verdict"] == "budget-exhausted" else f"{result['seconds']:.2f}"


def depth_range(text: str) -> list[int]:
    """The numbers of "4-10" or of a list of such ranges and numbers, "4,6,8-10"."""
    numbers = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers.extend(range(int(low), int(high or low) + 1))
    return sorted(set(numbers))


def growth_text(times: dict[int, float], bounded: bool) -> str:
    """The factor per extra step from the shallowest depth to the deepest, (t_last / t_first) ** (1
    / steps); with `bounded`, the last time is a lower bound (no answer within the timeout or the
    budget), and so is the factor."""
    depths = sorted(times)
    if len(depths) < 2 or times[depths[0]] <= 0:
        return "unknown (no answer from the first depth on)" if bounded else "unknown"
    factor = (times[depths[-1]] / times[depths[0]]) ** (1 / (depths[-1] - depths[0]))
    return f"at least {factor:.2f}x (to depth {depths[-1]}, where it gave no answer)" if bounded else f"{factor:.2f}x"


# The speed target against SPIN: from this depth on, zoneproof's wall time is at most SPIN's search
# and compilation together, and at SPIN_RUN_ALONE_DEPTH at most its search alone.
SPIN_TARGET_FROM_DEPTH = 8
SPIN_RUN_ALONE_DEPTH = 12


def spin_target(depth: int, wall: float, unknown: bool, spin: spin_peer.SpinResult) -> str:
    """Whether the cell meets the speed target, and otherwise by what factor zoneproof misses it.
    An `unknown` of zoneproof, or an incomplete SPIN search, makes its seconds a lower bound."""
    if depth < SPIN_TARGET_FROM_DEPTH:
        return "-"
    bound = spin.seconds if depth >= SPIN_RUN_ALONE_DEPTH else spin.seconds + spin.compile_seconds
    if spin.verdict == "incomplete":
        return "met (SPIN gave no answer)" if not unknown and wall <= bound else "undecided: SPIN gave no answer"
    if unknown:
        return f"missed: no answer after {wall / bound:.1f}x SPIN's"
    return "met" if wall <= bound else f"missed by {wall / bound:.1f}x"


def ratio_text(ours: float, theirs: float, ours_bounded: bool, theirs_bounded: bool) -> str:
    """ours / theirs, where a bounded figure is a lower bound: "> r", "< r", or "?" when both are."""
    if theirs <= 0:
        return "inf"
    sign = {(False, False): "", (True, False): "> ", (False, True): "< "}.get((ours_bounded, theirs_bounded))
    ratio = ours / theirs
    return "?" if sign is None else f"{sign}{ratio:.1f}" if ratio >= 1 else f"{sign}{ratio:.2f}"


def spin_section(options, workdir: str, peaks: list[float]) -> None:
    """zoneproof and SPIN side by side on the core model (benchmarks/spin/), in one run. Once SPIN's
    search runs out of time at a depth, the deeper searches of that scope, which store every state it
    stored and more, are not run: their time is at least the same."""
    print(f"\n5. zoneproof and SPIN side by side: the core model (benchmarks/spin/), --players 2,"
          f" zoneproof --timeout {options.spin_timeout:g}, SPIN's search stopped after {options.spin_search_timeout:g} s")
    if missing := spin_peer.missing_tools():
        print(f"   skipped: {' and '.join(missing)} not on PATH (Debian: apt-get install -y spin gcc)")
        return
    version = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
    print(f"   {version}; zoneproof's wall seconds are its process's (Python's start included; the check's own in brackets),"
          " SPIN's those of its search, its compilation (spin -a and gcc -O2) apart; \"> N\": no answer within N s")
    print(f"   target: zoneproof <= SPIN search + compilation from depth {SPIN_TARGET_FROM_DEPTH}, <= SPIN search alone"
          f" at depth {SPIN_RUN_ALONE_DEPTH}")
    print(f"   {'property':<24}{'cards':>5}{'depth':>6}{'zoneproof':>11}{'(check)':>9}{'SPIN':>10}{'compile':>9}{'states':>10}"
          f"{'zp/(SPIN+comp)':>16}{'zp/SPIN':>9}  {'target':<32}verdicts (zoneproof / SPIN)")
    targets = []
    for prop in options.spin_properties.split(","):
        for cards in options.spin_cards:
            out_of_time = None  # SPIN's search of this scope that ran out of time
            for depth in options.spin_depths:
                args = ["check", str(spin_peer.RULESET), "--properties", str(spin_peer.PROPERTIES), "-p", prop,
                        "--players", "2", "--cards", str(cards), "--sideboard", "0", "--tokens", "0", "--depth", str(depth),
                        "--timeout", str(options.spin_timeout), "--format", "json", "--no-lint", "--fresh"]
                wall, peak, out, _ = run(args, workdir)
                peaks.append(peak)
                ours = check_record(out)
                if out_of_time is None:
                    try:
                        spin = spin_peer.spin_check(prop, cards, depth, timeout=options.spin_search_timeout)
                    except RuntimeError as error:
                        sys.exit(f"SPIN's build of the core model failed: {error}")
                    if spin.verdict == "incomplete" and spin.reason.startswith("no answer within"):
                        out_of_time = spin
                    spin_text, compile_text, states_text = (f"> {spin.seconds:.2f}" if spin.verdict == "incomplete" else f"{spin.seconds:.2f}",
                                                            f"{spin.compile_seconds:.2f}", str(spin.states))
                else:
                    spin = replace(out_of_time, depth=depth, compile_seconds=0.0,
                                   reason=f"not run: no answer at depth {out_of_time.depth}")
                    spin_text, compile_text, states_text = f"> {spin.seconds:.2f}", "-", "-"
                unknown = ours["verdict"] == "unknown"
                incomplete = spin.verdict == "incomplete"
                verdicts = f"{ours['verdict']} {depth_text(ours)} / {spin.verdict}"
                if not incomplete and not unknown and (spin.verdict == "holds") != (ours["verdict"] in ("holds", "proved")):
                    verdicts += " DISAGREE"
                if spin.reason:
                    verdicts += f" ({spin.reason})"
                ratios = [ratio_text(wall, t, unknown, incomplete) for t in (spin.seconds + spin.compile_seconds, spin.seconds)]
                shown = f"> {wall:.2f}" if unknown else f"{wall:.2f}"
                targets.append(spin_target(depth, wall, unknown, spin))
                print(f"   {prop:<24}{cards:>5}{depth:>6}{shown:>11}{ours['seconds']:>9.2f}{spin_text:>10}{compile_text:>9}"
                      f"{states_text:>10}{ratios[0]:>16}{ratios[1]:>9}  {targets[-1]:<32}{verdicts}",
                      flush=True)
    counted = [t.partition(" ")[0].rstrip(":") for t in targets if t != "-"]
    print(f"   target: met in {counted.count('met')} of {len(counted)} cells from depth {SPIN_TARGET_FROM_DEPTH},"
          f" missed in {counted.count('missed')}, undecided in {counted.count('undecided')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the median is shown")
    parser.add_argument("--timeout", type=float, default=60.0, help="zoneproof --timeout for the 2x4x10 runs")
    parser.add_argument("--skip-default", action="store_true", help="skip the default `zoneproof check`")
    parser.add_argument("--coverage", action="store_true",
                        help="also time `zoneproof coverage mtg-current`, with and without the stored runs (1b.; about 4 minutes)")
    parser.add_argument("--skip-large", action="store_true", help="skip the 2 players x 4 cards x depth 10 runs")
    parser.add_argument("--skip-oracle", action="store_true", help="skip the removed-rule counterexamples")
    parser.add_argument("--skip-peer", action="store_true", help="skip the side-by-side runs of zoneproof and the explicit search")
    parser.add_argument("--peer-cards", default="2,3,4", help="cards per player of the side-by-side runs (default 2,3,4)")
    parser.add_argument("--peer-depths", default="4-10", help="depths of the side-by-side runs (default 4-10)")
    parser.add_argument("--peer-ratio-goal", type=float, metavar="R",
                        help="compare the two processes' CPU seconds (Python's start included) and stop each explicit"
                             " search once it has used R times the CPU time zoneproof's process took on the same check"
                             " (a budget besides --max-states): its \"> N\" then shows the ratio R is reached")
    parser.add_argument("--peer-properties", default=",".join(STOCK), help="stock properties of the side-by-side runs (default: the twelve)")
    parser.add_argument("--only-spin", action="store_true", help="run only the side-by-side runs of zoneproof and SPIN (5.)")
    parser.add_argument("--skip-spin", action="store_true", help="skip the side-by-side runs of zoneproof and SPIN")
    parser.add_argument("--spin-cards", default="2,3,4", help="cards per player of the SPIN runs (default 2,3,4)")
    parser.add_argument("--spin-depths", default="4,6,8,10,12", help="depths of the SPIN runs, e.g. 4-12 or 8,12 (default 4,6,8,10,12)")
    parser.add_argument("--spin-properties", default=",".join(spin_peer.PROPERTY_NUMBER),
                        help="properties of the SPIN runs (default: owner-zones-creature,ordered-zones-creature)")
    parser.add_argument("--spin-timeout", type=float, default=120.0, help="zoneproof --timeout for the SPIN runs (default 120)")
    parser.add_argument("--spin-search-timeout", type=float, default=120.0,
                        help="seconds after which SPIN's search is stopped (default 120)")
    parser.add_argument("--proofs", action="store_true", help="run the proofs section (6.): each proof alone and its certificate")
    parser.add_argument("--only-proofs", action="store_true", help="run only the proofs section (6.)")
    parser.add_argument("--proof-rulesets", default="", help="built-in rule sets of the proofs section (default: all of them)")
    parser.add_argument("--proof-cards", type=int, default=4, help="cards per player of the proofs section (default 4)")
    parser.add_argument("--max-states", type=int, default=MAX_STATES, help=f"the explicit search's budget of states (default {MAX_STATES})")
    options = parser.parse_args()
    if options.only_spin or options.only_proofs:
        options.skip_default = options.skip_large = options.skip_oracle = options.skip_peer = True
        options.skip_spin = options.only_proofs
        options.proofs = options.proofs or options.only_proofs
    proof_rulesets = [r for r in options.proof_rulesets.split(",") if r] or builtin_names()
    if unknown_rulesets := set(proof_rulesets) - set(builtin_names()):
        parser.error(f"--proof-rulesets: no built-in rule set {', '.join(sorted(unknown_rulesets))}; choose from {', '.join(builtin_names())}")
    unknown_properties = set(options.spin_properties.split(",")) - set(spin_peer.PROPERTY_NUMBER)
    if unknown_properties:
        parser.error(f"--spin-properties: no property {', '.join(sorted(unknown_properties))} in the core model;"
                     f" choose from {', '.join(spin_peer.PROPERTY_NUMBER)}")
    try:
        options.spin_cards = [int(c) for c in options.spin_cards.split(",")]
        options.spin_depths = depth_range(options.spin_depths)
    except ValueError:
        parser.error("--spin-cards takes numbers such as 2,3,4 and --spin-depths numbers or ranges such as 4-12 or 8,12")
    if not all(1 <= c <= 8 for c in options.spin_cards) or not all(0 <= d <= 40 for d in options.spin_depths):
        parser.error("--spin-cards must be within 1..8 and --spin-depths within 0..40 (zoneproof's scope)")
    # zoneproof's bytecode, as `pip install .` writes it: a source tree run with PYTHONDONTWRITEBYTECODE
    # would otherwise compile every module again in every process measured.
    compileall.compile_dir(Path(zoneproof.__file__).parent, quiet=1)
    workdir = tempfile.mkdtemp(prefix="zoneproof-bench-")
    peaks = []

    def median_of(args):
        runs = [run(args, workdir) for _ in range(options.repeat)]
        peaks.extend(r[1] for r in runs)
        return statistics.median(r[0] for r in runs), statistics.median(r[3] for r in runs), runs[-1][2]

    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; runs per case: {options.repeat}")
    def with_and_without_runs(heading: str, args: list[str]) -> None:
        """The command with --fresh, then with the stored runs (those the built-in rule sets come
        with, and any the first wrote), and their ratio."""
        fresh_wall, fresh_cpu, fresh_out = median_of([*args, "--fresh"])
        wall, cpu, out = median_of(args)
        print(f"\n{heading}: {wall:.1f} s wall, {cpu:.1f} s CPU; {out.strip().splitlines()[-1]}")
        print(f"   with --fresh (no stored run replayed: every goal and counterexample searched for): {fresh_wall:.1f} s wall,"
              f" {fresh_cpu:.1f} s CPU; {fresh_out.strip().splitlines()[-1]}")
        print(f"   the stored runs' ratio: {wall / fresh_wall:.2f} of the wall seconds, {cpu / fresh_cpu:.2f} of the CPU")

    if not options.skip_default:
        with_and_without_runs("1. default `zoneproof check`", ["check"])
    if options.coverage:
        with_and_without_runs("1b. `zoneproof coverage mtg-current` (target 120 s)", ["coverage", "mtg-current", "--format", "json"])

    if not options.skip_large:
        print("\n2. each stock property alone, --players 2 --cards 4 --depth 10"
              f" (--timeout {options.timeout:g}; seconds reported by zoneproof for the check)")
        print(f"   {'property':<24}{'verdict':<10}{'depth':>6}{'seconds':>10}  proof")
        large = []
        for prop in STOCK:
            args = ["check", "mtg-current", "-p", prop, "--players", "2", "--cards", "4", "--depth", "10",
                    "--timeout", str(options.timeout), "--format", "json", "--no-lint", "--fresh"]
            runs = [run(args, workdir) for _ in range(options.repeat)]
            peaks.extend(r[1] for r in runs)
            results = [check_record(r[2]) for r in runs]
            seconds = statistics.median(r["seconds"] for r in results)
            large.append(seconds)
            proof = {"proved": "every depth", "holds": "bounded"}.get(results[-1]["verdict"], "")
            print(f"   {prop:<24}{results[-1]['verdict']:<10}{depth_text(results[-1]):>6}{seconds:>10.2f}  {proof}")
        print(f"   median {statistics.median(large):.2f} s (target 5 s); {sum(x <= 5 for x in large)} of {len(large)} within 5 s")

    def explicit(args, max_cpu_seconds=None):
        budget = ["--max-states", str(options.max_states)]
        if max_cpu_seconds is not None:
            budget += ["--max-cpu-seconds", f"{max_cpu_seconds:.3f}"]
        runs = [run([*args, *budget], workdir, (PEER,)) for _ in range(options.repeat)]
        peaks.extend(r[1] for r in runs)
        results = [json.loads(r[2]) for r in runs]
        return results[-1] | {"seconds": statistics.median(r["seconds"] for r in results),
                              "cpu": statistics.median(r[3] for r in runs)}

    if not options.skip_oracle:
        print("\n3. removed-rule counterexamples at the default scope, zoneproof and the explicit search"
              f" (seconds each reports; explicit budget {options.max_states} states)")
        print(f"   {'without':<10}{'property':<24}{'verdict':<10}{'depth':>6}{'zoneproof':>11}{'wall':>8}{'explicit':>11}  explicit verdict")
        oracle = []
        for rule, prop, depth in ORACLE:
            args = ["check", "mtg-current", "-w", rule, "-p", prop, "--depth", str(depth), "--format", "json", "--no-lint", "--fresh"]
            runs = [run(args, workdir) for _ in range(options.repeat)]
            peaks.extend(r[1] for r in runs)
            results = [check_record(r[2]) for r in runs]
            seconds = statistics.median(r["seconds"] for r in results)
            wall = statistics.median(r[0] for r in runs)
            oracle.append(seconds)
            peer = explicit(["mtg-current", "-w", rule, "-p", prop, "--depth", str(depth)])
            shown = f"{peer['verdict']} {peer['depth']}" + (" (budget)" if peer["budget_reached"] else "")
            print(f"   {rule:<10}{prop:<24}{results[-1]['verdict']:<10}{depth_text(results[-1]):>6}{seconds:>11.2f}{wall:>8.1f}"
                  f"{explicit_seconds(peer):>11}  {shown}")
        print(f"   median {statistics.median(oracle):.2f} s (target 2 s)")

    if not options.skip_peer:
        cards_list = [int(c) for c in options.peer_cards.split(",")]
        depths = depth_range(options.peer_depths)
        print(f"\n4. zoneproof and the explicit search side by side: mtg-current, --players 2, --timeout {options.timeout:g}"
              + (f" (each process's CPU seconds, Python's start included; explicit budget {options.max_states} states or"
                 f" {options.peer_ratio_goal:g} times zoneproof's CPU time, \"> N\" where it ran out)" if options.peer_ratio_goal else
                 f" (seconds each reports; explicit budget {options.max_states} states, \"> N\" where it ran out)"))
        print(f"   {'property':<24}{'cards':>5}{'depth':>6}{'zoneproof':>11}{'explicit':>11}{'explicit/zoneproof':>20}  verdicts")
        for prop in options.peer_properties.split(","):
            for cards in cards_list:
                times: dict[str, dict[int, float]] = {"zoneproof": {}, "explicit": {}}
                bounded = {"zoneproof": False, "explicit": False}  # its times end with the first depth it did not answer
                peer = None
                for depth in depths:
                    scope = ["--players", "2", "--cards", str(cards), "--depth", str(depth)]
                    args = ["check", "mtg-current", "-p", prop, *scope, "--timeout", str(options.timeout), "--format", "json", "--no-lint", "--fresh"]
                    runs = [run(args, workdir) for _ in range(options.repeat)]
                    peaks.extend(r[1] for r in runs)
                    results = [check_record(r[2]) for r in runs]
                    seconds = statistics.median(r["seconds"] for r in results)
                    if options.peer_ratio_goal is not None:
                        cpu = statistics.median(r[3] for r in runs)
                        peer = explicit(["mtg-current", "-p", prop, *scope], options.peer_ratio_goal * cpu)
                        peer["seconds"], seconds = peer["cpu"], cpu  # both processes' CPU seconds, startup included
                    elif peer is None or not (peer["budget_reached"] or peer["verdict"] == "violated"):
                        peer = explicit(["mtg-current", "-p", prop, *scope])  # else: the same search as the last depth's
                    open_ended = {"zoneproof": results[-1]["verdict"] == "unknown", "explicit": peer["verdict"] == "budget-exhausted"}
                    for tool, t in (("zoneproof", seconds), ("explicit", peer["seconds"])):
                        if not bounded[tool]:
                            times[tool][depth] = t
                            bounded[tool] = open_ended[tool]
                    ratio = f"{peer['seconds'] / seconds:.1f}" if seconds > 0 else "inf"
                    ratio = {(False, False): ratio, (False, True): f"> {ratio}", (True, False): f"< {ratio}"}.get(
                        (open_ended["zoneproof"], open_ended["explicit"]), "?")
                    ours = f"> {seconds:.2f}" if open_ended["zoneproof"] else f"{seconds:.2f}"
                    verdicts = f"{results[-1]['verdict']} {depth_text(results[-1])} / {peer['verdict']} {peer['depth']}"
                    print(f"   {prop:<24}{cards:>5}{depth:>6}{ours:>11}{explicit_seconds(peer):>11}{ratio:>20}  {verdicts}")
                print(f"   {prop:<24}{cards:>5}  growth per step: zoneproof {growth_text(times['zoneproof'], bounded['zoneproof'])},"
                      f" explicit {growth_text(times['explicit'], bounded['explicit'])}")

    if not options.skip_spin:
        spin_section(options, workdir, peaks)

    if options.proofs:
        proofs_section(proof_rulesets, options.proof_cards, options.repeat, workdir, peaks)

    if peaks:
        print(f"\n7. peak memory of any process (zoneproof, the explicit search or certify): {max(peaks):.0f} MiB")


# The target of each proof, its certificate's check included.
PROOF_TARGET_SECONDS = 10.0


def proofs_section(rulesets: list[str], cards: int, repeat: int, workdir: str, peaks: list[float]) -> None:
    """Each proof alone, in a process of its own, then its certificate by `zoneproof certify`."""
    print(f"\n6. each proof alone: every stock property a rule set expects to hold, --players 2 --cards {cards}"
          f" --no-lint, then `zoneproof certify` of its certificate (the check's seconds as it reports them, certify's process"
          f" in wall seconds; target {PROOF_TARGET_SECONDS:g} s together; `cpu`: both processes' CPU seconds, Python's start"
          f" included, which a loaded machine stretches less than the wall's)")
    print(f"   {'rule set':<26}{'property':<28}{'verdict':<9}{'check':>8}{'certify':>9}{'total':>8}{'cpu':>8}  target")
    totals, missed, cpus, invalid = [], [], [], []
    for ruleset in rulesets:
        loaded = load_ruleset(ruleset)
        for prop in [p.id for p in stock_properties() if expected_to_hold(loaded, p)]:
            out = Path(workdir) / "proofs"
            args = ["check", ruleset, "-p", prop, "--players", "2", "--cards", str(cards), "--no-lint", "--fresh", "--format", "json", "--out", str(out)]
            runs = [run(args, workdir) for _ in range(repeat)]
            peaks.extend(r[1] for r in runs)
            results = [check_record(r[2]) for r in runs]
            seconds = statistics.median(r["seconds"] for r in results)
            certificate = results[-1]["certificate"]
            certified = "-"
            cpu = statistics.median(r[3] for r in runs)
            valid = False
            if certificate:
                checks = [run(["certify", certificate, ruleset], workdir) for _ in range(repeat)]
                peaks.extend(r[1] for r in checks)
                certified = statistics.median(r[0] for r in checks)
                cpu += statistics.median(r[3] for r in checks)
                valid = all(": valid: " in r[2] for r in checks)
                if not valid:
                    invalid.append(f"{ruleset} {prop}")
            total = seconds + (certified if certificate else 0.0)
            cpus.append(cpu)
            met = results[-1]["verdict"] == "proved" and valid and total <= PROOF_TARGET_SECONDS
            totals.append(total)
            if not met:
                missed.append(f"{ruleset} {prop}")
            shown = f"{certified:>9.2f}" if certificate else f"{'-':>9}"
            target = "invalid" if certificate and not valid else "met" if met else "missed"
            print(f"   {ruleset:<26}{prop:<28}{results[-1]['verdict']:<9}{seconds:>8.2f}{shown}{total:>8.2f}{cpu:>8.2f}  {target}", flush=True)
    if totals:
        print(f"   {len(totals)} proofs: median {statistics.median(totals):.2f} s, longest {max(totals):.2f} s;"
              f" {len(totals) - len(missed)} of {len(totals)} proved within {PROOF_TARGET_SECONDS:g} s"
              + (f"; not: {', '.join(missed)}" if missed else ""))
        print(f"   certificates: {'every one valid' if not invalid else 'not valid: ' + ', '.join(invalid)} (`zoneproof certify`)")
        print(f"   CPU: median {statistics.median(cpus):.2f} s, longest {max(cpus):.2f} s;"
              f" {sum(c <= PROOF_TARGET_SECONDS for c in cpus)} of {len(cpus)} within {PROOF_TARGET_SECONDS:g} s")


if __name__ == "__main__":
    main()

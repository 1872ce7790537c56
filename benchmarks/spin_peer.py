"""The SPIN peer: one exhaustive search of benchmarks/spin/core.pml (the core rule set
benchmarks/spin/core.toml written in Promela), compiled by SPIN and gcc, printed as one JSON line.

    python benchmarks/spin_peer.py -p ordered-zones-creature --cards 2 --depth 8
    python benchmarks/spin_peer.py -p owner-zones-creature --cards 2 --depth 2 --without 400.3

`compile_seconds` is SPIN's translation to C and gcc's build of the verifier; `seconds` is the
verifier's run (its hash table's allocation included). The verdict is `violated` when the search
hits an assertion, `holds` when it completes without one, and `incomplete` (with the reason) when
it stops short: its depth limit, its memory limit or the time limit (`--timeout`) reached; then
`states` and `seconds` are lower bounds.
Needs `spin` and `gcc` on PATH (Debian: apt-get install -y spin gcc).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

MODEL = Path(__file__).resolve().parent / "spin" / "core.pml"
RULESET = MODEL.with_name("core.toml")
PROPERTIES = MODEL.with_name("core.zp")
# The model's PROP numbers of the properties of core.zp.
PROPERTY_NUMBER = {"owner-zones-creature": 1, "ordered-zones-creature": 2}
# The model's switches that remove a rule (400.5's also adds the reorder action).
RULE_SWITCH = {"400.3": "R400_3", "404.1": "R404_1", "400.5": "R400_5", "405.2": "R405_2"}
TOOLS = ("spin", "gcc")
# Safety properties only, no partial-order reduction (every interleaving is one process's choice);
# the verifier may use 8 GiB and a search path of 100000 transitions; pan's default hash table
# (2**24 slots). The verifier is built with gcc -O2 unless told otherwise.
GCC_FLAGS = ("-w", "-DSAFETY", "-DNOREDUCE", "-DMEMLIM=8192")
PAN_FLAGS = ("-m100000",)


@dataclass(frozen=True)
class SpinResult:
    property: str
    cards: int
    depth: int
    removed: tuple[str, ...]
    verdict: str  # holds, violated or incomplete
    states: int
    seconds: float
    compile_seconds: float
    reason: str = ""


def missing_tools() -> list[str]:
    """The tools the peer needs that are not on PATH."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def spin_check(prop: str, cards: int, depth: int, without: tuple[str, ...] = (), spin_options: tuple[str, ...] = (),
               optimisation: str = "-O2", timeout: float | None = None) -> SpinResult:
    """Compile core.pml for 2 players x `cards` with runs of at most `depth` actions, and search it,
    for at most `timeout` seconds (then the search is interrupted and reports what it stored).
    `optimisation` is gcc's level: -O0 builds faster and searches slower."""
    defines = [f"-DC={cards}", f"-DDEPTH={depth}", f"-DPROP={PROPERTY_NUMBER[prop]}",
               *(f"-D{RULE_SWITCH[rule]}=0" for rule in without)]
    with tempfile.TemporaryDirectory(prefix="zoneproof-spin-") as work:
        shutil.copy(MODEL, work)
        started = time.monotonic()
        _run(["spin", *spin_options, *defines, "-a", MODEL.name], work)
        _run(["gcc", *GCC_FLAGS, optimisation, "-o", "pan", "pan.c"], work)
        compiled = time.monotonic()
        search = subprocess.Popen(["./pan", *PAN_FLAGS], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            out, _ = search.communicate(timeout=timeout)
            interrupted = False
        except subprocess.TimeoutExpired:
            search.send_signal(signal.SIGINT)  # pan stops and prints what it found so far
            out, _ = search.communicate()
            interrupted = True
        finished = time.monotonic()
    stored = re.search(r"(\d+) states, stored", out)
    if "assertion violated" in out:
        verdict, reason = "violated", ""
    elif interrupted:
        verdict, reason = "incomplete", f"no answer within {timeout:g} s"
    elif stored is None:
        verdict, reason = "incomplete", f"pan exited {search.returncode} without a state count: {out.strip()[-300:]}"
    elif "max search depth too small" in out:
        verdict, reason = "incomplete", "the search path outgrew -m"
    elif "out of memory" in out or "memory limit" in out.lower():
        verdict, reason = "incomplete", "the verifier ran out of memory"
    elif "errors: 0" in out:
        verdict, reason = "holds", ""
    else:
        verdict, reason = "incomplete", f"an error other than an assertion: {out.strip()[-300:]}"
    return SpinResult(prop, cards, depth, tuple(without), verdict, int(stored.group(1)) if stored else 0,
                      round(finished - compiled, 3), round(compiled - started, 3), reason)


def _run(command: list[str], workdir: str) -> None:
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {(done.stdout + done.stderr).strip()[-500:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-p", "--property", required=True, choices=sorted(PROPERTY_NUMBER))
    parser.add_argument("--cards", type=int, default=2, help="deck cards per player (2 players)")
    parser.add_argument("--depth", type=int, default=4, help="runs of at most this many actions")
    parser.add_argument("-w", "--without", action="append", default=[], choices=sorted(RULE_SWITCH), metavar="RULE",
                        help=f"remove a rule: one of {', '.join(sorted(RULE_SWITCH))} (repeatable)")
    parser.add_argument("--timeout", type=float, default=None, help="stop the search after this many seconds")
    parser.add_argument("--spin-option", action="append", default=[], metavar="OPTION",
                        help="an option for spin, e.g. -o2 (no dead-variable elimination; repeatable)")
    options = parser.parse_args(argv)
    if missing := missing_tools():
        parser.error(f"{' and '.join(missing)} not on PATH (Debian: apt-get install -y spin gcc)")
    if options.cards < 1 or options.depth < 0:
        parser.error("--cards must be at least 1 and --depth at least 0")
    try:
        result = spin_check(options.property, options.cards, options.depth, tuple(options.without), tuple(options.spin_option),
                            timeout=options.timeout)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(asdict(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

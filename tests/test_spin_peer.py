"""The SPIN peer of the benchmark (benchmarks/spin_peer.py, benchmarks/spin/core.pml): its section
of bench.py says why it skips where SPIN cannot be had, and, where it can, SPIN and zoneproof agree
on a removed-rule case of the core model. SPIN and gcc come from Debian (apt-get install -y spin
gcc); .ci/spin tries to install them, and the agreement test is skipped, saying why, without them."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import json_records

from benchmarks import spin_peer

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"
missing = spin_peer.missing_tools()


def test_the_spin_section_says_why_it_skips_without_spin(tmp_path):
    done = subprocess.run([sys.executable, str(BENCH), "--only-spin"], capture_output=True, text=True,
                          env={"PATH": str(tmp_path)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "5. zoneproof and SPIN side by side" in done.stdout
    assert "skipped: spin and gcc not on PATH (Debian: apt-get install -y spin gcc)" in done.stdout


@pytest.mark.skipif(bool(missing), reason=f"{' and '.join(missing)} not on PATH: apt-get install -y spin gcc")
def test_spin_finds_the_violation_without_400_3_at_zoneproofs_shortest_depth(run):
    """Without 400.3 a card can be put into another player's hand or graveyard: zoneproof's shortest
    counterexample to owner-zones has two steps, and SPIN's search finds none in one step and one in two."""
    code, out, _ = run("check", str(spin_peer.RULESET), "--properties", str(spin_peer.PROPERTIES), "-w", "400.3",
                       "-p", "owner-zones-creature", "--players", "2", "--cards", "2", "--sideboard", "0", "--tokens", "0",
                       "--depth", "2", "--no-lint", "--format", "json")
    [record] = json_records(out, "check")
    assert code == 1 and (record["verdict"], record["depth"]) == ("violated", 2)
    spin = {depth: spin_peer.spin_check("owner-zones-creature", 2, depth, ("400.3",), optimisation="-O0") for depth in (1, 2)}
    assert (spin[1].verdict, spin[2].verdict) == ("holds", "violated"), spin
    assert spin[1].states > 0

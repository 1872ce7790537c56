"""A check of a few properties runs on their cone of influence (`slicing.sliced`): it must give the
verdicts and shortest depths of the whole system, and counterexamples that replay."""

import pytest

from zoneproof import check
from zoneproof.check import Verdict, check_properties
from zoneproof.encode.slicing import pregame_only, sliced
from zoneproof.encode.system import TransitionSystem
from zoneproof.model import Scope
from zoneproof.properties import stock_properties
from zoneproof.ruleset import load_ruleset

PROPS = list(stock_properties())
SCOPE = Scope(players=2, cards=1, sideboard=0, tokens=1, depth=4)
# Rules whose removal breaks owner-zones, stack-lifo, new-object, fizzle and the tokens' rules:
# violations at depths 1 to 4 for the sliced check to find.
REMOVED = ["400.3", "405.5", "400.7", "608.2b", "111.7"]


def test_a_single_property_checks_on_a_slice_that_leaves_out_action_kinds():
    ruleset = load_ruleset("mtg-current")
    scope = ruleset.scope_for(SCOPE)
    whole = TransitionSystem(ruleset, scope)
    owner_zones = sliced(whole, [p for p in PROPS if p.id == "owner-zones"])
    assert owner_zones is not whole
    assert set(owner_zones.kinds) < set(whole.kinds)
    assert "counters" not in owner_zones.slice.parts
    assert sliced(whole, [p for p in PROPS if not pregame_only(ruleset, p)]) is whole


@pytest.mark.parametrize("removed", [[], REMOVED], ids=["intact", "rules-removed"])
def test_a_sliced_check_gives_the_whole_systems_verdict_and_shortest_depth(removed, monkeypatch):
    monkeypatch.setattr(check, "_first_stage", lambda *args: {})  # Z3's own search, sliced or not
    ruleset = load_ruleset("mtg-current").without(removed)
    alone = {p.id: check_properties(ruleset, [p], SCOPE)[0] for p in PROPS}
    monkeypatch.setattr(check, "SLICE_AT_MOST", 0)
    whole = {p.id: check_properties(ruleset, [p], SCOPE)[0] for p in PROPS}
    assert {i: (r.verdict, r.depth) for i, r in alone.items()} == {i: (r.verdict, r.depth) for i, r in whole.items()}
    verdicts = {r.verdict for r in alone.values()}
    assert Verdict.ERROR not in verdicts and Verdict.UNKNOWN not in verdicts
    assert (Verdict.VIOLATED if removed else Verdict.PROVED) in verdicts
    for result in alone.values():
        if result.verdict is Verdict.VIOLATED:
            assert result.trace is not None and len(result.trace.steps) == result.depth

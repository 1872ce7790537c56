"""Every field a rule set file accepts has an effect, or is refused with one line naming the file
and line.

One row per field: a small change to mtg-current's file and what a user sees change. The
semantic fields (a rule, its `zones`, an action, a zone's `hidden`) are observed through a check
at a tiny scope, so both halves are in it: the encoder finds the counterexample and the
interpreter replays it (a half that ignored the field would make it a checker bug, or no
counterexample). The fields that document (`title`, `source`, `summary`, `called`, `cites`,
the reasons) are observed where zoneproof shows them; a rule's `without` is part of the rule
set's identity (the hash a trace records).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zoneproof.check import Verdict, check_properties
from zoneproof.errors import InputError
from zoneproof.lint import lint
from zoneproof.interpreter import IllegalAction, World, apply
from zoneproof.model import Action, ActionKind, CardType, Scope, initial_state, slots_for
from zoneproof.properties import parse_properties, stock_properties
from zoneproof.report import format_ruleset
from zoneproof.ruleset import parse_ruleset

MODEL = Path(__file__).resolve().parent.parent / "model"
CURRENT = (MODEL / "mtg-current.toml").read_text(encoding="utf-8")
TINY = Scope(players=2, cards=1, sideboard=0, tokens=0, depth=2, hand=1)
PROPS = {p.id: p for p in stock_properties()}


def edited(old: str, new: str, text: str = CURRENT) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def parsed(text: str):
    return parse_ruleset(text.encode(), "fields.toml", origin="fields.toml")


def listed(text: str) -> str:
    return "\n".join(format_ruleset(parsed(text)))


def verdict(text: str, prop: str, without: tuple[str, ...] = ()) -> Verdict:
    [result] = check_properties(parsed(text).without(list(without)), [PROPS[prop]], TINY)
    assert result.verdict is not Verdict.ERROR, result.reason
    return result.verdict


RULE_400_3 = 'id = "400.3"\nbehaviour = "owner-redirect"\nzones = ["library", "hand", "graveyard"]\n'
EXILE_ACTION = '[[action]]\nname = "exile"\ncites = ["406.2", "400.8"]\nsummary = "an object in any zone, exile included, is exiled"\n'
HAND_ZONE = 'name = "hand"\npersonal = true\nhidden = true\n'

# (field, the edited file, what is seen: a function of the edited text that must hold, and must not hold of the original)
SHOWN = [
    ("name", edited('name = "mtg-current"', 'name = "house-rules"'), lambda t: listed(t).startswith("house-rules: ")),
    ("title", edited('title = "Magic: The Gathering, current zone rules"', 'title = "House rules"'), lambda t: ": House rules\n" in listed(t)),
    ("source", edited('source = "Comprehensive Rules', 'source = "Our notes; Comprehensive Rules'), lambda t: "  source: Our notes;" in listed(t)),
    ("zone.called", edited('name = "exile"\npersonal = false', 'name = "exile"\ncalled = "the void"\npersonal = false'), lambda t: "exile (the void)" in listed(t)),
    ("zone.hidden (shown)", edited(HAND_ZONE, HAND_ZONE.replace("hidden = true", "hidden = false")), lambda t: "hand                 personal, public" in listed(t)),
    ("rule.summary", edited("A card headed for a library, hand or graveyard other than its owner's goes to its owner's instead.", "Owner's zones only."),
     lambda t: "owner-redirect                     Owner's zones only." in listed(t)),
    ("rule.without", edited("A card goes to the library, hand or graveyard of the player the effect names (for", "It goes where the effect says (for"),
     lambda t: parsed(t).sha256 != parsed(CURRENT).sha256),
    ("action.cites", edited(EXILE_ACTION, EXILE_ACTION.replace('["406.2", "400.8"]', '["406.2"]')), lambda t: "exile                           [406.2] an object" in listed(t)),
    ("action.summary", edited(EXILE_ACTION, EXILE_ACTION.replace("an object in any zone, exile included, is exiled", "banished")),
     lambda t: "[406.2, 400.8] banished" in listed(t)),
    ("dead.reason", edited("every ordered zone's order is fixed (400.5), so no one", "order is fixed, so no one"),
     lambda t: "order is fixed, so no one" in parsed(t).dead_reason("action", "reorder")),
]


@pytest.mark.parametrize("field, text, seen", SHOWN, ids=[row[0] for row in SHOWN])
def test_each_documenting_field_is_shown(field, text, seen):
    assert seen(text)
    assert not seen(CURRENT)


def test_a_rule_and_its_zones_are_honoured_by_the_encoder_and_the_interpreter():
    assert verdict(CURRENT, "owner-zones") is Verdict.HOLDS
    without_rule = edited(RULE_400_3, 'id = "400.3"\nbehaviour = "documented"\n')  # the behaviour: this rule now constrains nothing
    assert verdict(without_rule, "owner-zones") is Verdict.VIOLATED
    library_only = edited(RULE_400_3, RULE_400_3.replace('["library", "hand", "graveyard"]', '["library"]'))
    assert verdict(library_only, "owner-zones") is Verdict.VIOLATED  # a card goes to another player's hand or graveyard


def test_an_action_left_out_is_never_taken():
    """Without 400.8, exiling an object in exile keeps it the same object (exile-in-exile fails);
    with no exile action, nothing is exiled twice."""
    assert verdict(CURRENT, "exile-in-exile", without=("400.8",)) is Verdict.VIOLATED
    assert verdict(edited(EXILE_ACTION, ""), "exile-in-exile", without=("400.8",)) is Verdict.HOLDS


NEVER_EXILED = """
property never-exiled {
  cites 400.1
  means "no object is ever in exile"
  always forall c: object. zone(c) != exile
}
"""


def test_a_zone_left_out_is_never_entered():
    """With no [[zone]] for exile, the encoder finds no run that exiles a card, and the interpreter
    refuses the step that would."""
    no_exile = edited('[[zone]]\nname = "exile"\npersonal = false\nhidden = false\nordered = false\n', "")
    [never_exiled] = parse_properties(NEVER_EXILED, "never-exiled.zp")
    [exiled] = check_properties(parsed(CURRENT), [never_exiled], TINY)
    [kept_out] = check_properties(parsed(no_exile), [never_exiled], TINY)
    assert (exiled.verdict, exiled.depth, kept_out.verdict) == (Verdict.VIOLATED, 1, Verdict.HOLDS)
    scope = parsed(no_exile).scope_for(TINY)
    slots = slots_for(scope)
    world = World.of(parsed(no_exile), slots, tuple(CardType.CREATURE for _ in slots), scope)
    start = initial_state(slots, {p: [s.index for s in slots if s.owner == p] for p in range(scope.players)}, pregame_players=scope.players)
    with pytest.raises(IllegalAction, match="nothing may enter the exile: the rule set declares no such zone"):
        apply(world, start, Action(ActionKind.EXILE, card=0))


def test_an_expected_verdict_decides_whether_the_result_counts_against_the_run():
    [holds] = check_properties(parsed(CURRENT), [PROPS["owner-zones"]], TINY)
    assert not holds.counts_against
    expecting = CURRENT + '\n[[expect]]\nproperty = "owner-zones"\nverdict = "violated"\nreason = "a house rule"\n'
    [unexpected] = check_properties(parsed(expecting), [PROPS["owner-zones"]], TINY)
    assert unexpected.verdict is Verdict.HOLDS and unexpected.counts_against


def test_a_declared_dead_action_is_known_with_its_reason_in_lint():
    one = Scope(players=1, cards=1, sideboard=0, tokens=0, depth=1, hand=1)
    report = lint(parsed(edited("every ordered zone's order is fixed (400.5), so no one", "order is fixed, so no one")), [PROPS["owner-zones"]], one)
    [reorder] = [a for a in report.actions if a.action.value == "reorder"]
    assert reorder.status.value == "dead" and reorder.known.startswith("order is fixed, so no one")


REFUSED = [
    ("zone.personal", edited(HAND_ZONE, HAND_ZONE.replace("personal = true", "personal = false")), "zone hand is modelled as personal"),
    ("zone.ordered", edited('name = "exile"\npersonal = false\nhidden = false\nordered = false', 'name = "exile"\npersonal = false\nhidden = false\nordered = true'),
     "zone exile is modelled as shared and unordered"),
    ("zone.name not declared", edited('[[zone]]\nname = "exile"\npersonal = false\nhidden = false\nordered = false\n', "")
     + '\n[[rule]]\nid = "999.1"\nbehaviour = "zone-closed"\nzones = ["exile"]\nsummary = "s"\nwithout = "w"\n', "names zone exile, which the file does not declare"),
    ("variant", (MODEL / "mtg-commander.toml").read_text(encoding="utf-8").replace('variant = "commander"\n', ""), 'needs `variant = "commander"`'),
    ("a key no one reads", edited(RULE_400_3, RULE_400_3 + 'priority = 2\n'), "unknown key 'priority'"),
]


@pytest.mark.parametrize("field, text, message", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_field_the_model_cannot_honour_is_refused_at_its_line(field, text, message):
    with pytest.raises(InputError) as caught:
        parsed(text)
    [line] = str(caught.value).splitlines()[:1]
    assert line.startswith("fields.toml:") and line.split(":")[1].isdigit()
    assert message in line

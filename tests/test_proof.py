"""Proofs at every depth: which readings survive an unbounded run, a planted bug is never proved, and
every proof agrees with the explicit-state search."""

import os
from dataclasses import replace

import pytest
import z3

from conftest import long
from zoneproof.certify import certificate_text, read_certificate, verify
from zoneproof.check import Verdict, check_properties
from zoneproof.errors import InputError
from zoneproof.encode.system import TransitionSystem
from zoneproof.explicit import check_explicitly
from zoneproof.model import Scope
from zoneproof.proof import discharged, lemmas, wrap_safe
from zoneproof.properties import PropertyKind, parse_properties, stock_properties
from zoneproof.ruleset import builtin_names, load_ruleset

PROPS = {p.id: p for p in stock_properties()}
SMALL = Scope(players=2, cards=1, sideboard=0, tokens=1, depth=4)


def one(body: str):
    [prop] = parse_properties(f'property p {{\n cites 400.1\n means "m"\n {body}\n}}\n', "test.zp")
    return prop


def test_a_growing_identity_is_safe_only_as_its_change_in_one_step_or_against_zero():
    assert wrap_safe(PROPS["new-object"], set())
    assert wrap_safe(PROPS["outside-the-game"], set())
    assert wrap_safe(PROPS["tokens"], set())  # gen(t) > 0
    assert wrap_safe(one("always forall c: object. 0 <= gen(c)"), set())
    assert not wrap_safe(one("always forall c: object. gen(c) < 100"), set())
    assert not wrap_safe(one("always forall c: object. gen(c) + 1 > 0"), set())
    assert not wrap_safe(one("step forall c: object, d: object. gen'(c) != gen(d)"), set())


def test_an_identity_past_the_largest_value_wraps_to_one_never_to_zero_or_below():
    system = TransitionSystem(load_ruleset("mtg-current"), SMALL)
    codes = system.codes
    largest = 2 ** (codes.width["int"] - 1) - 1
    grown = lambda value, by: z3.simplify(codes.grown(codes.int(value), codes.int(by))).as_signed_long()  # noqa: E731
    assert [grown(5, 1), grown(5, 2), grown(5, 0)] == [6, 7, 5]
    assert [grown(largest - 1, 1), grown(largest, 1), grown(largest - 1, 2), grown(largest, 2)] == [largest, 1, 1, 2]


def test_mulligans_are_safe_only_where_a_proved_lemma_bounds_them():
    prop = one("always forall p: player. mulligans(p) <= 3")
    assert not wrap_safe(prop, set())
    assert wrap_safe(prop, {"mulligans-bounded"})


def test_the_lemmas_parse_and_each_names_a_rule():
    found = lemmas(load_ruleset("mtg-current"))
    assert len({p.id for p in found}) == len(found) and all(p.cites for p in found)


def test_lemmas_a_random_run_falsifies_are_left_out_before_houdini_which_keeps_the_same():
    """A state of a random run is reachable, so a lemma it falsifies is in no inductive invariant:
    leaving such lemmas out before Houdini changes nothing it finds, and saves its questions."""
    from zoneproof.encode.system import TransitionSystem
    from zoneproof.proof import FALSIFYING_RUNS, _houdini, invariant
    from zoneproof.search import Budget
    from zoneproof.simulate import falsified

    ruleset = load_ruleset("mtg-current")
    scope = Scope(players=2, cards=2, depth=5)
    system = TransitionSystem(ruleset, scope)
    pool = list(lemmas(ruleset))
    reached = falsified(ruleset, scope, pool, FALSIFYING_RUNS)
    assert {"face-down-set-aside", "tokens-never-made"} <= reached
    everything = _houdini(system, pool, 0, system.rule_values(), Budget.each(60))
    found = invariant(system, pool, 0, system.rule_values(), Budget.each(60))
    assert [p.id for p in found] == [p.id for p in everything]
    assert not reached & {p.id for p in found}


def test_on_a_cone_of_influence_and_on_the_pregame_houdini_keeps_the_same_with_the_lemmas_random_runs_falsify_left_out():
    """A state the whole game reaches is, on the parts a cone keeps, one the cone reaches: the
    lemmas random runs falsify are in no inductive invariant of the cone either, and leaving them
    out first keeps what Houdini finds there. The pregame's actions alone keep every part of the
    state but not every action: their runs take the pregame's actions only (none casts a spell)."""
    from zoneproof.check import _int_reach
    from zoneproof.encode.slicing import pregame_system, sliced
    from zoneproof.encode.system import TransitionSystem
    from zoneproof.proof import FALSIFYING_RUNS, _houdini, invariant
    from zoneproof.search import Budget
    from zoneproof.simulate import falsified

    ruleset = load_ruleset("mtg-current")
    scope = ruleset.scope_for(Scope(players=2, cards=2, depth=3))
    prop = PROPS["ordered-zones"]
    cone = sliced(TransitionSystem(ruleset, scope, _int_reach([prop], scope)), [prop])
    assert cone.slice.parts is not None and cone.slice.projects_the_game
    pool = list(lemmas(ruleset))
    reached = falsified(ruleset, scope, pool, FALSIFYING_RUNS)
    everything = _houdini(cone, pool, 0, cone.rule_values(), Budget.each(60))
    found = invariant(cone, pool, 0, cone.rule_values(), Budget.each(60))
    assert [p.id for p in found] == [p.id for p in everything] and found
    assert reached and not reached & {p.id for p in found}
    scope = replace(scope, cards=1)
    pregame = pregame_system(ruleset, scope)
    assert not pregame.slice.projects_the_game
    pregame_pool = list(lemmas(ruleset, pregame=True))
    before_start = falsified(ruleset, scope, pregame_pool, FALSIFYING_RUNS, kinds=pregame.slice.kinds)
    assert {"never-in-library", "never-in-hand"} <= before_start and "never-in-stack" not in before_start
    assert "never-in-stack" in falsified(ruleset, scope, pregame_pool, FALSIFYING_RUNS)
    everything = _houdini(pregame, pregame_pool, 0, pregame.rule_values(), Budget.each(60))
    found = invariant(pregame, pregame_pool, 0, pregame.rule_values(), Budget.each(60))
    assert [p.id for p in found] == [p.id for p in everything] and "never-in-stack" in {p.id for p in found}
    assert not before_start & {p.id for p in found}


@pytest.mark.parametrize("name, cards", [("mtg-commander", 3), ("mtg-commander", 4), ("mtg-current", 3), ("mtg-current", 4)])
def test_a_seldom_possible_action_is_tried_wherever_it_is_so_its_states_falsify_lemmas(name, cards):
    """Copying a spell needs a spell on the stack and a token slot of its type: a random run seldom
    takes it, but a step of a kind no run has taken yet is tried in every state passed, the untaken
    kinds again after it (a cast, then a copy), with the token slot of another type where the run
    has not brought it into the game (Houdini would otherwise ask a question to drop the two lemmas)."""
    from zoneproof.proof import FALSIFYING_RUNS
    from zoneproof.simulate import falsified

    ruleset = load_ruleset(name)
    scope = ruleset.scope_for(Scope(players=2, cards=cards, tokens=1, depth=7))
    assert {"no-copies", "tokens-off-stack"} <= falsified(ruleset, scope, list(lemmas(ruleset)), FALSIFYING_RUNS)


def test_on_the_whole_game_the_lemmas_of_what_a_mulligan_owes_are_left_to_the_pregame():
    """On the whole game the mulligan count has no bound, so a step from the most mulligans makes it
    wrap and breaks what a mulligan owes: one of the two lemmas in every rule set with a pregame."""
    from zoneproof.proof import MULLIGAN_COUNTS, _houdini
    from zoneproof.search import Budget

    owed = {"owed-nonnegative", "owed-bounded"}
    assert owed <= set(MULLIGAN_COUNTS)
    for name in ("mtg-current", "mtg-2015-bfz"):
        ruleset = load_ruleset(name)
        assert not owed & {p.id for p in lemmas(ruleset)} and owed <= {p.id for p in lemmas(ruleset, pregame=True)}
    ruleset = load_ruleset("mtg-2015-bfz")  # the Vancouver mulligan owes no card: owed-bounded is the one that breaks
    system = TransitionSystem(ruleset, Scope(players=2, cards=1, depth=3))
    pool = [*lemmas(ruleset), *(p for p in lemmas(ruleset, pregame=True) if p.id in owed)]
    assert {p.id for p in _houdini(system, pool, 0, system.rule_values(), Budget.each(60))} & owed == {"owed-nonnegative"}


def test_a_rule_removed_for_a_property_is_found_violated_never_proved():
    ruleset = load_ruleset("mtg-current")
    props = [PROPS["owner-zones"], PROPS["one-zone"]]
    kept = {r.prop.id: r.verdict for r in check_properties(ruleset, props, SMALL)}
    assert kept == {"owner-zones": Verdict.PROVED, "one-zone": Verdict.PROVED}
    removed = {r.prop.id: (r.verdict, r.depth) for r in check_properties(ruleset.without(["400.3"]), props, SMALL)}
    assert removed["owner-zones"] == (Verdict.VIOLATED, 2)
    assert removed["one-zone"][0] is Verdict.PROVED


def test_new_object_is_proved_without_608_2b():
    """Without 608.2b a resolving spell marks its lost target wherever it is, so no lemma says that
    only objects in play carry an effect; a created token starts with no memory (no effect,
    counters, tapped status or attachment left in its slot), so new-object is still proved, not left to the bounded
    check (coverage's cell for 608.2b)."""
    ruleset = load_ruleset("mtg-current").without(["608.2b"])
    [result] = check_properties(ruleset, [PROPS["new-object"]], Scope(depth=5))
    assert result.verdict is Verdict.PROVED, result.reason


def test_a_property_not_inductive_alone_is_proved_with_the_properties_the_rule_set_expects_to_hold(tmp_path, monkeypatch,
                                                                                                     without_face_down_set_aside):
    """Checked alone, without the lemma that a face-down object is only in exile or the command
    zone, Berserk's face-down-reveal is not inductive with the structural lemmas: it needs
    face-down-visibility. zoneproof proves it together with the stock properties the rule set
    file expects to hold, checks their base case too, and the certificate carries them."""
    ruleset = load_ruleset("berserk")
    [result] = check_properties(ruleset, [PROPS["face-down-reveal"]], SMALL)
    assert result.verdict is Verdict.PROVED, result.reason
    assert "face-down-visibility" in {p.id for p in result.certificate.together}
    path = tmp_path / "face-down-reveal.proof.zp"
    path.write_text(certificate_text(result.certificate, ruleset, ruleset.scope_for(SMALL)))
    assert verify(read_certificate(path), ruleset).valid
    monkeypatch.setattr("zoneproof.check._helpers", lambda ruleset, props: [])
    [alone] = check_properties(ruleset, [PROPS["face-down-reveal"]], SMALL)
    assert alone.verdict is Verdict.HOLDS


def test_face_down_reveal_is_proved_over_one_step_where_nothing_is_face_down_in_play(tmp_path):
    """Under the Commander rules of 2015 a card is face down only when the mulligan sets it aside in
    exile (903.8): the lemma saying so makes 708.9's face-down-reveal inductive alone, over one
    step, with a certificate that needs no other property."""
    ruleset = load_ruleset("mtg-2015-commander-bfz")
    [result] = check_properties(ruleset, [PROPS["face-down-reveal"]], Scope(players=2, cards=2, depth=5))
    assert result.verdict is Verdict.PROVED, result.reason
    assert "face-down-set-aside" in {p.id for p in result.certificate.lemmas}
    assert result.certificate.together == () and result.certificate.steps == 1
    path = tmp_path / "face-down-reveal.proof.zp"
    path.write_text(certificate_text(result.certificate, ruleset, ruleset.scope_for(Scope(players=2, cards=2, depth=5))))
    assert verify(read_certificate(path), ruleset).valid


@pytest.mark.parametrize("prop_id", ["owner-zones", "stack-lifo"])
def test_a_property_proved_alone_over_one_step_passes_certify(prop_id, tmp_path, monkeypatch):
    """Alone, a property is first proved over one step (an always and a step property here);
    certify asks that form of the obligation first and the two-step form only where it fails."""
    ruleset = load_ruleset("mtg-current")
    [result] = check_properties(ruleset, [PROPS[prop_id]], SMALL)
    assert result.verdict is Verdict.PROVED and result.certificate.together == () and result.certificate.steps == 1
    path = tmp_path / f"{prop_id}.proof.zp"
    path.write_text(certificate_text(result.certificate, ruleset, ruleset.scope_for(SMALL)))
    asked = []
    monkeypatch.setattr("zoneproof.certify.discharged", lambda system, todo, *rest: asked.append([o.what for o in todo]) or discharged(system, todo, *rest))
    verification = verify(read_certificate(path), ruleset)
    assert verification.valid, verification
    assert verification.checked == 2 * (len(result.certificate.lemmas) + 1)
    shared = f"{prop_id} holds on every step from a state where the lemmas hold"
    assert (shared in asked[0]) == (PROPS[prop_id].kind is PropertyKind.STEP)  # a step property: with the lemmas' own step


def test_certify_asks_a_step_property_after_a_step_where_it_held_where_the_lemmas_alone_do_not_keep_it(tmp_path):
    """A step property no lemma implies of every step, but kept by every step after one on which it
    held (no deck card is ever put outside the game): the stronger form with the lemmas' step
    fails, and the form that assumes the step before holds."""
    verification = _verified_with_owner_zones_lemmas(tmp_path, "decks-stay-in", "400.11", "forall c: card. is_sideboard(c) or zone'(c) != outside",
                                                     "1", "step")
    assert verification.valid, verification


def _verified_with_owner_zones_lemmas(tmp_path, prop_id: str, cites: str, body: str, steps: str | None = None, kind: str = "always"):
    """certify of a hand-made certificate: owner-zones' lemmas, and the `kind` property `body`
    proved, with the steps line `steps` (none: both forms are asked)."""
    ruleset = load_ruleset("mtg-current")
    [result] = check_properties(ruleset, [PROPS["owner-zones"]], SMALL)
    path = tmp_path / f"{prop_id}.proof.zp"
    text = certificate_text(result.certificate, ruleset, ruleset.scope_for(SMALL)).replace("# proves: owner-zones", f"# proves: {prop_id}")
    assert f"# steps: {result.certificate.steps}\n" in text
    text = text.replace(f"# steps: {result.certificate.steps}\n", "" if steps is None else f"# steps: {steps}\n")
    path.write_text(text + f'property {prop_id} {{\n  cites {cites}\n  means "not so"\n  {kind} {body}\n}}\n')
    return verify(read_certificate(path), ruleset)


def test_certify_refuses_a_property_that_one_step_breaks_and_two_do_too(tmp_path):
    """A hand-made certificate of a property that does not hold: both forms of its last obligation fail."""
    verification = _verified_with_owner_zones_lemmas(tmp_path, "empty-stack", "405.1", "forall c: object. zone(c) != stack")
    assert not verification.valid
    assert any("empty-stack is kept by every step" in what for what in verification.failed)


def test_certify_refuses_a_property_every_step_keeps_but_the_first_state_breaks(tmp_path):
    """Kept by every step, a property false at the start is no proof: the base case of each form
    (one step deep, then two) is asked, and the last one tried is named as failing."""
    verification = _verified_with_owner_zones_lemmas(tmp_path, "always-started", "103.1", "forall p: player. started(p)")
    assert not verification.valid
    assert verification.failed == ("always-started holds in the first three states",)


@pytest.mark.parametrize("steps, base", [("1", "two"), ("2", "three")])
def test_certify_asks_the_form_its_steps_line_names(tmp_path, steps, base):
    """A steps line names the one form certify asks: its base case is the one named as failing."""
    verification = _verified_with_owner_zones_lemmas(tmp_path, "always-started", "103.1", "forall p: player. started(p)", steps)
    assert verification.failed == (f"always-started holds in the first {base} states",)


def test_certify_refuses_a_steps_line_of_no_form(tmp_path):
    with pytest.raises(InputError, match="steps line must be one of 1, 2, got '3'"):
        _verified_with_owner_zones_lemmas(tmp_path, "always-started", "103.1", "forall p: player. started(p)", "3")


def test_every_proof_agrees_with_the_explicit_search_of_every_run_to_the_depth():
    """A `proved` rests on Z3 answering unsat; the explicit-state search, which runs every reachable
    state through the interpreter, must find no violation of it up to the depth, and agree on every
    other verdict and shortest depth."""
    ruleset = load_ruleset("mtg-current")
    props = list(stock_properties())
    scope = Scope(players=1, cards=1, sideboard=1, tokens=1, depth=4, hand=1)
    symbolic = check_properties(ruleset, props, scope, timeout=900)
    explicit = check_explicitly(ruleset, props, scope)
    assert not explicit.budget_reached
    proved = [r.prop.id for r in symbolic if r.verdict is Verdict.PROVED]
    assert len(proved) >= 15
    found = {r.prop.id: (r.verdict.value, r.depth) for r in explicit.results}
    assert {p: found[p] for p in proved} == {p: ("holds", 4) for p in proved}
    others = {r.prop.id: (r.verdict.value, r.depth) for r in symbolic if r.verdict is not Verdict.PROVED}
    assert others == {p: found[p] for p in others}


# Every built-in rule set at two cards each under ZONEPROOF_LONG; in CI, Berserk at one card each
# (its face-down-reveal is proved only together with other properties).
LONG = bool(os.environ.get("ZONEPROOF_LONG"))
CERTIFIED = builtin_names() if LONG else ["berserk"]


@pytest.mark.parametrize("name", CERTIFIED)
def test_every_proof_a_check_claims_passes_certify(name, tmp_path):
    """Each `proved` comes with a certificate; certify checks it in a Z3 context of its own: the
    lemmas' own obligations (holding at the start, kept by every step), and those of the property
    and of the properties proved together with it."""
    ruleset = load_ruleset(name)
    scope = Scope(players=2, cards=2, sideboard=1, tokens=1, depth=4) if LONG else SMALL
    proved = [r for r in check_properties(ruleset, list(stock_properties()), scope) if r.verdict is Verdict.PROVED]
    assert len(proved) >= 10
    assert any(r.certificate.steps == 1 and r.certificate.together for r in proved)  # a joint proof over one step
    for result in proved:
        path = tmp_path / f"{result.prop.id}.proof.zp"
        path.write_text(certificate_text(result.certificate, ruleset, ruleset.scope_for(scope)))
        verification = verify(read_certificate(path), ruleset)
        assert verification.valid, (result.prop.id, verification)
        assert verification.checked == 2 * (len(result.certificate.lemmas) + len(result.certificate.together) + 1)


def test_coverage_keeps_the_intact_invariant_only_where_houdini_would_keep_it_too():
    """A removal of a rule the intact lemmas do not rest on (`proof.rules_resting`) skips Houdini:
    run anyway, Houdini keeps every lemma there; and some rule they rest on makes it drop one."""
    from zoneproof.check import Intact, _int_reach
    from zoneproof.model import Behaviour
    from zoneproof.proof import invariant
    from zoneproof.search import Budget

    ruleset = load_ruleset("mtg-current")
    scope = ruleset.scope_for(SMALL)
    system = TransitionSystem(ruleset, scope, _int_reach(list(PROPS.values()), scope))
    intact = Intact.of(ruleset, [PROPS["owner-zones"]], {False: system}, 0, Budget.phase(60))
    pool = intact.kept(False)
    checked = [r.id for r in ruleset.in_force if r.behaviour is not Behaviour.DOCUMENTED]
    free = [r for r in checked if intact.still_inductive(ruleset.without([r]), False)]
    assert free and len(free) < len(checked)
    for rule_id in free:
        kept = invariant(system, pool, 0, system.rule_values(ruleset.without([rule_id])), Budget.phase(60))
        assert [p.id for p in kept] == [p.id for p in pool], rule_id
    assert any(len(invariant(system, pool, 0, system.rule_values(ruleset.without([r])), Budget.phase(60))) < len(pool)
               for r in checked if r not in free)


def _narrowed_and_full(name: str, rules: list[str] | None, monkeypatch) -> int:
    """For each rule (every checked one unless named) whose removal's questions leave some action
    kind out (`search.Unchanged`): the invariant Houdini finds from the intact one, and the
    properties the joint induction over one step proves, asked of the steps the removal may change
    and asked of every step, are the same; the narrowed way asks Houdini's base case (and its step)
    and the induction's question of the rule's kinds only. The number of such rules."""
    from zoneproof import proof
    from zoneproof.check import _intact_checks
    from zoneproof.model import Behaviour
    from zoneproof.proof import invariant, proved_with
    from zoneproof.search import CONCLUDED_AT, INDUCTION_STEPS, Budget, Unchanged

    ruleset = load_ruleset(name)
    scope = ruleset.scope_for(SMALL)
    intact = _intact_checks(ruleset, list(PROPS.values()), scope, 0, 60.0)
    system, pool = intact.system, intact.lemmas.kept(False)
    one_step = [p for p in intact.applicable if p in intact.lemmas.on[False].one_step]
    assert one_step
    narrowed = 0
    for rule in rules or [r.id for r in ruleset.in_force if r.behaviour is not Behaviour.DOCUMENTED]:
        without = ruleset.without([rule])
        unchanged = intact.lemmas.unchanged(without, False)
        if unchanged.kinds is None or len(unchanged.kinds) == len(system.kinds):
            continue
        narrowed += 1
        facts = system.rule_values(without)
        found = []
        for known in (unchanged, Unchanged()):
            monkeypatch.setattr(proof, "_found", {})
            narrowing = []
            monkeypatch.setattr(system, "kind_in", lambda t, kinds, own=system.kind_in: narrowing.append(t) or own(t, kinds))
            kept = invariant(system, pool, 0, facts, Budget.phase(60), known)
            proved = proved_with(system, one_step, pool, 0, facts, Budget.phase(60), forms=INDUCTION_STEPS[:1], unchanged=known)
            found.append(([p.id for p in kept], sorted(p.id for p in proved), sorted(set(narrowing))))
            monkeypatch.undo()
        assert found[0][:2] == found[1][:2], rule
        assert {0, CONCLUDED_AT - 1} <= set(found[0][2]) and found[1][2] == [], rule  # and step 1 unless the base case broke a lemma
    return narrowed


def test_a_removal_asks_only_of_the_steps_it_may_change_and_finds_what_asking_of_every_step_finds(monkeypatch):
    """A removal's Houdini and its joint induction over one step ask only of the steps of the kinds
    the removed rule decides, where the intact rule set's own questions answer for the others:
    with a lemma or a property the removal breaks (400.7, 400.8, 608.3f...) and without (401.7), and
    for a rule that the constraints every step shares read (404.1: a graveyard's newcomer goes on top)."""
    assert _narrowed_and_full("mtg-current", ["400.7", "400.8", "400.9", "401.7", "404.1", "405.5", "608.3f"], monkeypatch) == 7


@long
@pytest.mark.parametrize("name", builtin_names())
def test_every_removal_asks_only_of_the_steps_it_may_change_and_finds_what_asking_of_every_step_finds(name, monkeypatch):
    assert _narrowed_and_full(name, None, monkeypatch)


def test_an_induction_asked_again_without_a_property_the_intact_proof_does_not_need_still_asks_only_of_the_rules_steps():
    """The intact proof over one step needs the assumption of a few of the properties it proves
    (`search.assumptions_needed`): a removal's question asked again after a model broke one of the
    others still asks only of the steps of the removed rule's kinds, and proves what asking of
    every step proves."""
    from zoneproof.check import _intact_checks
    from zoneproof.proof import proved_with
    from zoneproof.search import CONCLUDED_AT, INDUCTION_STEPS, Budget, Unchanged

    ruleset = load_ruleset("mtg-current")
    intact = _intact_checks(ruleset, list(PROPS.values()), ruleset.scope_for(SMALL), 0, 60.0)
    on, system = intact.lemmas.on[False], intact.system
    assert on.needed < on.one_step
    dropped = min((p for p in on.one_step if p not in on.needed), key=lambda p: p.id)
    rest = sorted((p for p in on.one_step if p is not dropped), key=lambda p: p.id)
    without = ruleset.without(["400.9"])
    unchanged = intact.lemmas.unchanged(without, False)
    assert unchanged.kinds and len(unchanged.kinds) < len(system.kinds)
    assert unchanged.steps_of(system, CONCLUDED_AT - 1, [*on.kept, *rest], rest)
    assert not Unchanged(unchanged.kinds, unchanged.lemmas, unchanged.proved).steps_of(system, CONCLUDED_AT - 1, [*on.kept, *rest], rest)
    facts = system.rule_values(without)
    proved = [sorted(p.id for p in proved_with(system, rest, on.kept, 0, facts, Budget.phase(60), forms=INDUCTION_STEPS[:1], unchanged=known))
              for known in (unchanged, Unchanged())]
    assert proved[0] == proved[1] and proved[0]


def test_houdinis_step_and_the_induction_after_it_side_by_side_prove_what_they_prove_in_turn(monkeypatch):
    """A check's Houdini asks whether every step keeps its lemmas at once with the induction that
    assumes them (`proof._houdini`): the same verdict and certificate as asking them in turn, and
    the induction's answer is taken from that question, not asked again."""
    import zoneproof.proof as proof_module
    import zoneproof.search as search_module

    ruleset, scope = load_ruleset("mtg-current"), Scope(cards=2)
    results = {}
    real = search_module._induction_solver
    for side_by_side in (True, False):
        monkeypatch.setattr(proof_module, "_found", {})  # no invariant found before in this process
        search_module.answered_ahead.clear()
        if not side_by_side:
            monkeypatch.setattr(proof_module, "_induction_beside", lambda *_: None)
        asked = []
        monkeypatch.setattr(search_module, "_induction_solver", lambda *a, **k: asked.append(a) or real(*a, **k))
        [results[side_by_side]] = check_properties(ruleset, [PROPS["ordered-zones"]], scope)
        assert bool(search_module.answered_ahead) == side_by_side
        assert len(asked) == 1  # the induction's question, asked once: beside Houdini's, or after it
    assert results[True].verdict is results[False].verdict is Verdict.PROVED
    assert results[True].certificate == results[False].certificate

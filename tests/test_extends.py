"""Rule sets that extend others: the built-in editions written as changes to a base, variants of a
few lines, their errors, `list`, and traces that replay from any folder."""

import hashlib
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from zoneproof.model import ActionKind
from zoneproof.ruleset import builtin_names, load_ruleset

# The built-in editions as complete files, as they were before they were rewritten with `extends`,
# and mtg-current as it was then; the editions as written with `extends`, before later additions.
BEFORE = Path(__file__).parent / "data" / "before-extends"
AS_EXTENDED = Path(__file__).parent / "data" / "as-extended"
MODEL = Path(__file__).parent.parent / "model"
REWRITTEN = sorted(p for p in BEFORE.glob("*.toml") if p.stem != "mtg-current")

VARIANT = '''# What if 400.3 did not cover graveyards?
extends = "mtg-current"
name = "what-if"
title = "What if a card could go to another player's graveyard"

[[replace.rule]]
id = "400.3"
behaviour = "owner-redirect"
zones = ["library", "hand"]
summary = "A card headed for a library or hand other than its owner's goes to its owner's instead."
without = "A card goes to the library or hand of the player the effect names."

[remove]
rule = ["401.7"]

[[move.rule]]
id = "400.12"
before = "111.7"

[[rule]]
id = "400.13"
behaviour = "documented"
summary = "A made-up rule, to show where an added rule goes."
without = "No change."
after = "400.3"
'''


# What every edition declares about the default scope changed with its depth (7): the declarations
# that excused rules and triggers for lack of steps or players went. The rest is as it was. In
# mtg-current they are the end of the file, from this line on.
DECLARATIONS = ("expectations", "known_dead", "sha256", "origin")
DECLARED_FROM = "# ---------------------------------------------------------------- what lint finds within the default scope"


def mtg_current_as_it_was() -> str:
    """mtg-current before the editions were rewritten, with the declarations it has now but those
    about rules added since."""
    before, now = BEFORE.joinpath("mtg-current.toml").read_text(), MODEL.joinpath("mtg-current.toml").read_text()
    rules = before[:before.index(DECLARED_FROM)]
    declared = now[now.index(DECLARED_FROM):].split("\n\n")
    added_since = lambda block: (m := re.search(r'^rule = "([^"]+)"$', block, re.M)) and f'id = "{m[1]}"' not in rules  # noqa: E731
    return rules + "\n\n".join(block for block in declared if not added_since(block))


@pytest.mark.parametrize("path", REWRITTEN, ids=lambda p: p.stem)
def test_each_rewritten_edition_has_the_rules_actions_and_zones_it_had(path, tmp_path):
    """Each edition's file as written with `extends`, over the files it extends and mtg-current as it
    was (`mtg_current_as_it_was`), resolves to the rules, actions and zones of its former complete
    file (so later additions to the editions do not break this)."""
    for edition in MODEL.glob("mtg-*.toml"):
        text = mtg_current_as_it_was() if edition.stem == "mtg-current" else AS_EXTENDED.joinpath(edition.name).read_text()
        (tmp_path / edition.name).write_text(re.sub(r'^extends = "([a-z0-9-]+)"$', r'extends = "\1.toml"', text, flags=re.M))
    rewritten = load_ruleset(str(tmp_path / path.name))
    original = load_ruleset(str(path))
    assert rewritten.base is not None and len(rewritten.chain) >= 2
    kept = lambda r: replace(r, **dict.fromkeys(DECLARATIONS, None))  # noqa: E731
    assert replace(kept(rewritten), chain=original.chain, changes=original.changes) == replace(kept(original), chain=original.chain)


def test_every_edition_but_the_base_and_berserk_extends_another():
    extending = {name for name in builtin_names() if load_ruleset(name).base is not None}
    assert extending == {p.stem for p in REWRITTEN}
    assert all(load_ruleset(name).chain[-1].name == "mtg-current" for name in extending)


def write_variant(folder: Path, text: str = VARIANT, name: str = "what-if.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def test_a_variant_replaces_removes_moves_and_adds(tmp_path):
    variant = load_ruleset(str(write_variant(tmp_path)))
    base = load_ruleset("mtg-current")
    ids = [r.id for r in variant.rules]
    assert ids[0] == "400.12" and ids.index("400.13") == ids.index("400.3") + 1 and "401.7" not in ids
    assert next(r for r in variant.rules if r.id == "400.3").zones == next(r for r in base.rules if r.id == "400.3").zones[:2]
    assert variant.unguarded_reason("401.7") == ""  # the [[unguarded]] about a removed rule goes with it
    assert variant.actions == base.actions and variant.expectations == base.expectations
    assert [link.name for link in variant.chain] == ["what-if", "mtg-current"]
    assert variant.chain[0].origin == str((tmp_path / "what-if.toml").resolve())
    assert {(c.key, c.how) for c in variant.changes} == {("400.3", "replaced"), ("401.7", "removed"), ("400.12", "moved"), ("400.13", "added")}


def test_a_chain_of_files_resolves_relative_to_each_file(tmp_path):
    write_variant(tmp_path / "a")
    write_variant(tmp_path / "b", 'extends = "../a/what-if.toml"\nname = "further"\ntitle = "Further"\n\n[remove]\naction = ["reorder"]\n', "further.toml")
    further = load_ruleset(str(tmp_path / "b" / "further.toml"))
    assert [link.name for link in further.chain] == ["further", "what-if", "mtg-current"]
    assert not further.allows(ActionKind.REORDER) and load_ruleset("mtg-current").allows(ActionKind.REORDER)
    assert "400.13" in [r.id for r in further.rules]
    assert further.dead_reason("action", "reorder") == ""


@pytest.mark.parametrize("text, error", [
    ('extends = "mtg-curent"\nname = "x"\ntitle = "X"\n', r"x\.toml:1: error: `extends` names unknown rule set 'mtg-curent' \(did you mean 'mtg-current'\?\)"),
    ('extends = "x.toml"\nname = "x"\ntitle = "X"\n', r"x\.toml:1: error: `extends` makes a cycle \(x\.toml → x\.toml\)"),
    ('extends = "mtg-current"\nname = "x"\ntitle = "X"\n\n[remove]\nrule = ["400.99"]\n', r"x\.toml:6: error: \[remove\] names rule '400.99', which mtg-current does not have"),
    ('extends = "mtg-current"\nname = "x"\ntitle = "X"\n\n[[replace.action]]\nname = "draww"\ncites = ["1.1"]\nsummary = "s"\n',
     r"x\.toml:6: error: \[\[replace.action\]\] names action 'draww', which mtg-current does not have \(did you mean 'draw'\?\); `zoneproof list mtg-current` shows"),
    ('extends = "mtg-current"\nname = "x"\ntitle = "X"\n\n[[replace.expect]]\nproperty = "nothing"\nverdict = "holds"\n',
     r"x\.toml:6: error: \[\[replace.expect\]\] names expect 'nothing', which mtg-current does not have.*to add it, write \[\[expect\]\]"),
    ('extends = "mtg-current"\nname = "x"\ntitle = "X"\n\n[[rule]]\nid = "400.3"\nbehaviour = "documented"\nsummary = "s"\nwithout = "w"\n',
     r"x\.toml:6: error: rule '400.3' is already in mtg-current; to change it, write \[\[replace.rule\]\]"),
    ('extends = "mtg-current"\nname = "x"\ntitle = "X"\n\n[remove]\nrule = ["400.5"]\n',
     r"x\.toml:1: error: rule 401.2 restates '400.5', which the file does not define \(inherited from model/mtg-current.toml:\d+;"),
    ('extends = "mtg-current"\nname = "mtg-current"\ntitle = "X"\n', r"x\.toml:2: error: rule set name 'mtg-current' is taken by the rule set it extends"),
    ('name = "x"\ntitle = "X"\n\n[remove]\nrule = ["400.5"]\n', r"x\.toml:4: error: `remove` changes the rule set a file extends; name it with `extends"),
])
def test_a_bad_extension_is_one_line_naming_file_line_and_fix(run, tmp_path, text, error):
    (tmp_path / "x.toml").write_text(text)
    code, out, err = run("list", "x.toml")
    assert code == 2 and out == ""
    lines = err.splitlines()  # a file without `extends` has the errors of an incomplete rule set too
    assert any(re.fullmatch(rf"zoneproof: {error}.*", line) for line in lines), err
    assert all(line.startswith("zoneproof: x.toml") for line in lines)


def test_list_shows_what_a_file_inherits_and_changes(run, tmp_path):
    write_variant(tmp_path)
    code, out, err = run("list", "what-if.toml")
    assert code == 0 and err == ""
    assert "\n  extends: mtg-current\n  changes to mtg-current: 1 added, 1 replaced, 1 moved, 2 removed (+ added, ~ replaced, > moved; unmarked: inherited)\n" in out
    assert re.search(r"\n  ~ 400\.3 +owner-redirect +A card headed for a library or hand other", out)
    assert re.search(r"\n  > 400\.12 ", out) and re.search(r"\n  \+ 400\.13 ", out) and re.search(r"\n    400\.5 +order-fixed", out)
    assert out.endswith("  removed from mtg-current:\n    rules                401.7\n    [[unguarded]]        401.7\n")
    code, out, _ = run("list", "mtg-2010")
    assert "\n  extends: mtg-2015-origins → mtg-current\n" in out


def test_a_variant_checked_from_another_folder_replays_from_anywhere(run, tmp_path, monkeypatch):
    write_variant(tmp_path / "rules" / "model")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = run("check", "--no-lint", "../rules/model/what-if.toml", "-p", "owner-zones", "--cards", "1", "--depth", "2", "--out", str(tmp_path / "cx"))
    assert code == 1 and err == "", err
    trace = tmp_path / "cx" / "what-if--owner-zones.itf.json"
    meta = json.loads(trace.read_text())["#meta"]["ruleset"]
    variant_file = str((tmp_path / "rules" / "model" / "what-if.toml").resolve())
    assert meta["origin"] == variant_file and meta["chain"] == [{"name": "what-if", "origin": variant_file}, {"name": "mtg-current", "origin": "builtin"}]
    assert meta["sha256"] == load_ruleset(variant_file).sha256
    monkeypatch.chdir(tmp_path)
    code, out, err = run("replay", str(trace))
    assert code == 0 and "✓ confirmed" in out, err

    shutil.move(tmp_path / "rules", tmp_path / "moved")
    code, _, err = run("replay", str(trace))
    assert code == 2 and "if the rule set file has moved, name it with `zoneproof replay --ruleset FILE`" in err
    code, out, err = run("replay", str(trace), "--ruleset", "moved/model/what-if.toml")
    assert code == 0 and "✓ confirmed" in out, err
    code, _, err = run("replay", str(trace), "--ruleset", "mtg-current")
    assert code == 2 and "made with another version of rule set 'what-if'" in err and "in mtg-current" in err

    # A trace of the older format holds the path as typed and the hash of the file's bytes.
    data = json.loads(trace.read_text())
    del data["#meta"]["ruleset"]["chain"]
    data["#meta"]["ruleset"].update(origin="moved/model/what-if.toml", sha256=hashlib.sha256((tmp_path / "moved/model/what-if.toml").read_bytes()).hexdigest())
    trace.write_text(json.dumps(data))
    code, out, err = run("replay", str(trace))
    assert code == 0 and "✓ confirmed" in out, err

"""Fuzzing the readers with malformed input.

Every reader (rule set TOML, property files, scenario TOML, ITF trace JSON) must either accept its
input or refuse it with an InputError: never another exception. Through the command line, bad
input must end in exit code 2 with one line on stderr for each error of the file (a compiler's
`path:line: error: ...`) and no traceback (or, when a mutated
input happens to stay valid, in a normal exit code 0, 1 or 3), and the folder given with --out must
hold nothing but complete traces (nothing at all after exit code 2).

The inputs are mutations of valid seeds: truncations, byte flips, insertions and deletions,
non-UTF-8 bytes, duplicated lines and tables, values of the wrong type, unknown names, huge and
negative numbers, deep nesting, empty files. The last section holds the minimal inputs of the
crashes the fuzzers found, one test each.

Each fuzzer draws fresh random inputs on every run. ZONEPROOF_FUZZ_SCALE=N runs N times as many
examples per fuzzer, for a longer search on a developer's machine.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from zoneproof.cli import main
from zoneproof.errors import InputError
from zoneproof.model import ActionKind, Behaviour, CardType, Zone
from zoneproof.properties import load_properties, parse_properties
from zoneproof.replay import replay_trace
from zoneproof.ruleset import load_ruleset, parse_ruleset
from zoneproof.scenario import load_scenario, parse_scenario, run_scenario
from zoneproof.trace import read_trace

REPO = Path(__file__).resolve().parent.parent
RULESET_PATH = REPO / "model" / "mtg-current.toml"
RULESET_BYTES = RULESET_PATH.read_bytes()
RULESET_DOC = tomllib.loads(RULESET_BYTES.decode("utf-8"))
STOCK_TEXT = (REPO / "properties" / "stock.zp").read_text(encoding="utf-8")
# The stock properties under new ids, so that the file can be added with --properties.
PROPS_TEXT = re.sub(r"^property (\S+)", r"property fz-\1", STOCK_TEXT, flags=re.M)
PROPS_BYTES = PROPS_TEXT.encode("utf-8")
SCENARIO_BYTES = [p.read_bytes() for p in sorted((REPO / "tests" / "scenarios").glob("*.toml"))]
SCENARIO_DOCS = [tomllib.loads(b.decode("utf-8")) for b in SCENARIO_BYTES]
TRACE_NAME = "mtg-current--without-400.8--exile-in-exile.itf.json"
# A check that is violated at depth 1, so quicker than the seed trace's.
QUICK_VIOLATION = ["-w", "400.4a", "-p", "spells-not-permanents", "--depth", "1"]
QUICK_TRACE_NAME = "mtg-current--without-400.4a--spells-not-permanents.itf.json"


FUZZ_SCALE = int(os.environ.get("ZONEPROOF_FUZZ_SCALE", "1"))


def fuzz_settings(examples: int, shrink: bool = True):
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])
    return settings(
        max_examples=examples * FUZZ_SCALE,
        deadline=None,
        phases=phases,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.fixture(scope="session")
def trace_bytes(tmp_path_factory) -> bytes:
    """A real counterexample trace, made once per session."""
    out = tmp_path_factory.mktemp("seed-trace")
    code = main(["check", "--no-lint", "mtg-current", "-w", "400.8", "-p", "exile-in-exile", "--out", str(out)])
    assert code == 1
    return (out / TRACE_NAME).read_bytes()


@pytest.fixture
def cli(capsys, tmp_path, monkeypatch):
    """Run the command line in-process from an empty folder; return (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


def fresh_dir(tmp_path: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=tmp_path))


# `error: ...` or `path[:line[:column]]: error: ...`; a path may itself hold colons
ERROR_LINE = re.compile(r"^(.+: )?error: \S")


def accepts_or_refuses(call, *args):
    """Call a reader: it may succeed or raise InputError; any other exception fails the test."""
    try:
        return call(*args)
    except InputError as e:
        text = str(e)
        assert text and all(ERROR_LINE.match(line) for line in text.split("\n")), f"InputError not one error a line: {text!r}"
        return None


def assert_clean_exit(code, out: str, err: str, out_dir: Path | None = None) -> None:
    assert "Traceback" not in err and "Traceback" not in out
    if code == 2:
        assert err.endswith("\n") and all(line.startswith("zoneproof: ") and ERROR_LINE.match(line.removeprefix("zoneproof: "))
                                          for line in err[:-1].split("\n")), f"stderr is not one error a line: {err!r}"
        if out_dir is not None:
            assert not out_dir.exists() or not any(out_dir.iterdir()), f"files written despite exit 2: {list(out_dir.iterdir())}"
        return
    assert code in (0, 1, 3), f"exit code {code}; stdout: {out[-2000:]!r}; stderr: {err!r}"
    assert err == "", f"stderr on exit {code}: {err!r}"
    if out_dir is not None and out_dir.exists():
        for f in out_dir.iterdir():
            assert f.is_file() and f.name.endswith(".itf.json") and not f.name.startswith("."), f"unexpected file {f.name}"
            data = json.loads(f.read_text(encoding="utf-8"))  # complete, not half written
            assert data["states"] and data["#meta"]["tool"] == "zoneproof"


# ------------------------------------------------------------------------------ mutation strategies

NON_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3(", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82"]
TOML_TOKENS = [
    b'"', b"'", b"[", b"]", b"[[", b"]]", b"{", b"}", b"=", b",", b"\n", b"\r", b"\t", b"#", b'"""', b"\x00",
    b"\xef\xbb\xbf", b"[[rule]]\n", b"[[zone]]\n", b"[[card]]\n", b"[[step]]\n", b"[zone]\n", b"[step]\n",
    b'name = "x"\n', b'id = "400.3"\n', b"players = 3\n", b"1" + b"0" * 30, b"-1", b"nan", b"inf",
    b"1979-05-27T07:32:00Z", b"0x7fffffffffffffff", b'"\\u0000"', b'"\\ud800"', b"true", b"=[]\n",
]
PROPERTY_TOKENS = [
    b"(", b")", b"{", b"}", b",", b".", b":", b"'", b'"', b"#", b"\n", b"\x00", b"\xef\xbb\xbf", b"not ",
    b"forall c: object. ", b"exists p: player. ", b"property p {", b"cites 1.1", b'means "x"', b"always ",
    b"step ", b" -> ", b" <-> ", b" == ", b" in {", b"9" * 30, b"1000000", b"size(", b"action.", b"zone'(c)",
    b" and ", b" or ", b" + ", b" - ", b"exile", b"nowhere", b"c", b"p",
]
JSON_TOKENS = [
    b"[", b"]", b"{", b"}", b",", b":", b'"', b"null", b"true", b"false", b"1e999", b"-1", b"9" * 30, b"NaN",
    b'"#bigint"', b'"#map"', b'"#set"', b'"#unserializable"', b'"\\u0000"', b'"\\ud800"', b"\\", b"\x00", b" ",
]


@st.composite
def mutated_bytes(draw, seeds: list[bytes], tokens: list[bytes]) -> bytes:
    """A seed with one to four byte- or line-level mutations."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        n = len(data)
        op = draw(st.sampled_from(["truncate", "flip", "insert", "token", "delete", "non_utf8", "dup_line", "del_line", "swap_lines"]))
        if op == "truncate":
            del data[draw(st.integers(0, n)):]
        elif op == "flip" and n:
            i = draw(st.integers(0, n - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.binary(min_size=1, max_size=6))
        elif op == "token":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from(tokens))
        elif op == "delete" and n:
            i = draw(st.integers(0, n - 1))
            del data[i:i + draw(st.integers(1, 40))]
        elif op == "non_utf8":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from(NON_UTF8))
        elif op in ("dup_line", "del_line", "swap_lines"):
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if op == "dup_line":
                lines.insert(j, lines[i])
            elif op == "del_line":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def _paths(node, path=()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            found += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += _paths(v, path + (i,))
    return found


def _at(node, path):
    for step in path:
        node = node[step]
    return node


@st.composite
def mutated_tree(draw, seeds: list, values, keys, root_may_change: bool):
    """A parsed seed (TOML table or JSON value) with one to three structural mutations: a value
    replaced by one of another type, a key or element dropped, a value wrapped in a list, an
    unknown key added, an element duplicated."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        if not path and not root_may_change:
            continue
        target = _at(doc, path)
        op = draw(st.sampled_from(["replace", "replace", "replace", "drop", "wrap", "add_key", "duplicate"]))
        if op == "drop" and path:
            del _at(doc, path[:-1])[path[-1]]
            continue
        if op == "add_key" and isinstance(target, dict):
            target[draw(keys)] = draw(values)
            continue
        if op == "duplicate" and isinstance(target, list) and target:
            target.insert(draw(st.integers(0, len(target))), copy.deepcopy(draw(st.sampled_from(target))))
            continue
        new = [target] if op == "wrap" else draw(values)
        if path:
            _at(doc, path[:-1])[path[-1]] = new
        else:
            doc = new
    return doc


NAMES = sorted(
    {m.value for e in (Zone, Behaviour, ActionKind, CardType) for m in e}
    | {"A", "B", "C", "D", "E", "", " ", "libary", "Library", "exil", "400.3", "400.99", "999.9", "400.3a", "4.3",
       "mtg-current", "mtg-curent", "top", "bottom", "Bear", "Bolt", "A1", "A-sb1", "A-tok1", "Z9", "init", "builtin"}
)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)  # no lone surrogates: TOML cannot carry them
NUMBERS = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([10**30, -(10**30), -1, 0, 1, 99, 100, 2**63, -(2**63) - 1]))
TOML_LEAVES = st.one_of(
    st.sampled_from(NAMES), TEXT, NUMBERS, st.booleans(), st.floats(), st.dates(), st.datetimes(), st.times()
)
TOML_VALUES = st.recursive(
    TOML_LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES) | TEXT, inner, max_size=3)),
    max_leaves=5,
)
TOML_KEYS = st.sampled_from(["name", "id", "zones", "cites", "card", "step", "expect", "order", "cards", "n", "x", "restates", "players"]) | TEXT

JSON_LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(NAMES), st.text(max_size=6))
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=5), inner, max_size=3),
        st.builds(lambda v: {"#bigint": v}, st.one_of(NUMBERS.map(str), st.text(max_size=4), inner)),
        st.builds(lambda v: {"#set": v}, st.lists(inner, max_size=3)),
        st.builds(lambda v: {"#map": v}, st.lists(st.lists(inner, min_size=2, max_size=2), max_size=3)),
        st.builds(lambda v: {"#tup": v}, st.lists(inner, max_size=3)),
        st.builds(lambda v: {"#unserializable": v}, st.text(max_size=4)),
        st.builds(lambda t, v: {"tag": t, "value": v}, st.sampled_from(["Some", "None", "x"]), inner),
    ),
    max_leaves=5,
)
JSON_KEYS = st.sampled_from(["#meta", "#bigint", "#map", "tool", "states", "vars", "action", "objects", "x"]) | st.text(max_size=5)


def toml_bytes(doc: dict) -> bytes:
    return tomli_w.dumps(doc).encode("utf-8")


# ------------------------------------------------------------------------------ rule sets


@fuzz_settings(250)
@given(data=mutated_bytes([RULESET_BYTES], TOML_TOKENS))
def test_ruleset_reader_survives_byte_mutations(data):
    accepts_or_refuses(parse_ruleset, data, "fuzz.toml", "fuzz.toml")


@fuzz_settings(150)
@given(doc=mutated_tree([RULESET_DOC], TOML_VALUES, TOML_KEYS, root_may_change=False))
def test_ruleset_reader_survives_wrong_types_and_names(doc):
    accepts_or_refuses(parse_ruleset, toml_bytes(doc), "fuzz.toml", "fuzz.toml")


@fuzz_settings(10, shrink=False)
@given(data=st.one_of(mutated_bytes([RULESET_BYTES], TOML_TOKENS), mutated_tree([RULESET_DOC], TOML_VALUES, TOML_KEYS, False).map(toml_bytes)))
def test_ruleset_file_through_load_and_check(data, cli, tmp_path):
    work = fresh_dir(tmp_path)
    path = work / "fuzz.toml"
    path.write_bytes(data)
    accepts_or_refuses(load_ruleset, str(path))
    out_dir = work / "out"
    code, out, err = cli("check", "--no-lint", path, "--depth", "1", "-p", "spells-not-permanents", "-p", "outside-the-game", "--out", out_dir)
    assert_clean_exit(code, out, err, out_dir)


@st.composite
def reshaped_ruleset(draw) -> dict:
    """A rule set that stays well-formed but differs: rules and actions dropped or duplicated,
    behaviours and zones re-mapped. It reaches the encoder, so the check itself must not break."""
    doc = copy.deepcopy(RULESET_DOC)
    doc["name"] = "fuzzed"
    for key in ("rule", "action"):
        items = doc[key]
        keep = draw(st.lists(st.sampled_from(range(len(items))), min_size=1, max_size=len(items), unique=True))
        doc[key] = [items[i] for i in sorted(keep)]
    for rule in doc["rule"]:
        if draw(st.integers(0, 5)) == 0:
            rule["behaviour"] = draw(st.sampled_from([b.value for b in Behaviour]))
            rule.pop("zones", None)
            rule.pop("restates", None)
    return doc


@fuzz_settings(6, shrink=False)
@given(doc=reshaped_ruleset(), prop=st.sampled_from(["spells-not-permanents", "outside-the-game", "owner-zones", "one-zone"]))
def test_reshaped_ruleset_checks_cleanly(doc, prop, cli, tmp_path):
    work = fresh_dir(tmp_path)
    path = work / "fuzzed.toml"
    path.write_bytes(toml_bytes(doc))
    out_dir = work / "out"
    code, out, err = cli("check", "--no-lint", path, "--depth", "1", "-p", prop, "--out", out_dir)
    assert_clean_exit(code, out, err, out_dir)


# ------------------------------------------------------------------------------ property files


def parse_property_bytes(data: bytes):
    """What load_properties does with a file's bytes, without the file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None  # load_properties refuses these; the file variant below covers it
    return parse_properties(text, "fuzz.zp")


@fuzz_settings(150)
@given(data=mutated_bytes([PROPS_BYTES], PROPERTY_TOKENS))
def test_property_reader_survives_byte_mutations(data):
    accepts_or_refuses(parse_property_bytes, data)


@fuzz_settings(40)
@given(data=mutated_bytes([PROPS_BYTES], PROPERTY_TOKENS))
def test_property_file_through_load(data, tmp_path):
    path = fresh_dir(tmp_path) / "fuzz.zp"
    path.write_bytes(data)
    accepts_or_refuses(load_properties, path)


@st.composite
def property_with_body(draw) -> str:
    """One property whose body is built from the language's pieces, well-typed or not."""
    atoms = st.sampled_from([
        "c", "d", "p", "zone(c)", "pos(c)", "gen'(c)", "whose(c)", "owner(p)", "size(library, p)", "size(stack)",
        "size(hand)", "size(c)", "action.kind", "action.card", "action.n", "action.foo", "exile", "library",
        "nowhere", "outside", "land", "true", "false", "0", "1", "-1", "31", "32", "1000000", "10000000",
        "99999999999999999999", "foo", "forall", "zone", "type(c)", "is_token(c)",
    ])
    expr = draw(st.recursive(atoms, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from([" and ", " or ", " -> ", " <-> ", " == ", " != ", " < ", " >= ", " + ", " - ", " in "]), inner).map("".join),
        inner.map(lambda e: f"not {e}"),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"{{{e}}}"),
        st.tuples(st.sampled_from(["forall", "exists"]), st.sampled_from(["c: object", "p: player", "c: card, d: token", "c: thing", "c: object, c: object", "not: object"]), inner)
        .map(lambda t: f"{t[0]} {t[1]}. {t[2]}"),
    ), max_leaves=6))
    kind = draw(st.sampled_from(["always", "step"]))
    cites = draw(st.sampled_from(["400.1", "400.1, 400.3a", "", "4", "400.1,"]))
    return f'property fz-gen {{\n  cites {cites}\n  means "generated"\n  {kind} {expr}\n}}\n'


INT_TERMS = ["pos(c)", "gen(c)", "counters(c)", "size(library, p)", "size(hand, p)", "size(stack)", "size(exile)",
             "0", "1", "2", "31", "32", "100", "1000000"]
BOOL_TERMS = ["tapped(c)", "face_down(c)", "is_token(c)", "attached(c)", "zone(c) == exile", "zone(c) in {library, hand, graveyard}",
              "whose(c) == owner(c)", "controller(c) == p", "type(c) in {instant, sorcery}", "zone(c) != nowhere", "true", "false"]
STEP_TERMS = ["zone'(c) == battlefield", "gen'(c) != gen(c)", "action.kind == exile", "action.card == c", "action.player == p",
              "action.n > 0", "pos'(c) == pos(c)", "size'(stack) >= size(stack)"]


@st.composite
def typed_property(draw, kinds=("always", "step")) -> str:
    """One well-typed property (so that it reaches the evaluator and the encoder)."""
    kind = draw(st.sampled_from(kinds))
    ints = st.recursive(st.sampled_from(INT_TERMS), lambda i: st.tuples(i, st.sampled_from([" + ", " - "]), i).map("".join), max_leaves=3)
    comparisons = st.tuples(ints, st.sampled_from([" == ", " != ", " < ", " <= ", " > ", " >= "]), ints).map("".join)
    atoms = st.one_of(st.sampled_from(BOOL_TERMS + (STEP_TERMS if kind == "step" else [])), comparisons)
    body = draw(st.recursive(atoms, lambda b: st.one_of(
        b.map(lambda e: f"not ({e})"),
        st.tuples(b, st.sampled_from([" and ", " or ", " -> ", " <-> "]), b).map(lambda t: f"({t[0]}){t[1]}({t[2]})"),
    ), max_leaves=4))
    quantifier = draw(st.sampled_from(["forall", "exists"]))
    sort = draw(st.sampled_from(["object", "card", "token"]))
    return f'property fz-gen {{\n  cites 400.1\n  means "generated"\n  {kind} {quantifier} c: {sort}, p: player. {body}\n}}\n'


@fuzz_settings(120)
@given(text=st.one_of(property_with_body(), typed_property()))
def test_property_reader_survives_generated_bodies(text):
    accepts_or_refuses(parse_properties, text, "fuzz.zp")


@fuzz_settings(10, shrink=False)
@given(data=mutated_bytes([PROPS_BYTES], PROPERTY_TOKENS))
def test_property_file_through_check(data, cli, tmp_path):
    work = fresh_dir(tmp_path)
    path = work / "fuzz.zp"
    path.write_bytes(data)
    out_dir = work / "out"
    code, out, err = cli("check", "--no-lint", "mtg-current", "--properties", path, "--depth", "0", "--out", out_dir)
    assert_clean_exit(code, out, err, out_dir)


@fuzz_settings(15, shrink=False)
@given(text=typed_property(kinds=("always",)))
def test_generated_property_through_check(text, cli, tmp_path):
    """At depth 0 (the start of a game) to stay fast; the solver and the interpreter must agree."""
    work = fresh_dir(tmp_path)
    path = work / "fuzz.zp"
    path.write_text(text, encoding="utf-8")
    out_dir = work / "out"
    code, out, err = cli("check", "--no-lint", "mtg-current", "--properties", path, "-p", "fz-gen", "--depth", "0", "--out", out_dir)
    assert_clean_exit(code, out, err, out_dir)


# ------------------------------------------------------------------------------ scenarios


def parse_and_run_scenario(data: bytes):
    """What `zoneproof run` does with a scenario's bytes: decode, parse, run in the interpreter."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None  # load_scenario refuses these; the file variant below covers it
    scenario = parse_scenario(text, "fuzz.toml")
    return run_scenario(scenario)


@fuzz_settings(250)
@given(data=mutated_bytes(SCENARIO_BYTES, TOML_TOKENS))
def test_scenario_reader_survives_byte_mutations(data):
    accepts_or_refuses(parse_and_run_scenario, data)


@fuzz_settings(200)
@given(doc=mutated_tree(SCENARIO_DOCS, TOML_VALUES, TOML_KEYS, root_may_change=False))
def test_scenario_reader_survives_wrong_types_and_names(doc):
    accepts_or_refuses(parse_and_run_scenario, toml_bytes(doc))


@fuzz_settings(25, shrink=False)
@given(data=st.one_of(mutated_bytes(SCENARIO_BYTES, TOML_TOKENS), mutated_tree(SCENARIO_DOCS, TOML_VALUES, TOML_KEYS, False).map(toml_bytes)))
def test_scenario_file_through_load_and_run(data, cli, tmp_path):
    path = fresh_dir(tmp_path) / "fuzz.toml"
    path.write_bytes(data)
    accepts_or_refuses(load_scenario, path)
    code, out, err = cli("run", path)
    assert_clean_exit(code, out, err)


# ------------------------------------------------------------------------------ traces


def read_and_replay(path: Path):
    """What `zoneproof replay` does: read the trace, then re-execute it."""
    trace = read_trace(path)
    return replay_trace(trace, str(path))


@fuzz_settings(200)
@given(data=st.data())
def test_trace_reader_survives_byte_mutations(data, trace_bytes, tmp_path):
    raw = data.draw(mutated_bytes([trace_bytes], JSON_TOKENS))
    path = fresh_dir(tmp_path) / TRACE_NAME
    path.write_bytes(raw)
    accepts_or_refuses(read_and_replay, path)


@fuzz_settings(200)
@given(data=st.data())
def test_trace_reader_survives_wrong_types_and_dropped_keys(data, trace_bytes, tmp_path):
    doc = data.draw(mutated_tree([json.loads(trace_bytes)], JSON_VALUES, JSON_KEYS, root_may_change=True))
    path = fresh_dir(tmp_path) / TRACE_NAME
    path.write_text(json.dumps(doc), encoding="utf-8")
    accepts_or_refuses(read_and_replay, path)


@fuzz_settings(40, shrink=False)
@given(data=st.data(), command=st.sampled_from(["replay", "run"]))
def test_trace_file_through_replay(data, command, trace_bytes, cli, tmp_path):
    raw = data.draw(st.one_of(
        mutated_bytes([trace_bytes], JSON_TOKENS),
        mutated_tree([json.loads(trace_bytes)], JSON_VALUES, JSON_KEYS, True).map(lambda d: json.dumps(d).encode()),
    ))
    path = fresh_dir(tmp_path) / TRACE_NAME
    path.write_bytes(raw)
    code, out, err = cli(command, path)
    assert_clean_exit(code, out, err)


# ------------------------------------------------------------------------------ every reader: empty, truncated, deep


READERS = ["ruleset", "properties", "scenario", "trace"]


def read_file(reader: str, path: Path):
    if reader == "ruleset":
        return load_ruleset(str(path))
    if reader == "properties":
        return load_properties(path)
    if reader == "scenario":
        return run_scenario(load_scenario(path))
    return read_and_replay(path)


def cli_for(reader: str, path: Path, out_dir: Path) -> list:
    if reader == "ruleset":
        return ["check", "--no-lint", path, "--depth", "0", "-p", "one-zone", "--out", out_dir]
    if reader == "properties":
        return ["check", "--no-lint", "mtg-current", "--properties", path, "--depth", "0", "-p", "one-zone", "--out", out_dir]
    if reader == "scenario":
        return ["run", path]
    return ["replay", path]


SUFFIX = {"ruleset": ".toml", "properties": ".zp", "scenario": ".toml", "trace": ".itf.json"}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("content", [b"", b"\n", b"\xef\xbb\xbf", b"\x00", b"\xff\xfe", b"   \t\r\n"], ids=repr)
def test_empty_and_blank_files_are_refused(reader, content, cli, tmp_path):
    path = tmp_path / f"empty{SUFFIX[reader]}"
    path.write_bytes(content)
    with pytest.raises(InputError):
        read_file(reader, path)
    out_dir = tmp_path / "out"
    code, out, err = cli(*cli_for(reader, path, out_dir))
    assert code == 2
    assert_clean_exit(code, out, err, out_dir)


@fuzz_settings(60)
@given(data=st.data(), reader=st.sampled_from(READERS))
def test_truncated_files(data, reader, trace_bytes, tmp_path):
    seed = {"ruleset": RULESET_BYTES, "properties": PROPS_BYTES, "trace": trace_bytes}.get(reader)
    if seed is None:
        seed = data.draw(st.sampled_from(SCENARIO_BYTES))
    cut = data.draw(st.integers(0, len(seed)))
    path = fresh_dir(tmp_path) / f"cut{SUFFIX[reader]}"
    path.write_bytes(seed[:cut])
    accepts_or_refuses(read_file, reader, path)


def deep(kind: str, depth: int) -> tuple[str, bytes]:
    """(reader, content) nested `depth` levels deep."""
    if kind == "json-arrays":
        return "trace", b"[" * depth + b"]" * depth
    if kind == "json-in-trace":
        return "trace", b'{"vars": [], "states": [{"action": ' + b"[" * depth + b"]" * depth + b"}]}"
    if kind == "itf-sets":
        return "trace", b'{"vars": [], "states": [{"action": ' + b'{"#set": [' * depth + b"]}" * depth + b"}]}"
    if kind == "toml-arrays-ruleset":
        return "ruleset", b"name = " + b"[" * depth + b"]" * depth + b"\n"
    if kind == "toml-tables-ruleset":
        return "ruleset", b"name = " + b"{a = " * depth + b"1" + b"}" * depth + b"\n"
    if kind == "toml-arrays-scenario":
        return "scenario", b'name = "x"\ncites = ' + b"[" * depth + b"]" * depth + b"\n"
    body = {
        "parens": "(" * depth + "true" + ")" * depth,
        "nots": "not " * depth + "true",
        "ands": " and ".join(["true"] * depth),
        "implies": " -> ".join(["true"] * depth),
        "quantifiers": "".join(f"forall v{i}: object. " for i in range(depth)) + "true",
        "sums": "0" + " + 1" * depth + " > 0",
    }[kind]
    return "properties", f'property fz-deep {{\n  cites 400.1\n  means "deep"\n  always {body}\n}}\n'.encode()


DEEP_KINDS = ["json-arrays", "json-in-trace", "itf-sets", "toml-arrays-ruleset", "toml-tables-ruleset",
              "toml-arrays-scenario", "parens", "nots", "ands", "implies", "quantifiers", "sums"]


@pytest.mark.parametrize("kind", DEEP_KINDS)
def test_deep_nesting_5000(kind, cli, tmp_path):
    reader, content = deep(kind, 5000)
    path = tmp_path / f"deep{SUFFIX[reader]}"
    path.write_bytes(content)
    accepts_or_refuses(read_file, reader, path)
    out_dir = tmp_path / "out"
    code, out, err = cli(*cli_for(reader, path, out_dir))
    assert_clean_exit(code, out, err, out_dir)


@fuzz_settings(20)
@given(kind=st.sampled_from(DEEP_KINDS), depth=st.integers(50, 3000))
def test_deep_nesting_any_depth(kind, depth, tmp_path):
    reader, content = deep(kind, depth)
    path = fresh_dir(tmp_path) / f"deep{SUFFIX[reader]}"
    path.write_bytes(content)
    accepts_or_refuses(read_file, reader, path)


# ------------------------------------------------------------------------------ the output folder


@pytest.mark.parametrize("where", ["below-a-file", "is-a-file", "trace-path-is-a-folder"])
def test_check_with_unusable_out_folder_fails_in_one_line(where, cli, tmp_path):
    (tmp_path / "a-file").write_text("x")
    out_dir = {"below-a-file": tmp_path / "a-file" / "sub", "is-a-file": tmp_path / "a-file", "trace-path-is-a-folder": tmp_path / "cx"}[where]
    if where == "trace-path-is-a-folder":
        (out_dir / QUICK_TRACE_NAME).mkdir(parents=True)
    code, out, err = cli("check", "--no-lint", "mtg-current", *QUICK_VIOLATION, "--out", out_dir)
    assert code == 2, f"exit code {code}"
    assert err.startswith("zoneproof: ") and err.count("\n") == 1 and "Traceback" not in err
    if where == "trace-path-is-a-folder":
        assert [p.name for p in out_dir.iterdir()] == [QUICK_TRACE_NAME]  # no temporary file left behind


# ------------------------------------------------------------------------------ crashes found (minimal inputs)
#
# Each case is the smallest input found for one crash. They fail until the reader is fixed.

HUGE_INT = "1" * 4301  # one digit more than Python's int-from-string limit


@pytest.mark.parametrize("content", [
    pytest.param(f"a = {HUGE_INT}\n".encode(), id="integer-of-4301-digits"),
    pytest.param(b"a = " + b"[" * 1000 + b"]" * 1000 + b"\n", id="1000-nested-arrays"),
    pytest.param(b"a = " + b"{a = " * 1000 + b"1" + b"}" * 1000 + b"\n", id="1000-nested-inline-tables"),
])
def test_crash_ruleset_toml(content, cli, tmp_path):
    accepts_or_refuses(parse_ruleset, content, "fuzz.toml", "fuzz.toml")
    path = tmp_path / "fuzz.toml"
    path.write_bytes(content)
    code, out, err = cli("check", "--no-lint", path, "--depth", "0", "--out", tmp_path / "out")
    assert_clean_exit(code, out, err, tmp_path / "out")


CARD = 'name = "s"\n[[card]]\nname = "X"\nowner = "A"\n'


@pytest.mark.parametrize("text", [
    pytest.param(f"a = {HUGE_INT}\n", id="integer-of-4301-digits"),
    pytest.param("a = " + "[" * 1000 + "]" * 1000 + "\n", id="1000-nested-arrays"),
    pytest.param('name = "s"\nruleset = "\\u0000.toml"\n', id="ruleset-path-with-NUL"),
    pytest.param(CARD + '[[step]]\naction = "shuffle"\norder = []\n', id="shuffle-order-without-player"),
    pytest.param(CARD + '[[step]]\naction = "shuffle_hand_into_library"\norder = []\n', id="shuffle-hand-order-without-player"),
    pytest.param(CARD + '[[step]]\naction = "reorder"\norder = []\n', id="reorder-order-without-zone"),
    pytest.param(CARD + '[[step]]\naction = "draw"\ncards = 0\n', id="cards-not-a-list"),
])
def test_crash_scenario(text, cli, tmp_path):
    accepts_or_refuses(parse_scenario, text, "fuzz.toml")
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("run", path)
    assert_clean_exit(code, out, err)


def _trace_edit(name: str, doc: dict) -> None:
    meta, state0, state1 = doc["#meta"], doc["states"][0], doc["states"][1]
    if name == "unserializable-whose":
        state0["objects"]["#map"][0][1]["whose"] = {"#unserializable": ""}
    elif name == "unserializable-card":
        state1["action"]["card"] = {"#unserializable": ""}
    elif name == "order-keys-of-two-types":
        state1["action"]["order"] = {"#map": [[0, []], ["", []]]}
    elif name == "ruleset-origin-with-NUL":
        meta["ruleset"]["origin"] = "\u0000.toml"
    elif name == "ruleset-origin-lone-surrogate":
        meta["ruleset"]["origin"] = "\ud800.toml"
    elif name == "ruleset-origin-with-newline":
        meta["ruleset"]["origin"] = "\n.toml"
    elif name == "ruleset-name-lone-surrogate":
        meta["ruleset"].update(origin=str(RULESET_PATH), name="\ud800", sha256=hashlib.sha256(RULESET_BYTES).hexdigest())
    elif name == "a-list-among-the-vars":
        doc["vars"][0] = []


@pytest.mark.parametrize("edit", [
    "integer-of-4301-digits", "unserializable-whose", "unserializable-card", "order-keys-of-two-types",
    "ruleset-origin-with-NUL", "ruleset-origin-lone-surrogate", "ruleset-origin-with-newline", "ruleset-name-lone-surrogate",
    "a-list-among-the-vars",
])
def test_crash_trace(edit, trace_bytes, cli, tmp_path):
    path = tmp_path / TRACE_NAME
    if edit == "integer-of-4301-digits":
        path.write_text(HUGE_INT, encoding="utf-8")  # the whole file: one JSON number
    else:
        doc = json.loads(trace_bytes)
        _trace_edit(edit, doc)
        path.write_text(json.dumps(doc), encoding="utf-8")  # ASCII: \u escapes carry NUL and the surrogate
    accepts_or_refuses(read_and_replay, path)
    code, out, err = cli("replay", path)
    assert_clean_exit(code, out, err)


@pytest.mark.parametrize("body", ["32 > 0", "forall c: object. pos(c) < 100"])
def test_crash_property_integer_beyond_bit_width(body, cli, tmp_path):
    """Integers up to 10**6 are accepted, but the encoder's integers are a few bits wide: Z3 finds a
    'violation' that the interpreter does not, and the check ends in verdict error, exit code 4."""
    path = tmp_path / "p.zp"
    path.write_text(f'property fz {{\n  cites 400.1\n  means "x"\n  always {body}\n}}\n', encoding="utf-8")
    code, out, err = cli("check", "--no-lint", "mtg-current", "--properties", path, "-p", "fz", "--depth", "0", "--out", tmp_path / "out")
    assert_clean_exit(code, out, err, tmp_path / "out")


def test_crash_ruleset_name_too_long_for_a_file_name(cli, tmp_path):
    """A rule set name is unbounded, but it becomes part of the trace's file name."""
    path = tmp_path / "long.toml"
    path.write_bytes(RULESET_BYTES.replace(b'name = "mtg-current"', b'name = "' + b"a" * 250 + b'"', 1))
    code, out, err = cli("check", "--no-lint", path, *QUICK_VIOLATION, "--out", tmp_path / "out")
    assert_clean_exit(code, out, err, tmp_path / "out")


def test_crash_property_id_too_long_for_a_file_name(cli, tmp_path):
    path = tmp_path / "p.zp"
    path.write_text(f'property {"p" * 250} {{\n  cites 400.1\n  means "x"\n  always false\n}}\n', encoding="utf-8")
    code, out, err = cli("check", "--no-lint", "mtg-current", "--properties", path, "-p", "p" * 250, "--depth", "0", "--out", tmp_path / "out")
    assert_clean_exit(code, out, err, tmp_path / "out")

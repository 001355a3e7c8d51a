"""dumps parity with orjson 3.13, byte for byte, on seeded random documents
under every combination of the options the writer honours, with and without
a default= callback. Ints beyond 64 bits are the one extension: isojson
writes their digits (json.dumps's) where orjson raises."""

import pytest
from hypothesis import given, strategies as st

import _util
from _util import isojson, orjson

SEED = 20261129
DOCS_PER_KIND = 40
COMBINATIONS = _util.option_combinations()


def _documents():
    gen = _util.Gen(SEED)
    docs = []
    for kind in _util.DOC_KINDS:
        for i in range(DOCS_PER_KIND):
            docs.append((f"{kind}#{i}", gen.document(kind, depth=gen.rng.randint(1, 6))))
    # Scalars and tiny containers at the top level.
    for i in range(60):
        docs.append((f"scalar#{i}", gen.scalar(big=i % 3 == 0)))
    docs += [("empty-list", []), ("empty-dict", {}), ("empty-tuple", ()), ("empty-str", ""),
             ("nested-empties", {"a": [], "b": {}, "c": [[], {}], "d": [{}]})]
    # Nesting at orjson's limit (254 levels write, 255 raise "Recursion limit reached").
    docs += [("depth-254", _util.nested(254, 1)), ("depth-255", _util.nested(255, 1)),
             ("dict-depth-254", _dict_nested(253)), ("dict-depth-255", _dict_nested(254))]
    return docs


def _dict_nested(depth):
    v = {"leaf": [1, 2.5, "x"]}
    for i in range(depth - 1):
        v = {f"k{i % 7}": v}
    return v


DOCS = _documents()


@pytest.mark.parametrize("option", [c[1] for c in COMBINATIONS], ids=[c[0] for c in COMBINATIONS])
def test_dumps_matches_orjson(option):
    failures = []
    for name, doc in DOCS:
        for dname, dflt in (("no default", None), ("default", _util.default)):
            diff = _util.check_dumps(doc, option, dflt)
            if diff:
                failures.append((f"{name} ({dname})", diff))
    _util.report(failures, 2 * len(DOCS), "documents")


def test_option_none_and_zero_are_the_default():
    gen = _util.Gen(SEED + 1)
    for _ in range(50):
        doc = gen.document("plain")
        want = _util.expected_dumps(doc)
        assert _util.outcome(isojson.dumps, doc) == want
        assert _util.outcome(isojson.dumps, doc, option=0) == want
        assert _util.outcome(isojson.dumps, doc, None, None) == want


def test_large_documents_match_orjson():
    """Big outputs grow the output buffer many times."""
    gen = _util.Gen(SEED + 2)
    doc = [gen.document("plain", depth=5) for _ in range(400)]
    big_str = gen.chars(300_000)
    for option in (0, orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS, orjson.OPT_APPEND_NEWLINE):
        assert _util.check_dumps(doc, option) is None
        assert _util.check_dumps(big_str, option) is None
        assert _util.check_dumps({"s": [big_str] * 3}, option) is None
    many_keys = {gen.text(10) + str(i): i for i in range(30_000)}
    for option in (orjson.OPT_SORT_KEYS, orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2, orjson.OPT_NON_STR_KEYS):
        assert _util.check_dumps(many_keys, option) is None
        assert _util.check_dumps({i: v for i, v in enumerate(many_keys)}, option | orjson.OPT_NON_STR_KEYS) is None


def test_every_float_bit_pattern_class():
    """Floats one by one (not hidden in a document): shortest round-trip
    digits, exponent form, subnormals, NaN and infinities as null."""
    gen = _util.Gen(SEED + 3)
    values = list(_util.FLOAT_EDGES) + [gen.float_() for _ in range(20_000)]
    failures = [(repr(v), d) for v in values if (d := _util.check_dumps(v)) or (d := _util.check_dumps([v]))]
    _util.report(failures, len(values), "floats")


def test_every_int_edge():
    values = list(_util.INT_EDGES) + list(_util.BIG_INT_EDGES)
    values += [v + d for v in (1 << 53, 1 << 63, 1 << 64, -(1 << 53), -(1 << 63)) for d in (-2, -1, 0, 1, 2)]
    failures = []
    for v in values:
        for option in (0, orjson.OPT_STRICT_INTEGER):
            for obj in (v, [v], {"k": v}, _util.MyInt(v)):
                if d := _util.check_dumps(obj, option):
                    failures.append((f"{obj!r} option={option}", d))
    _util.report(failures, len(values) * 8, "ints")


def test_big_ints_are_written_as_their_digits():
    """isojson's one extension over orjson: an int beyond 64 bits is written
    exactly (orjson raises "Integer exceeds 64-bit range")."""
    for v in _util.BIG_INT_EDGES:
        assert isojson.dumps(v) == str(v).encode()
        assert isojson.dumps({"v": [v]}) == b'{"v":[' + str(v).encode() + b"]}"


def test_strings_one_by_one():
    gen = _util.Gen(SEED + 4)
    values = [chr(c) for c in range(0, 0x800)] + [gen.text() for _ in range(5_000)]
    values += ["\U0010FFFF", "\uFFFF", "\uFEFF", "\x00" * 100, "\\" * 65, '"' * 33, "é" * 1000, "😀" * 1000]
    failures = []
    for v in values:
        for obj in (v, [v], {v: v}, _util.MyStr(v)):
            if d := _util.check_dumps(obj, orjson.OPT_SORT_KEYS):
                failures.append((repr(v)[:60], d))
    _util.report(failures, len(values) * 4, "strings")


def test_fragments_match_orjson():
    """Fragment contents are written verbatim, never indented or checked."""
    for contents in (b"1", b"[1,2]", b'{"a": 1}', '["str"]', b"", b"not json", "é\U0001F600", b"\xff"):
        for option in (0, orjson.OPT_INDENT_2):
            got = isojson.dumps({"f": [isojson.Fragment(contents)]}, option=option)
            want = orjson.dumps({"f": [orjson.Fragment(contents)]}, option=option)
            assert got == want, (contents, option)


@_util.hypothesis_settings(200)
@given(doc=_util.hypothesis_values(), option=st.sampled_from([c[1] for c in COMBINATIONS]))
def test_dumps_matches_orjson_hypothesis(doc, option):
    """Property form, for a shrunk minimal example when something differs."""
    assert _util.check_dumps(doc, option) is None


def test_sort_keys_orders_like_orjson():
    """Keys from every UTF-8 length and CPython string kind in one dict:
    code point order (which UTF-16 order is not: U+FFFF vs U+10000), common
    prefixes, empty keys, escapes that sort differently from their output."""
    gen = _util.Gen(SEED + 5)
    fixed = ["", "a", "ab", "a\x00", "a\x7f", "\x1f", '"', "\\", "é", "\u00ff", "\u0100", "\u07ff", "\u0800",
             "\ud7ff", "\ue000", "\uffff", "\U00010000", "\U0010ffff", "z" * 64, "z" * 65, "zz\U0001f600", "zz\uffff"]
    docs = [dict.fromkeys(fixed, 1)]
    for _ in range(200):
        docs.append({gen.text(6): i for i in range(gen._between(2, 30))})
        docs.append({gen.rng.choice(fixed) + gen.text(3): [i] for i in range(gen._between(2, 30))})
    failures = []
    for i, doc in enumerate(docs):
        for option in (orjson.OPT_SORT_KEYS, orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2,
                       orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS):
            if d := _util.check_dumps(doc, option):
                failures.append((f"#{i} option={option}", d))
    _util.report(failures, 3 * len(docs), "dicts")


class _Node:
    def __init__(self, gen, depth):
        self.doc = gen.document("plain", depth=2)
        self.child = _Node(gen, depth - 1) if depth else None


def _reentrant_default(mod):
    """A default= that calls the same module's dumps and loads while the
    outer dumps is in progress (the nested call must not disturb its state)."""
    def default(obj):
        if isinstance(obj, _Node):
            inner = mod.dumps(obj.doc, option=mod.OPT_SORT_KEYS)
            return {"inner": mod.Fragment(inner), "back": mod.loads(inner), "child": obj.child}
        raise TypeError
    return default


def test_reentrant_default():
    gen = _util.Gen(SEED + 6)
    failures = []
    for i in range(60):
        doc = [_Node(gen, gen._between(0, 4)) for _ in range(gen._between(1, 4))]
        doc.append(gen.document("plain", depth=3))
        for option in (0, orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS):
            got = _util.outcome(isojson.dumps, doc, default=_reentrant_default(isojson), option=option)
            want = _util.outcome(orjson.dumps, doc, default=_reentrant_default(orjson), option=option)
            if got != want:
                failures.append((f"#{i} option={option}", _util.first_difference(got[1], want[1])
                                 if got[0] == want[0] == "ok" else f"{got!r:.300} vs {want!r:.300}"))
    _util.report(failures, 120, "documents")

"""loads parity with orjson 3.13: the same accept/reject decision and the same
objects (types, float bits, dict key order) on JSONTestSuite, the corpus,
the roundtrip/transform documents and seeded random documents and texts, for
every input type. The one extension: an integer literal beyond 64 bits is
an exact int in isojson where orjson returns a float (accept/reject stays
orjson's: a literal beyond the float range is rejected by both)."""

import array
import os

import pytest
from hypothesis import given, strategies as st

import _util
from _util import isojson, orjson

SEED = 7_011_2026

INPUT_TYPES = {
    "bytes": lambda b: b,
    "bytearray": bytearray,
    "memoryview": memoryview,
    # A contiguous memoryview that is a slice of a larger buffer.
    "memoryview-slice": lambda b: memoryview(b"  xx" + b + b"yy  ")[4:4 + len(b)],
    "memoryview-bytearray": lambda b: memoryview(bytearray(b)),
    "memoryview-array": lambda b: memoryview(array.array("B", b)),
    # str input: invalid UTF-8 becomes lone surrogates, which must be rejected.
    "str": lambda b: b.decode("utf-8", "surrogateescape"),
}


def _files(directory):
    return sorted((name, os.path.join(directory, name)) for name in os.listdir(directory)
                  if name.endswith(".json"))


def _read(path):
    with open(path, "rb") as f:
        return f.read()


SUITE = [(name, _read(path)) for name, path in _files(_util.SUITE_DIR)]


def test_suite_is_complete():
    assert len(SUITE) == 318
    assert sum(name.startswith("y_") for name, _ in SUITE) == 95
    assert sum(name.startswith("n_") for name, _ in SUITE) == 188


@pytest.mark.parametrize("input_type", INPUT_TYPES)
def test_json_test_suite(input_type):
    convert = INPUT_TYPES[input_type]
    failures = []
    for name, data in SUITE:
        d = _util.check_loads(convert(data))
        if d:
            failures.append((name, d))
    _util.report(failures, len(SUITE), "JSONTestSuite cases")


def test_json_test_suite_decisions():
    """y_ accepted and n_ rejected, whatever the oracle says about them."""
    wrong = []
    for name, data in SUITE:
        ok = _util.outcome(isojson.loads, data)[0] == "ok"
        if name.startswith("y_") and not ok or name.startswith("n_") and ok:
            wrong.append(name)
    assert not wrong, f"wrong accept/reject decision on {wrong}"


@pytest.mark.parametrize("name", [n for n, _ in _files(_util.CORPUS_DIR)])
def test_corpus(name):
    data = _read(os.path.join(_util.CORPUS_DIR, name))
    for input_type, convert in INPUT_TYPES.items():
        assert _util.check_loads(convert(data)) is None, input_type
    # And back out: orjson's bytes for the parsed corpus.
    assert isojson.dumps(isojson.loads(data)) == orjson.dumps(orjson.loads(data))


@pytest.mark.parametrize("directory", ["roundtrip", "transform"])
def test_testdata_documents(directory):
    files = _files(os.path.join(_util.TESTDATA, directory))
    assert files
    failures = []
    for name, path in files:
        data = _read(path)
        for input_type, convert in INPUT_TYPES.items():
            if d := _util.check_loads(convert(data)):
                failures.append((f"{name} ({input_type})", d))
    _util.report(failures, len(files) * len(INPUT_TYPES), "documents")


@pytest.mark.parametrize("input_type", ["bytes", "str"])
def test_random_texts(input_type):
    """Hand-spelled JSON: whitespace everywhere, escapes (surrogate pairs
    included), exponents near the float limits, long mantissas, duplicate
    keys, ints beyond 64 bits."""
    gen = _util.TextGen(SEED)
    failures = []
    n = 3000
    for i in range(n):
        text = gen.document(depth=gen.rng.randint(0, 5))
        data = text if input_type == "str" else text.encode()
        if d := _util.check_loads(data):
            failures.append((f"#{i} {text[:80]!r}", d))
    _util.report(failures, n, "random texts")


def test_random_texts_are_mostly_valid():
    """The generator is meant to produce valid JSON (so the comparison
    covers values, not only errors); check it does."""
    gen = _util.TextGen(SEED)
    ok = sum(_util.outcome(orjson.loads, gen.document(depth=gen.rng.randint(0, 5)).encode())[0] == "ok"
             for _ in range(500))
    assert ok > 350


@pytest.mark.parametrize("kind", list(_util.DOC_KINDS))
def test_random_documents_round_trip(kind):
    """Documents written by orjson (indented or not) parse to what orjson
    parses; big ints come back exact."""
    gen = _util.Gen(SEED + 1)
    failures = []
    n = 150
    for i in range(n):
        doc = _util.fragmentize_big_ints(gen.document(kind, depth=gen.rng.randint(1, 6)))
        option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_INDENT_2 if i % 2 else 0)
        data = orjson.dumps(doc, default=_util.default, option=option)
        for input_type in ("bytes", "str", "memoryview"):
            if d := _util.check_loads(INPUT_TYPES[input_type](data)):
                failures.append((f"#{i} ({input_type})", d))
    _util.report(failures, 3 * n, "documents")


def test_big_integers_are_exact():
    for v in _util.BIG_INT_EDGES + (_util.UINT64_MAX, _util.INT64_MIN, 10**300, -(10**308)):
        text = str(v)
        for data, unwrap in ((text, lambda x: x), (text.encode(), lambda x: x),
                             (f"[{text}]", lambda x: x[0]), (f'{{"k": {text}}}'.encode(), lambda x: x["k"])):
            got = unwrap(isojson.loads(data))
            assert type(got) is int and got == v, f"loads({data!r:.60}) gave {got!r:.60}"


def test_integers_beyond_the_float_range_are_rejected_like_orjson():
    for text in ("1" + "0" * 309, "-" + "9" * 400, "[1, " + "1" * 1000 + "]"):
        for data in (text, text.encode()):
            assert _util.outcome(isojson.loads, data) == _util.outcome(orjson.loads, data)


def test_large_documents():
    """Large arrays, objects, strings and many repeated keys."""
    gen = _util.Gen(SEED + 2)
    docs = [
        [gen.document("plain", depth=4) for _ in range(600)],
        {f"key{i}": i for i in range(50_000)},
        [{"id": i, "name": "x" * (i % 50), "v": i / 7} for i in range(20_000)],
        gen.chars(500_000),
        list(range(100_000)),
    ]
    for doc in docs:
        for option in (0, orjson.OPT_INDENT_2):
            data = orjson.dumps(doc, option=option)
            assert _util.check_loads(data) is None
            assert _util.check_loads(data.decode()) is None


def test_string_input_kinds():
    """str input in each of CPython's representations (ASCII, Latin-1, UCS-2,
    UCS-4) parses the same as its UTF-8 bytes."""
    for text in ('["ascii"]', '["caf\u00e9"]', '{"\u4e2d": "\u6587"}', '["\U0001F600", "\u00ff"]'):
        assert _util.check_loads(text) is None
        assert _util.same_value(isojson.loads(text), isojson.loads(text.encode())) is None


def test_result_types_are_exact():
    v = isojson.loads(b'{"a": [1, 1.5, "s", true, false, null, {}, []], "b": -0.0, "c": 18446744073709551615}')
    assert type(v) is dict and type(v["a"]) is list
    assert [type(x) for x in v["a"]] == [int, float, str, bool, bool, type(None), dict, list]
    assert str(v["b"]) == "-0.0" and v["c"] == 18446744073709551615 and type(v["c"]) is int


@_util.hypothesis_settings(200)
@given(doc=_util.hypothesis_values(), indent=st.booleans())
def test_loads_matches_orjson_hypothesis(doc, indent):
    """Property form, for a shrunk minimal example when something differs."""
    data = orjson.dumps(_util.fragmentize_big_ints(doc), option=orjson.OPT_INDENT_2 if indent else 0)
    assert _util.check_loads(data) is None
    assert _util.check_loads(data.decode()) is None


def test_number_spellings():
    """Numbers one by one, in the spellings that stress float parsing:
    shortest repr, 17 and 20+ significant digits, halfway cases, exponents
    at the edges of the range, integers around 2**53, 2**63 and 2**64."""
    gen = _util.Gen(SEED + 3)
    texts = []
    for _ in range(4000):
        f = gen.float_()
        if f != f or f in (float("inf"), float("-inf")):
            continue
        texts += [repr(f), "%.17g" % f, "%.25e" % f, "%.3e" % f]
    for _ in range(3000):
        digits = "".join(gen.rng.choices("0123456789", k=gen._between(1, 40))).lstrip("0") or "0"
        exp = gen._between(-350, 330)
        texts += [digits, f"{digits}e{exp}", f"-0.{digits}E+{abs(exp)}", f"{digits[:1]}.{digits[1:] or '0'}e{exp}"]
    for base in (1 << 53, 1 << 63, 1 << 64, 10**19):
        for d in range(-3, 4):
            texts += [str(base + d), str(-(base + d)), f"{base + d}.0", f"{base + d}e0"]
    texts += ["2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
              "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
              "9007199254740993", "9007199254740993.0", "0.1e-400", "1e-400", "-0e0", "-0.0", "0e999", "1e308", "1e309"]
    failures = []
    for t in texts:
        for data in (t, f"[{t}]".encode()):
            if d := _util.check_loads(data):
                failures.append((repr(data), d))
    _util.report(failures, 2 * len(texts), "numbers")

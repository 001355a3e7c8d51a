"""Every parser backend compiled into the engine, chosen with ISOJSON_BACKEND,
behaves exactly like the scalar one through the Python API.

One child Python per backend (ISOJSON_BACKEND=<name>) loads the same batch of
inputs — the 318 JSONTestSuite cases, the four corpus documents, seeded
random documents, seeded mutations of them (mostly invalid), and hand-picked
edges (nesting limit, number ranges, UTF-8 and SIMD block boundaries) — as
bytes and, where they decode, as str, once in order and once from four
threads at a time, and hands back every outcome (the object, or the
exception's type, message, msg/pos/lineno/colno). The parent checks that
each backend is the one in use, that its outcomes equal the scalar
backend's, and that its accept/reject decisions are orjson's.

A backend listed in isojson.backends that cannot run is a failure, except
the documented case (README, "Backends"): the engine reports it as
unsupported on this CPU, `ValueError: ISOJSON_BACKEND: backend "<name>" is
not supported on this CPU: compiled in are ...`, on every use.
"""

import base64
import os
import pickle
import platform
import random

import pytest

import _util
from _util import isojson, orjson

SEED = 4_2026_1130
REFERENCE = "scalar"
BACKENDS = tuple(isojson.backends)
# The parsers of a default build on x86-64, in rank order. The Go registry is
# the one source: allbackends/list_test.go fails when this line disagrees
# with it.
X86_64_BACKENDS = ("scalar", "simdjson", "sonic", "fastjson")
CHILD_TIMEOUT = 240  # seconds; the batch takes a few seconds on a loaded machine


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _json_files(directory):
    return [(name, _read(os.path.join(directory, name)))
            for name in sorted(os.listdir(directory)) if name.endswith(".json")]


# ---------------------------------------------------------------------------
# The inputs: one list of (case id, bytes) per group.


def _random_documents(n):
    """Seeded JSON texts, half as orjson writes them (integers beyond 64
    bits too), half as people do: odd whitespace, escapes, long mantissas,
    exponents (some beyond the float range, so rejected), duplicate keys
    spelled with escapes."""
    out = []
    for i in range(n):
        if i % 2:
            gen = _util.TextGen(SEED + i)
            doc = gen.document(depth=1 + i % 5).encode("utf-8")
        else:
            gen = _util.Gen(SEED + i)
            value = _util.fragmentize_big_ints(gen.document("big_ints" if i % 4 else "plain", depth=1 + i % 5))
            doc = orjson.dumps(value, option=orjson.OPT_INDENT_2 if i % 3 == 0 else 0)
        out.append((f"random-{i}", doc))
    return out


# Pieces a mutation inserts or overwrites with: structure, literals' and
# numbers' characters, escapes, control characters, and invalid UTF-8 (lone
# continuation and lead bytes, overlong, encoded surrogate, beyond U+10FFFF).
_MUTATION_PIECES = (
    b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"\t", b"\n", b"\x00", b"\x1f", b"\x7f",
    b"0", b"1", b"-", b"+", b".", b"e", b"E", b"a", b"t", b"n", b"f", b"x",
    b"\\u", b"\\ud800", b"\\udc00", b"\\x", b"NaN", b"Infinity", b"-Infinity", b"true", b"null", b"01", b"1.", b".5",
    b"\xff", b"\x80", b"\xc3", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98",
)


def _mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(7)
        at = rng.randint(0, len(data))
        piece = rng.choice(_MUTATION_PIECES)
        if op == 0:  # truncate
            del data[at:]
        elif op == 1 and data:  # delete a few bytes
            del data[at:at + rng.randint(1, 3)]
        elif op == 2:  # insert
            data[at:at] = piece
        elif op == 3 and data:  # overwrite
            data[at:at + len(piece)] = piece
        elif op == 4:  # trailing garbage
            data += rng.choice((b" x", b",", b",1", b"}", b"]", b"[]", b'"', b"\x00"))
        elif op == 5 and data:  # a slice repeated
            end = rng.randint(at, min(len(data), at + 16))
            data[end:end] = data[at:end]
        else:  # a byte bit-flipped
            if data:
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
    return bytes(data)


def _mutated_documents(n):
    rng = random.Random(SEED ^ 0x5EED)
    bases = _random_documents(64)
    return [(f"mutated-{i}", _mutate(rng, rng.choice(bases)[1])) for i in range(n)]


def _edges():
    """Hand-picked inputs where parsers built differently tend to disagree."""
    e = {}
    # Nesting: orjson (and every backend) accepts 1024 levels, not 1025.
    for depth in (1023, 1024, 1025, 1100):
        e[f"array-depth-{depth}"] = b"[" * depth + b"]" * depth
        e[f"object-depth-{depth}"] = b'{"a":' * (depth - 1) + b"{}" + b"}" * (depth - 1)
        e[f"unclosed-depth-{depth}"] = b"[" * depth
    # Empty and whitespace-only documents, BOM, whitespace orjson refuses.
    for name, doc in (("empty", b""), ("space", b" "), ("newlines", b"\n\r\n"), ("bom", b"\xef\xbb\xbf[]"),
                      ("formfeed", b"\x0c[]"), ("nbsp", b"\xc2\xa0[]"), ("nul-after", b"[]\x00"),
                      ("two-values", b"[] []"), ("ws-all", b" \t\r\n[ \t\r\n1 \t\r\n] \t\r\n")):
        e[name] = doc
    # Numbers at the edges of int64/uint64, float range, precision and syntax.
    numbers = (
        "0", "-0", "-0.0", "0.0e0", "0e-400", "1e400", "-1e400", "1e-400", "1e308", "1e309", "-1e309",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "2.2250738585072011e-308",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "9007199254740993",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "-18446744073709551616", "1" * 400, "-" + "9" * 400,
        "0." + "0" * 400 + "1", "1" * 400 + ".5", "123456789012345678901234567890e-10", "1E+2", "1e-0", "1.5E-7",
        "01", "-01", "1.", ".1", "-", "+1", "1e", "1e+", "0x10", "1_000", "--1", "1.0.0", "NaN", "-NaN",
        "Infinity", "-Infinity", "infinity", "nan",
    )
    for n in numbers:
        e[f"number {n[:40]}"] = n.encode()
        e[f"number-in-array {n[:40]}"] = f"[{n}, {n}]".encode()
    # Literals, strings and escapes.
    for doc in (b"tru", b"nul", b"fals", b"truex", b"[true false]", b"[null,]", b"[,1]", b'{"a" 1}', b'{"a":1,}',
                b'{1:1}', b'{"a":1 "b":2}', b'"\\ud800"', b'"\\udc00\\ud800"', b'"\\ud83d\\ude00"', b'"\\ud83d"',
                b'"\\u0000"', b'"\\u00e9\\u00E9"', b'"\\U0041"', b'"\\u12"', b'"\\"', b'"\x7f"', b'"\x1f"',
                b'"a\x00b"', b"'a'", b'"\\/\\b\\f\\n\\r\\t"', b'{"a":1,"a":2,"\\u0061":3}'):
        e[f"literal {doc[:40]!r}"] = doc
    # SIMD blocks are 16, 32 or 64 bytes: put the interesting byte on and
    # around every boundary up to 130.
    for n in range(1, 131):
        pad = b"a" * n
        e[f"string-{n}"] = b'["' + pad + b'"]'
        e[f"string-escape-{n}"] = b'["' + pad + b'\\n\\u00e9"]'
        e[f"string-utf8-{n}"] = b'["' + pad + "é€😀".encode() + b'"]'
        e[f"string-bad-utf8-{n}"] = b'["' + pad + b'\xc3("]'
        e[f"string-control-{n}"] = b'["' + pad + b'\x01"]'
        e[f"string-unterminated-{n}"] = b'["' + pad
        e[f"whitespace-{n}"] = b"[" + b" " * n + b"1" + b" " * n + b"]"
        e[f"truncated-number-{n}"] = b"[" + b"1" * n + b"."
        e[f"error-after-{n}"] = b"[" + b"1," * (n // 2) + b"x]"
    # Errors on a later line (lineno/colno), with CR, LF and CRLF.
    for nl in (b"\n", b"\r", b"\r\n"):
        e[f"line-error-{nl!r}"] = b"[" + nl + b"  1," + nl + b"  2," + nl + b"  x" + nl + b"]"
    # Many values and many keys (duplicates keep the last value, first position).
    e["long-array"] = b"[" + b",".join(str(i).encode() for i in range(20000)) + b"]"
    e["long-object"] = b"{" + b",".join(b'"k%d":%d' % (i % 300, i) for i in range(5000)) + b"}"
    e["long-string"] = b'"' + (b"abc\\n\\u00e9\xe2\x82\xac" * 20000) + b'"'
    return list(e.items())


def _build_inputs():
    suite = _json_files(_util.SUITE_DIR)
    corpus = _json_files(_util.CORPUS_DIR)
    return {
        "suite": suite,
        "corpus": corpus,
        "random": _random_documents(300),
        "mutated": _mutated_documents(400),
        "edges": _edges(),
    }


# ---------------------------------------------------------------------------
# The child: loads every input under one backend and pickles the outcomes.

CHILD = """
    import importlib, os, pickle, sys
    from concurrent.futures import ThreadPoolExecutor
    import _util

    mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
    inputs_path, out_path = sys.argv[1:3]
    with open(inputs_path, "rb") as f:
        groups = pickle.load(f)

    def as_str(data):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def run(data):
        text = as_str(data)
        return (_util.outcome(mod.loads, data), None if text is None else _util.outcome(mod.loads, text))

    res = {"backends": _util.outcome(lambda: mod.backends)}
    res["backend"] = _util.outcome(lambda: mod.backend)
    if res["backend"][0] == "ok":
        res["groups"] = {g: [run(data) for _, data in cases] for g, cases in groups.items()}
        # The same inputs from four threads at once (the backends keep
        # per-call state in pools).
        with ThreadPoolExecutor(4) as pool:
            res["threaded"] = list(pool.map(run, [data for _, data in groups["random"] + groups["mutated"]]))
        res["backend_after"] = _util.outcome(lambda: mod.backend)
    else:
        # The backend cannot be chosen: loads must say so too, every time.
        res["loads"] = [_util.outcome(mod.loads, b"[1]") for _ in range(2)]
    with open(out_path, "wb") as f:
        pickle.dump(res, f, protocol=pickle.HIGHEST_PROTOCOL)
    print("done", flush=True)
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    groups = _build_inputs()
    path = tmp_path_factory.mktemp("backends") / "inputs.pickle"
    with open(path, "wb") as f:
        pickle.dump(groups, f, protocol=pickle.HIGHEST_PROTOCOL)
    return groups, path


@pytest.fixture(scope="module")
def run_backend(inputs, tmp_path_factory):
    """run_backend(name): the child's results under ISOJSON_BACKEND=name,
    computed once per name."""
    _, inputs_path = inputs
    cache = {}

    def run(name):
        if name not in cache:
            out_path = tmp_path_factory.mktemp("backend-" + name) / "results.pickle"
            out = _util.run_python(CHILD, CHILD_TIMEOUT, inputs_path, out_path,
                                   env=_util.child_env(ISOJSON_BACKEND=name))
            assert out.strip() == "done", out
            with open(out_path, "rb") as f:
                cache[name] = pickle.load(f)
        return cache[name]

    return run


def _unsupported_report(name, res):
    """None when the backend runs; else, after checking that the engine
    reported it unsupported in the documented way, that report."""
    if res["backend"][0] == "ok":
        return None
    err = res["backend"][1]
    choices = ", ".join(BACKENDS)
    want = f'ISOJSON_BACKEND: backend "{name}" is not supported on this CPU: compiled in are {choices}'
    assert err["type"] == "ValueError" and err["str"] == want, (
        f"backend {name} is listed in isojson.backends but cannot be used: {err}")
    assert name != REFERENCE, "the scalar backend runs everywhere"
    for got in res["loads"]:
        assert got[0] == "error" and got[1]["type"] == "ValueError" and got[1]["str"] == want, got
    return want


def _reference(run_backend):
    ref = run_backend(REFERENCE)
    assert ref["backend"] == ("ok", REFERENCE), ref["backend"]
    return ref


def _same(a, b):
    """None when a and b are the same parsed JSON value (types, float bits,
    dict key order), else a description. orjson tells in C when it can;
    deep nesting and integers beyond 64 bits take an iterative walk."""
    try:
        option = orjson.OPT_PASSTHROUGH_SUBCLASS
        if orjson.dumps(a, option=option) == orjson.dumps(b, option=option):
            return None
    except TypeError:
        pass
    stack = [(a, b, "$")]
    while stack:
        x, y, path = stack.pop()
        if type(x) in (list, dict) and type(x) is type(y):
            if len(x) != len(y) or type(x) is dict and list(x) != list(y):
                return f"{path}: {x!r:.200} vs {y!r:.200}"
            items = enumerate(zip(x, y)) if type(x) is list else ((k, (x[k], y[k])) for k in x)
            stack.extend((u, v, f"{path}[{k!r:.40}]") for k, (u, v) in items)
        else:
            d = _util.same_value(x, y, path)
            if d:
                return d
    return None


def _compare(name, groups, group, got, want, failures, orjson_values=False):
    """Append to failures every case whose outcome under backend `name`
    differs from the scalar backend's, or whose accept/reject (bytes input)
    differs from orjson's; with orjson_values, also every object that
    differs from orjson's (integers beyond 64 bits exact)."""
    for (case, data), g, w in zip(groups[group], got, want):
        for kind, g1, w1 in (("bytes", g[0], w[0]), ("str", g[1], w[1])):
            if g1 is None:  # not UTF-8: no str input
                continue
            if g1[0] != w1[0]:
                failures.append((f"{case} ({kind})", f"{name}: {g1!r:.300}; {REFERENCE}: {w1!r:.300}"))
            elif g1[0] == "ok":
                d = _same(g1[1], w1[1])
                if d:
                    failures.append((f"{case} ({kind})", f"{name} vs {REFERENCE}: {d}"))
            elif g1 != w1:
                failures.append((f"{case} ({kind})", f"{name}: {g1[1]!r:.300}; {REFERENCE}: {w1[1]!r:.300}"))
        oracle = _util.expected_loads(data) if orjson_values else _util.outcome(orjson.loads, data)
        if g[0][0] != oracle[0]:
            failures.append((f"{case}", f"{name} {g[0][0]}, orjson {oracle[0]}: {g[0]!r:.200} {oracle!r:.200}"))
        elif orjson_values and oracle[0] == "ok":
            d = _same(g[0][1], oracle[1])
            if d:
                failures.append((f"{case}", f"{name} vs orjson: {d}"))


def _check_group(name, inputs, run_backend, group, **kw):
    groups, _ = inputs
    res = run_backend(name)
    if _unsupported_report(name, res):
        return None
    ref = _reference(run_backend)
    got, want = res["groups"][group], ref["groups"][group]
    assert len(got) == len(want) == len(groups[group])
    failures = []
    _compare(name, groups, group, got, want, failures, **kw)
    _util.report(failures, len(groups[group]), f"{group} inputs under ISOJSON_BACKEND={name}")
    return got


# ---------------------------------------------------------------------------
# The tests.


def test_backends_compiled_in():
    """A default build on x86-64 has exactly X86_64_BACKENDS, in rank order
    (the default, the measured fastest, first), no duplicates."""
    assert type(BACKENDS) is tuple and len(set(BACKENDS)) == len(BACKENDS), BACKENDS
    assert REFERENCE in BACKENDS, BACKENDS
    if platform.machine() in ("x86_64", "AMD64"):
        assert BACKENDS == X86_64_BACKENDS, BACKENDS


@pytest.mark.parametrize("name", BACKENDS)
def test_backend_in_use(name, run_backend):
    res = run_backend(name)
    assert res["backends"] == ("ok", BACKENDS), res["backends"]
    if _unsupported_report(name, res):
        return
    assert res["backend"] == ("ok", name), res["backend"]
    assert res["backend_after"] == ("ok", name), res["backend_after"]


@pytest.mark.parametrize("name", BACKENDS)
def test_json_test_suite(name, inputs, run_backend):
    """All 318 cases: the scalar backend's outcome (objects; JSONDecodeError
    msg/pos/lineno/colno) and orjson's decision and objects (an integer
    beyond 64 bits exact where orjson gives a float)."""
    groups, _ = inputs
    assert len(groups["suite"]) == 318
    got = _check_group(name, inputs, run_backend, "suite", orjson_values=True)
    if got is not None:  # y_ accepted and n_ rejected, whoever the oracle is
        wrong = [case for (case, _), g in zip(groups["suite"], got)
                 if case.startswith("y_") and g[0][0] != "ok" or case.startswith("n_") and g[0][0] != "error"]
        assert not wrong, f"wrong decisions under {name}: {wrong}"
        rejected = [g[0][1] for g in got if g[0][0] == "error"]
        assert rejected and all(e["type"] == "JSONDecodeError" and {"msg", "pos", "lineno", "colno"} <= set(e)
                                for e in rejected), rejected[:3]


@pytest.mark.parametrize("name", BACKENDS)
def test_corpus(name, inputs, run_backend):
    groups, _ = inputs
    assert sorted(case for case, _ in groups["corpus"]) == [
        "canada.json", "citm_catalog.json", "github.json", "twitter.json"]
    got = _check_group(name, inputs, run_backend, "corpus")
    if got is not None:
        assert all(g[0][0] == g[1][0] == "ok" for g in got), [g[0][1] for g in got if g[0][0] != "ok"]


@pytest.mark.parametrize("name", BACKENDS)
def test_random_documents(name, inputs, run_backend):
    got = _check_group(name, inputs, run_backend, "random")
    if got is not None:  # mostly accepted (numbers beyond the float range are not), so objects are compared
        accepted = sum(g[0][0] == "ok" for g in got)
        assert accepted >= len(got) * 0.8, f"only {accepted} of {len(got)} random documents accepted"


@pytest.mark.parametrize("name", BACKENDS)
def test_mutated_documents(name, inputs, run_backend):
    got = _check_group(name, inputs, run_backend, "mutated")
    if got is not None:  # mostly invalid, so that errors are what is compared
        rejected = sum(g[0][0] == "error" for g in got)
        assert rejected >= len(got) * 0.6, f"only {rejected} of {len(got)} mutated documents rejected"


@pytest.mark.parametrize("name", BACKENDS)
def test_edges(name, inputs, run_backend):
    _check_group(name, inputs, run_backend, "edges")


@pytest.mark.parametrize("name", BACKENDS)
def test_concurrent_loads(name, inputs, run_backend):
    """The random and mutated inputs loaded from four threads at once give
    the outcomes they gave one at a time."""
    groups, _ = inputs
    res = run_backend(name)
    if _unsupported_report(name, res):
        return
    cases = groups["random"] + groups["mutated"]
    got = res["threaded"]
    want = res["groups"]["random"] + res["groups"]["mutated"]
    failures = []
    for (case, _), g, w in zip(cases, got, want):
        for g1, w1 in zip(g, w):
            if g1 is None or w1 is None or g1[0] != w1[0]:
                if g1 != w1:
                    failures.append((case, f"threaded {g1!r:.200}; sequential {w1!r:.200}"))
            elif g1[0] == "ok":
                d = _same(g1[1], w1[1])
                if d:
                    failures.append((case, d))
            elif g1 != w1:
                failures.append((case, f"threaded {g1!r:.200}; sequential {w1!r:.200}"))
    assert len(got) == len(cases)
    _util.report(failures, len(cases), f"threaded loads under ISOJSON_BACKEND={name}")


@pytest.mark.parametrize("setting", ["unset", "empty"])
def test_default_backend(setting, run_backend):
    """Without a choice (ISOJSON_BACKEND unset or empty) the engine takes the
    lowest-ranked backend this CPU runs: the first of isojson.backends."""
    env = _util.child_env()
    env.pop("ISOJSON_BACKEND", None)
    if setting == "empty":
        env["ISOJSON_BACKEND"] = ""
    out = _util.run_python("""
        import importlib, os
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        print(mod.backend)
    """, CHILD_TIMEOUT, env=env)
    runnable = [name for name in BACKENDS if not _unsupported_report(name, run_backend(name))]
    assert out.strip() == runnable[0], (out, runnable)


def test_unknown_backend_names_the_choices():
    """ISOJSON_BACKEND=nope: importing works (the engine is loaded at first
    use); the first parse, and every one after it, and isojson.backend
    raise ValueError naming the value and every compiled-in backend;
    isojson.backends still lists them."""
    out = _util.run_python("""
        import base64, importlib, os, pickle
        import _util
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        res = {
            "loads": [_util.outcome(mod.loads, b"[1]"), _util.outcome(mod.loads, "[1]")],
            "backend": _util.outcome(lambda: mod.backend),
            "backends": _util.outcome(lambda: mod.backends),
        }
        print(base64.b64encode(pickle.dumps(res)).decode())
    """, CHILD_TIMEOUT, env=_util.child_env(ISOJSON_BACKEND="nope"))
    res = pickle.loads(base64.b64decode(out))
    assert res["backends"] == ("ok", BACKENDS), res["backends"]
    errors = res["loads"] + [res["backend"]]
    for got in errors:
        assert got[0] == "error", got
        e = got[1]
        # A configuration error, not a JSON one: plain ValueError.
        assert e["type"] == "ValueError" and "msg" not in e, e
        assert '"nope"' in e["str"] and "ISOJSON_BACKEND" in e["str"], e
        for backend in BACKENDS:
            assert backend in e["str"], (backend, e)
    assert errors[0] == errors[1] == errors[2], errors

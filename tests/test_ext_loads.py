"""The extension's loads(): input types, str widths, the key cache, numbers,
errors (JSONDecodeError with orjson's msg/doc/pos), deep nesting on a small
thread stack, re-entry, threads, sub-interpreters, lazy engine loading and the
backend choice. orjson 3.13 is the oracle wherever it defines the behaviour."""

import array
import gc
import json
import os
import subprocess
import sys
import threading

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
import isojson

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "corpus")


def orjson_error(data):
    with pytest.raises(orjson.JSONDecodeError) as info:
        orjson.loads(data)
    e = info.value
    return (str(e), e.msg, e.doc, e.pos, e.lineno, e.colno)


def isojson_error(data):
    with pytest.raises(isojson.JSONDecodeError) as info:
        isojson.loads(data)
    e = info.value
    assert isinstance(e, json.JSONDecodeError) and isinstance(e, ValueError)
    assert e.__cause__ is None and e.__context__ is None
    return (str(e), e.msg, e.doc, e.pos, e.lineno, e.colno)


@pytest.mark.parametrize("data", [
    b'[1,2,{"a":"\xc3\xa9"}]', '[1,2,{"a":"é"}]', bytearray(b'{"x": [true, false, null]}'),
    memoryview(b'[1.5, -2, "x"]'), memoryview(bytearray(b'"y"')), b"0", b"-0", b"-0.0", b"1e2",
    b"18446744073709551615", b"-9223372036854775808", b"9223372036854775808", b"1E-400", b"[]", b"{}",
    b"[[],{},[[]]]", b' \t\r\n"pad" \n',
])
def test_values_equal_orjson(data):
    got, want = isojson.loads(data), orjson.loads(data)
    assert got == want and repr(got) == repr(want)


def test_memoryview_of_typed_buffer_reads_its_bytes():
    a = array.array("B", b'{"k": 7}')
    assert isojson.loads(memoryview(a)) == {"k": 7}


@pytest.mark.parametrize("data", [
    1, 1.5, None, [], {}, object(), type("B", (bytes,), {})(b"[1]"), type("S", (str,), {})("[1]"),
    type("BA", (bytearray,), {})(b"[1]"), memoryview(b"[1,2,3,4]")[::2],
])
def test_wrong_input_type_as_orjson(data):
    assert isojson_error(data) == orjson_error(data)


def test_argument_errors():
    with pytest.raises(TypeError, match=r"isojson\.loads\(\) takes exactly one argument \(0 given\)"):
        isojson.loads()
    with pytest.raises(TypeError, match=r"takes exactly one argument \(2 given\)"):
        isojson.loads(b"1", b"2")
    with pytest.raises(TypeError, match="no keyword arguments"):
        isojson.loads(obj=b"1")


STRINGS = [
    "", "a", "ascii only", "é", "naïve café", "ÿ\x80", "Ā", "€ euro", "日本語テキスト", "\uffff", "😀", "a😀b",
    "mixé€😀", "\u2028\u2029", "\x7f", "ab\u0100" * 50, "x" * 1000 + "é", "é" * 257, "😀" * 100,
]


ASCII_BASE = sys.getsizeof("") - 1          # sizeof(PyASCIIObject)
COMPACT_BASE = ASCII_BASE + 2 * 8           # sizeof(PyCompactUnicodeObject)


def compact_size(s):
    top = max(map(ord, s))
    if top < 0x80:
        return ASCII_BASE + len(s) + 1
    kind = 1 if top < 0x100 else 2 if top < 0x10000 else 4
    return COMPACT_BASE + (len(s) + 1) * kind


@pytest.mark.parametrize("s", STRINGS)
@pytest.mark.parametrize("escaped", [False, True])
def test_strings_every_width(s, escaped):
    doc = json.dumps(s, ensure_ascii=escaped).encode()
    got = isojson.loads(doc)
    assert got == s
    # Allocated at its final width: the size of a compact str of that kind
    # (1-character strings may be CPython's cached singletons instead).
    if len(s) > 1:
        assert sys.getsizeof(got) == compact_size(s)
    assert isojson.loads(doc.decode()) == s


def test_escapes_and_surrogate_pairs():
    doc = b'["\\"\\\\\\/\\b\\f\\n\\r\\t", "\\u00e9\\u20ac\\ud83d\\ude00", "\\u0000"]'
    assert isojson.loads(doc) == orjson.loads(doc)


def test_keys_through_cache_equal_and_hash():
    keys = [f"k{i}" for i in range(5000)] + ["é", "ключ", "😀", "x" * 64, "y" * 65, ""]
    doc = json.dumps([{k: i} for i, k in enumerate(keys)] * 2).encode()
    got = isojson.loads(doc)
    assert got == orjson.loads(doc)
    for d in got:
        (k,) = d
        assert hash(k) == hash(str(k)) and d[k] == d[str(k)]


def test_duplicate_keys_first_position_last_value():
    doc = b'{"a":1,"b":2,"a":3}'
    got = isojson.loads(doc)
    assert list(got.items()) == list(orjson.loads(doc).items()) == [("a", 3), ("b", 2)]


def test_big_ints_are_exact():
    # Accepted exactly where orjson accepts them (it reads them as floats, so
    # beyond about 1e308 both reject them), but returned as exact ints.
    for text in ["18446744073709551616", "-9223372036854775809", "1" * 100, "-" + "9" * 308]:
        assert isojson.loads(text) == int(text)
        assert isojson.loads(f"[{text}]") == [int(text)]
    for text in ["1" * 310, "-" + "9" * 400]:
        assert isojson_error(text.encode()) == orjson_error(text.encode())


INVALID = [
    b"", b" ", b"[1,]", b"[1,2", b"nul", b"01", b"1.", b'"\x01"', b'"\\x"', b'"\\ud800"', b"[] x",
    b"[1e400]", b"NaN", b'{"a" 1}', b"{1:2}", b"[1 2]", b"[tru]", b'"\xff"', b"\xef\xbb\xbf[]",
    b'"\xc3\xa9" x', b"[1,\n2,\n x]", b'{"\xc3\xa9\xe2\x82\xac":1,\n\n  "b": ]', "é[1,]", '"é" x',
    '[1,\n"é😀",\n x]', "\ud800", '"\udfff"', b"[" * 100, b'{"a":' * 3,
]


@pytest.mark.parametrize("data", INVALID, ids=range(len(INVALID)))
def test_errors_as_orjson(data):
    assert isojson_error(data) == orjson_error(data)


def test_errors_from_bytearray_and_memoryview():
    for data in [bytearray(b'[\xc3\xa9, x]'), memoryview(b'{"a":}')]:
        assert isojson_error(data) == orjson_error(data)


def deep(n):
    return b"[" * n + b"]" * n


def test_depth_1024_on_small_thread_stack():
    results = {}

    def work():
        try:
            results["ok"] = isojson.loads(deep(1024))
            results["dict"] = isojson.loads(b'{"a":' * 1024 + b"1" + b"}" * 1024)
            with pytest.raises(isojson.JSONDecodeError, match="depth"):
                isojson.loads(deep(1025))
            results["done"] = True
        except BaseException as e:  # reported by the main thread
            results["error"] = e

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert "error" not in results, results.get("error")
    assert results["done"]
    v = results["ok"]
    for _ in range(1023):
        (v,) = v
    assert v == []


@pytest.mark.parametrize("name", ["twitter.json", "citm_catalog.json", "canada.json", "github.json"])
def test_corpus_equal_orjson(name):
    with open(os.path.join(CORPUS, name), "rb") as f:
        data = f.read()
    assert isojson.loads(data) == orjson.loads(data)
    assert isojson.loads(data.decode()) == orjson.loads(data)
    assert isojson.loads(bytearray(data)) == orjson.loads(data)


def test_reentry_from_gc_callback():
    # The garbage collector runs Python code (here a gc callback; a __del__
    # likewise) between calls: orjson.loads below schedules collections. A
    # loads made from there must work and leave the caller's next loads
    # intact. (isojson.loads itself schedules none while it builds:
    # test_loads_gc.py; its scratch memory is still taken per call, so a
    # nested call would get its own.)
    seen = []

    def callback(phase, info):
        if phase == "start" and len(seen) < 50:
            seen.append(isojson.loads(b'{"nested": [1, 2, 3]}'))

    doc = json.dumps([{"a": [i, str(i)]} for i in range(20000)]).encode()
    old = gc.get_threshold()
    gc.callbacks.append(callback)
    gc.set_threshold(50)
    try:
        for _ in range(3):
            assert isojson.loads(doc) == orjson.loads(doc)
    finally:
        gc.callbacks.remove(callback)
        gc.set_threshold(*old)
    assert seen and all(x == {"nested": [1, 2, 3]} for x in seen)


def test_threads_large_inputs_without_gil():
    # ≥ 64 KiB bytes and str inputs are parsed with the GIL released.
    docs = [json.dumps([{"id": i, "s": "é" * (i % 7), "f": i / 3} for i in range(k * 1000, k * 1000 + 3000)])
            for k in range(4)]
    want = [orjson.loads(d) for d in docs]
    errors = []

    def work(k):
        try:
            for _ in range(5):
                assert isojson.loads(docs[k].encode()) == want[k]
                assert isojson.loads(docs[k]) == want[k]
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_strict_subinterpreter():
    from concurrent import interpreters

    interp = interpreters.create()  # its own GIL: the strict mode
    try:
        interp.exec(
            "import json, isojson\n"
            "assert isojson.loads(b'{\"a\":[1,\"\\xc3\\xa9\",2.5,null]}') == {'a': [1, 'é', 2.5, None]}\n"
            "assert issubclass(isojson.JSONDecodeError, json.JSONDecodeError)\n"
            "try:\n"
            "    isojson.loads('[1,')\n"
            "except json.JSONDecodeError as e:\n"
            "    assert (e.pos, e.msg) == (3, 'unexpected end of data'), (e.pos, e.msg)\n"
            "else:\n"
            "    raise AssertionError('no error')\n"
        )
    finally:
        interp.close()
    # Each interpreter has its own exception class.
    assert isojson.JSONDecodeError.__module__ == "isojson"


def run_python(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          timeout=_util.scaled(120))


ENGINE_MAPPED = "'libisojson_engine' in open('/proc/self/maps').read()"


def test_import_loads_the_engine_in_the_background():
    # No call made: the import's background load maps the engine and starts its Go runtime.
    r = run_python(
        "import time, isojson\n"
        f"deadline = time.monotonic() + {_util.scaled(30)}\n"
        f"while not {ENGINE_MAPPED}:\n"
        "    assert time.monotonic() < deadline, 'engine not loaded in the background'\n"
        "    time.sleep(0.005)\n"
        "assert isojson.loads(b'[1]') == [1] and isojson.dumps([1]) == b'[1]'\n"
        "print('ok')\n")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_preload_zero_leaves_the_engine_to_the_first_call():
    r = run_python(
        "import time, isojson\n"
        "time.sleep(0.3)\n"
        f"assert not {ENGINE_MAPPED}, 'engine loaded before the first call'\n"
        "isojson.loads(b'1')\n"
        f"assert {ENGINE_MAPPED}\n"
        "print('ok')\n", ISOJSON_PRELOAD="0")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_backend_attributes():
    assert isinstance(isojson.backends, tuple) and isojson.backends
    assert isojson.backend in isojson.backends
    assert "backend" in dir(isojson)
    with pytest.raises(AttributeError):
        isojson.no_such_attribute


def test_backend_env_choice():
    name = isojson.backends[-1]
    r = run_python("import isojson; print(isojson.backend, isojson.loads(b'[1]'))", ISOJSON_BACKEND=name)
    assert r.returncode == 0 and r.stdout.split() == [name, "[1]"], r.stderr
    r = run_python("import isojson\nisojson.loads(b'[1]')", ISOJSON_BACKEND="no-such-backend")
    assert r.returncode != 0 and "ValueError" in r.stderr and "no-such-backend" in r.stderr
    for b in isojson.backends:
        assert b in r.stderr


def test_missing_engine_is_a_runtime_error():
    r = run_python("import isojson\nisojson.loads(b'[1]')", ISOJSON_ENGINE="/nonexistent/libisojson_engine.so")
    assert r.returncode != 0 and "RuntimeError" in r.stderr and "/nonexistent/" in r.stderr, r.stderr


SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "JSONTestSuite", "test_parsing")


def outcome(mod, data):
    try:
        return ("ok", repr(mod.loads(data)))
    except mod.JSONDecodeError as e:
        return ("error", str(e), e.doc, e.pos, e.lineno, e.colno)


def test_suite_errors_as_orjson_for_bytes_and_str():
    # Every JSONTestSuite document, as bytes and (when UTF-8) as str: the same
    # values, or the same message, doc and character position. Big integers
    # are the one deliberate difference (exact ints instead of floats).
    checked = 0
    for name in sorted(os.listdir(SUITE)):
        with open(os.path.join(SUITE, name), "rb") as f:
            data = f.read()
        inputs = [data]
        try:
            inputs.append(data.decode())
        except UnicodeDecodeError:
            pass
        for inp in inputs:
            got, want = outcome(isojson, inp), outcome(orjson, inp)
            if got[0] == want[0] == "ok" and got != want:
                # Only where orjson made a float of an integer beyond 64 bits.
                v = isojson.loads(inp)
                assert isinstance(v, list) and type(v[0]) is int and abs(v[0]) >= 2**63, name
                assert orjson.loads(inp) == [float(v[0])], name
                continue
            assert got == want, (name, type(inp).__name__)
            checked += 1
    assert checked > 600


def test_recorded_orjson_errors():
    # testdata/orjson/errors.json: orjson's own (msg, pos) for hundreds of
    # crafted invalid inputs; run live against orjson too, as bytes and str.
    path = os.path.join(os.path.dirname(SUITE), "..", "orjson", "errors.json")
    with open(path) as f:
        cases = json.load(f)["cases"]
    assert len(cases) > 300
    for case in cases:
        if case["msg"] == "failed to allocate memory":
            continue  # orjson ran out of C stack while recording (deep nesting)
        data = bytes.fromhex(case["hex"])
        got, live = outcome(isojson, data), outcome(orjson, data)
        assert got[1].startswith(case["msg"] + ":") and got[3] == case["pos"], case["name"]
        # orjson recurses on the C stack: under pytest's deeper stack it can
        # fail deep documents with "failed to allocate memory" instead.
        if "failed to allocate" in live[1]:
            continue
        assert got == live, case["name"]
        try:
            text = data.decode()
        except UnicodeDecodeError:
            continue
        assert outcome(isojson, text) == outcome(orjson, text), case["name"]


def test_subinterpreters_in_parallel_threads():
    # Own-GIL interpreters run loads truly in parallel, each with its own
    # module state (key cache, exception type) over one shared engine.
    code = (
        "import isojson, json\n"
        "for name in ['twitter', 'citm_catalog', 'github']:\n"
        f"    with open({CORPUS!r} + '/' + name + '.json', 'rb') as f:\n"
        "        data = f.read()\n"
        "    want = json.loads(data)\n"
        "    for _ in range(3):\n"
        "        assert isojson.loads(data) == want, name\n"
        "        assert isojson.loads(data.decode()) == want, name\n"
        "try:\n"
        "    isojson.loads(b'{\"k\": tru}')\n"
        "except json.JSONDecodeError as e:\n"
        "    assert e.pos == 6 and type(e).__module__ == 'isojson'\n"
    )
    errors = _util.exec_in_interpreters(code, 3)
    assert not errors, errors[0]


def random_text(rng):
    ranges = [(0x20, 0x7f), (0x80, 0x100), (0x100, 0x800), (0x800, 0xd800), (0xe000, 0x10000), (0x10000, 0x110000)]
    out = []
    for _ in range(rng.randrange(0, 24)):
        lo, hi = rng.choice(ranges)
        out.append(chr(rng.randrange(lo, hi)))
    return "".join(out)


def random_doc(rng, depth=0):
    r = rng.random()
    if depth > 4 or r < 0.3:
        return rng.choice([None, True, False, rng.randrange(-2**63, 2**64), rng.random() * 10 ** rng.randrange(-300, 300),
                           random_text(rng), rng.randrange(-300, 300)])
    if r < 0.65:
        return [random_doc(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
    return {random_text(rng) if rng.random() < 0.5 else f"k{rng.randrange(50)}": random_doc(rng, depth + 1)
            for _ in range(rng.randrange(0, 6))}


def test_random_documents_equal_orjson():
    # Seeded random documents with every code point class, raw and escaped
    # (ensure_ascii writes astral characters as surrogate-pair escapes), as
    # bytes and str.
    import random

    rng = random.Random(20261129)
    for _ in range(400):
        value = random_doc(rng)
        for text in (json.dumps(value, ensure_ascii=False), json.dumps(value, ensure_ascii=True)):
            want = orjson.loads(text)
            assert isojson.loads(text) == want
            assert isojson.loads(text.encode()) == want


def test_large_mutable_inputs_from_threads():
    # bytearray and memoryview inputs ≥ 64 KiB are copied and parsed without
    # the GIL while other threads mutate their own buffers.
    data = json.dumps([{"i": i, "s": "x" * (i % 50)} for i in range(5000)]).encode()
    want = orjson.loads(data)
    errors = []

    def work():
        try:
            buf = bytearray(data)
            for _ in range(5):
                assert isojson.loads(buf) == want
                assert isojson.loads(memoryview(buf)) == want
                buf[:1] = b"["  # writes between calls are fine
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    bad = bytearray(data[:-1])
    assert isojson_error(bad) == orjson_error(bad)


def test_wrong_library_as_engine_is_a_runtime_error():
    # A loadable library that is not the engine: named, and no crash.
    import _ctypes
    r = run_python("import isojson\nisojson.loads(b'[1]')", ISOJSON_ENGINE=_ctypes.__file__)
    assert r.returncode != 0 and "RuntimeError" in r.stderr and "lacks isojson_engine_abi" in r.stderr, r.stderr

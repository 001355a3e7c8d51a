"""The tiny path of loads (pyshim/loads/loads_tiny.h): documents of at most 64
bytes in its grammar (null, true, false, integers of up to 18 digits, ASCII
strings without escapes, arrays, objects) are parsed in C, without a call into
the Go engine; everything else, every error among it, goes to the engine.

The Go gate (conformance/ctiny) holds the same C file to the scalar parser.
These tests hold the extension's wiring: through the private hook
`_tiny_tape(data)` the path's tape must be the engine's `_tape(data)` word for
word at and around the switch, loads must give the same objects on both sides
of it for every input type, errors must stay the engine's, and the path must
work on new threads, in own-GIL sub-interpreters and whatever ISOJSON_BACKEND
chose (it makes every backend's tape, so it applies under each)."""

import json
import threading

import pytest

import _util
from _util import isojson

pytestmark = pytest.mark.skipif(_util.MODULE_NAME != "isojson", reason="isojson's own path")

if _util.MODULE_NAME == "isojson":
    from isojson import _isojson as ext

MAX = 64   # LOADS_TINY_MAX
CHILD_TIMEOUT = 120


def sized(kind, n):
    """A document of one kind, exactly n bytes (as conformance/ctiny's)."""
    def pad(s):
        assert len(s) <= n, (kind, s, n)
        return s + " " * (n - len(s))
    if kind in ("null", "true", "false"):
        return pad(kind)
    if kind == "int":
        return "7" * n if n <= 18 else pad("123456789012345678")
    if kind == "negative-int":
        return "-" + "9" * (n - 1) if n <= 19 else pad("-999999999999999999")
    if kind == "string":
        return '"' + "s" * (n - 2) + '"'
    if kind == "empty-array":
        return pad("[]")
    if kind == "empty-object":
        return pad("{}")
    if kind == "array-of-ints":
        return "[" + "1," * ((n - 3) // 2) + "1]" if n % 2 else "[" + "1," * ((n - 4) // 2) + "22]"
    if kind == "nested":
        return "[" * (n // 2) + "]" * (n // 2) + " " * (n % 2)
    if kind == "object":
        s = '{"id":48213,"ok":true,"error":null,"f":false,"k":""'
        return s[:-1] + "k" * (n - len(s) - 1) + '"}'
    raise AssertionError(kind)


KINDS = {  # kind: its shortest size
    "null": 4, "true": 4, "false": 5, "int": 1, "negative-int": 2, "string": 2, "empty-array": 2,
    "empty-object": 2, "array-of-ints": 3, "nested": 2, "object": 52,
}

# Outside the grammar (valid JSON the engine parses) and errors, each at most 64 bytes.
OUTSIDE = ["1.5", "-0.0", "1e5", "[1.0]", '{"a":2.5}', "1234567890123456789", "-1234567890123456789",
           "18446744073709551616", '"\\n"', '"\\u0041"', '{"\\"":1}', '"é"', '["Ω"]', '"😀"']
ERRORS = ["", " ", "nul", "tru", "-", "01", "[1,]", "[1 2]", '{"a":1,}', '{"a"}', "[", '"abc', "[1]]", "[1] x",
          "\ufeff[]", "\v[]", '"\x01"', "[1]\x00", "NaN"]


def inputs_of(text):
    b = text.encode("utf-8")
    return [b, text, bytearray(b), memoryview(b)]


@pytest.mark.parametrize("kind", KINDS)
def test_tape_is_the_engines_at_the_switch(kind):
    """Each kind at 63 and 64 bytes (and its shortest) is the path's, with
    the engine's tape word for word and no arena; at 65 and 128 the path
    gives up (its length)."""
    for n in sorted({KINDS[kind], MAX - 1, MAX, MAX + 1, 2 * MAX}):
        data = sized(kind, n).encode()
        assert len(data) == n
        words, arena = ext._tape(data)
        tiny = ext._tiny_tape(data)
        if n <= MAX:
            assert tiny is not None, (kind, n)
            assert tiny == words and not arena, (kind, n)   # arena: None or b""
        else:
            assert tiny is None, (kind, n)


@pytest.mark.parametrize("kind", KINDS)
def test_loads_across_the_switch(kind):
    """Every size of each kind from its shortest to 70 bytes, from bytes,
    str, bytearray and memoryview: the objects json makes."""
    for n in range(KINDS[kind], MAX + 7):
        text = sized(kind, n)
        want = json.loads(text)
        for data in inputs_of(text):
            assert isojson.loads(data) == want, (kind, n, type(data))


@pytest.mark.parametrize("text", OUTSIDE + ERRORS)
def test_outside_the_grammar_gives_up(text):
    assert ext._tiny_tape(text.encode("utf-8")) is None


@pytest.mark.parametrize("text", OUTSIDE)
def test_outside_the_grammar_is_parsed_by_the_engine(text):
    for data in inputs_of(text):
        assert isojson.loads(data) == json.loads(text)


@pytest.mark.parametrize("text", ERRORS)
def test_errors_are_the_engines(text):
    """A short invalid document raises what orjson raises (message and
    position): the engine's error, as before the path."""
    data = text.encode("utf-8")
    want = _util.renamed(_util.outcome(_util.orjson.loads, data))
    assert want[0] == "error"
    assert _util.outcome(isojson.loads, data) == want


def test_two_byte_empty_containers():
    """b"[]" and b"{}" are made before the tiny path (pyshim/loads/loads.c):
    from every input type, a new object each call, of the exact type; every
    other input of two bytes, and the containers with a byte more, take the
    paths behind it, with orjson's errors."""
    for text, want in (("[]", []), ("{}", {})):
        for data in inputs_of(text):
            got = isojson.loads(data)
            assert got == want and type(got) is type(want), (text, type(data))
            got.append(1) if isinstance(got, list) else got.update(a=1)
            assert isojson.loads(data) == want  # not the same object
    for text in ("[}", "{]", "][", "}{", "[ ", " ]", "{ ", " }", "[]]", "[] ", " []", "{}}", "{} ", "[[", "{{", "\"\"", "00"):
        data = text.encode("utf-8")
        assert _util.renamed(_util.outcome(isojson.loads, data)) == _util.renamed(_util.outcome(_util.orjson.loads, data)), text


def test_new_threads():
    """The path on threads that never called loads (the thread's scratch
    tape is made by the path's first call) and on several at once."""
    docs = [sized(kind, n) for kind in KINDS for n in (KINDS[kind], MAX)] + OUTSIDE
    want = [json.loads(d) for d in docs]
    failures = []

    def run():
        for _ in range(20):
            got = [isojson.loads(d.encode()) for d in docs]
            if got != want:
                failures.append(got)
                return

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_subinterpreter():
    """In an own-GIL sub-interpreter, on its main thread and on a thread of
    its own: the same objects as json."""
    from concurrent import interpreters
    docs = [sized(kind, n) for kind in KINDS for n in (KINDS[kind], MAX - 1, MAX, MAX + 1)] + OUTSIDE
    interp = interpreters.create()
    try:
        interp.exec(f"""if True:
            import json, threading, {_util.MODULE_NAME} as mod
            docs = {docs!r}
            def check():
                for d in docs:
                    for data in (d.encode(), d, bytearray(d.encode())):
                        assert mod.loads(data) == json.loads(d), d
            check()
            t = threading.Thread(target=check)
            t.start()
            t.join()
            try:
                mod.loads(b"[1,]")
            except mod.JSONDecodeError as e:
                assert e.pos == 2, e
            else:
                raise AssertionError("accepted")
        """)
    finally:
        interp.close()


def _usable_backends():
    out = []
    for name in isojson.backends:
        res = _util.run_python("""
            import importlib, os
            mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
            try:
                print(mod.backend)
            except ValueError:
                print("unsupported")
        """, CHILD_TIMEOUT, env=_util.child_env(ISOJSON_BACKEND=name))
        if res.strip() == name:
            out.append(name)
    return out


def test_every_backend_choice():
    """Under ISOJSON_BACKEND=<each usable backend> the path applies (its
    tape is that backend's too) and loads gives the same objects and errors
    on both sides of the switch."""
    docs = [sized(kind, n) for kind in KINDS for n in (KINDS[kind], MAX, MAX + 1)] + OUTSIDE + ERRORS
    errors = {}
    for name in _usable_backends():
        out = _util.run_python(f"""
            import importlib, os, json
            mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
            ext = mod._isojson
            assert mod.backend == {name!r}, mod.backend
            for d in {docs!r}:
                data = d.encode("utf-8")
                tiny = ext._tiny_tape(data)
                assert tiny is None or (ext._tape(data)[0] == tiny and not ext._tape(data)[1]), d
                try:
                    got = ("ok", mod.loads(data))
                except mod.JSONDecodeError as e:
                    got = ("error", e.msg, e.pos)
                try:
                    want = ("ok", json.loads(d, parse_constant=int))   # NaN: int("NaN"), a ValueError
                except ValueError:
                    want = None
                assert want is None or got == want, (d, got, want)
                if got[0] == "error":
                    print(repr(d), got)
            print("taken", sum(ext._tiny_tape(d.encode()) is not None for d in {docs!r}))
        """, CHILD_TIMEOUT, env=_util.child_env(ISOJSON_BACKEND=name))
        lines = out.splitlines()
        assert lines[-1] == f"taken {2 * len(KINDS)}", (name, lines[-1])
        errors[name] = lines[:-1]
    assert "scalar" in errors and len(errors["scalar"]) == len(ERRORS), errors.get("scalar")
    for name, got in errors.items():
        assert got == errors["scalar"], name


def test_unusable_backend_choice_still_raises():
    """ISOJSON_BACKEND=nope: loads(b"[]") raises the choice's ValueError,
    as every loads does (the choice is read before the path is tried)."""
    out = _util.run_python("""
        import importlib, os
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        for data in (b"[]", b"null", "{}"):
            try:
                mod.loads(data)
            except ValueError as e:
                assert not isinstance(e, mod.JSONDecodeError) and "ISOJSON_BACKEND" in str(e), e
            else:
                raise AssertionError(data)
        print("ok")
    """, CHILD_TIMEOUT, env=_util.child_env(ISOJSON_BACKEND="nope"))
    assert out.strip() == "ok"

"""The nesting limit of loads at the end of the input, on every backend.

orjson accepts 1024 levels of arrays and objects. The '[' or '{' that opens
level 1025 is "depth limit exceeded" at the position just past it, except
when it is the input's last byte: then orjson (its parser, yyjson, reports
any error found at the end of the input as the end of data) says
"unexpected end of data" at the input's length. One byte more, white space
included, and it is "depth limit exceeded" again. conformance/edge.go
(runDepthAtEnd) holds every backend to the same rule in Go; here it is
checked through the Python API under each ISOJSON_BACKEND, for bytes,
bytearray, memoryview and str, short and at 64 KiB or more (parsed with the
GIL released), against the expected (msg, pos) and against orjson.
"""

import json

import pytest

import _util
from _util import isojson, orjson

DEPTH = 1024
END, TOO_DEEP = "unexpected end of data", "depth limit exceeded"
# Leading white space that takes an input past 64 KiB, where loads parses
# bytes and str without the GIL (a bytearray or memoryview is copied first).
LARGE_PAD = " " * (64 * 1024 + 100)
INPUT_TYPES = ("bytes", "bytearray", "memoryview", "str")


def texts():
    """(name, text, (msg, pos)): the 1025th level opened by the last byte,
    and by the byte before one more of every kind; pos counts characters."""
    prefixes = {
        "objects": '{"a":' * DEPTH,
        "objects spaced": '{"a" : ' * DEPTH,
        "non-ASCII keys": '{"\u00e9":' * DEPTH,
        "arrays of objects": '[{"a":' * (DEPTH // 2),
        "arrays of objects, two arrays": '[{"a":' * (DEPTH // 2 - 1) + "[[",
        "arrays after a value": "[1, " * DEPTH,
        "arrays": "[" * DEPTH,
        "after line breaks": "\n\n" + '{"a":' * DEPTH,
    }
    out = []
    for name, prefix in prefixes.items():
        for opener in "[{":
            text = prefix + opener
            out.append((f"{name} + {opener}", text, (END, len(text))))
            for more in (" ", "\n", "1", "]", "}", "[", '"a"', "x", "{}"):
                out.append((f"{name} + {opener}{more!r}", text + more, (TOO_DEEP, len(text))))
    # One level less: the input ends inside level 1024, and nothing is too deep.
    for more in ("", " "):
        text = '{"a":' * (DEPTH - 1) + "[" + more
        out.append((f"1024 levels + {more!r}", text, (END, len(text))))
    return out


def inputs():
    """(case id, input type, input, (msg, pos)) for every text, input type
    and size."""
    out = []
    for name, text, (msg, pos) in texts():
        for size, pad in (("short", ""), ("large", LARGE_PAD)):
            padded = pad + text
            data = padded.encode()
            for kind in INPUT_TYPES:
                inp = {"bytes": data, "bytearray": bytearray(data), "memoryview": memoryview(data),
                       "str": padded}[kind]
                out.append((f"{name} ({size} {kind})", kind, inp, (msg, pos + len(pad))))
    return out


def error_of(mod, inp):
    """(msg, pos, lineno, colno) of the JSONDecodeError loads raises, or a
    description of what it did instead."""
    try:
        mod.loads(inp)
    except mod.JSONDecodeError as e:
        return (e.msg, e.pos, e.lineno, e.colno)
    except Exception as e:  # noqa: BLE001 - reported as a failure
        return repr(e)[:200]
    return "accepted"


CHILD = """
    import importlib, json, os, sys
    import test_loads_depth as t

    mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
    try:
        backend = mod.backend
    except ValueError as e:  # not supported on this CPU (README, "Backends")
        print(json.dumps({"unsupported": str(e)}))
    else:
        print(json.dumps({"backend": backend, "errors": [t.error_of(mod, inp) for _, _, inp, _ in t.inputs()]}))
"""


def test_texts_cover_both_messages():
    got = [want[0] for _, _, want in texts()]
    assert got.count(END) >= 18 and got.count(TOO_DEEP) >= 100
    assert all(len(text) > DEPTH for _, text, _ in texts())
    assert len(LARGE_PAD) >= 64 * 1024


def test_orjson_follows_the_rule():
    """The expectations are orjson's: checked live wherever orjson does not
    fail its allocation instead (the runs of unclosed '[' short of 64 KiB,
    see README)."""
    checked = 0
    failures = []
    for case, _, inp, (msg, pos) in inputs():
        got = error_of(orjson, inp)
        if isinstance(got, tuple) and got[0] == "failed to allocate memory":
            assert "arrays" in case and "short" in case, (case, got)
            continue
        checked += 1
        if got[:2] != (msg, pos):
            failures.append((case, f"orjson {got}, expected {(msg, pos)}"))
    _util.report(failures, checked, "depth cases")
    assert checked >= 0.9 * len(inputs())


@pytest.mark.parametrize("name", isojson.backends)
def test_depth_limit_at_end_of_input(name):
    out = _util.run_python(CHILD, 240, env=_util.child_env(ISOJSON_BACKEND=name))
    res = json.loads(out)
    if "unsupported" in res:
        assert name != "scalar" and res["unsupported"].startswith(
            f'ISOJSON_BACKEND: backend "{name}" is not supported on this CPU: compiled in are '), res
        return
    assert res["backend"] == name
    failures = []
    cases = inputs()
    assert len(res["errors"]) == len(cases)
    for (case, _, inp, (msg, pos)), got in zip(cases, res["errors"]):
        got = tuple(got) if isinstance(got, list) else got
        # lineno/colno as orjson computes them: from pos over the text.
        want = orjson.JSONDecodeError(msg, inp if isinstance(inp, str) else bytes(inp).decode(), pos)
        if got != (msg, pos, want.lineno, want.colno):
            failures.append((case, f"{name}: {got}, want {(msg, pos, want.lineno, want.colno)}"))
    _util.report(failures, len(cases), f"depth cases under ISOJSON_BACKEND={name}")

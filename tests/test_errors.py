"""Errors, compared with orjson 3.13: the exception type and message of
every dumps failure mode, and JSONDecodeError's msg/pos/lineno/colno/doc on
a few hundred invalid inputs (bytes and str, multi-line, non-ASCII before
the error)."""

import collections
import decimal
import json
import os

import pytest

import _util
from _util import isojson, orjson

SEED = 4_040


def _same_dumps_outcome(obj, **kwargs):
    want = _util.renamed(_util.outcome(orjson.dumps, obj, **kwargs))
    got = _util.outcome(isojson.dumps, obj, **kwargs)
    assert got == want


# ---------------------------------------------------------------------------
# dumps


Point = collections.namedtuple("Point", "x y")


class Opaque:
    pass


UNSUPPORTED = {
    "object": object(), "set": {1, 2}, "frozenset": frozenset(), "complex": 1j, "bytes": b"x",
    "bytearray": bytearray(b"x"), "memoryview": memoryview(b"x"), "Decimal": decimal.Decimal("1.5"),
    "type": int, "function": len, "range": range(3), "instance": Opaque(), "float subclass": _util.MyFloat(1.0),
    "tuple subclass": _util.MyTuple((1,)), "namedtuple": Point(1, 2), "exception": ValueError("x"),
    "nested": {"a": [1, {"b": object()}]},
}


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_unsupported_type(name):
    _same_dumps_outcome(UNSUPPORTED[name])
    _same_dumps_outcome([UNSUPPORTED[name]], option=orjson.OPT_INDENT_2)


@pytest.mark.parametrize("option", [0, orjson.OPT_PASSTHROUGH_SUBCLASS, orjson.OPT_SORT_KEYS])
def test_passthrough_subclass_without_default(option):
    for obj in (_util.MyStr("s"), _util.MyInt(1), _util.MyDict(a=1), _util.MyList([1]), {"k": [_util.MyStr("s")]}):
        _same_dumps_outcome(obj, option=option)


NON_STR_KEYS = {
    "int": {1: 2}, "float": {1.5: 2}, "None": {None: 1}, "bool": {True: 1}, "str subclass": {_util.MyStr("k"): 1},
    "tuple": {(1, 2): 3}, "frozenset": {frozenset(): 1}, "big int": {1 << 64: 1}, "negative big int": {-(1 << 63) - 1: 1},
    "int subclass": {_util.MyInt(3): 1}, "object": {Opaque(): 1}, "after str": {"a": 1, 2: 3},
    "nested": {"a": {"b": {3: 4}}},
}


@pytest.mark.parametrize("name", NON_STR_KEYS)
@pytest.mark.parametrize("option", [0, orjson.OPT_NON_STR_KEYS, orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS,
                                    orjson.OPT_SORT_KEYS])
def test_non_str_key(name, option):
    _same_dumps_outcome(NON_STR_KEYS[name], option=option)


def test_sort_keys_with_mixed_key_types():
    _same_dumps_outcome({"b": 1, 2: 2, None: 3, 1.5: 4}, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def test_circular_references():
    a = []
    a.append(a)
    d = {}
    d["self"] = d
    deep = {"x": [{"y": []}]}
    deep["x"][0]["y"].append(deep)
    for obj in (a, d, deep, [1, a]):
        _same_dumps_outcome(obj)
        _same_dumps_outcome(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    # A default that returns its argument, and one that returns a cycle.
    _same_dumps_outcome(Opaque(), default=lambda o: o)
    _same_dumps_outcome(Opaque(), default=lambda o: a)


def test_too_deep():
    for depth in (254, 255, 256, 1000, 5000):
        _same_dumps_outcome(_util.nested(depth))
        v = {}
        for _ in range(depth):
            v = {"k": v}
        _same_dumps_outcome(v, option=orjson.OPT_SORT_KEYS)
    # default= that keeps nesting.
    _same_dumps_outcome(Opaque(), default=lambda o: [o])
    _same_dumps_outcome(Opaque(), default=lambda o: {"o": Opaque()})


class Boom(Exception):
    pass


def _raise_boom(obj):
    raise Boom(f"cannot do {type(obj).__name__}")


def _raise_type_error(obj):
    raise TypeError("not this one")


def test_default_raising_sets_cause():
    for dflt in (_raise_boom, _raise_type_error):
        _same_dumps_outcome({"a": Opaque()}, default=dflt)
    try:
        isojson.dumps([Opaque()], default=_raise_boom)
    except TypeError as e:
        assert type(e.__cause__) is Boom and str(e.__cause__) == "cannot do Opaque"
    else:
        raise AssertionError("dumps did not raise")


def test_default_returning_unsupported():
    _same_dumps_outcome(Opaque(), default=lambda o: object())
    _same_dumps_outcome(Opaque(), default=lambda o: {1, 2})
    _same_dumps_outcome([Opaque()], default=lambda o: None)  # None is serializable: [null]
    _same_dumps_outcome(Opaque(), default=lambda o: _util.MyFloat(1.0))


def test_default_not_callable():
    for dflt in (1, "x", [], object()):
        _same_dumps_outcome(Opaque(), default=dflt)
        _same_dumps_outcome([1], default=dflt)  # never called: no error


def test_lone_surrogates():
    for s in ("\ud800", "a\udfff", "\ud83d", "x" * 100 + "\udc00", "\udc00\ud800", "é\ud800"):
        _same_dumps_outcome(s)
        _same_dumps_outcome([s], option=orjson.OPT_INDENT_2)
        _same_dumps_outcome({s: 1})
        _same_dumps_outcome({s: 1}, option=orjson.OPT_SORT_KEYS)
        _same_dumps_outcome(_util.MyStr(s))


def test_int_too_large_with_strict_integer():
    for v in ((1 << 53), -(1 << 53), (1 << 53) - 1, -(1 << 53) + 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 70),
              _util.MyInt(1 << 60)):
        _same_dumps_outcome(v, option=orjson.OPT_STRICT_INTEGER)
        _same_dumps_outcome({"v": [v]}, option=orjson.OPT_STRICT_INTEGER | orjson.OPT_INDENT_2)


def test_int_beyond_64_bits_as_key():
    """Non-str keys stay orjson's: a key beyond 64 bits is an error."""
    _same_dumps_outcome({1 << 64: 1}, option=orjson.OPT_NON_STR_KEYS)


OPTION_VALUES = {
    "unknown bit": 1 << 12, "highest bit": 1 << 31, "negative": -1, "all bits": (1 << 12) - 1, "bool": True,
    "float": 1.0, "str": "1", "bytes": b"1", "list": [1], "object": object(), "int subclass": _util.MyInt(1),
    "none": None, "zero": 0,
}


@pytest.mark.parametrize("name", OPTION_VALUES)
def test_option_values_and_types(name):
    _same_dumps_outcome([1, {"a": 2}], option=OPTION_VALUES[name])


@pytest.mark.parametrize("value", [1 << 32, (1 << 32) + 1, 1 << 63, 1 << 64, 1 << 70, -(1 << 63)])
def test_option_out_of_range_integers(value):
    """orjson's handling of an option int that does not fit 32 bits."""
    _same_dumps_outcome([1, {"a": 2}], option=value)


def _call(fn, *args, **kwargs):
    return _util.renamed(_util.outcome(fn, *args, **kwargs))


DUMPS_CALLS = {
    "no args": ((), {}),
    "obj as keyword": ((), {"obj": 1}),
    "unknown keyword": ((1,), {"foo": 1}),
    "unknown keyword with valid ones": ((1,), {"option": 0, "default": None, "x": 1}),
    "default positionally": ((Opaque(), _util.default), {}),
    "default and option positionally": (([1], None, orjson.OPT_INDENT_2), {}),
    "four positional": ((1, None, None, None), {}),
    "default twice": (([1], None), {"default": None}),
    "option twice": (([1], None, 0), {"option": 0}),
    "keywords only": (([1],), {"default": None, "option": None}),
}


@pytest.mark.parametrize("name", DUMPS_CALLS)
def test_dumps_argument_errors(name):
    args, kwargs = DUMPS_CALLS[name]
    assert _util.outcome(isojson.dumps, *args, **kwargs) == _call(orjson.dumps, *args, **kwargs)


LOADS_CALLS = {
    "no args": ((), {}),
    "two args": ((b"1", b"2"), {}),
    "keyword": ((), {"obj": b"1"}),
    "keyword and positional": ((b"1",), {"x": 1}),
}


@pytest.mark.parametrize("name", LOADS_CALLS)
def test_loads_argument_errors(name):
    args, kwargs = LOADS_CALLS[name]
    assert _util.outcome(isojson.loads, *args, **kwargs) == _call(orjson.loads, *args, **kwargs)


LOADS_WRONG_TYPES = {
    "int": 1, "None": None, "list": [b"1"], "bytes subclass": type("B", (bytes,), {})(b"[1]"),
    "str subclass": _util.MyStr("[1]"), "non-contiguous memoryview": memoryview(b"[1,2]")[::2],
    "bytearray subclass": type("BA", (bytearray,), {})(b"[1]"), "dict": {},
    "memoryview of ints": memoryview(bytearray(b"[1]\x00")).cast("i"),
}


@pytest.mark.parametrize("name", LOADS_WRONG_TYPES)
def test_loads_wrong_input_type(name):
    assert _util.outcome(isojson.loads, LOADS_WRONG_TYPES[name]) == _util.outcome(orjson.loads,
                                                                                    LOADS_WRONG_TYPES[name])


def test_exception_classes():
    assert issubclass(isojson.JSONDecodeError, json.JSONDecodeError)
    assert issubclass(isojson.JSONDecodeError, ValueError)
    assert isojson.JSONEncodeError is TypeError
    try:
        isojson.loads(b"[1,")
    except json.JSONDecodeError as e:
        assert type(e) is isojson.JSONDecodeError
        assert isinstance(e, ValueError)
        assert (e.msg, e.pos, e.lineno, e.colno, e.doc) == ("unexpected end of data", 3, 1, 4, "[1,")
    try:
        isojson.dumps(object())
    except isojson.JSONEncodeError as e:
        assert type(e) is TypeError
    # json.JSONDecodeError's pickling keeps the attributes.
    import pickle
    try:
        isojson.loads("[\n1 2]")
    except ValueError as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert (e2.msg, e2.pos, e2.lineno, e2.colno) == (e.msg, e.pos, e.lineno, e.colno)


# ---------------------------------------------------------------------------
# loads: JSONDecodeError positions and messages on invalid inputs


def _suite_rejects():
    out = []
    for name in sorted(os.listdir(_util.SUITE_DIR)):
        if name.startswith(("n_", "i_")):
            with open(os.path.join(_util.SUITE_DIR, name), "rb") as f:
                out.append((name, f.read()))
    return out


PREFIXES = ("", "\n\n", "  \r\n\t", "é", "\n\U0001F600\n  ", "[\"日本語\",\n \"ü\",\n", "{\"ключ\":\n  [1,\n")


def _mutations():
    """Valid documents broken in seeded ways, after prefixes with newlines and
    non-ASCII text, so that line, column and char offsets are all exercised."""
    gen = _util.TextGen(SEED)
    out = []
    while len(out) < 360:
        text = gen.document(depth=gen.rng.randint(1, 4))
        prefix = gen.rng.choice(PREFIXES)
        how = gen.rng.randrange(6)
        if how == 0 and len(text) > 1:  # truncated
            text = text[:gen.rng.randrange(1, len(text))]
        elif how == 1:  # a stray character
            i = gen.rng.randrange(len(text) + 1)
            text = text[:i] + gen.rng.choice(("x", "}", "]", ",", ":", "'", "\\", "\x00", "\u00e9", "\x01", "NaN",
                                              "-", "+", ".", "01", "tru", '"')) + text[i:]
        elif how == 2:  # a character deleted
            i = gen.rng.randrange(len(text))
            text = text[:i] + text[i + 1:]
        elif how == 3:  # trailing content
            text += gen.rng.choice((" x", ",", "]", "{}", " 1", "\n\n  nul"))
        elif how == 4:  # a raw control character or bad escape inside a string
            text = '["ok", "' + gen.rng.choice(("\x01", "\\q", "\\u12", "\\ud800", "\\udc00", "\t", "\\u00G0")) + '"]'
        else:  # an unclosed prefix
            text = ""
        text = prefix + text
        if _util.outcome(orjson.loads, text)[0] == "error":
            out.append((f"mutation#{len(out)}", text))
    return out


INVALID = _suite_rejects() + _mutations() + [
    ("empty", b""), ("whitespace", b" \n "), ("bom", b"\xef\xbb\xbf{}"), ("bad utf-8", b'["\xc3"]'),
    ("overlong utf-8", b'"\xc0\xaf"'), ("encoded surrogate", b'"\xed\xa0\x80"'),
    ("depth 1025", b"[" * 1025 + b"]" * 1025), ("dict depth 1025", b'{"a":' * 1025 + b"1" + b"}" * 1025),
    ("float overflow", b"[1e400]"), ("bad utf-8 late", "\n\n é".encode() + b"\xff"),
    ("str lone surrogate", "[\"\ud800\"]"),
]


def _decode_error(fn, data):
    try:
        fn(data)
    except Exception as e:  # noqa: BLE001
        return _util.describe_exc(e)
    return "accepted"


@pytest.mark.parametrize("input_type", ["bytes", "str"])
def test_decode_errors(input_type):
    failures = []
    for name, data in INVALID:
        if input_type == "str":
            data = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
        else:
            data = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        want = _decode_error(orjson.loads, data)
        got = _decode_error(isojson.loads, data)
        if got != want:
            failures.append((name, f"got {got!r:.300}, want {want!r:.300}"))
    _util.report(failures, len(INVALID), "invalid inputs")


def test_decode_error_inputs_cover_lines_and_non_ascii():
    """The invalid inputs are a few hundred, and many fail beyond line 1 or
    after non-ASCII text (so lineno, colno and pos are really tested)."""
    errs = [e for _, data in INVALID if (e := _decode_error(orjson.loads, data)) != "accepted"]
    assert len(errs) >= 500
    assert sum(e["lineno"] > 1 for e in errs) >= 100
    assert sum(not e["doc"][:e["pos"]].isascii() for e in errs) >= 100


def test_decode_error_is_catchable_everywhere():
    for exc in (json.JSONDecodeError, ValueError, isojson.JSONDecodeError):
        with pytest.raises(exc):
            isojson.loads("{")


def test_fragment_errors():
    for contents in ("\ud800", "ok\udfff", 1, None, 1.5, bytearray(b"[1]"), memoryview(b"[1]"), ["[1]"]):
        got = _util.outcome(isojson.dumps, [isojson.Fragment(contents)])
        want = _util.renamed(_util.outcome(orjson.dumps, [orjson.Fragment(contents)]))
        assert got == want, contents

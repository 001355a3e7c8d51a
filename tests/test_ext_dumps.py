"""The dumps side of the C extension (pyshim/dumps/*.c, fragment.c): argument
and option checks, limits, default=, Fragment, strings by width, big ints,
the order of errors under OPT_SORT_KEYS, object lifetimes when default=
mutates what is being walked, nested calls and threads. Every behaviour is
compared with orjson 3.13 itself, never with a hand-written expectation,
except where isojson deliberately differs (ints beyond 64 bits)."""

import gc
import json
import os
import random
import re
import sys
import threading

import pytest

import _util
from _util import isojson, orjson

OPT_SORT_KEYS = orjson.OPT_SORT_KEYS


def same(call_iso, call_orjson):
    """The outcomes of two calls, compared (bytes or exception type, message
    and cause)."""
    got, want = _util.outcome(call_iso), _util.outcome(call_orjson)
    assert got == want
    return got


class Unknown:
    pass


# --------------------------------------------------------------------------
# Arguments and options.

ARGUMENT_CASES = [
    ((), {}),
    ((1,), {}),
    ((1, None), {}),
    ((1, None, None), {}),
    ((1, None, 0), {}),
    ((1, 2, 3), {}),          # a non-callable default is only called when needed
    ((1, 2, 3, 4), {}),       # orjson reads neither default nor option from 4 arguments
    ((Unknown(), str, 0, 4), {}),
    ((Unknown(), 2, 3, 4, 5), {}),
    ((Unknown(), str, 3, 4, 5, 6), {}),
    ((Unknown(), str, 2, 4, 5, 6, 7), {}),
    ((), {"obj": 1}),
    ((1,), {"default": None}),
    ((1,), {"option": None}),
    ((1,), {"option": 0, "default": None}),
    ((1, None), {"default": None}),
    ((1, None, 0), {"option": 0}),
    ((1, None), {"option": 2}),
    ((1,), {"foo": 1}),
    ((1,), {"option": 0, "foo": 1}),
    ((1, None, 0, 4), {"option": 0}),
    ((Unknown(),), {"default": str}),
    ((Unknown(),), {"default": None}),
    ((Unknown(), None), {}),
]


# The ids leave out object addresses (" at 0x..."), which would rename the cases on every run (and
# move them in ISOJSON_TEST_SAMPLE's sample and ISOJSON_TEST_SHARD's shards).
@pytest.mark.parametrize("args,kwargs", ARGUMENT_CASES,
                         ids=[f"{re.sub(' at 0x[0-9a-f]+', '', repr(a)):.40}-{k}" for a, k in ARGUMENT_CASES])
def test_arguments_as_orjson(args, kwargs):
    got = _util.outcome(isojson.dumps, *args, **kwargs)
    want = _util.outcome(orjson.dumps, *args, **kwargs)
    if got[0] == want[0] == "error":
        # Unknown's repr differs between the two calls; compare the rest.
        got[1].pop("str", None) if "Unknown" in got[1]["str"] else None
        want[1].pop("str", None) if "Unknown" in want[1]["str"] else None
    assert got == want


class IntSub(int):
    pass


OPTION_VALUES = [None, 0, 1, 4095, 4096, -1, -4096, True, False, IntSub(1), 1.0, "1", b"1", [1],
                 2**30 - 1, 2**30, 2**30 + 32, 2**31, 2**31 + 32, 2**32, 2**32 + 1, 2**33 + 32,
                 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 32, 2**65, 2**100, 2**100 + 1,
                 -(2**30), -(2**30) - 1, -(2**63), -(2**64), 3 * 2**64]


@pytest.mark.parametrize("value", OPTION_VALUES, ids=repr)
def test_option_validation_as_orjson(value):
    """orjson accepts only an exact int within 0..4095 — and, by a quirk of
    its conversion, any larger int whose low 30 bits are zero, as no option."""
    doc = {"b": [1, {"d": 1, "c": 2}], "a": 2}
    same(lambda: isojson.dumps(doc, option=value), lambda: orjson.dumps(doc, option=value))
    same(lambda: isojson.dumps(doc, None, value), lambda: orjson.dumps(doc, None, value))


def test_every_single_option_bit_and_unknown_bits():
    doc = {"b": [1, 2.5, "x", None, True], "a": {"z": [], "y": {}}}
    for bit in range(40):
        value = 1 << bit
        same(lambda: isojson.dumps(doc, option=value), lambda: orjson.dumps(doc, option=value))


def test_jsonencodeerror_is_typeerror():
    assert isojson.JSONEncodeError is TypeError
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(Unknown())


# --------------------------------------------------------------------------
# Limits: nesting and default= depth.


def nest_lists(n):
    x = []
    for _ in range(n - 1):
        x = [x]
    return x


def nest_dicts(n):
    x = {}
    for _ in range(n - 1):
        x = {"a": x}
    return x


@pytest.mark.parametrize("n", [1, 2, 253, 254, 255, 256, 1000])
def test_container_depth_limit(n):
    for make in (nest_lists, nest_dicts):
        doc = make(n)
        for option in (0, orjson.OPT_INDENT_2 | OPT_SORT_KEYS):
            same(lambda: isojson.dumps(doc, option=option), lambda: orjson.dumps(doc, option=option))


def build_nesting(spec, leaf=1):
    """Containers from the outside in: L list, T tuple, D dict, M MyList."""
    x = leaf
    for ch in reversed(spec):
        x = {"L": lambda v: [v], "T": lambda v: (v,), "D": lambda v: {"a": v}, "M": lambda v: _util.MyList([v])}[ch](x)
    return x


NESTING_SPECS = ["L" * 253 + "T" + "L", "L" * 254 + "TL", "L" * 254 + "T" + "L" * 300, "TL" * 300, "LT" * 128,
                 "TLL" * 84, "TLL" * 85, "T" + "D" * 253, "D" * 253 + "T" + "D",
                 "L" * 254, "L" * 255, "T" + "L" * 253, "T" + "L" * 254, "L" * 254 + "T", "L" * 255 + "T",
                 "TT" + "L" * 252, "TT" + "L" * 253, "LT" * 127, "LT" * 128, "T" * 253 + "L", "T" * 254 + "L",
                 "T" * 300, "T" * 600, "L" * 100 + "T" + "L" * 153, "L" * 100 + "T" + "L" * 154,
                 "D" * 254, "T" + "D" * 254, "M" * 254, "M" * 255, "LD" * 127, "DL" * 128]


@pytest.mark.parametrize("spec", NESTING_SPECS, ids=lambda s: f"{s[:6]}..{len(s)}")
def test_nesting_limits_with_tuples_as_orjson(spec):
    """orjson 3.13 counts a tuple as a level for what it contains, never
    checks the limit on a tuple itself, and raises for a list or dict at
    exactly level 255 (not below it: nesting goes on below a tuple there)."""
    for leaf in (1, [], (), {}):
        doc = build_nesting(spec, leaf)
        same(lambda: isojson.dumps(doc), lambda: orjson.dumps(doc))


def test_empty_containers_inside_leaf_lists():
    """A list's member that is a short list or tuple of scalars and empty
    exact lists and dicts is written in one piece by the C walk
    (dumps_cursor_leaf_at with nest); subclasses, non-empty dicts and longer
    lists take the general path. Same bytes as orjson, every option, each
    shape at the root and inside a list, and at the edge of the depth limit."""
    members = [[[]], [{}], [[], {}], [1, [], "a", {}, None], ([], {}), [[], ()], [[{}]], [[[]]],
               [_util.MyList(), {}], [[], _util.MyDict()], [{}, {"a": 1}], [[]] * 16, [{}] * 17,
               [[], [1, 2]], [1.5, [], True, {}, -(2**40)]]
    docs = [[m] for m in members] + [members, [[m, m] for m in members], {"k": members}]
    for doc in docs:
        for option in (0, orjson.OPT_INDENT_2, OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS):
            same(lambda: isojson.dumps(doc, option=option), lambda: orjson.dumps(doc, option=option))
    for n in (252, 253, 254, 255):
        for inner in ([[]], [{}], [1, {}], ([],)):
            doc = build_nesting("L" * n, inner)
            same(lambda: isojson.dumps(doc), lambda: orjson.dumps(doc))


def test_tuple_nesting_hard_cap():
    """Tuples nested beyond 1024 levels raise instead of recursing on (orjson
    crashes the process on a few thousand)."""
    assert isojson.dumps(build_nesting("T" * 1024)) == b"[" * 1024 + b"1" + b"]" * 1024
    for spec in ("T" * 1025, "T" * 5000, "TL" * 2000, "L" * 254 + "T" * 2000):
        with pytest.raises(TypeError, match="^Recursion limit reached$"):
            isojson.dumps(build_nesting(spec))


def test_circular_references_raise_recursion_limit():
    a = []
    a.append(a)
    d = {}
    d["d"] = d
    mixed = {"l": []}
    mixed["l"].append(mixed)
    for obj in (a, d, mixed):
        same(lambda: isojson.dumps(obj), lambda: orjson.dumps(obj))
        same(lambda: isojson.dumps(obj, option=OPT_SORT_KEYS), lambda: orjson.dumps(obj, option=OPT_SORT_KEYS))


def chain_default(n, wrap):
    """A default= that answers n-1 times with a new unknown object (wrapped by
    wrap) and then with 1; returns (default, calls made)."""
    calls = [0]

    def default(obj):
        calls[0] += 1
        return wrap(Unknown()) if calls[0] < n else 1

    return default, calls


@pytest.mark.parametrize("n", [1, 2, 254, 255, 256, 300])
@pytest.mark.parametrize("wrap", [lambda o: o, lambda o: [o], lambda o: {"k": o}, lambda o: (o,)],
                         ids=["bare", "list", "dict", "tuple"])
def test_default_depth_limit_and_call_count(n, wrap):
    d1, calls1 = chain_default(n, wrap)
    d2, calls2 = chain_default(n, wrap)
    same(lambda: isojson.dumps(Unknown(), default=d1), lambda: orjson.dumps(Unknown(), default=d2))
    assert calls1 == calls2


def test_default_calls_are_counted_per_path_not_in_total():
    doc = [Unknown() for _ in range(1000)]
    same(lambda: isojson.dumps(doc, default=lambda o: [1]), lambda: orjson.dumps(doc, default=lambda o: [1]))


# --------------------------------------------------------------------------
# default=


def test_default_exception_becomes_cause():
    def bad(obj):
        raise ValueError("boom")

    for obj in (Unknown(), [1, {"a": Unknown()}], {"x": set()}):
        got = _util.outcome(isojson.dumps, obj, default=bad)
        want = _util.outcome(orjson.dumps, obj, default=bad)
        assert got == want
    with pytest.raises(TypeError) as info:
        isojson.dumps(Unknown(), default=bad)
    e = info.value
    assert isinstance(e.__cause__, ValueError) and e.__suppress_context__ and e.__context__ is None


def test_default_result_types():
    results = [1, "s", None, True, 2.5, [1, 2], {"a": 1}, (1,), _util.MyStr("m"), orjson.Fragment(b"[7]"),
               {"deep": [Unknown()]}, Unknown(), set()]
    for r in results:
        if isinstance(r, orjson.Fragment):
            ri = isojson.Fragment(b"[7]")
        else:
            ri = r
        got = _util.outcome(isojson.dumps, [Unknown()], default=lambda o, r=ri: r if type(o) is Unknown else 5)
        want = _util.outcome(orjson.dumps, [Unknown()], default=lambda o, r=r: r if type(o) is Unknown else 5)
        if got[0] == want[0] == "error":
            # Both refuse their own Fragment of the other module; compare the shape.
            assert got[1]["type"] == want[1]["type"]
        else:
            assert got == want, r


def test_default_order_follows_sort_keys():
    """orjson sorts before it serializes values: default= sees the values in
    key order, and the first error raised is the first in key order."""
    doc = {"c": Unknown(), "a": Unknown(), "b": [Unknown(), Unknown()], "é": Unknown(), "B": Unknown()}
    for option in (0, OPT_SORT_KEYS):
        seen_i, seen_o = [], []
        ids = {id(v): k for k, v in doc.items()}
        isojson.dumps(doc, option=option, default=lambda o: seen_i.append(ids.get(id(o))) or 0)
        orjson.dumps(doc, option=option, default=lambda o: seen_o.append(ids.get(id(o))) or 0)
        assert seen_i == seen_o
    bad = {"z": Unknown(), "b": 2**53, "a": set(), "m": _util.MyFloat(1)}
    for option in (OPT_SORT_KEYS, OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER, orjson.OPT_STRICT_INTEGER):
        same(lambda: isojson.dumps(bad, option=option), lambda: orjson.dumps(bad, option=option))


def test_default_may_call_dumps():
    """A nested dumps (from default=) gets its own buffers."""
    inner = {"k": ["v" * 100, 1.5, [None] * 50]}

    def d_iso(o):
        return isojson.dumps(inner).decode() + isojson.dumps(inner, option=orjson.OPT_INDENT_2).decode()

    def d_orj(o):
        return orjson.dumps(inner).decode() + orjson.dumps(inner, option=orjson.OPT_INDENT_2).decode()

    doc = [Unknown(), {"x": Unknown()}, "tail" * 100]
    same(lambda: isojson.dumps(doc, default=d_iso), lambda: orjson.dumps(doc, default=d_orj))


# --------------------------------------------------------------------------
# Lifetimes: default= changes what is being walked. orjson itself crashes on
# these (it reads freed memory), so the expected output is written out: what
# was walked before the change is written as it was, a list is walked up to
# its current length, a dict until PyDict_Next ends (under OPT_SORT_KEYS the
# members were collected, and are kept alive, before any value). Also run
# under PYTHONMALLOC=debug by test_mutation_under_debug_malloc.


def fresh(s):
    """A new str equal to s, referenced by nothing else (not a constant)."""
    return "".join(list(s))


def mutation_cases():
    """(name, build) pairs; build() returns a fresh (doc, default, expected
    by option) whose default= mutates doc while dumps walks it. Every str in
    doc is made at run time, so that the mutation frees it."""

    def clear_parent():
        inner = [fresh("s" + "x" * 40), fresh("é" * 30), fresh("😀" * 5), {fresh("k" * 30): fresh("v" * 30)},
                 Unknown(), fresh("never")]
        doc = [inner, "after"]

        def default(o):
            doc.clear()  # drops inner (being walked) and its strings
            inner.clear()
            return "replaced" * 10
        want = [["s" + "x" * 40, "é" * 30, "😀" * 5, {"k" * 30: "v" * 30}, "replaced" * 10]]
        return doc, default, {0: want, OPT_SORT_KEYS: want}

    def pop_dict():
        doc = {fresh("a" * 20): fresh("x" * 50), fresh("b" * 20): Unknown(), fresh("c" * 20): fresh("y" * 50),
               fresh("d" * 20): [fresh("z" * 40)]}

        def default(o):
            for k in list(doc):
                doc.pop(k)
            return 1
        return doc, default, {0: {"a" * 20: "x" * 50, "b" * 20: 1},
                              OPT_SORT_KEYS: {"a" * 20: "x" * 50, "b" * 20: 1, "c" * 20: "y" * 50, "d" * 20: ["z" * 40]}}

    def rebind_strings():
        strs = ["%d-%s" % (i, "q" * 30) for i in range(50)]
        doc = {fresh("k"): [fresh(x) for x in strs] + [Unknown(), fresh("tail")]}

        def default(o):
            doc["k"][:] = [0] * 3
            del doc["k"]
            return None
        want = {"k": strs + [None]}
        return doc, default, {0: want, OPT_SORT_KEYS: want}

    def grow_list():
        # Each call moves the list's items to a bigger array, which the walk
        # must read from then on; what was appended is not written (the list's
        # items are those it had when its walk began, as in orjson).
        doc = [Unknown(), fresh("a" * 20), Unknown(), fresh("b" * 20)]

        def default(o):
            doc.extend(fresh("n" * 30) for _ in range(40))
            return len(doc)
        want = [44, "a" * 20, 84, "b" * 20]
        return doc, default, {0: want, OPT_SORT_KEYS: want}

    def default_drops_its_argument():
        doc = {fresh("list"): [Unknown(), fresh("x" * 20)]}

        def default(o):
            doc["list"][0] = 0  # o's only other reference goes away
            return type(o).__name__ * 3
        want = {"list": ["UnknownUnknownUnknown", "x" * 20]}
        return doc, default, {0: want, OPT_SORT_KEYS: want}

    return [("clear_parent", clear_parent), ("pop_dict", pop_dict), ("rebind_strings", rebind_strings),
            ("grow_list", grow_list), ("default_drops_its_argument", default_drops_its_argument)]


@pytest.mark.parametrize("name,build", mutation_cases(), ids=[n for n, _ in mutation_cases()])
@pytest.mark.parametrize("option", [0, OPT_SORT_KEYS])
def test_default_mutating_the_document(name, build, option):
    doc, default, want = build()
    got = isojson.dumps(doc, default=default, option=option)
    assert orjson.loads(got) == want[option]
    gc.collect()


@pytest.mark.slow
def test_mutation_under_debug_malloc():
    """The same scenarios in a child with PYTHONMALLOC=debug, whose freed
    memory is poisoned: a dangling pointer into a freed str shows up as
    garbage bytes or a crash. Under ISOJSON_TEST_SAMPLE each case 5 times
    instead of 20 (a collection each time: 12 s of make test-pydbg, whose
    own tests run under a debug allocator already)."""
    out = _util.run_python("""
        import gc, test_ext_dumps as t
        import _util
        from _util import isojson, orjson
        for opt in (0, orjson.OPT_SORT_KEYS):
            for name, build in t.mutation_cases():
                for _ in range(_util.sampled(20, 5)):
                    doc, default, want = build()
                    got = isojson.dumps(doc, default=default, option=opt)
                    assert orjson.loads(got) == want[opt], (name, got)
                    gc.collect()
        print("ok")
    """, 300, env=_util.child_env(PYTHONMALLOC="debug"))
    assert out.strip().endswith("ok")


# --------------------------------------------------------------------------
# Strings.


def test_strings_of_every_width_and_utf8_cache():
    """ASCII, Latin-1, BMP and astral strs, with and without CPython's cached
    UTF-8 (which dumps reads when present and never creates)."""
    samples = ["", "a", "ascii" * 50, "é", "café" * 30, "\xff" * 10, "日本語" * 20, "€", "\uffff",
               "😀", "a😀b" * 40, "\U0010ffff", "\x00\x1f\"\\", "é\n\t😀\u2028"]
    for s in samples:
        fresh = "".join(list(s))  # a new str without a UTF-8 cache
        size = sys.getsizeof(fresh)
        for obj in (fresh, [fresh], {fresh: fresh}, _util.MyStr(fresh)):
            for option in (0, OPT_SORT_KEYS | orjson.OPT_INDENT_2):
                same(lambda: isojson.dumps(obj, option=option), lambda: orjson.dumps(obj, option=option))
        if not fresh.isascii():
            assert sys.getsizeof(fresh) == size or True  # orjson itself may cache; see below
        cached = "".join(list(s))
        cached.encode("utf-8")
        import ctypes  # noqa: F401  (PyUnicode_AsUTF8 through the C API caches UTF-8)
        ctypes.pythonapi.PyUnicode_AsUTF8.restype = ctypes.c_char_p
        ctypes.pythonapi.PyUnicode_AsUTF8.argtypes = [ctypes.py_object]
        ctypes.pythonapi.PyUnicode_AsUTF8(cached)
        assert isojson.dumps([cached, {cached: cached}]) == orjson.dumps([cached, {cached: cached}])


def test_dumps_leaves_no_utf8_copy_on_strings():
    for s in ("café", "日本語", "a😀", "\xff" * 100):
        fresh = "".join(list(s))
        size = sys.getsizeof(fresh)
        isojson.dumps([fresh, {fresh: fresh}], option=OPT_SORT_KEYS)
        assert sys.getsizeof(fresh) == size, s


SURROGATES = ["\ud800", "\udfff", "a\udc00b", "\ud83d\ude00", "😀\ud800", "é\udfff", "x" * 17 + "\ud800"]


@pytest.mark.parametrize("s", SURROGATES, ids=ascii)
def test_surrogates_are_refused(s):
    for obj in (s, [s], {"k": s}, {s: 1}, _util.MyStr(s)):
        for option in (0, OPT_SORT_KEYS):
            same(lambda: isojson.dumps(obj, option=option), lambda: orjson.dumps(obj, option=option))


def test_sort_keys_orders_by_code_point_across_widths():
    keys = ["b", "a", "é", "ÿ", "€", "日", "😀", "\U0010ffff", "", "aa", "a\x00", "A", "Z", "z", "\x7f",
            "\x80", "\uffff", "éa", "éA", "😀a", "ab" * 20]
    for k in list(keys):
        cached = "".join(list(k))
        cached.encode()
        keys.append(cached + "!")
    doc = {k: i for i, k in enumerate(keys)}
    for option in (OPT_SORT_KEYS, OPT_SORT_KEYS | orjson.OPT_INDENT_2):
        same(lambda: isojson.dumps(doc, option=option), lambda: orjson.dumps(doc, option=option))


# --------------------------------------------------------------------------
# Integers.


def test_big_ints_respect_int_max_str_digits():
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(640)
        ok = 10**639
        assert isojson.dumps([ok]) == b"[" + str(ok).encode() + b"]"
        with pytest.raises(ValueError) as info:
            isojson.dumps([10**640])
        with pytest.raises(ValueError) as want:
            str(10**640)
        assert str(info.value) == str(want.value)
    finally:
        sys.set_int_max_str_digits(old)


def test_int_subclass_with_its_own_str_is_written_by_value():
    class Loud(int):
        def __str__(self):
            return "loud"

        __repr__ = __str__

    for v in (5, 2**63, 2**64 - 1, -(2**63), 2**70):
        got = isojson.dumps([Loud(v)])
        assert got == b"[" + int.__repr__(v).encode() + b"]"


# --------------------------------------------------------------------------
# Fragment.


def test_fragment_type():
    F = isojson.Fragment
    assert F.__name__ == "Fragment"
    assert F.__module__ == "isojson"
    with pytest.raises(TypeError):
        class Sub(F):  # noqa: F841 - not an acceptable base type, as orjson
            pass
    for args, kwargs in (((), {}), ((b"1", 2), {}), ((), {"contents": b"1"}), ((b"1",), {"x": 1})):
        with pytest.raises(TypeError) as info:
            F(*args, **kwargs)
        assert str(info.value) == "isojson.Fragment() takes exactly 1 positional argument"
        with pytest.raises(TypeError):
            orjson.Fragment(*args, **kwargs)
    f = F(b"1")
    with pytest.raises(AttributeError):
        f.x = 1
    with pytest.raises(AttributeError):
        f.contents  # noqa: B018 - no attributes, as orjson


FRAGMENTS = [b"1", b"[1,2]", b'{"a": 1}', b"", b"not json", '["str"]', "é😀", "", bytes(range(256)),
             b"\xff\xfe", "\x00"]


@pytest.mark.parametrize("contents", FRAGMENTS, ids=repr)
def test_fragment_contents_written_verbatim(contents):
    for option in (0, orjson.OPT_INDENT_2, orjson.OPT_APPEND_NEWLINE | OPT_SORT_KEYS):
        for wrap in (lambda f: f, lambda f: [f, f], lambda f: {"b": f, "a": [f]}):
            same(lambda: isojson.dumps(wrap(isojson.Fragment(contents)), option=option),
                 lambda: orjson.dumps(wrap(orjson.Fragment(contents)), option=option))


# ids of their own: repr of a memoryview holds its address, which would change the test's name (and
# with it its place in ISOJSON_TEST_SAMPLE's sample and ISOJSON_TEST_SHARD's shards) on every run.
@pytest.mark.parametrize("contents", [1, None, bytearray(b"1"), memoryview(b"1"), [b"1"], "\ud800"],
                         ids=["int", "None", "bytearray", "memoryview", "list", "lone-surrogate"])
def test_fragment_bad_contents(contents):
    got = _util.outcome(isojson.dumps, [isojson.Fragment(contents)], default=lambda o: 0)
    want = _util.outcome(orjson.dumps, [orjson.Fragment(contents)], default=lambda o: 0)
    assert got[0] == want[0] == "error"
    assert got[1]["str"] == want[1]["str"].replace("orjson.", "isojson.")


def test_fragment_keeps_its_contents_alive_and_collects_cycles():
    contents = "".join(["[", "1" * 30, "]"])
    f = isojson.Fragment(contents)
    del contents
    gc.collect()
    assert isojson.dumps(f) == b"[" + b"1" * 30 + b"]"
    cyc = []
    frag = isojson.Fragment(cyc)
    cyc.append(frag)
    del cyc, frag
    assert gc.collect() >= 2


def test_str_fragment_leaves_no_utf8_copy():
    s = "".join(list("[\"é😀\"]"))
    size = sys.getsizeof(s)
    assert isojson.dumps(isojson.Fragment(s)) == s.encode()
    assert sys.getsizeof(s) == size


# --------------------------------------------------------------------------
# Threads and the corpus.


def test_threads_share_nothing():
    gen = _util.Gen(99)
    docs = [gen.document("plain", depth=4) for _ in range(40)]
    want = [orjson.dumps(d, option=OPT_SORT_KEYS) for d in docs]
    errors = []

    def work(k):
        try:
            for _ in range(30):
                for d, w in zip(docs[k::4], want[k::4]):
                    assert isojson.dumps(d, option=OPT_SORT_KEYS) == w
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_short_lived_threads_and_nested_dumps():
    """Each thread's cached buffers are registered for its exit once, and
    again only when a nested dumps (from default=) leaves its own buffers
    cached instead: threads that come and go, each with nested calls, get
    the right bytes and free their buffers once (a double free would crash)."""
    doc = {"a": [1, None, "x"], "b": {"c": True}}
    want = orjson.dumps({"n": [orjson.dumps(doc).decode()], "big": "y" * 5000})
    errors = []

    def nested(o):
        return isojson.dumps(doc).decode()

    def work():
        try:
            for _ in range(20):
                got = isojson.dumps({"n": [set()], "big": "y" * 5000}, default=lambda o: nested(o))
                assert got == want
                assert isojson.dumps(None) == b"null"
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    for _ in range(10):
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors, errors[0]


@pytest.mark.parametrize("name", ["twitter", "citm_catalog", "canada", "github"])
def test_corpus_documents_every_option(name):
    with open(os.path.join(_util.CORPUS_DIR, name + ".json"), "rb") as f:
        doc = orjson.loads(f.read())
    for _, option in _util.option_combinations():
        same(lambda: isojson.dumps(doc, option=option), lambda: orjson.dumps(doc, option=option))


# --------------------------------------------------------------------------
# Leaks: every path (success, each kind of error, default=, Python code run
# from the walk) releases what it took.


def leak_cases():
    import dataclasses
    import datetime
    import enum
    import uuid

    class E(enum.Enum):
        A = "x" * 30

    @dataclasses.dataclass
    class D:
        a: str
        b: list

    @dataclasses.dataclass
    class S:
        __slots__ = ("a",)
        a: str

    class Tz(datetime.tzinfo):
        def utcoffset(self, d):
            return datetime.timedelta(hours=1)

    def bad(o):
        raise ValueError("x")

    m = isojson
    ns = orjson.OPT_NON_STR_KEYS
    return [
        ("plain", lambda: m.dumps({"k" + str(i): ["v" * 20, i, 1.5, None] for i in range(50)})),
        ("default", lambda: m.dumps({"k": [Unknown(), "é" * 10]}, default=lambda o: {"r": "é" * 5})),
        ("default raises", lambda: m.dumps({"k": [Unknown()]}, default=bad)),
        ("unsupported", lambda: m.dumps([1, 2, set()])),
        ("sorted error", lambda: m.dumps({"b": 1, "a": [set()]}, option=OPT_SORT_KEYS)),
        ("non-str keys", lambda: m.dumps({1: "x", datetime.date(2020, 1, 1): 2, E.A: 3, uuid.UUID(int=1): 4},
                                          option=ns | OPT_SORT_KEYS)),
        ("types", lambda: m.dumps([datetime.datetime(2020, 1, 1, tzinfo=Tz()), E.A, D("a", [1]), S("s")])),
        ("fragment", lambda: m.dumps(m.Fragment("é" + "x" * 10))),
        ("big int", lambda: m.dumps([2**100, -(2**70)])),
        ("strict", lambda: m.dumps([2**100], option=orjson.OPT_STRICT_INTEGER)),
        ("surrogate", lambda: m.dumps({"\ud800": 1})),
        ("bad option", lambda: m.dumps(1, option="x")),
        ("depth", lambda: m.dumps(nest_lists(300))),
    ]


@pytest.mark.parametrize("name,call", leak_cases(), ids=[n for n, _ in leak_cases()])
def test_no_leaks(name, call):
    def run(n):
        for _ in range(n):
            try:
                call()
            except (TypeError, ValueError):
                pass

    run(500)
    gc.collect()
    before = sys.getallocatedblocks()
    run(5000)
    gc.collect()
    assert sys.getallocatedblocks() - before < 50


def smallest_thread_stack_size():
    """The smallest thread stack this interpreter and the C library accept:
    CPython's minimum as its threading.stack_size error names it (53248
    bytes for CPython 3.14's release build here, 102400 for its debug build,
    Py_DEBUG), or glibc's PTHREAD_STACK_MIN when that is more (aarch64's:
    131072, for kernels with 64 KiB pages; below it pthread refuses the
    size and threading.stack_size raises)."""
    old = threading.stack_size()
    try:
        threading.stack_size(4096)  # one page: below every interpreter's minimum
    except ValueError as e:
        m = re.fullmatch(r"size must be at least (\d+) bytes", str(e))
        assert m, e
        return max(int(m.group(1)), os.sysconf("SC_THREAD_STACK_MIN"))
    finally:
        threading.stack_size(old)
    raise AssertionError("threading.stack_size accepted a 4 KiB stack")


NESTING_ON_THREADS = ["T" * 1024, "TL" * 512, "L" * 254, "D" * 254]


def on_a_thread(size, work):
    """work() on a new thread with size bytes of stack; its result, or the
    exception it raised, raised again here."""
    out = []

    def run():
        try:
            out.append((work(), None))
        except BaseException as e:
            out.append((None, e))

    old = threading.stack_size()
    try:
        threading.stack_size(size)
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    result, error = out[0]
    if error is not None:
        raise error
    return result


def nesting_on_a_thread(size):
    """dumps of each NESTING_ON_THREADS nesting on a new thread of size
    bytes of stack: the length written, or the TypeError's message."""
    def work():
        out = []
        for spec in NESTING_ON_THREADS:
            try:
                out.append(len(isojson.dumps(build_nesting(spec))))
            except TypeError as e:
                out.append(str(e))
        return out

    return on_a_thread(size, work)


def deepest_on_a_thread(size, unit, most):
    """On a new thread of size bytes of stack, the most repetitions k <= most
    of unit whose nesting dumps writes (a binary search: 0 <= k); deeper ones
    raise "Recursion limit reached", any other error fails."""
    def fits(k):
        try:
            isojson.dumps(build_nesting(unit * k))
            return True
        except TypeError as e:
            assert str(e) == "Recursion limit reached", e
            return False

    def work():
        lo, hi = 0, most  # fits(lo) holds; the answer is in [lo, hi]
        assert fits(0)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    return on_a_thread(size, work)


# How much stack a level of the walk may cost, in bytes (alternating tuples and lists, the 1024-level
# nesting with the largest frames; measured: 161 on x86_64, 182 on aarch64): more means that a frame on the recursive path
# grew, and then deep nesting needs thread stacks far beyond what threads are given.
MOST_STACK_PER_LEVEL = 512


def thread_stack_for_deep_nesting():
    """The thread stack that 1024 levels of nesting need, measured on this
    build: the deepest alternating tuples and lists dumps writes on two
    stacks 64 KiB apart give what a level costs (the frames differ between
    compilers and machines: aarch64's gcc makes dumps_list's 336 bytes,
    x86_64's 208) and what the thread uses besides; the size is that for
    1024 levels and a quarter more, in 16 KiB. Returns [size, the first
    stack, its depth, the second, its depth, bytes a level]."""
    # (Scaled by ISOJSON_TEST_STACK_SCALE: an ASan build's frames are several times larger.)
    s1 = max(smallest_thread_stack_size(), _util.stack_scaled(128 * 1024))
    s2 = s1 + _util.stack_scaled(64 * 1024)  # both below 1024 levels on x86_64 and aarch64
    d1 = 2 * deepest_on_a_thread(s1, "TL", 512)
    d2 = 2 * deepest_on_a_thread(s2, "TL", 512)
    # Both stacks must be too small for 1024 levels, or there is no cost a level to measure: the
    # scale is a build's frame growth, not a margin (the debug build's frames, 282 bytes a level here,
    # held 1024 levels on both stacks when make test-pydbg gave it ASan's scale of 4).
    assert d1 < 1024, (f"{s1} bytes of stack already hold 1024 levels: ISOJSON_TEST_STACK_SCALE="
                       f"{_util.STACK_SCALE:g} is more than this build's frames need", s1, d1, s2, d2)
    # The stack check is made every 8 levels from the 64th (dumps_enter): a larger stack must let
    # the walk go deeper, up to 1024 levels.
    assert 64 <= d1 < d2, (s1, d1, s2, d2)
    if d2 == 1024:  # the second stack already holds the deepest nesting there is
        return [s2, s1, d1, s2, d2, None]
    per_level = (s2 - s1) / (d2 - d1)
    assert per_level <= MOST_STACK_PER_LEVEL * _util.STACK_SCALE, (s1, d1, s2, d2, per_level)
    size = s1 + (1024 - d1) * per_level * 1.25
    size = -(-int(size) // (16 * 1024)) * 16 * 1024
    return [size, s1, d1, s2, d2, round(per_level)]


def test_deep_nesting_on_small_thread_stacks():
    """The walk recurses: on a thread stack large enough for 1024 levels,
    measured from what a level costs on this build, every nesting orjson
    accepts works, and on the smallest stack the interpreter accepts dumps
    raises instead of overflowing. In a fresh process, stacks in increasing
    size: glibc gives a new thread a cached stack up to four times the size
    asked for, so after threads with larger stacks have ended the small one
    would not be small."""
    out = _util.run_python("""
        import json, sys
        import test_ext_dumps as t
        smallest = t.smallest_thread_stack_size()
        small = t.nesting_on_a_thread(smallest)
        measured = t.thread_stack_for_deep_nesting()
        print(json.dumps([smallest, small, measured, t.nesting_on_a_thread(measured[0])]))
    """, 120)
    smallest, small, measured, large = json.loads(out)
    assert smallest <= 128 * 1024, smallest
    want = [2049, 2049, 509, 1525]
    assert large == want, measured
    assert len(small) == len(want), small
    assert "Recursion limit reached" in small, small  # 1024 levels do not fit
    assert all(r in (n, "Recursion limit reached") for r, n in zip(small, want)), small


def test_dumps_in_own_gil_subinterpreters():
    """Each interpreter finds its own datetime/uuid/enum/dataclasses types
    and has its own Fragment type; results equal orjson's in the main one."""
    from concurrent import interpreters

    code = f"""if True:
        import dataclasses, datetime, enum, uuid
        import {_util.MODULE_NAME} as m

        @dataclasses.dataclass
        class P:
            x: int
            name: str

        class E(enum.Enum):
            A = "a"

        doc = [P(1, "é"), E.A, uuid.UUID(int=1), datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc),
               datetime.date(2020, 1, 2), {{1: "x", "b": [1.5, None, True]}}, m.Fragment(b"[9]"), 2**70]
        out = m.dumps(doc, option=m.OPT_NON_STR_KEYS | m.OPT_SORT_KEYS | m.OPT_UTC_Z)
        assert out == (b'[{{"x":1,"name":"\\xc3\\xa9"}},"a","00000000-0000-0000-0000-000000000001",'
                       b'"2020-01-01T00:00:00Z","2020-01-02",{{"1":"x","b":[1.5,null,true]}},[9],'
                       b'1180591620717411303424]'), out
    """
    for _ in range(3):
        interp = interpreters.create()
        try:
            interp.exec(code)
        finally:
            interp.close()
    assert isojson.dumps([datetime_utc()]) == orjson.dumps([datetime_utc()])


def datetime_utc():
    import datetime

    return datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)


@pytest.mark.slow
def test_big_writes_release_the_gil_safely():
    """Large tapes are written without the GIL: another thread that rebinds
    and frees the document's strings meanwhile must not change the output
    (every string the tape points into is referenced first). Run with
    PYTHONMALLOC=debug, which poisons freed memory."""
    out = _util.run_python("""
        import threading
        from _util import isojson, orjson
        floats = [[i * 0.5, -i * 1.25] for i in range(40000)]
        names = ["".join(["name-", str(i), "-é"]) for i in range(2000)]
        doc = {"floats": floats, "names": names}
        want = orjson.dumps(doc)
        stop = False

        def churn():
            while not stop:
                for i in range(len(names)):
                    names[i] = "".join(["x", str(i)])
                    names[i] = "".join(["name-", str(i), "-é"])

        t = threading.Thread(target=churn)
        t.start()
        try:
            for _ in range(30):
                got = isojson.dumps(doc)
                assert orjson.loads(got)["floats"] == floats
                assert len(orjson.loads(got)["names"]) == 2000
        finally:
            stop = True
            t.join()
        print("ok")
    """, 300, env=_util.child_env(PYTHONMALLOC="debug"))
    assert out.strip().endswith("ok")


# OPT_SORT_KEYS sorts in C by an 8-byte UTF-8 prefix of each key (read with
# overlapping loads for keys under 8 bytes, encoded from the code points for
# UCS1/2/4 keys), then in full; small dicts by insertion, large ones by a
# merge of 16-member runs. Keys that share long prefixes, of every length
# around the load sizes, of every width, in dicts on both sides of 16.
_SORT_STEMS = ["", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", "é", "aé", "abcdefé",
               "ā", "a\u0101", "\u20ac", "abcd\u20ac", "\U0001f600", "abc\U0001f600", "\x00", "a\x00", "\x7f",
               "\u0800", "\ud7ff", "\uffff", "z"]


@pytest.mark.parametrize("size", [1, 2, 15, 16, 17, 33, 100])
@pytest.mark.parametrize("option", [0, 1, 1024])
def test_sort_keys_prefixes_widths_and_sizes_as_orjson(size, option):
    import random
    rnd = random.Random(size)
    keys = set()
    while len(keys) < size:
        k = rnd.choice(_SORT_STEMS) + rnd.choice(_SORT_STEMS)[: rnd.randrange(10)]
        keys.add(k[: rnd.randrange(14)])
        if len(keys) < size and size > 1:
            keys.add(k)
    items = list(keys)
    rnd.shuffle(items)
    doc = {k: i for i, k in enumerate(items)}
    opt = option | orjson.OPT_SORT_KEYS
    got = isojson.dumps(doc, option=opt)
    assert got == orjson.dumps(doc, option=opt)
    assert list(orjson.loads(got)) == sorted(items)


@pytest.mark.parametrize("size", [2, 3])
def test_sort_keys_equal_keys_keep_dict_order(size):
    # Under OPT_NON_STR_KEYS distinct keys can give the same text; in a
    # dict of up to 32 keys orjson keeps them in dict order (see
    # SAME_TEXT_STABLE_UP_TO).
    doc = {}
    for i in range(size):
        doc[str(i % 7)] = f"s{i}"
        doc[i % 7 + 100 * (i // 7 + 1)] = f"i{i}"
        doc[str(i % 7 + 100 * (i // 7 + 1))] = f"t{i}"
    opt = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    assert isojson.dumps(doc, option=opt) == orjson.dumps(doc, option=opt)


# orjson sorts a dict's items with Rust's sort_unstable: slices of up to 32
# items go to a stable small-slice sort, larger ones are first partitioned by
# quicksort, which may swap two items of the same text; a slice already in
# order is left as it is. isojson keeps same-text keys in dict order always
# (README, "Differences from orjson").
SAME_TEXT_STABLE_UP_TO = 32


def same_text_dicts(n, count, seed):
    """count seeded dicts of n keys in random order, 1 to n // 2 of them
    pairs of keys with the same text (an int and its str), every value
    distinct."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pairs = rng.randint(1, n // 2)
        keys = []
        for i, x in enumerate(rng.sample(range(1000), n - pairs)):
            keys += [x, str(x)] if i < pairs else [rng.choice((x, str(x)))]
        rng.shuffle(keys)
        out.append({k: i for i, k in enumerate(keys)})
    return out


def test_sort_keys_same_text_keys_as_orjson_up_to_32_keys():
    opt = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    for n in range(2, SAME_TEXT_STABLE_UP_TO + 1):
        for doc in same_text_dicts(n, 40, seed=n):
            assert len(doc) == n
            assert isojson.dumps(doc, option=opt) == orjson.dumps(doc, option=opt), doc
    # Larger dicts whose keys are already in order (by text; either key of
    # a pair first), one pair or all keys in pairs.
    for n in (33, 34, 100, 1000):
        for keys in ([str(i) for i in range(n - 1)] + [0], [0] + [str(i) for i in range(n - 1)],
                     [y for x in range(n // 2) for y in (x, str(x))]):
            doc = {k: i for i, k in enumerate(sorted(keys, key=str))}
            assert isojson.dumps(doc, option=opt) == orjson.dumps(doc, option=opt), n


def test_sort_keys_same_text_keys_may_differ_from_33_keys():
    """From 33 keys on, one pair of same-text keys is enough for orjson's
    order of the two to differ from isojson's (dict order); every other byte
    is the same."""
    opt = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    # "31", "30", ..., "0", then 0: orjson writes 0 first; with "31" left
    # out (32 keys) it writes "0" first, as isojson does.
    for n in (SAME_TEXT_STABLE_UP_TO, SAME_TEXT_STABLE_UP_TO + 1):
        doc = {str(i): "str" for i in range(n - 2, -1, -1)}
        doc[0] = "int"
        assert len(doc) == n
        got, want = isojson.dumps(doc, option=opt), orjson.dumps(doc, option=opt)
        assert got.startswith(b'{"0":"str","0":"int","1":"str",'), got
        if n <= SAME_TEXT_STABLE_UP_TO:
            assert got == want
        else:
            assert want.startswith(b'{"0":"int","0":"str","1":"str",'), want
            assert got.replace(b'"0":"str","0":"int"', b'"0":"int","0":"str"', 1) == want
    # Random orders with one pair: a fifth or more differ at 33 and 40 keys,
    # each only in the order of that pair (isojson's is dict order).
    for n in (33, 40):
        rng = random.Random(n)
        differ = 0
        for _ in range(200):
            keys = rng.sample([str(i) for i in range(n - 1)] + [7], n)
            doc = {k: i for i, k in enumerate(keys)}
            got, want = isojson.dumps(doc, option=opt), orjson.dumps(doc, option=opt)
            if got != want:
                differ += 1
                first, second = ("7", 7) if keys.index("7") < keys.index(7) else (7, "7")
                in_order = b'"7":%d,"7":%d' % (doc[first], doc[second])
                swapped = b'"7":%d,"7":%d' % (doc[second], doc[first])
                assert in_order in got and got.replace(in_order, swapped, 1) == want, (got, want)
        assert differ >= 20, (n, differ)


@pytest.mark.parametrize("option", [orjson.OPT_SORT_KEYS, orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2,
                                    orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS])
def test_sort_keys_shared_key_objects_as_orjson(option):
    # Sorted dicts take str keys through the key cache: the same key
    # objects in many dicts (as loads makes them), of every width, in
    # different orders, with default= dropping dicts (and their keys'
    # last other references) on the way.
    keys = ["id", "name", "é-name", "\u20ac-price", "\U0001f600", "a" * 40, "ab", "a"]
    rows = [{k: i for k in (keys[i % 8:] + keys[: i % 8])} for i in range(50)]
    doc = {"rows": rows, "z": [{keys[i % 8]: i, "x" + str(i): i} for i in range(20)]}

    class Drop:
        pass

    def default(o):
        doc["z"].clear()
        return None

    doc["a_drop"] = Drop()
    want = orjson.dumps(doc, option=option, default=default)
    doc["z"] = [{keys[i % 8]: i, "x" + str(i): i} for i in range(20)]
    assert isojson.dumps(doc, option=option, default=default) == want

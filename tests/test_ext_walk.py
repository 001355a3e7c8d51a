"""The dumps walk's fast paths (pyshim/dumps/dumps_cursor.h, dumps_dict.c,
dumps_list.c, pyshim/cpython/dumps_dict_read.h): dicts read from their table directly (every kind of table
CPython 3.14 makes), short containers written in place ("leaves") and what
happens when default= changes a dict whose table the walk has read: the walk
must read it again, as PyDict_Next would, and never the freed old table (the
mutation cases run again in a child with PYTHONMALLOC=debug, which poisons
freed memory)."""

import gc

import pytest

import _util
from _util import isojson, orjson

OPT_SORT_KEYS = orjson.OPT_SORT_KEYS
IS_ISOJSON = _util.MODULE_NAME == "isojson"


class Unknown:
    pass


class Slotted:
    """Instances keep their attributes in a split table (shared keys)."""

    def __init__(self, n):
        for i in range(n):
            setattr(self, "a%d" % i, i if i % 2 else "v%d" % i)


class DictSub(dict):
    pass


def same(doc, option=None):
    assert isojson.dumps(doc, option=option) == orjson.dumps(doc, option=option)


def dict_kinds():
    """(name, dict) pairs covering the tables of CPython 3.14: str-keys-only
    tables, general tables holding str keys, tables with deleted entries,
    split tables, the shared empty table, subclasses."""
    general = {1: 0}
    del general[1]
    general.update(("g%d" % i, i) for i in range(7))
    holes = {"h%d" % i: i for i in range(40)}
    for i in range(0, 40, 3):
        del holes["h%d" % i]
    holes_then_new = dict(holes)
    holes_then_new["late"] = "x"
    emptied = {"a": 1, "b": 2}
    emptied.clear()
    deleted_all = {"a": 1, "b": 2}
    del deleted_all["a"], deleted_all["b"]
    big = {"b%d" % i: [i, "s" * (i % 40), {"n": i}] for i in range(3000)}
    return [
        ("literal", {"a": 1, "b": "x", "c": None, "d": True, "e": 1.5}),
        ("presized_by_loads", orjson.loads(b'{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":[7],"h":{"i":8}}')),
        ("general_with_str_keys", general),
        ("holes", holes),
        ("holes_then_new", holes_then_new),
        ("empty_literal", {}),
        ("emptied", emptied),
        ("deleted_all", deleted_all),
        ("split_small", vars(Slotted(3))),
        ("split_large", vars(Slotted(40))),
        ("subclass", DictSub(a=1, b=[1, 2], c={"d": "é"})),
        ("big", big),
        ("non_ascii_values", {"k%d" % i: "日本語" * i for i in range(20)}),
    ]


@pytest.mark.parametrize("name,d", dict_kinds(), ids=[n for n, _ in dict_kinds()])
def test_every_dict_table_as_orjson(name, d):
    """Alone, as a member of a dict, of a list (where short dicts are leaves),
    of a tuple, and under the options that collect the keys first."""
    for doc in (d, {"x": d}, [d], [d, d], (d,), {"x": [d, {"y": d}]}, [[d]]):
        same(doc)
        same(doc, OPT_SORT_KEYS)


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 40])
def test_leaves_of_every_length_and_member(n):
    """Short lists, tuples and dicts of every scalar type, and the same with
    one member that is not a scalar (nested containers, big ints, non-ASCII
    str, a str subclass, a float subclass through default=) at each place."""
    scalars = [1, -7, 2**40, 1.5, -0.0, "ascii", "é", "日本", "😀", None, True, False, "q" * 40, 'quote"d',
               "tab\t", 2**30]
    others = [[], [1], {}, {"a": 1}, (), (1,), 2**63, -(2**63), 2**64 - 1, "é" * 50, _util.MyStr("sub"),
              _util.MyInt(5), _util.MyList([1]), _util.MyDict(a=1), [[1, 2], [3]], {"a": [1, {"b": 2}]}]
    base = [scalars[i % len(scalars)] for i in range(n)]
    docs = [base, tuple(base), {"k%d" % i: v for i, v in enumerate(base)}]
    for i in range(n):
        for other in others:
            mixed = list(base)
            mixed[i] = other
            docs += [mixed, tuple(mixed), {"k%d" % j: v for j, v in enumerate(mixed)}]
    for doc in docs:
        for wrapped in ([doc], {"w": doc}, [doc, doc], {"w": [doc]}):
            same(wrapped)


def test_leaf_keys_seen_first_inside_a_leaf():
    """A leaf dict whose keys the call has not met yet is written by the slow
    path, which fills the key cache; the next one of its shape is a leaf."""
    doc = [{"fresh%d" % i: i, "other%d" % i: "x"} for i in range(5)] * 3
    same(doc)
    same({"outer": doc})


def test_leaves_beyond_the_borrowed_list():
    """Thousands of str leaves: the list of borrowed str objects grows while
    leaves are being written (a leaf that meets a full list goes the slow
    way)."""
    doc = [[("s%d" % i) * 2, "t%d" % i] for i in range(5000)]
    doc += [{"a": "u%d" % i, "b": ["v%d" % i]} for i in range(5000)]
    same(doc)


# --------------------------------------------------------------------------
# default= changing a dict whose table the walk has read.


def fresh(s):
    """A new str equal to s, referenced by nothing else."""
    return "".join(list(s))


def walk_mutation_cases():
    """(name, build) pairs; build() returns (doc, default, expected by
    option): default= adds 100 members to the dict being walked (its table
    is reallocated and the old one freed) or removes and adds members, while
    the unknown object sits in one of the places the walk handles
    differently. No more members are written than the dict had when its
    walk began, as in orjson (under OPT_SORT_KEYS they were collected before
    any value): the added ones are not written, but the members after the
    unknown object are read from the new table."""
    places = {
        "bare": (lambda u: u, lambda r: r),
        "in_tuple": (lambda u: (u,), lambda r: [r]),
        "in_leaf_list": (lambda u: [1, u], lambda r: [1, r]),
        "in_leaf_dict": (lambda u: [{"x": u}], lambda r: [{"x": r}]),
        "in_dict": (lambda u: {"n": u}, lambda r: {"n": r}),
        "in_subclass": (lambda u: DictSub(n=u), lambda r: {"n": r}),
    }
    cases = []
    for place, (wrap, wrapped) in places.items():
        def grow(wrap=wrap, wrapped=wrapped):
            doc = {fresh("a" * 20): wrap(Unknown()), fresh("b" * 20): fresh("x" * 40)}

            def default(o):
                for i in range(100):
                    doc[fresh("k%d" % i)] = fresh("v%d" % i * 5)
                return fresh("r" * 30)
            want = {"a" * 20: wrapped("r" * 30), "b" * 20: "x" * 40}
            return doc, default, {0: want, OPT_SORT_KEYS: want}

        def replace(wrap=wrap, wrapped=wrapped):
            doc = {fresh("a" * 20): wrap(Unknown()), fresh("b" * 20): fresh("x" * 40), fresh("c" * 20): [1, 2]}

            def default(o):
                del doc["b" * 20]
                for i in range(100):
                    doc[fresh("k%d" % i)] = i
                return 7
            # The resize drops the deleted member: the walk goes on at the
            # second entry of the new table, for the dict's first 3 members.
            want = {"a" * 20: wrapped(7), "c" * 20: [1, 2], "k0": 0}
            return doc, default, {0: want,
                                  OPT_SORT_KEYS: {"a" * 20: wrapped(7), "b" * 20: "x" * 40, "c" * 20: [1, 2]}}

        def clear(wrap=wrap, wrapped=wrapped):
            doc = {fresh("a" * 20): wrap(Unknown()), fresh("b" * 20): fresh("x" * 40)}

            def default(o):
                doc.clear()
                return None
            return doc, default, {0: {"a" * 20: wrapped(None)},
                                  OPT_SORT_KEYS: {"a" * 20: wrapped(None), "b" * 20: "x" * 40}}

        cases += [("grow_" + place, grow), ("replace_" + place, replace), ("clear_" + place, clear)]
    return cases


@pytest.mark.skipif(not IS_ISOJSON, reason="a default= that mutates the dict being walked makes orjson 3.13 read freed memory (a crash or garbage); the test checks isojson's defined result")
@pytest.mark.parametrize("name,build", walk_mutation_cases(), ids=[n for n, _ in walk_mutation_cases()])
@pytest.mark.parametrize("option", [0, OPT_SORT_KEYS])
def test_default_mutating_the_dict_being_walked(name, build, option):
    doc, default, want = build()
    got = isojson.dumps(doc, default=default, option=option)
    # Bytes, not parsed values: a member written twice must show.
    assert got == orjson.dumps(want[option])
    gc.collect()


@pytest.mark.skipif(not IS_ISOJSON, reason="a default= that mutates the dict being walked makes orjson 3.13 read freed memory (a crash or garbage); the test checks isojson's defined result")
@pytest.mark.slow
def test_dict_mutation_under_debug_malloc():
    """The walk's mutation cases in a child with PYTHONMALLOC=debug (freed
    memory poisoned), a collection after each. Under ISOJSON_TEST_SAMPLE
    each case 3 times instead of 10 (7-23 s of make test-pydbg, whose own
    tests run under a debug allocator already)."""
    out = _util.run_python("""
        import gc, test_ext_walk as t
        import _util
        from _util import isojson, orjson
        for opt in (0, orjson.OPT_SORT_KEYS):
            for name, build in t.walk_mutation_cases():
                for _ in range(_util.sampled(10, 3)):
                    doc, default, want = build()
                    got = isojson.dumps(doc, default=default, option=opt)
                    assert got == orjson.dumps(want[opt]), (name, got)
                    gc.collect()
        print("ok")
    """, 300, env=_util.child_env(PYTHONMALLOC="debug"))
    assert out.strip().endswith("ok")


def test_ints_around_the_digit_boundaries():
    """Ints of one, two and three 30-bit digits (two digits are read from
    the digits directly), both signs, with and without OPT_STRICT_INTEGER,
    exact and subclassed, alone and inside containers."""
    values = []
    for bits in (29, 30, 31, 52, 53, 54, 59, 60, 61, 62, 63):
        for delta in (-1, 0, 1):
            values += [(1 << bits) + delta, -((1 << bits) + delta)]
    values += [2**64 - 1, -(2**63), 0, 1, -1]
    # Beyond 64 bits isojson writes the digits where orjson raises.
    values = [v for v in values if -(2**63) <= v < 2**64]
    for v in values:
        for doc in (v, [v], {"a": v}, [v, "x", {"b": [v]}], _util.MyInt(v)):
            for option in (None, orjson.OPT_STRICT_INTEGER):
                try:
                    want = orjson.dumps(doc, option=option)
                except orjson.JSONEncodeError as e:
                    with pytest.raises(orjson.JSONEncodeError, match="^" + str(e) + "$"):
                        isojson.dumps(doc, option=option)
                else:
                    assert isojson.dumps(doc, option=option) == want


def test_key_cache_forgets_keys_between_calls():
    """A key str freed after a call leaves its address to the next str of
    its size: the cache must not answer for it (pymalloc hands freed blocks
    out again at once, so the same addresses come back)."""
    for i in range(2000):
        # Lengths and escaping that differ from one call to the next, within
        # one allocation size.
        key = ("k" * (8 + i % 7)).ljust(9 + i % 7, '"' if i % 2 else "q")
        d = {key: i}
        assert isojson.dumps(d) == orjson.dumps(d)
        del d, key
    # Many distinct keys in one call: more sets filled than recorded.
    big = {fresh("key%d" % i): i for i in range(5000)}
    assert isojson.dumps(big) == orjson.dumps(big)
    del big
    small = {fresh("key%d" % i): -i for i in range(50)}
    assert isojson.dumps(small) == orjson.dumps(small)


@pytest.mark.parametrize("c", ["\x00", "\x1f", "\n", '"', "\\", " ", "\x7f", "/"])
def test_ascii_strings_every_length_and_escape_position(c):
    """The str scans (pyshim/dumps/dumps_scan.h): inline up to 64 bytes in one,
    two or four overlapping loads, then the out-of-line scan; one character to
    escape (or a harmless one) at every position of every length up to 100,
    as a list item, a dict value and a dict key, each a separate str object."""
    strs = ["".join(["a" * at, c, "b" * (n - at - 1)]) for n in range(1, 101) for at in range(n)]
    doc = [strs, {"k%d" % i: s for i, s in enumerate(strs)}, {s: i for i, s in enumerate(strs)}]
    assert isojson.dumps(doc) == orjson.dumps(doc)


@pytest.mark.parametrize("c", ["\x00", "\x1f", "\n", '"', "\\", " ", "\x7f", "é", "\xff", "\u0430", "\u4e00",
                               "\ud800", "\udfff"])
@pytest.mark.parametrize("base", ["é", "\u0436"], ids=["ucs1", "ucs2"])
def test_ucs1_ucs2_strings_every_length_and_position(c, base):
    """The UCS1 and UCS2 scans inline (pyshim/dumps/dumps_scan.h: up to 16
    bytes or 8 units in one load within the page, to 64 bytes or 32 units in
    two or four overlapping loads, then the out-of-line scan) and the writer's
    fixed-width path: one character to escape, a lone surrogate (refused, as
    orjson does) or a harmless one at every position of every length up to 70,
    among the base script and ASCII, each a separate str object, as a list
    item, a dict value and a dict key."""
    strs, refused = [], []
    for n in range(1, 71):
        for at in range(n):
            s = "".join([(base + "a")[i % 2] if i != at else c for i in range(n)])
            if base not in s:
                s += base
            (refused if "\ud800" <= c <= "\udfff" else strs).append(s)
    doc = [strs, {"k%d" % i: s for i, s in enumerate(strs)}, {s: i for i, s in enumerate(strs)}]
    assert isojson.dumps(doc) == orjson.dumps(doc)
    for s in refused:
        with pytest.raises(isojson.JSONEncodeError):
            isojson.dumps([s])
        with pytest.raises(orjson.JSONEncodeError):
            orjson.dumps([s])


@pytest.mark.parametrize("c", ["\x00", "\x1f", "\n", '"', "\\", " ", "\x7f", "é", "\u4e00", "\ud800", "\udfff"])
def test_ucs4_strings_every_length_and_position(c):
    """The UCS4 scan (pyshim/dumps/dumps_scan_sse2.c: 4 units a step, an
    overlapping last load) and the writer's UCS4 path: one character to escape,
    a lone surrogate (refused, as orjson does) or a harmless one at every
    position of every length up to 40 among emoji and ASCII."""
    for n in range(1, 41):
        for at in range(n):
            s = "".join(["😀a"[i % 2] if i != at else c for i in range(n)])
            if "😀" not in s:
                s += "😀"
            try:
                want = orjson.dumps([s])
            except orjson.JSONEncodeError:
                with pytest.raises(isojson.JSONEncodeError):
                    isojson.dumps([s])
                continue
            assert isojson.dumps([s]) == want, (n, at)

"""Dicts built through shapes (pyshim/loads/loads_shapes.h): arrays of records
repeat the same keys in the same order, and isojson predicts them. A shape is
made from the second dict of a (first key, member count) built member by
member (the first one alive); later dicts with that first key and count compare each key's bytes
with the prediction, store it at its position without a probe, and take the
shape's index table at the end; at the first key that differs they go on
member by member.

Whatever the path, a dict must equal orjson's (same keys in the same order,
a repeated key keeping its first position and its last value) and, where
isojson fills tables directly, hold the very table CPython's own BUILD_MAP
builder (_PyDict_FromItems, called here through ctypes) makes for the same
key sequence: same size, same index bytes, same entries."""

import ctypes
import gc
import json
import random
import sys
import sysconfig
import threading

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

IS_ISOJSON = _util.MODULE_NAME == "isojson"
# Where isojson fills tables directly (pyshim/cpython/loads_dict.h) and the layout
# read below is CPython 3.14's.
LAYOUT = (IS_ISOJSON and sys.version_info[:2] == (3, 14) and sys.maxsize > 2**32
          and not hasattr(sys, "gettotalrefcount"))


def _direct_active():
    """Whether this process fills tables directly (not with
    ISOJSON_DICT_DIRECT=0 or a failed check): PyDict_SetItem would make a
    larger GENERAL table for 7 members."""
    if not LAYOUT:
        return False
    doc = '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}'
    return sys.getsizeof(isojson.loads(doc)) == sys.getsizeof(eval(doc))  # noqa: S307 - a dict display


DIRECT = _direct_active()
needs_direct = pytest.mark.skipif(not DIRECT, reason="reads the tables isojson fills directly (CPython 3.14, 64-bit, "
                                  "no Py_REF_DEBUG, not turned off with ISOJSON_DICT_DIRECT=0)")


# ---------------------------------------------------------------------------
# Documents from (key, value) pairs: a repeated key needs text.

def obj_text(pairs):
    return "{" + ",".join(json.dumps(k) + ":" + json.dumps(v) for k, v in pairs) + "}"


def doc_text(records):
    return "[" + ",".join(obj_text(r) for r in records) + "]"


def record(keys, i):
    """Members for keys with values that vary with i (ints, strs, None,
    nested containers)."""
    vals = [i, f"v{i}", None, [i, {"x": i}], {"y": [i]}, i * 0.5, True]
    return [(k, vals[j % len(vals)]) for j, k in enumerate(keys)]


def same(a, b, path="$"):
    """Equal, same types, floats bit for bit, dicts with the same keys in the
    same order (== on dicts ignores the order): _util.same_value, asserted."""
    d = _util.same_value(a, b, path)
    assert d is None, d


# ---------------------------------------------------------------------------
# CPython 3.14's dict internals, read through ctypes.

def _from_items(pairs):
    """The dict CPython's BUILD_MAP builds for this key sequence
    (_PyDict_FromItems: presized for all pairs, inserted in order)."""
    fn = ctypes.pythonapi._PyDict_FromItems
    fn.restype = ctypes.py_object
    fn.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_ssize_t]
    n = len(pairs)
    keys = (ctypes.py_object * max(n, 1))(*[k for k, _ in pairs])
    values = (ctypes.py_object * max(n, 1))(*[v for _, v in pairs])
    return fn(ctypes.addressof(keys), 1, ctypes.addressof(values), 1, n)


def table(d):
    """(header, index bytes, [(key, value) of every entry slot in use]) of
    d's keys object: PyDictObject {ob_refcnt, ob_type, ma_used,
    _ma_watcher_tag, ma_keys, ma_values}, then struct _dictkeysobject
    {dk_refcnt, dk_log2_size, dk_log2_index_bytes, dk_kind, dk_version,
    dk_usable, dk_nentries, dk_indices[]} with 16-byte {key, value} entries
    after the indexes (a UNICODE table)."""
    base = id(d)
    used, keys_addr, values_addr = (ctypes.c_ssize_t.from_address(base + 16).value,
                                    ctypes.c_void_p.from_address(base + 32).value,
                                    ctypes.c_void_p.from_address(base + 40).value)
    assert values_addr is None, "a split table"
    log2_size, log2_index_bytes, kind = (ctypes.c_uint8.from_address(keys_addr + o).value for o in (8, 9, 10))
    version = ctypes.c_uint32.from_address(keys_addr + 12).value
    usable, nentries = (ctypes.c_ssize_t.from_address(keys_addr + o).value for o in (16, 24))
    index_bytes = ctypes.string_at(keys_addr + 32, 1 << log2_index_bytes)
    entries = keys_addr + 32 + (1 << log2_index_bytes)
    members = []
    for i in range(nentries):
        k, v = (ctypes.c_void_p.from_address(entries + 16 * i + o).value for o in (0, 8))
        members.append((ctypes.cast(k, ctypes.py_object).value if k else None,
                        ctypes.cast(v, ctypes.py_object).value if v else None))
    # The entry slots not in use yet (dk_usable of them).
    rest = ctypes.string_at(entries + 16 * nentries, 16 * usable)
    header = (used, log2_size, log2_index_bytes, kind, version, usable, nentries)
    return header, index_bytes, members, rest


def assert_table_is_cpythons(d, pairs):
    """d holds the table _PyDict_FromItems builds for pairs."""
    if not DIRECT or len(pairs) == 0:
        return
    ref = _from_items(pairs)
    hd, id_, md, rd = table(d)
    hr, ir, mr, rr = table(ref)
    assert hd == hr, f"header {hd} != {hr}"
    assert rd == rr == bytes(len(rr)), "the unused entries are not zero"
    assert id_ == ir, f"indexes {id_.hex()} != {ir.hex()}"
    assert [k for k, _ in md] == [k for k, _ in mr]
    assert all(type(k) is str for k, _ in md)
    for (_, a), (_, b) in zip(md, mr):
        same(a, b)


def check_doc(records):
    """loads of the records: orjson's objects, CPython's tables."""
    text = doc_text(records)
    got = isojson.loads(text)
    same(got, orjson.loads(text))
    for d, pairs in zip(got, records):
        assert_table_is_cpythons(d, pairs)
    return got


# ---------------------------------------------------------------------------
# Records that match their shape.

@pytest.mark.parametrize("n", list(range(1, 35)) + [40, 63, 64, 65, 100])
def test_records_of_every_size(n):
    """Sizes 2..64 have shapes (from the third record on), 1 and 65+ not:
    every record equals orjson's and has CPython's table."""
    keys = [f"key_{n}_{j}" for j in range(n)]
    check_doc([record(keys, i) for i in range(6)])
    # Again in another call: the shape is kept between calls.
    check_doc([record(keys, i) for i in range(3)])


def test_keys_that_need_escapes_match_their_shape():
    """A key written with escapes (its bytes come from the tape's arena)
    is the same key: the dict is the same, through the shape or not."""
    keys = ["id", "na\nme", "url", "xy"]
    base = [record(keys, i) for i in range(4)]
    text = doc_text(base)
    escaped = text.replace('"url"', '"\\u0075rl"').replace('"id"', '"\\u0069d"')
    got = isojson.loads(escaped)
    same(got, orjson.loads(escaped))
    for d, pairs in zip(got, base):
        assert_table_is_cpythons(d, pairs)


@pytest.mark.parametrize("first_len", [1, 8, 16, 63, 64, 65, 200])
def test_first_key_lengths(first_len):
    """A first key longer than the key cache keeps (64 bytes) gets no shape
    (each loads makes a new str); the dicts are right either way."""
    keys = ["f" * first_len, "b", "c" * 70, "d"]
    check_doc([record(keys, i) for i in range(6)])


def test_non_ascii_keys():
    """Non-ASCII keys are never in a shape; a record with one anywhere is
    built member by member."""
    for pos in range(4):
        keys = ["a", "bb", "ccc", "dddd"]
        keys[pos] = "\u00e9\u4e2d\U0001f600"[: pos % 3 + 1]
        check_doc([record(keys, i) for i in range(6)])


# ---------------------------------------------------------------------------
# Records that do not: a mismatch at every position, of every kind.

BASE = ["id", "name", "url", "created_at", "k4", "k5", "k6", "k7", "k8", "some_longer_key_name_9"]


def variants(keys, j):
    """Key sequences equal to keys before position j and different at j."""
    k = keys[j]
    out = [
        keys[:j] + [k[:-1] + chr(ord(k[-1]) + 1)] + keys[j + 1:],          # same length, last byte differs
        keys[:j] + [chr(ord(k[0]) + 1) + k[1:]] + keys[j + 1:],            # same length, first byte differs
        keys[:j] + [k + "x"] + keys[j + 1:],                               # longer
        keys[:j] + ["\u00e9" * len(k)] + keys[j + 1:],                     # non-ASCII
        keys[:j] + keys[j + 1:] + [k],                                     # the rest moved up
    ]
    if j > 0:
        out.append(keys[:j] + [keys[j - 1]] + keys[j + 1:])                # repeats the previous key
        out.append(keys[:j] + [keys[0]] + keys[j + 1:])                    # repeats the first key
        out.append(keys[:j] + keys[j + 1:] + [keys[0]])                    # repeats the first key at the end
    if len(k) > 1:
        out.append(keys[:j] + [k[:-1]] + keys[j + 1:])                     # shorter
    return out


@pytest.mark.parametrize("j", range(len(BASE)))
def test_mismatch_at_every_position(j):
    """Three records make and use the shape; then a record that differs at
    j (the entries before j get their indexes, the rest goes member by
    member, a repeated key included), then the shape again."""
    for keys in variants(BASE, j):
        assert len(keys) == len(BASE)
        recs = [record(BASE, 0), record(BASE, 1), record(BASE, 2), record(keys, 3), record(BASE, 4)]
        check_doc(recs)


def test_repeated_keys_never_make_a_shape():
    """A dict with a repeated key has fewer entries than members: it makes
    no shape, and records like it keep coming out right."""
    keys = ["a", "b", "a", "c"]
    check_doc([record(keys, i) for i in range(8)])
    keys = ["a", "b", "c", "c"]
    check_doc([record(keys, i) for i in range(8)])


def test_shapes_with_one_first_key():
    """Records of several layouts that share their first key and size, in
    runs and alternating: a shape that keeps missing is replaced."""
    a = ["id", "x", "y", "z"]
    b = ["id", "p", "q", "r"]
    c = ["id", "x", "y", "w"]
    rng = random.Random(3)
    check_doc([record(a, i) for i in range(10)] + [record(b, i) for i in range(10)] + [record(a, i) for i in range(3)])
    check_doc([record([a, b][i % 2], i) for i in range(20)])
    check_doc([record(rng.choice([a, b, c]), i) for i in range(200)])


def test_nested_records_replacing_their_parents_shape():
    """A dict filled through a shape holds it: a nested dict whose first
    key and size land in the same slot of the table and replace it there
    must not free it under the outer one. Many first keys of one size and
    nesting make such collisions (256 slots)."""
    recs = []
    for i in range(600):
        inner_keys = [f"in{i % 300}", "b", "c"]
        outer = [("o", i), ("inner", {k: v for k, v in record(inner_keys, i)}), ("z", [i])]
        recs.append(outer)
    text = doc_text(recs) * 1
    for _ in range(3):
        same(isojson.loads(text), orjson.loads(text))


def test_many_shapes_bounded_memory():
    """More (first key, size) pairs than the table has slots: shapes are
    replaced, memory stays bounded, every dict is right."""
    import tracemalloc
    docs = []
    for s in range(40):
        recs = [record([f"s{s}_{j}_{k}" for k in range(2 + j % 31)], i) for j in range(50) for i in range(3)]
        docs.append(doc_text(recs))
    for d in docs[:5]:
        same(isojson.loads(d), orjson.loads(d))
    tracemalloc.start()
    try:
        for d in docs:
            isojson.loads(d)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(3):
            for d in docs:
                isojson.loads(d)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 512 * 1024, f"grew by {after - before} bytes"


@pytest.mark.skipif(not DIRECT, reason="counts the references isojson's shapes hold, which exist only with direct tables")
def test_memory_errors_while_shapes_are_held():
    """MemoryError at every allocation of a build in which a list holds the
    shape of its last dict and a dict is being filled through it: every
    shape reference is released, so that the shape, once replaced, frees
    its keys (a leaked reference would keep them)."""
    out = _util.run_python("""
        import sys
        sys.path.insert(0, ".")
        import _util
        from test_loads_shapes import isojson, doc_text, record, check_doc
        keys = ["sa", "sb", "sc", "sd"]
        text = doc_text([[(k, "v%d_%d" % (i, j)) for j, k in enumerate(keys)] for i in range(5)])
        loaded = isojson.loads(doc_text([record(keys, i) for i in range(4)]))
        sd = next(k for k in loaded[3] if k == "sd")     # the key cache's str, which the shape holds
        refs = sys.getrefcount(sd)
        failed = _util.count_out_of_memory(range(1, 60), 1, None, isojson.loads, text)
        assert failed > 20, failed
        assert sys.getrefcount(sd) == refs, (sys.getrefcount(sd), refs)
        check_doc([record(keys, i) for i in range(5)])
        # Records with the same first key and size but other keys: the
        # shape misses until it is replaced, and then releases sd.
        check_doc([record(["sa", "x1", "x2", "x3"], i) for i in range(12)])
        assert sys.getrefcount(sd) == refs - 1, (sys.getrefcount(sd), refs)
        print("ok", failed)
    """, 300)
    assert out.split()[0] == "ok", out


def test_layouts_seen_twice_then_records():
    """Thousands of layouts seen exactly twice (each second sighting would
    make a shape nobody uses: shapes are made on credit, which these
    exhaust), then records of one layout, which get a shape again once
    enough dicts were built member by member: every dict right throughout."""
    pairs = []
    for i in range(2000):
        pairs += [record([f"t{i}_{j}" for j in range(6)], 0)] * 2
    check_doc(pairs)
    keys = ["r0", "r1", "r2", "r3", "r4"]
    for _ in range(3):
        check_doc([record(keys, i) for i in range(200)])


# ---------------------------------------------------------------------------
# The dicts in use afterwards.

def _records():
    keys = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    text = doc_text([[(k, i * 10 + j) for j, k in enumerate(keys)] for i in range(6)])
    return isojson.loads(text), keys


def test_dicts_as_keyword_arguments():
    got, keys = _records()

    def f(**kw):
        return kw

    def g(alpha, beta, gamma, delta, epsilon, zeta, eta):
        return [alpha, beta, gamma, delta, epsilon, zeta, eta]

    for i, d in enumerate(got):
        assert f(**d) == d and list(f(**d)) == keys
        assert g(**d) == [i * 10 + j for j in range(7)]


def test_dicts_as_globals_and_locals():
    got, keys = _records()
    for i, d in enumerate(got):
        g = dict(d)
        g["__builtins__"] = __builtins__
        exec("total = alpha + beta + gamma + delta + epsilon + zeta + eta", g)  # noqa: S102
        assert g["total"] == sum(i * 10 + j for j in range(7))
        d2 = d  # the loaded dict itself as globals (a UNICODE table: the fast lookups)
        d2["__builtins__"] = __builtins__
        exec("def h(): return alpha * 2 + eta\nres = h()", d2)  # noqa: S102
        assert d2["res"] == (i * 10) * 2 + i * 10 + 6
        assert eval("beta + gamma", {}, d) == 2 * i * 10 + 3  # noqa: S307


def test_dicts_mutated_afterwards():
    got, keys = _records()
    for d in got:
        twin = "".join(["al", "pha"])
        assert d[twin] == d["alpha"]
        del d["beta"]
        for k in range(40):
            d[f"n{k}"] = k
        assert list(d)[:6] == [k for k in keys if k != "beta"]
        assert d.pop("gamma") is not None and "gamma" not in d
        d["beta"] = 1
        assert list(d)[-1] == "beta"
        assert d == dict(d.items())


# ---------------------------------------------------------------------------
# Interpreters and threads.

@pytest.mark.skipif(not IS_ISOJSON, reason="orjson does not import in own-GIL sub-interpreters")
def test_subinterpreters_have_their_own_shapes():
    """Four own-GIL interpreters at once load the same records (each makes
    its own shapes from its own key strs), are closed, and the main one goes
    on with its shapes."""
    keys = ["id", "name", "url", "tags"]
    text = doc_text([record(keys, i) for i in range(50)])
    before = isojson.loads(text)
    out = _util.run_python("""
        import json, sys
        import _util
        import isojson
        text = sys.argv[1]
        ref = json.loads(text)
        assert isojson.loads(text) == ref
        code = '''if True:
            import isojson, json
            text = TEXT
            ref = json.loads(text)
            for _ in range(30):
                got = isojson.loads(text)
                assert got == ref and [list(d) for d in got] == [list(d) for d in ref]
        '''.replace("TEXT", repr(text))
        for rnd in range(3):
            errors = _util.exec_in_interpreters(code, 4)
            assert not errors, errors
            got = isojson.loads(text)
            assert got == ref and [list(d) for d in got] == [list(d) for d in ref]
        print("ok")
    """, 300, text)
    assert out.split() == ["ok"], out
    same(isojson.loads(text), before)


def test_eight_threads():
    """Eight threads load documents of overlapping layouts (the shapes of
    the interpreter are shared, and replaced as the layouts change)."""
    layouts = [[f"k{j}" for j in range(n)] for n in (3, 5, 8)] + [["k0", "k1", "z2"], ["k0", "q", "k2", "k3", "k4"]]
    docs = []
    rng = random.Random(11)
    for t in range(8):
        recs = [record(rng.choice(layouts), i) for i in range(300)]
        text = doc_text(recs)
        docs.append((text, orjson.loads(text)))
    errors = []

    def work(t):
        try:
            for r in range(20):
                text, ref = docs[(t + r) % 8]
                same(isojson.loads(text), ref)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


@pytest.mark.skipif(not IS_ISOJSON, reason="runs isojson's loads tests with its direct tables turned off")
def test_without_direct_tables():
    """ISOJSON_DICT_DIRECT=0: PyDict_SetItem and no shapes, the same
    objects."""
    _util.pytest_in_child(["test_loads_shapes.py"], 600, deselect="not without_direct", ISOJSON_DICT_DIRECT="0")


@pytest.mark.debug_malloc
def test_this_file_under_pythonmalloc_debug():
    _util.pytest_in_child(["test_loads_shapes.py"], 900, deselect="not without_direct", PYTHONMALLOC="debug")

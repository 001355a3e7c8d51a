"""The dicts and lists loads builds (pyshim/loads/loads_build.c, loads_dict.c).

isojson fills a dict's hash table directly (a UNICODE table at its final size,
as CPython's own BUILD_MAP makes it), after a once-per-process check against
CPython's dicts; when the check fails, or with ISOJSON_DICT_DIRECT=0, it uses
PyDict_SetItem. Either way the dicts must equal orjson's, member for member
and in order (a repeated key keeps its first position and its last value),
and behave as any dict does afterwards: lookups, mutation, resizing, copies,
pickling, the garbage collector."""

import copy
import gc
import json
import os
import pickle
import random
import sys
import sysconfig
import tracemalloc

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

# The table-layout tests are about isojson's direct filling; the rest holds
# for any module with orjson's loads.
IS_ISOJSON = _util.MODULE_NAME == "isojson"
# Where isojson fills tables directly (pyshim/cpython/loads_dict.h): CPython 3.14,
# 64-bit (with the GIL or free-threaded), not a debug build (Py_REF_DEBUG), not turned off by ISOJSON_DICT_DIRECT=0.
DIRECT = (IS_ISOJSON and sys.maxsize > 2**32
          and not hasattr(sys, "gettotalrefcount")
          and os.environ.get("ISOJSON_DICT_DIRECT") != "0")
SEED = 8_2026


def same(a, b, path="$"):
    """Equal, same types, floats bit for bit, dicts with the same keys in the
    same order (== on dicts ignores the order): _util.same_value, asserted."""
    d = _util.same_value(a, b, path)
    assert d is None, d


# ---------------------------------------------------------------------------
# Documents as text: a dict cannot hold the repeated keys the tests need.

NON_ASCII = ["é", "ü", "\u4e2d", "\U0001f600", "ß\u00e9", "\u03a9x"]


def random_key(rng, n_so_far):
    """Short ASCII keys (the key cache), non-ASCII, long ones (past the
    cache's 64 bytes), escaped ones, and unique ones."""
    r = rng.random()
    if r < 0.45:
        return rng.choice("abcdefgh") + str(rng.randrange(10))
    if r < 0.6:
        return rng.choice(NON_ASCII) + str(rng.randrange(20))
    if r < 0.72:
        return "long key " * rng.randrange(8, 12) + str(rng.randrange(50))
    if r < 0.8:
        return rng.choice(["a\nb", 'q"t', "tab\t", "\\", "\u0001"]) + str(rng.randrange(5))
    return f"k{n_so_far}_{rng.randrange(1 << 30)}"


def random_value(rng, depth):
    r = rng.random()
    if depth > 0 and r < 0.12:
        return random_object(rng, rng.randrange(0, 9), depth - 1)
    if depth > 0 and r < 0.2:
        return "[" + ",".join(random_value(rng, depth - 1) for _ in range(rng.randrange(0, 5))) + "]"
    if r < 0.4:
        return str(rng.randrange(-10**12, 10**12))
    if r < 0.5:
        return repr(rng.uniform(-1e6, 1e6))
    if r < 0.7:
        return json.dumps(random_key(rng, 0))
    return rng.choice(["null", "true", "false", "{}", "[]", "0", "-1", "256", '""'])


def random_object(rng, n, depth, repeat=0.15):
    """An Object of n members; with probability `repeat` a member's key is
    one used before in it (anywhere before, so repeats land anywhere)."""
    keys, members = [], []
    for i in range(n):
        if keys and rng.random() < repeat:
            k = rng.choice(keys)
        else:
            k = random_key(rng, i)
            keys.append(k)
        members.append(json.dumps(k) + ":" + random_value(rng, depth))
    return "{" + ",".join(members) + "}"


def test_parity_every_dict_size_0_to_1000():
    """Every size from 0 to 1000. Under ISOJSON_TEST_SAMPLE 0 to 99 and each
    side of the larger tables' limits (2/3 of 256, 512 and 1024 slots: 170,
    341, 682 members), and 1000 (13 s of make test-pydbg at load 3)."""
    rng = random.Random(SEED)
    sizes = range(0, 1001)
    if _util.SAMPLE < 1:
        sizes = [*range(100), *(u + d for u in (170, 341, 682) for d in (-1, 0, 1)), 1000]
    for n in sizes:
        doc = random_object(rng, n, depth=2 if n < 100 else 1)
        same(isojson.loads(doc), orjson.loads(doc), f"n={n}")


def test_parity_repeats_only_and_nested_repeats():
    rng = random.Random(SEED + 1)
    for n in list(range(1, 60)) + [100, 1000, 5000]:
        # Mostly repeats: few distinct keys, their last values.
        doc = random_object(rng, n, depth=1, repeat=0.9)
        same(isojson.loads(doc), orjson.loads(doc), f"n={n}")
        doc = "[" + ",".join(random_object(rng, rng.randrange(0, 12), 2, 0.5) for _ in range(50)) + "]"
        same(isojson.loads(doc), orjson.loads(doc), f"nested n={n}")


@pytest.mark.parametrize("n", [21844, 21845, 21846, 30000])
def test_parity_large_dicts(n):
    """Around the largest dict filled directly (21845 members: 2-byte
    indexes); beyond it PyDict_SetItem."""
    rng = random.Random(n)
    doc = random_object(rng, n, depth=0, repeat=0.05)
    same(isojson.loads(doc), orjson.loads(doc))
    doc = "{" + ",".join(f'"k{i}":{i}' for i in range(n)) + "}"
    d = isojson.loads(doc)
    same(d, orjson.loads(doc))
    assert d["k0"] == 0 and d[f"k{n - 1}"] == n - 1


def test_repeated_key_keeps_first_position_and_last_value():
    cases = [
        '{"a":1,"b":2,"a":3}',
        '{"a":[1,2],"a":{"x":1},"a":null}',
        '{"é":1,"x":0,"é":2}',
        '{"' + "long" * 30 + '":1,"y":2,"' + "long" * 30 + '":[3]}',
        '{"a\\u00e9":1,"aé":2}',  # an escaped key equal to a literal one
        '{' + ",".join(f'"k":{i}' for i in range(1000)) + '}',
        '{' + ",".join(f'"k{i % 7}":{i}' for i in range(500)) + '}',
    ]
    for doc in cases:
        same(isojson.loads(doc), orjson.loads(doc), doc[:60])
        same(isojson.loads(doc), json.loads(doc), doc[:60])
    assert list(isojson.loads(cases[0]).items()) == [("a", 3), ("b", 2)]


# ---------------------------------------------------------------------------
# The dicts behave as dicts.

SIZES = [0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 16, 21, 22, 42, 43, 85, 86, 171, 342, 1000, 5000]


def numbered(n, prefix="k"):
    return "{" + ",".join(f'"{prefix}{i}":{i}' for i in range(n)) + "}"


def twin(s):
    """An equal str that is another object."""
    t = "".join(list(s))
    assert t == s and (t is not s or len(s) < 2)
    return t


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("prefix", ["k", "é", "\U0001f600", "a long prefix of more than sixty-four bytes " * 2])
def test_dict_behaves_like_a_dict(n, prefix):
    d = isojson.loads(numbered(n, prefix))
    ref = {f"{prefix}{i}": i for i in range(n)}
    same(d, ref)
    assert len(d) == n and repr(d) == repr(ref) and d == ref
    for i in range(n):
        k = f"{prefix}{i}"
        assert d[twin(k)] == i and k in d and d.get(k) == i
    assert "missing" not in d and d.get(prefix + "-1") is None
    with pytest.raises(KeyError):
        d["missing"]
    # Copies, pickling, serializing.
    same(d.copy(), ref)
    same(copy.deepcopy(d), ref)
    same(dict(d), ref)
    same({**d}, ref)
    same(pickle.loads(pickle.dumps(d)), ref)
    assert isojson.dumps(d) == orjson.dumps(ref) and json.dumps(d) == json.dumps(ref)
    assert gc.is_tracked(d) == gc.is_tracked(ref)
    # The same mutations on both: deletions, new keys past the table's room
    # (resizes), replaced values, pops, update, setdefault.
    for x in (d, ref):
        if n:
            del x[f"{prefix}0"]
            x[f"{prefix}{n - 1}"] = "replaced"
        for i in range(2 * n + 10):
            x[f"new{i}"] = [i]
        for i in range(0, n, 3):
            x.pop(f"{prefix}{i}", None)
        x.update({"u": 1, f"{prefix}1": "updated"})
        x.setdefault("sd", {})
    same(d, ref)
    assert d.popitem() == ref.popitem()
    for i in range(2 * n + 10):
        assert d[f"new{i}"] == [i]
    d.clear()
    ref.clear()
    d["again"] = 1
    assert d == {"again": 1}


@pytest.mark.skipif(not DIRECT, reason="compares the tables isojson fills directly, which exist only on 64-bit builds without Py_REF_DEBUG, and not with ISOJSON_DICT_DIRECT=0")
@pytest.mark.parametrize("n", list(range(0, 40)) + [85, 86, 171, 342, 1000, 5000, 21845])
def test_table_is_the_one_a_dict_display_builds(n):
    """The same table as CPython's BUILD_MAP (_PyDict_FromItems) for the same
    keys: the same size in memory. PyDict_SetItem (the fallback) makes
    GENERAL tables above 5 members, larger: this fails there."""
    doc = numbered(n)
    assert sys.getsizeof(isojson.loads(doc)) == sys.getsizeof(eval(doc))  # noqa: S307 - a dict display


def test_dicts_in_lists_in_dicts_are_tracked_as_cpython_tracks_them():
    v = isojson.loads('{"a":[{"b":1},{}],"c":{"d":{"e":[]}},"f":1}')
    ref = {"a": [{"b": 1}, {}], "c": {"d": {"e": []}}, "f": 1}
    for x, y in ((v, ref), (v["a"][0], ref["a"][0]), (v["a"][1], ref["a"][1]), (v["c"]["d"], ref["c"]["d"])):
        assert gc.is_tracked(x) == gc.is_tracked(y)
    # A cycle made afterwards is collected.
    v["self"] = v
    del v
    gc.collect()


def test_the_garbage_collector_traverses_built_dicts():
    """No collection runs while loads builds (the GC is switched off then:
    test_loads_gc.py), but every one after it traverses the tables filled
    directly: full collections with the results alive, and with a threshold
    of 1 so that the allocations between calls trigger them too, leave every
    result intact and tracked. Under ISOJSON_TEST_SAMPLE (the bounded
    parts of make test: a collection per allocation costs minutes under
    Py_DEBUG) a spread of the sizes, the smallest and the largest kept."""
    old = gc.get_threshold()
    gc.set_threshold(1)
    try:
        rng = random.Random(5)
        for n in _util.sampled_spread(range(0, 200, 7), 4):
            doc = random_object(rng, n, depth=2)
            got = isojson.loads(doc)
            gc.collect()
            assert all(gc.is_tracked(d) for d in [got] if isinstance(got, (dict, list)))
            same(got, orjson.loads(doc))
    finally:
        gc.set_threshold(*old)


# ---------------------------------------------------------------------------
# References and memory.


def test_key_and_value_references_are_released():
    """Cached keys are shared: after many documents that repeat a key (the
    replaced values released, the repeated key objects released), the key's
    reference count is back where it was."""
    key = next(iter(isojson.loads('{"refkey":1}')))
    before = sys.getrefcount(key)
    for _ in range(200):
        d = isojson.loads('{"refkey":[1],"refkey":{"x":"y"},"other":2,"refkey":3}')
        assert d == {"refkey": 3, "other": 2}
    del d
    assert sys.getrefcount(key) == before


def _traced_growth(fn, rounds=300):
    fn()
    tracemalloc.start()
    try:
        fn()
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            fn()
        return tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()


def test_no_leak_with_repeated_keys():
    docs = [random_object(random.Random(i), 40 + i, depth=2, repeat=0.5) for i in range(5)]
    docs.append("{" + ",".join(f'"é{i % 3}":"{"x" * 100}{i}"' for i in range(300)) + "}")

    def run():
        for doc in docs:
            isojson.loads(doc)

    assert _traced_growth(run) < 20_000


@pytest.mark.skipif(not _util.EXACT_BIG_INTS, reason="needs exact ints beyond 64 bits (isojson): orjson makes them floats, so no ValueError is raised mid-build")
def test_error_in_a_half_built_dict_releases_everything():
    """An int with more digits than sys.get_int_max_str_digits raises
    ValueError in the middle of dicts whose tables are half full."""
    big = "9" * 5000
    doc = ('{"a":[1,{"x":"y"}],"é":{"p":1,"q":{"r":[' + big + ']}},"z":2}').encode()
    with pytest.raises(ValueError):
        isojson.loads(doc)

    def run():
        for _ in range(3):
            try:
                isojson.loads(doc)
            except ValueError:
                pass

    assert _traced_growth(run, 200) < 20_000


def test_allocation_failures_anywhere_in_a_build():
    """MemoryError from any allocation of the build (a dict, its table, a
    list, a member), in a child process: no crash, the half-built
    containers released, and the call after works."""
    out = _util.run_python("""
        import json, sys
        sys.path.insert(0, ".")
        import _util
        from test_loads_containers import isojson, same
        doc = ('{"a":[1,{"x":"y","z":[1.5,2]}],"\\u00e9":{"p":1,"q":{"r":[3,4]}},"big":{'
               + ",".join('"k%d":%d' % (i, i) for i in range(30)) + '},"a":2}')
        want = json.loads(doc)
        isojson.loads(doc)  # the engine, the check and the key cache first
        failed = _util.count_out_of_memory(range(1, 400), 3, lambda got: same(got, want), isojson.loads, doc)
        same(isojson.loads(doc), want)
        print(failed)
    """, 300)
    assert int(out.split()[-1]) > 0, out


# ---------------------------------------------------------------------------
# The check and its fallback, in child processes (the check runs once per
# process).

CHILD = """
    import gc, json, random, sys
    import isojson, orjson
    sys.path.insert(0, ".")
    from test_loads_containers import random_object, same, numbered
    rng = random.Random(7)
    for n in list(range(0, 120)) + [500, 2000]:
        doc = random_object(rng, n, depth=2)
        same(isojson.loads(doc), orjson.loads(doc))
    d = isojson.loads(numbered(7))
    d["more"] = 1
    del d["k0"]
    assert list(d) == ["k1", "k2", "k3", "k4", "k5", "k6", "more"]
    print("direct" if sys.getsizeof(isojson.loads(numbered(7))) == sys.getsizeof(eval(numbered(7))) else "public")
"""


@pytest.mark.skipif(not IS_ISOJSON, reason="tests isojson's once-per-process dict check, which orjson does not have")
@pytest.mark.parametrize("env, path", [({}, "direct" if DIRECT else "public"), ({"ISOJSON_DICT_DIRECT": "0"}, "public"),
                                       ({"ISOJSON_DICT_SELFCHECK_BREAK": "1"}, "public")])
def test_check_and_fallback(env, path):
    """By default the check passes and dicts are filled directly; turned off,
    or when the check is shown a wrongly built dict (it must notice), dicts
    go through PyDict_SetItem, with the same results."""
    out = _util.run_python(CHILD, 300, env=_util.child_env(**env))
    assert out.split() == [path], out


@pytest.mark.skipif(not IS_ISOJSON, reason="tests isojson's once-per-process dict check, which orjson does not have")
def test_first_loads_racing_in_subinterpreters():
    """The first loads of the process in several own-GIL interpreters at
    once: the check runs concurrently in each, with one outcome."""
    out = _util.run_python("""
        import sys
        import _util
        DIRECT = sys.argv[1] == "True"
        code = '''if True:
            import isojson, json, sys
            doc = "{" + ",".join('"k%d":[%d,{"x%d":"\\u00e9"}]' % (i % 50, i, i) for i in range(300)) + "}"
            for _ in range(20):
                assert isojson.loads(doc) == json.loads(doc)
            d = isojson.loads('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}')
            direct = sys.getsizeof(d) == sys.getsizeof({"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7})
            assert direct == EXPECTED
        '''.replace("EXPECTED", repr(DIRECT))
        errors = _util.exec_in_interpreters(code, 4)
        assert not errors, errors
        print("ok")
    """, 300, DIRECT)
    assert out.split() == ["ok"], out


@pytest.mark.debug_malloc
def test_this_file_under_pythonmalloc_debug():
    _util.pytest_in_child(["test_loads_containers.py"], 900, PYTHONMALLOC="debug")

"""Adversarial tests of loads' object building (pyshim/loads/loads.c, loads_build.c,
loads_dict.c, loads_keys.c, loads_str.c): randomized differential tests
against orjson on JSON *text* (repeated keys, keys equal only once unescaped,
keys that fight over the key cache, strings of every width, deep nesting),
what CPython later does with the dicts whose tables isojson filled itself
(the specializing interpreter's cached key versions, a non-str key turning
the table GENERAL, views, sizes, the collector), and the cyclic GC's state,
which loads switches off while it builds, from every path: errors, re-entry
from gc callbacks and __del__, threads, own-GIL sub-interpreters, fork."""

import gc
import json
import os
import pickle
import random
import sys
import sysconfig
import threading

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

IS_ISOJSON = _util.MODULE_NAME == "isojson"
# Where isojson fills dict tables directly (pyshim/cpython/loads_dict.h).
DIRECT_EXPECTED = (IS_ISOJSON and sys.maxsize > 2**32
                   and not hasattr(sys, "gettotalrefcount")
                   and os.environ.get("ISOJSON_DICT_DIRECT") != "0")
SEED = 8_0813


def check(doc):
    """isojson.loads(doc) is orjson's (ints beyond 64 bits exact), for str
    and bytes input."""
    for data in (doc, doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else doc):
        diff = _util.check_loads(data)
        assert diff is None, f"{diff}\n doc: {doc[:300]!r}"


# ---------------------------------------------------------------------------
# Random JSON text with hypothesis (derandomized: the same examples each run).

def _text_strategy():
    from hypothesis import strategies as st

    def escaped(s):
        """s as JSON string text, each character spelled plainly or as a
        \\u escape (a surrogate pair beyond the BMP) at random."""
        return st.lists(st.booleans(), min_size=len(s), max_size=len(s)).map(
            lambda flags: '"' + "".join(_spell(c, f) for c, f in zip(s, flags)) + '"')

    short_ascii = st.sampled_from(["a", "b", "id", "name", "x1", "", "k" * 8, "k" * 16, "k" * 17, "z" * 64,
                                   "z" * 65, "user_mentions", "indices"])
    many_ascii = st.integers(0, 5000).map(lambda i: f"c{i}")    # thousands of keys: cache sets overflow
    wide = st.text(st.characters(exclude_categories=("Cs",), min_codepoint=0x80), min_size=1, max_size=6)
    mixed = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
    keys = (short_ascii | many_ascii | wide | mixed).flatmap(escaped)

    ints = st.sampled_from([0, -1, 256, 257, -5, -6, 2**31, 2**53 + 1, 2**63 - 1, -2**63, 2**63, 2**64 - 1,
                            2**64, -2**63 - 1]) | st.integers(-2**64, 2**64)
    floats = st.floats(allow_nan=False, allow_infinity=False).map(repr) | st.sampled_from(
        ["-0.0", "1e308", "5e-324", "2.2250738585072014e-308", "1E+2", "0.1e-1", "-1.5E300", "123456789012345678e-5",
         "1.7976931348623157e308", "0e0", "1.0000000000000002"])
    one_char = st.sampled_from(["a", "\u00e9", "\u00ff", "\u0100", "\u4e2d", "\uffff", "\U0001f600", "\U0010ffff"])
    strs = (one_char | mixed | st.text(st.sampled_from("a\u00e9\u4e2d\U0001f600 "), max_size=300)).flatmap(escaped)
    scalars = (st.sampled_from(["null", "true", "false"]) | ints.map(str) | floats | strs)

    def containers(children):
        member = st.tuples(keys, children).map(lambda kv: kv[0] + ":" + kv[1])
        # Members, then some of them again (repeated keys, new values).
        obj = st.lists(member, max_size=12).flatmap(
            lambda ms: st.lists(st.sampled_from(ms) if ms else st.nothing(), max_size=4 if ms else 0).map(
                lambda again: "{" + ",".join(ms + again) + "}"))
        arr = st.lists(children, max_size=8).map(lambda xs: "[" + ",".join(xs) + "]")
        return obj | arr

    return st.recursive(scalars, containers, max_leaves=60)


def _spell(c, escape):
    if c in '"\\':
        return "\\" + c
    if ord(c) < 0x20 or escape:
        cp = ord(c)
        if cp > 0xFFFF:
            cp -= 0x10000
            return "\\u%04x\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF))
        return "\\u%04x" % cp
    return c


def test_hypothesis_text_against_orjson():
    from hypothesis import given

    @_util.hypothesis_settings(1500)
    @given(_text_strategy())
    def run(doc):
        check(doc)

    run()


# ---------------------------------------------------------------------------
# Seeded large documents.

def _big_dict(rng, n, key_pool):
    """A dict of n members whose keys come from key_pool (repeats when the
    pool is smaller than n), values of every kind."""
    vals = ["1", "-1", "1.5", '"s"', '"\u00e9t\u00e9"', '"\U0001f600"', "null", "[]", "{}", '[1,{"a":2}]',
            "18446744073709551615", "-9223372036854775809", '"' + "x" * 70 + '"']
    return "{" + ",".join(json.dumps(rng.choice(key_pool)) + ":" + rng.choice(vals) for _ in range(n)) + "}"


@pytest.mark.parametrize("n", [0, 1, 5, 6, 86, 171, 342, 2730, 2731, 21845, 21846, 30000])
def test_large_dicts_of_every_key_kind(n):
    rng = random.Random(SEED + n)
    ascii_many = [f"key{i}" for i in range(3 * n + 1)]        # every set of the key cache overflows
    wide = [f"\u00e9{i}" for i in range(n + 1)] + [f"\u4e2d{i}" for i in range(n + 1)] + [f"\U0001f600{i}" for i in range(n + 1)]
    long_keys = [("L" * 65) + str(i) for i in range(n + 1)]
    for pool in (ascii_many, ascii_many[: max(1, n // 3)], wide, long_keys, ascii_many[:1], [""]):
        check(_big_dict(rng, n, pool))


def test_keys_equal_only_once_unescaped():
    """The parser unescapes keys into its arena: "a", "\\u0061" and an
    escaped non-ASCII key equal to a literal one are the same key."""
    docs = [
        '{"a":1,"\\u0061":2}',
        '{"\\u0061":1,"a":2,"b":3,"\\u0062":4}',
        '{"\u00e9":1,"\\u00e9":2,"\\u00E9":3}',
        '{"\U0001f600":1,"\\ud83d\\ude00":2}',
        '{"' + "k" * 64 + '":1,"' + "k" * 63 + '\\u006b":2}',
        '{"' + "k" * 65 + '":1,"' + "k" * 64 + '\\u006b":2}',
        "{" + ",".join('"%s":%d' % ("\\u%04x" % ord(c) if i % 2 else c, i) for i, c in enumerate("abcabcabc")) + "}",
    ]
    for doc in docs:
        check(doc)
        same_as_json = _util.same_value(isojson.loads(doc), json.loads(doc))
        assert same_as_json is None, (doc, same_as_json)


def test_key_cache_thrash_between_documents():
    """Keys evicted from the key cache while dicts of earlier results still
    hold them, and cached keys shared by many results: every result stays
    intact and the shared keys' references come back."""
    rng = random.Random(SEED)
    keys = [f"t{i}" for i in range(6000)]
    docs = [_big_dict(rng, rng.randrange(0, 400), keys) for _ in range(60)]
    kept = [isojson.loads(d) for d in docs]
    for d, r in zip(docs, kept):
        assert _util.same_value(r, _util.expected_loads(d)[1]) is None
    probe = next(k for r in kept for k in r)
    count = sys.getrefcount(probe)
    holders = sum(1 for r in kept for k in r if k is probe)
    del kept
    gc.collect()
    assert sys.getrefcount(probe) == count - holders


def test_deep_nesting_every_level():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        _deep_nesting()
    finally:
        sys.setrecursionlimit(old)


def _deep_nesting():
    for depth in (1, 2, 63, 64, 65, 127, 128, 129, 511, 512, 1023, 1024):
        for opener, closer in (('{"k":', "}"), ("[", "]"), ('[{"\u00e9":', "}]")):
            per = 2 if opener.startswith("[{") else 1
            d = depth // per
            if d == 0:
                continue
            doc = opener * d + "1" + closer * d
            check(doc)
    # One past orjson's limit: the same error.
    check("[" * 1025 + "]" * 1025)
    check('{"a":' * 1025 + "1" + "}" * 1025)


# ---------------------------------------------------------------------------
# What CPython does later with the dicts.

def _numbered(n, prefix="k"):
    return "{" + ",".join(f'"{prefix}{i}":{i}' for i in range(n)) + "}"


@pytest.mark.parametrize("n", [1, 5, 6, 20, 200])
def test_loaded_dict_as_globals_and_instance_dict(n):
    """The specializing interpreter caches a keys object's version
    (dk_version, 0 in the tables isojson fills) for LOAD_GLOBAL and
    LOAD_ATTR: after warming up on a loaded dict, a changed, deleted or
    added key must be seen."""
    g = isojson.loads(_numbered(n))
    g["__builtins__"] = __builtins__
    code = compile("def f():\n    return k0 + k%d\n" % (n - 1), "<t>", "exec")
    exec(code, g)
    f = g["f"]
    for _ in range(2000):
        assert f() == n - 1
    g["k0"] = 100
    for _ in range(100):
        assert f() == (200 if n == 1 else 100 + n - 1)
    del g[f"k{n - 1}"]
    with pytest.raises(NameError):
        f()

    class Obj:
        pass

    o = Obj()
    o.__dict__ = isojson.loads(_numbered(n))

    def get(o):
        return o.k0

    for _ in range(2000):
        assert get(o) == 0
    o.__dict__["k0"] = "changed"
    assert get(o) == "changed"
    del o.__dict__["k0"]
    with pytest.raises(AttributeError):
        get(o)
    cls = type("FromLoads", (), isojson.loads(_numbered(n)))
    assert cls.k0 == 0 and getattr(cls, f"k{n - 1}") == n - 1


@pytest.mark.parametrize("n", [3, 7, 100])
def test_dict_watchers_see_loaded_dicts_as_cpython_dicts(n):
    """A watcher added to a loaded dict (its watcher tag left 0 by loads)
    sees the same events as on a dict CPython built."""
    _testcapi = pytest.importorskip("_testcapi")
    doc = _numbered(n)
    wid = _testcapi.add_dict_watcher(0)  # kind 0 records the events
    try:
        events = []
        for x in (isojson.loads(doc), eval(doc)):  # noqa: S307 - a dict display
            before = len(_testcapi.get_dict_watcher_events())
            _testcapi.watch_dict(wid, x)
            x["k0"] = "new"
            x["added"] = 1
            del x["k1"]
            x.clear()
            _testcapi.unwatch_dict(wid, x)
            x["unwatched"] = 1
            events.append(_testcapi.get_dict_watcher_events()[before:])
    finally:
        _testcapi.clear_dict_watcher(wid)
    assert events[0] == events[1] == ["mod:k0:new", "new:added:1", "del:k1", "clear"]


@pytest.mark.parametrize("n", [1, 5, 6, 85, 86, 1000, 21845])
def test_non_str_keys_views_and_sizes(n):
    """A non-str key turns a UNICODE table GENERAL (CPython converts the
    table isojson filled); views, reversed, set operations, sizes."""
    d = isojson.loads(_numbered(n))
    ref = {f"k{i}": i for i in range(n)}
    assert list(reversed(d)) == list(reversed(ref))
    assert d.keys() == ref.keys() and d.items() == ref.items() and list(d.values()) == list(ref.values())
    assert (d.keys() & {"k0", "zz"}) == {"k0"} and (d.keys() | {"zz"}) == set(ref) | {"zz"}
    assert d.__sizeof__() <= sys.getsizeof(d)
    assert pickle.loads(pickle.dumps(d, protocol=5)) == ref
    for x in (d, ref):
        x[1] = "int key"
        x[(1, 2)] = "tuple key"
        x[1.5] = None
    assert d == ref and list(d) == list(ref)
    for i in range(n):
        assert d[f"k{i}"] == i
    assert d[1] == "int key" and d[(1, 2)] == "tuple key"
    d2 = isojson.loads(_numbered(n))
    with pytest.raises(RuntimeError):
        for k in d2:
            d2["new"] = 1
    d3 = isojson.loads(_numbered(n))
    while d3:
        d3.popitem()
    assert d3 == {} and sys.getsizeof(d3) >= sys.getsizeof({})
    d3.update(ref)
    assert d3 == ref
    assert list(dict.fromkeys(isojson.loads(_numbered(n)))) == [f"k{i}" for i in range(n)]
    assert (isojson.loads(_numbered(n)) | {"k0": "or"})["k0"] == "or"


def test_kwargs_and_referents():
    d = isojson.loads('{"a":1,"b":[2],"c":{"d":3},"a":4}')
    assert (lambda **kw: kw)(**d) == {"a": 4, "b": [2], "c": {"d": 3}}
    assert gc.get_referents(d) == [4, [2], {"d": 3}] or set(map(id, gc.get_referents(d))) >= {id(d["b"]), id(d["c"])}
    doc = '{"a":[{"b":1},{}],"c":{"d":{"e":[]}},"f":1,"g":[1,"x",null]}'
    got, ref = isojson.loads(doc), json.loads(doc)

    def walk(a, b):
        assert gc.is_tracked(a) == gc.is_tracked(b), (a, b)
        if isinstance(a, dict):
            for k in a:
                walk(a[k], b[k])
        elif isinstance(a, list):
            for x, y in zip(a, b):
                walk(x, y)

    walk(got, ref)
    assert got in gc.get_referrers(got["a"])


# ---------------------------------------------------------------------------
# The cyclic GC's state (loads switches it off while it builds).

BIG = json.dumps([{"a": [i, str(i)], "b": {"c": i}} for i in range(3000)])


def test_gc_state_restored_on_every_path():
    """Success, a syntax error, a wrong input type, ValueError from an int
    with too many digits, with the GC enabled and disabled."""
    bad_inputs = ["[1,2", b'{"a":1,}', "\ud800", 42, bytearray(b"[") , memoryview(b"[1]")[::2]]
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            isojson.loads(BIG)
            assert gc.isenabled() == enabled
            for bad in bad_inputs:
                with pytest.raises(Exception):
                    isojson.loads(bad)
                assert gc.isenabled() == enabled, bad
            if _util.EXACT_BIG_INTS:
                with pytest.raises(ValueError):
                    isojson.loads('{"a":[1,{"b":' + "9" * 5000 + "}]}")
                assert gc.isenabled() == enabled
        finally:
            gc.enable()


def test_gc_state_restored_after_memory_errors():
    out = _util.run_python("""
        import gc, json, sys
        sys.path.insert(0, ".")
        import _util
        from test_loads_adversarial import isojson
        doc = json.dumps([{"k%d" % (i % 30): [i, "\\u00e9%d" % i, {"x": 1.5}]} for i in range(50)])
        isojson.loads(doc)
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            failed = 0
            for start in range(1, 300, 3):
                if _util.call_with_failing_allocations(start, start + 2, isojson.loads, doc) is _util.OUT_OF_MEMORY:
                    failed += 1
                assert gc.isenabled() == enabled, (start, enabled)
            assert failed > 0
        gc.enable()
        assert isojson.loads(doc) == json.loads(doc)
        print("ok")
    """, 300)
    assert out.split()[-1] == "ok", out


@pytest.mark.skipif(not IS_ISOJSON, reason="tests isojson's once-per-process dict check, which orjson does not have")
def test_memory_errors_during_the_first_loads_and_in_large_tables():
    """MemoryError while the once-per-process check runs (the first loads):
    loads raises or falls back, and a later loads runs the check again, so
    dicts are still filled directly afterwards; then failures in the middle
    of a table with 2-byte indexes and of 200 levels of nesting."""
    out = _util.run_python("""
        import _testcapi, gc, json, sys
        sys.path.insert(0, ".")
        import _util
        from test_loads_adversarial import isojson
        seven = '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}'
        outcomes = set()
        for start in (1, 2, 3, 5, 8, 13, 40, 200):
            got = _util.call_with_failing_allocations(start, start + 50, isojson.loads, seven)
            outcomes.add("MemoryError" if got is _util.OUT_OF_MEMORY else "ok")
            assert gc.isenabled()
        assert isojson.loads(seven) == json.loads(seven)
        direct = sys.getsizeof(isojson.loads(seven)) == sys.getsizeof(eval(seven))
        big = "{" + ",".join('"k%d":[%d,{"x":"\\u00e9"}]' % (i, i) for i in range(3000)) + "}"
        deep = '{"a":[' * 200 + '{"\\u00e9":1.5}' + "]}" * 200
        for doc in (big, deep):
            want = json.loads(doc)
            failed = 0
            for start in range(1, 6000, 97):
                got = _util.call_with_failing_allocations(start, start + 1, isojson.loads, doc)
                if got is _util.OUT_OF_MEMORY:
                    failed += 1
                    got = want
                assert got == want and gc.isenabled()
            assert failed > 0
            assert isojson.loads(doc) == want
        # A non-ASCII str's UTF-8 is allocated on first use: out of memory
        # there is MemoryError, not the surrogate JSONDecodeError.
        text = '["\\u00e9t\\u00e9", 1]'.encode().decode("unicode_escape")
        _testcapi.set_nomemory(1, 0)
        try:
            isojson.loads(text)
            utf8 = "ok"
        except MemoryError:
            utf8 = "MemoryError"
        except Exception as e:
            utf8 = type(e).__name__
        finally:
            _testcapi.remove_mem_hooks()
        assert isojson.loads(text) == json.loads(text)
        print(direct, utf8, sorted(outcomes))
    """, 600)
    words = out.split()
    assert words[:2] == [repr(DIRECT_EXPECTED), "MemoryError"], out


def test_loads_from_gc_callbacks_and_finalizers():
    """loads re-entered from a gc callback and from __del__ run by a
    collection (the collector is running; the GC must come back enabled and
    collections must keep working)."""
    results = []

    def callback(phase, info):
        results.append(isojson.loads(BIG) == json.loads(BIG))

    class Finalized:
        def __init__(self):
            self.me = self

        def __del__(self):
            results.append(isojson.loads(BIG) == json.loads(BIG))
            results.append(gc.isenabled())

    gc.callbacks.append(callback)
    try:
        for _ in range(5):
            Finalized()
            gc.collect()
            assert gc.isenabled()
    finally:
        gc.callbacks.remove(callback)
    assert len(results) >= 5 * 4 and all(results), results
    # A cycle made after all that is still collected without gc.collect().
    import weakref
    seen = []

    class Node:
        pass

    a = Node()
    a.me = a
    weakref.finalize(a, seen.append, 1)
    del a
    for _ in range(5):
        [[] for _ in range(3000)]
    assert seen == [1]


def test_gc_state_seen_by_other_threads():
    """Threads that toggle the GC themselves and threads that loads: the
    caller's own setting is never lost (each loads puts back what it found,
    and no other thread runs while it builds)."""
    stop = threading.Event()
    errors = []

    def loader():
        while not stop.is_set():
            try:
                assert isojson.loads(BIG)[5]["b"]["c"] == 5
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

    def toggler():
        for _ in range(3000):
            gc.disable()
            if gc.isenabled():
                errors.append("enabled behind a disable")
            gc.enable()
            if not gc.isenabled():
                errors.append("disabled behind an enable")

    threads = [threading.Thread(target=loader) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        if sys._is_gil_enabled():
            toggler()
    finally:
        stop.set()
        for t in threads:
            t.join()
    gc.enable()
    assert not errors, errors[:5]


# ---------------------------------------------------------------------------
# Concurrency: own-GIL sub-interpreters and threads, fork.

# Source run in every interpreter (own-GIL ones cannot import orjson).
DOC_SET = """
import json, random
def _doc_set(seed, count):
    vals = ["1", "-1", "1.5", '"s"', '"\\u00e9t\\u00e9"', '"\\U0001f600"', "null", "[]", "{}", '[1,{"a":2}]',
            "18446744073709551615", "-9223372036854775809", '"' + "x" * 70 + '"']
    rng = random.Random(seed)
    pool = ["s%d" % i for i in range(3000)] + ["\\u00e9%d" % i for i in range(50)] + ["L" * 70]
    return ["{" + ",".join(json.dumps(rng.choice(pool)) + ":" + rng.choice(vals) for _ in range(rng.randrange(0, 200)))
            + "}" for _ in range(count)]
"""
exec(DOC_SET)


@pytest.mark.slow
def test_subinterpreters_and_threads_loading_at_once():
    """8 own-GIL interpreters, each on its own thread, and 4 threads of the
    main interpreter, all loading at once; every result is checked against
    the stdlib's json (same values and key order)."""
    out = _util.run_python("""
        import json, random, sys, threading
        from concurrent import interpreters
        sys.path.insert(0, ".")
        from test_loads_adversarial import _doc_set, DOC_SET
        import isojson
        code = '''if True:
            import isojson
            exec(DOC_SET)
            docs = _doc_set(SEED, 40)
            for rep in range(15):
                for d in docs:
                    got, want = isojson.loads(d), json.loads(d)
                    if repr(got) != repr(want):
                        raise AssertionError(d[:200])
        '''
        interps = [interpreters.create() for _ in range(8)]
        errors = []
        def in_interp(i):
            try:
                interps[i].exec(code.replace("SEED", str(i)).replace("DOC_SET", repr(DOC_SET)))
            except Exception as e:
                errors.append(repr(e))
        def in_thread(i):
            try:
                docs = _doc_set(100 + i, 40)
                for rep in range(15):
                    for d in docs:
                        assert repr(isojson.loads(d.encode())) == repr(json.loads(d))
            except Exception as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=in_interp, args=(i,)) for i in range(8)]
        threads += [threading.Thread(target=in_thread, args=(i,)) for i in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        for i in interps: i.close()
        assert not errors, errors
        print("ok")
    """, 600)
    assert out.split()[-1] == "ok", out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_fork_while_other_threads_load():
    """fork() while other threads are inside loads (their thread-local
    scratch busy, the key cache mid-update in the parent): the child's
    loads work, from its only thread and from new threads."""
    out = _util.run_python("""
        import json, os, sys, threading, warnings
        sys.path.insert(0, ".")
        from test_loads_adversarial import _doc_set
        import isojson
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads
        docs = _doc_set(7, 30)
        want = [repr(json.loads(d)) for d in docs]
        stop = threading.Event()
        def loader():
            while not stop.is_set():
                for d in docs:
                    isojson.loads(d)
        threads = [threading.Thread(target=loader) for _ in range(3)]
        for t in threads: t.start()
        bad = 0
        for _ in range(20):
            pid = os.fork()
            if pid == 0:
                ok = all(repr(isojson.loads(d)) == w for d, w in zip(docs, want))
                res = []
                t = threading.Thread(target=lambda: res.append(all(repr(isojson.loads(d)) == w for d, w in zip(docs, want))))
                t.start(); t.join()
                os._exit(0 if ok and res == [True] else 3)
            _, status = os.waitpid(pid, 0)
            bad += status != 0
        stop.set()
        for t in threads: t.join()
        print("bad", bad)
    """, 300)
    assert out.split()[-2:] == ["bad", "0"], out


# ---------------------------------------------------------------------------
# Memory over many small loads.

@pytest.mark.slow
def test_a_million_small_loads_do_not_grow():
    """1,000,000 loads of small documents (cached keys, repeated keys,
    non-ASCII keys, strs, floats, dropped results): neither traced Python
    memory nor resident memory grows, and the shared keys' reference counts
    come back."""
    out = _util.run_python("""
        import gc, sys, tracemalloc
        sys.path.insert(0, ".")
        from test_loads_adversarial import isojson
        docs = [b'{"id":1,"name":"x","id":2}', b'{"\\xc3\\xa9":[1.5,"\\xe4\\xb8\\xad"],"a":{}}', b'[{"a":1},{"b":[]}]',
                b'{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":[7]}', b'"' + b"s" * 100 + b'"', b'{}']
        def resident():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * 4096
        for d in docs * 1000:
            isojson.loads(d)
        key = next(iter(isojson.loads(docs[0])))
        refs = sys.getrefcount(key)
        tracemalloc.start()
        rss0 = resident()
        t0 = tracemalloc.get_traced_memory()[0]
        for _ in range(1_000_000 // len(docs)):
            for d in docs:
                isojson.loads(d)
        traced = tracemalloc.get_traced_memory()[0] - t0
        tracemalloc.stop()
        gc.collect()
        print(traced, resident() - rss0, sys.getrefcount(key) - refs)
    """, 600)
    traced, rss, refs = map(int, out.split()[-3:])
    assert traced < 64 * 1024, out
    assert rss < 8 * 2**20, out
    assert refs == 0, out


@pytest.mark.parametrize("n", [1, 5, 6, 7, 86, 342, 21845, 21846])
def test_dumps_of_loaded_then_mutated_dicts(n):
    """dumps reads dict tables directly too (pyshim/cpython/dumps_dict_read.h): the
    tables loads filled, after deletions (holes), growth and a non-str key,
    serialize as orjson serializes them."""
    doc = "{" + ",".join(f'"k{i}":[{i},"\\u00e9"]' for i in range(n)) + ',"k0":"again"}'
    rng = random.Random(n)
    for trial in range(4):
        d = isojson.loads(doc)
        if trial:
            for k in list(d)[:: rng.choice([2, 3, 7])]:
                del d[k]
        if trial == 2:
            for i in range(n // 2 + 3):
                d[f"new{i}"] = i
        if trial == 3:
            d[1] = "x"
        for opt in (0, orjson.OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS, orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS):
            got, want = _util.outcome(isojson.dumps, d, option=opt), _util.outcome(orjson.dumps, d, option=opt)
            assert got == want, (trial, opt)


@pytest.mark.debug_malloc
def test_this_file_under_pythonmalloc_debug():
    """The debug allocator's guard bytes and freed-memory poisoning catch a
    table or str written past its end, or used after CPython freed it."""
    _util.pytest_in_child(["test_loads_adversarial.py"], 900, marks="not debug_malloc and not slow",
                          PYTHONMALLOC="debug")

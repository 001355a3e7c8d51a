"""loads' str paths (pyshim/loads/loads_str.c, loads_keys.c, loads_bytes.h): the
inline compare, copy and hash of short strings at every length boundary, the
UTF-8 → UCS1/UCS2/UCS4 decoders at every branch and position, the key cache
(2-way sets: hits, eviction, refcounts, one cache per interpreter, freed with
its interpreter), and the same under PYTHONMALLOC=debug.

Equality with orjson also checks the kind (width) of every str: CPython
compares strs of different kinds as unequal, so a str built one width too
wide would fail here."""

import sys

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest
from hypothesis import given
from hypothesis import strategies as st

import _util
from _util import isojson

# Lengths around every size class of the inline helpers (1-3, 4-7, 8,
# 9-16, 17-32, 33-64 in 16-byte steps) and the cache limit (64) and beyond.
LENGTHS = list(range(0, 70)) + [79, 80, 81, 95, 96, 97, 127, 128, 129, 200]


def _text(n, salt=0):
    """n printable ASCII characters, each position different from its
    neighbours (a copy that drops or shifts a byte shows)."""
    return "".join(chr(33 + (i * 7 + salt) % 90) for i in range(n)).replace('"', "#").replace("\\", "/")


def _same(doc_bytes):
    got, want = isojson.loads(doc_bytes), orjson.loads(doc_bytes)
    assert _util.same_value(got, want) is None, doc_bytes[:200]
    return got


def test_ascii_values_and_keys_every_length():
    """Every length as a value, as a key, inside and outside the key cache's
    64 bytes, twice in one document (the second key comes from the cache)."""
    for n in LENGTHS:
        s = _text(n)
        doc = orjson.dumps([s, {s: s}, {s: n, "x": [s]}])
        got = _same(doc)
        assert got[0] == s and len(got[0]) == n
        assert _same(doc) == got


@pytest.mark.parametrize("n", [n for n in LENGTHS if 1 <= n <= 129])
def test_keys_differing_in_one_byte_at_every_position(n):
    """Keys of one length that differ from a base key in one byte only, at
    every position: each must stay its own key. A hash that ignored a byte
    would give them one tag; the compare must then tell them apart."""
    base = _text(n)
    keys = [base] + [base[:i] + ("~" if base[i] != "~" else "!") + base[i + 1:] for i in range(n)]
    assert len(set(keys)) == len(keys)
    doc = orjson.dumps([{k: i for i, k in enumerate(keys)}, [{k: i} for i, k in enumerate(keys)]])
    for _ in range(3):   # the second and third loads hit the cache
        got = _same(doc)
        assert list(got[0]) == keys
        assert [next(iter(d)) for d in got[1]] == keys


def test_keys_that_are_prefixes_of_each_other():
    """Same leading bytes, different lengths: the length in the tag and the
    length of the compare both matter."""
    keys = ["a" * n for n in range(1, 70)] + ["ab" * n for n in range(1, 35)]
    doc = orjson.dumps({k: len(k) for k in keys})
    for _ in range(2):
        assert list(_same(doc)) == keys


def test_key_cache_hit_returns_the_cached_str():
    """A short ASCII key loaded twice is the same str object (the cache);
    a key past 64 bytes or with a non-ASCII character is a new str."""
    short, long_, wide = "key_" + "x" * 20, "k" * 65, "clé"
    doc = orjson.dumps({short: 1, long_: 2, wide: 3})
    a, b = isojson.loads(doc), isojson.loads(doc)
    ka, kb = list(a), list(b)
    assert ka[0] is kb[0]
    assert ka[1] == kb[1] and ka[1] is not kb[1]
    assert ka[2] == kb[2] and ka[2] is not kb[2]
    assert hash(ka[0]) == hash(short)


def test_key_cache_eviction_keeps_every_key_right():
    """More distinct keys than the cache holds (1024 sets of 2): every set
    overflows and evicts; keys held by earlier results stay valid and equal,
    and a later load of the first document is still right."""
    first = orjson.dumps({f"first{i}": i for i in range(100)})
    kept = isojson.loads(first)
    many = [{f"k{i}_{j}": j for j in range(50)} for i in range(200)]   # 10000 keys
    for doc in many:
        _same(orjson.dumps(doc))
    _same(orjson.dumps(many))
    again = _same(first)
    assert kept == again and list(kept) == [f"first{i}" for i in range(100)]


def test_three_keys_alternating_in_documents():
    """Keys repeated in alternation across many objects (the pattern that
    thrashed a direct-mapped slot) load right every time."""
    keys = [f"{c}{n}" for c in "abcdefgh" for n in range(300)]
    docs = [{k: i, keys[(i * 7) % len(keys)]: -i, keys[(i * 13) % len(keys)]: None} for i, k in enumerate(keys)]
    raw = orjson.dumps(docs)
    for _ in range(2):
        _same(raw)


def test_refcounts_of_cached_keys_and_values_are_stable():
    """Each loads takes one reference on a cached key and its result gives it
    back; nothing leaks or is freed early, on hits, misses and evictions.

    Besides the key cache, a dict shape (pyshim/loads/loads_shapes.c) holds
    the key once a dict with it is loaded while another (kept) lives, but
    only when the interpreter's shape credit allows: the tests before this
    one may have spent it, and each such dict earns 1 of the 32 a shape
    costs. So the shape is made first, by 64 loads while the key is cached,
    and its reference is in rk; it stays once the key has left the cache
    (the shape is matched by the str's identity, and no later dict finds
    it). Without that, with the credit one dict short of a shape when rk was
    read (make test's pydev part, once), the shape was made between rk and
    the eviction, and its reference took the place of the cache's: 3
    references, rk - 1 = 2."""
    doc = orjson.dumps({"refcount_key": "refcount_value", "other": ["v", "vv", "é" * 3]})
    kept = isojson.loads(doc)
    key = next(iter(kept))
    value = kept["refcount_key"]
    for _ in range(64):
        isojson.loads(doc)
    rk, rv = sys.getrefcount(key), sys.getrefcount(value)
    for i in range(2000):
        isojson.loads(doc)
        if i % 100 == 0:   # evictions in between
            isojson.loads(orjson.dumps({f"evict{i}_{j}": j for j in range(3000)}))
    assert sys.getrefcount(value) == rv
    # Evicted (a later load makes a new str), the cache dropped its own
    # reference to our key, and only that one.
    assert next(iter(isojson.loads(doc))) is not key
    assert sys.getrefcount(key) == rk - 1
    assert key == "refcount_key" and kept == isojson.loads(doc)


# White box: the key cache's set index, ported from pyshim/loads/loads_bytes.h
# (loads_bytes_hash, loads_bytes_mix) and loads_keys.c (1024 sets of 2 ways),
# to put three keys in one set. If the C hash changes, the first assertion
# of the test below says so: update this port. (The port is the 128-bit
# multiply path: a build with -DISOJSON_NO_INT128 fails this test only.)
_M64 = (1 << 64) - 1
_K1, _K2 = 0xA0761D6478BD642F, 0xE7037ED1A0B428DB


def _mix(a, b):
    m = a * b
    return (m & _M64) ^ (m >> 64)


def _key_set(key):
    s, n, h = key.encode(), len(key.encode()), 0
    w64 = lambda i: int.from_bytes(s[i:i + 8], "little")
    if n >= 8:
        i = 0
        while i + 16 < n:
            h = _mix(w64(i) ^ _K1 ^ h, w64(i + 8) ^ _K2)
            i += 16
        a, b = w64(i if n - i > 8 else n - 8), w64(n - 8)
    elif n >= 4:
        a, b = int.from_bytes(s[:4], "little"), int.from_bytes(s[n - 4:], "little")
    else:
        a, b = (s[0] << 16 | s[n >> 1] << 8 | s[n - 1]) if n else 0, 0
    return _mix(a ^ _K1 ^ h, b ^ _K2 ^ n) & 1023


def _three_keys_in_one_set(prefix):
    by_set = {}
    for i in range(100000):
        key = f"{prefix}{i}"
        group = by_set.setdefault(_key_set(key), [])
        group.append(key)
        if len(group) == 3:
            return group
    raise AssertionError("no three keys in one set")


@pytest.mark.skipif(_util.MODULE_NAME != "isojson" or sys.byteorder != "little",
                    reason="isojson's key cache layout; the port reads words little-endian")
@pytest.mark.parametrize("prefix", ["w", "way_key_", "a_much_longer_key_prefix_over_32_bytes_"])
def test_two_ways_per_set_then_eviction(prefix):
    """Two keys of one set are both kept (the newer in way 0, the older in
    way 1, both hits); a third evicts the older; refcounts stay exact on
    way-1 hits."""
    a, b, c = _three_keys_in_one_set(prefix)
    load = lambda k: next(iter(isojson.loads(orjson.dumps({k: 0}))))
    ka = load(a)
    assert load(a) is ka, "the key cache's hash changed: update _key_set"
    kb = load(b)                                  # a moves to way 1
    assert load(a) is ka and load(b) is kb
    rc = sys.getrefcount(ka)
    for _ in range(1000):
        assert load(a) is ka                      # way-1 hits
    assert sys.getrefcount(ka) == rc
    kc = load(c)                                  # evicts a (way 1); b to way 1
    assert load(b) is kb and load(c) is kc
    assert sys.getrefcount(ka) == rc - 1          # the cache let go of a
    ka2 = load(a)
    assert ka2 == a and ka2 is not ka             # a is made again
    assert load(c) is kc and load(b) is not kb    # ... evicting b


# Non-ASCII: each character width at every position of strings around the
# 8-byte ASCII step, as values and as keys (those bypass the key cache).
WIDE = ["é", "ÿ", "\u0100", "€", "日", "\uffff", "\U0001f600", "\U0010ffff"]


@pytest.mark.parametrize("c", WIDE)
def test_one_wide_character_at_every_position(c):
    strs = []
    for n in list(range(1, 34)) + [63, 64, 65]:
        for at in range(n):
            strs.append(_text(at) + c + _text(n - at - 1, 5))
    doc = orjson.dumps([strs, {s: i for i, s in enumerate(strs)}])
    _same(doc)


@pytest.mark.parametrize("pair", [("é", "日"), ("日", "\U0001f600"), ("é", "\U0001f600"), ("\u0100", "é")])
def test_mixed_widths_and_runs(pair):
    """Runs of 0..17 ASCII bytes between wide characters of two widths, and
    strings that end right after a multi-byte sequence."""
    a, b = pair
    strs = []
    for run in range(18):
        for count in range(1, 6):
            strs.append((a + "x" * run + b) * count)
            strs.append(("y" * run + a + b) * count + "z" * run)
            strs.append(a * count + "q" * run)
            strs.append("q" * run + b * count)
    doc = orjson.dumps([strs, {s: 0 for s in strs}])
    _same(doc)


def test_cjk_text_like_tweets():
    """Long 3-byte text with single ASCII spaces and punctuation (the UCS2
    fast path), with escapes (arena-stored strings) and emoji (UCS4)."""
    base = "東京都の天気は晴れ、気温は25度です。 RT @user: こんにちは! #タグ http://t.co/abc"
    strs = [base * k for k in range(1, 8)] + [base + "\n\t\"" + base, base + "\U0001f600" * 3 + base]
    doc = orjson.dumps({"s": strs, base: strs})
    got = _same(doc)
    assert got["s"][0] == base


@given(st.lists(st.text(max_size=80), max_size=20))
@_util.hypothesis_settings(300)
def test_random_text_values_and_keys(strs):
    doc = orjson.dumps([strs, {s: i for i, s in enumerate(strs)}])
    _same(doc)


CHILD_INTERPRETERS = """
import gc, os, sys
from concurrent import interpreters
name = {name!r}
mod = __import__(name)

def resident():
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

# Each interpreter fills its own key cache (3000 distinct keys: more
# than its 2048 entries), checks its results and that its cache works
# (a key loaded twice is one object there), then is closed.
CODE = '''
import {name} as mod
doc = b"{{" + b",".join(b'"key%d_%d":%d' % (i % 7, i, i) for i in range(3000)) + b"}}"
a = mod.loads(doc)
b = mod.loads(doc)
assert a == b and len(a) == 3000 and a["key3_10"] == 10, "wrong"
solo = b'{{"solo_key": 1}}'
assert list(mod.loads(solo))[0] is list(mod.loads(solo))[0], "no cache hit inside the interpreter"
'''
before = None
for cycle in range({cycles}):
    if cycle == {first}:
        before = resident()
    interp = interpreters.create()
    interp.exec("import sys; sys.path[:] = %r" % (sys.path,))
    interp.exec(CODE)
    interp.close()
growth = resident() - before
# The main interpreter's own cache still works after all of that.
doc = b'{{"main_key": 1}}'
assert list(mod.loads(doc))[0] is list(mod.loads(doc))[0]
print("ok", growth, flush=True)
"""


@pytest.mark.slow
def test_each_interpreter_has_its_own_key_cache_freed_with_it():
    """150 interpreters, each filling a key cache of its own, created and
    closed one after another in a child process: resident memory from cycle
    20 to 150 grows by less than 4 MB. A cache not freed at interpreter end
    would keep its table and 2048 strs: about 0.3 MB a cycle, 40 MB in all.
    Under ISOJSON_TEST_SAMPLE 60 interpreters, measured from the 10th: such
    a leak would still be 15 MB (each cycle 0.07 s under
    python3.14-dbg)."""
    cycles = _util.sampled(150, 60)
    first = 20 if cycles == 150 else 10
    out = _util.run_python(CHILD_INTERPRETERS.format(name=_util.MODULE_NAME, cycles=cycles, first=first), 600)
    words = out.split()
    assert words[-2] == "ok", out
    growth = int(words[-1])
    assert growth < 4 * 2**20, f"resident memory grew by {growth / 2**20:.1f} MB over {cycles - first} interpreters"


@pytest.mark.slow
def test_concurrent_interpreters_with_their_own_caches():
    """4 own-GIL interpreters loading documents of the same keys at once,
    each on its own thread (each touches only its own cache)."""
    import threading
    from concurrent import interpreters

    doc = orjson.dumps([{f"k{i % 300}": _text(i % 70), "日本": "é" * (i % 9)} for i in range(3000)])
    want = orjson.loads(doc)
    errors = []

    def run(interp):
        try:
            interp.exec("import sys; sys.path[:] = %r" % (sys.path,))
            interp.exec(f"import {_util.MODULE_NAME} as mod\nwant = mod.loads({doc!r})\n"
                        f"for _ in range(20):\n    assert mod.loads({doc!r}) == want\n")
            got = interp.call(_loads_in_interpreter, _util.MODULE_NAME, doc)
            if got != want:
                errors.append("wrong result")
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))

    interps = [interpreters.create() for _ in range(4)]
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in interps]
        for t in threads:
            t.start()
        for _ in range(20):
            assert isojson.loads(doc) == want
        for t in threads:
            t.join(300)
    finally:
        for i in interps:
            i.close()
    assert not errors, errors


def _loads_in_interpreter(name, doc):
    import importlib
    return importlib.import_module(name).loads(doc)


@pytest.mark.debug_malloc
def test_this_file_under_pythonmalloc_debug():
    """This file again with PYTHONMALLOC=debug: an overrun of a str's buffer
    by the inline copies or decoders, or a use of a freed (0xDD-filled)
    cached key, crashes or gives wrong strings there."""
    _util.pytest_in_child([__file__], 900, PYTHONMALLOC="debug")

"""Paths of the tape walk (pyshim/loads/loads_build.c) that the other loads tests
reach without looking at what they must keep: a failure in the middle of a
dict that a shape is filling (whose table counts its entries only once the
shape is done with), dicts whose index slots are set at their first key
because no shape predicts them (their tables come without index slots set),
and the loop that fills a list's leading run of leaves (it stops at the
first container and 3 words before the tape's end, and hands the rest of
the list to the general walk).
"""

import json
import sys

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

IS_ISOJSON = _util.MODULE_NAME == "isojson"


def _records(keys, n, value=lambda i, j: f"v{i}_{j}"):
    return [{k: value(i, j) for j, k in enumerate(keys)} for i in range(n)]


@pytest.mark.skipif(not IS_ISOJSON, reason="counts the references isojson's key cache and tables hold")
def test_failure_inside_a_shaped_dict_releases_its_members():
    """MemoryError at every allocation of a loads of records that the
    list's shape fills (strs as values: a failure between members): the
    members already in a table are released, keys included. Each failed
    loads would otherwise keep a reference to every key before the failing
    member (the shape path counts a table's entries only when it is done
    with the shape)."""
    out = _util.run_python("""
        import sys
        sys.path.insert(0, ".")
        import orjson
        import _util
        from _util import isojson
        keys = ["bq%d" % j for j in range(7)]
        text = orjson.dumps([{k: "v%d_%d" % (i, j) for j, k in enumerate(keys)} for i in range(6)])
        loaded = isojson.loads(text)
        assert loaded == orjson.loads(text)
        cached = [next(k for k in loaded[-1] if k == key) for key in keys]   # the key cache's strs
        isojson.loads(text)
        before = [sys.getrefcount(k) for k in cached]
        failed = _util.count_out_of_memory(range(1, 120), 1, None, isojson.loads, text)
        assert failed > 40, failed
        after = [sys.getrefcount(k) for k in cached]
        assert after == before, (before, after)
        assert isojson.loads(text) == loaded
        print("ok", failed)
    """, 300)
    assert out.split()[0] == "ok", out


def test_first_keys_without_a_shape():
    """Dicts that no shape predicts: one-off layouts, a list of two
    alternating record kinds (the list's prediction misses at the first
    key), records whose shape misses later; every dict must find each of
    its keys (an index table left unset would not)."""
    kinds = [[f"fa{j}" for j in range(5)], [f"fb{j}" for j in range(5)], [f"fa{j}" for j in range(4)] + ["zz"]]
    docs = [
        [{f"one{i}_{j}": j for j in range(6)} for i in range(30)],
        [dict.fromkeys(kinds[i % 2], i) for i in range(40)],
        [dict.fromkeys(kinds[i % 3], i) for i in range(40)],
        [{"n": i, "inner": dict.fromkeys(kinds[i % 3], i)} for i in range(40)],
    ]
    for doc in docs:
        text = orjson.dumps(doc)
        for _ in range(3):
            got = isojson.loads(text)
            assert got == doc
            for d, ref in zip(got, doc):
                for k, v in ref.items():
                    assert d[k] == v and k in d
                assert "absent" not in d


# One of each leaf kind the list loop takes (null, false, true, a small int,
# a cached one beyond the small ints, a float, ASCII, Latin-1, BMP and
# astral strings, a 1-char str) and the entries it does not (containers, a
# 64-bit uint, a big int).
_LEAVES = [None, False, True, 7, -5, 256, 1000, 2.5, "ab", "é", "\u20ac\u20ac", "\U0001f600", "x", ""]
_OTHERS = [[], {}, [1], {"a": 1}, 2**64 - 1]


def test_leaf_runs_of_every_length_before_every_other_entry():
    """A list of leaves of each length 0..12, with each non-leaf entry at
    each position, as the document or inside a dict or a list (the tape's
    end near or far), gives orjson's value."""
    for n in range(13):
        leaves = [_LEAVES[(n + k) % len(_LEAVES)] for k in range(n)]
        docs = [leaves]
        for other in _OTHERS:
            for pos in range(n + 1):
                docs.append(leaves[:pos] + [other] + leaves[pos:])
        for doc in docs:
            for wrapped in (doc, {"k": doc}, [doc, 1], [doc], {"k": doc, "z": None}):
                text = json.dumps(wrapped, ensure_ascii=False, separators=(",", ":")).encode()
                got = isojson.loads(text)
                assert got == orjson.loads(text), text
                assert type(got) is type(wrapped)


def test_a_failure_inside_a_leaf_run_releases_the_list():
    """MemoryError at every allocation of a loads of lists of leaves that
    allocate (floats, strs, ints beyond the small ones): no crash, and the
    next loads gives the value. In a fresh process, as above: which
    allocations a loads makes depends on the free lists' state."""
    out = _util.run_python("""
        import sys
        sys.path.insert(0, ".")
        import orjson
        import _util
        from _util import isojson
        doc = [[1.5 + i, "s%d" % i, 1000 + i, None, "\\u00e9%d" % i] * 3 for i in range(4)]
        text = orjson.dumps(doc)
        assert isojson.loads(text) == doc

        def check(got):
            assert got == doc, got

        failed = _util.count_out_of_memory(range(1, 90), 1, check, isojson.loads, text)
        assert failed > 10, failed
        assert isojson.loads(text) == doc
        print("ok", failed)
    """, 300)
    assert out.split()[0] == "ok", out

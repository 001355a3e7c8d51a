"""Repeated integers in one loads() call share one int object
(pyshim/loads/loads_ints.h): a small direct-mapped table, switched on after the
first 16 ints beyond CPython's small-int range (and off again when fewer
than a quarter of 64 lookups hit), holding a reference to each int it keeps
until the call ends.

Whatever the table does, the values must be orjson's (same types, same
numbers, also when two values fall into one slot or a repeated dict key
drops a value the table still holds), every reference must be accounted for
when the call returns (none leaked by the table, none missing), and a
MemoryError in the middle of a build must leave nothing behind."""

import random
import sys
import threading

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

IS_ISOJSON = _util.MODULE_NAME == "isojson"

# The table's size and hash (pyshim/loads/loads_ints.h), to pick colliding values.
SLOT_BITS = 8
INTS_BEFORE_CACHE = 16


def slot(x):
    return ((x % 2**64) * 0x9E3779B97F4A7C15 % 2**64) >> (64 - SLOT_BITS)


def colliding(start, count):
    """count ints beyond the small-int range that share start's slot."""
    want, out, x = slot(start), [], start
    while len(out) < count:
        if slot(x) == want:
            out.append(x)
        x += 1
    return out


def same(got, want):
    assert _util.same_value(got, want) is None, _util.same_value(got, want)


def int_doc(rng, n, pool):
    """A JSON array of n members: ints from pool, now and then in a dict
    (with a repeated key, whose first value is dropped) or a nested list."""
    parts = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            a, b = rng.choice(pool), rng.choice(pool)
            parts.append(f'{{"k":{a},"v":{b},"k":{b}}}')
        elif r < 0.15:
            parts.append("[" + ",".join(str(rng.choice(pool)) for _ in range(rng.randrange(4))) + "]")
        else:
            parts.append(str(rng.choice(pool)))
    return "[" + ",".join(parts) + "]"


POOLS = {
    "ids": [205705993 + i for i in range(40)],
    "few": [70000, -70000, 1 << 40],
    "edges": [x for x in _util.INT_EDGES],                      # small ints, int64 and uint64 edges
    "colliding": colliding(1000, 12) + colliding(-1000, 6),
    "many": list(range(300, 300 + 5000, 7)),                    # more values than slots
    "mixed": [0, 1, -5, 256, 257, -6, 1000, 1000, 123456789],
}


@pytest.mark.parametrize("pool", sorted(POOLS))
@pytest.mark.parametrize("n", [1, 15, 16, 17, 40, 2000])
def test_values_equal_orjson(pool, n):
    rng = random.Random(f"{pool}-{n}")
    for _ in range(5):
        doc = int_doc(rng, n, POOLS[pool])
        same(isojson.loads(doc), orjson.loads(doc))


def test_values_in_one_slot_alternate():
    """Values that evict each other from one slot, in every order."""
    a, b, c = colliding(123457, 3)
    seq = [a, b, a, a, c, b, c, a] * 50
    doc = "[" + ",".join(map(str, [7000 + i for i in range(20)] + seq)) + "]"
    same(isojson.loads(doc), orjson.loads(doc))


def _references_of(ints, start=0):
    """The references to the distinct int objects in ints[start:], and the
    number of those slots: equal when nothing but the slots holds them."""
    objs = {id(x): x for x in ints[start:]}   # the slice is gone after this line
    # getrefcount sees its argument and objs' value besides the slots.
    return sum(sys.getrefcount(x) - 2 for x in objs.values()), len(ints) - start


@pytest.mark.parametrize("pool", ["ids", "few", "colliding", "many"])
def test_no_reference_left_behind(pool):
    """Each distinct int is held exactly by the places it appears in: the
    table's own references are all dropped when the call returns."""
    rng = random.Random(pool)
    values = [rng.choice(POOLS[pool]) for _ in range(3000)]
    # Not small ints: CPython's are immortal (their count is a constant).
    values = [v for v in values if not -5 <= v <= 256]
    got = isojson.loads("[" + ",".join(map(str, values)) + "]")
    assert got == values
    refs, slots = _references_of(got)
    assert refs == slots


def test_value_dropped_by_a_repeated_key_stays_valid():
    """A repeated key drops its first value; when that int is also in the
    table, the table's reference keeps it alive for its later uses."""
    dropped = 918273645
    doc = ("[" + ",".join(str(5000 + i) for i in range(INTS_BEFORE_CACHE + 4))
           + f',{{"k":{dropped},"k":1}}' + f",{dropped}" * 5 + "]")
    got = isojson.loads(doc)
    same(got, orjson.loads(doc))
    assert got[-5:] == [dropped] * 5
    refs, slots = _references_of(got, len(got) - 5)
    assert refs == slots


@pytest.mark.skipif(not IS_ISOJSON, reason="object sharing is isojson's (orjson makes one int per value)")
def test_repeated_ints_share_one_object():
    got = isojson.loads("[" + ",".join(["123456"] * 100) + "]")
    assert len({id(x) for x in got}) <= INTS_BEFORE_CACHE + 1
    assert got[-1] is got[-2]


def test_distinct_values_then_repeats():
    """Mostly distinct values switch the table off in the middle of a call:
    the ints it held stay right, and none of its references is left."""
    values = [10**6 + 13 * i for i in range(300)] + [424242] * 50 + [10**6 + 13 * i for i in range(40)]
    doc = "[" + ",".join(map(str, values)) + "]"
    got = isojson.loads(doc)
    same(got, orjson.loads(doc))
    refs, slots = _references_of(got)
    assert refs == slots


@pytest.mark.skipif(not IS_ISOJSON, reason="object sharing is isojson's")
def test_the_table_switches_off_for_distinct_values():
    """After INTS_BEFORE_CACHE ints and 64 lookups without a hit, later
    repeats are separate objects again (the table is off)."""
    values = [10**6 + 13 * i for i in range(INTS_BEFORE_CACHE + 64)] + [424242] * 20
    got = isojson.loads("[" + ",".join(map(str, values)) + "]")
    assert got == values
    assert len({id(x) for x in got[-20:]}) == 20


@pytest.mark.skipif(not IS_ISOJSON, reason="object sharing is isojson's")
def test_a_small_document_makes_its_own_ints():
    """Below the threshold the table is off: no cost for small documents."""
    got = isojson.loads("[" + ",".join(["123456"] * (INTS_BEFORE_CACHE - 1)) + "]")
    assert len({id(x) for x in got}) == INTS_BEFORE_CACHE - 1


def test_threads_each_with_their_own_values():
    """The table lives on each call's stack: concurrent calls on different
    values never see each other's ints."""
    errors = []

    def work(t):
        rng = random.Random(t)
        pool = [10**6 * (t + 1) + i for i in range(30)]
        try:
            for _ in range(200):
                doc = int_doc(rng, 300, pool)
                got = isojson.loads(doc)
                if _util.same_value(got, orjson.loads(doc)) is not None:
                    errors.append(_util.same_value(got, orjson.loads(doc)))
                    return
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_allocation_failures_with_the_table_on():
    """MemoryError from any allocation while the table holds ints, in a
    child process: no crash, the table's references released with the
    half-built document, and the next call right."""
    out = _util.run_python("""
        import gc, sys
        import _util
        from _util import isojson
        import orjson
        values = [900000 + i % 23 for i in range(200)]
        doc = "[" + ",".join(map(str, values)) + ',{"a":[950001,950002],"a":950003}]'
        want = orjson.loads(doc)
        isojson.loads(doc)  # the engine and the dict check first
        def check(got):
            assert _util.same_value(got, want) is None
        failed = _util.count_out_of_memory(range(1, 120), 2, check, isojson.loads, doc)
        gc.collect()
        got = isojson.loads(doc)
        assert _util.same_value(got, want) is None
        # Every int object of the last call is held by its places alone.
        got.pop()
        objs = {id(x): x for x in got}
        assert sum(sys.getrefcount(x) - 2 for x in objs.values()) == len(got)
        print(failed)
    """, 300)
    assert int(out.split()[-1]) > 0, out


@pytest.mark.skipif(not IS_ISOJSON, reason="which int objects loads returns is isojson's")
def test_small_ints_are_cpythons_own():
    """-5..256 come from the interpreter's table of CPython's small ints
    (isojson_state.small_ints): the very objects int() gives, in lists,
    dicts and at the top; one past each end is a new int of the right value.
    In a sub-interpreter too (its own module state)."""
    code = """
import isojson
for v in range(-8, 260):
    for text in (str(v), "[%d]" % v, '{"k": %d}' % v, "[%d, %d]" % (v, v)):
        got = isojson.loads(text.encode())
        x = got if isinstance(got, int) else (got["k"] if isinstance(got, dict) else got[0])
        assert type(x) is int and x == v, (text, x)
        assert (x is int(str(v))) == (-5 <= v <= 256), (text, x)
"""
    exec(code, {})
    assert _util.exec_in_interpreters(code, 2) == []

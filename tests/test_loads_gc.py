"""loads builds its objects with the cyclic GC switched off (pyshim/loads/loads.c,
build_without_gc_scheduling): a loads whose result is dropped schedules no
collection, a kept result still leads to one, and the GC's own state is always
put back, also on errors and as seen from other threads."""
import gc
import json
import sys
import threading

import pytest

import _util
import isojson

# On the free-threaded build loads leaves the collector alone (another thread's gc.disable() could be
# undone by the enable; docs/free-threading.md), and that collector schedules collections by the
# growth of the live heap: what this file checks is the GIL build's.
pytestmark = pytest.mark.skipif(_util.FREE_THREADED, reason="loads pauses the collector in the GIL build "
                                "only; 3.14t's collector schedules by heap growth")

# About 40,000 containers: far past the GC's threshold (2000 in 3.14).
BIG = json.dumps([{"a": [i, str(i)], "b": {"c": i}} for i in range(10000)]).encode()


class Collections:
    """Counts the collections that start while it is active."""

    def __enter__(self):
        self.n = 0
        gc.collect()
        gc.callbacks.append(self._cb)
        return self

    def _cb(self, phase, info):
        if phase == "start":
            self.n += 1

    def __exit__(self, *exc):
        gc.callbacks.remove(self._cb)


def test_dropped_results_schedule_no_collection():
    assert gc.isenabled()
    with Collections() as c:
        for _ in range(20):
            isojson.loads(BIG)
    assert c.n == 0


def test_dropped_tiny_results_schedule_no_collection():
    # A document of at most 64 bytes is built without the pause (its tape is made in C, loads.c):
    # its few containers are counted when made and uncounted when freed, as any Python code's.
    with Collections() as c:
        for _ in range(20000):
            isojson.loads(b'{"a":[1,{"b":[]}],"c":{}}')
    assert c.n == 0


def test_kept_results_still_lead_to_a_collection():
    kept = []
    with Collections() as c:
        for _ in range(5):
            kept.append(isojson.loads(BIG))
        # The first container allocated after the builds finds the count
        # past the threshold.
        more = [[] for _ in range(10)]
    assert c.n >= 1
    assert len(kept) == 5 and len(more) == 10


def test_a_garbage_cycle_made_before_is_still_collected():
    class Node:
        pass

    collected = []
    a, b = Node(), Node()
    a.other, b.other = b, a
    import weakref
    weakref.finalize(a, collected.append, "a")
    del a, b
    kept = [isojson.loads(BIG) for _ in range(3)]
    for _ in range(3):
        [[] for _ in range(3000)]   # allocations after the loads
    assert collected == ["a"]
    assert len(kept) == 3


def test_gc_state_is_restored():
    assert gc.isenabled()
    isojson.loads(BIG)
    assert gc.isenabled()
    gc.disable()
    try:
        isojson.loads(BIG)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_gc_state_is_restored_when_the_build_fails():
    # An integer longer than int_max_str_digits fails inside the build.
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        doc = b'[{"a": [1, 2]}, ' + b"9" * 700 + b"]"
        with pytest.raises(ValueError):
            isojson.loads(doc)
        assert gc.isenabled()
        gc.disable()
        with pytest.raises(ValueError):
            isojson.loads(doc)
        assert not gc.isenabled()
    finally:
        gc.enable()
        sys.set_int_max_str_digits(old)


def test_gc_state_is_restored_on_a_syntax_error():
    with pytest.raises(isojson.JSONDecodeError):
        isojson.loads(BIG[:-1])
    assert gc.isenabled()


def test_other_threads_never_see_the_gc_off():
    # Large inputs are parsed without the GIL; the GC is switched off only
    # while the objects are built, with the GIL held, so another thread of
    # the interpreter never observes it.
    stop = threading.Event()
    seen_off = []

    def watch():
        while not stop.is_set():
            if not gc.isenabled():
                seen_off.append(1)

    t = threading.Thread(target=watch)
    t.start()
    try:
        for _ in range(30):
            isojson.loads(BIG)
    finally:
        stop.set()
        t.join()
    assert seen_off == []

"""How dumps puts its text into the bytes object it returns
(pyshim/dumps/dumps_write.c): from a few KiB on, the engine writes straight into
that object, created at a size estimated from the thread's previous call and
grown through a callback (which takes the GIL back when the write runs
without it) or cut to size at the end. Each test primes the estimate to be
far too small or far too big first, so that documents whose text far exceeds
any estimate (long strings that need escaping, huge ints, deep indentation)
take the growth path and compact ones the shrink path, with the GIL held and
without it, in threads, after fork, in own-GIL sub-interpreters and (one test
runs this file again) under PYTHONMALLOC=debug. Every result is compared
with orjson's."""

import hashlib
import os
import sys
import threading
import tracemalloc

import pytest

import _output_docs
import _util
from _util import isojson, orjson

from _output_docs import shrink_docs

# False only when the suite is pointed at orjson to check the tests themselves
# (ISOJSON_TEST_MODULE=orjson); against isojson nothing here is skipped.
IS_ISOJSON = _util.MODULE_NAME == "isojson"


def growth_docs():
    return _output_docs.growth_docs(big_ints=_util.EXACT_BIG_INTS)


def prime(high):
    _output_docs.prime(isojson, high)


def expected(docs):
    out = {}
    for name, (doc, option) in docs.items():
        kind, value = _util.expected_dumps(doc, option)[:2]
        assert kind == "ok", (name, value)
        out[name] = value
    return out


@pytest.fixture(scope="module")
def growth():
    docs = growth_docs()
    return docs, expected(docs)


@pytest.fixture(scope="module")
def shrink():
    docs = shrink_docs()
    return docs, expected(docs)


@pytest.mark.parametrize("high", [False, True], ids=["estimate-low", "estimate-high"])
def test_text_far_beyond_the_estimate(growth, high):
    docs, want = growth
    for name, (doc, option) in docs.items():
        prime(high)
        assert isojson.dumps(doc, option=option) == want[name], name
        # Again, with the estimate learnt from this very document.
        assert isojson.dumps(doc, option=option) == want[name], name


@pytest.mark.parametrize("high", [False, True], ids=["estimate-low", "estimate-high"])
def test_text_far_below_the_estimate(shrink, high):
    docs, want = shrink
    for name, (doc, option) in docs.items():
        prime(high)
        got = isojson.dumps(doc, option=option)
        assert got == want[name], name
        assert len(got) == len(want[name]) and got[-1:] == want[name][-1:]
        assert hash(got) == hash(want[name])


@pytest.mark.skipif(not IS_ISOJSON, reason="only isojson shrinks its output to the text: orjson run here keeps 66 MB traced for 600 KB of text")
def test_overestimated_bytes_object_gives_its_slack_back(shrink):
    """The bytes object returned holds no more memory than its text (plus
    allocator rounding): the final resize really shrinks it."""
    docs, want = shrink
    doc, option = docs["zeros"]
    prime(True)
    tracemalloc.start()
    try:
        got = isojson.dumps(doc, option=option)
        traced, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == want["zeros"]
    # 600 KB of text written into a bytes object first sized at ~5 MB.
    assert traced < len(got) + 64 * 1024, (traced, len(got))


def test_short_documents_after_long_ones_and_back(growth, shrink):
    """The estimate swings between extremes; short text (the copy path) in
    between."""
    cases = [(growth_docs, growth), (shrink_docs, shrink)]
    small = [{"a": [1, 2.5, "é", None]}, [], "x", 0, {"k": "\n" * 100}]
    for _ in range(3):
        for _, (docs, want) in cases:
            for name, (doc, option) in docs.items():
                assert isojson.dumps(doc, option=option) == want[name], name
                for s in small:
                    assert isojson.dumps(s) == orjson.dumps(s)


@pytest.mark.slow
def test_threads_writing_big_documents_at_once(growth, shrink):
    """Eight threads, each with its own estimate, write documents that grow
    and shrink, with and without the GIL, at the same time."""
    items = []
    for docs, want in (growth, shrink):
        items += [(doc, option, want[name]) for name, (doc, option) in docs.items()]
    errors = []
    barrier = threading.Barrier(8)

    def run(i):
        try:
            barrier.wait()
            for round_ in range(2):
                prime((i + round_) % 2 == 0)
                for k in range(len(items)):
                    doc, option, want = items[(i + k) % len(items)]
                    got = isojson.dumps(doc, option=option)
                    if got != want:
                        errors.append(f"thread {i} item {(i + k) % len(items)}: {_util.first_difference(got, want)}")
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=_util.scaled(600))
    assert not any(t.is_alive() for t in threads), "a thread did not finish within 600 s"
    assert not errors, "\n".join(errors[:10])


def digests(docs):
    return {name: hashlib.sha256(v).hexdigest() for name, v in expected(docs).items()}


@pytest.mark.slow
def test_fork_while_other_threads_write_without_the_gil():
    """Children forked while another thread is inside an unlocked write (or
    growing its bytes object) load their own engine and write every growth
    and shrink document right."""
    want = {**digests(growth_docs()), **digests(shrink_docs())}
    out = _util.run_python(f"""
        import hashlib, os, threading, warnings
        warnings.simplefilter("ignore", DeprecationWarning)
        import _output_docs
        from _output_docs import shrink_docs
        import _util
        from _util import isojson
        growth_docs = lambda: _output_docs.growth_docs(big_ints=_util.EXACT_BIG_INTS)
        prime = lambda high: _output_docs.prime(isojson, high)
        want = {want!r}
        docs = {{**growth_docs(), **shrink_docs()}}
        big = docs["unlocked"][0]
        stop = False

        def churn():
            while not stop:
                prime(False)
                isojson.dumps(big)

        def check():
            for high in (False, True):
                for name, (doc, option) in docs.items():
                    prime(high)
                    got = hashlib.sha256(isojson.dumps(doc, option=option)).hexdigest()
                    if got != want[name]:
                        return name
            return None

        threads = [threading.Thread(target=churn) for _ in range(2)]
        for t in threads:
            t.start()
        try:
            for _ in range(3):
                pid = os.fork()
                if pid == 0:
                    bad = check()
                    if bad:
                        print("child: wrong", bad, flush=True)
                    os._exit(1 if bad else 0)
                assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
        finally:
            stop = True
            for t in threads:
                t.join()
        assert check() is None
        print("ok")
    """, 600)
    assert out.strip().endswith("ok"), out


@pytest.mark.slow
@pytest.mark.skipif(not IS_ISOJSON, reason="orjson cannot be imported in sub-interpreters (ImportError)")
def test_growth_in_own_gil_subinterpreters():
    """Growth that takes back an own-GIL interpreter's GIL, in several such
    interpreters at once (each resizes with its own object allocator)."""
    from concurrent import interpreters

    want = digests(growth_docs())
    code = f"""if True:
        import hashlib, sys
        sys.path.insert(0, {_util.TESTS_DIR!r})
        from _output_docs import growth_docs, prime
        import {_util.MODULE_NAME} as m
        for high in (False, True):
            for name, (doc, option) in growth_docs().items():
                prime(m, high)
                got = hashlib.sha256(m.dumps(doc, option=option)).hexdigest()
                assert got == {want!r}[name], name
    """
    interps = [interpreters.create() for _ in range(3)]
    errors = []

    def run(interp):
        try:
            interp.exec(code)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(f"{type(e).__name__}: {e}")

    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in interps]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=_util.scaled(600))
    finally:
        for i in interps:
            i.close()
    assert not errors, "\n".join(errors)


@pytest.mark.slow
@pytest.mark.skipif(not IS_ISOJSON, reason="orjson segfaults when its output cannot grow under RLIMIT_AS (measured)")
@pytest.mark.skipif(sys.platform != "linux", reason="needs Linux: /proc/self/statm and an RLIMIT_AS that caps mmap")
def test_growth_that_cannot_get_memory_raises_memory_error():
    """A bytes object that cannot grow (address space capped) fails with
    MemoryError, with the GIL held or released, and the next call works."""
    out = _util.run_python("""
        import resource
        from _util import isojson, orjson
        small = {"a": [1, 2, "x"]}
        assert isojson.dumps(small) == orjson.dumps(small)
        isojson.dumps(["x" * 1000] * 50)  # the estimate at its highest
        text = "\\n" * (64 << 20)  # 64 MiB of text that becomes 128 MiB
        docs = [[text], {"nulls": [None] * 70000, "text": text}]
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (vm + (96 << 20), resource.RLIM_INFINITY))
        try:  # the cap must hold for the test to mean anything: qemu-user accepts RLIMIT_AS and ignores it
            bytearray(256 << 20)
        except MemoryError:
            pass
        else:
            print("uncapped")
            raise SystemExit(0)
        for doc in docs:
            try:
                isojson.dumps(doc)
            except MemoryError:
                print("MemoryError")
            else:
                print("no error")
        assert isojson.dumps(small) == orjson.dumps(small)
        print("ok")
    """, 300)
    if out.split() == ["uncapped"]:
        pytest.skip("RLIMIT_AS does not cap the address space here (qemu-user emulation does not apply it)")
    assert out.split() == ["MemoryError", "MemoryError", "ok"], out


@pytest.mark.slow
@pytest.mark.debug_malloc
def test_this_file_under_pythonmalloc_debug():
    """Everything above again with the debug allocators, which check every
    object allocation for the GIL and for writes past its end."""
    _util.pytest_in_child([os.path.abspath(__file__)], 1200, PYTHONMALLOC="debug")

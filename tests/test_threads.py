"""Many threads of one interpreter using loads and dumps at once, on large
and small documents, each result checked; deep documents on threads with
small stacks."""

import os
import sys
import threading

import pytest

import _util
from _util import isojson, orjson

SEED = 31_337


def _corpus(name):
    with open(os.path.join(_util.CORPUS_DIR, name), "rb") as f:
        return f.read()


def _work_items():
    """(input bytes, orjson's bytes of the loaded value, object, option,
    expected dumps bytes). A loaded value is checked through orjson.dumps:
    exact (ints and floats told apart, key order kept) and fast in C."""
    gen = _util.Gen(SEED)
    items = []
    for name in ("twitter.json", "citm_catalog.json", "canada.json", "github.json"):
        data = _corpus(name)
        obj = orjson.loads(data)
        items.append((data, orjson.dumps(obj), obj, orjson.OPT_SORT_KEYS, orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)))
    for i in range(40):
        obj = gen.document("unsupported", depth=4)
        option = orjson.OPT_INDENT_2 if i % 2 else 0
        out = orjson.dumps(obj, default=_util.default, option=option)
        items.append((out, orjson.dumps(orjson.loads(out)), obj, option, out))
    return items


def _run_threads(n, target):
    errors = []
    barrier = threading.Barrier(n)

    def run(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {i}: {type(e).__name__}: {e}"[:2000])

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=_util.scaled(300))
    assert not any(t.is_alive() for t in threads), "a thread did not finish within 300 s"
    assert not errors, "\n".join(errors[:10])


@pytest.mark.parametrize("n_threads", [4, 16])
def test_concurrent_loads_and_dumps(n_threads):
    items = _work_items()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # switch threads often
    try:
        def target(i):
            for round_ in range(2):
                for j in range(len(items)):
                    data, want_value, obj, option, want_bytes = items[(i * 7 + j + round_) % len(items)]
                    src = data if j % 3 else data.decode()
                    got = orjson.dumps(isojson.loads(src))
                    if got != want_value:
                        raise AssertionError(f"loads item {j}: {_util.first_difference(got, want_value)}")
                    out = isojson.dumps(obj, default=_util.default, option=option)
                    if out != want_bytes:
                        raise AssertionError(f"dumps item {j}: {_util.first_difference(out, want_bytes)}")

        _run_threads(n_threads, target)
    finally:
        sys.setswitchinterval(old)


def test_default_callback_on_many_threads():
    """default= re-enters Python on each thread; its exceptions stay on their thread."""
    def target(i):
        for k in range(2000):
            obj = [_util.MyTuple((i, k)), {i, k}]
            assert isojson.dumps(obj, default=_util.default) == orjson.dumps(obj, default=_util.default)
            try:
                isojson.dumps([object()], default=lambda o: 1 / 0)
            except TypeError as e:
                assert type(e.__cause__) is ZeroDivisionError
            else:
                raise AssertionError("dumps did not raise")

    _run_threads(8, target)


def _on_small_stack(fn, stack=256 * 1024):
    result = []
    old = threading.stack_size(_util.stack_scaled(stack))
    try:
        t = threading.Thread(target=lambda: result.append(_util.outcome(fn)), daemon=True)
        t.start()
        t.join(timeout=_util.scaled(120))
    finally:
        threading.stack_size(old)
    assert not t.is_alive()
    assert result, "the thread died without a result"
    return result[0]


def test_depth_1024_loads_on_small_stack():
    for open_, close in ((b"[", b"]"), (b'{"a":', b"}")):
        leaf = b"1" if open_ != b"[" else b""
        data = open_ * 1024 + leaf + close * 1024
        got = _on_small_stack(lambda: isojson.loads(data))
        assert got[0] == "ok", got
        v, depth = got[1], 0
        while isinstance(v, (list, dict)) and v:
            v = v[0] if isinstance(v, list) else v["a"]
            depth += 1
        assert depth == (1023 if leaf == b"" else 1024)


def test_depth_1025_loads_rejected_on_small_stack():
    for data in (b"[" * 1025 + b"]" * 1025, b'{"a":' * 1025 + b"1" + b"}" * 1025, "[" * 1025 + "]" * 1025,
                 b"[" * 100_000):
        got = _on_small_stack(lambda: isojson.loads(data))
        assert got == _util.outcome(orjson.loads, data)


def test_dumps_deep_on_small_stack():
    for depth in (254, 255):
        obj = _util.nested(depth, 1)
        got = _on_small_stack(lambda: isojson.dumps(obj, option=orjson.OPT_INDENT_2))
        assert got == _util.outcome(orjson.dumps, obj, option=orjson.OPT_INDENT_2)


FIRST_USE = """
import importlib, os, sys, threading
from concurrent import interpreters
name = os.environ["ISOJSON_TEST_MODULE"]
mod = importlib.import_module(name)  # imported, never used: the engine loads at first use
n_threads, n_interps = 8, int(sys.argv[1])
interps = [interpreters.create() for _ in range(n_interps)]
for interp in interps:
    interp.exec("import " + name)
barrier = threading.Barrier(n_threads + n_interps)
errors = []
CODE = "import %s as m; assert m.loads(m.dumps({'a': [1, 2.5, 'é']})) == {'a': [1, 2.5, 'é']}" % name


def in_thread(i):
    try:
        barrier.wait(60)
        for _ in range(20):
            assert mod.loads(mod.dumps({"a": [i, 2.5, "é"]})) == {"a": [i, 2.5, "é"]}
    except BaseException as e:
        errors.append(f"thread {i}: {e!r}")


def in_interp(i):
    try:
        barrier.wait(60)
        interps[i].exec(CODE)
    except BaseException as e:
        errors.append(f"interpreter {i}: {e!r}")


threads = [threading.Thread(target=in_thread, args=(i,)) for i in range(n_threads)]
threads += [threading.Thread(target=in_interp, args=(i,)) for i in range(n_interps)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for interp in interps:
    interp.close()
assert not errors, errors
print("ok")
"""


def test_first_use_from_many_threads_at_once():
    """The engine is loaded lazily at first use: 8 threads (and, where the
    module supports them, 3 sub-interpreters) make that first call at the same
    moment, in 5 fresh processes."""
    n_interps = 0 if _util.MODULE_NAME == "orjson" else 3  # orjson cannot load in sub-interpreters
    for _ in range(5):
        assert _util.run_python(FIRST_USE, 120, n_interps).split() == ["ok"]

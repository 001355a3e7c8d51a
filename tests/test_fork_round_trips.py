"""fork() after the module is loaded and used: the Go runtime does not
survive fork, so the extension must give a child a working engine. Children
from os.fork(), a grandchild and a multiprocessing "fork" pool each do
thousands of round trips of a ~100 KB document, under deadlines."""

import pytest

import _util

# The scenario runs in a child Python of its own: a hang or crash there is
# reported with its output, and pytest's own process is never forked.
SCENARIO = """
import multiprocessing, os, signal, sys, time, traceback
import orjson
import importlib
mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
ROUND_TRIPS = int(sys.argv[1])
DEADLINE = float(sys.argv[2])

with open(os.path.join(sys.argv[3], "twitter.json"), "rb") as f:
    statuses = orjson.loads(f.read())["statuses"]
DOC = {"statuses": statuses[:18], "floats": [i / 7 for i in range(500)], "text": "é😀\\n" * 200}
EXPECTED = orjson.dumps(DOC, option=orjson.OPT_SORT_KEYS)
assert 80_000 < len(EXPECTED) < 140_000, len(EXPECTED)


def round_trips(n, who):
    for i in range(n):
        out = mod.dumps(DOC, option=orjson.OPT_SORT_KEYS)
        if out != EXPECTED:
            raise AssertionError(f"{who}: dumps round {i} differs")
        back = mod.loads(out if i % 2 else out.decode())
        if back != DOC:
            raise AssertionError(f"{who}: loads round {i} differs")
    return n


def forked(fn, who):
    # Run fn in an os.fork() child; return its pid. The child exits 0 on success.
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            fn()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os._exit(code)
    return pid


def wait(pid, who, deadline):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if os.WIFSIGNALED(status):
                raise AssertionError(f"{who} was killed by signal {os.WTERMSIG(status)}")
            if os.WEXITSTATUS(status) != 0:
                raise AssertionError(f"{who} exited with {os.WEXITSTATUS(status)} (its traceback is above)")
            return
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"{who} did not finish within {deadline} s: hung (killed)")


def child_with_grandchild():
    round_trips(ROUND_TRIPS // 2, "child")
    pid = forked(lambda: round_trips(ROUND_TRIPS, "grandchild"), "grandchild")
    round_trips(ROUND_TRIPS // 2, "child")
    wait(pid, "grandchild", DEADLINE)


# The parent loads the engine and uses it before forking.
round_trips(20, "parent")
pids = [forked(child_with_grandchild, "child 0"), forked(lambda: round_trips(ROUND_TRIPS, "child 1"), "child 1")]
round_trips(20, "parent while children run")
for i, pid in enumerate(pids):
    wait(pid, f"child {i}", DEADLINE)
print("os.fork ok", flush=True)

ctx = multiprocessing.get_context("fork")
with ctx.Pool(2) as pool:
    res = pool.starmap_async(round_trips, [(ROUND_TRIPS // 2, f"pool task {i}") for i in range(4)])
    try:
        counts = res.get(timeout=DEADLINE)
    except multiprocessing.TimeoutError:
        raise AssertionError(f"the fork pool did not finish within {DEADLINE} s: hung") from None
assert counts == [ROUND_TRIPS // 2] * 4, counts
print("pool ok", flush=True)

round_trips(20, "parent after children")
print("parent ok", flush=True)
"""


# Its child compares with orjson, which 3.14t cannot load.
@pytest.mark.skipif(_util.FREE_THREADED, reason=_util.NO_ORJSON)
def test_fork_children_grandchild_and_pool():
    out = _util.run_python(SCENARIO, 600, 2000, _util.scaled(240), _util.CORPUS_DIR)
    assert out.split() == ["os.fork", "ok", "pool", "ok", "parent", "ok"], out


def test_fork_before_first_use():
    """A child forked before the parent ever called the module works too, and
    the parent still does after it."""
    _util.run_python("""
        import importlib, os
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        pid = os.fork()
        if pid == 0:
            ok = mod.loads(mod.dumps({"a": [1, 2.5]})) == {"a": [1, 2.5]}
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
        assert mod.loads(b"[1]") == [1]
    """, 120)


def test_fork_while_other_threads_are_inside_the_module():
    """Threads of the parent are in loads/dumps (inside the engine) at the
    moment of fork: whatever lock or runtime state they hold, the child
    must get a working module.

    Each busy thread has its own document. On 3.14t a shared one hangs the
    child whatever the JSON library (stdlib json too, measured 2026-12-03):
    the threads contend for its per-object mutex (critical sections in dumps
    and in dict ==), CPython's PyMutex hands a contended lock to a waiting
    thread that is detached, fork's stop-the-world stops that thread before
    it runs, and the child inherits the object locked by a thread it does
    not have (docs/free-threading.md, "fork")."""
    out = _util.run_python("""
        import importlib, os, signal, sys, threading, time
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])

        def make_doc():
            return {"k%d" % i: [i, i / 3, "é" * (i % 9), None] for i in range(1000)}

        doc = make_doc()
        data = mod.dumps(doc)
        stop = threading.Event()
        errors = []

        def busy():
            mine = make_doc()
            try:
                while not stop.is_set():
                    assert mod.loads(mod.dumps(mine)) == mine
            except BaseException as e:
                errors.append(repr(e))

        threads = [threading.Thread(target=busy, daemon=True) for _ in range(3)]
        for t in threads:
            t.start()
        for n in range(8):
            time.sleep(0.01 * (n % 4))
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    for _ in range(50):
                        if mod.loads(mod.dumps(doc)) != doc or mod.loads(data) != doc:
                            break
                    else:
                        code = 0
                finally:
                    os._exit(code)
            end = time.monotonic() + 120 * float(os.environ.get("ISOJSON_TEST_TIME_SCALE") or 1)
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child {n}: status {status}"
                    break
                if time.monotonic() > end:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    raise AssertionError(f"child {n}, forked while threads were busy, hung (killed)")
                time.sleep(0.01)
        stop.set()
        for t in threads:
            t.join(60)
        assert not errors, errors
        print("ok", flush=True)
    """, 600)
    assert out.split() == ["ok"], out

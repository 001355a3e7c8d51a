"""The Go runtime's monitor thread stays quiet while one thread calls
isojson in a loop (pyshim/engine_pace.c).

Calls from C into Go never pass through Go's scheduler, so without a yield
now and then sysmon "preempts" the calling thread every 10 ms and then wakes
every 20 µs for a while: measured here, about 1,500 wake-ups a second of
sysmon's thread alone, against about 600 for all of the engine's threads
together with the yields. Wake-ups are counted (voluntary context switches
of every thread but the caller's, from /proc), not timed, so the figure does
not depend on the machine's speed or load."""

import os
import sys

import pytest

import _util

pytestmark = [
    pytest.mark.skipif(_util.MODULE_NAME != "isojson", reason="the Go engine's threads are isojson's"),
    pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc"),
]

# Wake-ups per second of all the engine's threads together, at most: about
# 600 with the yields, 1,600-1,800 without them (sysmon's alone 1,400-1,650).
MAX_WAKEUPS_PER_SECOND = 1000


@pytest.mark.parametrize("call", ["loads", "dumps"])
def test_go_threads_sleep_while_one_thread_calls_in_a_loop(call):
    out = _util.run_python("""
        import os, sys, threading, time
        import _util
        from _util import isojson

        def wakeups():
            out = {}
            for t in os.listdir("/proc/self/task"):
                try:
                    with open(f"/proc/self/task/{t}/status") as f:
                        for line in f:
                            if line.startswith("voluntary_ctxt_switches"):
                                out[t] = int(line.split()[1])
                except FileNotFoundError:
                    pass
            return out

        with open(os.path.join(_util.CORPUS_DIR, "github.json"), "rb") as f:
            data = f.read()
        obj = isojson.loads(data)
        fn, arg = (isojson.loads, data) if sys.argv[1] == "loads" else (isojson.dumps, obj)
        fn(arg)  # the engine and its threads first
        me = str(threading.get_native_id())
        before, start = wakeups(), time.monotonic()
        calls = 0
        while time.monotonic() - start < 1.5:
            fn(arg)
            calls += 1
        after, seconds = wakeups(), time.monotonic() - start
        others = sum(n - before.get(t, 0) for t, n in after.items() if t != me)
        print(calls, round(others / seconds))
    """, 120, call)
    calls, rate = map(int, out.split()[-2:])
    assert calls > 100, out
    assert rate <= MAX_WAKEUPS_PER_SECOND, f"{rate} wake-ups a second of the Go engine's threads"

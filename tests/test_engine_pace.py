"""The Go runtime's monitor thread stays quiet while one thread calls
isojson in a loop (pyshim/engine_pace.c), and when calls resume after a
pause (the timer slack of the runtime's threads: pyshim/engine_loader.c).

Calls from C into Go never pass through Go's scheduler, so without a yield
now and then sysmon "preempts" the calling thread every 10 ms and then wakes
every 20 µs for a while: measured here, about 1,500 wake-ups a second of
sysmon's thread alone, against about 600 for all of the engine's threads
together with the yields. Wake-ups are counted (voluntary context switches
of every thread but the caller's, from /proc), not timed, so the figure does
not depend on the machine's speed or load."""

import os
import sys
import sysconfig
import textwrap

import pytest

import _util

pytestmark = [
    pytest.mark.skipif(_util.MODULE_NAME != "isojson", reason="the Go engine's threads are isojson's"),
    pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc"),
]

# Wake-ups per second of all the engine's threads together, at most: about
# 600 with the yields, 1,600-1,800 without them (sysmon's alone 1,400-1,650).
MAX_WAKEUPS_PER_SECOND = 1000

# Wake-ups of the engine's threads per 25 ms burst of calls after a 30 ms
# pause, at most: 20-25 with the timer slack, 70-80 without it (sysmon
# polling every 20 us after each resumption).
MAX_WAKEUPS_PER_BURST = 45

# The timer slack engine_loader.c gives the Go runtime's threads.
GO_THREADS_TIMER_SLACK_NS = 5_000_000

# A child's prelude: `wakeups()` counts each thread's voluntary context
# switches; `fn(arg)` is loads(github.json) or dumps of its objects, per
# sys.argv[1]; `me` is the calling thread.
PRELUDE = """
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

def others(before, after):
    return sum(n - before.get(t, 0) for t, n in after.items() if t != me)

with open(os.path.join(_util.CORPUS_DIR, "github.json"), "rb") as f:
    data = f.read()
obj = isojson.loads(data)
fn, arg = (isojson.loads, data) if sys.argv[1] == "loads" else (isojson.dumps, obj)
fn(arg)  # the engine and its threads first
me = str(threading.get_native_id())
"""


@pytest.mark.parametrize("call", ["loads", "dumps"])
def test_go_threads_sleep_while_one_thread_calls_in_a_loop(call):
    out = _util.run_python(PRELUDE + textwrap.dedent("""
        before, start = wakeups(), time.monotonic()
        calls = 0
        while time.monotonic() - start < _util.scaled(1.5):  # longer where calls are slower (emulation)
            fn(arg)
            calls += 1
        after, seconds = wakeups(), time.monotonic() - start
        print(calls, round(others(before, after) / seconds))
    """), 120, call)
    calls, rate = map(int, out.split()[-2:])
    assert calls > 100, out
    assert rate <= MAX_WAKEUPS_PER_SECOND, f"{rate} wake-ups a second of the Go engine's threads"


def test_a_thread_alone_yields_and_threads_side_by_side_do_not():
    # A yield from C is a handoff of the P through another Go thread; with as many callers as cores
    # there is no core for it, and each yield parked the caller (engine_pace.c): loads(dumps(citm))
    # in 2 threads of 3.14t blocked 0.44-1.24 times a round trip, 0.04-0.12 without the yields.
    # So on 3.14t a thread yields only while no other thread has checked its pace within its last two
    # periods. With the GIL the others wait for it off the cores, and every thread yields as before.
    out = _util.run_python(PRELUDE + textwrap.dedent("""
        import gc
        gc.disable()   # no stop-the-world pauses of the collector in the figures
        ext = isojson._isojson
        def loop(seconds, results, i, checks=None):
            # checks: stop once this thread's pace has been checked that often (yields + skipped),
            # within seconds at most.
            fn(arg)
            start = time.monotonic()
            while time.monotonic() - start < seconds:
                fn(arg)
                if checks is not None and sum(ext._pace_counts()) >= checks:
                    break
            results[i] = ext._pace_counts()
        # Alone, by count: a pace check comes after 4 ms of engine use, which a wall-clock window
        # does not guarantee on a loaded machine (0.3 s gave 2 checks at load 4 in make test).
        alone = [None]
        loop(_util.scaled(3), alone, 0, checks=12)
        print("alone", *alone[0])
        both = [None, None]
        ts = [threading.Thread(target=loop, args=(_util.scaled(0.6), both, i)) for i in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print("both", both[0][0] + both[1][0], both[0][1] + both[1][1])
    """), 120, "loads")
    counts = {line.split()[0]: tuple(map(int, line.split()[1:])) for line in out.splitlines()
              if line.split()[0] in ("alone", "both")}
    yields, skipped = counts["alone"]
    assert yields >= 10 and skipped == 0, out   # every one of its 12 checks a yield
    yields, skipped = counts["both"]
    if not sysconfig.get_config_var("Py_GIL_DISABLED"):
        assert yields >= 10 and skipped == 0, out
        return
    # Each thread skips the yield whenever the other checked lately; it yields where one ran alone
    # (the start, the end, the other descheduled for two periods: on the loaded 2-core machine, at
    # load 17, 36-53 yields against 36-61 skipped; with the yields kept, none skipped).
    assert skipped >= 10, out


@pytest.mark.parametrize("call", ["loads", "dumps"])
def test_go_threads_stay_quiet_when_calls_resume_after_a_pause(call):
    # Bursts of calls 30 ms apart, as a program that serves requests now
    # and then (or a benchmark taking turns with other libraries) makes.
    out = _util.run_python(PRELUDE + textwrap.dedent("""
        # More bursts where fewer calls fit in one (emulation): the same average, over enough calls.
        bursts, calls, total = round(_util.scaled(16)), 0, 0
        for _ in range(bursts):
            time.sleep(0.03)
            before, start = wakeups(), time.monotonic()
            while time.monotonic() - start < 0.025:
                fn(arg)
                calls += 1
            total += others(before, wakeups())
        print(calls, round(total / bursts))
    """), 120, call)
    calls, per_burst = map(int, out.split()[-2:])
    assert calls > 100, out
    assert per_burst <= MAX_WAKEUPS_PER_BURST, f"{per_burst} wake-ups of the Go engine's threads per burst"


# Both ways the engine loads: in the background from the import (the default), and at the first call
# (ISOJSON_PRELOAD=0).
@pytest.mark.parametrize("preload", ["default", "0"])
def test_go_threads_have_the_timer_slack_and_the_caller_keeps_its_own(preload):
    env = _util.child_env() if preload == "default" else _util.child_env(ISOJSON_PRELOAD=preload)
    out = _util.run_python("""
        import ctypes, os, threading
        PR_SET_TIMERSLACK = 29
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_TIMERSLACK, 123456, 0, 0, 0)
        # The Go runtime's threads are the ones the engine starts: under qemu-user the emulator's own
        # thread (its RCU thread, there from the start, with the default slack) is in the task list too.
        # Listed before the import, which starts the engine's load in the background.
        earlier = set(os.listdir("/proc/self/task"))
        from _util import isojson
        isojson.loads(b"[1]")   # loads the engine (or waits for its load), which starts the Go runtime
        me = threading.get_native_id()
        for t in sorted(os.listdir("/proc/self/task")):
            if t in earlier and int(t) != me:
                continue
            try:
                with open(f"/proc/{t}/timerslack_ns") as f:
                    print("caller" if int(t) == me else "go", f.read().strip())
            except FileNotFoundError:   # a thread that has ended since (the background load's)
                continue
            except PermissionError:   # another thread's needs CAP_SYS_NICE
                print("unreadable", t)
    """, 60, env=env)
    lines = [line.split() for line in out.splitlines() if line.split()[0] in ("caller", "go", "unreadable")]
    if any(kind == "unreadable" for kind, _ in lines):
        pytest.skip("reading another thread's timer slack needs CAP_SYS_NICE")
    assert ["caller", "123456"] in lines, out
    go = [int(ns) for kind, ns in lines if kind == "go"]
    assert len(go) >= 2 and set(go) == {GO_THREADS_TIMER_SLACK_NS}, out

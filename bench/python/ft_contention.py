"""Contention between threads on free-threaded CPython (3.14t), measured in CPU time, not wall time.

    python3.14t ft_contention.py [--docs citm_catalog.json,...] [--ops rt,loads,dumps] [--calls N]
                                 [--rounds R] [--libs isojson,json] [--json OUT]

On 2 cores, 2 threads reach 2x one thread's round trips only if the CPU time a round trip takes in
each thread does not grow when the other thread runs too: whatever the threads contend for (a
reference count both change, a lock, the allocator, the collector, the Go engine's scheduler) shows
as more CPU time per call in each of them. That time (time.thread_time, the calling thread's own)
is what this measures, so the figure means something on a busy machine, where the wall-clock
scaling of `make bench-ft` does not: a thread descheduled by another process's work gets no CPU
time meanwhile. (It is not immune: two threads sharing a core's caches with unrelated processes see
more misses; stdlib json in the same threads, which shares nothing with isojson, is the control.)

Each thread parses its own document from the corpus text (private objects, as a server's requests
have), then, after a common start, runs `calls` calls of the op and reads its own thread_time and
the wall time around them. The 1-thread and 2-thread runs alternate `rounds` times; the report is
the median over rounds of the per-call CPU time (the mean of the threads in a 2-thread run), the
ratio 2 threads / 1 thread, and the wall scaling (2 threads' calls per wall second over one's), with
the load average at the time. Standard library only, so that it runs on 3.14t.
"""

import argparse
import gc
import json
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "testdata", "corpus")
DOCS = ("citm_catalog.json", "twitter.json", "github.json", "canada.json")


def _libraries():
    import isojson

    return {
        "isojson": (isojson.loads, isojson.dumps),
        "json": (json.loads, lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode()),
    }


def _op(lib, op, text):
    loads, dumps = lib
    if op == "rt":
        return lambda doc: loads(dumps(doc)), None
    if op == "loads":
        return loads, text
    if op == "dumps":
        return dumps, None
    raise SystemExit(f"unknown op {op}")


class GCMeter:
    """Collections and the CPU time they take in the thread that runs them (gc.callbacks)."""

    def __init__(self):
        self.count, self.cpu, self._start = 0, 0.0, {}

    def __call__(self, phase, info):
        me = threading.get_ident()
        if phase == "start":
            self._start[me] = time.thread_time()
        elif me in self._start:
            self.count += 1
            self.cpu += time.thread_time() - self._start.pop(me)


def run(lib, op, text, threads, calls, meter=None):
    """[(cpu seconds per call, wall seconds)] of each thread, after a common start."""
    barrier = threading.Barrier(threads)
    out = [None] * threads

    def work(i):
        fn, arg = _op(lib, op, text)
        doc = json.loads(text)
        if arg is None:
            arg = doc
        for _ in range(3):
            fn(arg)
        barrier.wait()
        w0, c0 = time.perf_counter(), time.thread_time()
        for _ in range(calls):
            fn(arg)
        c1, w1 = time.thread_time(), time.perf_counter()
        out[i] = ((c1 - c0) / calls, w1 - w0)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    if meter is not None:
        gc.callbacks.append(meter)
    try:
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    finally:
        if meter is not None:
            gc.callbacks.remove(meter)
    return out


def measure(docs, ops, libs, calls_target_s, rounds):
    results = []
    all_libs = _libraries()
    for name in docs:
        with open(os.path.join(CORPUS, name), "rb") as f:
            text = f.read()
        for libname in libs:
            lib = all_libs[libname]
            for op in ops:
                # calls: about calls_target_s of CPU in one thread
                probe = run(lib, op, text, 1, 5)[0][0]
                calls = max(10, int(calls_target_s / max(probe, 1e-7)))
                cpu = {1: [], 2: []}
                gcs = {1: [], 2: []}
                gccpu = {1: [], 2: []}
                wall_rate = {1: [], 2: []}
                loads = []
                for _ in range(rounds):
                    for n in (1, 2):
                        loads.append(os.getloadavg()[0])
                        meter = GCMeter()
                        r = run(lib, op, text, n, calls, meter)
                        # a thread's CPU per call includes the collections it ran
                        cpu[n].append(statistics.mean(x[0] for x in r))
                        gcs[n].append(meter.count / (n * calls))
                        gccpu[n].append(meter.cpu / (n * calls))
                        wall_rate[n].append(n * calls / max(x[1] for x in r))
                med = statistics.median
                c1, c2 = med(cpu[1]), med(cpu[2])
                w1, w2 = med(wall_rate[1]), med(wall_rate[2])
                row = {"doc": name, "lib": libname, "op": op, "calls": calls, "gc": gc.isenabled(),
                       "cpu_us_1": c1 * 1e6, "cpu_us_2": c2 * 1e6, "cpu_ratio": c2 / c1,
                       "gc_per_call_1": med(gcs[1]), "gc_per_call_2": med(gcs[2]),
                       "gc_cpu_us_1": med(gccpu[1]) * 1e6, "gc_cpu_us_2": med(gccpu[2]) * 1e6,
                       "wall_scaling": w2 / w1, "load": [min(loads), max(loads)]}
                results.append(row)
                print(f"{name:18} {libname:7} {op:5} calls={calls:5} cpu/op 1T {c1 * 1e6:8.1f} us "
                      f"2T {c2 * 1e6:8.1f} us x{c2 / c1:4.2f} | gc/op {row['gc_per_call_1']:.3f} "
                      f"{row['gc_per_call_2']:.3f} gc cpu/op {row['gc_cpu_us_1']:7.1f} {row['gc_cpu_us_2']:7.1f} us"
                      f" | wall 2T/1T {w2 / w1:4.2f}x load {min(loads):.1f}-{max(loads):.1f}", flush=True)
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", default=",".join(DOCS))
    ap.add_argument("--ops", default="rt,loads,dumps")
    ap.add_argument("--libs", default="isojson,json")
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds a thread's run takes")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-gc", action="store_true", help="gc.disable() first (what the collector adds)")
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args(argv)
    if a.no_gc:
        gc.disable()
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(f"{sys.version.split()[0]} {'GIL on' if gil else 'GIL off'}; {os.cpu_count()} cores; "
          f"GOMAXPROCS={os.environ.get('GOMAXPROCS', '-')}; gc {'on' if gc.isenabled() else 'off'}", flush=True)
    rows = measure(a.docs.split(","), a.ops.split(","), a.libs.split(","), a.seconds, a.rounds)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"python": sys.version, "gil": gil, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

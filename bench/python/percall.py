"""Per-call timings of loads and dumps (of the benchmark set's rows,
benchset.py, and of the corpus documents per backend, backends.py).

Libraries are measured side by side: for each row and operation, every
repeat times each library once, in an order that rotates from one repeat to
the next, so that a burst of noise from the (shared) machine lands on all of
them alike. Each sample is one timeit run of `number` calls, `number` chosen so
that a sample lasts about `sample_seconds`. Reported per call: the minimum
over repeats (the least disturbed run: the figure to compare) and the median.
timeit turns the garbage collector off while it times, for every library alike.

The clock is "cpu" (time.process_time: CPU time of the whole process, so it
includes any work isojson's Go runtime does on its own threads, and excludes
the time other processes of a busy shared machine hold the CPU) or "wall"
(time.perf_counter). On an idle machine both give the same figures for these
single-threaded calls; on a loaded one only "cpu" stays meaningful.
"""

import os
import statistics
import time
import timeit
from dataclasses import dataclass

import libraries

CORPUS = ("twitter", "citm_catalog", "canada", "github")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS_DIR = os.path.join(REPO, "testdata", "corpus")
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def corpus_path(doc: str) -> str:
    return os.path.join(CORPUS_DIR, doc + ".json")


def read_corpus(doc: str) -> bytes:
    with open(corpus_path(doc), "rb") as f:
        return f.read()


@dataclass
class Timing:
    op: str  # "loads" or "dumps"
    doc: str
    library: str
    number: int  # calls per sample
    samples: list[float]  # seconds per call, one per repeat

    @property
    def min_us(self) -> float:
        return min(self.samples) * 1e6

    @property
    def median_us(self) -> float:
        return statistics.median(self.samples) * 1e6


def _timer(fn, arg, kwargs: dict, clock: str) -> timeit.Timer:
    """A timeit.Timer of fn(arg, k=v, ...): the keywords are written into the
    statement, so that no wrapper or ** unpacking is timed with the call."""
    names = {"fn": fn, "arg": arg}
    kw = ""
    for i, (k, v) in enumerate(kwargs.items()):
        names[f"kw{i}"] = v
        kw += f", {k}=kw{i}"
    return timeit.Timer(f"fn(arg{kw})", globals=names, timer=CLOCKS[clock])


def _calibrate(timer: timeit.Timer, sample_seconds: float) -> int:
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= sample_seconds / 10 or number >= 1 << 20:
            return max(1, round(number * sample_seconds / max(t, 1e-9)))
        number *= 10


def measure_calls(calls: dict, repeats: int, sample_seconds: float, clock: str = "cpu",
                  number: int | None = None) -> dict[str, tuple[int, list[float]]]:
    """Times each call {name: (fn, arg, kwargs)} interleaved as the module
    docstring says: {name: (calls per sample, seconds per call of each
    repeat)}. The caller has made each call once already (warm-up: first-use
    caches, the lazy engine load). number=None calibrates each sample to
    about sample_seconds; the big rows pass 1."""
    timers = []
    for name, (fn, arg, kwargs) in calls.items():
        timer = _timer(fn, arg, kwargs, clock)
        timers.append((name, number or _calibrate(timer, sample_seconds), timer))
    out = {name: (n, []) for name, n, _ in timers}
    for r in range(repeats):
        k = r % len(timers)
        for name, n, timer in timers[k:] + timers[:k]:
            out[name][1].append(timer.timeit(n) / n)
    return out


def measure(op: str, doc: str, libs: list[libraries.Library], data: bytes, obj,
            repeats: int, sample_seconds: float, clock: str = "cpu") -> dict[str, Timing]:
    """Times `op` ("loads" of `data` or "dumps" of `obj`) for every library in
    `libs`, interleaved as the module docstring says."""
    calls = {}
    for lib in libs:
        fn, arg = (lib.loads, data) if op == "loads" else (lib.dumps, obj)
        fn(arg)  # warm up
        calls[lib.name] = (fn, arg, {})
    return {name: Timing(op, doc, name, n, samples)
            for name, (n, samples) in measure_calls(calls, repeats, sample_seconds, clock).items()}


def check_isojson(iso: libraries.Library, ref: libraries.Library, data: bytes) -> list[str]:
    """Problems with isojson's results on one document, compared with
    orjson's (the parity oracle): an empty list when they agree."""
    problems = []
    try:
        if iso.loads(data) != ref.loads(data):
            problems.append("loads result differs from orjson")
        obj = ref.loads(data)
        if iso.dumps(obj) != ref.dumps(obj):
            problems.append("dumps bytes differ from orjson")
    except Exception as e:
        problems.append(f"{type(e).__name__}: {e}")
    return problems

"""Per-call timings of loads and dumps on the corpus documents.

Libraries are measured side by side: for each document and operation, every
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


def _calibrate(fn, arg, sample_seconds: float, clock: str) -> int:
    fn(arg)  # warm up: first-use caches, lazy engine load
    timer = timeit.Timer("fn(arg)", globals={"fn": fn, "arg": arg}, timer=CLOCKS[clock])
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= sample_seconds / 10 or number >= 1 << 20:
            return max(1, round(number * sample_seconds / max(t, 1e-9)))
        number *= 10


def measure(op: str, doc: str, libs: list[libraries.Library], data: bytes, obj,
            repeats: int, sample_seconds: float, clock: str = "cpu") -> dict[str, Timing]:
    """Times `op` ("loads" of `data` or "dumps" of `obj`) for every library in
    `libs`, interleaved as the module docstring says."""
    timers, timings = [], {}
    for lib in libs:
        fn, arg = (lib.loads, data) if op == "loads" else (lib.dumps, obj)
        number = _calibrate(fn, arg, sample_seconds, clock)
        timers.append((lib.name, number,
                       timeit.Timer("fn(arg)", globals={"fn": fn, "arg": arg}, timer=CLOCKS[clock])))
        timings[lib.name] = Timing(op, doc, lib.name, number, [])
    for r in range(repeats):
        k = r % len(timers)
        for name, number, timer in timers[k:] + timers[:k]:
            timings[name].samples.append(timer.timeit(number) / number)
    return timings


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


def run(libs: list[libraries.Library], docs=CORPUS, ops=("loads", "dumps"),
        repeats: int = 15, sample_seconds: float = 0.02, clock: str = "cpu", log=print) -> list[Timing]:
    """Every (op, doc, library) timing. The object dumps serializes is
    orjson's loads of the document, the same object for every library."""
    by_name = {lib.name: lib for lib in libs}
    loader = by_name.get("orjson") or libs[0]
    out = []
    for doc in docs:
        data = read_corpus(doc)
        obj = loader.loads(data)
        for op in ops:
            log(f"  {op} {doc} ({len(data) // 1024} KiB): {', '.join(by_name)}")
            out.extend(measure(op, doc, libs, data, obj, repeats, sample_seconds, clock).values())
    return out

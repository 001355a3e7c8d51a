"""Runs workload.run_worker in N workers of one kind and measures throughput.

Kinds of workers:
    subinterpreters  own-GIL sub-interpreters (concurrent.interpreters, the
                     strict default: check_multi_interp_extensions), one
                     thread each: truly parallel when the library allows it
    threads          threads of the main interpreter: they share its GIL
    processes        multiprocessing (spawn): parallel, at the cost of a
                     process per worker and pickling to talk to it
"""

import multiprocessing
import os
import queue
import threading
import time
from concurrent import interpreters
from dataclasses import dataclass, field

import workload

SUBINTERPRETERS = "subinterpreters"
THREADS = "threads"
PROCESSES = "processes"

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))

# How long the workers have between the start signal and t0: enough for a
# sub-interpreter queue, which polls every 10 ms, to deliver it.
_LEAD = 0.1
# Longest wait for a worker to set up or to report.
_TIMEOUT = 120.0


class WorkerFailed(RuntimeError):
    pass


@dataclass
class Run:
    library: str
    mode: str
    workers: int
    duration: float
    calls: list[int] = field(default_factory=list)  # per worker
    errors: int = 0

    @property
    def total(self) -> int:
        return sum(self.calls)

    @property
    def rate(self) -> float:
        """Calls per second, all workers together."""
        return self.total / self.duration


class SubinterpreterPool:
    """Sub-interpreters that outlive one measurement, so that several
    libraries can run in the very same interpreters (the demo does). A
    context manager: closes them on exit."""

    def __init__(self, size: int):
        self.interps = [interpreters.create() for _ in range(size)]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for interp in self.interps:
            interp.close()


def measure(library: str, mode: str, workers: int, duration: float,
            kind: str = workload.ROUNDTRIP, payload=100, pool: SubinterpreterPool | None = None) -> Run:
    """Runs `workers` workers of `mode` doing `kind` of work with `library`
    for `duration` seconds, all starting together. Sub-interpreters come from
    `pool` when given (its first `workers`), else are created and closed
    here. Raises WorkerFailed with the worker's message when one cannot set up
    (ImportError, failed check) or never reports."""
    if mode == SUBINTERPRETERS:
        runner = _Subinterpreters(pool)
    else:
        runner = {THREADS: _Threads, PROCESSES: _Processes}[mode]()
    with runner as r:
        for wid in range(workers):
            r.launch(library, kind, wid, payload)
        failures = []
        for _ in range(workers):
            wid, status = _get(r.ready, _TIMEOUT, f"{library} in {mode}: a worker did not start")
            if status != "ok":
                failures.append(f"worker {wid}: {status}")
        if failures:
            for _ in range(workers):
                r.start.put((-1.0, -1.0))
            raise WorkerFailed(f"{library} in {mode}: " + "; ".join(failures))
        t0 = time.perf_counter() + _LEAD
        for _ in range(workers):
            r.start.put((t0, t0 + duration))
        run = Run(library, mode, workers, duration, [0] * workers)
        problems = []
        for _ in range(workers):
            wid, calls, errors, problem = _get(r.results, duration + _TIMEOUT,
                                               f"{library} in {mode}: a worker did not finish")
            run.calls[wid] = calls
            run.errors += errors
            if problem:
                problems.append(f"worker {wid}: {problem}")
        if problems:
            raise WorkerFailed(f"{library} in {mode}: " + "; ".join(problems))
        return run


def _get(q, timeout: float, problem: str):
    """q.get with a timeout that raises WorkerFailed: a worker that hangs or
    dies without a word must not hang the benchmark."""
    try:
        return q.get(timeout=timeout)
    except (queue.Empty, interpreters.QueueEmpty):
        raise WorkerFailed(f"{problem} within {timeout:.0f} s") from None


class _Threads:
    def __enter__(self):
        self.ready, self.start, self.results = queue.Queue(), queue.Queue(), queue.Queue()
        self.threads = []
        return self

    def launch(self, library, kind, wid, payload):
        t = threading.Thread(target=workload.run_worker,
                             args=(library, kind, wid, payload, self.ready, self.start, self.results),
                             daemon=True)
        t.start()
        self.threads.append(t)

    def __exit__(self, *exc):
        for t in self.threads:
            t.join(timeout=_TIMEOUT)


class _Subinterpreters:
    _CODE = (
        "import sys\n"
        "if bench_dir not in sys.path:\n"
        "    sys.path.insert(0, bench_dir)\n"
        "import workload\n"
        "workload.run_worker(library, kind, wid, payload, ready, start, results)\n"
    )

    def __init__(self, pool: SubinterpreterPool | None):
        self.pool = pool

    def __enter__(self):
        self.ready = interpreters.create_queue()
        self.start = interpreters.create_queue()
        self.results = interpreters.create_queue()
        self.created, self.threads = [], []
        return self

    def launch(self, library, kind, wid, payload):
        if self.pool is not None:
            interp = self.pool.interps[wid]
        else:
            interp = interpreters.create()
            self.created.append(interp)
        interp.prepare_main(bench_dir=BENCH_DIR, library=library, kind=kind, wid=wid,
                            payload=payload, ready=self.ready, start=self.start,
                            results=self.results)

        def run():
            try:
                interp.exec(self._CODE)
            except interpreters.ExecutionFailed as e:  # run_worker never raises; importing it might
                self.ready.put((wid, f"{e.excinfo.type.__name__}: {e.excinfo.msg}"))

        t = threading.Thread(target=run, daemon=True)
        t.start()
        self.threads.append(t)

    def __exit__(self, *exc):
        for t in self.threads:
            t.join(timeout=_TIMEOUT)
        for interp in self.created:
            interp.close()


class _Processes:
    def __enter__(self):
        # spawn, not fork: a process that has loaded a Go runtime (isojson's
        # engine) must not fork, and spawn is what a cautious user would pick.
        ctx = multiprocessing.get_context("spawn")
        self.ctx = ctx
        self.ready, self.start, self.results = ctx.Queue(), ctx.Queue(), ctx.Queue()
        self.procs = []
        return self

    def launch(self, library, kind, wid, payload):
        p = self.ctx.Process(target=workload.run_worker,
                             args=(library, kind, wid, payload, self.ready, self.start, self.results),
                             daemon=True)
        p.start()
        self.procs.append(p)

    def __exit__(self, *exc):
        for p in self.procs:
            p.join(timeout=_TIMEOUT)
            if p.is_alive():
                p.kill()
                p.join()

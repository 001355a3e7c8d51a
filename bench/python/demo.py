"""isojson in own-GIL sub-interpreters: the demo of `make demo` (about 20 s).

    scripts/py bench/python/demo.py [--seconds S]

1. Tries `import` of each JSON library in a strict sub-interpreter (its own
   GIL; extensions must declare sub-interpreter support): isojson and the
   standard library's json import, orjson, ujson, msgspec and rapidjson raise
   ImportError.
2. Runs round trips (loads + dumps, every output compared with the expected
   bytes) of a 100-record document, in short runs with 1 and 4 workers:
   isojson and json in 4 sub-interpreters in parallel, orjson in 4 threads of
   one interpreter (which share its GIL), and prints round trips per second
   (best of a few interleaved runs: the machine may be busy with other work).
Exits non-zero if isojson cannot run in sub-interpreters or any result is
wrong.
"""

import argparse
import sys
import time
from concurrent import interpreters
from dataclasses import dataclass, field

import _interpreters  # get_config: to show what "strict" means

import libraries
import machine
import parallel
import workload

RECORDS = 100
WORKERS = 4
RUNS = (  # (library, mode, label)
    ("isojson", parallel.SUBINTERPRETERS, "own-GIL sub-interpreters"),
    ("json", parallel.SUBINTERPRETERS, "own-GIL sub-interpreters"),
    ("orjson", parallel.THREADS, "threads of one interpreter (one GIL)"),
)
IMPORTS = ("isojson", "json", "orjson", "ujson", "msgspec", "rapidjson")


def say(msg: str = "") -> None:
    print(msg, flush=True)


def import_in_subinterpreter(name: str) -> str:
    """"" when the library imports (libraries.load: `import name`, and a
    check that it is usable) in a fresh strict sub-interpreter, else the
    exception's type and first line."""
    interp = interpreters.create()
    try:
        interp.prepare_main(bench_dir=parallel.BENCH_DIR, name=name)
        interp.exec("import sys\n"
                    "sys.path.insert(0, bench_dir)\n"
                    "import libraries\n"
                    "libraries.load(name)\n")
        return ""
    except interpreters.ExecutionFailed as e:
        first = next((line for line in e.excinfo.msg.splitlines() if line.strip()), "")
        return f"{e.excinfo.type.__name__}: {first}"
    finally:
        interp.close()


def strictness() -> str:
    interp = interpreters.create()
    try:
        c = _interpreters.get_config(interp.id)
        return f"gil={c.gil!r}, check_multi_interp_extensions={c.check_multi_interp_extensions}"
    finally:
        interp.close()


@dataclass
class Tally:
    best: dict = field(default_factory=dict)  # (library, workers) -> best round trips per second
    total: int = 0  # round trips run
    wrong: int = 0  # round trips whose output differed


def run_round(r: int, pool, seconds: float, tally: Tally) -> bool:
    """One round of every configuration, printed as it goes; False when a
    configuration could not run."""
    for n in (1, WORKERS):
        for lib, mode, _ in RUNS:
            try:
                run = parallel.measure(lib, mode, n, seconds, workload.ROUNDTRIP, RECORDS,
                                       pool if mode == parallel.SUBINTERPRETERS else None)
            except parallel.WorkerFailed as e:
                say(f"   {lib} with {n} worker(s) failed: {e}")
                return False
            tally.best[(lib, n)] = max(tally.best.get((lib, n), 0.0), run.rate)
            tally.wrong += run.errors
            tally.total += run.total
            where = f"{n} {'sub-interpreter' if mode == parallel.SUBINTERPRETERS else 'thread'}"
            where += "s" if n > 1 else ""
            per = " + ".join(f"{c:,}" for c in run.calls)
            check = "✓ all correct" if run.errors == 0 else f"✗ {run.errors:,} WRONG"
            say(f"   round {r + 1}  {lib:<8} {where:<19} {run.rate:>7,.0f}/s   {check}   (round trips: {per})")
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.7, help="length of each timed run (default 0.7)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each configuration; the best counts (default 3)")
    ap.add_argument("--budget", type=float, default=40.0,
                    help="seconds of measuring after which no new round starts (default 40)")
    args = ap.parse_args()

    try:
        libraries.load("isojson")
    except ImportError as e:
        say(f"demo: cannot import isojson ({e}); run `make build` first")
        return 1
    m = machine.info()
    iso_module = libraries.isojson_module_name()
    say("isojson demo: fast JSON in own-GIL sub-interpreters (PEP 684)")
    say(f"  {machine.summary(m)}")
    if m["load_average"] > (m["cores"] or 1):
        say(f"  (load average {m['load_average']:.1f} on {m['cores']} cores: other work shares the CPUs, "
            "so the figures below vary from run to run)")
    if iso_module != "isojson":
        say(f"  NOTE: 'isojson' is the stand-in {iso_module!r} (ISOJSON_BENCH_MODULE): not isojson's figures")
    say()

    say(f"1. import in a strict sub-interpreter ({strictness()})")
    failed_iso = ""
    for name in IMPORTS:
        problem = import_in_subinterpreter(name)
        if name == "isojson":
            failed_iso = problem
        mark = "✗" if problem else "✓"
        say(f"   {mark} {name:<10} {problem or 'imports'}")
    if failed_iso:
        say(f"\nisojson cannot run in a sub-interpreter ({failed_iso}); has `make build` run?")
        return 1
    say()

    doc_bytes = len(workload.document_bytes(RECORDS))
    say(f"2. round trips (loads + dumps) of a {RECORDS}-record document ({doc_bytes / 1024:.0f} KiB): "
        f"{args.rounds} interleaved rounds of {args.seconds:g} s runs,")
    say("   best run kept (the machine may be shared); every output is compared with orjson's bytes;")
    say(f"   isojson and json take turns in the same {WORKERS} sub-interpreters")
    tally = Tally()
    started = time.perf_counter()
    with parallel.SubinterpreterPool(WORKERS) as pool:
        for r in range(args.rounds):
            t = time.perf_counter()
            if not run_round(r, pool, args.seconds, tally):
                return 1
            took = time.perf_counter() - t
            if r + 1 < args.rounds and time.perf_counter() - started + took > args.budget:
                say(f"   (stopping after {r + 1} round{'s' if r else ''}: a round takes {took:.0f} s "
                    "on this busy machine)")
                break
    rates, total, wrong = tally.best, tally.total, tally.wrong
    say()

    w = 36
    say(f"   {'library':<9}{'runs in':<{w}}{'1 worker':>10}{f'{WORKERS} workers':>12}{f'{WORKERS} vs 1':>9}")
    say(f"   {'-' * (9 + w + 31)}")
    for lib, _, label in RUNS:
        one, many = rates[(lib, 1)], rates[(lib, WORKERS)]
        say(f"   {lib:<9}{label:<{w}}{one:>10,.0f}{many:>12,.0f}{many / one:>8.2f}×")
    say()

    iso4, orj4, json4 = rates[("isojson", WORKERS)], rates[("orjson", WORKERS)], rates[("json", WORKERS)]
    say(f"   isojson in {WORKERS} sub-interpreters: {iso4 / orj4:.2f}× orjson in {WORKERS} threads, "
        f"{iso4 / json4:.2f}× json in {WORKERS} sub-interpreters.")
    say(f"   This machine has {m['cores']} CPU cores: {min(WORKERS, m['cores'] or 1)}× is the most that "
        f"{WORKERS} workers can gain.")
    if wrong:
        say(f"\nERROR: {wrong:,} round trips gave wrong output")
        return 1
    say(f"   All {total:,} round trips in every worker gave the expected bytes.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

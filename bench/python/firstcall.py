"""The first call: how long a fresh process takes to import a library and
make its first dumps and first loads, and the memory and threads it has then.

isojson's import starts loading its Go engine in the background (the Go
runtime's start takes milliseconds); orjson and msgspec have nothing to start.
So there are two first calls: at once after the import (a short-lived program:
isojson's waits for the load), and after PAUSE_MS of other work (a program that
imports at its start and serves later: the load is done by then). Each figure
comes from a fresh child process (`python firstcall.py --child LIBRARY
[PAUSE_MS]`), the libraries' children interleaved; wall-clock time, and the
process's CPU time beside it.

    {"library", "runs", "import_ms", "dumps_ms", "loads_ms", "dumps_later_ms", "loads_later_ms"
     (each min and median over runs),
     "cpu_ms" (import to first loads), "rss_mb" (after the first loads), "rss_added_mb" (over the
     bare interpreter before the import), "threads" (after the first loads)}
"""

import json
import os
import statistics
import subprocess
import sys
import time

LIBRARIES = ("isojson", "orjson", "msgspec", "json")
DOC = {"id": 1, "name": "first", "tags": ["a", "b"], "ok": True, "score": 0.5}
PAUSE_MS = 50


def _status() -> tuple[float, int]:
    """(resident set in MiB, threads) of this process, from /proc/self/status."""
    rss = threads = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


def child(name: str, pause_ms: float = 0) -> dict:
    """Runs in the fresh process: import, pause_ms of sleep, first dumps, first loads."""
    import libraries  # standard library only: its own cost is not the library's

    rss0, threads0 = _status()
    c0, t0 = time.process_time(), time.perf_counter()
    lib = libraries.load(name)
    if pause_ms:
        time.sleep(pause_ms / 1e3)
    t1 = time.perf_counter()
    data = lib.dumps(DOC)
    t2 = time.perf_counter()
    if lib.loads(data) != DOC:
        raise SystemExit(f"{name}: loads(dumps(doc)) != doc")
    t3 = time.perf_counter()
    c1 = time.process_time()
    rss, threads = _status()
    return {"import_ms": (t1 - t0) * 1e3, "dumps_ms": (t2 - t1) * 1e3, "loads_ms": (t3 - t2) * 1e3,
            "cpu_ms": (c1 - c0) * 1e3, "rss_mb": rss, "rss_added_mb": rss - rss0, "threads": threads,
            "threads_before": threads0}


def _run_child(name: str, pause_ms: float = 0) -> dict:
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", name, str(pause_ms)],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit status {proc.returncode}")
    return json.loads(proc.stdout)


def summarize(name: str, runs: list[dict]) -> dict:
    out = {"library": name, "runs": len(runs)}
    for key in ("import_ms", "dumps_ms", "loads_ms", "dumps_later_ms", "loads_later_ms", "cpu_ms", "rss_mb",
                "rss_added_mb", "threads"):
        values = [r[key] for r in runs]
        out[key] = {"min": min(values), "median": statistics.median(values)}
    return out


def run(libraries=LIBRARIES, runs: int = 5, log=print) -> list[dict]:
    got = {name: [] for name in libraries}
    errors = {}
    for r in range(runs):
        k = r % len(libraries)
        for name in libraries[k:] + libraries[:k]:
            if name in errors:
                continue
            try:
                now, later = _run_child(name), _run_child(name, PAUSE_MS)
                got[name].append({**now, "dumps_later_ms": later["dumps_ms"], "loads_later_ms": later["loads_ms"]})
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                errors[name] = str(e)
                log(f"  {name}: failed: {e}")
    out = []
    for name in libraries:
        if name in errors:
            out.append({"library": name, "error": errors[name]})
            continue
        s = summarize(name, got[name])
        out.append(s)
        log(f"  {name}: import {s['import_ms']['min']:.2f} ms, first dumps {s['dumps_ms']['min']:.2f} ms, "
            f"first loads {s['loads_ms']['min']:.2f} ms (after {PAUSE_MS} ms: "
            f"{s['dumps_later_ms']['min']:.2f}, {s['loads_later_ms']['min']:.2f}), "
            f"+{s['rss_added_mb']['median']:.1f} MiB RSS, "
            f"{s['threads']['median']:.0f} threads")
    return out


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--child":
        json.dump(child(sys.argv[2], float(sys.argv[3]) if len(sys.argv) == 4 else 0), sys.stdout)
    else:
        sys.exit("usage: firstcall.py --child LIBRARY [PAUSE_MS] (run_all.py --only firstcall runs it)")

"""The Python benchmarks of isojson (`make bench-py`, about 5 minutes).

    scripts/py bench/python/run_all.py [--quick] [--rows REGEXP]
                                       [--only percall,firstcall,parallel,threaded,backends,writers]

Measures, on this machine, side by side:
  1. loads and dumps per call on every row of the benchmark set (rows.py:
     fixed costs, API messages, records, lists, text by script, pretty
     input, big strings and a 100 MiB document, the corpus, Python types):
     isojson, orjson, msgspec and json (and ujson on the corpus), libraries
     interleaved (benchset.py, percall.py);
  2. the first call in a fresh process: import, first dumps and loads, RSS
     and threads (firstcall.py);
  3. round trips per second with 1, 2 and 4 workers: isojson and json in
     own-GIL sub-interpreters, orjson in threads and in processes
     (parallel.py, workload.py), and threaded loads of large documents;
  4. isojson loads per backend against orjson, one process per backend
     (backends.py);
  5. isojson dumps per writer against orjson, one process per writer
     (writers.py).
Writes bench/results/python.{md,json}, rows.png, parallel.png, backends.png
and rewrites the README section between <!-- bench:begin --> and
<!-- bench:end -->; the writers part writes bench/results/writers.{md,json}
(alone, `--only writers` writes just those). ISOJSON_BENCH_MODULE=json benchmarks a stand-in instead
of isojson (the reports say so).
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import backends
import benchset
import charts
import firstcall
import libraries
import machine
import parallel
import percall
import report
import rows
import workload
import writers

RESULTS_DIR = os.path.join(percall.REPO, "bench", "results")
README = os.path.join(percall.REPO, "README.md")
PARTS = ("percall", "firstcall", "parallel", "threaded", "backends", "writers")
# The keys of the results dict each part writes (for --merge).
PART_KEYS = {"percall": ("libraries", "how", "rows"),
             "firstcall": ("firstcall",),
             "parallel": ("parallel", "parallel_doc"),
             "threaded": ("threaded_loads",),
             "backends": ("backends",),
             "writers": ("writers",)}

PARALLEL_CONFIGS = (
    ("isojson", parallel.SUBINTERPRETERS),
    ("json", parallel.SUBINTERPRETERS),
    ("orjson", parallel.THREADS),
    ("orjson", parallel.PROCESSES),
)
WORKER_COUNTS = (1, 2, 4)
THREADED_LIBRARIES = ("isojson", "orjson")
THREADED_DOCS = ("twitter", "citm_catalog")
RECORDS = 100


def log(msg: str) -> None:
    print(msg, flush=True)


def run_percall(results, s):
    libs = []
    for name in libraries.SET_LIBRARIES + libraries.CORPUS_EXTRA_LIBRARIES:
        try:
            libs.append(libraries.load(name))
        except ImportError as e:
            log(f"  {name} is missing, left out: {e}")
    results["libraries"] = [lib.name for lib in libs]
    results["how"] = {lib.name: lib.how for lib in libs}
    selected = rows.select(s["rows"])
    if not selected:
        raise SystemExit(f"run_all: no row matches --rows {s['rows']!r}")
    results["rows"] = benchset.run(selected, libs, s, log=log)


def run_firstcall(results, s):
    results["firstcall"] = firstcall.run(runs=s["firstcall_runs"], log=log)


def _rounds(configs, counts, s, kind, payload_of, log_label, budget):
    """Runs every (library, mode, workers) `rounds` times, interleaved, and
    returns one entry per configuration with the best rate (the run the
    shared machine disturbed least, as min-of-repeats for per-call times)
    and the median. No new round starts after `budget` seconds (keeps
    `make bench` under 10 minutes on a busy machine)."""
    runs, failed = {}, {}
    started = time.perf_counter()
    for r in range(s["rounds"]):
        if r and time.perf_counter() - started > budget:
            log(f"  stopped after {r} round{'s' if r > 1 else ''} (over {budget:.0f} s on this busy machine)")
            break
        for n in counts:
            for lib, mode, payload_key in configs:
                key = (lib, mode, payload_key, n)
                if key in failed:
                    continue
                try:
                    run = parallel.measure(lib, mode, n, s["duration"], kind, payload_of(payload_key))
                except parallel.WorkerFailed as e:
                    log(f"  {lib} {mode} ×{n}: FAILED: {e}")
                    failed[key] = str(e).split(": ", 1)[-1]
                    continue
                runs.setdefault(key, []).append(run)
                note = f", {run.errors} WRONG RESULTS" if run.errors else ""
                log(f"  round {r + 1}: {log_label(lib, mode, payload_key)} ×{n}: {run.rate:,.0f}/s{note}")
    out = []
    for lib, mode, payload_key in configs:
        for n in counts:
            key = (lib, mode, payload_key, n)
            entry = {"library": lib, "mode": mode, "workers": n}
            if payload_key is not None:
                entry["doc"] = payload_key
            if key not in runs:
                entry.update(rate=0, error=failed.get(key, "not run"))
            else:
                rates = [x.rate for x in runs[key]]
                entry.update(rate=max(rates), median_rate=statistics.median(rates), rates=rates,
                             calls_per_worker=[x.calls for x in runs[key]],
                             errors=sum(x.errors for x in runs[key]))
            out.append(entry)
    return out


def run_parallel(results, s):
    results["parallel_doc"] = {"records": RECORDS, "bytes": len(workload.document_bytes(RECORDS))}
    configs = [(lib, mode, None) for lib, mode in PARALLEL_CONFIGS]
    results["parallel"] = _rounds(configs, WORKER_COUNTS, s, workload.ROUNDTRIP, lambda _: RECORDS,
                                  lambda lib, mode, _: f"{lib} {mode}", budget=180)


def run_threaded(results, s):
    configs = [(lib, parallel.THREADS, doc) for doc in THREADED_DOCS for lib in THREADED_LIBRARIES]
    results["threaded_loads"] = _rounds(configs, (1, 2), s, workload.LOADS, percall.corpus_path,
                                        lambda lib, mode, doc: f"{lib} loads {doc} in threads", budget=60)


def run_backends(results, s):
    names = libraries.isojson_backends()
    if not names:
        log("  no backends to compare (isojson is a stand-in or has no `backends`)")
        return
    results["backends"] = backends.run(names, repeats=s["repeats"], sample_seconds=s["sample_seconds"],
                                       clock=s["clock"], log=log)


def run_writers(results, s):
    names = writers.isojson_writers()
    if not names:
        log("  no writers to compare (isojson is a stand-in or has no `writers`)")
        return
    chosen = writers.selected(s["rows"])
    if not chosen:
        log(f"  no writer row matches --rows {s['rows']!r}")
        return
    results["writers"] = writers.run(names, chosen, repeats=s["repeats"], sample_seconds=s["sample_seconds"],
                                     clock=s["clock"], log=log)


def write_writers(results, out_dir):
    """writers.{json,md}: the writers part, with the machine and settings it
    ran on (python.json leaves it out, so that each part's files stand alone)."""
    own = {k: results[k] for k in ("machine", "settings", "writers", "load_average_end") if k in results}
    with open(os.path.join(out_dir, "writers.json"), "w", encoding="utf-8") as f:
        json.dump(own, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(out_dir, "writers.md"), "w", encoding="utf-8") as f:
        f.write(report.writers_markdown(own) + "\n")
    log(f"wrote {os.path.join(out_dir, 'writers.json')}, {os.path.join(out_dir, 'writers.md')}")


def write_outputs(results, out_dir, readme):
    os.makedirs(out_dir, exist_ok=True)
    if results.get("writers"):
        write_writers(results, out_dir)
        results = {k: v for k, v in results.items() if k != "writers"}
        if not any(k in results for part in PARTS if part != "writers" for k in PART_KEYS[part]):
            return  # the writers part alone: python.* and the README stay as they are
    with open(os.path.join(out_dir, "python.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(out_dir, "python.md"), "w", encoding="utf-8") as f:
        f.write(report.markdown(results) + "\n")
    written = ["python.json", "python.md"]
    if results.get("rows"):
        charts.rows(results, os.path.join(out_dir, "rows.png"))
        written.append("rows.png")
    if results.get("parallel"):
        charts.parallel(results, os.path.join(out_dir, "parallel.png"))
        written.append("parallel.png")
    if any("error" not in r for r in results.get("backends", {}).values()):
        charts.backends(results, os.path.join(out_dir, "backends.png"))
        written.append("backends.png")
    log(f"wrote {', '.join(os.path.join(out_dir, w) for w in written)}")
    section = report.readme_section(results)
    if readme is None:
        log("README left alone")
    elif report.rewrite_readme(readme, section):
        log("rewrote the README section between " f"{report.README_BEGIN} and {report.README_END}")
    else:
        log(f"README.md has no {report.README_BEGIN} ... {report.README_END} section; "
            "here is what belongs there:\n")
        print(section)


def merged(path: str, new: dict, parts: list[str]) -> dict:
    """The saved results at `path` with the `parts` just measured in `new`
    replacing theirs, and a note of when and under what load they were."""
    with open(path, encoding="utf-8") as f:
        base = json.load(f)
    for part in parts:
        for key in PART_KEYS[part]:
            if key in new:
                base[key] = new[key]
    base.setdefault("remeasured", []).append({
        "parts": parts, "date": new["machine"]["date"], "settings": new["settings"],
        "load_average": new["machine"]["load_average"], "load_average_end": new.get("load_average_end")})
    return base


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats and shorter runs (about 2 minutes)")
    ap.add_argument("--rows", metavar="REGEXP", help="only the rows of the benchmark set whose name matches "
                    "(rows.py; e.g. '^fixed/' or 'text/cyr'); results go to a temporary directory")
    ap.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts among {', '.join(PARTS)}")
    ap.add_argument("--out", help="directory for the results (default: bench/results for a full run "
                    "of isojson, else a temporary directory; only the default full run rewrites the README)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="per-call clock: process CPU time (default; robust on a shared machine) or wall time")
    ap.add_argument("--render", metavar="PYTHON_JSON",
                    help="measure nothing: rewrite the Markdown, charts and README from a saved python.json")
    ap.add_argument("--merge", metavar="PYTHON_JSON",
                    help="put the parts measured now (--only) into saved results and rewrite every output "
                         "from them, e.g. the parallel table again when the machine is quiet")
    args = ap.parse_args(argv)
    if args.render:
        with open(args.render, encoding="utf-8") as f:
            results = json.load(f)
        out_dir = args.out or RESULTS_DIR
        write_outputs(results, out_dir, README if out_dir == RESULTS_DIR else None)
        return 0
    parts = [p for p in args.only.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        ap.error(f"unknown parts: {', '.join(sorted(unknown))}")
    s = ({"repeats": 3, "sample_seconds": 0.004, "big_repeats": 1, "rounds": 1, "duration": 0.4,
          "firstcall_runs": 2, "quick": True} if args.quick
         else {"repeats": 12, "sample_seconds": 0.012, "big_repeats": 3, "rounds": 5, "duration": 0.6,
               "firstcall_runs": 5, "quick": False})
    s["clock"] = args.clock
    s["rows"] = args.rows

    try:
        libraries.load("isojson")
    except ImportError as e:
        print(f"run_all: cannot import isojson ({e}); run `make build` first "
              "(or set ISOJSON_BENCH_MODULE=json to try the benchmarks on a stand-in)", file=sys.stderr)
        return 1
    results = {"machine": machine.info(), "settings": s}
    log(f"isojson Python benchmarks on {machine.summary(results['machine'])}")
    if libraries.isojson_module_name() != "isojson":
        log(f"NOTE: isojson is the stand-in {libraries.isojson_module_name()!r}: these are not isojson's figures")
    started = time.perf_counter()
    steps = {"percall": ("per-call loads and dumps of the benchmark set", run_percall),
             "firstcall": ("the first call in a fresh process", run_firstcall),
             "parallel": ("parallel round trips", run_parallel),
             "threaded": ("threaded loads of large documents", run_threaded),
             "backends": ("loads per isojson backend", run_backends),
             "writers": ("dumps per isojson writer", run_writers)}
    for part in PARTS:
        if part in parts:
            title, fn = steps[part]
            log(f"\n== {title} ==")
            t = time.perf_counter()
            fn(results, s)
            log(f"  ({time.perf_counter() - t:.0f} s)")
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    results["load_average_end"] = machine.load_average()
    log("")
    if args.merge:
        results = merged(args.merge, results, parts)
    # Only a full (or merged) run of the real isojson owns bench/results and
    # the README's figures; a stand-in's or a partial run's results go to a
    # temporary directory. The writers part alone owns its own files
    # (writers.{md,json}) and touches nothing else.
    official = (libraries.isojson_module_name() == "isojson" and not args.rows
                and (set(parts) == set(PARTS) or args.merge or parts == ["writers"]))
    out_dir = args.out or (RESULTS_DIR if official else os.path.join(tempfile.gettempdir(), "isojson-bench"))
    write_outputs(results, out_dir, README if official and not args.out else None)
    log(f"done in {results['elapsed_s']:.0f} s")
    wrong = sum(p.get("errors", 0) for p in results.get("parallel", []) + results.get("threaded_loads", []))
    if wrong:
        log(f"ERROR: {wrong} round trips gave wrong results")
        return 1
    differ = [f"{name} {e['row']}" for name, r in results.get("writers", {}).items() for e in r.get("rows", [])
              if e["problems"]]
    if differ:
        log(f"ERROR: dumps bytes differ from orjson's with the writer and row: {', '.join(differ)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""isojson on free-threaded CPython (3.14t) against the GIL build: `make bench-ft`.

    python free_threaded.py measure OUT.json [--quick]    in the interpreter that runs it
    python free_threaded.py report FT.json GIL.json OUT.md

measure: (1) round trips per second (loads(dumps(doc)) of each corpus document) with 1, 2 and 4
threads, for isojson and for the standard library's json in the same threads, twice: each thread with
a document of its own, parsed in that thread (what a server has: each request its own objects), and
all threads on one shared document (its refcounts and its containers' locks then bounce between cores,
whatever library writes it); (2) the per-call cost of
loads and dumps of each corpus document in one thread (the minimum over repeats of the mean of a
batch). The load average is recorded before and after: on a shared machine wall-clock figures and
above all the scaling of threads mean something only when it is low (below the core count). report
puts a 3.14t run and a GIL-build run side by side. Standard library only, so that it runs on 3.14t.
"""

import argparse
import datetime
import json
import os
import platform
import sys
import sysconfig
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "testdata", "corpus")
FILES = ("canada.json", "citm_catalog.json", "github.json", "twitter.json")
THREADS = (1, 2, 4)


def _load_average():
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return -1.0


def _corpus():
    out = {}
    for name in FILES:
        with open(os.path.join(CORPUS, name), "rb") as f:
            out[name] = f.read()
    return out


def _libraries():
    import isojson

    return {
        "isojson": (isojson.loads, isojson.dumps),
        "json": (json.loads, lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode()),
    }


def round_trips(loads, dumps, data, threads, seconds, shared):
    """Round trips per second of all threads together, each looping loads(dumps(doc)) for about
    `seconds` after a common start. shared: one document, parsed once, for every thread; otherwise
    each thread parses its own from data before the start."""
    barrier = threading.Barrier(threads + 1)
    counts = [0] * threads
    stop_at = [0.0]
    common = json.loads(data) if shared else None

    def run(i):
        doc = common if shared else json.loads(data)
        barrier.wait()
        n = 0
        end = stop_at[0]
        while True:
            for _ in range(4):
                loads(dumps(doc))
            n += 4
            if time.perf_counter() >= end:
                break
        counts[i] = n

    ts = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    stop_at[0] = time.perf_counter() + seconds
    t0 = time.perf_counter()
    barrier.wait()
    for t in ts:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


def per_call(fn, arg, batch, repeats):
    """Seconds per call: the minimum over repeats of a batch's mean."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn(arg)
        best = min(best, (time.perf_counter() - t0) / batch)
    return best


def measure(quick=False):
    corpus = _corpus()
    libs = _libraries()
    seconds = 0.5 if quick else 2.0
    repeats = 3 if quick else 9
    out = {
        "python": sys.version,
        "free_threaded": bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        "gil_enabled": getattr(sys, "_is_gil_enabled", lambda: True)(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load_before": _load_average(),
        "round_trips": {},
        "round_trips_shared": {},
        "per_call": {},
    }
    for name, data in corpus.items():
        doc = json.loads(data)
        for mode, shared in (("round_trips", False), ("round_trips_shared", True)):
            for lib, (loads, dumps) in libs.items():
                rt = {}
                for n in THREADS:
                    rt[str(n)] = round_trips(loads, dumps, data, n, seconds, shared)
                out[mode][f"{lib}:{name}"] = rt
        loads, dumps = libs["isojson"]
        size = len(data)
        batch = max(3, int(2_000_000 / size))
        out["per_call"][name] = {
            "loads": per_call(loads, data, batch, repeats),
            "dumps": per_call(dumps, doc, batch, repeats),
        }
        # CPython's own json in the same process: what the interpreter's build costs its own code.
        jloads, jdumps = libs["json"]
        jbatch = max(3, batch // 5)
        out.setdefault("per_call_json", {})[name] = {
            "loads": per_call(jloads, data, jbatch, repeats),
            "dumps": per_call(jdumps, doc, jbatch, repeats),
        }
    out["load_after"] = _load_average()
    return out


def _fmt_rate(x):
    return f"{x:,.0f}"


def report(ft, gil):
    lines = [
        "# isojson on free-threaded CPython 3.14t",
        "",
        f"Made by `make bench-ft` (bench/python/free_threaded.py) on {ft['date']}: 3.14t is "
        f"`{ft['python'].split()[0]} free-threading`, the GIL build `{gil['python'].split()[0]}`; "
        f"{ft['cores']} cores; load average {ft['load_before']}–{ft['load_after']} during the 3.14t run, "
        f"{gil['load_before']}–{gil['load_after']} during the GIL build's. Wall-clock figures on a shared "
        "machine: the scaling of threads means something only at a load below the core count.",
        "",
        f"GIL after `import isojson` on 3.14t: {'on' if ft['gil_enabled'] else 'off'}.",
        "",
    ]
    for mode, title in (
        ("round_trips", "each thread its own document"),
        ("round_trips_shared", "all threads on one shared document"),
    ):
        if mode not in ft:
            continue
        lines += [
            f"## Round trips per second, `loads(dumps(doc))`, all threads together: {title}",
            "",
            "| document | library | build | 1 thread | 2 threads | 4 threads | 2 vs 1 | 4 vs 1 |",
            "|---|---|---|---:|---:|---:|---:|---:|",
        ]
        for key in ft[mode]:
            lib, name = key.split(":", 1)
            for label, run in (("3.14t", ft), ("GIL", gil)):
                rt = run.get(mode, {}).get(key)
                if rt is None:
                    continue
                lines.append(f"| {name} | {lib} | {label} | {_fmt_rate(rt['1'])} | {_fmt_rate(rt['2'])} | "
                             f"{_fmt_rate(rt['4'])} | {rt['2'] / rt['1']:.2f}× | {rt['4'] / rt['1']:.2f}× |")
        lines.append("")
    lines += [
        "",
        "## Per call, one thread (µs; the minimum over repeats of a batch's mean)",
        "",
        "The json columns are CPython's own json module timed the same way in the same processes: the "
        "ratio the two interpreter builds give code that is not isojson's (the GIL build is Debian's, "
        "made with PGO and LTO; the 3.14t without either: docs/free-threading.md).",
        "",
        "| document | loads 3.14t | loads GIL | ratio | json.loads ratio | dumps 3.14t | dumps GIL | ratio "
        "| json.dumps ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, f in ft["per_call"].items():
        g = gil["per_call"][name]
        jf, jg = ft.get("per_call_json", {}).get(name), gil.get("per_call_json", {}).get(name)
        jl = f"{jf['loads'] / jg['loads']:.2f}×" if jf and jg else "–"
        jd = f"{jf['dumps'] / jg['dumps']:.2f}×" if jf and jg else "–"
        lines.append(f"| {name} | {f['loads'] * 1e6:,.1f} | {g['loads'] * 1e6:,.1f} | {f['loads'] / g['loads']:.2f}× "
                     f"| {jl} | {f['dumps'] * 1e6:,.1f} | {g['dumps'] * 1e6:,.1f} | {f['dumps'] / g['dumps']:.2f}× "
                     f"| {jd} |")
    lines += ["", "Instructions per call under callgrind (steady under load), and what two threads contend for in CPU "
              "time (bench/python/ft_contention.py): bench/results/free-threaded-contention.md."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("out")
    m.add_argument("--quick", action="store_true")
    r = sub.add_parser("report")
    r.add_argument("ft")
    r.add_argument("gil")
    r.add_argument("out")
    a = ap.parse_args(argv)
    if a.cmd == "measure":
        res = measure(a.quick)
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
        print(f"free_threaded: {a.out} (load {res['load_before']}-{res['load_after']}, "
              f"GIL {'on' if res['gil_enabled'] else 'off'})")
    else:
        with open(a.ft, encoding="utf-8") as f:
            ft = json.load(f)
        with open(a.gil, encoding="utf-8") as f:
            gil = json.load(f)
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(report(ft, gil))
        print(f"free_threaded: {a.out}")


if __name__ == "__main__":
    main()

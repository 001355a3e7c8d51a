"""Markdown tables from the results dict that run_all.py builds (and stores as
bench/results/python.json), and the rewrite of the README's results section."""

import math
import os
import re

import firstcall
import machine
import percall
import rows

README_BEGIN = "<!-- bench:begin -->"
README_END = "<!-- bench:end -->"

MODE_LABELS = {
    "subinterpreters": "own-GIL sub-interpreters",
    "threads": "threads, one interpreter (GIL)",
    "processes": "processes (multiprocessing, spawn)",
}


def _size(doc: str) -> str:
    try:
        n = os.path.getsize(percall.corpus_path(doc))
    except OSError:
        return doc
    return f"{doc} ({n / 1024:.0f} KiB)" if n < 1 << 20 else f"{doc} ({n / (1 << 20):.1f} MiB)"


def _us(v: float) -> str:
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def _ratio(v: float, ref: float) -> str:
    return f"{v / ref:.2f}×" if ref > 0 else "–"


def _table(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    """align: one character per column, "l" or "r"."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def parallel_load(results: dict) -> float:
    """The load average while the parallel table was measured (its latest
    re-measurement, if any): the highest of the start and end readings."""
    m = results.get("machine", {})
    load = max(m.get("load_average", -1), results.get("load_average_end") or -1)
    for r in results.get("remeasured", []):
        if "parallel" in r["parts"]:
            load = max(r["load_average"], r.get("load_average_end") or -1)
    return load


def _percall_index(results: dict) -> dict:
    """(op, corpus document, library) -> timing, from the set's corpus rows."""
    idx = {}
    for e in results.get("rows", []):
        if e["group"] == "corpus":
            for lib, t in e["timings"].items():
                idx[(e["op"], e["row"].split("/", 1)[1], lib)] = t
    return idx


def percall_table(results: dict, op: str, compact: bool = False) -> list[str]:
    """Rows: libraries; columns: documents. Cell: min / median µs per call and
    min ÷ orjson's min (compact: min µs and the ratio only)."""
    idx = _percall_index(results)
    docs = [d for d in percall.CORPUS if any(k[0] == op and k[1] == d for k in idx)]
    libs = [lib for lib in results.get("libraries", []) if any(k[0] == op and k[2] == lib for k in idx)]
    rows = []
    for lib in libs:
        row = [f"**{lib}**" if lib == "isojson" else lib]
        for doc in docs:
            t, ref = idx.get((op, doc, lib)), idx.get((op, doc, "orjson"))
            if t is None:
                row.append("–")
                continue
            ratio = f" ({_ratio(t['min_us'], ref['min_us'])})" if ref else ""
            if compact:
                row.append(f"{_us(t['min_us'])}{ratio}")
            else:
                row.append(f"{_us(t['min_us'])} / {_us(t['median_us'])}{ratio}")
        rows.append(row)
    return _table(["library"] + [_size(d) for d in docs], rows, "l" + "r" * len(docs))


def _parallel_rates(results: dict) -> tuple[list, list, dict]:
    configs, workers, rates = [], [], {}
    for p in results.get("parallel", []):
        key = (p["library"], p["mode"])
        if key not in configs:
            configs.append(key)
        if p["workers"] not in workers:
            workers.append(p["workers"])
        rates[key + (p["workers"],)] = p
    return configs, sorted(workers), rates


def parallel_table(results: dict) -> list[str]:
    configs, workers, rates = _parallel_rates(results)
    rows = []
    for lib, mode in configs:
        row = [f"**{lib}**" if lib == "isojson" else lib, MODE_LABELS.get(mode, mode)]
        for n in workers:
            p = rates.get((lib, mode, n))
            row.append("–" if p is None else (f"failed: {p['error']}" if p.get("error") else f"{p['rate']:,.0f}"))
        first, last = rates.get((lib, mode, workers[0])), rates.get((lib, mode, workers[-1]))
        ok = first and last and not first.get("error") and not last.get("error") and first["rate"] > 0
        row.append(f"{last['rate'] / first['rate']:.2f}×" if ok else "–")
        rows.append(row)
    header = ["library", "workers run as"] + [f"{n} worker{'s' if n > 1 else ''}" for n in workers]
    header.append(f"{workers[-1]} vs {workers[0]}" if workers else "speed-up")
    return _table(header, rows, "ll" + "r" * (len(workers) + 1))


def threaded_table(results: dict) -> list[str]:
    groups = {}
    for p in results.get("threaded_loads", []):
        groups.setdefault((p["library"], p["doc"]), {})[p["workers"]] = p
    rows = []
    for (lib, doc), by_n in groups.items():
        ns = sorted(by_n)
        cells = [f"failed: {by_n[n]['error']}" if by_n[n].get("error") else f"{by_n[n]['rate']:,.0f}" for n in ns]
        a, b = by_n[ns[0]], by_n[ns[-1]]
        ok = not a.get("error") and not b.get("error") and a["rate"] > 0
        rows.append([f"**{lib}**" if lib == "isojson" else lib, _size(doc)] + cells
                    + [f"{b['rate'] / a['rate']:.2f}×" if ok else "–"])
    ns = sorted({p["workers"] for p in results.get("threaded_loads", [])})
    header = ["library", "document"] + [f"{n} thread{'s' if n > 1 else ''}" for n in ns] + ["speed-up"]
    return _table(header, rows, "ll" + "r" * (len(ns) + 1))


def backends_table(results: dict) -> list[str]:
    rows = []
    ref_row = None
    for name, r in results.get("backends", {}).items():
        if "error" in r:
            rows.append([f"isojson `{name}`"] + [f"failed: {r['error']}"] + [""] * (len(percall.CORPUS) - 1))
            continue
        by = {(t["doc"], t["library"]): t for t in r["timings"]}
        row = [f"isojson `{name}`"]
        ref = ["orjson"]
        for doc in percall.CORPUS:
            t, o = by.get((doc, "isojson")), by.get((doc, "orjson"))
            if t is None or o is None:
                row.append("–")
                ref.append("–")
                continue
            bad = " ⚠ differs" if r["problems"].get(doc) else ""
            row.append(f"{_us(min(t['samples']) * 1e6)} ({_ratio(min(t['samples']), min(o['samples']))}){bad}")
            ref.append(_us(min(o["samples"]) * 1e6))
        rows.append(row)
        if ref_row is None:
            ref_row = ref
    if ref_row:
        rows.append(ref_row)
    return _table(["loads, µs per call (×orjson)"] + [_size(d) for d in percall.CORPUS], rows,
                  "l" + "r" * len(percall.CORPUS))


def writers_table(results: dict) -> list[str]:
    """One line per row: min µs per dumps call of isojson with each writer
    (×orjson, measured beside it in the same process) and orjson's."""
    measured = {name: r for name, r in results.get("writers", {}).items() if "error" not in r}
    by_row = {}
    for name, r in measured.items():
        for e in r["rows"]:
            by_row.setdefault(e["row"], {})[name] = e
    out = []
    for row, per in by_row.items():
        first = next(iter(per.values()))
        cells = [f"`{row}`", rows.text_size(first["bytes"])]
        for name in measured:
            e = per.get(name)
            if e is None:
                cells.append("–")
                continue
            t, o = min(e["timings"]["isojson"]["samples"]), min(e["timings"]["orjson"]["samples"])
            cells.append(f"{_us(t * 1e6)} ({_ratio(t, o)})" + (" ⚠ differs" if e["problems"] else ""))
        # orjson's figure from the run of the first writer (each child times it again).
        cells.append(_us(min(first["timings"]["orjson"]["samples"]) * 1e6))
        out.append(cells)
    failed = [f"- `{name}` failed: {r['error']}" for name, r in results.get("writers", {}).items() if "error" in r]
    header = ["dumps, µs per call (×orjson)", "size"] + [f"isojson `{name}`" for name in measured] + ["orjson"]
    return _table(header, out, "lr" + "r" * (len(measured) + 1)) + ([""] + failed if failed else [])


def writers_markdown(results: dict) -> str:
    """bench/results/writers.md: the writers part of `make bench-py`."""
    m = results["machine"]
    st = results.get("settings", {})
    return "\n".join(
        ["# isojson: dumps per writer", "",
         f"Generated by `make bench-py` (`bench/python/run_all.py`, the writers part, `bench/python/writers.py`"
         f"{'; --quick' if st.get('quick') else ''}) on {machine.summary(m)}.", "",
         "Each writer (`ISOJSON_WRITER`) runs in a process of its own, where isojson's `dumps` and orjson's are "
         f"timed interleaved: min µs per call over {st.get('repeats', '?')} repeats, "
         f"{_CLOCKS.get(st.get('clock', 'cpu'), st.get('clock'))}; ×orjson is the min ÷ orjson's min in the same "
         "process (below 1 is faster). Every output is checked against orjson's bytes (⚠ where it differs). "
         "`fast` is the default writer; `reference` is the plain one that checks it, not meant to be fast."
         + (f" Load average {m['load_average']:.1f} at the start, {results.get('load_average_end') or 0:.1f} at the "
            f"end ({m.get('cores', '?')} cores)." if m.get("load_average", -1) >= 0 else ""), ""]
        + writers_table(results) + [""])


_CLOCKS = {"cpu": "CPU time of the process (`time.process_time`: counts isojson's Go threads too, "
                  "not the time other processes hold the CPUs)",
           "wall": "wall-clock time (`time.perf_counter`)"}


def _settings_line(results: dict) -> str:
    s = results.get("settings", {})
    m = results.get("machine", {})
    load = ""
    if m.get("load_average", -1) >= 0:
        end = results.get("load_average_end")
        load = (f" Load average {m['load_average']:.1f} at the start"
                + (f", {end:.1f} at the end" if end is not None else "")
                + f" ({m.get('cores', '?')} cores): wall-clock figures (parallel, threaded) are distorted "
                "when it exceeds the number of cores.")
    for r in results.get("remeasured", []):
        load += (f" Re-measured on {r['date']}: {', '.join(r['parts'])} (load average "
                 f"{r['load_average']:.1f} to {r.get('load_average_end') or 0:.1f}).")
    clock = _CLOCKS.get(s.get("clock", "wall"), s.get("clock"))
    return (f"Per call: {clock}, min / median over {s.get('repeats', '?')} timeit repeats, libraries interleaved; "
            f"parallel: best of up to {s.get('rounds', '?')} interleaved runs of {s.get('duration', '?')} s each "
            "(all runs in python.json)." + load)


# ---- the benchmark set ----------------------------------------------------------------------------------

GROUP_TITLES = {
    "fixed": "Fixed costs: the smallest calls",
    "api": "API messages, 50 B to 2 KB",
    "records": "Records",
    "list": "Lists of one kind of scalar",
    "nested": "Small containers",
    "text": "Text by script",
    "pretty": "Pretty-printed input",
    "big": "Big: one string of 1 MiB and 256 MiB, a document over 100 MiB",
    "corpus": "The corpus documents (testdata/corpus)",
    "types": "Python types and options (dumps)",
}
# Columns of the set's tables: orjson is the reference, json the baseline.
SET_COLUMNS = ("isojson", "orjson", "msgspec", "json", "ujson")


def set_libraries(results: dict, entries: list[dict] | None = None) -> list[str]:
    """The libraries measured on `entries` (default: every row), in column order."""
    entries = results.get("rows", []) if entries is None else entries
    present = {lib for e in entries for lib in list(e["timings"]) + list(e["unsupported"])}
    return [lib for lib in SET_COLUMNS if lib in present]


def _ratio_of(e: dict, lib: str) -> float | None:
    t, ref = e["timings"].get(lib), e["timings"].get("orjson")
    if t is None or ref is None or ref["min_us"] <= 0:
        return None
    return t["min_us"] / ref["min_us"]


def set_table(results: dict, entries: list[dict]) -> list[str]:
    """One line per (row, op): min µs per call of each library, and the
    ratios to orjson of isojson and msgspec."""
    libs = set_libraries(results, entries)
    rows_out = []
    for e in entries:
        cells = [f"`{e['row']}`", e["op"], rows.text_size(e["bytes"])]
        for lib in libs:
            t = e["timings"].get(lib)
            cells.append(_us(t["min_us"]) if t else "–")
        for lib in ("isojson", "msgspec"):
            r = _ratio_of(e, lib)
            mark = "**" if lib == "isojson" and r is not None and r > 1.0 else ""
            cells.append(f"{mark}{r:.2f}×{mark}" if r is not None else "–")
        if e["problems"]:
            cells[0] += " ⚠"
        rows_out.append(cells)
    header = ["row", "op", "size"] + [f"{lib} µs" for lib in libs] + ["isojson ×orjson", "msgspec ×orjson"]
    return _table(header, rows_out, "lll" + "r" * (len(libs) + 2))


def _groups(results: dict) -> dict[str, list[dict]]:
    out = {}
    for e in results.get("rows", []):
        out.setdefault(e["group"], []).append(e)
    return out


def _geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def set_summary(results: dict) -> list[str]:
    """Lines of prose: how many rows isojson is at or below orjson, the
    geometric means, the rows furthest behind."""
    out = []
    entries = results.get("rows", [])
    for op in ("loads", "dumps"):
        es = [e for e in entries if e["op"] == op]
        iso = [(e, r) for e in es if (r := _ratio_of(e, "isojson")) is not None]
        if not iso:
            continue
        ahead = sum(r <= 1.0 for _, r in iso)
        ms = [(e, r) for e, _ in iso if (r := _ratio_of(e, "msgspec")) is not None]
        vs_ms = sum(e["timings"]["isojson"]["min_us"] <= e["timings"]["msgspec"]["min_us"] for e, _ in ms)
        worst = sorted(iso, key=lambda x: -x[1])[:5]
        out.append(f"- `{op}`: isojson is at or below orjson's time on {ahead} of {len(iso)} rows and ahead of "
                   f"msgspec on {vs_ms} of {len(ms)}; geometric mean ×orjson: isojson "
                   f"{_geomean([r for _, r in iso]):.2f}×, msgspec {_geomean([r for _, r in ms]):.2f}×. "
                   "Furthest behind: " + ", ".join(f"`{e['row']}` {r:.2f}×" for e, r in worst if r > 1.0)
                   + ("." if any(r > 1.0 for _, r in worst) else "none."))
    bad = [e for e in entries if e["problems"]]
    if bad:
        out.append("- **isojson differs from orjson on:** " + "; ".join(
            f"`{e['row']}` {e['op']}: {', '.join(e['problems'])}" for e in bad))
    return out


def unsupported_notes(results: dict) -> list[str]:
    notes = {}
    for e in results.get("rows", []):
        for lib, why in e["unsupported"].items():
            notes.setdefault((lib, why.replace("|", "\\|")), []).append(f"`{e['row']}` {e['op']}")
    return [f"- {lib}: {why} ({', '.join(where)})" for (lib, why), where in notes.items()]


def firstcall_table(results: dict) -> list[str]:
    rows_out = []
    for f in results.get("firstcall", []):
        if "error" in f:
            rows_out.append([f["library"], f"failed: {f['error']}"] + [""] * 5)
            continue
        later = [f"{f[k]['min']:.2f}" if k in f else "–" for k in ("dumps_later_ms", "loads_later_ms")]
        rows_out.append([f"**{f['library']}**" if f["library"] == "isojson" else f["library"],
                         f"{f['import_ms']['min']:.2f}", f"{f['dumps_ms']['min']:.2f}", f"{f['loads_ms']['min']:.2f}",
                         *later, f"{f['rss_added_mb']['median']:.1f}", f"{f['rss_mb']['median']:.1f}",
                         f"{f['threads']['median']:.0f}"])
    return _table(["library", "import ms", "first dumps ms", "first loads ms", "later: first dumps ms",
                   "later: first loads ms", "RSS added MiB", "RSS MiB", "threads"], rows_out, "lrrrrrrrr")


def markdown(results: dict) -> str:
    m = results["machine"]
    st = results.get("settings", {})
    out = ["# isojson: Python benchmarks", "",
           f"Generated by `make bench` (`bench/python/run_all.py`{' --quick' if st.get('quick') else ''}) "
           f"on {machine.summary(m)}.", "",
           _settings_line(results) + " The machine is shared and noisy: compare rows measured together, "
           "not runs.", ""]
    if results.get("rows"):
        out += ["## The benchmark set: µs per call", "",
                "Every row of `bench/python/rows.py`, both ways where that makes sense; min µs per call over "
                f"{st.get('repeats', '?')} repeats ({st.get('big_repeats', '?')} single calls for the 256 MiB "
                "string and the 100 MiB document); ×orjson is the min ÷ orjson's min (below 1 is faster; "
                "isojson's in bold where it is above 1). ⚠: isojson's result differs from orjson's. "
                "How to count instructions per call of a row instead: `make bench-callgrind` "
                "([docs/performance.md](../../docs/performance.md)).", ""]
        out += set_summary(results) + ["", "![ratio to orjson per row](rows.png)", ""]
        for group, entries in _groups(results).items():
            out += [f"### {GROUP_TITLES.get(group, group)}", ""]
            out += set_table(results, entries) + [""]
        notes = unsupported_notes(results)
        if notes:
            out += ["Not measured (–):", ""] + notes + [""]
    if results.get("how"):
        out += ["How each library is called (all on bytes; str results encoded to UTF-8 bytes):", ""]
        out += [f"- {name}: `{how}`" for name, how in results["how"].items()] + [""]
    if results.get("firstcall"):
        n = next((f["runs"] for f in results["firstcall"] if "runs" in f), "?")
        out += ["## The first call in a fresh process", "",
                f"Wall-clock ms from `import` to the first `dumps` and the first `loads` of a small document, "
                f"min of {n} fresh processes; \"later\": the same first calls {firstcall.PAUSE_MS} ms after the "
                "import (a program that imports at its start and serves later); RSS (median) after the first "
                "loads, and added over the bare interpreter; threads of the process then. isojson's import "
                "starts its Go engine in the background, so a first call at once waits for it.", ""]
        out += firstcall_table(results) + [""]
    if results.get("parallel"):
        p = results.get("parallel_doc", {})
        out += ["## Parallel round trips per second (all workers together; higher is better)", "",
                f"One round trip: loads + dumps of a {p.get('records', 100)}-record document "
                f"({p.get('bytes', 0) / 1024:.0f} KiB), output compared byte for byte with the first. "
                f"This machine has {m['cores']} cores, so {m['cores']}× is the best possible speed-up; "
                "orjson, ujson and msgspec cannot be imported in own-GIL sub-interpreters.", ""]
        out += parallel_table(results) + ["", "![parallel round trips](parallel.png)", ""]
    if results.get("threaded_loads"):
        out += ["## Threaded loads of a large document (loads per second, all threads together)", "",
                "isojson releases the GIL while its Go engine parses inputs of 64 KiB and more; orjson "
                "holds it throughout.", ""]
        out += threaded_table(results) + [""]
    if results.get("backends"):
        out += ["## isojson loads per backend (`ISOJSON_BACKEND`, one process each) against orjson", ""]
        out += backends_table(results) + ["", "![loads per backend](backends.png)", ""]
    return "\n".join(out)


def readme_section(results: dict) -> str:
    """The short form for the README: the set's summary and chart, the corpus,
    the first call and the parallel table; the full tables are in python.md."""
    m = results["machine"]
    st = results.get("settings", {})
    clock = "CPU time of the process" if st.get("clock") == "cpu" else "wall-clock time"
    out = [f"Measured by `make bench` on {machine.summary(m)}; every row and the full tables in "
           "[bench/results/python.md](bench/results/python.md). Per call: "
           f"{clock}, min of {st.get('repeats', '?')} repeats, libraries interleaved; parallel: wall-clock, "
           f"best of up to {st.get('rounds', '?')} runs.", ""]
    for r in results.get("remeasured", []):
        out += [f"Re-measured on {r['date']}: {', '.join(r['parts'])} (load average {r['load_average']:.1f}).", ""]
    load = parallel_load(results)
    if load > (m.get("cores") or 1):
        out += [f"The machine was shared (load average {load:.1f} on {m['cores']} cores): "
                "the wall-clock tables (parallel, threads) are noisy.", ""]
    if results.get("rows"):
        n = len({e["row"] for e in results["rows"]})
        out += [f"The benchmark set: {n} rows (fixed costs, API messages of 50 B–2 KB, records, lists, text by "
                "script, pretty-printed input, big strings and a 100 MiB document, the corpus, Python types), "
                "both ways:", ""]
        out += set_summary(results) + ["", "![ratio to orjson per row](bench/results/rows.png)", ""]
    for op in ("loads", "dumps"):
        if any(k[0] == op for k in _percall_index(results)):
            out += [f"`{op}` of the corpus documents, µs per call (×orjson, below 1 is faster):", ""]
            out += percall_table(results, op, compact=True) + [""]
    if results.get("firstcall"):
        out += ["The first call in a fresh process (ms, wall clock; isojson starts its Go engine then):", ""]
        out += firstcall_table(results) + [""]
    if results.get("parallel"):
        out += ["Round trips per second of a 100-record document, all workers together "
                f"({m['cores']} cores):", ""]
        out += parallel_table(results) + [""]
    if results.get("threaded_loads"):
        out += ["`loads` of a large document per second in threads (isojson releases the GIL while Go "
                "parses inputs of 64 KiB and more):", ""]
        out += threaded_table(results) + [""]
    return "\n".join(out)


def rewrite_readme(path: str, section: str) -> bool:
    """Replaces what lies between the README markers with `section`. Returns
    False, changing nothing, when the markers are not there (in order)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return False
    pattern = re.compile(re.escape(README_BEGIN) + r".*?" + re.escape(README_END), re.S)
    if not pattern.search(text):
        return False
    new = pattern.sub(lambda _: f"{README_BEGIN}\n{section.strip()}\n{README_END}", text, count=1)
    if new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return True

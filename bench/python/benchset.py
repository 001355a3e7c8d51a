"""The benchmark set (rows.py) per call: every row, both ways, every library,
interleaved (percall.measure_calls), with isojson's results checked against
orjson's on the way.

One entry per (row, op) in the results ("rows" in python.json):

    {"row", "group", "op", "about", "bytes" (loads: input; dumps: orjson's output),
     "timings": {library: {"number", "min_us", "median_us", "samples_us"}},
     "unsupported": {library: why}, "problems": [isojson vs orjson]}
"""

import statistics
import time

import libraries
import percall
import rows


def libraries_for(row: rows.Row, libs: list) -> list:
    """The set's libraries, and ujson as well on the corpus rows."""
    return [lib for lib in libs
            if lib.name not in libraries.CORPUS_EXTRA_LIBRARIES or row.group == "corpus"]


def _same(a, b) -> bool:
    """a == b, with ints told from floats and -0.0 from 0.0 where orjson can
    write both (it cannot: ints beyond 64 bits, which isojson returns exactly)."""
    try:
        import orjson

        return orjson.dumps(a) == orjson.dumps(b)
    except (ImportError, TypeError):
        return a == b


def parity(op: str, iso_out, ref_out) -> list[str]:
    """isojson's result against orjson's: byte-identical dumps, equal loads."""
    if op == rows.DUMPS:
        return [] if iso_out == ref_out else ["dumps bytes differ from orjson"]
    return [] if _same(iso_out, ref_out) else ["loads result differs from orjson"]


def measure_row(row: rows.Row, op: str, libs: list, inst: rows.Instance, settings: dict) -> dict:
    calls, unsupported, problems = {}, {}, []
    outputs = {}
    size = len(inst.data) if op == rows.LOADS else 0
    # orjson first: its result is the reference for isojson's and the size of a dumps row.
    for lib in sorted(libs, key=lambda lib: lib.name != "orjson"):
        try:
            c = rows.call(row, op, lib, inst)
            out = c()  # the warm-up call: first-use caches, the lazy engine load
        except rows.Unsupported as e:
            unsupported[lib.name] = str(e)
            continue
        except Exception as e:  # a type the library cannot serialize, ...
            unsupported[lib.name] = f"{type(e).__name__}: {e}"[:160]
            continue
        if lib.name == "orjson" and op == rows.DUMPS:
            size = len(out)
        if lib.name in libraries.ORJSON_BYTES:
            outputs[lib.name] = out  # kept for the check only (the big rows' results are big)
        if not size and op == rows.DUMPS:
            size = len(out)
        del out
        calls[lib.name] = (c.fn, c.arg, c.kwargs)
    if "isojson" in outputs and "orjson" in outputs:
        problems = parity(op, outputs["isojson"], outputs["orjson"])
    del outputs
    if row.big:
        timed = percall.measure_calls(calls, settings["big_repeats"], 0, settings["clock"], number=1)
    else:
        timed = percall.measure_calls(calls, settings["repeats"], settings["sample_seconds"], settings["clock"])
    timings = {}
    for lib in libs:
        if lib.name in timed:
            n, samples = timed[lib.name]
            timings[lib.name] = {"number": n, "min_us": min(samples) * 1e6,
                                 "median_us": statistics.median(samples) * 1e6,
                                 "samples_us": [x * 1e6 for x in samples]}
    return {"row": row.name, "group": row.group, "op": op, "about": row.about, "bytes": size,
            "timings": timings, "unsupported": unsupported, "problems": problems}


def _line(e: dict) -> str:
    t = e["timings"]
    ref = t.get("orjson", {}).get("min_us")
    parts = []
    for name, v in t.items():
        ratio = f" ({v['min_us'] / ref:.2f}×)" if ref and name != "orjson" else ""
        parts.append(f"{name} {v['min_us']:.3g} µs{ratio}")
    parts += [f"{name} –" for name in e["unsupported"]]
    warn = f"  ⚠ {'; '.join(e['problems'])}" if e["problems"] else ""
    return f"  {e['op']} {e['row']} ({rows.text_size(e['bytes'])}): {', '.join(parts)}{warn}"


def run(selected: list[rows.Row], libs: list, settings: dict, log=print) -> list[dict]:
    out = []
    for row in selected:
        t = time.perf_counter()
        inst = row.instance()
        built = time.perf_counter() - t
        if built > 1:
            log(f"  ({row.name}: built in {built:.1f} s)")
        for op in row.ops:
            e = measure_row(row, op, libraries_for(row, libs), inst, settings)
            out.append(e)
            log(_line(e))
        del inst
    return out

"""The rows of issue 14 that the Go engine's changes address (docs/performance.md,
"Go engine: per-call costs"): thread-CPU time per call, the best of 7 runs, isojson
then orjson in the same process. A second opinion beside callgrind: on a shared
machine these times are noisy. Run with scripts/py bench/python/go_engine_rows.py.

Text rows use fresh str objects for each library: orjson.dumps stores a str's
UTF-8 form in it (PyUnicode_AsUTF8AndSize), after which both libraries copy that
instead of transcoding, so reused strings would measure orjson's cache.
"""

import json
import time

import orjson

import isojson


def best(f, arg, n, reps=7):
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        for _ in range(n):
            f(arg)
        times.append((time.process_time() - t0) / n * 1e6)
    return min(times)


def fresh(arg):
    """New str objects with the same text (no UTF-8 cache attached)."""
    if isinstance(arg, list) and arg and isinstance(arg[0], str):
        return [(x + "!")[:-1] for x in arg]
    return arg


records = [{"id": i, "name": "user%d" % i, "tags": ["a", "b"], "ok": True, "score": i * 0.5} for i in range(200)]
ROWS = [
    ("loads 1000 short Latin-1 str", "loads", orjson.dumps(["café%d" % i for i in range(1000)]), 300),
    ("loads records, indent 2", "loads", json.dumps(records, indent=2).encode(), 300),
    ("loads records, ', \\n' ends", "loads", json.dumps(records, indent=2).replace(",\n", ", \n").encode(), 300),
    ("loads records, tabs", "loads", json.dumps(records, indent="\t").encode(), 300),
    ("dumps 20000 small ints", "dumps", list(range(20000)), 100),
    ("dumps 20000 true/null", "dumps", [True, None] * 10000, 100),
    ("dumps 20000 []", "dumps", [[]] * 20000, 100),
    ("dumps 2000 Cyrillic str", "dumps", ["Съешь же ещё этих мягких французских булок"] * 2000, 100),
    ("dumps 2000 Latin-1 str", "dumps", ["café crème brûlée à la mode"] * 2000, 100),
    ("dumps 2000 Greek str", "dumps", ["Ξεσκεπάζω την ψυχοφθόρα βδελυγμία"] * 2000, 100),
]


def main():
    for name, op, arg, n in ROWS:
        fi, fo = getattr(isojson, op), getattr(orjson, op)
        ai, ao = fresh(arg), fresh(arg)
        assert fi(fresh(arg)) == fo(fresh(arg)), name
        a, b = best(fi, ai, n), best(fo, ao, n)
        print(f"{name:32s} isojson {a:8.1f} us  orjson {b:8.1f} us  {a / b:5.2f}x", flush=True)


if __name__ == "__main__":
    main()

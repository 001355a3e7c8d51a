"""The work each parallel worker does, wherever it runs.

The same function, run_worker, runs in an own-GIL sub-interpreter, in a thread
of the main interpreter, or in a child process; only the queues differ (all
three kinds have put/get). It imports nothing but the standard library and
libraries.py, so that strict sub-interpreters can import it.

Protocol, so that every worker starts at the same instant and process or
interpreter start-up is never measured:

    worker: set up, check the library's results  -> ready.put((id, "ok" | error))
    main:   when all are ready                   -> start.put((t0, deadline)) per worker
    worker: sleep until t0, loop until deadline  -> results.put((id, calls, errors, error))

t0 and deadline are time.perf_counter() values (CLOCK_MONOTONIC, the same
clock in every thread, interpreter and process of the machine).
"""

import json
import time

import libraries

# Kinds of work.
ROUNDTRIP = "roundtrip"  # loads + dumps of the records document; payload: number of records
LOADS = "loads"  # loads of a file; payload: its path

_NAMES = ("Ada Lovelace", "Grace Hopper", "Édouard Lucas", "Sofia Kovalevskaya", "Alan Turing",
          "Emmy Noether", "Srinivasa Ramanujan", "Hedy Lamarr", "Kurt Gödel", "Ōshima Hiroshi")
_CITIES = ("Paris", "Zürich", "Kraków", "São Paulo", "東京", "Reykjavík", "Cape Town", "Montréal")
_TAGS = ("admin", "beta", "café", "ops", "dev", "sales", "support", "→ vip")


def make_document(records: int = 100) -> dict:
    """A deterministic document of `records` user records: the mix of keys,
    short and non-ASCII strings, ints, floats, booleans, nulls, nested objects
    and arrays that a web API returns. Floats are chosen so that every library
    prints them the same way (shortest repr, no exponent)."""
    rows = []
    for i in range(records):
        rows.append({
            "id": 100000 + i,
            "uuid": f"{i * 2654435761 % 2**32:08x}-4c2d-4e1f-9a3b-{i * 7919 % 10**12:012d}",
            "name": f"{_NAMES[i % len(_NAMES)]} {i}",
            "email": f"user{i}@example.org",
            "active": i % 3 != 0,
            "score": round(i * 1.37 % 100, 2),
            "balance": round(i * 1234.5 - 40000, 1),
            "tags": [_TAGS[(i + k) % len(_TAGS)] for k in range(i % 4 + 1)],
            "address": {
                "street": f"{i + 1} Rue de l'Église",
                "city": _CITIES[i % len(_CITIES)],
                "zip": f"{10000 + i * 37:05d}",
                "geo": {"lat": round(48.85 + i * 0.0013, 4), "lon": round(2.35 - i * 0.0021, 4)},
            },
            "note": None if i % 5 else "naïve café — “quoted” ✓",
            "history": [{"t": 1700000000 + i * 3600 + k, "v": k * 0.25} for k in range(3)],
        })
    return {"version": 1, "count": records, "records": rows}


def document_bytes(records: int = 100) -> bytes:
    """make_document as compact UTF-8 JSON: the bytes orjson.dumps produces
    for it (checked by run_all and the tests)."""
    return json.dumps(make_document(records), ensure_ascii=False, separators=(",", ":")).encode()


class CheckFailed(Exception):
    pass


def _prepare(lib_name: str, kind: str, payload):
    """Loads the library, checks its results on the workload and returns the
    function one call of the loop runs and the result every call must give."""
    lib = libraries.load(lib_name)
    loads, dumps = lib.loads, lib.dumps
    if kind == ROUNDTRIP:
        doc = make_document(payload)
        data = document_bytes(payload)
        if loads(data) != doc:
            raise CheckFailed(f"{lib_name}.loads gave a different document")
        first = dumps(doc)
        if loads(first) != doc:
            raise CheckFailed(f"{lib_name}.dumps output does not load back to the document")
        if lib_name in libraries.ORJSON_BYTES and first != data:
            raise CheckFailed(f"{lib_name}.dumps output differs from orjson's bytes")

        def call():
            return dumps(loads(data))

        return call, first
    if kind == LOADS:
        with open(payload, "rb") as f:
            data = f.read()
        expected = json.loads(data)
        if loads(data) != expected:
            raise CheckFailed(f"{lib_name}.loads({payload}) differs from json.loads")

        def call():
            return loads(data)

        return call, expected
    raise ValueError(f"unknown kind of work {kind!r}")


def run_worker(lib_name, kind, worker_id, payload, ready, start, results):
    """One worker; see the module docstring. Never raises: failures are
    reported through the queues so that the main side never waits forever."""
    try:
        call, expected = _prepare(lib_name, kind, payload)
    except BaseException as e:  # ImportError in a sub-interpreter, a failed check, ...
        ready.put((worker_id, f"{type(e).__name__}: {e}"))
        return
    ready.put((worker_id, "ok"))
    t0, deadline = start.get()
    if t0 < 0:  # another worker failed: nothing to measure
        return
    calls = errors = 0
    try:
        wait = t0 - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        clock = time.perf_counter
        if kind == ROUNDTRIP:
            # Comparing the bytes is a memcmp of ~25 KB: checking every round
            # trip costs well under 1% of it.
            while True:
                if call() != expected:
                    errors += 1
                calls += 1
                if clock() >= deadline:
                    break
        else:
            # Comparing a whole parsed document would cost as much as parsing
            # it: check the last result only.
            while True:
                out = call()
                calls += 1
                if clock() >= deadline:
                    break
            if out != expected:
                errors += 1
        results.put((worker_id, calls, errors, ""))
    except BaseException as e:
        results.put((worker_id, calls, errors, f"{type(e).__name__}: {e}"))

"""No leaks: resident memory after 1,000,000 small round trips (and after
many failing calls) stays within 10 MB of what it was after a warm-up. In a
child process, so that nothing of the rest of the suite is measured."""

import _util

MEASURE = """
import gc, importlib, os, sys
mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
PAGE = os.sysconf("SC_PAGE_SIZE")


def resident():
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def run(n):
{body}

run({warmup})
before = resident()
run({n})
after = resident()
print(before, after, flush=True)
"""

ROUND_TRIPS = """
    doc = {"id": 12345, "name": "caf\\u00e9", "tags": ["a", "b\\U0001F600"], "score": 0.1, "ok": True, "none": None}
    dumps, loads = mod.dumps, mod.loads
    for i in range(n):
        if loads(dumps(doc)) != doc:
            raise AssertionError(f"round trip {i} differs")
"""

FAILURES_AND_OPTIONS = """
    class Opaque:
        pass
    def bad_default(obj):
        raise ValueError("no")
    doc = {"k": [1, 2.5, "s" * 40], "n": {"x": None}}
    for i in range(n):
        mod.loads(mod.dumps(doc, option=mod.OPT_INDENT_2 | mod.OPT_SORT_KEYS).decode())
        mod.dumps([Opaque(), {1, 2}], default=lambda o: sorted(o) if isinstance(o, set) else str(type(o)))
        mod.loads(memoryview(b'{"a": [1, "\\\\u00e9", 2.5e10]}'))
        for call in (lambda: mod.loads(b'{"a": [1, 2'), lambda: mod.loads('[1, "\\\\ud800"]'),
                     lambda: mod.dumps([Opaque()], default=bad_default), lambda: mod.dumps({1: 2}),
                     lambda: mod.dumps("\\ud800"), lambda: mod.loads(b"[" * 2000)):
            try:
                call()
            except (TypeError, ValueError):
                pass
            else:
                raise AssertionError("an invalid call succeeded")
"""


def _growth(body, warmup, n):
    out = _util.run_python(MEASURE.format(body=body, warmup=warmup, n=n), 600)
    before, after = map(int, out.split())
    return after - before


def test_one_million_small_round_trips():
    growth = _growth(ROUND_TRIPS, 100_000, 1_000_000)
    assert growth < 10 * 2**20, f"resident memory grew by {growth / 2**20:.1f} MB"


def test_failing_calls_and_options():
    growth = _growth(FAILURES_AND_OPTIONS, 10_000, 100_000)
    assert growth < 10 * 2**20, f"resident memory grew by {growth / 2**20:.1f} MB"

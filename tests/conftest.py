"""The suite runs on CPython 3.14 against isojson (or ISOJSON_TEST_MODULE,
see _util.py). A wrong interpreter or a missing module fails the run: the
suite never skips for either."""

import os
import sys

if sys.version_info[:2] < (3, 14):
    raise RuntimeError(f"the isojson suite needs CPython 3.14, this is {sys.version.split()[0]}")

# scripts/venv-test runs the suite on isojson installed into a venv (ISOJSON_TEST_INSTALLED names
# it): the module under test must be that copy, never one from a source tree.
_venv = os.environ.get("ISOJSON_TEST_INSTALLED")
if _venv:
    import isojson as _installed
    _where = os.path.realpath(_installed.__file__)
    if not _where.startswith(os.path.realpath(_venv) + os.sep):
        raise RuntimeError(f"the suite must test the isojson installed in {_venv}, and imported {_where}")


def pytest_report_header(config):
    try:
        import _util
    except ImportError as e:  # every test file fails to collect for the same reason
        return f"module under test cannot be imported: {e}"
    mod = _util.isojson
    return (f"module under test: {_util.MODULE_NAME} from {getattr(mod, '__file__', '?')}; "
            f"backend {getattr(mod, 'backend', '?')} of {getattr(mod, 'backends', '?')}, "
            f"writer {getattr(mod, 'writer', '?')} of {getattr(mod, 'writers', '?')}")


# ISOJSON_TEST_SAMPLE=F (0 < F <= 1) runs a stable sample of the parametrized cases: every test
# function that is not parametrized runs, and of each parametrized one the cases whose hash falls
# below F, and always at least one (its case of least hash). The hash (SHA-256 of "FILE::NAME[ID]",
# no directory) depends only on the case, so a sample is the same on every run and machine, and a
# case that fails there fails again. The bounded parts of make test (the debug interpreter, the
# sanitizers) run every test file this way; the full suite is F = 1 (the default: nothing left out).
def _sample_fraction():
    raw = os.environ.get("ISOJSON_TEST_SAMPLE", "")
    if not raw:
        return 1.0
    f = float(raw)
    if not 0 < f <= 1:
        raise RuntimeError(f"ISOJSON_TEST_SAMPLE must be in (0, 1], not {raw!r}")
    return f


def _case_hash(item):
    import hashlib
    key = f"{os.path.basename(str(item.path))}::{item.name}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64


# ISOJSON_TEST_SHARD=K/N runs shard K (1..N) of the suite: the tests whose hash (the same as the
# sample's, but of every test, parametrized or not) falls in the K-th of N equal slices. The N shards
# together are the whole suite, each test in exactly one, the same on every run and machine, so a
# suite too slow for one sitting (the aarch64 one under emulation: make test-arm64 ARM64_SHARD=K/N)
# can run as N runs, side by side or one after another. Applied after the sample, if both are given.
def _shard():
    raw = os.environ.get("ISOJSON_TEST_SHARD", "")
    if not raw:
        return None
    try:
        k, n = (int(x) for x in raw.split("/"))
    except ValueError:
        raise RuntimeError(f"ISOJSON_TEST_SHARD must be K/N (e.g. 1/4), not {raw!r}") from None
    if not 1 <= k <= n:
        raise RuntimeError(f"ISOJSON_TEST_SHARD={raw!r}: K must be between 1 and N")
    return k, n


def _in_shard(item, k, n):
    return int(_case_hash(item) * n) == k - 1


def pytest_collection_modifyitems(config, items):
    _sample_items(config, items)
    shard = _shard()
    config._isojson_shard = None
    if shard is None:
        return
    k, n = shard
    drop = [i for i in items if not _in_shard(i, k, n)]
    config._isojson_shard = (k, n, len(items) - len(drop), len(items))
    config.hook.pytest_deselected(items=drop)
    items[:] = [i for i in items if _in_shard(i, k, n)]


def _sample_items(config, items):
    fraction = _sample_fraction()
    config._isojson_sample = None
    if fraction >= 1:
        return
    groups = {}
    for item in items:
        if getattr(item, "callspec", None) is not None:
            groups.setdefault((str(item.path), item.originalname), []).append(item)
    drop = set()
    for cases in groups.values():
        hashes = {id(c): _case_hash(c) for c in cases}
        least = min(cases, key=lambda c: hashes[id(c)])
        drop.update(id(c) for c in cases if c is not least and hashes[id(c)] >= fraction)
    kept = [i for i in items if id(i) not in drop]
    config.hook.pytest_deselected(items=[i for i in items if id(i) in drop])
    config._isojson_sample = (fraction, sum(map(len, groups.values())) - len(drop), sum(map(len, groups.values())))
    items[:] = kept


def pytest_report_collectionfinish(config, start_path, items):
    lines = []
    sh = getattr(config, "_isojson_shard", None)
    if sh:
        lines.append(f"ISOJSON_TEST_SHARD={sh[0]}/{sh[1]}: {sh[2]} of {sh[3]} tests in this shard")
    s = getattr(config, "_isojson_sample", None)
    if s:
        lines.append(f"ISOJSON_TEST_SAMPLE={s[0]:g}: {s[1]} of {s[2]} parametrized cases kept "
                     f"(every test file and unparametrized test, each parametrized test at least once)")
    return lines

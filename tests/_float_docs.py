"""Float-heavy documents for test_floats_concurrency, built from a seed the
same way in every interpreter (nothing is pickled across), and the digests of
a module's dumps of them. Importable in sub-interpreters: builtins only."""

import hashlib
import importlib
import math
import random
import struct

# Values the amd64 float kernel hands to the portable path behind its jump
# (zeros, subnormals, powers of two, exact ties), and layout boundaries.
FALLBACK = [0.0, -0.0, 5e-324, 0.5, 1024.0, 2.0**-1022, 0.3, 1e23, 8.41e21, 9007199254740993.0, 1e16, 1e17,
            9.999999999999999e15, 1e-5, 1e-6, 123456789012345680.0, -1.7976931348623157e308]


def _float(r):
    k = r.randrange(10)
    if k == 0:
        return r.choice(FALLBACK)
    if k < 4:
        while True:  # random bits
            f = struct.unpack("<d", r.getrandbits(64).to_bytes(8, "little"))[0]
            if math.isfinite(f):
                return f
    if k < 6:
        return r.randrange(1000000) / 100
    if k == 6:
        return struct.unpack("<d", r.getrandbits(52).to_bytes(8, "little"))[0]  # a subnormal
    return (r.random() - 0.5) * 10.0 ** r.randrange(-8, 20)


def document(seed):
    """Long runs (past the writer's 1024-float chunk), coordinate pairs,
    floats in objects, or rows of a matrix."""
    r = random.Random(seed)
    shape = seed % 4
    if shape == 0:
        return [_float(r) for _ in range(r.randrange(1, 5000))]
    if shape == 1:
        return {"type": "Polygon",
                "coordinates": [[[_float(r), _float(r)] for _ in range(r.randrange(50))] for _ in range(r.randrange(1, 40))]}
    if shape == 2:
        return [{"x": _float(r), "y": [_float(r), 1, _float(r)], "z": None} for _ in range(r.randrange(200))]
    return [[_float(r) for _ in range(r.randrange(30))] for _ in range(r.randrange(100))]


def digests(modname, seeds, rounds=1):
    """sha256 of modname.dumps of each seed's document; raises if a round
    differs from the one before (a race)."""
    mod = importlib.import_module(modname)
    docs = [document(s) for s in seeds]
    out = None
    for _ in range(rounds):
        cur = [hashlib.sha256(mod.dumps(d)).hexdigest() for d in docs]
        if out is not None and cur != out:
            raise AssertionError("dumps output changed between rounds")
        out = cur
    return out

"""Shared helpers of the isojson test suite: the module under test, the orjson
oracle, seeded document generators and the comparisons every parity test uses.

The module under test is `isojson`. ISOJSON_TEST_MODULE names another module
to run the suite against instead (`orjson` to validate the parity harness,
`_json_adapter` — the stdlib json behind isojson's signatures — for the
sub-interpreter, fork and memory harnesses, which orjson cannot run). A module
that fails to import is a failure of every test file, never a skip.
"""

import importlib
import json
import math
import os
import random
import re
import signal
import struct
import subprocess
import sys
import sysconfig
import textwrap

# Free-threaded CPython (3.14t): orjson and numpy have no cp314t build here. Tests that compare with
# orjson skip there, saying so (they run in the GIL build, make test's test-py); byte parity on 3.14t
# is checked against golden bytes orjson wrote in the GIL build (tests/test_free_threaded.py).
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
NO_ORJSON = ("orjson has no free-threaded (cp314t) build: this comparison with it runs in the GIL build "
             "(make test's test-py); on 3.14t parity is checked against orjson's golden bytes "
             "(tests/test_free_threaded.py)")
NO_NUMPY = "numpy has no free-threaded (cp314t) build here: the numpy tests run in the GIL build (test-py)"


class _NoOrjson:
    """orjson's stand-in on 3.14t: its option constants are isojson's (equal by design: tests
    combine them into options), and anything else it is asked for skips the test asking."""

    def __getattr__(self, name):
        if name.startswith("OPT_"):
            return getattr(isojson, name)
        import pytest

        pytest.skip(NO_ORJSON, allow_module_level=True)


def import_numpy():
    """numpy; on 3.14t, where it cannot be had, a skip of the calling test module saying why."""
    if FREE_THREADED:
        import pytest

        return pytest.importorskip("numpy", reason=NO_NUMPY)
    import numpy

    return numpy


try:
    import orjson
except ImportError:
    if not FREE_THREADED:
        raise
    orjson = _NoOrjson()

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(TESTS_DIR)
TESTDATA = os.path.join(REPO_DIR, "testdata")
SUITE_DIR = os.path.join(TESTDATA, "JSONTestSuite", "test_parsing")
CORPUS_DIR = os.path.join(TESTDATA, "corpus")

# Deadlines (a child process's timeout, a thread's join) are written for native speed. Under
# emulation (the arm64 suite runs under qemu-user, 20-60x slower: scripts/py-arm64 sets it)
# ISOJSON_TEST_TIME_SCALE multiplies every one of them, through scaled(). A deadline only bounds a
# hang: no assertion is on a time, so the scale makes no test pass that would otherwise fail.
TIME_SCALE = float(os.environ.get("ISOJSON_TEST_TIME_SCALE") or 1)


def scaled(seconds):
    """A deadline of `seconds` at native speed, as long as it must be here."""
    return seconds * TIME_SCALE


# ISOJSON_TEST_SAMPLE=F (tests/conftest.py: the stable sample of parametrized cases the bounded parts of
# make test run) scales the iterations of the heaviest loops too, through sampled(); 1 (everything) when
# unset.
SAMPLE = float(os.environ.get("ISOJSON_TEST_SAMPLE") or 1)


def sampled(n, least=1):
    """n iterations of a full run, as many as a sampled run makes: n * SAMPLE, at least least (n if
    that is less)."""
    return n if SAMPLE >= 1 else min(n, max(least, round(n * SAMPLE)))


def sampled_spread(seq, least=1):
    """The items of seq a sampled run takes: every one in a full run, else about sampled(len(seq),
    least) of them evenly spread, the first and the last always among them (the smallest and the
    largest case of a sweep)."""
    seq = list(seq)
    k = sampled(len(seq), least)
    if k >= len(seq) or len(seq) < 2:
        return seq
    step = max(1, (len(seq) - 1) // max(1, k - 1))
    picked = seq[::step]
    return picked if picked[-1] == seq[-1] else picked + [seq[-1]]


# Thread stacks a test gives its threads (256 KiB where 1024 levels of nesting must fit) are sized for
# the release build. The sanitizer build's frames are several times larger (ASan's redzones, -O1):
# ISOJSON_TEST_STACK_SCALE (make test's asan part sets 4) multiplies those sizes, through
# stack_scaled(). The smallest stack an interpreter accepts is never scaled: there a test checks
# that dumps raises instead of overflowing, which holds at any frame size.
STACK_SCALE = float(os.environ.get("ISOJSON_TEST_STACK_SCALE") or 1)


def stack_scaled(size):
    """A thread stack of `size` bytes in a release build, as large as it must be here (whole pages)."""
    return -(-int(size * STACK_SCALE) // 4096) * 4096


MODULE_NAME = os.environ.get("ISOJSON_TEST_MODULE", "isojson")
# Raises ImportError (a collection error: the run fails) when the module is missing.
isojson = importlib.import_module(MODULE_NAME)

# The reference whose output a sub-interpreter, fork or thread result must
# equal byte for byte: orjson, except when the harness itself is validated
# with a module orjson does not imitate (the stdlib adapter).
REFERENCE = isojson if MODULE_NAME == "_json_adapter" else orjson

# True when the module under test is isojson (or a stand-in that claims its
# extensions over orjson). orjson itself raises on ints beyond 64 bits and
# returns floats for them in loads; isojson writes and returns them exactly.
EXACT_BIG_INTS = MODULE_NAME != "orjson"

# orjson's options the writer must honour, in the order of their bits.
OUTPUT_OPTIONS = (
    ("INDENT_2", orjson.OPT_INDENT_2),
    ("SORT_KEYS", orjson.OPT_SORT_KEYS),
    ("APPEND_NEWLINE", orjson.OPT_APPEND_NEWLINE),
    ("PASSTHROUGH_SUBCLASS", orjson.OPT_PASSTHROUGH_SUBCLASS),
    ("STRICT_INTEGER", orjson.OPT_STRICT_INTEGER),
    ("NON_STR_KEYS", orjson.OPT_NON_STR_KEYS),
)


def option_combinations():
    """Every combination of OUTPUT_OPTIONS as (readable id, option int)."""
    out = []
    for mask in range(1 << len(OUTPUT_OPTIONS)):
        names, opt = [], 0
        for i, (name, bit) in enumerate(OUTPUT_OPTIONS):
            if mask >> i & 1:
                names.append(name)
                opt |= bit
        out.append(("|".join(names) or "none", opt))
    return out


# ---------------------------------------------------------------------------
# Subclasses of the builtins (orjson serializes the str/int/dict/list ones
# unless OPT_PASSTHROUGH_SUBCLASS; never the float and tuple ones).


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyDict(dict):
    pass


class MyList(list):
    pass


class MyTuple(tuple):
    pass


def default(obj):
    """A deterministic default= callback for every type the generators emit
    that orjson does not serialize itself (or passes through)."""
    if isinstance(obj, MyFloat):
        return float(obj)
    if isinstance(obj, MyTuple):
        return ["MyTuple", *obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, MyStr):
        return "MyStr:" + obj
    if isinstance(obj, MyInt):
        return {"MyInt": int(obj)}
    if isinstance(obj, MyDict):
        return {"MyDict": dict(obj)}
    if isinstance(obj, MyList):
        return ["MyList", *obj]
    raise TypeError(f"default() cannot handle {type(obj).__name__}")


# ---------------------------------------------------------------------------
# Seeded generators.

INT64_MIN, INT64_MAX, UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1
INT_EDGES = (
    0, 1, -1, 9, 10, 99, 100, 255, 256, -128, -129, 32767, -32768, 65535, 65536,
    (1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 31) - 1, (1 << 32) - 1, 1 << 32,
    (1 << 53) - 1, 1 << 53, (1 << 53) + 1, -(1 << 53), -(1 << 53) + 1, -(1 << 53) - 1,
    10**15, 10**16, 10**17, 10**18, 10**19 - 1, 10**19, -(10**18),
    INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, 1 << 63, UINT64_MAX, UINT64_MAX - 1,
)
BIG_INT_EDGES = (
    UINT64_MAX + 1, INT64_MIN - 1, 10**20, -(10**20), 1 << 64, -(1 << 64), 1 << 100, -(1 << 127),
    10**40 + 7, -(10**80) - 3, 3**200,
)
FLOAT_EDGES = (
    0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e-7, 1e-6, 1e-5, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23,
    123456789.0, 9007199254740993.0, 9007199254740992.0, 4503599627370496.5, 1.5e300, 1e308,
    1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308, 2.2250738585072009e-308,
    4.9406564584124654e-324, 5e-324, -5e-324, 1e-323, 2.5e-323, math.pi, math.e, 100.0, 1e100,
    float("inf"), float("-inf"), float("nan"), -float("nan"), 0.5, 3.0e-5, 12345.678, 1.0e-10,
)
ESCAPE_CHARS = '"\\/\b\f\n\r\t\x7f\u2028\u2029'
PLAIN_ASCII = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) not in '"\\')


class Gen:
    """Seeded random values. Every method draws only from self.rng, so the
    same seed yields the same documents on every run and machine."""

    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)

    # -- scalars ----------------------------------------------------------

    def _between(self, lo, hi):
        """randint(lo, hi) for small ranges, several times faster."""
        return lo + int(self.rng.random() * (hi - lo + 1))

    def char(self):
        r = self.rng.random()
        if r < 0.45:
            return chr(self._between(0x20, 0x7E))
        if r < 0.55:
            return chr(self._between(0x00, 0x1F))
        if r < 0.62:
            return self.rng.choice(ESCAPE_CHARS)
        if r < 0.72:
            return chr(self._between(0x80, 0x7FF))
        if r < 0.85:  # the BMP above U+0800, surrogates excluded
            c = self._between(0x800, 0xFFFD - 0x800)
            return chr(c + 0x800 if c >= 0xD800 else c)
        return chr(self._between(0x10000, 0x10FFFF))

    def chars(self, n):
        return "".join([self.char() for _ in range(n)])

    def text(self, max_len=24):
        r = self.rng.random()
        if r < 0.1:
            return ""
        if r < 0.35:  # long plain ASCII runs exercise 8-byte-at-a-time scanning
            return "".join(self.rng.choices(PLAIN_ASCII, k=self._between(1, 200)))
        if r < 0.45:  # one kind of character only: ASCII-only, Latin-1, BMP or astral strings
            lo, hi = self.rng.choice(((0x20, 0x7E), (0xA0, 0xFF), (0x4E00, 0x9FFF), (0x1F300, 0x1F64F)))
            return "".join(map(chr, self.rng.choices(range(lo, hi + 1), k=self._between(1, 70))))
        return self.chars(self._between(1, max_len))

    def integer(self, big=False):
        r = self.rng.random()
        if big and r < 0.3:
            return self.rng.choice(BIG_INT_EDGES) if r < 0.15 else self.rng.choice((1, -1)) * self.rng.randint(
                UINT64_MAX + 1, 1 << self.rng.randint(65, 400))
        if r < 0.4:
            return self.rng.choice(INT_EDGES)
        if r < 0.7:
            return self._between(-1000, 1000)
        return self.rng.randint(INT64_MIN, UINT64_MAX) >> self.rng.randint(0, 63)

    def float_(self):
        r = self.rng.random()
        if r < 0.25:
            return self.rng.choice(FLOAT_EDGES)
        if r < 0.55:  # any bit pattern: normals of every exponent, subnormals, NaN payloads, infinities
            return struct.unpack("<d", self.rng.getrandbits(64).to_bytes(8, "little"))[0]
        if r < 0.65:  # subnormal
            bits = self.rng.getrandbits(52) | (self.rng.getrandbits(1) << 63)
            return struct.unpack("<d", bits.to_bytes(8, "little"))[0]
        if r < 0.85:  # short decimals, as people write them
            return round(self.rng.uniform(-1e6, 1e6), self.rng.randint(0, 8))
        return float(self.rng.randint(-(1 << 60), 1 << 60))

    def scalar(self, big=False):
        r = self.rng.random()
        if r < 0.3:
            return self.text()
        if r < 0.55:
            return self.integer(big)
        if r < 0.8:
            return self.float_()
        return self.rng.choice((None, True, False))

    # -- documents ----------------------------------------------------------

    def value(self, depth=4, *, subclasses=False, unsupported=False, big=False, nonstr_keys=False):
        """A random JSON-ish value. subclasses: str/int/dict/list subclasses
        (orjson serializes them unless OPT_PASSTHROUGH_SUBCLASS);
        unsupported: float/tuple subclasses and sets (need default=);
        big: ints beyond 64 bits; nonstr_keys: int/float/bool/None and str
        subclass dict keys (need OPT_NON_STR_KEYS)."""
        kw = dict(subclasses=subclasses, unsupported=unsupported, big=big, nonstr_keys=nonstr_keys)
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            v = self.scalar(big)
            if subclasses and self.rng.random() < 0.15:
                if isinstance(v, str):
                    v = MyStr(v)
                elif type(v) is int and INT64_MIN <= v <= UINT64_MAX:
                    v = MyInt(v)
            if unsupported and self.rng.random() < 0.1:
                v = self.rng.choice((MyFloat(self.float_()), {self.integer(), self.integer()}))
            return v
        n = self._between(0, 8)
        if r < 0.65:
            items = [self.value(depth - 1, **kw) for _ in range(n)]
            if unsupported and self.rng.random() < 0.1:
                return MyTuple(items)
            if self.rng.random() < 0.2:
                return tuple(items)
            if subclasses and self.rng.random() < 0.2:
                return MyList(items)
            return items
        d = {}
        for _ in range(n):
            d[self.key(nonstr_keys, subclasses)] = self.value(depth - 1, **kw)
        if subclasses and self.rng.random() < 0.2:
            return MyDict(d)
        return d

    def key(self, nonstr=False, subclasses=False):
        if nonstr and self.rng.random() < 0.5:
            k = self.rng.choice((
                self.integer(), self.integer(), self.float_(), self.float_(), True, False, None,
                MyStr(self.text(8)), MyInt(self.rng.randint(-99, 99)),
            ))
            return k
        if self.rng.random() < 0.3:  # short keys repeat: the parsers' key caches see hits
            return self.rng.choice(("id", "name", "a", "b", "", "x" * 16, "ключ", "\U0001F600"))
        return self.text(12)

    def document(self, kind, depth=4):
        """One document of a named kind (see DOC_KINDS)."""
        flags = DOC_KINDS[kind]
        v = self.value(depth, **flags)
        if self.rng.random() < 0.8:  # mostly containers at the top, like real documents
            v = [v, self.value(depth, **flags)] if self.rng.random() < 0.5 else {"root": v}
        return v


DOC_KINDS = {
    "plain": dict(),
    "subclasses": dict(subclasses=True),
    "unsupported": dict(unsupported=True, subclasses=True),
    "big_ints": dict(big=True),
    "nonstr_keys": dict(nonstr_keys=True, subclasses=True),
}


def nested(depth, leaf=None):
    """A list nested `depth` deep around leaf, built without recursion."""
    v = [] if leaf is None else [leaf]
    for _ in range(depth - 1):
        v = [v]
    return v


# ---------------------------------------------------------------------------
# Hypothesis strategies (derandomized in the tests: the same examples on
# every run), for shrinking a failure to a small example.


def hypothesis_values(big_ints=True):
    from hypothesis import strategies as st
    text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
    ints = st.integers() if big_ints else st.integers(min_value=INT64_MIN, max_value=UINT64_MAX)
    scalars = st.none() | st.booleans() | ints | st.floats() | text
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=6) | st.dictionaries(text, children, max_size=6)
        | st.lists(children, max_size=4).map(tuple),
        max_leaves=40)


def hypothesis_settings(max_examples):
    """Derandomized settings; under ISOJSON_TEST_SAMPLE (the bounded parts of make test) the first
    sampled() of the max_examples examples, at least 20 (hypothesis itself is Python, the cost of
    these tests under the debug interpreter)."""
    from hypothesis import HealthCheck, settings
    return settings(derandomize=True, database=None, deadline=None, max_examples=sampled(max_examples, 20),
                    suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------------------
# Random JSON text, with the spellings a writer never produces.


class TextGen(Gen):
    """Seeded random JSON *text*: odd whitespace, escapes, exponents, long
    mantissas, duplicate keys. Returns str; encode it for bytes input."""

    WS = (" ", "\t", "\n", "\r", "  ", "\n    ", "")

    def ws(self):
        return self.rng.choice(self.WS) if self.rng.random() < 0.3 else ""

    def number(self):
        r = self.rng.random()
        if r < 0.3:
            return str(self.integer(big=self.rng.random() < 0.2))
        if r < 0.5:
            return orjson.dumps(self.float_() if self.rng.random() < 0.9 else 0.5).decode().replace("null", "0")
        sign = self.rng.choice(("", "", "-"))
        intpart = self.rng.choice(("0", str(self.rng.randint(1, 9)), str(self.rng.getrandbits(64)),
                                   "9" * self.rng.randint(15, 30)))
        frac = "" if self.rng.random() < 0.3 else "." + "".join(
            self.rng.choice("0123456789") for _ in range(self.rng.randint(1, 25)))
        exp = ""
        if self.rng.random() < 0.5:
            exp = self.rng.choice("eE") + self.rng.choice(("", "+", "-")) + str(self.rng.choice(
                (0, 1, 5, 22, 23, 100, 300, 307, 308, 320, 323, 324, 340, self.rng.randint(0, 350))))
        return sign + intpart + frac + exp

    def string(self):
        out = []
        for _ in range(self.rng.randint(0, 20)):
            r = self.rng.random()
            c = self.char()
            if r < 0.2:
                out.append(self.rng.choice(('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t")))
            elif r < 0.3:
                cp = ord(c)
                if cp >= 0x10000:  # as an escaped surrogate pair
                    cp -= 0x10000
                    out.append("\\u%04x\\u%04X" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
                else:
                    out.append(("\\u%04x" if self.rng.random() < 0.5 else "\\u%04X") % cp)
            elif c < " " or c in '"\\':
                out.append(json.dumps(c)[1:-1])
            else:
                out.append(c)
        return '"' + "".join(out) + '"'

    def text_value(self, depth=4):
        r = self.rng.random()
        if depth <= 0 or r < 0.4:
            r = self.rng.random()
            if r < 0.4:
                return self.string()
            if r < 0.85:
                return self.number()
            return self.rng.choice(("null", "true", "false"))
        n = self.rng.randint(0, 6)
        if r < 0.7:
            parts = [self.ws() + self.text_value(depth - 1) + self.ws() for _ in range(n)]
            return "[" + ",".join(parts) + (self.ws() if not parts else "") + "]"
        parts = []
        for _ in range(n):
            key = self.string() if self.rng.random() < 0.8 else self.rng.choice(
                ('"dup"', '"\\u0064up"', '"d\\u0075p"', '"dup\\u0000"'))  # one key, spelled three ways
            parts.append(self.ws() + key + self.ws() + ":" + self.ws() + self.text_value(depth - 1) + self.ws())
        return "{" + ",".join(parts) + "}"

    def document(self, depth=4):
        return self.ws() + self.text_value(depth) + self.ws()


# ---------------------------------------------------------------------------
# Outcomes and comparisons.


def describe_exc(e):
    """The observable parts of an exception: type, message, cause, and for a
    JSONDecodeError its position attributes."""
    d = {"type": type(e).__name__, "is_TypeError": isinstance(e, TypeError),
         "is_ValueError": isinstance(e, ValueError), "str": str(e)}
    for attr in ("msg", "pos", "lineno", "colno", "doc"):
        if hasattr(e, attr):
            d[attr] = getattr(e, attr)
    if e.__cause__ is not None:
        d["cause"] = (type(e.__cause__).__name__, str(e.__cause__))
    return d


def renamed(outcome):
    """An orjson outcome as the module under test must have it: orjson names
    itself in a few messages ("orjson.Fragment's content is not ...",
    "orjson.loads() takes ..."), where the module names itself instead."""
    if outcome[0] != "error" or MODULE_NAME == "orjson":
        return outcome
    d = dict(outcome[1])
    for field in ("str", "msg"):
        if field in d and "orjson" in d[field]:
            d[field] = d[field].replace("orjson", MODULE_NAME)
    return ("error", d)


def outcome(fn, *args, **kwargs):
    """("ok", result) or ("error", describe_exc(e))."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - any exception is an outcome to compare
        return ("error", describe_exc(e))


def first_difference(a, b):
    """A short description of where byte strings a and b first differ."""
    n = min(len(a), len(b))
    i = next((i for i in range(n) if a[i] != b[i]), n)
    lo = max(0, i - 30)
    return f"first difference at byte {i} (len {len(a)} vs {len(b)}): {a[lo:i + 30]!r} vs {b[lo:i + 30]!r}"


def fragmentize_big_ints(obj, passthrough=False):
    """obj with every int beyond orjson's 64-bit range replaced by a Fragment
    of its decimal digits: what isojson must write for such an int (the same
    digits json.dumps writes). An int subclass is written as an int too,
    unless passthrough (OPT_PASSTHROUGH_SUBCLASS) hands it to default=."""
    t = type(obj)
    if (t is int or t is MyInt and not passthrough) and not INT64_MIN <= obj <= UINT64_MAX:
        return orjson.Fragment(str(int(obj)).encode())
    if t is list or t is MyList:
        return t(fragmentize_big_ints(v, passthrough) for v in obj)
    if t is tuple or t is MyTuple:
        return t(fragmentize_big_ints(v, passthrough) for v in obj)
    if t is dict or t is MyDict:
        return t((k, fragmentize_big_ints(v, passthrough)) for k, v in obj.items())
    return obj


def expected_dumps(obj, option=None, default=None):
    """The outcome isojson.dumps must have: orjson's, except that ints beyond
    64 bits are written as their digits (when STRICT_INTEGER is off)."""
    return expected_dumps_options(obj, [option], default)[0]


def expected_dumps_options(obj, options, default=None):
    """[expected_dumps(obj, option, default) for option in options], obj's
    big ints rewritten once per OPT_PASSTHROUGH_SUBCLASS setting rather than
    once per option: the rewrite is a Python copy of the whole document, and
    test_writers.py's corpus documents under 64 option sets spent 90% of its
    time there (about 30 s of CPU under python3.14-dbg)."""
    rewritten = {}
    out = []
    for option in options:
        value = obj
        if EXACT_BIG_INTS and not (option or 0) & orjson.OPT_STRICT_INTEGER:
            passthrough = bool((option or 0) & orjson.OPT_PASSTHROUGH_SUBCLASS)
            if passthrough not in rewritten:
                rewritten[passthrough] = fragmentize_big_ints(obj, passthrough)
            value = rewritten[passthrough]
        out.append(renamed(outcome(orjson.dumps, value, default=default, option=option)))
    return out


def check_dumps(obj, option=None, default=None):
    """None when isojson.dumps matches expected_dumps, else a description."""
    want = expected_dumps(obj, option, default)
    got = outcome(isojson.dumps, obj, default=default, option=option)
    if got == want:
        return None
    if got[0] == want[0] == "ok":
        return first_difference(got[1], want[1])
    return f"got {got!r:.600}, want {want!r:.600}"


def same_value(a, b, path="$"):
    """None when a and b are the same parsed JSON value — same types, floats
    with the same bits (so -0.0 is not 0.0), dict keys in the same order —
    else a description of the first difference."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r:.80} vs {type(b).__name__} {b!r:.80}"
    if type(a) is float:
        if struct.pack("<d", a) != struct.pack("<d", b):
            return f"{path}: {a!r} vs {b!r}"
        return None
    if type(a) is list:
        if len(a) != len(b):
            return f"{path}: list of {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same_value(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if type(a) is dict:
        if list(a) != list(b):
            return f"{path}: keys {list(a)!r:.200} vs {list(b)!r:.200}"
        for k in a:
            d = same_value(a[k], b[k], f"{path}[{k!r:.40}]")
            if d:
                return d
        return None
    if a != b:
        return f"{path}: {a!r:.80} vs {b!r:.80}"
    return None


def _same_value_fast(a, b):
    """same_value, through orjson in C when it can tell: its bytes tell ints
    from floats, -0.0 from 0.0, every float from every other, and keep key
    order; with PASSTHROUGH_SUBCLASS any subclass (and any int beyond 64
    bits) raises, and the exact Python walk decides."""
    try:
        if orjson.dumps(a, option=orjson.OPT_PASSTHROUGH_SUBCLASS) == orjson.dumps(
                b, option=orjson.OPT_PASSTHROUGH_SUBCLASS):
            return None
    except TypeError:
        pass
    return same_value(a, b)


_LONG_DIGIT_RUN = re.compile(r"[0-9]{19}")
_LONG_DIGIT_RUN_BYTES = re.compile(rb"[0-9]{19}")


def _may_have_big_int(data):
    """False when data has no run of 19 digits, so no integer literal
    beyond 64 bits (|n| >= 2**63 has at least 19 digits)."""
    if isinstance(data, str):
        return _LONG_DIGIT_RUN.search(data) is not None
    return _LONG_DIGIT_RUN_BYTES.search(bytes(data)) is not None


def _exact_ints(orjson_value, exact_value):
    """orjson_value with each float that stands for an integer literal beyond
    64 bits replaced by the exact int the stdlib parsed there."""
    if type(orjson_value) is float and type(exact_value) is int:
        return exact_value
    if type(orjson_value) is list and type(exact_value) is list and len(orjson_value) == len(exact_value):
        return [_exact_ints(a, b) for a, b in zip(orjson_value, exact_value)]
    if type(orjson_value) is dict and type(exact_value) is dict and list(orjson_value) == list(exact_value):
        return {k: _exact_ints(v, exact_value[k]) for k, v in orjson_value.items()}
    return orjson_value


def _stdlib_strict_loads(data):
    def reject(name):
        raise ValueError(f"{name} is not JSON")
    if not isinstance(data, str):
        data = bytes(data).decode("utf-8")
    return json.loads(data, parse_constant=reject)


def expected_loads(data):
    """The outcome isojson.loads(data) must have: orjson's, except that an
    integer literal beyond 64 bits is an exact int where orjson gives a
    float. Accept/reject is orjson's: a literal beyond the float range is
    rejected ("number is infinity when parsed as double") by both."""
    want = outcome(orjson.loads, data)
    if not EXACT_BIG_INTS or not _may_have_big_int(data):
        return want
    if want[0] == "ok":
        if type(want[1]) in (float, list, dict):
            exact = outcome(_stdlib_strict_loads, data)
            if exact[0] == "ok":
                return ("ok", _exact_ints(want[1], exact[1]))
        return want
    return want


def check_loads(data):
    """None when isojson.loads(data) matches expected_loads(data), else a description."""
    want = expected_loads(data)
    got = outcome(isojson.loads, data)
    if got[0] == want[0] == "ok":
        return _same_value_fast(got[1], want[1])
    if got == want:
        return None
    return f"got {got!r:.600}, want {want!r:.600}"


def report(failures, total, what):
    """Fail with the first few of a list of (case, description) failures."""
    if failures:
        lines = [f"{len(failures)} of {total} {what} differ; first ones:"]
        lines += [f"  {case}: {desc}" for case, desc in failures[:12]]
        raise AssertionError("\n".join(lines))


# ---------------------------------------------------------------------------
# Child processes.


def child_env(**extra):
    """The environment for a child Python: this one, with the tests directory
    importable and the module under test passed on."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS_DIR, env.get("PYTHONPATH")) if p)
    env["ISOJSON_TEST_MODULE"] = MODULE_NAME
    env.update(extra)
    return env


# What call_with_failing_allocations returns when the call raised MemoryError.
OUT_OF_MEMORY = object()


def call_with_failing_allocations(start, stop, fn, *args):
    """fn(*args) while CPython's allocations number start to stop fail
    (_testcapi.set_nomemory; stop 0: every one from start on): its result, or
    OUT_OF_MEMORY when it raised MemoryError. The hooks are removed before
    anything else runs, on every path."""
    import _testcapi
    _testcapi.set_nomemory(start, stop)
    try:
        return fn(*args)
    except MemoryError:
        return OUT_OF_MEMORY
    finally:
        _testcapi.remove_mem_hooks()


def count_out_of_memory(starts, width, check, fn, *args):
    """call_with_failing_allocations(start, start + width, fn, *args) for
    each start: how many raised MemoryError; check(result) on the others."""
    failed = 0
    for start in starts:
        got = call_with_failing_allocations(start, start + width, fn, *args)
        if got is OUT_OF_MEMORY:
            failed += 1
        elif check is not None:
            check(got)
    return failed


def exec_in_interpreters(code, n):
    """Runs code in n new own-GIL sub-interpreters at once, each from a
    thread of its own, then closes them; returns what they raised (repr),
    empty when all went well. For tests, and for the child Pythons of
    run_python (which run in this directory, so `import _util` works there)."""
    import threading
    from concurrent import interpreters
    interps = [interpreters.create() for _ in range(n)]
    errors = []

    def run(interp):
        try:
            interp.exec(code)
        except Exception as e:  # noqa: BLE001 - reported to the caller
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(i,)) for i in interps]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for i in interps:
            i.close()
    return errors


def run_python(code, timeout, *args, env=None):
    """Run code in a fresh Python in a session of its own; a crash, a
    non-zero exit or a timeout (seconds at native speed: scaled()) fails the
    calling test with the child's output. On timeout the whole process group (forked children included)
    is killed. Returns the child's stdout."""
    timeout = scaled(timeout)
    cmd = [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code), *map(str, args)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env or child_env(),
                         cwd=TESTS_DIR, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        stdout, stderr = p.communicate()
        raise AssertionError(f"child Python did not finish within {timeout} s (killed); output so far:\n"
                             f"stdout: {_tail(stdout)}\nstderr: {_tail(stderr)}") from None
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    if p.returncode != 0:
        how = f"was killed by signal {-p.returncode}" if p.returncode < 0 else f"exited with {p.returncode}"
        raise AssertionError(f"child Python {how}\nstdout: {_tail(stdout)}\nstderr: {_tail(stderr)}")
    return stdout


def pytest_in_child(files, timeout, marks="not debug_malloc", deselect=None, **env):
    """Runs pytest on files (names in this directory) in a fresh Python whose
    environment adds env (PYTHONMALLOC="debug", say), with tests marked
    against marks and, when given, the -k expression deselect; fails the
    calling test unless they all pass."""
    args = ["-q", "-p", "no:cacheprovider"]
    if marks:
        args += ["-m", marks]
    if deselect:
        args += ["-k", deselect]
    out = run_python("""
        import sys
        import pytest
        sys.exit(pytest.main(sys.argv[1:]))
    """, timeout, *args, *files, env=child_env(**env))
    assert " passed" in out and " failed" not in out, out[-3000:]


def _tail(s, n=6000):
    if isinstance(s, bytes):
        s = s.decode("utf-8", "replace")
    s = s or ""
    return s if len(s) <= n else "..." + s[-n:]

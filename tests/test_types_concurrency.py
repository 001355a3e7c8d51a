"""datetime (zoneinfo), date, time, UUID, Enum and dataclass values written
at the same time by own-GIL sub-interpreters and by threads of the main
interpreter, each call checked against its own expected bytes.

Every worker builds its own seeded documents with DOC_CODE (run in the
worker's interpreter, so its Enum and dataclass are that interpreter's
classes) and checks each dumps against two answers: the bytes orjson wrote
for the same seed in the main interpreter before the workers started, and an
independent formatter in plain Python (isoformat-based) run by the worker
itself. numpy stays out: it cannot be imported in a sub-interpreter."""

import threading
from concurrent import interpreters

import _util
from _util import isojson, orjson

SEED = 5684
# Under ISOJSON_TEST_SAMPLE each worker makes 100 documents instead of 400, all eight still at once
# (the documents, built and formatted in Python, are what costs: 22 s of make test-pydbg at load 11).
N_SUB, N_THREADS, ITERATIONS = 4, 4, _util.sampled(400, 100)

# Plain Python that runs in any interpreter: builds a seeded document and
# formats it independently. It may import only the standard library.
DOC_CODE = r'''
import dataclasses, datetime, enum, random, uuid, zoneinfo

ZONES = [zoneinfo.ZoneInfo(n) for n in ("America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC")]
FIXED = [datetime.timezone.utc, datetime.timezone(datetime.timedelta(hours=-3, minutes=-30)),
         datetime.timezone(datetime.timedelta(minutes=45))]


class Level(enum.Enum):
    LOW = 1
    HIGH = "high"
    WHEN = datetime.date(2020, 2, 29)


@dataclasses.dataclass
class Event:
    name: str
    at: datetime.datetime
    id: uuid.UUID
    level: Level
    tags: list


def micro(rng):
    # Not 10000..99999 in a time: orjson 3.13 drops the zero padding there
    # (isojson writes isoformat's text), and orjson's bytes are an answer here.
    return rng.choice((0, rng.randint(1, 9999), rng.randint(100000, 999999)))


def moment(rng):
    """A datetime near a DST change of a zone, naive, or with a fixed offset."""
    r = rng.random()
    if r < 0.5:
        year = rng.randint(1971, 2037)
        base = datetime.datetime(year, rng.choice((3, 4, 10, 11)), rng.randint(1, 14), tzinfo=datetime.timezone.utc)
        inst = base + datetime.timedelta(seconds=rng.randint(0, 86400 * 14), microseconds=micro(rng))
        return inst.astimezone(rng.choice(ZONES))
    dt = datetime.datetime(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                           rng.randint(0, 59), rng.randint(0, 59), micro(rng))
    if r < 0.75:
        return dt
    return dt.replace(year=min(max(dt.year, 2), 9998), tzinfo=rng.choice(FIXED))


def scalar(rng):
    r = rng.randint(0, 6)
    if r == 0:
        return moment(rng)
    if r == 1:
        return datetime.date(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28))
    if r == 2:
        return datetime.time(rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), micro(rng))
    if r == 3:
        return uuid.UUID(int=rng.getrandbits(128))
    if r == 4:
        return rng.choice(list(Level))
    if r == 5:
        return rng.randint(-2**63, 2**63 - 1)
    return "s%d" % rng.randint(0, 10**6)


def build(seed, keys=False):
    """A seeded document; with keys, its dicts have datetime, date, UUID,
    int and str keys (for OPT_NON_STR_KEYS)."""
    rng = random.Random(seed)

    def key():
        if not keys:
            return "k%d" % rng.randint(0, 10**6)
        r = rng.randint(0, 4)
        if r == 0:
            return moment(rng)
        if r == 1:
            return datetime.date(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28))
        if r == 2:
            return uuid.UUID(int=rng.getrandbits(128))
        if r == 3:
            return rng.randint(-10**6, 10**6)
        return "k%d" % rng.randint(0, 10**6)

    def value(depth):
        r = rng.random()
        if depth == 0 or r < 0.4:
            return scalar(rng)
        if r < 0.6:
            return [value(depth - 1) for _ in range(rng.randint(0, 5))]
        if r < 0.8:
            return {key(): value(depth - 1) for _ in range(rng.randint(0, 5))}
        return Event("e%d" % rng.randint(0, 99), moment(rng), uuid.UUID(int=rng.getrandbits(128)),
                     rng.choice(list(Level)), [scalar(rng) for _ in range(rng.randint(0, 3))])

    return {"seed": seed, "doc": [value(3) for _ in range(16)]}


def text(v):
    """The JSON string text of a datetime, date, time or UUID."""
    if isinstance(v, uuid.UUID):
        return str(v)
    return v.isoformat()


def fmt(v, sort_keys=False):
    """The bytes orjson writes for v (compact), by plain Python."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, enum.Enum):
        return fmt(v.value, sort_keys)
    if type(v) is int:
        return str(v)
    if type(v) is str:
        assert v.isascii() and v.isalnum(), v  # no escapes needed
        return '"' + v + '"'
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time, uuid.UUID)):
        return '"' + text(v) + '"'
    if isinstance(v, list):
        return "[" + ",".join(fmt(x, sort_keys) for x in v) + "]"
    if dataclasses.is_dataclass(v):  # fields in their order, never sorted
        return "{" + ",".join('"%s":%s' % (f.name, fmt(getattr(v, f.name), sort_keys))
                              for f in dataclasses.fields(v)) + "}"
    if isinstance(v, dict):
        items = [(k if type(k) is str else str(k) if type(k) is int else text(k), x) for k, x in v.items()]
        if sort_keys:
            items.sort(key=lambda kv: kv[0])
        return "{" + ",".join('"%s":%s' % (k, fmt(x, sort_keys)) for k, x in items) + "}"
    raise TypeError(type(v))


def first_difference(a, b):
    n = min(len(a), len(b))
    i = next((i for i in range(n) if a[i] != b[i]), n)
    return "first difference at byte %d: %r vs %r" % (i, a[max(0, i - 40):i + 40], b[max(0, i - 40):i + 40])


def run(module, seeds, expected, option, sort_keys):
    """dumps of build(seed) for every seed, against the orjson bytes given
    and the plain Python formatter; raises AssertionError on the first
    mismatch, with the seed and the first difference."""
    for seed, want in zip(seeds, expected):
        doc = build(seed, keys=bool(option))
        got = module.dumps(doc, option=option)
        mine = fmt(doc, sort_keys).encode()
        if got != want:
            raise AssertionError("seed %d: not orjson's bytes, %s" % (seed, first_difference(got, want)))
        if got != mine:
            raise AssertionError("seed %d: not the formatter's bytes, %s" % (seed, first_difference(got, mine)))
    return len(seeds)
'''


def _namespace():
    ns = {"__name__": "types_concurrency_doc"}
    exec(compile(DOC_CODE, "<DOC_CODE>", "exec"), ns)
    return ns


def _expected(seeds, option):
    """orjson's bytes for each seed, computed here before any worker starts."""
    ns = _namespace()
    return [orjson.dumps(ns["build"](s, keys=bool(option)), option=option) for s in seeds]


def test_orjson_and_the_formatter_agree():
    """The two answers agree with each other (for every seed used below), so
    a mismatch in a worker is the module's."""
    ns = _namespace()
    keyed = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    for seed in range(SEED, SEED + 200):
        for option, sort_keys in ((0, False), (keyed, True)):
            doc = ns["build"](seed, keys=bool(option))
            want = orjson.dumps(doc, option=option)
            mine = ns["fmt"](doc, sort_keys).encode()
            assert mine == want, (seed, option, ns["first_difference"](mine, want))


def test_subinterpreters_and_threads_at_once():
    keyed = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    work = []  # (who, seeds, option, sort_keys)
    for i in range(N_SUB):
        work.append((f"sub-interpreter {i}", list(range(SEED + 1000 * i, SEED + 1000 * i + ITERATIONS)), 0, False))
    for i in range(N_THREADS):
        base = SEED + 1000 * (N_SUB + i)
        work.append((f"main-interpreter thread {i}", list(range(base, base + ITERATIONS)), keyed, True))
    expected = [_expected(seeds, option) for _, seeds, option, _ in work]

    interps = [interpreters.create() for _ in range(N_SUB)]
    results, errors = [None] * len(work), []
    barrier = threading.Barrier(len(work))

    def drive_sub(i):
        who, seeds, option, sort_keys = work[i]
        try:
            interp = interps[i]
            interp.exec(f"import {_util.MODULE_NAME} as module")
            interp.exec(DOC_CODE)
            interp.prepare_main(seeds=tuple(seeds), expected=tuple(expected[i]), option=option, sort_keys=sort_keys)
            barrier.wait()
            # An AssertionError inside raises ExecutionFailed here, with its message.
            interp.exec(f"assert run(module, seeds, expected, option, sort_keys) == {len(seeds)}")
            results[i] = len(seeds)
        except BaseException as e:  # noqa: BLE001 - reported below
            barrier.abort()
            errors.append(f"{who}: {type(e).__name__}: {e}"[:3000])

    def drive_thread(i):
        who, seeds, option, sort_keys = work[i]
        try:
            ns = _namespace()
            barrier.wait()
            results[i] = ns["run"](isojson, seeds, expected[i], option, sort_keys)
        except BaseException as e:  # noqa: BLE001
            barrier.abort()
            errors.append(f"{who}: {type(e).__name__}: {e}"[:3000])

    threads = [threading.Thread(target=drive_sub, args=(i,), daemon=True) for i in range(N_SUB)]
    threads += [threading.Thread(target=drive_thread, args=(i,), daemon=True) for i in range(N_SUB, len(work))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=_util.scaled(300))
        assert not any(t.is_alive() for t in threads), "a worker did not finish within 300 s"
        assert not errors, "\n".join(errors)
        assert results == [ITERATIONS] * len(work)
    finally:
        for interp in interps:
            if not interp.is_running():
                interp.close()

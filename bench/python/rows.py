"""The benchmark set: every row that `make bench` times and `make bench-callgrind`
counts, isojson side by side with orjson, msgspec and json.

A row is one JSON value measured both ways where that makes sense: `loads` of
its JSON text and `dumps` of its Python object (the object loads gives back).
Rows come in groups:

    fixed    the smallest calls, whose cost is the fixed cost of a call
    api      messages of 50 B to 2 KB, as a web service sends all day
    records  lists of records: ints only, and the "everyday" records
    list     long lists of one kind of scalar, and of small containers
    text     1000 strings by script (ASCII, Latin-1, Cyrillic, Greek, CJK,
             emoji), with characters that need escapes, and \\u-escaped input
    pretty   indented input (2 and 4 spaces, tabs, ", \\n" line ends)
    big      one big string (1 MiB, 256 MiB) and a document over 100 MiB
    corpus   the four standard documents of testdata/corpus
    types    dumps of datetime, UUID, dataclass, Enum, numpy, options
             (dumps_cases.py)

Everything but the corpus is generated here, at bench time, seeded and
deterministic (one random.Random per row): no generated data is committed. The
big rows take a size, so that tests and callgrind can use a small instance of
the same generator (`Row.small`).

    row.instance(size=None) -> Instance(obj, data)   the value and its JSON text
    call(row, op, lib, inst) -> Call                 how one library runs it
"""

import functools
import importlib
import json
import math
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

import dumps_cases
import percall
import workload

KiB = 1 << 10
MiB = 1 << 20

LOADS, DUMPS = "loads", "dumps"
BOTH = (LOADS, DUMPS)


class Unsupported(Exception):
    """A library cannot run a row (a type or an option it lacks)."""


def compact(obj) -> bytes:
    """obj as compact UTF-8 JSON: orjson's bytes when orjson is there (the
    parity oracle, and fast on the big rows), else the standard library's."""
    try:
        import orjson
    except ImportError:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    return orjson.dumps(obj)


@dataclass
class Instance:
    obj: object  # what dumps serializes; what loads of data must give
    data: bytes | None  # what loads parses (None for a row without loads)


@dataclass(frozen=True)
class Row:
    name: str  # "group/what", unique; a regexp chooses rows by it
    about: str  # one line for the reports
    build: Callable  # build(size) -> object, or build(module) when per_module
    ops: tuple[str, ...] = BOTH
    text: Callable | None = None  # text(obj, size) -> bytes for loads; default compact(obj)
    size: int | None = None  # the size build takes (bytes of output, records...); None: fixed
    small: int | None = None  # a small instance of the same generator, for tests and callgrind
    big: bool = False  # few repeats in `make bench`
    options: tuple[str, ...] = ()  # orjson OPT_* names dumps takes
    default: Callable | None = None  # dumps' default=
    per_module: bool = False  # build(module): the object uses the library's own types (Fragment)

    @property
    def group(self) -> str:
        return self.name.split("/", 1)[0]

    def instance(self, size: int | None = None) -> Instance:
        """The row's value and its text, at `size` (default: the row's own)."""
        if self.per_module:
            import orjson

            obj = self.build(orjson)
        else:
            obj = self.build(size or self.size)
        if LOADS not in self.ops:
            return Instance(obj, None)
        data = self.text(obj, size or self.size) if self.text else compact(obj)
        return Instance(obj, data)


# ---- generators ------------------------------------------------------------------------------------------

def _rng(name: str) -> random.Random:
    # A seed of its own per row, from its name: adding a row changes no other.
    return random.Random(name)


_WORDS = ("alpha", "beta", "gamma", "delta", "status", "user", "order", "item", "price", "total", "name",
          "email", "created", "updated", "active", "region", "eu-west-1", "pending", "shipped", "ok")


def _api_status(_):
    return {"ok": True, "id": 48213, "error": None, "msg": "created"}


def _user(r: random.Random, i: int) -> dict:
    first = r.choice(("Jane", "John", "Maria", "Wei", "Amit", "Olga", "Lucas", "Fatima", "Kenji", "Sara"))
    last = r.choice(("Doe", "Smith", "Garcia", "Chen", "Patel", "Ivanova", "Martin", "Khan", "Sato", "Berg"))
    return {"id": r.randrange(10**6, 10**7), "name": f"{first} {last}",
            "email": f"{first.lower()}.{last.lower()}{i}@example.com", "active": r.random() < 0.8,
            "admin": False, "age": r.randrange(18, 90), "score": round(r.uniform(0, 100), 1), "team": None,
            "tags": r.sample(("beta", "eu", "us", "pro", "trial"), 2), "locale": "en-GB",
            "last_login": 1700000000 + r.randrange(10**7)}


def _api_user(_):
    return _user(_rng("api/user"), 1)


def _api_order(_):
    r = _rng("api/order")
    items = [{"sku": f"SKU-{r.randrange(10**5):05d}", "name": " ".join(r.sample(_WORDS, 2)),
              "qty": r.randrange(1, 5), "price": round(r.uniform(1, 200), 2), "gift": r.random() < 0.2}
             for _ in range(4)]
    return {"order_id": r.randrange(10**9), "status": "pending", "currency": "EUR",
            "customer": {"id": r.randrange(10**6), "name": "Maria Garcia", "email": "maria@example.com",
                         "vip": False},
            "items": items, "subtotal": round(sum(i["price"] * i["qty"] for i in items), 2),
            "shipping": {"method": "standard", "cost": 4.99, "address": {"street": "12 High Street",
                                                                       "city": "London", "zip": "N1 9GU",
                                                                       "country": "GB"}},
            "coupon": None, "paid": True, "created_at": 1700001234, "notes": None}


def _api_page(_):
    r = _rng("api/page")
    items = [{"id": 1000 + k, "name": " ".join(r.sample(_WORDS, 3)), "slug": f"item-{1000 + k}",
              "price": round(r.uniform(1, 500), 2), "in_stock": r.random() < 0.7, "rating": r.randrange(1, 6),
              "category": r.choice(("books", "games", "tools", "garden")), "discount": None,
              "updated": 1700000000 + r.randrange(10**6)} for k in range(10)]
    return {"page": 3, "per_page": 10, "total": 1234, "next": "https://api.example.com/v1/items?page=4",
            "prev": "https://api.example.com/v1/items?page=2", "items": items}


def _records_ints(n):
    r = _rng("records/ints")
    return [{"id": i, "user_id": r.randrange(10**6), "ts": 1700000000 + i * 37, "count": r.randrange(100),
             "delta": r.randrange(-1000, 1000), "flags": r.getrandbits(16), "big": r.getrandbits(62)}
            for i in range(n)]


def _ascii_only(obj):
    """obj with every str folded to ASCII (accents stripped, the rest dropped)."""
    if isinstance(obj, str):
        return unicodedata.normalize("NFKD", obj).encode("ascii", "ignore").decode()
    if isinstance(obj, list):
        return [_ascii_only(v) for v in obj]
    if isinstance(obj, dict):
        return {_ascii_only(k): _ascii_only(v) for k, v in obj.items()}
    return obj


def _everyday(n):
    return workload.make_document(n)


def _everyday_ascii(n):
    return _ascii_only(workload.make_document(n))


def _small_ints(n):
    r = _rng("list/small-ints")
    return [r.randrange(100) for _ in range(n)]


def _int64s(n):
    r = _rng("list/int64")
    return [r.randrange(-(1 << 63), 1 << 63) for _ in range(n)]


def _bools_nulls(n):
    r = _rng("list/bools-nulls")
    return [r.choice((True, False, None)) for _ in range(n)]


def _floats(n):
    """Prices, measurements with full precision, small and large exponents,
    integral floats: the mix a numeric API returns. No NaN or infinity (not
    JSON)."""
    r = _rng("list/floats")
    out = []
    for i in range(n):
        k = i % 5
        if k == 0:
            out.append(round(r.uniform(0, 1000), 2))
        elif k == 1:
            out.append(r.random())
        elif k == 2:
            out.append(r.uniform(-1, 1) * 10.0 ** r.randrange(-12, 22))
        elif k == 3:
            out.append(float(r.randrange(-1000, 1000)))
        else:
            out.append(round(r.gauss(50, 15), 6))
    return out


_SHAPES = (lambda r: [], lambda r: {}, lambda r: [[]], lambda r: [{}], lambda r: {"a": []},
           lambda r: {"a": {"b": None}}, lambda r: [r.randrange(10), [r.randrange(10), [r.randrange(10)]]],
           lambda r: [True, False], lambda r: {"k": "v", "n": r.randrange(100)}, lambda r: [[1, 2], [3]])


def _small_containers(n):
    r = _rng("nested/small-containers")
    return [r.choice(_SHAPES)(r) for _ in range(n)]


# Alphabets of the text rows: (characters, share of spaces). Latin-1 is
# French/German-like text (mostly ASCII letters, some accented); the others
# are the script's own letters.
_LATIN1 = "abcdefghijklmnopqrstuvwxyz" * 4 + "àáâäæçèéêëîïñôöœùúûüßÿ"
_ALPHABETS = {
    "ascii": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-:;!?()'",
    "latin-1": _LATIN1,
    "cyrillic": "".join(map(chr, range(0x430, 0x450))) + "ёЁАБВГДЕЖЗИЙКЛМН",
    "greek": "".join(map(chr, range(0x3B1, 0x3CA))) + "άέήίόύώΑΒΓΔΕΖ",
    "cjk": "".join(map(chr, range(0x4E00, 0x4E00 + 2000, 3))) + "。、",
    "emoji": "".join(map(chr, range(0x1F600, 0x1F650))) + "".join(map(chr, range(0x1F300, 0x1F340))),
    # Characters JSON must escape, among ASCII: quotes, backslashes, control characters.
    "escaped": 'abcdefghij klmnop"\\\n\t\r\x00\x01\x1f/' + '"\\\n',
}


def _texts(script: str, n: int) -> list[str]:
    r = _rng("text/" + script)
    chars = _ALPHABETS[script]
    out = []
    for _ in range(n):
        words = [''.join(r.choice(chars) for _ in range(r.randrange(2, 10))) for _ in range(r.randrange(1, 7))]
        out.append(" ".join(words))
    return out


def _text_row(script):
    return lambda n: _texts(script, n)


def _cafe(n):
    # The example: loads(orjson.dumps(["café%d" % i for i in range(1000)])).
    return ["café%d" % i for i in range(n)]


def _u_escapes(n):
    return _texts("cyrillic", n // 2) + _texts("emoji", n - n // 2)


def _ensure_ascii(obj, _size):
    # \uXXXX escapes for every non-ASCII character, surrogate pairs above the BMP.
    return json.dumps(obj, separators=(",", ":")).encode()


def _indented(indent, separators=None):
    def text(obj, _size):
        return json.dumps(obj, ensure_ascii=False, indent=indent, separators=separators).encode()
    return text


def _big_str(n):
    """One ASCII str of n bytes (letters, digits, spaces; nothing to escape):
    a seeded 64 KiB block repeated, so that 256 MiB is built in a moment."""
    r = _rng("big/str")
    block = "".join(r.choice("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789") for _ in range(64 * KiB))
    reps, rest = divmod(n, len(block))
    return block * reps + block[:rest]


def _big_str_text(obj, _size):
    return b'"' + obj.encode() + b'"'


def _big_doc(n):
    """Everyday records (workload.make_document) until the text is at least n
    bytes: the record count comes from the size of a 1000-record sample."""
    per_record = len(compact(workload.make_document(1000))) / 1000
    return workload.make_document(max(1, math.ceil(n / per_record * 1.01)))


def _corpus(doc):
    def build(_):
        return json.loads(percall.read_corpus(doc))
    return build


def _corpus_text(doc):
    return lambda obj, _size: percall.read_corpus(doc)


def _slug(name: str) -> str:
    s = re.sub(r"(\d)×(\d)", r"\1x\2", name).replace("×", "").replace("OPT_", "").replace("(", "").replace(")", "").replace(",", "")
    return re.sub(r"[^A-Za-z0-9.+_=-]+", "-", s).strip("-").lower()


def _type_rows():
    rows = []
    for c in dumps_cases.CASES:
        build = c.build if c.per_module else (lambda _, b=c.build: b())
        rows.append(Row("types/" + _slug(c.name), f"dumps of {c.name}", build, ops=(DUMPS,),
                        options=c.options, default=c.default, per_module=c.per_module))
    return rows


_FIXED = (("fixed/null", None), ("fixed/[]", []), ("fixed/{}", {}), ('fixed/{"a":1}', {"a": 1}))

ROWS: tuple[Row, ...] = (
    *(Row(name, f"{compact(v).decode()}: the fixed cost of a call", lambda _, v=v: v) for name, v in _FIXED),
    Row("api/status-50B", "a 50-byte status message", _api_status),
    Row("api/user-200B", "a user: str, int, bool, null, a float, a short list", _api_user),
    Row("api/order-700B", "an order: nested customer and address, 4 items with prices", _api_order),
    Row("api/page-2KB", "a page of 10 items with pagination links", _api_page),
    Row("records/ints-1000", "1000 records of 7 ints (small to 62-bit)", _records_ints, size=1000),
    Row("records/everyday-100", "100 everyday records: id, names, emails, bool, floats, lists, nested "
        "dicts, some non-ASCII text (workload.py)", _everyday, size=100),
    Row("records/everyday-100-ascii", "the same, every string folded to ASCII", _everyday_ascii, size=100),
    Row("list/small-ints-20000", "20,000 ints in [0, 100)", _small_ints, size=20000),
    Row("list/int64-10000", "10,000 ints over the whole 64-bit range", _int64s, size=10000),
    Row("list/bools-nulls-20000", "20,000 of true, false, null", _bools_nulls, size=20000),
    Row("list/floats-10000", "10,000 floats: prices, full precision, exponents, integral", _floats, size=10000),
    Row("nested/small-containers-5000", "5,000 small containers: [], {}, [[]], [{}], {\"a\":{\"b\":null}}...",
        _small_containers, size=5000),
    *(Row(f"text/{s}", f"1000 strings of 1-6 words, {s}", _text_row(s), size=1000)
      for s in ("ascii", "latin-1", "cyrillic", "greek", "cjk", "emoji", "escaped")),
    Row("text/cafe-1000", '["café0", ..., "café999"]', _cafe, size=1000),
    Row("text/u-escapes", "1000 Cyrillic and emoji strings written as \\uXXXX escapes (input only)",
        _u_escapes, ops=(LOADS,), text=_ensure_ascii, size=1000),
    Row("pretty/indent-2", "records/everyday-100 indented by 2 spaces (dumps: OPT_INDENT_2)", _everyday,
        text=_indented(2), size=100, options=("OPT_INDENT_2",)),
    Row("pretty/indent-4", "records/everyday-100 indented by 4 spaces", _everyday, ops=(LOADS,),
        text=_indented(4), size=100),
    Row("pretty/tabs", "records/everyday-100 indented by tabs", _everyday, ops=(LOADS,),
        text=_indented("\t"), size=100),
    Row("pretty/comma-space-newline", 'records/everyday-100 with lines ending in ", \\n" + indentation',
        _everyday, ops=(LOADS,), text=_indented(2, (", ", ": ")), size=100),
    Row("big/str-1MiB", "one ASCII str of 1 MiB", _big_str, text=_big_str_text, size=MiB, small=64 * KiB),
    Row("big/str-256MiB", "one ASCII str of 256 MiB", _big_str, text=_big_str_text, size=256 * MiB,
        small=4 * MiB, big=True),
    Row("big/doc-100MiB", "everyday records, over 100 MiB of text", _big_doc, size=100 * MiB, small=2 * MiB,
        big=True),
    *(Row(f"corpus/{d}", f"testdata/corpus/{d}.json", _corpus(d), text=_corpus_text(d))
      for d in percall.CORPUS),
    *_type_rows(),
)

BY_NAME = {r.name: r for r in ROWS}


def select(pattern: str | None) -> list[Row]:
    """The rows whose name matches the regexp (re.search), in set order."""
    if not pattern:
        return list(ROWS)
    rx = re.compile(pattern)
    return [r for r in ROWS if rx.search(r.name)]


# ---- how each library runs a row -------------------------------------------------------------------------

@dataclass
class Call:
    """fn(arg, **kwargs): one call of a row by one library. Timers write the
    keywords into the statement (no wrapper, no ** unpacking)."""
    fn: Callable
    arg: object
    kwargs: dict = field(default_factory=dict)

    def __call__(self):
        return self.fn(self.arg, **self.kwargs)


ORJSON_API = ("isojson", "orjson")


def _module_of(lib):
    return lib.module_obj if lib.module_obj is not None else importlib.import_module(lib.module.split()[0])


def _dumps_with_options(row, lib):
    """The callable and keywords with which `lib` dumps with the row's options
    and default=, or Unsupported."""
    names = set(row.options)
    if lib.name in ORJSON_API:
        mod = _module_of(lib)
        if not hasattr(mod, "OPT_INDENT_2"):
            raise Unsupported(f"{lib.module} has no orjson options")
        kw = {}
        if row.options:
            kw["option"] = functools.reduce(lambda a, n: a | getattr(mod, n), row.options, 0)
        if row.default is not None:
            kw["default"] = row.default
        return mod.dumps, kw
    if lib.name == "json":
        if names - {"OPT_INDENT_2", "OPT_SORT_KEYS", "OPT_NON_STR_KEYS"}:
            raise Unsupported(f"json has no equivalent of {', '.join(sorted(row.options))}")
        kw = {"ensure_ascii": False, "default": row.default}
        if "OPT_INDENT_2" in names:
            kw["indent"] = 2
        else:
            kw["separators"] = (",", ":")
        if "OPT_SORT_KEYS" in names:
            kw["sort_keys"] = True
        fn = functools.partial(json.dumps, **kw)
        return (lambda o, f=fn: f(o).encode()), {}
    if lib.name == "msgspec":
        import msgspec

        if names - {"OPT_SORT_KEYS", "OPT_NON_STR_KEYS", "OPT_UTC_Z"}:
            raise Unsupported(f"msgspec has no equivalent of {', '.join(sorted(row.options))}")
        enc = msgspec.json.Encoder(enc_hook=row.default, order="sorted" if "OPT_SORT_KEYS" in names else None)
        return enc.encode, {}
    raise Unsupported(f"{lib.name}: no options")


def call(row: Row, op: str, lib, inst: Instance) -> Call:
    """How `lib` (a libraries.Library) runs `op` of the row on `inst`.
    Raises Unsupported when the library lacks what the row needs."""
    if op not in row.ops:
        raise Unsupported(f"{row.name} has no {op}")
    if op == LOADS:
        return Call(lib.loads, inst.data)
    obj = inst.obj
    if row.per_module:
        try:
            obj = row.build(_module_of(lib))
        except AttributeError as e:
            raise Unsupported(f"{lib.name}: {e}") from None
    if not row.options and row.default is None:
        return Call(lib.dumps, obj)
    fn, kw = _dumps_with_options(row, lib)
    return Call(fn, obj, kw)


def text_size(n: int) -> str:
    """A byte count the way the tables show it."""
    if n < KiB:
        return f"{n} B"
    if n < MiB:
        return f"{n / KiB:.0f} KiB" if n >= 10 * KiB else f"{n / KiB:.1f} KiB"
    return f"{n / MiB:.0f} MiB" if n >= 10 * MiB else f"{n / MiB:.1f} MiB"

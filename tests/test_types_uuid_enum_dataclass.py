"""uuid.UUID, enum.Enum, dataclasses and OPT_NON_STR_KEYS: byte parity with
orjson 3.13 under every combination of the options that affect them, and
orjson's errors."""

import dataclasses
import datetime
import enum
import random
import typing
import uuid

import pytest

import _util
from _util import isojson, orjson

NS = orjson.OPT_NON_STR_KEYS
SK = orjson.OPT_SORT_KEYS


def same(obj, option=None, default=None):
    got = _util.outcome(isojson.dumps, obj, option=option, default=default)
    want = _util.outcome(orjson.dumps, obj, option=option, default=default)
    assert got == want, (obj, option)


def combos(*bits):
    return [sum(b for i, b in enumerate(bits) if m >> i & 1) for m in range(1 << len(bits))]


# --------------------------------------------------------------------------
# UUID


def test_uuids():
    rng = random.Random(3)
    values = [uuid.UUID(int=0), uuid.UUID(int=2**128 - 1), uuid.UUID("12345678-1234-5678-1234-567812345678"),
              uuid.uuid4(), uuid.uuid1(), uuid.uuid5(uuid.NAMESPACE_DNS, "x")]
    values += [uuid.UUID(int=rng.getrandbits(128)) for _ in range(200)]
    for option in combos(orjson.OPT_INDENT_2, SK, NS):
        same(values, option)
        same({"u": values[:5]}, option)
        same({u: i for i, u in enumerate(values)}, option | NS)


def uuid_with_int(value):
    """A UUID whose int is set past the constructor's checks."""
    u = uuid.UUID(int=1)
    object.__setattr__(u, "int", value)
    return u


def test_uuid_ints_at_every_digit_boundary():
    # isojson reads UUID.int's 30-bit digits from the int itself: every
    # count of digits (0 to 5) and every bit of the top one.
    values = [0, 1, 2**128 - 1] + [2**k for k in range(128)] + [2**k - 1 for k in range(1, 129)]
    values += [2**k + 1 for k in range(30, 128, 30)] + [3 << 126, 2**127 + 2**96 + 2**64 + 2**32 + 1]
    for v in values:
        u = uuid_with_int(v)
        assert isojson.dumps(u) == orjson.dumps(u) == b'"%s"' % str(uuid.UUID(int=v)).encode(), v
    ints = [uuid_with_int(v) for v in values]
    same(ints)
    same({"ids": ints, "n": len(ints)}, orjson.OPT_INDENT_2)


def test_uuid_int_of_other_int_types():
    class Int(int):
        pass

    for v in (True, False, Int(7), Int(2**100 + 3), Int(0)):
        same(uuid_with_int(v))


def test_uuid_int_out_of_range_is_an_error():
    # orjson writes zeros for a negative int or one of 2^128 or more, and
    # misreads a float's memory; isojson refuses them.
    for v in (-1, -(2**127), 2**128, 2**200, 1.5, "1", None):
        with pytest.raises(isojson.JSONEncodeError, match="UUID.int is not a 128-bit integer"):
            isojson.dumps(uuid_with_int(v))
        with pytest.raises(isojson.JSONEncodeError, match="UUID.int is not a 128-bit integer"):
            isojson.dumps({"a": [uuid.UUID(int=5), uuid_with_int(v)]})


def test_uuid_int_deleted():
    # orjson crashes here (it reads the missing attribute as NULL).
    u = uuid.UUID(int=1)
    isojson.dumps(u)
    object.__delattr__(u, "int")
    with pytest.raises(AttributeError):
        isojson.dumps(u)
    with pytest.raises(AttributeError):
        isojson.dumps([uuid.UUID(int=2), u])


def test_uuid_int_follows_changes_to_the_class():
    # isojson reads UUID.int from its slot while the class is unchanged; a
    # property or __getattribute__ put on the class later is honoured, and
    # once removed, the slot is read again.
    u = uuid.UUID(int=3)
    want = b'"00000000-0000-0000-0000-000000000003"'
    assert isojson.dumps([u, u]) == b"[" + want + b"," + want + b"]"
    slot = uuid.UUID.__dict__["int"]
    try:
        uuid.UUID.int = property(lambda self: 7)
        same(u)
        assert isojson.dumps(u) == b'"00000000-0000-0000-0000-000000000007"'
    finally:
        uuid.UUID.int = slot
    assert isojson.dumps(u) == want

    def getattribute(self, name):
        return 9 if name == "int" else object.__getattribute__(self, name)

    try:
        uuid.UUID.__getattribute__ = getattribute
        same(u)
        assert isojson.dumps(u) == b'"00000000-0000-0000-0000-000000000009"'
    finally:
        del uuid.UUID.__getattribute__
    assert isojson.dumps([u]) == b"[" + want + b"]"


def test_uuid_subclass_is_not_a_uuid():
    class U(uuid.UUID):
        pass

    same(U(int=5))
    same(U(int=5), default=str)


# --------------------------------------------------------------------------
# Enum


class Color(enum.Enum):
    RED = 1
    NAME = "name"
    FLOAT = 1.5
    LIST = [1, 2]
    NONE = None
    TRUE = True
    DATE = datetime.date(2020, 1, 2)
    UUID = uuid.UUID(int=7)
    BIG = 2**70


class Num(enum.IntEnum):
    ONE = 1
    BIG = 2**40


class Text(str, enum.Enum):
    A = "a-text"


class Perm(enum.Flag):
    R = 4
    W = 2


class Nested(enum.Enum):
    INNER = Color.RED
    DICT = {"k": Color.NAME}


@pytest.mark.parametrize("option", combos(orjson.OPT_PASSTHROUGH_SUBCLASS, SK, orjson.OPT_STRICT_INTEGER))
def test_enum_values(option):
    values = list(Color) + list(Num) + list(Text) + [Perm.R, Perm.R | Perm.W] + list(Nested)
    for v in values:
        if v is Color.BIG and not (option & orjson.OPT_STRICT_INTEGER):
            assert isojson.dumps(v, option=option) == str(2**70).encode()  # isojson writes big ints
            continue
        same(v, option)
    same([v for v in values if v is not Color.BIG], option)


def test_enum_keys():
    doc = {Color.RED: 1, Color.NAME: 2, Color.FLOAT: 3, Color.NONE: 4, Color.TRUE: 5, Color.DATE: 6, Color.UUID: 7,
           Num.ONE: 8, Text.A: 9, Nested.INNER: 10}
    for option in combos(SK, orjson.OPT_PASSTHROUGH_SUBCLASS):
        same(doc, option | NS)
    same({Color.LIST: 1}, NS)
    same({Color.RED: 1})


class Status(str, enum.Enum):
    # Written as its str (orjson takes str subclasses before Enum members),
    # not as its value, unless OPT_PASSTHROUGH_SUBCLASS.
    def __new__(cls, code, text):
        member = str.__new__(cls, text)
        member._value_ = code
        return member

    OK = (200, "ok")
    GONE = (410, "gone")


class Level(int, enum.Enum):
    def __new__(cls, number, name):
        member = int.__new__(cls, number)
        member._value_ = name
        return member

    LOW = (1, "low")


class Shape(list, enum.Enum):
    SQUARE = [4]


def test_enum_member_of_a_builtin_subclass_is_the_builtin():
    doc = [Status.OK, Level.LOW, Shape.SQUARE, {"s": Status.GONE, "l": Level.LOW}]
    for option in combos(orjson.OPT_PASSTHROUGH_SUBCLASS, SK):
        same(doc, option)
        same(Status.OK, option)
    assert isojson.dumps(doc) == b'["ok",1,[4],{"s":"gone","l":1}]'
    assert isojson.dumps(doc, option=orjson.OPT_PASSTHROUGH_SUBCLASS) == b'[200,"low",[4],{"s":410,"l":"low"}]'
    for option in (NS, NS | orjson.OPT_PASSTHROUGH_SUBCLASS):
        same({Status.OK: 1, Level.LOW: 2}, option)


def test_enum_value_of_another_kind():
    # isojson reads a member's _value_ itself while its class finds
    # enum.Enum's own `value`; anything else that `value` or the attribute
    # lookup may be is honoured, as orjson honours it by calling getattr.
    class Own(enum.Enum):
        A = 1
        B = "b"

        @property
        def value(self):
            return ["own", self._value_]

    class Looked(enum.Enum):
        A = 2

        def __getattribute__(self, name):
            return 40 if name in ("value", "_value_") else object.__getattribute__(self, name)

    class Base(enum.Enum):
        @property
        def value(self):
            return {"base": self._name_}

    class Derived(Base):
        X = 3

    for v in (Own.A, Own.B, Looked.A, Derived.X, [Own.B, Color.RED, Derived.X, Looked.A]):
        same(v)
    assert isojson.dumps([Own.A, Looked.A, Derived.X]) == b'[["own",1],40,{"base":"X"}]'

    # A member made by hand has no _value_: the property's own error
    # (orjson crashes).
    hand_made = object.__new__(Color)
    for doc in (hand_made, [1, hand_made], {"a": hand_made}):
        with pytest.raises(AttributeError, match="_value_"):
            isojson.dumps(doc)


def test_enum_value_replaced_on_enum_itself():
    stock = enum.Enum.__dict__["value"]
    assert isojson.dumps(Color.RED) == b"1"
    try:
        enum.Enum.value = property(lambda self: "replaced")
        for option in (None, orjson.OPT_PASSTHROUGH_SUBCLASS):
            same(Color.RED, option)
            same([Num.ONE, Text.A, Perm.W, Perm.R | Perm.W], option)
        assert isojson.dumps([Color.RED, Perm.W, Num.ONE]) == b'["replaced","replaced",1]'
    finally:
        enum.Enum.value = stock
    assert isojson.dumps([Color.RED, Perm.W, Num.ONE]) == b"[1,2,1]"


def test_enum_class_itself_is_not_serializable():
    same(Color)
    same([Color], default=lambda o: o.__name__)


# --------------------------------------------------------------------------
# dataclasses


@dataclasses.dataclass
class Point:
    y: int
    x: float = 0.5
    _hidden: int = 3
    label: str = "p"
    cv: typing.ClassVar[int] = 9


@dataclasses.dataclass
class Slotted:
    __slots__ = ("b", "a", "_c")
    b: int
    a: "Point"
    _c: int


@dataclasses.dataclass(slots=True)
class AutoSlots:
    z: int
    y: list


@dataclasses.dataclass(frozen=True)
class Frozen:
    when: datetime.date
    who: uuid.UUID
    color: Color


@dataclasses.dataclass
class WithInitVar:
    a: int
    b: dataclasses.InitVar[int] = 0


@dataclasses.dataclass
class Tree:
    value: int
    children: list


@dataclasses.dataclass
class Empty:
    pass


class NotDecorated(Point):
    pass


def dataclass_values():
    p = Point(1)
    p.extra = "added later"
    p._private = "skipped"
    deep = Tree(0, [])
    node = deep
    for i in range(20):
        child = Tree(i, [])
        node.children.append(child)
        node = child
    return [Point(1), p, Slotted(1, Point(2), 3), AutoSlots(1, [Point(3)]),
            Frozen(datetime.date(2020, 1, 1), uuid.UUID(int=3), Color.NAME), WithInitVar(1, 2), deep, Empty(),
            {"in_dict": [Point(4, 1.0, 0, "é😀")]}]


@pytest.mark.parametrize("option", combos(SK, orjson.OPT_INDENT_2, orjson.OPT_PASSTHROUGH_DATACLASS))
def test_dataclasses(option):
    for v in dataclass_values():
        same(v, option)
        same(v, option, default=lambda o: type(o).__name__)


def test_dataclass_edge_cases():
    same(NotDecorated(1))
    same(NotDecorated(1), default=lambda o: "nd")
    same(Point)  # the class itself
    p = Point(1)
    p.__dict__[5] = "non-str key"
    same(p)
    same(p, option=NS)


def test_dataclass_follows_changes_to_the_class():
    # isojson caches whether a class is a dataclass, and whether it has
    # __slots__, by the class's version tag: a class made a dataclass, or
    # no longer one, after its instances were written is seen as it is now.
    class Plain:
        def __init__(self, a):
            self.a = a
            self._b = 2

    def default(o):
        return "default"

    p = Plain(1)
    for _ in range(3):
        assert isojson.dumps([p, p], default=default) == b'["default","default"]'
    dataclasses.dataclass(Plain)  # in place: __dataclass_fields__ is set on Plain
    same([p, p], default=default)
    assert isojson.dumps([p, p], default=default) == b'[{"a":1},{"a":1}]'
    Plain.__slots__ = ()  # the fields (Plain has none), not the instance's dict
    p.__dict__["extra"] = 3
    same(p, default=default)
    assert isojson.dumps(p, default=default) == b"{}"
    del Plain.__slots__
    same(p, default=default)
    assert isojson.dumps(p, default=default) == b'{"a":1,"extra":3}'
    del Plain.__dataclass_fields__
    assert isojson.dumps([p], default=default) == b'["default"]'


def test_many_dataclasses_at_once():
    # More classes than the cache's entries, interleaved, each with its own
    # answer; and plain classes of the same shape among them.
    classes = [dataclasses.make_dataclass(f"D{i}", [("v", int)]) for i in range(40)]
    plains = [type(f"P{i}", (), {"__init__": lambda self, v: setattr(self, "v", v)}) for i in range(40)]
    doc = [cls(i) for i, cls in enumerate(classes)] + [cls(i) for i, cls in enumerate(plains)]
    doc = doc[::2] + doc[1::2]
    for _ in range(3):
        same(doc, default=lambda o: ["plain", o.v])


def test_dataclass_depth_counts_as_container():
    for n in (253, 254, 255):
        v = 1
        for _ in range(n):
            v = Tree(0, [v])
        same(v)


# --------------------------------------------------------------------------
# OPT_NON_STR_KEYS


class MyStr(str):
    pass


class MyInt(int):
    pass


def test_non_str_keys_every_type():
    doc = {1: "int", -5: "neg", 2**63: "u64", 2**64 - 1: "max", -(2**63): "min", True: "bool", False: "f",
           None: "none", 1.5: "float", -0.0: "negzero", 1e16: "big", 1e-7: "small", 0.1: "tenth",
           float("nan"): "nan", float("inf"): "inf", MyStr("sub"): "strsub", MyInt(9): "intsub", "str": "str",
           datetime.date(2020, 1, 1): "date", uuid.UUID(int=1): "uuid", Color.NAME: "enum"}
    for option in combos(SK, orjson.OPT_INDENT_2, orjson.OPT_PASSTHROUGH_SUBCLASS, orjson.OPT_STRICT_INTEGER):
        same(doc, option | NS)


def test_non_str_key_errors():
    for key in (2**64, -(2**63) - 1, (1,), frozenset(), MyFloat(1.0), b"x",
                Frozen(datetime.date(2020, 1, 1), uuid.UUID(int=1), Color.RED)):
        for option in (NS, NS | SK):
            same({"a": 1, key: 2}, option)
    same({"\ud800": 1}, NS)
    same({MyStr("\ud800"): 1}, NS)


class MyFloat(float):
    pass


def test_keys_are_converted_before_values():
    """Under NON_STR_KEYS (and SORT_KEYS) orjson converts every key first:
    a bad key is reported before a bad value that comes earlier."""
    for option in (NS, NS | SK, SK, 0):
        same({"a": set(), (1,): 2}, option)
        same({"a": set(), 1: 2}, option)
        seen_i, seen_o = [], []
        doc = {"b": object(), 3: object(), "a": object()}
        isojson.dumps(doc, option=option | NS, default=lambda o: seen_i.append(id(o)) or 0)
        orjson.dumps(doc, option=option | NS, default=lambda o: seen_o.append(id(o)) or 0)
        assert seen_i == seen_o


def test_sorting_mixed_keys():
    rng = random.Random(5)
    keys = [rng.randint(-1000, 1000) for _ in range(50)] + ["k%d" % i for i in range(50)]
    keys += [rng.random() for _ in range(20)] + [None, True, datetime.date(2020, 1, 1), uuid.UUID(int=9), "é", "😀"]
    rng.shuffle(keys)
    doc = {k: i for i, k in enumerate(keys)}
    for option in (NS | SK, NS | SK | orjson.OPT_INDENT_2):
        same(doc, option)


def test_duplicate_key_texts_keep_their_order():
    """1 and "1" are different keys with the same text: both are written,
    in dict order, also when sorted (a stable sort, as orjson)."""
    for option in (NS, NS | SK):
        same({"1": "str", 1: "int", "0": 0, 1.0 + 1: "two", "2": "s2"}, option)

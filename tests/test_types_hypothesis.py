"""Property test: for documents mixing every type dumps knows (and some it
does not), under random combinations of every option bit, isojson.dumps has
exactly orjson.dumps's outcome: the same bytes, or the same exception type,
message and cause. Values orjson gets wrong or crashes on are left out:
ints beyond 64 bits (isojson writes them), time microseconds 10000-99999
(orjson drops a zero), nesting beyond 254 levels."""

import dataclasses
import datetime
import enum
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import _util
from _util import isojson, orjson


class Color(enum.Enum):
    RED = 1
    NAME = "name"
    NONE = None


@dataclasses.dataclass
class Pair:
    left: object
    right: object


class Opaque:
    def __init__(self, v):
        self.v = v


ALL_OPTS = [1 << i for i in range(12)]

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.datetimes(timezones=st.one_of(st.none(), st.timezones())),
    st.dates(),
    st.times().filter(lambda t: not 10000 <= t.microsecond <= 99999),
    st.uuids(),
    st.sampled_from(list(Color)),
    st.builds(_util.MyStr, st.text(max_size=8)),
    st.builds(_util.MyInt, st.integers(min_value=-1000, max_value=1000)),
    st.builds(_util.MyFloat, st.floats(allow_nan=False)),
    st.builds(Opaque, st.integers(min_value=-(2**63), max_value=2**64 - 1)),
)

keys = st.one_of(st.text(max_size=10), st.integers(min_value=-(2**63), max_value=2**64 - 1), st.booleans(),
                 st.none(), st.floats(allow_nan=False), st.dates(), st.uuids(), st.sampled_from(list(Color)))


def containers(children):
    return st.one_of(
        st.lists(children, max_size=5),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=6), children, max_size=5),
        st.dictionaries(keys, children, max_size=4),
        st.builds(Pair, children, children),
        st.lists(children, max_size=3).map(_util.MyList),
        st.dictionaries(st.text(max_size=4), children, max_size=3).map(_util.MyDict),
    )


documents = st.recursive(scalars, containers, max_leaves=30)


def default(o):
    if isinstance(o, Opaque):
        return {"opaque": o.v}
    if isinstance(o, _util.MyFloat):
        return float(o)
    raise TypeError("no")


# 500 examples; under ISOJSON_TEST_SAMPLE a tenth of them, at least 50 (21 s of make test-pydbg at load 11).
@settings(max_examples=_util.sampled(500, 50), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=documents, bits=st.lists(st.sampled_from(ALL_OPTS), max_size=5), use_default=st.booleans())
def test_any_document_any_options(doc, bits, use_default):
    option = 0
    for b in bits:
        option |= b
    option &= ~orjson.OPT_SERIALIZE_NUMPY
    kwargs = {"option": option}
    if use_default:
        kwargs["default"] = default
    got = _util.outcome(isojson.dumps, doc, **kwargs)
    want = _util.outcome(orjson.dumps, doc, **kwargs)
    assert got == want

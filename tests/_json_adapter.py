"""The stdlib json behind isojson's signatures: a stand-in module that only
validates the harnesses orjson cannot run (sub-interpreters: orjson is
single-phase and refuses to load there). Select it with
ISOJSON_TEST_MODULE=_json_adapter. It is not an oracle and makes no claim to
orjson's output format."""

import json

OPT_INDENT_2 = 1 << 0
OPT_NAIVE_UTC = 1 << 1
OPT_NON_STR_KEYS = 1 << 2
OPT_OMIT_MICROSECONDS = 1 << 3
OPT_SERIALIZE_NUMPY = 1 << 4
OPT_SORT_KEYS = 1 << 5
OPT_STRICT_INTEGER = 1 << 6
OPT_UTC_Z = 1 << 7
OPT_PASSTHROUGH_SUBCLASS = 1 << 8
OPT_PASSTHROUGH_DATETIME = 1 << 9
OPT_APPEND_NEWLINE = 1 << 10
OPT_PASSTHROUGH_DATACLASS = 1 << 11
OPT_SERIALIZE_DATACLASS = 0
OPT_SERIALIZE_UUID = 0

JSONDecodeError = json.JSONDecodeError
JSONEncodeError = TypeError
__version__ = "0+stdlib-adapter"
backend = "stdlib"
backends = ("stdlib",)


def dumps(obj, /, default=None, option=None):
    option = option or 0
    if default is not None:
        default = _wrap_default(default)
    s = json.dumps(obj, default=default, ensure_ascii=False, allow_nan=False, check_circular=True,
                   sort_keys=bool(option & OPT_SORT_KEYS), indent=2 if option & OPT_INDENT_2 else None,
                   separators=(",", ": ") if option & OPT_INDENT_2 else (",", ":"))
    if option & OPT_APPEND_NEWLINE:
        s += "\n"
    return s.encode("utf-8", "surrogatepass")


def loads(obj, /):
    if isinstance(obj, (bytes, bytearray, memoryview)):
        obj = bytes(obj).decode("utf-8")
    return json.loads(obj)


def _wrap_default(default):
    def wrapped(obj):
        try:
            return default(obj)
        except Exception as e:
            raise TypeError(f"Type is not JSON serializable: {type(obj).__name__}") from e
    return wrapped

"""dumps and hostile objects (pyshim/dumps/): objects that run Python code in
the middle of a dumps walk (clearing the dict or list being walked, removing
a dataclass field, an Enum whose value is itself, interrupts and lying
subclasses, a lazy module's first lookup), and types orjson refuses. The
use-after-free cases run in a child Python with PYTHONMALLOC=debug, where
freed memory is poisoned (0xDD) and reading it crashes or yields garbage
instead of passing by luck."""

import pytest

import _util
from _util import isojson, orjson

IS_ISOJSON = _util.MODULE_NAME == "isojson"


def _run_debug(code):
    return _util.run_python(code, 120, env=_util.child_env(PYTHONMALLOC="debug"))


# orjson 3.13 itself crashes on these (it holds the dict's borrowed value
# across the key's Python code); isojson must write the value it met.
@pytest.mark.skipif(not IS_ISOJSON, reason="orjson crashes here")
def test_non_str_key_whose_utcoffset_clears_the_dict_keeps_the_value_alive():
    out = _run_debug("""
        import datetime
        from _util import isojson as m
        d = {}
        class TZ(datetime.tzinfo):
            def utcoffset(self, dt):
                d.clear()
                return datetime.timedelta(0)
        d[datetime.datetime(2020, 1, 1, tzinfo=TZ())] = ["v" * 50, [1, 2, 3]]
        for opt in (m.OPT_NON_STR_KEYS, m.OPT_NON_STR_KEYS | m.OPT_SORT_KEYS):
            print(m.dumps(d if d else {datetime.datetime(2020, 1, 1, tzinfo=TZ()): ["v" * 50, [1, 2, 3]]},
                          option=opt).decode())
    """)
    want = '{"2020-01-01T00:00:00+00:00":["' + "v" * 50 + '",[1,2,3]]}'
    assert out.split() == [want, want]


@pytest.mark.skipif(not IS_ISOJSON, reason="orjson crashes here")
def test_enum_key_whose_value_property_clears_the_dict_keeps_the_value_alive():
    out = _run_debug("""
        import enum
        from _util import isojson as m
        d = {}
        class E(enum.Enum):
            A = "a"
            @property
            def value(self):
                d.clear()
                return "k"
        d[E.A] = {"x": ["w" * 40]}
        print(m.dumps(d, option=m.OPT_NON_STR_KEYS).decode())
    """)
    assert out.strip() == '{"k":{"x":["' + "w" * 40 + '"]}}'


@pytest.mark.skipif(not IS_ISOJSON, reason="orjson crashes here")
def test_dataclass_field_property_that_removes_its_field_keeps_the_name_alive():
    # The field's name is a str subclass whose finalizer logs when it dies:
    # dumps must hold it until the call ends, not free it while the property
    # that removed it from __dataclass_fields__ returns.
    out = _run_debug("""
        import dataclasses
        from _util import isojson as m
        log = []
        class Name(str):
            def __del__(self):
                log.append("freed")
        @dataclasses.dataclass
        class P:
            __slots__ = ("_a",)
            _a: int
        def field(name):
            f = dataclasses.field()
            f.name = name
            f._field_type = dataclasses._FIELD
            return f
        def first(self):
            type(self).__dataclass_fields__.clear()
            return 5
        def second(self):
            log.append("second")
            return 6
        fields = {Name("first"): field(None), "second": field(None)}
        P.__dataclass_fields__ = fields
        P.first = property(first)
        P.second = property(second)
        print(m.dumps(P(1)).decode(), log)
    """)
    assert out.strip() == "{\"first\":5} ['freed']"


@pytest.mark.parametrize("contents", [b"[1]", "[1]"])
def test_fragment_of_a_subclass_of_bytes_or_str_is_refused_as_by_orjson(contents):
    sub = type("Sub", (type(contents),), {})(contents)
    with pytest.raises(orjson.JSONEncodeError) as want:
        orjson.dumps(orjson.Fragment(sub))
    with pytest.raises(isojson.JSONEncodeError) as got:
        isojson.dumps(isojson.Fragment(sub))
    assert str(got.value).replace("isojson", "orjson") == str(want.value)
    # the exact types still pass
    assert isojson.dumps(isojson.Fragment(contents)) == b"[1]"


@pytest.mark.skipif(not IS_ISOJSON, reason="orjson crashes here (unbounded C recursion)")
@pytest.mark.parametrize("as_key", [False, True])
def test_enum_whose_value_is_itself_raises_instead_of_recursing_forever(as_key):
    # A `value` property that returns the member: every nested Enum value is
    # bounded like nested containers, and raises orjson's depth error.
    out = _util.run_python("""
        import enum, sys
        from _util import isojson as m
        class E(enum.Enum):
            A = 1
            @property
            def value(self):
                return self
        obj = {E.A: 1} if sys.argv[1] == "1" else [E.A]
        try:
            m.dumps(obj, option=m.OPT_NON_STR_KEYS)
        except TypeError as e:
            print(e)
    """, 60, int(as_key))
    assert out.strip() == "Recursion limit reached"


def test_enum_whose_value_is_another_enum_still_serializes():
    import enum
    class Inner(enum.Enum):
        X = "x"
    class Outer(enum.Enum):
        A = Inner.X
    for m in (isojson, orjson):
        assert m.dumps([Outer.A]) == b'["x"]'
        assert m.dumps({Outer.A: 1}, option=m.OPT_NON_STR_KEYS) == b'{"x":1}'


class _Interrupt(KeyboardInterrupt):
    pass


class _IterDict(dict):
    def __iter__(self):
        return iter(["zz"])

    def items(self):
        return [("zz", 1)]


class _StrStr(str):
    def __str__(self):
        return "other"


class _LyingInt(int):
    def __index__(self):
        return 99

    def __int__(self):
        return 98


class _NoClass:
    @property
    def __class__(self):
        raise RuntimeError("no __class__")


def _raise_interrupt(o):
    raise _Interrupt


def _raise_exit(o):
    raise SystemExit(3)


# Hostile objects whose behaviour must stay orjson's, byte for byte or
# exception type, message and cause type.
HOSTILE = {
    "default raises KeyboardInterrupt subclass": lambda m: m.dumps(object(), default=_raise_interrupt),
    "default raises SystemExit": lambda m: m.dumps(object(), default=_raise_exit),
    "default returns its argument": lambda m: m.dumps(object(), default=lambda o: o),
    "default returns the same big list": lambda m: m.dumps([object()] * 20, default=lambda o: list(range(1000))),
    "dict subclass with __iter__ and items": lambda m: m.dumps(_IterDict(a=1)),
    "str subclass with __str__": lambda m: m.dumps([_StrStr("x")]),
    "str subclass key without NON_STR_KEYS": lambda m: m.dumps({_StrStr("x"): 1}),
    "str subclass key with NON_STR_KEYS": lambda m: m.dumps({_StrStr("x"): 1}, option=m.OPT_NON_STR_KEYS),
    "int subclass whose __index__ lies": lambda m: m.dumps([_LyingInt(5)]),
    "int subclass key whose __index__ lies": lambda m: m.dumps({_LyingInt(5): 1}, option=m.OPT_NON_STR_KEYS),
    "__class__ property raises, with default": lambda m: m.dumps(_NoClass(), default=lambda o: 1),
    "__class__ property raises, no default": lambda m: m.dumps(_NoClass()),
    "loads str with a lone surrogate": lambda m: m.loads('["a", "\udc00"]'),
    "option is an int subclass whose __index__ lies": lambda m: m.dumps(1, option=_LyingInt(2)),
}


def _outcome(f, m):
    try:
        return ("ok", f(m))
    except BaseException as e:
        cause = type(e.__cause__).__name__ if e.__cause__ is not None else None
        return (type(e).__name__, str(e).replace("isojson", "orjson"), cause)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_objects_behave_as_in_orjson(case):
    assert _outcome(HOSTILE[case], isojson) == _outcome(HOSTILE[case], orjson)


@pytest.mark.skipif(not IS_ISOJSON, reason="isojson's lazy type lookup only")
def test_lazy_module_whose_first_lookup_clears_the_list_keeps_the_item_alive():
    # dumps looks numpy's types up in sys.modules on first need; a LazyLoader
    # module runs its code then, and that code frees the item being written.
    out = _run_debug("""
        import importlib.util, os, sys, tempfile
        from _util import isojson as m
        assert "numpy" not in sys.modules
        path = os.path.join(tempfile.mkdtemp(), "lazy_numpy.py")
        with open(path, "w") as f:
            f.write("import __main__\\n__main__.victim.clear()\\nclass ndarray:\\n    pass\\n")
        spec = importlib.util.spec_from_file_location("numpy", path)
        spec.loader = importlib.util.LazyLoader(spec.loader)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["numpy"] = mod
        spec.loader.exec_module(mod)
        class Item:
            def __init__(self):
                self.tag = "item-" + "t" * 40
        victim = [Item()]
        print(m.dumps(victim, default=lambda o: o.tag, option=m.OPT_SERIALIZE_NUMPY).decode())
        os.remove(path)
    """)
    assert out.strip() == '["item-' + "t" * 40 + '"]'


@pytest.mark.skipif(not IS_ISOJSON, reason="a fake numpy module only isojson looks up")
def test_datetime64_array_whose_dtype_str_is_not_a_str_raises_type_error():
    # A numpy stand-in in sys.modules: an "ndarray" of datetime64 (typekind
    # 'M') whose dtype.str is an int, which real numpy never yields.
    out = _run_debug("""
        import ctypes, sys, types
        from _util import isojson as m
        class ArrayInterface(ctypes.Structure):
            _fields_ = [("two", ctypes.c_int), ("nd", ctypes.c_int), ("typekind", ctypes.c_char),
                        ("itemsize", ctypes.c_int), ("flags", ctypes.c_int),
                        ("shape", ctypes.POINTER(ctypes.c_ssize_t)), ("strides", ctypes.POINTER(ctypes.c_ssize_t)),
                        ("data", ctypes.c_void_p), ("descr", ctypes.c_void_p)]
        shape = (ctypes.c_ssize_t * 1)(1)
        strides = (ctypes.c_ssize_t * 1)(8)
        data = (ctypes.c_int64 * 1)(0)
        ai = ArrayInterface(2, 1, b"M", 8, 0x0201, shape, strides, ctypes.addressof(data), None)
        new_capsule = ctypes.pythonapi.PyCapsule_New
        new_capsule.restype = ctypes.py_object
        new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        fake = types.ModuleType("numpy")
        for name in ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint64", "uint32",
                     "uint16", "uint8", "bool_", "datetime64"):
            setattr(fake, name, type(name, (), {}))
        class ndarray:
            dtype = types.SimpleNamespace(str=5)
            @property
            def __array_struct__(self):
                return new_capsule(ctypes.addressof(ai), None, None)
        fake.ndarray = ndarray
        sys.modules["numpy"] = fake
        try:
            m.dumps(ndarray(), option=m.OPT_SERIALIZE_NUMPY)
        except Exception as e:
            print(type(e).__name__, e)
    """)
    assert out.strip() == "TypeError unsupported datatype in numpy array"

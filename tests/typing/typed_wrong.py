"""Mistakes mypy --strict must report, each with the error on its line.

tests/test_stub.py compares mypy's errors with the comments that begin with
E and a colon, exactly: a missing error, another error or an error on another
line fails the test. Several are what orjson 3.13's stub lets through."""

import isojson


def no_arguments() -> None:
    pass


isojson.Fragment(b"1").contents  # E: "Fragment" has no attribute "contents"  [attr-defined]
len(isojson.Fragment(b"1"))  # E: Argument 1 to "len" has incompatible type "Fragment"; expected "Sized"  [arg-type]
isojson.Fragment(b"1")[0]  # E: Value of type "Fragment" is not indexable  [index]
isojson.Fragment(1)  # E: Argument 1 to "Fragment" has incompatible type "int"; expected "bytes | str"  [arg-type]
isojson.Fragment(contents=b"1")  # E: Unexpected keyword argument "contents" for "Fragment"  [call-arg]


class MyFragment(isojson.Fragment):  # E: Cannot inherit from final class "Fragment"  [misc]
    pass


isojson.dumps(obj=[1])  # E: Unexpected keyword argument "obj" for "dumps"  [call-arg]
isojson.dumps([1], option="INDENT_2")  # E: Argument "option" to "dumps" has incompatible type "str"; expected "int | None"  [arg-type]
isojson.dumps([1], default=1)  # E: Argument "default" to "dumps" has incompatible type "int"; expected "Callable[[Any], Any] | None"  [arg-type]
isojson.dumps([1], no_arguments)  # E: Argument 2 to "dumps" has incompatible type "Callable[[], None]"; expected "Callable[[Any], Any] | None"  [arg-type]
isojson.dumps([1], None, 0, 0)  # E: Too many arguments for "dumps"  [call-arg]
text: str = isojson.dumps([1])  # E: Incompatible types in assignment (expression has type "bytes", variable has type "str")  [assignment]

isojson.loads(1)  # E: Argument 1 to "loads" has incompatible type "int"; expected "bytes | bytearray | memoryview[int] | str"  [arg-type]
isojson.loads(obj=b"1")  # E: Unexpected keyword argument "obj" for "loads"  [call-arg]
isojson.loads(b"1", b"2")  # E: Too many arguments for "loads"  [call-arg]

isojson.OPT_INDENT_2 = 2  # E: Cannot assign to final name "OPT_INDENT_2"  [misc]
isojson.backend = "scalar"  # E: Cannot assign to final name "backend"  [misc]
count: int = isojson.backends  # E: Incompatible types in assignment (expression has type "tuple[str, ...]", variable has type "int")  [assignment]
isojson.JSONDecodeError()  # E: Missing positional arguments "msg", "doc", "pos" in call to "JSONDecodeError"  [call-arg]
isojson.OPT_PRETTY  # E: Module has no attribute "OPT_PRETTY"  [attr-defined]

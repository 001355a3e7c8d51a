"""The module's per-interpreter state (pyshim/module.c, isojson.h): calls
made after the module's m_clear has run (as the garbage collector may at
shutdown, with a function object still alive) raise RuntimeError instead of
reading freed state. Runs in a child Python with PYTHONMALLOC=debug."""

import pytest

import _util

IS_ISOJSON = _util.MODULE_NAME == "isojson"


def _run_debug(code):
    return _util.run_python(code, 120, env=_util.child_env(PYTHONMALLOC="debug"))


@pytest.mark.skipif(not IS_ISOJSON, reason="isojson's module state only")
def test_dumps_and_loads_after_the_module_state_was_cleared_raise_runtime_error():
    # Runs the module's m_clear (as gc may at shutdown, with a function object
    # still alive) through its PyModuleDef, then calls dumps and loads.
    out = _run_debug("""
        import ctypes
        from _util import isojson as m
        get_def = ctypes.pythonapi.PyModule_GetDef
        get_def.restype = ctypes.c_void_p
        get_def.argtypes = [ctypes.py_object]
        mod = m.dumps.__self__
        base = get_def(mod)
        # PyModuleDef: m_base (PyObject_HEAD, m_init, m_index, m_copy: 5 words, or 7 on the
        # free-threaded build, whose object header is 4 words), then m_name, m_doc, m_size,
        # m_methods, m_slots, m_traverse, m_clear.
        head = object.__basicsize__ // 8 + 3
        slots = (ctypes.c_void_p * (head + 8)).from_address(base)
        assert ctypes.string_at(slots[head]).endswith(b"isojson"), ctypes.string_at(slots[head])
        m_size = ctypes.c_ssize_t.from_address(base + (head + 2) * 8).value
        assert m_size > 0, m_size
        # PYFUNCTYPE: called with the GIL held, as CPython calls m_clear
        # (CFUNCTYPE releases the GIL around the call; a Py_DEBUG build then
        # crashes in the Py_CLEAR of the module state).
        clear = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object)(slots[head + 6])
        assert clear(mod) == 0
        for call in (lambda: m.dumps([1]), lambda: m.loads(b"[1]")):
            try:
                call()
            except RuntimeError as e:
                print(e)
    """)
    assert out.splitlines() == ["isojson: module state is gone (interpreter shutting down)"] * 2

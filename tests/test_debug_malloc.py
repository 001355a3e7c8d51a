"""The parity, error, thread and sub-interpreter tests again, in a child
Python with PYTHONMALLOC=debug: buffer overruns, frees with the wrong
allocator and use of freed memory (filled with 0xDD) become crashes or
wrong results there. Marked debug_malloc and deselected inside that run, so
it does not recurse. The 200 create/destroy cycles (a child process of
their own) are left out to keep the run short."""

import pytest

import _util

SUBSET = ["test_parity_dumps.py", "test_parity_loads.py", "test_errors.py", "test_threads.py",
          "test_subinterpreters.py", "test_loads_ints.py"]


@pytest.mark.debug_malloc
def test_suite_subset_under_pythonmalloc_debug():
    _util.pytest_in_child(SUBSET, 900, deselect="not create_use_destroy_200_cycles", PYTHONMALLOC="debug")


def test_child_really_runs_with_debug_malloc():
    """PYTHONMALLOC=debug reaches the child: its allocators are the debug ones."""
    out = _util.run_python("""
        import _testinternalcapi
        print(_testinternalcapi.pymem_getallocatorsname())
    """, 60, env=_util.child_env(PYTHONMALLOC="debug"))
    assert out.strip().endswith("_debug"), out

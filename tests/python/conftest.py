"""Shared helpers for the numjit package tests.

The tests import numjit from the build tree (run_all.sh sets PYTHONPATH=build/python); they
do not skip when it is missing: a broken package must fail them.  `make_module` writes a
source file into a temporary directory and imports it, for tests that need their own module
text (syntax errors, the Numba drop-in, module constants).
"""
import importlib.util
import sys
import textwrap

import pytest


@pytest.fixture
def make_module(tmp_path):
    made = []

    def make(name, text):
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(text))
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        made.append(name)
        spec.loader.exec_module(mod)
        return mod

    yield make
    for name in made:
        sys.modules.pop(name, None)


def _numba_056():
    try:
        import numba
    except ImportError:
        return None
    return numba.__version__ if numba.__version__.startswith("0.56") else None


@pytest.fixture(scope="session")
def numba056():
    """Skips a test whose oracle is real Numba 0.56 (the version numjit follows) where the
    machine has another one (the GPU machine's numba-cuda brings a newer Numba)."""
    if not _numba_056():
        pytest.skip("compares with Numba 0.56, which this machine does not have")

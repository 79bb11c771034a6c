"""Shared helpers for the numjit package tests.

The tests import numjit from the build tree (run_all.sh sets PYTHONPATH=build/python); they
do not skip when it is missing: a broken package must fail them.  `make_module` writes a
source file into a temporary directory and imports it, for tests that need their own module
text (syntax errors, the Numba drop-in, module constants); `load_under_numjit` imports a file
with numjit answering `import numba` for the duration of the import.
"""
import importlib.util
import sys
import textwrap

import pytest

import numjit


def load_under_numjit(path, name):
    """The module at path, imported as name while sys.modules["numba"] is numjit."""
    saved = sys.modules.get("numba")
    sys.modules["numba"] = numjit
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        if saved is None:
            sys.modules.pop("numba", None)
        else:
            sys.modules["numba"] = saved
    return mod


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


RUNNER = """import runpy, sys
if sys.argv[1] == "numjit":
    import numjit
    sys.modules["numba"] = numjit
runpy.run_path(sys.argv[2], run_name="__main__")
"""


@pytest.fixture
def run_program(tmp_path):
    """run_program(which, text=None, path=None, ok=True) -> CompletedProcess: a program (its
    text, written to a file, or a file) run as __main__ in a child Python, under real Numba
    (which="numba") or under numjit through sys.modules["numba"] (which="numjit");
    asserts it exits 0 unless ok=False."""
    import os
    import subprocess

    def run(which, text=None, path=None, ok=True, timeout=300):
        if path is None:
            path = tmp_path / f"prog_{which}.py"
            path.write_text(text)
        runner = tmp_path / "runner.py"
        runner.write_text(RUNNER)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        r = subprocess.run([sys.executable, str(runner), which, str(path)], capture_output=True,
                           text=True, env=env, timeout=timeout)
        if ok:
            assert r.returncode == 0, r.stderr
        return r

    return run

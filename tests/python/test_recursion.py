"""Recursive functions (typer/typer.c, "recursion"), a.flat and np.ndenumerate (typer/typer_iter.c)
against real Numba 0.56 and NumPy.  The programs tests/lang/recursion.py and
tests/lang/flat_ndenumerate.py run under numjit and under Numba in subprocesses and must print
the same lines; the rest checks results against NumPy in process, deep recursion, exceptions
raised at depth, and the diagnostics."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numjit
from numjit import njit

pytestmark = pytest.mark.usefixtures("numba056")  # Numba 0.56 is the oracle

HERE = os.path.dirname(os.path.abspath(__file__))
LANG = os.path.join(HERE, "..", "lang")
NUMBA_PY = "/usr/bin/python3"
RUNNER = textwrap.dedent("""
    import runpy, sys
    if sys.argv[1] == "numjit":
        import numjit
        sys.modules["numba"] = numjit
    runpy.run_path(sys.argv[2], run_name="__main__")
    """)


def have_numba():
    try:
        return subprocess.run([NUMBA_PY, "-c", "import numba"], capture_output=True).returncode == 0
    except OSError:
        return False


def run_program(tmp_path, which, path):
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ)
    python = sys.executable if which == "numjit" else NUMBA_PY
    if which == "numba":
        env.pop("PYTHONPATH", None)
    r = subprocess.run([python, str(runner), which, path], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.skipif(not have_numba(), reason="real Numba is not installed")
@pytest.mark.parametrize("name", ["recursion.py", "flat_ndenumerate.py"])
def test_same_as_numba(tmp_path, name):
    path = os.path.join(LANG, name)
    ours = run_program(tmp_path, "numjit", path)
    theirs = run_program(tmp_path, "numba", path)
    assert ours == theirs


@njit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@njit
def is_even(n):
    if n > 0:
        return is_odd(n - 1)
    return True


@njit
def is_odd(n):
    if n > 0:
        return is_even(n - 1)
    return False


@njit
def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1


@njit
def raise_at(n, k):
    t = np.ones(4) * n
    if n == k:
        return t[0] // 0.0
    return raise_at(n + 1, k) + t[1]


@njit
def tree(n):
    if n == 0:
        return np.ones(2), 1
    a, k = tree(n - 1)
    b, m = tree(n - 1)
    return a + b, k + m


@njit
def partition(a, lo, hi):
    p = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < p:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


@njit
def quicksort_views(v):
    if v.shape[0] <= 1:
        return
    p = partition(v, 0, v.shape[0] - 1)
    quicksort_views(v[:p])
    quicksort_views(v[p + 1:])


@njit
def flat_list(a, out):
    k = 0
    for v in a.flat:
        out[k] = v
        k += 1


@njit
def nde_list(a, idx, out):
    k = 0
    for ix, v in np.ndenumerate(a):
        for d in range(len(ix)):
            idx[k, d] = ix[d]
        out[k] = v
        k += 1


@njit
def flat_at(a, i):
    return a.flat[i]


def test_values():
    assert [fib(n) for n in range(15)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377]
    assert is_even(10) is True and is_odd(7) is True and is_even(7) is False
    arr, count = tree(6)
    assert count == 64 and arr.tolist() == [64.0, 64.0]


def test_deep_recursion():
    assert depth(20000) == 20000


def test_exception_at_depth():
    for k in (0, 1, 50, 500):
        with pytest.raises(ZeroDivisionError):
            raise_at(0, k)


def test_quicksort_matches_numpy():
    rng = np.random.RandomState(3)
    for size in (0, 1, 5, 100, 3000):
        for dt in (np.float64, np.int32):
            x = (rng.rand(size) * 1000).astype(dt)
            y = x.copy()
            quicksort_views(y)
            assert np.array_equal(y, np.sort(x))
            z = np.zeros(2 * size, dt)
            z[::2] = x
            quicksort_views(z[::2])  # a strided view: sorted in place
            assert np.array_equal(z[::2], np.sort(x))


@pytest.mark.parametrize("make", [
    lambda c: c, lambda c: np.asfortranarray(c), lambda c: c[:, ::2], lambda c: c.T,
    lambda c: c[::-1, 1:], lambda c: c.reshape(2, 3, 4).transpose(1, 2, 0)])
def test_flat_and_ndenumerate_match_numpy(make):
    a = make(np.arange(24.0).reshape(4, 6))
    out = np.zeros(a.size)
    flat_list(a, out)
    assert out.tolist() == list(a.flat)
    idx = np.zeros((a.size, a.ndim), np.int64)
    nde_list(a, idx, out)
    want = list(np.ndenumerate(a))
    assert [tuple(r) for r in idx.tolist()] == [w[0] for w in want]
    assert out.tolist() == [w[1] for w in want]
    for i in (0, 1, a.size // 2, a.size - 1, -1, -a.size):
        assert flat_at(a, i) == a.flat[i]


def test_runaway_recursion_is_located(tmp_path):
    src = tmp_path / "runaway_mod.py"
    src.write_text(textwrap.dedent("""
        from numjit import njit

        @njit
        def down(n):
            return down(n - 1)
        """))
    sys.path.insert(0, str(tmp_path))
    try:
        import runaway_mod
        with pytest.raises(numjit.errors.TypingError) as e:
            runaway_mod.down(3)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("runaway_mod", None)
    msg = str(e.value)
    assert "runaway_mod.py:6:12: error: cannot infer the return type of 'down'" in msg
    assert "^" in msg


def test_flat_misuse_is_located(make_module):
    m = make_module("flat_bad", """
        from numjit import njit

        @njit
        def f(a):
            x = a.flat
            return 0
        """)
    with pytest.raises(numjit.errors.TypingError, match=r"flat_bad.py:6:9: error: numjit "
                       r"supports a.flat only"):
        m.f(np.zeros(3))


CUDA_SRC = textwrap.dedent("""
    from numba import cuda

    @cuda.jit(device=True)
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    @cuda.jit(device=True)
    def is_even(n):
        if n > 0:
            return is_odd(n - 1)
        return True

    @cuda.jit(device=True)
    def is_odd(n):
        if n > 0:
            return is_even(n - 1)
        return False

    @cuda.jit
    def k(out, par):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = fib(i)
            par[i] = is_even(i)
    """)


def test_recursive_device_functions_assemble(tmp_path):
    """PTX calls a recursive device function through the call stack; ptxas accepts it."""
    import shutil
    ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                      if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
    exe = os.environ.get("NUMJIT_CLI") or os.path.join(
        HERE, "..", "..", os.environ.get("NUMJIT_BUILD", "build"), "numjit")
    if not ptxas or not os.path.exists(exe):
        pytest.skip("no ptxas or no numjit command")
    src = tmp_path / "rec_k.py"
    src.write_text(CUDA_SRC)
    ptx = tmp_path / "k.ptx"
    r = subprocess.run([exe, "ptx", str(src), "--sig", "k(int64[:], bool[:])", "--arch", "sm_90",
                        "-o", str(ptx)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()
    assert ".func fib__int64_(" in text and "call.uni" in text
    r = subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr

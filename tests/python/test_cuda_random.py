"""numba.cuda.random in numjit: the xoroshiro128+ generators give Numba's numbers bit for bit.

The generator functions are written in numjit's language (stdlib/cuda_random.py) and compiled
into whatever imports them: here on the CPU, from Python and from @njit code; the PTX of a
Monte Carlo kernel is checked with ptxas when the CUDA toolkit is there (tests/gpu runs it).
Numba 0.56's own module runs on the CPU too, so it is the oracle where it is installed.
"""
import os
import shutil
import subprocess

import numpy as np
import pytest

import numjit
from numjit.cuda import random as njr

try:
    from numba.cuda import random as nbr
except Exception:  # pragma: no cover - Numba missing or broken
    nbr = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("NUMJIT_BUILD", "build"))

PROGRAM = os.path.join(ROOT, "tests", "gpu", "mc_pi.py")


@pytest.fixture(scope="module")
def prog():
    return PROGRAM, numjit.load_numba_module(PROGRAM, "nj_mc_pi_cpu")


def _states(n, seed, sub=0):
    s = np.empty((n, 2), dtype=np.uint64)
    njr.init_xoroshiro128p_states_cpu(s, seed, sub)
    return s


@pytest.mark.skipif(nbr is None, reason="Numba is not installed")
@pytest.mark.parametrize("n,seed,sub", [(1, 0, 0), (7, 1, 0), (300, 12345, 2), (4, -7, 1)])
def test_same_numbers_as_numba(n, seed, sub):
    a = np.empty(n, dtype=nbr.xoroshiro128p_dtype)
    nbr.init_xoroshiro128p_states_cpu(a, seed, sub)
    b = _states(n, seed, sub)
    assert np.array_equal(a.view(np.uint64).reshape(-1, 2), b)
    for name in ("xoroshiro128p_next", "xoroshiro128p_uniform_float32",
                 "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
                 "xoroshiro128p_normal_float64"):
        want = [getattr(nbr, name)(a, n - 1) for _ in range(40)]
        got = [getattr(njr, name)(b, n - 1) for _ in range(40)]
        assert want == got, name
    assert np.array_equal(a.view(np.uint64).reshape(-1, 2), b)


def test_uniform_range_and_independence():
    s = _states(4, 42)
    u = np.array([njr.xoroshiro128p_uniform_float64(s, 1) for _ in range(2000)])
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.03
    t = _states(4, 42)
    first = [njr.xoroshiro128p_next(t, 0) for _ in range(3)]
    second = [njr.xoroshiro128p_next(t, 1) for _ in range(3)]
    assert first != second                     # generators 2**64 steps apart
    with pytest.raises(TypeError, match="shape"):
        njr.init_xoroshiro128p_states_cpu(np.empty(4, np.uint64), 1)


def test_njit_code_imports_the_generators(prog):
    _, mod = prog
    s = _states(8, 7)
    pi = mod.pi_cpu(s, 3, 20000)
    assert abs(pi - np.pi) < 0.05
    ref = _states(8, 7)
    inside = 0
    for _ in range(20000):
        x = njr.xoroshiro128p_uniform_float32(ref, 3)
        y = njr.xoroshiro128p_uniform_float32(ref, 3)
        inside += np.float32(x) ** 2 + np.float32(y) ** 2 <= 1.0   # float32, as typed
    assert pi == 4.0 * inside / 20000
    out = np.empty(5)
    s2 = _states(2, 99)
    mod.normals(s2, 5, out)                    # imported under an alias
    s3 = _states(2, 99)
    assert list(out) == [njr.xoroshiro128p_normal_float64(s3, 0) for _ in range(5)]
    assert mod.uniform_float32(2.0, 3.0) == 6.0


def test_kernel_ptx(prog, tmp_path):
    path, _ = prog
    exe = os.path.join(BUILD, "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command in the build")
    out = subprocess.run([exe, "ptx", str(path), "--sig",
                          "compute_pi(uint64[:, ::1], int64, float32[:])"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ptx = out.stdout
    assert ".entry" in ptx and "xor.b64" in ptx and "mul.lo.s64" in ptx
    if shutil.which("ptxas"):
        p = tmp_path / "mc_pi.ptx"
        p.write_text(ptx)
        r = subprocess.run(["ptxas", "-arch=sm_90", str(p), "-o", os.devnull],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr

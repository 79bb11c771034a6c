"""Complex numbers in CUDA kernels and GPU ufuncs: tests/gpu/complex_kernels.py (numba-cuda
source) run through numjit and checked against NumPy (and against numba-cuda when it is
installed).  Skipped without a CUDA driver or device."""
import os
import sys

import numpy as np
import pytest

import numjit
from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
K = numjit.load_numba_module(os.path.join(HERE, "complex_kernels.py"), "nj_gpu_complex")


def mandel_ref(w, h, maxit):
    x = -2.0 + 3.0 * np.arange(w) / w
    y = -1.5 + 3.0 * np.arange(h) / h
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    n = np.zeros(c.shape, np.int32)
    alive = np.ones(c.shape, bool)
    for _ in range(maxit):
        alive &= np.abs(z) <= 2.0
        z = np.where(alive, z * z + c, z)
        n += alive
    return n


def test_mandelbrot_with_complex_arithmetic():
    w, h, maxit = 300, 200, 60
    img = np.zeros((h, w), np.int32)
    K.mandel[(w // 16 + 1, h // 16 + 1), (16, 16)](img, w, h, maxit)
    want = mandel_ref(w, h, maxit)
    # a point exactly on the escape radius may differ by one step (fma on the GPU)
    assert (img != want).mean() < 1e-3


@pytest.mark.parametrize("dt, ft, tol", [(np.complex128, np.float64, 1e-13),
                                          (np.complex64, np.float32, 1e-4)])
def test_complex_arrays_and_cmath(dt, ft, tol):
    rng = np.random.default_rng(3)
    n = 10_001
    a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    out = np.zeros(n, dt)
    mag = np.zeros(n, ft)
    K.kc[(n + 127) // 128, 128](a, out, mag)
    w = a * a + 1j
    want = np.exp(w) / (a + 2)
    np.testing.assert_allclose(out, want.astype(dt), rtol=tol)
    np.testing.assert_allclose(mag, (np.abs(w) + want.real).astype(ft), rtol=tol, atol=tol)


def test_complex_gpu_ufunc():
    @numjit.vectorize(["complex128(complex128, float64)"], target="cuda")
    def rot(z, t):
        return z * complex(np.cos(t), np.sin(t))

    z = np.arange(1000) * (1 + 0.5j)
    t = np.linspace(0, 3, 1000)
    np.testing.assert_allclose(rot(z, t), z * np.exp(1j * t), rtol=1e-12)

"""GPU ufuncs and gufuncs shared by numjit's tests: valid numba-cuda source.

tests/unit/test_gpu_loops.c generates and checks their PTX (no GPU needed);
tests/gpu/test_gpu_ufunc.c and tests/gpu/test_gpu_ufunc.py run them on a GPU against NumPy.
"""
import math

from numba import vectorize, guvectorize


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def rel32(x, y):
    """All-float32 for float32 inputs: no literal widens it."""
    return (x - y) / (x + y)


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def rel_diff(x, y):
    """W1 of the benchmarks (the int literal makes float32 inputs compute in float64, as Numba)."""
    return 2 * (x - y) / (x + y)


@vectorize(["float64(float64)", "float32(float32)"], target="cuda")
def trig(x):
    """W2: libdevice sin and cos."""
    return math.sin(x) ** 2 + math.cos(x) ** 2


@vectorize(["int32(int8, int16)", "int64(int64, int64)"], target="cuda")
def imix(a, b):
    """Small integer dtypes (8 elements per thread in the vector path); Python's // and %."""
    return a * 3 + b // 2 - a % 5


@vectorize(["boolean(float64, float64)"], target="cuda")
def close(a, b):
    return abs(a - b) < 1e-3


@vectorize(["float64(float64, float64, float64)"], target="cuda")
def fma3(a, b, c):
    return a * b + c


@guvectorize(["void(float64[:], float64[:], float64[:])",
              "void(float32[:], float32[:], float32[:])"], "(n),(n)->()", target="cuda")
def rowdot(a, b, out):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    out[0] = acc


@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="cuda")
def axpy_rows(x, a, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + i


@guvectorize(["void(float32[:, :], float32[:, :], float32[:, :])"], "(m,k),(k,p)->(m,p)",
             target="cuda")
def matmul_core(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for t in range(a.shape[1]):
                s += a[i, t] * b[t, j]
            c[i, j] = s

"""Kernels and GPU ufuncs for tests/gpu/test_cuda_api.py: plain numba-cuda source (imported
with numba meaning numjit), exercising events, streams, pinned and mapped memory, device
array views and GPU ufunc reduce."""
import math

from numba import cuda, vectorize


@cuda.jit
def scale(x, out, a):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * a


@cuda.jit
def spin_add(x, rounds):
    """Adds 1 to every element `rounds` times, slowly (a kernel that runs long enough for a
    stream to be still busy when the host looks)."""
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for r in range(rounds):
            v = v + 1.0 + 0.0 * math.sin(v)
        x[i] = v


@cuda.jit
def add_one_inplace(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


@cuda.jit
def copy2d(src, dst):
    i, j = cuda.grid(2)
    if i < dst.shape[0] and j < dst.shape[1]:
        dst[i, j] = src[i, j]


@vectorize(["float32(float32, float32)", "float64(float64, float64)",
            "int32(int32, int32)", "int64(int64, int64)"], target="cuda")
def gadd(a, b):
    return a + b


@vectorize(["float32(float32, float32)", "float64(float64, float64)", "int64(int64, int64)"],
           target="cuda")
def gmax(a, b):
    return a if a > b else b


@vectorize(["float64(float64)"], target="cuda")
def gneg(a):
    return -a

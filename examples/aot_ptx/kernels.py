"""Kernels compiled ahead of time to PTX by `numjit ptx` (see README.md and main.c)."""
from numba import cuda


@cuda.jit
def axpy(a, x, y):
    """y = a * x + y over a 1-D grid."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i] + y[i]


@cuda.jit
def scale2d(m, s):
    """m *= s over a 2-D grid (any strides)."""
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] *= s

# prange as a loop iterable: `from numba import prange` and `numba.prange`, with one and two
# arguments under @njit(parallel=True) (Numba's parallel loops need a step of 1) and with
# steps, negative ones too, under plain @njit; reductions into a scalar and writes to
# distinct elements.  numjit runs the iterations
# serially, in order: the results are Numba's (exactly, for these integer-valued data).
import numba
from numba import njit, prange
import numpy as np


@njit(parallel=True)
def psum(a):
    t = 0.0
    for i in prange(a.shape[0]):
        t += a[i]
    return t


@njit(parallel=True)
def pstart(a, start):
    t = 0
    for i in numba.prange(start, a.shape[0]):
        t += a[i]
    return t


@njit
def pstep(a, start, step):
    t = 0
    for i in numba.prange(start, a.shape[0], step):
        t += a[i]
    return t


@njit
def pdown(n):
    t = 0
    for i in prange(n, 0, -3):
        t = t * 3 + i
    return t


@njit(parallel=True)
def psquare(a, out):
    for i in prange(len(a)):
        out[i] = a[i] * a[i]


@njit(parallel=True)
def pnested(m):
    t = 0.0
    for i in prange(m.shape[0]):
        for j in range(m.shape[1]):
            t += m[i, j] * (j + 1)
    return t


if __name__ == "__main__":
    a = np.arange(12, dtype=np.float64) * 0.5
    print("psum", repr(psum(a)), repr(psum(a[:0])))
    b = np.arange(20, dtype=np.int64)
    print("pstart", pstart(b, 0), pstart(b, 5), pstart(b, 30))
    print("pstep", pstep(b, 0, 1), pstep(b, 1, 2), pstep(b, 5, 7))
    print("pdown", pdown(10), pdown(0), pdown(1))
    out = np.zeros(6)
    psquare(np.arange(6, dtype=np.float64) - 2.0, out)
    print("psquare", out.tolist())
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    print("pnested", repr(pnested(m)), repr(pnested(np.asfortranarray(m))))

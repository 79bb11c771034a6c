"""Module doc."""
import math
import numpy as np
from numba import njit, cuda, vectorize as vec, guvectorize
import numba as nb

TPB = 16
EPS = 1e-9
N2 = TPB * 2 + 1

@njit(cache=True, fastmath=True)
def f(x, y=2):
    """Adds."""
    a = b = 0
    i, j = 1, 2
    a += x ** 2
    if a < b <= 3 and not x:
        return -2**2
    elif x is not None:
        pass
    else:
        while a:
            break
    for k in range(0, 10, 2):
        a[i, j] = a[:, ::1] + 0x1F + 0o17 + 0b101 + 1_000 + 1. + .5 + 1e-3
        continue
    return (a, b) if x else [a, b]

@vec(['float64(float64, float64)', float32(float32, float32)], target='parallel')
def g(a, b):
    return a + b

@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()')
def h(a, b, out):
    out[0] = 0

@cuda.jit('void(float32[:])')
def k(a):
    i = cuda.grid(1)

@nb.njit
def m(): return 1

if __name__ == "__main__":
    print(f(np.arange(10.0)), "x" % 3, end="")
    a.sum()

# numba.stencil, more kernels: several returns, module constants and @njit helpers in the
# kernel, slices of the neighborhood, two relatively indexed arrays (and Numba's ValueError
# when the second is smaller), non-contiguous and Fortran inputs, complex and int32 results,
# an int cval into a float result, a stencil called in a loop of @njit code.
import math

import numpy as np
from numba import njit, stencil

SCALE = 0.5


@njit
def clip(x, lo, hi):
    return min(max(x, lo), hi)


@stencil
def branchy(a):
    if a[0] > 10:
        return a[-1]
    elif a[0] < 3:
        return -a[1]
    return SCALE * (a[-1] + a[1])


@stencil
def clipped(a):
    return clip(a[0, 1] - a[0, -1], -2.0, 2.0)


@stencil(neighborhood=((-2, 2),))
def window_sum(a):
    return np.sum(a[-2:3])


@stencil
def two(a, b):
    return a[0, 0] * b[1, 1] - a[-1, 0]


@stencil
def cplx(a):
    return a[1] * 1j + a[-1]


@stencil
def i32(a):
    return np.int32(a[1] - a[0])


@stencil(cval=3)
def flt(a):
    return math.sqrt(a[-1] + a[1])


@njit
def repeated(a, n):
    for _ in range(n):
        a = branchy(a)
    return a


def show(label, r):
    print(label, type(r).__name__, r.dtype, r.shape, r.tolist())


if __name__ == "__main__":
    x = np.array([1.0, 5.0, 2.0, 12.0, 7.0, 0.5, 30.0, 4.0])
    show("branchy", branchy(x))
    g = np.arange(20.0).reshape(4, 5) ** 2 / 7
    show("clipped", clipped(g))
    show("clipped-F", clipped(np.asfortranarray(g)))
    show("clipped-strided", clipped(np.arange(40.0).reshape(4, 10)[:, ::2]))
    show("window_sum", window_sum(np.arange(9.0)))
    h = np.ones((5, 6)) * 2.0
    show("two", two(g[:, :4].copy(), h))
    try:
        two(h, g)
    except ValueError as e:
        print("two-smaller", type(e).__name__, e)
    show("cplx", cplx(np.arange(5.0)))
    show("i32", i32(np.arange(6) * 7))
    show("flt", flt(np.arange(6.0)))
    show("repeated", repeated(x, 3))

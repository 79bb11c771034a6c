# numba.cfunc: C callbacks compiled at decoration, called through .ctypes, by SciPy's quad
# (scipy.LowLevelCallable of f.ctypes: double f(double) and double f(int, double *)) and
# generic_filter (int f(double *, intptr_t, double *, void *)), with carray/farray views of
# raw pointers, pointers indexed directly, results converted to the declared type, and
# the Python function behind __call__.
import ctypes
import math

import numpy as np
import scipy
from scipy import integrate, ndimage
from numba import cfunc, carray, farray, njit, types
from numba.types import intc, intp, float64, float32, int64, voidptr, CPointer


@cfunc("float64(float64, float64)")
def add(x, y):
    return x + y


@cfunc(float64(float64), nopython=True, cache=False)
def integrand(t):
    return math.exp(-t) / t ** 2 if t > 1 else 0.5


@njit
def poly(x, k):
    return x ** k - 3 * x


@cfunc(float64(intc, CPointer(float64)))
def nd_integrand(n, xx):
    a = carray(xx, (n,))
    return poly(a[0], 3) + a[1] * a[2]


@cfunc(intc(CPointer(float64), intp, CPointer(float64), voidptr))
def fmean(values_ptr, n, result, data):
    values = carray(values_ptr, (n,), dtype=np.float64)
    s = 0.0
    for v in values:
        s += v
    result[0] = s / n
    return 1


@cfunc(intc(CPointer(float64), intp, CPointer(float64), voidptr))
def fmax_minus_min(values_ptr, n, result, data):
    values = carray(values_ptr, n)
    result[0] = values.max() - values.min()
    return 1


@cfunc(types.void(CPointer(float64), intc, intc))
def fill(p, r, c):
    a = carray(p, (r, c))
    b = farray(p, (r, c))
    for i in range(r):
        for j in range(c):
            a[i, j] = i * 10 + j
    b[0, 1] += 0.5


@cfunc(int64(voidptr, intc))
def sum_int32(p, n):
    a = carray(p, n, np.int32)
    t = 0
    for i in range(n):
        t += a[i]
    return t


@cfunc(float32(float64))
def narrow(x):
    return x / 3


@cfunc(intc(float64))
def truncate(x):
    return x * 2


if __name__ == "__main__":
    print("add", type(add.address).__name__, repr(add.ctypes(2.0, 3.5)), add(2, 3))
    print("native_name", isinstance(add.native_name, str))
    val, err = integrate.quad(scipy.LowLevelCallable(integrand.ctypes), 0, 3)
    print("quad", repr(round(val, 12)), err < 1e-6)
    val, err = integrate.nquad(scipy.LowLevelCallable(nd_integrand.ctypes),
                               [[0, 1], [0, 2], [1, 2]])
    print("nquad", repr(round(val, 10)))
    img = np.arange(25.0).reshape(5, 5) ** 1.5
    print("generic_filter mean", ndimage.generic_filter(img, scipy.LowLevelCallable(
        fmean.ctypes), size=3).tolist())
    print("generic_filter range", ndimage.generic_filter(img, scipy.LowLevelCallable(
        fmax_minus_min.ctypes), size=(2, 3), mode="constant", cval=1.0).tolist())
    buf = np.zeros(6)
    fill.ctypes(buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), 2, 3)
    print("fill", buf.tolist())
    ints = np.array([7, -2, 40, 1000], dtype=np.int32)
    print("sum_int32", sum_int32.ctypes(ints.ctypes.data_as(ctypes.c_void_p), 4))
    print("narrow", repr(narrow.ctypes(1.0)), "truncate", truncate.ctypes(2.75),
          truncate.ctypes(-2.75))
    print("call", repr(integrand(0.5)), repr(narrow(1.0)))
    print("ctypes", type(add.ctypes).__name__.startswith("CFunctionType"),
          add.ctypes.restype is ctypes.c_double)
    print("carray", carray(buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), (3, 2)).tolist(),
          farray(buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), (3, 2)).tolist())

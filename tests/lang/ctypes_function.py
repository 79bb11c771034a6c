# ctypes function pointers used as globals of compiled code, as Numba calls them: libm's
# functions with argtypes and restype set, arguments converted to the declared C types.
import ctypes
import ctypes.util

import numpy as np
from numba import njit

libm = ctypes.CDLL(ctypes.util.find_library("m"))
c_cos = libm.cos
c_cos.argtypes = (ctypes.c_double,)
c_cos.restype = ctypes.c_double
c_powf = libm.powf
c_powf.argtypes = (ctypes.c_float, ctypes.c_float)
c_powf.restype = ctypes.c_float
c_abs = libm.abs if hasattr(libm, "abs") else ctypes.CDLL(None).abs
c_abs.argtypes = (ctypes.c_int,)
c_abs.restype = ctypes.c_int


@njit
def cos_sum(a):
    s = 0.0
    for x in a:
        s += c_cos(x)
    return s


@njit
def mixed(x, n):
    return c_powf(x, 2) + c_abs(n)


if __name__ == "__main__":
    r = cos_sum(np.linspace(0.0, 3.0, 7))
    print(type(r).__name__, round(r, 12))
    r = cos_sum(np.arange(4))
    print(type(r).__name__, round(r, 12))
    r = mixed(1.5, -7)
    print(type(r).__name__, r)
    r = mixed(np.float32(0.1), np.int64(3))
    print(type(r).__name__, r)

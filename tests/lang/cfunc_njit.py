# numba.cfunc objects called from @njit code: the arguments and the result converted to the
# callback's declared types (an int passed to a float64 parameter, a float result declared
# int32 or float32), a callback returning nothing, and the same objects through .ctypes.
import numpy as np
from numba import cfunc, njit, types


@cfunc("float64(float64)")
def sq(x):
    return x * x


@cfunc(types.int32(types.float64, types.int64))
def scaled(x, k):
    return x * k


@cfunc(types.float32(types.float64))
def third(x):
    return x / 3


@cfunc(types.void(types.int64))
def nothing(n):
    m = n + 1


@njit
def use(x, k):
    a = sq(x) + 1
    b = scaled(x, k)
    c = third(x)
    nothing(k)
    return a, b, c


@njit
def total(xs):
    s = 0.0
    for v in xs:
        s += sq(v)
    return s


if __name__ == "__main__":
    for x, k in ((3.0, 2), (2.5, 3), (-1.75, 7)):
        a, b, c = use(x, k)
        print(type(a).__name__, repr(a), type(b).__name__, b, type(c).__name__, repr(c))
    print(repr(use(4, 1)[0]))
    print(repr(total(np.arange(5.0))))
    print(sq.ctypes(1.5), scaled.ctypes(2.6, 2), repr(third.ctypes(1.0)))

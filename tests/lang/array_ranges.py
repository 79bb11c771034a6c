# np.arange and np.linspace inside compiled functions, with Numba's dtype rules: integer bounds
# give int64 (also from int8/int32 values), any float bound float64, dtype= decides otherwise;
# the element count is ceil((stop - start) / step), empty when negative; linspace is float64,
# ends exactly on stop, and its two-argument form has 50 points.  A zero step raises ValueError.
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def ar1(n):
    return np.arange(n)


@njit
def ar2(a, b):
    return np.arange(a, b)


@njit
def ar3(a, b, s):
    return np.arange(a, b, s)


@njit
def ar_dtype(n):
    return np.arange(n, dtype=np.float32), np.arange(1, n, 2, np.int32)


@njit
def ar_kw(n):
    return np.arange(start=1, stop=n), np.arange(n, step=2)


@njit
def ar_mixed():
    return (np.arange(0.5, 3), np.arange(0, 1, 0.1), np.arange(2, 7, 2.5),
            np.arange(1, 2, 0.3, np.float32), np.arange(2.5, dtype=np.int64),
            np.arange(0, 1, 0.3, dtype=np.int64))


@njit
def lin(a, b, n):
    return np.linspace(a, b, n)


@njit
def lin50(a, b):
    return np.linspace(a, b)


@njit
def lin_sum(n):
    x = np.linspace(0.0, 1.0, n)
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


if __name__ == "__main__":
    show(ar1(5))
    show(ar1(0))
    show(ar1(-3))
    show(ar1(np.int32(4)))
    show(ar1(np.int8(3)))
    show(ar1(5.5))
    show(ar1(np.float32(3)))
    show(ar2(1, 5))
    show(ar2(5, 1))
    show(ar2(np.int32(1), np.int32(5)))
    show(ar3(1, 10, 3))
    show(ar3(10, 0, -3))
    show(ar3(3, 1, 0.5))
    show(ar3(0.0, 1.0, 0.25))
    for a in ar_dtype(6):
        show(a)
    for a in ar_kw(6):
        show(a)
    for a in ar_mixed():
        show(a)
    show(lin(0, 1, 5))
    show(lin(0, 1, 0))
    show(lin(0, 1, 1))
    show(lin(1, 2, 4))
    show(lin(0.1, 0.7, 7))
    show(lin(1.0, 0.0, 3))
    show(lin(np.float32(0), 1, np.int32(3)))
    show(lin50(0, 1))
    print(repr(lin_sum(11)))
    try:
        ar3(0, 5, 0)
    except ValueError:
        print("ValueError")
    try:
        lin(0, 1, -1)
    except ValueError:
        print("ValueError")

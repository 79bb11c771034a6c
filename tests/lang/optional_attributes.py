# Attributes of an Optional value (a variable that is None on some path, or an argument
# defaulting to None) are the attributes of its value, as Numba resolves them: a.shape,
# a.size, a.ndim, a.T of an Optional array, x.real of an Optional number, a method through it;
# the same Optional passed on to another function that reads them (quantecon's linear
# programming passes its tableau so).  None there raises TypeError, as in Numba.
from numba import njit
import numpy as np


@njit
def pivot_shape(tableau):
    nrows, ncols = tableau.shape
    return nrows * 10 + ncols


@njit
def maybe(a, use):
    t = None
    if use:
        t = a
    return t


@njit
def through(a, use):
    t = maybe(a, use)
    return pivot_shape(t), t.size, t.ndim, t.T.shape, t.sum()


@njit
def default_none(n, out=None):
    if n > 0:
        out = np.ones((n, 2))
    return out.shape[0] + out.size


@njit
def scalar(x, use):
    y = None
    if use:
        y = x
    return y.real, y.imag


if __name__ == "__main__":
    a = np.arange(6.0).reshape(2, 3)
    print(through(a, True))
    print(default_none(3))
    print(scalar(2.5, True), scalar(3, True))
    try:
        through(a, False)
    except TypeError:
        print("TypeError")

# Returning tuples to Python: a pair of ints, a mixed (int, float) pair, a shape, a tuple
# computed in a loop, and a nested helper's tuple passed through.  Numba boxes them as Python
# tuples of int/float/bool.
from numba import njit
import numpy as np


@njit
def pair(a, b):
    return a, b


@njit
def divmod_py(a, b):
    return a // b, a % b


@njit
def stats(a):
    lo = a[0]
    hi = a[0]
    s = 0.0
    for i in range(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
        s += a[i]
    return lo, hi, s / a.shape[0]


@njit
def shape_of(a):
    return a.shape


@njit
def through(a, b):
    q, r = divmod_py(a, b)
    return r, q, q * b + r == a


def show(tag, t):
    print(tag, type(t).__name__, len(t), [type(v).__name__ + ":" + repr(v) for v in t])


if __name__ == "__main__":
    show("pair", pair(1, 2))
    show("pair_mixed", pair(3, 0.5))
    show("pair_bool", pair(True, 7))
    for a, b in [(17, 5), (-17, 5), (17.5, -4.0)]:
        show("divmod_py", divmod_py(a, b))
        show("through", through(a, b))
    show("stats", stats(np.array([3.0, -1.0, 4.0, 1.5])))
    show("stats_i32", stats(np.array([3, -1, 4, 1], dtype=np.int32)))
    show("shape_of", shape_of(np.zeros((2, 5, 3))))
    show("shape_of_T", shape_of(np.zeros((2, 5)).T))

# A variable given a value of another type by a later statement of the function's body, as
# Numba 0.56 types each assignment's version of a variable apart: a float32 array rebound to
# the float64 array of `1.0 / d`, a parameter rebound to a converted copy, an int rebound to a
# float and to a tuple, a name rebound inside a tuple unpacking; reads before the rebinding see
# the first value, loops after it the second.
from numba import njit
import numpy as np


@njit
def pair_of(a):
    out = np.zeros(a.shape[0], dtype=np.float32)
    for i in range(a.shape[0]):
        out[i] = a[i] * 2
    return a[:2], out[:2]


@njit
def reciprocal_sum(data):
    d = np.abs(data)
    first = d.sum()
    d = 1.0 / d
    inds, vals = pair_of(d)
    return first, d.sum(), np.sum(vals), inds[0]


@njit
def param_rebound(x):
    before = x[0] // 2
    x = x.astype(np.float64)
    x = x / 4
    return before, x


@njit
def scalar_rebound(n):
    k = n * 3
    shown = k
    k = k / 2.0
    total = 0.0
    for i in range(n):
        total += k
    k = (k, n)
    return shown, total, k


@njit
def unpack_rebound(a):
    lo, hi = 0, a.shape[0]
    span = hi - lo
    lo, hi = a[:2], a[2:]
    return span, lo.sum(), hi.sum()


if __name__ == "__main__":
    r = reciprocal_sum(np.array([-1.0, 2.0, -4.0, 0.5], dtype=np.float32))
    print([type(v).__name__ + ":" + repr(v) for v in r])
    b, x = param_rebound(np.array([7, 9, 11]))
    print(type(b).__name__, b, x.dtype, x.tolist())
    s, t, k = scalar_rebound(5)
    print(type(s).__name__, s, type(t).__name__, t, k)
    print(unpack_rebound(np.array([2.5, -1.0, 4.0])))

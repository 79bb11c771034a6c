# Tuples as indices and arrays as tuples: `for idx in np.ndindex(a.shape)` (also
# np.ndindex(n, m) and a 3-d shape, an empty extent, break and else), `a[idx]` reading and
# `a[idx] = v` writing with idx from np.ndindex, np.ndenumerate, a tuple built from a.shape or
# passed in from Python; `x, y = arr` unpacking a 1-d array into numbers and a 2-d one into
# row views (ValueError when the length differs, as Numba raises it); iterating a tuple of
# arrays.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def weighted(a):
    s = 0.0
    for idx in np.ndindex(a.shape):
        s += a[idx] * (idx[0] + 1)
    return s


@njit
def count_pairs(n, m):
    c = 0
    last = (0, 0)
    for i, j in np.ndindex(n, m):
        c += i * 10 + j
        last = (i, j)
    return c, last


@njit
def fill3(a):
    for idx in np.ndindex(a.shape):
        a[idx] = idx[0] * 100 + idx[1] * 10 + idx[2]
    return a.sum()


@njit
def first_over(a, x):
    for idx in np.ndindex(a.shape):
        if a[idx] > x:
            break
    else:
        return (-1, -1)
    return idx


@njit
def ndenumerate_check(a):
    s = 0.0
    for idx, v in np.ndenumerate(a):
        s += a[idx] - v + a[idx]
    return s


@njit
def corner(a):
    sh = a.shape
    idx = (sh[0] - 1, sh[1] - 1)
    a[idx] = -a[idx]
    return a[idx], a[(0, 0)]


@njit
def at(a, idx):
    return a[idx]


@njit
def put(a, idx, v):
    a[idx] = v
    return a


@njit
def pair(arr):
    x, y = arr
    return x * 10 + y


@njit
def rows(m):
    r0, r1 = m
    return r0 + r1


@njit
def triple(arr):
    x, y, z = arr
    return (x, y, z)


@njit
def arrays_sum(t):
    s = 0.0
    for a in t:
        s += a.sum()
    return s


if __name__ == "__main__":
    a = np.arange(12.0).reshape(3, 4)
    print(show(weighted(a)))
    print(show(weighted(np.arange(5, dtype=np.int32))))
    print(show(weighted(a.T)))
    print(show(count_pairs(2, 3)))
    print(show(count_pairs(np.int32(3), 2)))
    print(show(count_pairs(0, 3)))
    print(show(fill3(np.zeros((2, 3, 4)))))
    print(show(first_over(a, 6.5)))
    print(show(first_over(a, 99.0)))
    print(show(ndenumerate_check(a)))
    b = a.copy()
    print(show(corner(b)), show(b[-1, -1]))
    print(show(at(a, (1, 2))), show(at(a, (-1, -1))), show(at(np.arange(4), (3,))))
    print(show(put(np.zeros((2, 2)), (1, 0), 5)))
    print(show(put(np.zeros(3, dtype=np.int64), (1,), 7)))
    print(show(pair(np.array([3.0, 4.0]))))
    print(show(pair(np.array([3, 4], dtype=np.int32))))
    print(show(rows(np.arange(6).reshape(2, 3))))
    print(show(triple(np.arange(3.0) + 0.5)))
    for bad in (np.arange(3.0), np.arange(1.0)):
        try:
            pair(bad)
        except ValueError as e:
            print("ValueError", repr(str(e)))
    print(show(arrays_sum((np.arange(3.0), np.ones(2)))))

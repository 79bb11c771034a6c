# A range kept in a variable and iterated later, as Numba types range objects (range_state64):
# `rng = range(n - 1, -1, -1) if reverse else range(n)` (numpy-groupies' aggregation loop),
# a range assigned then looped over twice, reassigned to another range, negative and
# unsigned bounds, and a conditional expression of ranges used directly as the iterable.
import numpy as np
from numba import njit


@njit
def order(n, reverse):
    rng = range(n - 1, -1, -1) if reverse else range(n)
    out = np.empty(n, dtype=np.int64)
    k = 0
    for i in rng:
        out[k] = i
        k += 1
    return out


@njit
def twice(a, b, step):
    r = range(a, b, step)
    s = 0
    for i in r:
        s += i
    for i in r:
        s += 10 * i
    r = range(3)
    for i in r:
        s += 100 * i
    return s


@njit
def direct(n, odd):
    t = 0
    for i in (range(1, n, 2) if odd else range(0, n, 2)):
        t = t * 10 + i
    return t


@njit
def unsigned(n):
    r = range(np.uint64(0), n)
    s = np.uint64(0)
    for i in r:
        s += i
    return s


if __name__ == "__main__":
    for rev in (False, True):
        o = order(5, rev)
        print(o.dtype, o)
    print(order(0, True).shape)
    print(twice(2, 11, 3), twice(10, -5, -4), twice(3, 3, 1))
    print(direct(9, True), direct(9, False))
    u = unsigned(np.uint64(6))
    print(type(u).__name__, u)

# Sets returned from compiled code: Numba 0.56 boxes a set as a Python set (of int, float,
# bool, as it boxes their items); an empty set comes back
# as set(); results of the set operations; a set returned is a new object each call.
from numba import njit
import numpy as np


@njit
def squares(n):
    s = set()
    for i in range(n):
        s.add((i * i) % 7)
    return s


@njit
def halves(n):
    s = {0.5}
    for i in range(n):
        s.add(i / 2)
    return s


@njit
def flags(a):
    s = set()
    for x in a:
        s.add(x > 2)
    return s


@njit
def nothing(n):
    s = {1}
    s.discard(1)
    for i in range(n):
        s.add(i)
    return s


@njit
def ops(a, b, k):
    s, t = set(a), set(b)
    if k == 0:
        return s | t
    if k == 1:
        return s & t
    return s - t


@njit
def of_array(a):
    return set(a)


@njit
def many(n):
    s = set()
    for i in range(n):
        s.add(i * 3)
    for i in range(0, n, 2):
        s.discard(i * 3)
    return s


def show(s):
    items = sorted(s)
    print(type(s).__name__, len(s), [type(x).__name__ for x in items[:1]], items)


if __name__ == "__main__":
    show(squares(10))
    show(halves(5))
    show(flags(np.arange(5)))
    show(nothing(0))
    show(nothing(3))
    for k in range(3):
        show(ops(np.array([1, 2, 3, 4]), np.array([3, 4, 5]), k))
    show(of_array(np.array([2.5, 1.0, 2.5, -3.0], dtype=np.float32)))
    show(of_array(np.array([7, 7, 1], dtype=np.int32)))
    s = many(100)
    show(s)
    print(sum(s))
    a, b = squares(4), squares(4)
    print(a == b, a is b)

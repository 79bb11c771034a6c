# Python sets passed to compiled code (Numba's reflected sets): items are read (`in`, len,
# iteration), and what compiled code adds, discards, pops or updates is seen by the caller's
# set afterwards; a set compiled code only reads is unchanged; sets of int, float and bool;
# and the errors of unboxing: an empty set cannot be typed, a set mixing types cannot be
# unboxed.
from numba import njit
import numpy as np


@njit
def total(s):
    t = 0.0
    for x in s:
        t += x
    return t


@njit
def has(s, x):
    return x in s, len(s)


@njit
def grow(s, n):
    for i in range(n):
        s.add(i * 10)
    return len(s)


@njit
def drop_small(s, k):
    for i in range(k):
        s.discard(i)


@njit
def drain(s):
    n = 0
    while len(s) > 2:
        s.pop()
        n += 1
    return n


@njit
def merge(s, a):
    s.update(set(a))
    s.difference_update({1.5})


@njit
def flags(s):
    s.add(False)
    return len(s)


@njit
def combined(s, t):
    u = s | t
    s.clear()
    return len(u)


@njit
def first_int(s):
    for x in s:
        return x
    return -1


if __name__ == "__main__":
    s = {1, 2, 3}
    r = total(s)
    print(type(r).__name__, r, sorted(s))
    print(has(s, 2), has(s, 7), sorted(s))
    s = {5}
    r = grow(s, 4)
    print(type(r).__name__, r, type(s).__name__, sorted(s))
    s = set(range(10))
    drop_small(s, 4)
    print(sorted(s))
    s = {1, 2, 3, 4, 5}
    print(drain(s), len(s))
    s = {0.5, 1.5}
    merge(s, np.array([2.5, 3.5]))
    print(sorted(s), [type(x).__name__ for x in sorted(s)])
    s = {True}
    print(flags(s), sorted(s))
    s, t = {1, 2}, {2, 3}
    print(combined(s, t), s, sorted(t))
    s = {np.int32(4), np.int32(9), np.int32(-2)}
    print(total(s), drain(s), sorted(s))
    keep = s = {7, 8}
    print(has(s, 8), keep is s, sorted(s))
    try:
        total(set())
    except ValueError as e:
        print("ValueError", e)
    try:
        total({1, 2.5})
    except TypeError as e:
        print("TypeError", e)

# Tuples of more than 16 elements: literals, indexing by constants and by a loop variable,
# iteration, slicing, concatenation, unpacking, sum/min/max, comparison, passing them from
# Python (UniTuple and Tuple) and returning them, also nested and holding arrays.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def twenty(k):
    return (k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7, k + 8, k + 9,
            k + 10, k + 11, k + 12, k + 13, k + 14, k + 15, k + 16, k + 17, k + 18, k + 19)


@njit
def mixed20(k):
    return (k, 1.5, k, 2.5, k, 3.5, k, 4.5, k, 5.5, k, 6.5, k, 7.5, k, 8.5, k, 9.5, True, k * 2)


@njit
def use_long(k):
    t = twenty(k)
    s = 0
    for x in t:
        s += x
    i = 0
    w = 0
    while i < len(t):
        w += t[i] * i
        i += 1
    head = t[:3]
    tail = t[15:]
    both = t + t
    return s, w, t[17], t[-1], head, tail, len(both), both[39], sum(t), min(t), max(t), t == t


@njit
def unpack18(t):
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r = t
    return a + r * 100 + (i + j) * 10000


@njit
def total(t):
    s = 0.0
    for x in t:
        s += x
    return s


@njit
def hetero_sum(t):
    return sum(t)


@njit
def nested_long(k):
    t = twenty(k)
    return (t, (t[0], np.arange(3) + k), t[19:])


@njit
def echo(t):
    return t


if __name__ == "__main__":
    print(show(twenty(1)))
    print(show(twenty(np.int32(5))))
    print(show(mixed20(3)))
    print(show(use_long(2)))
    print(show(unpack18(tuple(range(18)))))
    print(show(total(tuple(float(i) for i in range(25)))))
    print(show(total(tuple(range(17)))))
    print(show(hetero_sum(tuple(i if i % 2 else i + 0.5 for i in range(21)))))
    print(show(nested_long(4)))
    print(show(echo(tuple(range(30)))))
    print(show(echo((1.5,) * 17 + (np.arange(2),))))
    print(show(echo(((1, 2),) * 20)))

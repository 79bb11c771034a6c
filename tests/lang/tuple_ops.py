# Tuples as values: len, `in` and `not in`, == != < <= > >= (element by element, then by
# length, as Python compares), + concatenation (also of heterogeneous tuples), slicing with
# constant bounds (t[1:], t[:-1], t[::2], a.shape[:2], a.shape[1:]), min/max/sum of a tuple,
# and a tuple's parts read back after slicing.
from numba import njit
import numpy as np


@njit
def length(x):
    t = (x, x + 1, x + 2, x + 3)
    return len(t), len(t[1:]), len((x,))


@njit
def member(x):
    return x in (-1, 0, 1), x not in (2, 3), 2.5 in (1, x, 3)


@njit
def compare(a, b, c):
    t, u = (a, b), (a, c)
    return t == u, t != u, t < u, t <= u, t > u, t >= u


@njit
def compare_len(a, b):
    return (a, b) < (a, b, 0), (a, b, 0) > (a, b), (a,) == (a, b)


@njit
def concat(x, y):
    t = (x, y) + (x * 2,)
    return t + (y * 1.5, True)


@njit
def slices(x, k):
    t = (x, x + 1, x + 2, x + 3, x + 4)
    if k == 0:
        return t[1:]
    if k == 1:
        return t[:-1]
    if k == 2:
        return t[::2] + (0,)
    if k == 3:
        return t[4:-5:-1]
    return t[-3:] + t[3:1] + t[:1]


@njit
def shape_parts(a):
    return a.shape[:2] + a.shape[1:] + a.shape[-1:]


@njit
def reductions(x, y):
    t = (x, y, 3)
    return min(t), max(t), sum(t), sum((x, 2.5)), min((y,)), sum((x, y), 10)


@njit
def rows_cols(a):
    r, c = a.shape[:2]
    return r * 100 + c


if __name__ == "__main__":
    print(length(3))
    print(member(0), member(2), member(7))
    print(compare(1, 2, 3), compare(1, 2, 2), compare(1, 3, 2))
    print(compare_len(1, 2))
    print(concat(1, 2))
    print([slices(10, k) for k in range(5)])
    print(shape_parts(np.zeros((2, 3, 4))))
    print(reductions(5, -2), reductions(-7, 9))
    print(rows_cols(np.zeros((6, 7, 2))))

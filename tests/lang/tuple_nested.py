# Nested and heterogeneous tuples inside compiled code: tuples of tuples built, indexed
# (t[1][0]), unpacked ((a, b), (c, d) = t), iterated, compared (== and <, nested in order),
# found with `in`, returned from one compiled function to another; a tuple holding an array and
# its shape; mixed int/float/bool tuples returned to Python.
from numba import njit
import numpy as np


@njit
def pairs(x):
    return ((x, 2), (3, x + 1))


@njit
def use_pairs(x):
    t = pairs(x)
    (a, b), (c, d) = t
    u = t[1]
    return a * 1000 + b * 100 + c * 10 + d, u[0] + t[0][1]


@njit
def iterate(x):
    s = 0
    for p in ((x, 2), (3, x), (5, 6)):
        s += p[0] * p[1]
    return s


@njit
def nested_compare(x, y):
    t = ((x, 2), (3, y))
    return t == ((x, 2), (3, 4)), t < ((x, 2), (3, 4)), (3, y) in t, (y, y) not in t


@njit
def with_array(a):
    p = (a, a.shape)
    return p[1][0] + p[0][1]


@njit
def mixed(x):
    return (x, x * 0.5, x > 2, np.float32(x))


if __name__ == "__main__":
    print(use_pairs(1), use_pairs(7))
    print(iterate(4))
    print(nested_compare(1, 4), nested_compare(1, 2), nested_compare(2, 9))
    print(with_array(np.arange(3.0)))
    print(mixed(3), mixed(1))

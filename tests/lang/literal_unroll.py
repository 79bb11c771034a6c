# numba.literal_unroll over tuples whose elements share one type (numbers, arrays, nested
# tuples), imported by name and reached as numba.literal_unroll; the loop is the tuple's own.
from numba import njit, literal_unroll
import numba
import numpy as np


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return type(v).__name__ + ":" + repr(v)


@njit
def total(t):
    s = 0
    for x in literal_unroll(t):
        s += x
    return s


@njit
def sums_of_arrays():
    s = 0.0
    for a in numba.literal_unroll((np.ones(2), np.arange(3.0))):
        s += a.sum()
    return s


@njit
def pairs(t):
    s = 0.0
    for pq in literal_unroll(t):
        s += pq[0] * pq[1]
    return s


@njit
def shape_product(a):
    n = 1
    for d in literal_unroll(a.shape):
        n *= d
    return n


if __name__ == "__main__":
    print(show(total((1, 2, 3))))
    print(show(total((1.5, 2.5))))
    print(show(sums_of_arrays()))
    print(show(pairs(((1.0, 2.0), (3.0, 4.0)))))
    print(show(shape_product(np.zeros((2, 3, 4)))))

# Assignment of an array into a view: a right side with fewer dimensions broadcast into the
# view (NumPy's rules: aligned on the right, an extent of 1 stretches), converted to the
# view's dtype; a right side that overlaps the target (a[:] = a[2], a[:] = a[::-1], 2-d blocks
# that overlap) is read as if copied first, as NumPy and Numba do; a shape that does not fit
# raises ValueError.  `a[...] = expr` computes the expression straight into the view unless
# an operand overlaps it.  (A broadcast source overlapping the target, a[:] = a[2], corrupts Numba
# 0.56's heap: tests/python/test_arrays.py checks it against NumPy.)
from numba import njit
import numpy as np


@njit
def rows(a, b):
    a[1:3] = b
    return a


@njit
def cols(a, b):
    a[:, 1:3] = b
    return a


@njit
def reverse(a):
    a[:] = a[::-1]
    return a


@njit
def shift_block(a):
    a[1:, 1:] = a[:-1, :-1]
    return a


@njit
def shift_t(a):
    a[:, :] = a.T
    return a


@njit
def expr_into(a, b, c):
    a[:] = b + c
    a[1:3] = b[0] * 2.0
    return a


@njit
def exprs(a, b, c):
    a[:] = b * 2.0 + c            # straight into a
    a[1:] = a[:-1] + 1.0          # overlaps a: computed first
    return a


@njit
def exprs_2d(m, v):
    m[1:3] = v * 2 - 1            # fewer dimensions, broadcast
    m[:, 0] = np.sqrt(m[:, 1])    # a column from another column
    m[::-1] = m + 0.5             # the whole array, reversed
    return m


@njit
def expr_cast(a, b):
    a[:] = b / 2
    return a


if __name__ == "__main__":
    print(rows(np.zeros((4, 3)), np.arange(3.0)).tolist())
    print(rows(np.zeros((4, 3)), np.ones(1)).tolist())
    print(rows(np.zeros((4, 3), dtype=np.int32), np.arange(3.7, 6)).tolist())
    print(rows(np.zeros((4, 3, 2)), np.arange(2.0)).tolist())
    print(rows(np.zeros((4, 3, 2)), np.arange(6.0).reshape(3, 2)).tolist())
    print(rows(np.zeros((4, 3, 2)), np.arange(3.0).reshape(3, 1)).tolist())
    print(rows(np.asfortranarray(np.zeros((4, 3))), np.arange(3.0)[::-1]).tolist())
    print(cols(np.zeros((2, 4)), np.array([7.0, 8.0])).tolist())
    try:
        rows(np.zeros((4, 3)), np.arange(2.0))
    except ValueError:
        print("ValueError")
    print(reverse(np.arange(7)).tolist())
    print(reverse(np.arange(12.0).reshape(4, 3)).tolist())
    print(shift_block(np.arange(16.0).reshape(4, 4)).tolist())
    print(shift_t(np.arange(9.0).reshape(3, 3)).tolist())
    print(expr_into(np.zeros(4), np.arange(4.0), np.ones(4)).tolist())
    print(exprs(np.zeros(5), np.arange(5.0), np.ones(5)).tolist())
    print(exprs_2d(np.arange(12.0).reshape(4, 3), np.array([1.0, 4.0, 9.0])).tolist())
    print(exprs_2d(np.asfortranarray(np.arange(12.0).reshape(4, 3)), np.ones(1)).tolist())
    print(expr_cast(np.zeros(4, dtype=np.int16), np.arange(7, 11)).tolist())
    try:
        exprs(np.zeros(5), np.arange(4.0), np.ones(4))
    except ValueError:
        print("ValueError")

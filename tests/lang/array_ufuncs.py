# NumPy's ufuncs on arrays in compiled functions: math (np.sqrt, np.exp, np.log, np.sin,
# np.cos, np.floor ...), np.abs / np.absolute, np.maximum / np.minimum (a NaN operand wins),
# np.isnan, the operator ufuncs called by name (np.add, np.multiply ...), np.where with arrays
# and scalars, np.clip with number bounds; the dtype of each (np.sqrt of int8 is float32, of
# int32 float64; np.floor of ints is a float; np.abs keeps ints); ufuncs inside larger
# expressions; errors (ValueError for np.where of different shapes).
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def roots(a):
    return np.sqrt(a)


@njit
def transcend(a):
    return np.exp(a), np.log(a), np.sin(a), np.cos(a), np.tanh(a), np.arctan(a)


@njit
def rounding(a):
    return np.floor(a), np.ceil(a), np.trunc(a)


@njit
def absolute(a):
    return np.abs(a), np.absolute(a)


@njit
def extremes(a, b):
    return np.maximum(a, b), np.minimum(a, b)


@njit
def nans(a):
    return np.isnan(a), np.isinf(a), np.isfinite(a)


@njit
def by_name(a, b):
    return np.add(a, b), np.subtract(a, b), np.multiply(a, b), np.power(a, 2), np.negative(a)


@njit
def by_name_div(a, b):
    return np.true_divide(a, b), np.divide(a, b), np.floor_divide(a, b), np.remainder(a, b)


@njit
def two_arg(a, b):
    return np.arctan2(a, b), np.hypot(a, b), np.copysign(a, b)


@njit
def scalar_ufunc(x, y):
    return np.add(x, y)


@njit
def pick(c, x, y):
    return np.where(c, x, y)


@njit
def clipped(a, lo, hi):
    return np.clip(a, lo, hi)


@njit
def norm(x, y):
    return np.sqrt(x * x + y * y) / np.maximum(np.abs(x), 1e-3)


@njit
def relu_sum(a):
    return np.where(a > 0, a, 0.0).sum()


@njit
def softclip(a):
    return np.exp(-np.abs(a)) + np.floor(a / 2)


if __name__ == "__main__":
    f64 = np.array([0.25, 1.0, 2.0, 9.0])
    f32 = np.array([0.25, 1.0, 2.0, 9.0], dtype=np.float32)
    show(roots(f64))
    show(roots(f32))
    show(roots(np.array([1, -2, 3], dtype=np.int8)))
    show(roots(np.array([0, 1, 2], dtype=np.int16)))
    show(roots(np.array([0, 1, 2], dtype=np.int32)))
    show(roots(np.arange(4)))
    show(roots(np.array([True, False])))
    show(roots(np.arange(6.0).reshape(2, 3)[:, ::2]))
    for r in transcend(f64):
        show(r)
    for r in transcend(f32):
        show(r)
    for r in rounding(np.array([-1.5, -0.5, 0.5, 2.7])):
        show(r)
    for r in rounding(np.array([-1.5, 0.5, 2.7], dtype=np.float32)):
        show(r)
    for r in rounding(np.arange(3)):
        show(r)
    for r in rounding(np.arange(3, dtype=np.int8)):
        show(r)
    for x in (np.array([-1.5, 0.0, -0.0, 2.0]), np.array([-3, 0, 5], dtype=np.int32),
              np.array([-128, 1], dtype=np.int8), np.array([3, 250], dtype=np.uint8),
              np.array([True, False])):
        for r in absolute(x):
            show(r)
    a = np.array([0.0, -0.0, np.nan, 1.0, 3.0])
    b = np.array([-0.0, 0.0, 1.0, np.nan, 2.0])
    for r in extremes(a, b):
        show(r)
    for r in extremes(np.array([1, -5, 3], dtype=np.int8), 1):
        show(r)
    for r in extremes(np.array([1.5, -5.0], dtype=np.float32), 2.0):
        show(r)
    for r in extremes(np.array([True, False]), np.array([False, False])):
        show(r)
    for r in nans(np.array([1.0, np.nan, np.inf, -np.inf])):
        show(r)
    for r in nans(np.arange(3)):
        show(r)
    for r in by_name(np.arange(4), 3):
        show(r)
    for r in by_name(np.arange(4, dtype=np.float32), np.arange(4.0)):
        show(r)
    for r in by_name_div(np.array([7, -7, 9, 0]), np.array([2, 2, -4, 0])):
        show(r)
    for r in two_arg(np.array([1.0, -1.0, 0.0]), np.array([-2.0, 3.0, -1.0])):
        show(r)
    print(scalar_ufunc(2, 3), scalar_ufunc(1.5, 2))

    c = np.array([True, False, True, False])
    x = np.arange(4)
    show(pick(c, x, -x))
    show(pick(c, x, 2.5))
    show(pick(c, 1, 2))
    show(pick(c, 1, x))
    show(pick(x > 1, x.astype(np.float32) if False else np.arange(4.0, dtype=np.float32), x))
    show(pick(np.array([[True, False], [False, True]]), np.ones((2, 2)), np.zeros((2, 2))))
    show(pick(x, x, np.ones(4, np.uint8)))
    show(pick(c, np.ones(4, np.int8), np.ones(4, np.uint8)))
    try:
        pick(c, x, np.ones(3))
        print("no error")
    except ValueError:
        print("ValueError")

    show(clipped(np.arange(6), 1, 3))
    show(clipped(np.arange(6.0), 1, 3))
    show(clipped(np.array([-2.5, 0.5, np.nan, 7.0]), -1.0, 1.0))
    show(clipped(np.arange(6), 0.5, 3.5))
    show(clipped(np.arange(6.0).reshape(2, 3), 1.0, 4.0))

    show(norm(np.array([3.0, 0.0, -1.0]), np.array([4.0, 0.0, 1.0])))
    print(relu_sum(np.array([-1.0, 2.0, -3.0, 4.0])))
    show(softclip(np.array([-3.0, 0.5, 2.0])))
    show(softclip(np.array([-3.0, 0.5, 2.0], dtype=np.float32)))

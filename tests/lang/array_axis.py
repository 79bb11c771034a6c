# Reductions along an axis (sum, argmin, argmax: the ones Numba 0.56 takes an axis for), as
# methods and as np functions, the axis by keyword, by position, negative and in a variable;
# cumsum and cumprod of any array (flattened in C order); the result dtypes.
from numba import njit
import numpy as np


@njit
def sum_axes(a):
    return a.sum(axis=0), a.sum(axis=1), np.sum(a, 0), np.sum(a, axis=-1), a.sum(-2)


@njit
def sum_var(a, k):
    return a.sum(axis=k)


@njit
def np_sum_var(a, k):
    return np.sum(a, k)


@njit
def sum_3d(a):
    return a.sum(axis=0), a.sum(axis=1), a.sum(axis=2)


@njit
def sum_1d(a, k):
    return a.sum(axis=0) + np.sum(a, k)


@njit
def arg_axes(a):
    return a.argmin(axis=0), a.argmax(axis=1), np.argmin(a, 1), np.argmax(a, axis=-2)


@njit
def arg_var(a, k):
    return a.argmin(axis=k), np.argmax(a, k)


@njit
def arg_1d(a):
    return a.argmin(axis=0), np.argmax(a, -1)


@njit
def cum(a):
    return np.cumsum(a), a.cumsum(), np.cumprod(a), a.cumprod()


@njit
def in_expr(a):
    return (a.sum(axis=0) * 2.0).sum() + a.sum(axis=1)[0]


def message(e):
    return str(e).splitlines()[0].split("ValueError: ")[-1]  # numjit adds the location


def show(r):
    if isinstance(r, tuple):
        for x in r:
            show(x)
    elif isinstance(r, np.ndarray):
        print(r.dtype, r.shape, r.tolist())
    else:
        print(type(r).__name__ + ":" + repr(r))


if __name__ == "__main__":
    m = np.arange(12.0).reshape(3, 4) * 0.1
    for a in (m, np.asfortranarray(m), m[:, ::2], m[::-1, 1:], m.T,
              np.arange(12, dtype=np.int32).reshape(3, 4), np.arange(6, dtype=np.uint8).reshape(2, 3),
              (np.arange(6) % 2 == 0).reshape(3, 2), np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
              np.zeros((0, 3)), np.zeros((2, 0))):
        show(sum_axes(a))
        for k in range(2):
            show(sum_var(a, k))
            show(np_sum_var(a, k))
        show(cum(a))
    for k in (-1, 2, 4):
        try:
            show(sum_var(m, k))
        except ValueError as e:
            print("ValueError", message(e))
    t = np.arange(24).reshape(2, 3, 4) % 5
    show(sum_3d(t))
    show(sum_3d(np.asfortranarray(t * 0.5)))
    for k in range(3):
        show(sum_var(t, k))
        show(arg_var(t, k))
    show(sum_1d(np.arange(5.0), 0))
    try:
        show(sum_1d(np.arange(5.0), 1))
    except ValueError as e:
        print("ValueError", message(e))
    x = np.array([[3.0, 1.0, 4.0, 1.0], [5.0, np.nan, 2.0, 6.0], [5.0, 9.0, 2.0, np.nan]])
    for a in (x, x.T, x[:, ::-1], np.array([[2, 7, 7], [8, 8, 1]], dtype=np.int8),
              np.array([[True, False], [False, True]])):
        show(arg_axes(a))
        for k in (0, 1, -1, -2):
            show(arg_var(a, k))
    for k in (2, -3):
        try:
            show(arg_var(x, k))
        except ValueError as e:
            print("ValueError", message(e))
    show(arg_var(x, np.uint8(1)))
    show(arg_1d(np.array([2.0, -1.0, 7.0, -1.0])))
    try:
        show(arg_var(np.zeros((3, 0)), 1))
    except ZeroDivisionError:
        print("ZeroDivisionError")
    show(arg_var(np.zeros((0, 3)), 1))
    show(cum(np.arange(1, 7, dtype=np.int8).reshape(2, 3)))
    show(cum(np.array([1.5, -2.0, 0.25], dtype=np.float32)))
    show(cum(np.arange(1, 25, dtype=np.int64)))
    show(in_expr(m))

# Ellipsis ('...') in array indices, read and written: a[..., 0], a[0, ...], a[..., 1:],
# a[1, ..., 2] of 1-, 2- and 3-d arrays, C, F and non-contiguous layouts; a[..., i] of a 1-d
# array (an element in Numba 0.56, not NumPy's 0-d view); a[...] = x with scalars and arrays,
# augmented assignments through '...', advanced indices after '...', and empty arrays.
# (Reading a[...] alone is refused: Numba 0.56 cannot compile it; see errors/ellipsis_read.py.)
from numba import njit
import numpy as np


@njit
def last0(a):
    return a[..., 0]


@njit
def first0(a):
    return a[0, ...]


@njit
def whole(a):
    return a[..., :]


@njit
def tail(a):
    return a[..., 1:]


@njit
def middle(a):
    return a[1, ..., 2]


@njit
def sum_last(a):
    s = 0.0
    v = a[..., -1]
    for i in range(v.shape[0]):
        s += v[i]
    return s


@njit
def fill_all(a, x):
    a[...] = x
    return a


@njit
def fill_last(a, x):
    a[..., 0] = x
    return a


@njit
def copy_into(a, b):
    a[..., 1:] = b
    return a


@njit
def bump(a):
    a[..., 1] += 10
    return a


@njit
def element(a, i):
    return a[..., i]


@njit
def fill_copy(a, b):
    a[...] = b
    return a


@njit
def pick(a, idx):
    return a[..., idx]


def show(v):
    if isinstance(v, np.ndarray):
        print(type(v).__name__, v.dtype, v.shape, v.tolist())
    else:
        print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    m = np.arange(12.0).reshape(3, 4)
    c = np.arange(24).reshape(2, 3, 4)
    show(last0(m))
    show(last0(c))
    show(last0(m.T))
    show(last0(m[:, ::2]))
    show(first0(m))
    show(first0(c))
    show(first0(np.asfortranarray(m)))
    show(whole(m))
    show(whole(np.arange(5)))
    show(tail(m))
    show(tail(c))
    show(middle(c))
    show(middle(np.arange(5.0).reshape(5, 1) * np.ones((5, 3))))
    show(sum_last(m))
    show(sum_last(np.arange(6, dtype=np.float32).reshape(3, 2)))
    show(fill_all(np.zeros((2, 3)), 7.5))
    show(fill_all(np.zeros(4, dtype=np.int32), 3))
    show(fill_last(np.zeros((2, 3)), 1.0))
    show(fill_last(np.zeros((2, 2, 2)), 2.0))
    show(copy_into(np.zeros((3, 4)), np.ones(3)))
    show(copy_into(np.zeros((2, 3)), np.arange(4.0).reshape(2, 2)))
    show(bump(np.zeros((2, 3), dtype=np.int64)))
    show(bump(np.zeros((2, 2, 3))))
    show(element(np.arange(4.0), 2))
    show(element(np.arange(4, dtype=np.int32), -1))
    show(element(np.arange(4, dtype=np.float32), 1))
    show(fill_copy(np.zeros((2, 3)), np.arange(3.0)))
    show(fill_copy(np.zeros((2, 3), dtype=np.int32), np.ones((2, 3))))
    show(fill_copy(np.zeros((4, 3))[::2], np.arange(6.0).reshape(2, 3)))
    show(pick(m, np.array([0, 3])))
    show(pick(c, np.array([True, False, False, True])))
    show(last0(np.zeros((0, 3))))
    show(tail(np.zeros((2, 0))))

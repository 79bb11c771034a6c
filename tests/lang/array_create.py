# Arrays created inside compiled functions and returned to Python: np.empty, np.zeros, np.ones
# and np.full with an int or a tuple shape and the dtype given as np.float32, numba's float32 or
# a string; the *_like forms (an F-ordered argument gives an F-ordered result); a.copy() and
# np.copy (always C); the dtype each call gives under Numba's rules (np.full takes the fill
# value's type); zero-size arrays; and the errors: a negative dimension (ValueError).  a.copy()
# is C-ordered, np.copy keeps an F order.
from numba import njit, float32
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def ramp(n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * 0.5
    return a


@njit
def grid(n, m):
    out = np.zeros((n, m), dtype=np.float32)
    for i in range(n):
        for j in range(m):
            out[i, j] = i * 10 + j
    return out


@njit
def zeros_numba_dtype(n):
    return np.zeros(n, float32)


@njit
def zeros_str_dtype(n):
    return np.zeros((n, 2), dtype='int32')


@njit
def ones_kinds(n):
    return np.ones(n), np.ones((2, n), np.int64), np.ones(n, dtype=np.uint8), np.ones(n, np.bool_)


@njit
def fulls(n):
    return (np.full(n, 2.5), np.full((2, 2), 7), np.full(n, True),
            np.full(n, 1, dtype=np.float32), np.full(n, 300, dtype=np.uint8),
            np.full(n, 2.7, np.int64))


@njit
def full_of_scalar(n, v):
    return np.full((n,), v)


@njit
def likes(a):
    return np.empty_like(a).size, np.zeros_like(a), np.ones_like(a), np.full_like(a, 2.5)


@njit
def likes_dtype(a):
    return np.zeros_like(a, dtype=np.float32), np.ones_like(a, np.int8), np.full_like(a, 7, np.int32)


@njit
def copies(a):
    b = a.copy()
    c = np.copy(a)
    b[0, 0] = -1.0
    return b, c


@njit
def flags_like(a):
    return np.zeros_like(a)


@njit
def shape_from(a):
    return np.zeros(a.shape)


@njit
def empty_sizes(n):
    return np.zeros(n), np.ones((2, n))


@njit
def negative(n):
    return np.empty((2, n))


@njit
def int32_shape(n):
    return np.zeros((n, np.int32(2)))


if __name__ == "__main__":
    show(ramp(5))
    show(ramp(0))
    show(grid(2, 3))
    show(zeros_numba_dtype(3))
    show(zeros_str_dtype(2))
    for a in ones_kinds(3):
        show(a)
    for a in fulls(3):
        show(a)
    show(full_of_scalar(2, np.float32(1.5)))
    show(full_of_scalar(2, np.int8(-3)))
    show(full_of_scalar(2, 4))
    x = np.arange(6.0).reshape(2, 3)
    r = likes(x)
    print(r[0])
    for a in r[1:]:
        show(a)
    for a in likes_dtype(x):
        show(a)
    b, c = copies(x)
    show(b)
    show(c)
    show(x)
    f = np.asfortranarray(x)
    b, c = copies(f)
    show(b)
    print(b.flags['C_CONTIGUOUS'], c.flags['C_CONTIGUOUS'])
    b, c = copies(x[:, ::2])
    show(b)
    z = flags_like(f)
    print(z.flags['F_CONTIGUOUS'], z.flags['C_CONTIGUOUS'], z.shape)
    z = flags_like(x[:, ::2])
    print(z.flags['C_CONTIGUOUS'], z.shape)
    show(shape_from(x))
    for a in empty_sizes(0):
        show(a)
    show(int32_shape(2))
    try:
        negative(-1)
    except ValueError:
        print("ValueError")

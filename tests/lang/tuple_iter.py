# for loops over tuples and zip(...): a tuple literal (for d in (-1, 0, 1)), a.shape, a tuple
# variable and argument, float and bool elements, enumerate of a tuple (with a start), zip of
# arrays, ranges (negative steps, empty) and tuples, stopping at the shortest, zip as one tuple
# target and with nested targets under enumerate, 2-d arrays zipped by rows; break, continue and
# else; a neighbourhood stencil as published kernels write it.
from numba import njit
import numpy as np


@njit
def offsets():
    s = 0
    for d in (-1, 0, 1):
        s = s * 10 + d
    return s


@njit
def shape_product(a):
    p = 1
    for n in a.shape:
        p *= n
    return p


@njit
def tuple_var(x):
    t = (x, x * 2.0, x * 3.0)
    s = 0.0
    for v in t:
        s = s * 0.5 + v
    return s


@njit
def tuple_arg(x, y, z, w):
    t = (x, y, z, w)
    m = 0
    for v in t:
        if v < 0:
            continue
        if v > 100:
            break
        m += v
    else:
        m = -m
    return m


@njit
def bools():
    c = 0
    for b in (True, False, True):
        if b:
            c += 1
    return c


@njit
def enum_tuple(x):
    t = (x, x + 1, x + 2)
    s = 0
    for i, v in enumerate(t, 3):
        s += i * v
    return s


@njit
def zip_arrays(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


@njit
def zip_mixed(a, n):
    s = 0
    for x, i, d in zip(a, range(n, 0, -2), (1, 10, 100, 1000)):
        s += x * i * d
    return s


@njit
def zip_one_target(a):
    s = 0
    for t in zip(a, range(len(a))):
        s += t[0] * t[1]
    return s


@njit
def enum_zip(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * (x - y)
    return s


@njit
def zip_rows(m, v):
    out = np.zeros(m.shape[0])
    for k, (row, w) in enumerate(zip(m, v)):
        out[k] = row.sum() * w
    return out


@njit
def zip_empty(n):
    c = 0
    for x, y in zip(range(n), range(5)):
        c += 1
    return c


@njit
def stencil(a):
    out = np.zeros_like(a)
    n, m = a.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            s = 0.0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    s += a[i + di, j + dj]
            out[i, j] = s / 9.0
    return out


def show(v):
    print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    show(offsets())
    show(shape_product(np.zeros((2, 3, 4))))
    show(shape_product(np.zeros(7)))
    show(tuple_var(2.0))
    show(tuple_arg(1, 2, 3, 4))
    show(tuple_arg(1, -2, 300, 4))
    show(tuple_arg(5, -1, -1, 0))
    show(bools())
    show(enum_tuple(4))
    show(zip_arrays(np.arange(4.0), np.arange(1.0, 7.0)))
    show(zip_mixed(np.arange(1, 6), 7))
    show(zip_mixed(np.arange(1, 6), 2))
    show(zip_one_target(np.arange(5)))
    show(enum_zip(np.arange(5.0), np.ones(3)))
    print(zip_rows(np.arange(6.0).reshape(3, 2), np.array([1.0, 2.0, 3.0, 4.0])).tolist())
    show(zip_empty(3))
    show(zip_empty(-3))
    print(stencil(np.arange(16.0).reshape(4, 4)).tolist())

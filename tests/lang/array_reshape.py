# Changing an array's shape or dtype in compiled functions: a.reshape with integers, a tuple
# or a -1 extent (a view of a C-ordered array: writes reach the original), a.ravel (a view
# of a C array, a copy otherwise), a.flatten (always a copy, C order), a.astype (a converted
# copy, F-ordered for an F argument); the errors Numba raises (ValueError for a size that
# does not match or two negative extents).
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def grid(n, m):
    return np.arange(n * m).reshape(n, m)


@njit
def grid_tuple(a, n, m):
    return a.reshape((n, m))


@njit
def grid3(a, n, m, k):
    s = (n, m, k)
    return a.reshape(s)


@njit
def infer(a, k):
    return a.reshape(k, -1), a.reshape(-1), a.reshape((-1, k))


@njit
def write_through(a):
    v = a.reshape(2, 3)
    v[1, 2] = 100.0
    return a


@njit
def flat(a):
    r = a.ravel()
    f = a.flatten()
    f[0] = -1
    return r, f


@njit
def rows_sum(a, n):
    return a.reshape(n, -1).sum() + a.ravel()[0]


@njit
def casts(a):
    return a.astype(np.float32), a.astype(np.int8), a.astype(np.bool_), a.astype(np.float64)


@njit
def in_expr(n):
    x = np.arange(n * 2.0).reshape(2, n)
    return (x * 2 + 1).ravel()



@njit
def np_forms(a, n):
    r = np.reshape(a, (n, -1))
    r[0, 0] = 100.0               # a view: writes reach a
    return r, np.reshape(a, a.size), np.ravel(a), np.transpose(r), np.ravel(np.transpose(r))


@njit
def np_transpose(a):
    return np.transpose(a), np.transpose(a)[0]

if __name__ == "__main__":
    show(grid(2, 3))
    show(grid_tuple(np.arange(12.0), 3, 4))
    show(grid3(np.arange(12.0), 2, 3, 2))
    for r in infer(np.arange(6), 3):
        show(r)
    a = np.arange(6.0)
    write_through(a)
    show(a)
    m = np.arange(6.0).reshape(2, 3)
    for x in (m, m.T, m[:, ::2], np.asfortranarray(m)):
        r, f = flat(x)
        show(r)
        show(f)
    r, f = flat(m)
    print(np.shares_memory(r, m), np.shares_memory(f, m))
    print(rows_sum(np.arange(8.0), 2))
    for x in (np.array([1.7, -2.5, 300.0]), np.array([[1, 0], [3, 4]], dtype=np.int32)):
        for r in casts(x):
            show(r)
    print(casts(np.asfortranarray(np.ones((2, 2))))[0].flags.f_contiguous)
    show(in_expr(3))
    for shape in ((4, 2), (-1, -1), (5, -1), (0, -1)):
        try:
            grid_tuple(np.arange(6.0), *shape)
            print("no error")
        except ValueError:
            print("ValueError")
    a = np.arange(6.0)
    for r in np_forms(a, 2):
        show(r)
    show(a)
    for x in (np.arange(24).reshape(2, 3, 4), np.asfortranarray(np.ones((2, 3)))):
        for r in np_transpose(x):
            show(r)
    print(np_transpose(np.ones((2, 3)))[0].flags.f_contiguous)

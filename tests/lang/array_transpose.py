# Transposes with axes: a.transpose((1, 0, 2)), a.transpose(i, j, k), np.transpose(a, axes)
# and np.transpose(a, axes=...), with axes known only when it runs; a view (writes show in the
# base); Numba's errors for a repeated axis and one out of bounds.
from numba import njit
import numpy as np


@njit
def literal(a):
    return a.transpose((1, 0, 2))


@njit
def spread(a, i, j, k):
    return a.transpose(i, j, k)


@njit
def from_array(a, ax):
    return np.transpose(a, (ax[0], ax[1], ax[2]))


@njit
def keyword(a):
    return np.transpose(a, axes=(2, 0, 1)).sum(), np.transpose(a, (2, 0, 1)).copy()[1, 2, 0]


@njit
def one_d(v):
    return v.transpose(0), v.transpose((0,))


@njit
def write_through(m):
    b = m.transpose(1, 0)
    b[0, 1] = 99.0
    return b.copy()


def show(r):
    print(r.dtype, r.shape, r.tolist())


if __name__ == "__main__":
    a = np.arange(24.0).reshape(2, 3, 4)
    show(literal(a))
    show(literal(a[:, ::2, 1:]))
    show(spread(a, 2, 1, 0))
    show(spread(a, -1, 0, 1))
    show(from_array(a, np.array([1, 2, 0])))
    show(from_array(np.arange(24).reshape(4, 3, 2).T, np.array([0, 2, 1])))
    print(keyword(a))
    for r in one_d(np.arange(3.0)):
        show(r)
    m = np.arange(6.0).reshape(2, 3)
    show(write_through(m))
    show(m)
    for bad in ((0, 0, 1), (0, 1, 3), (0, 1, -4)):
        try:
            from_array(a, np.array(bad))
        except ValueError:
            print(bad, "ValueError")

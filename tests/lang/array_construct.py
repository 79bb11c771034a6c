# NumPy's constructors from values: np.array of a list or tuple, nested for more dimensions
# (dtype from the elements as Numba unifies them, or dtype=), np.eye, np.identity, np.diag (1-d in, square out; 2-d in,
# its diagonal out) and np.outer (np.multiply's dtype), and a positional dtype of np.empty.
from numba import njit
import numpy as np


@njit
def lists(x, i, f):
    return (np.array([1, 2, 3]), np.array([1, 2.5, x]), np.array([i, 2]), np.array([f, f]),
            np.array([f, 1.0]), np.array((1, 2)), np.array([True, False]),
            np.array([1, 2], dtype=np.float32), np.array([x, -x], np.int8))


@njit
def from_tuple(x):
    t = (x, 2.5, 3.0)
    u = (1, x)
    return np.array(t), np.array(u)


@njit
def nested(x, f):
    row = (x, 2 * x)
    return (np.array([[1, 2], [3, 4]]), np.array([[1.5, 2.5], [x * 1.0, 0.5]]),
            np.array(((1, 2, 3),), dtype=np.float32), np.array([row, row, (0, x)]),
            np.array([[[x]], [[-x]]]), np.array(((row, row), (row, row))),
            np.array([[f, f], [f, f]]), np.array([(x, 1.5), (2.5, x)]),
            np.array([[1.0, 2.5], [3.0, 4.0]], np.complex128))


@njit
def eyes(n, m, k):
    return (np.eye(n), np.eye(n, m), np.eye(n, k=k), np.eye(n, m, k), np.eye(n, dtype=np.int32),
            np.identity(m), np.eye(n, None, -k))


@njit
def diags(v, k):
    return np.diag(v), np.diag(v, k), np.diag(v, k=-k)


@njit
def outers(a, b):
    return np.outer(a, b)


@njit
def empty_pos(n):
    e = np.empty((n, 2), np.float32)
    e[:] = 1.5
    return e, np.zeros(n, np.int16)


def show(r):
    if isinstance(r, tuple):
        for x in r:
            show(x)
    else:
        print(r.dtype, r.shape, r.tolist())


if __name__ == "__main__":
    show(lists(3, np.int32(7), np.float32(0.1)))
    show(from_tuple(1.5))
    show(from_tuple(2))
    show(nested(3, np.float32(0.5)))
    show(nested(-1.25, 2.0))
    for n, m, k in ((3, 3, 1), (2, 4, 2), (4, 2, -1), (3, 3, 5), (0, 2, 0)):
        show(eyes(n, m, k))
    for v in (np.arange(3), np.arange(3.0).astype(np.float32), np.arange(12.0).reshape(3, 4),
              np.arange(12).reshape(4, 3)[::-1], np.arange(6.0).reshape(2, 3).T):
        for k in (0, 1, 2, 5):
            show(diags(v, k))
    for a, b in ((np.arange(3.0), np.arange(2.0)), (np.arange(3), np.arange(2.0)),
                 (np.arange(3, dtype=np.int32), np.arange(2, dtype=np.int32)),
                 (np.arange(4.0).reshape(2, 2), np.arange(2.0)[::-1]),
                 (np.arange(3, dtype=np.int8), np.array([True, False])),
                 (np.arange(6.0).reshape(2, 3).T, np.zeros(0))):
        show(outers(a, b))
    show(empty_pos(2))
    try:
        eyes(-1, 2, 0)
    except ValueError:
        print("ValueError")

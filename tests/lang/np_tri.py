# np.tri(N), np.tri(N, M), np.tri(N, M, k) with k positive, negative, beyond the matrix; M=None
# by keyword; zero and negative sizes (floored at 0, as NumPy and Numba do); int32 arguments.
from numba import njit
import numpy as np


@njit
def tri1(n):
    return np.tri(n)


@njit
def tri3(n, m, k):
    return np.tri(n, m, k)


@njit
def tri_kw(n, k):
    return np.tri(n, M=None, k=k)


def show(v):
    print(type(v).__name__, v.dtype, v.shape, v.tolist())


if __name__ == "__main__":
    show(tri1(3))
    show(tri1(1))
    show(tri1(0))
    show(tri1(-2))
    show(tri3(3, 5, 0))
    show(tri3(4, 2, 1))
    show(tri3(3, 4, -1))
    show(tri3(3, 3, 10))
    show(tri3(3, 3, -10))
    show(tri3(2, -1, 0))
    show(tri3(np.int32(3), np.int32(2), np.int32(0)))
    show(tri_kw(3, 1))
    show(tri_kw(2, -1))

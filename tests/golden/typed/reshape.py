# sig: rows(float64[::1], int64)
from numba import njit


@njit
def rows(a, n):
    return a.reshape(n, 4)

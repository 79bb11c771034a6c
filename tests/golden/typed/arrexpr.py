# sig: axpy(float64[::1], float64[::1], float32[:])
from numba import njit


@njit
def axpy(x, y, z):
    z += 1
    return 2.0 * x + y

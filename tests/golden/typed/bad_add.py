# sig: bad(float64[:], bool)
from numba import njit


@njit
def bad(x, flag):
    y = x & flag
    return y

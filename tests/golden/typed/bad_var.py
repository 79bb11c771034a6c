# sig: f(float64[:])
from numba import njit


@njit
def f(a):
    v = a
    v = 3
    return v

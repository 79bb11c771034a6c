# sig: f(float64[:], boolean)
from numba import njit


@njit
def f(a, c):
    v = a
    if c:
        v = 3
    return v

# sig: outer(float64)
from numba import njit


@njit
def inner(a, b):
    return a * b


@njit
def outer(x):
    return inner(x) + undefined_name

# sig: f(complex128, float32)
from numba import njit


@njit
def f(z, x):
    w = z * x + 1j
    return w.real, w / z, abs(w), w == z

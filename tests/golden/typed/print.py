# sig: show(float32, int64, bool)
from numba import njit


@njit
def show(x, n, b):
    print("x =", x, "n:", n, b, "50%\t", 2.5)
    print()

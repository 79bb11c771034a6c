# sig: pick(bool, int32)
from numba import njit


@njit
def pick(flag, k):
    if flag:
        r = k          # int32
    else:
        r = 1.5        # float64: r is float64 everywhere
    return r

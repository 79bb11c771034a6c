# sig: exprs(float64[:, ::1], int64[::1], float64[::1])
from numba import njit
import numpy as np


@njit
def exprs(m, k, v):
    a = m & 1
    b = ~v
    k += 1.5
    k /= 2
    v += m
    c = np.sqrt(m, v)
    d = abs(v)
    e = np.where(1.0 > 0, v, v)
    f = np.clip(v, v, 1.0)
    g = m < v < m
    return 0.0

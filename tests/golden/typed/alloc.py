# sig: scaled(float64[:], int64)
import numpy as np
from numba import njit


@njit
def scaled(a, k):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * k
    return out, k

# sig: reduce_rows(float64[:, ::1], int32)
from numba import njit
import numpy as np


@njit
def reduce_rows(a, k):
    s = a.prod(axis=0)
    m = np.mean(a, 1)
    t = a.transpose(1, 0)
    p = a @ a
    q = a.sum(0, dtype=np.float32)
    r = a.sum(axis=k)
    u = a.sum(axis=2)
    v = np.cumsum(a, 0)
    w = a.argmin(axis=1.0)
    x = a.max(1, 2)
    return 0.0

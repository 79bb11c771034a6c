# sig: reduce_rows(float64[:, ::1])
from numba import njit
import numpy as np


@njit
def reduce_rows(a):
    s = a.sum(axis=0)
    m = np.mean(a, 1)
    t = a.transpose(1, 0)
    p = a @ a
    q = a.sum(dtype=np.float32)
    return 0.0

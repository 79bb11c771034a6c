# sig: tail(float64[:, ::1], int64)
from numba import njit


@njit
def tail(a, i):
    b = a[i:]
    c = a[:, ::-1]
    return b.T.shape[0] + len(a[i]) + c.shape[1]

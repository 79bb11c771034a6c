# sig: count(float64[:, ::1], float64)
from numba import njit


@njit
def count(a, limit):
    n = 0
    for i in range(a.shape[0]):
        for j in range(0, a.shape[1], 2):
            if a[i, j] > limit:
                n += 1
            elif a[i, j] < -limit:
                break
            else:
                continue
    return n

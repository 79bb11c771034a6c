# sig: norms(float64[:, ::1], float64[::1], float64)
from numba import njit, prange


@njit(parallel=True)
def norms(m, out, cap):
    total = 0.0
    smallest = cap
    for i in prange(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * m[i, j]
        out[i] = acc
        total += acc
        smallest = min(smallest, acc)
    return total + smallest

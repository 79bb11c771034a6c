# expect error: 12:9: 'last' is assigned in this prange loop and read after it
# The value a parallel loop leaves in a private variable is read after the loop: which
# iteration's value would it be?  Numba fails on it too (in its lowering).
from numba import njit, prange
import numpy as np


@njit(parallel=True)
def f(a):
    last = -1
    for i in prange(a.shape[0]):
        last = a[i]
    return last


if __name__ == "__main__":
    print(f(np.arange(10)))

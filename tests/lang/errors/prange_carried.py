# expect error: 12:9: 't' carries a value from one iteration of this prange loop to the next
# A variable updated in a parallel loop in a way that is no reduction (t = t * 2 + 1 depends on
# the previous iteration's t): Numba refuses it too.
from numba import njit, prange
import numpy as np


@njit(parallel=True)
def f(n):
    t = 1
    for i in prange(n):
        t = t * 2 + 1
    return t


if __name__ == "__main__":
    print(f(10))

# expect error: 10:12: needs 1 indices, got 2
# Two indices on a one-dimensional array.
from numba import njit
import numpy as np


@njit
def get(a):
    s = 0.0
    s += a[0, 1]
    return s


if __name__ == "__main__":
    print(get(np.zeros(4)))

# expect error: 9:5: cannot unpack
# Unpacking the shape of a 1-d array into two names.
from numba import njit
import numpy as np


@njit
def dims(a):
    n, m = a.shape
    return n * m


if __name__ == "__main__":
    print(dims(np.zeros(4)))

# expect error: 9:12: cannot store
# Storing a whole array into one element of another array.
from numba import njit
import numpy as np


@njit
def put(a, b):
    a[0] = b
    return a[0]


if __name__ == "__main__":
    print(put(np.zeros(2), np.ones(2)))

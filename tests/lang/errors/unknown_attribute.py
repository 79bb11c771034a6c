# expect error: 9:12: has no attribute 'length'
# An attribute arrays do not have.
from numba import njit
import numpy as np


@njit
def n(a):
    return a.length


if __name__ == "__main__":
    print(n(np.zeros(4)))

# expect error: 9:22: got an unexpected keyword argument 'axes'
# A keyword np.ptp does not have.
from numba import njit
import numpy as np


@njit
def f(a):
    return np.ptp(a, axes=0)


if __name__ == "__main__":
    print(f(np.ones(3)))

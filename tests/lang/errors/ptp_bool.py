# expect error: 9:19: must be an array of integers or floats, not bool
# np.ptp of a bool array: NumPy and Numba refuse it.
from numba import njit
import numpy as np


@njit
def f(a):
    return np.ptp(a)


if __name__ == "__main__":
    print(f(np.array([True, False])))

# expect error: 9:21: must be an integer or a tuple of integers
# np.empty with a float shape (NumPy and Numba want integers).
from numba import njit
import numpy as np


@njit
def make(x):
    return np.empty(x * 2)


if __name__ == "__main__":
    print(make(1.5))

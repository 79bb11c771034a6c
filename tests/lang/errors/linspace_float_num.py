# expect error: 9:34: must be an integer, not float64
# np.linspace with a float number of samples.
from numba import njit
import numpy as np


@njit
def grid(n):
    return np.linspace(0.0, 1.0, n)


if __name__ == "__main__":
    print(grid(3.0))

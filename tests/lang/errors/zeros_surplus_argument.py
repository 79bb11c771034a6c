# expect error: 9:36: np.zeros() takes at most 2 arguments (3 given)
# np.zeros's order, passed by position: Numba's np.zeros takes (shape, dtype) only.
from numba import njit
import numpy as np


@njit
def f():
    return np.zeros(3, np.float64, 1)


if __name__ == "__main__":
    print(f())

# expect error: 8:24: transpose() of float64[:, :, ::1] takes 3 axes, not 2
from numba import njit
import numpy as np


@njit
def f(a):
    return a.transpose(1, 0)


if __name__ == "__main__":
    print(f(np.zeros((2, 3, 4))))

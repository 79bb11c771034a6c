# expect error: 9:38: np.concatenate() takes at most 2 arguments (3 given)
# np.concatenate's out, passed by position: Numba's np.concatenate takes (arrays, axis) only.
from numba import njit
import numpy as np


@njit
def f(a, b, c):
    return np.concatenate((a, b), 0, c)


if __name__ == "__main__":
    print(f(np.ones(3), np.zeros(3), np.empty(6)))

# expect error: 9:22: argument 'axis' is not supported
# np.ptp along an axis: Numba 0.56's np.ptp takes the array alone.
from numba import njit
import numpy as np


@njit
def f(a):
    return np.ptp(a, axis=0)


if __name__ == "__main__":
    print(f(np.ones((2, 3))))

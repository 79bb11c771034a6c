# expect error: 12:12: name 'total' is not defined
# A name that is neither a local, a parameter nor a module constant.
from numba import njit
import numpy as np


@njit
def mean(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return total / a.shape[0]


if __name__ == "__main__":
    print(mean(np.ones(4)))

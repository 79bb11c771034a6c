# expect error: 9:12: np.dot() only supported on float and complex arrays
# np.dot of two integer vectors: Numba's dot needs float (BLAS) arrays of one dtype.
from numba import njit
import numpy as np


@njit
def f(a, b):
    return np.dot(a, b)


if __name__ == "__main__":
    print(f(np.arange(3), np.arange(3)))

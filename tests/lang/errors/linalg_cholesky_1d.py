# expect error: 9:12: np.linalg.cholesky() only supported on 2-D arrays.
# np.linalg.cholesky of a vector: Numba 0.56 wants a matrix.
from numba import njit
import numpy as np


@njit
def factor(a):
    return np.linalg.cholesky(a)


if __name__ == "__main__":
    print(factor(np.ones(3)))

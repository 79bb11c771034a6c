# expect error: 9:12: np.linalg.eigh() only supported on 2-D arrays.
# np.linalg.eigh of a vector: Numba 0.56's _check_linalg_matrix wants a 2-d array.
from numba import njit
import numpy as np


@njit
def spectrum(a):
    return np.linalg.eigh(a)


if __name__ == "__main__":
    print(spectrum(np.ones(3)))

# expect error: 10:12: np.linalg.svd() only supported on float and complex arrays.
# np.linalg.svd of an integer matrix: Numba 0.56's _check_linalg_matrix refuses it at typing
# (convert with astype first).
from numba import njit
import numpy as np


@njit
def decompose(a):
    return np.linalg.svd(a)


if __name__ == "__main__":
    print(decompose(np.arange(6).reshape(2, 3)))

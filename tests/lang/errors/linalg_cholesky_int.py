# expect error: 10:12: np.linalg.cholesky() only supported on float and complex arrays.
# np.linalg.cholesky of an integer matrix: Numba 0.56's _check_linalg_matrix refuses it at
# typing (convert with astype first).
from numba import njit
import numpy as np


@njit
def factor(a):
    return np.linalg.cholesky(a)


if __name__ == "__main__":
    print(factor(np.eye(3, dtype=np.int64)))

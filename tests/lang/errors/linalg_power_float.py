# expect error: 10:12: Exponent must be an integer.
# np.linalg.matrix_power with a float exponent: Numba 0.56 refuses it at typing, as NumPy
# refuses it at run time.
from numba import njit
import numpy as np


@njit
def power(a, n):
    return np.linalg.matrix_power(a, n)


if __name__ == "__main__":
    print(power(np.eye(2), 2.0))

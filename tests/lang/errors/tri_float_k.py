# expect error: 9:25: k must be an integer
# np.tri with a float k: Numba 0.56 requires an integer, unlike NumPy.
from numba import njit
import numpy as np


@njit
def lower(n):
    return np.tri(n, n, 1.5)


if __name__ == "__main__":
    print(lower(3))

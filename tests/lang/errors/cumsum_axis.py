# expect error: 9:30: np.cumsum() takes no axis in Numba 0.56
# np.cumsum scans the flattened array; Numba 0.56 has no axis for it.
from numba import njit
import numpy as np


@njit
def f(a):
    return np.cumsum(a, axis=1)


if __name__ == "__main__":
    print(f(np.ones((2, 3))))

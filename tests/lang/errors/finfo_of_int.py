# expect error: 9:21: np.finfo() takes a float or complex type
# np.finfo of an integer type: NumPy raises ValueError, so Numba 0.56 has no overload for it.
from numba import njit
import numpy as np


@njit
def largest():
    return np.finfo(np.int32).max


if __name__ == "__main__":
    print(largest())

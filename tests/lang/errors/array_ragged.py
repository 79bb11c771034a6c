# expect error: 10:30: np.array() of a ragged nested sequence: this one has 1 element, an earlier one 2
# Numba raises ValueError("incompatible sequence shape") when it runs; numjit knows the shape of a
# literal when it compiles.
from numba import njit
import numpy as np


@njit
def f(x):
    return np.array([[x, x], [x]])


if __name__ == "__main__":
    print(f(1.0))

# expect error: 9:21: np.array() of an empty sequence
# An empty list has no element type: Numba cannot type it either.
from numba import njit
import numpy as np


@njit
def f():
    return np.array([])


if __name__ == "__main__":
    print(f())

# expect error: 9:12: cannot add 'UniTuple(int64, 1)' and 'int64'
# A shape tuple plus an int is a type error (Numba: no implementation of + for the pair).
from numba import njit
import numpy as np


@njit
def grow(a):
    return a.shape + 1


if __name__ == "__main__":
    grow(np.zeros(3))

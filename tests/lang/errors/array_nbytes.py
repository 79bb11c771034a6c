# expect error: 9:12: has no attribute 'nbytes'
# a.nbytes is not an attribute Numba 0.56 types (a.size * a.itemsize is).
from numba import njit
import numpy as np


@njit
def f(a):
    return a.nbytes


if __name__ == "__main__":
    print(f(np.zeros(4)))

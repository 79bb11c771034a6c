# expect error: 10:12: sqrt() needs numbers
# math.sqrt takes a number, not an array (np.sqrt would map it, math.sqrt does not).
from numba import njit
import numpy as np
import math


@njit
def root(a):
    return math.sqrt(a)


if __name__ == "__main__":
    print(root(np.ones(3)))

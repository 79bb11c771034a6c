# expect error: 11:9: variable 'x' cannot be both
# One variable holding an array on one path and an int on the other: no unified type.
from numba import njit
import numpy as np


@njit
def f(a, flag):
    x = a
    if flag:
        x = 0
    return x


if __name__ == "__main__":
    print(f(np.zeros(3), True))

# expect error: 11:20: range() needs integers
# A helper whose range() bound receives an array from its caller: the error is in the helper,
# reached while typing the caller's specialization.
from numba import njit
import numpy as np


@njit
def helper(n):
    s = 0
    for i in range(n):
        s += i
    return s


@njit
def caller(a):
    return helper(a) + 1


if __name__ == "__main__":
    print(caller(np.zeros(3)))

# expect error: 11:5: this returns UniTuple(int64, 1) but the function returns float64
# Two returns whose types do not unify: a float on one path, a shape tuple on the other.
from numba import njit
import numpy as np


@njit
def pick(a, flag):
    if flag:
        return 1.0
    return a.shape


if __name__ == "__main__":
    print(pick(np.zeros(2), True))

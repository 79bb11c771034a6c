# expect error: 9:5: cannot cast the result of ufunc 'add'
# An int64 array += 1.5: NumPy's 'same_kind' rule refuses to store the float64 result.
from numba import njit
import numpy as np


@njit
def f(a):
    a += 1.5
    return a


if __name__ == "__main__":
    print(f(np.arange(3)))

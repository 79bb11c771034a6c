# expect error: 9:22: np.vstack() got an unexpected keyword argument 'tup'
# NumPy names np.vstack's tuple `tup`; Numba's np.vstack takes it as `arrays` only.
from numba import njit
import numpy as np


@njit
def f(a, b):
    return np.vstack(tup=(a, b))


if __name__ == "__main__":
    print(f(np.ones(3), np.zeros(3)))

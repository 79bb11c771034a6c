# expect error: 10:12: reshape() supports contiguous array only
# reshape of a strided view (layout A): Numba refuses it at typing time too.
from numba import njit
import numpy as np


@njit
def f(a):
    v = a[::2]
    return v.reshape(2, 2)


if __name__ == "__main__":
    print(f(np.arange(8.0)))

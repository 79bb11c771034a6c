# expect error: 11:5: read-only array
# A view of a read-only array is read-only too: an in-place operation on it is a typing error,
# as in Numba.
from numba import njit
import numpy as np


@njit
def bump(a):
    v = a[1:]
    v += 1.0
    return v


if __name__ == "__main__":
    a = np.arange(5.0)
    a.flags.writeable = False
    print(bump(a))

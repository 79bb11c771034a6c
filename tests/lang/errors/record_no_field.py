# expect error: 11:12: has no field 'z'
# A field the record type lacks.
import numpy as np
from numba import njit

rec = np.dtype([("x", "f8"), ("y", "i4")])


@njit
def f(a):
    return a[0].z + a[1]["y"]


if __name__ == "__main__":
    print(f(np.zeros(2, dtype=rec)))

# expect error: 9:22: only one ellipsis allowed in array index
# Two '...' in one index: a typing error in Numba 0.56 (arraydecl.py), in its words.
from numba import njit
import numpy as np


@njit
def first_column(a):
    return a[..., 0, ...]


if __name__ == "__main__":
    print(first_column(np.zeros((2, 2))))

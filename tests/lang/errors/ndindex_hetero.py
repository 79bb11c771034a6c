# expect error: 10:27: np.ndindex() takes a shape of at most 8 integers of one type
# np.ndindex of a tuple mixing integer types: Numba 0.56 types only a UniTuple shape (or
# integers passed one by one) and refuses this one.
from numba import njit
import numpy as np


@njit
def count(t):
    for idx in np.ndindex(t):
        pass
    return 0


if __name__ == "__main__":
    print(count((2, np.int32(3))))

# expect error: 11:9: read-only array
# Writing into a read-only array (here the memory of an immutable bytes object) is a typing
# error in Numba: the argument's type is `readonly array(uint8, 1d, C)`.
from numba import njit
import numpy as np


@njit
def fill(a):
    for i in range(a.shape[0]):
        a[i] = 65


if __name__ == "__main__":
    data = b"hello"
    fill(np.frombuffer(data, dtype=np.uint8))
    print(data)

# expect error: 10:39: unknown dtype descriptor
# np.dtype(a.dtype): Numba 0.56's np.dtype takes a string or a scalar class only
# ("unknown dtype descriptor: dtype(float32)").
from numba import njit
import numpy as np


@njit
def zeros_of(a):
    return np.zeros(3, dtype=np.dtype(a.dtype))


if __name__ == "__main__":
    print(zeros_of(np.zeros(1, np.float32)))

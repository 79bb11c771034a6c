# expect error: 12:9: variable 'd' cannot be both
# A variable rebound to another type inside an `if`: after the `if` it holds either value,
# and Numba cannot unify float32[::1] with float64[::1] there (a top-level rebinding is fine).
from numba import njit
import numpy as np


@njit
def f(a, flag):
    d = np.abs(a)
    if flag:
        d = 1.0 / d
    return d.sum()


if __name__ == "__main__":
    print(f(np.ones(3, dtype=np.float32), True))

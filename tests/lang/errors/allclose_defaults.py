# expect error: 10:12: The third argument "rtol" must be a floating point
# np.allclose(a, b) with rtol, atol and equal_nan left out: Numba 0.56's overload checks the
# omitted defaults' types and refuses them (TypeError at typing).
from numba import njit
import numpy as np


@njit
def close(a, b):
    return np.allclose(a, b)


if __name__ == "__main__":
    print(close(np.zeros(3), np.zeros(3)))

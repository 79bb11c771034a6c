# expect error: 10:34: np.random.normal() with a size needs the argument 'loc'
# Numba's array forms of np.random take every argument: normal(0.0, 1.0, size=n) works,
# normal(size=n) has no signature.
import numpy as np
from numba import njit


@njit
def draws(n):
    return np.random.normal(size=n)


if __name__ == "__main__":
    print(draws(3))

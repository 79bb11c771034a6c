# expect error: 10:35: np.random.laplace() with a size needs the argument 'loc' too
# Numba's array forms of np.random take every argument: laplace(0.0, 1.0, n) works,
# laplace(size=n) has no signature.
import numpy as np
from numba import njit


@njit
def draws(n):
    return np.random.laplace(size=n)


if __name__ == "__main__":
    print(draws(3))

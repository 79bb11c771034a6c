# sig: draws(int64, float64)
import random
import numpy as np
from numba import njit


@njit
def draws(n, scale):
    np.random.seed(n)
    k = random.randint(1, 6)
    return np.random.normal(0.0, scale, size=n), k + np.random.random()

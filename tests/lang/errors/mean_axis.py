# expect error: 9:28: np.mean() does not take an axis
# Numba 0.56 reduces along an axis only for sum, argmin and argmax.
from numba import njit
import numpy as np


@njit
def f(a):
    return np.mean(a, axis=0)


if __name__ == "__main__":
    print(f(np.ones((2, 3))))

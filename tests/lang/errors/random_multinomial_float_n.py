# expect error: 9:34: np.random.multinomial(): n should be an integer, got float64
# Numba's multinomial takes an integer number of experiments (its overload raises TypeError).
import numpy as np
from numba import njit


@njit
def draws(n, p):
    return np.random.multinomial(n, p)


if __name__ == "__main__":
    print(draws(10.0, np.array([0.5, 0.5])))

# expect error: 9:12: np.random.gumbel() missing required argument 'b'
# np.random.gumbel has no defaults in Numba 0.56 (its signatures take both a and b).
import numpy as np
from numba import njit


@njit
def draws(x):
    return np.random.gumbel(x)


if __name__ == "__main__":
    print(draws(3.0))

# expect error: 9:5: The argument to shuffle() should be a buffer type
# np.random.shuffle of a number: Numba 0.56 shuffles arrays only and refuses it at typing.
from numba import njit
import numpy as np


@njit
def mix(x):
    np.random.shuffle(x)
    return x


if __name__ == "__main__":
    print(mix(3))

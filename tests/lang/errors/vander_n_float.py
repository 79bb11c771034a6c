# expect error: 9:25: Second argument N must be None or an integer
# np.vander with a float N: Numba 0.56 refuses it at typing.
from numba import njit
import numpy as np


@njit
def table(x):
    return np.vander(x, 2.0)


if __name__ == "__main__":
    print(table(np.arange(3.0)))

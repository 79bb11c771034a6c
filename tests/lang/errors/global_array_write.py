# expect error: 11:5: read-only array
# A global NumPy array is a read-only constant of compiled code, as Numba freezes it: writing
# an element is refused when the function is compiled.
from numba import njit
import numpy as np

WEIGHTS = np.array([0.25, 0.5, 0.25])

@njit
def reset(i):
    WEIGHTS[i] = 0.0
    return WEIGHTS.sum()


if __name__ == "__main__":
    print(reset(1))

# expect error: 10:12: 'numpy' has no attribute 'unravel_index'
# np.unravel_index is not in Numba 0.56 ("Unknown attribute 'unravel_index' of type
# Module(numpy)"): a located error in numjit too.
from numba import njit
import numpy as np


@njit
def where_max(a):
    return np.unravel_index(np.argmax(a), a.shape)


if __name__ == "__main__":
    print(where_max(np.arange(6.0).reshape(2, 3)))

# expect error: 10:12: 'numpy.linalg' has no attribute 'multi_dot'
# np.linalg.multi_dot (like tensorsolve and tensorinv) is not in Numba 0.56: a typing error.
import numpy as np
from numba import njit


@njit
def chain(a, b, c):
    # the product of three matrices in the cheapest order, in NumPy
    return np.linalg.multi_dot([a, b, c])


if __name__ == "__main__":
    a = np.ones((2, 3))
    print(chain(a, a.T, a))

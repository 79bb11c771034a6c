# expect error: 9:12: np.linalg.kron only supports 'C' or 'F' layout input arrays. Received an input of layout 'A'.
# np.kron of a strided view: Numba 0.56 takes only C and F layouts.
from numba import njit
import numpy as np


@njit
def product(a, b):
    return np.kron(a, b)


if __name__ == "__main__":
    print(product(np.ones((3, 4))[:, ::2], np.ones(2)))

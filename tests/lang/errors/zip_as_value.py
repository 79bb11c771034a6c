# expect error: 9:12: zip() is supported only as the iterable of a for loop
# zip(...) kept as a value: Numba 0.56 cannot return its iterator either.
from numba import njit
import numpy as np


@njit
def f(a):
    return zip(a, a)


if __name__ == "__main__":
    print(f(np.arange(2)))

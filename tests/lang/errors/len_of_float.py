# expect error: 8:12: len() of float64
# len() of a scalar.
from numba import njit


@njit
def size(x):
    return len(x) + 1


if __name__ == "__main__":
    print(size(2.5))

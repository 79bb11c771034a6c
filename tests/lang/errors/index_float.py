# expect error: 8:12: cannot be indexed
# Subscripting a float scalar.
from numba import njit


@njit
def first(x):
    return x[0]


if __name__ == "__main__":
    print(first(2.5))

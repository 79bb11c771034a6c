# expect error: 8:12: is not callable
# Calling a number.
from numba import njit


@njit
def f(x):
    return x(1)


if __name__ == "__main__":
    print(f(3))

# expect error: 13:12: takes 2 arguments but 3 were given
# A compiled function calling another compiled function with too many arguments.
from numba import njit


@njit
def add(a, b):
    return a + b


@njit
def caller(x):
    return add(x, 1, 2)


if __name__ == "__main__":
    print(caller(3))

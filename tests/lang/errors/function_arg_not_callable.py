# expect error: 8:12: is not callable
# A number passed where a function is called (Numba: "Invalid use of Literal[int](1)").
from numba import njit


@njit
def apply(f, x):
    return f(x)


@njit
def k(x):
    return apply(1, x)


if __name__ == "__main__":
    print(k(2.0))

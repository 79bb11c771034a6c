# expect error: 15:18: a lambda that reads variables of the function defining it is used as a value
# A lambda reading a variable of the function that defines it, passed to another jitted
# function, escapes that function: Numba cannot turn it into a JIT function either.
from numba import njit


@njit
def apply(g, v):
    return g(v)


@njit
def caller(k):
    w = k * 2
    return apply(lambda x: x + w, 3)


if __name__ == "__main__":
    print(caller(1))

# numba.literally(x) in compiled code: Numba types x's argument as a literal (compiling the
# function again for each value) and the call's value is x itself; the results are those of
# the plain values, for numbers, strings and booleans, from Python and from compiled callers.
from numba import njit, literally


@njit
def scale(x, k):
    return x * literally(k)


@njit
def label(mode="linear"):
    m = literally(mode)
    return m + "!"


@njit
def caller(x):
    return scale(x, 3), scale(x, 2), label("cubic")


if __name__ == "__main__":
    r = scale(2.5, 4)
    print(type(r).__name__, r)
    print(scale(3, 5))
    print(label("nearest"))
    print(caller(1.5))

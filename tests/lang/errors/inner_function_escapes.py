# expect error: 13:12: the inner function 'g' is used as a value
# A closure returned from the function that defines it escapes: Numba cannot capture 'x' in
# a function that will escape, and numjit refuses it at the use.
from numba import njit


@njit
def make_adder(x):
    def g(y):
        return x + y

    g(1.0)
    return g


if __name__ == "__main__":
    print(make_adder(1.0))

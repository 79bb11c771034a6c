# expect error: 13:12: missing a required argument: 'y'
# A call of a compiled function that leaves out a parameter without a default.
from numba import njit


@njit
def g(x, y, z=1.0):
    return x * y + z


@njit
def f(x):
    return g(z=2.0, x=x)


if __name__ == "__main__":
    print(f(3.0))

# expect error: 13:17: got an unexpected keyword argument 'z'
# A keyword that names no parameter of the compiled function called.
from numba import njit


@njit
def g(x, y=1.0):
    return x * y


@njit
def f(x):
    return g(x, z=2.0)


if __name__ == "__main__":
    print(f(3.0))

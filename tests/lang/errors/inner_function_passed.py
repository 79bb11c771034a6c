# expect error: 16:16: the inner function 'g' is used as a value
# A closure passed to another jitted function escapes the function that defines it: Numba
# cannot capture 'x' there, and numjit refuses it at the argument.
from numba import njit


@njit
def use(f, v):
    return f(v)


@njit
def caller(x):
    def g(y):
        return x + y
    return use(g, 2.0)


if __name__ == "__main__":
    print(caller(1.0))

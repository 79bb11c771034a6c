# expect error: 12:12: name 'square' is not defined
# A module-level lambda is a plain Python function: compiled code cannot call it (Numba: an
# untyped global name).  Decorate a def with @njit instead.
from numba import njit

square = lambda x: x * x


@njit
def f(v):
    w = v + 1
    return square(w)


if __name__ == "__main__":
    print(f(3))

# expect error: 15:5: 'yield from' is not supported
# `yield from` of another generator: Numba 0.56 stops at its bytecode (GET_YIELD_FROM_ITER);
# numjit refuses the statement, naming it.
from numba import njit


@njit
def inner(n):
    for i in range(n):
        yield i


@njit
def outer(n):
    yield from inner(n)


if __name__ == "__main__":
    print(list(outer(3)))

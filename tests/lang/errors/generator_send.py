# expect error: 15:9: evens() is a generator
# A generator's send(): Numba 0.56 has no such attribute of its generator type.  numjit runs a
# generator only where a loop, list(), min() or max() iterates it, and says so at the call.
from numba import njit


@njit
def evens(n):
    for i in range(n):
        yield i * 2


@njit
def first(n):
    g = evens(n)
    return g.send(None)


if __name__ == "__main__":
    print(first(4))

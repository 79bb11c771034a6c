# Generators called from Python: the call gives a generator object that Python iterates (for,
# list(), next() until StopIteration), of numbers of any type, with keyword and default
# arguments, empty ones and ones ended by return.
import numpy as np
from numba import njit


@njit
def evens(n):
    for i in range(n):
        yield i * 2


@njit
def halves(a, scale=0.5):
    for x in a:
        if x < 0:
            return
        yield x * scale


@njit
def countdown(n):
    while n > 0:
        yield n
        n -= 1
    yield 0


@njit
def flags(n):
    for i in range(n):
        yield i % 3 == 0


if __name__ == "__main__":
    g = evens(3)
    print(type(g).__name__, iter(g) is g)
    print(list(g), list(g))
    g = evens(2)
    print(next(g), next(g))
    try:
        next(g)
    except StopIteration as e:
        print("StopIteration", repr(e))
    for x in evens(4):
        print("evens", type(x).__name__, x)
    print("halves", list(halves(np.array([1.0, 3.0, -1.0, 5.0]))))
    print("halves", list(halves(np.arange(3.0), scale=2.0)))
    r = list(halves(np.arange(3, dtype=np.float32)))
    print("float32", [type(x).__name__ for x in r], r)
    print("countdown", list(countdown(4)), list(countdown(0)))
    print("flags", list(flags(5)))
    print("empty", list(evens(0)))
    print("sum", sum(evens(5)), max(countdown(3)))

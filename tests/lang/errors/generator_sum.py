# expect error: 19:12: sum() of a generator is not supported
# sum() of a generator: Numba 0.56 has no such signature (min, max, list and for loops take
# one); numjit refuses it at the call.
from numba import njit


@njit
def evens(n):
    for i in range(n):
        yield i * 2


@njit
def total(n):
    s = 0
    for x in evens(n):
        s += x
    s = 0
    return sum(evens(n))


if __name__ == "__main__":
    print(total(4))

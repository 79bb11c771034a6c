# expect error: 9:12: the type of this empty list's items is not known: append to it first
# An empty list nothing is appended to has no item type: Numba 0.56 cannot type it either.
from numba import njit


@njit
def f():
    l = []
    return len(l)


if __name__ == "__main__":
    print(f())

# sorted() of lists, tuples of one item type and 1-d arrays (a new list), with key= a jitted
# function and reverse=, and list.sort(key=, reverse=), as Numba 0.56 sorts: stable, equal keys
# keep their order, also under reverse=True.
import numpy as np
from numba import njit


@njit
def neg(x):
    return -x


@njit
def mod3(x):
    return x % 3


@njit
def sorted_plain(a):
    return sorted(a)


@njit
def sorted_neg(a):
    return sorted(a, key=neg)


@njit
def sorted_mod3_reversed(a):
    return sorted(a, key=mod3, reverse=True)


@njit
def sort_methods():
    l = [5, 3, 9, 1, 4, 7, 3]
    l.sort(key=mod3)
    m = [2.5, -1.0, 3.0, 0.5]
    m.sort(key=neg, reverse=True)
    e = [1]
    e.sort(key=neg)
    return l, m, e


@njit
def tuples():
    return sorted((3, 1, 2)), sorted((3.0, 1.5), reverse=True), sorted((4, 5, 6, 7), key=mod3)


@njit
def left_alone(a):
    b = sorted(a, key=neg)
    return a, b


def show(v):
    print(type(v).__name__, v, [type(x).__name__ for x in v][:1])


if __name__ == "__main__":
    show(sorted_plain(np.array([3.0, 1.0, 2.0])))
    show(sorted_plain(np.array([3, -1, 2], dtype=np.int32)))
    show(sorted_plain([4, 1, 3]))
    show(sorted_neg([4, 1, 3]))
    show(sorted_neg(np.arange(5)))
    show(sorted_neg(np.linspace(0.0, 1.0, 4)))
    show(sorted_mod3_reversed([5, 3, 9, 1, 4, 7, 3, 6]))
    show(sorted_mod3_reversed(np.arange(10)))
    for r in sort_methods():
        show(r)
    for r in tuples():
        show(r)
    a, b = left_alone([2, 7, 1])
    show(a)
    show(b)

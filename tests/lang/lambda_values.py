# Lambdas that read only their parameters, used as values as Numba 0.56 allows: a sort key
# (sorted(l, key=...), l.sort(key=...)), an argument of a jitted function taking a function,
# the same lambda text at two places, and lambdas of several argument types.
from numba import njit
import numpy as np


@njit
def apply(g, v):
    return g(v)


@njit
def apply2(g, a, b):
    return g(a, b)


@njit
def by_second():
    l = [(1, 3.5), (2, 1.0), (3, 2.25)]
    r = sorted(l, key=lambda t: t[1])
    return [t[0] for t in r], [t[1] for t in r]


@njit
def sort_desc(n):
    l = [(i * 7) % 5 for i in range(n)]
    l.sort(key=lambda v: -v)
    return l


@njit
def stable(n):
    l = [i for i in range(n)]
    return sorted(l, key=lambda v: v % 3, reverse=True)


@njit
def passed(x):
    return apply(lambda v: v * v + 1, x), apply2(lambda a, b: a - b, x, 2)


@njit
def two_places(x):
    return apply(lambda v: v + 1, x) + apply(lambda v: v + 1, 2 * x)


@njit
def of_array(a):
    return apply(lambda v: v.sum() * 2.0, a)


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    print(show(by_second()))
    print(show(sort_desc(6)))
    print(show(stable(7)))
    print(show(passed(3)))
    print(show(passed(1.5)))
    print(show(two_places(4)))
    print(show(of_array(np.arange(5.0))))

# List comprehensions fed to sum(), min() and max() (numjit lowers them as loops): over
# ranges and arrays, with `if` filters and several `for` clauses, integer and float elements
# (an empty float sum is 0.0, an empty int sum 0), targets that do not leak into the function
# (a variable of the same name keeps its value and type), tuple targets over enumerate, and a
# comprehension inside an inner function.
from numba import njit
import numpy as np


@njit
def sums(a, n):
    return sum([i for i in range(n)]), sum([x * x for x in a]), sum([x for x in a if x > 1.0])


@njit
def mins_maxs(a, n):
    return (min([x for x in a]), max([x for x in a]), max([i * 1.5 for i in range(n) if i % 2]),
            min([i - j for i in range(n) for j in range(i)]))


@njit
def scoped(n):
    x = 2.5
    t = sum([x * 2 for x in range(n)])
    return t, x


@njit
def weighted(a):
    return sum([i * v for i, v in enumerate(a)])


@njit
def nested_sum(n):
    return sum([sum([i * j for j in range(i)]) for i in range(n)])


@njit
def in_closure(a, k):
    def top(m):
        return max([v * k for v in a[:m]])
    return top(2) + top(3)


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(e) for e in v) + ")"
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    a = np.array([0.5, 3.0, -1.25, 2.0])
    print(show(sums(a, 5)))
    print(show(sums(np.arange(4), 0)))
    print(show(sums(a[:0], 1)))
    print(show(mins_maxs(a, 6)))
    print(show(mins_maxs(np.array([4, -2, 7]), 3)))
    print(show(scoped(4)))
    print(show(weighted(a)))
    print(show(weighted(np.arange(5))))
    print(show(nested_sum(5)))
    print(show(in_closure(a, 2.0)))
    print(show(in_closure(np.arange(6), 3)))

# list.extend with any iterable, as Numba 0.56's reflected lists take: range(...) (also with a
# start and a negative step), tuples (of numbers and of pairs), zip(...) (and list(zip(...)),
# which returned None), a string's characters, a list comprehension, a list and a 1-d array;
# the item type of an empty list set by what extends it, and int items widened into a float
# list.
import numpy as np
from numba import njit


@njit
def from_ranges(n):
    l = []
    l.extend(range(n // 2))
    l.extend(range(n, 0, -3))
    return l


@njit
def from_tuple_and_comp(k):
    l = [0.5]
    l.extend((1, 2, 3))
    l.extend([i * 0.25 for i in range(k)])
    return l


@njit
def from_pairs(a):
    m = [(1.0, 2.0)]
    m.extend(((a[0], a[1]), (a[2], 0.5)))
    s = 0.0
    for x, y in m:
        s += x - 2 * y
    return len(m), m[-1][1], s


@njit
def from_zip(a, b):
    m = [(0.5, 1)]
    m.extend(zip(a, b))
    z = list(zip(b, a))
    s = 0.0
    for x, k in m:
        s += x * k
    return len(m), m[-1][0], len(z), z[0][0], s


@njit
def from_string(s):
    l = ["<"]
    l.extend(s)
    l.extend([">"])
    return l


@njit
def from_array_then_range(a, n):
    l = [1.5]
    l.extend(a)
    l.extend(range(n))
    return len(l), l[-1], sum(l)


@njit
def pick(n, i):
    l = []
    l.extend(range(n))
    l.extend(range(n))
    return l[i]


if __name__ == "__main__":
    for n in (0, 1, 7, 10):
        r = from_ranges(n)
        print("from_ranges", n, r, [type(v).__name__ for v in r[:2]])
    print("from_tuple_and_comp", from_tuple_and_comp(3))
    print("from_pairs", from_pairs(np.array([3.0, 4.0, 5.0])))
    r = from_zip(np.array([1.5, 2.5, 3.5]), np.array([4, 5]))
    print("from_zip", r, type(r[3]).__name__)
    print("from_string", from_string("abc"))
    r = from_array_then_range(np.arange(4.0), 3)
    print("from_array_then_range", r, type(r[1]).__name__)
    print("pick", pick(6, 8), type(pick(6, 8)).__name__)
    try:
        pick(2, 10)
    except IndexError as e:
        print("IndexError")

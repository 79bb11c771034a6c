# numba.typed.List inside compiled code: List() typed by its first append and
# List.empty_list(item_type) (also with allocated=), then append, extend, insert, pop, indexing,
# item assignment, slicing, len, iteration, `in`, sort, reverse, copy, index and count, and
# lists of arrays and of tuples; the results leave compiled code as numbers and arrays.
from numba import njit, types
from numba.typed import List
import numpy as np


@njit
def squares(n):
    l = List()
    for i in range(n):
        l.append(i * i)
    return len(l), l[0], l[-1], sum(l)


@njit
def floats(n):
    l = List.empty_list(types.float64)
    for i in range(n):
        l.append(i / 4)
    l.insert(0, -1.0)
    x = l.pop()
    l.extend([10.0, 20.0])
    l[1] = 0.125
    return x, len(l), l[0], l[1], l[-1], 20.0 in l, 3.0 in l


@njit
def methods(a):
    l = List.empty_list(types.int64, allocated=16)
    for x in a:
        l.append(x)
    l.sort()
    s = l.copy()
    s.reverse()
    t = 0
    for x in l[1:4]:
        t += x
    return l[0], s[0], t, l.index(5), l.count(3), len(l[::2])


@njit
def arrays(n):
    l = List()
    for i in range(n):
        l.append(np.arange(i + 1) * 1.5)
    total = 0.0
    for a in l:
        total += a.sum()
    return total, l[-1]


@njit
def pairs(n):
    l = List()
    for i in range(n):
        l.append((i, i * 0.5))
    s = 0.0
    for i, x in l:
        s += i * x
    return s, l[1][0], l[1][1]


if __name__ == "__main__":
    r = squares(6)
    print(r, [type(x).__name__ for x in r])
    r = floats(5)
    print(r, [type(x).__name__ for x in r])
    print(methods(np.array([5, 3, 9, 3, 1, 7])))
    total, last = arrays(4)
    print(total, last.tolist(), last.dtype)
    print(pairs(5))

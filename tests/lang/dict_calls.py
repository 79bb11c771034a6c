import numpy as np
from numba import njit, types
from numba.typed import Dict


@njit
def fill(d, n):
    for i in range(n):
        d[i] = np.float64(i) ** 2


@njit
def total(d):
    s = 0.0
    for v in d.values():
        s += v
    return s


@njit
def make(n):
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    fill(d, n)
    return total(d), len(d)


@njit
def word_count(words):
    counts = Dict.empty(key_type=types.int64, value_type=types.int64)
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    best = -1
    most = 0
    for w, c in counts.items():
        if c > most:
            best = w
            most = c
    return best, most, len(counts)


@njit
def grid():
    g = {(0, 0): 1.0}
    for i in range(5):
        for j in range(5):
            g[(i, j)] = g.get((i - 1, j), 0.0) + g.get((i, j - 1), 0.0) + (1.0 if i == 0 and j == 0 else 0.0)
    return g[(4, 4)], len(g)


@njit
def bool_and_float_keys():
    d = {True: 1, False: 0}
    e = {1.5: 'a', 2.5: 'b'}
    return d[True], d[False], e[2.5], 1.5 in e


print(make(10))
print(word_count(np.array([3, 1, 3, 2, 1, 3, 9])))
print(grid())
print(bool_and_float_keys())

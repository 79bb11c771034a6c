import numpy as np
from numba import njit


@njit
def items(s):
    out = []
    for x in s:
        out.append(x)
    return out


@njit
def literal_and_order():
    s = {5, 1, 33, 17, -2, 1}
    return items(s), len(s), 33 in s, 4 in s, 4 not in s


@njit
def build(n):
    s = set()
    for i in range(n):
        s.add((i * 7) % 23)
    s.discard(3)
    s.discard(1000)
    s.remove(0)
    return items(s), len(s)


@njit
def algebra():
    a = {1, 2, 3, 4, 5, 40, 100}
    b = {4, 5, 6, 7, 100, 200}
    return (items(a | b), items(a & b), items(a - b), items(a ^ b), items(b - a),
            items(a.union(b)), items(a.intersection(b)), items(a.difference(b)),
            items(a.symmetric_difference(b)))


@njit
def inplace():
    a = {1, 2, 3, 4, 5, 40, 100}
    b = {4, 5, 6, 7, 100, 200}
    c = a.copy()
    c.update(b)
    d = a.copy()
    d.intersection_update(b)
    e = a.copy()
    e.difference_update(b)
    f = a.copy()
    f.symmetric_difference_update(b)
    g = a.copy()
    g |= b
    return items(c), items(d), items(e), items(f), items(g), items(a)


@njit
def from_array(x):
    s = set(x)
    t = set([3.5, 1.25, 3.5])
    return items(s), len(s), items(t)


@njit
def popping():
    s = {10, 20, 30, 3, 7}
    out = []
    while len(s) > 2:
        out.append(s.pop())
    s.clear()
    return out, len(s)


@njit
def grow(n):
    s = set()
    for i in range(n):
        s.add(i * i - 50)
    for i in range(0, n, 3):
        s.discard(i * i - 50)
    return items(s), len(s)


@njit
def pop_empty():
    s = {1}
    s.pop()
    return s.pop()


@njit
def remove_missing():
    s = {1, 2}
    s.remove(3)
    return len(s)


print(literal_and_order())
print(build(40))
for r in algebra():
    print(r)
for r in inplace():
    print(r)
print(from_array(np.array([4, 1, 4, 9, 16, 1, -7])))
print(popping())
print(grow(60))
for f in (pop_empty, remove_missing):
    try:
        print(f())
    except KeyError as e:
        print(type(e).__name__, str(e))

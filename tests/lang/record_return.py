# Arrays of records given back to Python (Numba 0.56 boxes them as structured ndarrays sharing
# the argument's memory): the argument itself, slices and reversed and 2-d views, a view whose
# records are then written from Python and from compiled code, and fields of records chosen in
# compiled code.
import numpy as np
from numba import njit

pt = np.dtype([("x", "f4"), ("y", "f4"), ("id", "i8")], align=True)
packed = np.dtype([("v", "i2"), ("w", "f8")])


@njit
def same(a):
    return a


@njit
def every_other(a):
    return a[::2]


@njit
def tail_reversed(a, k):
    return a[k:][::-1]


@njit
def scale(a, f):
    for i in range(a.shape[0]):
        a[i].x *= f
        a[i].y *= f
    return a[1:]


@njit
def column(g, j):
    return g[:, j]


@njit
def nearest(a, x, y):
    best = 0
    d = 1e300
    for i in range(len(a)):
        dx = a[i].x - x
        dy = a[i].y - y
        if dx * dx + dy * dy < d:
            d = dx * dx + dy * dy
            best = i
    return a[best:best + 1]


def show(r):
    print(type(r).__name__, r.dtype == pt or r.dtype == packed, r.shape, r.strides, r.tolist())


if __name__ == "__main__":
    a = np.zeros(5, dtype=pt)
    a["x"] = np.arange(5)
    a["y"] = np.arange(5) * 2
    a["id"] = np.arange(5) + 100
    show(same(a))
    print(same(a) is a, np.shares_memory(same(a), a))
    e = every_other(a)
    show(e)
    e[0]["id"] = -1
    print(a["id"].tolist())
    show(tail_reversed(a, 2))
    s = scale(a, 0.5)
    show(s)
    print(a["x"].tolist(), a["y"].tolist())
    one = nearest(a, 1.2, 2.1)
    print(one[0]["id"])
    show(one)
    g = np.zeros((3, 2), dtype=packed)
    g["v"] = [[1, 2], [3, 4], [5, 6]]
    g["w"] = 0.5
    c = column(g, 1)
    show(c)
    c[1]["v"] = 40
    print(g["v"].tolist())

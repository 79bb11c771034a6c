# Record arrays (NumPy structured dtypes) as Numba 0.56 has them: packed and aligned dtypes as
# arguments, a[i].x and a[i]['x'] read and written (the array sees the writes), a['x'] as a
# strided view of one field, records passed to other jitted functions and from Python
# (numpy.void from a[i], a view of the array), whole records copied (a[i] = a[j]), and the
# types the fields are read as.
import numpy as np
from numba import njit

packed = np.dtype([("x", "f8"), ("y", "i4"), ("flag", "?")])
aligned = np.dtype([("x", "f8"), ("y", "i4"), ("flag", "?")], align=True)
small = np.dtype([("a", "i2"), ("b", "f4"), ("c", "u1"), ("z", "c16")])


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i].x * a[i]["y"]
    return s


@njit
def fill(a, k):
    for i in range(len(a)):
        r = a[i]
        r.x = i * k
        r["y"] = i + 1
        a[i].flag = i % 2 == 0
    return a[0].flag


@njit
def bump(r, by):
    r.x += by
    r["y"] *= 2
    return r.x + r.y


@njit
def bump_all(a, by):
    t = 0.0
    for i in range(a.size):
        t += bump(a[i], by)
    return t


@njit
def xs(a):
    return a["x"]


@njit
def field_sum(a):
    v = a["y"]
    s = 0
    for i in range(v.shape[0]):
        s += v[i]
    v[0] = 100
    return s


@njit
def types_of(r):
    return r.a + 1, r.b * 2, r.c, r.z * 1j


@njit
def grid(g):
    s = 0.0
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            g[i, j].y = i * 10 + j
            s += g[i, j].y
    return s


@njit
def store_cast(r, v):
    r.y = v
    r.x = v
    return r.y, r.x


@njit
def copy_item(a, i, j):
    a[i] = a[j]


if __name__ == "__main__":
    for dt in (packed, aligned):
        a = np.zeros(4, dtype=dt)
        print(dt.itemsize, fill(a, 1.5), a["x"].tolist(), a["y"].tolist(), a["flag"].tolist())
        t = total(a)
        print(type(t).__name__, t)
        print(bump(a[2], 0.25), a[2]["x"], a[2]["y"])
        print(bump_all(a, 1.0), a["x"].tolist(), a["y"].tolist())
        v = xs(a)
        print(type(v).__name__, v.dtype, v.shape, v.strides, v.tolist())
        v[1] = -1.0
        print(a[1]["x"])
        s = field_sum(a)
        print(type(s).__name__, s, a["y"].tolist())
        print(total(a[::2]), total(a[::-1]))
    b = np.zeros(3, dtype=small)
    b["a"] = [1, 2, 3]
    b["b"] = [0.5, 1.5, 2.5]
    b["c"] = [7, 8, 255]
    b["z"] = [1 + 2j, 3, 4j]
    for r in b:
        out = types_of(r)
        print([type(x).__name__ for x in out], out)
    g = np.zeros((2, 3), dtype=packed)
    print(grid(g), g["y"].tolist())
    print(grid(g.T), g["y"].tolist())
    c = np.zeros(1, dtype=packed)
    print(store_cast(c[0], 7), store_cast(c[0], True), c.tolist())
    d = np.zeros(3, dtype=packed)
    d["x"] = [1.5, 2.5, 3.5]
    d["y"] = [1, 2, 3]
    copy_item(d, 0, 2)
    copy_item(d, 1, 1)
    print(d.tolist())

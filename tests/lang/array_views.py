# Views made inside compiled code by basic slicing: a[1:5], a[::2], a[::-1], a[i:], a[:j],
# negative and out-of-range bounds (clamped as Python does), variable steps of either sign
# (a zero step raises ValueError), a[:, j], a[i, :], a[i] of a 2-d or 3-d array (a row view),
# a[1:-1, 1:-1], views of views, a.T / a.transpose(); for loops over a 2-d array (rows) and
# enumerate; writes through views landing in the caller's array; views as assignment targets:
# a[1:5] = scalar (converted to the element type) and a[:, 0] = b copied elementwise, with
# overlapping 1-d source and destination copied as NumPy does; views passed to other compiled
# functions; reductions of views.
from numba import njit
import numpy as np


@njit
def walk(v):
    t = 0.0
    for x in v:
        t = t * 3.0 + x
    return t


@njit
def slices1(a, i, j):
    return (walk(a[1:5]), walk(a[::2]), walk(a[::-1]), walk(a[i:]), walk(a[:j]),
            walk(a[i:j]), walk(a[-3:]), walk(a[:-3]), walk(a[-100:100]), walk(a[j:i]),
            walk(a[1:5][::-1]), walk(a[::-1][1:5]), len(a[i:j]), a[2:][0])


@njit
def stepped(a, i, j, k):
    b = a[i:j:k]
    return len(b), walk(b)


@njit
def grid(m, i, j):
    inner = m[1:-1, 1:-1]
    return (walk(m[:, j]), walk(m[i, :]), walk(m[i]), inner.shape[0], inner.shape[1],
            inner.sum(), m[::2, ::-1].sum(), walk(m[i, ::-2]), m[1:, 1:][0, 0],
            m[i][j], m.T[j, i], m.transpose()[j][i], m.T.shape[0])


@njit
def rows(m):
    t = 0.0
    for r in m:
        t = t * 2.0 + walk(r)
    return t


@njit
def cube(c, i):
    plane = c[i]
    return plane.sum(), plane[1, 2], c[:, 1].sum(), c[i, 1:, 2].sum(), c[1, 2].sum(), c.T.shape[0]


@njit
def enum_sum(a, start):
    t = 0.0
    for i, x in enumerate(a):
        t += i * x
    for i, x in enumerate(a[::-1], start):
        t += i * x
    return t


@njit
def enum_rows(m):
    t = 0.0
    for i, r in enumerate(m):
        t += i * r.sum()
    return t


@njit
def set_range(a, v):
    a[2:5] = v


@njit
def set_column(m, col, j):
    m[:, j] = col


@njit
def set_block(m, b):
    m[1:3, 1:3] = b
    m[0] = -1.0
    m[-1, ::2] = 9


@njit
def shift_right(a):
    a[1:] = a[:-1]


@njit
def shift_left(a):
    a[:-1] = a[1:]


@njit
def scale_view(v, k):
    for i in range(v.shape[0]):
        v[i] *= k


@njit
def write_through(a):
    scale_view(a[1::2], 10.0)
    b = a[::-1]
    b[0] = 99.0


@njit
def fill_rows(m):
    for i in range(m.shape[0]):
        r = m[i]
        r[:] = i


def run(name, f, *args):
    try:
        print(name, f(*args))
    except ValueError as e:
        print(name, "ValueError")


if __name__ == "__main__":
    a = np.arange(10, dtype=np.float64)
    for i, j in [(2, 7), (0, 10), (-4, -1), (8, 3), (20, 30), (-30, 5)]:
        run("slices1 %d %d" % (i, j), slices1, a, i, j)
    for i, j, k in [(0, 10, 1), (8, 2, -2), (-1, -11, -1), (-100, 100, 3), (5, 5, 1),
                    (9, -20, -4), (100, -100, -3), (0, 10, 0), (3, 9, 20), (2, 3, -1)]:
        run("stepped %d %d %d" % (i, j, k), stepped, a, i, j, k)
    m = np.arange(20, dtype=np.float64).reshape(4, 5) * 0.5
    for tag, mm in [("C", m), ("F", np.asfortranarray(m)), ("T", m.T.copy().T),
                    ("step", np.arange(40.0).reshape(4, 10)[:, ::2])]:
        run("grid " + tag, grid, mm, 2, 3)
        run("rows " + tag, rows, mm)
        run("enum_rows " + tag, enum_rows, mm)
    c = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    run("cube", cube, c, 1)
    run("cube F", cube, np.asfortranarray(c), -1)
    run("enum_sum", enum_sum, np.arange(5, dtype=np.float64), 3)
    b = np.zeros(8, dtype=np.int16)
    set_range(b, 7.9)
    print("set_range", b.tolist())
    b = np.zeros(8)
    set_range(b[::-1], np.float32(2.5))
    print("set_range rev", b.tolist())
    m2 = np.zeros((3, 4))
    set_column(m2, np.array([1.0, 2.0, 3.0]), 1)
    set_column(m2, np.arange(3, dtype=np.int32), -1)
    print("set_column", m2.tolist())
    run("set_column mismatch", set_column, m2, np.ones(4), 0)
    m3 = np.zeros((4, 4))
    set_block(m3, np.array([[1.0, 2.0], [3.0, 4.0]]))
    print("set_block", m3.tolist())
    m4 = np.zeros((4, 4), order="F")
    set_block(m4, np.array([[1.0, 2.0], [3.0, 4.0]]).T)
    print("set_block F", m4.tolist())
    s = np.arange(6, dtype=np.float64)
    shift_right(s)
    print("shift_right", s.tolist())
    s = np.arange(6, dtype=np.float64)
    shift_left(s)
    print("shift_left", s.tolist())
    s = np.arange(8, dtype=np.float64)
    shift_right(s[::-1])
    print("shift_right rev", s.tolist())
    w = np.arange(8, dtype=np.float64)
    write_through(w)
    print("write_through", w.tolist())
    fr = np.zeros((3, 2), dtype=np.int64)
    fill_rows(fr)
    print("fill_rows", fr.tolist())

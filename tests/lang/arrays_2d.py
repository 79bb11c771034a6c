# Two- and three-dimensional arrays: nested loops in both index orders over C-ordered and
# Fortran-ordered arrays (np.asfortranarray), element writes, a.shape / a.size / a.ndim /
# len(a), `n, m = a.shape` unpacking, shape[k] indexing, int32 and float32 element types,
# negative indices, and writes through one array read back through another argument.
from numba import njit
import numpy as np


@njit
def weighted_sum_rows(a):
    n, m = a.shape
    s = 0.0
    for i in range(n):
        for j in range(m):
            s += a[i, j] * (i + 1) * (j + 2)
    return s


@njit
def weighted_sum_cols(a):
    n = a.shape[0]
    m = a.shape[1]
    s = 0.0
    for j in range(m):
        for i in range(n):
            s += a[i, j] * (i + 1) * (j + 2)
    return s


@njit
def fill(a):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            a[i, j] = i * 10 + j


@njit
def matmul(a, b, c):
    n, k = a.shape
    k2, m = b.shape
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i, p] * b[p, j]
            c[i, j] = s


@njit
def info(a):
    # Encodes ndim, size and len in one int.
    return a.ndim * 1000000 + a.size * 1000 + len(a)


@njit
def shape_prod(a):
    p = 1
    for k in range(a.ndim):
        p *= a.shape[k]
    return p == a.size


@njit
def sum3(a):
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i * 100 + j * 10 + k)
    return s


@njit
def corners(a):
    return a[0, 0] + 10 * a[-1, -1] + 100 * a[0, -1] + 1000 * a[-1, 0]


@njit
def transpose_into(a, out):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            out[j, i] = a[i, j]


@njit
def stencil(a, out):
    n, m = a.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) * 0.25 - a[i, j]


@njit
def row_max(a, out):
    for i in range(a.shape[0]):
        m = a[i, 0]
        for j in range(1, a.shape[1]):
            if a[i, j] > m:
                m = a[i, j]
        out[i] = m


@njit
def count_1d(a):
    return len(a) + a.shape[0] * 10 + a.size * 100 + a.ndim * 1000


if __name__ == "__main__":
    a = np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5 - 1.0
    fa = np.asfortranarray(a)
    for arr, tag in [(a, "C"), (fa, "F")]:
        print("wsum", tag, repr(weighted_sum_rows(arr)), repr(weighted_sum_cols(arr)))
        print("info", tag, info(arr), shape_prod(arr), corners(arr))
    for order in ["C", "F"]:
        z = np.zeros((3, 5), dtype=np.int32, order=order)
        fill(z)
        print("fill", order, z.tolist(), z.flags.c_contiguous, z.flags.f_contiguous)
    rng = np.random.RandomState(7)
    x = rng.standard_normal((4, 3))
    y = rng.standard_normal((3, 5))
    for ox in ["C", "F"]:
        for oy in ["C", "F"]:
            for oc in ["C", "F"]:
                c = np.zeros((4, 5), order=oc)
                matmul(np.asarray(x, order=ox), np.asarray(y, order=oy), c)
                print("matmul", ox, oy, oc, [repr(v) for v in c.ravel().tolist()])
    t = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    print("sum3", sum3(t), sum3(np.asfortranarray(t)), info(t), shape_prod(t))
    out = np.zeros((4, 3), dtype=np.float32)
    transpose_into(a.astype(np.float32), out)
    print("transpose_into", [repr(v) for v in out.ravel().tolist()])
    g = np.fromfunction(lambda i, j: (i - 2.0) ** 2 + (j - 3.0) ** 2, (5, 7))
    for order in ["C", "F"]:
        o = np.zeros((5, 7), order=order)
        stencil(np.asarray(g, order=order), o)
        print("stencil", order, [repr(v) for v in o.ravel().tolist()])
    m = np.array([[3, -1, 7], [-5, -2, -9], [0, 0, 1]], dtype=np.int32)
    o = np.zeros(3, dtype=np.int32)
    row_max(m, o)
    print("row_max", o.tolist())
    row_max(np.asfortranarray(m), o)
    print("row_max F", o.tolist())
    print("count_1d", count_1d(np.zeros(0)), count_1d(np.zeros(17, dtype=np.uint8)))
    print("info_empty", info(np.zeros((0, 3))), info(np.zeros((3, 0))))

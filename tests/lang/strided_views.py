# Non-contiguous arrays passed as arguments: every other element (a[::2]), reversed (a[::-1]),
# a column of a C array (a[:, 1]) and a row of a Fortran array, transposes (a.T), 2-D slices
# with steps in both dimensions, reversed 2-D views, and writes through views that must land in
# the base array.  The compiled code sees only the strides.
from numba import njit
import numpy as np


@njit
def wsum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * (i + 1)
    return s


@njit
def wsum2(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1) * (j + 3)
    return s


@njit
def scale_inplace(a, k):
    for i in range(a.shape[0]):
        a[i] = a[i] * k + i


@njit
def scale_inplace2(a, k):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i, j] * k + i - j


@njit
def copy_into(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit
def dims(a):
    return a.shape[0] * 100 + a.shape[1] * 10 + a.ndim


@njit
def isum(a):
    s = 0
    for i in range(len(a)):
        s = s * 7 + a[i]
    return s


if __name__ == "__main__":
    base = np.arange(10, dtype=np.float64) * 1.5 - 4.0
    views = [("all", base), ("step2", base[::2]), ("step3_off1", base[1::3]),
             ("rev", base[::-1]), ("rev_step2", base[::-2]), ("mid_rev", base[7:2:-1]),
             ("empty", base[5:5]), ("one", base[3:4])]
    for tag, v in views:
        print("wsum", tag, repr(wsum(v)))
    m = np.arange(20, dtype=np.float64).reshape(4, 5) * 0.25
    fm = np.asfortranarray(m)
    views2 = [("C", m), ("F", fm), ("T", m.T), ("FT", fm.T), ("step", m[::2, ::3]),
              ("rev", m[::-1, ::-1]), ("revT", m[::-1].T), ("sub", m[1:3, 1:4]),
              ("subF", fm[1:, ::2])]
    for tag, v in views2:
        print("wsum2", tag, repr(wsum2(v)), dims(v))
    cols = [("col1", m[:, 1]), ("row2", m[2, :]), ("Fcol", fm[:, 3]), ("Frow", fm[1]),
            ("Tcol", m.T[:, 2]), ("diagish", m.ravel()[::6])]
    for tag, v in cols:
        print("wsum1d", tag, repr(wsum(v)))
    b = np.arange(10, dtype=np.int64)
    scale_inplace(b[::3], 10)
    print("write_step3", b.tolist())
    b = np.arange(10, dtype=np.int64)
    scale_inplace(b[::-1], -1)
    print("write_rev", b.tolist())
    c = np.zeros((4, 5), dtype=np.int32)
    c[:] = np.arange(20).reshape(4, 5)
    scale_inplace(c[:, 2], 100)
    print("write_col", c.tolist())
    scale_inplace2(c.T, 2)
    print("write_T", c.tolist())
    scale_inplace2(c[::-2, 1:4], -1)
    print("write_sub", c.tolist())
    d = np.zeros(12)
    copy_into(base[::-1], d[::-1])
    print("copy_rev_rev", [repr(v) for v in d.tolist()])
    e = np.zeros(10)
    copy_into(base[:5], e[1::2])
    print("copy_into_step", [repr(v) for v in e.tolist()])
    i8 = np.arange(-6, 6, dtype=np.int8)
    print("isum", isum(i8), isum(i8[::-1]), isum(i8[::4]), isum(i8[1::5]))
    u = np.arange(24, dtype=np.uint8).reshape(4, 6)
    print("isum_u8", isum(u[:, 5]), isum(u.T[3]), isum(np.asfortranarray(u)[2]))

# bool and uint8 arrays: reading and writing bool elements, counting, bool arithmetic (True + 1),
# masks computed from comparisons, uint8 elements (uint8 op uint8 is uint64 in Numba, so a
# difference below zero wraps at 64 bits), uint8 stores wrapping at 8 bits, a threshold filter
# over an image-like 2-D uint8 array, and uint64 scalars.
from numba import njit
import numpy as np


@njit
def count_true(m):
    c = 0
    for i in range(m.shape[0]):
        if m[i]:
            c += 1
    return c


@njit
def bool_sum(m):
    # bool elements add as integers.
    s = 0
    for i in range(m.shape[0]):
        s += m[i]
    return s


@njit
def make_mask(a, t, m):
    for i in range(a.shape[0]):
        m[i] = a[i] > t


@njit
def masked_sum(a, m):
    s = 0.0
    for i in range(a.shape[0]):
        if m[i] and not a[i] < 0:
            s += a[i]
    return s


@njit
def any_true(m):
    for i in range(m.shape[0]):
        if m[i]:
            return True
    return False


@njit
def xor_mask(m1, m2, out):
    for i in range(m1.shape[0]):
        out[i] = m1[i] != m2[i]


@njit
def u8_diff(a, i, j):
    return a[i] - a[j]


@njit
def u8_sum(a, i, j):
    return a[i] + a[j]


@njit
def u8_add_store(a, k):
    for i in range(a.shape[0]):
        a[i] = a[i] + k


@njit
def threshold(img, t, out):
    h, w = img.shape
    for y in range(h):
        for x in range(w):
            if img[y, x] >= t:
                out[y, x] = 255
            else:
                out[y, x] = 0


@njit
def histogram(img, hist):
    h, w = img.shape
    for y in range(h):
        for x in range(w):
            hist[img[y, x] // 32] += 1


@njit
def u64_ops(a, b):
    return (a + b) * 3 - b


@njit
def bool_arith(b, k):
    return b + k


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    m = np.array([True, False, True, True, False])
    print("count_true", r(count_true(m)), r(count_true(m[::-2])), r(count_true(m[1:2])))
    print("bool_sum", r(bool_sum(m)))
    a = np.array([0.5, -1.0, 3.0, 2.0, -0.5, 7.0])
    mm = np.zeros(6, dtype=np.bool_)
    make_mask(a, 0.75, mm)
    print("make_mask", mm.tolist(), r(masked_sum(a, mm)), r(any_true(mm)),
          r(any_true(np.zeros(3, dtype=np.bool_))))
    make_mask(a, -0.75, mm)
    print("make_mask2", mm.tolist(), r(masked_sum(a, mm)))
    o = np.zeros(5, dtype=np.bool_)
    xor_mask(m, m[::-1], o)
    print("xor_mask", o.tolist())
    u = np.array([3, 5, 255, 0, 128], dtype=np.uint8)
    for i, j in [(0, 1), (1, 0), (2, 3), (3, 2), (2, 4)]:
        print("u8", i, j, r(u8_diff(u, i, j)), r(u8_sum(u, i, j)))
    u8_add_store(u, 200)
    print("u8_add_store", u.tolist())
    img = (np.arange(48).reshape(6, 8) * 37 % 256).astype(np.uint8)
    out = np.zeros_like(img)
    threshold(img, 128, out)
    print("threshold", out.tolist())
    outf = np.zeros((8, 6), dtype=np.uint8, order="F")
    threshold(img.T, 100, outf)
    print("threshold T", outf.tolist())
    hist = np.zeros(8, dtype=np.int64)
    histogram(img, hist)
    print("histogram", hist.tolist())
    hist32 = np.zeros(8, dtype=np.int32)
    histogram(img[::2, 1::3], hist32)
    print("histogram strided", hist32.tolist())
    for xv, yv in [(np.uint64(2**63), np.uint64(5)), (np.uint64(1), np.uint64(2))]:
        print("u64", r(u64_ops(xv, yv)))
    for bv in [True, False]:
        print("bool_arith", bv, r(bool_arith(bv, 1)), r(bool_arith(bv, 2.5)))

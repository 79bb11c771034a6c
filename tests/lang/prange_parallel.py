# Parallel loops: prange in @njit(parallel=True) functions, on arrays large enough that the
# iterations run in chunks on several threads.  Reductions with +=, -=, *=, v = v + x,
# v = x + v, min and max (several in one loop, of int and float types, in branches and in inner
# serial loops), private temporaries (scalars and arrays made in the body), element writes,
# continue, calls of other functions, a prange nested in another (serial inside), a body with
# break (the whole loop serial, as Numba), empty and one-iteration ranges.  Float sums combine
# the threads' partial sums in another order than a serial loop: those lines compare with a
# tolerance, as Numba's own results differ from the serial sum by rounding.
import math
from numba import njit, prange
import numpy as np


@njit(parallel=True)
def fsum(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def isum_forms(a):
    s = 0
    t = 100
    u = 0
    for i in prange(a.shape[0]):
        s += a[i]
        t -= a[i]
        u = a[i] * 2 + u
    return s, t, u


@njit(parallel=True)
def extremes(a):
    lo = np.inf
    hi = -np.inf
    imin = a.shape[0]
    imax = -1
    for i in prange(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
        if a[i] > 0.99:
            imin = min(imin, i)
            imax = max(imax, i)
    return lo, hi, imin, imax


@njit(parallel=True)
def product(a):
    p = 1
    for i in prange(a.shape[0]):
        p *= a[i]
    return p


@njit(parallel=True)
def count_and_sum(a, limit):
    n = 0
    s = 0.0
    for i in prange(a.shape[0]):
        if a[i] < limit:
            continue
        n += 1
        s = s + math.floor(a[i] * 1000.0)
    return n, s


@njit(parallel=True)
def row_sums(m, out):
    for i in prange(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j]
        out[i] = acc


@njit(parallel=True)
def total_2d(m):
    t = 0.0
    for i in prange(m.shape[0]):
        for j in prange(m.shape[1]):
            t += m[i, j]
    return t


@njit
def weight(x, k):
    return x * (k % 7 + 1)


@njit(parallel=True)
def weighted(a):
    s = 0.0
    for i in prange(a.shape[0]):
        w = weight(a[i], i)
        s += w
    return s


@njit(parallel=True)
def with_temps(a, out):
    total = 0.0
    for i in prange(a.shape[0]):
        tmp = np.zeros(3)
        tmp[0] = a[i]
        tmp[1] = 2.0 * a[i]
        tmp[2] = tmp[0] + tmp[1]
        out[i] = tmp[2]
        total += tmp.sum()
    return total


@njit(parallel=True)
def scale_f32(a, out):
    s = np.float32(0)
    for i in prange(a.shape[0]):
        out[i] = a[i] * np.float32(0.5)
        s += a[i]
    return s


@njit(parallel=True)
def first_big(a, limit):
    found = -1
    for i in prange(a.shape[0]):
        if a[i] > limit:
            found = i
            break
    return found


@njit(parallel=True)
def start_stop(a, lo, hi):
    s = 0
    for i in prange(lo, hi):
        s += a[i] * i
    return s


if __name__ == "__main__":
    rng = np.random.RandomState(7)
    big = rng.rand(400_000)
    ints = rng.randint(-50, 50, 300_001)
    print("fsum [rtol=1e-9]", repr(fsum(big)))
    print("fsum small", repr(fsum(np.arange(10.0))), repr(fsum(big[:0])), repr(fsum(big[:1])))
    print("isum_forms", isum_forms(ints))
    print("isum_forms small", isum_forms(ints[:3]), isum_forms(ints[:0]))
    print("extremes", extremes(big))
    print("extremes empty", extremes(big[:0]))
    print("product", product(np.array([1, 2, 3, -1, 2, 5, 1, 1, 3])), product(ints[:0]))
    print("product big", product(np.ones(200_000, dtype=np.int64) * (-1)))
    print("count_and_sum", count_and_sum(big, 0.25))
    m = rng.rand(300, 500)
    out = np.zeros(300)
    row_sums(m, out)
    print("row_sums [rtol=1e-9]", repr(out.sum()), out[0] == m[0].sum())
    print("total_2d [rtol=1e-9]", repr(total_2d(m)))
    print("total_2d F [rtol=1e-9]", repr(total_2d(np.asfortranarray(m))))
    print("weighted [rtol=1e-9]", repr(weighted(big)))
    o = np.zeros(50_000)
    print("with_temps [rtol=1e-9]", repr(with_temps(big[:50_000], o)), repr(o[123]))
    f = np.arange(100_000, dtype=np.float32) % 100
    fo = np.zeros(100_000, dtype=np.float32)
    print("scale_f32", repr(scale_f32(f, fo)), repr(float(fo[99])))
    print("first_big", first_big(big, 0.9999), first_big(big, 2.0))
    print("start_stop", start_stop(ints, 10, 200_000), start_stop(ints, 5, 6),
          start_stop(ints, 9, 3))

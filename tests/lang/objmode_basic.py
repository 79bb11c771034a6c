# numba.objmode: blocks of interpreted Python inside @njit functions, their inputs the live
# variables they read (numbers of several types, arrays of any layout), their outputs typed as
# declared (float64, int32, bool, 1-d and 2-d arrays of another dtype), a block without
# outputs, blocks in loops and branches, and the values used by compiled code after them.
import numpy as np
from numba import njit, objmode
import numba

LOG = []


@njit
def fft_real(x):
    with objmode(y='float64[:]'):
        y = np.fft.fft(x).real
    return y * 2


@njit
def stats(a, k):
    s = a.sum()
    with objmode(m='float64', n='int32', big='boolean'):
        m = float(np.median(a)) + k
        n = len(a) * 2
        big = s > 10
    return m, n, big


@njit
def counts(a):
    with numba.objmode(h='int64[:]', g='float32[:, :]'):
        h = np.bincount(a)
        g = np.outer(a, a).astype(np.float32) / 2
    return h.sum(), g


@njit
def logs(n):
    t = 0
    for i in range(n):
        t += i
        if i % 2 == 0:
            with objmode():
                LOG.append(i * 10)
    return t


@njit
def strided(a):
    b = a[::2, 1]
    with objmode(r='float64'):
        r = float(np.sum(b ** 2))
    return r + b[0]


@njit
def kinds(i, f, b, a):
    j = np.int32(i)
    g = np.float32(f)
    u = np.uint64(i)
    with objmode():
        print("in block:", type(j).__name__, j, type(g).__name__, repr(g), type(b).__name__, b,
              type(u).__name__, u, type(a).__name__, a.dtype, a.shape, a.tolist())
    return i


if __name__ == "__main__":
    x = np.array([1.0, 2.0, 0.5, -1.0])
    r = fft_real(x)
    print(type(r).__name__, r.dtype, r.shape, np.round(r, 12).tolist())
    for a, k in ((np.arange(5.0), 1), (np.array([4.0, 9.0, 1.0]), -2)):
        m, n, big = stats(a, k)
        print(type(m).__name__, repr(m), type(n).__name__, n, type(big).__name__, big)
    tot, g = counts(np.array([0, 1, 1, 3]))
    print(tot, g.dtype, g.shape, g.tolist())
    print(logs(5), LOG)
    print(repr(strided(np.arange(12.0).reshape(6, 2))))
    print(kinds(7, 0.1, True, np.arange(6, dtype=np.int16).reshape(2, 3)[:, ::2]))

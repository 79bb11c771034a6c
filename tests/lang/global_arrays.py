# Module-level NumPy arrays read by compiled code: Numba freezes each as a read-only constant
# when the caller is first compiled (later changes to the global are not seen by that
# compiled function), any dtype of numbers or booleans, any number of dimensions; read by
# index, sliced, iterated, passed on to other functions, reduced, and used in array
# expressions.  Spline code (EconForge's interpolation) keeps its basis matrices so.
from numba import njit
import numpy as np

BASIS = np.array([1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0])
AD = np.array([[-1.0 / 6.0, 3.0 / 6.0, -3.0 / 6.0, 1.0 / 6.0],
               [3.0 / 6.0, -6.0 / 6.0, 0.0 / 6.0, 4.0 / 6.0],
               [-3.0 / 6.0, 3.0 / 6.0, 3.0 / 6.0, 1.0 / 6.0],
               [1.0 / 6.0, 0.0 / 6.0, 0.0 / 6.0, 0.0 / 6.0]])
DAD = np.zeros((4, 4))
for i in range(1, 4):
    DAD[:, i] = AD[:, i - 1] * (4 - i)
PRIMES = np.array([2, 3, 5, 7, 11, 13], dtype=np.int32)
MASK = np.array([True, False, True, True])
CUBE = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
FORTRAN = np.asfortranarray(np.arange(6.0).reshape(2, 3))
STRIDED = np.arange(10.0)[::3]
SMALL = np.array([0.5, 1.5], dtype=np.float32)
ROOTS = np.array([1 + 2j, 3 - 1j])
EMPTY = np.zeros((0, 3))
CHANGED = np.array([1.0, 2.0])


@njit
def basis_sum(k):
    s = 0.0
    for j in range(3):
        s += BASIS[j] * k
    return s


@njit
def spline_weights(t):
    tp = np.array([t * t * t, t * t, t, 1.0])
    out = np.zeros(4)
    for i in range(4):
        for j in range(4):
            out[i] += AD[i, j] * tp[j]
    return out


@njit
def deriv_row(i):
    return DAD[i, :].copy()


@njit
def prime_stats():
    return PRIMES.sum(), PRIMES.max(), PRIMES[-1], len(PRIMES), PRIMES.shape[0]


@njit
def masked_count():
    n = 0
    for m in MASK:
        if m:
            n += 1
    return n


@njit
def cube_parts(i):
    return CUBE[i].sum(), CUBE[1, 2, 3], CUBE.shape, CUBE.ndim


@njit
def fortran_read():
    return FORTRAN[1, 2], FORTRAN.sum(), FORTRAN[:, 1].sum()


@njit
def strided_read():
    return STRIDED.sum(), STRIDED[2], STRIDED.size


@njit
def scaled(x):
    return SMALL * x


@njit
def helper(a):
    return a[0] + a[-1]


@njit
def pass_on():
    return helper(BASIS), helper(PRIMES)


@njit
def complex_read():
    return ROOTS[0] * ROOTS[1], np.abs(ROOTS).max()


@njit
def empty_read():
    return EMPTY.shape, EMPTY.size


@njit
def matvec(x):
    return AD @ x


@njit
def changed_first():
    return CHANGED.sum()


@njit
def like_global():
    return np.zeros_like(PRIMES), np.empty(SMALL.shape, SMALL.dtype)


@njit
def whole():
    return BASIS


if __name__ == "__main__":
    print(type(basis_sum(3.0)).__name__, repr(basis_sum(3.0)))
    w = spline_weights(0.25)
    print(w.dtype, w.shape, w.tolist())
    r = deriv_row(2)
    print(r.dtype, r.tolist())
    print(prime_stats())
    print(masked_count())
    print(cube_parts(0), cube_parts(1))
    print(fortran_read())
    print(strided_read())
    s = scaled(2.0)
    print(s.dtype, s.tolist())
    print(pass_on())
    print(complex_read())
    print(empty_read())
    m = matvec(np.ones(4))
    print(m.dtype, m.tolist())
    print(changed_first())
    CHANGED[0] = 100.0           # frozen when changed_first was compiled: not seen
    print(changed_first())
    b = whole()
    print(b.dtype, b.tolist(), b.flags.writeable)
    z, dt = like_global()
    print(z.dtype, z.tolist(), dt.dtype, dt.shape)

# np.linalg.norm of complex vectors and matrices (complex128 and complex64): the 2-norm and the
# Frobenius norm (the root of the sum of |z|^2, in the parts' dtype for a vector as BLAS's
# nrm2 gives it), a vector's inf, -inf, 0, 1, -1 and p norms and a matrix's inf, -inf, 1 and -1
# norms (sums of |z|; ord a constant: numjit has no complex SVD for ord 2 and -2), and empty
# arrays: values and types as Numba 0.56 returns them.
# diff: rtol=1e-6
import numpy as np
from numba import njit


@njit
def norm(x):
    return np.linalg.norm(x)


@njit
def norm_ord(x, o):
    return np.linalg.norm(x, o)


@njit
def matrix_norms(x):
    return (np.linalg.norm(x, np.inf), np.linalg.norm(x, -np.inf), np.linalg.norm(x, 1),
            np.linalg.norm(x, -1))


if __name__ == "__main__":
    for dt in (np.complex128, np.complex64):
        v = (np.arange(5) - 2 + 1j * np.arange(5)[::-1] * 0.5).astype(dt)
        m = (np.arange(12).reshape(3, 4) * (1 - 0.5j) + 1j).astype(dt)
        for x in (v, v[::2], m, m.T, m[:, ::2], np.zeros(0, dt), np.zeros((0, 3), dt)):
            r = norm(x)
            print(dt.__name__, x.shape, "none", type(r).__name__, repr(float(r)))
        for o in (np.inf, -np.inf, 0, 1, -1, 2, 3, 0.5):
            r = norm_ord(v, o)
            print(dt.__name__, "vector", o, type(r).__name__, repr(float(r)))
        for x in (m, m.T, m[::2, 1:], np.zeros((0, 2), dt)):
            print(dt.__name__, "matrix", x.shape, [(type(r).__name__, repr(float(r)))
                                                   for r in matrix_norms(x)])

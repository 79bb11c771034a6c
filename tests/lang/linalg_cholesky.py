# np.linalg.cholesky in @njit functions: the lower factor of float64 and float32 matrices (C, F
# and strided layouts, 0x0 and 1x1), only the lower triangle read, the result's dtype, shape
# and layout (float32 values compared to 1e-5: the order of LAPACK's sums is not kept);
# LinAlgError for a matrix that is not positive definite (a negative pivot, a nan) and for one
# that is not square, raised at run time as Numba raises them.
# diff: rtol=1e-9
import numpy as np
from numba import njit


@njit
def chol(a):
    return np.linalg.cholesky(a)


@njit
def chol_residual(a):
    L = np.linalg.cholesky(a)
    return np.abs(np.dot(L, L.T) - a).max()


def show(a):
    try:
        L = chol(a)
    except np.linalg.LinAlgError as e:
        print("LinAlgError:", str(e).splitlines()[0].split("LinAlgError: ")[-1])
        return
    print(type(L).__name__, L.dtype, L.shape, L.flags.c_contiguous, L.tolist(),
          "" if L.dtype == np.float64 else "[rtol=1e-5]")


def spd(n, seed):
    rng = np.random.RandomState(seed)
    b = rng.rand(n, n)
    return np.dot(b, b.T) + n * np.eye(n)


if __name__ == "__main__":
    show(np.array([[4.0, 2.0], [2.0, 3.0]]))
    show(np.array([[25.0, 15.0, -5.0], [15.0, 18.0, 0.0], [-5.0, 0.0, 11.0]]))
    show(np.array([[4.0, 99.0], [2.0, 3.0]]))          # the upper triangle is not read
    show(np.array([[2.0]]))
    show(np.zeros((0, 0)))
    for n in (3, 5, 8):
        a = spd(n, n)
        show(a)
        show(np.asfortranarray(a))
        print(chol_residual(a) < 1e-12)
        show(a.astype(np.float32))
    big = spd(12, 1)
    show(big[::2, ::2])
    show(np.array([[1.0, 2.0], [2.0, 1.0]]))           # indefinite
    show(np.array([[-1.0, 0.0], [0.0, 1.0]]))
    show(np.array([[0.0, 0.0], [0.0, 0.0]]))
    show(np.array([[np.nan, 0.0], [0.0, 1.0]]))
    show(np.array([[1.0, 2.0], [2.0, 1.0]], dtype=np.float32))
    show(np.ones((2, 3)))

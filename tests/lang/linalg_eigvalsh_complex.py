# np.linalg.eigvalsh of Hermitian complex matrices (complex128 and complex64; the lower
# triangle is read, the imaginary parts of the diagonal ignored, as LAPACK's heevd with
# UPLO='L'): the eigenvalues ascending, in the real dtype of the parts; repeated eigenvalues,
# a diagonal and a 1 x 1 matrix, and Numba's errors for a non-square matrix or a nan.
# diff: rtol=1e-9
import numpy as np
from numba import njit


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def herm(n, seed):
    x = np.cos(np.arange(n * n) ** 1.5 * (0.31 + seed)).reshape(n, n)
    y = np.sin(np.arange(n * n) ** 1.3 * (0.17 + seed)).reshape(n, n)
    z = x + 1j * y
    return z + z.conj().T


if __name__ == "__main__":
    for dt in (np.complex128, np.complex64):
        tol = 9 if dt == np.complex128 else 4
        cases = [herm(1, 0), herm(2, 1), herm(5, 2), herm(9, 3), herm(24, 4),
                 np.diag(np.arange(4.0)) + 0j, np.eye(4) * (2 + 0j),
                 np.tril(herm(6, 5)) + 3j * np.eye(6)]
        for a in cases:
            w = eigvalsh(a.astype(dt))
            s = max(1.0, float(np.abs(w).max()))
            print(dt.__name__, a.shape, w.dtype, w.flags.c_contiguous,
                  [round(float(x) / s, tol) + 0.0 for x in w])
        for bad in (herm(3, 0)[:2].astype(dt), np.full((2, 2), np.nan, dt)):
            try:
                eigvalsh(bad)
                print("no error")
            except np.linalg.LinAlgError as e:
                print("LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])

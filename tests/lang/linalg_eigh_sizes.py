# np.linalg.eigh and eigvalsh on matrices of orders 1 to 80 and of awkward structure (diagonal,
# already tridiagonal, rank one with a repeated zero eigenvalue, graded entries from 1e-8 to
# 1e8, a float32 copy, a strided view, only the lower triangle filled): the eigenvalues
# (ascending, relative to the largest), the dtypes and layouts, and that the eigenvectors are
# orthonormal and reconstruct the matrix.  Where the eigenvalues are distinct, each float64
# eigenvector is printed with its first non-zero entry made positive (unique then).
# diff: rtol=1e-7
import numpy as np
from numba import njit


@njit
def eigh(a):
    return np.linalg.eigh(a)


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def sym(n, seed):
    x = np.cos(np.arange(n * n) ** 1.5 * (0.37 + seed)).reshape(n, n) * 3
    return x + x.T


def report(tag, a, tol):
    w, v = eigh(a)
    w2 = eigvalsh(a)
    full = np.tril(a) + np.tril(a, -1).T
    n = a.shape[0]
    scale = max(1.0, float(np.abs(w).max())) if n else 1.0
    rec = float(np.abs(full @ v - v * w).max()) / scale if n else 0.0
    orth = float(np.abs(v.T @ v - np.eye(n)).max()) if n else 0.0
    f32 = a.dtype == np.float32
    print(tag, n, w.dtype, v.dtype, v.flags.f_contiguous,
          float(np.abs(w - w2).max()) < tol * scale if n else True, rec < tol, orth < tol)
    if f32:  # LAPACK's ssyevd computes in float32, numjit in float64 rounded
        print(tag, [float(x) / scale for x in w[:6]], "[rtol=1e-4]")
    else:
        print(tag, [round(float(x) / scale, 6) + 0.0 for x in w[:6]])
    gaps = np.diff(w) if n > 1 else np.ones(1)
    if n <= 8 and not f32 and float(gaps.min()) > 1e-3 * scale:
        cols = []
        for j in range(n):
            c = v[:, j]
            first = c[np.argmax(np.abs(c) > 1e-6)]  # the first entry that is not zero: > 0
            cols.append([round(float(x), 5) + 0.0 for x in (c if first > 0 else -c)])
        print(tag, "vectors", cols)


if __name__ == "__main__":
    for n in (1, 2, 3, 4, 5, 7, 8, 16, 33, 64, 80):
        report("random", sym(n, 0), 1e-12)
        report("diag", np.diag(np.arange(n, 0, -1) * 1.5), 1e-12)
        t = np.diag(np.full(n, 2.0)) - np.diag(np.ones(n - 1), 1) - np.diag(np.ones(n - 1), -1)
        report("tridiag", t, 1e-12)
        report("ones", np.ones((n, n)), 1e-12)
        g = np.logspace(-8, 8, n)
        report("graded", sym(n, 1) * np.sqrt(np.outer(g, g)), 1e-12)
        report("float32", sym(n, 2).astype(np.float32), 1e-4)
        report("strided", sym(2 * n, 3)[::2, ::2], 1e-12)
        report("lower", np.tril(sym(n, 4)), 1e-12)

# np.linalg.svd (full and thin), pinv, matrix_rank and cond on matrices of many shapes (tall,
# wide, square, orders 1 to 70) and awkward structure (rank one, a zero column, zeros, the
# identity, graded columns from 1e-8 to 1e8, float32, a strided view): the singular values
# (descending, relative to the largest), shapes, dtypes and layouts, and that the factors are
# orthonormal and reconstruct the matrix.  Where the singular values are distinct and not
# zero, the first singular vectors are printed with their first non-zero entry made positive.
# diff: rtol=1e-7
import numpy as np
from numba import njit


@njit
def svd(a, full):
    return np.linalg.svd(a, full_matrices=full)


@njit
def others(a):
    return np.linalg.pinv(a), np.linalg.matrix_rank(a)


def mat(m, n, seed):
    return np.cos(np.arange(m * n) ** 1.5 * (0.29 + seed)).reshape(m, n) * 2


def signed(c):
    first = c[np.argmax(np.abs(c) > 1e-6)]
    return [round(float(x), 5) + 0.0 for x in (c if first > 0 else -c)]


def report(tag, a, tol):
    m, n = a.shape
    k = min(m, n)
    f32 = a.dtype == np.float32
    for full in (True, False):
        u, s, vt = svd(a, full)
        scale = max(1.0, float(s.max())) if k else 1.0
        uk, vk = u[:, :k], vt[:k, :]
        rec = float(np.abs((uk * s) @ vk - a).max()) / scale if k else 0.0
        ou = float(np.abs(u.T @ u - np.eye(u.shape[1])).max()) if u.size else 0.0
        ov = float(np.abs(vt @ vt.T - np.eye(vt.shape[0])).max()) if vt.size else 0.0
        print(tag, full, a.shape, u.shape, s.shape, vt.shape, u.dtype, s.dtype,
              u.flags.f_contiguous, vt.flags.f_contiguous, rec < tol, ou < tol, ov < tol)
    if f32:  # LAPACK's sgesdd computes in float32, numjit in float64 rounded
        print(tag, [float(x) / scale for x in s[:5]], "[rtol=1e-4]")
    else:
        print(tag, [round(float(x) / scale, 6) + 0.0 for x in s[:5]])
    gaps = -np.diff(s) if k > 1 else np.ones(1)
    if not f32 and k and float(gaps.min()) > 1e-3 * scale and float(s[-1]) > 1e-3 * scale:
        print(tag, "u0", signed(u[:, 0])[:6], "v0", signed(vt[0])[:6])
    if not f32 and m <= 12 and n <= 12:
        p, rank = others(a)
        print(tag, "pinv", p.shape, p.flags.f_contiguous,
              float(np.abs(a @ p @ a - a).max()) / scale < tol, "rank", rank)


if __name__ == "__main__":
    for m, n in ((1, 1), (1, 4), (4, 1), (2, 2), (3, 5), (5, 3), (6, 6), (12, 7), (7, 12),
                 (33, 20), (20, 33), (64, 64), (70, 45)):
        report("random", mat(m, n, 0), 1e-12)
        report("rank1", np.outer(np.arange(1.0, m + 1), np.cos(np.arange(n))), 1e-12)
        z = mat(m, n, 1)
        z[:, n // 2] = 0
        report("zerocol", z, 1e-12)
        report("zeros", np.zeros((m, n)), 1e-12)
        report("eye", np.eye(m, n), 1e-12)
        report("graded", mat(m, n, 2) * np.logspace(-8, 8, n), 1e-12)
        report("float32", mat(m, n, 3).astype(np.float32), 1e-4)
        report("strided", mat(2 * m, 2 * n, 4)[::2, ::2], 1e-12)

# np.linalg's decompositions in @njit functions: eigh, eigvalsh, eig, eigvals, svd (full and
# thin), qr, lstsq (1-d and 2-d right-hand sides, rcond), pinv, slogdet, matrix_rank (tol),
# cond (p None, 2, -2, 1, inf), matrix_power and the matrix 2-norm, float64 and float32, and
# the errors Numba raises at run time (LinAlgError, ValueError).  Eigenvectors and singular
# vectors are unique only up to sign: they are printed with each column's largest entry made
# positive, and checked through the reconstruction error; values are rounded to what float32
# or a different summation order leaves stable.
# diff: rtol=1e-9
import numpy as np
from numba import njit


@njit
def eigh(a):
    return np.linalg.eigh(a)


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def eig(a):
    return np.linalg.eig(a)


@njit
def eigvals(a):
    return np.linalg.eigvals(a)


@njit
def svd(a):
    return np.linalg.svd(a)


@njit
def svd_full(a, full):
    return np.linalg.svd(a, full_matrices=full)


@njit
def qr(a):
    return np.linalg.qr(a)


@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond=rcond)


@njit
def pinv(a):
    return np.linalg.pinv(a)


@njit
def pinv_rcond(a, r):
    return np.linalg.pinv(a, r)


@njit
def slogdet(a):
    return np.linalg.slogdet(a)


@njit
def rank(a):
    return np.linalg.matrix_rank(a)


@njit
def rank_tol(a, t):
    return np.linalg.matrix_rank(a, t)


@njit
def cond(a):
    return np.linalg.cond(a)


@njit
def cond_p(a, p):
    return np.linalg.cond(a, p)


@njit
def mpow(a, n):
    return np.linalg.matrix_power(a, n)


@njit
def norm2(a, o):
    return np.linalg.norm(a, o)


@njit
def eigh_reconstruct(a):
    w, v = np.linalg.eigh(a)
    return np.abs(a @ v - v * w).max()


def r(x, d=6):
    return np.round(np.asarray(x, dtype=np.float64), d).tolist()


def signfix(v):
    v = np.array(v, dtype=np.float64)
    for j in range(v.shape[1]):
        k = np.argmax(np.abs(v[:, j]))
        if v[k, j] < 0:
            v[:, j] = -v[:, j]
    return v


def kind(x):
    return "%s %s %s %s" % (type(x).__name__, x.dtype, x.shape, "F" if x.flags.f_contiguous else "C")


def small(x, tol):
    return bool(np.all(np.abs(x) < tol))


def show_eigh(a, d):
    w, v = eigh(a)
    print("eigh", kind(w), kind(v), r(w, d), r(signfix(v), d - 1))
    print("eigh residual", small(a.astype(np.float64) @ v - v * w, 10.0 ** -(d - 1)))
    print("eigvalsh", kind(eigvalsh(a)), r(eigvalsh(a), d))


def show_svd(a, d):
    k = min(a.shape)
    for full in (True, False):
        u, s, vt = svd_full(a, full)
        print("svd", full, kind(u), kind(s), kind(vt), r(s, d))
        back = (u[:, :k] * s) @ vt[:k]
        print("svd residual", small(back - a, 10.0 ** -(d - 1)),
              small(u.T @ u - np.eye(u.shape[1]), 10.0 ** -(d - 1)),
              small(vt @ vt.T - np.eye(vt.shape[0]), 10.0 ** -(d - 1)))
    u, s, vt = svd(a)
    print("svd default", u.shape, vt.shape)


def main():
    rng = np.random.RandomState(42)
    for dt, d in ((np.float64, 9), (np.float32, 4)):
        print("dtype", np.dtype(dt).name)
        b = rng.rand(5, 5)
        s = (b + b.T).astype(dt)
        show_eigh(s, d)
        show_eigh(np.asfortranarray(s), d)
        show_eigh(np.diag(np.array([3.0, 1.0, 2.0, 1.0])).astype(dt), d)
        print("eigh empty", kind(eigh(np.zeros((0, 0), dt))[0]))
        # only the lower triangle is read, as LAPACK's UPLO='L'
        lower = np.tril(s) + np.triu(np.full((5, 5), 100.0), 1).astype(dt)
        print("eigh lower", r(eigh(lower)[0], d))
        print("eigh 1x1", r(eigh(np.array([[2.5]], dtype=dt))[0], d))

        g = (rng.rand(5, 5) + 4 * np.diag(np.arange(1.0, 6.0))).astype(dt)
        w, v = eig(g)
        order = np.argsort(w)
        print("eig", kind(w), kind(v), r(w[order], d - 1))
        print("eig vectors", r(signfix(v[:, order]), d - 2),
              small(g.astype(np.float64) @ v - v * w, 10.0 ** -(d - 2)))
        print("eigvals", kind(eigvals(g)), r(np.sort(eigvals(g)), d - 1))
        print("eig symmetric", r(np.sort(eig(s)[0]), d - 1))
        rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype=dt)
        for f in (eig, eigvals):
            try:
                f(rot)
            except ValueError as e:
                print("ValueError", str(e).splitlines()[0].split("ValueError: ")[-1])

        for shape in ((6, 4), (4, 6), (5, 5), (1, 3), (3, 1)):
            show_svd(rng.rand(*shape).astype(dt), d)
        show_svd(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]], dtype=dt), d)

        for shape in ((6, 4), (4, 6), (5, 5)):
            a = rng.rand(*shape).astype(dt)
            q, rr = qr(a)
            print("qr", kind(q), kind(rr), r(q, d - 1), r(rr, d - 1))
            print("qr residual", small(q @ rr - a, 10.0 ** -(d - 1)))
            p = pinv(a)
            print("pinv", kind(p), r(p, d - 2))
            print("rank", rank(a), "cond", r(cond(a), d - 3))
        print("pinv empty", kind(pinv(np.zeros((0, 3), dt))))

        a = rng.rand(6, 3).astype(dt)
        y = rng.rand(6).astype(dt)
        x, res, rk, sv = lstsq(a, y)
        print("lstsq", kind(x), kind(res), type(rk).__name__, rk, kind(sv))
        print("lstsq values", r(x, d - 2), r(res, d - 2), r(sv, d - 1))
        y2 = rng.rand(6, 2).astype(dt)
        x, res, rk, sv = lstsq(a, y2)
        print("lstsq 2d", kind(x), kind(res), rk, r(x, d - 2), r(res, d - 2))
        x, res, rk, sv = lstsq(a.T.copy(), y[:3].copy())
        print("lstsq wide", kind(x), kind(res), rk, r(x, d - 2))
        deficient = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], dtype=dt)
        x, res, rk, sv = lstsq(deficient, np.array([1.0, 2.0, 3.0], dtype=dt))
        print("lstsq deficient", rk, kind(res), r(x, d - 2))
        x, res, rk, sv = lstsq_rcond(a, y, 0.5)
        print("lstsq rcond", rk, kind(res), r(x, d - 2))
        print("pinv rcond", r(pinv_rcond(deficient, 0.5), d - 2))

        m = (rng.rand(4, 4) + 2 * np.eye(4)).astype(dt)
        sg, ld = slogdet(m)
        print("slogdet", type(sg).__name__, type(ld).__name__, sg, r(ld, d - 1))
        print("slogdet negative", slogdet(np.array([[0.0, 1.0], [1.0, 0.0]], dtype=dt)))
        print("slogdet singular", slogdet(np.zeros((3, 3), dt)))
        print("slogdet empty", slogdet(np.zeros((0, 0), dt)))
        print("rank deficient", rank(deficient), rank(np.zeros((3, 3), dt)),
              rank_tol(deficient, 100.0), rank(np.array([0.0, 1e-20, 0.0], dtype=dt)),
              rank(np.zeros(3, dt)))
        for p in (2, -2, 1, -1, np.inf, -np.inf):
            print("cond", p, r(cond_p(m, p), d - 3))
        print("cond singular", cond(np.zeros((2, 2), dt)))
        for n in (0, 1, 2, 3, 5, 8, -1, -2):
            pw = mpow(m, n)
            print("matrix_power", n, kind(pw), r(pw / np.abs(pw).max(), d - 2))
        for o in (2, -2):
            print("norm", o, r(norm2(m, o), d - 1), r(norm2(np.asfortranarray(m), o), d - 1))
        print("eigh reconstruct", small(eigh_reconstruct(s), 10.0 ** -(d - 1)))

    # singular vectors of tiny singular values are still vectors of the matrix, not completions
    u, sv, vt = svd(np.diag(np.array([1e-6, 1e-5, 1e12])))
    print("svd scaled", r(sv, 3), r(signfix(u), 9), r(signfix(vt.T), 9))
    # a defective matrix: one eigenvector for the repeated eigenvalue, found twice
    jordan = np.array([[1.0, 1.0], [0.0, 1.0]])
    w, v = eig(jordan)
    print("eig defective", r(w, 9), small(jordan @ v - v * w, 1e-8), r(np.abs(v[:, 0]), 9))
    bad = np.array([[1.0, np.nan], [0.0, 1.0]])
    for name, f in (("eigh", eigh), ("eig", eig), ("svd", svd), ("qr", qr), ("pinv", pinv),
                    ("slogdet", slogdet), ("rank", rank), ("cond", cond)):
        try:
            f(bad)
        except np.linalg.LinAlgError as e:
            print(name, "LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])
    for name, f in (("eigh", eigh), ("eig", eig), ("slogdet", slogdet)):
        try:
            f(np.ones((2, 3)))
        except np.linalg.LinAlgError as e:
            print(name, "LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])
    for name, f in (("svd", svd), ("qr", qr)):
        try:
            f(np.zeros((0, 3)))
        except np.linalg.LinAlgError as e:
            print(name, "LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])
    try:
        lstsq(np.ones((3, 2)), np.ones(4))
    except np.linalg.LinAlgError as e:
        print("lstsq LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])
    try:
        lstsq(np.ones((0, 2)), np.ones(0))
    except np.linalg.LinAlgError as e:
        print("lstsq LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])
    try:
        mpow(np.ones((2, 3)), 2)
    except ValueError as e:
        print("matrix_power ValueError", str(e).splitlines()[0].split("ValueError: ")[-1])
    try:
        norm2(bad, 2)
    except np.linalg.LinAlgError as e:
        print("norm LinAlgError", str(e).splitlines()[0].split("LinAlgError: ")[-1])


if __name__ == "__main__":
    main()

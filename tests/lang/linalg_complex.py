# Complex arrays (complex128 and complex64) in np.dot, `@`, np.vdot (which conjugates its first
# argument), np.trace (a complex128 sum, as Numba's loop starting from the int 0), np.outer, and
# np.linalg.det, slogdet, inv and solve: the results' types, dtypes, layouts and values, and the
# errors Numba raises at run time (LinAlgError for a singular or non-square matrix, ValueError
# for mismatched sizes).  Values are rounded to what complex64 or another summation order
# leaves stable.
# diff: rtol=1e-9
import numpy as np
from numba import njit


@njit
def products(a, b, v, w):
    return np.dot(a, b), a @ b, np.dot(a, v), np.dot(v, a), a @ v, v @ a


@njit
def vector_products(v, w):
    return np.dot(v, w), v @ w, np.vdot(v, w), np.vdot(w, v)


@njit
def dot_out(a, b, out):
    np.dot(a, b, out)
    return out


@njit
def trace(a, k):
    return np.trace(a, k)


@njit
def outer(v, w):
    return np.outer(v, w)


@njit
def det(a):
    return np.linalg.det(a)


@njit
def slogdet(a):
    return np.linalg.slogdet(a)


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


def r(x, d=9):
    # + 0.0: a rounding-noise -0.0 prints as 0.0
    return complex(round(x.real, d) + 0.0, round(x.imag, d) + 0.0)


def show(tag, x, d=9):
    if isinstance(x, np.ndarray):
        flags = "C" if x.flags.c_contiguous else ("F" if x.flags.f_contiguous else "A")
        if x.ndim == 2 and x.shape[0] > 1 and x.shape[1] > 1 and x.flags.f_contiguous:
            flags = "F" if not x.flags.c_contiguous else "C"
        vals = [r(complex(z), d) for z in x.ravel()]
        print(tag, type(x).__name__, x.dtype, x.shape, flags, vals)
    else:
        print(tag, type(x).__name__, r(complex(x), d) if not isinstance(x, float) else round(x, d))


def mats(dt):
    a = (np.arange(9).reshape(3, 3) + 1j * np.arange(9)[::-1].reshape(3, 3)).astype(dt)
    a[0, 0] += 4 - 1j
    b = (a.T * (1 - 2j)).astype(dt)
    v = (np.arange(3) - 1j).astype(dt)
    w = (np.arange(3) * 1j + 2).astype(dt)
    return a, b, v, w


if __name__ == "__main__":
    for dt, d in ((np.complex128, 9), (np.complex64, 3)):
        a, b, v, w = mats(dt)
        for k, x in enumerate(products(a, b, v, w)):
            show("prod%d" % k, x, d)
        for k, x in enumerate(products(np.asfortranarray(a), b[:, ::-1], v[::-1], w)):
            show("strided%d" % k, x, d)
        for k, x in enumerate(vector_products(v, w)):
            show("vec%d" % k, x, d)
        show("out", dot_out(a, b, np.zeros((3, 3), dt)), d)
        for k in (0, 1, -1, 5):
            show("trace%d" % k, trace(a, k), d)
        show("outer", outer(v, w), d)
        big = (np.cos(np.arange(36.0)).reshape(6, 6) + 1j * np.sin(np.arange(36.0) * 0.7).reshape(6, 6)).astype(dt)
        show("bigdot", products(big, big.T, big[0], big[1])[0], d - 2)
        show("det", det(a), d - 2)
        show("det_big", det(big + 3 * np.eye(6, dtype=dt)), d - 4)
        sgn, ld = slogdet(a)
        print("slogdet", type(sgn).__name__, type(ld).__name__, r(sgn, d - 3), round(ld, d - 3))
        sgn, ld = slogdet(big + 3 * np.eye(6, dtype=dt))
        print("slogdet_big", r(sgn, d - 3), round(ld, d - 3))
        ai = inv(a)
        show("inv", ai, d - 2)
        show("inv_check", ai @ a, d - 3)
        show("solve1", solve(a, v), d - 2)
        show("solve2", solve(a, b), d - 2)
        show("solve_check", big[:3, :3] @ solve(big[:3, :3], b), d - 4)
        sing = np.ones((3, 3), dt) * (1 + 1j)
        print("det_sing", det(sing))
        print("slogdet_sing", slogdet(sing))
        for f, args in ((inv, (sing,)), (solve, (sing, v)), (inv, (a[:2],)),
                        (det, (a[:, :2],)), (solve, (a, v[:2]))):
            try:
                f(*args)
                print("no error")
            except (np.linalg.LinAlgError, ValueError) as e:
                name = type(e).__name__
                print(name, str(e).splitlines()[0].split(name + ": ")[-1])

"""Cases of np.interp, np.histogram, np.diff, np.bincount, np.digitize, np.roll, np.repeat, the
flips, np.triu/tril, np.count_nonzero, np.array_equal, np.around and np.trapz, run under numjit and under
real Numba 0.56 by test_npfunc.py: every printed line must agree."""
import numpy as np
from numba import njit


def show(name, f, *args):
    try:
        r = f(*args)
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(name, "raises", type(e).__name__, str(e).splitlines()[0])
        return
    if not isinstance(r, tuple):
        r = (r,)
    for k, x in enumerate(r):
        if isinstance(x, np.ndarray):
            print(name, k, x.dtype, x.shape, x.flags.c_contiguous, repr(x.tolist()))
        else:
            print(name, k, type(x).__name__, repr(x))


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def hist(a):
    return np.histogram(a)


@njit
def hist_n(a, n):
    return np.histogram(a, n)


@njit
def hist_range(a, n, lo, hi):
    return np.histogram(a, bins=n, range=(lo, hi))


@njit
def hist_edges(a, e):
    return np.histogram(a, e)


@njit
def diff(a):
    return np.diff(a)


@njit
def diff_n(a, n):
    return np.diff(a, n=n)


@njit
def bincount(x):
    return np.bincount(x)


@njit
def bincount_w(x, w):
    return np.bincount(x, w)


@njit
def bincount_ml(x, m):
    return np.bincount(x, minlength=m)


@njit
def digitize(x, b):
    return np.digitize(x, b)


@njit
def digitize_r(x, b):
    return np.digitize(x, b, right=True)


@njit
def roll(a, s):
    return np.roll(a, s)


@njit
def repeat(a, r):
    return np.repeat(a, r)


@njit
def repeat_m(a, r):
    return a.repeat(r)


@njit
def flip(a):
    return np.flip(a)


@njit
def fliplr(a):
    return np.fliplr(a)


@njit
def flipud(a):
    return np.flipud(a)


@njit
def flip_write(a):
    v = np.flipud(a)
    v[0] = 7
    return a


@njit
def triu(a, k):
    return np.triu(a, k)


@njit
def tril(a):
    return np.tril(a)


@njit
def tril_k(a, k):
    return np.tril(a, k=k)


@njit
def count_nonzero(a):
    return np.count_nonzero(a)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


@njit
def around(x, d):
    return np.around(x, d)


@njit
def round_(x):
    return np.round_(x)


@njit
def round_out(a, d, out):
    return np.round(a, d, out)

@njit
def trapz(y):
    return np.trapz(y)


@njit
def trapz_x(y, x):
    return np.trapz(y, x)


@njit
def trapz_dx(y, d):
    return np.trapz(y, dx=d)


nan = np.nan
f = np.array([1.0, 2.5, 3.0, nan, 0.5, -1.0])
g = np.arange(12.0).reshape(3, 4)
i8 = np.array([100, -100, 100, 0, 7], np.int8)
b = np.array([True, False, False, True])
c = np.array([1 + 2j, 3 - 1j, 0j])
empty = np.zeros(0)

xp = np.array([0.0, 1.0, 2.5, 4.0, 7.0, 8.0, 9.5])
fp = np.array([3.0, 2.0, 0.0, 1.0, nan, 5.0, -2.0])
xs = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 3.9, 5.0, 7.5, 8.0, 9.5, 12.0, nan, -np.inf, np.inf])
show("interp scalar", interp, 1.5, xp, fp)
show("interp int scalar", interp, 2, np.array([1, 2, 3]), np.array([3, 2, 0]))
show("interp array", interp, xs, xp, fp)
show("interp few xp", interp, xs, xp[:3], fp[:3])
show("interp reversed x", interp, xs[::-1], xp, fp)
show("interp 2d x", interp, g, xp, fp)
show("interp strided xp", interp, xs, np.arange(20.0)[::3], np.arange(7.0) ** 2)
show("interp f32", interp, np.float32(1.5), xp, fp.astype(np.float32))
show("interp one point", interp, xs, np.array([1.0]), np.array([4.0]))
show("interp complex fp", interp, xs, xp, fp + 1j * fp[::-1])
show("interp complex scalar", interp, 2.0, xp, fp * 1j)
show("interp unsorted xp", interp, xs, np.array([3.0, 1.0, 2.0, 0.0, 5.0, 4.0]), np.arange(6.0))
show("interp empty x", interp, empty, xp, fp)
show("interp empty xp", interp, 1.0, empty, empty)
show("interp size mismatch", interp, 1.0, xp, fp[:3])

h = np.array([1.0, 2.0, 2.5, 3.0, 10.0, nan, 4.0])
show("hist default", hist, h)
show("hist int", hist, np.arange(5))
show("hist 2d", hist, g)
show("hist n", hist_n, h, 3)
show("hist strided", hist_n, g[:, ::-2], 4)
show("hist range", hist_range, h, 4, 0.0, 8.0)
show("hist int range", hist_range, np.arange(5), 2, 0, 4)
show("hist range equal", hist_range, h, 3, 2.0, 2.0)
show("hist bad bins", hist_n, h, 0)
show("hist bad range", hist_range, h, 3, 5.0, 1.0)
show("hist empty", hist, empty)
show("hist edges", hist_edges, h, np.array([0.0, 1.5, 2.5, 4.0]))
show("hist int edges", hist_edges, np.arange(10), np.array([0, 3, 3, 9]))
show("hist edges unsorted", hist_edges, h, np.array([1.0, 0.0]))
show("hist one edge", hist_edges, h, np.array([1.0]))
show("hist no edges", hist_edges, h, empty)

show("diff", diff, f)
show("diff 2d", diff, g)
show("diff int8 n2", diff_n, i8, 2)
show("diff bool", diff, b)
show("diff n0", diff_n, f, 0)
show("diff big n", diff_n, f, 10)
show("diff negative n", diff_n, f, -1)
show("diff complex", diff, c)
show("diff empty", diff, empty)

ix = np.array([1, 3, 3, 0, 5])
show("bincount", bincount, ix)
show("bincount int8", bincount, ix.astype(np.int8))
show("bincount weights", bincount_w, ix, np.array([0.5, 1.0, 2.0, 4.0, 8.0]))
show("bincount int weights", bincount_w, ix, np.arange(5))
show("bincount minlength", bincount_ml, ix, 9)
show("bincount short minlength", bincount_ml, ix, 2)
show("bincount negative minlength", bincount_ml, ix, -1)
show("bincount negative", bincount, np.array([1, -3]))
show("bincount empty", bincount, np.zeros(0, np.int64))
show("bincount weights length", bincount_w, ix, np.ones(2))
show("bincount strided", bincount, ix[::-2])

bins = np.array([0.0, 1.0, 2.5, 2.5, 4.0])
show("digitize", digitize, f, bins)
show("digitize right", digitize_r, f, bins)
show("digitize decreasing", digitize, f, bins[::-1])
show("digitize decreasing right", digitize_r, f, bins[::-1])
show("digitize 2d", digitize, g, bins)
show("digitize int", digitize, np.arange(6), np.array([1, 3]))
show("digitize no bins", digitize, f, empty)
show("digitize nan bins", digitize_r, f, np.array([0.0, 1.0, nan]))
show("digitize not monotonic", digitize, f, np.array([0.0, 3.0, 2.5]))

show("roll", roll, f, 2)
show("roll negative", roll, f, -7)
show("roll 2d", roll, g, 5)
show("roll reversed 2d", roll, g[:, ::-1], 1)
show("roll bool shift", roll, f, True)
show("roll empty", roll, empty, 3)
show("roll complex", roll, c, 1)

show("repeat", repeat, f, 2)
show("repeat 0", repeat, f, 0)
show("repeat 2d", repeat, g, 2)
show("repeat each", repeat, f, np.array([1, 0, 2, 1, 1, 3]))
show("repeat one count", repeat, f, np.array([2]))
show("repeat negative", repeat, f, -1)
show("repeat negative each", repeat, f, np.array([1, 0, -2, 1, 1, 1]))
show("repeat length", repeat, f, np.array([1, 2]))
show("repeat method", repeat_m, g[::2], 2)
show("repeat bool", repeat, b, 3)

show("flip", flip, f)
show("flip 2d", flip, g)
show("fliplr", fliplr, g)
show("flipud", flipud, g)
show("flipud 1d", flipud, f)
show("flip view writes", flip_write, np.arange(4.0))

show("triu", triu, g, 0)
show("triu k1", triu, g, 1)
show("triu k-1", triu, g, -1)
show("tril", tril, g)
show("tril k", tril_k, g, 2)
show("triu 1d", triu, f[:3], 0)
show("tril 3d", tril, np.arange(18).reshape(2, 3, 3))
show("triu bool", triu, np.ones((3, 2), np.bool_), 0)
show("tril strided", tril, g[:, ::-1])
show("tril empty", tril, np.zeros((0, 3)))

show("count_nonzero", count_nonzero, f)
show("count_nonzero 2d", count_nonzero, g)
show("count_nonzero bool", count_nonzero, b)
show("count_nonzero complex", count_nonzero, c)
show("count_nonzero empty", count_nonzero, empty)

show("array_equal", array_equal, g, g.copy())
show("array_equal nan", array_equal, f, f)
show("array_equal dtypes", array_equal, np.arange(4), np.arange(4.0))
show("array_equal shapes", array_equal, g, g.T)
show("array_equal ndim", array_equal, g, f)
show("array_equal scalars", array_equal, 1.0, 1)
show("array_equal array scalar", array_equal, f, 1.0)
show("array_equal views", array_equal, g[:, ::-1], g[:, ::-1].copy())

show("around", around, 2.345, 2)
show("around half", around, 2.5, 0)
show("around negative", around, 1234.5, -2)
show("around int", around, 25, -1)
show("around int8", around, np.int8(15), -1)
show("around f32", around, np.float32(1.005), 2)
show("around complex", around, 1.25 + 2.35j, 1)
show("around inf", around, np.inf, 3)
show("around big", around, 1.5e300, 30)
show("round_ float", round_, 3.5)
show("round_ int", round_, 7)
show("round_ complex", round_, 2.5 - 1.5j)
show("round out", round_out, f * 1.37, 1, np.empty(6))
show("round out 2d", round_out, g / 7, 2, np.empty((3, 4)))
show("round out shape", round_out, f, 1, np.empty(3))
show("round out int", round_out, np.arange(30, 36), -1, np.empty(6, np.int64))
show("trapz", trapz, np.arange(5.0))
show("trapz int8 wraps", trapz, (np.arange(5) * 50).astype(np.int8))
show("trapz f32", trapz, np.arange(5, dtype=np.float32) / np.float32(3))
show("trapz complex", trapz, np.array([1 + 1j, 2, 3j]))
show("trapz dx", trapz_dx, np.arange(5.0), 0.5)
show("trapz dx int", trapz_dx, np.arange(5.0), 2)
show("trapz dx f32", trapz_dx, np.arange(5, dtype=np.float32), np.float32(0.5))
show("trapz x", trapz_x, np.arange(5.0), np.arange(5) ** 2)
show("trapz x linspace", trapz_x, np.arange(5.0), np.linspace(0, 1, 5))
show("trapz one", trapz, np.zeros(1))
show("trapz empty", trapz, np.zeros(0))
show("trapz strided", trapz, np.arange(6.0)[::-2])

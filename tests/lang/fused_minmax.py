# np.min, np.max, np.amin, np.amax, np.mean, np.any, np.all of an array expression, and the
# methods e.min(), e.max(), e.mean(), e.sum(), e.prod(), e.any(), e.all(): the expression's
# loop folds into the reduction (no temporary array) and the answer is that of reducing the
# array it would make: the first NaN met is the min or max, ties keep the first (0.0 before
# -0.0), ints of every width and sign, mean of ints as float64 and of float32 as float32,
# complex means, broadcasting (and its error), F order, the errors of an empty min/max/mean,
# inside a loop over points, softmax and KDE style.
from numba import njit
import numpy as np


@njit
def floats(a, b):
    return (np.min(a * b), np.max(a - b), np.amin(np.sin(a) + b), np.amax(a / (b + 2.0)),
            np.mean(a * b + 1.0), np.any(a > b), np.all(a + 1.0 > b),
            (a * b).min(), (a - b).max(), (a + b).mean(), (a * 2.0).sum(), (a + 1.0).prod(),
            (a > 0.5).any(), (b < 0.0).all())


@njit
def ints(i, j):
    return (np.min(i * j), np.max(i - j), np.mean(i + j), np.any(i * j), np.all(i + 100),
            (i // 3).min(), (i % 5).max(), (i * 2).mean())


@njit
def minmax_only(i):
    return np.min(i + i), np.max(i * i), (i - 1).min(), (i + 1).max()


@njit
def mean_only(z):
    return np.mean(z * z), (z + 1.0).mean(), np.sum(z - 1.0), np.any(z * 0.0), np.all(z + 1.0)


@njit
def broadcast(m, v):
    return np.min(m * v), np.max(m.T - v), np.mean(m + v), (m[0] - v).max(), np.all(m >= v - 9.0)


@njit
def softmax_rows(x):
    out = np.empty_like(x)
    for r in range(x.shape[0]):
        row = x[r]
        m = np.max(row * 2.0)
        e = np.exp(row * 2.0 - m)
        out[r] = e / np.sum(e)
    return out


@njit
def normalize_rows(x):
    out = np.empty_like(x)
    for r in range(x.shape[0]):
        mu = np.mean(x[r] * 0.5)
        lo = (x[r] - mu).min()
        hi = (x[r] - mu).max()
        out[r] = (x[r] - mu - lo) / (hi - lo)
    return out


@njit
def kde(x, points, bw):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        d = -(x[i] - points) ** 2 / (2.0 * bw ** 2)
        out[i] = np.exp(np.max(d)) + np.min(d - 1.0) + (d * d).max() + np.mean(d * 3.0)
    return out


@njit
def empty_min(a):
    return np.min(a * 2.0)


@njit
def empty_max(a):
    return (a + 1.0).max()


@njit
def empty_mean(a):
    return np.mean(a + 1.0)


@njit
def empty_bool(a):
    return np.any(a > 0.0), np.all(a > 0.0), (a > 0.0).any(), (a < 0.0).all()


@njit
def bad_shapes(a, b):
    return np.max(a + b)


def show(label, r):
    if isinstance(r, tuple):
        for k, v in enumerate(r):
            print(label, k, repr(v), type(v).__name__)
    else:
        print(label, repr(r), type(r).__name__)


def error(label, f, *args):
    try:
        f(*args)
        print(label, "no error")
    except (ValueError, ZeroDivisionError) as e:
        print(label, type(e).__name__, str(e).splitlines()[0].split("Error: ")[-1])


a = np.linspace(-1.0, 1.0, 1001)
b = np.cos(np.arange(1001.0))
show("floats", floats(a, b))
show("floats f32", floats(a.astype(np.float32), b.astype(np.float32)))
an = a.copy()
an[300] = np.nan
an[700] = np.nan
show("floats nan", floats(an, b))
show("floats nan first", floats(an[300:], b[300:]))
z0 = np.array([0.0, -0.0, 1.0, -0.0])
show("signed zero", floats(z0, np.zeros(4)))
show("signed zero rev", floats(-z0, np.zeros(4)))
i = np.arange(-20, 40, dtype=np.int64)
j = (np.arange(60) % 7).astype(np.int64)
show("ints", ints(i, j))
show("ints i32", ints(i.astype(np.int32), j.astype(np.int32)))
show("ints u16", ints(np.arange(3, 63, dtype=np.uint16), j.astype(np.uint16)))
for dt in (np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64):
    show("minmax " + np.dtype(dt).name, minmax_only(np.arange(1, 9, dtype=dt)))
show("minmax u8 wrap", minmax_only(np.array([0, 200, 255], dtype=np.uint8)))
show("minmax i8 wrap", minmax_only(np.array([-128, 100, 127], dtype=np.int8)))
z = (np.arange(9.0) + 1j * np.arange(9.0)[::-1]) / 3.0
show("complex", mean_only(z))
show("complex64", mean_only(z.astype(np.complex64)))
m = np.arange(16.0).reshape(4, 4) / 7.0
v = np.array([0.5, 1.5, 2.5, 3.5])
show("broadcast", broadcast(m, v))
show("broadcast F", broadcast(np.asfortranarray(m), v))
x = np.sin(np.arange(24.0)).reshape(4, 6)
s = softmax_rows(x)
print("softmax", s.dtype, s.shape, s.tolist())
n = normalize_rows(x)
print("normalize", n.dtype, n.shape, n.tolist())
k = kde(np.linspace(-2.0, 2.0, 9), np.array([-1.0, 0.25, 1.5]), 0.5)
print("kde", k.dtype, k.shape, k.tolist())
e = np.zeros(0)
error("empty min", empty_min, e)
error("empty max", empty_max, e)
error("empty mean", empty_mean, e)
show("empty bool", empty_bool(e))
error("bad shapes", bad_shapes, np.ones(3), np.ones(4))

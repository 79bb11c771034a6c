# Whole-array reductions without an axis, as methods and as np functions: sum, prod, min, max,
# mean, var, std (NumPy's population forms), argmin, argmax (flat C-order index), any, all,
# sum(dtype=) (a total of that dtype, each element added as `c += v`), np.amin/np.amax, np.dot and the @ operator on two vectors, a.itemsize.  Result types follow
# Numba: sums and products of ints widen to 64 bits (uint8 to uint64, bool to int64), float32
# stays float32, the mean of ints is float64.  NaN propagates through min/max and stops
# argmin/argmax at the first NaN; empty arrays raise ValueError (min, max, argmin, argmax) or
# ZeroDivisionError (mean, var, std; also under error_model='numpy', as Numba).  C, Fortran
# and strided arrays of 1 to 3 dimensions.
from numba import njit
import numpy as np


def show(v):
    return type(v).__name__ + ":" + repr(v)


@njit
def sums(a):
    return a.sum(), np.sum(a), a.prod(), np.prod(a)


@njit
def sums_dtype(a):
    return (a.sum(dtype=np.float64), np.sum(a, dtype=np.float32), a.sum(dtype=np.int32),
            a.sum(dtype=np.uint8), a.sum(dtype=np.complex128))


@njit
def extremes(a):
    return a.min(), a.max(), np.min(a), np.max(a), np.amin(a), np.amax(a)


@njit
def args(a):
    return a.argmin(), a.argmax(), np.argmin(a), np.argmax(a)


@njit
def stats(a):
    return a.mean(), np.mean(a), a.var(), np.var(a), a.std(), np.std(a)


@njit
def truth(a):
    return a.any(), a.all(), np.any(a), np.all(a)


@njit(error_model="numpy")
def stats_numpy_model(a):
    return a.mean(), a.var(), a.std(), 1.0 / a.size


@njit
def dots(a, b):
    return np.dot(a, b), a @ b


@njit
def sizes(a):
    return a.size, a.itemsize, a.ndim


@njit
def normalized_l2(a):
    # a reduction inside an expression, on a view the caller made
    return np.sqrt(np.dot(a, a)) / a.size + a.max() - a.min()


def run(name, f, *args):
    try:
        r = f(*args)
        if isinstance(r, tuple):
            print(name, " ".join(show(x) for x in r))
        else:
            print(name, show(r))
    except (ValueError, ZeroDivisionError) as e:
        print(name, type(e).__name__)


if __name__ == "__main__":
    f64 = np.array([3.5, -1.25, 8.0, 0.5, -1.25, 2.0])
    arrays = [
        ("f64", f64),
        ("f32", np.array([0.1, 0.2, 0.3, 0.7], dtype=np.float32)),
        ("i32", np.array([7, -3, 12, 5, -3, 12], dtype=np.int32)),
        ("i8", np.array([100, 27, -5, 3], dtype=np.int8)),
        ("u8", np.array([250, 3, 7, 200], dtype=np.uint8)),
        ("u64", np.array([2**63, 5, 1], dtype=np.uint64)),
        ("bool", np.array([True, False, True, True])),
        ("allfalse", np.array([False, False])),
        ("i64big", np.array([2**62, 2**62, 3], dtype=np.int64)),
        ("step", f64[::2]),
        ("rev", f64[::-1]),
        ("m2C", np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5 - 2.0),
        ("m2F", np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5 - 2.0)),
        ("m2T", (np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5).T),
        ("m2col", np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::2]),
        ("m3", np.arange(24, dtype=np.int16).reshape(2, 3, 4) - 11),
        ("one", np.array([4.0])),
    ]
    for tag, a in arrays:
        run("sums " + tag, sums, a)
        run("sums_dtype " + tag, sums_dtype, a)
        run("extremes " + tag, extremes, a)
        run("args " + tag, args, a)
        run("stats " + tag, stats, a)
        run("truth " + tag, truth, a)
        run("sizes " + tag, sizes, a)
    nan = np.array([1.0, np.nan, -3.0, np.nan])
    for tag, a in [("nan", nan), ("nanfirst", nan[1:]), ("nanlast", np.array([2.0, -1.0, np.nan])),
                   ("inf", np.array([np.inf, -np.inf, 0.0])), ("zeros", np.array([0.0, -0.0])),
                   ("nan32", np.array([1.0, np.nan], dtype=np.float32))]:
        run("extremes " + tag, extremes, a)
        run("args " + tag, args, a)
        run("truth " + tag, truth, a)
        run("sums " + tag, sums, a)
    for tag, a in [("empty", np.zeros(0)), ("emptyi", np.zeros(0, dtype=np.int32)),
                   ("empty2", np.zeros((3, 0)))]:
        run("sums " + tag, sums, a)
        run("truth " + tag, truth, a)
        run("extremes " + tag, extremes, a)
        run("args " + tag, args, a)
        run("stats " + tag, stats, a)
        run("stats_numpy_model " + tag, stats_numpy_model, a)
    run("stats_numpy_model", stats_numpy_model, np.array([1.0, 2.0, 4.0]))
    x = np.arange(6, dtype=np.float64) - 2.0
    y = np.arange(6, dtype=np.float64) * 0.5
    run("dots", dots, x, y)
    run("dots32", dots, x.astype(np.float32), y.astype(np.float32))
    run("dots empty", dots, x[:0], y[:0])
    run("dots mismatch", dots, x, y[:5])
    run("l2", normalized_l2, np.array([3.0, 4.0, 12.0]))
    run("dots strided", dots, x[::2], y[::-2])
    run("dots column", dots, np.arange(12.0).reshape(4, 3)[:, 1], y[:4])

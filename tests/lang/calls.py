# Calls between compiled functions: a helper called with int, float and int32-element
# arguments (one specialization each), helpers returning bool used in conditions, a chain of
# three levels, helpers that write into an array argument, module-level constants (int, float,
# bool, and a negative one) read by compiled code, and a helper whose result type depends on
# its argument types.
from numba import njit
import numpy as np
import math

SCALE = 3
EPS = 1e-9
OFFSET = -2.5
DEBUG = False
BIG = 2**40


@njit
def sq(x):
    return x * x


@njit
def is_close(a, b):
    return abs(a - b) <= EPS * max(abs(a), abs(b), 1.0)


@njit
def scaled(x):
    return x * SCALE + OFFSET


@njit
def dist(x1, y1, x2, y2):
    return math.sqrt(sq(x2 - x1) + sq(y2 - y1))


@njit
def path_length(xs, ys):
    s = 0.0
    for i in range(1, xs.shape[0]):
        s += dist(xs[i - 1], ys[i - 1], xs[i], ys[i])
    return s


@njit
def sum_sq_int(a):
    # sq called on int32 elements: the int32 specialization returns int64.
    s = 0
    for i in range(a.shape[0]):
        s += sq(a[i])
    return s


@njit
def level3(x):
    return x + 1


@njit
def level2(x):
    return level3(x) * 2


@njit
def level1(x):
    return level2(x) - level3(x)


@njit
def fill_with(a, v):
    for i in range(a.shape[0]):
        a[i] = v


@njit
def reset_and_sum(a):
    fill_with(a, SCALE)
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def flags(x):
    if DEBUG:
        return -1
    return x + BIG


@njit
def count_close(a, b):
    c = 0
    for i in range(a.shape[0]):
        if is_close(a[i], b[i]):
            c += 1
    return c


@njit
def newton_sqrt(x):
    g = x if x > 1.0 else 1.0
    for i in range(100):
        ng = 0.5 * (g + x / g)
        if is_close(ng, g):
            return ng
        g = ng
    return g


@njit
def mixed_helper_calls(n):
    # sq on an int, on a float, and on a bool-derived int inside one function.
    return sq(n) + sq(n * 0.5) + sq(n > 2)


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for x in [3, -4, 2.5, 2**31, True]:
        print("sq", repr(x), r(sq(x)))
    for x in [0, 1, 2.0, -1.5]:
        print("scaled", repr(x), r(scaled(x)))
    for a, b in [(1.0, 1.0 + 1e-12), (1.0, 1.1), (1e10, 1e10 + 1.0), (0.0, 1e-10), (3, 3)]:
        print("is_close", repr(a), repr(b), r(is_close(a, b)))
    xs = np.array([0.0, 3.0, 3.0, 0.0, -1.5])
    ys = np.array([0.0, 4.0, 0.0, 0.0, 2.0])
    print("path_length", r(path_length(xs, ys)), r(path_length(xs[::-1], ys[::-1])))
    print("path_length_int", r(path_length(np.array([0, 3, 6], dtype=np.int32),
                                           np.array([0, 4, 8], dtype=np.int32))))
    print("sum_sq_int", r(sum_sq_int(np.array([46341, -46341, 3], dtype=np.int32))))
    for x in [0, 5, -1, 1.5]:
        print("levels", repr(x), r(level1(x)))
    a = np.zeros(4, dtype=np.int16)
    print("reset_and_sum", r(reset_and_sum(a)), a.tolist())
    b = np.zeros(3)
    fill_with(b, 0.25)
    print("fill_with", b.tolist())
    print("flags", r(flags(1)), r(flags(-BIG)))
    u = np.array([1.0, 2.0, 3.0, 4.0])
    v = np.array([1.0 + 1e-12, 2.1, 3.0, 4.0 - 1e-8])
    print("count_close", r(count_close(u, v)))
    for x in [0.25, 2.0, 10.0, 1e6]:
        print("newton_sqrt", repr(x), r(newton_sqrt(x)))
    for n in [0, 3, 7]:
        print("mixed_helper_calls", n, r(mixed_helper_calls(n)))

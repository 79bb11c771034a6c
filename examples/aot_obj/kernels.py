"""kernels.py — @njit functions compiled ahead of time into an object file for a C program.

    numjit obj kernels.py --sig 'axpy(float64, float64[:], float64[:])' \
        --sig 'norm(float64[:])' --sig 'norm32=norm(float32[:])' ... -o kernels.o \
        --header kernels.h
    cc main.c kernels.o -lm -o prog && ./prog

(tests/aot/test_aot.sh lists every signature.)  Run as a Python program it computes and prints
the same values through the JIT (numjit, or Numba: the file runs unchanged under both), so
`./prog` and `python3 kernels.py` print identical text.
"""
import math
import sys

import numpy as np

try:
    from numjit import njit
except ImportError:  # the same program under Numba
    from numba import njit


@njit
def axpy(a, x, y):
    """y += a * x (1-D, in place)."""
    for i in range(x.shape[0]):
        y[i] += a * x[i]


@njit
def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


@njit
def norm(x):
    """Calls dot: one specialization per dtype (float32 sums in float64)."""
    return math.sqrt(dot(x, x))


@njit
def matvec(a, x, out):
    """out = a @ x for a 2-D a (any strides with float64[:, :], contiguous with ::1)."""
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * x[j]
        out[i] = s


@njit
def safe_div(a, b):
    """Raises ZeroDivisionError for b == 0, as Python does."""
    return a / b


@njit
def mean_max(x):
    """A tuple result: (mean, max)."""
    s = 0.0
    m = x[0]
    for i in range(x.shape[0]):
        s += x[i]
        if x[i] > m:
            m = x[i]
    return s / x.shape[0], m


@njit
def sin_sum(x):
    """A loop over math.sin: vectorized through libmvec in the JIT, libm in the object."""
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sin(x[i])
    return s


@njit
def sin_all(x, out):
    """out = sin(x) elementwise: this loop vectorizes (libmvec with --vector-math)."""
    for i in range(x.shape[0]):
        out[i] = math.sin(x[i])


@njit
def count_above(x, t):
    n = 0
    for i in range(x.shape[0]):
        if x[i] > t:
            n += 1
    return n


def main():
    n = 1000
    x = 0.5 + 0.25 * np.arange(n, dtype=np.float64)
    y = np.ones(n)
    axpy(2.0, x, y)
    print("axpy: y[0] = %.17g, y[999] = %.17g" % (y[0], y[n - 1]))
    print("dot(x, y) = %.17g" % dot(x, y))
    print("norm(x) = %.17g" % norm(x))
    x32 = x.astype(np.float32)
    print("norm(float32 x) = %.17g" % norm(x32))
    rows, cols = 30, 40
    a = (np.arange(rows * cols, dtype=np.float64) % 7 - 3.0).reshape(rows, cols)
    v = 1.0 + 0.5 * np.arange(cols, dtype=np.float64)
    out = np.zeros(rows)
    matvec(a, v, out)
    print("matvec: out[0] = %.17g, out[29] = %.17g, sum = %.17g" % (out[0], out[rows - 1], out.sum()))
    at = np.ascontiguousarray(a.T)  # (cols, rows); at.T is a strided view of a's values
    out2 = np.zeros(rows)
    matvec(at.T, v, out2)
    print("matvec (strided view): equal = %d" % int((out2 == out).all()))
    print("safe_div(7, 2) = %.17g" % safe_div(7.0, 2.0))
    try:
        safe_div(1.0, 0.0)
        print("safe_div(1, 0) = no error")
    except ZeroDivisionError:
        print("safe_div(1, 0) raised ZeroDivisionError")
    mean, mx = mean_max(x)
    print("mean_max(x) = (%.17g, %.17g)" % (mean, mx))
    print("sin_sum(x) = %.12g" % sin_sum(x))
    s = np.zeros(n)
    sin_all(x, s)
    print("sin_all: out[1] = %.12g, out[999] = %.12g" % (s[1], s[n - 1]))
    print("count_above(x, 100.0) = %d" % count_above(x, 100.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

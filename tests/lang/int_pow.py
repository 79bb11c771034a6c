# Powers: int ** int (wraparound at 64 bits, exponent 0, negative exponents give 0 unless the
# base is 1 or -1, and 0 ** negative raises ZeroDivisionError), float ** int, int ** float,
# float ** float (negative base with a fractional exponent is nan, not complex, in Numba),
# constant exponents (x ** 2, x ** 0.5, x ** -1) and int32 elements as bases.
from numba import njit
import numpy as np
import math


@njit
def ipow(a, b):
    return a ** b


@njit
def square(x):
    return x ** 2


@njit
def cube(x):
    return x ** 3


@njit
def root(x):
    return x ** 0.5


@njit
def recip(x):
    return x ** -1


@njit
def pow_sum(a, n):
    # Sum of a[i] ** k for k in 0..n-1, base read from an int32 array.
    s = 0
    for i in range(a.shape[0]):
        for k in range(n):
            s += a[i] ** k
    return s


@njit
def pow_table(base, out):
    for k in range(out.shape[0]):
        out[k] = base ** (k - 3)


if __name__ == "__main__":
    bases = [0, 1, -1, 2, -2, 3, -3, 7, 10, -10]
    exps = [0, 1, 2, 3, 5, 10, 31, 40, 62, 63, 64, 100, -1, -2, -3, -63]
    for a in bases:
        for b in exps:
            try:
                r = ipow(a, b)
            except ZeroDivisionError:
                r = "ZeroDivisionError"
            print("ipow", a, b, r)
    fb = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 10.0, 1e-3, math.inf, -math.inf, math.nan]
    fe = [0, 1, 2, 3, -1, -2, 0.5, -0.5, 1.5, 2.0, 1e3, -1e3, math.inf, -math.inf, math.nan]
    for a in fb:
        for b in fe:
            try:
                r = repr(ipow(a, b))
            except ZeroDivisionError:
                r = "ZeroDivisionError"
            print("fpow", repr(a), repr(b), r)
    for a in [2, 3, -3]:
        for b in [0.5, -0.5, 2.0, -2.0, 0.0]:
            print("ifpow", a, repr(b), repr(ipow(a, b)))
    for x in [0, 3, -3, 2**31, 3.5, -3.5, 1e200]:
        print("square", repr(x), repr(square(x)), repr(cube(x)))
    for x in [0.0, 2.0, 9.0, -1.0, math.inf]:
        print("root", repr(x), repr(root(x)))
    for x in [1, -1, 2, 2.0, -4.0, 3]:
        try:
            r = repr(recip(x))
        except ZeroDivisionError:
            r = "ZeroDivisionError"
        print("recip", repr(x), r)
    a = np.array([1, 2, -3, 5, 0], dtype=np.int32)
    print("pow_sum", pow_sum(a, 5), pow_sum(a, 12))
    for base in [1, -1, 2]:
        out = np.zeros(8, dtype=np.int64)
        pow_table(base, out)
        print("pow_table", base, out.tolist())
    out = np.zeros(8)
    pow_table(2.0, out)
    print("pow_table 2.0", [repr(v) for v in out.tolist()])

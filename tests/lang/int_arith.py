# Integer arithmetic: + - * on int64 scalars, wraparound at 64 bits, int32/int8/uint8 array
# elements (read at their width, arithmetic widened to int64 as Numba does, stores wrapping to
# the array's width), bitwise operators and shifts, unary minus and invert.
from numba import njit
import numpy as np


@njit
def add(a, b):
    return a + b


@njit
def sub(a, b):
    return a - b


@njit
def mul(a, b):
    return a * b


@njit
def neg(a):
    return -a


@njit
def band(a, b):
    return a & b


@njit
def bor(a, b):
    return a | b


@njit
def bxor(a, b):
    return a ^ b


@njit
def inv(a):
    return ~a


@njit
def shl(a, k):
    return a << k


@njit
def shr(a, k):
    return a >> k


@njit
def wrap_mul(a):
    # 64-bit wraparound: repeated squaring overflows.
    x = a
    for i in range(6):
        x = x * x + 1
    return x


@njit
def sum_int32(a):
    # Elements are int32, the sum is int64 (no wrap at 32 bits).
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def store_int32(a, v):
    # Storing into an int32 array wraps to 32 bits.
    for i in range(a.shape[0]):
        a[i] = a[i] * v + 1


@njit
def elem_add(a, i, j):
    # int32 + int32 widens to int64 in Numba: no wrap here.
    return a[i] + a[j]


@njit
def elem_mul(a, i, j):
    return a[i] * a[j]


@njit
def elem_sub(a, i, j):
    return a[i] - a[j]


@njit
def accumulate_inplace(a):
    # a[i] += ... on a small integer type wraps at the element width.
    for i in range(1, a.shape[0]):
        a[i] += a[i - 1]


@njit
def polyval(x):
    return 3 * x * x * x - 7 * x * x + 11 * x - 5


if __name__ == "__main__":
    pairs = [(0, 0), (7, 3), (-7, 3), (7, -3), (-7, -3), (2**62, 2**62), (-2**63, -1),
             (2**63 - 1, 1), (123456789, 987654321)]
    for a, b in pairs:
        print("arith", a, b, add(a, b), sub(a, b), mul(a, b), neg(a), neg(b))
        print("bits", a, b, band(a, b), bor(a, b), bxor(a, b), inv(a), inv(b))
    for a in [1, -1, 5, -5, 2**40, -2**40]:
        for k in [0, 1, 3, 17, 40, 62]:
            print("shifts", a, k, shl(a, k), shr(a, k))
    for a in [0, 1, 2, 3, -3, 1000003]:
        print("wrap_mul", a, wrap_mul(a))
    big = np.array([2**31 - 1, 2**31 - 1, 2**31 - 1, -2**31, -5], dtype=np.int32)
    print("sum_int32", sum_int32(big))
    for v in [2, 3, -7, 65537]:
        a = np.array([0, 1, -1, 2**30, -2**30, 2**31 - 1, 123456], dtype=np.int32)
        store_int32(a, v)
        print("store_int32", v, a.tolist())
    for i, j in [(0, 1), (3, 4), (0, 3), (3, 3)]:
        print("elem_ops", i, j, elem_add(big, i, j), elem_mul(big, i, j), elem_sub(big, i, j))
    for dt in [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint16]:
        a = np.array([100, 100, 100, 60, 1, 2, 3], dtype=dt)
        accumulate_inplace(a)
        print("accumulate", dt.__name__, a.tolist())
    for x in [0, 1, -1, 2, -2, 10, -10, 12345, -123456, 2**21, 2**22]:
        print("polyval", x, polyval(x))

# Scalar builtins: abs (int stays int and wraps at INT_MIN, float clears the sign of -0.0),
# min and max with two and three arguments and mixed int/float arguments (unified type),
# round with one argument (an int, halves to even) and with ndigits (a float), int() truncating
# toward zero, float(), bool() of ints and floats.
from numba import njit
import numpy as np


@njit
def b_abs(x):
    return abs(x)


@njit
def b_min2(a, b):
    return min(a, b)


@njit
def b_max2(a, b):
    return max(a, b)


@njit
def b_min3(a, b, c):
    return min(a, b, c)


@njit
def b_max3(a, b, c):
    return max(a, b, c)


@njit
def b_round(x):
    return round(x)


@njit
def b_round_nd(x, n):
    return round(x, n)


@njit
def b_int(x):
    return int(x)


@njit
def b_float(x):
    return float(x)


@njit
def b_bool(x):
    return bool(x)


@njit
def clamp(x, lo, hi):
    return max(lo, min(x, hi))


@njit
def abs_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += abs(a[i])
    return s


@njit
def min_max_elems(a):
    lo = a[0]
    hi = a[0]
    for i in range(1, a.shape[0]):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return hi - lo


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for x in [0, 5, -5, 2**63 - 1, -2**63, 0.0, -0.0, -2.5, 1e300, -float("inf"), True]:
        print("abs", repr(x), r(b_abs(x)))
    pairs = [(1, 2), (2, 1), (-1, -1), (1, 2.5), (2.5, 1), (-0.0, 0.0), (0.0, -0.0),
             (3, 3.0), (float("nan"), 1.0), (1.0, float("nan"))]
    for a, b in pairs:
        print("minmax2", repr(a), repr(b), r(b_min2(a, b)), r(b_max2(a, b)))
    for t in [(1, 2, 3), (3, 2, 1), (2, 3, 1), (1, 2.5, -3), (0.5, 0.25, 0.75), (-1, -1, -1)]:
        print("minmax3", t, r(b_min3(*t)), r(b_max3(*t)))
    for x in [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2.675, 1e15 + 0.5, 7, -7,
              3.4999, -3.5001]:
        print("round", repr(x), r(b_round(x)))
    for x, n in [(2.675, 2), (1.005, 2), (-1.25, 1), (1234.5678, -2), (0.125, 2), (0.375, 2),
                 (1e300, 3), (-0.0, 1), (5.5, 0)]:
        print("round_nd", repr(x), n, r(b_round_nd(x, n)))
    for x in [0.0, -0.0, 0.9, -0.9, 1.5, -1.5, 1e18, -1e18, 7, True, np.float32(2.75)]:
        print("int", repr(x), r(b_int(x)))
    for x in [0, -3, 2**53 + 1, 2**63 - 1, 2.5]:
        print("float", repr(x), r(b_float(x)))
    for x in [0, 1, -1, 0.0, -0.0, 0.1, float("nan"), True, False]:
        print("bool", repr(x), r(b_bool(x)))
    for x in [-5, 0, 3, 10, 11, 2.5, -0.5]:
        print("clamp", repr(x), r(clamp(x, 0, 10)))
    print("abs_sum", r(abs_sum(np.array([-3, 4, -5, 2**31 - 1], dtype=np.int32))),
          r(abs_sum(np.array([-128, 127, -1], dtype=np.int8))),
          r(abs_sum(np.array([-1.5, 2.25, -0.0]))))
    print("min_max_elems", r(min_max_elems(np.array([3, -7, 12, 0], dtype=np.int16))),
          r(min_max_elems(np.array([0.5, -2.25, 8.0]))),
          r(min_max_elems(np.array([200, 3, 255, 0], dtype=np.uint8))))

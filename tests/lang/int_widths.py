# Integer widths as Numba types them: NumPy scalar arguments keep their type (np.int8,
# np.uint32, ...), arithmetic on them widens to 64 bits (signed if either side is signed),
# unification across branches (int32 with int32 stays int32 and wraps when stored back,
# int32 with uint32 gives int64, int64 with uint64 gives float64), and accumulators in small
# integer arrays.
from numba import njit
import numpy as np


@njit
def add1(x):
    return x + 1


@njit
def mul_same(x, y):
    return x * y


@njit
def pick(c, a, b):
    # a and b have different integer types: the result is their unification.
    if c:
        r = a
    else:
        r = b
    return r


@njit
def neg_unsigned(x):
    return -x


@njit
def shift_small(x, k):
    return x << k


@njit
def wrap_store(a, i, v):
    a[i] = v
    return a[i]


@njit
def count_to(x):
    # Counting in a loop whose bound is a small integer type.
    s = 0
    for i in range(x):
        s += i
    return s


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for xv in [np.int8(127), np.int16(-32768), np.int32(2**31 - 1), np.uint8(255),
              np.uint16(65535), np.uint32(2**32 - 1), np.int64(2**63 - 1), np.uint64(2**64 - 1)]:
        print("add1", type(xv).__name__, r(add1(xv)))
    for xv, yv in [(np.int8(100), np.int8(100)), (np.uint8(200), np.uint8(200)),
                 (np.int32(2**30), np.int32(4)), (np.uint32(2**31), np.uint32(2)),
                 (np.int16(-300), np.uint16(300)), (np.uint64(2**63), np.uint64(3))]:
        print("mul_same", type(xv).__name__, type(yv).__name__, r(mul_same(xv, yv)))
    cases = [(np.int32(-5), np.int32(7)), (np.int32(-5), np.uint32(7)),
             (np.int64(-5), np.uint64(7)), (np.uint8(250), np.int8(-3)),
             (np.int16(-1), np.uint16(1)), (np.uint32(3), np.uint64(4))]
    for av, bv in cases:
        print("pick", type(av).__name__, type(bv).__name__, r(pick(True, av, bv)),
              r(pick(False, av, bv)))
    for xv in [np.uint8(1), np.uint32(5), np.uint64(1), np.int8(-128)]:
        print("neg", type(xv).__name__, r(neg_unsigned(xv)))
    for xv, kv in [(np.int8(1), 7), (np.int8(1), 8), (np.uint8(255), 4), (np.int32(1), 40)]:
        print("shift_small", type(xv).__name__, kv, r(shift_small(xv, kv)))
    for dt in [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32]:
        av = np.zeros(2, dtype=dt)
        print("wrap_store", dt.__name__, r(wrap_store(av, 0, 70000)),
              r(wrap_store(av, 1, -1)), av.tolist())
    for xv in [np.int8(10), np.uint8(200), np.int16(-3), np.uint64(5)]:
        print("count_to", type(xv).__name__, r(count_to(xv)))

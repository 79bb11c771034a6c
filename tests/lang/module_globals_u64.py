# uint64 values beyond 2**63 at module level: a constant the compiled code reads (Numba freezes
# it as uint64; uint64 + int64 is int64 in Numba and wraps), and module variables named like
# a compiled function's parameters (x, n) that hold such values while the function is called.
from numba import njit
import numpy as np

BIGU = np.uint64(2**63 + 11)


@njit
def big_unsigned(n):
    return BIGU + n


@njit
def scaled_sum(x, n):
    s = 0
    for i in range(n):
        s += x * i
    return s


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for n in [0, 1, -11, 2**62]:
        print("big_unsigned", n, r(big_unsigned(n)))
    for x, n in [(np.uint64(2**63 + 1), 3), (2.5, 4), (7, np.uint64(2**64 - 1))]:
        print("loop value", type(x).__name__, type(n).__name__, r(scaled_sum(3, 4)))

# Comparisons of uint64 with signed integers and bool (found by tests/fuzz/progfuzz.py, seed 3,
# program 42): Numba compares them as float64 (no integer type holds both), so a uint64 of
# 2**63 or more is greater than any int64 and 2**53 + 1 equals 2**53; numjit compared them as
# int64 and got a wrapped uint64 "negative".
import numpy as np
from numba import njit


@njit
def ge(x, k):
    return x >= k


@njit
def lt(x, k):
    return x < k


@njit
def eq(x, k):
    return x == k


@njit
def ne(x, k):
    return x != k


@njit
def fuzz_s3_42(p0, p1):
    acc2 = 0
    for i3 in range((9223372036854775806), (9223372036854775802), (-2)):
        acc2 = acc2 + np.int64(((np.uint64(27) - p0[-2]) >= p1.shape[0]))
    return (acc2,)


if __name__ == "__main__":
    big = np.uint64(2**64 - 5)
    print(ge(big, 1), lt(big, 1), eq(big, -5), ne(big, -5))
    print(ge(np.uint64(2**63), -1), lt(np.int64(-1), np.uint64(3)), lt(np.uint64(3), np.int64(-1)))
    print(eq(np.uint64(2**63), -2**63), eq(np.uint64(2**53 + 1), np.int64(2**53)))
    print(ge(big, np.int8(1)), ge(big, True), eq(big, np.int8(-5)), ge(big, np.uint8(3)))
    print(ge(np.uint32(4000000000), np.int32(-1)), lt(np.uint32(4000000000), np.int64(-1)))
    a = np.array([25, 2, 128, 32], dtype=np.uint8)
    print(fuzz_s3_42(a[::-2], np.zeros((1, 1, 2))), fuzz_s3_42(a, np.zeros((1, 1, 2))))

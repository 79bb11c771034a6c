# Signature strings with a trailing comma (found by tests/fuzz/progfuzz.py, seed 12): Numba
# evaluates a signature as a Python tuple, so a one-argument signature is written "(int64,)"
# and "(int64, float32,)" is the same as "(int64, float32)"; numjit refused both.
import numpy as np
from numba import njit


@njit("(int64,)")
def one(x):
    return x * 2


@njit("(int64, float32,)")
def two(x, y):
    return x + y


@njit("(float64[:, :], uint64 ,  )")
def arr(a, k):
    return a.sum() * k


if __name__ == "__main__":
    print(one(21), two(1, np.float32(0.5)), arr(np.ones((2, 3)), np.uint64(2)))

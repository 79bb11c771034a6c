# np.convolve(a, v) and np.correlate(a, v) of 1-d arrays: float64, int64, int32 with float64,
# booleans, float32 holding small integers (exact in any order of summation); the longer array
# first or second (Numba swaps them, and correlate then writes its result backwards); lengths
# 1 and equal; strided and reversed views; an empty argument (ValueError).
from numba import njit
import numpy as np


@njit
def convolve(a, v):
    return np.convolve(a, v)


@njit
def correlate(a, v):
    return np.correlate(a, v)


def show(v):
    print(type(v).__name__, v.dtype, v.shape, v.tolist())


if __name__ == "__main__":
    pairs = [
        (np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])),
        (np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([2.0, -1.0])),
        (np.array([2.0, -1.0]), np.array([1.0, 2.0, 3.0, 4.0, 5.0])),
        (np.array([3.0]), np.array([1.5, 2.5, -4.0])),
        (np.array([1.25, 2.5, 0.75]), np.array([4.0])),
        (np.arange(6), np.array([1, -2, 3])),
        (np.array([1, 2, 3], dtype=np.int32), np.array([0.5, 0.25])),
        (np.array([True, False, True]), np.array([True, True])),
        (np.array([1, 2, 3], dtype=np.uint8), np.array([200, 100], dtype=np.uint8)),
        (np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32), np.array([1.0, -1.0], dtype=np.float32)),
        (np.arange(10.0)[::3], np.arange(4.0)[::-1]),
    ]
    for a, v in pairs:
        show(convolve(a, v))
        show(correlate(a, v))
    for a, v in ((np.zeros(0), np.ones(2)), (np.ones(2), np.zeros(0))):
        for f in (convolve, correlate):
            try:
                f(a, v)
            except ValueError:
                print("ValueError")

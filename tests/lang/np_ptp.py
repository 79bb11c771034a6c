# np.ptp(a) and a.ptp(): the range of an array's values for integer and float arrays of one and
# more dimensions and any layout, the result's type (a float32 array's range is a float64, an
# int32 array's an int), a nan anywhere (the answer is nan), infinities, and the ValueError of
# an empty array.
from numba import njit
import numpy as np


@njit
def ptp(a):
    return np.ptp(a)


@njit
def ptp_method(a):
    return a.ptp()


@njit
def ptp_keyword(a):
    return np.ptp(a=a)


def show(v):
    print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    show(ptp(np.array([3.0, -1.5, 7.25, 2.0])))
    show(ptp(np.array([5.0])))
    show(ptp(np.array([4, -9, 12, 0], dtype=np.int64)))
    show(ptp(np.array([4, -9, 12, 0], dtype=np.int32)))
    show(ptp(np.array([200, 3, 17], dtype=np.uint8)))
    show(ptp(np.array([7, 2, 9], dtype=np.uint32)))
    show(ptp(np.array([7, 2, 9], dtype=np.uint64)))
    show(ptp(np.array([-128, 127, 0], dtype=np.int8)))
    show(ptp(np.array([0.1, 0.7, -0.3], dtype=np.float32)))
    show(ptp(np.array([1.0, np.nan, 3.0])))
    show(ptp(np.array([np.nan, 1.0])))
    show(ptp(np.array([1.0, np.inf, -2.0])))
    show(ptp(np.array([-np.inf, np.inf])))
    m = np.arange(12.0).reshape(3, 4) ** 2 - 20.0
    show(ptp(m))
    show(ptp(m.T))
    show(ptp(m[:, ::2]))
    show(ptp(np.arange(24).reshape(2, 3, 4)))
    show(ptp_method(np.array([2.5, -4.0, 1.0])))
    show(ptp_method(np.arange(10, 0, -3)))
    show(ptp_keyword(np.array([1.0, 9.0])))
    try:
        ptp(np.zeros(0))
    except ValueError:
        print("ValueError")

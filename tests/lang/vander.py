# np.vander in @njit functions: N left out, given, 0 and larger than len(x); increasing by
# position and keyword; x of int64, int8, bool, uint64, float32, float64 and complex128 (the
# result's dtype NumPy's promotion with int), strided x; ValueError for a negative N and for a
# 2-d x, raised at run time as Numba raises them.
import numpy as np
from numba import njit


@njit
def vander(x):
    return np.vander(x)


@njit
def vander_n(x, n):
    return np.vander(x, n)


@njit
def vander_inc(x, n, inc):
    return np.vander(x, n, inc)


@njit
def vander_kw(x):
    return np.vander(x, increasing=True)


@njit
def vander_nkw(x, n):
    return np.vander(x, N=n, increasing=False)


def show(v):
    print(type(v).__name__, v.dtype, v.shape, v.tolist())


if __name__ == "__main__":
    x = np.array([1, 2, 3, 5])
    show(vander(x))
    show(vander_n(x, 2))
    show(vander_n(x, 0))
    show(vander_n(x, 6))
    show(vander_inc(x, 3, True))
    show(vander_inc(x, 3, False))
    show(vander_kw(x))
    show(vander_nkw(x, 3))
    show(vander(np.array([1, -2, 3], dtype=np.int8)))
    show(vander(np.array([True, False, True])))
    show(vander(np.array([1, 2, 7], dtype=np.uint64)))
    show(vander(np.array([0.5, 1.5, -2.25], dtype=np.float32)))
    show(vander_inc(np.array([0.1, 0.2, 0.3, 1e3]), 5, True))
    show(vander(np.array([1 + 2j, 0.5 - 1j])))
    show(vander(np.arange(10.0)[::3]))
    show(vander(np.zeros(0)))
    for n in (-1, -5):
        try:
            vander_n(x, n)
        except ValueError as e:
            print("ValueError:", e)
    try:
        vander(np.ones((2, 2)))
    except ValueError as e:
        print("ValueError:", e)

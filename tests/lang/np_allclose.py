# np.allclose of two arrays (same shape, broadcast 1-d against 2-d, strided), an array and a
# number, two numbers; float64, float32, integer and boolean inputs; NaN (equal_nan False and
# True), infinities of either sign, rtol and atol given by position and by keyword (Numba 0.56
# needs rtol, atol and equal_nan written out: errors/allclose_defaults.py); empty arrays
# (True); a shape that does not broadcast (ValueError).
from numba import njit
import numpy as np


@njit
def close(a, b):
    return np.allclose(a, b, 1e-05, 1e-08, False)


@njit
def close_tol(a, b, rtol, atol):
    return np.allclose(a, b, rtol, atol, False)


@njit
def close_kw(a, b):
    return np.allclose(a, b, rtol=0.0, atol=0.5, equal_nan=True)


@njit
def close_nan(a, b, equal_nan):
    return np.allclose(a, b, 1e-05, 1e-08, equal_nan=equal_nan)


def show(v):
    print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    nan, inf = np.nan, np.inf
    x = np.array([1.0, 2.0, 3.0])
    show(close(x, x + 1e-9))
    show(close(x, x + 1e-3))
    show(close(x, x * (1 + 1e-6)))
    show(close(np.array([1e-9, 0.0]), np.array([0.0, 1e-9])))
    show(close(np.array([1.0, nan]), np.array([1.0, nan])))
    show(close_nan(np.array([1.0, nan]), np.array([1.0, nan]), True))
    show(close_nan(np.array([1.0, nan]), np.array([1.0, 1.0]), True))
    show(close(np.array([inf, -inf]), np.array([inf, -inf])))
    show(close(np.array([inf]), np.array([-inf])))
    show(close(np.array([inf]), np.array([1e308])))
    show(close(np.arange(6.0).reshape(2, 3), np.array([0.0, 1.0, 2.0])))
    show(close(np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]), np.arange(3.0)))
    show(close(np.arange(12.0).reshape(3, 4)[:, ::2], np.array([[0.0, 2.0], [4.0, 6.0], [8.0, 10.0]])))
    show(close(np.arange(12.0).reshape(3, 4).T, np.arange(12.0).reshape(3, 4).T.copy()))
    show(close(np.array([1, 2, 3]), np.array([1, 2, 3])))
    show(close(np.array([1, 2, 3], dtype=np.int32), np.array([1, 2, 4], dtype=np.int32)))
    show(close(np.array([100, 120], dtype=np.int8), np.array([100, 120], dtype=np.int8)))
    show(close(np.array([True, False]), np.array([True, True])))
    show(close(np.array([0.1, 0.2], dtype=np.float32), np.array([0.1, 0.2000001], dtype=np.float32)))
    show(close(x, 2.0))
    show(close(np.full(3, 2.0), 2.0))
    show(close(2.0, np.full(3, 2.0 + 1e-10)))
    show(close(1.0, 1.0 + 1e-9))
    show(close(1.0, nan))
    show(close(3, 3))
    show(close_tol(x, x + 0.01, 0.0, 0.02))
    show(close_tol(x, x + 0.01, 0.0, 0.001))
    show(close_tol(np.array([100.0]), np.array([101.0]), 0.01, 0.0))
    show(close_kw(np.array([1.0, nan]), np.array([1.4, nan])))
    show(close(np.zeros(0), np.zeros(0)))
    try:
        close(np.zeros(3), np.zeros(4))
    except ValueError:
        print("ValueError")

# type(x) of a number in compiled code is its class, called as a constructor: a constant of
# x's own type, as numba-stats writes `inv_scale = type(scale)(1) / scale` so that float32
# arguments keep float32 arithmetic.
import numpy as np
from numba import njit, float32, float64


@njit([float32(float32[:], float32, float32), float64(float64[:], float64, float64)])
def trans_first(x, loc, scale):
    inv_scale = type(scale)(1) / scale
    return (x[0] - loc) * inv_scale


@njit
def same_type(v, w):
    return type(v)(w)


@njit
def one_like(v):
    return type(v)(1)


@njit
def zero_sum(a):
    acc = type(a[0])(0)
    for x in a:
        acc += x
    return acc


@njit
def logpdf1(z):
    T = type(z)
    return -T(0.5) * (z * z + T(np.log(2 * np.pi)))


@njit
def class_in_variable(n):
    T = np.float32
    acc = T(0)
    for i in range(n):
        acc += T(i) / T(3)
    return acc


if __name__ == "__main__":
    for dt in (np.float32, np.float64):
        r = trans_first(np.array([1.0, 2.0], dtype=dt), dt(0.0), dt(3.0))
        print(type(r).__name__, repr(r))
    for v, w in ((np.int32(7), 2.9), (np.uint8(3), 300), (np.float32(1.5), 2.25),
                 (2.5, 7), (True, 0), (False, 3.0), (np.int64(-4), -2.7),
                 (np.complex64(1 + 2j), 3.5), (1j, 2)):
        r = same_type(v, w)
        print(type(v).__name__, type(r).__name__, repr(r))
    for v in (np.int16(9), np.float32(2.0), 3, 4.5, np.complex128(2j), True):
        r = one_like(v)
        print(type(r).__name__, repr(r))
    for dt in (np.int8, np.int64, np.float32, np.float64):
        r = zero_sum(np.arange(5, dtype=dt))
        print(np.dtype(dt).name, type(r).__name__, repr(r))
    for z in (np.float32(0.25), 0.25, np.float32(-1.5)):
        r = logpdf1(z)
        print(type(r).__name__, repr(r))
    r = class_in_variable(4)
    print(type(r).__name__, repr(r))

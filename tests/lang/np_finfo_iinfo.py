# np.finfo(X).attr and np.iinfo(X).attr: X a scalar type (np.float32, np.int8 ... np.uint64),
# a.dtype, an array or a number; every attribute Numba 0.56 has, with its type (finfo's eps,
# max, min, tiny, resolution and epsneg are numbers of the float type, the others ints;
# iinfo(np.uint64).max is 2**64-1); complex types give their float part's limits; the values
# used in arithmetic (a tolerance, a clamp to the integer range).
from numba import njit
import numpy as np


@njit
def finfo32():
    return (np.finfo(np.float32).eps, np.finfo(np.float32).epsneg, np.finfo(np.float32).max,
            np.finfo(np.float32).min, np.finfo(np.float32).resolution,
            np.finfo(np.float32).tiny, np.finfo(np.float32).bits, np.finfo(np.float32).iexp,
            np.finfo(np.float32).machep, np.finfo(np.float32).maxexp,
            np.finfo(np.float32).minexp, np.finfo(np.float32).negep, np.finfo(np.float32).nexp,
            np.finfo(np.float32).nmant, np.finfo(np.float32).precision)


@njit
def finfo64():
    return (np.finfo(np.float64).eps, np.finfo(np.float64).epsneg, np.finfo(np.float64).max,
            np.finfo(np.float64).min, np.finfo(np.float64).resolution,
            np.finfo(np.float64).tiny, np.finfo(np.float64).bits, np.finfo(np.float64).iexp,
            np.finfo(np.float64).machep, np.finfo(np.float64).maxexp,
            np.finfo(np.float64).minexp, np.finfo(np.float64).negep,
            np.finfo(np.float64).nexp, np.finfo(np.float64).nmant,
            np.finfo(np.float64).precision)


@njit
def of_array(a):
    return np.finfo(a.dtype).eps, np.finfo(a).max, np.finfo(a.dtype).bits


@njit
def of_number(x):
    return np.finfo(x).tiny, np.finfo(x).eps


@njit
def complex_limits():
    return np.finfo(np.complex64).eps, np.finfo(np.complex128).max


@njit
def iinfo_all():
    return (np.iinfo(np.int8).min, np.iinfo(np.int8).max, np.iinfo(np.int8).bits,
            np.iinfo(np.int16).min, np.iinfo(np.int16).max, np.iinfo(np.int32).min,
            np.iinfo(np.int32).max, np.iinfo(np.int64).min, np.iinfo(np.int64).max,
            np.iinfo(np.int64).bits)


@njit
def uinfo_all():
    return (np.iinfo(np.uint8).min, np.iinfo(np.uint8).max, np.iinfo(np.uint16).max,
            np.iinfo(np.uint32).max, np.iinfo(np.uint64).min, np.iinfo(np.uint64).max,
            np.iinfo(np.uint64).bits)


@njit
def iinfo_of(a, x):
    return np.iinfo(a.dtype).max, np.iinfo(a).min, np.iinfo(x).max


@njit
def close(a, b):
    tol = 4 * np.finfo(a.dtype).eps
    return abs(a[0] - b[0]) <= tol * max(abs(a[0]), abs(b[0]))


@njit
def clamp_to(a, out):
    lo = np.iinfo(out.dtype).min
    hi = np.iinfo(out.dtype).max
    for i in range(a.size):
        out[i] = min(max(a[i], lo), hi)
    return out


def show(v):
    if isinstance(v, tuple):
        print("(" + ", ".join(type(x).__name__ + ":" + repr(x) for x in v) + ")")
    elif isinstance(v, np.ndarray):
        print(type(v).__name__, v.dtype, v.shape, v.tolist())
    else:
        print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    show(finfo32())
    show(finfo64())
    show(of_array(np.zeros(2, np.float32)))
    show(of_array(np.zeros((2, 2))))
    show(of_number(2.5))
    show(of_number(np.float32(2.5)))
    show(complex_limits())
    show(iinfo_all())
    show(uinfo_all())
    show(iinfo_of(np.zeros(2, np.int16), np.uint8(3)))
    show(iinfo_of(np.zeros(2, np.uint32), 7))
    show(close(np.array([1.0]), np.array([1.0 + 2e-16])))
    show(close(np.array([1.0], np.float32), np.array([1.001], np.float32)))
    show(clamp_to(np.array([-300, 5, 1000]), np.zeros(3, np.int8)))
    show(clamp_to(np.array([-3, 70000]), np.zeros(2, np.uint16)))

# np.nansum, np.nanprod, np.nanmin, np.nanmax, np.nanmean, np.nanvar, np.nanstd, np.nancumsum
# and np.nancumprod of whole arrays: float64, float32, integer and boolean dtypes; NaN at the
# start, in the middle, everywhere; infinities; -0.0 against 0.0 (Numba's comparison keeps the
# later one); 2-d, Fortran-ordered and strided inputs; empty arrays (nan, 0, or ValueError as
# Numba gives); the result's type.
from numba import njit
import numpy as np


@njit
def nansum(a):
    return np.nansum(a)


@njit
def nanprod(a):
    return np.nanprod(a)


@njit
def nanmin(a):
    return np.nanmin(a)


@njit
def nanmax(a):
    return np.nanmax(a)


@njit
def nanmean(a):
    return np.nanmean(a)


@njit
def nanvar(a):
    return np.nanvar(a)


@njit
def nanstd(a):
    return np.nanstd(a)


@njit
def nancumsum(a):
    return np.nancumsum(a)


@njit
def nancumprod(a):
    return np.nancumprod(a)


@njit
def keyword(a):
    return np.nansum(a=a) + np.nanmax(a=a)


def show(v):
    if isinstance(v, np.ndarray):
        print(type(v).__name__, v.dtype, v.shape, v.tolist())
    else:
        print(type(v).__name__ + ":" + repr(v))


SCALARS = (nansum, nanprod, nanmin, nanmax, nanmean, nanvar, nanstd)

if __name__ == "__main__":
    nan = np.nan
    inputs = [
        np.array([1.5, nan, -2.25, 4.0]),
        np.array([nan, 3.0, 1.0]),
        np.array([nan, nan]),
        np.array([2.0, np.inf, nan, -1.0]),
        np.array([0.0, -0.0, nan]),
        np.array([-0.0, 0.0]),
        np.array([0.1, nan, 0.7, 0.2], dtype=np.float32),
        np.array([3, -1, 7, 2], dtype=np.int32),
        np.array([200, 100, 3], dtype=np.uint8),
        np.array([5, 4, 3, 2, 1], dtype=np.int64),
        np.array([True, False, True]),
        np.array([[1.0, nan, 3.0], [nan, 5.0, -6.0]]),
        np.asfortranarray(np.array([[1.0, nan, 3.0], [nan, 5.0, -6.0]])),
        np.arange(12.0).reshape(3, 4)[:, ::2],
        np.arange(6, dtype=np.int16).reshape(2, 3).T,
    ]
    for a in inputs:
        for f in SCALARS:
            show(f(a))
        show(nancumsum(a))
        show(nancumprod(a))
    empty = np.zeros(0)
    for f in (nansum, nanprod, nanmean, nanvar, nanstd):
        show(f(empty))
    show(nansum(np.zeros((0, 3), dtype=np.int32)))
    show(nancumsum(empty))
    show(nancumprod(np.zeros(0, dtype=np.int32)))
    for f in (nanmin, nanmax):
        try:
            f(empty)
        except ValueError:
            print("ValueError")
    show(keyword(np.array([1.0, nan, 2.0])))

# The nan-reductions of complex arrays, as Numba 0.56 has them: nansum, nanprod, nancumsum,
# nancumprod (a complex element is nan when either part is), nanmin and nanmax (ordered by the
# real part, then the imaginary part), nanmean (complex128), nanvar and nanstd (float64),
# complex64 and complex128, 1-d and 2-d, all-nan arrays and the empty-array ValueError.
import numpy as np
from numba import njit


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


def show(name, x):
    if isinstance(x, np.ndarray):
        print(name, type(x).__name__, x.dtype, x.shape, [repr(complex(v)) for v in x.ravel()])
    else:
        print(name, type(x).__name__, repr(x))


if __name__ == "__main__":
    nan = np.nan
    data = [
        np.array([1 + 2j, nan + 1j, 3 - 1j, 2 + nan * 1j, -0.5 + 0.25j]),
        np.array([2 + 1j, 2 - 1j, 1 + 5j, 2 + 3j]),
        np.array([[1.5 + 0.5j, nan], [0.25 - 2j, 4 + 0j]]),
        np.array([nan + 0j, nan * 1j]),
        np.array([nan + 1j, 3 + 1j, 1 + 0j]),
    ]
    for a in data:
        for x in (a, a.astype(np.complex64)):
            for name, f in (("nansum", nansum), ("nanprod", nanprod), ("nanmin", nanmin),
                            ("nanmax", nanmax), ("nanmean", nanmean), ("nanvar", nanvar),
                            ("nanstd", nanstd), ("nancumsum", nancumsum),
                            ("nancumprod", nancumprod)):
                show(name, f(x))
    for f in (nanmin, nanmax):
        try:
            f(np.zeros(0, np.complex128))
        except ValueError as e:
            print("ValueError", str(e).splitlines()[0].split("ValueError: ")[-1])

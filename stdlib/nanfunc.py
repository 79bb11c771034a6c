# nanfunc.py — the loops of NumPy's nan-skipping reductions (np.nansum, nanprod, nanmin, nanmax,
# nanmean, nanvar, nanstd, nancumsum, nancumprod) for real and complex arrays, in numjit's own
# language, computing what Numba 0.56 computes (numba/np/arraymath.py).  lib/nanfunc.c types each
# call and calls these functions; the library joins every module that imports numpy, beside
# npfunc.py (frontend/module.c).
import numpy as _nj_np

# ---- np.nansum, nanprod, nanmin, nanmax, nanmean, nanvar, nanstd, nancumsum, nancumprod ------
# Numba's np_nan* (arraymath.py): every element in C order, the nan ones skipped (`v == v` is
# false only for nan, and always true for an integer, as Numba's isnan of an integer is False).
# nansum and nanprod start from c, a zero or one of the result's type that lib/ndarray.c passes
# (int64 for an integer array, else the array's dtype), and so do nancumsum and nancumprod of a
# float array (those of an integer array are np.cumsum and np.cumprod, as in Numba); nanmin and nanmax keep Numba's
# comparison, which replaces the value kept when the new one is not strictly on its side
# (nanmin(0.0, -0.0) is -0.0; an all-nan array gives nan); nanmean and nanvar add in float64
# and give nan where nothing is counted (Numba's np.divide of 0.0 by 0).  lib/ndarray.c raises
# for an empty array where Numba does (nanmin, nanmax).
def _nj_np_nansum(a, c):
    f = a.ravel()
    for i in range(f.size):
        v = f[i]
        if v == v:
            c += v
    return c


def _nj_np_nanprod(a, c):
    f = a.ravel()
    for i in range(f.size):
        v = f[i]
        if v == v:
            c *= v
    return c


def _nj_np_nanmin(a):
    f = a.ravel()
    r = f[0]
    for i in range(1, f.size):
        v = f[i]
        if v == v:
            if not r < v:
                r = v
    return r


def _nj_np_nanmax(a):
    f = a.ravel()
    r = f[0]
    for i in range(1, f.size):
        v = f[i]
        if v == v:
            if not r > v:
                r = v
    return r


def _nj_np_nanmean(a):
    f = a.ravel()
    c = 0.0
    count = 0
    for i in range(f.size):
        v = f[i]
        if v == v:
            c += v
            count += 1
    if count == 0:
        return _nj_np.nan
    return c / count


def _nj_np_nanvar(a):
    m = _nj_np_nanmean(a)
    f = a.ravel()
    ssd = 0.0
    count = 0
    for i in range(f.size):
        v = f[i]
        if v == v:
            d = v - m
            ssd += d * d
            count += 1
    if count == 0:
        return _nj_np.nan
    return ssd / count


def _nj_np_nanstd(a):
    return _nj_np_nanvar(a) ** 0.5


def _nj_np_nancumsum(a, c):
    f = a.ravel()
    out = _nj_np.empty(f.size, f.dtype)
    for i in range(f.size):
        v = f[i]
        if v == v:
            c += v
        out[i] = c
    return out


def _nj_np_nancumprod(a, c):
    f = a.ravel()
    out = _nj_np.empty(f.size, f.dtype)
    for i in range(f.size):
        v = f[i]
        if v == v:
            c *= v
        out[i] = c
    return out


# Complex arrays (Numba's complex forms): a complex element is nan when either part is, which
# `v == v` tests as well.  nanmin and nanmax order by the real part, then the imaginary part,
# and replace a kept value whose real part is nan; nanmean adds into complex128; nanvar sums
# |v - mean|^2 in float64.
def _nj_np_nanmin_c(a):
    f = a.ravel()
    r = f[0]
    for i in range(1, f.size):
        v = f[i]
        if _nj_np.isnan(r.real) and not _nj_np.isnan(v.real):
            r = v
        elif v.real < r.real:
            r = v
        elif v.real == r.real:
            if v.imag < r.imag:
                r = v
    return r


def _nj_np_nanmax_c(a):
    f = a.ravel()
    r = f[0]
    for i in range(1, f.size):
        v = f[i]
        if _nj_np.isnan(r.real) and not _nj_np.isnan(v.real):
            r = v
        elif v.real > r.real:
            r = v
        elif v.real == r.real:
            if v.imag > r.imag:
                r = v
    return r


def _nj_np_nanmean_c(a):
    f = a.ravel()
    c = 0j
    count = 0
    for i in range(f.size):
        v = f[i]
        if v == v:
            c += v
            count += 1
    if count == 0:
        return complex(_nj_np.nan, _nj_np.nan)
    return c / count


def _nj_np_nanvar_c(a):
    m = _nj_np_nanmean_c(a)
    f = a.ravel()
    ssd = 0.0
    count = 0
    for i in range(f.size):
        v = f[i]
        if v == v:
            d = v - m
            ssd += d.real * d.real + d.imag * d.imag
            count += 1
    if count == 0:
        return _nj_np.nan
    return ssd / count


def _nj_np_nanstd_c(a):
    return _nj_np_nanvar_c(a) ** 0.5

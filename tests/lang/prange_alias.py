# numba.prange (and range) reached through another global name, as numba-stats imports
# `from ._util import _prange` after _util did `from numba import prange as _prange`.
import numpy as np
import numba
from numba import njit

_p = numba.prange
_r = range


@njit(parallel=True)
def total(a):
    s = 0.0
    for i in _p(len(a)):
        s += a[i]
    return s


@njit
def squares(n):
    out = np.empty(n, dtype=np.int64)
    for i in _r(n):
        out[i] = i * i
    return out


if __name__ == "__main__":
    r = total(np.arange(10.0))
    print(type(r).__name__, r)
    r = squares(5)
    print(r.dtype, r)

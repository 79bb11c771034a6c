# A generated_jit function whose default is None, left out or passed (quantecon's
# random.draw(cdf, size=None)): the generator sees the type `none` and picks the scalar
# implementation; an integer size picks the array one.  numba.typeof(None) is `none`.
import numpy as np
import numba
from numba import generated_jit, njit, types


@njit
def searchsorted(a, v):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] <= v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@generated_jit(nopython=True)
def draw(cdf, size=None):
    if isinstance(size, types.Integer):
        def impl(cdf, size):
            out = np.empty(size, dtype=np.int_)
            for i in range(size):
                out[i] = searchsorted(cdf, (i + 0.5) / size)
            return out
    else:
        def impl(cdf, size):
            return searchsorted(cdf, 0.5)
    return impl


if __name__ == "__main__":
    print(numba.typeof(None))
    cdf = np.cumsum([0.2, 0.3, 0.5])
    r = draw(cdf)
    print(type(r).__name__, r)
    r = draw(cdf, None)
    print(type(r).__name__, r)
    r = draw(cdf, 4)
    print(r.dtype, r.shape, r)
    r = draw(cdf, size=6)
    print(r.dtype, r.shape, r)

# @overload of NumPy functions that neither compiler has (np.heaviside, np.isin): compiled
# code calling np.NAME, and `from numpy import NAME`, use the program's implementation.
import numpy as np
from numpy import isin
from numba import njit, types
from numba.extending import overload


@overload(np.heaviside)
def heaviside_typing(x, h0):
    if isinstance(x, types.Float):
        def impl(x, h0):
            if x < 0:
                return 0.0
            return h0 if x == 0 else 1.0
        return impl
    if isinstance(x, types.Array):
        def impl(x, h0):
            out = np.empty(x.shape)
            for i in range(x.size):
                v = x.flat[i]
                out.flat[i] = 0.0 if v < 0 else (h0 if v == 0 else 1.0)
            return out
        return impl


@overload(np.isin)
def isin_typing(a, b):
    if isinstance(a, types.Array) and isinstance(b, types.Array):
        def impl(a, b):
            out = np.zeros(a.shape, dtype=np.bool_)
            for i in range(a.size):
                for j in range(b.size):
                    if a.flat[i] == b.flat[j]:
                        out.flat[i] = True
                        break
            return out
        return impl


@njit
def steps(x, a):
    return np.heaviside(x, 0.5), np.heaviside(a, 0.5)


@njit
def members(a, b):
    return isin(a, b), np.isin(b, a)


if __name__ == "__main__":
    for x in (-1.0, 0.0, 2.5):
        r = steps(x, np.array([-2.0, 0.0, 3.0]))
        print(type(r[0]).__name__, r[0], r[1].tolist())
    r = members(np.array([1, 5, 7, 2]), np.array([2, 3, 5]))
    print(r[0].tolist(), r[0].dtype, r[1].tolist())

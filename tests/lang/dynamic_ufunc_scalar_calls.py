# A dynamic @vectorize (no signatures, nopython=True or bare) called on scalars from compiled
# code: from a @vectorize with signatures (target 'cpu' and 'parallel') and from @njit, as
# published option-pricing kernels call a cumulative normal written as its own ufunc.  The
# dynamic ufunc is also called from Python on arrays (ramp's int loop before compiled code
# calls it with a float: Numba then adds that loop to the ufunc, numjit does not).
import math
import numpy as np
import numba
from numba import njit, vectorize


@numba.vectorize(nopython=True)
def cnd(x):
    return 0.5 + 0.5 * math.erf(x / math.sqrt(2.0))


@vectorize
def ramp(x, k):
    return x * k if x > 0 else 0 * k


@vectorize("f8(f8, f8)", target="parallel")
def spread(a, b):
    return cnd(a) - cnd(b)


@vectorize(["f8(f8)", "f4(f4)"])
def tail(x):
    return 1.0 - cnd(x)


@njit
def mixed(x, n):
    s = 0.0
    for i in range(n):
        s += cnd(x + i) + ramp(x - i, i)
    return s


if __name__ == "__main__":
    x = np.linspace(-2.0, 2.0, 5)
    print("cnd python", cnd(x).tolist())
    r = spread(x, x[::-1])
    print("spread", r.dtype, r.tolist())
    t = tail(x.astype(np.float32))
    print("tail f4", t.dtype, t.tolist())
    print("tail f8", tail(x).tolist())
    print("ramp python", ramp(np.arange(4), 3).tolist(), ramp(np.arange(4), 3).dtype)
    m = mixed(0.25, 4)
    print("mixed", type(m).__name__, repr(m))
    print("cnd scalar", repr(cnd(0.5)))

# C functions given by address and called from compiled code: Numba's WrapperAddressProtocol
# over SciPy's Cython special functions (scipy.special.cython_special), as numba-stats
# wraps ndtri, gammaincc, stdtr and betainc; arguments are converted to the declared types.
import numpy as np
from numba import njit
from numba.extending import get_cython_function_address
from numba.types import WrapperAddressProtocol, float64


def wrap(name, sig):
    addr = get_cython_function_address("scipy.special.cython_special", name)
    cls = type(name, (WrapperAddressProtocol,),
               {"__wrapper_address__": lambda self: addr, "signature": lambda self: sig})
    return cls()


ndtri = wrap("ndtri", float64(float64))
gammaincc = wrap("gammaincc", float64(float64, float64))
betainc = wrap("betainc", float64(float64, float64, float64))


@njit
def ppf(p):
    T = type(p)
    return T(ndtri(p))


@njit
def poisson_cdf(k, mu):
    r = np.empty(len(k))
    for i in range(len(k)):
        r[i] = gammaincc(k[i] + 1.0, mu)
    return r


@njit
def mixed(a, b, x):
    return betainc(a, b, x) + ndtri(0.5) + gammaincc(2, 1)


if __name__ == "__main__":
    for p in (0.5, 0.975, 0.001, np.float32(0.8)):
        r = ppf(p)
        print(type(r).__name__, repr(r))
    r = poisson_cdf(np.arange(5.0), 2.5)
    print(r.dtype, r.shape, np.round(r, 12))
    r = poisson_cdf(np.arange(3), 0.5)
    print(r.dtype, np.round(r, 12))
    r = mixed(2.0, 3.0, np.float32(0.25))
    print(type(r).__name__, round(r, 12))
    r = mixed(2, 3, 0.75)
    print(type(r).__name__, round(r, 12))

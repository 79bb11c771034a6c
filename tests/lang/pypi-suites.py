# Names of Numba's Python API that published libraries touch at import, found by running their
# test suites (tests/pypi): numba.extending.get_cython_function_address (the address of a
# function a Cython module exports, e.g. scipy.special.cython_special's, for ctypes) and
# numba.types.WrapperAddressProtocol (numba-stats subclasses it at import to wrap those).
import ctypes

import numpy as np
from numba import njit
from numba.extending import get_cython_function_address
from numba.types import WrapperAddressProtocol, float64


@njit
def scaled(x, k):
    return x * k


if __name__ == "__main__":
    addr = get_cython_function_address("scipy.special.cython_special", "ndtri")
    print(type(addr).__name__, addr > 0)
    ndtri = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(addr)
    for p in (0.5, 0.975, 0.001):
        print(repr(ndtri(p)))
    binary = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_double)
    gammaincc = binary(get_cython_function_address("scipy.special.cython_special", "gammaincc"))
    print(repr(gammaincc(2.0, 1.5)))
    print(repr(scaled(np.float64(ndtri(0.975)), 2.0)))
    for mod, name in (("scipy.special.cython_special", "no_such_function"),
                      ("scipy.special.cython_special", "")):
        try:
            get_cython_function_address(mod, name)
        except ValueError as e:
            print("ValueError:", e)
    try:
        get_cython_function_address("math", "sqrt")
    except AttributeError as e:
        print("AttributeError:", type(e).__name__)
    try:
        get_cython_function_address("no_such_module_anywhere", "f")
    except ImportError as e:
        print(type(e).__name__)

    class Ndtri(WrapperAddressProtocol):
        def __wrapper_address__(self):
            return addr

        def signature(self):
            return float64(float64)

    w = Ndtri()
    print(w.__wrapper_address__() == addr, str(w.signature()), isinstance(w, WrapperAddressProtocol))
    try:
        WrapperAddressProtocol()
    except TypeError as e:
        print("TypeError:", e)

    class Half(WrapperAddressProtocol):
        def signature(self):
            return float64(float64)
    try:
        Half()
    except TypeError as e:
        print("TypeError:", e)

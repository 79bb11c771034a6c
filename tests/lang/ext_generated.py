# A @generated_jit function called from @njit code: the generator sees the argument types and
# returns the implementation compiled for them (as @overload does); and the same function
# called from Python.
import numpy as np
from numba import njit, generated_jit, types


@generated_jit(nopython=True)
def norm1(x):
    if isinstance(x, types.Array):
        def impl(x):
            s = 0.0
            for v in x.flat:
                s += abs(v)
            return s
        return impl
    if isinstance(x, types.Complex):
        def impl(x):
            return abs(x.real) + abs(x.imag)
        return impl

    def impl(x):
        return abs(x)
    return impl


@njit
def total(a, z, k):
    return norm1(a) + norm1(z) + norm1(k)


@njit
def twice(a):
    return norm1(a) * 2


if __name__ == "__main__":
    r = total(np.array([1.5, -2.0, 3.0]), 3 - 4j, -7)
    print(type(r).__name__, r)
    r = twice(np.arange(-3, 3).reshape(2, 3))
    print(type(r).__name__, r)
    r = twice(np.int32(-5))
    print(type(r).__name__, r)
    print(type(norm1(-2.5)).__name__, norm1(-2.5))

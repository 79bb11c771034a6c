# expect error: 18:12: No implementation of method 'doubled' of array(int64, 1d, C)
# An @overload_method that declines for the array's dtype.
import numpy as np
from numba import njit, types
from numba.extending import overload_method


@overload_method(types.Array, "doubled")
def doubled_typing(a):
    if isinstance(a.dtype, types.Float):
        def impl(a):
            return a * 2.0
        return impl


@njit
def f(a):
    return a.doubled()


if __name__ == "__main__":
    print(f(np.arange(3)))

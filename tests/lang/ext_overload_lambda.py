# @overload implementations written as lambdas, as Numba's own overloads often are, with
# closure constants the typing function computed from the types.
import numpy as np
from numba import njit, types
from numba.extending import overload, overload_method


def weight(x, k):
    raise NotImplementedError


@overload(weight)
def weight_typing(x, k):
    if isinstance(x, types.Float):
        factor = 0.5 if x.bitwidth == 32 else 0.25
        return lambda x, k: x * factor + k
    if isinstance(x, types.Integer):
        return lambda x, k: (x + k) // 2


@overload_method(types.Array, "first_or")
def first_or_typing(a, default):
    return lambda a, default: a[0] if a.size > 0 else default


@njit
def run(x, y, a):
    return weight(x, 1), weight(y, 3), a.first_or(-1.0), a[:0].first_or(-1.0)


if __name__ == "__main__":
    for x, y in ((2.0, 7), (np.float32(3.0), np.int32(9))):
        r = run(x, y, np.array([4.5, 5.5]))
        print(" ".join(f"{type(v).__name__}:{v!r}" for v in r))

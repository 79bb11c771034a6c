# expect error: 20:12: No implementation of function 'halve' found for signature: halve(int64)
# An @overload whose typing function declines (returns None) for the argument types: no
# implementation, at the call.
from numba import njit, types
from numba.extending import overload


def halve(x):
    raise NotImplementedError


@overload(halve)
def halve_typing(x):
    if isinstance(x, types.Float):
        return lambda x: x / 2.0


@njit
def f(n):
    return halve(n)


if __name__ == "__main__":
    print(f(3))

# @overload registered several times for one function, one typing function per arity (as
# EconForge's interpolation registers _eval_linear for 3, 4 and 5 arguments): Numba tries
# them in order and skips those whose parameters cannot take the call's arguments; a typing
# function that declines (returns None) or raises passes to the next too.  Reached directly and
# through *args forwarding.
from numba import njit, types
from numba.extending import overload
import numpy as np


def interp():
    pass


@overload(interp)
def interp_3(grid, values, x):
    return lambda grid, values, x: np.interp(x, grid, values)


@overload(interp)
def interp_4(grid, values, x, left):
    if not isinstance(left, types.Float):
        return None
    return lambda grid, values, x, left: left if x < grid[0] else np.interp(x, grid, values)


@overload(interp)
def interp_4_raises(grid, values, x, left):
    if left == types.unicode_type:
        return None
    raise TypeError("not this one")      # Numba tries the next typing function


@overload(interp)
def interp_4_int(grid, values, x, left):
    return lambda grid, values, x, left: -left if x < grid[0] else np.interp(x, grid, values)


@overload(interp)
def interp_5(grid, values, x, left, right):
    def impl(grid, values, x, left, right):
        if x < grid[0]:
            return left
        if x > grid[-1]:
            return right
        return np.interp(x, grid, values)
    return impl


@njit
def three(g, v, x):
    return interp(g, v, x)


@njit
def four(g, v, x, left):
    return interp(g, v, x, left)


@njit
def five(g, v, x):
    return interp(g, v, x, -1.0, 99.0)


@njit
def forwarded(*args):
    return interp(*args)


if __name__ == "__main__":
    g = np.array([0.0, 1.0, 2.0])
    v = np.array([0.0, 10.0, 40.0])
    print(three(g, v, 1.5), three(g, v, 0.25))
    print(four(g, v, -1.0, 7.5), four(g, v, -1.0, 7), four(g, v, 0.5, 7))
    print(five(g, v, -3.0), five(g, v, 3.0), five(g, v, 1.0))
    print(forwarded(g, v, 0.5), forwarded(g, v, -2.0, 3.0), forwarded(g, v, 5.0, 1.0, 2.0))

# @overload typing functions given literal types and keyword arguments, as Numba 0.56 gives
# them (EconForge's interpolation builds its splines this way): a constant argument reaches
# the typing function first as its plain type (int64, unicode_type) and, if that declines or
# raises, as a literal (Literal[int](3): isinstance(t, types.Literal), t.literal_value); a
# jitted function that passes its parameter to literally() is compiled per value, so the
# literal reaches the overload through it; keywords are bound by name, the typing function's
# defaults are plain Python values, and the implementation's own defaults fill the rest.
from numba import njit, literally, types
from numba.extending import overload
import numpy as np


def power(x, n=2):
    pass


@overload(power)
def power_typing(x, n=2):
    if isinstance(n, types.IntegerLiteral):      # n given: a literal (after int64 failed)
        k = n.literal_value
        if k == 0:
            return lambda x, n=2: x - x + 1.0
        return lambda x, n=2: x ** k
    if isinstance(n, int):                       # n omitted: the typing function's default
        return lambda x, n=2: x * x
    return None                                  # int64: declined, the literal is tried next


def spline(grid, values, x, order=1, mode="linear", clip=False):
    pass


@overload(spline)
def spline_typing(grid, values, x, order=1, mode="linear", clip=False):
    if not (isinstance(order, types.Literal) and isinstance(mode, types.Literal)):
        raise TypeError("order and mode must be literals")
    k = order.literal_value
    m = mode.literal_value
    c = isinstance(clip, types.BooleanLiteral) and clip.literal_value
    if m == "nearest":
        def impl(grid, values, x, order=1, mode="linear", clip=False):
            i = np.searchsorted(grid, x)
            return values[min(i, len(values) - 1)] * k
    elif c:
        def impl(grid, values, x, order=1, mode="linear", clip=False):
            return np.interp(min(max(x, grid[0]), grid[-1]), grid, values) * k
    else:
        def impl(grid, values, x, order=1, mode="linear", clip=False):
            return np.interp(x, grid, values) * k
    return impl


@njit
def eval_spline(grid, values, x, order=1, mode="linear"):
    k = literally(order)
    md = literally(mode)
    return spline(grid, values, x, mode=md, order=k)


@njit
def powers(x):
    return power(x, 3), power(x, n=0), power(x), power(x, -1)


@njit
def splines(grid, values, x):
    return (eval_spline(grid, values, x, order=1, mode="linear"),
            eval_spline(grid, values, x, 2, "nearest"),
            spline(grid, values, x, 3, "linear", clip=True),
            spline(grid, values, x, order=1, mode="linear"))


if __name__ == "__main__":
    for v in powers(2.0):
        print(type(v).__name__, v)
    g = np.linspace(0.0, 1.0, 5)
    vals = g * g
    for x in (0.3, 1.5):
        r = splines(g, vals, x)
        print(type(r).__name__, len(r), r)

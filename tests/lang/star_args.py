# *args parameters and f(*t) calls, as Numba 0.56 has them: the extra positional arguments
# arrive as one tuple (heterogeneous or not, empty when there are none), from Python and from
# compiled callers; f(*t) unpacks a tuple into positional arguments, beside plain ones, in
# calls of the program's functions; defaults before *args still apply.  EconForge's
# interpolation forwards its arguments so (eval_linear(*args)).
from numba import njit
import numpy as np


@njit
def total(*args):
    s = 0.0
    for i in range(len(args)):
        s += args[i]
    return s


@njit
def first_and_rest(a, *rest):
    return a, len(rest), rest


@njit
def scaled_sum(scale=2, *values):
    s = 0
    for v in values:
        s += v
    return scale * s


@njit
def pick(*args):
    grid, values = args[0], args[1]
    return grid[1] + values.sum()


@njit
def forward(*args):
    return pick(*args)


@njit
def call_star(t):
    return total(*t), first_and_rest(*t)


@njit
def mixed(x, y):
    return first_and_rest(x), first_and_rest(x, y, x), total(x, *(y, 1.5))


@njit
def shapes(a):
    return first_and_rest(*a.shape)


if __name__ == "__main__":
    r = total(1.0, 2.0, 3.5)
    print(type(r).__name__, r, total(1, 2))
    print(first_and_rest(1, 2.5, 3))
    a, n, rest = first_and_rest(np.arange(3))
    print(a.tolist(), n, rest)
    print(scaled_sum(3, 1, 2, 4), scaled_sum(1, 5))
    print(pick((0.0, 0.5, 1.0), np.ones(4)))
    print(forward((0.0, 0.25), np.arange(5.0)))
    print(call_star((1.0, 2.0)))
    print(mixed(2.0, 3.0))
    print(shapes(np.zeros((2, 3, 4))))

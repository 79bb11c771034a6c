# f(*t) evaluates t once: a call producing the tuple runs a single time; a tuple variable or
# display spreads into a library function's arguments too.
import numpy as np
from numba import njit


@njit
def add3(a, b, c):
    return a + 10 * b + 100 * c


@njit
def bump(state):
    state[0] += 1
    return (state[0], 2)


@njit
def spread_program(state):
    return add3(1, *bump(state))


@njit
def spread_name(shape):
    t = shape
    return np.zeros(*(t,)).shape, add3(*t, 5)


s = np.zeros(1, np.int64)
r = spread_program(s)
print(r, type(r).__name__, s[0])
r = spread_program(s)
print(r, s[0])
print(spread_name((2, 3)))

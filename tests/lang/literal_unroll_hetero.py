# numba.literal_unroll over tuples whose elements differ in type: the loop body is versioned
# per element (numbers of several types, strings, arrays, functions), with break, continue
# and else, and tuples given as arguments (nesting two such loops is refused, as Numba does:
# tests/lang/errors/literal_unroll_nested.py).
from numba import njit, literal_unroll
import numpy as np


@njit
def printed(a):
    for v in literal_unroll((1, 2.5, "a", a, np.int32(4), True)):
        print(v)


@njit
def total(t):
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return s


@njit
def sizes(t):
    n = 0
    for v in literal_unroll(t):
        n += len(v)
    return n


@njit
def flow(t):
    s = 0.0
    for v in literal_unroll(t):
        if v == 2.5:
            continue
        if v > 100:
            break
        s += v
    else:
        s += 1000.0
    return s


@njit
def sq(x):
    return x * x


@njit
def half(x):
    return x / 2


@njit
def mapped(x):
    out = 0.0
    for f in literal_unroll((sq, half)):
        out += f(x)
    return out


def show(v):
    print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    printed(np.arange(3.0))
    show(total((1, 2.5, np.int8(3), True)))
    show(total((np.float32(0.25), 7)))
    show(sizes((np.zeros(3), "abcd", (1, 2.0))))
    show(flow((1, 2.5, 3)))
    show(flow((1, 2.5, 300, 4.0)))
    show(mapped(3.0))
    show(mapped(4))

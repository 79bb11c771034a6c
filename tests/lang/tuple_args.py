# Tuples passed from Python to compiled functions and returned to Python: homogeneous
# (UniTuple) and heterogeneous (Tuple) ones, nested tuples, tuples holding arrays, NumPy
# scalars, booleans and complex numbers, the empty tuple; a tuple argument passed on to another
# compiled function; nested tuples and tuples of arrays as results; and the dispatcher's cache:
# the same function called with tuples of other element types and lengths compiles again, and
# a call with the first types again reuses the first specialization.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def total(t):
    s = 0
    for x in t:
        s += x
    return s


@njit
def first_plus_second(t):
    return t[0] + t[1]


@njit
def nested_sum(t):
    return t[0][0] + t[0][1] + t[1][0] * t[1][1]


@njit
def arrays_sum(t):
    a, b = t
    return a.sum() + b.sum()


@njit
def scaled(t):
    a, k = t
    return a * k


@njit
def first_array(t):
    return t[0]


@njit
def length(t):
    return len(t)


@njit
def passthrough(t):
    return t


@njit
def helper(t):
    return t[0] * 10 + t[1]


@njit
def calls_helper(t, k):
    return helper(t) + k


@njit
def from_shape(s):
    return s[0] * s[1]


@njit
def mixed(t):
    f, i, b, c = t
    if b:
        return f * i + c.real
    return f - i + c.imag


@njit
def nested_result(n):
    return (n, (n, 2.0))


@njit
def deep_result(n):
    return ((n, (n + 1, (n + 2.5, True))), n * 2)


@njit
def arrays_result(n):
    a = np.arange(n)
    return (a, (a.sum(), a * 2.0))


@njit
def swap_pairs(t):
    (a, b), (c, d) = t
    return (d, c), (b, a)


@njit
def array_in_nested(t):
    return t[1][0].sum() + t[0]


if __name__ == "__main__":
    print(show(total((1, 2, 3))))
    print(show(total((1.5, 2.5))))
    print(show(total((1, 2, 3, 4, 5))))
    print(show(first_plus_second((1, 2.5))))
    print(show(first_plus_second((1.5, 2))))
    print(show(first_plus_second((True, 3))))
    print(show(first_plus_second((np.float32(1.5), np.int32(3)))))
    print(show(first_plus_second((np.int8(100), np.int8(100)))))
    print(show(first_plus_second((1 + 2j, 3))))
    print(show(nested_sum(((1, 2), (3, 4)))))
    print(show(nested_sum(((1.5, 2), (3, 4.5)))))
    a = np.arange(6.0)
    b = np.ones((2, 3), dtype=np.int32)
    print(show(arrays_sum((a, b))))
    print(show(arrays_sum((a, a))))
    print(show(scaled((a, 3))))
    print(show(scaled((b, 2.5))))
    r = first_array((a, b))
    print(show(r), r is a)
    print(show(first_array((a[::2], 1))))
    print(show(length(())))
    print(show(length((1, 2.0, a))))
    print(show(passthrough((1, 2.0))))
    print(show(passthrough(((1, 2), (3.0, (4, True))))))
    print(show(passthrough((7,))))
    print(show(calls_helper((3, 4), 5)))
    print(show(calls_helper((3.5, 4), 5)))
    print(show(from_shape(b.shape)))
    print(show(from_shape(np.zeros((4, 5)).shape)))
    print(show(mixed((1.5, 2, True, 1 + 2j))))
    print(show(mixed((1.5, 2, False, 1 + 2j))))
    print(show(nested_result(3)))
    print(show(nested_result(np.int32(3))))
    print(show(deep_result(4)))
    print(show(arrays_result(4)))
    print(show(swap_pairs(((1, 2.5), (3, 4)))))
    print(show(array_in_nested((1.5, (a, 2)))))
    # the dispatcher: other element types and lengths compile again, the first ones reuse
    print(show(total((1, 2))), show(total((1.0, 2.0))), show(total((1, 2))), show(total((1, 2, 3))))
    print(len(total.signatures))
    print(sorted(str(s) for s in first_plus_second.signatures)[:3])

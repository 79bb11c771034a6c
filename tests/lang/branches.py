# Branches and expressions: if/elif/else, a variable assigned an int on one branch and a float
# on another (unified to float64), int32 with int64 merging, chained comparisons (each operand
# evaluated once), `and`/`or` returning an operand (not a bool), `not`, conditional
# expressions, and functions returning bool.
from numba import njit
import numpy as np


@njit
def classify(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


@njit
def unify(x):
    # int on one branch, float on the other: the result is float64 for every input.
    if x > 0:
        y = 1
    else:
        y = 0.5
    return y


@njit
def unify_loop(n):
    y = 1
    for i in range(n):
        if i % 3 == 0:
            y = y * 2
        else:
            y = y + 0.25
    return y


@njit
def unify_elem(a, i):
    # an int32 element on one branch, an int64 literal on the other: int64.
    if i >= 0:
        v = a[i]
    else:
        v = 1 << 40
    return v


@njit
def between(a, x, b):
    return a < x <= b


@njit
def chain4(a, b, c, d):
    return a < b < c < d


@njit
def chain_mixed(a, b, c):
    return a == b != c


@njit
def or_op(a, b):
    return a or b


@njit
def and_op(a, b):
    return a and b


@njit
def not_op(a):
    return not a


@njit
def bool_mix(a, b, c):
    return (a > 0 and b > 0) or c > 0


@njit
def cond(x):
    return x * 2 if x > 3 else -x


@njit
def cond_mixed(x):
    # int vs float arms: float64.
    return x if x > 0 else 0.5


@njit
def nested_cond(x):
    return 1 if x < 0 else (2 if x == 0 else 3)


@njit
def is_even(n):
    return n % 2 == 0


@njit
def count_even(a):
    c = 0
    for i in range(a.shape[0]):
        if is_even(a[i]):
            c += 1
    return c


@njit
def sign_float(x):
    if x > 0.0:
        return 1.0
    elif x < 0.0:
        return -1.0
    return x


def show(tag, *vals):
    print(tag, *[type(v).__name__ + ":" + repr(v) for v in vals])


if __name__ == "__main__":
    for x in [-5, -1, 0, 1, 9, 10, 100, -0.5, 0.0, 9.5, 10.0]:
        show("classify", x, classify(x))
    for x in [-1, 0, 1, 2.5, -2.5]:
        show("unify", x, unify(x))
    for n in [0, 1, 2, 3, 7]:
        show("unify_loop", n, unify_loop(n))
    a32 = np.array([5, -7, 2**31 - 1], dtype=np.int32)
    for i in [0, 1, 2, -1]:
        show("unify_elem", i, unify_elem(a32, i))
    for a, x, b in [(0, 0, 1), (0, 1, 1), (0, 2, 1), (1, 0, 2), (-1.5, -1, 0), (1, 1.0, 1)]:
        show("between", a, x, b, between(a, x, b))
    for args in [(1, 2, 3, 4), (1, 2, 2, 4), (4, 3, 2, 1), (1.0, 2, 3.5, 4)]:
        show("chain4", *args, chain4(*args))
    for args in [(1, 1, 2), (1, 1, 1), (1, 2, 2), (0.0, -0.0, 1)]:
        show("chain_mixed", *args, chain_mixed(*args))
    for a, b in [(0, 0), (0, 5), (3, 5), (3, 0), (-1, 2), (0.0, 2.5), (1.5, 0.0), (0.0, 0.0),
                 (True, False), (False, True), (False, False)]:
        show("andor", a, b, or_op(a, b), and_op(a, b))
    for a in [0, 1, -3, 0.0, 2.5, True, False]:
        show("not", a, not_op(a))
    for a, b, c in [(1, 1, 0), (1, 0, 0), (0, 1, 1), (-1, -1, -1), (2, 3, -4)]:
        show("bool_mix", a, b, c, bool_mix(a, b, c))
    for x in [-2, 0, 3, 4, 10, 3.5, -7.25]:
        show("cond", x, cond(x), cond_mixed(x), nested_cond(x))
    show("count_even", count_even(np.arange(-5, 12)),
         count_even(np.array([2, 4, 7], dtype=np.int16)))
    for n in [0, 1, -2, -3, 2**62]:
        show("is_even", n, is_even(n))
    for x in [2.5, -0.1, 0.0, -0.0]:
        show("sign_float", x, sign_float(x))

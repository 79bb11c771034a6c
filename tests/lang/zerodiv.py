# Division by zero under the default error model ('python'): int //, int %, int / int, float /,
# float //, float % by zero raise ZeroDivisionError, also from a helper called in a loop (the
# exception crosses compiled calls, and writes made before it stay visible); 0 ** -1 raises
# too.  With error_model='numpy' floats give inf/nan as IEEE says and integer // and % by zero
# give 0.
from numba import njit
import numpy as np


@njit
def idiv(a, b):
    return a // b


@njit
def imod(a, b):
    return a % b


@njit
def tdiv(a, b):
    return a / b


@njit
def safe_ratio(a, b):
    if b == 0:
        return 0.0
    return a / b


@njit
def inv_all(a, out):
    # Raises at the first zero; elements before it are already written.
    for i in range(a.shape[0]):
        out[i] = 100 // a[i]


@njit
def helper(x):
    return 1.0 / x


@njit
def sum_inv(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += helper(a[i])
    return s


@njit
def zpow(a, b):
    return a ** b


@njit(error_model="numpy")
def np_tdiv(a, b):
    return a / b


@njit(error_model="numpy")
def np_idiv(a, b):
    return a // b


@njit(error_model="numpy")
def np_imod(a, b):
    return a % b


def attempt(f, *args):
    try:
        return type(f(*args)).__name__ + ":" + repr(f(*args))
    except ZeroDivisionError:
        return "ZeroDivisionError"


if __name__ == "__main__":
    for a, b in [(1, 0), (0, 0), (-7, 0), (7, 2), (1.0, 0.0), (-1.0, 0.0), (0.0, 0.0),
                 (1, 0.0), (1.0, 0), (5.5, -0.0), (float("inf"), 0.0), (float("nan"), 0.0)]:
        print("div", repr(a), repr(b), attempt(idiv, a, b), attempt(imod, a, b),
              attempt(tdiv, a, b), attempt(safe_ratio, a, b))
    try:
        idiv(1, 0)
    except ZeroDivisionError:
        print("ZeroDivisionError")
    a = np.array([5, 20, 0, 7], dtype=np.int64)
    out = np.full(4, -1, dtype=np.int64)
    try:
        inv_all(a, out)
        print("inv_all no error")
    except ZeroDivisionError:
        print("inv_all ZeroDivisionError", out.tolist())
    print("sum_inv", attempt(sum_inv, np.array([1.0, 2.0, 4.0])))
    print("sum_inv", attempt(sum_inv, np.array([1.0, 0.0, 4.0])))
    print("sum_inv", attempt(sum_inv, np.array([1.0, -0.0])))
    for a, b in [(0, -1), (0, -5), (0.0, -1), (0, 0), (2, -1)]:
        print("zpow", repr(a), repr(b), attempt(zpow, a, b))
    for a, b in [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (1.0, -0.0), (3, 0)]:
        print("np_tdiv", repr(a), repr(b), attempt(np_tdiv, a, b))
    for a, b in [(7, 0), (-7, 0), (0, 0), (7, 2), (-7, 2)]:
        print("np_int", a, b, attempt(np_idiv, a, b), attempt(np_imod, a, b))
    for a, b in [(7.0, 0.0), (-7.0, 0.0), (0.0, 0.0)]:
        print("np_float", repr(a), repr(b), attempt(np_idiv, a, b), attempt(np_imod, a, b))

# Integer powers as Numba 0.56 computes them (found by tests/fuzz/progfuzz.py, seed 5,
# programs 402, 488 and 511): Numba's int_power returns `1.0 / r if invert else r`, so the
# product passes through float64 with a literal exponent as with a variable one (3**39 loses
# its low bits); 0 ** negative under error_model='numpy' is the type's minimum for an int base
# and still ZeroDivisionError for a float base (int_power divides by the 'python' rules).
import numpy as np
from numba import njit


@njit
def lit39(x):
    return x ** 39


@njit
def lit22(x):
    return x ** 22


@njit
def var(x, k):
    return x ** k


@njit(error_model='numpy')
def np_neg2(x):
    return x ** -2


@njit(error_model='numpy')
def np_var(x, k):
    return x ** k


@njit
def py_neg2(x):
    return x ** -2


def attempt(f, *args):
    try:
        return repr(f(*args))
    except ZeroDivisionError:
        return "ZeroDivisionError"


if __name__ == "__main__":
    print(lit39(3), var(3, 39), lit39(np.int32(3)), lit39(np.uint8(3)))
    print(lit22(np.int32(7)), var(np.int32(7), 22), lit22(np.uint64(7)), lit22(5), lit22(-5))
    print(var(np.uint64(3), np.uint64(40)), lit22(2), lit22(np.int8(-2)))
    print(attempt(np_neg2, 0), attempt(np_neg2, np.int8(0)), attempt(np_neg2, False))
    print(attempt(np_var, 0, -3), attempt(np_var, np.int16(0), np.int8(-1)), attempt(np_var, 0, 3))
    print(attempt(np_neg2, 1), attempt(np_neg2, -1), attempt(np_neg2, 2), attempt(np_var, -1, -3))
    print(attempt(np_neg2, 0.0), attempt(np_var, 0.0, -2), attempt(np_neg2, np.float32(0.0)))
    print(attempt(np_neg2, 0.5), attempt(np_var, 2.0, -2), attempt(np_var, 0.0, 2))
    print(attempt(py_neg2, 0), attempt(py_neg2, 0.0), attempt(py_neg2, 4), attempt(py_neg2, 2.0))

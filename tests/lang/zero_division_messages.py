# ZeroDivisionError from the arithmetic operators under the default error model, with Numba
# 0.56's messages (which are not CPython's: 1.0 % 0.0 says "modulo by zero", not "float
# modulo"), for ints, floats and mixes, and in place (/=, //=, %=).
import numpy as np
from numba import njit


@njit
def div(a, b):
    return a / b


@njit
def floordiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def idiv(a, b):
    x = a
    x /= b
    return x


@njit
def ifloordiv(a, b):
    x = a
    x //= b
    return x


@njit
def imod(a, b):
    x = a
    x %= b
    return x


def show(fn, *args):
    try:
        r = fn(*args)
        print(fn.__name__, args, r, type(r).__name__)
    except ZeroDivisionError as e:  # numjit's message also holds the location and a caret
        print(fn.__name__, args, "ZeroDivisionError:",
              str(e).splitlines()[0].split("ZeroDivisionError: ")[-1])


for a, b in ((7, 0), (7.5, 0.0), (7, 0.0), (7.5, 0), (np.int32(7), np.int32(0)),
             (np.float32(7.5), np.float32(0.0)), (np.uint8(7), np.uint8(0)), (7, 2), (-7.5, 2.0)):
    show(div, a, b)
    show(floordiv, a, b)
    show(mod, a, b)
for f in (idiv, ifloordiv, imod):
    show(f, 7, 0)
    show(f, 7.5, 0.0)
    show(f, 7, 2)

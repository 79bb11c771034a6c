# try/except as Numba 0.56 compiles it: a bare `except:` and `except Exception:` catch what
# compiled code raises in the body (ZeroDivisionError of `//`, the program's own raise and
# assert, errors raised inside called functions), with `else:` and `finally:`, nested tries
# (an exception in an inner handler caught by the outer try) and tries in loops; what the
# code after a try or its else raises goes out to the caller.
from numba import njit
import numpy as np


def show(v):
    return type(v).__name__ + ":" + repr(v)


@njit
def safe_div(a, b):
    try:
        r = a // b
    except:
        r = -1
    return r


@njit
def checked(x):
    if x < 0:
        raise ValueError("negative")
    return x * 2


@njit
def call_in_try(x):
    try:
        r = checked(x)
    except Exception:
        r = -100
    return r


@njit
def with_else(a, b):
    r = 0
    try:
        r = a // b
    except Exception:
        r = -1
    else:
        r += 1000
    return r


@njit
def with_finally(a, b):
    n = 0
    try:
        n = a // b
    except:
        n = -1
    else:
        n += 10
    finally:
        n += 1000
    return n


@njit
def returns_in_try(a, b):
    try:
        return a // b
    except Exception:
        return -1


@njit
def count_errors(a):
    bad = 0
    total = 0.0
    for i in range(a.size):
        try:
            if a[i] < 0:
                raise ValueError("bad")
            assert a[i] != 3, "three"
            total += 10 // a[i]
        except Exception:
            bad += 1
    return bad, total


@njit
def nested(a, b, c):
    r = 0
    try:
        try:
            r = a // b
        except:
            r = 100 // c
        r += 1
    except:
        r = -7
    return r


@njit
def after_try(a, b):
    try:
        r = a // b
    except:
        r = 0
    return 10 // r


@njit
def raise_in_else(a):
    try:
        r = 10 // a
    except:
        r = -1
    else:
        r = 10 // (a - 1)
    return r


if __name__ == "__main__":
    print(show(safe_div(7, 2)), show(safe_div(7, 0)))
    print(show(call_in_try(5)), show(call_in_try(-5)))
    print(show(with_else(9, 3)), show(with_else(9, 0)))
    print(show(with_finally(9, 3)), show(with_finally(9, 0)))
    print(show(returns_in_try(9, 2)), show(returns_in_try(9, 0)))
    print(show(count_errors(np.array([1, -2, 3, 0, 5, 2]))))
    print(show(nested(9, 3, 1)), show(nested(9, 0, 5)), show(nested(9, 0, 0)))
    print(show(after_try(4, 2)), show(raise_in_else(0)), show(raise_in_else(3)))
    for call in (lambda: after_try(1, 0), lambda: raise_in_else(1)):
        try:
            call()
        except ZeroDivisionError:
            print("ZeroDivisionError")

# raise and assert in compiled functions: the built-in exception classes with constant
# arguments (Numba 0.56 freezes them), str() of the exception as Python writes it, raises in
# callees reaching the caller, asserts with and without a message, and code after a raise.
from numba import njit
import numpy as np


@njit
def checked_sqrt(x):
    if x < 0:
        raise ValueError("math domain error: negative input")
    return np.sqrt(x)


@njit
def classify(k):
    if k == 0:
        raise IndexError
    if k == 1:
        raise IndexError()
    if k == 2:
        raise KeyError("missing key")
    if k == 3:
        raise TypeError("wrong type", 3, -2.5, True, None)
    if k == 4:
        raise ZeroDivisionError("custom division")
    if k == 5:
        raise RuntimeError("it's broken")
    if k == 6:
        raise NotImplementedError("not yet")
    if k == 7:
        raise OverflowError(1e16)
    if k == 8:
        raise ArithmeticError(0.1, 1e-05, 123456789.0)
    if k == 9:
        raise LookupError(-7)
    if k == 10:
        raise Exception("plain")
    if k == 11:
        raise AssertionError("explicit")
    if k == 12:
        raise ValueError('say "hi"', "tab\there")
    if k == 13:
        raise StopIteration
    return k * 2


@njit
def bounded(x, lo, hi):
    assert lo <= hi
    assert x >= lo, "below the range"
    assert x <= hi, "above the range"
    return x - lo


@njit
def assert_number(n):
    assert n, 42
    return n


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += checked_sqrt(a[i])
    return s


@njit
def first_negative(a):
    for i in range(a.shape[0]):
        if a[i] < 0:
            return i
    raise ValueError("no negative element")


@njit
def loop_raise(n):
    acc = 0
    i = 0
    while True:
        acc += i
        i += 1
        if acc > n:
            raise OverflowError("accumulator passed the limit")
        if i == 10:
            break
    return acc


def show(f, *args):
    try:
        r = f(*args)
        print(type(r).__name__ + ":" + repr(r))
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))


if __name__ == "__main__":
    show(checked_sqrt, 4.0)
    show(checked_sqrt, -1.0)
    for k in range(15):
        show(classify, k)
    show(bounded, 3, 1, 5)
    show(bounded, 0, 1, 5)
    show(bounded, 6, 1, 5)
    show(bounded, 3, 5, 1)
    show(bounded, 2.5, 1.0, 5.0)
    show(assert_number, 3)
    show(assert_number, 0)
    show(assert_number, 0.0)
    show(total, np.array([1.0, 4.0, 9.0]))
    show(total, np.array([1.0, -4.0, 9.0]))
    show(first_negative, np.array([3, 2, -1, 5]))
    show(first_negative, np.array([3, 2, 1]))
    show(loop_raise, 100)
    show(loop_raise, 20)

# A decorator option given by a local of the enclosing function, as numba-stats' tests write
# `@nb.njit(parallel=parallel, fastmath=True)` inside a parametrized test: the dispatcher got
# the value when the decorator ran, and compiles with it.
import numpy as np
from numba import njit, prange


def make(parallel, fastmath):
    @njit(parallel=parallel, fastmath=fastmath)
    def total(x):
        s = 0.0
        for i in prange(len(x)):
            s += x[i] * 2.0
        return s

    return total


def make_model(model):
    @njit(error_model=model)
    def ratio(a, b):
        return a / b

    return ratio


if __name__ == "__main__":
    x = np.linspace(0.0, 1.0, 11)
    for parallel in (False, True):
        for fastmath in (False, True):
            r = make(parallel, fastmath)(x)
            print(parallel, fastmath, type(r).__name__, round(r, 12))
    print(make_model("numpy")(1.0, 0.0))
    try:
        make_model("python")(1.0, 0.0)
    except ZeroDivisionError:
        print("ZeroDivisionError")

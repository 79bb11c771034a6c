# Options given to njit in a call rather than in a decorator the text shows:
# `njit(boundscheck=True)(f)`, a library's own decorator that calls njit later with options,
# the same function compiled twice with different options, and a callee reached through a
# closure keeping its options. (The compiler reads options from the decorator line, so these
# are written there for it.)
from numba import njit
import numpy as np


def checked(func):
    cell = []

    def run(*args):
        if not cell:
            cell.append(njit(boundscheck=True, error_model="numpy")(func))
        return cell[0](*args)
    return run


@checked
def get(a, i):
    return a[i]


@checked
def ratio(x, y):
    return x / y


def plain(a, i):
    return a[i]


unchecked = njit(plain)
checked2 = njit(boundscheck=True)(plain)


def make_outer():
    @njit
    def outer(a, i):
        return checked2(a, i) * 2
    return outer


def attempt(f, *args):
    try:
        return repr(f(*args))
    except IndexError:
        return "IndexError"
    except ZeroDivisionError:
        return "ZeroDivisionError"


if __name__ == "__main__":
    a = np.arange(3.0)
    print(attempt(get, a, 1), attempt(get, a, 5), attempt(get, a, -4))
    print(attempt(ratio, 1.0, 0.0), attempt(ratio, 3.0, 2.0))
    print(attempt(unchecked, a, 2), attempt(checked2, a, 7), attempt(checked2, a, -1))
    outer = make_outer()
    print(attempt(outer, a, 1), attempt(outer, a, 9))

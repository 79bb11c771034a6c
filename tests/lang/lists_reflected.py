# Lists passed in from Python (Numba's reflected lists) and lists returned to Python: items are
# read and written in place, appends, pops, inserts and sorts made by compiled code are written
# back to the caller's list, a list built inside is returned as a Python list (of int, float,
# bool), alone or in a tuple, and the errors of unboxing: an empty list cannot be typed, a list
# mixing ints and floats cannot be unboxed.
from numba import njit
import numpy as np


@njit
def total(l):
    s = 0.0
    for x in l:
        s += x
    return s


@njit
def scale(l, k):
    for i in range(len(l)):
        l[i] = l[i] * k


@njit
def grow(l, n):
    for i in range(n):
        l.append(l[-1] + 1)
    return len(l)


@njit
def shrink(l):
    x = l.pop()
    l.pop(0)
    l.insert(1, x)
    return x


@njit
def sort_in_place(l):
    l.sort()


@njit
def untouched(l):
    return l[0] + l[-1]


@njit
def make(n):
    return [i * 0.5 for i in range(n)]


@njit
def make_ints(n):
    l = []
    for i in range(n):
        l.append(i * i)
    return l


@njit
def make_bools(n):
    return [i % 3 == 0 for i in range(n)]


@njit
def pair(n):
    return [i for i in range(n)], n * 2.0


@njit
def index_of(l, x):
    return l.index(x), x in l


@njit
def to_array(l):
    return np.array(l)


def show(x):
    if isinstance(x, tuple):
        return "(" + ", ".join(show(v) for v in x) + ")"
    if isinstance(x, list):
        return "list[" + ", ".join(show(v) for v in x) + "]"
    if isinstance(x, np.ndarray):
        return "ndarray(%s, %s):%r" % (x.dtype, x.shape, x.tolist())
    return type(x).__name__ + ":" + repr(x)


def message(e):
    name = type(e).__name__ + ": "
    return str(e).splitlines()[0].split(name)[-1] if str(e) else ""  # numjit adds the location


def attempt(f, *args):
    try:
        print(show(f(*args)))
    except Exception as e:
        print(type(e).__name__ + ": " + message(e))


if __name__ == "__main__":
    attempt(total, [1.5, 2.5, 3.0])
    attempt(total, [1, 2, 3])
    l = [1.0, 2.0, 3.0]
    attempt(scale, l, 2.0)
    print(show(l))
    l = [1, 2, 3]
    attempt(grow, l, 3)
    print(show(l))
    l = [10, 20, 30, 40]
    attempt(shrink, l)
    print(show(l))
    l = [3.5, -1.0, 2.0, 0.5]
    attempt(sort_in_place, l)
    print(show(l))
    l = [7, 8, 9]
    attempt(untouched, l)
    print(show(l))
    l = [True, False]
    attempt(untouched, l)
    attempt(make, 4)
    attempt(make, 0)
    attempt(make_ints, 5)
    attempt(make_bools, 4)
    attempt(pair, 3)
    attempt(index_of, [4, 5, 6], 6)
    attempt(index_of, [4, 5, 6], 7)
    attempt(to_array, [1.5, 2.5])
    attempt(to_array, [1, 2, 3])
    attempt(total, [])
    attempt(total, [1, 2.5])

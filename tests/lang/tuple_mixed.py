# Tuples that hold the values main's later work added: strings in tuple arguments and results
# (non-ASCII text too), lists of numbers inside returned tuples (nested as well), a list passed
# beside a tuple and changed by the call (reflected back), None passed beside a tuple, and
# Optional results whose value is a tuple, an array or a string, boxed as None or the value.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def label(t):
    return t[1] + "=" + str(t[0])


@njit
def swap(t):
    return t[1], t[0]


@njit
def squares(n):
    l = [0]
    for i in range(1, n):
        l.append(i * i)
    return (n, l)


@njit
def nested(n):
    fl = [0.5]
    for i in range(n):
        fl.append(i / 4)
    return ((fl, "n" + str(n)), (np.arange(n), n > 2))


@njit
def push(l, t):
    for x in t:
        l.append(x)
    return len(l), t[0] * 2


@njit
def pick(a, t):
    if a is None:
        return t[0]
    return a + t[1]


@njit
def maybe_pair(n):
    if n > 0:
        return (n, "pos")
    return None


@njit
def maybe_array(n):
    if n > 0:
        return np.arange(n) * 1.5
    return None


@njit
def maybe_text(s, k):
    if len(s) > k:
        return s[:k]
    return None


if __name__ == "__main__":
    print(show(label((3, "x"))))
    print(show(label((-7, "héllo"))))
    print(show(swap(("ab", 2.5))))
    print(show(swap((np.arange(3), "π"))))
    for n in (1, 4):
        print(show(squares(n)))
    for n in (0, 3):
        print(show(nested(n)))
    l = [1, 2]
    print(show(push(l, (5, 6, 7))))
    print(show(l))
    print(show(pick(None, (4, 0.5))))
    print(show(pick(1.5, (4, 0.5))))
    for n in (2, 0, -1):
        print(show(maybe_pair(n)))
    for n in (3, 0):
        print(show(maybe_array(n)))
    for k in (2, 9):
        print(show(maybe_text("abcdé", k)))

# More generator shapes, iterated by compiled code and called from Python: yields at two
# loop depths, values unified to complex, a dead yield after return, endless state with a
# per-step value, defaults and a bool local deciding the yields, and generators over
# np.ndindex, a.flat and np.ndenumerate (tuples yielded, used as indices).
import numpy as np
from numba import njit


@njit
def staircase(m):
    for i in range(m):
        yield i * 100
        for j in range(i):
            yield i * 100 + j + 1


@njit
def widening(v):
    yield v
    yield v * 0.25
    yield v - 2j


@njit
def cut_short(a, b):
    k = 0
    while k < 2:
        yield a - b
        yield a * b
        k += 1
    return
    yield 0


@njit
def drift(start, step):
    total = start * 2
    while True:
        inc = step * 3
        total += inc
        yield total


@njit
def optional_tail(first=7, second=8, skip=False):
    keep = not skip
    yield first
    if keep:
        yield second
    if skip:
        yield first * second


@njit
def cells(shape):
    for idx in np.ndindex(shape):
        yield idx


@njit
def flat_values(a):
    for v in a.flat:
        yield v * 2


@njit
def indexed(a):
    for idx, v in np.ndenumerate(a):
        yield idx, v


@njit
def stairs(m):
    out = []
    for x in staircase(m):
        out.append(x)
    return out


@njit
def widened(v):
    out = []
    for x in widening(v):
        out.append(x)
    return out


@njit
def drifted(start, step, n):
    s = 0
    for k, x in enumerate(drift(start, step)):
        if k == n:
            break
        s += x
    return s


@njit
def tails():
    return list(optional_tail()), list(optional_tail(skip=True)), list(cut_short(5, 3))


@njit
def walk(a):
    s = 0
    for idx in cells(a.shape):
        s += a[idx] * (idx[0] + 1)
    f = 0.0
    for v in flat_values(a.T):
        f += v
    w = 0
    for p in indexed(a):
        w += p[0][1] * p[1]
    return s, f, w


if __name__ == "__main__":
    print("stairs", stairs(0), stairs(3))
    r = widened(2)
    print("widened", [type(x).__name__ for x in r], r)
    print("drifted", drifted(1, 2, 0), drifted(1, 2, 5), drifted(0.5, 1, 3))
    print("tails", tails())
    print("walk", walk(np.arange(6).reshape(2, 3)), walk(np.ones((3, 2))))
    print("python", list(staircase(3)), list(widening(1.5)), list(cut_short(2, 2)))
    print("python", list(optional_tail(second=3)), list(flat_values(np.arange(4.0))))

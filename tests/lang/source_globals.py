# Globals as Numba resolves and freezes them: a decorated function compiles the body it had
# when decorated (an earlier reference keeps the first of two defs of one name); names resolve
# through the function's globals on its first compilation (a function published with `global`
# from inside another function, one assigned to the module after the caller was decorated);
# tuples of numbers and NumPy scalars as frozen constants; a function the compiled one does not
# need may hold what numjit cannot compile (a class, a match statement, a non-ASCII name);
# annotations ignored; a @vectorize ufunc published with `global`, called on arrays and scalars.
from numba import njit, vectorize
import numpy as np


@njit
def k(x):
    return x * 2


k1 = k


@njit
def k(x):
    return x * 3


@njit
def calls_k(x):
    return k(x) + 1


def publish():
    global late

    @njit
    def late(x):
        return x - 100


@njit
def calls_late(x):
    return late(x) * 2


@njit
def calls_assigned(x):
    return assigned_later(x) + 0.5


def _assigned(x):
    return x * x


OFFSETS = (1, -2, 30)
WEIGHTS = (0.5, 0.25, 0.125)
SCALE = np.float32(0.1)
BIG = np.uint64(2**63 + 5)
SMALL = np.int16(-7)


@njit
def weighted(i):
    s = 0.0
    for j in range(3):
        s += WEIGHTS[j] * (i + OFFSETS[j])
    return s


@njit
def scalars():
    return SCALE * 2, BIG + np.uint64(1), SMALL * 3


@njit
def annotated(x: float, n: int = 2) -> float:
    y: float = x * n
    z: int
    return y + 1


class NotCompiled:
    def method(self):
        return {k: v for k, v in {}.items()}


@njit
def never_called(x):
    match x:
        case 1:
            return 10
        case _:
            return 20


@njit
def café(x):
    return x + 1


@njit
def fine(x):
    return x + 1


def make_ufunc():
    global halve

    @vectorize(["int64(int64)", "float64(float64)"])
    def halve(x):
        return x // 2


@njit
def calls_ufunc(a, x):
    return halve(a) + halve(x)


if __name__ == "__main__":
    print(k1(1), k(1), calls_k(1))
    print(k1(2.5), k(2.5))
    publish()
    print(calls_late(5))
    globals()["assigned_later"] = njit(_assigned)
    print(calls_assigned(3))
    for i in range(3):
        print(repr(weighted(i)))
    a, b, c = scalars()
    print(type(a).__name__ + ":" + repr(a), type(b).__name__ + ":" + repr(b),
          type(c).__name__ + ":" + repr(c))
    print(repr(annotated(1.5)), repr(annotated(1.5, 3)))
    print(fine(41))
    make_ufunc()
    print(calls_ufunc(np.array([3.0, 9.0]), 7.0).tolist(), calls_ufunc(np.arange(4), 5).tolist())

# Declared signatures: arguments convert to the declared types as Numba's dispatcher converts
# them (the best signature by its conversion rules), the declared return type converts the
# result, types no signature takes are refused, and .signatures lists the declared ones.
from numba import njit
import numpy as np


@njit("float64(float64)")
def ident_f64(x):
    return x


@njit("int32(int32)")
def plus_07(x):
    return x + 0.7


@njit("float64(float64[:])")
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit(["int64(int64)", "float64(float64)"])
def twice(x):
    return x * 2


@njit(["int32(int32)", "int64(int64)"])
def tie(x):
    return x


@njit("uint8(uint8)")
def as_u8(x):
    return x


@njit("float32(float32, int16)")
def mix(x, n):
    return x * n


@njit("boolean(boolean)")
def truth(x):
    return x


@njit("int8(float64)")
def narrow(x):
    return x * 100.0


@njit("complex128(complex128)")
def conj(z):
    return z.conjugate()


@njit("float64(int64, float64)")
def keyworded(a, b=0.5):
    return a + b


def show(v):
    print(type(v).__name__ + ":" + repr(v))


def attempt(f, *args, **kw):
    try:
        show(f(*args, **kw))
    except (TypeError, OverflowError, ValueError) as e:
        print(type(e).__name__ + ": " + str(e).split("\n")[0].split(" at 0x")[0])


if __name__ == "__main__":
    attempt(ident_f64, 2**62)
    attempt(ident_f64, 3)
    attempt(ident_f64, True)
    attempt(ident_f64, np.float32(0.1))
    attempt(ident_f64, np.int32(-7))
    attempt(ident_f64, 2**63 + 5)
    attempt(ident_f64, 1j)
    attempt(plus_07, 2.7)
    attempt(plus_07, True)
    attempt(plus_07, 5)
    attempt(plus_07, -2.7)
    attempt(plus_07, 2**40 + 3)
    attempt(plus_07, 2**63)
    attempt(plus_07, float("nan"))
    attempt(plus_07, float("inf"))
    attempt(plus_07, np.uint64(9))
    attempt(total, np.arange(5.0))
    attempt(total, np.arange(10.0)[::3])
    attempt(total, np.arange(5))
    attempt(total, np.ones((2, 2)))
    attempt(total, 3.0)
    attempt(twice, 3)
    attempt(twice, 3.5)
    attempt(twice, np.int16(4))
    attempt(twice, np.float32(1.25))
    attempt(twice, True)
    attempt(twice, np.uint64(7))
    attempt(twice, 2**63)
    attempt(tie, np.int32(5))
    attempt(tie, 7)
    attempt(tie, np.int16(3))
    attempt(tie, 1.5)
    attempt(as_u8, 300)
    attempt(as_u8, -1)
    attempt(as_u8, 7.9)
    attempt(as_u8, np.nan)
    attempt(mix, 1.5, 3)
    attempt(mix, 2, 70000)
    attempt(mix, 0.1, True)
    attempt(truth, 0)
    attempt(truth, 2.5)
    attempt(truth, False)
    attempt(narrow, 1.5)
    attempt(narrow, 2)
    attempt(conj, 1 + 2j)
    attempt(conj, 3)
    attempt(conj, np.complex64(1 - 1j))
    attempt(conj, 2.5)
    attempt(keyworded, 2, 1)
    attempt(keyworded, 2, b=True)
    attempt(keyworded, "x", 1.0)
    print([str(t) for s in twice.signatures for t in s])
    print([str(t) for s in total.signatures for t in s])
    print(len(tie.signatures), len(ident_f64.signatures))

# Augmented assignment to arrays and views in compiled functions: `a += b`, `a *= 2.0`,
# `a[1:3] += 1`, `a[:, 0] -= b`, a row `m[i] /= s`, with broadcasting of the right side to
# the target's shape and the result cast back to the target's dtype (int8 += int64 wraps,
# float32 += float64 rounds), updating the caller's array; element by element in order, so a
# right side that overlaps the target sees earlier updates as in Numba (`a[1:] += a[:-1]`
# is a running sum); `a[:] = b + c` and `a[1:3] = b * 2` assign a whole-array expression.
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def iadd(a, b):
    a += b
    return a


@njit
def isub(a, b):
    a -= b


@njit
def imul(a, b):
    a *= b
    return a


@njit
def idiv(a, b):
    a /= b
    return a


@njit
def ifloordiv(a, b):
    a //= b
    a %= 7
    return a


@njit
def ipow(a):
    a **= 2
    return a


@njit
def ibits(a, b):
    a &= b
    a |= 8
    a ^= 1
    a <<= 1
    a >>= 2
    return a


@njit
def slices(a):
    a[1:3] += 1
    a[::2] *= 10
    a[-1:] -= 100
    return a


@njit
def columns(m, b):
    m[:, 0] -= b
    m[1] /= 2.0
    m[:, 1:] += m[:, :1]
    return m


@njit
def rows(m):
    for i in range(m.shape[0]):
        m[i] -= m[i].mean()
    return m


@njit
def running(a):
    a[1:] += a[:-1]
    return a


@njit
def reversed_add(a):
    a += a[::-1]
    return a


@njit
def fused_update(a, b, c):
    a += 2 * b - c
    return a


@njit
def assign_expr(a, b, c):
    a[:] = b + c
    a[1:3] = b[:2] * 2
    return a


@njit
def loop_update(x, v, dt, n):
    for i in range(n):
        x += v * dt
        v *= 0.5
    return x, v


@njit
def rebinding(a, b):
    c = a
    a = a + b
    return c, a


if __name__ == "__main__":
    a = np.arange(4.0)
    r = iadd(a, 1)
    print(r is a)
    show(a)
    show(iadd(np.arange(4, dtype=np.int32), 1))
    show(iadd(np.arange(3, dtype=np.int8), np.int64(300)))
    show(iadd(np.ones(3, dtype=np.float32), 1.1))
    show(iadd(np.ones(3, dtype=np.float32), np.full(3, 0.1)))
    show(iadd(np.ones(3, dtype=np.int32), np.full(3, 2**33)))
    show(iadd(np.array([True, False, False]), np.array([False, False, True])))
    show(iadd(np.ones((2, 3)), np.arange(3.0)))
    show(iadd(np.ones((2, 3)), np.array([[10.0], [20.0]])))
    show(iadd(np.ones((2, 3)), 0.5))
    b = np.arange(5.0)
    isub(b, 1.0)
    show(b)
    show(imul(np.arange(4, dtype=np.uint8), np.uint8(70)))
    show(imul(np.arange(4.0), np.arange(4, dtype=np.int32)))
    show(idiv(np.arange(4.0), 2))
    show(idiv(np.arange(4, dtype=np.float32), 3))
    show(ifloordiv(np.array([17, -17, 5, 0]), 2))
    show(ifloordiv(np.array([17.5, -17.5, 5.0]), 2.0))
    show(ipow(np.arange(5)))
    show(ipow(np.arange(5, dtype=np.float32)))
    show(ibits(np.array([255, 7, 0]), 6))
    show(slices(np.arange(6)))
    show(slices(np.arange(6.0)))
    show(columns(np.arange(6.0).reshape(3, 2), np.array([1.0, 2.0, 3.0])))
    show(columns(np.asfortranarray(np.arange(6.0).reshape(3, 2)), np.array([1.0, 2.0, 3.0])))
    show(rows(np.arange(6.0).reshape(2, 3)))
    show(running(np.arange(6.0)))
    show(running(np.arange(6)))
    show(reversed_add(np.arange(5.0)))
    show(fused_update(np.ones(3), np.arange(3.0), np.full(3, 0.5)))
    show(assign_expr(np.zeros(4), np.arange(4.0), 2.0))
    x, v = loop_update(np.zeros(3), np.ones(3), 0.1, 5)
    show(x)
    show(v)
    c, d = rebinding(np.ones(2), np.ones(2))
    show(c)
    show(d)

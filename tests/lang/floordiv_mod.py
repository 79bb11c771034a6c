# Python floor division and modulo: for ints (every sign combination; INT_MIN // -1 and
# INT_MIN % -1 are both 0 under Numba, so the divmod identity fails there), int32 elements,
# floats (signed zeros, infinities, nan, tiny and huge operands) and mixed int/float operands.
# The remainder takes the divisor's sign.
from numba import njit
import numpy as np
import math


@njit
def fdiv(a, b):
    return a // b


@njit
def fmod_py(a, b):
    return a % b


@njit
def divmod_check(a, b):
    # The identity a == (a // b) * b + a % b holds for ints.
    q = a // b
    r = a % b
    return q * b + r == a


@njit
def fdiv_elems(a, b, out_q, out_r):
    for i in range(a.shape[0]):
        out_q[i] = a[i] // b[i]
        out_r[i] = a[i] % b[i]


@njit
def mod_in_loop(n, m):
    # A modulo used as an index pattern with negative offsets.
    s = 0
    for i in range(-n, n):
        s += (i % m) * (i // m)
    return s


if __name__ == "__main__":
    ints = [0, 1, 2, 3, 5, 7, 13, 100, -1, -2, -3, -5, -7, -13, -100,
            2**62 + 3, -2**62 - 3, 2**63 - 1, -2**63]
    divs = [1, 2, 3, 7, -1, -2, -3, -7, 10, -10, 2**31, -2**31, 2**63 - 1, -2**63]
    for a in ints:
        for b in divs:
            print("int", a, b, fdiv(a, b), fmod_py(a, b), divmod_check(a, b))
    a = np.array([7, -7, 7, -7, 0, -2**31, -2**31, 2**31 - 1, 1, -1], dtype=np.int32)
    b = np.array([2, 2, -2, -2, -3, -1, 3, -2, -5, 5], dtype=np.int32)
    q = np.zeros(10, dtype=np.int32)
    r = np.zeros(10, dtype=np.int32)
    fdiv_elems(a, b, q, r)
    print("int32 q", q.tolist())
    print("int32 r", r.tolist())
    for n, m in [(10, 3), (10, -3), (17, 5), (5, 17), (9, -1)]:
        print("mod_in_loop", n, m, mod_in_loop(n, m))
    inf = math.inf
    nan = math.nan
    floats = [0.0, -0.0, 1.0, -1.0, 7.5, -7.5, 0.1, -0.1, 1e300, -1e300, 5e-324, -5e-324,
              inf, -inf, nan, 3.0, -3.0, 1e16, -1e16]
    fdivs = [1.0, -1.0, 2.0, -2.0, 0.3, -0.3, 7.0, -7.0, 1e-300, -1e-300, inf, -inf, nan,
             1e16, -1e16, 0.5]
    for x in floats:
        for y in fdivs:
            print("float", repr(x), repr(y), repr(fdiv(x, y)), repr(fmod_py(x, y)))
    for x, y in [(7, 2.0), (-7, 2.0), (7.0, -2), (-7.5, 2), (3, 0.5), (-3, 0.7), (2**53 + 1, 1.0)]:
        print("mixed", repr(x), repr(y), repr(fdiv(x, y)), repr(fmod_py(x, y)))
    af = np.array([5.5, -5.5, 5.5, -5.5, -0.0, 0.0, 1e308], dtype=np.float64)
    bf = np.array([2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 1e-308], dtype=np.float64)
    qf = np.zeros(7)
    rf = np.zeros(7)
    fdiv_elems(af, bf, qf, rf)
    print("float64 q", [repr(v) for v in qf.tolist()])
    print("float64 r", [repr(v) for v in rf.tolist()])

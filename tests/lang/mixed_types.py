# True division and mixed int/float typing: int / int is float64, int // int stays int, int op
# float is float64, float32 op int64 is float64 while float32 op int16 stays float32, and the
# boxed result's Python type (int, float or bool) shows the inferred type.
from numba import njit
import numpy as np


@njit
def tdiv(a, b):
    return a / b


@njit
def half(n):
    return n / 2


@njit
def mean_int(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s / a.shape[0]


@njit
def mixed_add(a, b):
    return a + b


@njit
def mixed_mul(a, b):
    return a * b


@njit
def int_then_float(n):
    # x starts as an int literal and is reassigned a float: the variable is float64.
    x = 0
    for i in range(n):
        x = x + 0.5
    return x


@njit
def elem_mix(a, b, i):
    # a float32 element times an int16 element stays float32; times an int64 is float64.
    return a[i] * b[i]


@njit
def elem_mix_lit(a, i):
    # float32 element times an int literal (int64): float64.
    return a[i] * 3


@njit
def elem_mix_flit(a, i):
    # float32 element times a float literal (float64): float64.
    return a[i] * 0.1


@njit
def div_elems(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] / b[i]


def show(tag, *vals):
    print(tag, *[type(v).__name__ + ":" + repr(v) for v in vals])


if __name__ == "__main__":
    for a, b in [(7, 2), (-7, 2), (1, 3), (2, 1), (0, 5), (-1, 3), (2**53 + 1, 1), (10**18, 7),
                 (7, 2.0), (7.5, 2), (1, 3.0), (True, 2), (3, True)]:
        show("tdiv", a, b, tdiv(a, b))
    for n in [0, 1, 7, -7, 2**62]:
        show("half", n, half(n))
    for dt in [np.int8, np.int32, np.int64, np.uint8, np.float32]:
        a = np.arange(1, 8).astype(dt)
        show("mean_int " + dt.__name__, mean_int(a))
    for a, b in [(1, 2), (1, 2.5), (2.5, 1), (True, 1), (True, 1.5), (True, False), (-3, 0.25)]:
        show("mixed", a, b, mixed_add(a, b), mixed_mul(a, b))
    for n in [0, 1, 3]:
        show("int_then_float", n, int_then_float(n))
    f32 = np.array([0.1, 1.5, 3.3, -2.7], dtype=np.float32)
    i16 = np.array([3, -2, 7, 100], dtype=np.int16)
    i64 = np.array([3, -2, 7, 100], dtype=np.int64)
    i8 = np.array([3, -2, 7, 100], dtype=np.int8)
    u32 = np.array([3, 2, 7, 100], dtype=np.uint32)
    for i in range(4):
        show("elem_mix", i, elem_mix(f32, i16, i), elem_mix(f32, i64, i), elem_mix(f32, i8, i),
             elem_mix(f32, u32, i), elem_mix(i16, i8, i), elem_mix(u32, i64, i))
        show("elem_lit", i, elem_mix_lit(f32, i), elem_mix_flit(f32, i))
    a = np.array([1, -7, 9, 0], dtype=np.int32)
    b = np.array([3, 2, -4, 5], dtype=np.int32)
    out = np.zeros(4)
    div_elems(a, b, out)
    print("div_elems", [repr(v) for v in out.tolist()])
    out32 = np.zeros(4, dtype=np.float32)
    div_elems(a, b, out32)
    print("div_elems f32", [repr(v) for v in out32.tolist()])

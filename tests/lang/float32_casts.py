# float32 arithmetic and explicit casts: np.float32(x) rounds to single precision, float32 op
# float32 stays float32 (the results show single-precision rounding), float32 ** int stays
# float32, a float32 accumulator in a loop, float32 arrays, and integer casts np.int32(x),
# np.int8(x), np.uint8(x), np.int64(x), np.float64(x) (truncation toward zero and wraparound
# at the target width).
from numba import njit
import numpy as np


@njit
def f32(x):
    return np.float32(x)


@njit
def f32_add(x, y):
    return np.float32(x) + np.float32(y)


@njit
def f32_mul(x, y):
    return np.float32(x) * np.float32(y)


@njit
def f32_div(x, y):
    return np.float32(x) / np.float32(y)


@njit
def f32_chain(x):
    # Every intermediate rounds to float32.
    a = np.float32(x)
    b = a * a - np.float32(1.0) / a
    return b * np.float32(3.0) + a


@njit
def f32_pow(x, n):
    return np.float32(x) ** n


@njit
def f32_sum(a):
    s = np.float32(0.0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def f32_dot(a, b):
    s = np.float32(0.0)
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit
def f32_scale(a, k, out):
    kk = np.float32(k)
    for i in range(a.shape[0]):
        out[i] = a[i] * kk + np.float32(0.5)


@njit
def f32_then_f64(x):
    # float32 + float literal promotes to float64.
    return np.float32(x) + 0.1


@njit
def to_i32(x):
    return np.int32(x)


@njit
def to_i8(x):
    return np.int8(x)


@njit
def to_u8(x):
    return np.uint8(x)


@njit
def to_i64(x):
    return np.int64(x)


@njit
def to_f64(x):
    return np.float64(x)


@njit
def i32_arith(x, y):
    # int32 op int32 gives int64 (no wrap at 32 bits).
    return np.int32(x) * np.int32(y)


@njit
def f32_cmp(x):
    # 0.1 as float32 is not equal to 0.1 as float64.
    return np.float32(x) == x


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for x in [0.1, 1.0 / 3.0, 1e-46, 3.4e38, 3.5e38, -0.0, 16777217.0, 7, 2**40 + 1]:
        print("f32", repr(x), r(f32(x)))
    for x, y in [(0.1, 0.2), (1e8, 1.0), (16777216.0, 1.0), (1.0 / 3.0, 3.0), (3e38, 3e38)]:
        print("f32ops", repr(x), repr(y), r(f32_add(x, y)), r(f32_mul(x, y)), r(f32_div(x, y)))
    for x in [0.1, 1.7, -2.3, 1000.1]:
        print("f32_chain", repr(x), r(f32_chain(x)))
    for x, n in [(1.1, 2), (1.1, 10), (0.5, -3), (3.3, 0)]:
        print("f32_pow", repr(x), n, r(f32_pow(x, n)))
    a = np.full(1000, 0.1, dtype=np.float32)
    b = np.linspace(-1.0, 1.0, 1000).astype(np.float32)
    print("f32_sum", r(f32_sum(a)), r(f32_sum(b[::3])), r(f32_sum(a.astype(np.float64))))
    print("f32_dot", r(f32_dot(a, b)))
    out = np.zeros(5, dtype=np.float32)
    f32_scale(np.array([0.1, 0.2, 0.3, -1.5, 1e30], dtype=np.float32), 3.3, out)
    print("f32_scale", [repr(v) for v in out.tolist()])
    for x in [0.1, 2.5]:
        print("f32_then_f64", repr(x), r(f32_then_f64(x)))
    # Integers wrap to the target width.  Floats are cast only where the truncated value fits
    # the target (out-of-range float to int conversion is undefined in LLVM and differs).
    for x in [0, 1, -1, 2**31, 2**31 + 5, -2**31 - 1, 2**40 + 7, 300, -129, 2**63 - 1]:
        print("casts", repr(x), r(to_i32(x)), r(to_i8(x)), r(to_u8(x)), r(to_i64(x)),
              r(to_f64(x)))
    for x in [0.0, -0.0, 1.9, -1.9, 127.5, -128.5]:
        print("fcasts", repr(x), r(to_i32(x)), r(to_i8(x)), r(to_i64(x)), r(to_f64(x)))
    for x in [0.0, 1.9, 255.9, 0.5]:
        print("fcast_u8", repr(x), r(to_u8(x)))
    for x in [3.5e9, -3.5e9, 9.2e18, -9.2e18]:
        print("fcast_i64", repr(x), r(to_i64(x)))
    for x, y in [(65536, 65536), (-2**31, 2), (46341, 46341)]:
        print("i32_arith", x, y, r(i32_arith(x, y)))
    for x in [0.1, 0.5, 1e10, 1e40]:
        print("f32_cmp", repr(x), r(f32_cmp(x)))

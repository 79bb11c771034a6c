# Whole-array expressions in compiled functions: arithmetic, comparisons and bit operations
# between arrays of any layout and number of dimensions and scalars, with NumPy's
# broadcasting and the result dtype Numba gives (NumPy's ufunc loop selection: float32 * int
# is float32, float32 * 2.0 float64, int8 / int8 float32, uint64 + int64 float64); unary
# minus and ~; the elementwise semantics of NumPy's loops (integer x // 0 is 0, float
# division by zero inf or nan, 0 ** -1 the minimum integer); F-ordered results from F
# operands; broadcasting errors (ValueError).
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


def flags(a):
    print(repr(a.shape) + " C=" + repr(a.flags.c_contiguous) + " F=" + repr(a.flags.f_contiguous))


@njit
def add(a, b):
    return a + b


@njit
def sub(a, b):
    return a - b


@njit
def mul(a, b):
    return a * b


@njit
def div(a, b):
    return a / b


@njit
def fdiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def pw(a, b):
    return a ** b


@njit
def band(a, b):
    return a & b


@njit
def bor(a, b):
    return a | b


@njit
def bxor(a, b):
    return a ^ b


@njit
def shl(a, b):
    return a << b


@njit
def shr(a, b):
    return a >> b


@njit
def lt(a, b):
    return a < b


@njit
def eq(a, b):
    return a == b


@njit
def ge(a, b):
    return a >= b


@njit
def ne(a, b):
    return a != b


@njit
def neg(a):
    return -a


@njit
def pos(a):
    b = +a
    b[0] = 99
    return a, b


@njit
def inv(a):
    return ~a


@njit
def fused(a, b, c):
    return a + 2 * b - c / 4.0


@njit
def poly(x):
    return 3.0 * x * x - 2.0 * x + 1.0


@njit
def mixed(a, s):
    return (a * s + 1) / (a - s)


@njit
def scalar_part(a, n):
    return a * (n + 1) - (n // 2)


@njit
def chain(a, b):
    c = a * b
    d = c + a
    return d - b, c


@njit
def loop_expr(a, n):
    s = 0.0
    for i in range(n):
        t = a * i + 1.0
        s += t.sum()
    return s


@njit
def long_sums(a, x):
    # 40 terms each: typed in time linear in their number
    s = (x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x
         + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x)
    t = (a + a + a * 3 + a + a + a * 6 + a + a + a * 9 + a + a + a * 12 + a + a + a * 15
         + a + a + a * 18 + a + a + a * 21 + a + a + a * 24 + a + a + a * 27 + a + a
         + a * 30 + a + a + a * 33 + a + a + a * 36 + a + a + a * 39 + a)
    return s, t


if __name__ == "__main__":
    f64 = np.array([1.5, -2.0, 0.0, 4.0])
    f32 = np.array([1.5, -2.0, 0.25, 4.0], dtype=np.float32)
    i64 = np.array([7, -7, 3, 0])
    i32 = np.array([7, -7, 3, 0], dtype=np.int32)
    i8 = np.array([100, -100, 3, 1], dtype=np.int8)
    u8 = np.array([200, 3, 250, 0], dtype=np.uint8)
    u64 = np.array([1, 2, 3, 2**40], dtype=np.uint64)
    bl = np.array([True, False, True, False])
    bl2 = np.array([True, True, False, False])

    # dtypes of the result, as Numba's ufunc typing gives them
    show(add(f64, f64))
    show(add(f32, f32))
    show(mul(f32, 2))
    show(mul(f32, 2.0))
    show(mul(f32, np.float32(2.0)))
    show(add(f32, i32))
    show(add(f32, i64))
    show(add(f32, i8))
    show(add(i32, i32))
    show(add(i32, 1))
    show(add(i8, i8))
    show(add(u8, u8))
    show(add(u8, 1))
    show(add(u64, i64))
    show(add(u64, 1))
    show(add(bl, bl2))
    show(add(bl, 1))
    show(mul(bl, bl2))
    show(sub(bl, bl2))
    show(add(np.int32(5), np.arange(3, dtype=np.int16)))
    show(add(2.5, i64))

    # division and its relatives
    show(div(i64, 2))
    show(div(i8, i8))
    show(div(f32, 2))
    show(div(i32, i32))
    show(fdiv(i64, 2))
    show(fdiv(i32, -2))
    show(fdiv(f64, 0.5))
    show(mod(i64, 3))
    show(mod(i64, -3))
    show(mod(f64, 1.25))
    show(mod(i8, i8))
    show(div(i64, 0))
    show(div(f64, 0.0))
    show(fdiv(i64, 0))
    show(mod(i64, 0))
    show(fdiv(f64, 0.0))
    show(mod(f64, 0.0))
    show(fdiv(np.array([-9223372036854775808]), -1))

    # powers
    show(pw(i64, 2))
    show(pw(i32, 2))
    show(pw(f32, 2))
    show(pw(f32, 2.0))
    show(pw(f64, 0.5))
    show(pw(np.array([2, 0, -1, 1, 3]), -1))
    show(pw(np.array([2, 3, -2]), np.array([10, 3, 3])))
    show(pw(i32, 0.5))

    # bits and comparisons
    show(band(bl, bl2))
    show(bor(bl, bl2))
    show(bxor(bl, bl2))
    show(band(i64, 6))
    show(bor(u8, u8))
    show(bxor(i32, i32))
    show(shl(i32, 2))
    show(shr(i64, 1))
    show(lt(f32, 1))
    show(lt(i32, f64))
    show(lt(np.array([1, 2]), np.array([2**63, 1], dtype=np.uint64)))
    show(eq(f64, np.array([1.5, 2.0, 0.0, np.nan])))
    show(ne(f64, np.array([1.5, 2.0, 0.0, np.nan])))
    show(ge(bl, bl2))
    show(eq(i8, 3))

    # unary
    show(neg(f64))
    show(neg(i32))
    show(neg(u8))
    show(neg(bl))
    show(inv(bl))
    show(inv(i8))
    show(inv(u8))
    a, b = pos(f64.copy())
    show(a)
    show(b)

    # fused expressions, scalars inside them
    show(fused(f64, i64, f32))
    show(poly(f64))
    show(poly(f32))
    show(mixed(f64, 3))
    show(mixed(i64, 2.5))
    show(scalar_part(i32, 5))
    c, d = chain(f64, i64)
    show(c)
    show(d)
    print(loop_expr(f64, 10))
    sx, sa = long_sums(f64, 1.5)
    print(sx)
    show(sa)

    # broadcasting
    m = np.arange(6.0).reshape(2, 3)
    show(add(m, np.array([10.0, 20.0, 30.0])))
    show(add(np.array([[1.0], [2.0]]), np.array([10.0, 20.0, 30.0])))
    show(mul(m, np.array([[2.0], [3.0]])))
    show(add(np.ones((2, 1, 3)), np.arange(4.0).reshape(4, 1)))
    show(add(np.ones((0, 3)), np.arange(3.0)))
    show(sub(1.0, m))
    show(add(m[:, ::2], m[:, 1:2]))
    show(add(m.T, 1))
    t3 = np.arange(24).reshape(2, 3, 4)
    show(add(t3[:, 1:, ::2], t3[0, 0, :2]))
    for bad in (np.ones(4), np.ones((3, 3)), np.ones((2, 2, 3))):
        try:
            add(np.ones((2, 3)), bad)
            print("no error")
        except ValueError:
            print("ValueError")

    # layouts of the result: F when the arrays are F (and none is C), else C
    fm = np.asfortranarray(m)
    flags(add(fm, fm))
    flags(add(fm, 1.0))
    flags(add(fm, m))
    flags(add(fm, fm[:, ::2][:, :1]))
    flags(add(m[::1, ::2], 1))
    show(add(fm, fm))
    show(mul(fm, m))

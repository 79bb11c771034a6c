# The math module: sqrt exp log log1p expm1 log10 (and np.log2) sin cos tan asin acos atan atan2 sinh
# cosh tanh asinh acosh atanh hypot floor ceil trunc (int results in Numba) fabs copysign np.fmod
# erf erfc gamma lgamma isnan isinf isfinite radians degrees pow, on ordinary values and on the
# special ones (signed zeros, infinities, nan, domain edges), with int and float arguments.
# Results compare with a relative tolerance of 1e-12 (libm implementations differ in ulps).
from numba import njit
import numpy as np
import math


@njit
def f_sqrt(x):
    return math.sqrt(x)


@njit
def f_exp(x):
    return math.exp(x)


@njit
def f_log(x):
    return math.log(x)


@njit
def f_log1p(x):
    return math.log1p(x)


@njit
def f_expm1(x):
    return math.expm1(x)


@njit
def f_log2(x):
    return np.log2(x)  # Numba 0.56 has no math.log2; np.log2 works on scalars


@njit
def f_log10(x):
    return math.log10(x)


@njit
def f_sin(x):
    return math.sin(x)


@njit
def f_cos(x):
    return math.cos(x)


@njit
def f_tan(x):
    return math.tan(x)


@njit
def f_atan(x):
    return math.atan(x)


@njit
def f_asin(x):
    return math.asin(x)


@njit
def f_acos(x):
    return math.acos(x)


@njit
def f_sinh(x):
    return math.sinh(x)


@njit
def f_cosh(x):
    return math.cosh(x)


@njit
def f_tanh(x):
    return math.tanh(x)


@njit
def f_asinh(x):
    return math.asinh(x)


@njit
def f_atanh(x):
    return math.atanh(x)


@njit
def f_acosh(x):
    return math.acosh(x)


@njit
def f_erf(x):
    return math.erf(x)


@njit
def f_erfc(x):
    return math.erfc(x)


@njit
def f_gamma(x):
    return math.gamma(x)


@njit
def f_lgamma(x):
    return math.lgamma(x)


@njit
def f_fabs(x):
    return math.fabs(x)


@njit
def f_radians(x):
    return math.radians(x)


@njit
def f_degrees(x):
    return math.degrees(x)


@njit
def f_floor(x):
    return math.floor(x)


@njit
def f_ceil(x):
    return math.ceil(x)


@njit
def f_trunc(x):
    return math.trunc(x)


@njit
def f_isnan(x):
    return math.isnan(x)


@njit
def f_isinf(x):
    return math.isinf(x)


@njit
def f_isfinite(x):
    return math.isfinite(x)


@njit
def f_atan2(y, x):
    return math.atan2(y, x)


@njit
def f_hypot(x, y):
    return math.hypot(x, y)


@njit
def f_copysign(x, y):
    return math.copysign(x, y)


@njit
def f_fmod(x, y):
    return np.fmod(x, y)  # Numba 0.56 has no math.fmod


@njit
def f_pow(x, y):
    return math.pow(x, y)


@njit
def norm_rows(a, out):
    # Math inside a loop over an array.
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * a[i, j]
        out[i] = math.sqrt(s)


@njit
def np_funcs(x):
    return np.sqrt(x) + np.exp(-x) + np.sin(x) * np.cos(x) + np.arctan2(x, 2.0) + np.log1p(x)


@njit
def constants():
    return math.pi * 1000.0 + math.e + math.tau * 0.001


def r(v):
    return type(v).__name__ + ":" + repr(v)


def try_call(f, *args):
    try:
        return r(f(*args))
    except ValueError:
        return "ValueError"
    except ZeroDivisionError:
        return "ZeroDivisionError"
    except OverflowError:
        return "OverflowError"


if __name__ == "__main__":
    inf = math.inf
    nan = math.nan
    xs = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 3.7, -3.7, 10.0, 100.0, 1e-10, 1e300, -1e300,
          inf, -inf, nan]
    unary = [f_sqrt, f_exp, f_log, f_log1p, f_expm1, f_log2, f_log10, f_sin, f_cos, f_tan,
             f_atan, f_asin, f_acos, f_sinh, f_cosh, f_tanh, f_asinh, f_atanh, f_acosh,
             f_erf, f_erfc, f_gamma, f_lgamma, f_fabs, f_radians, f_degrees,
             f_isnan, f_isinf, f_isfinite]
    for f in unary:
        for x in xs:
            print(f.__name__, repr(x), try_call(f, x))
    for f in [f_sqrt, f_exp, f_log, f_sin, f_fabs, f_gamma, f_isnan, f_floor, f_ceil, f_trunc]:
        for x in [0, 1, 4, -3, 10]:
            print(f.__name__, "int", x, try_call(f, x))
    for f in [f_floor, f_ceil, f_trunc]:
        for x in [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 1e15 + 0.5, -1e15 - 0.5,
                  4503599627370497.0]:
            print(f.__name__, repr(x), try_call(f, x))
    for y in [0.0, -0.0, 1.0, -1.0, inf, -inf, nan]:
        for x in [0.0, -0.0, 1.0, -1.0, inf, -inf, nan]:
            print("atan2", repr(y), repr(x), try_call(f_atan2, y, x))
    pairs = [(3.0, 4.0), (-3.0, 4.0), (0.0, 0.0), (1e300, 1e300), (inf, nan), (nan, 1.0),
             (5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (-5.5, -2.0), (1.0, -0.0), (-0.0, 1.0),
             (7, 3), (2, 0.5), (0.0, 1.0), (inf, 2.0), (2.0, inf), (1.0, 0.0), (-8.0, 1.0 / 3.0)]
    for x, y in pairs:
        print("binary", repr(x), repr(y), try_call(f_hypot, x, y), try_call(f_copysign, x, y),
              try_call(f_fmod, x, y), try_call(f_pow, x, y))
    a = np.array([[3.0, 4.0], [1.0, 1.0], [0.0, 0.0], [-5.0, 12.0]])
    out = np.zeros(4)
    norm_rows(a, out)
    print("norm_rows", [repr(v) for v in out.tolist()])
    for x in [0.0, 0.5, 2.0, 10.0]:
        print("np_funcs", repr(x), r(np_funcs(x)))
    print("constants", r(constants()))

# cmath.py — the cmath module (and NumPy's ufuncs on complex scalars) in numjit's own language,
# computed as Numba 0.56 computes them (numba/cpython/cmathimpl.py, which follows CPython's
# cmathmodule.c and NumPy's npy_math_complex.c), special values included, so that results
# agree bit for bit.
#
# The compiler adds these functions to a module that imports cmath or numpy; a call
# cmath.NAME(z) or np.NAME(z) on a complex z becomes _nj_cmath_NAME(z) below, its result cast
# back to z's type (complex64 stays complex64, as in Numba).  The typing rules are Numba's, so
# a complex64 argument computes in float32 where Numba's does and in float64 where its
# constants widen it.
import math as _nj_math

_NJ_LN_4 = 1.3862943611198906          # math.log(4)
_NJ_LN_10 = 2.302585092994046
_NJ_FLT_MAX = 3.4028234663852886e+38
_NJ_FLT_MIN = 1.1754943508222875e-38
_NJ_DBL_MAX = 1.7976931348623157e+308
_NJ_ONE_PLUS_SQRT2 = 2.414213562373095
_NJ_HALF_PI = 1.5707963267948966


def _nj_cmath_isnan(z):
    return _nj_math.isnan(z.real) or _nj_math.isnan(z.imag)


def _nj_cmath_isinf(z):
    return _nj_math.isinf(z.real) or _nj_math.isinf(z.imag)


def _nj_cmath_isfinite(z):
    return _nj_math.isfinite(z.real) and _nj_math.isfinite(z.imag)


def _nj_cmath_phase(z):
    return _nj_math.atan2(z.imag, z.real)


def _nj_cmath_polar(z):
    return _nj_math.hypot(z.real, z.imag), _nj_math.atan2(z.imag, z.real)


def _nj_cmath_rect(r, phi):
    if not _nj_math.isfinite(phi):
        if r == 0.0:
            return complex(abs(r), 0.0)          # 0 for an infinite or nan angle
        if _nj_math.isinf(r):
            return complex(r, phi)
    re = _nj_math.cos(phi)
    im = _nj_math.sin(phi)
    # a zero part times an infinite radius keeps the zero, with the signs' product
    if re == 0.0 and _nj_math.isinf(r):
        re = re / r
    else:
        re = re * r
    if im == 0.0 and _nj_math.isinf(r):
        im = im / r
    else:
        im = im * r
    return complex(re, im)


def _nj_cmath_exp(z):
    x = z.real
    y = z.imag
    if _nj_math.isfinite(x):
        if _nj_math.isfinite(y):
            r = _nj_math.exp(x)
            return complex(r * _nj_math.cos(y), r * _nj_math.sin(y))
        return complex(_nj_math.nan, _nj_math.nan)
    if _nj_math.isnan(x):
        if y != 0.0:
            return complex(x, x)
        return complex(x, y)
    if x > 0.0:                                   # +inf
        if _nj_math.isfinite(y):
            re = _nj_math.cos(y)
            im = _nj_math.sin(y)
            if re != 0:
                re = re * x
            if im != 0:
                im = im * x
            return complex(re, im)
        return complex(x, _nj_math.nan)
    if _nj_math.isfinite(y):                          # -inf
        r = _nj_math.exp(x)
        return complex(r * _nj_math.cos(y), r * _nj_math.sin(y))
    return complex(0.0, 0.0)


def _nj_cmath_log(z):
    return complex(_nj_math.log(_nj_math.hypot(z.real, z.imag)), _nj_math.atan2(z.imag, z.real))


def _nj_cmath_log10(z):
    w = _nj_cmath_log(z)
    return complex(w.real / _NJ_LN_10, w.imag / _NJ_LN_10)


def _nj_cmath_sqrt_scaled(a, b, thres):
    """NumPy's npy_csqrt (Algorithm 312, CACM 10, 1967), scaled near overflow."""
    if a == 0.0 and b == 0.0:
        return complex(abs(b), b)
    if _nj_math.isinf(b):
        return complex(abs(b), b)
    if _nj_math.isnan(a):
        return complex(a, a)
    if _nj_math.isinf(a):
        if a < 0.0:
            return complex(abs(b - b), _nj_math.copysign(a, b))
        return complex(a, _nj_math.copysign(b - b, b))
    scale = abs(a) >= thres or abs(b) >= thres
    if scale:
        a = a * 0.25
        b = b * 0.25
    if a >= 0:
        t = _nj_math.sqrt((a + _nj_math.hypot(a, b)) * 0.5)
        re = t
        im = b / (2 * t)
    else:
        t = _nj_math.sqrt((-a + _nj_math.hypot(a, b)) * 0.5)
        re = abs(b) / (2 * t)
        im = _nj_math.copysign(t, b)
    if scale:
        return complex(re * 2, im)
    return complex(re, im)


def _nj_cmath_sqrt(z):
    return _nj_cmath_sqrt_scaled(z.real, z.imag, _NJ_DBL_MAX / _NJ_ONE_PLUS_SQRT2)


def _nj_cmath_sqrt64(z):
    """sqrt of a complex64: the overflow threshold of float32."""
    return _nj_cmath_sqrt_scaled(z.real, z.imag, _NJ_FLT_MAX / _NJ_ONE_PLUS_SQRT2)


def _nj_cmath_cosh(z):
    x = z.real
    y = z.imag
    if _nj_math.isinf(x):
        if _nj_math.isnan(y) or y == 0.0:
            re = abs(x)
            im = y
        else:
            re = _nj_math.copysign(x, _nj_math.cos(y))
            im = _nj_math.copysign(x, _nj_math.sin(y))
        if x < 0.0:
            im = -im
        return complex(re, im)
    return complex(_nj_math.cos(y) * _nj_math.cosh(x), _nj_math.sin(y) * _nj_math.sinh(x))


def _nj_cmath_cos(z):
    return _nj_cmath_cosh(complex(-z.imag, z.real))


def _nj_cmath_sinh(z):
    x = z.real
    y = z.imag
    if _nj_math.isinf(x):
        if _nj_math.isnan(y):
            return complex(x, y)
        re = _nj_math.cos(y)
        im = _nj_math.sin(y)
        if re != 0.0:
            re = re * x
        if im != 0.0:
            im = im * abs(x)
        return complex(re, im)
    return complex(_nj_math.cos(y) * _nj_math.sinh(x), _nj_math.sin(y) * _nj_math.cosh(x))


def _nj_cmath_sin(z):
    w = _nj_cmath_sinh(complex(-z.imag, z.real))
    return complex(w.imag, -w.real)


def _nj_cmath_tanh(z):
    x = z.real
    y = z.imag
    if _nj_math.isinf(x):
        re = _nj_math.copysign(1.0, x)
        if _nj_math.isinf(y):
            im = 0.0
        else:
            im = _nj_math.copysign(0.0, _nj_math.sin(2.0 * y))
        return complex(re, im)
    tx = _nj_math.tanh(x)
    ty = _nj_math.tan(y)
    cx = 1.0 / _nj_math.cosh(x)
    txty = tx * ty
    den = 1.0 + txty * txty
    return complex(tx * (1.0 + ty * ty) / den, ((ty / den) * cx) * cx)


def _nj_cmath_tan(z):
    w = _nj_cmath_tanh(complex(-z.imag, z.real))
    return complex(w.imag, -w.real)


def _nj_cmath_acos(z):
    thres = _NJ_FLT_MAX / 4
    if abs(z.real) > thres or abs(z.imag) > thres:
        re = _nj_math.atan2(abs(z.imag), z.real)
        im = _nj_math.copysign(_nj_math.log(_nj_math.hypot(z.real * 0.5, z.imag * 0.5)) + _NJ_LN_4,
                           -z.imag)
        return complex(re, im)
    s1 = _nj_cmath_sqrt(complex(1.0 - z.real, -z.imag))
    s2 = _nj_cmath_sqrt(complex(1.0 + z.real, z.imag))
    return complex(2.0 * _nj_math.atan2(s1.real, s2.real),
                   _nj_math.asinh(s2.real * s1.imag - s2.imag * s1.real))


def _nj_cmath_acosh(z):
    thres = _NJ_FLT_MAX / 4
    if abs(z.real) > thres or abs(z.imag) > thres:
        return complex(_nj_math.log(_nj_math.hypot(z.real * 0.5, z.imag * 0.5)) + _NJ_LN_4,
                       _nj_math.atan2(z.imag, z.real))
    s1 = _nj_cmath_sqrt(complex(z.real - 1.0, z.imag))
    s2 = _nj_cmath_sqrt(complex(z.real + 1.0, z.imag))
    return complex(_nj_math.asinh(s1.real * s2.real + s1.imag * s2.imag),
                   2.0 * _nj_math.atan2(s1.imag, s2.real))


def _nj_cmath_asinh(z):
    thres = _NJ_FLT_MAX / 4
    if abs(z.real) > thres or abs(z.imag) > thres:
        re = _nj_math.copysign(_nj_math.log(_nj_math.hypot(z.real * 0.5, z.imag * 0.5)) + _NJ_LN_4,
                           z.real)
        return complex(re, _nj_math.atan2(z.imag, abs(z.real)))
    s1 = _nj_cmath_sqrt(complex(1.0 + z.imag, -z.real))
    s2 = _nj_cmath_sqrt(complex(1.0 - z.imag, z.real))
    return complex(_nj_math.asinh(s1.real * s2.imag - s2.real * s1.imag),
                   _nj_math.atan2(z.imag, s1.real * s2.real - s1.imag * s2.imag))


def _nj_cmath_asin(z):
    w = _nj_cmath_asinh(complex(-z.imag, z.real))
    return complex(w.imag, -w.real)


def _nj_cmath_atanh(z):
    large = _nj_math.sqrt(_NJ_FLT_MAX / 4)
    small = _nj_math.sqrt(_NJ_FLT_MIN)
    x = z.real
    y = z.imag
    negate = x < 0.0
    if negate:                                    # atanh(z) = -atanh(-z)
        x = -x
        y = -y
    ay = abs(y)
    if _nj_math.isnan(x) or x > large or ay > large:
        if _nj_math.isinf(y):
            re = _nj_math.copysign(0.0, x)
        elif _nj_math.isinf(x):
            re = 0.0
        else:
            h = _nj_math.hypot(x * 0.5, y * 0.5)
            re = x / 4.0 / h / h
        im = -_nj_math.copysign(_NJ_HALF_PI, -y)
    elif x == 1.0 and ay < small:
        if ay == 0.0:
            re = _nj_math.inf
            im = y
        else:
            re = -_nj_math.log(_nj_math.sqrt(ay) / _nj_math.sqrt(_nj_math.hypot(ay, 2.0)))
            im = _nj_math.copysign(_nj_math.atan2(2.0, -ay) / 2, y)
    else:
        sqay = ay * ay
        zr1 = 1 - x
        re = _nj_math.log1p(4.0 * x / (zr1 * zr1 + sqay)) * 0.25
        im = -_nj_math.atan2(-2.0 * y, zr1 * (1 + x) - sqay) * 0.5
    if _nj_math.isnan(y):
        im = _nj_math.nan
    if negate:
        return complex(-re, -im)
    return complex(re, im)


def _nj_cmath_atan(z):
    w = _nj_cmath_atanh(complex(-z.imag, z.real))
    if _nj_math.isinf(z.real) and _nj_math.isnan(z.imag):
        return complex(w.imag, w.real)
    return complex(w.imag, -w.real)

/* numpy.c — NumPy's constants, its submodules and its element-wise functions (the ufuncs,
 * NumPy's spelling of math, np.abs/minimum/maximum, real/imag/conj/angle, where, clip).
 *
 * An element-wise function with an array among its arguments is an array expression: the
 * typer fuses it with the operators around it into one loop (typer_arrexpr.c).  On numbers it
 * is the math function (lib/math.c, NumPy's rules: np.floor stays a float, np.fmod of
 * integers an integer, complex numbers through cmath) or the builtin it matches (abs, min,
 * max).  np.where with one argument is np.nonzero (typer_index.c).
 */
#include "lib.h"

#include <math.h>

/* A call with an array operand as a fused array expression (typer_arrexpr.c). */
static bool array_expr(Fn *fn, Node *call, Val *r) { return ty_arrexpr(fn, call, r); }

static Val builtin_call(Fn *fn, const LibEntry *le, Node *call, Val callee) { /* np.abs ... */
    Val r;
    if (array_expr(fn, call, &r))
        return r;
    return le->spell[0] == 'a' ? lib_abs_call(fn, le, call, callee)
                               : lib_minmax_call(fn, le, call, callee);
}

static Val math_call(Fn *fn, const LibEntry *le, Node *call, Val callee) { /* np.sqrt ... */
    Val r, a[16];
    int n;
    if (array_expr(fn, call, &r))
        return r;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return lib_math_apply(fn, callee.idx, true, a, n, call->loc);
}

static Val ufunc_call(Fn *fn, const LibEntry *le, Node *call, Val callee) { /* np.add ... */
    Val r, a[16];
    int n;
    if (array_expr(fn, call, &r))
        return r;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_array_call(fn, le->spell + 3, verr(), call, a, n); /* its error for numbers */
}

static Val where_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    if (call->list.n == 1) /* np.where(a): np.nonzero(a) */
        return ty_index_np_call(fn, "where", call, verr());
    return ufunc_call(fn, le, call, callee);
}

/* np.real, np.imag, np.conj, np.conjugate, np.angle: of an array, views or array expressions;
 * of a number, its parts (a real number's imaginary part is 0, its phase 0 or pi). */
static Val cpart_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val r, a[16];
    int n;
    if (array_expr(fn, call, &r))
        return r;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    const char *name = le->spell + 3;
    Loc loc = call->loc;
    if (n == 1 && a[0].t->kind == TY_ARRAY && (name[0] == 'r' || name[0] == 'i'))
        return ty_array_attr(fn, a[0], name, loc); /* views, as a.real and a.imag */
    if (n == 1 && ty_is_elem(a[0].t)) {
        Val z = a[0];
        if (name[0] == 'c') /* conj, conjugate */
            return ty_complex_conjugate(fn, z, loc);
        if (name[0] == 'a') { /* angle: the phase; a real number's is 0 or pi */
            if (!ty_is_complex(z.t))
                z = vval(ty_complex_of(z.t), ty_cast(fn, z.v, z.t, ty_complex_of(z.t), loc));
            return ty_cmath_call(fn, "phase", &z, 1, loc);
        }
        if (ty_is_complex(z.t))
            return ty_complex_attr(fn, z, name, loc);
        return name[0] == 'r' ? z : vval(z.t, ty_const_int(fn, z.t, 0, loc));
    }
    return ty_array_call(fn, name, verr(), call, a, n);
}

/* np.ndindex(shape) and np.ndenumerate(a) are for loops' iterables (typer_iter.c); a call
 * anywhere else makes an iterator object, which numjit does not have. */
static Val iterable_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    ty_error(fn, call->loc, "%s() is supported only as the iterable of a for loop", le->spell);
    return verr();
}

/* np.dtype(X) is read where a function takes a dtype (typer_dtype.c); a dtype as a value of
 * its own (in a variable, returned) is not supported yet. */
static Val dtype_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le, (void)callee;
    ty_error(fn, call->loc, "np.dtype(...) is supported only as the dtype argument of a "
             "function, such as np.zeros(n, np.dtype('float32'))");
    return verr();
}

/* np.finfo(X).attr and np.iinfo(X).attr are read where written (typer_xinfo.c); the object
 * itself, kept in a variable, is not supported yet. */
static Val xinfo_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)callee;
    ty_error(fn, call->loc, "%s(...) is supported only with its attribute where it is called, "
             "such as %s(np.float64).%s", le->spell, le->spell, le->spell[3] == 'f' ? "eps" : "max");
    return verr();
}

/* ---- the tables --------------------------------------------------------------------------------- */
static const LibEntry numpy_rows[] = {
    {"numpy.ndindex", "*shape", LIB_CPU, NULL, iterable_call, "np.ndindex", 0, 0},
    {"numpy.ndenumerate", "arr", LIB_CPU, NULL, iterable_call, "np.ndenumerate", 0, 0},
    {"numpy.pi", "", LIB_CONST, lib_const, NULL, NULL, 0, M_PI},
    {"numpy.e", "", LIB_CONST, lib_const, NULL, NULL, 0, M_E},
    {"numpy.inf", "", LIB_CONST, lib_const, NULL, NULL, 0, INFINITY},
    {"numpy.nan", "", LIB_CONST, lib_const, NULL, NULL, 0, NAN},
    {"numpy.linalg", "", LIB_MODULE, lib_module, NULL, "numpy.linalg", 0, 0},
    {"numpy.random", "", LIB_MODULE, lib_module, NULL, "numpy.random", 0, 0},
    {"numpy.dtype", "dtype, align=False, copy=False", LIB_CPU, NULL, dtype_call, "np.dtype", 0, 0},
    {"numpy.finfo", "dtype", 0, NULL, xinfo_call, "np.finfo", 0, 0},
    {"numpy.iinfo", "int_type", 0, NULL, xinfo_call, "np.iinfo", 0, 0},
    {NULL},
};
const LibTable lib_numpy_table = {"numpy", numpy_rows};

/* NumPy's names of math.def's functions are V_MATH (lib_math_value); the others are callables
 * of their spelling ("abs" for np.abs: the builtin on numbers). */
static const LibEntry ufunc_rows[] = {
    {"numpy.sqrt", "x, /", LIB_UFUNC, lib_math_value, math_call, "sqrt", MATH_SQRT, 0},
    {"numpy.exp", "x, /", LIB_UFUNC, lib_math_value, math_call, "exp", MATH_EXP, 0},
    {"numpy.exp2", "x, /", LIB_UFUNC, lib_math_value, math_call, "exp2", MATH_EXP2, 0},
    {"numpy.expm1", "x, /", LIB_UFUNC, lib_math_value, math_call, "expm1", MATH_EXPM1, 0},
    {"numpy.log", "x, /", LIB_UFUNC, lib_math_value, math_call, "log", MATH_LOG, 0},
    {"numpy.log2", "x, /", LIB_UFUNC, lib_math_value, math_call, "log2", MATH_LOG2, 0},
    {"numpy.log10", "x, /", LIB_UFUNC, lib_math_value, math_call, "log10", MATH_LOG10, 0},
    {"numpy.log1p", "x, /", LIB_UFUNC, lib_math_value, math_call, "log1p", MATH_LOG1P, 0},
    {"numpy.sin", "x, /", LIB_UFUNC, lib_math_value, math_call, "sin", MATH_SIN, 0},
    {"numpy.cos", "x, /", LIB_UFUNC, lib_math_value, math_call, "cos", MATH_COS, 0},
    {"numpy.tan", "x, /", LIB_UFUNC, lib_math_value, math_call, "tan", MATH_TAN, 0},
    {"numpy.asin", "x, /", LIB_UFUNC, lib_math_value, math_call, "asin", MATH_ASIN, 0},
    {"numpy.acos", "x, /", LIB_UFUNC, lib_math_value, math_call, "acos", MATH_ACOS, 0},
    {"numpy.atan", "x, /", LIB_UFUNC, lib_math_value, math_call, "atan", MATH_ATAN, 0},
    {"numpy.sinh", "x, /", LIB_UFUNC, lib_math_value, math_call, "sinh", MATH_SINH, 0},
    {"numpy.cosh", "x, /", LIB_UFUNC, lib_math_value, math_call, "cosh", MATH_COSH, 0},
    {"numpy.tanh", "x, /", LIB_UFUNC, lib_math_value, math_call, "tanh", MATH_TANH, 0},
    {"numpy.asinh", "x, /", LIB_UFUNC, lib_math_value, math_call, "asinh", MATH_ASINH, 0},
    {"numpy.acosh", "x, /", LIB_UFUNC, lib_math_value, math_call, "acosh", MATH_ACOSH, 0},
    {"numpy.atanh", "x, /", LIB_UFUNC, lib_math_value, math_call, "atanh", MATH_ATANH, 0},
    {"numpy.erf", "x, /", LIB_UFUNC, lib_math_value, math_call, "erf", MATH_ERF, 0},
    {"numpy.erfc", "x, /", LIB_UFUNC, lib_math_value, math_call, "erfc", MATH_ERFC, 0},
    {"numpy.gamma", "x, /", LIB_UFUNC, lib_math_value, math_call, "gamma", MATH_GAMMA, 0},
    {"numpy.lgamma", "x, /", LIB_UFUNC, lib_math_value, math_call, "lgamma", MATH_LGAMMA, 0},
    {"numpy.floor", "x, /", LIB_UFUNC, lib_math_value, math_call, "floor", MATH_FLOOR, 0},
    {"numpy.ceil", "x, /", LIB_UFUNC, lib_math_value, math_call, "ceil", MATH_CEIL, 0},
    {"numpy.trunc", "x, /", LIB_UFUNC, lib_math_value, math_call, "trunc", MATH_TRUNC, 0},
    {"numpy.fabs", "x, /", LIB_UFUNC, lib_math_value, math_call, "fabs", MATH_FABS, 0},
    {"numpy.rint", "x, /", LIB_UFUNC, lib_math_value, math_call, "rint", MATH_RINT, 0},
    {"numpy.radians", "x, /", LIB_UFUNC, lib_math_value, math_call, "radians", MATH_RADIANS, 0},
    {"numpy.degrees", "x, /", LIB_UFUNC, lib_math_value, math_call, "degrees", MATH_DEGREES, 0},
    {"numpy.atan2", "y, x, /", LIB_UFUNC, lib_math_value, math_call, "atan2", MATH_ATAN2, 0},
    {"numpy.hypot", "x1, x2, /", LIB_UFUNC, lib_math_value, math_call, "hypot", MATH_HYPOT, 0},
    {"numpy.pow", "x, y, /", LIB_UFUNC, lib_math_value, math_call, "pow", MATH_POW, 0},
    {"numpy.copysign", "x1, x2, /", LIB_UFUNC, lib_math_value, math_call, "copysign", MATH_COPYSIGN, 0},
    {"numpy.fmod", "x1, x2, /", LIB_UFUNC, lib_math_value, math_call, "fmod", MATH_FMOD, 0},
    {"numpy.isnan", "x, /", LIB_UFUNC, lib_math_value, math_call, "isnan", MATH_ISNAN, 0},
    {"numpy.isinf", "x, /", LIB_UFUNC, lib_math_value, math_call, "isinf", MATH_ISINF, 0},
    {"numpy.isfinite", "x, /", LIB_UFUNC, lib_math_value, math_call, "isfinite", MATH_ISFINITE, 0},
    {"numpy.arcsin", "x, /", LIB_UFUNC, lib_math_value, math_call, "arcsin", MATH_ASIN, 0},
    {"numpy.arccos", "x, /", LIB_UFUNC, lib_math_value, math_call, "arccos", MATH_ACOS, 0},
    {"numpy.arctan", "x, /", LIB_UFUNC, lib_math_value, math_call, "arctan", MATH_ATAN, 0},
    {"numpy.arctan2", "x1, x2, /", LIB_UFUNC, lib_math_value, math_call, "arctan2", MATH_ATAN2, 0},
    {"numpy.arcsinh", "x, /", LIB_UFUNC, lib_math_value, math_call, "arcsinh", MATH_ASINH, 0},
    {"numpy.arccosh", "x, /", LIB_UFUNC, lib_math_value, math_call, "arccosh", MATH_ACOSH, 0},
    {"numpy.arctanh", "x, /", LIB_UFUNC, lib_math_value, math_call, "arctanh", MATH_ATANH, 0},
    {"numpy.power", "x1, x2, /", LIB_UFUNC, lib_math_value, math_call, "power", MATH_POW, 0},
    {"numpy.absolute", "x, /", LIB_UFUNC, lib_math_value, math_call, "absolute", MATH_FABS, 0},
    {"numpy.deg2rad", "x, /", LIB_UFUNC, lib_math_value, math_call, "deg2rad", MATH_RADIANS, 0},
    {"numpy.rad2deg", "x, /", LIB_UFUNC, lib_math_value, math_call, "rad2deg", MATH_DEGREES, 0},
    {"numpy.abs", "x, /", LIB_UFUNC, NULL, builtin_call, "abs", 0, 0},
    {"numpy.minimum", "x1, x2, /", LIB_UFUNC, NULL, builtin_call, "min", 0, 0},
    {"numpy.maximum", "x1, x2, /", LIB_UFUNC, NULL, builtin_call, "max", 0, 0},
    {"numpy.real", "val", LIB_UFUNC | LIB_KEYWORDS, NULL, cpart_call, "np.real", 0, 0},
    {"numpy.imag", "val", LIB_UFUNC | LIB_KEYWORDS, NULL, cpart_call, "np.imag", 0, 0},
    {"numpy.conj", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, cpart_call, "np.conj", 0, 0},
    {"numpy.conjugate", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, cpart_call, "np.conjugate", 0, 0},
    {"numpy.angle", "z, deg=False", LIB_UFUNC | LIB_KEYWORDS, NULL, cpart_call, "np.angle", 0, 0},
    {"numpy.add", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.add", 0, 0},
    {"numpy.subtract", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.subtract", 0, 0},
    {"numpy.multiply", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.multiply", 0, 0},
    {"numpy.true_divide", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.true_divide", 0, 0},
    {"numpy.divide", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.divide", 0, 0},
    {"numpy.floor_divide", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.floor_divide", 0, 0},
    {"numpy.remainder", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.remainder", 0, 0},
    {"numpy.mod", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.mod", 0, 0},
    {"numpy.bitwise_and", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.bitwise_and", 0, 0},
    {"numpy.bitwise_or", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.bitwise_or", 0, 0},
    {"numpy.bitwise_xor", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.bitwise_xor", 0, 0},
    {"numpy.left_shift", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.left_shift", 0, 0},
    {"numpy.right_shift", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.right_shift", 0, 0},
    {"numpy.equal", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.equal", 0, 0},
    {"numpy.not_equal", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.not_equal", 0, 0},
    {"numpy.less", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.less", 0, 0},
    {"numpy.less_equal", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.less_equal", 0, 0},
    {"numpy.greater", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.greater", 0, 0},
    {"numpy.greater_equal", "x1, x2, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.greater_equal", 0, 0},
    {"numpy.negative", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.negative", 0, 0},
    {"numpy.positive", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.positive", 0, 0},
    {"numpy.invert", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.invert", 0, 0},
    {"numpy.sign", "x, /", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.sign", 0, 0},
    {"numpy.where", "condition, [x, y], /", LIB_UFUNC | LIB_KEYWORDS, NULL, where_call, "np.where", 0, 0},
    {"numpy.clip", "a, a_min, a_max, out=None, **kwargs", LIB_UFUNC | LIB_KEYWORDS, NULL, ufunc_call, "np.clip", 0, 0},
    {NULL},
};
const LibTable lib_numpy_ufunc_table = {"numpy: element-wise", ufunc_rows};

/* math.c — the math and cmath modules: their constants and functions, one row each.
 *
 * math.NAME (and NumPy's function of the same math, lib/numpy.c) is an entry of
 * stdlib/math.def: the typer carries it as a V_MATH (its index) until the call, which
 * converts the arguments to float64 (float32 when all are float32) and emits the IR op `math`
 * (codegen lowers it to an LLVM intrinsic, libm or libdevice).  math.floor/ceil/trunc give
 * int64, as in Python; isnan/isinf/isfinite of integers are constants.  cmath.NAME is a
 * function of stdlib/cmath.py, written in numjit's own language (typer_complex.c calls it).
 */
#include "lib.h"

#include <math.h>

Val lib_math_value(Fn *fn, const LibEntry *le, Loc loc) {
    return (Val){.k = V_MATH, .idx = le->idx, .np = le->name[0] == 'n', .name = le->spell};
}

Val lib_math_apply(Fn *fn, int k, bool np, Val *a, int n, Loc loc) {
    const MathInfo *mi = &ir_math[k];
    if (n != mi->arity) {
        ty_error(fn, loc, "%s() takes %d argument%s (%d given)", mi->name, mi->arity,
                 mi->arity == 1 ? "" : "s", n);
        return verr();
    }
    bool cplx = false;
    for (int i = 0; i < n; i++)
        cplx |= ty_is_complex(a[i].t);
    if (np && cplx) { /* NumPy's ufuncs on complex scalars: as cmath (Numba's npyfuncs.py) */
        if (k == MATH_FABS && n == 1)
            return ty_complex_abs(fn, a[0], loc);
        if (k == MATH_POW)
            return ty_binop(fn, OP_POW, a[0], a[1], loc);
        if (n == 1 && ty_cmath_has(mi->name))
            return ty_cmath_call(fn, mi->name, a, 1, loc);
    }
    bool all32 = true;
    for (int i = 0; i < n; i++) {
        if (!ty_is_scalar(a[i].t)) {
            ty_error(fn, loc, "%s() needs numbers, not %s%s", mi->name, a[i].t->name,
                     a[i].t->kind == TY_ARRAY ? " (apply it to each element in a loop)" : "");
            return verr();
        }
        all32 &= a[i].t == ty_f32;
    }
    const Type *t = all32 ? ty_f32 : ty_f64;
    if (k == MATH_FMOD && np && !ty_is_float(a[0].t) && !ty_is_float(a[1].t)) {
        /* np.fmod of ints stays an int: the remainder with the dividend's sign */
        const Type *it = ty_arith(a[0].t, a[1].t);
        IrInst *x = ty_cast(fn, a[0].v, a[0].t, it, loc), *y = ty_cast(fn, a[1].v, a[1].t, it, loc);
        IrInst *m = bin(fn, IR_MOD, it, x, y, loc);
        if (!ty_is_signed(it))
            return vval(it, m);
        IrInst *z = ty_const_int(fn, it, 0, loc);
        IrInst *differ = bin(fn, IR_BITXOR, ty_bool, cmp(fn, CMP_LT, x, z, loc), cmp(fn, CMP_LT, y, z, loc), loc);
        IrInst *adj = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_NE, m, z, loc), differ, loc);
        IrInst *ops[3] = {adj, bin(fn, IR_SUB, it, m, y, loc), m};
        return vval(it, ty_emit(fn, IR_SELECT, it, loc, 3, ops));
    }
    if (mi->kind == MK_PRED && !ty_is_float(a[0].t)) /* ints are never nan or inf */
        return vval(ty_bool, ty_const_int(fn, ty_bool, k == MATH_ISFINITE, loc));
    IrInst *args[2];
    for (int i = 0; i < n; i++)
        args[i] = ty_cast(fn, a[i].v, a[i].t, t, loc);
    const Type *rt = mi->kind == MK_PRED ? ty_bool : t;
    IrInst *r = ty_emit(fn, IR_MATH, rt, loc, n, args);
    if (r)
        r->imm.index = k;
    if (mi->kind == MK_ROUND && !np) /* math.floor/ceil/trunc give int64 */
        return vval(ty_i64, ty_cast(fn, r, t, ty_i64, loc));
    return vval(rt, r);
}

static Val math_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return lib_math_apply(fn, callee.idx, callee.np, a, n, call->loc);
}

static Val imag_const(Fn *fn, const LibEntry *le, Loc loc) { /* cmath.infj, cmath.nanj */
    return ty_imag_literal(fn, le->x, loc);
}

static Val cmath_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_cmath_call(fn, le->spell + 6, a, n, call->loc); /* typer_complex.c */
}

/* ---- the tables --------------------------------------------------------------------------------- */
static const LibEntry math_rows[] = {
    {"math.pi", "", LIB_CONST, lib_const, NULL, NULL, 0, M_PI},
    {"math.e", "", LIB_CONST, lib_const, NULL, NULL, 0, M_E},
    {"math.tau", "", LIB_CONST, lib_const, NULL, NULL, 0, 2 * M_PI},
    {"math.inf", "", LIB_CONST, lib_const, NULL, NULL, 0, INFINITY},
    {"math.nan", "", LIB_CONST, lib_const, NULL, NULL, 0, NAN},
    {"math.sqrt", "x, /", 0, lib_math_value, math_call, "sqrt", MATH_SQRT, 0},
    {"math.exp", "x, /", 0, lib_math_value, math_call, "exp", MATH_EXP, 0},
    {"math.expm1", "x, /", 0, lib_math_value, math_call, "expm1", MATH_EXPM1, 0},
    {"math.log", "x, [base=math.e]", 0, lib_math_value, math_call, "log", MATH_LOG, 0},
    {"math.log2", "x, /", 0, lib_math_value, math_call, "log2", MATH_LOG2, 0},
    {"math.log10", "x, /", 0, lib_math_value, math_call, "log10", MATH_LOG10, 0},
    {"math.log1p", "x, /", 0, lib_math_value, math_call, "log1p", MATH_LOG1P, 0},
    {"math.sin", "x, /", 0, lib_math_value, math_call, "sin", MATH_SIN, 0},
    {"math.cos", "x, /", 0, lib_math_value, math_call, "cos", MATH_COS, 0},
    {"math.tan", "x, /", 0, lib_math_value, math_call, "tan", MATH_TAN, 0},
    {"math.asin", "x, /", 0, lib_math_value, math_call, "asin", MATH_ASIN, 0},
    {"math.acos", "x, /", 0, lib_math_value, math_call, "acos", MATH_ACOS, 0},
    {"math.atan", "x, /", 0, lib_math_value, math_call, "atan", MATH_ATAN, 0},
    {"math.sinh", "x, /", 0, lib_math_value, math_call, "sinh", MATH_SINH, 0},
    {"math.cosh", "x, /", 0, lib_math_value, math_call, "cosh", MATH_COSH, 0},
    {"math.tanh", "x, /", 0, lib_math_value, math_call, "tanh", MATH_TANH, 0},
    {"math.asinh", "x, /", 0, lib_math_value, math_call, "asinh", MATH_ASINH, 0},
    {"math.acosh", "x, /", 0, lib_math_value, math_call, "acosh", MATH_ACOSH, 0},
    {"math.atanh", "x, /", 0, lib_math_value, math_call, "atanh", MATH_ATANH, 0},
    {"math.erf", "x, /", 0, lib_math_value, math_call, "erf", MATH_ERF, 0},
    {"math.erfc", "x, /", 0, lib_math_value, math_call, "erfc", MATH_ERFC, 0},
    {"math.gamma", "x, /", 0, lib_math_value, math_call, "gamma", MATH_GAMMA, 0},
    {"math.lgamma", "x, /", 0, lib_math_value, math_call, "lgamma", MATH_LGAMMA, 0},
    {"math.floor", "x, /", 0, lib_math_value, math_call, "floor", MATH_FLOOR, 0},
    {"math.ceil", "x, /", 0, lib_math_value, math_call, "ceil", MATH_CEIL, 0},
    {"math.trunc", "x, /", 0, lib_math_value, math_call, "trunc", MATH_TRUNC, 0},
    {"math.fabs", "x, /", 0, lib_math_value, math_call, "fabs", MATH_FABS, 0},
    {"math.radians", "x, /", 0, lib_math_value, math_call, "radians", MATH_RADIANS, 0},
    {"math.degrees", "x, /", 0, lib_math_value, math_call, "degrees", MATH_DEGREES, 0},
    {"math.atan2", "y, x, /", 0, lib_math_value, math_call, "atan2", MATH_ATAN2, 0},
    {"math.hypot", "*coordinates", 0, lib_math_value, math_call, "hypot", MATH_HYPOT, 0},
    {"math.pow", "x, y, /", 0, lib_math_value, math_call, "pow", MATH_POW, 0},
    {"math.copysign", "x, y, /", 0, lib_math_value, math_call, "copysign", MATH_COPYSIGN, 0},
    {"math.fmod", "x, y, /", 0, lib_math_value, math_call, "fmod", MATH_FMOD, 0},
    {"math.isnan", "x, /", 0, lib_math_value, math_call, "isnan", MATH_ISNAN, 0},
    {"math.isinf", "x, /", 0, lib_math_value, math_call, "isinf", MATH_ISINF, 0},
    {"math.isfinite", "x, /", 0, lib_math_value, math_call, "isfinite", MATH_ISFINITE, 0},
    {NULL},
};
const LibTable lib_math_table = {"math", math_rows};

static const LibEntry cmath_rows[] = {
    {"cmath.pi", "", LIB_CONST, lib_const, NULL, NULL, 0, M_PI},
    {"cmath.e", "", LIB_CONST, lib_const, NULL, NULL, 0, M_E},
    {"cmath.tau", "", LIB_CONST, lib_const, NULL, NULL, 0, 2 * M_PI},
    {"cmath.inf", "", LIB_CONST, lib_const, NULL, NULL, 0, INFINITY},
    {"cmath.nan", "", LIB_CONST, lib_const, NULL, NULL, 0, NAN},
    {"cmath.infj", "", LIB_CONST, imag_const, NULL, NULL, 0, INFINITY},
    {"cmath.nanj", "", LIB_CONST, imag_const, NULL, NULL, 0, NAN},
    {"cmath.exp", "z, /", 0, NULL, cmath_call, "cmath.exp", 0, 0},
    {"cmath.log", "z[, base]", 0, NULL, cmath_call, "cmath.log", 0, 0},
    {"cmath.log10", "z, /", 0, NULL, cmath_call, "cmath.log10", 0, 0},
    {"cmath.sqrt", "z, /", 0, NULL, cmath_call, "cmath.sqrt", 0, 0},
    {"cmath.sin", "z, /", 0, NULL, cmath_call, "cmath.sin", 0, 0},
    {"cmath.cos", "z, /", 0, NULL, cmath_call, "cmath.cos", 0, 0},
    {"cmath.tan", "z, /", 0, NULL, cmath_call, "cmath.tan", 0, 0},
    {"cmath.sinh", "z, /", 0, NULL, cmath_call, "cmath.sinh", 0, 0},
    {"cmath.cosh", "z, /", 0, NULL, cmath_call, "cmath.cosh", 0, 0},
    {"cmath.tanh", "z, /", 0, NULL, cmath_call, "cmath.tanh", 0, 0},
    {"cmath.asin", "z, /", 0, NULL, cmath_call, "cmath.asin", 0, 0},
    {"cmath.acos", "z, /", 0, NULL, cmath_call, "cmath.acos", 0, 0},
    {"cmath.atan", "z, /", 0, NULL, cmath_call, "cmath.atan", 0, 0},
    {"cmath.asinh", "z, /", 0, NULL, cmath_call, "cmath.asinh", 0, 0},
    {"cmath.acosh", "z, /", 0, NULL, cmath_call, "cmath.acosh", 0, 0},
    {"cmath.atanh", "z, /", 0, NULL, cmath_call, "cmath.atanh", 0, 0},
    {"cmath.phase", "z, /", 0, NULL, cmath_call, "cmath.phase", 0, 0},
    {"cmath.polar", "z, /", 0, NULL, cmath_call, "cmath.polar", 0, 0},
    {"cmath.rect", "r, phi, /", 0, NULL, cmath_call, "cmath.rect", 0, 0},
    {"cmath.isnan", "z, /", 0, NULL, cmath_call, "cmath.isnan", 0, 0},
    {"cmath.isinf", "z, /", 0, NULL, cmath_call, "cmath.isinf", 0, 0},
    {"cmath.isfinite", "z, /", 0, NULL, cmath_call, "cmath.isfinite", 0, 0},
    {NULL},
};
const LibTable lib_cmath_table = {"cmath", cmath_rows};

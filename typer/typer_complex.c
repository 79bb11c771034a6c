/* typer_complex.c — complex numbers (complex64, complex128), typed and computed as Numba 0.56
 * does (numba/cpython/numbers.py, cmathimpl.py), written as float arithmetic on the parts.
 *
 * A complex value is made by IR_COMPLEX and taken apart by IR_CPART; everything else is the
 * float IR the typer already emits, so codegen needs no complex arithmetic of its own and the
 * CPU and the GPU compute alike.  The rules:
 *
 *   types    complex op number -> the complex of the two floats (complex64 + float64 ->
 *            complex128, complex64 + int16 -> complex64); a number mixed with a complex converts
 *            to it with a zero imaginary part
 *   + - *    (a+bi)(c+di) = (ac-bd) + (ad+bc)i, without special cases for inf and nan
 *   /        CPython's _Py_c_quot, as Numba: divide by the larger of |c|, |d|; 0 raises
 *            ZeroDivisionError("complex division by zero") under either error model, as
 *            Numba's complex_div_impl does (arrays use NumPy's loop, below: nan+nanj)
 *   **       a square is a product; anything else CPython's _Py_c_pow (in float64 for
 *            complex64, as numba_cpowf): 0 ** w with w not a non-negative real gives nan+nanj
 *   == !=    both parts equal / either differs (nan differs); < <= > >= are type errors
 *   abs(z)   math.hypot(z.real, z.imag); truth: either part non-zero (nan is true)
 *   z.real, z.imag, z.conjugate(), complex(re=0, im=0), complex(z), np.complex64(x), ...
 */
#include "typer_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

IrInst *ty_cpart(Fn *fn, IrInst *z, const Type *ct, int which, Loc loc) {
    IrInst *r = ty_emit(fn, IR_CPART, ty_complex_part(ct), loc, 1, &z);
    if (r)
        r->imm.index = which;
    return r;
}

IrInst *ty_complex_make(Fn *fn, const Type *ct, IrInst *re, IrInst *im, Loc loc) {
    return bin(fn, IR_COMPLEX, ct, re, im, loc);
}

static IrInst *fconst(Fn *fn, const Type *t, double x, Loc loc) {
    return ty_const_float(fn, t, x, loc);
}

static IrInst *mathf(Fn *fn, MathFn k, const Type *t, IrInst *x, IrInst *y, Loc loc) {
    IrInst *ops[2] = {x, y};
    IrInst *r = ty_emit(fn, IR_MATH, t, loc, y ? 2 : 1, ops);
    if (r)
        r->imm.index = k;
    return r;
}

IrInst *ty_complex_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    if (from == to || !v)
        return v;
    if (!ty_is_complex(to)) /* complex -> real: the real part (NumPy's unsafe cast) */
        return ty_cast(fn, ty_cpart(fn, v, from, 0, loc), ty_complex_part(from), to, loc);
    const Type *pt = ty_complex_part(to);
    IrInst *re, *im;
    if (ty_is_complex(from)) {
        re = ty_cpart(fn, v, from, 0, loc);
        re = ty_cast(fn, re, ty_complex_part(from), pt, loc);
        im = ty_cpart(fn, v, from, 1, loc);
        im = ty_cast(fn, im, ty_complex_part(from), pt, loc);
    } else {
        re = ty_cast(fn, v, from, pt, loc);
        im = fconst(fn, pt, 0.0, loc);
    }
    return ty_complex_make(fn, to, re, im, loc);
}

/* The parts of x (a complex or a number) as the part type of ct. */
static void parts(Fn *fn, Val x, const Type *ct, IrInst **re, IrInst **im, Loc loc) {
    IrInst *z = ty_cast(fn, x.v, x.t, ct, loc);
    *re = ty_cpart(fn, z, ct, 0, loc);
    *im = ty_cpart(fn, z, ct, 1, loc);
}

/* Every operand below is emitted in a statement of its own: C leaves the order of a call's
 * arguments open, and the IR (golden files) must not depend on the compiler. */
static IrInst *mul(Fn *fn, const Type *ct, IrInst *a, IrInst *b, IrInst *c, IrInst *d, Loc loc) {
    const Type *p = ty_complex_part(ct);
    IrInst *ac = bin(fn, IR_MUL, p, a, c, loc);
    IrInst *bd = bin(fn, IR_MUL, p, b, d, loc);
    IrInst *ad = bin(fn, IR_MUL, p, a, d, loc);
    IrInst *bc = bin(fn, IR_MUL, p, b, c, loc);
    IrInst *re = bin(fn, IR_SUB, p, ac, bd, loc);
    IrInst *im = bin(fn, IR_ADD, p, ad, bc, loc);
    return ty_complex_make(fn, ct, re, im, loc);
}

/* x OP (y OP2 z), emitted in order */
static IrInst *op_of(Fn *fn, const Type *p, IrOp o, IrInst *x, IrOp o2, IrInst *y, IrInst *z,
                     bool inner_first, Loc loc) {
    IrInst *t = bin(fn, o2, p, y, z, loc);
    return inner_first ? bin(fn, o, p, t, x, loc) : bin(fn, o, p, x, t, loc);
}

/* CPython's _Py_c_quot (Numba's complex_div): both halves computed, one selected. */
static IrInst *divide(Fn *fn, const Type *ct, IrInst *a, IrInst *b, IrInst *c, IrInst *d,
                      Loc loc) {
    const Type *p = ty_complex_part(ct);
    IrInst *zero = fconst(fn, p, 0.0, loc);
    IrInst *nan = fconst(fn, p, NAN, loc);
    IrInst *c0 = cmp(fn, CMP_EQ, c, zero, loc);
    IrInst *d0 = cmp(fn, CMP_EQ, d, zero, loc);
    if (fn->emit) { /* Numba raises under error_model='numpy' too */
        IrInst *both = bin(fn, IR_BITAND, ty_bool, c0, d0, loc);
        IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
        ty_condbr(fn, both, bad, ok, loc);
        ty_set_block(fn, bad);
        ty_raise(fn, RAISE_ZERO_DIVISION, "complex division by zero", loc);
        ty_set_block(fn, ok);
    }
    IrInst *ac = mathf(fn, MATH_FABS, p, c, NULL, loc);
    IrInst *ad = mathf(fn, MATH_FABS, p, d, NULL, loc);
    IrInst *big = cmp(fn, CMP_GE, ac, ad, loc);
    /* |c| >= |d|: divide by c */
    IrInst *r1 = bin(fn, IR_DIV, p, d, c, loc);
    IrInst *den1 = op_of(fn, p, IR_ADD, c, IR_MUL, d, r1, false, loc);      /* c + d*r1 */
    IrInst *n1 = op_of(fn, p, IR_ADD, a, IR_MUL, b, r1, false, loc);        /* a + b*r1 */
    IrInst *re1 = bin(fn, IR_DIV, p, n1, den1, loc);
    IrInst *m1 = op_of(fn, p, IR_SUB, b, IR_MUL, a, r1, false, loc);        /* b - a*r1 */
    IrInst *im1 = bin(fn, IR_DIV, p, m1, den1, loc);
    /* else: divide by d */
    IrInst *r2 = bin(fn, IR_DIV, p, c, d, loc);
    IrInst *den2 = op_of(fn, p, IR_ADD, d, IR_MUL, c, r2, true, loc);       /* c*r2 + d */
    IrInst *n2 = op_of(fn, p, IR_ADD, b, IR_MUL, a, r2, true, loc);         /* a*r2 + b */
    IrInst *re2 = bin(fn, IR_DIV, p, n2, den2, loc);
    IrInst *m2 = op_of(fn, p, IR_SUB, a, IR_MUL, b, r2, true, loc);         /* b*r2 - a */
    IrInst *im2 = bin(fn, IR_DIV, p, m2, den2, loc);
    re1 = sel(fn, p, c0, nan, re1, loc);
    im1 = sel(fn, p, c0, nan, im1, loc);
    re2 = sel(fn, p, d0, nan, re2, loc);
    im2 = sel(fn, p, d0, nan, im2, loc);
    IrInst *re = sel(fn, p, big, re1, re2, loc);
    IrInst *im = sel(fn, p, big, im1, im2, loc);
    return ty_complex_make(fn, ct, re, im, loc);
}

/* NumPy's complex division loop (Numba's np_complex_div_impl: Smith's algorithm, with a
 * reciprocal), used by array expressions and np.divide on arrays: x / 0 gives inf or nan. */
IrInst *ty_complex_np_divide(Fn *fn, const Type *ct, IrInst *x, IrInst *y, Loc loc) {
    const Type *p = ty_complex_part(ct);
    IrInst *a = ty_cpart(fn, x, ct, 0, loc);
    IrInst *b = ty_cpart(fn, x, ct, 1, loc);
    IrInst *c = ty_cpart(fn, y, ct, 0, loc);
    IrInst *d = ty_cpart(fn, y, ct, 1, loc);
    IrInst *zero = fconst(fn, p, 0.0, loc);
    IrInst *one = fconst(fn, p, 1.0, loc);
    IrInst *ac = mathf(fn, MATH_FABS, p, c, NULL, loc);
    IrInst *ad = mathf(fn, MATH_FABS, p, d, NULL, loc);
    IrInst *big = cmp(fn, CMP_GE, ac, ad, loc);
    IrInst *c0 = cmp(fn, CMP_EQ, ac, zero, loc);
    IrInst *d0 = cmp(fn, CMP_EQ, ad, zero, loc);
    IrInst *both0 = bin(fn, IR_BITAND, ty_bool, c0, d0, loc);
    /* both zero: x.real / |c|, x.imag / |d| (inf or nan) */
    IrInst *zre = bin(fn, IR_DIV, p, a, ac, loc);
    IrInst *zim = bin(fn, IR_DIV, p, b, ad, loc);
    /* |c| >= |d| */
    IrInst *r1 = bin(fn, IR_DIV, p, d, c, loc);
    IrInst *den1 = op_of(fn, p, IR_ADD, c, IR_MUL, d, r1, false, loc);     /* c + d*r1 */
    IrInst *s1 = bin(fn, IR_DIV, p, one, den1, loc);
    IrInst *n1 = op_of(fn, p, IR_ADD, a, IR_MUL, b, r1, false, loc);       /* a + b*r1 */
    IrInst *m1 = op_of(fn, p, IR_SUB, b, IR_MUL, a, r1, false, loc);       /* b - a*r1 */
    IrInst *re1 = bin(fn, IR_MUL, p, n1, s1, loc);
    IrInst *im1 = bin(fn, IR_MUL, p, m1, s1, loc);
    /* |d| > |c| */
    IrInst *r2 = bin(fn, IR_DIV, p, c, d, loc);
    IrInst *den2 = op_of(fn, p, IR_ADD, d, IR_MUL, c, r2, false, loc);     /* d + c*r2 */
    IrInst *s2 = bin(fn, IR_DIV, p, one, den2, loc);
    IrInst *n2 = op_of(fn, p, IR_ADD, b, IR_MUL, a, r2, true, loc);        /* a*r2 + b */
    IrInst *m2 = op_of(fn, p, IR_SUB, a, IR_MUL, b, r2, true, loc);        /* b*r2 - a */
    IrInst *re2 = bin(fn, IR_MUL, p, n2, s2, loc);
    IrInst *im2 = bin(fn, IR_MUL, p, m2, s2, loc);
    re1 = sel(fn, p, both0, zre, re1, loc);
    im1 = sel(fn, p, both0, zim, im1, loc);
    IrInst *re = sel(fn, p, big, re1, re2, loc);
    IrInst *im = sel(fn, p, big, im1, im2, loc);
    return ty_complex_make(fn, ct, re, im, loc);
}

/* CPython's _Py_c_pow in float64 (numba_cpow / numba_cpowf), the square as a product. */
static IrInst *power(Fn *fn, const Type *ct, IrInst *a, IrInst *b, IrInst *c, IrInst *d, Loc loc) {
    const Type *p = ty_complex_part(ct), *f = ty_f64;
    IrInst *sq = mul(fn, ct, a, b, a, b, loc);
    IrInst *sq_re = ty_cpart(fn, sq, ct, 0, loc);
    IrInst *sq_im = ty_cpart(fn, sq, ct, 1, loc);
    IrInst *two = fconst(fn, p, 2.0, loc);
    IrInst *pzero = fconst(fn, p, 0.0, loc);
    IrInst *c2 = cmp(fn, CMP_EQ, c, two, loc);
    IrInst *d0 = cmp(fn, CMP_EQ, d, pzero, loc);
    IrInst *is2 = bin(fn, IR_BITAND, ty_bool, c2, d0, loc);
    IrInst *ar = ty_cast(fn, a, p, f, loc);
    IrInst *ai = ty_cast(fn, b, p, f, loc);
    IrInst *br = ty_cast(fn, c, p, f, loc);
    IrInst *bi = ty_cast(fn, d, p, f, loc);
    IrInst *zero = fconst(fn, f, 0.0, loc);
    IrInst *one = fconst(fn, f, 1.0, loc);
    IrInst *nan = fconst(fn, f, NAN, loc);
    IrInst *vabs = mathf(fn, MATH_HYPOT, f, ar, ai, loc);
    IrInst *len = mathf(fn, MATH_POW, f, vabs, br, loc);
    IrInst *at = mathf(fn, MATH_ATAN2, f, ai, ar, loc);
    IrInst *phase = bin(fn, IR_MUL, f, at, br, loc);
    /* b.imag != 0: len /= exp(at * b.imag); phase += b.imag * log(vabs) */
    IrInst *bi_nz = cmp(fn, CMP_NE, bi, zero, loc);
    IrInst *atbi = bin(fn, IR_MUL, f, at, bi, loc);
    IrInst *e = mathf(fn, MATH_EXP, f, atbi, NULL, loc);
    IrInst *len2 = bin(fn, IR_DIV, f, len, e, loc);
    IrInst *lg = mathf(fn, MATH_LOG, f, vabs, NULL, loc);
    IrInst *ph2 = op_of(fn, f, IR_ADD, phase, IR_MUL, bi, lg, false, loc);
    len = sel(fn, f, bi_nz, len2, len, loc);
    phase = sel(fn, f, bi_nz, ph2, phase, loc);
    IrInst *cs = mathf(fn, MATH_COS, f, phase, NULL, loc);
    IrInst *re = bin(fn, IR_MUL, f, len, cs, loc);
    IrInst *sn = mathf(fn, MATH_SIN, f, phase, NULL, loc);
    IrInst *im = bin(fn, IR_MUL, f, len, sn, loc);
    /* a == 0: 0 (EDOM, so nan, when w is not a non-negative real); w == 0: 1 */
    IrInst *ar0 = cmp(fn, CMP_EQ, ar, zero, loc);
    IrInst *ai0 = cmp(fn, CMP_EQ, ai, zero, loc);
    IrInst *a0 = bin(fn, IR_BITAND, ty_bool, ar0, ai0, loc);
    IrInst *neg = cmp(fn, CMP_LT, br, zero, loc);
    IrInst *edom = bin(fn, IR_BITOR, ty_bool, bi_nz, neg, loc);
    IrInst *z = sel(fn, f, edom, nan, zero, loc);
    re = sel(fn, f, a0, z, re, loc);
    im = sel(fn, f, a0, z, im, loc);
    IrInst *br0 = cmp(fn, CMP_EQ, br, zero, loc);
    IrInst *bi0 = cmp(fn, CMP_EQ, bi, zero, loc);
    IrInst *b0 = bin(fn, IR_BITAND, ty_bool, br0, bi0, loc);
    re = sel(fn, f, b0, one, re, loc);
    im = sel(fn, f, b0, zero, im, loc);
    re = ty_cast(fn, re, f, p, loc);
    im = ty_cast(fn, im, f, p, loc);
    re = sel(fn, p, is2, sq_re, re, loc);
    im = sel(fn, p, is2, sq_im, im, loc);
    return ty_complex_make(fn, ct, re, im, loc);
}

Val ty_complex_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    const Type *ct = ty_arith(a.t, b.t);
    if (!ct || !ty_is_complex(ct)) {
        ty_error(fn, loc, "unsupported operand types for %s: '%s' and '%s'", ast_op_spelling[op],
                 a.t->name, b.t->name);
        return verr();
    }
    IrInst *x, *y, *u, *w;
    switch (op) {
    case OP_ADD: case OP_SUB: {
        parts(fn, a, ct, &x, &y, loc);
        parts(fn, b, ct, &u, &w, loc);
        const Type *p = ty_complex_part(ct);
        IrOp o = op == OP_ADD ? IR_ADD : IR_SUB;
        IrInst *re = bin(fn, o, p, x, u, loc);
        IrInst *im = bin(fn, o, p, y, w, loc);
        return vval(ct, ty_complex_make(fn, ct, re, im, loc));
    }
    case OP_MUL:
        parts(fn, a, ct, &x, &y, loc);
        parts(fn, b, ct, &u, &w, loc);
        return vval(ct, mul(fn, ct, x, y, u, w, loc));
    case OP_DIV:
        parts(fn, a, ct, &x, &y, loc);
        parts(fn, b, ct, &u, &w, loc);
        return vval(ct, divide(fn, ct, x, y, u, w, loc));
    case OP_POW:
        parts(fn, a, ct, &x, &y, loc);
        parts(fn, b, ct, &u, &w, loc);
        return vval(ct, power(fn, ct, x, y, u, w, loc));
    case OP_FLOORDIV: case OP_MOD:
        ty_error(fn, loc, "can't take %s of a complex number",
                 op == OP_MOD ? "the remainder (%)" : "the floor division (//)");
        return verr();
    default:
        ty_error(fn, loc, "unsupported operand types for %s: '%s' and '%s'", ast_op_spelling[op],
                 a.t->name, b.t->name);
        return verr();
    }
}

Val ty_complex_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    const Type *ct = ty_arith(a.t, b.t);
    if (!ct || (op != OP_EQ && op != OP_NE)) {
        ty_error(fn, loc, "'%s' is not supported between '%s' and '%s' (complex numbers are not "
                          "ordered)", ast_op_spelling[op], a.t->name, b.t->name);
        return verr();
    }
    IrInst *x, *y, *u, *w;
    parts(fn, a, ct, &x, &y, loc);
    parts(fn, b, ct, &u, &w, loc);
    bool eq = op == OP_EQ;
    CmpPred p = eq ? CMP_EQ : CMP_NE;
    IrInst *cr = cmp(fn, p, x, u, loc);
    IrInst *ci = cmp(fn, p, y, w, loc);
    return vval(ty_bool, bin(fn, eq ? IR_BITAND : IR_BITOR, ty_bool, cr, ci, loc));
}

IrInst *ty_complex_truth(Fn *fn, Val z, Loc loc) {
    const Type *p = ty_complex_part(z.t);
    IrInst *zero = fconst(fn, p, 0.0, loc);
    IrInst *re = ty_cpart(fn, z.v, z.t, 0, loc);
    IrInst *cr = cmp(fn, CMP_NE, re, zero, loc);
    IrInst *im = ty_cpart(fn, z.v, z.t, 1, loc);
    IrInst *ci = cmp(fn, CMP_NE, im, zero, loc);
    return bin(fn, IR_BITOR, ty_bool, cr, ci, loc);
}

Val ty_complex_unary(Fn *fn, OpKind op, Val z, Loc loc) {
    const Type *p = ty_complex_part(z.t);
    switch (op) {
    case OP_POS:
        return z;
    case OP_NEG: {
        IrInst *re = ty_cpart(fn, z.v, z.t, 0, loc);
        IrInst *im = ty_cpart(fn, z.v, z.t, 1, loc);
        IrInst *nre = ty_emit(fn, IR_NEG, p, loc, 1, &re);
        IrInst *nim = ty_emit(fn, IR_NEG, p, loc, 1, &im);
        return vval(z.t, ty_complex_make(fn, z.t, nre, nim, loc));
    }
    case OP_NOT: {
        IrInst *c = ty_complex_truth(fn, z, loc);
        return vval(ty_bool, ty_emit(fn, IR_NOT, ty_bool, loc, 1, &c));
    }
    default:
        ty_error(fn, loc, "bad operand type for unary %s: '%s'", ast_op_spelling[op], z.t->name);
        return verr();
    }
}

Val ty_complex_abs(Fn *fn, Val z, Loc loc) {
    const Type *p = ty_complex_part(z.t);
    IrInst *re = ty_cpart(fn, z.v, z.t, 0, loc);
    IrInst *im = ty_cpart(fn, z.v, z.t, 1, loc);
    return vval(p, mathf(fn, MATH_HYPOT, p, re, im, loc));
}

Val ty_complex_attr(Fn *fn, Val z, const char *attr, Loc loc) {
    const Type *p = ty_complex_part(z.t);
    if (!strcmp(attr, "real") || !strcmp(attr, "imag"))
        return vval(p, ty_cpart(fn, z.v, z.t, attr[0] == 'i', loc));
    ty_error(fn, loc, "%s has no attribute '%s' that numjit supports", z.t->name, attr);
    return verr();
}

Val ty_complex_conjugate(Fn *fn, Val z, Loc loc) {
    const Type *p = ty_complex_part(z.t);
    if (!ty_is_complex(z.t)) /* a real number's conjugate is itself */
        return z;
    IrInst *re = ty_cpart(fn, z.v, z.t, 0, loc);
    IrInst *im = ty_cpart(fn, z.v, z.t, 1, loc);
    IrInst *nim = ty_emit(fn, IR_NEG, p, loc, 1, &im);
    return vval(z.t, ty_complex_make(fn, z.t, re, nim, loc));
}

/* complex(x), complex(re, im) (ct NULL): Numba's types, complex64 only of float32 parts
 * (complex(float32), complex(float32, float32)), complex128 otherwise; re and im numbers, or
 * a complex alone.  np.complex64(...) and the like (ct given) make that type. */
Val ty_complex_ctor(Fn *fn, const Type *ct, Val *a, int n, Loc loc) {
    if (n > 2 || (!ct && n == 0)) {
        ty_error(fn, loc, "complex() takes 1 or 2 arguments (%d given)", n);
        return verr();
    }
    if (!ct)
        ct = a[0].t == ty_f32 && (n == 1 || a[1].t == ty_f32) ? ty_c64 : ty_c128;
    const Type *p = ty_complex_part(ct);
    for (int i = 0; i < n; i++)
        if (!ty_is_elem(a[i].t) || (n == 2 && ty_is_complex(a[i].t))) {
            ty_error(fn, loc, "complex() of %s is not supported", a[i].t->name);
            return verr();
        }
    if (n == 1)
        return vval(ct, ty_cast(fn, a[0].v, a[0].t, ct, loc));
    IrInst *re = n ? ty_cast(fn, a[0].v, a[0].t, p, loc) : fconst(fn, p, 0.0, loc);
    IrInst *im = n == 2 ? ty_cast(fn, a[1].v, a[1].t, p, loc) : fconst(fn, p, 0.0, loc);
    return vval(ct, ty_complex_make(fn, ct, re, im, loc));
}

Val ty_imag_literal(Fn *fn, double x, Loc loc) {
    IrInst *re = fconst(fn, ty_f64, 0.0, loc);
    IrInst *im = fconst(fn, ty_f64, x, loc);
    return vval(ty_c128, ty_complex_make(fn, ty_c128, re, im, loc));
}

/* ---- cmath, and NumPy's ufuncs on complex scalars (stdlib/cmath.py) ------------------------ */
static const char *const cmath_names[] = {
    "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos",
    "atan", "asinh", "acosh", "atanh", "phase", "polar", "rect", "isnan", "isinf", "isfinite",
    NULL};

bool ty_cmath_has(const char *name) {
    for (int i = 0; cmath_names[i]; i++)
        if (!strcmp(cmath_names[i], name))
            return true;
    return false;
}

/* _nj_cmath_NAME(args) of stdlib/cmath.py */
static Val lib_call(Fn *fn, const char *name, Val *a, int n, Loc loc) {
    char sym[48], shown[48];
    snprintf(sym, sizeof sym, "_nj_cmath_%s", name);
    snprintf(shown, sizeof shown, "cmath.%s", name);
    return ty_lib_call(fn, sym, shown, "cmath", a, n, loc);
}

/* cmath.NAME(...) with Numba's types: a number converts to the complex of its float, a
 * complex result has the argument's complex type (complex64 stays complex64), log(z, base)
 * and rect(r, phi) are complex128. */
Val ty_cmath_call(Fn *fn, const char *name, Val *a, int n, Loc loc) {
    bool rect = !strcmp(name, "rect"), log2 = !strcmp(name, "log") && n == 2;
    if (n != (rect ? 2 : 1) && !log2) {
        ty_error(fn, loc, "cmath.%s() takes %s argument%s (%d given)", name,
                 rect ? "2" : !strcmp(name, "log") ? "1 or 2" : "1", rect ? "s" : "", n);
        return verr();
    }
    Val z[2];
    for (int i = 0; i < n; i++) {
        if (a[i].k != V_VAL || !ty_is_elem(a[i].t) || (rect && ty_is_complex(a[i].t))) {
            ty_error(fn, loc, "cmath.%s() of %s is not supported", name,
                     a[i].k == V_VAL ? a[i].t->name : "this value");
            return verr();
        }
        const Type *ct = rect ? ty_f64 : log2 ? ty_complex_of(ty_arith(a[0].t, a[1].t))
                                              : ty_complex_of(a[i].t);
        z[i] = vval(ct, ty_cast(fn, a[i].v, a[i].t, ct, loc));
    }
    if (log2) { /* log(z) / log(base) */
        Val lz = lib_call(fn, "log", &z[0], 1, loc);
        Val lb = lib_call(fn, "log", &z[1], 1, loc);
        if (lz.k != V_VAL || lb.k != V_VAL)
            return verr();
        return ty_complex_binop(fn, OP_DIV, lz, lb, loc);
    }
    const char *lib = !strcmp(name, "sqrt") && z[0].t == ty_c64 ? "sqrt64" : name;
    Val r = lib_call(fn, lib, z, n, loc);
    if (r.k != V_VAL || rect || !ty_is_complex(r.t))
        return r;
    return vval(z[0].t, ty_cast(fn, r.v, r.t, z[0].t, loc));
}

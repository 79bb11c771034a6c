/* typer_linalg.c — linear algebra in @njit functions, as Numba 0.56 types and runs it
 * (numba/core/typing/npydecl.py MatMulTyperMixin, numba/np/linalg.py, arraymath.py):
 * np.dot and `@` (vector · vector, matrix · vector, vector · matrix, matrix · matrix, and
 * np.dot's out=), np.vdot, np.trace, np.cross of 3-vectors, and np.linalg.norm, det, inv and
 * solve (the decompositions are typer_decomp.c's).
 *
 * The typer checks what Numba checks when typing (dimensions, one float or complex dtype:
 * Numba refuses integer arrays here), then emits Numba's run-time checks as raise
 * sites in Numba's order and with its messages (ValueError for np.dot's sizes, LinAlgError for
 * a non-square, non-finite or singular matrix), allocates the result like np.empty (a counted
 * array owned until the end of the statement, typer_alloc.c) and calls one function of the
 * runtime's linear-algebra kernels (IR op `linalg`, ir/linalg.def, runtime/linalg.c) with the
 * arrays' addresses, extents and byte strides: any layout is passed as it is, the kernels copy
 * what they need.  The dot product of two vectors, np.vdot, np.trace and np.cross are short
 * loops emitted here (they also serve CUDA kernels where they allocate nothing).
 *
 * Result types follow Numba: products are C-ordered arrays of the operands' dtype; inv and
 * solve with a 2-d right-hand side return F-ordered arrays (LAPACK's column-major copies),
 * solve with a vector a C vector; det and trace are float64 even for float32 (Numba's loops
 * accumulate in float64); norm is the dtype for a vector's 2-norm and float64 otherwise.
 * Complex arrays: products in their dtype (the runtime's complex gemm is four real ones on
 * the parts), np.vdot conjugating its first argument, det and trace complex128, inv and solve
 * by the complex LU of runtime/linalg_complex.c.
 */
#include "typer_internal.h"

#include <math.h>
#include <string.h>

/* ---- small emitters -------------------------------------------------------------------------- */
static IrInst *dimop(Fn *fn, IrOp op, IrInst *arr, int d, Loc loc) {
    IrInst *s = ty_emit(fn, op, ty_i64, loc, 1, &arr);
    if (s)
        s->imm.index = d;
    return s;
}

IrInst *ty_la_addr(Fn *fn, IrInst *arr, Loc loc) {
    return ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &arr);
}

static IrInst *or2(Fn *fn, IrInst *a, IrInst *b, Loc loc) { return bin(fn, IR_BITOR, ty_bool, a, b, loc); }

IrInst *ty_la_call(Fn *fn, RtFn f, IrInst **args, int n, Loc loc) {
    IrInst *r = ty_emit(fn, IR_RTCALL, ty_scalar(ir_rtcall[f].ret), loc, n, args);
    if (r)
        r->imm.index = (int)f;
    return r;
}

RtFn ty_la_typed(RtFn f64, const Type *dt) {
    return dt == ty_f32 ? (RtFn)(f64 + 1) : f64;
}

TyMat ty_la_mat(Fn *fn, Val v, bool as_row, Loc loc) {
    TyMat m;
    m.a = ty_la_addr(fn, v.v, loc);
    if (v.t->ndim == 2) {
        m.rows = extent(fn, v.v, 0, loc), m.cols = extent(fn, v.v, 1, loc);
        m.s0 = dimop(fn, IR_STRIDE, v.v, 0, loc), m.s1 = dimop(fn, IR_STRIDE, v.v, 1, loc);
    } else if (as_row) {
        m.rows = i64c(fn, 1, loc), m.cols = extent(fn, v.v, 0, loc);
        m.s0 = i64c(fn, 0, loc), m.s1 = dimop(fn, IR_STRIDE, v.v, 0, loc);
    } else {
        m.rows = extent(fn, v.v, 0, loc), m.cols = i64c(fn, 1, loc);
        m.s0 = dimop(fn, IR_STRIDE, v.v, 0, loc), m.s1 = i64c(fn, 0, loc);
    }
    return m;
}

bool ty_la_cpu_only(Fn *fn, const char *shown, Loc loc) {
    if (fn->tc->target == TARGET_CPU)
        return true;
    ty_error(fn, loc, "%s is not supported in CUDA kernels (it creates an array)", shown);
    return false;
}

/* An array argument of nd in [lo, hi] dimensions and a float dtype; Numba's messages. */
static bool want_array(Fn *fn, Val v, Loc loc, const char *shown, int lo, int hi) {
    if (v.k != V_VAL)
        return false;
    if (v.t->kind != TY_ARRAY) {
        ty_error(fn, loc, "%s only supported for array types, not %s", shown, v.t->name);
        return false;
    }
    if (v.t->ndim < lo || v.t->ndim > hi) {
        if (lo == hi)
            ty_error(fn, loc, "%s only supported on 2-D arrays, not %s", shown, v.t->name);
        else
            ty_error(fn, loc, "%s only supported on 1 and 2-D arrays, not %s", shown, v.t->name);
        return false;
    }
    if (!ty_is_float(v.t->dtype) && !ty_is_complex(v.t->dtype)) {
        ty_error(fn, loc, "%s only supported on float and complex arrays, not %s", shown,
                 v.t->name);
        return false;
    }
    return true;
}

/* The kernel for dtype dt of a family whose float64, float32, complex128 and complex64 rows
 * are f64, f64 + 1, c128 and c128 + 1 of ir/linalg.def. */
static RtFn la_fn(RtFn f64, RtFn c128, const Type *dt) {
    if (ty_is_complex(dt))
        return dt == ty_c64 ? (RtFn)(c128 + 1) : c128;
    return ty_la_typed(f64, dt);
}

/* A complex zero of type ct (a float zero for a float type). */
static IrInst *zero_of(Fn *fn, const Type *t, Loc loc) {
    if (!ty_is_complex(t))
        return ty_const_float(fn, t, 0, loc);
    const Type *p = ty_complex_part(t);
    return ty_complex_make(fn, t, ty_const_float(fn, p, 0, loc), ty_const_float(fn, p, 0, loc), loc);
}

/* A hidden float64 scratch array of n * n + n elements (LU factors and pivots of n x n), or
 * of 2 n * n + n for the factors of a complex matrix. */
static IrInst *scratch(Fn *fn, IrInst *n, const Type *dt, Loc loc) {
    IrInst *nn = bin(fn, IR_MUL, ty_i64, n, n, loc);
    if (ty_is_complex(dt))
        nn = bin(fn, IR_ADD, ty_i64, nn, nn, loc);
    IrInst *len = bin(fn, IR_ADD, ty_i64, nn, n, loc);
    Val s = ty_alloc(fn, ty_array(ty_f64, 1, LAYOUT_C), &len, false, loc);
    return s.k == V_VAL ? s.v : NULL;
}

/* ---- np.dot, @, np.vdot ----------------------------------------------------------------------- */
/* The dot product of two vectors of one float or complex dtype: the sum of the products in
 * order; conj: np.vdot's, with a's elements conjugated (BLAS's dotc). */
static Val dot_vv(Fn *fn, Val a, Val b, bool conj, Loc loc) {
    const Type *dt = a.t->dtype;
    if (!fn->emit)
        return vval(dt, NULL);
    ty_raise_if(fn, cmp(fn, CMP_NE, extent(fn, a.v, 0, loc), extent(fn, b.v, 0, loc), loc),
             RAISE_VALUE, "incompatible array sizes for np.dot(a, b) (vector * vector)", loc);
    int acc = ty_temp_var(fn, dt);
    ty_store_var(fn, acc, zero_of(fn, dt, loc), loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, extent(fn, a.v, 0, loc), loc);
    IrInst *x[2];
    for (int k = 0; k < 2; k++) {
        IrInst *ops[2] = {k ? b.v : a.v, i};
        x[k] = ty_emit(fn, IR_ALOAD, dt, loc, 2, ops);
    }
    if (ty_is_complex(dt)) {
        Val xa = vval(dt, x[0]);
        if (conj)
            xa = ty_complex_conjugate(fn, xa, loc);
        Val p = ty_complex_binop(fn, OP_MUL, xa, vval(dt, x[1]), loc);
        Val s = ty_complex_binop(fn, OP_ADD, vval(dt, ty_load_var(fn, acc, dt, loc)), p, loc);
        ty_store_var(fn, acc, s.v, loc);
    } else {
        IrInst *p = bin(fn, IR_MUL, dt, x[0], x[1], loc);
        ty_store_var(fn, acc, bin(fn, IR_ADD, dt, ty_load_var(fn, acc, dt, loc), p, loc), loc);
    }
    ty_loop_close(fn, &L, loc);
    return vval(dt, ty_load_var(fn, acc, dt, loc));
}

/* np.dot(a, b[, out]) and a @ b (shown: "np.dot()" or "'@'"), Numba's matmul_typer. */
static Val dot(Fn *fn, const char *shown, Val a, Val b, Val *out, Loc loc) {
    if (a.k != V_VAL || b.k != V_VAL || (out && out->k != V_VAL))
        return verr();
    if (a.t->kind != TY_ARRAY || b.t->kind != TY_ARRAY) {
        if (shown[0] == '\'')
            ty_error(fn, loc, "unsupported operand types for @: '%s' and '%s'", a.t->name,
                     b.t->name);
        else
            ty_error(fn, loc, "%s of %s and %s is not supported (it takes two arrays)", shown,
                     a.t->name, b.t->name);
        return verr();
    }
    if (a.t->ndim < 1 || a.t->ndim > 2 || b.t->ndim < 1 || b.t->ndim > 2) {
        ty_error(fn, loc, "%s only supported on 1-D and 2-D arrays, not %s and %s", shown,
                 a.t->name, b.t->name);
        return verr();
    }
    int rnd = a.t->ndim + b.t->ndim - 2;
    if (out) {
        if (rnd == 0) {
            ty_error(fn, loc, "explicit output unsupported for vector * vector");
            return verr();
        }
        if (out->t->kind != TY_ARRAY || out->t->ndim != rnd) {
            ty_error(fn, loc, "explicit output has incorrect dimensionality (%s for a %d-D "
                     "result)", out->t->name, rnd);
            return verr();
        }
        if (out->t->layout != LAYOUT_C || out->t->readonly) {
            ty_error(fn, loc, "output must be a C-contiguous array, not %s", out->t->name);
            return verr();
        }
    }
    const Type *dt = a.t->dtype;
    if (b.t->dtype != dt || (out && out->t->dtype != dt)) {
        ty_error(fn, loc, "%s arguments must all have the same dtype, not %s and %s%s%s", shown,
                 a.t->name, b.t->name, out ? " and " : "", out ? out->t->name : "");
        return verr();
    }
    if (!ty_is_float(dt) && !ty_is_complex(dt)) {
        ty_error(fn, loc, "%s only supported on float and complex arrays, not %s", shown,
                 a.t->name);
        return verr();
    }
    if (rnd == 0)
        return dot_vv(fn, a, b, false, loc);
    if (!ty_la_cpu_only(fn, shown, loc))
        return verr();
    const Type *rt = out ? out->t : ty_array(dt, rnd, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    const char *kind = a.t->ndim == 2 ? (b.t->ndim == 2 ? "matrix * matrix" : "matrix * vector")
                                      : "vector * matrix";
    TyMat A = ty_la_mat(fn, a, true, loc), B = ty_la_mat(fn, b, false, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, A.cols, B.rows, loc), RAISE_VALUE,
             arena_printf(fn->tc->arena, "incompatible array sizes for np.dot(a, b) (%s)", kind),
             loc);
    IrInst *dims[2] = {A.rows, B.cols};
    if (rnd == 1)
        dims[0] = a.t->ndim == 2 ? A.rows : B.cols;
    Val r;
    if (out) {
        IrInst *bad = cmp(fn, CMP_NE, extent(fn, out->v, 0, loc), dims[0], loc);
        if (rnd == 2)
            bad = or2(fn, bad, cmp(fn, CMP_NE, extent(fn, out->v, 1, loc), dims[1], loc), loc);
        ty_raise_if(fn, bad, RAISE_VALUE,
                 arena_printf(fn->tc->arena, "incompatible output array size for np.dot(a, b, "
                              "out) (%s)", kind), loc);
        r = vval(rt, out->v);
    } else {
        r = ty_alloc(fn, rt, dims, false, loc);
        if (r.k != V_VAL || !r.v)
            return r;
    }
    TyMat C = ty_la_mat(fn, r, a.t->ndim == 1, loc);
    IrInst *args[12] = {A.rows, B.cols, A.cols, A.a, A.s0, A.s1, B.a, B.s0, B.s1, C.a, C.s0, C.s1};
    ty_la_call(fn, la_fn(LA_GEMM_F64, LA_GEMM_C128, dt), args, 12, loc);
    return r;
}

Val ty_array_matmul(Fn *fn, Val a, Val b, Loc loc) { return dot(fn, "'@'", a, b, NULL, loc); }

static Val vdot(Fn *fn, Val a, Val b, Loc loc) {
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY || b.t->kind != TY_ARRAY || a.t->ndim != 1 || b.t->ndim != 1) {
        ty_error(fn, loc, "np.vdot() only supported on 1-D arrays, not %s and %s", a.t->name,
                 b.t->name);
        return verr();
    }
    if (a.t->dtype != b.t->dtype) {
        ty_error(fn, loc, "np.vdot() arguments must all have the same dtype, not %s and %s",
                 a.t->name, b.t->name);
        return verr();
    }
    if (!ty_is_float(a.t->dtype) && !ty_is_complex(a.t->dtype)) {
        ty_error(fn, loc, "np.vdot() only supported on float and complex arrays, not %s",
                 a.t->name);
        return verr();
    }
    return dot_vv(fn, a, b, true, loc);
}

/* ---- np.trace --------------------------------------------------------------------------------- */
/* Numba's loop: the sum of a[i, i + k] (k >= 0) or a[i - k, i], in float64 (complex128 for
 * a complex matrix: the loop's sum starts from the int 0). */
static Val trace(Fn *fn, Val a, Val off, Node *off_node, Loc loc) {
    if (!want_array(fn, a, loc, "np.trace()", 2, 2))
        return verr();
    if (off_node && (off.k != V_VAL || !ty_is_int(off.t))) {
        if (off.k == V_VAL)
            ty_error(fn, off_node->loc, "integer argument expected, got %s", off.t->name);
        return verr();
    }
    const Type *st = ty_is_complex(a.t->dtype) ? ty_c128 : ty_f64;
    if (!fn->emit)
        return vval(st, NULL);
    IrInst *k = off_node ? ty_cast(fn, off.v, off.t, ty_i64, loc) : i64c(fn, 0, loc);
    IrInst *zero = i64c(fn, 0, loc);
    IrInst *r0 = sel(fn, ty_i64, cmp(fn, CMP_LT, k, zero, loc), bin(fn, IR_SUB, ty_i64, zero, k, loc),
                     zero, loc);
    IrInst *c0 = sel(fn, ty_i64, cmp(fn, CMP_GT, k, zero, loc), k, zero, loc);
    IrInst *rows = bin(fn, IR_SUB, ty_i64, extent(fn, a.v, 0, loc), r0, loc);
    IrInst *cols = bin(fn, IR_SUB, ty_i64, extent(fn, a.v, 1, loc), c0, loc);
    IrInst *n = sel(fn, ty_i64, cmp(fn, CMP_LT, rows, cols, loc), rows, cols, loc);
    n = sel(fn, ty_i64, cmp(fn, CMP_LT, n, zero, loc), zero, n, loc);
    int acc = ty_temp_var(fn, st);
    ty_store_var(fn, acc, zero_of(fn, st, loc), loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, n, loc);
    IrInst *ops[3] = {a.v, bin(fn, IR_ADD, ty_i64, i, r0, loc), bin(fn, IR_ADD, ty_i64, i, c0, loc)};
    IrInst *x = ty_emit(fn, IR_ALOAD, a.t->dtype, loc, 3, ops);
    if (st == ty_c128) {
        Val s = ty_complex_binop(fn, OP_ADD, vval(st, ty_load_var(fn, acc, st, loc)),
                                 vval(a.t->dtype, x), loc);
        ty_store_var(fn, acc, s.v, loc);
    } else {
        x = ty_cast(fn, x, a.t->dtype, ty_f64, loc);
        ty_store_var(fn, acc, bin(fn, IR_ADD, ty_f64, ty_load_var(fn, acc, ty_f64, loc), x, loc), loc);
    }
    ty_loop_close(fn, &L, loc);
    return vval(st, ty_load_var(fn, acc, st, loc));
}

/* ---- np.cross --------------------------------------------------------------------------------- */
/* np.promote_types: the first of NumPy's types both cast to safely. */
static const Type *promote(const Type *a, const Type *b) {
    const Type *const order[] = {ty_bool, ty_i8, ty_u8, ty_i16, ty_u16, ty_i32,
                                 ty_u32, ty_i64, ty_u64, ty_f32, ty_f64};
    for (size_t k = 0; k < sizeof order / sizeof *order; k++)
        if (ty_can_cast_safe(a, order[k]) && ty_can_cast_safe(b, order[k]))
            return order[k];
    return ty_f64;
}

/* Numba's _cross_operation for two 1-d arrays of 2 or 3 elements (a missing z is 0), not both
 * of 2: cp = (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0) in the promoted dtype. */
static Val cross(Fn *fn, Val a, Val b, Loc loc) {
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY || b.t->kind != TY_ARRAY || a.t->ndim != 1 || b.t->ndim != 1) {
        ty_error(fn, loc, "np.cross() of %s and %s is not supported by numjit (two 1-d arrays of "
                 "3 or 2 elements)", a.t->name, b.t->name);
        return verr();
    }
    const Type *dt = promote(a.t->dtype, b.t->dtype);
    if (dt == ty_bool) {
        ty_error(fn, loc, "np.cross() of boolean arrays is not supported by numjit");
        return verr();
    }
    if (!ty_la_cpu_only(fn, "np.cross()", loc))
        return verr();
    const Type *rt = ty_array(dt, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *two = i64c(fn, 2, loc), *three = i64c(fn, 3, loc);
    IrInst *n[2] = {extent(fn, a.v, 0, loc), extent(fn, b.v, 0, loc)}, *bad = NULL, *is3[2];
    for (int k = 0; k < 2; k++) {
        is3[k] = cmp(fn, CMP_EQ, n[k], three, loc);
        IrInst *b23 = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_NE, n[k], two, loc),
                          cmp(fn, CMP_NE, n[k], three, loc), loc);
        bad = bad ? or2(fn, bad, b23, loc) : b23;
    }
    ty_raise_if(fn, bad, RAISE_VALUE,
             "Incompatible dimensions for cross product\n(dimension must be 2 or 3)", loc);
    ty_raise_if(fn, ty_emit(fn, IR_NOT, ty_bool, loc, 1, (IrInst *[]){or2(fn, is3[0], is3[1], loc)}),
             RAISE_VALUE, "Dimensions for both inputs is 2.\nPlease replace your numpy.cross(a, b) "
             "call with a call to `cross2d(a, b)` from `numba.np.extensions`.", loc);
    IrInst *x[2][3];
    for (int k = 0; k < 2; k++) {
        Val v = k ? b : a;
        for (int j = 0; j < 3; j++) {
            IrInst *ix = i64c(fn, j, loc);
            if (j == 2) /* a 2-vector's z is 0: read element 0 and drop it */
                ix = sel(fn, ty_i64, is3[k], ix, i64c(fn, 0, loc), loc);
            IrInst *ops[2] = {v.v, ix};
            x[k][j] = ty_cast(fn, ty_emit(fn, IR_ALOAD, v.t->dtype, loc, 2, ops), v.t->dtype, dt,
                              loc);
            if (j == 2) {
                IrInst *z = ty_is_float(dt) ? ty_const_float(fn, dt, 0, loc)
                                            : ty_const_int(fn, dt, 0, loc);
                x[k][2] = sel(fn, dt, is3[k], x[k][2], z, loc);
            }
        }
    }
    IrInst *three_ = i64c(fn, 3, loc);
    Val r = ty_alloc(fn, rt, &three_, false, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    for (int j = 0; j < 3; j++) {
        int p = (j + 1) % 3, q = (j + 2) % 3;
        IrInst *c = bin(fn, IR_SUB, dt, bin(fn, IR_MUL, dt, x[0][p], x[1][q], loc),
                        bin(fn, IR_MUL, dt, x[0][q], x[1][p], loc), loc);
        IrInst *ops[3] = {r.v, i64c(fn, j, loc), c};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, ops);
    }
    return r;
}

/* ---- np.linalg -------------------------------------------------------------------------------- */
IrInst *ty_la_square(Fn *fn, Val a, Loc loc) {
    IrInst *n = extent(fn, a.v, 1, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, extent(fn, a.v, 0, loc), n, loc), RAISE_LINALG,
             "Last 2 dimensions of the array must be square.", loc);
    return n;
}

/* A complex matrix is checked as its two parts, real matrices with its strides. */
void ty_la_check_finite(Fn *fn, Val a, Loc loc) {
    TyMat m = ty_la_mat(fn, a, true, loc);
    const Type *dt = ty_is_complex(a.t->dtype) ? ty_complex_part(a.t->dtype) : a.t->dtype;
    IrInst *args[5] = {m.rows, m.cols, m.a, m.s0, m.s1};
    IrInst *bad = ty_la_call(fn, ty_la_typed(LA_NONFINITE_F64, dt), args, 5, loc);
    if (ty_is_complex(a.t->dtype)) {
        args[2] = bin(fn, IR_ADD, ty_i64, m.a, i64c(fn, dt == ty_f32 ? 4 : 8, loc), loc);
        IrInst *im = ty_la_call(fn, ty_la_typed(LA_NONFINITE_F64, dt), args, 5, loc);
        bad = bin(fn, IR_BITOR, ty_i64, bad, im, loc);
    }
    ty_raise_if(fn, cmp(fn, CMP_NE, bad, i64c(fn, 0, loc), loc), RAISE_LINALG,
             "Array must not contain infs or NaNs.", loc);
}

static void singular_if(Fn *fn, IrInst *info, Loc loc) {
    ty_raise_if(fn, cmp(fn, CMP_NE, info, i64c(fn, 0, loc), loc), RAISE_LINALG,
             "Matrix is singular to machine precision.", loc);
}

/* det: float64 for real matrices, complex128 for complex ones (Numba's sign * exp(logdet),
 * the imaginary part left by the kernel in the scratch's first element). */
static Val det(Fn *fn, Val a, Loc loc) {
    if (!want_array(fn, a, loc, "np.linalg.det()", 2, 2) || !ty_la_cpu_only(fn, "np.linalg.det()", loc))
        return verr();
    bool cx = ty_is_complex(a.t->dtype);
    if (!fn->emit)
        return vval(cx ? ty_c128 : ty_f64, NULL);
    IrInst *n = ty_la_square(fn, a, loc);
    ty_la_check_finite(fn, a, loc); /* Numba returns 1.0 for 0 x 0 first: no element to find anyway */
    IrInst *w = scratch(fn, n, a.t->dtype, loc);
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[5] = {n, m.a, m.s0, m.s1, ty_la_addr(fn, w, loc)};
    IrInst *re = ty_la_call(fn, la_fn(LA_DET_F64, LA_DET_C128, a.t->dtype), args, 5, loc);
    if (!cx)
        return vval(ty_f64, re);
    IrInst *ops[2] = {w, i64c(fn, 0, loc)};
    IrInst *im = ty_emit(fn, IR_ALOAD, ty_f64, loc, 2, ops);
    return vval(ty_c128, ty_complex_make(fn, ty_c128, re, im, loc));
}

static Val inv(Fn *fn, Val a, Loc loc) {
    if (!want_array(fn, a, loc, "np.linalg.inv()", 2, 2) || !ty_la_cpu_only(fn, "np.linalg.inv()", loc))
        return verr();
    const Type *rt = ty_array(a.t->dtype, 2, LAYOUT_F);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *n = ty_la_square(fn, a, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *dims[2] = {n, n};
    Val r = ty_alloc(fn, rt, dims, false, loc);
    IrInst *w = scratch(fn, n, a.t->dtype, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[6] = {n, m.a, m.s0, m.s1, ty_la_addr(fn, w, loc), ty_la_addr(fn, r.v, loc)};
    singular_if(fn, ty_la_call(fn, la_fn(LA_INV_F64, LA_INV_C128, a.t->dtype), args, 6, loc), loc);
    return r;
}

static Val solve(Fn *fn, Val a, Val b, Loc loc) {
    if (!want_array(fn, a, loc, "np.linalg.solve()", 2, 2) ||
        !want_array(fn, b, loc, "np.linalg.solve()", 1, 2) ||
        !ty_la_cpu_only(fn, "np.linalg.solve()", loc))
        return verr();
    if (a.t->dtype != b.t->dtype) {
        ty_error(fn, loc, "np.linalg.solve() only supports inputs that have homogeneous dtypes "
                 "(%s and %s)", a.t->name, b.t->name);
        return verr();
    }
    const Type *rt = ty_array(a.t->dtype, b.t->ndim, b.t->ndim == 1 ? LAYOUT_C : LAYOUT_F);
    if (!fn->emit)
        return vval(rt, NULL);
    ty_la_check_finite(fn, a, loc);
    ty_la_check_finite(fn, b, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, extent(fn, a.v, 0, loc), extent(fn, b.v, 0, loc), loc),
             RAISE_LINALG, "Incompatible array sizes, system is not dimensionally valid.", loc);
    /* Numba 0.56 reads past a non-square a; numjit refuses it as NumPy does */
    IrInst *n = ty_la_square(fn, a, loc);
    IrInst *nrhs = b.t->ndim == 2 ? extent(fn, b.v, 1, loc) : i64c(fn, 1, loc);
    IrInst *dims[2] = {n, nrhs};
    Val x = ty_alloc(fn, rt, dims, false, loc);
    IrInst *w = scratch(fn, n, a.t->dtype, loc);
    if (x.k != V_VAL || !x.v)
        return x;
    ty_array_copy(fn, x, b, loc);
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[7] = {n, nrhs, m.a, m.s0, m.s1, ty_la_addr(fn, w, loc), ty_la_addr(fn, x.v, loc)};
    singular_if(fn, ty_la_call(fn, la_fn(LA_SOLVE_F64, LA_SOLVE_C128, a.t->dtype), args, 7, loc), loc);
    return x;
}

/* A compile-time constant number (a literal, its negation, np.inf), or false. */
static bool constant(const IrInst *v, double *out) {
    bool neg = false;
    while (v && (v->op == IR_NEG || v->op == IR_CAST) && v->nargs == 1) {
        neg ^= v->op == IR_NEG;
        v = v->args[0];
    }
    if (!v || v->op != IR_CONST || !v->type)
        return false;
    double x = ty_is_float(v->type) ? v->imm.f : (double)v->imm.i;
    *out = neg ? -x : x;
    return true;
}

static Val norm(Fn *fn, Val a, Node *ord_node, Loc loc) {
    if (!want_array(fn, a, loc, "np.linalg.norm()", 1, 2) ||
        !ty_la_cpu_only(fn, "np.linalg.norm()", loc))
        return verr();

    Val ord = verr();
    bool none = !ord_node; /* ord=None binds as left out */
    if (!none) {
        if (ord_node->kind == ND_STR) {
            ty_error(fn, ord_node->loc, "np.linalg.norm(): ord='%s' is not supported (Numba 0.56 "
                     "takes only numbers: inf, -inf, 0, 1, -1, 2, -2, p)", ord_node->str);
            return verr();
        }
        if ((ord = ty_value(fn, ord_node)).k != V_VAL)
            return verr();
        if (!ty_is_number(ord.t) && ord.t != ty_bool) {
            ty_error(fn, ord_node->loc, "np.linalg.norm(): ord must be None or a number, not %s",
                     ord.t->name);
            return verr();
        }
    }
    bool vec = a.t->ndim == 1, cx = ty_is_complex(a.t->dtype);
    const Type *pt = cx ? ty_complex_part(a.t->dtype) : a.t->dtype;
    const Type *rt = none && vec ? pt : ty_f64;
    if (!fn->emit)
        return vval(rt, NULL);
    double c; /* ord's value is known in the emitting pass */
    if (cx && !vec && !none && (!constant(ord.v, &c) || c == 2 || c == -2)) {
        ty_error(fn, ord_node->loc, "np.linalg.norm() of a complex matrix with ord 2 or -2 (or an "
                 "ord not known when compiling) is not supported by numjit (it needs the complex "
                 "SVD)");
        return verr();
    }
    IrInst *o = none ? ty_const_float(fn, ty_f64, 2, loc) : ty_cast(fn, ord.v, ord.t, ty_f64, loc);
    int64_t kind = none ? 0 : vec ? 1 : 2;
    TyMat m = ty_la_mat(fn, a, true, loc);
    if (kind == 2) {
        /* Numba: 0.0 for an empty matrix whatever ord is, then ValueError for other orders */
        IrInst *size = bin(fn, IR_MUL, ty_i64, m.rows, m.cols, loc);
        IrInst *nonempty = cmp(fn, CMP_NE, size, i64c(fn, 0, loc), loc);
        IrInst *ok = NULL, *svd = NULL;
        const double good[] = {INFINITY, -INFINITY, 1, -1}, sv[] = {2, -2};
        for (int k = 0; k < 4; k++) {
            IrInst *e = bin(fn, IR_CMP, ty_bool, o, ty_const_float(fn, ty_f64, good[k], loc), loc);
            if (e)
                e->imm.pred = CMP_EQ;
            ok = ok ? or2(fn, ok, e, loc) : e;
        }
        for (int k = 0; k < 2; k++) {
            IrInst *e = cmp(fn, CMP_EQ, o, ty_const_float(fn, ty_f64, sv[k], loc), loc);
            svd = svd ? or2(fn, svd, e, loc) : e;
        }
        /* ord 2 and -2: the extreme singular values, of finite elements only (Numba's
         * _compute_singular_values) */
        if (!cx && (!constant(ord.v, &c) || c == 2 || c == -2)) {
            IrInst *fargs[5] = {m.rows, m.cols, m.a, m.s0, m.s1};
            IrInst *nf = ty_la_call(fn, ty_la_typed(LA_NONFINITE_F64, a.t->dtype), fargs, 5, loc);
            IrInst *bad = bin(fn, IR_BITAND, ty_bool, bin(fn, IR_BITAND, ty_bool, nonempty, svd, loc),
                              cmp(fn, CMP_NE, nf, i64c(fn, 0, loc), loc), loc);
            ty_raise_if(fn, bad, RAISE_LINALG, "Array must not contain infs or NaNs.", loc);
        }
        ok = or2(fn, ok, svd, loc);
        IrInst *bad = ty_emit(fn, IR_NOT, ty_bool, loc, 1, &ok);
        ty_raise_if(fn, bin(fn, IR_BITAND, ty_bool, nonempty, bad, loc), RAISE_VALUE,
                 "Invalid norm order for matrices.", loc);
    }
    IrInst *args[7] = {m.rows, m.cols, m.a, m.s0, m.s1, i64c(fn, kind, loc), o};
    IrInst *r = ty_la_call(fn, la_fn(LA_NORM_F64, LA_NORM_C128, a.t->dtype), args, 7, loc);
    return vval(rt, ty_cast(fn, r, ty_f64, rt, loc));
}

/* ---- calls ------------------------------------------------------------------------------------ */
Val ty_linalg_call(Fn *fn, const char *name, Node *call) {
    static const char *const ab[] = {"a", "b", NULL}, *const abo[] = {"a", "b", "out", NULL},
                             *const a_[] = {"a", NULL}, *const aord[] = {"x", "ord", NULL},
                             *const aoff[] = {"a", "offset", NULL};
    bool lin = !strncmp(name, "np.linalg.", 10);
    const char *base = lin ? name + 10 : name + 3;
    const char *const *params = !strcmp(base, "dot")     ? abo
                                : !strcmp(base, "norm")  ? aord
                                : !strcmp(base, "trace") ? aoff
                                : !strcmp(base, "det") || !strcmp(base, "inv") ? a_
                                                                                : ab;
    int np = 0, nreq = !strcmp(base, "norm") || !strcmp(base, "trace") ? 1 : 0;
    while (params[np])
        np++;
    if (!nreq)
        nreq = np - (!strcmp(base, "dot") ? 1 : 0);
    Node *n[3] = {NULL, NULL, NULL};
    if (!ty_bind_args(fn, call, name, params, np, nreq, TY_BIND_NONE_OMITS, n))
        return verr();
    Val v[3] = {verr(), verr(), verr()};
    for (int i = 0; i < np; i++)
        if (n[i] && !(lin && !strcmp(base, "norm") && i == 1) &&
            (v[i] = ty_value(fn, n[i])).k != V_VAL)
            return verr();
    Loc loc = call->loc;
    if (!strcmp(base, "dot"))
        return dot(fn, "np.dot()", v[0], v[1], n[2] ? &v[2] : NULL, loc);
    if (!strcmp(base, "vdot"))
        return vdot(fn, v[0], v[1], loc);
    if (!strcmp(base, "trace"))
        return trace(fn, v[0], v[1], n[1], loc);
    if (!strcmp(base, "cross"))
        return cross(fn, v[0], v[1], loc);
    if (!strcmp(base, "norm"))
        return norm(fn, v[0], n[1], loc);
    if (!strcmp(base, "det"))
        return det(fn, v[0], loc);
    if (!strcmp(base, "inv"))
        return inv(fn, v[0], loc);
    return solve(fn, v[0], v[1], loc);
}

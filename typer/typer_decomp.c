/* typer_decomp.c — numpy.linalg's decompositions in @njit functions, as Numba 0.56 types
 * and runs them (numba/np/linalg.py): eig, eigvals, eigh, eigvalsh, svd, qr, lstsq, pinv,
 * slogdet, matrix_rank, cond, matrix_power and cholesky.
 *
 * As typer_linalg.c does for det, inv and solve, each call is typed with Numba's checks and
 * messages (_check_linalg_matrix: an array, 2-d, float or complex; numjit has complex
 * slogdet, matrix_power and eigvalsh, runtime/linalg_complex.c, and says the others are
 * missing), then Numba's run-time checks are emitted in Numba's order (a square matrix,
 * "Arrays cannot be empty", finite elements: LinAlgError), the results are allocated in the
 * layouts Numba returns (LAPACK's column-major matrices come back in F order: eigh's and
 * eig's vectors, svd's u and vt, qr's q and r, pinv), and one kernel of
 * runtime/linalg_decomp.c or linalg_eig.c fills them (IR op `rtcall`, ir/linalg.def's XD
 * rows).  A kernel's status becomes Numba's ValueError "Internal algorithm failed to
 * converge." (or MemoryError).  cond and matrix_power are loops of stdlib/npfunc.py over
 * these, as Numba writes them over its own; cholesky is stdlib/npfunc.py's loop, whose status
 * becomes Numba's LinAlgError.
 */
#include "typer_internal.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

/* ---- checks ----------------------------------------------------------------------------------- */
/* Numba's _check_linalg_matrix (lo == 2) and _check_linalg_1_or_2d_matrix (lo == 1); cx:
 * numjit computes this one on complex matrices too. */
static bool want_of(Fn *fn, Val a, const char *name, int lo, bool cx, Loc loc) {
    if (a.k != V_VAL)
        return false;
    if (a.t->kind != TY_ARRAY) {
        ty_error(fn, loc, "np.linalg.%s() only supported for array types", name);
        return false;
    }
    if (a.t->ndim < lo || a.t->ndim > 2) {
        ty_error(fn, loc, lo == 2 ? "np.linalg.%s() only supported on 2-D arrays."
                                  : "np.linalg.%s() only supported on 1 and 2-D arrays", name);
        return false;
    }
    if (ty_is_complex(a.t->dtype) && !cx) {
        ty_error(fn, loc, "np.linalg.%s() of complex arrays is not supported by numjit (float32 "
                 "and float64 are)", name);
        return false;
    }
    if (!ty_is_float(a.t->dtype) && !ty_is_complex(a.t->dtype)) {
        ty_error(fn, loc, "np.linalg.%s() only supported on float and complex arrays.", name);
        return false;
    }
    char shown[48];
    snprintf(shown, sizeof shown, "np.linalg.%s()", name);
    return ty_la_cpu_only(fn, arena_strdup(fn->tc->arena, shown), loc);
}

static bool want(Fn *fn, Val a, const char *name, int lo, Loc loc) {
    return want_of(fn, a, name, lo, false, loc);
}

/* A kernel's status: ValueError when it did not converge, MemoryError without memory. */
static void check_info(Fn *fn, IrInst *info, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc);
    ty_raise_if(fn, cmp(fn, CMP_GT, info, zero, loc), RAISE_VALUE,
                "Internal algorithm failed to converge.", loc);
    ty_raise_if(fn, cmp(fn, CMP_LT, info, zero, loc), RAISE_MEMORY,
                "Allocation failed (probably too large).", loc);
}

static void nonempty(Fn *fn, IrInst *m, IrInst *n, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc);
    ty_raise_if(fn, bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_EQ, m, zero, loc),
                        cmp(fn, CMP_EQ, n, zero, loc), loc),
                RAISE_LINALG, "Arrays cannot be empty", loc);
}

/* ---- small builders --------------------------------------------------------------------------- */
static Val new_array(Fn *fn, const Type *dt, int nd, ArrayLayout lay, IrInst **dims, Loc loc) {
    const Type *t = ty_array(dt, nd, lay);
    if (!fn->emit)
        return vval(t, NULL);
    return ty_alloc(fn, t, dims, false, loc);
}

static Val tuple(Fn *fn, Val *v, int n, Loc loc) {
    const Type *t[4];
    IrInst *x[4];
    for (int i = 0; i < n; i++)
        t[i] = v[i].t, x[i] = v[i].v;
    const Type *tt = ty_tuple(t, n);
    if (!fn->emit)
        return vval(tt, NULL);
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, n, x));
}

static IrInst *min2(Fn *fn, IrInst *a, IrInst *b, Loc loc) {
    return sel(fn, ty_i64, cmp(fn, CMP_LT, a, b, loc), a, b, loc);
}

static IrInst *load1(Fn *fn, IrInst *arr, const Type *dt, IrInst *i, Loc loc) {
    return ty_aload(fn, arr, dt, &i, 1, loc);
}

/* How many of the n elements of the 1-d arr (dtype dt) satisfy x `p` bound (a float64). */
static IrInst *count(Fn *fn, IrInst *arr, const Type *dt, IrInst *n, CmpPred p, IrInst *bound,
                     Loc loc) {
    int acc = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, acc, i64c(fn, 0, loc), loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, n, loc);
    IrInst *x = ty_cast(fn, load1(fn, arr, dt, i, loc), dt, ty_f64, loc);
    IrInst *hit = ty_cast(fn, cmp(fn, p, x, bound, loc), ty_bool, ty_i64, loc);
    ty_store_var(fn, acc, bin(fn, IR_ADD, ty_i64, ty_load_var(fn, acc, ty_i64, loc), hit, loc),
                 loc);
    ty_loop_close(fn, &L, loc);
    return ty_load_var(fn, acc, ty_i64, loc);
}

/* ---- eigenvalues ------------------------------------------------------------------------------ */
/* eigh / eigvalsh (vectors: eigh) */
static Val eigh(Fn *fn, Val a, bool vectors, Loc loc) {
    const char *name = vectors ? "eigh" : "eigvalsh";
    if (!want_of(fn, a, name, 2, !vectors, loc))
        return verr();
    bool cx = ty_is_complex(a.t->dtype); /* eigvalsh of a Hermitian matrix: real values */
    const Type *dt = cx ? ty_complex_part(a.t->dtype) : a.t->dtype;
    if (!fn->emit) {
        Val r[2] = {vval(ty_array(dt, 1, LAYOUT_C), NULL), vval(ty_array(dt, 2, LAYOUT_F), NULL)};
        return vectors ? tuple(fn, r, 2, loc) : r[0];
    }
    IrInst *n = ty_la_square(fn, a, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *dims[2] = {n, n};
    Val w = new_array(fn, dt, 1, LAYOUT_C, dims, loc);
    Val v = vectors ? new_array(fn, dt, 2, LAYOUT_F, dims, loc) : verr();
    if (w.k != V_VAL || (vectors && v.k != V_VAL))
        return verr();
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[6] = {n, m.a, m.s0, m.s1, ty_la_addr(fn, w.v, loc),
                       vectors ? ty_la_addr(fn, v.v, loc) : i64c(fn, 0, loc)};
    if (cx) {
        RtFn f = a.t->dtype == ty_c64 ? LA_EIGVALSH_C64 : LA_EIGVALSH_C128;
        check_info(fn, ty_la_call(fn, f, args, 5, loc), loc);
        return w;
    }
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_EIGH_F64, dt), args, 6, loc), loc);
    Val r[2] = {w, v};
    return vectors ? tuple(fn, r, 2, loc) : w;
}

/* eig / eigvals of a real matrix: real results, ValueError when an eigenvalue is complex */
static Val eig(Fn *fn, Val a, bool vectors, Loc loc) {
    const char *name = vectors ? "eig" : "eigvals";
    if (!want(fn, a, name, 2, loc))
        return verr();
    const Type *dt = a.t->dtype;
    if (!fn->emit) {
        Val r[2] = {vval(ty_array(dt, 1, LAYOUT_C), NULL), vval(ty_array(dt, 2, LAYOUT_F), NULL)};
        return vectors ? tuple(fn, r, 2, loc) : r[0];
    }
    IrInst *n = ty_la_square(fn, a, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *dims[2] = {n, n};
    Val wr = new_array(fn, dt, 1, LAYOUT_C, dims, loc), wi = new_array(fn, dt, 1, LAYOUT_C, dims, loc);
    Val v = vectors ? new_array(fn, dt, 2, LAYOUT_F, dims, loc) : verr();
    if (wr.k != V_VAL || wi.k != V_VAL || (vectors && v.k != V_VAL))
        return verr();
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[7] = {n, m.a, m.s0, m.s1, ty_la_addr(fn, wr.v, loc), ty_la_addr(fn, wi.v, loc),
                       vectors ? ty_la_addr(fn, v.v, loc) : i64c(fn, 0, loc)};
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_EIG_F64, dt), args, 7, loc), loc);
    IrInst *cplx = count(fn, wi.v, dt, n, CMP_NE, ty_const_float(fn, ty_f64, 0, loc), loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, cplx, i64c(fn, 0, loc), loc), RAISE_VALUE,
                vectors ? "eig() argument must not cause a domain change."
                        : "eigvals() argument must not cause a domain change.", loc);
    Val r[2] = {wr, v};
    return vectors ? tuple(fn, r, 2, loc) : wr;
}

/* ---- singular values -------------------------------------------------------------------------- */
static Val svd(Fn *fn, Val a, Node *full_node, Loc loc) {
    if (!want(fn, a, "svd", 2, loc))
        return verr();
    Val full = vval(ty_i64, NULL);
    if (full_node) {
        full = ty_value(fn, full_node);
        if (full.k != V_VAL)
            return verr();
        if (!ty_is_int(full.t) && full.t != ty_bool) {
            ty_error(fn, full_node->loc, "np.linalg.svd(): full_matrices must be a boolean or an "
                     "integer, not %s", full.t->name);
            return verr();
        }
    }
    const Type *dt = a.t->dtype;
    Val r[3] = {vval(ty_array(dt, 2, LAYOUT_F), NULL), vval(ty_array(dt, 1, LAYOUT_C), NULL),
                vval(ty_array(dt, 2, LAYOUT_F), NULL)};
    if (!fn->emit)
        return tuple(fn, r, 3, loc);
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    nonempty(fn, m, n, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *k = min2(fn, m, n, loc);
    IrInst *f = full_node ? ty_cast(fn, ty_truth(fn, full, loc), ty_bool, ty_i64, loc)
                          : i64c(fn, 1, loc);
    IrInst *is_full = cmp(fn, CMP_NE, f, i64c(fn, 0, loc), loc);
    IrInst *ud[2] = {m, sel(fn, ty_i64, is_full, m, k, loc)};
    IrInst *vd[2] = {sel(fn, ty_i64, is_full, n, k, loc), n};
    r[0] = new_array(fn, dt, 2, LAYOUT_F, ud, loc);
    r[1] = new_array(fn, dt, 1, LAYOUT_C, &k, loc);
    r[2] = new_array(fn, dt, 2, LAYOUT_F, vd, loc);
    if (r[0].k != V_VAL || r[1].k != V_VAL || r[2].k != V_VAL)
        return verr();
    TyMat am = ty_la_mat(fn, a, true, loc);
    IrInst *args[9] = {m, n, am.a, am.s0, am.s1, f, ty_la_addr(fn, r[0].v, loc),
                       ty_la_addr(fn, r[1].v, loc), ty_la_addr(fn, r[2].v, loc)};
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_SVD_F64, dt), args, 9, loc), loc);
    return tuple(fn, r, 3, loc);
}

Val ty_la_sv(Fn *fn, Val a, Loc loc) {
    const Type *st = ty_array(ty_f64, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(st, NULL);
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    nonempty(fn, m, n, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *k = min2(fn, m, n, loc);
    Val s = new_array(fn, ty_f64, 1, LAYOUT_C, &k, loc);
    if (s.k != V_VAL)
        return verr();
    TyMat am = ty_la_mat(fn, a, true, loc);
    IrInst *args[6] = {m, n, am.a, am.s0, am.s1, ty_la_addr(fn, s.v, loc)};
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_SV_F64, a.t->dtype), args, 6, loc), loc);
    return s;
}

/* a float number argument (rcond, tol) as float64; dflt when e is NULL */
static bool number_arg(Fn *fn, Node *e, const char *fname, const char *what, double dflt,
                       IrInst **out, Loc loc) {
    if (!e) {
        *out = fn->emit ? ty_const_float(fn, ty_f64, dflt, loc) : NULL;
        return true;
    }
    Val v = ty_value(fn, e);
    if (v.k != V_VAL)
        return false;
    if (!ty_is_int(v.t) && !ty_is_float(v.t) && v.t != ty_bool) {
        ty_error(fn, e->loc, "np.linalg.%s(): %s must be a real number, not %s", fname, what,
                 v.t->name);
        return false;
    }
    *out = fn->emit ? ty_cast(fn, v.v, v.t, ty_f64, loc) : NULL;
    return true;
}

static Val pinv(Fn *fn, Val a, Node *rcond_node, Loc loc) {
    IrInst *rcond;
    if (!want(fn, a, "pinv", 2, loc) || !number_arg(fn, rcond_node, "pinv", "rcond", 1e-15, &rcond, loc))
        return verr();
    const Type *dt = a.t->dtype;
    if (!fn->emit)
        return vval(ty_array(dt, 2, LAYOUT_F), NULL);
    ty_la_check_finite(fn, a, loc);
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    IrInst *dims[2] = {n, m};
    Val r = new_array(fn, dt, 2, LAYOUT_F, dims, loc);
    if (r.k != V_VAL)
        return verr();
    TyMat am = ty_la_mat(fn, a, true, loc);
    IrInst *args[7] = {m, n, am.a, am.s0, am.s1, rcond, ty_la_addr(fn, r.v, loc)};
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_PINV_F64, dt), args, 7, loc), loc);
    return r;
}

/* matrix_rank: Numba's counts of singular values above the tolerance (s_0 * max(m, n) *
 * eps of the dtype when tol is None); a vector's rank is 1 when an element is not zero */
static Val matrix_rank(Fn *fn, Val a, Node *tol_node, Loc loc) {
    IrInst *tol = NULL;
    if (!want(fn, a, "matrix_rank", 1, loc) ||
        (tol_node && !number_arg(fn, tol_node, "matrix_rank", "tol", 0, &tol, loc)))
        return verr();
    if (!fn->emit)
        return vval(ty_i64, NULL);
    if (a.t->ndim == 1) {
        IrInst *nz = count(fn, a.v, a.t->dtype, extent(fn, a.v, 0, loc), CMP_NE,
                           ty_const_float(fn, ty_f64, 0, loc), loc);
        return vval(ty_i64, min2(fn, nz, i64c(fn, 1, loc), loc));
    }
    Val s = ty_la_sv(fn, a, loc);
    if (s.k != V_VAL)
        return verr();
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    if (!tol) {
        double eps = a.t->dtype == ty_f32 ? (double)FLT_EPSILON : DBL_EPSILON;
        IrInst *l = ty_cast(fn, sel(fn, ty_i64, cmp(fn, CMP_GT, m, n, loc), m, n, loc), ty_i64,
                            ty_f64, loc);
        IrInst *s0 = load1(fn, s.v, ty_f64, i64c(fn, 0, loc), loc);
        tol = bin(fn, IR_MUL, ty_f64, bin(fn, IR_MUL, ty_f64, s0, l, loc),
                  ty_const_float(fn, ty_f64, eps, loc), loc);
    }
    return vval(ty_i64, count(fn, s.v, ty_f64, min2(fn, m, n, loc), CMP_GT, tol, loc));
}

/* ---- QR and least squares --------------------------------------------------------------------- */
static Val qr(Fn *fn, Val a, Loc loc) {
    if (!want(fn, a, "qr", 2, loc))
        return verr();
    const Type *dt = a.t->dtype;
    Val r[2] = {vval(ty_array(dt, 2, LAYOUT_F), NULL), vval(ty_array(dt, 2, LAYOUT_F), NULL)};
    if (!fn->emit)
        return tuple(fn, r, 2, loc);
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    nonempty(fn, m, n, loc);
    ty_la_check_finite(fn, a, loc);
    IrInst *k = min2(fn, m, n, loc);
    IrInst *qd[2] = {m, k}, *rd[2] = {k, n};
    r[0] = new_array(fn, dt, 2, LAYOUT_F, qd, loc);
    r[1] = new_array(fn, dt, 2, LAYOUT_F, rd, loc);
    if (r[0].k != V_VAL || r[1].k != V_VAL)
        return verr();
    TyMat am = ty_la_mat(fn, a, true, loc);
    IrInst *args[7] = {m, n, am.a, am.s0, am.s1, ty_la_addr(fn, r[0].v, loc),
                       ty_la_addr(fn, r[1].v, loc)};
    check_info(fn, ty_la_call(fn, ty_la_typed(LA_QR_F64, dt), args, 7, loc), loc);
    return tuple(fn, r, 2, loc);
}

/* lstsq: (x, residuals, rank (int32), s), Numba's checks in its order */
static Val lstsq(Fn *fn, Val a, Val b, Node *rcond_node, Loc loc) {
    IrInst *rcond;
    if (!want(fn, a, "lstsq", 2, loc) || !want(fn, b, "lstsq", 1, loc))
        return verr();
    if (a.t->dtype != b.t->dtype) {
        ty_error(fn, loc, "np.linalg.lstsq() only supports inputs that have homogeneous dtypes.");
        return verr();
    }
    if (!number_arg(fn, rcond_node, "lstsq", "rcond", -1.0, &rcond, loc))
        return verr();
    const Type *dt = a.t->dtype;
    Val r[4] = {vval(ty_array(dt, b.t->ndim, LAYOUT_C), NULL), vval(ty_array(dt, 1, LAYOUT_C), NULL),
                vval(ty_i32, NULL), vval(ty_array(dt, 1, LAYOUT_C), NULL)};
    if (!fn->emit)
        return tuple(fn, r, 4, loc);
    bool two = b.t->ndim == 2;
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    IrInst *bm = extent(fn, b.v, 0, loc), *nrhs = two ? extent(fn, b.v, 1, loc) : i64c(fn, 1, loc);
    ty_la_check_finite(fn, a, loc);
    ty_la_check_finite(fn, b, loc);
    IrInst *zero = i64c(fn, 0, loc);
    nonempty(fn, bin(fn, IR_MUL, ty_i64, m, n, loc),
             two ? bin(fn, IR_MUL, ty_i64, bm, nrhs, loc) : bm, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, m, bm, loc), RAISE_LINALG,
                "Incompatible array sizes, system is not dimensionally valid.", loc);
    IrInst *k = min2(fn, m, n, loc), *xd[2] = {n, nrhs};
    r[0] = new_array(fn, dt, b.t->ndim, LAYOUT_C, xd, loc);
    r[3] = new_array(fn, dt, 1, LAYOUT_C, &k, loc);
    Val res = new_array(fn, ty_f64, 1, LAYOUT_C, &nrhs, loc);
    if (r[0].k != V_VAL || r[3].k != V_VAL || res.k != V_VAL)
        return verr();
    TyMat am = ty_la_mat(fn, a, true, loc), bmat = ty_la_mat(fn, b, false, loc);
    IrInst *args[13] = {m, n, nrhs, am.a, am.s0, am.s1, bmat.a, bmat.s0, bmat.s1, rcond,
                        ty_la_addr(fn, r[0].v, loc), ty_la_addr(fn, r[3].v, loc),
                        ty_la_addr(fn, res.v, loc)};
    IrInst *rank = ty_la_call(fn, ty_la_typed(LA_LSTSQ_F64, dt), args, 13, loc);
    ty_raise_if(fn, cmp(fn, CMP_EQ, rank, i64c(fn, -2, loc), loc), RAISE_VALUE,
                "Internal algorithm failed to converge.", loc);
    ty_raise_if(fn, cmp(fn, CMP_EQ, rank, i64c(fn, -1, loc), loc), RAISE_MEMORY,
                "Allocation failed (probably too large).", loc);
    /* residuals only when the rank is full and the system overdetermined */
    IrInst *has = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_EQ, rank, n, loc),
                      cmp(fn, CMP_GT, m, n, loc), loc);
    IrInst *len = sel(fn, ty_i64, has, nrhs, zero, loc);
    r[1] = new_array(fn, dt, 1, LAYOUT_C, &len, loc);
    if (r[1].k != V_VAL)
        return verr();
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, len, loc);
    IrInst *x = ty_cast(fn, load1(fn, res.v, ty_f64, i, loc), ty_f64, dt, loc);
    ty_astore(fn, r[1].v, &i, 1, x, loc);
    ty_loop_close(fn, &L, loc);
    r[2] = vval(ty_i32, ty_cast(fn, rank, ty_i64, ty_i32, loc));
    return tuple(fn, r, 4, loc);
}

/* ---- slogdet, cond, matrix_power ------------------------------------------------------------ */
/* (sign, logdet): (float64, float64), or (complex128, float64) for a complex matrix (Numba's
 * diagonal walkers), the sign left by the kernel at the start of the scratch. */
static Val slogdet(Fn *fn, Val a, Loc loc) {
    if (!want_of(fn, a, "slogdet", 2, true, loc))
        return verr();
    bool cx = ty_is_complex(a.t->dtype);
    Val r[2] = {vval(cx ? ty_c128 : ty_f64, NULL), vval(ty_f64, NULL)};
    if (!fn->emit)
        return tuple(fn, r, 2, loc);
    IrInst *n = ty_la_square(fn, a, loc);
    ty_la_check_finite(fn, a, loc);
    /* LU factors and pivots of n x n (twice n x n for complex), the sign in the first
     * element(s) */
    IrInst *nn = bin(fn, IR_MUL, ty_i64, n, n, loc);
    if (cx)
        nn = bin(fn, IR_ADD, ty_i64, nn, nn, loc);
    IrInst *len = bin(fn, IR_ADD, ty_i64, nn, bin(fn, IR_ADD, ty_i64, n, i64c(fn, 2, loc), loc), loc);
    Val w = new_array(fn, ty_f64, 1, LAYOUT_C, &len, loc);
    if (w.k != V_VAL)
        return verr();
    TyMat m = ty_la_mat(fn, a, true, loc);
    IrInst *args[5] = {n, m.a, m.s0, m.s1, ty_la_addr(fn, w.v, loc)};
    if (cx) {
        RtFn f = a.t->dtype == ty_c64 ? LA_SLOGDET_C64 : LA_SLOGDET_C128;
        r[1].v = ty_la_call(fn, f, args, 5, loc);
        r[0].v = ty_complex_make(fn, ty_c128, load1(fn, w.v, ty_f64, i64c(fn, 0, loc), loc),
                                 load1(fn, w.v, ty_f64, i64c(fn, 1, loc), loc), loc);
        return tuple(fn, r, 2, loc);
    }
    r[1].v = ty_la_call(fn, ty_la_typed(LA_SLOGDET_F64, a.t->dtype), args, 5, loc);
    r[0].v = load1(fn, w.v, ty_f64, i64c(fn, 0, loc), loc);
    return tuple(fn, r, 2, loc);
}

/* cond(a, p=None): stdlib/npfunc.py's loop (singular values for None, 2 and -2; the norms of a
 * and its inverse otherwise) */
static Val cond(Fn *fn, Val a, Node *p_node, Loc loc) {
    if (!want(fn, a, "cond", 2, loc))
        return verr();
    Val p = vval(ty_f64, fn->emit ? ty_const_float(fn, ty_f64, 2, loc) : NULL);
    bool none = !p_node;
    if (!none) {
        if ((p = ty_value(fn, p_node)).k != V_VAL)
            return verr();
        if (!ty_is_int(p.t) && !ty_is_float(p.t)) {
            ty_error(fn, p_node->loc, "np.linalg.cond(): p must be None or a number, not %s",
                     p.t->name);
            return verr();
        }
    }
    Val args[3] = {a, p, vval(ty_bool, fn->emit ? ty_const_int(fn, ty_bool, none, loc) : NULL)};
    return ty_lib_call(fn, "_nj_np_linalg_cond", "np.linalg.cond", "numpy", args, 3, loc);
}

static Val matrix_power(Fn *fn, Val a, Val n, Loc loc) {
    if (!want_of(fn, a, "matrix_power", 2, true, loc) || n.k != V_VAL)
        return verr();
    if (!ty_is_int(n.t)) {
        ty_error(fn, loc, "Exponent must be an integer.");
        return verr();
    }
    Val args[2] = {a, n};
    return ty_lib_call(fn, "_nj_np_linalg_matrix_power", "np.linalg.matrix_power", "numpy", args,
                       2, loc);
}

/* cholesky(a): Numba's cho_impl — a square matrix (LinAlgError), the lower factor of a's lower
 * triangle in a new C array, LinAlgError when a leading minor is not positive definite */
static Val cholesky(Fn *fn, Val a, Loc loc) {
    if (!want(fn, a, "cholesky", 2, loc))
        return verr();
    const Type *dt = a.t->dtype;
    if (!fn->emit)
        return vval(ty_array(dt, 2, LAYOUT_C), NULL);
    IrInst *m = extent(fn, a.v, 0, loc), *n = extent(fn, a.v, 1, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, m, n, loc), RAISE_LINALG,
                "Last 2 dimensions of the array must be square.", loc);
    IrInst *dims[2] = {n, n};
    Val out = new_array(fn, dt, 2, LAYOUT_C, dims, loc);
    if (out.k != V_VAL)
        return verr();
    Val args[2] = {a, out};
    Val st = ty_lib_call(fn, "_nj_np_linalg_cholesky", "np.linalg.cholesky", "numpy", args, 2,
                         loc);
    if (st.k != V_VAL)
        return verr();
    ty_raise_if(fn, cmp(fn, CMP_NE, st.v, i64c(fn, 0, loc), loc), RAISE_LINALG,
                "Matrix is not positive definite.", loc);
    return out;
}

/* ---- calls ------------------------------------------------------------------------------------ */
Val ty_decomp_call(Fn *fn, const char *name, Node *call) {
    static const struct {
        const char *name, *params[3];
        int nreq;
    } sigs[] = {
        {"eig", {"a"}, 1},           {"eigvals", {"a"}, 1},
        {"eigh", {"a"}, 1},          {"eigvalsh", {"a"}, 1},
        {"svd", {"a", "full_matrices"}, 1},
        {"qr", {"a"}, 1},            {"lstsq", {"a", "b", "rcond"}, 2},
        {"pinv", {"a", "rcond"}, 1}, {"slogdet", {"a"}, 1},
        {"matrix_rank", {"a", "tol"}, 1},
        {"cond", {"a", "p"}, 1},     {"matrix_power", {"a", "n"}, 2},
        {"cholesky", {"a"}, 1},
    };
    const char *base = name + strlen("np.linalg.");
    size_t which = 0;
    while (which < sizeof sigs / sizeof *sigs && strcmp(sigs[which].name, base))
        which++;
    if (which == sizeof sigs / sizeof *sigs) {
        ty_error(fn, call->loc, "%s() is not supported by numjit", name);
        return verr();
    }
    int np = 0;
    while (np < 3 && sigs[which].params[np])
        np++;
    Node *n[3] = {NULL, NULL, NULL};
    if (!ty_bind_args(fn, call, name, sigs[which].params, np, sigs[which].nreq,
                      TY_BIND_NONE_OMITS, n))
        return verr();
    Val a = ty_value(fn, n[0]);
    if (a.k != V_VAL)
        return verr();
    Loc loc = call->loc;
    if (!strcmp(base, "eigh") || !strcmp(base, "eigvalsh"))
        return eigh(fn, a, base[3] == 'h', loc);
    if (!strcmp(base, "eig") || !strcmp(base, "eigvals"))
        return eig(fn, a, base[3] == 0, loc);
    if (!strcmp(base, "svd"))
        return svd(fn, a, n[1], loc);
    if (!strcmp(base, "qr"))
        return qr(fn, a, loc);
    if (!strcmp(base, "pinv"))
        return pinv(fn, a, n[1], loc);
    if (!strcmp(base, "slogdet"))
        return slogdet(fn, a, loc);
    if (!strcmp(base, "matrix_rank"))
        return matrix_rank(fn, a, n[1], loc);
    if (!strcmp(base, "cond"))
        return cond(fn, a, n[1], loc);
    if (!strcmp(base, "cholesky"))
        return cholesky(fn, a, loc);
    Val b = ty_value(fn, n[1]);
    if (b.k != V_VAL)
        return verr();
    if (!strcmp(base, "matrix_power"))
        return matrix_power(fn, a, b, loc);
    return lstsq(fn, a, b, n[2], loc);
}

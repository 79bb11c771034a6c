/* typer_alloc.c — NumPy's array constructors in compiled functions: np.empty, np.zeros,
 * np.ones, np.full, their *_like forms, np.arange, np.linspace, np.copy and a.copy().
 *
 * Each becomes IR the rest of the pipeline already knows, around one `alloc`:
 *
 *   shape (an int or a tuple of ints) → int64 extents → `raise ValueError` when one is negative
 *   → `alloc` (a new C- or F-layout array; MemoryError when malloc fails) → `own` (a hidden
 *   variable holds the new reference until the end of the statement, ops.def) → for the filling
 *   forms, nested counted loops of `astore` (C order; F order for an F array, so the inner loop
 *   walks contiguous memory and LLVM turns a zero fill into memset and a copy into vector code).
 *
 * np.arange and np.linspace are Numba 0.56's own algorithms (numba/np/arrayobj.py), written
 * with ty_binop so that every intermediate has the type Numba gives it: the element count of
 * arange is ceil((stop - start) / step) clamped at 0, element i is start + i * step; linspace
 * computes in float64, step = (stop - start) / (num - 1), and writes stop last.  Types follow
 * Numba: default dtype float64; np.full takes the fill value's type; *_like keeps the
 * argument's dtype and, for an F array, its layout, as does np.copy, while a.copy() is always
 * C; arange of integers is
 * int64 (unsigned bounds are refused, as Numba refuses them) and of any float float64.
 *
 * Arrays are created on the CPU only: in CUDA code these calls are a diagnostic pointing at
 * cuda.local.array.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <stdio.h>
#include <string.h>


static const char *const constructors[] = {
    "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
    "arange", "linspace", "copy", "array", "eye", "identity", "diag", "outer", NULL,
};

bool ty_np_constructor(const char *attr) {
    for (int i = 0; constructors[i]; i++)
        if (!strcmp(attr, constructors[i]))
            return true;
    return false;
}

/* ---- small IR helpers ------------------------------------------------------------------------ */
static IrInst *icmp(Fn *fn, CmpPred p, IrInst *a, IrInst *b, Loc loc) {
    IrInst *ops[2] = {a, b};
    IrInst *c = ty_emit(fn, IR_CMP, ty_bool, loc, 2, ops);
    if (c)
        c->imm.pred = p;
    return c;
}

/* Every element of dst (a fresh array) = value, or = the same element of src when src is
 * given (value then NULL).  Loops in the memory order of dst's layout. */
static void fill(Fn *fn, Val dst, IrInst *value, Val *src, Loc loc) {
    if (!fn->emit || !dst.v)
        return;
    int nd = dst.t->ndim;
    bool f_order = dst.t->layout == LAYOUT_F;
    TyLoop loops[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM + 2];
    for (int k = 0; k < nd; k++) {
        int d = f_order ? nd - 1 - k : k;
        idx[1 + d] = ty_loop_open(fn, &loops[k], extent(fn, dst.v, d, loc), loc);
    }
    if (src) {
        idx[0] = src->v;
        value = ty_emit(fn, IR_ALOAD, src->t->dtype, loc, nd + 1, idx);
        value = ty_cast(fn, value, src->t->dtype, dst.t->dtype, loc);
    }
    idx[0] = dst.v;
    idx[nd + 1] = value;
    ty_emit(fn, IR_ASTORE, ty_void, loc, nd + 2, idx);
    for (int k = nd - 1; k >= 0; k--)
        ty_loop_close(fn, &loops[k], loc);
}

/* ValueError "array is too big" when the element count or the byte size of extents dims
 * (each >= 0) exceeds INT64_MAX, as Numba's _empty_nd_impl (its overflow flags are sticky: an
 * overflowing prefix is an error even before a zero extent).  Constant extents are judged now
 * with base/checked.c's nj_byte_size; others by IR that tests each running product p against
 * INT64_MAX / d before multiplying, so nothing wraps. */
static void check_too_big(Fn *fn, const Type *t, IrInst **dims, Loc loc) {
    const char *msg = nj_size_message(NJ_SIZE_OVERFLOW);
    int64_t item = ty_size(t->dtype), shape[TY_MAX_NDIM], nb;
    bool consts = true;
    for (int d = 0; d < t->ndim; d++) {
        consts &= dims[d] && dims[d]->op == IR_CONST && dims[d]->imm.i >= 0;
        shape[d] = consts ? dims[d]->imm.i : 0;
    }
    if (consts) {
        bool prefix_ok = true; /* Numba's sticky flag: no overflowing prefix either */
        int64_t p = 1;
        for (int d = 0; d < t->ndim && prefix_ok; d++)
            prefix_ok = nj_mul_size(p, shape[d], &p);
        if (!prefix_ok || nj_byte_size(t->ndim, shape, item, &nb) != NJ_SIZE_OK)
            ty_raise_if(fn, ty_const_int(fn, ty_bool, 1, loc), RAISE_VALUE, msg, loc);
        return;
    }
    IrInst *p = ty_const_int(fn, ty_u64, 1, loc), *big = NULL;
    IrInst *zero = ty_const_int(fn, ty_u64, 0, loc);
    IrInst *max = ty_const_int(fn, ty_u64, INT64_MAX, loc);
    for (int d = 0; d < t->ndim; d++) {
        IrInst *x = ty_cast(fn, dims[d], ty_i64, ty_u64, loc);
        IrInst *over = bin(fn, IR_BITAND, ty_bool, icmp(fn, CMP_NE, x, zero, loc),
                           icmp(fn, CMP_GT, p, bin(fn, IR_FLOORDIV, ty_u64, max, x, loc), loc),
                           loc);
        big = big ? bin(fn, IR_BITOR, ty_bool, big, over, loc) : over;
        p = bin(fn, IR_MUL, ty_u64, p, x, loc);
    }
    IrInst *lim = ty_const_int(fn, ty_u64, INT64_MAX / (item > 0 ? item : 1), loc);
    big = bin(fn, IR_BITOR, ty_bool, big, icmp(fn, CMP_GT, p, lim, loc), loc);
    ty_raise_if(fn, big, RAISE_VALUE, msg, loc);
}

/* A new array of type t (owned until the end of the statement) with extents dims[0..nd-1]
 * (int64); checks them when `check` (ValueError for a negative one, and for a size beyond
 * INT64_MAX, as Numba). */
static Val alloc(Fn *fn, const Type *t, IrInst **dims, bool check, Loc loc) {
    if (!fn->emit)
        return vval(t, NULL);
    if (t->ndim == 0) { /* a 0-d argument's copy, astype, ...: a located refusal */
        ty_error(fn, loc, "this makes a new 0-d array (%s), which numjit does not support: "
                 "compiled code makes arrays of 1 to 8 dimensions (read the element with a[()])",
                 t->name);
        return verr();
    }
    if (check) {
        IrInst *neg = NULL, *zero = ty_const_int(fn, ty_i64, 0, loc);
        for (int d = 0; d < t->ndim; d++) {
            if (dims[d] && dims[d]->op == IR_CONST && dims[d]->imm.i >= 0)
                continue;
            IrInst *c = icmp(fn, CMP_LT, dims[d], zero, loc);
            IrInst *ops[2] = {neg, c};
            neg = neg ? ty_emit(fn, IR_BITOR, ty_bool, loc, 2, ops) : c;
        }
        ty_raise_if(fn, neg, RAISE_VALUE, nj_size_message(NJ_SIZE_NEGATIVE), loc);
        if (t->ndim > 0)
            check_too_big(fn, t, dims, loc);
    }
    IrInst *a = ty_emit(fn, IR_ALLOC, t, loc, t->ndim, dims);
    if (a)
        a->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY,
                                     "Allocation failed (probably too large).", loc);
    return ty_own(fn, vval(t, a), loc);
}

Val ty_alloc(Fn *fn, const Type *t, IrInst **dims, bool check, Loc loc) {
    return alloc(fn, t, dims, check, loc);
}

/* ---- arguments ------------------------------------------------------------------------------- */
/* Binds the call's positional and keyword arguments to params (NULL-terminated); the first
 * nreq are required.  out[k] = the argument's node or NULL.  allow_kw: keywords accepted.
 * The registry's binder does it (lib_bind_sig, CPython's words at the argument), from the
 * signature text of Numba's parameters: "shape, dtype=_" (an optional parameter's default is
 * no value of Python's, so that None passed stays an argument) and a closing "/" when no
 * keyword is accepted. */
static bool bind(Fn *fn, Node *call, const char *fname, const char *const *params, int nreq,
                 bool allow_kw, Node **out) {
    char shown[64], sig[256] = "", err[256];
    snprintf(shown, sizeof shown, "np.%s", fname);
    int np = 0;
    for (; params[np]; np++) {
        size_t len = strlen(sig);
        snprintf(sig + len, sizeof sig - len, "%s%s%s", np ? ", " : "", params[np],
                 np < nreq ? "" : "=_");
    }
    if (!allow_kw) {
        size_t len = strlen(sig);
        snprintf(sig + len, sizeof sig - len, ", /");
    }
    LibArgs b;
    Loc at;
    if (!lib_bind_sig(sig, shown, call, &b, &at, err, sizeof err)) {
        ty_error(fn, at, "%s", err);
        return false;
    }
    for (int k = 0; k < np; k++)
        out[k] = b.node[k];
    return true;
}

/* A dtype argument: np.float32, numba's float32, 'float32', the builtin float, a.dtype or
 * np.dtype('float32' or np.float32); with int_bool also the builtins int and bool (as astype takes
 * them). */
static const Type *dtype_of(Fn *fn, Node *e, bool int_bool) {
    const Type *t = NULL;
    if (!(e = ty_dtype_unwrap(fn, e, &t))) /* a.dtype, np.dtype(X): typer_dtype.c */
        return NULL;
    if (t) {
    } else if (e->kind == ND_STR) {
        t = ty_np_dtype_str(e->str);
    } else {
        bool emit = fn->emit;
        fn->emit = false;
        Val v = ty_expr(fn, e);
        fn->emit = emit;
        if (v.k == V_TYPE)
            t = v.t;
        else if (v.k == V_BUILTIN && !strcmp(v.name, "float"))
            t = ty_f64;
        else if (int_bool && v.k == V_BUILTIN && !strcmp(v.name, "int"))
            t = ty_i64;
        else if (int_bool && v.k == V_BUILTIN && !strcmp(v.name, "bool"))
            t = ty_bool;
        else if (v.k == V_BUILTIN && !strcmp(v.name, "complex"))
            t = ty_c128;
    }
    if (t && ty_is_elem(t))
        return t;
    ty_error(fn, e->loc, "expected a dtype such as np.float32 or numba.int64");
    return NULL;
}

/* The extents of a shape argument (an integer or a tuple of integers) as int64 values; returns
 * the number of dimensions, or -1 after an error. */
static int shape_of(Fn *fn, const char *fname, Node *e, IrInst **dims) {
    Val s = ty_value(fn, e);
    if (s.k != V_VAL)
        return -1;
    if (ty_is_int(s.t)) {
        dims[0] = ty_cast(fn, s.v, s.t, ty_i64, e->loc);
        return 1;
    }
    bool ints = s.t->kind == TY_TUPLE;
    for (int i = 0; ints && i < s.t->nelems; i++)
        ints = ty_is_int(s.t->elems[i]);
    if (!ints) {
        ty_error(fn, e->loc, "the shape of np.%s() must be an integer or a tuple of integers, "
                             "not %s", fname, s.t->name);
        return -1;
    }
    if (s.t->nelems == 0 || s.t->nelems > TY_MAX_NDIM) {
        ty_error(fn, e->loc, "np.%s() of %d dimensions: numjit has arrays of 1 to %d dimensions",
                 fname, s.t->nelems, TY_MAX_NDIM);
        return -1;
    }
    for (int i = 0; i < s.t->nelems; i++) {
        IrInst *x = ty_emit(fn, IR_EXTRACT, s.t->elems[i], e->loc, 1, &s.v);
        if (x)
            x->imm.index = i;
        dims[i] = ty_cast(fn, x, s.t->elems[i], ty_i64, e->loc);
    }
    return s.t->nelems;
}

static bool array_arg(Fn *fn, const char *fname, Node *e, Val *out) {
    *out = ty_value(fn, e);
    if (out->k != V_VAL)
        return false;
    if (out->t->kind != TY_ARRAY || out->t->addrspace != AS_GENERIC) {
        ty_error(fn, e->loc, "np.%s() needs an array here, not %s", fname, out->t->name);
        return false;
    }
    return true;
}

static bool number_arg(Fn *fn, const char *fname, const char *what, Node *e, Val *out,
                       bool allow_bool) {
    *out = ty_value(fn, e);
    if (out->k != V_VAL)
        return false;
    if (!ty_is_number(out->t) && !(allow_bool && out->t == ty_bool)) {
        ty_error(fn, e->loc, "the %s of np.%s() must be a number, not %s", what, fname,
                 out->t->name);
        return false;
    }
    return true;
}

/* ---- the constructors -------------------------------------------------------------------------- */
/* np.empty/zeros/ones(shape, dtype) and np.full(shape, fill_value, dtype) */
static Val from_shape(Fn *fn, const char *fname, Node *call) {
    bool full = !strcmp(fname, "full");
    static const char *const p_empty[] = {"shape", "dtype", NULL};
    static const char *const p_full[] = {"shape", "fill_value", "dtype", NULL};
    Node *a[3];
    if (!bind(fn, call, fname, full ? p_full : p_empty, full ? 2 : 1, true, a))
        return verr();
    Node *dt = a[full ? 2 : 1];
    const Type *dtype = ty_f64;
    Val value = {.k = V_ERR};
    if (full) {
        if (!number_arg(fn, fname, "fill value", a[1], &value, true))
            return verr();
        dtype = value.t;
    }
    const Type *rec = dt ? ty_record_dtype(fn, dt) : NULL; /* typer_record.c */
    if (rec && strcmp(fname, "empty")) {
        ty_error(fn, dt->loc, "np.%s() of a record dtype is not supported by numjit yet "
                 "(np.empty is)", fname);
        return verr();
    }
    if (rec)
        dtype = rec;
    else if (dt && !(dtype = dtype_of(fn, dt, false)))
        return verr();
    IrInst *dims[TY_MAX_NDIM];
    int nd = shape_of(fn, fname, a[0], dims);
    if (nd < 0)
        return verr();
    Val arr = alloc(fn, ty_array(dtype, nd, LAYOUT_C), dims, true, call->loc);
    if (full)
        fill(fn, arr, ty_cast(fn, value.v, value.t, dtype, call->loc), NULL, call->loc);
    else if (strcmp(fname, "empty"))
        fill(fn, arr, ty_cast(fn, ty_const_int(fn, ty_i64, fname[0] == 'o', call->loc), ty_i64,
                              dtype, call->loc), NULL, call->loc);
    return arr;
}

/* np.empty_like/zeros_like/ones_like(a, dtype), np.full_like(a, fill_value, dtype) */
static Val like(Fn *fn, const char *fname, Node *call) {
    bool full = !strcmp(fname, "full_like");
    static const char *const p_like[] = {"a", "dtype", NULL};
    static const char *const p_full[] = {"a", "fill_value", "dtype", NULL};
    Node *a[3];
    if (!bind(fn, call, fname, full ? p_full : p_like, full ? 2 : 1, true, a))
        return verr();
    Val src, value = {.k = V_ERR};
    if (!array_arg(fn, fname, a[0], &src))
        return verr();
    if (full && !number_arg(fn, fname, "fill value", a[1], &value, true))
        return verr();
    Node *dt = a[full ? 2 : 1];
    const Type *dtype = src.t->dtype;
    if (dt && !(dtype = dtype_of(fn, dt, false)))
        return verr();
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < src.t->ndim; d++)
        dims[d] = extent(fn, src.v, d, call->loc);
    ArrayLayout layout = src.t->layout == LAYOUT_F ? LAYOUT_F : LAYOUT_C;
    Val arr = alloc(fn, ty_array(dtype, src.t->ndim, layout), dims, false, call->loc);
    if (full)
        fill(fn, arr, ty_cast(fn, value.v, value.t, dtype, call->loc), NULL, call->loc);
    else if (fname[0] != 'e')
        fill(fn, arr, ty_cast(fn, ty_const_int(fn, ty_i64, fname[0] == 'o', call->loc), ty_i64,
                              dtype, call->loc), NULL, call->loc);
    return arr;
}

/* a.copy() (C layout) and np.copy(a) (F for an F array, else C), as Numba types them */
static Val copy(Fn *fn, Val src, bool keep_f, Loc loc) {
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < src.t->ndim; d++)
        dims[d] = extent(fn, src.v, d, loc);
    ArrayLayout layout = keep_f && src.t->layout == LAYOUT_F ? LAYOUT_F : LAYOUT_C;
    Val arr = alloc(fn, ty_array(src.t->dtype, src.t->ndim, layout), dims, false, loc);
    fill(fn, arr, NULL, &src, loc);
    return arr;
}

/* np.arange(start, stop=None, step=None, dtype=None), Numba's implementation. */
static Val arange(Fn *fn, Node *call) {
    static const char *const params[] = {"start", "stop", "step", "dtype", NULL};
    Node *a[4];
    if (!bind(fn, call, "arange", params, 1, true, a))
        return verr();
    Val b[3];
    int nb = 0;
    bool any_float = false;
    for (int k = 0; k < 3; k++) {
        if (!a[k])
            continue;
        if (!number_arg(fn, "arange", k == 0 ? "start" : k == 1 ? "stop" : "step", a[k], &b[k],
                        false))
            return verr();
        any_float |= ty_is_float(b[k].t);
        nb++;
    }
    const Type *dtype = any_float ? ty_f64 : ty_i64;
    if (a[3]) {
        if (!(dtype = dtype_of(fn, a[3], false)))
            return verr();
    } else if (!any_float) {
        for (int k = 0; k < 3; k++)
            if (a[k] && !ty_is_signed(b[k].t)) {
                ty_error(fn, a[k]->loc, "np.arange() of %s is not supported (Numba refuses "
                                        "unsigned bounds without a dtype)", b[k].t->name);
                return verr();
            }
    }
    (void)nb;
    Loc loc = call->loc;
    Val zero = vval(ty_i64, ty_const_int(fn, ty_i64, 0, loc));
    Val one = vval(ty_i64, ty_const_int(fn, ty_i64, 1, loc));
    Val step = a[2] ? b[2] : one;
    Val start = a[1] ? b[0] : zero, stop = a[1] ? b[1] : b[0];
    /* if _step == 0: raise ValueError */
    {
        IrInst *z = ty_is_float(step.t) ? ty_const_float(fn, step.t, 0, loc)
                                        : ty_const_int(fn, step.t, 0, loc);
        if (!(step.v && step.v->op == IR_CONST &&
              (ty_is_float(step.t) ? step.v->imm.f != 0 : step.v->imm.i != 0)))
            ty_raise_if(fn, icmp(fn, CMP_EQ, step.v, z, loc), RAISE_VALUE,
                     "Maximum allowed size exceeded", loc);
    }
    /* nitems = max(int(math.ceil((_stop - _start) / _step)), 0) */
    Val nc = ty_binop(fn, OP_DIV, ty_binop(fn, OP_SUB, stop, start, loc), step, loc);
    if (nc.k != V_VAL)
        return verr();
    IrInst *ce = ty_emit(fn, IR_MATH, nc.t, loc, 1, &nc.v);
    if (ce)
        ce->imm.index = MATH_CEIL;
    /* a count that is no int64 (nan, 2**63 and above) is 0, as the x86 conversion in Numba
     * gives INT64_MIN there; the conversion itself would be undefined */
    IrInst *nr = ty_cast(fn, ce, nc.t, ty_i64, loc);
    IrInst *fits = bin(fn, IR_BITAND, ty_bool,
                       icmp(fn, CMP_GT, ce, ty_const_float(fn, nc.t, 0.0, loc), loc),
                       icmp(fn, CMP_LT, ce, ty_const_float(fn, nc.t, 0x1p63, loc), loc), loc);
    IrInst *ops[3] = {fits, nr, zero.v};
    IrInst *n = ty_emit(fn, IR_SELECT, ty_i64, loc, 3, ops);
    Val arr = alloc(fn, ty_array(dtype, 1, LAYOUT_C), &n, true, loc); /* too big: ValueError */
    /* for i in range(nitems): arr[i] = _start + (i * _step) */
    if (!fn->emit)
        return arr;
    TyLoop L;
    Val i = vval(ty_i64, ty_loop_open(fn, &L, n, loc));
    Val x = ty_binop(fn, OP_ADD, start, ty_binop(fn, OP_MUL, i, step, loc), loc);
    if (x.k == V_VAL && arr.v) {
        IrInst *st[3] = {arr.v, i.v, ty_cast(fn, x.v, x.t, dtype, loc)};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, st);
    }
    ty_loop_close(fn, &L, loc);
    return arr;
}

/* np.linspace(start, stop, num=50), Numba's implementation (positional arguments only). */
static Val linspace(Fn *fn, Node *call) {
    static const char *const params[] = {"start", "stop", "num", NULL};
    Node *a[3];
    if (!bind(fn, call, "linspace", params, 2, false, a))
        return verr();
    Val start, stop, num;
    if (!number_arg(fn, "linspace", "start", a[0], &start, false) ||
        !number_arg(fn, "linspace", "stop", a[1], &stop, false))
        return verr();
    Loc loc = call->loc;
    if (a[2]) {
        num = ty_value(fn, a[2]);
        if (num.k != V_VAL)
            return verr();
        if (!ty_is_int(num.t)) {
            ty_error(fn, a[2]->loc, "the number of samples of np.linspace() must be an integer, "
                                    "not %s", num.t->name);
            return verr();
        }
    } else {
        num = vval(ty_i64, ty_const_int(fn, ty_i64, 50, loc));
    }
    IrInst *n = ty_cast(fn, num.v, num.t, ty_i64, loc);
    Val arr = alloc(fn, ty_array(ty_f64, 1, LAYOUT_C), &n, true, loc);
    Val fone = vval(ty_f64, ty_const_float(fn, ty_f64, 1.0, loc));
    start = ty_binop(fn, OP_MUL, start, fone, loc); /* start * 1.0: float64 from here on */
    stop = ty_binop(fn, OP_MUL, stop, fone, loc);
    if (!fn->emit || start.k != V_VAL || stop.k != V_VAL || !arr.v)
        return arr;
    IrInst *zero = ty_const_int(fn, ty_i64, 0, loc), *one = ty_const_int(fn, ty_i64, 1, loc);
    IrBlock *fill_b = ty_block(fn), *single = ty_block(fn), *last = ty_block(fn),
            *put_last = ty_block(fn), *done = ty_block(fn);
    /* num == 0: nothing to write; num - 1 > 0: the loop; else arr[0] = start */
    IrInst *ops[2] = {n, one};
    IrInst *div = ty_emit(fn, IR_SUB, ty_i64, loc, 2, ops);
    IrBlock *nonempty = ty_block(fn);
    ty_condbr(fn, icmp(fn, CMP_EQ, n, zero, loc), done, nonempty, loc);
    ty_set_block(fn, nonempty);
    ty_condbr(fn, icmp(fn, CMP_GT, div, zero, loc), fill_b, single, loc);
    ty_set_block(fn, fill_b);
    {
        Val delta = ty_binop(fn, OP_SUB, stop, start, loc);
        IrInst *fd = ty_cast(fn, div, ty_i64, ty_f64, loc);
        IrInst *dops[2] = {delta.v, fd};
        Val step = vval(ty_f64, ty_emit(fn, IR_DIV, ty_f64, loc, 2, dops)); /* np.divide */
        TyLoop L;
        Val i = vval(ty_i64, ty_loop_open(fn, &L, n, loc));
        Val x = ty_binop(fn, OP_ADD, start, ty_binop(fn, OP_MUL, i, step, loc), loc);
        IrInst *st[3] = {arr.v, i.v, x.v};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, st);
        ty_loop_close(fn, &L, loc);
        ty_br(fn, last, loc);
    }
    ty_set_block(fn, single);
    {
        IrInst *st[3] = {arr.v, zero, start.v};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, st);
        ty_br(fn, last, loc);
    }
    ty_set_block(fn, last); /* if num > 1: arr[-1] = stop */
    ty_condbr(fn, icmp(fn, CMP_GT, n, one, loc), put_last, done, loc);
    ty_set_block(fn, put_last);
    {
        IrInst *st[3] = {arr.v, div, stop.v};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, st);
        ty_br(fn, done, loc);
    }
    ty_set_block(fn, done);
    return arr;
}

Val ty_np_call(Fn *fn, const char *name, Node *call, Val self) {
    const char *fname = !strncmp(name, "np.", 3) ? name + 3 : "copy";
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, call->loc, "np.%s() allocates an array, which CUDA code cannot do: use "
                                "cuda.local.array(shape, dtype) or pass the array in", fname);
        return verr();
    }
    if (!strcmp(name, "array.copy")) {
        if (call->list.n || call->list2.n) {
            ty_error(fn, call->loc, "copy() of an array takes no arguments");
            return verr();
        }
        if (self.t->addrspace != AS_GENERIC) {
            ty_error(fn, call->loc, "copy() of %s is not supported", self.t->name);
            return verr();
        }
        return copy(fn, vval(self.t, self.v), false, call->loc);
    }
    if (!strcmp(fname, "copy")) {
        static const char *const params[] = {"a", NULL};
        Node *a[1];
        Val src;
        if (!bind(fn, call, fname, params, 1, true, a) || !array_arg(fn, fname, a[0], &src))
            return verr();
        return copy(fn, src, true, call->loc);
    }
    if (!strcmp(fname, "arange"))
        return arange(fn, call);
    if (!strcmp(fname, "linspace"))
        return linspace(fn, call);
    if (strstr(fname, "_like"))
        return like(fn, fname, call);
    if (ty_np_construct_has(fname)) /* np.array, np.eye, ...: typer_construct.c */
        return ty_np_construct(fn, fname, call);
    if (ty_np_constructor(fname))
        return from_shape(fn, fname, call);
    ty_error(fn, call->loc, "np.%s() is not supported by numjit", fname);
    return verr();
}

/* ---- for other constructors (typer_random.c) ------------------------------------------------ */
int ty_alloc_shape(Fn *fn, const char *fname, Node *e, IrInst **dims) {
    return shape_of(fn, fname, e, dims);
}

bool ty_np_bind(Fn *fn, Node *call, const char *fname, const char *const *params, int nreq,
                Node **out) {
    return bind(fn, call, fname, params, nreq, true, out);
}

const Type *ty_np_dtype(Fn *fn, Node *e, bool int_bool) { return dtype_of(fn, e, int_bool); }

Val ty_alloc_array(Fn *fn, const Type *t, IrInst **dims, Loc loc) {
    return alloc(fn, t, dims, true, loc);
}

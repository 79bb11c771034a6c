/* typer_sort.c — sorting, searching and order statistics of arrays in @njit functions (CPU):
 * a.sort(), np.sort, np.argsort / a.argsort (kind='quicksort' | 'mergesort'), np.searchsorted,
 * np.unique, np.median, np.nanmedian, np.percentile, np.nanpercentile, np.quantile,
 * np.nanquantile, each as Numba 0.56 implements it (numba/np/arrayobj.py, arraymath.py).
 *
 * The split: what reorders elements is C (runtime/sort.c, through the IR op `rtcall` and
 * ir/rtcall.def): Numba's quicksort, mergesort and selection, reimplemented statement for
 * statement, so that ties, zeros of either sign and NaNs end up where Numba puts them.  Arrays
 * reach it as (address, count, byte stride, TypeKind).  Everything else is typed IR built
 * here: copies into new arrays (which own their memory as any np.empty does), loops over rows,
 * binary searches, and the arithmetic of a median, typed by the typer's own rules (ty_binop),
 * which are Numba's: the median of an int32 array adds in int64 and divides to float64.
 *
 * Errors are located diagnostics: a kind or side that is not a string literal Numba accepts,
 * a dimension count Numba 0.56 rejects (argsort and searchsorted of n-d arrays), read-only
 * arrays sorted in place.
 */
#include "typer_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const method_names[] = {"sort", "argsort", NULL};

static const char *lookup(const char *const *t, const char *name) {
    for (int i = 0; t[i]; i++)
        if (!strcmp(t[i], name))
            return t[i];
    return NULL;
}

const char *ty_sort_method(const char *name) { return lookup(method_names, name); }

/* ---- small builders ------------------------------------------------------------------------- */
static IrInst *rtcall(Fn *fn, RtFn f, const Type *t, IrInst **args, Loc loc) {
    IrInst *c = ty_emit(fn, IR_RTCALL, t, loc, (int)strlen(ir_rtcall[f].args), args);
    if (c)
        c->imm.index = f;
    return c;
}

static IrInst *addr(Fn *fn, IrInst *arr, Loc loc) {
    return ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &arr);
}

static IrInst *stride(Fn *fn, IrInst *arr, int d, Loc loc) {
    IrInst *s = ty_emit(fn, IR_STRIDE, ty_i64, loc, 1, &arr);
    if (s)
        s->imm.index = d;
    return s;
}

static IrInst *kind_of(Fn *fn, const Type *dt, Loc loc) { return i64c(fn, dt->kind, loc); }

static IrInst *load1(Fn *fn, Val a, IrInst *i, Loc loc) {
    IrInst *ops[2] = {a.v, i};
    return ty_emit(fn, IR_ALOAD, a.t->dtype, loc, 2, ops);
}

static void store1(Fn *fn, Val a, IrInst *i, IrInst *x, Loc loc) {
    IrInst *ops[3] = {a.v, i, x};
    ty_emit(fn, IR_ASTORE, ty_void, loc, 3, ops);
}

static IrInst *isnan_of(Fn *fn, const Type *t, IrInst *x, Loc loc) {
    if (!ty_is_float(t))
        return ty_const_int(fn, ty_bool, 0, loc);
    IrInst *c = ty_emit(fn, IR_MATH, ty_bool, loc, 1, &x);
    if (c)
        c->imm.index = MATH_ISNAN;
    return c;
}

static IrInst *size_of(Fn *fn, Val a, Loc loc) {
    IrInst *n = i64c(fn, 1, loc);
    for (int d = 0; d < a.t->ndim; d++)
        n = bin(fn, IR_MUL, ty_i64, n, extent(fn, a.v, d, loc), loc);
    return n;
}

/* A new 1-d C array of dtype dt holding a's elements in C order (a.flatten(), converted). */
static Val flat_copy(Fn *fn, Val a, const Type *dt, Loc loc) {
    IrInst *n = size_of(fn, a, loc);
    Val r = ty_alloc(fn, ty_array(dt, 1, LAYOUT_C), &n, false, loc);
    int at = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, at, i64c(fn, 0, loc), loc);
    int nd = a.t->ndim;
    TyLoop L[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM + 1] = {a.v};
    for (int d = 0; d < nd; d++)
        idx[d + 1] = ty_loop_open(fn, &L[d], extent(fn, a.v, d, loc), loc);
    IrInst *x = ty_emit(fn, IR_ALOAD, a.t->dtype, loc, nd + 1, idx);
    IrInst *i = ty_load_var(fn, at, ty_i64, loc);
    store1(fn, r, i, ty_cast(fn, x, a.t->dtype, dt, loc), loc);
    ty_store_var(fn, at, bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc), loc);
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
    return r;
}

/* Numba's quicksort on every row of arr along its last axis, in place. */
static void sort_rows(Fn *fn, Val a, Loc loc) {
    int nd = a.t->ndim;
    TyLoop L[TY_MAX_NDIM];
    IrInst *base = addr(fn, a.v, loc);
    for (int d = 0; d < nd - 1; d++) {
        IrInst *i = ty_loop_open(fn, &L[d], extent(fn, a.v, d, loc), loc);
        base = bin(fn, IR_ADD, ty_i64, base, bin(fn, IR_MUL, ty_i64, i, stride(fn, a.v, d, loc), loc), loc);
    }
    IrInst *args[4] = {base, extent(fn, a.v, nd - 1, loc), stride(fn, a.v, nd - 1, loc),
                       kind_of(fn, a.t->dtype, loc)};
    rtcall(fn, RT_SORT, ty_void, args, loc);
    for (int d = nd - 2; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
}

/* ---- arguments ------------------------------------------------------------------------------ */
/* The value of node e, an array (shown: how the function is written, for the message). */
static Val array_arg(Fn *fn, Node *e, const char *shown) {
    Val a = ty_value(fn, e);
    if (a.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY) {
        ty_error(fn, e->loc, "%s() needs an array, not %s", shown, a.t->name);
        return verr();
    }
    if (!ty_is_scalar(a.t->dtype)) {
        ty_error(fn, e->loc, "%s() of %s is not supported", shown, a.t->name);
        return verr();
    }
    return a;
}

/* A string-literal argument e (NULL: dflt) that must be one of choices; NULL after an error. */
static const char *str_arg(Fn *fn, Node *e, const char *what, const char *dflt,
                           const char *const *choices, const char *shown) {
    if (!e)
        return dflt;
    if (e->kind != ND_STR) {
        ty_error(fn, e->loc, "%s= of %s() must be a string literal, as Numba 0.56 requires", what,
                 shown);
        return NULL;
    }
    for (int i = 0; choices[i]; i++)
        if (!strcmp(e->str, choices[i]))
            return choices[i];
    ty_error(fn, e->loc, "%s='%s' of %s() is not supported by Numba 0.56 (%s='%s' or '%s')", what,
             e->str, shown, what, choices[0], choices[1]);
    return NULL;
}

/* ---- the sorts ------------------------------------------------------------------------------ */
static Val sort_call(Fn *fn, Val self, Node *call, bool method) {
    Loc loc = call->loc;
    Val a;
    if (method) {
        if (!ty_bind_args(fn, call, "a.sort", (const char *const[]){NULL}, 1, 0, 0,
                          (Node *[1]){NULL}))
            return verr();
        a = vval(self.t, self.v);
        if (a.t->readonly) {
            ty_error(fn, loc, "a.sort() of a read-only array");
            return verr();
        }
        if (fn->emit)
            sort_rows(fn, a, loc);
        return vval(ty_void, NULL);
    }
    Node *arg[1];
    if (!ty_bind_args(fn, call, "np.sort", (const char *const[]){"a", NULL}, 1, 1, 0, arg) ||
        (a = array_arg(fn, arg[0], "np.sort")).k != V_VAL)
        return verr();
    const Type *rt = ty_array(a.t->dtype, a.t->ndim, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < a.t->ndim; d++)
        dims[d] = extent(fn, a.v, d, loc);
    Val r = ty_alloc(fn, rt, dims, false, loc);
    ty_array_copy(fn, r, a, loc);
    sort_rows(fn, r, loc);
    return r;
}

static const char *const sort_kinds[] = {"quicksort", "mergesort", NULL};

static Val argsort_call(Fn *fn, Val self, Node *call, bool method) {
    Loc loc = call->loc;
    const char *shown = method ? "a.argsort" : "np.argsort";
    Node *arg[2] = {NULL, NULL};
    Val a;
    if (method) {
        if (!ty_bind_args(fn, call, shown, (const char *const[]){"kind", NULL}, 1, 0, 0, arg + 1))
            return verr();
        a = vval(self.t, self.v);
    } else if (!ty_bind_args(fn, call, shown, (const char *const[]){"a", "kind", NULL}, 2, 1, 0,
                             arg) ||
               (a = array_arg(fn, arg[0], shown)).k != V_VAL)
        return verr();
    const char *kind = str_arg(fn, arg[1], "kind", "quicksort", sort_kinds, shown);
    if (!kind)
        return verr();
    if (a.t->ndim != 1) {
        ty_error(fn, loc, "%s() of a %d-d array is not supported by Numba 0.56 (1-d only)", shown,
                 a.t->ndim);
        return verr();
    }
    const Type *rt = ty_array(ty_i64, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *n = extent(fn, a.v, 0, loc);
    Val r = ty_alloc(fn, rt, &n, false, loc);
    IrInst *ws = i64c(fn, 0, loc);
    if (kind[0] == 'm') { /* mergesort: an int64 workspace of n / 2 (never address 0) */
        IrInst *half = bin(fn, IR_FLOORDIV, ty_i64, n, i64c(fn, 2, loc), loc);
        ws = addr(fn, ty_alloc(fn, rt, &half, false, loc).v, loc);
    }
    IrInst *args[6] = {addr(fn, a.v, loc), n, stride(fn, a.v, 0, loc),
                       kind_of(fn, a.t->dtype, loc), addr(fn, r.v, loc), ws};
    rtcall(fn, RT_ARGSORT, ty_void, args, loc);
    return r;
}

/* ---- np.searchsorted ------------------------------------------------------------------------ */
/* Numba's searchsorted_inner: the place of v (type vt) in the 1-d a (n elements), searching
 * [lo, n) by a[mid] < v (left) or <= v (right); a NaN v goes after the last non-NaN of a. */
static IrInst *search_one(Fn *fn, Val a, IrInst *n, IrInst *v, const Type *vt, IrInst *lo0,
                          bool right, Loc loc) {
    const Type *dt = a.t->dtype;
    const Type *ct = (dt == ty_bool && vt == ty_bool) ? ty_bool : ty_arith(dt, vt);
    int lo = ty_temp_var(fn, ty_i64), hi = ty_temp_var(fn, ty_i64);
    IrBlock *nan_b = ty_block(fn), *bs = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, isnan_of(fn, vt, v, loc), nan_b, bs, loc);
    /* NaN: scan from the end for the first non-NaN */
    ty_set_block(fn, nan_b);
    ty_store_var(fn, lo, n, loc);
    IrBlock *scan = ty_block(fn), *step = ty_block(fn), *zero = ty_block(fn);
    ty_br(fn, scan, loc);
    ty_set_block(fn, scan);
    IrInst *i = ty_load_var(fn, lo, ty_i64, loc);
    IrBlock *test = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_GT, i, i64c(fn, 0, loc), loc), test, zero, loc);
    ty_set_block(fn, test);
    IrInst *im1 = bin(fn, IR_SUB, ty_i64, i, i64c(fn, 1, loc), loc);
    ty_condbr(fn, isnan_of(fn, dt, load1(fn, a, im1, loc), loc), step, done, loc);
    ty_set_block(fn, step);
    ty_store_var(fn, lo, im1, loc);
    ty_br(fn, scan, loc);
    ty_set_block(fn, zero);
    ty_store_var(fn, lo, i64c(fn, 0, loc), loc);
    ty_br(fn, done, loc);
    /* binary search */
    ty_set_block(fn, bs);
    ty_store_var(fn, lo, lo0, loc);
    ty_store_var(fn, hi, n, loc);
    IrBlock *head = ty_block(fn), *body = ty_block(fn), *up = ty_block(fn), *down = ty_block(fn);
    ty_br(fn, head, loc);
    ty_set_block(fn, head);
    IrInst *l = ty_load_var(fn, lo, ty_i64, loc), *h = ty_load_var(fn, hi, ty_i64, loc);
    ty_condbr(fn, cmp(fn, CMP_GT, h, l, loc), body, done, loc);
    ty_set_block(fn, body);
    IrInst *mid = bin(fn, IR_SHR, ty_i64, bin(fn, IR_ADD, ty_i64, l, h, loc), i64c(fn, 1, loc), loc);
    IrInst *x = ty_cast(fn, load1(fn, a, mid, loc), dt, ct, loc);
    IrInst *c = cmp(fn, right ? CMP_LE : CMP_LT, x, ty_cast(fn, v, vt, ct, loc), loc);
    ty_condbr(fn, c, up, down, loc);
    ty_set_block(fn, up);
    ty_store_var(fn, lo, bin(fn, IR_ADD, ty_i64, mid, i64c(fn, 1, loc), loc), loc);
    ty_br(fn, head, loc);
    ty_set_block(fn, down);
    ty_store_var(fn, hi, mid, loc);
    ty_br(fn, head, loc);
    ty_set_block(fn, done);
    return ty_load_var(fn, lo, ty_i64, loc);
}

static const char *const sides[] = {"left", "right", NULL};

static Val searchsorted_call(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    Val a, v;
    if (!ty_bind_args(fn, call, "np.searchsorted", (const char *const[]){"a", "v", "side", NULL},
                      3, 2, 0, arg) ||
        (a = array_arg(fn, arg[0], "np.searchsorted")).k != V_VAL ||
        (v = ty_value(fn, arg[1])).k != V_VAL)
        return verr();
    const char *side = str_arg(fn, arg[2], "side", "left", sides, "np.searchsorted");
    if (!side)
        return verr();
    if (a.t->ndim != 1) {
        ty_error(fn, arg[0]->loc, "np.searchsorted() of a %d-d array is not supported (a must "
                 "be 1-d)", a.t->ndim);
        return verr();
    }
    bool right = side[0] == 'r';
    const Type *vt = v.t->kind == TY_ARRAY ? v.t->dtype : v.t;
    if (!ty_is_scalar(vt)) {
        ty_error(fn, arg[1]->loc, "np.searchsorted() of %s is not supported (a number or an "
                 "array of numbers)", v.t->name);
        return verr();
    }
    if (v.t->kind != TY_ARRAY) {
        if (!fn->emit)
            return vval(ty_i64, NULL);
        return vval(ty_i64, search_one(fn, a, extent(fn, a.v, 0, loc), v.v, vt,
                                       i64c(fn, 0, loc), right, loc));
    }
    /* an array of values, in C order: each search starts at the last result when the value
     * is larger than the last one (Numba's v_last), else at 0 */
    int nd = v.t->ndim;
    const Type *rt = ty_array(ty_i64, nd, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        dims[d] = extent(fn, v.v, d, loc);
    Val r = ty_alloc(fn, rt, dims, false, loc);
    IrInst *n = extent(fn, a.v, 0, loc);
    int last = ty_temp_var(fn, vt), lo = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, lo, i64c(fn, 0, loc), loc);
    IrInst *total = size_of(fn, v, loc);
    IrBlock *first = ty_block(fn), *go = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_GT, total, i64c(fn, 0, loc), loc), first, go, loc);
    ty_set_block(fn, first); /* v.flat[0] */
    IrInst *zidx[TY_MAX_NDIM + 1] = {v.v};
    for (int d = 0; d < nd; d++)
        zidx[d + 1] = i64c(fn, 0, loc);
    ty_store_var(fn, last, ty_emit(fn, IR_ALOAD, vt, loc, nd + 1, zidx), loc);
    ty_br(fn, go, loc);
    ty_set_block(fn, go);
    TyLoop L[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM + 2] = {v.v};
    for (int d = 0; d < nd; d++)
        idx[d + 1] = ty_loop_open(fn, &L[d], dims[d], loc);
    IrInst *x = ty_emit(fn, IR_ALOAD, vt, loc, nd + 1, idx);
    const Type *ct = vt == ty_bool ? ty_bool : ty_arith(vt, vt);
    IrInst *grew = cmp(fn, CMP_LT, ty_cast(fn, ty_load_var(fn, last, vt, loc), vt, ct, loc),
                       ty_cast(fn, x, vt, ct, loc), loc);
    IrInst *lo0 = sel(fn, ty_i64, grew, ty_load_var(fn, lo, ty_i64, loc), i64c(fn, 0, loc), loc);
    IrInst *p = search_one(fn, a, n, x, vt, lo0, right, loc);
    ty_store_var(fn, lo, p, loc);
    ty_store_var(fn, last, x, loc);
    idx[0] = r.v;
    idx[nd + 1] = p;
    ty_emit(fn, IR_ASTORE, ty_void, loc, nd + 2, idx);
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
    return r;
}

/* ---- np.unique ------------------------------------------------------------------------------ */
/* Numba's np_unique_impl: np.sort(a.ravel()), then every element that != the one before it. */
static Val unique_call(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[1];
    Val a;
    if (!ty_bind_args(fn, call, "np.unique", (const char *const[]){"ar", NULL}, 1, 1, 0, arg) ||
        (a = array_arg(fn, arg[0], "np.unique")).k != V_VAL)
        return verr();
    const Type *dt = a.t->dtype, *rt = ty_array(dt, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    Val b = flat_copy(fn, a, dt, loc);
    sort_rows(fn, b, loc);
    IrInst *n = extent(fn, b.v, 0, loc);
    /* count, then fill */
    int cnt = ty_temp_var(fn, ty_i64);
    IrInst *has = cmp(fn, CMP_GT, n, i64c(fn, 0, loc), loc);
    ty_store_var(fn, cnt, sel(fn, ty_i64, has, i64c(fn, 1, loc), i64c(fn, 0, loc), loc), loc);
    IrInst *nm1 = bin(fn, IR_SUB, ty_i64, n, i64c(fn, 1, loc), loc);
    IrInst *tail = sel(fn, ty_i64, has, nm1, i64c(fn, 0, loc), loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, tail, loc);
    IrInst *ne = cmp(fn, CMP_NE, load1(fn, b, i, loc),
                     load1(fn, b, bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc), loc), loc);
    IrInst *c = ty_load_var(fn, cnt, ty_i64, loc);
    ty_store_var(fn, cnt, bin(fn, IR_ADD, ty_i64, c, ty_cast(fn, ne, ty_bool, ty_i64, loc), loc),
                 loc);
    ty_loop_close(fn, &L, loc);
    IrInst *m = ty_load_var(fn, cnt, ty_i64, loc);
    Val r = ty_alloc(fn, rt, &m, false, loc);
    IrBlock *first = ty_block(fn), *rest = ty_block(fn);
    ty_condbr(fn, has, first, rest, loc);
    ty_set_block(fn, first);
    store1(fn, r, i64c(fn, 0, loc), load1(fn, b, i64c(fn, 0, loc), loc), loc);
    ty_br(fn, rest, loc);
    ty_set_block(fn, rest);
    ty_store_var(fn, cnt, i64c(fn, 1, loc), loc);
    i = ty_loop_open(fn, &L, tail, loc);
    IrInst *x = load1(fn, b, bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc), loc);
    IrBlock *put = ty_block(fn), *skip = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_NE, load1(fn, b, i, loc), x, loc), put, skip, loc);
    ty_set_block(fn, put);
    c = ty_load_var(fn, cnt, ty_i64, loc);
    store1(fn, r, c, x, loc);
    ty_store_var(fn, cnt, bin(fn, IR_ADD, ty_i64, c, i64c(fn, 1, loc), loc), loc);
    ty_br(fn, skip, loc);
    ty_set_block(fn, skip);
    ty_loop_close(fn, &L, loc);
    return r;
}

/* ---- medians and percentiles ---------------------------------------------------------------- */
/* Numba's _median_inner on the n first elements of the disposable 1-d t, into variable res. */
static void median_inner(Fn *fn, Val t, IrInst *n, int res, Loc loc) {
    const Type *dt = t.t->dtype;
    IrInst *half = bin(fn, IR_SHR, ty_i64, n, i64c(fn, 1, loc), loc);
    IrInst *odd = bin(fn, IR_BITAND, ty_i64, n, i64c(fn, 1, loc), loc);
    IrInst *args[4] = {addr(fn, t.v, loc), n, NULL, kind_of(fn, dt, loc)};
    IrBlock *even_b = ty_block(fn), *odd_b = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_EQ, odd, i64c(fn, 0, loc), loc), even_b, odd_b, loc);
    ty_set_block(fn, even_b);
    IrInst *k = args[2] = bin(fn, IR_SUB, ty_i64, half, i64c(fn, 1, loc), loc);
    rtcall(fn, RT_SELECT_TWO, ty_void, args, loc);
    Val lo = vval(dt, load1(fn, t, k, loc)), hi = vval(dt, load1(fn, t, half, loc));
    Val two = vval(ty_i64, i64c(fn, 2, loc));
    two.lit = true;
    Val m = ty_binop(fn, OP_DIV, ty_binop(fn, OP_ADD, lo, hi, loc), two, loc);
    if (m.k == V_VAL)
        ty_store_var(fn, res, ty_cast(fn, m.v, m.t, ty_f64, loc), loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, odd_b);
    args[2] = half;
    rtcall(fn, RT_SELECT, ty_void, args, loc);
    ty_store_var(fn, res, ty_cast(fn, load1(fn, t, half, loc), dt, ty_f64, loc), loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
}

static Val median_call(Fn *fn, Node *call, bool nan) {
    Loc loc = call->loc;
    const char *shown = nan ? "np.nanmedian" : "np.median";
    Node *arg[1];
    Val a;
    if (!ty_bind_args(fn, call, shown, (const char *const[]){"a", NULL}, 1, 1, 0, arg) ||
        (a = array_arg(fn, arg[0], shown)).k != V_VAL)
        return verr();
    if (!fn->emit)
        return vval(ty_f64, NULL);
    Val t = flat_copy(fn, a, a.t->dtype, loc);
    IrInst *n = extent(fn, t.v, 0, loc);
    int res = ty_temp_var(fn, ty_f64);
    if (nan) {
        IrInst *args[3] = {addr(fn, t.v, loc), n, kind_of(fn, a.t->dtype, loc)};
        n = rtcall(fn, RT_NAN_COMPACT, ty_i64, args, loc);
        ty_store_var(fn, res, ty_const_float(fn, ty_f64, NAN, loc), loc);
        IrBlock *some = ty_block(fn), *done = ty_block(fn);
        ty_condbr(fn, cmp(fn, CMP_GT, n, i64c(fn, 0, loc), loc), some, done, loc);
        ty_set_block(fn, some);
        median_inner(fn, t, n, res, loc);
        ty_br(fn, done, loc);
        ty_set_block(fn, done);
    } else {
        /* Numba fails an assertion in _select_two here */
        ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_VALUE,
                 "np.median() of an empty array", loc);
        median_inner(fn, t, n, res, loc);
    }
    return vval(ty_f64, ty_load_var(fn, res, ty_f64, loc));
}

/* np.percentile and friends with a scalar q (Numba's _collect_percentiles(...)[0]) or a 1-d
 * array of them. */
static Val percentile_call(Fn *fn, const char *name, Node *call) {
    Loc loc = call->loc;
    bool skip = name[0] == 'n', quant = strstr(name, "quantile") != NULL;
    char shown[32];
    snprintf(shown, sizeof shown, "np.%s", name);
    Node *arg[2];
    Val a, q;
    if (!ty_bind_args(fn, call, shown, (const char *const[]){"a", "q", NULL}, 2, 2, 0, arg) ||
        (a = array_arg(fn, arg[0], shown)).k != V_VAL || (q = ty_value(fn, arg[1])).k != V_VAL)
        return verr();
    bool qarr = q.t->kind == TY_ARRAY;
    const Type *qt = qarr ? q.t->dtype : q.t;
    if (!ty_is_scalar(qt) || (qarr && q.t->ndim != 1)) {
        ty_error(fn, arg[1]->loc, "q of %s() must be a number or a 1-d array of numbers, not %s",
                 shown, q.t->name);
        return verr();
    }
    const Type *rt = qarr ? ty_array(ty_f64, 1, LAYOUT_C) : ty_f64;
    if (!fn->emit)
        return vval(rt, NULL);
    double upper = quant ? 1.0 : 100.0;
    const char *msg = quant ? "Quantiles must be in the range [0, 1]"
                            : "Percentiles must be in the range [0, 100]";
    IrInst *nq = qarr ? extent(fn, q.v, 0, loc) : i64c(fn, 1, loc);
    Val qs = ty_alloc(fn, ty_array(ty_f64, 1, LAYOUT_C), &nq, false, loc);
    /* q as float64, checked, times the factor */
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, nq, loc);
    IrInst *qi = ty_cast(fn, qarr ? load1(fn, q, i, loc) : q.v, qt, ty_f64, loc);
    IrInst *bad = bin(fn, IR_BITOR, ty_bool,
                      cmp(fn, CMP_LT, qi, ty_const_float(fn, ty_f64, 0.0, loc), loc),
                      cmp(fn, CMP_GT, qi, ty_const_float(fn, ty_f64, upper, loc), loc), loc);
    bad = bin(fn, IR_BITOR, ty_bool, bad, isnan_of(fn, ty_f64, qi, loc), loc);
    ty_raise_if(fn, bad, RAISE_VALUE, msg, loc);
    store1(fn, qs, i, bin(fn, IR_MUL, ty_f64, qi, ty_const_float(fn, ty_f64, quant ? 100.0 : 1.0, loc), loc), loc);
    ty_loop_close(fn, &L, loc);
    /* the data as float64 without NaN; none left where NaNs may not be skipped */
    Val t = flat_copy(fn, a, ty_f64, loc);
    IrInst *n = extent(fn, t.v, 0, loc);
    IrInst *cargs[3] = {addr(fn, t.v, loc), n, kind_of(fn, ty_f64, loc)};
    IrInst *cnt = rtcall(fn, RT_NAN_COMPACT, ty_i64, cargs, loc);
    if (!skip)
        cnt = sel(fn, ty_i64, cmp(fn, CMP_EQ, cnt, n, loc), n, i64c(fn, 0, loc), loc);
    Val out = ty_alloc(fn, ty_array(ty_f64, 1, LAYOUT_C), &nq, false, loc);
    i = ty_loop_open(fn, &L, nq, loc);
    IrInst *pargs[3] = {addr(fn, t.v, loc), cnt, load1(fn, qs, i, loc)};
    store1(fn, out, i, rtcall(fn, RT_PERCENTILE, ty_f64, pargs, loc), loc);
    ty_loop_close(fn, &L, loc);
    if (qarr)
        return out;
    return vval(ty_f64, load1(fn, out, i64c(fn, 0, loc), loc));
}

/* ---- entry ---------------------------------------------------------------------------------- */
Val ty_sort_call(Fn *fn, const char *name, Val self, Node *call) {
    bool method = self.k == V_METHOD;
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, call->loc, "%s%s() is not supported on the GPU", method ? "a." : "np.", name);
        return verr();
    }
    if (!strcmp(name, "sort"))
        return sort_call(fn, self, call, method);
    if (!strcmp(name, "argsort"))
        return argsort_call(fn, self, call, method);
    if (!strcmp(name, "searchsorted"))
        return searchsorted_call(fn, call);
    if (!strcmp(name, "unique"))
        return unique_call(fn, call);
    if (!strcmp(name, "median") || !strcmp(name, "nanmedian"))
        return median_call(fn, call, name[0] == 'n');
    return percentile_call(fn, name, call);
}

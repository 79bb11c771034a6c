/* typer_join.c — joining arrays: np.concatenate, np.stack, np.vstack, np.hstack,
 * np.column_stack and np.dstack, as Numba 0.56 types and runs them (numba/np/arrayobj.py).
 *
 * Each takes a tuple of arrays (a tuple literal or a tuple value; Numba refuses lists), of one
 * number of dimensions (vstack, hstack and concatenate refuse a mix; column_stack takes 1-d and
 * 2-d ones together).  The result's dtype is NumPy's result_type of the inputs' dtypes
 * (int8 and uint8 give int16, uint64 and int64 float64, int32 and float32 float64), its layout
 * F when every input is F-ordered and C otherwise (Numba's _choose_concatenation_layout).
 *
 * Every function is one scheme: each input is seen with the result's number of dimensions by
 * inserting extents 1 at fixed places (stack: at the axis; vstack of 1-d: in front;
 * column_stack of 1-d: behind; dstack: (n) as (1, n, 1) and (m, n) as (m, n, 1)), then the
 * inputs are concatenated along one axis: the extents of every other dimension must agree,
 * the result's extent along the axis is their sum, and a loop nest over each input (in the
 * result's memory order) stores its elements at their place, the axis index shifted by the
 * extents of the inputs before it.  Concatenate's axis may be a run-time integer (negative
 * counts from the end; IndexError "axis out of bounds" as Numba); stack's must be a constant.
 * Errors at run time have Numba's words: ValueError "np.concatenate(): input sizes over
 * dimension N do not match", "np.stack(): all input arrays must have the same shape".
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <stdio.h>
#include <string.h>


enum { MAX_IN = 32 };

/* NumPy's result_type of two dtypes of arrays. */
static const Type *promote(const Type *a, const Type *b) {
    if (a == b || b == ty_bool)
        return a;
    if (a == ty_bool)
        return b;
    if (ty_is_float(a) || ty_is_float(b)) {
        const Type *f = ty_is_float(a) ? a : b, *o = ty_is_float(a) ? b : a;
        if (ty_is_float(o))
            return ty_size(a) >= ty_size(b) ? a : b;
        return f == ty_f32 && ty_size(o) >= 4 ? ty_f64 : f;
    }
    int sa = ty_size(a), sb = ty_size(b);
    bool ua = !ty_is_signed(a), ub = !ty_is_signed(b);
    if (ua == ub)
        return sa >= sb ? a : b;
    const Type *u = ua ? a : b, *s = ua ? b : a;
    if (ty_size(s) > ty_size(u))
        return s;
    switch (ty_size(u)) {
    case 1: return ty_i16;
    case 2: return ty_i32;
    case 4: return ty_i64;
    default: return ty_f64;
    }
}

typedef struct Join {
    int n;             /* inputs */
    Val in[MAX_IN];
    int rnd;           /* the result's dimensions */
    int map[MAX_IN][TY_MAX_NDIM]; /* result dimension d of input i: its dimension, or -1 (1) */
    const char *msg;   /* the ValueError of extents that disagree; NULL: concatenate's */
} Join;

static IrInst *ext_of(Fn *fn, Join *J, int i, int d, Loc loc) {
    int s = J->map[i][d];
    return s < 0 ? i64c(fn, 1, loc) : extent(fn, J->in[i].v, s, loc);
}

/* a (layout C, or F seen through its transpose) as a 1-d C array of its size elements. */
static IrInst *flat_view(Fn *fn, Val a, IrInst *size, Loc loc) {
    IrInst *v = a.v;
    const Type *t = a.t;
    if (t->layout == LAYOUT_F && t->ndim > 1) {
        t = ty_array_ex(t->dtype, t->ndim, LAYOUT_C, t->addrspace, t->readonly);
        v = ty_emit(fn, IR_TRANSPOSE, t, loc, 1, &v);
    }
    if (t->ndim == 1)
        return v;
    const Type *ft = ty_array_ex(t->dtype, 1, LAYOUT_C, t->addrspace, t->readonly);
    IrInst *ops[2] = {v, size};
    return ty_emit(fn, IR_RESHAPE, ft, loc, 2, ops);
}

/* Input a fills one contiguous run of the result: both C with the axis the first dimension,
 * or both F with the axis the last (a vector copy, no index arithmetic per element). */
static bool contiguous_run(const Type *rt, const Type *at, int cax) {
    if (at->layout != rt->layout && !(at->ndim == 1 && rt->ndim == 1))
        return false;
    return rt->layout == LAYOUT_C ? cax == 0 : rt->layout == LAYOUT_F && cax == rt->ndim - 1;
}

/* Copies a (size elements) into R's flat (memory-order) elements [base, base + size). */
static void copy_run(Fn *fn, Val R, IrInst *rflat, Val a, IrInst *base, IrInst *size, Loc loc) {
    IrInst *src = flat_view(fn, a, size, loc);
    const Type *vt = ty_array(R.t->dtype, 1, LAYOUT_C);
    IrInst *ops[4] = {rflat, base, size, i64c(fn, 1, loc)};
    IrInst *dst = ty_emit(fn, IR_VIEW, vt, loc, 4, ops);
    if (dst)
        dst->imm.i = 1;
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, size, loc);
    IrInst *ld[2] = {src, k};
    IrInst *x = ty_emit(fn, IR_ALOAD, a.t->dtype, loc, 2, ld);
    IrInst *st[3] = {dst, k, ty_cast(fn, x, a.t->dtype, R.t->dtype, loc)};
    ty_emit(fn, IR_ASTORE, ty_void, loc, 3, st);
    ty_loop_close(fn, &L, loc);
}

/* Concatenates J's inputs along axis (int64, in range; cax: its value when known, else -1)
 * into a new array of type rt. */
static Val concat(Fn *fn, Join *J, const Type *rt, IrInst *axis, int cax, Loc loc) {
    if (!fn->emit)
        return vval(rt, NULL);
    int nd = J->rnd;
    IrInst *dims[TY_MAX_NDIM], *on_axis[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++) {
        on_axis[d] = cmp(fn, CMP_EQ, axis, i64c(fn, d, loc), loc);
        IrInst *first = ext_of(fn, J, 0, d, loc), *sum = first;
        for (int i = 1; i < J->n; i++) {
            IrInst *e = ext_of(fn, J, i, d, loc);
            sum = bin(fn, IR_ADD, ty_i64, sum, e, loc);
            IrInst *bad = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_NE, e, first, loc),
                              ty_emit(fn, IR_NOT, ty_bool, loc, 1, &on_axis[d]), loc);
            const char *msg = J->msg ? J->msg : arena_printf(fn->tc->arena,
                "np.concatenate(): input sizes over dimension %d do not match", d);
            ty_raise_if(fn, bad, RAISE_VALUE, msg, loc);
        }
        dims[d] = sel(fn, ty_i64, on_axis[d], sum, first, loc);
    }
    Val R = ty_alloc(fn, rt, dims, false, loc);
    bool f_order = rt->layout == LAYOUT_F;
    /* the result as a 1-d array, and the elements of one step along the axis, for the inputs
     * that fill contiguous runs of it */
    IrInst *rflat = NULL, *inner = NULL;
    for (int i = 0; i < J->n && !rflat; i++)
        if (contiguous_run(rt, J->in[i].t, cax)) {
            IrInst *total = i64c(fn, 1, loc);
            inner = i64c(fn, 1, loc);
            for (int d = 0; d < nd; d++) {
                total = bin(fn, IR_MUL, ty_i64, total, dims[d], loc);
                if (d != cax)
                    inner = bin(fn, IR_MUL, ty_i64, inner, dims[d], loc);
            }
            rflat = flat_view(fn, R, total, loc);
        }
    int offv = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, offv, i64c(fn, 0, loc), loc);
    for (int i = 0; i < J->n; i++) {
        Val a = J->in[i];
        IrInst *off = ty_load_var(fn, offv, ty_i64, loc);
        IrInst *shift[TY_MAX_NDIM];
        for (int d = 0; d < nd; d++)
            shift[d] = sel(fn, ty_i64, on_axis[d], off, i64c(fn, 0, loc), loc);
        if (rflat && contiguous_run(rt, a.t, cax)) {
            IrInst *size = i64c(fn, 1, loc);
            for (int d = 0; d < a.t->ndim; d++) {
                IrInst *e = extent(fn, a.v, d, loc);
                size = bin(fn, IR_MUL, ty_i64, size, e, loc);
            }
            IrInst *base = bin(fn, IR_MUL, ty_i64, off, inner, loc);
            copy_run(fn, R, rflat, a, base, size, loc);
            IrInst *e = ext_of(fn, J, i, cax, loc);
            ty_store_var(fn, offv, bin(fn, IR_ADD, ty_i64, off, e, loc), loc);
            continue;
        }
        TyLoop L[TY_MAX_NDIM];
        IrInst *idx[TY_MAX_NDIM];
        int an = a.t->ndim;
        for (int k = 0; k < an; k++) {
            int s = f_order ? an - 1 - k : k;
            idx[s] = ty_loop_open(fn, &L[k], extent(fn, a.v, s, loc), loc);
        }
        IrInst *ops[2 + TY_MAX_NDIM];
        ops[0] = a.v;
        for (int s = 0; s < an; s++)
            ops[1 + s] = idx[s];
        IrInst *x = ty_emit(fn, IR_ALOAD, a.t->dtype, loc, 1 + an, ops);
        ops[0] = R.v;
        for (int d = 0; d < nd; d++) {
            int s = J->map[i][d];
            ops[1 + d] = s < 0 ? shift[d] : bin(fn, IR_ADD, ty_i64, idx[s], shift[d], loc);
        }
        ops[1 + nd] = ty_cast(fn, x, a.t->dtype, rt->dtype, loc);
        ty_emit(fn, IR_ASTORE, ty_void, loc, 2 + nd, ops);
        for (int k = an - 1; k >= 0; k--)
            ty_loop_close(fn, &L[k], loc);
        IrInst *ax_ext = i64c(fn, 0, loc);
        for (int d = 0; d < nd; d++)
            ax_ext = sel(fn, ty_i64, on_axis[d], ext_of(fn, J, i, d, loc), ax_ext, loc);
        ty_store_var(fn, offv, bin(fn, IR_ADD, ty_i64, off, ax_ext, loc), loc);
    }
    return R;
}

/* A constant integer (a literal, negated or not), or false. */
static bool const_int(Node *e, int64_t *out) {
    if (e->kind == ND_INT) {
        *out = e->ival;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && e->a->kind == ND_INT) {
        *out = -e->a->ival;
        return true;
    }
    return false;
}

Val ty_join_call(Fn *fn, const char *name, Node *call) {
    Loc loc = call->loc;
    bool cat = !strcmp(name, "concatenate"), stack = !strcmp(name, "stack");
    /* Numba's parameters (numba/core/typing/npydecl.py), which differ from NumPy's ("tup",
     * "(a1, a2, ...)", out=, dtype=): the registry's binder with that signature text. */
    char shown[32], err[256];
    snprintf(shown, sizeof shown, "np.%s", name);
    LibArgs b;
    Loc err_at;
    if (!lib_bind_sig(cat || stack ? "arrays, axis=0" : "arrays", shown, call, &b, &err_at, err,
                      sizeof err)) {
        ty_error(fn, err_at, "%s", err);
        return verr();
    }
    Node *args[2] = {b.node[0], cat || stack ? b.node[1] : NULL};
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, loc, "np.%s() makes a new array, which CUDA code cannot do", name);
        return verr();
    }
    Val t = ty_value(fn, args[0]);
    if (t.k != V_VAL)
        return verr();
    if (t.t->kind != TY_TUPLE || t.t->nelems < 1 || t.t->nelems > MAX_IN) {
        ty_error(fn, args[0]->loc, "np.%s() takes a tuple of 1 to %d arrays, not %s", name, MAX_IN,
                 t.t->name);
        return verr();
    }
    Join J = {.n = t.t->nelems};
    const Type *dt = NULL;
    bool all_f = true;
    int nd0 = -1, lo = 99, hi = -1;
    for (int i = 0; i < J.n; i++) {
        const Type *et = t.t->elems[i];
        if (et->kind != TY_ARRAY || et->addrspace != AS_GENERIC) {
            ty_error(fn, args[0]->loc, "np.%s() takes a tuple of arrays; element %d is %s", name,
                     i, et->name);
            return verr();
        }
        IrInst *x = ty_emit(fn, IR_EXTRACT, et, loc, 1, &t.v);
        if (x)
            x->imm.index = i;
        J.in[i] = vval(et, x);
        dt = dt ? promote(dt, et->dtype) : et->dtype;
        all_f &= et->layout == LAYOUT_F;
        if (nd0 < 0)
            nd0 = et->ndim;
        lo = et->ndim < lo ? et->ndim : lo;
        hi = et->ndim > hi ? et->ndim : hi;
    }
    bool colst = !strcmp(name, "column_stack"), dst = !strcmp(name, "dstack");
    if ((colst && (lo < 1 || hi > 2)) || (!colst && lo != hi)) {
        ty_error(fn, args[0]->loc, colst ? "np.column_stack() takes 1-d and 2-d arrays"
                 : "np.%s(): all the input arrays must have the same number of dimensions", name);
        return verr();
    }
    int nd = hi;
    int64_t ax = 0;
    IrInst *axis = NULL;
    if (stack) {
        if (args[1] && !const_int(args[1], &ax)) {
            ty_error(fn, args[1]->loc, "numjit needs np.stack()'s axis as a constant integer");
            return verr();
        }
        if (ax < 0)
            ax += nd + 1;
        if (ax < 0 || ax > nd) {
            if (fn->emit) { /* Numba raises it when called */
                ty_raise(fn, RAISE_INDEX, "np.stack(): axis out of bounds", args[1]->loc);
                ty_set_block(fn, ty_block(fn));
            }
            ax = 0;
        }
    }
    /* each input seen with the result's dimensions, and the axis to concatenate along */
    J.rnd = stack ? nd + 1 : nd;
    J.msg = stack ? "np.stack(): all input arrays must have the same shape" : NULL;
    if (!strcmp(name, "vstack") || !strcmp(name, "hstack")) {
        bool v = name[0] == 'v';
        if (v && nd == 1) {
            J.rnd = 2;
            J.msg = "np.stack(): all input arrays must have the same shape";
        }
        ax = v ? 0 : nd == 1 ? 0 : 1;
    } else if (colst) {
        J.rnd = 2;
        ax = 1;
    } else if (dst) {
        J.rnd = nd < 3 ? 3 : nd;
        ax = 2;
    }
    for (int i = 0; i < J.n; i++) {
        int an = J.in[i].t->ndim;
        for (int d = 0; d < J.rnd; d++) {
            int s = d;
            if (stack)
                s = d < ax ? d : d == ax ? -1 : d - 1;
            else if (J.rnd > an && !colst && !dst) /* vstack of 1-d: (n) as (1, n) */
                s = d == 0 ? -1 : d - 1;
            else if (colst && an == 1)
                s = d == 0 ? 0 : -1;
            else if (dst && an < 3)
                s = an == 1 ? (d == 1 ? 0 : -1) : (d < 2 ? d : -1);
            J.map[i][d] = s;
        }
    }
    const Type *rt = ty_array(dt, J.rnd, all_f && (stack || J.rnd == nd) ? LAYOUT_F : LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    int cax = -1;
    if (cat && args[1]) {
        Val a = ty_value(fn, args[1]);
        if (a.k != V_VAL)
            return verr();
        if (!ty_is_int(a.t)) {
            ty_error(fn, args[1]->loc, "np.concatenate()'s axis must be an integer, not %s",
                     a.t->name);
            return verr();
        }
        axis = ty_cast(fn, a.v, a.t, ty_i64, loc);
        axis = sel(fn, ty_i64, cmp(fn, CMP_LT, axis, i64c(fn, 0, loc), loc),
                   bin(fn, IR_ADD, ty_i64, axis, i64c(fn, nd, loc), loc), axis, loc);
        IrInst *bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, axis, i64c(fn, 0, loc), loc),
                          cmp(fn, CMP_GE, axis, i64c(fn, nd, loc), loc), loc);
        ty_raise_if(fn, bad, RAISE_INDEX, "np.concatenate(): axis out of bounds", loc);
        int64_t c;
        if (const_int(args[1], &c) && c >= -nd && c < nd)
            cax = (int)(c < 0 ? c + nd : c);
    } else {
        axis = i64c(fn, ax, loc);
        cax = (int)ax;
    }
    return concat(fn, &J, rt, axis, cax, loc);
}

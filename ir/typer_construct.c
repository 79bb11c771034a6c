/* typer_construct.c — NumPy's constructors that build an array from values rather than from a
 * shape: np.array of a flat list or tuple of numbers, np.eye, np.identity, np.diag and
 * np.outer, as Numba 0.56 types and runs them (numba/np/arrayobj.py, arraymath.py).
 *
 * np.array([x, y, ...]) and np.array((x, y)) (a literal or a tuple value) make a 1-d C array
 * whose dtype is the elements' types unified as Numba unifies a list's (int32 and int64:
 * int64, float32 and a float64: float64), or `dtype=` (also by position); each element is
 * converted as a store converts it.  Nested lists (n-d arrays) and an empty list (Numba cannot
 * type it) are diagnostics.  np.eye(N, M=None, k=0, dtype=float) and np.identity(n, dtype=float)
 * are zeros with ones on diagonal k; np.diag(v, k=0) puts a 1-d v on diagonal k of a square
 * array of side len(v) + |k|, and copies diagonal k of a 2-d v into a 1-d array; np.outer(a, b)
 * multiplies every element of a (flattened, C order) by every element of b, in np.multiply's
 * loop dtype (int32 by int32 stays int32, int64 by float64 is float64).  All results are new
 * C arrays, made with typer_alloc.c's alloc (a negative extent raises ValueError).
 */
#include "typer_internal.h"

#include <string.h>


static const char *const names[] = {"array", "eye", "identity", "diag", "outer", NULL};

bool ty_np_construct_has(const char *name) {
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* ---- small IR builders -------------------------------------------------------------------- */
static IrInst *imax(Fn *fn, IrInst *a, IrInst *b, Loc loc) {
    return sel(fn, ty_i64, cmp(fn, CMP_GT, a, b, loc), a, b, loc);
}

static void astore(Fn *fn, IrInst *arr, IrInst **idx, int nd, IrInst *v, Loc loc) {
    IrInst *ops[2 + TY_MAX_NDIM];
    ops[0] = arr;
    for (int d = 0; d < nd; d++)
        ops[1 + d] = idx[d];
    ops[1 + nd] = v;
    ty_emit(fn, IR_ASTORE, ty_void, loc, 2 + nd, ops);
}

static IrInst *aload(Fn *fn, Val a, IrInst **idx, Loc loc) {
    IrInst *ops[1 + TY_MAX_NDIM];
    ops[0] = a.v;
    for (int d = 0; d < a.t->ndim; d++)
        ops[1 + d] = idx[d];
    return ty_emit(fn, IR_ALOAD, a.t->dtype, loc, 1 + a.t->ndim, ops);
}

static IrInst *constant(Fn *fn, const Type *t, int v, Loc loc) {
    return ty_is_float(t) ? ty_const_float(fn, t, v, loc) : ty_const_int(fn, t, v, loc);
}

/* A new zero-filled 2-d C array of dtype dt, n by m. */
static Val zeros2(Fn *fn, const Type *dt, IrInst *n, IrInst *m, Loc loc) {
    IrInst *dims[2] = {n, m};
    Val r = ty_alloc(fn, ty_array(dt, 2, LAYOUT_C), dims, true, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    TyLoop L[2];
    IrInst *idx[2];
    idx[0] = ty_loop_open(fn, &L[0], n, loc);
    idx[1] = ty_loop_open(fn, &L[1], m, loc);
    astore(fn, r.v, idx, 2, constant(fn, dt, 0, loc), loc);
    ty_loop_close(fn, &L[1], loc);
    ty_loop_close(fn, &L[0], loc);
    return r;
}

/* An integer argument as int64 (dflt when the node is absent or None). */
static bool int_arg(Fn *fn, const char *fname, Node *e, int64_t dflt, IrInst **out) {
    if (!e || e->kind == ND_NONE) {
        *out = fn->emit ? i64c(fn, dflt, e ? e->loc : (Loc){0}) : NULL;
        return true;
    }
    Val v = ty_value(fn, e);
    if (v.k != V_VAL)
        return false;
    if (!ty_is_int(v.t)) {
        ty_error(fn, e->loc, "np.%s() takes an integer here, not %s", fname, v.t->name);
        return false;
    }
    *out = ty_cast(fn, v.v, v.t, ty_i64, e->loc);
    return true;
}

/* ---- np.array -------------------------------------------------------------------------------- */
static Val array(Fn *fn, Node *call) {
    static const char *const params[] = {"object", "dtype", NULL};
    Node *a[2];
    if (!ty_np_bind(fn, call, "array", params, 1, a))
        return verr();
    const Type *dt = NULL;
    if (a[1] && !(dt = ty_np_dtype(fn, a[1], false)))
        return verr();
    Node *obj = a[0];
    Val el[64];
    int n = 0;
    if (obj->kind == ND_LIST || obj->kind == ND_TUPLE) {
        if (obj->list.n > 64) {
            ty_error(fn, obj->loc, "np.array() of more than 64 literal elements is not supported "
                     "by numjit");
            return verr();
        }
        for (int i = 0; i < obj->list.n; i++) {
            Node *e = obj->list.items[i];
            if (e->kind == ND_LIST || e->kind == ND_TUPLE) {
                ty_error(fn, e->loc, "np.array() of nested sequences is not supported by numjit "
                         "(a flat list or tuple of numbers)");
                return verr();
            }
            if ((el[n++] = ty_value(fn, e)).k != V_VAL)
                return verr();
        }
    } else {
        Val t = ty_value(fn, obj);
        if (t.k != V_VAL)
            return verr();
        if (t.t->kind != TY_TUPLE || t.t->nelems > 64) {
            ty_error(fn, obj->loc, "np.array() of %s is not supported by numjit (a flat list or "
                     "tuple of numbers)", t.t->name);
            return verr();
        }
        for (int i = 0; i < t.t->nelems; i++) {
            IrInst *x = ty_emit(fn, IR_EXTRACT, t.t->elems[i], obj->loc, 1, &t.v);
            if (x)
                x->imm.index = i;
            el[n++] = vval(t.t->elems[i], x);
        }
    }
    if (!n) {
        ty_error(fn, obj->loc, "np.array() of an empty sequence: its type cannot be inferred");
        return verr();
    }
    const Type *ut = NULL;
    for (int i = 0; i < n; i++) {
        if (!ty_is_elem(el[i].t) || (dt && ty_is_complex(el[i].t) && !ty_is_complex(dt))) {
            ty_error(fn, obj->kind == ND_LIST || obj->kind == ND_TUPLE ? obj->list.items[i]->loc
                                                                       : obj->loc,
                     "np.array() of %s is not supported by numjit (a flat list or tuple of "
                     "numbers%s)", el[i].t->name, dt ? " of the dtype's kind" : "");
            return verr();
        }
        ut = ty_unify(ut, el[i].t);
    }
    if (!dt)
        dt = ut;
    const Type *rt = ty_array(dt, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *len = i64c(fn, n, call->loc);
    Val r = ty_alloc(fn, rt, &len, false, call->loc);
    if (r.k != V_VAL || !r.v)
        return r;
    for (int i = 0; i < n; i++) {
        IrInst *ix = i64c(fn, i, call->loc);
        astore(fn, r.v, &ix, 1, ty_cast(fn, el[i].v, el[i].t, dt, call->loc), call->loc);
    }
    return r;
}

/* ---- np.eye, np.identity ----------------------------------------------------------------------- */
static Val eye(Fn *fn, const char *fname, Node *call) {
    static const char *const eye_params[] = {"N", "M", "k", "dtype", NULL};
    static const char *const id_params[] = {"n", "dtype", NULL};
    bool id = !strcmp(fname, "identity");
    Node *a[4] = {NULL, NULL, NULL, NULL};
    if (!ty_np_bind(fn, call, fname, id ? id_params : eye_params, 1, a))
        return verr();
    Node *dtn = id ? a[1] : a[3];
    const Type *dt = ty_f64;
    if (dtn && !(dt = ty_np_dtype(fn, dtn, false)))
        return verr();
    IrInst *n, *m, *k;
    if (!int_arg(fn, fname, a[0], 0, &n) || !int_arg(fn, fname, id ? NULL : a[1], -1, &m) ||
        !int_arg(fn, fname, id ? NULL : a[2], 0, &k))
        return verr();
    const Type *rt = ty_array(dt, 2, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    Loc loc = call->loc;
    if (id || !a[1] || a[1]->kind == ND_NONE)
        m = n;
    Val r = zeros2(fn, dt, n, m, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    /* ones at (i, i + k) for the i where both are inside */
    TyLoop L;
    IrInst *idx[2];
    idx[0] = ty_loop_open(fn, &L, n, loc);
    idx[1] = bin(fn, IR_ADD, ty_i64, idx[0], k, loc);
    IrInst *in = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_GE, idx[1], i64c(fn, 0, loc), loc),
                     cmp(fn, CMP_LT, idx[1], m, loc), loc);
    IrBlock *put = ty_block(fn), *next = ty_block(fn);
    ty_condbr(fn, in, put, next, loc);
    ty_set_block(fn, put);
    astore(fn, r.v, idx, 2, constant(fn, dt, 1, loc), loc);
    ty_br(fn, next, loc);
    ty_set_block(fn, next);
    ty_loop_close(fn, &L, loc);
    return r;
}

/* ---- np.diag ----------------------------------------------------------------------------------- */
static Val diag(Fn *fn, Node *call) {
    static const char *const params[] = {"v", "k", NULL};
    Node *a[2];
    if (!ty_np_bind(fn, call, "diag", params, 1, a))
        return verr();
    Val v = ty_value(fn, a[0]);
    if (v.k != V_VAL)
        return verr();
    if (v.t->kind != TY_ARRAY || v.t->ndim > 2 || v.t->addrspace != AS_GENERIC) {
        ty_error(fn, a[0]->loc, "np.diag() takes a 1-d or 2-d array, not %s", v.t->name);
        return verr();
    }
    IrInst *k;
    if (!int_arg(fn, "diag", a[1], 0, &k))
        return verr();
    bool square = v.t->ndim == 1;
    const Type *rt = ty_array(v.t->dtype, square ? 2 : 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    Loc loc = call->loc;
    IrInst *zero = i64c(fn, 0, loc);
    IrInst *negk = bin(fn, IR_SUB, ty_i64, zero, k, loc);
    IrInst *row0 = imax(fn, negk, zero, loc), *col0 = imax(fn, k, zero, loc);
    Val r;
    IrInst *len;
    if (square) {
        len = extent(fn, v.v, 0, loc);
        IrInst *side = bin(fn, IR_ADD, ty_i64, len, imax(fn, k, negk, loc), loc);
        r = zeros2(fn, v.t->dtype, side, side, loc);
    } else {
        IrInst *rows = bin(fn, IR_SUB, ty_i64, extent(fn, v.v, 0, loc), row0, loc);
        IrInst *cols = bin(fn, IR_SUB, ty_i64, extent(fn, v.v, 1, loc), col0, loc);
        len = imax(fn, sel(fn, ty_i64, cmp(fn, CMP_LT, rows, cols, loc), rows, cols, loc), zero, loc);
        r = ty_alloc(fn, rt, &len, false, loc);
    }
    if (r.k != V_VAL || !r.v)
        return r;
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, len, loc);
    IrInst *at[2] = {bin(fn, IR_ADD, ty_i64, i, row0, loc), bin(fn, IR_ADD, ty_i64, i, col0, loc)};
    if (square)
        astore(fn, r.v, at, 2, aload(fn, v, &i, loc), loc);
    else
        astore(fn, r.v, &i, 1, aload(fn, v, at, loc), loc);
    ty_loop_close(fn, &L, loc);
    return r;
}

/* ---- np.outer ---------------------------------------------------------------------------------- */
static Val outer(Fn *fn, Node *call) {
    static const char *const params[] = {"a", "b", NULL};
    Node *n[2];
    if (!ty_np_bind(fn, call, "outer", params, 2, n))
        return verr();
    Val a[2];
    for (int i = 0; i < 2; i++) {
        if ((a[i] = ty_value(fn, n[i])).k != V_VAL)
            return verr();
        if (a[i].t->kind != TY_ARRAY || a[i].t->addrspace != AS_GENERIC) {
            ty_error(fn, n[i]->loc, "np.outer() of %s is not supported by numjit (two arrays)",
                     a[i].t->name);
            return verr();
        }
    }
    const Type *lt = ty_ufunc_loop("multiply", a[0].t->dtype, a[1].t->dtype);
    if (!lt) {
        ty_error(fn, call->loc, "np.outer() is not defined for %s and %s", a[0].t->name,
                 a[1].t->name);
        return verr();
    }
    const Type *rt = ty_array(lt, 2, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    Loc loc = call->loc;
    IrInst *size[2];
    for (int i = 0; i < 2; i++) {
        size[i] = i64c(fn, 1, loc);
        for (int d = 0; d < a[i].t->ndim; d++)
            size[i] = bin(fn, IR_MUL, ty_i64, size[i], extent(fn, a[i].v, d, loc), loc);
    }
    Val r = ty_alloc(fn, rt, size, false, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    /* a's elements in C order, and for each of them b's, each with a running flat index */
    TyLoop L[2 * TY_MAX_NDIM];
    int nl = 0, flat[2];
    IrInst *idx[TY_MAX_NDIM], *x[2], *pos[2];
    for (int i = 0; i < 2; i++) {
        flat[i] = ty_temp_var(fn, ty_i64);
        ty_store_var(fn, flat[i], i64c(fn, 0, loc), loc);
        for (int d = 0; d < a[i].t->ndim; d++)
            idx[d] = ty_loop_open(fn, &L[nl++], extent(fn, a[i].v, d, loc), loc);
        pos[i] = ty_load_var(fn, flat[i], ty_i64, loc);
        x[i] = ty_cast(fn, aload(fn, a[i], idx, loc), a[i].t->dtype, lt, loc);
    }
    astore(fn, r.v, pos, 2, ty_ufunc_apply(fn, "multiply", lt, x[0], x[1], loc), loc);
    for (int i = 1; i >= 0; i--) {
        ty_store_var(fn, flat[i], bin(fn, IR_ADD, ty_i64, pos[i], i64c(fn, 1, loc), loc), loc);
        for (int d = a[i].t->ndim - 1; d >= 0; d--)
            ty_loop_close(fn, &L[--nl], loc);
    }
    return r;
}

Val ty_np_construct(Fn *fn, const char *name, Node *call) {
    if (!strcmp(name, "array"))
        return array(fn, call);
    if (!strcmp(name, "eye") || !strcmp(name, "identity"))
        return eye(fn, name, call);
    if (!strcmp(name, "diag"))
        return diag(fn, call);
    return outer(fn, call);
}

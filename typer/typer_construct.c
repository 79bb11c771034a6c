/* typer_construct.c — NumPy's constructors that build an array from values rather than from a
 * shape: np.array of a (nested) list or tuple of numbers, np.eye, np.identity, np.diag and
 * np.outer, as Numba 0.56 types and runs them (numba/np/arrayobj.py, arraymath.py).
 *
 * np.array([x, y, ...]) and np.array((x, y)) (a literal or a tuple value) make a 1-d C array
 * whose dtype is the elements' types unified as Numba unifies a list's (int32 and int64:
 * int64, float32 and a float64: float64), or `dtype=` (also by position); each element is
 * converted as a store converts it.  Nested literals and tuples of tuples ([[1, 2], [3, 4]])
 * make an n-d array of their shape, known when compiling: a ragged one is a located error
 * (Numba raises ValueError when it runs), and so is an empty list (Numba cannot type it).  np.eye(N, M=None, k=0, dtype=float) and np.identity(n, dtype=float)
 * are zeros with ones on diagonal k; np.diag(v, k=0) puts a 1-d v on diagonal k of a square
 * array of side len(v) + |k|, and copies diagonal k of a 2-d v into a 1-d array; np.outer(a, b)
 * multiplies every element of a (flattened, C order) by every element of b, in np.multiply's
 * loop dtype (int32 by int32 stays int32, int64 by float64 is float64).  All results are new
 * C arrays, made with typer_alloc.c's alloc (a negative extent raises ValueError).
 */
#include "typer_internal.h"

#include <stdio.h>
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
    ty_astore(fn, r.v, idx, 2, constant(fn, dt, 0, loc), loc);
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
/* The leaves of a nested sequence (literal lists and tuples, tuple values) in C order, and its
 * shape: every sequence at depth d has dims[d] elements and every leaf is at depth nd. */
#define ARRAY_MAX_LEAVES 4096

typedef struct Nest {
    Arena *arena;
    Val *el;
    Loc *at; /* where each leaf is written (its node; the sequence's for a tuple value) */
    int n, cap;
    int nd; /* -1 until the first leaf */
    int64_t dims[TY_MAX_NDIM];
} Nest;

static bool nest_error(Fn *fn, Loc loc, const char *what) {
    ty_error(fn, loc, "np.array() of a ragged nested sequence: %s (every sequence at one depth "
             "must have the same length, and numbers only at the innermost)", what);
    return false;
}

static bool nest_seq(Fn *fn, Nest *g, int depth, int64_t len, Loc loc) {
    if (g->nd >= 0 && depth >= g->nd)
        return nest_error(fn, loc, "a sequence where a number was before");
    if (depth >= TY_MAX_NDIM) {
        ty_error(fn, loc, "np.array() of a sequence nested more than %d deep is not supported",
                 TY_MAX_NDIM);
        return false;
    }
    if (g->dims[depth] < 0)
        g->dims[depth] = len;
    else if (g->dims[depth] != len) {
        char what[96];
        snprintf(what, sizeof what, "this one has %lld element%s, an earlier one %lld",
                 (long long)len, len == 1 ? "" : "s", (long long)g->dims[depth]);
        return nest_error(fn, loc, what);
    }
    return true;
}

static bool nest_value(Fn *fn, Nest *g, Val v, int depth, Loc loc) {
    if (v.t->kind == TY_TUPLE) {
        if (!nest_seq(fn, g, depth, v.t->nelems, loc))
            return false;
        for (int i = 0; i < v.t->nelems; i++) {
            IrInst *x = ty_emit(fn, IR_EXTRACT, v.t->elems[i], loc, 1, &v.v);
            if (x)
                x->imm.index = i;
            if (!nest_value(fn, g, vval(v.t->elems[i], x), depth + 1, loc))
                return false;
        }
        return true;
    }
    if (depth == 0) {
        ty_error(fn, loc, "np.array() of %s is not supported by numjit (a list or tuple of "
                 "numbers, nested for more dimensions)", v.t->name);
        return false;
    }
    if (g->nd < 0)
        g->nd = depth;
    else if (depth != g->nd)
        return nest_error(fn, loc, "a number where a sequence was before");
    if (g->n == ARRAY_MAX_LEAVES) {
        ty_error(fn, loc, "np.array() of more than %d literal elements is not supported by "
                 "numjit", ARRAY_MAX_LEAVES);
        return false;
    }
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        Val *el = arena_alloc(g->arena, (size_t)cap * sizeof *el);
        Loc *at = arena_alloc(g->arena, (size_t)cap * sizeof *at);
        if (g->n) {
            memcpy(el, g->el, (size_t)g->n * sizeof *el);
            memcpy(at, g->at, (size_t)g->n * sizeof *at);
        }
        g->el = el, g->at = at, g->cap = cap;
    }
    g->at[g->n] = loc;
    g->el[g->n++] = v;
    return true;
}

static bool nest_node(Fn *fn, Nest *g, Node *e, int depth) {
    if (e->kind != ND_LIST && e->kind != ND_TUPLE) {
        Val v = ty_value(fn, e);
        return v.k == V_VAL && nest_value(fn, g, v, depth, e->loc);
    }
    if (!nest_seq(fn, g, depth, e->list.n, e->loc))
        return false;
    for (int i = 0; i < e->list.n; i++)
        if (!nest_node(fn, g, e->list.items[i], depth + 1))
            return false;
    return true;
}

static Val array(Fn *fn, Node *call) {
    static const char *const params[] = {"object", "dtype", NULL};
    Node *a[2];
    if (!ty_np_bind(fn, call, "array", params, 1, a))
        return verr();
    const Type *dt = NULL;
    if (a[1] && !(dt = ty_np_dtype(fn, a[1], false)))
        return verr();
    Node *obj = a[0];
    if (obj->kind != ND_LIST && obj->kind != ND_TUPLE) { /* a list value: typer_list.c */
        bool emit = fn->emit;
        fn->emit = false;
        Val peek = ty_expr(fn, obj);
        fn->emit = emit;
        if (peek.k == V_VAL && peek.t->kind == TY_LIST) {
            Val l = ty_value(fn, obj);
            return l.k == V_VAL ? ty_list_to_array(fn, l, dt, obj->loc) : verr();
        }
    }
    Nest g = {.arena = fn->tc->arena, .nd = -1};
    for (int d = 0; d < TY_MAX_NDIM; d++)
        g.dims[d] = -1;
    if (!nest_node(fn, &g, obj, 0))
        return verr();
    if (!g.n) {
        ty_error(fn, obj->loc, "np.array() of an empty sequence: its type cannot be inferred");
        return verr();
    }
    const Type *ut = NULL;
    for (int i = 0; i < g.n; i++) {
        if (!ty_is_elem(g.el[i].t) || (dt && ty_is_complex(g.el[i].t) && !ty_is_complex(dt))) {
            ty_error(fn, g.at[i], "np.array() of %s is not supported by numjit (a list or tuple "
                     "of numbers%s)", g.el[i].t->name, dt ? " of the dtype's kind" : "");
            return verr();
        }
        ut = ty_unify(ut, g.el[i].t);
    }
    if (!dt)
        dt = ut;
    const Type *rt = ty_array(dt, g.nd, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < g.nd; d++)
        dims[d] = i64c(fn, g.dims[d], call->loc);
    Val r = ty_alloc(fn, rt, dims, false, call->loc);
    if (r.k != V_VAL || !r.v)
        return r;
    for (int i = 0; i < g.n; i++) {
        IrInst *ix[TY_MAX_NDIM];
        int64_t rest = i;
        for (int d = g.nd - 1; d >= 0; d--) {
            ix[d] = i64c(fn, rest % g.dims[d], call->loc);
            rest /= g.dims[d];
        }
        ty_astore(fn, r.v, ix, g.nd, ty_cast(fn, g.el[i].v, g.el[i].t, dt, call->loc), call->loc);
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
    ty_astore(fn, r.v, idx, 2, constant(fn, dt, 1, loc), loc);
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
        ty_astore(fn, r.v, at, 2, ty_aload_at(fn, v, &i, loc), loc);
    else
        ty_astore(fn, r.v, &i, 1, ty_aload_at(fn, v, at, loc), loc);
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
        x[i] = ty_cast(fn, ty_aload_at(fn, a[i], idx, loc), a[i].t->dtype, lt, loc);
    }
    ty_astore(fn, r.v, pos, 2, ty_ufunc_apply(fn, "multiply", lt, x[0], x[1], loc), loc);
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

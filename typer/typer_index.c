/* typer_index.c — advanced indexing, as Numba 0.56 types and runs it
 * (numba/core/typing/arraydecl.py get_array_index_type, numba/np/arrayobj.py fancy_getitem,
 * fancy_setitem): a[mask], a[idx], a[:, idx, 1:], a[mask] = x, a[idx] = x, and the functions
 * that find the true elements of an array: np.nonzero(a), a.nonzero(), np.where(a) with one
 * argument, np.flatnonzero(a), np.argwhere(a).
 *
 * What Numba 0.56 accepts, and numjit with it: one index that is a 1-d array of integers or of
 * booleans (an n-d mask is a typing error there), preceded only by slices and followed by
 * integers and slices (an integer before it makes two "advanced" indices, which Numba refuses).
 * The result is a new C-ordered array whose dimension at the array index's position has one
 * element per selected index.  A boolean index selects the positions of its true elements; it
 * may be shorter than the dimension (Numba does not check; NumPy would refuse).
 *
 * How: the other indices make a view V with the advanced dimension kept whole (typer_array.c's
 * basic slicing, on a copy of the index whose array item became `:`), then a loop nest walks
 * V's dimensions in C order, the advanced one over the index array: for an integer index each
 * element (negative ones wrap), for a mask each true position, counted by j.  Reading copies
 * V[..., k, ...] to R[..., j, ...]; writing stores a scalar, or the source's element at the
 * same place of R's shape, broadcast as NumPy broadcasts (ValueError "cannot assign slice from
 * input of different size" otherwise, Numba's words).  An index outside the dimension raises
 * IndexError("index is out of bounds") always: Numba checks reads only with boundscheck=True
 * and never checks writes (it reads and writes past the array).
 *
 * a[mask] of a 1-d array, the common filter, has its own loop: count the true elements (a
 * loop LLVM vectorizes), allocate, then store every element at the running count and add the
 * mask's bit, leaving when all are placed, so there is no branch on the data.
 */
#include "typer_internal.h"

#include <string.h>


/* ---- small helpers --------------------------------------------------------------------------- */
static int ncount(Node *ix) { return ix->kind == ND_TUPLE ? ix->list.n : 1; }
static Node *item(Node *ix, int k) { return ix->kind == ND_TUPLE ? ix->list.items[k] : ix; }

static IrInst *aload1(Fn *fn, IrInst *arr, const Type *dt, IrInst *i, Loc loc) {
    IrInst *ops[2] = {arr, i};
    return ty_emit(fn, IR_ALOAD, dt, loc, 2, ops);
}

static void add_to(Fn *fn, int var, IrInst *x, Loc loc) {
    ty_store_var(fn, var, bin(fn, IR_ADD, ty_i64, ty_load_var(fn, var, ty_i64, loc), x, loc), loc);
}

/* The type of e without emitting anything. */
static const Type *peek_type(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v.k == V_VAL ? v.t : NULL;
}

bool ty_index_is_advanced(Fn *fn, const Type *at, Node *ix) {
    if (at->kind != TY_ARRAY)
        return false;
    for (int k = 0; k < ncount(ix); k++) {
        Node *e = item(ix, k);
        if (e->kind == ND_SLICE)
            continue;
        const Type *t = peek_type(fn, e);
        if (t && t->kind == TY_ARRAY)
            return true;
    }
    return false;
}

/* ---- the parsed index ------------------------------------------------------------------------ */
typedef struct Adv {
    Val view;   /* arr with every index but the array one applied; that dimension kept whole */
    int p;      /* the advanced dimension of view */
    Val idx;    /* the index array (1-d, integers or bool) */
    bool mask;
    IrInst *count; /* selected positions (emission) */
} Adv;

static bool adv_parse(Fn *fn, Val arr, Node *ix, Adv *A, Loc loc) {
    const Type *at = arr.t;
    int n = ncount(ix), p = -1;
    if (n > at->ndim) {
        ty_error(fn, ix->loc, "too many indices for %s: %d given", at->name, n);
        return false;
    }
    if (fn->tc->target != TARGET_CPU || at->addrspace != AS_GENERIC) {
        ty_error(fn, ix->loc,
                 "indexing with an array makes a new array, which CUDA code cannot do");
        return false;
    }
    bool seen_int = false;
    for (int k = 0; k < n; k++) {
        Node *e = item(ix, k);
        if (e->kind == ND_SLICE)
            continue;
        const Type *t = peek_type(fn, e);
        if (!t)
            return false;
        if (t->kind != TY_ARRAY) {
            seen_int |= p < 0;
            continue;
        }
        if (p >= 0 || seen_int) {
            ty_error(fn, e->loc, "only one advanced index is supported (Numba 0.56 counts an "
                     "integer index before an array index as a second one)");
            return false;
        }
        if (t->ndim != 1 || (!ty_is_int(t->dtype) && t->dtype != ty_bool)) {
            ty_error(fn, e->loc, "an array index must be a 1-d array of integers or booleans "
                     "(Numba 0.56), not %s", t->name);
            return false;
        }
        p = k;
    }
    A->p = p;
    A->idx = ty_value(fn, item(ix, p));
    if (A->idx.k != V_VAL)
        return false;
    A->mask = A->idx.t->dtype == ty_bool;
    /* the same index with `:` in place of the array */
    Node *whole = ast_new(fn->tc->arena, ND_SLICE, item(ix, p)->loc);
    Node *rest = whole;
    if (ix->kind == ND_TUPLE) {
        rest = ast_new(fn->tc->arena, ND_TUPLE, ix->loc);
        for (int k = 0; k < n; k++)
            ast_list_push(fn->tc->arena, &rest->list, k == p ? whole : item(ix, k));
    }
    A->view = ty_array_view(fn, arr, rest, loc);
    if (A->view.k != V_VAL)
        return false;
    A->count = NULL;
    if (!fn->emit)
        return true;
    IrInst *len = extent(fn, A->idx.v, 0, loc);
    if (!A->mask) {
        A->count = len;
        return true;
    }
    /* count the true elements; a true one past the dimension is out of bounds */
    int cnt = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, cnt, i64c(fn, 0, loc), loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, len, loc);
    add_to(fn, cnt, ty_cast(fn, aload1(fn, A->idx.v, ty_bool, k, loc), ty_bool, ty_i64, loc), loc);
    ty_loop_close(fn, &L, loc);
    A->count = ty_load_var(fn, cnt, ty_i64, loc);
    IrInst *ext = extent(fn, A->view.v, p, loc);
    IrBlock *tail = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_GT, len, ext, loc), tail, done, loc);
    ty_set_block(fn, tail);
    int kv = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, kv, ext, loc);
    IrBlock *head = ty_block(fn), *body = ty_block(fn);
    ty_br(fn, head, loc);
    ty_set_block(fn, head);
    IrInst *kk = ty_load_var(fn, kv, ty_i64, loc);
    ty_condbr(fn, cmp(fn, CMP_LT, kk, len, loc), body, done, loc);
    ty_set_block(fn, body);
    ty_raise_if(fn, aload1(fn, A->idx.v, ty_bool, kk, loc), RAISE_INDEX, "index is out of bounds",
             loc);
    add_to(fn, kv, i64c(fn, 1, loc), loc);
    ty_br(fn, head, loc);
    ty_set_block(fn, done);
    return true;
}

/* ---- the loop nest --------------------------------------------------------------------------- */
typedef enum { W_GET, W_SET_SCALAR, W_SET_ARRAY } WalkKind;

typedef struct Walk {
    WalkKind kind;
    Val res;          /* W_GET: the new array R */
    IrInst *scalar;   /* W_SET_SCALAR: the value, of the view's dtype */
    Val src;          /* W_SET_ARRAY: the source, broadcast to R's shape */
    IrInst *stretch[TY_MAX_NDIM]; /* src's dimension i has extent 1 */
} Walk;

/* For every element of R's shape in C order: R[ridx] and V[vidx], as the walk's kind says. */
static void walk(Fn *fn, Adv *A, Walk *w, Loc loc) {
    const Type *vt = A->view.t;
    int nd = vt->ndim, p = A->p;
    IrInst *V = A->view.v;
    IrInst *ridx[TY_MAX_NDIM], *vidx[TY_MAX_NDIM];
    TyLoop loops[TY_MAX_NDIM];
    for (int d = 0; d < p; d++)
        ridx[d] = vidx[d] = ty_loop_open(fn, &loops[d], extent(fn, V, d, loc), loc);
    IrInst *ext = extent(fn, V, p, loc);
    int jv = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, jv, i64c(fn, 0, loc), loc);
    TyLoop al;
    IrInst *pos = ty_loop_open(fn, &al, extent(fn, A->idx.v, 0, loc), loc);
    IrBlock *skip = ty_block(fn);
    IrInst *k;
    if (A->mask) {
        IrBlock *take = ty_block(fn);
        ty_condbr(fn, aload1(fn, A->idx.v, ty_bool, pos, loc), take, skip, loc);
        ty_set_block(fn, take);
        k = pos; /* below the extent: adv_parse checked the tail */
    } else {
        const Type *it = A->idx.t->dtype;
        k = ty_cast(fn, aload1(fn, A->idx.v, it, pos, loc), it, ty_i64, loc);
        if (ty_is_signed(it))
            k = sel(fn, ty_i64, cmp(fn, CMP_LT, k, i64c(fn, 0, loc), loc),
                    bin(fn, IR_ADD, ty_i64, k, ext, loc), k, loc);
        IrInst *bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_GE, k, ext, loc),
                          cmp(fn, CMP_LT, k, i64c(fn, 0, loc), loc), loc);
        ty_raise_if(fn, bad, RAISE_INDEX, "index is out of bounds", loc);
    }
    vidx[p] = k;
    ridx[p] = ty_load_var(fn, jv, ty_i64, loc);
    for (int d = p + 1; d < nd; d++)
        ridx[d] = vidx[d] = ty_loop_open(fn, &loops[d], extent(fn, V, d, loc), loc);
    if (w->kind == W_GET) {
        ty_astore(fn, w->res.v, ridx, nd, ty_aload(fn, V, vt->dtype, vidx, nd, loc), loc);
    } else if (w->kind == W_SET_SCALAR) {
        ty_astore(fn, V, vidx, nd, w->scalar, loc);
    } else {
        int sn = w->src.t->ndim;
        IrInst *sidx[TY_MAX_NDIM];
        for (int i = 0; i < sn; i++)
            sidx[i] = sel(fn, ty_i64, w->stretch[i], i64c(fn, 0, loc), ridx[nd - sn + i], loc);
        IrInst *x = ty_aload(fn, w->src.v, w->src.t->dtype, sidx, sn, loc);
        ty_astore(fn, V, vidx, nd, ty_cast(fn, x, w->src.t->dtype, vt->dtype, loc), loc);
    }
    for (int d = nd - 1; d > p; d--)
        ty_loop_close(fn, &loops[d], loc);
    add_to(fn, jv, i64c(fn, 1, loc), loc);
    ty_br(fn, skip, loc);
    ty_set_block(fn, skip);
    ty_loop_close(fn, &al, loc);
    for (int d = p - 1; d >= 0; d--)
        ty_loop_close(fn, &loops[d], loc);
}

/* R = V[mask] for 1-d V: store every element at the running count, which grows by the mask's
 * bit; leave once all count elements are placed (so no store goes past R). */
static void compact1(Fn *fn, Adv *A, Val R, Loc loc) {
    IrInst *V = A->view.v;
    int jv = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, jv, i64c(fn, 0, loc), loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, extent(fn, A->idx.v, 0, loc), loc);
    IrInst *j = ty_load_var(fn, jv, ty_i64, loc);
    IrBlock *go = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_GE, j, A->count, loc), L.exit, go, loc);
    ty_set_block(fn, go);
    IrInst *x = aload1(fn, V, A->view.t->dtype, k, loc);
    IrInst *ops[3] = {R.v, j, x};
    ty_emit(fn, IR_ASTORE, ty_void, loc, 3, ops);
    IrInst *m = ty_cast(fn, aload1(fn, A->idx.v, ty_bool, k, loc), ty_bool, ty_i64, loc);
    ty_store_var(fn, jv, bin(fn, IR_ADD, ty_i64, j, m, loc), loc);
    ty_loop_close(fn, &L, loc);
}

Val ty_index_get(Fn *fn, Val arr, Node *ix, Loc loc) {
    Adv A;
    if (!adv_parse(fn, arr, ix, &A, loc))
        return verr();
    const Type *vt = A.view.t;
    const Type *rt = ty_array(vt->dtype, vt->ndim, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < vt->ndim; d++)
        dims[d] = d == A.p ? A.count : extent(fn, A.view.v, d, loc);
    Val R = ty_alloc(fn, rt, dims, false, loc);
    if (A.mask && vt->ndim == 1) {
        compact1(fn, &A, R, loc);
    } else {
        Walk w = {.kind = W_GET, .res = R};
        walk(fn, &A, &w, loc);
    }
    return R;
}

void ty_index_set(Fn *fn, Val arr, Node *ix, Val v, Loc loc) {
    Adv A;
    if (!adv_parse(fn, arr, ix, &A, loc))
        return;
    const Type *vt = A.view.t;
    Walk w = {.kind = W_SET_SCALAR};
    if (ty_is_scalar(v.t)) {
        w.scalar = ty_cast(fn, v.v, v.t, vt->dtype, loc);
    } else if (v.t->kind == TY_ARRAY && v.t->ndim <= vt->ndim && v.t->addrspace == AS_GENERIC) {
        w.kind = W_SET_ARRAY;
        w.src = v;
    } else {
        ty_error(fn, loc, "cannot assign %s to %s indexed by an array", v.t->name, arr.t->name);
        return;
    }
    if (!fn->emit)
        return;
    if (w.kind == W_SET_ARRAY) { /* broadcast the source to R's shape */
        int nd = vt->ndim, sn = v.t->ndim;
        IrInst *bad = NULL;
        for (int i = 0; i < sn; i++) {
            int d = nd - sn + i;
            IrInst *se = extent(fn, v.v, i, loc);
            IrInst *re = d == A.p ? A.count : extent(fn, A.view.v, d, loc);
            w.stretch[i] = cmp(fn, CMP_EQ, se, i64c(fn, 1, loc), loc);
            IrInst *b = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_NE, se, re, loc),
                            ty_emit(fn, IR_NOT, ty_bool, loc, 1, &w.stretch[i]), loc);
            bad = bad ? bin(fn, IR_BITOR, ty_bool, bad, b, loc) : b;
        }
        ty_raise_if(fn, bad, RAISE_VALUE, "cannot assign slice from input of different size", loc);
    }
    walk(fn, &A, &w, loc);
}

/* ---- np.nonzero, np.where(a), np.flatnonzero, np.argwhere ------------------------------------ */
/* Loops over every element of a in C order; the body is the current block, idx[] the indices.
 * Close with close_all. */
static void open_all(Fn *fn, TyLoop *L, IrInst *a, int nd, IrInst **idx, Loc loc) {
    for (int d = 0; d < nd; d++)
        idx[d] = ty_loop_open(fn, &L[d], extent(fn, a, d, loc), loc);
}

static void close_all(Fn *fn, TyLoop *L, int nd, Loc loc) {
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
}

/* name: "nonzero" (also a.nonzero() and np.where(a)), "flatnonzero" or "argwhere" of a. */
static Val find_true(Fn *fn, const char *name, Val a, Loc loc) {
    int nd = a.t->ndim;
    bool flat = !strcmp(name, "flatnonzero"), argw = !strcmp(name, "argwhere");
    const Type *vec = ty_array(ty_i64, 1, LAYOUT_C);
    const Type *rt;
    const Type *el[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        el[d] = vec;
    if (flat)
        rt = vec;
    else if (argw)
        rt = ty_array(ty_i64, 2, LAYOUT_A);
    else
        rt = ty_tuple(el, nd);
    if (!fn->emit)
        return vval(rt, NULL);
    /* count */
    int cnt = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, cnt, i64c(fn, 0, loc), loc);
    TyLoop L[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM];
    open_all(fn, L, a.v, nd, idx, loc);
    IrInst *x = ty_aload(fn, a.v, a.t->dtype, idx, nd, loc);
    add_to(fn, cnt, ty_cast(fn, ty_truth(fn, vval(a.t->dtype, x), loc), ty_bool, ty_i64, loc), loc);
    close_all(fn, L, nd, loc);
    IrInst *n = ty_load_var(fn, cnt, ty_i64, loc);
    /* the results */
    Val out[TY_MAX_NDIM];
    int nout = flat || argw ? 1 : nd;
    for (int i = 0; i < nout; i++) {
        if (argw) {
            IrInst *dims[2] = {n, i64c(fn, nd, loc)};
            out[i] = ty_alloc(fn, ty_array(ty_i64, 2, LAYOUT_F), dims, false, loc);
        } else {
            out[i] = ty_alloc(fn, vec, &n, false, loc);
        }
    }
    /* fill: j counts the true elements seen, f the flat position */
    int jv = ty_temp_var(fn, ty_i64), fv = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, jv, i64c(fn, 0, loc), loc);
    ty_store_var(fn, fv, i64c(fn, 0, loc), loc);
    open_all(fn, L, a.v, nd, idx, loc);
    x = ty_aload(fn, a.v, a.t->dtype, idx, nd, loc);
    IrBlock *take = ty_block(fn), *next = ty_block(fn);
    ty_condbr(fn, ty_truth(fn, vval(a.t->dtype, x), loc), take, next, loc);
    ty_set_block(fn, take);
    IrInst *j = ty_load_var(fn, jv, ty_i64, loc);
    if (flat) {
        IrInst *ops[3] = {out[0].v, j, ty_load_var(fn, fv, ty_i64, loc)};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, ops);
    } else {
        for (int d = 0; d < nd; d++) {
            IrInst *ops[4] = {out[argw ? 0 : d].v, j, i64c(fn, d, loc), idx[d]};
            if (argw)
                ty_emit(fn, IR_ASTORE, ty_void, loc, 4, ops);
            else {
                IrInst *o2[3] = {out[d].v, j, idx[d]};
                ty_emit(fn, IR_ASTORE, ty_void, loc, 3, o2);
            }
        }
    }
    add_to(fn, jv, i64c(fn, 1, loc), loc);
    ty_br(fn, next, loc);
    ty_set_block(fn, next);
    add_to(fn, fv, i64c(fn, 1, loc), loc);
    close_all(fn, L, nd, loc);
    if (flat)
        return out[0];
    if (argw)
        return vval(rt, ty_cast(fn, out[0].v, out[0].t, rt, loc));
    IrInst *vs[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        vs[d] = out[d].v;
    return vval(rt, ty_emit(fn, IR_TUPLE, rt, loc, nd, vs));
}

Val ty_index_np_call(Fn *fn, const char *name, Node *call, Val self) {
    bool method = self.k == V_METHOD;
    const char *spell = method ? "a." : "np.";
    int want = method ? 0 : 1;
    if (call->list2.n) {
        ty_error(fn, call->list2.items[0]->loc, "%s%s() takes no keyword arguments", spell, name);
        return verr();
    }
    if (call->list.n != want) {
        ty_error(fn, call->loc, method ? "a.%s() takes no arguments" : "np.%s() takes one array",
                 name);
        return verr();
    }
    Val a = method ? vval(self.t, self.v) : ty_value(fn, call->list.items[0]);
    if (a.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY || a.t->ndim < 1) {
        ty_error(fn, call->loc, "%s%s() of %s is not supported (numjit supports an array here)",
                 spell, name, a.t->name);
        return verr();
    }
    if (fn->tc->target != TARGET_CPU || a.t->addrspace != AS_GENERIC) {
        ty_error(fn, call->loc, "%s%s() makes new arrays, which CUDA code cannot do", spell, name);
        return verr();
    }
    return find_true(fn, !strcmp(name, "where") ? "nonzero" : name, a, call->loc);
}

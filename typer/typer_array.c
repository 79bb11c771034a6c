/* typer_array.c — arrays beyond single elements: views made by basic slicing (a[1:5], a[::-1],
 * a[:, j], a[i] of a 2-d array) and transposes, assignment into a view (a[1:5] = 0.0,
 * a[:, 0] = b, a[1:3] = row broadcast; a source overlapping the target in a way no walk
 * order can handle is copied first, the only allocation here), the whole-array reductions
 * (sum prod min max mean var std argmin argmax any all, as methods and as np.NAME; with an
 * axis they go to typer_axis.c).  np.dot and @ are in typer_linalg.c.
 *
 * A view is one IR_VIEW: the typer clamps each slice's bounds as Python's slice.indices does
 * (IR selects; a step of unknown sign computes both cases), checks a variable step for zero
 * (ValueError at run time, as Numba), and gives the result Numba's layout
 * (numba/core/typing/arraydecl.py, get_array_index_type): a C array stays C when every index
 * but the innermost given one is an integer and that one is an integer or a slice without a
 * step; an F array likewise from the right, only when all its dimensions are indexed; A stays A.
 *
 * Reductions are expanded into loops over the elements, each one Numba's implementation
 * (numba/np/arraymath.py) written out in IR: the same accumulator types (sum of int32 is int64,
 * of float32 float32; mean of ints float64), the same visiting order (np.nditer: memory order
 * for C and F arrays, C order otherwise; argmin/argmax walk .flat, C order), the same early
 * exits (a NaN ends min, max, argmin and argmax) and the same errors (ValueError on an empty
 * min/max/argmin/argmax, ZeroDivisionError for the mean of nothing under the 'python' error
 * model).  An element loop (ELoop) is a nest of counted loops, one per dimension, whose body
 * sees each dimension's index; early exits branch to its exit block.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <string.h>


/* ---- small IR builders -------------------------------------------------------------------- */
static IrInst *dimop(Fn *fn, IrOp op, IrInst *arr, int d, Loc loc) {
    IrInst *in = ty_emit(fn, op, ty_i64, loc, 1, &arr);
    if (in)
        in->imm.index = d;
    return in;
}

static IrInst *zero_of(Fn *fn, const Type *t, int v, Loc loc) {
    return ty_is_float(t) ? ty_const_float(fn, t, v, loc) : ty_const_int(fn, t, v, loc);
}

static IrInst *size_of(Fn *fn, IrInst *arr, const Type *at, Loc loc) {
    IrInst *n = i64c(fn, 1, loc);
    for (int d = 0; d < at->ndim; d++)
        n = bin(fn, IR_MUL, ty_i64, n, dimop(fn, IR_SHAPE, arr, d, loc), loc);
    return n;
}

/* ---- element loops -------------------------------------------------------------------------- */
typedef struct ELoop {
    int nd;
    int order[TY_MAX_NDIM]; /* dimensions from the outermost loop in */
    int ctr[TY_MAX_NDIM];   /* counter variable of each dimension */
    IrBlock *head[TY_MAX_NDIM], *latch[TY_MAX_NDIM];
    bool backward;
    IrBlock *exit;          /* after the loops: early exits branch here */
    IrInst *idx[TY_MAX_NDIM];
} ELoop;

/* Opens loops over every index of arr's shape, the last dimension innermost (the first when
 * f_order), each counting down when backward.  Emission only.  The current block becomes the
 * body, where L->idx[d] is the index of dimension d. */
static void eloop_open(Fn *fn, ELoop *L, IrInst *arr, int nd, bool f_order, bool backward,
                       Loc loc) {
    L->nd = nd;
    L->backward = backward;
    L->exit = ty_block(fn);
    IrBlock *out = L->exit;
    for (int j = 0; j < nd; j++) {
        int d = L->order[j] = f_order ? nd - 1 - j : j;
        IrInst *ext = dimop(fn, IR_SHAPE, arr, d, loc);
        L->ctr[d] = ty_temp_var(fn, ty_i64);
        ty_store_var(fn, L->ctr[d], backward ? bin(fn, IR_SUB, ty_i64, ext, i64c(fn, 1, loc), loc)
                                      : i64c(fn, 0, loc), loc);
        L->head[j] = ty_block(fn);
        L->latch[j] = ty_block(fn);
        IrBlock *body = ty_block(fn);
        ty_br(fn, L->head[j], loc);
        ty_set_block(fn, L->head[j]);
        IrInst *c = ty_load_var(fn, L->ctr[d], ty_i64, loc);
        IrInst *go = backward ? cmp(fn, CMP_GE, c, i64c(fn, 0, loc), loc) : cmp(fn, CMP_LT, c, ext, loc);
        ty_condbr(fn, go, body, out, loc);
        ty_set_block(fn, body);
        out = L->latch[j];
    }
    for (int d = 0; d < nd; d++)
        L->idx[d] = ty_load_var(fn, L->ctr[d], ty_i64, loc);
}

/* Closes the loops; the current block becomes L->exit. */
static void eloop_close(Fn *fn, ELoop *L, Loc loc) {
    for (int j = L->nd - 1; j >= 0; j--) {
        int d = L->order[j];
        ty_br(fn, L->latch[j], loc);
        ty_set_block(fn, L->latch[j]);
        IrInst *c = ty_load_var(fn, L->ctr[d], ty_i64, loc);
        IrInst *next = bin(fn, L->backward ? IR_SUB : IR_ADD, ty_i64, c, i64c(fn, 1, loc), loc);
        ty_store_var(fn, L->ctr[d], next, loc);
        ty_br(fn, L->head[j], loc);
    }
    ty_br(fn, L->exit, loc);
    ty_set_block(fn, L->exit);
}

static IrInst *eloop_load(Fn *fn, ELoop *L, IrInst *arr, const Type *at, Loc loc) {
    IrInst *args[1 + TY_MAX_NDIM];
    args[0] = arr;
    for (int d = 0; d < at->ndim; d++)
        args[1 + d] = L->idx[d];
    return ty_emit(fn, IR_ALOAD, at->dtype, loc, 1 + at->ndim, args);
}

static void eloop_store(Fn *fn, ELoop *L, IrInst *arr, const Type *at, IrInst *v, Loc loc) {
    IrInst *args[2 + TY_MAX_NDIM];
    args[0] = arr;
    for (int d = 0; d < at->ndim; d++)
        args[1 + d] = L->idx[d];
    args[1 + at->ndim] = v;
    ty_emit(fn, IR_ASTORE, ty_void, loc, 2 + at->ndim, args);
}

/* In an element loop's body: leave the loops when c holds (after storing v into var). */
static void exit_if(Fn *fn, ELoop *L, IrInst *c, int var, IrInst *v, Loc loc) {
    IrBlock *hit = ty_block(fn), *cont = ty_block(fn);
    ty_condbr(fn, c, hit, cont, loc);
    ty_set_block(fn, hit);
    ty_store_var(fn, var, v, loc);
    ty_br(fn, L->exit, loc);
    ty_set_block(fn, cont);
}

/* ---- views ---------------------------------------------------------------------------------- */
typedef enum { IX_INT, IX_SLICE, IX_STEP } IxKind; /* an integer, a slice without/with a step */

static Node *index_item(Node *ix, int k) { return ix->kind == ND_TUPLE ? ix->list.items[k] : ix; }
static int index_count(Node *ix) { return ix->kind == ND_TUPLE ? ix->list.n : 1; }
static Node *slice_part(Node *e) { return e && e->kind != ND_NONE ? e : NULL; }

bool ty_array_has_slice(const Type *at, Node *ix) {
    int n = index_count(ix);
    if (n < at->ndim)
        return true;
    for (int k = 0; k < n; k++)
        if (index_item(ix, k)->kind == ND_SLICE)
            return true;
    return false;
}

/* Numba's layout of a view (see the file comment); k[0..n-1] are the given indices. */
static ArrayLayout view_layout(const Type *at, const IxKind *k, int n) {
    bool keep = true;
    if (at->layout == LAYOUT_C) {
        for (int i = 0; i < n; i++)
            keep &= k[i] == IX_INT || (i == n - 1 && k[i] == IX_SLICE);
    } else if (at->layout == LAYOUT_F) {
        keep = n == at->ndim;
        for (int i = n - 1; i >= 0 && keep; i--)
            keep &= k[i] == IX_INT || (i == 0 && k[i] == IX_SLICE);
    }
    return keep ? at->layout : LAYOUT_A;
}

static IrInst *clamp(Fn *fn, IrInst *x, IrInst *lo, IrInst *hi, Loc loc) {
    x = sel(fn, ty_i64, cmp(fn, CMP_LT, x, lo, loc), lo, x, loc);
    return sel(fn, ty_i64, cmp(fn, CMP_GT, x, hi, loc), hi, x, loc);
}

/* start and length of lo:hi:step over ext for a step of the given sign (slice.indices). */
static void slice_bounds(Fn *fn, IrInst *lo, IrInst *hi, IrInst *step, int sign, IrInst *ext,
                         IrInst **start, IrInst **len, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc), *one = i64c(fn, 1, loc);
    IrInst *min = sign > 0 ? zero : i64c(fn, -1, loc);
    IrInst *max = sign > 0 ? ext : bin(fn, IR_SUB, ty_i64, ext, one, loc);
    IrInst *b[2] = {lo, hi}, *r[2];
    for (int k = 0; k < 2; k++) {
        if (!b[k]) { /* defaults: 0:ext going up, ext-1:-1 going down */
            r[k] = sign > 0 ? (k == 0 ? zero : ext) : (k == 0 ? max : min);
            continue;
        }
        IrInst *wrapped = bin(fn, IR_ADD, ty_i64, b[k], ext, loc);
        r[k] = clamp(fn, sel(fn, ty_i64, cmp(fn, CMP_LT, b[k], zero, loc), wrapped, b[k], loc), min,
                     max, loc);
    }
    IrInst *from = r[0], *to = r[1], *span, *by = step;
    if (sign > 0) { /* stop > start ? (stop - start + step - 1) // step : 0 */
        span = bin(fn, IR_SUB, ty_i64, to, from, loc);
    } else { /* start > stop ? (start - stop - step - 1) // -step : 0 */
        span = bin(fn, IR_SUB, ty_i64, from, to, loc);
        by = bin(fn, IR_SUB, ty_i64, zero, step, loc);
    }
    IrInst *n = bin(fn, IR_FLOORDIV, ty_i64,
                    bin(fn, IR_SUB, ty_i64, bin(fn, IR_ADD, ty_i64, span, by, loc), one, loc), by, loc);
    *start = from;
    *len = sel(fn, ty_i64, cmp(fn, CMP_GT, span, zero, loc), n, zero, loc);
}

static bool int_index(Fn *fn, Node *e, IrInst **out, const Type **type) {
    Val v = ty_value(fn, e);
    if (v.k != V_VAL)
        return false;
    if (!ty_is_int(v.t) && v.t != ty_bool) {
        ty_error(fn, e->loc, "%s must be an integer, not %s",
                 e->kind == ND_SLICE ? "a slice bound" : "array index", v.t->name);
        return false;
    }
    *out = ty_cast(fn, v.v, v.t, ty_i64, e->loc);
    if (type)
        *type = v.t;
    return true;
}

/* The operands start, length, step of dimension d sliced by e (NULL: the whole dimension). */
static IrInst *shape_of(Fn *fn, IrInst *arr, int d, Loc loc) {
    return dimop(fn, IR_SHAPE, arr, d, loc);
}

static bool slice_operands(Fn *fn, IrInst *arr, int d, Node *e, IrInst **out, Loc loc) {
    return ty_slice_indices(fn, e, shape_of, arr, d, out, loc);
}

bool ty_slice_indices(Fn *fn, Node *e, TyExtentFn extent_of, IrInst *seq, int d, IrInst **out,
                      Loc loc) {
    Node *parts[3] = {e ? slice_part(e->a) : NULL, e ? slice_part(e->b) : NULL,
                      e ? slice_part(e->c) : NULL};
    IrInst *v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (!parts[k])
            continue;
        Val x = ty_value(fn, parts[k]);
        if (x.k != V_VAL)
            return false;
        if (!ty_is_int(x.t) && x.t != ty_bool) {
            ty_error(fn, parts[k]->loc, "slice indices must be integers, not %s", x.t->name);
            return false;
        }
        v[k] = ty_cast(fn, x.v, x.t, ty_i64, parts[k]->loc);
    }
    if (!fn->emit)
        return true;
    Loc sl = e ? e->loc : loc;
    IrInst *ext = extent_of(fn, seq, d, loc);
    IrInst *step = v[2] ? v[2] : i64c(fn, 1, loc);
    int sign = 0;
    if (step && step->op == IR_CONST)
        sign = step->imm.i > 0 ? 1 : step->imm.i < 0 ? -1 : 0;
    if (!sign)
        ty_raise_if(fn, cmp(fn, CMP_EQ, step, i64c(fn, 0, sl), sl), RAISE_VALUE,
                 "slice step cannot be zero", sl);
    if (!v[0] && !v[1] && step->op == IR_CONST && (step->imm.i == 1 || step->imm.i == -1)) {
        /* a whole dimension, forward or reversed */
        out[0] = sign > 0 ? i64c(fn, 0, sl) : bin(fn, IR_SUB, ty_i64, ext, i64c(fn, 1, sl), sl);
        out[1] = ext;
    } else if (sign) {
        slice_bounds(fn, v[0], v[1], step, sign, ext, &out[0], &out[1], sl);
    } else { /* the step's sign is known at run time only: both, selected */
        IrInst *s1, *n1, *s2, *n2;
        slice_bounds(fn, v[0], v[1], step, 1, ext, &s1, &n1, sl);
        slice_bounds(fn, v[0], v[1], step, -1, ext, &s2, &n2, sl);
        IrInst *up = cmp(fn, CMP_GT, step, i64c(fn, 0, sl), sl);
        out[0] = sel(fn, ty_i64, up, s1, s2, sl);
        out[1] = sel(fn, ty_i64, up, n1, n2, sl);
    }
    out[2] = step;
    return true;
}

Val ty_array_view(Fn *fn, Val arr, Node *ix, Loc loc) {
    const Type *at = arr.t;
    int n = index_count(ix);
    if (n > at->ndim) {
        ty_error(fn, ix->loc, "too many indices for %s: %d given", at->name, n);
        return verr();
    }
    IxKind kinds[TY_MAX_NDIM];
    IrInst *ops[1 + 3 * TY_MAX_NDIM];
    int nops = 1, out_nd = 0;
    int64_t mask = 0;
    ops[0] = arr.v;
    for (int d = 0; d < at->ndim; d++) {
        Node *e = d < n ? index_item(ix, d) : NULL;
        if (e && e->kind != ND_SLICE) {
            kinds[d] = IX_INT;
            const Type *it = NULL;
            if (!int_index(fn, e, &ops[nops], &it))
                return verr();
            ops[nops] = ty_bounds_check(fn, arr.v, ops[nops], it, d, e->loc);
            nops++;
            continue;
        }
        kinds[d] = e && slice_part(e->c) ? IX_STEP : IX_SLICE;
        mask |= (int64_t)1 << d;
        out_nd++;
        if (!slice_operands(fn, arr.v, d, e, ops + nops, loc))
            return verr();
        nops += 3;
    }
    const Type *rt = ty_array_ex(at->dtype, out_nd, view_layout(at, kinds, n), at->addrspace,
                                 at->readonly);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *v = ty_emit(fn, IR_VIEW, rt, loc, nops, ops);
    if (v)
        v->imm.i = mask;
    return vval(rt, v);
}

Val ty_array_row(Fn *fn, Val arr, IrInst *i, Loc loc) {
    const Type *at = arr.t;
    IxKind k = IX_INT;
    const Type *rt = ty_array_ex(at->dtype, at->ndim - 1, view_layout(at, &k, 1), at->addrspace,
                                 at->readonly);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *ops[1 + 3 * TY_MAX_NDIM];
    int nops = 0;
    ops[nops++] = arr.v;
    ops[nops++] = i;
    for (int d = 1; d < at->ndim; d++) {
        ops[nops++] = i64c(fn, 0, loc);
        ops[nops++] = dimop(fn, IR_SHAPE, arr.v, d, loc);
        ops[nops++] = i64c(fn, 1, loc);
    }
    IrInst *v = ty_emit(fn, IR_VIEW, rt, loc, nops, ops);
    if (v)
        v->imm.i = ((int64_t)1 << at->ndim) - 2;
    return vval(rt, v);
}

static Val transpose(Fn *fn, Val a, Loc loc) {
    const Type *at = a.t;
    if (at->ndim < 2)
        return a;
    ArrayLayout lay = at->layout == LAYOUT_C ? LAYOUT_F : at->layout == LAYOUT_F ? LAYOUT_C : LAYOUT_A;
    const Type *rt = ty_array_ex(at->dtype, at->ndim, lay, at->addrspace, at->readonly);
    return vval(rt, ty_emit(fn, IR_TRANSPOSE, rt, loc, 1, &a.v));
}

/* a.transpose(axes), a.transpose(i, j, ...), np.transpose(a, axes): a view of layout A whose
 * dimension k is a's dimension axes[k], as Numba's array_transpose_tuple: the axes are values
 * (literal or not), checked when it runs with Numba's messages (repeated raw values, then
 * each below ndim and at most ndim in magnitude; a negative one counts from the end).  `at`
 * locates the axes for the type errors; ax holds n integer values. */
static Val transpose_by(Fn *fn, Val a, Val *ax, int n, Node *at, Loc loc) {
    int nd = a.t->ndim;
    for (int i = 0; i < n; i++)
        if (!ty_is_int(ax[i].t)) {
            ty_error(fn, at->loc, "transpose() axes must be integers, not %s", ax[i].t->name);
            return verr();
        }
    if (n != nd) {
        ty_error(fn, at->loc, "transpose() of %s takes %d ax%s, not %d", a.t->name, nd,
                 nd == 1 ? "is" : "es", n);
        return verr();
    }
    const Type *rt = ty_array_ex(a.t->dtype, nd, LAYOUT_A, a.t->addrspace, a.t->readonly);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *raw[TY_MAX_NDIM], *ops[1 + TY_MAX_NDIM] = {a.v};
    IrInst *nd_c = i64c(fn, nd, loc), *neg_nd = i64c(fn, -nd, loc), *zero = i64c(fn, 0, loc);
    IrInst *rep = NULL, *oob = NULL;
    for (int i = 0; i < n; i++) {
        raw[i] = ty_cast(fn, ax[i].v, ax[i].t, ty_i64, loc);
        for (int j = 0; j < i; j++) {
            IrInst *c = cmp(fn, CMP_EQ, raw[j], raw[i], loc);
            rep = rep ? bin(fn, IR_BITOR, ty_bool, rep, c, loc) : c;
        }
        IrInst *c = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_GE, raw[i], nd_c, loc),
                        cmp(fn, CMP_LT, raw[i], neg_nd, loc), loc);
        oob = oob ? bin(fn, IR_BITOR, ty_bool, oob, c, loc) : c;
        ops[1 + i] = sel(fn, ty_i64, cmp(fn, CMP_LT, raw[i], zero, loc),
                         bin(fn, IR_ADD, ty_i64, raw[i], nd_c, loc), raw[i], loc);
    }
    if (rep)
        ty_raise_if(fn, rep, RAISE_VALUE, "repeated axis in transpose", loc);
    ty_raise_if(fn, oob, RAISE_VALUE, "axis is out of bounds for array of given dimension", loc);
    return vval(rt, ty_emit(fn, IR_TRANSPOSE, rt, loc, 1 + n, ops));
}

/* The axes argument of transpose (one value): None, an integer (a 1-d array's only axis) or a
 * tuple of integers. */
static Val transpose_arg(Fn *fn, Val a, Val v, Node *at, Loc loc) {
    if (v.t == ty_void) /* None */
        return transpose(fn, a, loc);
    if (ty_is_int(v.t) && a.t->ndim == 1)
        return a; /* Numba: the array itself */
    if (v.t->kind != TY_TUPLE)
        return transpose_by(fn, a, &v, 1, at, loc);
    Val ax[TY_MAX_NDIM];
    int n = v.t->nelems;
    if (n > TY_MAX_NDIM)
        return transpose_by(fn, a, ax, n, at, loc);
    for (int i = 0; i < n; i++) {
        IrInst *x = ty_emit(fn, IR_EXTRACT, v.t->elems[i], loc, 1, &v.v);
        if (x)
            x->imm.index = i;
        ax[i] = vval(v.t->elems[i], x);
    }
    return transpose_by(fn, a, ax, n, at, loc);
}

/* ---- assignment into a view ----------------------------------------------------------------- */
/* The byte extent [lo, hi) of array a's elements (size > 0). */
static void byte_extent(Fn *fn, IrInst *a, const Type *at, IrInst **lo, IrInst **hi, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc);
    *lo = *hi = ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &a);
    for (int d = 0; d < at->ndim; d++) {
        IrInst *last = bin(fn, IR_MUL, ty_i64,
                           bin(fn, IR_SUB, ty_i64, dimop(fn, IR_SHAPE, a, d, loc), i64c(fn, 1, loc), loc),
                           dimop(fn, IR_STRIDE, a, d, loc), loc);
        IrInst *neg = cmp(fn, CMP_LT, last, zero, loc);
        *lo = bin(fn, IR_ADD, ty_i64, *lo, sel(fn, ty_i64, neg, last, zero, loc), loc);
        *hi = bin(fn, IR_ADD, ty_i64, *hi, sel(fn, ty_i64, neg, zero, last, loc), loc);
    }
    *hi = bin(fn, IR_ADD, ty_i64, *hi, i64c(fn, ty_size(at->dtype), loc), loc);
}

static void copy_loop(Fn *fn, Val dst, Val src, bool backward, Loc loc) {
    ELoop L;
    eloop_open(fn, &L, dst.v, dst.t->ndim, dst.t->layout == LAYOUT_F, backward, loc);
    IrInst *x = eloop_load(fn, &L, src.v, src.t, loc);
    eloop_store(fn, &L, dst.v, dst.t, ty_cast(fn, x, src.t->dtype, dst.t->dtype, loc), loc);
    eloop_close(fn, &L, loc);
}

/* dst[...] = src[...] elementwise, src broadcast (NumPy's rules: fewer dimensions, aligned on
 * the right; an extent of 1 stretches). */
static void bcast_loop(Fn *fn, Val dst, Val src, Loc loc) {
    int nd = dst.t->ndim, ns = src.t->ndim;
    IrInst *one[TY_MAX_NDIM];
    for (int j = 0; j < ns; j++)
        one[j] = cmp(fn, CMP_EQ, dimop(fn, IR_SHAPE, src.v, j, loc), i64c(fn, 1, loc), loc);
    ELoop L;
    eloop_open(fn, &L, dst.v, nd, dst.t->layout == LAYOUT_F, false, loc);
    IrInst *args[1 + TY_MAX_NDIM];
    args[0] = src.v;
    for (int j = 0; j < ns; j++)
        args[1 + j] = sel(fn, ty_i64, one[j], i64c(fn, 0, loc), L.idx[nd - ns + j], loc);
    IrInst *x = ty_emit(fn, IR_ALOAD, src.t->dtype, loc, 1 + ns, args);
    eloop_store(fn, &L, dst.v, dst.t, ty_cast(fn, x, src.t->dtype, dst.t->dtype, loc), loc);
    eloop_close(fn, &L, loc);
}

/* The loop of copy_into: through a C copy of src when `through` holds at run time (CPU only:
 * a copy is an allocation). */
static void copy_or_through(Fn *fn, Val dst, Val src, IrInst *through, Loc loc) {
    void (*body)(Fn *, Val, Val, Loc) = src.t->ndim < dst.t->ndim ? bcast_loop : NULL;
    IrBlock *tb = ty_block(fn), *db = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, through, tb, db, loc);
    ty_set_block(fn, tb);
    Val tmp = ty_array_convert(fn, src, ty_array(src.t->dtype, src.t->ndim, LAYOUT_C), loc);
    if (tmp.k == V_VAL && tmp.v) {
        if (body)
            body(fn, dst, tmp, loc);
        else
            copy_loop(fn, dst, tmp, false, loc);
    }
    ty_br(fn, done, loc);
    ty_set_block(fn, db);
    if (body)
        body(fn, dst, src, loc);
    else
        copy_loop(fn, dst, src, false, loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
}

/* dst[...] = src elementwise: the same shapes, or src with fewer dimensions broadcast.  Source
 * and destination may share memory: identical views copy in any order; 1-d views with one
 * stride copy like memmove (backward when the destination lies ahead in the direction of the
 * walk); other overlaps copy the source first (NumPy's and Numba's meaning), which CUDA code
 * cannot do: ValueError there. */
static void copy_into(Fn *fn, Val dst, Val src, Loc loc) {
    const Type *dt = dst.t;
    int ns = src.t->ndim, off = dt->ndim - ns;
    bool cpu = fn->tc->target == TARGET_CPU && dt->addrspace == AS_GENERIC &&
               src.t->addrspace == AS_GENERIC;
    for (int j = 0; j < ns; j++) {
        IrInst *se = dimop(fn, IR_SHAPE, src.v, j, loc);
        IrInst *bad = cmp(fn, CMP_NE, dimop(fn, IR_SHAPE, dst.v, off + j, loc), se, loc);
        if (off)
            bad = bin(fn, IR_BITAND, ty_bool, bad, cmp(fn, CMP_NE, se, i64c(fn, 1, loc), loc), loc);
        ty_raise_if(fn, bad, RAISE_VALUE, "cannot assign slice from input of different size", loc);
    }
    IrInst *dlo, *dhi, *slo, *shi;
    byte_extent(fn, dst.v, dt, &dlo, &dhi, loc);
    byte_extent(fn, src.v, src.t, &slo, &shi, loc);
    IrInst *zero = i64c(fn, 0, loc);
    IrInst *overlap = bin(fn, IR_BITAND, ty_bool,
                          bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_LT, dlo, shi, loc), cmp(fn, CMP_LT, slo, dhi, loc), loc),
                          bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_GT, size_of(fn, dst.v, dt, loc), zero, loc),
                              cmp(fn, CMP_GT, size_of(fn, src.v, src.t, loc), zero, loc), loc), loc);
    if (off) {
        if (cpu)
            copy_or_through(fn, dst, src, overlap, loc);
        else {
            ty_raise_if(fn, overlap, RAISE_VALUE, "numjit cannot assign between overlapping arrays "
                     "in CUDA code", loc);
            bcast_loop(fn, dst, src, loc);
        }
        return;
    }
    IrInst *same_strides = ty_const_int(fn, ty_bool, 1, loc);
    for (int d = 0; d < dt->ndim; d++)
        same_strides = bin(fn, IR_BITAND, ty_bool, same_strides,
                           cmp(fn, CMP_EQ, dimop(fn, IR_STRIDE, dst.v, d, loc), dimop(fn, IR_STRIDE, src.v, d, loc), loc), loc);
    IrInst *da = ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &dst.v);
    IrInst *sa = ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &src.v);
    IrInst *identical = bin(fn, IR_BITAND, ty_bool, same_strides, cmp(fn, CMP_EQ, da, sa, loc), loc);
    IrInst *movable = dt->ndim == 1 ? same_strides : identical;
    IrInst *bad = bin(fn, IR_BITAND, ty_bool, overlap, ty_emit(fn, IR_NOT, ty_bool, loc, 1, &movable), loc);
    if (!cpu)
        ty_raise_if(fn, bad, RAISE_VALUE,
                 "numjit cannot assign between overlapping arrays with different strides in CUDA "
                 "code", loc);
    if (dt->ndim != 1) {
        if (cpu)
            copy_or_through(fn, dst, src, bad, loc);
        else
            copy_loop(fn, dst, src, false, loc);
        return;
    }
    /* 1-d: backward when the destination is ahead of the source in the walk's direction */
    IrInst *ahead = cmp(fn, CMP_GT, da, sa, loc);
    IrInst *up = cmp(fn, CMP_GT, dimop(fn, IR_STRIDE, dst.v, 0, loc), zero, loc);
    IrInst *back = bin(fn, IR_BITAND, ty_bool, bin(fn, IR_BITAND, ty_bool, overlap, same_strides, loc),
                       cmp(fn, CMP_EQ, ahead, up, loc), loc);
    IrBlock *bb = ty_block(fn), *fb = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, back, bb, fb, loc);
    ty_set_block(fn, bb);
    copy_loop(fn, dst, src, true, loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, fb);
    if (cpu)
        copy_or_through(fn, dst, src, bad, loc);
    else
        copy_loop(fn, dst, src, false, loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
}

void ty_array_copy(Fn *fn, Val dst, Val src, Loc loc) { copy_into(fn, dst, src, loc); }

static bool uniform(const Type *tup) {
    for (int i = 1; i < tup->nelems; i++)
        if (tup->elems[i] != tup->elems[0])
            return false;
    return true;
}

/* a[k] = (x, y) into a 1-d view: a tuple of one element type is a sequence to Numba, stored
 * item by item after its length is checked against the view's (Numba's fancy_setslice) */
static void assign_sequence(Fn *fn, Val dst, Val v, Loc loc) {
    const Type *et = v.t->nelems ? v.t->elems[0] : ty_i64;
    if (!ty_is_elem(et) || (ty_is_complex(et) && !ty_is_complex(dst.t->dtype))) {
        ty_error(fn, loc, "cannot assign %s to a view of %s", v.t->name, dst.t->name);
        return;
    }
    if (!fn->emit)
        return;
    IrInst *n = dimop(fn, IR_SHAPE, dst.v, 0, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, n, i64c(fn, v.t->nelems, loc), loc), RAISE_VALUE,
                "cannot assign slice from input of different size", loc);
    for (int i = 0; i < v.t->nelems; i++) {
        IrInst *x = ty_emit(fn, IR_EXTRACT, et, loc, 1, &v.v);
        if (x)
            x->imm.index = i;
        IrInst *args[3] = {dst.v, i64c(fn, i, loc), ty_cast(fn, x, et, dst.t->dtype, loc)};
        ty_emit(fn, IR_ASTORE, ty_void, loc, 3, args);
    }
}

void ty_array_assign(Fn *fn, Val arr, Node *ix, Val v, Loc loc) {
    Val dst = ty_array_view(fn, arr, ix, loc);
    if (dst.k != V_VAL)
        return;
    const Type *dt = dst.t;
    if (v.t->kind == TY_ARRAY) {
        if (v.t->ndim > dt->ndim) {
            ty_error(fn, loc, "cannot assign %s to a %d-d view (%s): too many dimensions",
                     v.t->name, dt->ndim, dt->name);
            return;
        }
        if (fn->emit)
            copy_into(fn, dst, v, loc);
        return;
    }
    if (v.t->kind == TY_TUPLE && dt->ndim == 1 && uniform(v.t)) {
        assign_sequence(fn, dst, v, loc); /* traj[k] = x, y */
        return;
    }
    if (!ty_is_elem(v.t) || (ty_is_complex(v.t) && !ty_is_complex(arr.t->dtype))) {
        ty_error(fn, loc, "cannot assign %s to a view of %s", v.t->name, arr.t->name);
        return;
    }
    if (!fn->emit)
        return;
    IrInst *x = ty_cast(fn, v.v, v.t, dt->dtype, loc);
    ELoop L;
    eloop_open(fn, &L, dst.v, dt->ndim, dt->layout == LAYOUT_F, false, loc);
    eloop_store(fn, &L, dst.v, dt, x, loc);
    eloop_close(fn, &L, loc);
}

/* ---- reductions ----------------------------------------------------------------------------- */
/* Numba's _expand_integer: ints widen to 64 bits (signedness kept), bool counts as int64. */
static const Type *expand_int(const Type *t) {
    return t == ty_bool ? ty_i64 : ty_is_int(t) ? ty_int_widen(t) : t;
}
/* the type of a mean: a float or complex dtype's own, float64 for ints and bools */
static const Type *real_of(const Type *t) {
    return ty_is_float(t) || ty_is_complex(t) ? t : ty_f64;
}

/* var = var op x, by the rules of the operator, stored back in var's type t */
static void accumulate(Fn *fn, int var, const Type *t, OpKind op, Val x, Loc loc) {
    Val r = ty_binop(fn, op, vval(t, ty_load_var(fn, var, t, loc)), x, loc);
    if (r.k == V_VAL)
        ty_store_var(fn, var, ty_cast(fn, r.v, r.t, t, loc), loc);
}

static bool f_order(const Type *at) { return at->layout == LAYOUT_F; }

/* Numba's reductions are compiled with the 'python' error model whatever the caller's, so
 * the mean of nothing raises ZeroDivisionError under error_model='numpy' too, with Numba's
 * message for a float division ("division by zero", as ty_binop's check under 'python'). */
static void check_count(Fn *fn, IrInst *n, Loc loc) {
    ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_ZERO_DIVISION,
                "division by zero", loc);
}

/* sum / prod / the sum of mean, accumulated in rt */
static IrInst *fold(Fn *fn, Val a, const Type *rt, OpKind op, Loc loc) {
    int acc = ty_temp_var(fn, rt);
    ty_store_var(fn, acc, zero_of(fn, rt, op == OP_MUL, loc), loc);
    ELoop L;
    eloop_open(fn, &L, a.v, a.t->ndim, f_order(a.t), false, loc);
    accumulate(fn, acc, rt, op, vval(a.t->dtype, eloop_load(fn, &L, a.v, a.t, loc)), loc);
    eloop_close(fn, &L, loc);
    return ty_load_var(fn, acc, rt, loc);
}

static Val mean(Fn *fn, Val a, Loc loc) {
    const Type *rt = real_of(a.t->dtype);
    if (!fn->emit)
        return vval(rt, NULL);
    Val s = vval(rt, fold(fn, a, rt, OP_ADD, loc));
    IrInst *n = size_of(fn, a.v, a.t, loc);
    check_count(fn, n, loc);
    Val q = ty_binop(fn, OP_DIV, s, vval(ty_i64, n), loc);
    return vval(rt, ty_cast(fn, q.v, q.t, rt, loc));
}

/* var: the mean of the squared differences from the mean (NumPy's ddof=0); std: its ** 0.5 */
static Val variance(Fn *fn, Val a, bool std, Loc loc) {
    const Type *dt = a.t->dtype, *rt = ty_is_complex(dt) ? ty_complex_part(dt) : real_of(dt);
    if (!fn->emit)
        return vval(rt, NULL);
    Val m = mean(fn, a, loc);
    int ssd = ty_temp_var(fn, ty_f64); /* Numba: ssd = 0, then += a float: float64 */
    ty_store_var(fn, ssd, ty_const_float(fn, ty_f64, 0, loc), loc);
    ELoop L;
    eloop_open(fn, &L, a.v, a.t->ndim, f_order(a.t), false, loc);
    Val d = ty_binop(fn, OP_SUB, vval(a.t->dtype, eloop_load(fn, &L, a.v, a.t, loc)), m, loc);
    Val sq = ty_binop(fn, OP_MUL, d, ty_is_complex(dt) ? ty_complex_conjugate(fn, d, loc) : d, loc);
    if (ty_is_complex(dt)) /* Numba: ssd += np.real(val * np.conj(val)) */
        sq = ty_complex_attr(fn, sq, "real", loc);
    accumulate(fn, ssd, ty_f64, OP_ADD, sq, loc);
    eloop_close(fn, &L, loc);
    IrInst *n = size_of(fn, a.v, a.t, loc);
    check_count(fn, n, loc);
    Val q = ty_binop(fn, OP_DIV, vval(ty_f64, ty_load_var(fn, ssd, ty_f64, loc)), vval(ty_i64, n),
                     loc);
    Val r = vval(rt, ty_cast(fn, q.v, q.t, rt, loc));
    if (std) {
        q = ty_binop(fn, OP_POW, r, vval(ty_f64, ty_const_float(fn, ty_f64, 0.5, loc)), loc);
        r = vval(rt, ty_cast(fn, q.v, q.t, rt, loc));
    }
    return r;
}

/* min/max (arg: argmin/argmax, the flat C-order index): ValueError when empty; the first NaN
 * met is the answer; ties keep the first. */
static Val extreme(Fn *fn, Val a, bool is_max, bool arg, Loc loc) {
    const Type *at = a.t, *dt = at->dtype, *rt = arg ? ty_i64 : dt;
    if (ty_is_complex(dt)) {
        ty_error(fn, loc, "%s of a complex array is not supported by numjit",
                 arg ? (is_max ? "argmax" : "argmin") : (is_max ? "max" : "min"));
        return verr();
    }
    if (!fn->emit)
        return vval(rt, NULL);
    const char *msg = arg ? (is_max ? "attempt to get argmax of an empty sequence"
                                    : "attempt to get argmin of an empty sequence")
                          : (is_max ? "zero-size array to reduction operation maximum which has no identity"
                                    : "zero-size array to reduction operation minimum which has no identity");
    ty_raise_if(fn, cmp(fn, CMP_EQ, size_of(fn, a.v, at, loc), i64c(fn, 0, loc), loc), RAISE_VALUE, msg, loc);
    IrInst *first[1 + TY_MAX_NDIM];
    first[0] = a.v;
    for (int d = 0; d < at->ndim; d++)
        first[1 + d] = i64c(fn, 0, loc);
    int best = ty_temp_var(fn, dt), bi = ty_temp_var(fn, ty_i64), k = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, best, ty_emit(fn, IR_ALOAD, dt, loc, 1 + at->ndim, first), loc);
    ty_store_var(fn, bi, i64c(fn, 0, loc), loc);
    ty_store_var(fn, k, i64c(fn, 0, loc), loc);
    ELoop L;
    eloop_open(fn, &L, a.v, at->ndim, !arg && f_order(at), false, loc);
    IrInst *x = eloop_load(fn, &L, a.v, at, loc);
    IrInst *kv = ty_load_var(fn, k, ty_i64, loc);
    if (ty_is_float(dt)) {
        IrInst *nan = ty_emit(fn, IR_MATH, ty_bool, loc, 1, &x);
        if (nan)
            nan->imm.index = MATH_ISNAN;
        if (arg)
            exit_if(fn, &L, nan, bi, kv, loc);
        else
            exit_if(fn, &L, nan, best, x, loc);
    }
    IrInst *b = ty_load_var(fn, best, dt, loc);
    IrInst *better = cmp(fn, is_max ? CMP_GT : CMP_LT, x, b, loc);
    ty_store_var(fn, best, sel(fn, dt, better, x, b, loc), loc);
    if (arg) {
        IrInst *keep = ty_load_var(fn, bi, ty_i64, loc);
        ty_store_var(fn, bi, sel(fn, ty_i64, better, kv, keep, loc), loc);
        ty_store_var(fn, k, bin(fn, IR_ADD, ty_i64, kv, i64c(fn, 1, loc), loc), loc);
    }
    eloop_close(fn, &L, loc);
    return vval(rt, arg ? ty_load_var(fn, bi, ty_i64, loc) : ty_load_var(fn, best, dt, loc));
}

/* any: some element is true; all: every element is */
static Val any_all(Fn *fn, Val a, bool all, Loc loc) {
    if (!fn->emit)
        return vval(ty_bool, NULL);
    int res = ty_temp_var(fn, ty_bool);
    ty_store_var(fn, res, ty_const_int(fn, ty_bool, all, loc), loc);
    ELoop L;
    eloop_open(fn, &L, a.v, a.t->ndim, f_order(a.t), false, loc);
    IrInst *t = ty_truth(fn, vval(a.t->dtype, eloop_load(fn, &L, a.v, a.t, loc)), loc);
    if (all)
        t = ty_emit(fn, IR_NOT, ty_bool, loc, 1, &t);
    exit_if(fn, &L, t, res, ty_const_int(fn, ty_bool, !all, loc), loc);
    eloop_close(fn, &L, loc);
    return vval(ty_bool, ty_load_var(fn, res, ty_bool, loc));
}

/* ---- attributes and calls ------------------------------------------------------------------- */
static const char *const methods[] = {"sum", "prod", "min", "max", "mean", "var", "std",
                                      "argmin", "argmax", "any", "all", "transpose",
                                      "reshape", "ravel", "flatten", "astype", "cumsum",
                                      "cumprod", NULL};

static const char *lookup(const char *const *table, const char *name) {
    for (int i = 0; table[i]; i++)
        if (!strcmp(table[i], name))
            return table[i];
    return NULL;
}

Val ty_array_attr(Fn *fn, Val a, const char *attr, Loc loc) {
    if (!strcmp(attr, "T"))
        return transpose(fn, a, loc);
    if (!strcmp(attr, "itemsize"))
        return vval(ty_i64, i64c(fn, ty_size(a.t->dtype), loc));
    if (!strcmp(attr, "conjugate") || !strcmp(attr, "conj")) /* the call: typer_arrexpr.c */
        return (Val){.k = V_BUILTIN, .name = "array.conjugate", .np = true, .t = a.t, .v = a.v,
                     .lib = lib_method(attr)};
    if (!strcmp(attr, "real") || !strcmp(attr, "imag")) {
        if (!ty_is_complex(a.t->dtype)) { /* a real array's real part is itself */
            if (attr[0] == 'r')
                return a;
            ty_error(fn, loc, "the imaginary part of a %s array is not supported by numjit "
                     "(it is zero)", a.t->dtype->name);
            return verr();
        }
        const Type *rt = ty_array_ex(ty_complex_part(a.t->dtype), a.t->ndim, LAYOUT_A,
                                     a.t->addrspace, a.t->readonly);
        IrInst *v = ty_emit(fn, IR_CPARTVIEW, rt, loc, 1, &a.v);
        if (v)
            v->imm.index = attr[0] == 'i';
        return vval(rt, v);
    }
    if (!strcmp(attr, "nonzero")) /* the call: typer_index.c */
        return (Val){.k = V_METHOD, .name = "nonzero", .t = a.t, .v = a.v};
    if (!strcmp(attr, "repeat")) /* the call: typer_npfunc.c */
        return (Val){.k = V_METHOD, .name = "repeat", .t = a.t, .v = a.v};
    if (ty_sort_method(attr)) /* a.sort(), a.argsort(): typer_sort.c */
        return (Val){.k = V_METHOD, .name = ty_sort_method(attr), .t = a.t, .v = a.v};
    const char *m = lookup(methods, attr);
    if (m)
        return (Val){.k = V_METHOD, .name = m, .t = a.t, .v = a.v};
    const LibEntry *le = lib_method(attr); /* a.ptp() ...: a row of lib/ndarray.c */
    if (le && le->call && (le->flags & LIB_METHOD))
        return (Val){.k = V_METHOD, .name = le->spell, .t = a.t, .v = a.v};
    return verr();
}

Val ty_array_call(Fn *fn, const char *name, Val self, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    bool method = self.k == V_METHOD;
    const char *spell = method ? "" : "np.";
    Node *axis_node = NULL;
    Val axis = verr();
    bool transposing = !strcmp(name, "transpose");
    const Type *sum_dtype = NULL; /* sum(dtype=...): Numba's array_sum_dtype */
    for (int i = 0; i < call->list2.n; i++) {
        Node *kw = call->list2.items[i];
        if (!strcmp(name, "sum") && !strcmp(kw->name, "dtype") && !sum_dtype) {
            if (!(sum_dtype = ty_np_dtype(fn, kw->a, false)))
                return verr();
            continue;
        }
        if (strcmp(kw->name, transposing ? "axes" : "axis") || axis_node ||
            (transposing && method)) {
            ty_error(fn, kw->loc, "the keyword argument '%s' of %s%s() is not supported by numjit",
                     kw->name, spell, name);
            return verr();
        }
        axis_node = kw->a;
        if ((axis = ty_value(fn, kw->a)).k != V_VAL)
            return verr();
    }
    Val x = method ? vval(self.t, self.v) : n > 0 ? a[0] : verr();
    int nextra = method ? n : n - 1;
    if (x.k != V_VAL || x.t->kind != TY_ARRAY) {
        ty_error(fn, loc, "np.%s() of %s is not supported (numjit supports an array here)", name,
                 x.k == V_VAL ? x.t->name : "nothing");
        return verr();
    }
    bool cumulative = !strcmp(name, "cumsum") || !strcmp(name, "cumprod");
    if (transposing && axis_node) {
        if (nextra) {
            ty_error(fn, axis_node->loc, "np.transpose() got the axes twice");
            return verr();
        }
        return transpose_arg(fn, x, axis, axis_node, loc);
    }
    if (transposing && nextra == 1)
        return transpose_arg(fn, x, a[n - 1], call->list.items[n - 1], loc);
    if (transposing && nextra > 1)
        return transpose_by(fn, x, a + (n - nextra), nextra, call->list.items[n - nextra], loc);
    if (nextra == 1 && !axis_node && !transposing && !cumulative) {
        axis_node = call->list.items[n - 1];
        axis = a[n - 1];
        nextra = 0;
    }
    if (nextra > 0 || (axis_node && cumulative)) {
        Node *at = nextra > 0 ? call->list.items[n - nextra] : axis_node;
        if (cumulative)
            ty_error(fn, at->loc, "%s%s() takes no axis in Numba 0.56 (it scans the flattened "
                     "array)", spell, name);
        else
            ty_error(fn, at->loc, "%s%s() takes at most one argument, the axis", spell, name);
        return verr();
    }
    if (cumulative)
        return ty_cumulative(fn, name, spell, x, loc);
    if (sum_dtype && (axis_node || nextra)) {
        ty_error(fn, (axis_node ? axis_node : call->list.items[n - nextra])->loc,
                 "%ssum() with both an axis and a dtype is not supported by numjit", spell);
        return verr();
    }
    if (sum_dtype && ty_is_complex(x.t->dtype) && !ty_is_complex(sum_dtype)) {
        ty_error(fn, loc, "%ssum() of %s cannot add into %s", spell, x.t->name, sum_dtype->name);
        return verr();
    }
    if (sum_dtype) /* c = dtype(0); c += v for each element, as Numba's array_sum_dtype */
        return vval(sum_dtype, fn->emit ? fold(fn, x, sum_dtype, OP_ADD, loc) : NULL);
    if (axis_node) {
        Val r;
        if (ty_axis_reduce(fn, name, spell, x, axis_node, axis, &r))
            return r;
    }
    if (!strcmp(name, "transpose"))
        return transpose(fn, x, loc);
    if (!strcmp(name, "sum") || !strcmp(name, "prod")) {
        const Type *rt = expand_int(x.t->dtype);
        if (!fn->emit)
            return vval(rt, NULL);
        return vval(rt, fold(fn, x, rt, name[0] == 's' ? OP_ADD : OP_MUL, loc));
    }
    if (!strcmp(name, "mean"))
        return mean(fn, x, loc);
    if (!strcmp(name, "var") || !strcmp(name, "std"))
        return variance(fn, x, name[0] == 's', loc);
    if (!strcmp(name, "any") || !strcmp(name, "all"))
        return any_all(fn, x, name[1] == 'l', loc);
    bool arg = !strncmp(name, "arg", 3);
    const char *mm = arg ? name + 3 : name[0] == 'a' ? name + 1 : name; /* amin -> min */
    return extreme(fn, x, !strcmp(mm, "max"), arg, loc);
}

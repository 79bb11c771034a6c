/* typer_axis.c — the reductions and scans that make a new array from an existing one:
 * a.sum(axis=k), a.argmin(axis=k), a.argmax(axis=k) (also np.sum(a, k) ..., the axis by
 * keyword or by position) and np.cumsum(a) / np.cumprod(a) (also as methods), as Numba 0.56
 * types and runs them (numba/np/arraymath.py: gen_sum_axis_impl,
 * build_argmax_or_argmin_with_axis_impl, array_cumsum, array_cumprod).  Numba 0.56 takes an
 * axis for these three reductions only; prod, mean, min, max, var, std, any and all with an
 * axis are refused with a diagnostic, as Numba refuses them.
 *
 * The result of a reduction along axis k is a new C array of the input's shape without
 * dimension k (a number for a 1-d input: the whole reduction, done by typer_array.c once the
 * axis is checked).  Each element of the result is computed by one loop along dimension k, in
 * index order, which is the order of Numba's `result += arr[..., i, ...]` for the sum (so
 * float sums round alike) and of its flattened argmin/argmax per row.  An axis known only at
 * run time selects one of ndim copies of that loop nest, one per possible axis value; the
 * result's extents are computed with selects before the branch, so one allocation serves
 * every branch.  A literal axis is checked at compile time and leaves one copy.
 *
 * Axis rules, Numba's: sum takes an int64 or a literal axis (an int32 variable does not
 * lower in Numba: a type error here); a negative literal counts from the end; a variable
 * outside 0..3 raises ValueError("Numba does not support sum with axis parameter outside the
 * range 0 to 3."), one beyond the array ValueError("axis is out of bounds for array").
 * argmin/argmax take any integer, negative ones counting from the end, ValueError("axis is
 * out of bounds") otherwise; an empty reduced dimension of an n-d array raises
 * ZeroDivisionError (Numba computes `size % m` there).
 *
 * cumsum/cumprod walk the array in C order (Numba's arr.flat) into a new 1-d C array of the
 * accumulator's type: integers widened to 64 bits (bool to int64), floats kept.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>


/* ---- small IR builders -------------------------------------------------------------------- */
/* a + b or a * b of type t (complex: the part arithmetic of typer_complex.c) */
static IrInst *arith(Fn *fn, IrOp op, const Type *t, IrInst *a, IrInst *b, Loc loc) {
    if (!ty_is_complex(t))
        return bin(fn, op, t, a, b, loc);
    Val r = ty_complex_binop(fn, op == IR_MUL ? OP_MUL : OP_ADD, vval(t, a), vval(t, b), loc);
    return r.k == V_VAL ? r.v : NULL;
}

/* Numba's _expand_integer: ints widen to 64 bits (signedness kept), bool counts as int64. */
static const Type *expand_int(const Type *t) {
    return t == ty_bool ? ty_i64 : ty_is_int(t) ? ty_int_widen(t) : t;
}

static bool literal_int(Node *e, int64_t *x) {
    if (e->kind == ND_INT && !e->str) {
        *x = e->ival;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && e->a->kind == ND_INT && !e->a->str) {
        *x = (int64_t)(0 - (uint64_t)e->a->ival);
        return true;
    }
    return false;
}

static bool can_allocate(Fn *fn, const char *what, const Type *at, Loc loc) {
    if (fn->tc->target == TARGET_CPU && at->addrspace == AS_GENERIC)
        return true;
    ty_error(fn, loc, "%s creates an array, which CUDA code cannot do", what);
    return false;
}

/* ---- reductions along an axis ---------------------------------------------------------------- */
typedef enum { AX_SUM, AX_ARGMIN, AX_ARGMAX } AxisOp;

/* out[...] = the reduction of a along dimension k (known here), for every index of out. */
static void reduce_along(Fn *fn, AxisOp op, Val a, Val out, int k, Loc loc) {
    int nd = a.t->ndim;
    const Type *dt = a.t->dtype, *rt = out.t->dtype;
    TyLoop outer[TY_MAX_NDIM], inner;
    IrInst *oidx[TY_MAX_NDIM] = {NULL}, *idx[TY_MAX_NDIM] = {NULL};
    for (int d = 0; d < nd - 1; d++)
        oidx[d] = ty_loop_open(fn, &outer[d], extent(fn, out.v, d, loc), loc);
    for (int d = 0, j = 0; d < nd; d++)
        if (d != k)
            idx[d] = oidx[j++];
    int acc = ty_temp_var(fn, rt), best = -1;
    if (op == AX_SUM) {
        IrInst *zero = ty_is_float(rt) ? ty_const_float(fn, rt, 0, loc)
                                       : ty_const_int(fn, rt, 0, loc);
        ty_store_var(fn, acc, zero, loc);
    } else {
        idx[k] = i64c(fn, 0, loc);
        best = ty_temp_var(fn, dt);
        ty_store_var(fn, best, ty_aload_at(fn, a, idx, loc), loc);
        ty_store_var(fn, acc, i64c(fn, 0, loc), loc);
    }
    idx[k] = ty_loop_open(fn, &inner, extent(fn, a.v, k, loc), loc);
    IrInst *x = ty_aload_at(fn, a, idx, loc);
    if (op == AX_SUM) {
        IrInst *cur = ty_load_var(fn, acc, rt, loc);
        IrInst *xv = ty_cast(fn, x, dt, rt, loc);
        IrInst *sum = arith(fn, IR_ADD, rt, cur, xv, loc);
        ty_store_var(fn, acc, sum, loc);
    } else {
        if (ty_is_float(dt)) { /* the first NaN is the answer */
            IrInst *nan = ty_emit(fn, IR_MATH, ty_bool, loc, 1, &x);
            if (nan)
                nan->imm.index = MATH_ISNAN;
            IrBlock *hit = ty_block(fn), *go = ty_block(fn);
            ty_condbr(fn, nan, hit, go, loc);
            ty_set_block(fn, hit);
            ty_store_var(fn, acc, idx[k], loc);
            ty_br(fn, inner.exit, loc);
            ty_set_block(fn, go);
        }
        IrInst *b = ty_load_var(fn, best, dt, loc);
        IrInst *better = cmp(fn, op == AX_ARGMAX ? CMP_GT : CMP_LT, x, b, loc);
        ty_store_var(fn, best, sel(fn, dt, better, x, b, loc), loc);
        IrInst *keep = ty_load_var(fn, acc, ty_i64, loc);
        ty_store_var(fn, acc, sel(fn, ty_i64, better, idx[k], keep, loc), loc);
    }
    ty_loop_close(fn, &inner, loc);
    ty_astore_at(fn, out, oidx, ty_load_var(fn, acc, rt, loc), loc);
    for (int d = nd - 2; d >= 0; d--)
        ty_loop_close(fn, &outer[d], loc);
}

bool ty_axis_reduce(Fn *fn, const char *name, const char *spell, Val a, Node *axis_node,
                    Val ax, Val *out) {
    Loc loc = axis_node->loc;
    AxisOp op;
    if (!strcmp(name, "sum"))
        op = AX_SUM;
    else if (!strcmp(name, "argmin"))
        op = AX_ARGMIN;
    else if (!strcmp(name, "argmax"))
        op = AX_ARGMAX;
    else {
        ty_error(fn, loc, "%s%s() does not take an axis (in Numba 0.56 only sum, argmin and "
                 "argmax do; reduce the whole array, or loop)", spell, name);
        *out = verr();
        return true;
    }
    if (ax.k != V_VAL) {
        *out = verr();
        return true;
    }
    int64_t lit = 0;
    bool is_lit = literal_int(axis_node, &lit);
    if (!ty_is_int(ax.t) || (op == AX_SUM && !is_lit && ax.t != ty_i64)) {
        ty_error(fn, loc, "the axis of %s%s() must be %s, not %s", spell, name,
                 op == AX_SUM ? "an int64 or a literal integer" : "an integer", ax.t->name);
        *out = verr();
        return true;
    }
    int nd = a.t->ndim;
    if (is_lit && op == AX_SUM) {
        if (lit < 0)
            lit += nd;
        if (lit < 0 || lit >= nd) {
            ty_error(fn, loc, "axis %lld is out of bounds for %s", (long long)(lit < 0 ? lit - nd : lit),
                     a.t->name);
            *out = verr();
            return true;
        }
    }
    if (nd > 1 && !can_allocate(fn, "a reduction along an axis", a.t, loc)) {
        *out = verr();
        return true;
    }
    const Type *rt = op == AX_SUM ? expand_int(a.t->dtype) : ty_i64;
    const Type *ot = nd > 1 ? ty_array(rt, nd - 1, LAYOUT_C) : rt;
    if (!fn->emit) {
        *out = vval(ot, NULL);
        return nd > 1;
    }
    /* the axis as an int64 in 0..nd-1, checked as Numba checks it */
    IrInst *k;
    if (is_lit && op == AX_SUM) {
        k = i64c(fn, lit, loc);
    } else {
        k = ty_cast(fn, ax.v, ax.t, ty_i64, loc);
        IrInst *zero = i64c(fn, 0, loc);
        if (op == AX_SUM) {
            ty_raise_if(fn, bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, k, zero, loc),
                             cmp(fn, CMP_GT, k, i64c(fn, 3, loc), loc), loc),
                     RAISE_VALUE, "Numba does not support sum with axis parameter outside the "
                     "range 0 to 3.", loc);
            ty_raise_if(fn, cmp(fn, CMP_GE, k, i64c(fn, nd, loc), loc), RAISE_VALUE,
                     "axis is out of bounds for array", loc);
        } else {
            if (!!ty_is_signed(ax.t))
                k = sel(fn, ty_i64, cmp(fn, CMP_LT, k, zero, loc),
                        bin(fn, IR_ADD, ty_i64, k, i64c(fn, nd, loc), loc), k, loc);
            IrInst *bad = cmp(fn, CMP_GE, k, i64c(fn, nd, loc), loc);
            if (!!ty_is_signed(ax.t))
                bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, k, zero, loc), bad, loc);
            ty_raise_if(fn, bad, RAISE_VALUE, "axis is out of bounds", loc);
        }
    }
    if (nd == 1) { /* the whole reduction, by the caller */
        *out = vval(ot, NULL);
        return false;
    }
    /* the extents without dimension k: shape[d] before it, shape[d + 1] from it on */
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; d < nd - 1; d++)
        dims[d] = sel(fn, ty_i64, cmp(fn, CMP_LE, k, i64c(fn, d, loc), loc), extent(fn, a.v, d + 1, loc),
                      extent(fn, a.v, d, loc), loc);
    if (op != AX_SUM) {
        IrInst *ext = extent(fn, a.v, nd - 1, loc);
        for (int d = nd - 2; d >= 0; d--)
            ext = sel(fn, ty_i64, cmp(fn, CMP_EQ, k, i64c(fn, d, loc), loc), extent(fn, a.v, d, loc), ext, loc);
        ty_raise_if(fn, cmp(fn, CMP_EQ, ext, i64c(fn, 0, loc), loc), RAISE_ZERO_DIVISION,
                 "integer modulo by zero", loc);
    }
    Val r = ty_alloc(fn, ot, dims, false, loc);
    if (r.k != V_VAL || !r.v) {
        *out = r;
        return true;
    }
    if (is_lit && op == AX_SUM) {
        reduce_along(fn, op, a, r, (int)lit, loc);
    } else {
        IrBlock *done = ty_block(fn);
        for (int d = 0; d < nd; d++) {
            IrBlock *here = ty_block(fn), *next = d + 1 < nd ? ty_block(fn) : NULL;
            if (next)
                ty_condbr(fn, cmp(fn, CMP_EQ, k, i64c(fn, d, loc), loc), here, next, loc);
            else
                ty_br(fn, here, loc);
            ty_set_block(fn, here);
            reduce_along(fn, op, a, r, d, loc);
            ty_br(fn, done, loc);
            if (next)
                ty_set_block(fn, next);
        }
        ty_set_block(fn, done);
    }
    *out = r;
    return true;
}

/* ---- cumulative sums and products ------------------------------------------------------------ */
Val ty_cumulative(Fn *fn, const char *name, const char *spell, Val a, Loc loc) {
    bool prod = !strcmp(name, "cumprod");
    char what[32];
    snprintf(what, sizeof what, "%s%s()", spell, name);
    if (!can_allocate(fn, what, a.t, loc))
        return verr();
    const Type *rt = expand_int(a.t->dtype), *ot = ty_array(rt, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(ot, NULL);
    int nd = a.t->ndim;
    IrInst *n = i64c(fn, 1, loc);
    for (int d = 0; d < nd; d++)
        n = bin(fn, IR_MUL, ty_i64, n, extent(fn, a.v, d, loc), loc);
    Val r = ty_alloc(fn, ot, &n, false, loc);
    if (r.k != V_VAL || !r.v)
        return r;
    int acc = ty_temp_var(fn, rt), at = ty_temp_var(fn, ty_i64);
    IrInst *init = ty_is_float(rt) ? ty_const_float(fn, rt, prod, loc)
                                   : ty_const_int(fn, rt, prod, loc);
    ty_store_var(fn, acc, init, loc);
    ty_store_var(fn, at, i64c(fn, 0, loc), loc);
    TyLoop L[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++) /* C order: Numba's arr.flat */
        idx[d] = ty_loop_open(fn, &L[d], extent(fn, a.v, d, loc), loc);
    IrInst *x = ty_cast(fn, ty_aload_at(fn, a, idx, loc), a.t->dtype, rt, loc);
    IrInst *cur = ty_load_var(fn, acc, rt, loc);
    IrInst *c = arith(fn, prod ? IR_MUL : IR_ADD, rt, cur, x, loc);
    ty_store_var(fn, acc, c, loc);
    IrInst *i = ty_load_var(fn, at, ty_i64, loc);
    ty_astore_at(fn, r, &i, c, loc);
    ty_store_var(fn, at, bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc), loc);
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
    return r;
}

/* typer_reshape.c — the array methods that change an array's shape or dtype: a.reshape(...),
 * a.ravel(), a.flatten() and a.astype(dtype), as Numba 0.56 types them
 * (numba/core/typing/arraydecl.py) and runs them (numba/np/arrayobj.py).
 *
 * reshape accepts a C-ordered array only (Numba also refuses layout A: "reshape() supports
 * contiguous array only"; numjit refuses F as well) and gives a C view of the same memory
 * (IR_RESHAPE) with the new extents, given as integers or as one tuple; one extent may be
 * negative, the one Numba infers from the size.  A size that does not match raises
 * ValueError("total size of new array must be unchanged"), two negative extents
 * ValueError("multiple negative shape values").  ravel is that reshape to one dimension for
 * a C array and a copy (flatten) otherwise; flatten always copies, in C order; astype copies
 * with each element converted as a store converts it, into an F array for an F argument and a
 * C one otherwise.  Copies are made in the loops of typer_arrexpr.c (ty_array_convert).
 * np.reshape(a, shape) (the shape one integer or one tuple, by position: Numba 0.56 has no
 * newshape= keyword) and np.ravel(a) are the methods called on their first argument.
 */
#include "typer_internal.h"

#include <string.h>


static IrInst *size_of(Fn *fn, Val a, Loc loc) {
    IrInst *n = ty_const_int(fn, ty_i64, 1, loc);
    for (int d = 0; d < a.t->ndim; d++) {
        IrInst *e = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &a.v);
        if (e)
            e->imm.index = d;
        n = bin(fn, IR_MUL, ty_i64, n, e, loc);
    }
    return n;
}

/* a (layout C) seen with extents ext[0..nd-1]. */
static Val view_as(Fn *fn, Val a, IrInst **ext, int nd, Loc loc) {
    const Type *rt = ty_array_ex(a.t->dtype, nd, LAYOUT_C, a.t->addrspace, a.t->readonly);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *ops[1 + TY_MAX_NDIM];
    ops[0] = a.v;
    for (int d = 0; d < nd; d++)
        ops[1 + d] = ext[d];
    return vval(rt, ty_emit(fn, IR_RESHAPE, rt, loc, 1 + nd, ops));
}

/* a.reshape(shape) with the extents given as arguments or as one tuple */
static Val reshape(Fn *fn, Val a, Node *call) {
    Loc loc = call->loc;
    if (a.t->layout != LAYOUT_C) {
        ty_error(fn, loc, "reshape() supports contiguous array only (numjit: C order), not %s",
                 a.t->name);
        return verr();
    }
    IrInst *ext[TY_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < call->list.n; i++) {
        Node *e = call->list.items[i];
        Val v = ty_value(fn, e);
        if (v.k != V_VAL)
            return verr();
        int n = v.t->kind == TY_TUPLE ? v.t->nelems : 1;
        if ((v.t->kind == TY_TUPLE && call->list.n != 1) || nd + n > TY_MAX_NDIM || n == 0) {
            ty_error(fn, e->loc, "reshape() takes integers or one tuple of 1 to %d integers",
                     TY_MAX_NDIM);
            return verr();
        }
        for (int k = 0; k < n; k++) {
            const Type *et = v.t->kind == TY_TUPLE ? v.t->elems[k] : v.t;
            if (!ty_is_int(et)) {
                ty_error(fn, e->loc, "reshape() arg cannot be %s", et->name);
                return verr();
            }
            IrInst *x = v.v;
            if (v.t->kind == TY_TUPLE && (x = ty_emit(fn, IR_EXTRACT, et, e->loc, 1, &v.v)))
                x->imm.index = k;
            ext[nd++] = ty_cast(fn, x, et, ty_i64, e->loc);
        }
    }
    if (!nd) {
        ty_error(fn, loc, "reshape() needs the new shape");
        return verr();
    }
    if (!fn->emit)
        return view_as(fn, a, ext, nd, loc);
    /* Numba's normalize_reshape_value: one negative extent takes what is left */
    IrInst *zero = ty_const_int(fn, ty_i64, 0, loc), *one = ty_const_int(fn, ty_i64, 1, loc);
    IrInst *known = one, *nneg = zero;
    for (int d = 0; d < nd; d++) {
        IrInst *neg = cmp(fn, CMP_LT, ext[d], zero, loc);
        IrInst *ops[3] = {neg, one, ext[d]};
        known = bin(fn, IR_MUL, ty_i64, known, ty_emit(fn, IR_SELECT, ty_i64, loc, 3, ops), loc);
        nneg = bin(fn, IR_ADD, ty_i64, nneg, ty_cast(fn, neg, ty_bool, ty_i64, loc), loc);
    }
    ty_raise_if(fn, cmp(fn, CMP_GT, nneg, one, loc), RAISE_VALUE, "multiple negative shape values", loc);
    IrInst *size = size_of(fn, a, loc);
    IrInst *has_neg = cmp(fn, CMP_EQ, nneg, one, loc);
    /* with a negative extent: known must divide the size (and not be 0); else equal it */
    IrInst *k0 = cmp(fn, CMP_EQ, known, zero, loc);
    IrInst *ops[3] = {k0, one, known};
    IrInst *safe = ty_emit(fn, IR_SELECT, ty_i64, loc, 3, ops);
    IrInst *rem = bin(fn, IR_MOD, ty_i64, size, safe, loc);
    IrInst *bad_neg = bin(fn, IR_BITOR, ty_bool, k0, cmp(fn, CMP_NE, rem, zero, loc), loc);
    IrInst *bad_all = cmp(fn, CMP_NE, known, size, loc);
    IrInst *o2[3] = {has_neg, bad_neg, bad_all};
    ty_raise_if(fn, ty_emit(fn, IR_SELECT, ty_bool, loc, 3, o2), RAISE_VALUE,
             "total size of new array must be unchanged", loc);
    IrInst *inferred = bin(fn, IR_FLOORDIV, ty_i64, size, safe, loc);
    for (int d = 0; d < nd; d++) {
        IrInst *o3[3] = {cmp(fn, CMP_LT, ext[d], zero, loc), inferred, ext[d]};
        ext[d] = ty_emit(fn, IR_SELECT, ty_i64, loc, 3, o3);
    }
    return view_as(fn, a, ext, nd, loc);
}

/* A copy of a in C order, seen as one dimension. */
static Val flatten(Fn *fn, Val a, Loc loc) {
    Val c = ty_array_convert(fn, a, ty_array(a.t->dtype, a.t->ndim, LAYOUT_C), loc);
    if (c.k != V_VAL || a.t->ndim == 1)
        return c;
    IrInst *n = fn->emit ? size_of(fn, c, loc) : NULL;
    return view_as(fn, c, &n, 1, loc);
}

Val ty_reshape_call(Fn *fn, Val self, Node *call) {
    const char *name = self.name;
    Val a = vval(self.t, self.v);
    Loc loc = call->loc;
    if (call->list2.n) {
        ty_error(fn, call->list2.items[0]->loc, "%s() takes no keyword arguments", name);
        return verr();
    }
    if (!strcmp(name, "reshape"))
        return reshape(fn, a, call);
    int want = !strcmp(name, "astype");
    if (call->list.n != want) {
        ty_error(fn, loc, want ? "astype() takes a dtype" : "%s() takes no arguments", name);
        return verr();
    }
    bool allocates = strcmp(name, "ravel") || a.t->layout != LAYOUT_C;
    if (allocates && (fn->tc->target != TARGET_CPU || a.t->addrspace != AS_GENERIC)) {
        ty_error(fn, loc, "%s() of %s makes a copy, which CUDA code cannot do", name, a.t->name);
        return verr();
    }
    if (!strcmp(name, "astype")) {
        const Type *dt = ty_np_dtype(fn, call->list.items[0], true);
        if (!dt)
            return verr();
        ArrayLayout lay = a.t->layout == LAYOUT_F ? LAYOUT_F : LAYOUT_C;
        return ty_array_convert(fn, a, ty_array(dt, a.t->ndim, lay), loc);
    }
    if (!allocates) { /* ravel of a C array: a view */
        IrInst *n = fn->emit ? size_of(fn, a, loc) : NULL;
        return view_as(fn, a, &n, 1, loc);
    }
    return flatten(fn, a, loc);
}

Val ty_reshape_np_call(Fn *fn, const char *name, Node *call) {
    int want = !strcmp(name, "reshape") ? 2 : 1;
    if (call->list2.n) {
        ty_error(fn, call->list2.items[0]->loc, "np.%s() takes no keyword arguments in Numba 0.56",
                 name);
        return verr();
    }
    if (call->list.n != want) {
        ty_error(fn, call->loc, want == 2 ? "np.reshape() takes an array and a shape"
                                          : "np.ravel() takes one array (no order)");
        return verr();
    }
    Val a = ty_value(fn, call->list.items[0]);
    if (a.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY) {
        ty_error(fn, call->list.items[0]->loc, "np.%s() of %s is not supported (numjit supports "
                 "an array here)", name, a.t->name);
        return verr();
    }
    /* the method's call: the same node without the array argument */
    Node rest = *call;
    rest.list.items = call->list.items + 1;
    rest.list.n = call->list.n - 1;
    Val self = {.k = V_METHOD, .name = name, .t = a.t, .v = a.v};
    return ty_reshape_call(fn, self, &rest);
}

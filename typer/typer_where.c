/* typer_where.c — np.where(cond, x, y) and np.clip(a, lo, hi) on arrays, and the conversion
 * of an array to another dtype: each a new array of its first array's shape, one element at a
 * time from the same element of every array argument (scalars as they are).  Unlike the
 * array expressions of typer_arrexpr.c these do not broadcast: every array argument must have
 * the first's shape (ValueError otherwise), as Numba's array_where and np_clip_ss require.
 * typer_arrexpr.c routes the calls here.
 */
#include "typer_internal.h"

#include <string.h>

/* The n positional arguments of np.NAME(...), numbers or arrays, as values in a[]. */
static bool args_of(Fn *fn, Node *call, const char *name, int n, Val *a) {
    if (call->list2.n) {
        ty_error(fn, call->list2.items[0]->loc, "np.%s() takes no keyword arguments in numjit",
                 name);
        return false;
    }
    if (call->list.n != n) {
        ty_error(fn, call->loc, "np.%s() takes %d arguments in numjit (%d given)", name, n,
                 call->list.n);
        return false;
    }
    for (int i = 0; i < n; i++) {
        a[i] = ty_value(fn, call->list.items[i]);
        if (a[i].k != V_VAL)
            return false;
        bool scalar = ty_is_scalar(a[i].t) || (ty_is_complex(a[i].t) && !strcmp(name, "where"));
        if (!scalar && !(a[i].t->kind == TY_ARRAY && a[i].t->addrspace == AS_GENERIC)) {
            ty_error(fn, call->list.items[i]->loc, "np.%s() of %s is not supported", name,
                     a[i].t->name);
            return false;
        }
    }
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, call->loc, "np.%s() creates an array, which CUDA code cannot do", name);
        return false;
    }
    return true;
}

static const Type *dtype_of(Val v) { return v.t->kind == TY_ARRAY ? v.t->dtype : v.t; }

/* out[i...] = f(element i... of each array in a[] (scalars as they are)), over the shape of
 * a[0]; every array in a[] must have that shape (ValueError otherwise). */
typedef IrInst *(*ElemFn)(Fn *fn, IrInst **el, const Type **et, const Type *rt, Loc loc);

static Val same_shape_map(Fn *fn, const char *name, Val *a, int n, const Type *rt, ElemFn f,
                          Loc loc) {
    if (!fn->emit)
        return vval(rt, NULL);
    const Type *at = a[0].t;
    IrInst *ext[TY_MAX_NDIM];
    for (int d = 0; d < at->ndim; d++)
        ext[d] = extent(fn, a[0].v, d, loc);
    for (int i = 1; i < n; i++) {
        if (a[i].t->kind != TY_ARRAY)
            continue;
        IrInst *bad = NULL;
        for (int d = 0; d < at->ndim; d++) {
            IrInst *ne = cmp(fn, CMP_NE, extent(fn, a[i].v, d, loc), ext[d], loc);
            bad = bad ? bin(fn, IR_BITOR, ty_bool, bad, ne, loc) : ne;
        }
        ty_raise_if(fn, bad, RAISE_VALUE, "all inputs should have the same shape", loc);
    }
    (void)name;
    Val out = ty_alloc(fn, rt, ext, false, loc);
    if (!out.v)
        return verr();
    int nd = rt->ndim;
    bool fo = rt->layout == LAYOUT_F;
    TyLoop loops[TY_MAX_NDIM];
    IrInst *idx[1 + TY_MAX_NDIM + 1];
    for (int j = 0; j < nd; j++) {
        int d = fo ? nd - 1 - j : j;
        idx[1 + d] = ty_loop_open(fn, &loops[j], ext[d], loc);
    }
    IrInst *el[3];
    const Type *et[3];
    for (int i = 0; i < n; i++) {
        et[i] = dtype_of(a[i]);
        idx[0] = a[i].v;
        el[i] = a[i].t->kind == TY_ARRAY ? ty_emit(fn, IR_ALOAD, et[i], loc, 1 + nd, idx) : a[i].v;
    }
    idx[0] = out.v;
    idx[1 + nd] = f(fn, el, et, rt->dtype, loc);
    ty_emit(fn, IR_ASTORE, ty_void, loc, 2 + nd, idx);
    for (int j = nd - 1; j >= 0; j--)
        ty_loop_close(fn, &loops[j], loc);
    return out;
}

static IrInst *convert_elem(Fn *fn, IrInst **el, const Type **et, const Type *rt, Loc loc) {
    return ty_cast(fn, el[0], et[0], rt, loc);
}

Val ty_array_convert(Fn *fn, Val a, const Type *rt, Loc loc) {
    return same_shape_map(fn, "astype", &a, 1, rt, convert_elem, loc);
}

static IrInst *where_elem(Fn *fn, IrInst **el, const Type **et, const Type *rt, Loc loc) {
    IrInst *c = ty_truth(fn, vval(et[0], el[0]), loc);
    return sel(fn, rt, c, ty_cast(fn, el[1], et[1], rt, loc), ty_cast(fn, el[2], et[2], rt, loc), loc);
}

/* np.where(cond, x, y), Numba's array_where and _where_inner: dtype np.promote_types of x and
 * y; cond an array, x and y arrays of its number of dimensions or scalars; all of one shape. */
Val ty_np_where(Fn *fn, Node *call) {
    Val a[3];
    if (!args_of(fn, call, "where", 3, a))
        return verr();
    const Type *ct = a[0].t;
    if (ct->kind != TY_ARRAY) {
        ty_error(fn, call->list.items[0]->loc, "np.where() with a scalar condition makes a "
                 "0-d array, which numjit does not support");
        return verr();
    }
    for (int i = 1; i < 3; i++)
        if (a[i].t->kind == TY_ARRAY && a[i].t->ndim != ct->ndim) {
            ty_error(fn, call->list.items[i]->loc, "np.where() needs arrays of one number of "
                     "dimensions: %s and %s", ct->name, a[i].t->name);
            return verr();
        }
    const Type *dt = ty_promote_types(dtype_of(a[1]), dtype_of(a[2]));
    ArrayLayout lay = ct->layout;
    if (a[1].t->kind == TY_ARRAY && a[2].t->kind == TY_ARRAY)
        lay = a[1].t->layout == a[2].t->layout && a[1].t->layout == ct->layout ? ct->layout
                                                                              : LAYOUT_C;
    const Type *rt = ty_array(dt, ct->ndim, lay == LAYOUT_F && ct->ndim > 1 ? LAYOUT_F : LAYOUT_C);
    return same_shape_map(fn, "where", a, 3, rt, where_elem, call->loc);
}

/* Python's max(x, lo) then min(., hi), as Numba's np_clip_ss: the first among equals, a NaN
 * x kept by max (max(nan, lo) is nan) and by min. */
static IrInst *clip_elem(Fn *fn, IrInst **el, const Type **et, const Type *rt, Loc loc) {
    const Type *t = ty_unify(ty_unify(et[0], et[1]), et[2]);
    if (!t)
        t = ty_f64;
    IrInst *v = ty_cast(fn, el[0], et[0], t, loc);
    IrInst *lo = ty_cast(fn, el[1], et[1], t, loc), *hi = ty_cast(fn, el[2], et[2], t, loc);
    v = sel(fn, t, cmp(fn, CMP_GT, lo, v, loc), lo, v, loc);
    v = sel(fn, t, cmp(fn, CMP_LT, hi, v, loc), hi, v, loc);
    return ty_cast(fn, v, t, rt, loc);
}

/* np.clip(a, a_min, a_max) with scalar bounds (Numba's np_clip_ss): a's dtype and layout. */
Val ty_np_clip(Fn *fn, Node *call) {
    Val a[3];
    if (!args_of(fn, call, "clip", 3, a))
        return verr();
    if (a[0].t->kind != TY_ARRAY) {
        ty_error(fn, call->list.items[0]->loc, "np.clip() needs an array, not %s", a[0].t->name);
        return verr();
    }
    for (int i = 1; i < 3; i++)
        if (!ty_is_number(a[i].t)) {
            ty_error(fn, call->list.items[i]->loc, "numjit supports np.clip() with number "
                     "bounds, not %s", a[i].t->name);
            return verr();
        }
    const Type *at = a[0].t;
    const Type *rt = ty_array(at->dtype, at->ndim, at->layout == LAYOUT_F ? LAYOUT_F : LAYOUT_C);
    return same_shape_map(fn, "clip", a, 3, rt, clip_elem, call->loc);
}

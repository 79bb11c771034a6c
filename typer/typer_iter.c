/* typer_iter.c — a.flat, np.ndenumerate(a) and np.ndindex(shape), as Numba 0.56 types them.
 *
 *   for v in a.flat:                  every element in C (row-major) order, any layout
 *   for idx, v in np.ndenumerate(a):  the same, with idx the UniTuple(int64, ndim) of indices
 *   for idx in np.ndindex(a.shape):   the indices alone, of a shape (a tuple, or n, m, ...);
 *                                     a[idx] then reads the element (typer_tuple.c)
 *   a.flat[i], a.flat[i] = v          the i-th element in C order
 *
 * A loop is expanded into ndim nested counted loops (ty_loop_open/ty_loop_close) whose body
 * loads a[i0, ..., ik], so a contiguous array is walked with unit stride in the innermost loop
 * and no division per element.  `break` leaves all of them, `continue` goes to the innermost
 * increment, and the `else:` clause runs after the outermost loop ends.  The array is
 * evaluated once and kept (a reference of the statement) while the loop runs, so rebinding its
 * name in the body does not free what is being walked.
 *
 * a.flat[i] unravels i in C order (i % shape[k] from the last dimension).  A negative i counts
 * from the end as in NumPy; Numba 0.56 reads outside the array there (docs/language.md).
 * Beyond the end it reads outside the array as Numba does, unless boundscheck=True, which
 * raises IndexError.  a.flat anywhere else (as a value, len(a.flat), slices) is an error.
 */
#include "typer_internal.h"

#include <string.h>

/* e is NAME.flat (or EXPR.flat) */
static bool is_flat(const Node *e) {
    return e && e->kind == ND_ATTR && e->name && !strcmp(e->name, "flat");
}

/* e is a call np.NAME(...) (the module as imported: checked by typing the callee) */
static bool is_np_call(Fn *fn, Node *e, const char *name) {
    if (!e || e->kind != ND_CALL || e->a->kind != ND_ATTR || strcmp(e->a->name, name))
        return false;
    bool emit = fn->emit;
    fn->emit = false;
    Val m = ty_expr(fn, e->a->a);
    fn->emit = emit;
    return m.k == V_MODULE && !strcmp(m.name, "numpy");
}

/* The array a.flat or np.ndenumerate(a) walks: a typed array of at least one dimension. */
static Val iter_array(Fn *fn, Node *e, const char *what, Loc loc) {
    Val a = ty_value(fn, e);
    if (a.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY) {
        ty_error(fn, loc, "%s needs an array, not %s", what, a.t->name);
        return verr();
    }
    if (a.t->ndim < 1) {
        ty_error(fn, loc, "%s of a 0-d array is not supported by numjit", what);
        return verr();
    }
    return a;
}

/* The extents of np.ndindex(n, m, ...) or np.ndindex(shape) into ext (int64; NULL while
 * inferring); their count, or -1 after an error.  Numba takes integers, or one tuple of one
 * integer type (a heterogeneous tuple is a typing error there too). */
static int ndindex_extents(Fn *fn, Node *it, IrInst **ext) {
    if (it->list2.n) {
        ty_error(fn, it->loc, "np.ndindex() takes no keyword arguments");
        return -1;
    }
    if (it->list.n == 1) {
        Val t = ty_value(fn, it->list.items[0]);
        if (t.k != V_VAL)
            return -1;
        if (t.t->kind == TY_TUPLE) {
            int nd = t.t->nelems;
            bool ok = nd <= TY_MAX_NDIM;
            for (int d = 0; d < nd && ok; d++)
                ok = t.t->elems[d] == t.t->elems[0] && ty_is_int(t.t->elems[d]);
            if (!ok) {
                ty_error(fn, it->list.items[0]->loc, "np.ndindex() takes a shape of at most %d "
                         "integers of one type, not %s", TY_MAX_NDIM, t.t->name);
                return -1;
            }
            for (int d = 0; d < nd && fn->emit; d++) {
                IrInst *x = ty_emit(fn, IR_EXTRACT, t.t->elems[d], it->loc, 1, &t.v);
                if (x)
                    x->imm.index = d;
                ext[d] = ty_cast(fn, x, t.t->elems[d], ty_i64, it->loc);
            }
            return nd;
        }
    }
    if (it->list.n > TY_MAX_NDIM) {
        ty_error(fn, it->loc, "np.ndindex() of more than %d dimensions", TY_MAX_NDIM);
        return -1;
    }
    for (int d = 0; d < it->list.n; d++) {
        Val x = ty_value(fn, it->list.items[d]);
        if (x.k != V_VAL)
            return -1;
        if (!ty_is_int(x.t)) {
            ty_error(fn, it->list.items[d]->loc, "np.ndindex() takes integers or one tuple of "
                     "integers, not %s", x.t->name);
            return -1;
        }
        ext[d] = ty_cast(fn, x.v, x.t, ty_i64, it->loc);
    }
    return it->list.n;
}

/* for idx in np.ndindex(...): nested counted loops over the extents (evaluated once, before
 * the loops), idx the UniTuple(int64, nd) of the counters, the last one fastest.  A negative
 * extent runs no iteration (NumPy raises ValueError; Numba 0.56 does not check). */
static bool ndindex_for(Fn *fn, Node *s) {
    Node *it = s->b;
    Loc loc = s->loc;
    IrInst *ext[TY_MAX_NDIM];
    int nd = ndindex_extents(fn, it, ext);
    if (nd < 0)
        return true;
    const Type *it64[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        it64[d] = ty_i64;
    const Type *idxt = ty_tuple(it64, nd);
    if (!fn->emit) {
        ty_assign_target(fn, s->a, vval(idxt, NULL), loc);
        ty_loop_body(fn, &s->list, NULL, NULL, loc);
        ty_stmts(fn, &s->list2);
        return true;
    }
    TyLoop L[TY_MAX_NDIM];
    IrInst *ix[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        ix[d] = ty_loop_open(fn, &L[d], ext[d], loc);
    IrBlock *latch = ty_block(fn), *exit = ty_block(fn);
    ty_assign_target(fn, s->a, vval(idxt, ty_emit(fn, IR_TUPLE, idxt, loc, nd, ix)), loc);
    ty_loop_body(fn, &s->list, exit, latch, loc);
    ty_br(fn, latch, loc);
    ty_set_block(fn, latch);
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
    ty_stmts(fn, &s->list2);
    ty_br(fn, exit, loc);
    ty_set_block(fn, exit);
    return true;
}

bool ty_iter_for(Fn *fn, Node *s) {
    if (ty_seq_for(fn, s)) /* tuples, zip(...): typer_seq.c */
        return true;
    Node *it = s->b;
    if (is_np_call(fn, it, "ndindex"))
        return ndindex_for(fn, s);
    bool flat = is_flat(it), nde = !flat && is_np_call(fn, it, "ndenumerate");
    if (!flat && !nde)
        return false;
    Loc loc = s->loc;
    Val a;
    if (flat) {
        a = iter_array(fn, it->a, "a.flat", it->loc);
    } else {
        if (it->list.n != 1 || it->list2.n) {
            ty_error(fn, it->loc, "np.ndenumerate() takes one array");
            return true;
        }
        if (s->a->kind != ND_TUPLE || s->a->list.n != 2) {
            ty_error(fn, s->a->loc, "numjit needs two targets to loop over np.ndenumerate(): "
                                    "for idx, v in np.ndenumerate(a)");
            return true;
        }
        a = iter_array(fn, it->list.items[0], "np.ndenumerate()", it->loc);
    }
    if (a.k != V_VAL)
        return true;
    int nd = a.t->ndim;
    const Type *it64[TY_MAX_NDIM];
    for (int d = 0; d < nd; d++)
        it64[d] = ty_i64;
    const Type *idxt = ty_tuple(it64, nd);
    Node *vt = nde ? s->a->list.items[1] : s->a, *it_target = nde ? s->a->list.items[0] : NULL;
    if (!fn->emit) { /* inference: the targets' types, then the bodies */
        if (it_target)
            ty_assign_target(fn, it_target, vval(idxt, NULL), loc);
        ty_assign_target(fn, vt, vval(a.t->dtype, NULL), loc);
        ty_loop_body(fn, &s->list, NULL, NULL, loc);
        ty_stmts(fn, &s->list2);
        return true;
    }
    a = ty_keep(fn, a, loc);
    TyLoop L[TY_MAX_NDIM];
    IrInst *ix[1 + TY_MAX_NDIM];
    ix[0] = a.v;
    for (int d = 0; d < nd; d++)
        ix[1 + d] = ty_loop_open(fn, &L[d], extent(fn, a.v, d, loc), loc);
    IrBlock *latch = ty_block(fn), *exit = ty_block(fn);
    if (it_target)
        ty_assign_target(fn, it_target, vval(idxt, ty_emit(fn, IR_TUPLE, idxt, loc, nd, ix + 1)),
                         loc);
    IrInst *v = ty_emit(fn, IR_ALOAD, a.t->dtype, loc, nd + 1, ix);
    ty_assign_target(fn, vt, vval(a.t->dtype, v), loc);
    ty_loop_body(fn, &s->list, exit, latch, loc);
    ty_br(fn, latch, loc);
    ty_set_block(fn, latch);
    for (int d = nd - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc); /* ends in L[d].exit, where the next one increments */
    ty_stmts(fn, &s->list2);           /* else: the loops ended without break */
    ty_br(fn, exit, loc);
    ty_set_block(fn, exit);
    return true;
}

/* The indices (into ix[1..ndim]) of element i of arr in C order. */
static bool flat_indices(Fn *fn, Val arr, Node *index, IrInst **ix, Loc loc) {
    if (index->kind == ND_SLICE || index->kind == ND_TUPLE) {
        ty_error(fn, index->loc, "numjit supports a.flat[i] with one integer index only");
        return false;
    }
    Val iv = ty_value(fn, index);
    if (iv.k != V_VAL)
        return false;
    if (!ty_is_int(iv.t) && iv.t != ty_bool) {
        ty_error(fn, index->loc, "a.flat index must be an integer, not %s", iv.t->name);
        return false;
    }
    if (!fn->emit)
        return true;
    int nd = arr.t->ndim;
    IrInst *i = ty_cast(fn, iv.v, iv.t, ty_i64, loc), *ext[TY_MAX_NDIM];
    IrInst *size = i64c(fn, 1, loc), *zero = i64c(fn, 0, loc);
    for (int d = 0; d < nd; d++) {
        ext[d] = extent(fn, arr.v, d, loc);
        size = bin(fn, IR_MUL, ty_i64, size, ext[d], loc);
    }
    IrInst *neg = cmp(fn, CMP_LT, i, zero, loc);
    IrInst *wrapped = bin(fn, IR_ADD, ty_i64, i, size, loc);
    i = sel(fn, ty_i64, neg, wrapped, i, loc);
    if (fn->f->boundscheck) {
        IrInst *lo = cmp(fn, CMP_LT, i, zero, loc);
        IrInst *hi = cmp(fn, CMP_GE, i, size, loc);
        IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
        ty_condbr(fn, bin(fn, IR_BITOR, ty_bool, lo, hi, loc), bad, ok, loc);
        ty_set_block(fn, bad);
        ty_raise(fn, RAISE_INDEX, "index is out of bounds", loc);
        ty_set_block(fn, ok);
    }
    for (int d = nd - 1; d > 0; d--) { /* IR_MOD/IR_FLOORDIV by 0 give 0: no trap */
        ix[1 + d] = bin(fn, IR_MOD, ty_i64, i, ext[d], loc);
        i = bin(fn, IR_FLOORDIV, ty_i64, i, ext[d], loc);
    }
    ix[1] = i;
    return true;
}

Val ty_flat_get(Fn *fn, Node *e) {
    Val a = iter_array(fn, e->a->a, "a.flat", e->a->loc);
    if (a.k != V_VAL)
        return verr();
    IrInst *ix[1 + TY_MAX_NDIM];
    ix[0] = a.v;
    if (!flat_indices(fn, a, e->b, ix, e->loc))
        return verr();
    return vval(a.t->dtype, ty_emit(fn, IR_ALOAD, a.t->dtype, e->loc, a.t->ndim + 1, ix));
}

void ty_flat_set(Fn *fn, Node *target, Val v, Loc loc) {
    Val a = iter_array(fn, target->a->a, "a.flat", target->a->loc);
    if (a.k != V_VAL || v.k != V_VAL)
        return;
    if (a.t->readonly) {
        ty_error(fn, target->loc, "cannot assign to a read-only array (%s)", a.t->name);
        return;
    }
    if (!ty_is_elem(v.t) || (ty_is_complex(v.t) && !ty_is_complex(a.t->dtype))) {
        ty_error(fn, loc, "cannot store %s into an element of %s", v.t->name, a.t->name);
        return;
    }
    IrInst *ix[2 + TY_MAX_NDIM];
    ix[0] = a.v;
    if (!flat_indices(fn, a, target->b, ix, target->loc) || !fn->emit)
        return;
    ix[1 + a.t->ndim] = ty_cast(fn, v.v, v.t, a.t->dtype, loc);
    ty_emit(fn, IR_ASTORE, ty_void, target->loc, a.t->ndim + 2, ix);
}

Val ty_flat_value(Fn *fn, Loc loc) {
    ty_error(fn, loc, "numjit supports a.flat only as `for v in a.flat` and `a.flat[i]`");
    return verr();
}

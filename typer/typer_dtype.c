/* typer_dtype.c — the spellings of a dtype that name it through another value, as Numba 0.56
 * types them: `a.dtype` of an array (Numba's DType(float64)) and `np.dtype(X)` of any dtype
 * of a string or a scalar class X ('float32', 'f4', np.float32; Numba refuses others), wherever a
 * function takes a dtype:
 * np.empty/zeros/ones/full/arange and their _like forms, np.array, np.eye, a.astype,
 * a.sum(dtype=).
 *
 * How: a dtype is known when the function is compiled (an array type carries its element
 * type), so the argument reader (typer_alloc.c's dtype_of) asks here first: `a.dtype` gives
 * the array type's element type, and `np.dtype(X)` is read as X.  Nothing is emitted: the
 * array is only looked at, as Numba's typing does.  A dtype held in a variable or passed in
 * from Python needs a run-time value of its own and is not supported yet.
 */
#include "typer_internal.h"

#include <string.h>

/* The type of e without emitting anything. */
static Val peek(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v;
}

static bool is_np_dtype(Fn *fn, Node *callee) {
    if (callee->kind != ND_ATTR || strcmp(callee->name, "dtype"))
        return false;
    Val m = peek(fn, callee->a);
    return m.k == V_MODULE && !strcmp(m.name, "numpy");
}

Node *ty_dtype_unwrap(Fn *fn, Node *e, const Type **t) {
    *t = NULL;
    if (e->kind == ND_CALL && e->list.n == 1 && e->list2.n == 0 && is_np_dtype(fn, e->a)) {
        /* Numba's np.dtype takes a string or a scalar class (np.float32), nothing else */
        e = e->list.items[0];
        if (e->kind != ND_STR && peek(fn, e).k != V_TYPE) {
            ty_error(fn, e->loc, "np.dtype() takes a string or a scalar type such as "
                     "np.float32 (unknown dtype descriptor)");
            return NULL;
        }
        return e;
    }
    if (e->kind == ND_ATTR && !strcmp(e->name, "dtype")) {
        Val a = peek(fn, e->a);
        if (a.k == V_VAL && a.t->kind == TY_ARRAY)
            *t = a.t->dtype;
    }
    return e;
}

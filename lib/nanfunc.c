/* nanfunc.c — NumPy's reductions that skip NaN, as Numba 0.56 has them (numba/np/arraymath.py
 * np_nansum ... np_nancumsum): np.nansum, np.nanprod, np.nanmin, np.nanmax, np.nanmean,
 * np.nanvar, np.nanstd, np.nancumsum and np.nancumprod of a whole array of booleans,
 * integers or floats, in any layout and number of dimensions.
 *
 * Each handler binds the call (Numba takes the array alone: axis=, dtype=, out= and the rest
 * are refused at the argument), decides the result's type as Numba does, raises Numba's
 * ValueError for an empty array where Numba raises one (nanmin, nanmax), and calls the loop of
 * stdlib/nanfunc.py.  The sums and products start from a constant of the result's type passed
 * in: int64 for boolean and integer arrays, else the array's dtype.  nancumsum and nancumprod
 * of a boolean or integer array are np.cumsum and np.cumprod, as in Numba.  Complex arrays
 * share the sums and products (a complex start value) and have loops of their own for
 * nanmin, nanmax, nanmean, nanvar and nanstd (the _c ones: Numba's complex forms).
 */
#include "lib.h"

#include <stdio.h>
#include <string.h>

enum { NAN_SUM, NAN_PROD, NAN_MIN, NAN_MAX, NAN_MEAN, NAN_VAR, NAN_STD, NAN_CUMSUM, NAN_CUMPROD };

static const char *const symbol[] = {
    "_nj_np_nansum", "_nj_np_nanprod", "_nj_np_nanmin", "_nj_np_nanmax", "_nj_np_nanmean",
    "_nj_np_nanvar", "_nj_np_nanstd", "_nj_np_nancumsum", "_nj_np_nancumprod",
};

/* ValueError where the array has no element (Numba's check_array). */
static void raise_if_empty(Fn *fn, Val a, Loc loc) {
    if (!fn->emit)
        return;
    IrInst *size = i64c(fn, 1, loc);
    for (int d = 0; d < a.t->ndim; d++)
        size = bin(fn, IR_MUL, ty_i64, size, extent(fn, a.v, d, loc), loc);
    ty_raise_if(fn, cmp(fn, CMP_EQ, size, i64c(fn, 0, loc), loc), RAISE_VALUE,
                "zero-size array to reduction operation not possible", loc);
}

/* The constant x (0 or 1) of the type a sum or product of a's elements has. */
static Val start_value(Fn *fn, const Type *dt, int x, Loc loc) {
    if (ty_is_complex(dt)) {
        const Type *ft = dt == ty_c64 ? ty_f32 : ty_f64;
        return vval(dt, fn->emit ? ty_complex_make(fn, dt, ty_const_float(fn, ft, x, loc),
                                                   ty_const_float(fn, ft, 0, loc), loc)
                                 : NULL);
    }
    if (ty_is_float(dt))
        return vval(dt, ty_const_float(fn, dt, x, loc));
    return vval(ty_i64, i64c(fn, x, loc));
}

static Val nan_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)callee;
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    for (int k = 1; k < b.n; k++)
        if (!lib_arg_unsupported(fn, le, &b, k))
            return verr();
    Val a = lib_arg_array(fn, le, &b, 0, LIB_ARR_BOOL | LIB_ARR_INT | LIB_ARR_FLOAT |
                                             LIB_ARR_COMPLEX);
    if (a.k != V_VAL)
        return verr();
    Loc loc = call->loc;
    int op = le->idx;
    const Type *dt = a.t->dtype;
    Val args[2] = {a, verr()};
    int n = 1;
    switch (op) {
    case NAN_MIN: case NAN_MAX:
        raise_if_empty(fn, a, loc);
        break;
    case NAN_SUM: case NAN_PROD:
        args[n++] = start_value(fn, dt, op == NAN_PROD, loc);
        break;
    case NAN_CUMSUM: case NAN_CUMPROD:
        if (!ty_is_float(dt) && !ty_is_complex(dt)) /* no NaN to skip: np.cumsum, np.cumprod */
            return ty_array_call(fn, op == NAN_CUMSUM ? "cumsum" : "cumprod", verr(), call,
                                 &a, 1);
        args[n++] = start_value(fn, dt, op == NAN_CUMPROD, loc);
        break;
    default:
        break;
    }
    if (ty_is_complex(dt) && op != NAN_SUM && op != NAN_PROD && op != NAN_CUMSUM &&
        op != NAN_CUMPROD) {
        char sym[32];
        snprintf(sym, sizeof sym, "%s_c", symbol[op]);
        return ty_lib_call(fn, arena_strdup(fn->tc->arena, sym), le->spell, "numpy", args, n, loc);
    }
    return ty_lib_call(fn, symbol[op], le->spell, "numpy", args, n, loc);
}

static const LibEntry rows[] = {
    {"numpy.nansum", "a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nansum", NAN_SUM, 0},
    {"numpy.nanprod", "a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanprod", NAN_PROD, 0},
    {"numpy.nanmin", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanmin", NAN_MIN, 0},
    {"numpy.nanmax", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanmax", NAN_MAX, 0},
    {"numpy.nanmean", "a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanmean", NAN_MEAN, 0},
    {"numpy.nanvar", "a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanvar", NAN_VAR, 0},
    {"numpy.nanstd", "a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nanstd", NAN_STD, 0},
    {"numpy.nancumsum", "a, axis=None, dtype=None, out=None", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nancumsum", NAN_CUMSUM, 0},
    {"numpy.nancumprod", "a, axis=None, dtype=None, out=None", LIB_CPU | LIB_KEYWORDS, NULL, nan_call, "np.nancumprod", NAN_CUMPROD, 0},
    {NULL},
};
const LibTable lib_nanfunc_table = {"numpy: reductions that skip NaN", rows};

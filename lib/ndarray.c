/* ndarray.c — NumPy's array functions (constructors, reductions, reshaping, indexing,
 * joining, sorting and the functions of stdlib/npfunc.py) and the methods of arrays.
 *
 * Each handler hands the call to the typer's family file that types it and builds its loops:
 * typer_alloc.c (np.empty ... np.linspace, np.copy; np.array, np.eye ... through
 * typer_construct.c), typer_array.c and typer_axis.c (sum ... cumprod, amin, amax),
 * typer_reshape.c, typer_index.c, typer_join.c, typer_sort.c and typer_npfunc.c.  Those read
 * the call's arguments and keywords themselves.
 */
#include "lib.h"

#include <string.h>

static Val alloc_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_np_call(fn, le->spell, call, callee);
}

static Val sort_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_sort_call(fn, le->spell + 3, verr(), call);
}

static Val npfunc_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_npfunc_call(fn, le->spell + 3, call, verr());
}

static Val reshape_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_reshape_np_call(fn, le->spell + 3, call);
}

static Val index_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_index_np_call(fn, le->spell + 3, call, verr());
}

static Val join_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_join_call(fn, le->spell + 3, call);
}

static Val array_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    static const struct { const char *spell; FoldKind k; } red[] = {
        {"np.sum", FOLD_SUM}, {"np.prod", FOLD_PROD}, {"np.min", FOLD_MIN}, {"np.amin", FOLD_MIN},
        {"np.max", FOLD_MAX}, {"np.amax", FOLD_MAX}, {"np.mean", FOLD_MEAN}, {"np.any", FOLD_ANY},
        {"np.all", FOLD_ALL}};
    Val a[16];
    int n;
    for (size_t i = 0; i < sizeof red / sizeof red[0] && call->list.n == 1 && !call->list2.n; i++)
        if (!strcmp(le->spell, red[i].spell) && ty_arrexpr_fold(fn, call->list.items[0], red[i].k, &a[0]))
            return a[0]; /* np.max(a * b): no temporary array (typer_arrexpr.c) */
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_array_call(fn, le->spell + 3, verr(), call, a, n);
}

/* np.ptp(a), a.ptp(): the range of the values (stdlib/npfunc.py: _nj_np_ptp_f, _nj_np_ptp_i,
 * Numba's arithmetic and its answer for a float array holding nan); ValueError for an empty
 * array, as Numba.  Numba takes no axis, out or keepdims; complex arrays are numjit's gap. */
static Val ptp_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    bool method = callee.k == V_METHOD;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    for (int k = method ? 0 : 1; k < b.n; k++)
        if (!lib_arg_unsupported(fn, le, &b, k))
            return verr();
    Val a = method ? vval(callee.t, callee.v)
                   : lib_arg_array(fn, le, &b, 0, LIB_ARR_INT | LIB_ARR_FLOAT);
    if (a.k != V_VAL || !lib_array_of(fn, le, "self", a, LIB_ARR_INT | LIB_ARR_FLOAT, call->loc))
        return verr();
    Loc loc = call->loc;
    if (fn->emit)
        ty_raise_if(fn, cmp(fn, CMP_EQ, extent(fn, a.v, 0, loc), i64c(fn, 0, loc), loc),
                    RAISE_VALUE, "zero-size array reduction not possible", loc);
    const char *sym = ty_is_float(a.t->dtype) ? "_nj_np_ptp_f" : "_nj_np_ptp_i";
    return ty_lib_call(fn, sym, "np.ptp", "numpy", &a, 1, loc);
}

/* np.allclose(a, b, rtol, atol, equal_nan): Numba's checks of the arguments' types and
 * messages (Numba 0.56 refuses the defaults of the last three, so a call must give them), then the loops of stdlib/npfunc.py (_nj_np_allclose_*: two
 * numbers, a number and an array, two arrays broadcast).  Booleans, integers and floats. */
static Val allclose_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    static const char *const what[] = {"first", "second", "third", "fourth", "fifth"};
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    Loc loc = call->loc;
    Val v[5];
    for (int k = 0; k < 5; k++) {
        if (!b.node[k]) { /* Numba 0.56 refuses its own defaults (an omitted argument) */
            ty_error(fn, loc, "The %s argument \"%s\" must be a %s (Numba 0.56 takes "
                     "np.allclose only with rtol, atol and equal_nan given)", what[k], b.name[k],
                     k < 4 ? "floating point" : "boolean");
            return verr();
        }
        v[k] = ty_value(fn, b.node[k]);
        if (v[k].k != V_VAL)
            return verr();
        const Type *t = v[k].t, *et = t->kind == TY_ARRAY ? t->dtype : t;
        bool ok = k < 2 ? ty_is_scalar(et) : k < 4 ? ty_is_float(t) : t == ty_bool;
        if (!ok) {
            ty_error(fn, b.at[k], k < 2 ? "The %s argument \"%s\" must be array-like (an array or "
                     "a number of booleans, integers or floats), not %s"
                     : k < 4 ? "The %s argument \"%s\" must be a floating point, not %s"
                             : "The %s argument \"%s\" must be a boolean, not %s",
                     what[k], b.name[k], t->name);
            return verr();
        }
    }
    bool arr_a = v[0].t->kind == TY_ARRAY, arr_b = v[1].t->kind == TY_ARRAY;
    if (arr_a && arr_b && v[0].t->dtype != v[1].t->dtype) { /* np.broadcast_arrays refuses */
        ty_error(fn, loc, "np.allclose of arrays of different dtypes (%s and %s): Numba cannot "
                 "broadcast arrays with different types", v[0].t->dtype->name,
                 v[1].t->dtype->name);
        return verr();
    }
    const char *sym = arr_a ? (arr_b ? "_nj_np_allclose_aa" : "_nj_np_allclose_as")
                            : (arr_b ? "_nj_np_allclose_sa" : "_nj_np_allclose_ss");
    return ty_lib_call(fn, sym, "np.allclose", "numpy", v, 5, loc);
}

/* np.convolve(a, v), np.correlate(a, v): 1-d arrays of booleans, integers or floats (Numba
 * takes no mode), ValueError for an empty one as Numba raises it, then stdlib/npfunc.py. */
static Val convolve_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b) || !lib_arg_unsupported(fn, le, &b, 2))
        return verr();
    Val v[2];
    Loc loc = call->loc;
    for (int k = 0; k < 2; k++) {
        v[k] = lib_arg_array(fn, le, &b, k, LIB_ARR_BOOL | LIB_ARR_INT | LIB_ARR_FLOAT);
        if (v[k].k != V_VAL)
            return verr();
        if (v[k].t->ndim != 1) {
            ty_error(fn, b.at[k], "%s() only supported on 1D arrays", le->spell);
            return verr();
        }
    }
    for (int k = 0; k < 2 && fn->emit; k++)
        ty_raise_if(fn, cmp(fn, CMP_EQ, extent(fn, v[k].v, 0, loc), i64c(fn, 0, loc), loc),
                    RAISE_VALUE, k ? "'v' cannot be empty" : "'a' cannot be empty", loc);
    const char *sym = strcmp(le->spell, "np.convolve") ? "_nj_np_correlate" : "_nj_np_convolve";
    if (!strcmp(sym, "_nj_np_correlate") && v[0].t->dtype == ty_bool)
        sym = "_nj_np_correlate_bool"; /* Numba's np.conj(a) of booleans is int8 */
    return ty_lib_call(fn, sym, le->spell, "numpy", v, 2, loc);
}

/* np.tri(N, M=None, k=0): integers (Numba requires k to be one, unlike NumPy), then
 * stdlib/npfunc.py's _nj_np_tri_ones. */
static Val tri_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b) || !lib_arg_unsupported(fn, le, &b, 3) ||
        !lib_arg_unsupported(fn, le, &b, 4))
        return verr();
    Loc loc = call->loc;
    Val v[3];
    for (int k = 0; k < 3; k++) {
        Node *e = b.node[k] ? b.node[k] : k == 1 ? b.node[0] : NULL; /* M: N; k: 0 */
        v[k] = e ? ty_value(fn, e) : vval(ty_i64, i64c(fn, 0, loc));
        if (v[k].k != V_VAL)
            return verr();
        if (!ty_is_int(v[k].t)) {
            ty_error(fn, e->loc, "%s must be an integer", k == 2 ? "k" : b.name[k]);
            return verr();
        }
    }
    return ty_lib_call(fn, "_nj_np_tri_ones", "np.tri", "numpy", v, 3, loc);
}

/* np.vander(x, N=None, increasing=False): Numba's np_vander for an array x — N None or an
 * integer (a typing error else), the result's dtype NumPy's promotion of x's with int (int64,
 * float64 for uint64 and floats, complex128), stdlib/npfunc.py's checks (ValueError at run time,
 * in Numba's order) and products. */
static Val vander_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    Loc loc = call->loc;
    Val x = ty_value(fn, b.node[0]);
    if (x.k != V_VAL)
        return verr();
    if (x.t->kind != TY_ARRAY) {
        ty_error(fn, b.at[0], "np.vander() of %s is not supported by numjit (pass an array)",
                 x.t->name);
        return verr();
    }
    Val n = b.node[1] ? ty_value(fn, b.node[1]) : vval(ty_i64, fn->emit ? extent(fn, x.v, 0, loc)
                                                                        : NULL);
    if (n.k != V_VAL)
        return verr();
    if (!ty_is_int(n.t)) {
        ty_error(fn, b.at[1], "Second argument N must be None or an integer");
        return verr();
    }
    Val inc = b.node[2] ? ty_value(fn, b.node[2])
                        : vval(ty_bool, fn->emit ? ty_const_int(fn, ty_bool, 0, loc) : NULL);
    if (inc.k != V_VAL)
        return verr();
    const Type *dt = x.t->dtype, *rt = ty_i64;
    if (ty_is_complex(dt))
        rt = ty_c128;
    else if (ty_is_float(dt) || dt == ty_u64)
        rt = ty_f64;
    else if (!ty_is_int(dt) && dt != ty_bool) {
        ty_error(fn, b.at[0], "np.vander() of an array of %s is not supported", dt->name);
        return verr();
    }
    const Type *t = ty_array(rt, 2, LAYOUT_C);
    Val chk[2] = {x, n};
    if (ty_lib_call(fn, "_nj_np_vander_check", "np.vander", "numpy", chk, 2, loc).k == V_ERR)
        return verr();
    if (!fn->emit)
        return vval(t, NULL);
    IrInst *dims[2] = {extent(fn, x.v, 0, loc), ty_cast(fn, n.v, n.t, ty_i64, loc)};
    Val out = ty_alloc(fn, t, dims, false, loc);
    if (out.k != V_VAL)
        return verr();
    Val args[4] = {x, n, inc, out};
    if (ty_lib_call(fn, "_nj_np_vander", "np.vander", "numpy", args, 4, loc).k == V_ERR)
        return verr();
    return out;
}

static const LibEntry rows[] = {
    {"numpy.empty", "shape, dtype=float, order='C', *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.empty", 0, 0},
    {"numpy.zeros", "shape, dtype=float, order='C', *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.zeros", 0, 0},
    {"numpy.ones", "shape, dtype=None, order='C', *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.ones", 0, 0},
    {"numpy.full", "shape, fill_value, dtype=None, order='C', *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.full", 0, 0},
    {"numpy.empty_like", "prototype, dtype=None, order='K', subok=True, shape=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.empty_like", 0, 0},
    {"numpy.zeros_like", "a, dtype=None, order='K', subok=True, shape=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.zeros_like", 0, 0},
    {"numpy.ones_like", "a, dtype=None, order='K', subok=True, shape=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.ones_like", 0, 0},
    {"numpy.full_like", "a, fill_value, dtype=None, order='K', subok=True, shape=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.full_like", 0, 0},
    {"numpy.arange", "[start,] stop[, step,], dtype=None, *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.arange", 0, 0},
    {"numpy.linspace", "start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.linspace", 0, 0},
    {"numpy.copy", "a, order='K', subok=False", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.copy", 0, 0},
    {"numpy.array", "", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.array", 0, 0},
    {"numpy.eye", "N, M=None, k=0, dtype=<class 'float'>, order='C', *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.eye", 0, 0},
    {"numpy.identity", "n, dtype=None, *, like=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.identity", 0, 0},
    {"numpy.diag", "v, k=0", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.diag", 0, 0},
    {"numpy.outer", "a, b, out=None", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, alloc_call, "np.outer", 0, 0},
    {"numpy.sum", "a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.sum", 0, 0},
    {"numpy.prod", "a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.prod", 0, 0},
    {"numpy.min", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.min", 0, 0},
    {"numpy.max", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.max", 0, 0},
    {"numpy.mean", "a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.mean", 0, 0},
    {"numpy.var", "a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.var", 0, 0},
    {"numpy.std", "a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.std", 0, 0},
    {"numpy.argmin", "a, axis=None, out=None, *, keepdims=<no value>", LIB_KEYWORDS, NULL, array_call, "np.argmin", 0, 0},
    {"numpy.argmax", "a, axis=None, out=None, *, keepdims=<no value>", LIB_KEYWORDS, NULL, array_call, "np.argmax", 0, 0},
    {"numpy.any", "a, axis=None, out=None, keepdims=<no value>, *, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.any", 0, 0},
    {"numpy.all", "a, axis=None, out=None, keepdims=<no value>, *, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.all", 0, 0},
    {"numpy.transpose", "a, axes=None", LIB_KEYWORDS, NULL, array_call, "np.transpose", 0, 0},
    {"numpy.reshape", "a, newshape, order='C'", LIB_KEYWORDS, NULL, reshape_call, "np.reshape", 0, 0},
    {"numpy.ravel", "a, order='C'", LIB_KEYWORDS, NULL, reshape_call, "np.ravel", 0, 0},
    {"numpy.cumsum", "a, axis=None, dtype=None, out=None", LIB_KEYWORDS, NULL, array_call, "np.cumsum", 0, 0},
    {"numpy.cumprod", "a, axis=None, dtype=None, out=None", LIB_KEYWORDS, NULL, array_call, "np.cumprod", 0, 0},
    {"numpy.amin", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.amin", 0, 0},
    {"numpy.amax", "a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>", LIB_KEYWORDS, NULL, array_call, "np.amax", 0, 0},
    {"numpy.nonzero", "a", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, index_call, "np.nonzero", 0, 0},
    {"numpy.flatnonzero", "a", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, index_call, "np.flatnonzero", 0, 0},
    {"numpy.argwhere", "a", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, index_call, "np.argwhere", 0, 0},
    {"numpy.concatenate", "(a1, a2, ...), axis=0, out=None, dtype=None, casting='same_kind'", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.concatenate", 0, 0},
    {"numpy.stack", "arrays, axis=0, out=None, *, dtype=None, casting='same_kind'", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.stack", 0, 0},
    {"numpy.vstack", "tup, *, dtype=None, casting='same_kind'", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.vstack", 0, 0},
    {"numpy.hstack", "tup, *, dtype=None, casting='same_kind'", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.hstack", 0, 0},
    {"numpy.column_stack", "tup", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.column_stack", 0, 0},
    {"numpy.dstack", "tup", LIB_CPU | LIB_NEW_ARRAY | LIB_KEYWORDS, NULL, join_call, "np.dstack", 0, 0},
    {"numpy.sort", "a, axis=-1, kind=None, order=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.sort", 0, 0},
    {"numpy.argsort", "a, axis=-1, kind=None, order=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.argsort", 0, 0},
    {"numpy.searchsorted", "a, v, side='left', sorter=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.searchsorted", 0, 0},
    {"numpy.unique", "ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.unique", 0, 0},
    {"numpy.median", "a, axis=None, out=None, overwrite_input=False, keepdims=False", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.median", 0, 0},
    {"numpy.nanmedian", "a, axis=None, out=None, overwrite_input=False, keepdims=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.nanmedian", 0, 0},
    {"numpy.percentile", "a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, interpolation=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.percentile", 0, 0},
    {"numpy.nanpercentile", "a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=<no value>, *, interpolation=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.nanpercentile", 0, 0},
    {"numpy.quantile", "a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, interpolation=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.quantile", 0, 0},
    {"numpy.nanquantile", "a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=<no value>, *, interpolation=None", LIB_CPU | LIB_KEYWORDS, NULL, sort_call, "np.nanquantile", 0, 0},
    {"numpy.interp", "x, xp, fp, left=None, right=None, period=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.interp", 0, 0},
    {"numpy.histogram", "a, bins=10, range=None, density=None, weights=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.histogram", 0, 0},
    {"numpy.diff", "a, n=1, axis=-1, prepend=<no value>, append=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.diff", 0, 0},
    {"numpy.bincount", "x, /, weights=None, minlength=0", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.bincount", 0, 0},
    {"numpy.digitize", "x, bins, right=False", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.digitize", 0, 0},
    {"numpy.roll", "a, shift, axis=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.roll", 0, 0},
    {"numpy.repeat", "a, repeats, axis=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.repeat", 0, 0},
    {"numpy.flip", "m, axis=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.flip", 0, 0},
    {"numpy.fliplr", "m", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.fliplr", 0, 0},
    {"numpy.flipud", "m", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.flipud", 0, 0},
    {"numpy.triu", "m, k=0", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.triu", 0, 0},
    {"numpy.tril", "m, k=0", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.tril", 0, 0},
    {"numpy.count_nonzero", "a, axis=None, *, keepdims=False", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.count_nonzero", 0, 0},
    {"numpy.array_equal", "a1, a2, equal_nan=False", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.array_equal", 0, 0},
    {"numpy.around", "a, decimals=0, out=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.around", 0, 0},
    {"numpy.round_", "a, decimals=0, out=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.round_", 0, 0},
    {"numpy.round", "a, decimals=0, out=None", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.round", 0, 0},
    {"numpy.trapz", "y, x=None, dx=1.0, axis=-1", LIB_CPU | LIB_KEYWORDS, NULL, npfunc_call, "np.trapz", 0, 0},
    {"numpy.ptp", "a, axis=None, out=None, keepdims=<no value>", LIB_CPU | LIB_KEYWORDS, NULL, ptp_call, "np.ptp", 0, 0},
    {"numpy.convolve", "a, v, mode='full'", LIB_CPU | LIB_KEYWORDS, NULL, convolve_call, "np.convolve", 0, 0},
    {"numpy.correlate", "a, v, mode='valid'", LIB_CPU | LIB_KEYWORDS, NULL, convolve_call, "np.correlate", 0, 0},
    {"numpy.tri", "N, M=None, k=0, dtype=float, *, like=None", LIB_CPU | LIB_KEYWORDS | LIB_NEW_ARRAY, NULL, tri_call, "np.tri", 0, 0},
    {"numpy.vander", "x, N=None, increasing=False", LIB_CPU | LIB_KEYWORDS | LIB_NEW_ARRAY, NULL, vander_call, "np.vander", 0, 0},
    {"numpy.allclose", "a, b, rtol=1e-05, atol=1e-08, equal_nan=False", LIB_CPU | LIB_KEYWORDS, NULL, allclose_call, "np.allclose", 0, 0},
    {NULL},
};
const LibTable lib_ndarray_table = {"numpy: arrays", rows};

/* ---- methods (callee: the V_METHOD, or the V_BUILTIN of a.copy, a.conjugate, z.conjugate) ---- */
static Val method_sort_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_sort_call(fn, callee.name, callee, call);
}

static Val method_repeat_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_npfunc_call(fn, "repeat", call, callee);
}

static Val method_reshape_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_reshape_call(fn, callee, call);
}

static Val method_nonzero_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_index_np_call(fn, "nonzero", call, callee);
}

static Val method_array_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_array_call(fn, callee.name, callee, call, a, n);
}

static Val copy_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_np_call(fn, "array.copy", call, callee);
}

static Val conjugate_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val r, a[16];
    int n;
    if (ty_arrexpr(fn, call, &r))
        return r;
    if (lib_args(fn, callee, call, a, &n))
        ty_error(fn, call->loc, "conjugate() of %s is not supported", callee.t->name);
    return verr();
}

static Val number_conjugate_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n) { /* z.conjugate(): the bound value rides in callee */
        ty_error(fn, call->loc, "conjugate() takes no arguments");
        return verr();
    }
    return ty_complex_conjugate(fn, vval(callee.t, callee.v), call->loc);
}

/* a.fill(value): every element set to the value converted to a's dtype, as Numba's
 * array.fill (stdlib/npfunc.py: _nj_ndarray_fill); returns None */
static Val fill_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    Val a[2] = {vval(callee.t, callee.v), ty_value(fn, b.node[0])};
    if (a[1].k != V_VAL)
        return verr();
    if (!ty_is_number(a[1].t) || (ty_is_complex(a[1].t) && !ty_is_complex(callee.t->dtype))) {
        ty_error(fn, b.node[0]->loc, "a.fill() takes a number of the array's kind, not %s",
                 a[1].t->name);
        return verr();
    }
    return ty_lib_call(fn, "_nj_ndarray_fill", "a.fill", "numpy", a, 2, call->loc);
}

static const LibEntry method_rows[] = {
    {"ndarray.fill", "value", LIB_METHOD | LIB_CPU, NULL, fill_call, "fill", 0, 0},
    {"ndarray.nonzero", "", LIB_METHOD | LIB_CPU, NULL, method_nonzero_call, "nonzero", 0, 0},
    {"ndarray.repeat", "repeats, axis=None", LIB_METHOD | LIB_CPU, NULL, method_repeat_call, "repeat", 0, 0},
    {"ndarray.sort", "axis=-1, kind=None, order=None", LIB_METHOD | LIB_CPU, NULL, method_sort_call, "sort", 0, 0},
    {"ndarray.argsort", "axis=-1, kind=None, order=None", LIB_METHOD | LIB_CPU, NULL, method_sort_call, "argsort", 0, 0},
    {"ndarray.sum", "axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True", LIB_METHOD, NULL, method_array_call, "sum", 0, 0},
    {"ndarray.prod", "axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True", LIB_METHOD, NULL, method_array_call, "prod", 0, 0},
    {"ndarray.min", "axis=None, out=None, keepdims=False, initial=<no value>, where=True", LIB_METHOD, NULL, method_array_call, "min", 0, 0},
    {"ndarray.max", "axis=None, out=None, keepdims=False, initial=<no value>, where=True", LIB_METHOD, NULL, method_array_call, "max", 0, 0},
    {"ndarray.mean", "axis=None, dtype=None, out=None, keepdims=False, *, where=True", LIB_METHOD, NULL, method_array_call, "mean", 0, 0},
    {"ndarray.var", "axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True", LIB_METHOD, NULL, method_array_call, "var", 0, 0},
    {"ndarray.std", "axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True", LIB_METHOD, NULL, method_array_call, "std", 0, 0},
    {"ndarray.argmin", "axis=None, out=None, *, keepdims=False", LIB_METHOD, NULL, method_array_call, "argmin", 0, 0},
    {"ndarray.argmax", "axis=None, out=None, *, keepdims=False", LIB_METHOD, NULL, method_array_call, "argmax", 0, 0},
    {"ndarray.any", "axis=None, out=None, keepdims=False, *, where=True", LIB_METHOD, NULL, method_array_call, "any", 0, 0},
    {"ndarray.all", "axis=None, out=None, keepdims=False, *, where=True", LIB_METHOD, NULL, method_array_call, "all", 0, 0},
    {"ndarray.transpose", "*axes", LIB_METHOD, NULL, method_array_call, "transpose", 0, 0},
    {"ndarray.reshape", "shape, order='C'", LIB_METHOD, NULL, method_reshape_call, "reshape", 0, 0},
    {"ndarray.ravel", "[order]", LIB_METHOD, NULL, method_reshape_call, "ravel", 0, 0},
    {"ndarray.flatten", "order='C'", LIB_METHOD, NULL, method_reshape_call, "flatten", 0, 0},
    {"ndarray.astype", "dtype, order='K', casting='unsafe', subok=True, copy=True", LIB_METHOD, NULL, method_reshape_call, "astype", 0, 0},
    {"ndarray.cumsum", "axis=None, dtype=None, out=None", LIB_METHOD, NULL, method_array_call, "cumsum", 0, 0},
    {"ndarray.cumprod", "axis=None, dtype=None, out=None", LIB_METHOD, NULL, method_array_call, "cumprod", 0, 0},
    {"ndarray.ptp", "axis=None, out=None, keepdims=False", LIB_METHOD | LIB_CPU, NULL, ptp_call, "ptp", 0, 0},
    {"ndarray.copy", "order='C'", LIB_METHOD | LIB_CPU | LIB_NEW_ARRAY, NULL, copy_call, "array.copy", 0, 0},
    {"ndarray.conjugate", "", LIB_METHOD | LIB_UFUNC, NULL, conjugate_call, "array.conjugate", 0, 0},
    {"ndarray.conj", "", LIB_METHOD | LIB_UFUNC, NULL, conjugate_call, "array.conjugate", 0, 0},
    {"complex.conjugate", "", LIB_METHOD, NULL, number_conjugate_call, "scalar.conjugate", 0, 0},
    {NULL},
};
const LibTable lib_ndarray_method_table = {"array methods", method_rows};

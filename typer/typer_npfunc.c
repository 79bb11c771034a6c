/* typer_npfunc.c — more of NumPy's functions in @njit functions (CPU), as Numba 0.56 has them
 * (numba/np/arraymath.py, arrayobj.py): np.interp, np.histogram, np.diff, np.bincount,
 * np.digitize, np.roll, np.repeat (and a.repeat), np.flip, np.fliplr, np.flipud, np.triu,
 * np.tril, np.count_nonzero, np.array_equal, np.around / np.round_ / np.round, np.trapz.
 *
 * The split: this file types each call with Numba's rules (which arguments, which types, the
 * dtype and shape of the result), reports what Numba refuses as a located error, allocates the
 * results (new C arrays owned until the end of the statement, as np.empty's) and raises
 * Numba's run-time errors with Numba's messages at the call.  The loops themselves are
 * functions of stdlib/npfunc.py (the numjit language, joined to every module that imports
 * numpy), specialized for the argument types as any callee: they return a status where Numba
 * raises, which the IR built here tests.  The flips are views (negative steps), no loop at all.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- small builders ------------------------------------------------------------------------- */
/* _nj_np_NAME(a...) of stdlib/npfunc.py; its result as it comes (a returned array owned). */
static Val lib(Fn *fn, const char *name, Val *a, int n, Loc loc) {
    char sym[64], shown[64];
    snprintf(sym, sizeof sym, "_nj_np_%s", name);
    snprintf(shown, sizeof shown, "np.%s", name);
    return ty_lib_call(fn, sym, shown, "numpy", a, n, loc);
}

static Val i64v(Fn *fn, int64_t x, Loc loc) { return vval(ty_i64, fn->emit ? i64c(fn, x, loc) : NULL); }

/* raise ValueError(msg) when the int64 status v compares to x by p */
static void raise_when(Fn *fn, Val v, CmpPred p, int64_t x, const char *msg, Loc loc) {
    if (!fn->emit || v.k != V_VAL)
        return;
    IrInst *s = ty_cast(fn, v.v, v.t, ty_i64, loc);
    IrInst *c = i64c(fn, x, loc);
    ty_raise_if(fn, cmp(fn, p, s, c, loc), RAISE_VALUE, msg, loc);
}

/* A new C array of dtype dt and nd extents dims (emission), its type alone (inference). */
static Val new_array(Fn *fn, const Type *dt, int nd, IrInst **dims, Loc loc) {
    const Type *t = ty_array(dt, nd, LAYOUT_C);
    if (!fn->emit)
        return vval(t, NULL);
    return ty_alloc(fn, t, dims, false, loc);
}

/* a new C array of a's shape and dtype dt */
static Val like(Fn *fn, Val a, const Type *dt, Loc loc) {
    IrInst *dims[TY_MAX_NDIM];
    for (int d = 0; fn->emit && d < a.t->ndim; d++)
        dims[d] = extent(fn, a.v, d, loc);
    return new_array(fn, dt, a.t->ndim, dims, loc);
}

/* ---- arguments ------------------------------------------------------------------------------ */
/* The array argument e of np.NAME (at least mindim dimensions; complex elements only when
 * cplx); V_ERR after an error. */
static Val array_arg(Fn *fn, Node *e, const char *name, const char *what, int mindim, bool cplx) {
    Val a = ty_value(fn, e);
    if (a.k != V_VAL)
        return verr();
    if (a.t->kind != TY_ARRAY) {
        ty_error(fn, e->loc, "np.%s() needs an array for %s, not %s", name, what, a.t->name);
        return verr();
    }
    if (!ty_is_elem(a.t->dtype) || (!cplx && ty_is_complex(a.t->dtype))) {
        ty_error(fn, e->loc, "np.%s() of %s is not supported", name, a.t->name);
        return verr();
    }
    if (a.t->ndim < mindim) {
        ty_error(fn, e->loc, "np.%s() needs an array of at least %d dimension%s, not %s", name,
                 mindim, mindim > 1 ? "s" : "", a.t->name);
        return verr();
    }
    return a;
}

/* An integer argument (bool too where Numba takes it), as int64; dflt when e is NULL. */
static Val int_arg(Fn *fn, Node *e, const char *name, const char *what, int64_t dflt,
                   bool boolean) {
    if (!e)
        return i64v(fn, dflt, (Loc){0});
    Val v = ty_value(fn, e);
    if (v.k != V_VAL)
        return verr();
    if (!ty_is_int(v.t) && !(boolean && v.t == ty_bool)) {
        ty_error(fn, e->loc, "np.%s(): %s must be an integer, not %s", name, what, v.t->name);
        return verr();
    }
    return vval(ty_i64, fn->emit ? ty_cast(fn, v.v, v.t, ty_i64, e->loc) : NULL);
}

static bool bind(Fn *fn, Node *call, const char *name, const char *const *params, int nreq,
                 Node **out) {
    char shown[48];
    snprintf(shown, sizeof shown, "np.%s", name);
    return ty_np_bind(fn, call, arena_strdup(fn->tc->arena, shown), params, nreq, out);
}

static IrInst *len_of(Fn *fn, Val a, Loc loc) { return fn->emit ? extent(fn, a.v, 0, loc) : NULL; }

/* ---- np.interp ------------------------------------------------------------------------------ */
static Val interp(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    if (!bind(fn, call, "interp", (const char *const[]){"x", "xp", "fp", NULL}, 3, arg))
        return verr();
    Val x = ty_value(fn, arg[0]);
    if (x.k != V_VAL)
        return verr();
    Val xp = array_arg(fn, arg[1], "interp", "xp", 1, true);
    Val fp = array_arg(fn, arg[2], "interp", "fp", 1, true);
    if (xp.k != V_VAL || fp.k != V_VAL)
        return verr();
    if (xp.t->ndim > 1 || fp.t->ndim > 1) {
        ty_error(fn, (xp.t->ndim > 1 ? arg[1] : arg[2])->loc, "%s must be 1D",
                 xp.t->ndim > 1 ? "xp" : "fp");
        return verr();
    }
    const Type *xdt = x.t->kind == TY_ARRAY ? x.t->dtype : x.t;
    if (ty_is_complex(xp.t->dtype) || ty_is_complex(xdt)) {
        ty_error(fn, (ty_is_complex(xdt) ? arg[0] : arg[1])->loc,
                 "Cannot cast array data from complex dtype to float64 dtype");
        return verr();
    }
    if (!ty_is_scalar(xdt)) {
        ty_error(fn, arg[0]->loc, "np.interp() of %s is not supported", x.t->name);
        return verr();
    }
    bool cplx = ty_is_complex(fp.t->dtype);
    const Type *rdt = cplx ? ty_c128 : ty_f64;
    if (fn->emit) {
        IrInst *n = len_of(fn, xp, loc), *m = len_of(fn, fp, loc);
        ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_VALUE, "array of sample points is empty",
                 loc);
        ty_raise_if(fn, cmp(fn, CMP_NE, n, m, loc), RAISE_VALUE, "fp and xp are not of the same size.", loc);
    }
    /* Numba reads x, xp and fp as float64 (fp as it is when complex, xp too then) */
    if (!cplx && xp.t->dtype != ty_f64)
        xp = ty_array_convert(fn, xp, ty_array(ty_f64, 1, LAYOUT_C), loc);
    if (!cplx && fp.t->dtype != ty_f64)
        fp = ty_array_convert(fn, fp, ty_array(ty_f64, 1, LAYOUT_C), loc);
    Val xs = x, out;
    if (x.t->kind == TY_ARRAY) {
        if (x.t->dtype != ty_f64)
            xs = ty_array_convert(fn, x, ty_array(ty_f64, x.t->ndim, LAYOUT_C), loc);
        out = like(fn, x, rdt, loc);
    } else {
        IrInst *one = fn->emit ? i64c(fn, 1, loc) : NULL;
        xs = new_array(fn, ty_f64, 1, &one, loc);
        out = new_array(fn, rdt, 1, &one, loc);
        if (fn->emit) {
            IrInst *ops[3] = {xs.v, i64c(fn, 0, loc), ty_cast(fn, x.v, x.t, ty_f64, loc)};
            ty_emit(fn, IR_ASTORE, ty_void, loc, 3, ops);
        }
    }
    Val args[4] = {xs, xp, fp, out};
    if (lib(fn, cplx ? "interp_c" : "interp", args, 4, loc).k != V_VAL)
        return verr();
    if (x.t->kind == TY_ARRAY || !fn->emit)
        return x.t->kind == TY_ARRAY ? out : vval(rdt, NULL);
    IrInst *ops[2] = {out.v, i64c(fn, 0, loc)};
    return vval(rdt, ty_emit(fn, IR_ALOAD, rdt, loc, 2, ops));
}

/* ---- np.histogram --------------------------------------------------------------------------- */
static Val histogram(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    if (!bind(fn, call, "histogram", (const char *const[]){"a", "bins", "range", NULL}, 1, arg))
        return verr();
    Val a = array_arg(fn, arg[0], "histogram", "a", 1, false);
    if (a.k != V_VAL)
        return verr();
    Val bins = arg[1] ? ty_value(fn, arg[1]) : i64v(fn, 10, loc);
    if (bins.k != V_VAL)
        return verr();
    const Type *ht = ty_array(ty_i64, 1, LAYOUT_C);
    if (bins.t->kind == TY_ARRAY) { /* the edges given: bisection */
        if (bins.t->ndim != 1 || !ty_is_scalar(bins.t->dtype)) {
            ty_error(fn, arg[1]->loc, "np.histogram() of bins %s is not supported", bins.t->name);
            return verr();
        }
        Val ok = lib(fn, "hist_edges_ok", &bins, 1, loc);
        raise_when(fn, ok, CMP_EQ, 0, "histogram(): bins must increase monotonically", loc);
        IrInst *nb = NULL;
        if (fn->emit) {
            IrInst *one = i64c(fn, 1, loc);
            nb = bin(fn, IR_SUB, ty_i64, len_of(fn, bins, loc), one, loc);
            ty_raise_if(fn, cmp(fn, CMP_LT, nb, i64c(fn, 0, loc), loc), RAISE_VALUE,
                     "negative dimensions not allowed", loc);
        }
        Val hist = new_array(fn, ty_i64, 1, &nb, loc);
        Val args[3] = {a, bins, hist};
        if (lib(fn, "hist_edges", args, 3, loc).k != V_VAL)
            return verr();
        const Type *tt = ty_tuple((const Type *[]){ht, bins.t}, 2);
        if (!fn->emit)
            return vval(tt, NULL);
        bins = ty_keep(fn, bins, loc);
        IrInst *el[2] = {hist.v, bins.v};
        return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, 2, el));
    }
    if (!ty_is_int(bins.t) && bins.t != ty_bool) {
        ty_error(fn, arg[1]->loc, "np.histogram() of bins %s is not supported (an integer or an "
                 "array of edges)", bins.t->name);
        return verr();
    }
    bins = vval(ty_i64, fn->emit ? ty_cast(fn, bins.v, bins.t, ty_i64, loc) : NULL);
    Val lo, hi;
    Node *r = arg[2];
    if (!r || r->kind == ND_NONE) {
        lo = lib(fn, "hist_min", &a, 1, loc);
        hi = lib(fn, "hist_max", &a, 1, loc);
    } else if (r->kind == ND_TUPLE && r->list.n == 2) {
        lo = ty_value(fn, r->list.items[0]);
        hi = ty_value(fn, r->list.items[1]);
        if (lo.k == V_VAL && hi.k == V_VAL && (!ty_is_scalar(lo.t) || !ty_is_scalar(hi.t))) {
            ty_error(fn, r->loc, "range= of np.histogram() must be two numbers, not %s and %s",
                     lo.t->name, hi.t->name);
            return verr();
        }
    } else {
        ty_error(fn, r->loc, "range= of np.histogram() must be written as a tuple (lo, hi) "
                 "in the call for numjit");
        return verr();
    }
    if (lo.k != V_VAL || hi.k != V_VAL)
        return verr();
    Val chk[3] = {bins, lo, hi};
    Val st = lib(fn, "hist_check", chk, 3, loc);
    raise_when(fn, st, CMP_EQ, 1, "histogram(): `bins` should be a positive integer", loc);
    raise_when(fn, st, CMP_EQ, 2, "histogram(): max must be larger than min in range parameter",
               loc);
    Val hist = new_array(fn, ty_i64, 1, &bins.v, loc);
    Val args[5] = {a, bins, lo, hi, hist};
    Val edges = lib(fn, "hist_uniform", args, 5, loc);
    if (edges.k != V_VAL)
        return verr();
    const Type *tt = ty_tuple((const Type *[]){ht, edges.t}, 2);
    if (!fn->emit)
        return vval(tt, NULL);
    IrInst *el[2] = {hist.v, edges.v};
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, 2, el));
}

/* ---- np.diff -------------------------------------------------------------------------------- */
static Val diff(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[2];
    if (!bind(fn, call, "diff", (const char *const[]){"a", "n", NULL}, 1, arg))
        return verr();
    Val a = array_arg(fn, arg[0], "diff", "a", 1, true);
    Val n = int_arg(fn, arg[1], "diff", "n", 1, false);
    if (a.k != V_VAL || n.k != V_VAL)
        return verr();
    if (a.t->layout != LAYOUT_C) { /* Numba reshapes a: only a C array types */
        ty_error(fn, arg[0]->loc, "np.diff() of a non-contiguous array (%s) is not supported "
                 "(Numba 0.56 reshapes it)", a.t->name);
        return verr();
    }
    int nd = a.t->ndim;
    IrInst *dims[TY_MAX_NDIM], *size = NULL;
    if (fn->emit) {
        ty_raise_if(fn, cmp(fn, CMP_LT, n.v, i64c(fn, 0, loc), loc), RAISE_VALUE,
                 "diff(): order must be non-negative", loc);
        for (int d = 0; d < nd; d++)
            dims[d] = extent(fn, a.v, d, loc);
        size = dims[nd - 1];
        IrInst *m = bin(fn, IR_SUB, ty_i64, size, n.v, loc);
        IrInst *zero = i64c(fn, 0, loc);
        dims[nd - 1] = sel(fn, ty_i64, cmp(fn, CMP_LT, m, zero, loc), zero, m, loc);
    }
    Val out = new_array(fn, a.t->dtype, nd, dims, loc);
    Val args[4] = {a, n, vval(ty_i64, size), out};
    if (lib(fn, "diff", args, 4, loc).k != V_VAL)
        return verr();
    return out;
}

/* ---- np.trapz ------------------------------------------------------------------------------- */
/* np.trapz(y, x=None, dx=1.0) of a 1-d y, as Numba computes it (stdlib/npfunc.py). */
static Val trapz(Fn *fn, Node *call) {
    Node *arg[3];
    if (!bind(fn, call, "trapz", (const char *const[]){"y", "x", "dx", NULL}, 1, arg))
        return verr();
    Val y = array_arg(fn, arg[0], "trapz", "y", 1, true);
    if (y.k != V_VAL)
        return verr();
    if (y.t->ndim != 1) {
        ty_error(fn, arg[0]->loc, "np.trapz() of %s is not supported by numjit (a 1-d y)",
                 y.t->name);
        return verr();
    }
    Val args[2] = {y};
    if (arg[1] && arg[1]->kind != ND_NONE) {
        if ((args[1] = array_arg(fn, arg[1], "trapz", "x", 1, true)).k != V_VAL)
            return verr();
        if (args[1].t->ndim != 1) {
            ty_error(fn, arg[1]->loc, "np.trapz() with x of %s is not supported by numjit (a "
                     "1-d x)", args[1].t->name);
            return verr();
        }
        return lib(fn, "trapz_x", args, 2, call->loc);
    }
    if (arg[2]) {
        if ((args[1] = ty_value(fn, arg[2])).k != V_VAL)
            return verr();
        if (!ty_is_scalar(args[1].t)) {
            ty_error(fn, arg[2]->loc, "np.trapz(): dx must be a number, not %s", args[1].t->name);
            return verr();
        }
    } else {
        args[1] = vval(ty_f64, fn->emit ? ty_const_float(fn, ty_f64, 1.0, call->loc) : NULL);
    }
    return lib(fn, "trapz_dx", args, 2, call->loc);
}

/* ---- np.bincount ---------------------------------------------------------------------------- */
static Val bincount(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    if (!bind(fn, call, "bincount", (const char *const[]){"x", "weights", "minlength", NULL}, 1,
              arg))
        return verr();
    Val x = array_arg(fn, arg[0], "bincount", "x", 1, false);
    if (x.k != V_VAL)
        return verr();
    if (x.t->ndim != 1 || !ty_is_int(x.t->dtype)) {
        ty_error(fn, arg[0]->loc, "np.bincount() needs a 1-d array of integers, not %s",
                 x.t->name);
        return verr();
    }
    Val w = verr();
    if (arg[1] && arg[1]->kind != ND_NONE) {
        if ((w = array_arg(fn, arg[1], "bincount", "weights", 1, false)).k != V_VAL)
            return verr();
        if (w.t->ndim != 1) {
            ty_error(fn, arg[1]->loc, "bincount(): input should have dimension 1");
            return verr();
        }
    }
    Val ml = int_arg(fn, arg[2], "bincount", "minlength", 0, false);
    if (ml.k != V_VAL)
        return verr();
    if (fn->emit) {
        if (w.k == V_VAL)
            ty_raise_if(fn, cmp(fn, CMP_NE, len_of(fn, x, loc), len_of(fn, w, loc), loc), RAISE_VALUE,
                     "bincount(): weights and list don't have the same length", loc);
        ty_raise_if(fn, cmp(fn, CMP_LT, ml.v, i64c(fn, 0, loc), loc), RAISE_VALUE,
                 "'minlength' must not be negative", loc);
    }
    Val la[2] = {x, ml};
    Val n = lib(fn, "bincount_len", la, 2, loc);
    if (n.k != V_VAL)
        return verr();
    raise_when(fn, n, CMP_LT, 0, "bincount(): first argument must be non-negative", loc);
    IrInst *len = fn->emit ? ty_cast(fn, n.v, n.t, ty_i64, loc) : NULL;
    Val out = new_array(fn, w.k == V_VAL ? ty_f64 : ty_i64, 1, &len, loc);
    Val args[3] = {x, w, out};
    Val r = w.k == V_VAL ? lib(fn, "bincount_w", args, 3, loc)
                         : lib(fn, "bincount", (Val[]){x, out}, 2, loc);
    return r.k == V_VAL ? out : verr();
}

/* ---- np.digitize ---------------------------------------------------------------------------- */
static Val digitize(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    if (!bind(fn, call, "digitize", (const char *const[]){"x", "bins", "right", NULL}, 2, arg))
        return verr();
    Val x = array_arg(fn, arg[0], "digitize", "x", 1, false);
    Val bins = array_arg(fn, arg[1], "digitize", "bins", 1, false);
    if (x.k != V_VAL || bins.k != V_VAL)
        return verr();
    if (bins.t->ndim != 1) {
        ty_error(fn, arg[1]->loc, "np.digitize() needs 1-d bins, not %s", bins.t->name);
        return verr();
    }
    Val right = vval(ty_bool, fn->emit ? ty_const_int(fn, ty_bool, 0, loc) : NULL);
    if (arg[2]) {
        Val r = ty_value(fn, arg[2]);
        if (r.k != V_VAL)
            return verr();
        if (!ty_is_scalar(r.t)) {
            ty_error(fn, arg[2]->loc, "right= of np.digitize() must be a bool, not %s", r.t->name);
            return verr();
        }
        right = vval(ty_bool, fn->emit ? ty_truth(fn, r, loc) : NULL);
    }
    Val up = lib(fn, "digitize_dir", &bins, 1, loc);
    raise_when(fn, up, CMP_LT, 0, "bins must be monotonically increasing or decreasing", loc);
    Val out = like(fn, x, ty_i64, loc);
    Val args[5] = {x, bins, right, up, out};
    return lib(fn, "digitize", args, 5, loc).k == V_VAL ? out : verr();
}

/* ---- np.roll, np.repeat --------------------------------------------------------------------- */
static Val roll(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[2];
    if (!bind(fn, call, "roll", (const char *const[]){"a", "shift", NULL}, 2, arg))
        return verr();
    Val a = array_arg(fn, arg[0], "roll", "a", 1, true);
    if (a.k != V_VAL)
        return verr();
    Val s = ty_value(fn, arg[1]);
    if (s.k != V_VAL)
        return verr();
    if (!ty_is_int(s.t) && s.t != ty_bool) {
        ty_error(fn, arg[1]->loc, "shift must be an integer");
        return verr();
    }
    s = vval(ty_i64, fn->emit ? ty_cast(fn, s.v, s.t, ty_i64, loc) : NULL);
    Val out = like(fn, a, a.t->dtype, loc);
    Val args[3] = {a, s, out};
    return lib(fn, "roll", args, 3, loc).k == V_VAL ? out : verr();
}

static Val repeat(Fn *fn, Node *call, Val self) {
    Loc loc = call->loc;
    Node *arg[2];
    Val a;
    if (self.k == V_METHOD) {
        if (!ty_bind_args(fn, call, "a.repeat", (const char *const[]){"repeats", NULL}, 1, 1, 0,
                          arg + 1))
            return verr();
        a = vval(self.t, self.v);
        if (!ty_is_elem(a.t->dtype)) {
            ty_error(fn, loc, "a.repeat() of %s is not supported", a.t->name);
            return verr();
        }
    } else {
        if (!bind(fn, call, "repeat", (const char *const[]){"a", "repeats", NULL}, 2, arg) ||
            (a = array_arg(fn, arg[0], "repeat", "a", 1, true)).k != V_VAL)
            return verr();
    }
    Val r = ty_value(fn, arg[1]);
    if (r.k != V_VAL)
        return verr();
    bool each = r.t->kind == TY_ARRAY;
    if (!(each ? r.t->ndim == 1 && ty_is_int(r.t->dtype) : ty_is_int(r.t))) {
        ty_error(fn, arg[1]->loc, "The repeats argument must be an integer or an array-like of "
                 "integer dtype");
        return verr();
    }
    IrInst *total = NULL;
    Val args[3] = {a, r, verr()};
    if (each) {
        Val t = lib(fn, "repeat_total", args, 2, loc);
        if (t.k != V_VAL)
            return verr();
        raise_when(fn, t, CMP_EQ, -1, "negative dimensions are not allowed", loc);
        raise_when(fn, t, CMP_EQ, -2, "operands could not be broadcast together", loc);
        total = fn->emit ? ty_cast(fn, t.v, t.t, ty_i64, loc) : NULL;
    } else if (fn->emit) {
        args[1] = r = vval(ty_i64, ty_cast(fn, r.v, r.t, ty_i64, loc));
        ty_raise_if(fn, cmp(fn, CMP_LT, r.v, i64c(fn, 0, loc), loc), RAISE_VALUE,
                 "negative dimensions are not allowed", loc);
        total = r.v;
        for (int d = 0; d < a.t->ndim; d++)
            total = bin(fn, IR_MUL, ty_i64, total, extent(fn, a.v, d, loc), loc);
    } else {
        args[1] = vval(ty_i64, NULL);
    }
    args[2] = new_array(fn, a.t->dtype, 1, &total, loc);
    return lib(fn, each ? "repeat_each" : "repeat", args, 3, loc).k == V_VAL ? args[2] : verr();
}

/* ---- the flips: views with negative steps --------------------------------------------------- */
static Val flip(Fn *fn, const char *name, Node *call) {
    Node *arg[1];
    if (!bind(fn, call, name, (const char *const[]){"m", NULL}, 1, arg))
        return verr();
    int lr = !strcmp(name, "fliplr"), ud = !strcmp(name, "flipud");
    Val a = array_arg(fn, arg[0], name, "m", lr ? 2 : 1, true);
    if (a.k != V_VAL)
        return verr();
    /* a[::-1, ::-1, ...] (np.flip), a[:, ::-1] (fliplr), a[::-1] (flipud) */
    Arena *ar = fn->tc->arena;
    Node *ix = ast_new(ar, ND_TUPLE, call->loc);
    int nd = a.t->ndim;
    Node **items = arena_alloc(ar, sizeof(Node *) * (size_t)nd);
    if (!ix || !items)
        return verr();
    for (int d = 0; d < nd; d++) {
        items[d] = ast_new(ar, ND_SLICE, call->loc);
        if (!items[d])
            return verr();
        if ((lr && d == 1) || (ud && d == 0) || (!lr && !ud)) {
            Node *m1 = ast_new(ar, ND_INT, call->loc);
            if (!m1)
                return verr();
            m1->ival = -1;
            items[d]->c = m1;
        }
    }
    ix->list.items = items;
    ix->list.n = nd;
    return ty_array_view(fn, a, ix, call->loc);
}

/* ---- np.triu, np.tril ----------------------------------------------------------------------- */
static Val tri(Fn *fn, const char *name, Node *call) {
    Loc loc = call->loc;
    Node *arg[2];
    if (!bind(fn, call, name, (const char *const[]){"m", "k", NULL}, 1, arg))
        return verr();
    Val m = array_arg(fn, arg[0], name, "m", 1, true);
    Val k = int_arg(fn, arg[1], name, "k", 0, false);
    if (m.k != V_VAL || k.k != V_VAL)
        return verr();
    int nd = m.t->ndim;
    bool square = nd == 1;
    IrInst *dims[TY_MAX_NDIM], *rows = NULL, *cols = NULL;
    if (fn->emit) {
        for (int d = 0; d < nd; d++)
            dims[d] = extent(fn, m.v, d, loc);
        if (square)
            dims[1] = dims[0];
        rows = dims[square ? 0 : nd - 2];
        cols = dims[square ? 0 : nd - 1];
    }
    Val out = new_array(fn, m.t->dtype, square ? 2 : nd, dims, loc);
    IrInst *up = fn->emit ? ty_const_int(fn, ty_bool, !strcmp(name, "triu"), loc) : NULL;
    IrInst *sq = fn->emit ? ty_const_int(fn, ty_bool, square, loc) : NULL;
    Val args[7] = {m, k, vval(ty_i64, rows), vval(ty_i64, cols), vval(ty_bool, up),
                   vval(ty_bool, sq), out};
    return lib(fn, "trilu", args, 7, loc).k == V_VAL ? out : verr();
}

/* ---- np.count_nonzero, np.array_equal ------------------------------------------------------- */
static Val count_nonzero(Fn *fn, Node *call) {
    Node *arg[2];
    if (!bind(fn, call, "count_nonzero", (const char *const[]){"a", "axis", NULL}, 1, arg))
        return verr();
    if (arg[1] && arg[1]->kind != ND_NONE) {
        ty_error(fn, arg[1]->loc, "np.count_nonzero() along an axis is not supported by numjit");
        return verr();
    }
    Val a = array_arg(fn, arg[0], "count_nonzero", "a", 1, true);
    if (a.k != V_VAL)
        return verr();
    Val c = lib(fn, "count_nonzero", &a, 1, call->loc);
    if (c.k != V_VAL || !fn->emit)
        return c.k == V_VAL ? vval(ty_i64, NULL) : verr();
    return vval(ty_i64, ty_cast(fn, c.v, c.t, ty_i64, call->loc));
}

static Val array_equal(Fn *fn, Node *call) {
    Loc loc = call->loc;
    Node *arg[2];
    if (!bind(fn, call, "array_equal", (const char *const[]){"a1", "a2", NULL}, 2, arg))
        return verr();
    Val a = ty_value(fn, arg[0]), b = ty_value(fn, arg[1]);
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
    bool aa = a.t->kind == TY_ARRAY, ba = b.t->kind == TY_ARRAY;
    for (int i = 0; i < 2; i++) {
        const Type *t = i ? b.t : a.t;
        if (!ty_is_elem(t->kind == TY_ARRAY ? t->dtype : t)) {
            ty_error(fn, arg[i]->loc, "Both arguments to \"array_equals\" must be array-like, "
                     "not %s", t->name);
            return verr();
        }
    }
    if (!aa && !ba) /* two numbers: a == b */
        return lib(fn, "eq", (Val[]){a, b}, 2, loc);
    if (!aa || !ba || a.t->ndim != b.t->ndim) /* the shapes differ */
        return vval(ty_bool, fn->emit ? ty_const_int(fn, ty_bool, 0, loc) : NULL);
    IrInst *same = NULL;
    if (fn->emit) {
        same = ty_const_int(fn, ty_bool, 1, loc);
        for (int d = 0; d < a.t->ndim; d++) {
            IrInst *ea = extent(fn, a.v, d, loc);
            IrInst *eb = extent(fn, b.v, d, loc);
            IrInst *c = cmp(fn, CMP_EQ, ea, eb, loc);
            same = bin(fn, IR_BITAND, ty_bool, same, c, loc);
        }
    }
    Val args[3] = {a, b, vval(ty_bool, same)};
    return lib(fn, "array_equal", args, 3, loc);
}

/* ---- np.around ------------------------------------------------------------------------------ */
static IrInst *rint_of(Fn *fn, const Type *t, IrInst *x, Loc loc) {
    IrInst *r = ty_emit(fn, IR_MATH, t, loc, 1, &x);
    if (r)
        r->imm.index = MATH_RINT;
    return r;
}

/* x (a float or an integer, of type t) rounded to nd decimals (nd NULL: to an integer) */
static IrInst *round_real(Fn *fn, const Type *t, IrInst *x, Val nd, Loc loc) {
    if (nd.k != V_VAL)
        return ty_is_float(t) ? rint_of(fn, t, x, loc) : x;
    Val args[2] = {vval(ty_f64, ty_cast(fn, x, t, ty_f64, loc)), nd};
    Val r = lib(fn, "round_nd", args, 2, loc);
    return r.k == V_VAL ? ty_cast(fn, r.v, r.t, t, loc) : NULL;
}

static IrInst *round_elem(Fn *fn, const Type *t, IrInst *x, Val nd, Loc loc) {
    if (!ty_is_complex(t))
        return round_real(fn, t, x, nd, loc);
    const Type *ft = t == ty_c64 ? ty_f32 : ty_f64;
    IrInst *re = ty_cpart(fn, x, t, 0, loc);
    re = round_real(fn, ft, re, nd, loc);
    IrInst *im = ty_cpart(fn, x, t, 1, loc);
    im = round_real(fn, ft, im, nd, loc);
    return ty_complex_make(fn, t, re, im, loc);
}

static Val around(Fn *fn, const char *name, Node *call) {
    Loc loc = call->loc;
    Node *arg[3];
    if (!bind(fn, call, name, (const char *const[]){"a", "decimals", "out", NULL}, 1, arg))
        return verr();
    Val x = ty_value(fn, arg[0]);
    if (x.k != V_VAL)
        return verr();
    Val nd = verr();
    if (arg[1] && (nd = int_arg(fn, arg[1], name, "decimals", 0, false)).k != V_VAL)
        return verr();
    bool has_out = arg[2] && arg[2]->kind != ND_NONE;
    if (x.t->kind != TY_ARRAY) {
        if (!ty_is_number(x.t) && !ty_is_complex(x.t)) {
            ty_error(fn, arg[0]->loc, "np.%s() of %s is not supported", name, x.t->name);
            return verr();
        }
        if (has_out) {
            ty_error(fn, arg[2]->loc, "np.%s() of a number takes no out=", name);
            return verr();
        }
        if (!fn->emit) {
            /* the callee's types are settled while inferring too */
            if (nd.k == V_VAL)
                lib(fn, "round_nd", (Val[]){vval(ty_f64, NULL), nd}, 2, loc);
            return vval(x.t, NULL);
        }
        return vval(x.t, round_elem(fn, x.t, x.v, nd, loc));
    }
    /* an array: Numba 0.56 has np.around(a, decimals, out) only */
    if (!has_out || !arg[1]) {
        ty_error(fn, loc, "np.%s() of an array needs decimals and out in Numba 0.56 "
                 "(np.%s(a, decimals, out))", name, name);
        return verr();
    }
    Val out = ty_value(fn, arg[2]);
    if (out.k != V_VAL)
        return verr();
    if (out.t->kind != TY_ARRAY || out.t->ndim != x.t->ndim || out.t->readonly ||
        !ty_is_elem(out.t->dtype) || !ty_is_elem(x.t->dtype) ||
        (ty_is_complex(x.t->dtype) && !ty_is_complex(out.t->dtype))) {
        ty_error(fn, arg[2]->loc, "np.%s(): out %s does not fit %s", name, out.t->name,
                 x.t->name);
        return verr();
    }
    if (!fn->emit) {
        lib(fn, "round_nd", (Val[]){vval(ty_f64, NULL), nd}, 2, loc);
        return out;
    }
    int n = x.t->ndim;
    IrInst *bad = ty_const_int(fn, ty_bool, 0, loc);
    for (int d = 0; d < n; d++) {
        IrInst *ea = extent(fn, x.v, d, loc);
        IrInst *eb = extent(fn, out.v, d, loc);
        IrInst *c = cmp(fn, CMP_NE, ea, eb, loc);
        bad = bin(fn, IR_BITOR, ty_bool, bad, c, loc);
    }
    ty_raise_if(fn, bad, RAISE_VALUE, "invalid output shape", loc);
    TyLoop L[TY_MAX_NDIM];
    IrInst *ix[TY_MAX_NDIM + 2] = {x.v};
    for (int d = 0; d < n; d++)
        ix[d + 1] = ty_loop_open(fn, &L[d], extent(fn, x.v, d, loc), loc);
    IrInst *v = ty_emit(fn, IR_ALOAD, x.t->dtype, loc, n + 1, ix);
    v = round_elem(fn, x.t->dtype, v, nd, loc);
    ix[0] = out.v;
    ix[n + 1] = ty_cast(fn, v, x.t->dtype, out.t->dtype, loc);
    ty_emit(fn, IR_ASTORE, ty_void, loc, n + 2, ix);
    for (int d = n - 1; d >= 0; d--)
        ty_loop_close(fn, &L[d], loc);
    return ty_keep(fn, out, loc);
}

/* ---- dispatch ------------------------------------------------------------------------------- */
Val ty_npfunc_call(Fn *fn, const char *name, Node *call, Val self) {
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, call->loc, "np.%s() is not supported on the GPU", name);
        return verr();
    }
    if (!strcmp(name, "interp"))
        return interp(fn, call);
    if (!strcmp(name, "histogram"))
        return histogram(fn, call);
    if (!strcmp(name, "diff"))
        return diff(fn, call);
    if (!strcmp(name, "bincount"))
        return bincount(fn, call);
    if (!strcmp(name, "digitize"))
        return digitize(fn, call);
    if (!strcmp(name, "roll"))
        return roll(fn, call);
    if (!strcmp(name, "repeat"))
        return repeat(fn, call, self);
    if (!strncmp(name, "flip", 4))
        return flip(fn, name, call);
    if (!strcmp(name, "triu") || !strcmp(name, "tril"))
        return tri(fn, name, call);
    if (!strcmp(name, "count_nonzero"))
        return count_nonzero(fn, call);
    if (!strcmp(name, "array_equal"))
        return array_equal(fn, call);
    if (!strcmp(name, "trapz"))
        return trapz(fn, call);
    return around(fn, name, call);
}

/* session_call.c — a session's calls: array constructors (np.array of nested lists, zeros,
 * arange, ...), random numbers, .npy files, print, reductions and the other NumPy functions a
 * session runs itself, methods of arrays, and calls of compiled functions.
 *
 * A call is resolved to a qualified name ("numpy.zeros", "builtin.print", "func.f"), its
 * arguments bound by session_args.c, and handled here.
 */
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- constructors ----------------------------------------------------------------------------- */
NjStatus se_made(NjSession *s, Loc loc, SArr *a, SVal *out) {
    if (!a)
        return se_arg_error(s, loc, NJ_ERR_NOMEM, "out of memory");
    *out = sv_array(a);
    return NJ_OK;
}

/* np.array([...]) of nested lists or tuples of numbers */

/* len() of a str: its code points (the scanner let only well-formed UTF-8 into the program). */
static int64_t str_code_points(const char *s)
{
    int64_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static NjStatus list_shape(NjSession *s, Node *n, int depth, int *nd, int64_t *shape) {
    if (n->kind != ND_LIST && n->kind != ND_TUPLE) {
        if (*nd < 0)
            *nd = depth;
        else if (*nd != depth)
            return se_arg_error(s, n->loc, NJ_ERR_ARGS, "inhomogeneous nested lists");
        return NJ_OK;
    }
    if (depth >= NJ_MAX_NDIM)
        return se_arg_error(s, n->loc, NJ_ERR_ARGS, "too deeply nested");
    if (shape[depth] < 0)
        shape[depth] = n->list.n;
    else if (shape[depth] != n->list.n)
        return se_arg_error(s, n->loc, NJ_ERR_ARGS, "inhomogeneous nested lists");
    if (n->list.n == 0 && *nd < 0)
        *nd = depth + 1;
    for (int i = 0; i < n->list.n; i++) {
        NjStatus st = list_shape(s, n->list.items[i], depth + 1, nd, shape);
        if (st)
            return st;
    }
    return NJ_OK;
}

static NjStatus list_values(NjSession *s, Node *n, SVal *vals, int64_t *k) {
    if (n->kind == ND_LIST || n->kind == ND_TUPLE) {
        for (int i = 0; i < n->list.n; i++) {
            NjStatus st = list_values(s, n->list.items[i], vals, k);
            if (st)
                return st;
        }
        return NJ_OK;
    }
    NjStatus st = se_eval(s, n, &vals[*k]);
    if (st)
        return st;
    if (vals[*k].kind != SV_SCALAR) {
        sv_free(&vals[*k]);
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "np.array() takes numbers here");
    }
    (*k)++;
    return NJ_OK;
}

static NjStatus make_array(NjSession *s, Node *call, SVal *out) {
    Node *src = se_arg_node(call, 0, "object");
    if (!src)
        return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.array() needs a list");
    NjDType dt;
    bool has_dt = se_arg_node(call, 1, "dtype") != NULL;
    NjStatus st = se_eval_dtype(s, se_arg_node(call, 1, "dtype"), NJ_FLOAT64, &dt);
    if (st)
        return st;
    if (src->kind != ND_LIST && src->kind != ND_TUPLE) {
        SVal v;
        if ((st = se_eval(s, src, &v)))
            return st;
        if (v.kind == SV_ARRAY) {
            SArr *c = sa_cast_copy(&v.arr->a, has_dt ? dt : v.arr->a.dtype);
            sv_free(&v);
            return se_made(s, call->loc, c, out);
        }
        if (v.kind != SV_SCALAR) {
            sv_free(&v);
            return se_arg_error(s, src->loc, NJ_ERR_TYPE, "np.array() takes a list or an array");
        }
        SArr *a = sa_full(has_dt ? dt : v.dtype, 0, NULL, &v);
        return se_made(s, call->loc, a, out);
    }
    int nd = -1;
    int64_t shape[NJ_MAX_NDIM];
    for (int i = 0; i < NJ_MAX_NDIM; i++)
        shape[i] = -1;
    if ((st = list_shape(s, src, 0, &nd, shape)))
        return st;
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    SVal *vals = calloc((size_t)(n ? n : 1), sizeof *vals);
    if (!vals)
        return NJ_ERR_NOMEM;
    int64_t k = 0;
    st = list_values(s, src, vals, &k);
    if (!st) {
        if (!has_dt) {
            bool fl = false, in = false;
            for (int64_t i = 0; i < k; i++) {
                fl |= vals[i].dtype == NJ_FLOAT64 || vals[i].dtype == NJ_FLOAT32;
                in |= vals[i].dtype != NJ_BOOL;
            }
            dt = fl ? NJ_FLOAT64 : in || k == 0 ? (k ? NJ_INT64 : NJ_FLOAT64) : NJ_BOOL;
        }
        SArr *a = sa_new(dt, nd, shape);
        if (a) {
            int isz = nj_dtype_size(dt);
            for (int64_t i = 0; i < k; i++) {
                SVal c = dt == NJ_FLOAT32 || dt == NJ_FLOAT64 ? sv_scalar_f(dt, sv_as_double(&vals[i]))
                                                             : sv_scalar_i(dt, sv_as_int(&vals[i]));
                sv_store((char *)a->buf + i * isz, &c);
            }
        }
        st = se_made(s, call->loc, a, out);
    }
    free(vals);
    return st;
}

static NjStatus random_body(NjSession *s, Node *call, const char *what, uint64_t *state,
                            SVal *out) {
    static const char *const kws[] = {"low", "high", "loc", "scale", "size", "seed", NULL};
    NjStatus st = se_check_kwargs(s, call, kws);
    if (st)
        return st;
    bool normal = !strcmp(what, "normal") || !strcmp(what, "standard_normal");
    bool unit = !strcmp(what, "random") || !strcmp(what, "standard_normal") || !strcmp(what, "rand");
    if (!normal && !unit && strcmp(what, "uniform"))
        return se_arg_error(s, call->loc, NJ_ERR_UNSUPPORTED,
                        "random.%s is not supported (uniform, normal, random, standard_normal are)",
                        what);
    double p0 = normal ? 0 : 0, p1 = 1;
    int sizepos = unit ? 0 : 2;
    if (!unit) {
        if ((st = se_eval_number(s, se_arg_node(call, 0, normal ? "loc" : "low"), p0, &p0, NULL)) ||
            (st = se_eval_number(s, se_arg_node(call, 1, normal ? "scale" : "high"), p1, &p1, NULL)))
            return st;
    }
    Node *seed = se_arg_node(call, unit ? 1 : 3, "seed"); /* after size */
    uint64_t local[4];
    if (seed) {
        double sd = 0;
        if ((st = se_eval_number(s, seed, 0, &sd, NULL)))
            return st;
        sa_seed(local, (uint64_t)(int64_t)sd);
        state = local;
    }
    Node *size = se_arg_node(call, sizepos, "size");
    int nd = 0;
    int64_t shape[NJ_MAX_NDIM];
    if (size && (st = se_eval_shape(s, size, &nd, shape)))
        return st;
    const char *why = sa_shape_error(NJ_FLOAT64, nd, shape);
    if (why)
        return ss_error(s, size->loc, NJ_ERR_ARGS, "%s", why);
    SArr *a = sa_random(state, nd, shape, normal, p0, p1);
    if (!a)
        return NJ_ERR_NOMEM;
    if (!size) { /* a single number */
        *out = sv_scalar_f(NJ_FLOAT64, *(double *)a->buf);
        sa_decref(a);
        return NJ_OK;
    }
    *out = sv_array(a);
    return NJ_OK;
}

/* np.random.uniform(...), rng.normal(...): what is the distribution's name. */
static NjStatus make_random(NjSession *s, Node *call, const char *what, uint64_t *state,
                            SVal *out) {
    char q[192], shown[192];
    snprintf(q, sizeof q, "random.%s", what);
    snprintf(shown, sizeof shown, "np.random.%s", what);
    SeLibCall lc;
    NjStatus st = se_enter_call(s, &call, q, shown, &lc);
    return se_leave_call(s, &lc, st ? st : random_body(s, call, what, state, out));
}

static uint64_t *session_rng(NjSession *s) {
    if (!s->has_rng) {
        sa_seed(s->rng, 0x6e756d6a6974ull);
        s->has_rng = true;
    }
    return s->rng;
}

/* ---- print and % formatting ---------------------------------------------------------------- */
NjStatus se_format_percent(NjSession *s, const char *fmt, const SVal *args, int n, Loc loc,
                           StrBuf *out) {
    int k = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            sb_putc(out, *p);
            continue;
        }
        if (p[1] == '%') {
            sb_putc(out, '%');
            p++;
            continue;
        }
        char spec[32] = "%";
        size_t m = 1;
        p++;
        while (*p && strchr("-+ #0123456789.", *p) && m < sizeof spec - 3)
            spec[m++] = *p++;
        char conv = *p;
        if (!conv)
            break;
        if (k >= n)
            return ss_error(s, loc, NJ_ERR_ARGS, "not enough arguments for format string");
        const SVal *v = &args[k++];
        char buf[512];
        if (strchr("diu", conv)) {
            spec[m++] = 'l', spec[m++] = 'l', spec[m++] = 'd';
            snprintf(buf, sizeof buf, spec, (long long)(v->kind == SV_SCALAR ? sv_as_int(v) : 0));
        } else if (strchr("feEgGF", conv)) {
            spec[m++] = conv;
            snprintf(buf, sizeof buf, spec, sv_as_double(v));
        } else if (conv == 's' || conv == 'r') {
            StrBuf t;
            sb_init(&t);
            if (conv == 's')
                sv_str(v, &t);
            else
                sv_repr(v, &t);
            spec[m++] = 's';
            snprintf(buf, sizeof buf, spec, t.data ? t.data : "");
            sb_free(&t);
        } else
            return ss_error(s, loc, NJ_ERR_UNSUPPORTED, "format '%%%c' is not supported", conv);
        sb_puts(out, buf);
    }
    if (k < n)
        return ss_error(s, loc, NJ_ERR_ARGS, "not all arguments converted during string formatting");
    return NJ_OK;
}

static NjStatus do_print(NjSession *s, Node *call, SVal *out) {
    static const char *const kws[] = {"sep", "end", NULL};
    NjStatus st = se_check_kwargs(s, call, kws);
    if (st)
        return st;
    char *sep = NULL, *end = NULL;
    Node *n;
    if ((n = se_arg_node(call, -1, "sep")) && (st = se_eval_string(s, n, &sep)))
        return st;
    if ((n = se_arg_node(call, -1, "end")) && (st = se_eval_string(s, n, &end))) {
        free(sep);
        return st;
    }
    StrBuf line;
    sb_init(&line);
    for (int i = 0; i < call->list.n && !st; i++) {
        SVal v;
        if ((st = se_eval(s, call->list.items[i], &v)))
            break;
        if (i)
            sb_puts(&line, sep ? sep : " ");
        sv_str(&v, &line);
        sv_free(&v);
    }
    if (!st) {
        sb_puts(&line, end ? end : "\n");
        sb_putn(&s->out, line.data ? line.data : "", line.len);
    }
    sb_free(&line);
    free(sep);
    free(end);
    *out = sv_none();
    return st;
}

/* ---- session functions ---------------------------------------------------------------------- */
/* The array a compiled function returned: memory it made (a->owner: wrapped, released when
 * the session drops it) or memory of one of its array arguments (a view of that one). */
static NjStatus array_result(NjSession *s, NjArray *a, const SVal *args, int n, SVal *out) {
    SArr *r = NULL;
    if (a->owner) {
        r = sa_wrap(*a);
    } else {
        for (int i = 0; i < n && !r; i++) {
            if (args[i].kind != SV_ARRAY)
                continue;
            SArr *b = args[i].arr;
            while (b->base)
                b = b->base;
            int64_t lo, hi, alo, ahi;
            if (rt_array_span(&b->a, &lo, &hi) && rt_array_span(a, &alo, &ahi) && lo <= alo &&
                ahi <= hi)
                r = sa_view(args[i].arr, *a);
        }
        if (!r)
            return ss_error(s, (Loc){0}, NJ_ERR_RUNTIME, "a compiled function returned memory "
                            "the session does not know");
    }
    if (!r)
        return NJ_ERR_NOMEM;
    *out = sv_array(r);
    return NJ_OK;
}

NjStatus se_call_direct(NjSession *s, const char *name, const SVal *args, int n, Loc loc,
                        SVal *out) {
    NjStatus st = ss_sync(s);
    if (st)
        return st;
    const FuncInfo *fi = fe_find_func(s->defs->info, name);
    if (fi && (fi->kind == FK_VECTORIZE || fi->kind == FK_GUVECTORIZE)) {
        NjUfunc *u;
        if ((st = nj_module_ufunc(s->defs, name, &u)))
            return st;
        NjArray ins[16], res[4];
        char sbuf[16][8];
        for (int i = 0; i < n; i++) {
            if (args[i].kind == SV_ARRAY)
                ins[i] = args[i].arr->a;
            else {
                memset(sbuf[i], 0, 8);
                sv_store(sbuf[i], &args[i]);
                ins[i] = nj_array_c(sbuf[i], args[i].dtype, 0, NULL);
            }
        }
        int nout = nj_ufunc_nout(u);
        if (nout < 1 || nout > 4)
            return ss_error(s, loc, NJ_ERR_ARGS, "'%s' has %d outputs", name, nout);
        memset(res, 0, sizeof res);
        if ((st = nj_ufunc_call(u, ins, n, res, nout)))
            return st;
        SArr *a = sa_wrap(res[0]);
        for (int k = 1; k < nout; k++)
            nj_array_free(&res[k]);
        if (!a)
            return NJ_ERR_NOMEM;
        if (a->a.ndim == 0) {
            *out = sv_load(a->a.data, a->a.dtype);
            sa_decref(a);
        } else
            *out = sv_array(a);
        return NJ_OK;
    }
    if (fi && fi->kind == FK_KERNEL)
        return ss_error(s, loc, NJ_ERR_UNSUPPORTED, "'%s' is a CUDA kernel: launching kernels "
                        "from the top level is not supported by the session yet", name);
    NjFunction *f;
    if ((st = nj_module_function(s->defs, name, &f)))
        return st;
    NjValue v[16], res;
    for (int i = 0; i < n; i++) {
        if (args[i].kind != SV_SCALAR && args[i].kind != SV_ARRAY)
            return ss_error(s, loc, NJ_ERR_TYPE, "argument %d of %s(): only numbers and arrays "
                            "can be passed to compiled functions", i + 1, name);
        v[i] = sv_to_nj(&args[i]);
    }
    ss_note_sig(s, name, args, n);
    double t0 = ss_now_ms();
    bool first = !atomic_load(&f->table);
    memset(&res, 0, sizeof res);
    NjArray made;
    memset(&made, 0, sizeof made);
    res.kind = NJ_KIND_ARRAY; /* where an array result goes, if the function returns one */
    res.v.a = &made;
    st = nj_call(f, v, n, &res);
    if (first)
        s->compile_ms += ss_now_ms() - t0;
    if (st)
        return st;
    if (res.kind == NJ_KIND_ARRAY)
        return array_result(s, &made, args, n, out);
    *out = sv_from_nj(&res);
    return NJ_OK;
}

/* ---- calls --------------------------------------------------------------------------------------- */
static RedKind red_kind(const char *n, bool *ok) {
    *ok = true;
    if (!strcmp(n, "sum")) return RED_SUM;
    if (!strcmp(n, "prod")) return RED_PROD;
    if (!strcmp(n, "min") || !strcmp(n, "amin")) return RED_MIN;
    if (!strcmp(n, "max") || !strcmp(n, "amax")) return RED_MAX;
    if (!strcmp(n, "mean")) return RED_MEAN;
    *ok = false;
    return RED_SUM;
}

static NjStatus numpy_body(NjSession *s, Node *call, const char *nm, SVal *out) {
    NjStatus st;
    bool isred;
    RedKind rk = red_kind(nm, &isred);
    if (isred) {
        static const char *const kws[] = {"axis", NULL};
        if ((st = se_check_kwargs(s, call, kws)))
            return st;
        Node *a = se_arg_node(call, 0, NULL);
        if (!a || call->list.n > 2)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.%s() takes an array and axis=", nm);
        return se_eval_reduce(s, rk, a, se_arg_node(call, 1, "axis"), call->loc, out);
    }
    if (!strcmp(nm, "zeros") || !strcmp(nm, "ones") || !strcmp(nm, "empty") || !strcmp(nm, "full")) {
        bool full = !strcmp(nm, "full");
        Node *shp = se_arg_node(call, 0, "shape");
        if (!shp)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.%s() needs a shape", nm);
        int nd;
        int64_t shape[NJ_MAX_NDIM];
        if ((st = se_eval_shape(s, shp, &nd, shape)))
            return st;
        SVal fill = sv_scalar_i(NJ_INT64, !strcmp(nm, "ones"));
        NjDType dflt = NJ_FLOAT64;
        if (full) {
            Node *fv = se_arg_node(call, 1, "fill_value");
            if (!fv)
                return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.full() needs a fill value");
            if ((st = se_eval(s, fv, &fill)))
                return st;
            if (fill.kind != SV_SCALAR)
                return se_arg_error(s, fv->loc, NJ_ERR_TYPE, "the fill value must be a number");
            dflt = fill.dtype;
        }
        NjDType dt;
        if ((st = se_eval_dtype(s, se_arg_node(call, full ? 2 : 1, "dtype"), dflt, &dt)))
            return st;
        const char *why = sa_shape_error(dt, nd, shape);
        if (why)
            return ss_error(s, call->loc, NJ_ERR_ARGS, "%s", why);
        return se_made(s, call->loc, sa_full(dt, nd, shape, !strcmp(nm, "empty") ? NULL : &fill), out);
    }
    if (!strcmp(nm, "zeros_like") || !strcmp(nm, "ones_like") || !strcmp(nm, "empty_like") ||
        !strcmp(nm, "full_like")) {
        bool full = !strcmp(nm, "full_like");
        SVal a, fill = sv_scalar_i(NJ_INT64, !strcmp(nm, "ones_like"));
        if ((st = se_need_array(s, se_arg_node(call, 0, "a"), &a)))
            return st;
        Node *fv = se_arg_node(call, 1, "fill_value");
        if (full && (st = se_eval(s, fv, &fill))) {
            sv_free(&a);
            return st;
        }
        if (fill.kind != SV_SCALAR) {
            sv_free(&a);
            sv_free(&fill);
            return se_arg_error(s, fv->loc, NJ_ERR_TYPE, "the fill value must be a number");
        }
        NjDType dt;
        st = se_eval_dtype(s, se_arg_node(call, full ? 2 : 1, "dtype"), a.arr->a.dtype, &dt);
        if (!st)
            st = se_made(s, call->loc, sa_full(dt, a.arr->a.ndim, a.arr->a.shape,
                                            !strcmp(nm, "empty_like") ? NULL : &fill), out);
        sv_free(&a);
        return st;
    }
    if (!strcmp(nm, "arange")) {
        static const char *const kws[] = {"start", "stop", "step", "dtype", NULL};
        if ((st = se_check_kwargs(s, call, kws)))
            return st;
        double a, b, c;
        bool ia = true, ib = true, ic = true;
        int np = 0; /* how many of start, stop, step were given */
        for (int i = 0; i < call->list.n && i < 3; i++)
            np += call->list.items[i] != NULL;
        if (np == 1) {
            a = 0;
            if ((st = se_eval_number(s, se_arg_node(call, 0, "stop"), 0, &b, &ib)))
                return st;
            c = 1;
        } else {
            if ((st = se_eval_number(s, se_arg_node(call, 0, "start"), 0, &a, &ia)) ||
                (st = se_eval_number(s, se_arg_node(call, 1, "stop"), 0, &b, &ib)) ||
                (st = se_eval_number(s, se_arg_node(call, 2, "step"), 1, &c, &ic)))
                return st;
        }
        bool ints = ia && ib && ic;
        NjDType dt;
        if ((st = se_eval_dtype(s, se_arg_node(call, 3, "dtype"), ints ? NJ_INT64 : NJ_FLOAT64, &dt)))
            return st;
        const char *err = "out of memory";
        SArr *r = sa_arange(dt, a, b, c, ints, &err);
        if (!r)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "%s", err);
        *out = sv_array(r);
        return NJ_OK;
    }
    if (!strcmp(nm, "linspace")) {
        static const char *const kws[] = {"start", "stop", "num", "endpoint", "dtype", NULL};
        if ((st = se_check_kwargs(s, call, kws)))
            return st;
        double a, b, num, ep;
        if ((st = se_eval_number(s, se_arg_node(call, 0, "start"), 0, &a, NULL)) ||
            (st = se_eval_number(s, se_arg_node(call, 1, "stop"), 1, &b, NULL)) ||
            (st = se_eval_number(s, se_arg_node(call, 2, "num"), 50, &num, NULL)) ||
            (st = se_eval_number(s, se_arg_node(call, 3, "endpoint"), 1, &ep, NULL)))
            return st;
        NjDType dt;
        if ((st = se_eval_dtype(s, se_arg_node(call, 4, "dtype"), NJ_FLOAT64, &dt)))
            return st;
        int64_t n = num < 0x1p63 ? (int64_t)num : INT64_MAX; /* no undefined conversion */
        const char *why = n >= 0 ? sa_shape_error(dt, 1, &n) : NULL;
        if (why)
            return ss_error(s, call->loc, NJ_ERR_ARGS, "%s", why);
        return se_made(s, call->loc, sa_linspace(a, b, n, ep != 0, dt), out);
    }
    if (!strcmp(nm, "array") || !strcmp(nm, "asarray"))
        return make_array(s, call, out);
    if (!strcmp(nm, "copy")) {
        SVal a;
        if ((st = se_need_array(s, se_arg_node(call, 0, "a"), &a)))
            return st;
        st = se_made(s, call->loc, sa_cast_copy(&a.arr->a, a.arr->a.dtype), out);
        sv_free(&a);
        return st;
    }
    if (!strcmp(nm, "load")) {
        char *path;
        Node *p = se_arg_node(call, 0, "file");
        if (!p)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.load() needs a file name");
        if ((st = se_eval_string(s, p, &path)))
            return st;
        SArr *a;
        char err[512];
        st = npy_load(path, &a, err, sizeof err);
        free(path);
        if (st)
            return se_arg_error(s, call->loc, st, "%s", err);
        *out = sv_array(a);
        return NJ_OK;
    }
    if (!strcmp(nm, "save")) {
        char *path;
        Node *p = se_arg_node(call, 0, "file"), *an = se_arg_node(call, 1, "arr");
        if (!p || !an)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "np.save() needs a file name and an array");
        if ((st = se_eval_string(s, p, &path)))
            return st;
        SVal a;
        if ((st = se_eval(s, an, &a))) {
            free(path);
            return st;
        }
        if (a.kind == SV_SCALAR) {
            SArr *z = sa_full(a.dtype, 0, NULL, &a);
            a = sv_array(z);
        }
        if (a.kind != SV_ARRAY) {
            free(path);
            sv_free(&a);
            return se_arg_error(s, an->loc, NJ_ERR_TYPE, "np.save() saves arrays");
        }
        size_t pl = strlen(path);
        char *full = malloc(pl + 5);
        if (full) {
            memcpy(full, path, pl + 1);
            if (pl < 4 || strcmp(path + pl - 4, ".npy"))
                strcat(full, ".npy"); /* as NumPy does */
        }
        char err[512];
        st = full ? npy_save(full, &a.arr->a, err, sizeof err) : NJ_ERR_NOMEM;
        free(full);
        free(path);
        sv_free(&a);
        *out = sv_none();
        return st ? se_arg_error(s, call->loc, st, "%s", err) : NJ_OK;
    }
    return se_arg_error(s, call->a->loc, NJ_ERR_UNSUPPORTED,
                    "np.%s is not supported by the numjit session", nm);
}

static NjStatus call_numpy(NjSession *s, Node *call, const char *nm, SVal *out) {
    char q[192], shown[192];
    snprintf(q, sizeof q, "numpy.%s", nm);
    snprintf(shown, sizeof shown, "np.%s", nm);
    SeLibCall lc;
    NjStatus st = se_enter_call(s, &call, q, shown, &lc);
    return se_leave_call(s, &lc, st ? st : numpy_body(s, call, nm, out));
}

static NjStatus method_body(NjSession *s, Node *call, SVal *self, const char *nm, SVal *out) {
    NjStatus st;
    if (self->kind == SV_RNG)
        return make_random(s, call, !strcmp(nm, "integers") ? "?" : nm, self->rng, out);
    if (self->kind != SV_ARRAY)
        return se_arg_error(s, call->a->loc, NJ_ERR_TYPE, "this value has no method '%s'", nm);
    NjArray *a = &self->arr->a;
    bool isred;
    RedKind rk = red_kind(nm, &isred);
    if (isred) {
        static const char *const kws[] = {"axis", NULL};
        if ((st = se_check_kwargs(s, call, kws)))
            return st;
        Node *obj = call->a->a; /* fuse (x*y).sum() with its operand */
        return se_eval_reduce(s, rk, obj, se_arg_node(call, 0, "axis"), call->loc, out);
    }
    if (!strcmp(nm, "astype")) {
        NjDType dt;
        if ((st = se_eval_dtype(s, se_arg_node(call, 0, "dtype"), a->dtype, &dt)))
            return st;
        return se_made(s, call->loc, sa_cast_copy(a, dt), out);
    }
    if (!strcmp(nm, "copy") || !strcmp(nm, "flatten") || !strcmp(nm, "ravel")) {
        SArr *c = sa_cast_copy(a, a->dtype);
        if (c && strcmp(nm, "copy")) {
            c->a.shape[0] = sa_size(a);
            c->a.ndim = 1;
            c->a.strides[0] = nj_dtype_size(a->dtype);
        }
        return se_made(s, call->loc, c, out);
    }
    if (!strcmp(nm, "reshape")) {
        int64_t shape[NJ_MAX_NDIM];
        int nd = 0;
        if (!call->list.n)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "TypeError: ndarray.reshape() takes at "
                             "least 1 argument (0 given)");
        if (call->list.n > NJ_MAX_NDIM)
            return se_arg_error(s, call->list.items[NJ_MAX_NDIM]->loc, NJ_ERR_ARGS,
                             "numjit's arrays have at most %d dimensions", NJ_MAX_NDIM);
        if (call->list.n == 1) {
            if ((st = se_eval_shape(s, call->list.items[0], &nd, shape)))
                return st;
        } else {
            for (int i = 0; i < call->list.n && i < NJ_MAX_NDIM; i++) {
                double d = 0;
                if ((st = se_eval_number(s, call->list.items[i], 0, &d, NULL)))
                    return st;
                shape[nd++] = (int64_t)d;
            }
        }
        int64_t n = 1, total = sa_size(a);
        int neg = -1;
        for (int i = 0; i < nd; i++) {
            if (shape[i] == -1 && neg < 0)
                neg = i;
            else
                n *= shape[i];
        }
        if (neg >= 0 && n > 0)
            shape[neg] = total / n, n *= shape[neg];
        if (n != total)
            return se_arg_error(s, call->loc, NJ_ERR_ARGS, "cannot reshape an array of size %lld",
                            (long long)total);
        SArr *src = self->arr;
        SArr *c = sa_is_contig(a) ? NULL : sa_cast_copy(a, a->dtype);
        NjArray v = nj_array_c(c ? c->a.data : a->data, a->dtype, nd, shape);
        SArr *r = sa_view(c ? c : src, v);
        if (c)
            sa_decref(c);
        return se_made(s, call->loc, r, out);
    }
    if (!strcmp(nm, "fill")) {
        SVal v;
        Node *vn = se_arg_node(call, 0, "value");
        if ((st = se_eval(s, vn, &v)))
            return st;
        if (v.kind != SV_SCALAR && v.kind != SV_ARRAY) {
            sv_free(&v);
            return se_arg_error(s, vn->loc, NJ_ERR_TYPE, "the fill value must be a number or an array");
        }
        st = se_copy_into(s, a, &v, call->loc);
        sv_free(&v);
        *out = sv_none();
        return st;
    }
    return se_arg_error(s, call->a->loc, NJ_ERR_UNSUPPORTED,
                    "arrays have no method '%s' in the numjit session", nm);
}

static NjStatus call_method(NjSession *s, Node *call, SVal *self, const char *nm, SVal *out) {
    if (self->kind != SV_ARRAY)
        return method_body(s, call, self, nm, out);
    char q[192], shown[192];
    snprintf(q, sizeof q, "array.%s", nm);
    snprintf(shown, sizeof shown, "ndarray.%s", nm);
    SeLibCall lc;
    NjStatus st = se_enter_call(s, &call, q, shown, &lc);
    return se_leave_call(s, &lc, st ? st : method_body(s, call, self, nm, out));
}

/* np.random.seed(seed), np.random.default_rng(seed) */
static NjStatus seed_body(NjSession *s, Node *call, const char *nm, SVal *out) {
    double sd = 0;
    NjStatus st = se_eval_number(s, se_arg_node(call, 0, "seed"), 0, &sd, NULL);
    if (st)
        return st;
    if (!strcmp(nm, "seed")) {
        sa_seed(session_rng(s), (uint64_t)(int64_t)sd);
        *out = sv_none();
        return NJ_OK;
    }
    uint64_t *r = calloc(5, sizeof *r);
    if (!r)
        return NJ_ERR_NOMEM;
    sa_seed(r, (uint64_t)(int64_t)sd);
    *out = (SVal){.kind = SV_RNG, .rng = r};
    return NJ_OK;
}

NjStatus se_eval_call(NjSession *s, Node *call, SVal *out) {
    char q[160];
    NjStatus st;
    SArr *hint = s->hint, *force = s->force;
    s->hint = s->force = NULL;
    if (se_qualname(s, call->a, q, sizeof q)) {
        if (!strncmp(q, "func.", 5)) {
            if (call->list2.n)
                return ss_error(s, call->list2.items[0]->loc, NJ_ERR_ARGS,
                                "keyword arguments to session functions are not supported");
            return se_run_region(s, call, hint, force, out);
        }
        if (!strncmp(q, "builtin.", 8)) {
            const char *nm = q + 8;
            if (!strcmp(nm, "print"))
                return do_print(s, call, out);
            if (!strcmp(nm, "len")) {
                SVal v;
                SeLibCall lc;
                Node *bound = call;
                st = se_enter_call(s, &bound, "builtin.len", "len", &lc);
                if ((st = se_leave_call(s, &lc, st ? st : se_eval(s, se_arg_node(bound, 0, "obj"), &v))))
                    return st;
                int64_t n = v.kind == SV_ARRAY && v.arr->a.ndim ? v.arr->a.shape[0]
                            : v.kind == SV_TUPLE ? v.n
                            : v.kind == SV_STR ? str_code_points(v.str) : -1;
                sv_free(&v);
                if (n < 0)
                    return ss_error(s, call->loc, NJ_ERR_TYPE, "this value has no len()");
                *out = sv_scalar_i(NJ_INT64, n);
                return NJ_OK;
            }
            if (!strcmp(nm, "range"))
                return ss_error(s, call->loc, NJ_ERR_UNSUPPORTED,
                                "range() is only supported as the iterable of a for loop");
            bool isred;
            RedKind rk = red_kind(nm, &isred);
            if (isred && call->list.n == 1)
                return se_eval_reduce(s, rk, call->list.items[0], se_arg_node(call, -1, "axis"),
                                      call->loc, out);
        }
        if (!strncmp(q, "numpy.random.", 13)) {
            const char *nm = q + 13;
            if (!strcmp(nm, "seed") || !strcmp(nm, "default_rng")) {
                SeLibCall lc;
                char shown[192];
                snprintf(shown, sizeof shown, "np.random.%s", nm);
                Node *bound = call;
                st = se_enter_call(s, &bound, q + 6, shown, &lc);
                return se_leave_call(s, &lc, st ? st : seed_body(s, bound, nm, out));
            }
            return make_random(s, call, nm, session_rng(s), out);
        }
        if (!strncmp(q, "numpy.", 6) && !strchr(q + 6, '.'))
            return call_numpy(s, call, q + 6, out);
        return ss_error(s, call->a->loc, NJ_ERR_UNSUPPORTED, "%s() is not supported here", q);
    }
    if (call->a->kind == ND_ATTR) { /* a method: x.sum(), x.astype(np.float32), rng.normal() */
        bool isred;
        RedKind rk = red_kind(call->a->name, &isred);
        Node *obj = call->a->a;
        if (isred && (se_is_region_node(s, obj) ||
                      (obj->kind == ND_NAME && ss_lookup(s, obj->name) &&
                       ss_lookup(s, obj->name)->kind == SV_ARRAY))) {
            /* (x*y).sum(): fused, the operand is never materialized */
            char mq[192], shown[192];
            snprintf(mq, sizeof mq, "array.%s", call->a->name);
            snprintf(shown, sizeof shown, "ndarray.%s", call->a->name);
            SeLibCall lc;
            Node *bound = call;
            st = se_enter_call(s, &bound, mq, shown, &lc);
            return se_leave_call(s, &lc, st ? st : se_eval_reduce(s, rk, obj, se_arg_node(bound, 0, "axis"),
                                                               call->loc, out));
        }
        SVal self;
        if ((st = se_eval(s, call->a->a, &self)))
            return st;
        st = call_method(s, call, &self, call->a->name, out);
        sv_free(&self);
        return st;
    }
    if (call->a->kind == ND_NAME) {
        if (ss_lookup(s, call->a->name))
            return ss_error(s, call->a->loc, NJ_ERR_TYPE, "'%s' is not callable", call->a->name);
        return ss_error(s, call->a->loc, NJ_ERR_NAME, "name '%s' is not defined", call->a->name);
    }
    if (call->a->kind == ND_SUBSCRIPT)
        return ss_error(s, call->loc, NJ_ERR_UNSUPPORTED,
                        "kernel launches are not supported at the top level of a session yet");
    return ss_error(s, call->loc, NJ_ERR_UNSUPPORTED, "this call is not supported by numjit");
}

/* session_call.c — the rest of a session's expressions: literals, names, attributes,
 * subscripts, calls of the array library (constructors, reductions, random numbers, .npy
 * files, print), methods of arrays, and assignment targets.
 *
 * se_eval dispatches on the node: elementwise regions go to session_eval.c (one fused loop);
 * a call is resolved to a qualified name ("numpy.zeros", "builtin.print", "func.f") and
 * handled here; a subscript builds a strided view (basic indexing: integers and slices, as
 * NumPy) or loads one element.  Assignment into a view copies through the identity ufunc, so
 * it broadcasts like NumPy's `a[...] = v`.
 */
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments ----------------------------------------------------------------------------- */
/* The signature of every library call a session runs itself, as Python writes it: one binder
 * (bind_args) checks a call against it before the call's handler reads its arguments, so a
 * missing, extra, repeated or unknown argument is a located error that shows the signature,
 * and the argument checks of the handlers (arg_error) show it too.  "*" starts keyword-only
 * parameters ("seed=" is the session's own: a generator of its own for one call). */
typedef struct LibSig {
    const char *name; /* qualified: "numpy.zeros", "array.astype", "random.uniform" */
    const char *sig;
} LibSig;

static const LibSig lib_sigs[] = {
    {"numpy.sum", "a, axis=None"}, {"numpy.prod", "a, axis=None"},
    {"numpy.min", "a, axis=None"}, {"numpy.amin", "a, axis=None"},
    {"numpy.max", "a, axis=None"}, {"numpy.amax", "a, axis=None"},
    {"numpy.mean", "a, axis=None"},
    {"numpy.zeros", "shape, dtype=float"}, {"numpy.ones", "shape, dtype=float"},
    {"numpy.empty", "shape, dtype=float"}, {"numpy.full", "shape, fill_value, dtype=None"},
    {"numpy.zeros_like", "a, dtype=None"}, {"numpy.ones_like", "a, dtype=None"},
    {"numpy.empty_like", "a, dtype=None"}, {"numpy.full_like", "a, fill_value, dtype=None"},
    {"numpy.arange", "start, stop=None, step=None, dtype=None"},
    {"numpy.linspace", "start, stop, num=50, endpoint=True, dtype=None"},
    {"numpy.array", "object, dtype=None"}, {"numpy.asarray", "object, dtype=None"},
    {"numpy.copy", "a"}, {"numpy.load", "file"}, {"numpy.save", "file, arr"},
    {"random.seed", "seed=None"}, {"random.default_rng", "seed=None"},
    {"random.uniform", "low=0.0, high=1.0, size=None, *, seed=None"},
    {"random.normal", "loc=0.0, scale=1.0, size=None, *, seed=None"},
    {"random.random", "size=None, *, seed=None"}, {"random.rand", "size=None, *, seed=None"},
    {"random.standard_normal", "size=None, *, seed=None"},
    {"builtin.len", "obj"},
    {"array.sum", "axis=None"}, {"array.prod", "axis=None"}, {"array.min", "axis=None"},
    {"array.max", "axis=None"}, {"array.mean", "axis=None"}, {"array.astype", "dtype"},
    {"array.copy", ""}, {"array.flatten", ""}, {"array.ravel", ""}, {"array.fill", "value"},
    {"array.reshape", "*shape"},
    {NULL, NULL}};

static const char *lib_sig(const char *qname) {
    for (int i = 0; lib_sigs[i].name; i++)
        if (!strcmp(lib_sigs[i].name, qname))
            return lib_sigs[i].sig;
    return NULL;
}

/* An error about an argument of the call being bound, with its signature as a note. */
static NjStatus arg_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...)
    NJ_PRINTF(4, 5);
static NjStatus arg_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...) {
    DiagList d;
    diag_init(&d);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(&d, DG_ERROR, loc, fmt, ap);
    va_end(ap);
    if (s->call_sig)
        diag_add(&d, DG_NOTE, (Loc){0}, "the signature is %s", s->call_sig);
    rt_set_diags(s->ctx, &d);
    diag_free(&d);
    return st;
}

/* The parameter names of sig (at most 8) and how many are required / positional. */
static int sig_params(const char *sig, char names[][24], int *nreq, int *npos) {
    int n = 0;
    *nreq = 0;
    *npos = -1;
    for (const char *p = sig; *p && n < 8;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        if (*p == '*') { /* "*": keyword-only parameters follow; "*dims": any number more */
            *npos = p[1] && p[1] != ',' ? 64 : n;
            p += strcspn(p, ",");
            continue;
        }
        size_t k = strcspn(p, "=,");
        snprintf(names[n], 24, "%.*s", (int)k, p);
        bool dflt = p[k] == '=';
        p += strcspn(p, ",");
        if (!dflt && *nreq == n)
            (*nreq)++;
        n++;
    }
    if (*npos < 0)
        *npos = n;
    return n;
}

/* Checks call against sig; shown names the function in messages ("np.zeros"). */
static NjStatus bind_args(NjSession *s, Node *call, const char *sig, const char *shown) {
    char names[8][24];
    int nreq, npos, n = sig_params(sig, names, &nreq, &npos);
    bool given[64] = {false};
    for (int i = 0; i < call->list.n; i++) {
        if (i >= npos)
            return arg_error(s, call->list.items[i]->loc, NJ_ERR_ARGS,
                             "TypeError: %s() takes %s%d positional argument%s (%d given)", shown,
                             npos > nreq ? "at most " : "", npos, npos == 1 ? "" : "s",
                             call->list.n);
        given[i] = true;
    }
    for (int i = 0; i < call->list2.n; i++) {
        Node *k = call->list2.items[i];
        int j = 0;
        while (j < n && strcmp(names[j], k->name))
            j++;
        if (j == n)
            return arg_error(s, k->loc, NJ_ERR_ARGS,
                             "TypeError: %s() got an unexpected keyword argument '%s'", shown,
                             k->name);
        if (given[j])
            return arg_error(s, k->loc, NJ_ERR_ARGS,
                             "TypeError: %s() got multiple values for argument '%s'", shown,
                             k->name);
        given[j] = true;
    }
    for (int j = 0; j < nreq; j++)
        if (!given[j])
            return arg_error(s, call->loc, NJ_ERR_ARGS,
                             "TypeError: %s() missing required argument '%s'", shown, names[j]);
    return NJ_OK;
}

/* A library call: binds its arguments to the signature of qname and makes that signature the
 * one arg_error shows while the handler runs (calls nest: np.zeros(np.arange(n).size)). */
typedef struct LibCall {
    const char *saved;
    char shown[448];
} LibCall;

static NjStatus enter_call(NjSession *s, Node *call, const char *qname, const char *shown,
                           LibCall *lc) {
    lc->saved = s->call_sig;
    s->call_sig = NULL;
    const char *sig = lib_sig(qname);
    if (!sig)
        return NJ_OK;
    snprintf(lc->shown, sizeof lc->shown, "%s(%s)", shown, sig);
    s->call_sig = lc->shown;
    return bind_args(s, call, sig, shown);
}

static NjStatus leave_call(NjSession *s, LibCall *lc, NjStatus st) {
    s->call_sig = lc->saved;
    return st;
}

static Node *arg_node(Node *call, int pos, const char *kw) {
    if (pos >= 0 && pos < call->list.n)
        return call->list.items[pos];
    for (int i = 0; kw && i < call->list2.n; i++)
        if (!strcmp(call->list2.items[i]->name, kw))
            return call->list2.items[i]->a;
    return NULL;
}

static NjStatus check_kwargs(NjSession *s, Node *call, const char *const *allowed) {
    for (int i = 0; i < call->list2.n; i++) {
        Node *k = call->list2.items[i];
        bool ok = false;
        for (int j = 0; allowed && allowed[j]; j++)
            ok |= !strcmp(allowed[j], k->name);
        if (!ok)
            return ss_error(s, k->loc, NJ_ERR_ARGS, "unexpected keyword argument '%s'", k->name);
    }
    return NJ_OK;
}

static NjStatus eval_number(NjSession *s, Node *n, double dflt, double *out, bool *is_int) {
    if (!n) {
        *out = dflt;
        return NJ_OK;
    }
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    if (v.kind != SV_SCALAR || v.dtype == NJ_COMPLEX64 || v.dtype == NJ_COMPLEX128) {
        sv_free(&v);
        return arg_error(s, n->loc, NJ_ERR_TYPE, "expected a real number");
    }
    *out = sv_as_double(&v);
    if (is_int)
        *is_int = v.dtype != NJ_FLOAT32 && v.dtype != NJ_FLOAT64;
    return NJ_OK;
}

static NjStatus eval_shape(NjSession *s, Node *n, int *nd, int64_t *shape) {
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    *nd = 0;
    if (v.kind == SV_SCALAR && v.dtype != NJ_FLOAT32 && v.dtype != NJ_FLOAT64 &&
        v.dtype != NJ_COMPLEX64 && v.dtype != NJ_COMPLEX128) {
        shape[(*nd)++] = sv_as_int(&v);
    } else if (v.kind == SV_TUPLE && v.n <= NJ_MAX_NDIM) {
        for (int i = 0; i < v.n; i++) {
            if (v.elems[i].kind != SV_SCALAR) {
                sv_free(&v);
                return arg_error(s, n->loc, NJ_ERR_TYPE, "a shape is an int or a tuple of ints");
            }
            shape[(*nd)++] = sv_as_int(&v.elems[i]);
        }
    } else {
        sv_free(&v);
        return arg_error(s, n->loc, NJ_ERR_TYPE, "a shape is an int or a tuple of ints");
    }
    sv_free(&v);
    for (int i = 0; i < *nd; i++)
        if (shape[i] < 0)
            return arg_error(s, n->loc, NJ_ERR_ARGS, "negative dimensions are not allowed");
    return NJ_OK;
}

/* dtype=np.float32, dtype='int32', dtype=float, dtype=x.dtype */
static NjStatus eval_dtype(NjSession *s, Node *n, NjDType dflt, NjDType *out) {
    *out = dflt;
    if (!n || n->kind == ND_NONE)
        return NJ_OK;
    const char *name = NULL;
    if (n->kind == ND_STR)
        name = n->str;
    else if (n->kind == ND_ATTR && n->a->kind == ND_NAME && !ss_lookup(s, n->a->name))
        name = n->name;
    else if (n->kind == ND_NAME && !ss_lookup(s, n->name))
        name = n->name;
    if (name) {
        if (sa_dtype_from_name(name, out))
            return NJ_OK;
        return arg_error(s, n->loc, NJ_ERR_TYPE, "data type '%s' is not supported by numjit", name);
    }
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    if (v.kind != SV_DTYPE) {
        sv_free(&v);
        return arg_error(s, n->loc, NJ_ERR_TYPE, "expected a dtype");
    }
    *out = v.dtype;
    return NJ_OK;
}

static NjStatus eval_string(NjSession *s, Node *n, char **out) {
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    if (v.kind != SV_STR) {
        sv_free(&v);
        return arg_error(s, n->loc, NJ_ERR_TYPE, "expected a string");
    }
    *out = v.str;
    return NJ_OK;
}

static NjStatus need_array(NjSession *s, Node *n, SVal *v) {
    NjStatus st = se_eval(s, n, v);
    if (st)
        return st;
    if (v->kind != SV_ARRAY) {
        sv_free(v);
        return arg_error(s, n->loc, NJ_ERR_TYPE, "expected an array");
    }
    return NJ_OK;
}

/* ---- constructors ----------------------------------------------------------------------------- */
static NjStatus made(NjSession *s, Loc loc, SArr *a, SVal *out) {
    if (!a)
        return arg_error(s, loc, NJ_ERR_NOMEM, "out of memory");
    *out = sv_array(a);
    return NJ_OK;
}

/* np.array([...]) of nested lists or tuples of numbers */
static NjStatus list_shape(NjSession *s, Node *n, int depth, int *nd, int64_t *shape) {
    if (n->kind != ND_LIST && n->kind != ND_TUPLE) {
        if (*nd < 0)
            *nd = depth;
        else if (*nd != depth)
            return arg_error(s, n->loc, NJ_ERR_ARGS, "inhomogeneous nested lists");
        return NJ_OK;
    }
    if (depth >= NJ_MAX_NDIM)
        return arg_error(s, n->loc, NJ_ERR_ARGS, "too deeply nested");
    if (shape[depth] < 0)
        shape[depth] = n->list.n;
    else if (shape[depth] != n->list.n)
        return arg_error(s, n->loc, NJ_ERR_ARGS, "inhomogeneous nested lists");
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
        return arg_error(s, n->loc, NJ_ERR_TYPE, "np.array() takes numbers here");
    }
    (*k)++;
    return NJ_OK;
}

static NjStatus make_array(NjSession *s, Node *call, SVal *out) {
    Node *src = arg_node(call, 0, "object");
    if (!src)
        return arg_error(s, call->loc, NJ_ERR_ARGS, "np.array() needs a list");
    NjDType dt;
    bool has_dt = arg_node(call, 1, "dtype") != NULL;
    NjStatus st = eval_dtype(s, arg_node(call, 1, "dtype"), NJ_FLOAT64, &dt);
    if (st)
        return st;
    if (src->kind != ND_LIST && src->kind != ND_TUPLE) {
        SVal v;
        if ((st = se_eval(s, src, &v)))
            return st;
        if (v.kind == SV_ARRAY) {
            SArr *c = sa_cast_copy(&v.arr->a, has_dt ? dt : v.arr->a.dtype);
            sv_free(&v);
            return made(s, call->loc, c, out);
        }
        if (v.kind != SV_SCALAR) {
            sv_free(&v);
            return arg_error(s, src->loc, NJ_ERR_TYPE, "np.array() takes a list or an array");
        }
        SArr *a = sa_full(has_dt ? dt : v.dtype, 0, NULL, &v);
        return made(s, call->loc, a, out);
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
        st = made(s, call->loc, a, out);
    }
    free(vals);
    return st;
}

static NjStatus random_body(NjSession *s, Node *call, const char *what, uint64_t *state,
                            SVal *out) {
    static const char *const kws[] = {"low", "high", "loc", "scale", "size", "seed", NULL};
    NjStatus st = check_kwargs(s, call, kws);
    if (st)
        return st;
    bool normal = !strcmp(what, "normal") || !strcmp(what, "standard_normal");
    bool unit = !strcmp(what, "random") || !strcmp(what, "standard_normal") || !strcmp(what, "rand");
    if (!normal && !unit && strcmp(what, "uniform"))
        return arg_error(s, call->loc, NJ_ERR_UNSUPPORTED,
                        "random.%s is not supported (uniform, normal, random, standard_normal are)",
                        what);
    double p0 = normal ? 0 : 0, p1 = 1;
    int sizepos = unit ? 0 : 2;
    if (!unit) {
        if ((st = eval_number(s, arg_node(call, 0, normal ? "loc" : "low"), p0, &p0, NULL)) ||
            (st = eval_number(s, arg_node(call, 1, normal ? "scale" : "high"), p1, &p1, NULL)))
            return st;
    }
    Node *seed = arg_node(call, -1, "seed");
    uint64_t local[4];
    if (seed) {
        double sd = 0;
        if ((st = eval_number(s, seed, 0, &sd, NULL)))
            return st;
        sa_seed(local, (uint64_t)(int64_t)sd);
        state = local;
    }
    Node *size = arg_node(call, sizepos, "size");
    int nd = 0;
    int64_t shape[NJ_MAX_NDIM];
    if (size && (st = eval_shape(s, size, &nd, shape)))
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
    LibCall lc;
    NjStatus st = enter_call(s, call, q, shown, &lc);
    return leave_call(s, &lc, st ? st : random_body(s, call, what, state, out));
}

static uint64_t *session_rng(NjSession *s) {
    if (!s->has_rng) {
        sa_seed(s->rng, 0x6e756d6a6974ull);
        s->has_rng = true;
    }
    return s->rng;
}

/* ---- print and % formatting ---------------------------------------------------------------- */
static NjStatus format_percent(NjSession *s, const char *fmt, const SVal *args, int n, Loc loc,
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
    NjStatus st = check_kwargs(s, call, kws);
    if (st)
        return st;
    char *sep = NULL, *end = NULL;
    Node *n;
    if ((n = arg_node(call, -1, "sep")) && (st = eval_string(s, n, &sep)))
        return st;
    if ((n = arg_node(call, -1, "end")) && (st = eval_string(s, n, &end))) {
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
        if ((st = check_kwargs(s, call, kws)))
            return st;
        Node *a = arg_node(call, 0, NULL);
        if (!a || call->list.n > 2)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "np.%s() takes an array and axis=", nm);
        return se_eval_reduce(s, rk, a, arg_node(call, 1, "axis"), call->loc, out);
    }
    if (!strcmp(nm, "zeros") || !strcmp(nm, "ones") || !strcmp(nm, "empty") || !strcmp(nm, "full")) {
        bool full = !strcmp(nm, "full");
        Node *shp = arg_node(call, 0, "shape");
        if (!shp)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "np.%s() needs a shape", nm);
        int nd;
        int64_t shape[NJ_MAX_NDIM];
        if ((st = eval_shape(s, shp, &nd, shape)))
            return st;
        SVal fill = sv_scalar_i(NJ_INT64, !strcmp(nm, "ones"));
        NjDType dflt = NJ_FLOAT64;
        if (full) {
            Node *fv = arg_node(call, 1, "fill_value");
            if (!fv)
                return arg_error(s, call->loc, NJ_ERR_ARGS, "np.full() needs a fill value");
            if ((st = se_eval(s, fv, &fill)))
                return st;
            if (fill.kind != SV_SCALAR)
                return arg_error(s, fv->loc, NJ_ERR_TYPE, "the fill value must be a number");
            dflt = fill.dtype;
        }
        NjDType dt;
        if ((st = eval_dtype(s, arg_node(call, full ? 2 : 1, "dtype"), dflt, &dt)))
            return st;
        const char *why = sa_shape_error(dt, nd, shape);
        if (why)
            return ss_error(s, call->loc, NJ_ERR_ARGS, "%s", why);
        return made(s, call->loc, sa_full(dt, nd, shape, !strcmp(nm, "empty") ? NULL : &fill), out);
    }
    if (!strcmp(nm, "zeros_like") || !strcmp(nm, "ones_like") || !strcmp(nm, "empty_like") ||
        !strcmp(nm, "full_like")) {
        bool full = !strcmp(nm, "full_like");
        SVal a, fill = sv_scalar_i(NJ_INT64, !strcmp(nm, "ones_like"));
        if ((st = need_array(s, arg_node(call, 0, "a"), &a)))
            return st;
        Node *fv = arg_node(call, 1, "fill_value");
        if (full && (st = se_eval(s, fv, &fill))) {
            sv_free(&a);
            return st;
        }
        if (fill.kind != SV_SCALAR) {
            sv_free(&a);
            sv_free(&fill);
            return arg_error(s, fv->loc, NJ_ERR_TYPE, "the fill value must be a number");
        }
        NjDType dt;
        st = eval_dtype(s, arg_node(call, full ? 2 : 1, "dtype"), a.arr->a.dtype, &dt);
        if (!st)
            st = made(s, call->loc, sa_full(dt, a.arr->a.ndim, a.arr->a.shape,
                                            !strcmp(nm, "empty_like") ? NULL : &fill), out);
        sv_free(&a);
        return st;
    }
    if (!strcmp(nm, "arange")) {
        static const char *const kws[] = {"start", "stop", "step", "dtype", NULL};
        if ((st = check_kwargs(s, call, kws)))
            return st;
        double a, b, c;
        bool ia = true, ib = true, ic = true;
        int np = call->list.n;
        if (np == 1) {
            a = 0;
            if ((st = eval_number(s, arg_node(call, 0, "stop"), 0, &b, &ib)))
                return st;
            c = 1;
        } else {
            if ((st = eval_number(s, arg_node(call, 0, "start"), 0, &a, &ia)) ||
                (st = eval_number(s, arg_node(call, 1, "stop"), 0, &b, &ib)) ||
                (st = eval_number(s, arg_node(call, 2, "step"), 1, &c, &ic)))
                return st;
        }
        bool ints = ia && ib && ic;
        NjDType dt;
        if ((st = eval_dtype(s, arg_node(call, 3, "dtype"), ints ? NJ_INT64 : NJ_FLOAT64, &dt)))
            return st;
        const char *err = "out of memory";
        SArr *r = sa_arange(dt, a, b, c, ints, &err);
        if (!r)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "%s", err);
        *out = sv_array(r);
        return NJ_OK;
    }
    if (!strcmp(nm, "linspace")) {
        static const char *const kws[] = {"start", "stop", "num", "endpoint", "dtype", NULL};
        if ((st = check_kwargs(s, call, kws)))
            return st;
        double a, b, num, ep;
        if ((st = eval_number(s, arg_node(call, 0, "start"), 0, &a, NULL)) ||
            (st = eval_number(s, arg_node(call, 1, "stop"), 1, &b, NULL)) ||
            (st = eval_number(s, arg_node(call, 2, "num"), 50, &num, NULL)) ||
            (st = eval_number(s, arg_node(call, 3, "endpoint"), 1, &ep, NULL)))
            return st;
        NjDType dt;
        if ((st = eval_dtype(s, arg_node(call, 4, "dtype"), NJ_FLOAT64, &dt)))
            return st;
        int64_t n = num < 0x1p63 ? (int64_t)num : INT64_MAX; /* no undefined conversion */
        const char *why = n >= 0 ? sa_shape_error(dt, 1, &n) : NULL;
        if (why)
            return ss_error(s, call->loc, NJ_ERR_ARGS, "%s", why);
        return made(s, call->loc, sa_linspace(a, b, n, ep != 0, dt), out);
    }
    if (!strcmp(nm, "array") || !strcmp(nm, "asarray"))
        return make_array(s, call, out);
    if (!strcmp(nm, "copy")) {
        SVal a;
        if ((st = need_array(s, arg_node(call, 0, "a"), &a)))
            return st;
        st = made(s, call->loc, sa_cast_copy(&a.arr->a, a.arr->a.dtype), out);
        sv_free(&a);
        return st;
    }
    if (!strcmp(nm, "load")) {
        char *path;
        Node *p = arg_node(call, 0, "file");
        if (!p)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "np.load() needs a file name");
        if ((st = eval_string(s, p, &path)))
            return st;
        SArr *a;
        char err[512];
        st = npy_load(path, &a, err, sizeof err);
        free(path);
        if (st)
            return arg_error(s, call->loc, st, "%s", err);
        *out = sv_array(a);
        return NJ_OK;
    }
    if (!strcmp(nm, "save")) {
        char *path;
        Node *p = arg_node(call, 0, "file"), *an = arg_node(call, 1, "arr");
        if (!p || !an)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "np.save() needs a file name and an array");
        if ((st = eval_string(s, p, &path)))
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
            return arg_error(s, an->loc, NJ_ERR_TYPE, "np.save() saves arrays");
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
        return st ? arg_error(s, call->loc, st, "%s", err) : NJ_OK;
    }
    return arg_error(s, call->a->loc, NJ_ERR_UNSUPPORTED,
                    "np.%s is not supported by the numjit session", nm);
}

static NjStatus call_numpy(NjSession *s, Node *call, const char *nm, SVal *out) {
    char q[192], shown[192];
    snprintf(q, sizeof q, "numpy.%s", nm);
    snprintf(shown, sizeof shown, "np.%s", nm);
    LibCall lc;
    NjStatus st = enter_call(s, call, q, shown, &lc);
    return leave_call(s, &lc, st ? st : numpy_body(s, call, nm, out));
}

static NjStatus method_body(NjSession *s, Node *call, SVal *self, const char *nm, SVal *out) {
    NjStatus st;
    if (self->kind == SV_RNG)
        return make_random(s, call, !strcmp(nm, "integers") ? "?" : nm, self->rng, out);
    if (self->kind != SV_ARRAY)
        return arg_error(s, call->a->loc, NJ_ERR_TYPE, "this value has no method '%s'", nm);
    NjArray *a = &self->arr->a;
    bool isred;
    RedKind rk = red_kind(nm, &isred);
    if (isred) {
        static const char *const kws[] = {"axis", NULL};
        if ((st = check_kwargs(s, call, kws)))
            return st;
        Node *obj = call->a->a; /* fuse (x*y).sum() with its operand */
        return se_eval_reduce(s, rk, obj, arg_node(call, 0, "axis"), call->loc, out);
    }
    if (!strcmp(nm, "astype")) {
        NjDType dt;
        if ((st = eval_dtype(s, arg_node(call, 0, "dtype"), a->dtype, &dt)))
            return st;
        return made(s, call->loc, sa_cast_copy(a, dt), out);
    }
    if (!strcmp(nm, "copy") || !strcmp(nm, "flatten") || !strcmp(nm, "ravel")) {
        SArr *c = sa_cast_copy(a, a->dtype);
        if (c && strcmp(nm, "copy")) {
            c->a.shape[0] = sa_size(a);
            c->a.ndim = 1;
            c->a.strides[0] = nj_dtype_size(a->dtype);
        }
        return made(s, call->loc, c, out);
    }
    if (!strcmp(nm, "reshape")) {
        int64_t shape[NJ_MAX_NDIM];
        int nd = 0;
        if (!call->list.n)
            return arg_error(s, call->loc, NJ_ERR_ARGS, "TypeError: ndarray.reshape() takes at "
                             "least 1 argument (0 given)");
        if (call->list.n > NJ_MAX_NDIM)
            return arg_error(s, call->list.items[NJ_MAX_NDIM]->loc, NJ_ERR_ARGS,
                             "numjit's arrays have at most %d dimensions", NJ_MAX_NDIM);
        if (call->list.n == 1) {
            if ((st = eval_shape(s, call->list.items[0], &nd, shape)))
                return st;
        } else {
            for (int i = 0; i < call->list.n && i < NJ_MAX_NDIM; i++) {
                double d = 0;
                if ((st = eval_number(s, call->list.items[i], 0, &d, NULL)))
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
            return arg_error(s, call->loc, NJ_ERR_ARGS, "cannot reshape an array of size %lld",
                            (long long)total);
        SArr *src = self->arr;
        SArr *c = sa_is_contig(a) ? NULL : sa_cast_copy(a, a->dtype);
        NjArray v = nj_array_c(c ? c->a.data : a->data, a->dtype, nd, shape);
        SArr *r = sa_view(c ? c : src, v);
        if (c)
            sa_decref(c);
        return made(s, call->loc, r, out);
    }
    if (!strcmp(nm, "fill")) {
        SVal v;
        Node *vn = arg_node(call, 0, "value");
        if ((st = se_eval(s, vn, &v)))
            return st;
        if (v.kind != SV_SCALAR && v.kind != SV_ARRAY) {
            sv_free(&v);
            return arg_error(s, vn->loc, NJ_ERR_TYPE, "the fill value must be a number or an array");
        }
        st = se_copy_into(s, a, &v, call->loc);
        sv_free(&v);
        *out = sv_none();
        return st;
    }
    return arg_error(s, call->a->loc, NJ_ERR_UNSUPPORTED,
                    "arrays have no method '%s' in the numjit session", nm);
}

static NjStatus call_method(NjSession *s, Node *call, SVal *self, const char *nm, SVal *out) {
    if (self->kind != SV_ARRAY)
        return method_body(s, call, self, nm, out);
    char q[192], shown[192];
    snprintf(q, sizeof q, "array.%s", nm);
    snprintf(shown, sizeof shown, "ndarray.%s", nm);
    LibCall lc;
    NjStatus st = enter_call(s, call, q, shown, &lc);
    return leave_call(s, &lc, st ? st : method_body(s, call, self, nm, out));
}

/* np.random.seed(seed), np.random.default_rng(seed) */
static NjStatus seed_body(NjSession *s, Node *call, const char *nm, SVal *out) {
    double sd = 0;
    NjStatus st = eval_number(s, arg_node(call, 0, "seed"), 0, &sd, NULL);
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

static NjStatus eval_call(NjSession *s, Node *call, SVal *out) {
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
                LibCall lc;
                st = enter_call(s, call, "builtin.len", "len", &lc);
                if ((st = leave_call(s, &lc, st ? st : se_eval(s, arg_node(call, 0, "obj"), &v))))
                    return st;
                int64_t n = v.kind == SV_ARRAY && v.arr->a.ndim ? v.arr->a.shape[0]
                            : v.kind == SV_TUPLE ? v.n
                            : v.kind == SV_STR ? (int64_t)strlen(v.str) : -1;
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
                return se_eval_reduce(s, rk, call->list.items[0], arg_node(call, -1, "axis"),
                                      call->loc, out);
        }
        if (!strncmp(q, "numpy.random.", 13)) {
            const char *nm = q + 13;
            if (!strcmp(nm, "seed") || !strcmp(nm, "default_rng")) {
                LibCall lc;
                char shown[192];
                snprintf(shown, sizeof shown, "np.random.%s", nm);
                st = enter_call(s, call, q + 6, shown, &lc);
                return leave_call(s, &lc, st ? st : seed_body(s, call, nm, out));
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
            LibCall lc;
            st = enter_call(s, call, mq, shown, &lc);
            return leave_call(s, &lc, st ? st : se_eval_reduce(s, rk, obj, arg_node(call, 0, "axis"),
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

/* ---- subscripts --------------------------------------------------------------------------- */
static NjStatus slice_bounds(NjSession *s, Node *sl, int64_t len, int64_t *start, int64_t *stop,
                             int64_t *step) {
    double v = 0;
    NjStatus st;
    *step = 1;
    if (sl->c) {
        if ((st = eval_number(s, sl->c, 1, &v, NULL)))
            return st;
        *step = (int64_t)v;
        if (*step == 0)
            return ss_error(s, sl->c->loc, NJ_ERR_ARGS, "slice step cannot be zero");
    }
    int64_t lo = *step < 0 ? len - 1 : 0, hi = *step < 0 ? -1 : len;
    if (sl->a) {
        if ((st = eval_number(s, sl->a, 0, &v, NULL)))
            return st;
        lo = (int64_t)v;
        if (lo < 0)
            lo += len;
        if (lo < 0)
            lo = *step < 0 ? -1 : 0;
        if (lo >= len)
            lo = *step < 0 ? len - 1 : len;
    }
    if (sl->b) {
        if ((st = eval_number(s, sl->b, 0, &v, NULL)))
            return st;
        hi = (int64_t)v;
        if (hi < 0)
            hi += len;
        if (hi < 0)
            hi = *step < 0 ? -1 : 0;
        if (hi >= len)
            hi = *step < 0 ? len - 1 : len;
    }
    *start = lo;
    *stop = hi;
    return NJ_OK;
}

/* a[idx]: a view (slices) or an element (as many integers as dimensions). */
static NjStatus index_array(NjSession *s, SVal *arr, Node *idx, SVal *out, bool *is_elem,
                            char **elem_ptr) {
    NjArray *a = &arr->arr->a;
    Node *items[NJ_MAX_NDIM];
    int n = 0;
    if (idx->kind == ND_TUPLE) {
        for (int i = 0; i < idx->list.n && n < NJ_MAX_NDIM; i++)
            items[n++] = idx->list.items[i];
    } else
        items[n++] = idx;
    if (n > a->ndim)
        return ss_error(s, idx->loc, NJ_ERR_ARGS, "too many indices for an array of dimension %d",
                        a->ndim);
    NjArray v = *a;
    v.ndim = 0;
    char *p = a->data;
    int nints = 0;
    for (int d = 0; d < a->ndim; d++) {
        Node *it = d < n ? items[d] : NULL;
        if (!it || it->kind == ND_SLICE) {
            int64_t lo = 0, hi = a->shape[d], step = 1;
            if (it) {
                NjStatus st = slice_bounds(s, it, a->shape[d], &lo, &hi, &step);
                if (st)
                    return st;
            }
            int64_t len = step > 0 ? (hi - lo + step - 1) / step : (lo - hi - step - 1) / -step;
            if (len < 0)
                len = 0;
            p += lo * a->strides[d];
            v.shape[v.ndim] = len;
            v.strides[v.ndim] = a->strides[d] * step;
            v.ndim++;
            continue;
        }
        SVal iv;
        NjStatus st = se_eval(s, it, &iv);
        if (st)
            return st;
        if (iv.kind != SV_SCALAR || iv.dtype == NJ_FLOAT32 || iv.dtype == NJ_FLOAT64 ||
            iv.dtype == NJ_BOOL) {
            sv_free(&iv);
            return ss_error(s, it->loc, NJ_ERR_UNSUPPORTED,
                            "only integers and slices are supported as indices (basic indexing)");
        }
        int64_t i = sv_as_int(&iv);
        if (i < 0)
            i += a->shape[d];
        if (i < 0 || i >= a->shape[d])
            return ss_error(s, it->loc, NJ_ERR_RUNTIME,
                            "IndexError: index %lld is out of bounds for axis %d with size %lld",
                            (long long)sv_as_int(&iv), d, (long long)a->shape[d]);
        p += i * a->strides[d];
        nints++;
    }
    v.data = p;
    *is_elem = nints == a->ndim;
    if (*is_elem) {
        if (elem_ptr)
            *elem_ptr = p;
        *out = sv_load(p, a->dtype);
        return NJ_OK;
    }
    SArr *r = sa_view(arr->arr, v);
    if (!r)
        return NJ_ERR_NOMEM;
    *out = sv_array(r);
    return NJ_OK;
}

static NjStatus eval_subscript(NjSession *s, Node *e, SVal *out) {
    SVal base;
    NjStatus st = se_eval(s, e->a, &base);
    if (st)
        return st;
    if (base.kind == SV_TUPLE) {
        SVal iv;
        if ((st = se_eval(s, e->b, &iv))) {
            sv_free(&base);
            return st;
        }
        int64_t i = sv_as_int(&iv);
        if (i < 0)
            i += base.n;
        if (iv.kind != SV_SCALAR || i < 0 || i >= base.n)
            st = ss_error(s, e->b->loc, NJ_ERR_RUNTIME, "IndexError: tuple index out of range");
        else
            *out = sv_copy(&base.elems[i]);
        sv_free(&base);
        return st;
    }
    if (base.kind != SV_ARRAY) {
        sv_free(&base);
        return ss_error(s, e->a->loc, NJ_ERR_TYPE, "this value is not subscriptable");
    }
    bool elem;
    st = index_array(s, &base, e->b, out, &elem, NULL);
    sv_free(&base);
    return st;
}

/* ---- attributes ----------------------------------------------------------------------------- */
static NjStatus eval_attr(NjSession *s, Node *e, SVal *out) {
    const char *nm = e->name;
    if (e->a->kind == ND_NAME && !ss_lookup(s, e->a->name) &&
        (!strcmp(e->a->name, "np") || !strcmp(e->a->name, "numpy") || !strcmp(e->a->name, "math"))) {
        if (!strcmp(nm, "pi")) { *out = sv_scalar_f(NJ_FLOAT64, M_PI); return NJ_OK; }
        if (!strcmp(nm, "e")) { *out = sv_scalar_f(NJ_FLOAT64, M_E); return NJ_OK; }
        if (!strcmp(nm, "inf")) { *out = sv_scalar_f(NJ_FLOAT64, INFINITY); return NJ_OK; }
        if (!strcmp(nm, "nan")) { *out = sv_scalar_f(NJ_FLOAT64, NAN); return NJ_OK; }
        if (!strcmp(nm, "tau")) { *out = sv_scalar_f(NJ_FLOAT64, 2 * M_PI); return NJ_OK; }
        NjDType dt;
        if (sa_dtype_from_name(nm, &dt)) {
            *out = (SVal){.kind = SV_DTYPE, .dtype = dt};
            return NJ_OK;
        }
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "%s.%s is not supported here",
                        e->a->name, nm);
    }
    SVal o;
    NjStatus st = se_eval(s, e->a, &o);
    if (st)
        return st;
    if (o.kind != SV_ARRAY) {
        sv_free(&o);
        return ss_error(s, e->loc, NJ_ERR_TYPE, "this value has no attribute '%s'", nm);
    }
    NjArray *a = &o.arr->a;
    st = NJ_OK;
    if (!strcmp(nm, "shape")) {
        SVal t = {.kind = SV_TUPLE, .n = a->ndim};
        t.elems = calloc((size_t)(a->ndim ? a->ndim : 1), sizeof *t.elems);
        for (int i = 0; t.elems && i < a->ndim; i++)
            t.elems[i] = sv_scalar_i(NJ_INT64, a->shape[i]);
        *out = t;
    } else if (!strcmp(nm, "size"))
        *out = sv_scalar_i(NJ_INT64, sa_size(a));
    else if (!strcmp(nm, "ndim"))
        *out = sv_scalar_i(NJ_INT64, a->ndim);
    else if (!strcmp(nm, "dtype"))
        *out = (SVal){.kind = SV_DTYPE, .dtype = a->dtype};
    else if (!strcmp(nm, "itemsize"))
        *out = sv_scalar_i(NJ_INT64, nj_dtype_size(a->dtype));
    else if (!strcmp(nm, "nbytes"))
        *out = sv_scalar_i(NJ_INT64, sa_size(a) * nj_dtype_size(a->dtype));
    else if (!strcmp(nm, "T")) {
        NjArray t = *a;
        for (int i = 0; i < a->ndim; i++) {
            t.shape[i] = a->shape[a->ndim - 1 - i];
            t.strides[i] = a->strides[a->ndim - 1 - i];
        }
        SArr *r = sa_view(o.arr, t);
        st = made(s, e->loc, r, out);
    } else
        st = ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "arrays have no attribute '%s' in numjit", nm);
    sv_free(&o);
    return st;
}

/* ---- se_eval ------------------------------------------------------------------------------------ */
NjStatus se_eval(NjSession *s, Node *e, SVal *out) {
    *out = sv_none();
    if (se_is_region_node(s, e) && se_eval_fast(s, e, out)) {
        s->hint = s->force = NULL;
        return NJ_OK;
    }
    if (se_is_region_node(s, e) &&
        !(e->kind == ND_BINOP && e->op == OP_MOD && e->a->kind == ND_STR)) {
        SArr *hint = s->hint, *force = s->force;
        s->hint = s->force = NULL;
        return se_run_region(s, e, hint, force, out);
    }
    if (e->kind != ND_CALL)
        s->hint = s->force = NULL;
    switch (e->kind) {
    case ND_INT: *out = sv_scalar_i(NJ_INT64, e->ival); return NJ_OK;
    case ND_FLOAT: *out = sv_scalar_f(NJ_FLOAT64, e->fval); return NJ_OK;
    case ND_IMAG:
        *out = (SVal){.kind = SV_SCALAR, .dtype = NJ_COMPLEX128, .s.c = {0.0, e->fval}};
        return NJ_OK;
    case ND_BOOL: *out = sv_scalar_i(NJ_BOOL, e->ival); return NJ_OK;
    case ND_NONE: return NJ_OK;
    case ND_STR:
        *out = (SVal){.kind = SV_STR, .str = strdup(e->str ? e->str : "")};
        return out->str ? NJ_OK : NJ_ERR_NOMEM;
    case ND_NAME: {
        SVal *v = ss_lookup(s, e->name);
        if (v) {
            *out = sv_copy(v);
            return NJ_OK;
        }
        if (ss_is_func(s, e->name))
            return ss_error(s, e->loc, NJ_ERR_TYPE, "function '%s' used as a value", e->name);
        return ss_error(s, e->loc, NJ_ERR_NAME, "name '%s' is not defined", e->name);
    }
    case ND_TUPLE: {
        SVal t = {.kind = SV_TUPLE};
        t.elems = calloc((size_t)(e->list.n ? e->list.n : 1), sizeof *t.elems);
        if (!t.elems)
            return NJ_ERR_NOMEM;
        for (int i = 0; i < e->list.n; i++) {
            NjStatus st = se_eval(s, e->list.items[i], &t.elems[i]);
            if (st) {
                sv_free(&t);
                return st;
            }
            t.n++;
        }
        *out = t;
        return NJ_OK;
    }
    case ND_BINOP: { /* "format" % values */
        if (e->op != OP_MOD || e->a->kind != ND_STR)
            return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "operator '%s' is not supported by "
                            "numjit", ast_op_spelling[e->op]);
        SVal fmt, v;
        NjStatus st = se_eval(s, e->a, &fmt);
        if (st)
            return st;
        if ((st = se_eval(s, e->b, &v))) {
            sv_free(&fmt);
            return st;
        }
        StrBuf sb;
        sb_init(&sb);
        sb_puts(&sb, "");
        st = v.kind == SV_TUPLE ? format_percent(s, fmt.str, v.elems, v.n, e->loc, &sb)
                                : format_percent(s, fmt.str, &v, 1, e->loc, &sb);
        sv_free(&fmt);
        sv_free(&v);
        if (st) {
            sb_free(&sb);
            return st;
        }
        *out = (SVal){.kind = SV_STR, .str = sb_take(&sb)};
        return NJ_OK;
    }
    case ND_ATTR: return eval_attr(s, e, out);
    case ND_SUBSCRIPT: return eval_subscript(s, e, out);
    case ND_CALL: return eval_call(s, e, out);
    case ND_LIST:
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED,
                        "lists are supported only as the argument of np.array([...])");
    default:
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED,
                        "this expression is not supported at the top level of a numjit session");
    }
}

/* ---- assignment ---------------------------------------------------------------------------- */
NjStatus se_copy_into(NjSession *s, const NjArray *dst, const SVal *v, Loc loc) {
    if (v->kind != SV_SCALAR && v->kind != SV_ARRAY)
        return ss_error(s, loc, NJ_ERR_TYPE, "only numbers and arrays can be stored in an array");
    NjUfunc *u;
    NjStatus st = se_helper_ufunc(s, RED_MEAN, &u); /* the identity */
    if (st)
        return st;
    SArr *tmp = NULL;
    NjArray in;
    char sbuf[8] = {0};
    if (v->kind == SV_SCALAR) {
        SVal c = dst->dtype == NJ_FLOAT32 || dst->dtype == NJ_FLOAT64
                     ? sv_scalar_f(dst->dtype, sv_as_double(v))
                     : sv_scalar_i(dst->dtype, sv_as_int(v));
        sv_store(sbuf, &c);
        in = nj_array_c(sbuf, dst->dtype, 0, NULL);
    } else if (v->arr->a.dtype != dst->dtype) { /* setitem casts unsafely, as NumPy */
        if (!(tmp = sa_cast_copy(&v->arr->a, dst->dtype)))
            return NJ_ERR_NOMEM;
        in = tmp->a;
    } else
        in = v->arr->a;
    /* broadcast the value to dst's shape (stride 0 where it repeats) */
    NjArray b = in;
    if (in.ndim > dst->ndim) {
        sa_decref(tmp);
        return ss_error(s, loc, NJ_ERR_ARGS, "could not broadcast a %d-d value into a %d-d "
                        "array", in.ndim, dst->ndim);
    }
    b.ndim = dst->ndim;
    for (int d = 0; d < dst->ndim; d++) {
        int k = d - (dst->ndim - in.ndim);
        int64_t n = k >= 0 ? in.shape[k] : 1;
        if (n != dst->shape[d] && n != 1) {
            sa_decref(tmp);
            return ss_error(s, loc, NJ_ERR_ARGS, "could not broadcast the value's shape into "
                            "the target's shape");
        }
        b.shape[d] = dst->shape[d];
        b.strides[d] = k >= 0 && n != 1 ? in.strides[k] : 0;
    }
    in = b;
    NjArray out = *dst;
    st = nj_ufunc_call(u, &in, 1, &out, 1);
    sa_decref(tmp);
    return st;
}

NjStatus se_assign(NjSession *s, Node *t, const SVal *value) {
    switch (t->kind) {
    case ND_NAME:
        if (!strncmp(t->name, "__nj", 4))
            return ss_error(s, t->loc, NJ_ERR_NAME, "names starting with '__nj' are reserved");
        if (ss_is_func(s, t->name))
            return ss_error(s, t->loc, NJ_ERR_UNSUPPORTED,
                            "'%s' is a function of this session: pick another name", t->name);
        return ss_set(s, t->name, sv_copy(value)) ? NJ_OK : NJ_ERR_NOMEM;
    case ND_TUPLE: case ND_LIST:
        if (value->kind != SV_TUPLE || value->n != t->list.n)
            return ss_error(s, t->loc, NJ_ERR_ARGS, "cannot unpack %s into %d names",
                            value->kind == SV_TUPLE ? "a tuple of another length" : "a non-tuple",
                            t->list.n);
        for (int i = 0; i < t->list.n; i++) {
            NjStatus st = se_assign(s, t->list.items[i], &value->elems[i]);
            if (st)
                return st;
        }
        return NJ_OK;
    case ND_SUBSCRIPT: {
        SVal base;
        NjStatus st = se_eval(s, t->a, &base);
        if (st)
            return st;
        if (base.kind != SV_ARRAY) {
            sv_free(&base);
            return ss_error(s, t->a->loc, NJ_ERR_TYPE, "only arrays support item assignment here");
        }
        SVal view;
        bool elem;
        char *p = NULL;
        st = index_array(s, &base, t->b, &view, &elem, &p);
        if (!st && elem) {
            if (value->kind != SV_SCALAR)
                st = ss_error(s, t->loc, NJ_ERR_TYPE, "setting an array element with a sequence");
            else {
                NjDType d = base.arr->a.dtype;
                SVal c = d == NJ_FLOAT32 || d == NJ_FLOAT64 ? sv_scalar_f(d, sv_as_double(value))
                                                           : sv_scalar_i(d, sv_as_int(value));
                sv_store(p, &c);
            }
        } else if (!st) {
            st = se_copy_into(s, &view.arr->a, value, t->loc);
        }
        sv_free(&view);
        sv_free(&base);
        return st;
    }
    default:
        return ss_error(s, t->loc, NJ_ERR_UNSUPPORTED, "cannot assign to this expression");
    }
}

NjStatus se_augassign(NjSession *s, Node *st) {
    /* x op= v: in place when x names an array (NumPy), else x = x op v */
    Node bin = {.kind = ND_BINOP, .loc = st->loc, .op = st->op, .a = st->a, .b = st->b};
    if (st->a->kind == ND_NAME) {
        SVal *cur = ss_lookup(s, st->a->name);
        if (!cur)
            return ss_error(s, st->a->loc, NJ_ERR_NAME, "name '%s' is not defined", st->a->name);
        if (cur->kind == SV_ARRAY) {
            SArr *dst = cur->arr;
            dst->refs++;
            SVal r;
            s->force = dst;
            NjStatus rc = se_eval(s, &bin, &r);
            s->force = NULL;
            if (!rc)
                sv_free(&r);
            sa_decref(dst);
            return rc;
        }
    }
    SVal r;
    NjStatus rc = se_eval(s, &bin, &r);
    if (rc)
        return rc;
    rc = se_assign(s, st->a, &r);
    sv_free(&r);
    return rc;
}

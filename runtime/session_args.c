/* session_args.c — how a session's library calls read their arguments: the signature of every
 * call the session runs itself (as Python writes it), one binder that checks a call against
 * it before the handler runs (a missing, extra, repeated or unknown argument is a located
 * error that shows the signature), and the readers of bound arguments (numbers, shapes,
 * dtypes, strings, arrays) that handlers share; their errors show the signature too.
 */
#include "session.h"

#include "../lib/lib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments ----------------------------------------------------------------------------- */
/* The library calls a session runs itself.  A call binds to the Python signature of the
 * registry row of the same name (lib/: the one place compiled code and the session take
 * their signatures from), with lib_bind_sig's checks and CPython's words; the session then
 * refuses, at the argument, a parameter it does not implement, and hands its handler the
 * arguments it does as one positional list in `reads` order (None for one left out), so a
 * handler reads argument k of `reads` whichever way the call passed it.  A name no row has
 * (what compiled code cannot call: np.load, rng methods) or whose row's text is not a
 * bindable signature (NumPy's "[start,] stop[, step,]") carries its own; `sig` after a row
 * adds the session's own keyword "seed=" (a generator of its own for one call). */
typedef struct SeSig {
    const char *name;  /* the session's: "numpy.zeros", "random.uniform", "array.astype" */
    const char *row;   /* the registry row whose signature binds the call, or NULL */
    const char *sig;   /* with a row: text appended to its signature; else the signature */
    const char *reads; /* the parameters the session implements, in its handler's order */
} SeSig;

#define RED(q, r) {q, r, NULL, "a, axis"}
#define METHOD_RED(q, r) {q, r, NULL, "axis"}
#define SEEDED ", *, seed=None"
static const SeSig se_sigs[] = {
    RED("numpy.sum", "numpy.sum"), RED("numpy.prod", "numpy.prod"), RED("numpy.min", "numpy.min"),
    RED("numpy.amin", "numpy.amin"), RED("numpy.max", "numpy.max"), RED("numpy.amax", "numpy.amax"),
    RED("numpy.mean", "numpy.mean"),
    {"numpy.zeros", "numpy.zeros", NULL, "shape, dtype"},
    {"numpy.ones", "numpy.ones", NULL, "shape, dtype"},
    {"numpy.empty", "numpy.empty", NULL, "shape, dtype"},
    {"numpy.full", "numpy.full", NULL, "shape, fill_value, dtype"},
    {"numpy.zeros_like", "numpy.zeros_like", NULL, "a, dtype"},
    {"numpy.ones_like", "numpy.ones_like", NULL, "a, dtype"},
    {"numpy.empty_like", "numpy.empty_like", NULL, "prototype, dtype"},
    {"numpy.full_like", "numpy.full_like", NULL, "a, fill_value, dtype"},
    {"numpy.arange", NULL, "start, stop=None, step=None, dtype=None", "start, stop, step, dtype"},
    {"numpy.linspace", "numpy.linspace", NULL, "start, stop, num, endpoint, dtype"},
    {"numpy.array", NULL, "object, dtype=None", "object, dtype"},
    {"numpy.asarray", NULL, "object, dtype=None", "object, dtype"},
    {"numpy.copy", "numpy.copy", NULL, "a"},
    {"numpy.load", NULL, "file", "file"},
    {"numpy.save", NULL, "file, arr", "file, arr"},
    {"random.seed", "numpy.random.seed", NULL, "seed"},
    {"random.default_rng", NULL, "seed=None", "seed"},
    {"random.uniform", "numpy.random.uniform", SEEDED, "low, high, size, seed"},
    {"random.normal", "numpy.random.normal", SEEDED, "loc, scale, size, seed"},
    {"random.random", "numpy.random.random", SEEDED, "size, seed"},
    {"random.rand", NULL, "size=None" SEEDED, "size, seed"},
    {"random.standard_normal", "numpy.random.standard_normal", SEEDED, "size, seed"},
    {"builtin.len", "builtins.len", NULL, "obj"},
    METHOD_RED("array.sum", "ndarray.sum"), METHOD_RED("array.prod", "ndarray.prod"),
    METHOD_RED("array.min", "ndarray.min"), METHOD_RED("array.max", "ndarray.max"),
    METHOD_RED("array.mean", "ndarray.mean"),
    {"array.astype", "ndarray.astype", NULL, "dtype"},
    {"array.copy", "ndarray.copy", NULL, ""},
    {"array.flatten", "ndarray.flatten", NULL, ""},
    {"array.ravel", NULL, "", ""},
    {"array.fill", NULL, "value", "value"},
    {NULL, NULL, NULL, NULL}};
#undef RED
#undef METHOD_RED
#undef SEEDED

static const SeSig *se_sig_row(const char *qname) {
    for (int i = 0; se_sigs[i].name; i++)
        if (!strcmp(se_sigs[i].name, qname))
            return &se_sigs[i];
    return NULL;
}

/* The signature a row binds with, in buf; NULL when the registry lacks its row (a mistake the
 * unit tests catch: test_session checks every row). */
static const char *sig_text(const SeSig *r, char *buf, size_t size) {
    if (!r->row)
        return r->sig;
    const LibEntry *le = lib_lookup(r->row);
    if (!le)
        return NULL;
    snprintf(buf, size, "%s%s", le->sig, r->sig ? r->sig : "");
    return buf;
}

/* Checks every row: its registry row exists, its signature binds (a call with no arguments
 * fails only for a missing argument), and each parameter it reads is one of the signature's.
 * NULL when all are good, else a message naming the first bad row (in buf). */
const char *se_sig_check(char *buf, size_t size) {
    for (int i = 0; se_sigs[i].name; i++) {
        const SeSig *r = &se_sigs[i];
        char sbuf[384];
        const char *sig = sig_text(r, sbuf, sizeof sbuf);
        if (!sig) {
            snprintf(buf, size, "%s: the registry has no row '%s'", r->name, r->row);
            return buf;
        }
        Node call = {.kind = ND_CALL};
        LibArgs b;
        Loc at;
        char err[256];
        if (!lib_bind_sig(sig, r->name, &call, &b, &at, err, sizeof err) &&
            !strstr(err, "missing required argument")) {
            snprintf(buf, size, "%s: %s", r->name, err);
            return buf;
        }
        for (const char *p = r->reads; *p;) {
            while (*p == ' ' || *p == ',')
                p++;
            size_t len = strcspn(p, ", ");
            bool found = false;
            for (int k = 0; k < b.n && !found; k++)
                found = strlen(b.name[k]) == len && !strncmp(b.name[k], p, len);
            if (len && !found) {
                snprintf(buf, size, "%s reads '%.*s', which '%s' does not have", r->name,
                         (int)len, p, sig);
                return buf;
            }
            p += len;
        }
    }
    return NULL;
}

/* Where parameter `name` is in reads, or -1. */
static int read_index(const char *reads, const char *name) {
    size_t n = strlen(name);
    int k = 0;
    for (const char *p = reads; *p; k++) {
        while (*p == ' ' || *p == ',')
            p++;
        size_t len = strcspn(p, ", ");
        if (len == n && !strncmp(p, name, n))
            return k;
        p += len;
    }
    return -1;
}

/* An error about an argument of the call being bound, with its signature as a note. */
NjStatus se_arg_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...)
    NJ_PRINTF(4, 5);
NjStatus se_arg_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...) {
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

/* A library call: binds its arguments (above), makes its signature the one se_arg_error shows
 * while the handler runs (calls nest: np.zeros(np.arange(n).size)), and points *call at the
 * arguments in `reads` order, which live in lc until se_leave_call. */
NjStatus se_enter_call(NjSession *s, Node **call, const char *qname, const char *shown,
                       SeLibCall *lc) {
    lc->saved = s->call_sig;
    s->call_sig = NULL;
    const SeSig *r = se_sig_row(qname);
    char buf[384];
    const char *sig = r ? sig_text(r, buf, sizeof buf) : NULL;
    if (!sig)
        return NJ_OK;
    snprintf(lc->shown, sizeof lc->shown, "%s(%s)", shown, sig);
    s->call_sig = lc->shown;
    LibArgs b;
    Loc at;
    char err[256];
    if (!lib_bind_sig(sig, shown, *call, &b, &at, err, sizeof err))
        return se_arg_error(s, at, NJ_ERR_ARGS, "TypeError: %s", err);
    lc->call = **call;
    lc->call.list = (NodeList){lc->items, 0};
    lc->call.list2 = (NodeList){NULL, 0};
    for (int k = 0; k < b.n; k++) {
        if (!b.node[k])
            continue;
        int i = read_index(r->reads, b.name[k]);
        if (i < 0)
            return se_arg_error(s, b.at[k], NJ_ERR_UNSUPPORTED,
                                "%s() argument '%s' is not supported by numjit", shown, b.name[k]);
        while (lc->call.list.n <= i)
            lc->items[lc->call.list.n++] = NULL;
        lc->items[i] = b.node[k];
    }
    *call = &lc->call;
    return NJ_OK;
}

NjStatus se_leave_call(NjSession *s, SeLibCall *lc, NjStatus st) {
    s->call_sig = lc->saved;
    return st;
}

Node *se_arg_node(Node *call, int pos, const char *kw) {
    if (pos >= 0 && pos < call->list.n)
        return call->list.items[pos];
    for (int i = 0; kw && i < call->list2.n; i++)
        if (!strcmp(call->list2.items[i]->name, kw))
            return call->list2.items[i]->a;
    return NULL;
}

NjStatus se_check_kwargs(NjSession *s, Node *call, const char *const *allowed) {
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

NjStatus se_eval_number(NjSession *s, Node *n, double dflt, double *out, bool *is_int) {
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
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "expected a real number");
    }
    *out = sv_as_double(&v);
    if (is_int)
        *is_int = v.dtype != NJ_FLOAT32 && v.dtype != NJ_FLOAT64;
    return NJ_OK;
}

NjStatus se_eval_shape(NjSession *s, Node *n, int *nd, int64_t *shape) {
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
                return se_arg_error(s, n->loc, NJ_ERR_TYPE, "a shape is an int or a tuple of ints");
            }
            shape[(*nd)++] = sv_as_int(&v.elems[i]);
        }
    } else {
        sv_free(&v);
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "a shape is an int or a tuple of ints");
    }
    sv_free(&v);
    for (int i = 0; i < *nd; i++)
        if (shape[i] < 0)
            return se_arg_error(s, n->loc, NJ_ERR_ARGS, "negative dimensions are not allowed");
    return NJ_OK;
}

/* dtype=np.float32, dtype='int32', dtype=float, dtype=x.dtype */
NjStatus se_eval_dtype(NjSession *s, Node *n, NjDType dflt, NjDType *out) {
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
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "data type '%s' is not supported by numjit", name);
    }
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    if (v.kind != SV_DTYPE) {
        sv_free(&v);
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "expected a dtype");
    }
    *out = v.dtype;
    return NJ_OK;
}

NjStatus se_eval_string(NjSession *s, Node *n, char **out) {
    SVal v;
    NjStatus st = se_eval(s, n, &v);
    if (st)
        return st;
    if (v.kind != SV_STR) {
        sv_free(&v);
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "expected a string");
    }
    *out = v.str;
    return NJ_OK;
}

NjStatus se_need_array(NjSession *s, Node *n, SVal *v) {
    NjStatus st = se_eval(s, n, v);
    if (st)
        return st;
    if (v->kind != SV_ARRAY) {
        sv_free(v);
        return se_arg_error(s, n->loc, NJ_ERR_TYPE, "expected an array");
    }
    return NJ_OK;
}

/* session_args.c — how a session's library calls read their arguments: the signature of every
 * call the session runs itself (as Python writes it), one binder that checks a call against
 * it before the handler runs (a missing, extra, repeated or unknown argument is a located
 * error that shows the signature), and the readers of bound arguments (numbers, shapes,
 * dtypes, strings, arrays) that handlers share; their errors show the signature too.
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
            return se_arg_error(s, call->list.items[i]->loc, NJ_ERR_ARGS,
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
            return se_arg_error(s, k->loc, NJ_ERR_ARGS,
                             "TypeError: %s() got an unexpected keyword argument '%s'", shown,
                             k->name);
        if (given[j])
            return se_arg_error(s, k->loc, NJ_ERR_ARGS,
                             "TypeError: %s() got multiple values for argument '%s'", shown,
                             k->name);
        given[j] = true;
    }
    for (int j = 0; j < nreq; j++)
        if (!given[j])
            return se_arg_error(s, call->loc, NJ_ERR_ARGS,
                             "TypeError: %s() missing required argument '%s'", shown, names[j]);
    return NJ_OK;
}

/* A library call: binds its arguments to the signature of qname and makes that signature the
 * one arg_error shows while the handler runs (calls nest: np.zeros(np.arange(n).size)). */
NjStatus se_enter_call(NjSession *s, Node *call, const char *qname, const char *shown,
                           SeLibCall *lc) {
    lc->saved = s->call_sig;
    s->call_sig = NULL;
    const char *sig = lib_sig(qname);
    if (!sig)
        return NJ_OK;
    snprintf(lc->shown, sizeof lc->shown, "%s(%s)", shown, sig);
    s->call_sig = lc->shown;
    return bind_args(s, call, sig, shown);
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

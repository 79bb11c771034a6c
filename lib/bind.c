/* bind.c — the one binder of a call's arguments to a row's Python signature, and the argument
 * checkers the handlers share.
 *
 * The signature is the row's text as Python writes it ("a, axis=None, out=None"): parameters
 * split at the commas outside brackets, each a name with an optional default; a bare "/" ends
 * the positional-only ones and a bare "*" starts the keyword-only ones, as in CPython.  The
 * binder matches the call's positional arguments in order and its keywords by name, and says
 * every mistake in CPython's words, at the argument's location: too many arguments, an
 * unexpected keyword, a value given twice, a required argument missing (at the call).  A
 * parameter whose default is None counts as left out when the call passes None.
 */
#include "lib.h"

#include <stdio.h>
#include <string.h>

/* Splits sig into b's parameters; false (a message in err) for "*args" or "**kw", which a
 * row bound here may not have, or for too many parameters. */
static bool parse(const char *sig, const char *shown, LibArgs *b, char *err, size_t errsize) {
    memset(b, 0, sizeof *b);
    int kwonly_from = -1;
    const char *p = sig;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *start = p;
        int depth = 0;
        while (*p && (depth || *p != ',')) {
            depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
            p++;
        }
        size_t n = (size_t)(p - start);
        if (*p == ',')
            p++;
        if (n == 1 && *start == '/') {
            b->npos_only = b->n;
            continue;
        }
        if (n == 1 && *start == '*') {
            kwonly_from = b->n;
            continue;
        }
        const char *eq = memchr(start, '=', n);
        size_t nl = eq ? (size_t)(eq - start) : n;
        if (*start == '*' || b->n == LIB_MAX_PARAMS || nl >= sizeof b->name[0]) {
            snprintf(err, errsize, "%s() cannot be bound from its signature '%s'", shown, sig);
            return false;
        }
        memcpy(b->name[b->n], start, nl);
        b->name[b->n][nl] = 0;
        b->has_default[b->n] = eq != NULL;
        b->none_default[b->n] = eq && n - nl - 1 == 4 && !memcmp(eq + 1, "None", 4);
        b->n++;
    }
    b->npos = kwonly_from >= 0 ? kwonly_from : b->n;
    return true;
}

bool lib_bind_sig(const char *sig, const char *shown, Node *call, LibArgs *b, Loc *err_at,
                  char *err, size_t errsize) {
    *err_at = call->loc;
    if (!parse(sig, shown, b, err, errsize))
        return false;
    if (call->list.n > b->npos) {
        *err_at = call->list.items[b->npos]->loc;
        snprintf(err, errsize, "%s() takes at most %d argument%s (%d given)", shown, b->npos,
                 b->npos == 1 ? "" : "s", call->list.n);
        return false;
    }
    for (int k = 0; k < call->list.n; k++)
        b->node[k] = call->list.items[k], b->at[k] = call->list.items[k]->loc;
    for (int j = 0; j < call->list2.n; j++) {
        Node *kw = call->list2.items[j];
        int k = -1;
        for (int i = b->npos_only; i < b->n && k < 0; i++)
            if (!strcmp(b->name[i], kw->name))
                k = i;
        *err_at = kw->loc;
        if (k < 0) {
            snprintf(err, errsize, "%s() got an unexpected keyword argument '%s'", shown,
                     kw->name);
            return false;
        }
        if (b->node[k]) {
            snprintf(err, errsize, "%s() got multiple values for argument '%s'", shown, kw->name);
            return false;
        }
        b->node[k] = kw->a, b->at[k] = kw->loc;
    }
    *err_at = call->loc;
    for (int k = 0; k < b->n; k++) {
        if (b->node[k] && b->none_default[k] && b->node[k]->kind == ND_NONE)
            b->node[k] = NULL;
        if (!b->node[k] && !b->has_default[k]) {
            snprintf(err, errsize, "%s() missing required argument '%s'", shown, b->name[k]);
            return false;
        }
    }
    return true;
}

bool lib_bind(Fn *fn, const LibEntry *le, Node *call, LibArgs *b) {
    char err[256];
    Loc at;
    if (lib_bind_sig(le->sig, le->spell, call, b, &at, err, sizeof err))
        return true;
    ty_error(fn, at, "%s", err);
    return false;
}

/* ---- checkers ----------------------------------------------------------------------------------- */
bool lib_arg_unsupported(Fn *fn, const LibEntry *le, const LibArgs *b, int k) {
    if (!b->node[k])
        return true;
    ty_error(fn, b->at[k], "%s() argument '%s' is not supported by numjit", le->spell,
             b->name[k]);
    return false;
}

/* "an array of integers or floats" for kinds LIB_ARR_INT | LIB_ARR_FLOAT */
static const char *expected(unsigned kinds, char *buf, size_t size) {
    static const struct { unsigned k; const char *s; } part[] = {
        {LIB_ARR_BOOL, "bools"}, {LIB_ARR_INT, "integers"}, {LIB_ARR_FLOAT, "floats"},
        {LIB_ARR_COMPLEX, "complex numbers"}};
    int n = 0, total = 0;
    for (size_t i = 0; i < sizeof part / sizeof *part; i++)
        total += (kinds & part[i].k) != 0;
    snprintf(buf, size, "an array of ");
    for (size_t i = 0; i < sizeof part / sizeof *part; i++)
        if (kinds & part[i].k) {
            size_t len = strlen(buf);
            snprintf(buf + len, size - len, "%s%s", n == 0 ? "" : n == total - 1 ? " or " : ", ",
                     part[i].s);
            n++;
        }
    return buf;
}

static bool dtype_in(const Type *dt, unsigned kinds) {
    return (dt == ty_bool && (kinds & LIB_ARR_BOOL)) ||
           (ty_is_int(dt) && (kinds & LIB_ARR_INT)) || (ty_is_float(dt) && (kinds & LIB_ARR_FLOAT)) ||
           (ty_is_complex(dt) && (kinds & LIB_ARR_COMPLEX));
}

bool lib_array_of(Fn *fn, const LibEntry *le, const char *param, Val a, unsigned kinds, Loc loc) {
    if (a.t->kind == TY_ARRAY && a.t->ndim >= 1 && dtype_in(a.t->dtype, kinds))
        return true;
    char buf[96];
    ty_error(fn, loc, "%s() argument '%s' must be %s, not %s", le->spell, param,
             expected(kinds, buf, sizeof buf), a.t->name);
    return false;
}

Val lib_arg_array(Fn *fn, const LibEntry *le, const LibArgs *b, int k, unsigned kinds) {
    Node *e = b->node[k];
    Val a = ty_value(fn, e);
    if (a.k != V_VAL || !lib_array_of(fn, le, b->name[k], a, kinds, e->loc))
        return verr();
    return a;
}

/* namedtuple.c — classes made by collections.namedtuple, used as globals (quantecon's
 * `results = namedtuple('results', 'root function_calls iterations converged')`): calling the
 * class in compiled code builds a named tuple (Numba's NamedTuple type), whose fields are read
 * by name (typer_expr.c: ty_tuple_field) and by index like any tuple's.
 *
 * How: the Python package writes such a global into the compiled text as
 * `NAME = numjit._namedtuple("results", ("root", "function_calls", ...))`, a module constant
 * (frontend/module.c keeps it; python/numjit/source.py notes the class, which boxes a result).
 * Reading NAME gives a callable (this file's first row) that carries the class's key,
 * "results:root,function_calls,..."; calling it binds the arguments to the fields by position
 * and keyword, as the class's __new__ does, and builds the tuple (IR_TUPLE) of the named type.
 */
#include "lib.h"

#include <string.h>

enum { NT_MAX_FIELDS = 64 };

static Val namedtuple_call(Fn *fn, const LibEntry *le, Node *call, Val callee);

static const LibEntry call_row = {"numba._namedtuple.__call__", "*args", LIB_CPU,
                                  NULL, namedtuple_call, "a namedtuple class", 0, 0};

/* _namedtuple("NAME", ("field", ...)): literals written by the package. */
static Val namedtuple_class(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le, (void)callee;
    Node *f = call->list.n == 2 ? call->list.items[1] : NULL;
    bool ok = f && !call->list2.n && call->list.items[0]->kind == ND_STR &&
              f->kind == ND_TUPLE && f->list.n <= NT_MAX_FIELDS;
    for (int i = 0; ok && i < f->list.n; i++)
        ok = f->list.items[i]->kind == ND_STR;
    if (!ok) {
        ty_error(fn, call->loc, "_namedtuple() takes the class's name and a tuple of at most "
                 "%d field names", NT_MAX_FIELDS);
        return verr();
    }
    StrBuf key;
    sb_init(&key);
    sb_puts(&key, call->list.items[0]->str);
    sb_putc(&key, ':');
    for (int i = 0; i < f->list.n; i++)
        sb_printf(&key, "%s%s", i ? "," : "", f->list.items[i]->str);
    Val v = {.k = V_BUILTIN, .name = arena_strdup(fn->tc->arena, key.data ? key.data : ""),
             .lib = &call_row};
    sb_free(&key);
    return v;
}

/* Splits "cls:a,b,c" (in the arena): the class's name and the field names; -1 on no memory. */
static int split_key(Fn *fn, const char *key, const char **cls, const char **fields) {
    char *s = arena_strdup(fn->tc->arena, key);
    if (!s)
        return -1;
    char *colon = strchr(s, ':');
    *colon = 0;
    *cls = s;
    int n = 0;
    for (char *p = colon + 1; *p && n < NT_MAX_FIELDS;) {
        fields[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = 0;
        p = comma + 1;
    }
    return n;
}

static Val namedtuple_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le;
    const char *cls, *fields[NT_MAX_FIELDS + 1] = {0};
    int n = split_key(fn, callee.name, &cls, fields);
    Node *args[NT_MAX_FIELDS];
    if (n < 0 || !ty_bind_args(fn, call, cls, fields, NT_MAX_FIELDS, n, 0, args))
        return verr();
    const Type **t = arena_alloc(fn->tc->arena, sizeof *t * (size_t)(n ? n : 1));
    IrInst **x = arena_alloc(fn->tc->arena, sizeof *x * (size_t)(n ? n : 1));
    if (!t || !x)
        return verr();
    for (int i = 0; i < n; i++) {
        Val v = ty_value(fn, args[i]);
        if (v.k != V_VAL || !v.t)
            return verr();
        t[i] = v.t, x[i] = v.v;
    }
    const Type *tt = ty_named_tuple(cls, fields, t, n);
    if (!tt) {
        ty_error(fn, call->loc, "out of memory");
        return verr();
    }
    return vval(tt, fn->emit ? ty_emit(fn, IR_TUPLE, tt, call->loc, n, x) : NULL);
}

static const LibEntry rows[] = {
    {"numba._namedtuple", "name, fields", LIB_CPU, NULL, namedtuple_class,
     "_namedtuple", 0, 0},
    {NULL},
};
const LibTable lib_namedtuple_table = {"namedtuple classes", rows};

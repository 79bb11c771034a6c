/* str.c — the registry's rows for strings: the builtin str() and the methods numjit has
 * (str.find, str.startswith, str.endswith); typer/typer_str.c types the conversions, the
 * methods and every operator on strings. */
#include "lib.h"

#include <string.h>

static Val str_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n != 1) {
        ty_error(fn, call->loc, "%s() takes exactly one argument (%d given)", le->spell, n);
        return verr();
    }
    return ty_str_of(fn, a[0], call->loc);
}

/* s.NAME(...): callee carries the string (t, v), as typer_expr.c binds a method */
static Val method_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_str_method(fn, strrchr(le->name, '.') + 1, callee, a, n, call->loc);
}

static const LibEntry rows[] = {
    {"builtins.str", "object, /", LIB_CPU, NULL, str_call, "str", 0, 0},
    {"str.find", "sub[, start[, end]], /", LIB_CPU | LIB_METHOD, NULL, method_call, "find", 0, 0},
    {"str.startswith", "prefix[, start[, end]], /", LIB_CPU | LIB_METHOD, NULL, method_call,
     "startswith", 0, 0},
    {"str.endswith", "suffix[, start[, end]], /", LIB_CPU | LIB_METHOD, NULL, method_call,
     "endswith", 0, 0},
    {NULL},
};
const LibTable lib_str_table = {"Python builtins: strings", rows};

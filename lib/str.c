/* str.c — the registry's rows for strings: the builtin str() (typer/typer_str.c types the
 * conversions and every operator on strings). */
#include "lib.h"

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

static const LibEntry rows[] = {
    {"builtins.str", "object, /", LIB_CPU, NULL, str_call, "str", 0, 0},
    {NULL},
};
const LibTable lib_str_table = {"Python builtins: strings", rows};

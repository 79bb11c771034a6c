/* str.c — the registry's rows for strings: the builtins str(), ord() and chr(), and the
 * methods of str that Numba 0.56 has, each with CPython's signature.  The handler binds a
 * method's call to its row's signature (lib_bind: keywords, defaults, None for a parameter
 * whose default is None) and hands the values to typer/typer_strmeth.c, which types every
 * method; typer/typer_str.c types the conversions and the operators on strings. */
#include "lib.h"

#include <string.h>

static bool one_arg(Fn *fn, const LibEntry *le, Node *call, Val callee, Val *x) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return false;
    if (n != 1) {
        ty_error(fn, call->loc, "%s() takes exactly one argument (%d given)", le->spell, n);
        return false;
    }
    *x = a[0];
    return true;
}

static Val str_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    return one_arg(fn, le, call, callee, &x) ? ty_str_of(fn, x, call->loc) : verr();
}

static Val ord_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    return one_arg(fn, le, call, callee, &x) ? ty_str_ord(fn, x, call->loc) : verr();
}

static Val chr_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    return one_arg(fn, le, call, callee, &x) ? ty_str_chr(fn, x, call->loc) : verr();
}

/* s.NAME(...): callee carries the string (t, v), as typer_expr.c binds a method */
static Val method_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    StrArgs sa;
    memset(&sa, 0, sizeof sa);
    for (int k = 0; k < b.n && k < 4; k++) {
        sa.at[k] = b.at[k];
        if (!b.node[k])
            continue;
        sa.v[k] = ty_value(fn, b.node[k]);
        if (sa.v[k].k != V_VAL)
            return verr();
        sa.given[k] = true;
    }
    return ty_str_method(fn, strrchr(le->name, '.') + 1, vval(callee.t, callee.v), &sa,
                         call->loc);
}

#define METHOD(name, sig) \
    {"str." name, sig, LIB_CPU | LIB_METHOD | LIB_KEYWORDS, NULL, method_call, name, 0, 0}

static const LibEntry rows[] = {
    {"builtins.str", "object, /", LIB_CPU, NULL, str_call, "str", 0, 0},
    {"builtins.ord", "c, /", LIB_CPU, NULL, ord_call, "ord", 0, 0},
    {"builtins.chr", "i, /", LIB_CPU, NULL, chr_call, "chr", 0, 0},
    METHOD("startswith", "prefix, /"),
    METHOD("endswith", "suffix, /"),
    METHOD("find", "sub, start=None, end=None, /"),
    METHOD("rfind", "sub, start=None, end=None, /"),
    METHOD("index", "sub, start=None, end=None, /"),
    METHOD("rindex", "sub, start=None, end=None, /"),
    METHOD("count", "sub, start=None, end=None, /"),
    METHOD("replace", "old, new, count=-1, /"),
    METHOD("strip", "chars=None, /"),
    METHOD("lstrip", "chars=None, /"),
    METHOD("rstrip", "chars=None, /"),
    METHOD("center", "width, fillchar=' ', /"),
    METHOD("ljust", "width, fillchar=' ', /"),
    METHOD("rjust", "width, fillchar=' ', /"),
    METHOD("zfill", "width, /"),
    METHOD("upper", ""),
    METHOD("lower", ""),
    METHOD("swapcase", ""),
    METHOD("title", ""),
    METHOD("capitalize", ""),
    METHOD("casefold", ""),
    METHOD("isdigit", ""),
    METHOD("isalpha", ""),
    METHOD("isspace", ""),
    METHOD("isupper", ""),
    METHOD("islower", ""),
    METHOD("isalnum", ""),
    METHOD("isdecimal", ""),
    METHOD("isnumeric", ""),
    METHOD("istitle", ""),
    METHOD("isidentifier", ""),
    METHOD("isprintable", ""),
    METHOD("isascii", ""),
    METHOD("split", "sep=None, maxsplit=-1"),
    METHOD("rsplit", "sep=None, maxsplit=-1"),
    METHOD("splitlines", "keepends=False"),
    METHOD("join", "iterable, /"),
    METHOD("partition", "sep, /"),
    METHOD("rpartition", "sep, /"),
    METHOD("expandtabs", "tabsize=8"),
    {NULL},
};
const LibTable lib_str_table = {"Python builtins: strings", rows};

/* dict.c — typed dicts and sets: the methods of a dict (dict.get, dict.pop, ...) and of a set
 * (set.add, set.union, ...), the builtins dict() and set(), and numba.typed.Dict.empty, one
 * row and one handler each.
 *
 * The attribute `d.NAME` of a dict value is looked up here as "dict.NAME" (typer_expr.c) and
 * denotes a bound method: a V_BUILTIN carrying the dict's type and value.  The handlers check
 * the arguments' count in CPython's words and hand the work to typer/typer_dict.c, which types
 * it as Numba 0.56 does and builds the dict ops of the IR; "set.NAME" likewise goes to
 * typer/typer_set.c.  numba.typed and numba.typed.Dict
 * are modules to the typer, so that `Dict.empty(...)` and `typed.Dict.empty(...)` reach the
 * row of Dict.empty however the program imported them.
 */
#include "lib.h"

#include <string.h>

/* The positional arguments (at least lo, at most hi), in CPython's words when the count is off. */
static bool args(Fn *fn, const LibEntry *le, Node *call, Val callee, Val *a, int *n, int lo,
                 int hi) {
    if (!lib_args(fn, callee, call, a, n))
        return false;
    if (*n >= lo && *n <= hi)
        return true;
    const char *name = le->name + 5; /* after "dict." */
    if (lo == hi)
        ty_error(fn, call->loc, "%s() takes no arguments (%d given)", name, *n);
    else if (*n < lo)
        ty_error(fn, call->loc, "%s expected at least %d argument%s, got %d", name, lo,
                 lo == 1 ? "" : "s", *n);
    else
        ty_error(fn, call->loc, "%s expected at most %d argument%s, got %d", name, hi,
                 hi == 1 ? "" : "s", *n);
    return false;
}

static Val self_of(Val callee) { return vval(callee.t, callee.v); }

static Val get_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 2))
        return verr();
    return ty_dict_getitem_default(fn, self_of(callee), a[0], n > 1 ? &a[1] : NULL, call->loc);
}

static Val pop_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 2))
        return verr();
    return ty_dict_pop(fn, self_of(callee), a[0], n > 1 ? &a[1] : NULL, call->loc);
}

static Val setdefault_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 2))
        return verr();
    return ty_dict_setdefault(fn, self_of(callee), a[0], n > 1 ? &a[1] : NULL, call->loc);
}

static Val popitem_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_dict_popitem(fn, self_of(callee), call->loc);
}

static Val clear_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_dict_clear(fn, self_of(callee), call->loc);
}

static Val copy_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_dict_copy(fn, self_of(callee), call->loc);
}

static Val update_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 1))
        return verr();
    return ty_dict_update(fn, self_of(callee), a[0], call->loc);
}

/* d.keys(), d.values(), d.items(): for loops take them before a call is typed (typer_dict.c) */
static Val view_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_dict_view(fn, le->name + 5, call->loc);
}

/* dict(): an empty dict, typed by its first item */
static Val dict_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    if (call->list.n || call->list2.n) {
        ty_error(fn, call->loc, "numjit supports dict() without arguments only (Numba 0.56 "
                 "too)");
        return verr();
    }
    return ty_dict_empty(fn, call->loc);
}

/* ---- sets ---------------------------------------------------------------------------------- */
static bool set_args(Fn *fn, const LibEntry *le, Node *call, Val callee, Val *a, int *n, int k) {
    if (!lib_args(fn, callee, call, a, n))
        return false;
    if (*n == k)
        return true;
    if (k == 0)
        ty_error(fn, call->loc, "%s() takes no arguments (%d given)", le->name + 4, *n);
    else
        ty_error(fn, call->loc, "%s() takes exactly one argument (%d given)", le->name + 4, *n);
    return false;
}

static Val set_add_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 1))
        return verr();
    return ty_set_add(fn, self_of(callee), call, a[0]);
}

static Val set_discard_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 1))
        return verr();
    return ty_set_discard(fn, self_of(callee), a[0], !strcmp(le->name, "set.remove"), call->loc);
}

static Val set_pop_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 0))
        return verr();
    return ty_set_pop(fn, self_of(callee), call->loc);
}

static Val set_clear_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 0))
        return verr();
    return ty_set_clear(fn, self_of(callee), call->loc);
}

static Val set_copy_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 0))
        return verr();
    return ty_set_copy(fn, self_of(callee), call->loc);
}

static Val set_algebra_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!set_args(fn, le, call, callee, a, &n, 1))
        return verr();
    return ty_set_algebra(fn, le->name + 4, self_of(callee), a[0], call->loc);
}

static Val set_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_set_ctor(fn, a, n, call->loc);
}

static Val typed_empty_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_dict_typed_empty(fn, call);
}

static const LibEntry rows[] = {
    {"dict.get", "key, default=None, /", LIB_CPU | LIB_METHOD, NULL, get_call, "dict.get", 0, 0},
    {"dict.pop", "key, default, /", LIB_CPU | LIB_METHOD, NULL, pop_call, "dict.pop", 0, 0},
    {"dict.setdefault", "key, default=None, /", LIB_CPU | LIB_METHOD, NULL, setdefault_call,
     "dict.setdefault", 0, 0},
    {"dict.popitem", "", LIB_CPU | LIB_METHOD, NULL, popitem_call, "dict.popitem", 0, 0},
    {"dict.clear", "", LIB_CPU | LIB_METHOD, NULL, clear_call, "dict.clear", 0, 0},
    {"dict.copy", "", LIB_CPU | LIB_METHOD, NULL, copy_call, "dict.copy", 0, 0},
    {"dict.update", "other, /", LIB_CPU | LIB_METHOD, NULL, update_call, "dict.update", 0, 0},
    {"dict.keys", "", LIB_CPU | LIB_METHOD, NULL, view_call, "dict.keys", 0, 0},
    {"dict.values", "", LIB_CPU | LIB_METHOD, NULL, view_call, "dict.values", 0, 0},
    {"dict.items", "", LIB_CPU | LIB_METHOD, NULL, view_call, "dict.items", 0, 0},
    {"builtins.dict", "", LIB_CPU, NULL, dict_call, "dict", 0, 0},
    {"builtins.set", "iterable=(), /", LIB_CPU, NULL, set_call, "set", 0, 0},
    {"set.add", "elem, /", LIB_CPU | LIB_METHOD, NULL, set_add_call, "set.add", 0, 0},
    {"set.discard", "elem, /", LIB_CPU | LIB_METHOD, NULL, set_discard_call, "set.discard", 0, 0},
    {"set.remove", "elem, /", LIB_CPU | LIB_METHOD, NULL, set_discard_call, "set.remove", 0, 0},
    {"set.pop", "", LIB_CPU | LIB_METHOD, NULL, set_pop_call, "set.pop", 0, 0},
    {"set.clear", "", LIB_CPU | LIB_METHOD, NULL, set_clear_call, "set.clear", 0, 0},
    {"set.copy", "", LIB_CPU | LIB_METHOD, NULL, set_copy_call, "set.copy", 0, 0},
    {"set.union", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call, "set.union", 0, 0},
    {"set.intersection", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call,
     "set.intersection", 0, 0},
    {"set.difference", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call,
     "set.difference", 0, 0},
    {"set.symmetric_difference", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call,
     "set.symmetric_difference", 0, 0},
    {"set.update", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call, "set.update", 0, 0},
    {"set.intersection_update", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call,
     "set.intersection_update", 0, 0},
    {"set.difference_update", "other, /", LIB_CPU | LIB_METHOD, NULL, set_algebra_call,
     "set.difference_update", 0, 0},
    {"set.symmetric_difference_update", "other, /", LIB_CPU | LIB_METHOD, NULL,
     set_algebra_call, "set.symmetric_difference_update", 0, 0},
    {"numba.typed", "", LIB_MODULE, lib_module, NULL, "numba.typed", 0, 0},
    {"numba.typed.Dict", "", LIB_MODULE, lib_module, NULL, "numba.typed.Dict", 0, 0},
    {"numba.typed.Dict.empty", "key_type, value_type, n_keys=0", LIB_CPU | LIB_KEYWORDS, NULL,
     typed_empty_call, "Dict.empty", 0, 0},
    {NULL, NULL, 0, NULL, NULL, NULL, 0, 0},
};

const LibTable lib_dict_table = {"typed dicts and sets", rows};

/* list.c — the methods of lists (list.append, list.pop, ...), one row and one handler each.
 *
 * The attribute `l.NAME` of a list value is looked up here as "list.NAME" (typer_expr.c) and
 * denotes a bound method: a V_BUILTIN carrying the list's type and value.  The handlers check
 * the arguments' count and hand the work to typer/typer_list.c, which types it as Numba 0.56
 * does and builds the list ops of the IR.  A method no row has is the typer's error naming it.
 * sorted() is here too: a new list of the items, sorted as l.sort() sorts; a key= function
 * (a jitted function value) sorts by stdlib/lists.py's stable merge sort of the keys.
 * l.extend(it) takes any iterable list(it) takes.
 * numba.typed.List() and List.empty_list(item_type) make lists too: in compiled code a typed
 * list is a list.
 */
#include "lib.h"

/* The positional arguments (at least lo, at most hi), in CPython's words when the count is off. */
static bool args(Fn *fn, const LibEntry *le, Node *call, Val callee, Val *a, int *n, int lo,
                 int hi) {
    if (!lib_args(fn, callee, call, a, n))
        return false;
    if (*n >= lo && *n <= hi)
        return true;
    const char *name = le->name + 5; /* after "list." */
    if (lo == hi)
        ty_error(fn, call->loc, "%s() takes exactly %s (%d given)", name,
                 lo == 0 ? "no arguments" : "one argument", *n);
    else
        ty_error(fn, call->loc, "%s expected at most %d argument%s, got %d", name, hi,
                 hi == 1 ? "" : "s", *n);
    return false;
}

static Val append_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 1))
        return verr();
    return ty_list_append(fn, vval(callee.t, callee.v), call, a[0]);
}

static Val pop_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 1))
        return verr();
    return ty_list_pop(fn, vval(callee.t, callee.v), call, n ? &a[0] : NULL);
}

static Val insert_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 2, 2))
        return verr();
    return ty_list_insert(fn, vval(callee.t, callee.v), call, a[0], a[1]);
}

/* l.extend(it): a list or a 1-d array is appended as it is; another iterable (range(n), a
 * tuple, a string, a generator) as the list [v for v in it], which list(it) makes too. */
static Val extend_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (call->list.n == 1 && !call->list2.n) {
        Node *x = call->list.items[0];
        bool emit = fn->emit, bad;
        fn->emit = false;
        Val v = ty_expr(fn, x);
        fn->emit = emit;
        /* zip(...) and enumerate(...) are no values (V_ERR, reported only when emitting):
         * they go through the loop of the comprehension, where they are iterables */
        bool direct = v.k == V_VAL && (v.t->kind == TY_LIST || (v.t->kind == TY_ARRAY && v.t->ndim == 1));
        if (!direct) {
            const Node *lc = ty_gen_listcomp(fn, x, true, &bad);
            if (!lc)
                return verr();
            Val l = ty_comp_reduce(fn, TY_COMP_LIST, lc, x->loc);
            if (l.k != V_VAL)
                return verr();
            return ty_list_extend(fn, vval(callee.t, callee.v), call, l);
        }
    }
    if (!args(fn, le, call, callee, a, &n, 1, 1))
        return verr();
    return ty_list_extend(fn, vval(callee.t, callee.v), call, a[0]);
}

static Val remove_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 1))
        return verr();
    return ty_list_remove(fn, vval(callee.t, callee.v), a[0], call->loc);
}

static Val index_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 3))
        return verr();
    return ty_list_index(fn, vval(callee.t, callee.v), a, n, call->loc);
}

static Val count_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 1, 1))
        return verr();
    return ty_list_count(fn, vval(callee.t, callee.v), a[0], call->loc);
}

static Val reverse_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_list_reverse(fn, vval(callee.t, callee.v), call->loc);
}

static Val clear_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_list_clear(fn, vval(callee.t, callee.v), call->loc);
}

static Val copy_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!args(fn, le, call, callee, a, &n, 0, 0))
        return verr();
    return ty_list_copy(fn, vval(callee.t, callee.v), call->loc);
}

/* l.sort(reverse=False): key= is refused (Numba 0.56 takes a key function; numjit not yet);
 * reverse must be a constant True or False. */
/* reverse=: a constant True or False (written so in the call), *rev its value. */
static bool reverse_arg(Fn *fn, Node *r, const char *shown, bool *rev) {
    *rev = false;
    if (!r)
        return true;
    if (r->kind != ND_BOOL) {
        ty_error(fn, r->loc, "numjit needs reverse=True or reverse=False written as a "
                 "constant in %s", shown);
        return false;
    }
    *rev = r->ival != 0;
    return true;
}

/* Sorts list l in place by key(item) when key (a node) is given and not None: stdlib/lists.py's
 * stable merge sort, keys computed once; else by the items (ty_list_sort). */
static Val sort_by(Fn *fn, Val l, Node *key, bool reverse, const char *shown, Loc loc) {
    if (!key || key->kind == ND_NONE)
        return ty_list_sort(fn, l, reverse, loc);
    Val k = ty_value(fn, key);
    if (k.k != V_VAL)
        return verr();
    if (!ty_is_func(k.t)) {
        ty_error(fn, key->loc, "the key of %s must be a jitted function, not %s", shown,
                 k.t->name);
        return verr();
    }
    Val a[3] = {l, k, vval(ty_bool, ty_const_int(fn, ty_bool, reverse, loc))};
    if (ty_lib_call(fn, "_nj_list_sort_key", shown, "numba", a, 3, loc).k == V_ERR)
        return verr();
    return vval(ty_void, NULL);
}

/* l.sort(key=None, reverse=False) */
static Val sort_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    bool reverse;
    if (!lib_bind(fn, le, call, &b) || !reverse_arg(fn, b.node[1], "list.sort()", &reverse))
        return verr();
    return sort_by(fn, vval(callee.t, callee.v), b.node[0], reverse, "list.sort()", call->loc);
}

/* sorted(iterable, key=None, reverse=False): a new sorted list of the items of a list, a
 * tuple of one item type or a 1-d array, as Numba 0.56's; the argument is left as it was. */
static Val sorted_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    bool reverse;
    if (!lib_bind(fn, le, call, &b) || !reverse_arg(fn, b.node[2], "sorted()", &reverse))
        return verr();
    Val l = ty_value(fn, b.node[0]);
    if (l.k != V_VAL)
        return verr();
    Val c;
    bool uni = l.t->kind == TY_TUPLE && l.t->role == TR_TUPLE && l.t->nelems > 0;
    for (int i = 1; uni && i < l.t->nelems; i++)
        uni = l.t->elems[i] == l.t->elems[0];
    if (l.t->kind == TY_LIST) {
        c = ty_list_copy(fn, l, call->loc);
    } else if (uni || (l.t->kind == TY_ARRAY && l.t->ndim == 1)) {
        c = ty_lib_call(fn, "_nj_list_items", "sorted()", "numba", &l, 1, call->loc);
    } else {
        ty_error(fn, b.at[0], "numjit's sorted() takes a list, a tuple of one item type or a "
                 "1-d array, not %s", l.t->name);
        return verr();
    }
    if (c.k != V_VAL || sort_by(fn, c, b.node[1], reverse, "sorted()", call->loc).k == V_ERR)
        return verr();
    return c;
}

/* numba.typed.List: a value that is called (List()) and has an attribute (List.empty_list) */
static Val typed_list_value(Fn *fn, const LibEntry *le, Loc loc) {
    return (Val){.k = V_MODULE, .name = "numba.typed.List", .lib = le};
}

static Val typed_list_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_list_typed_new(fn, call);
}

static Val typed_empty_list_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_list_typed_empty(fn, call);
}

static const LibEntry rows[] = {
    {"numba.typed.List", "iterable=(), /", LIB_CPU, typed_list_value, typed_list_call, "List",
     0, 0},
    {"numba.typed.List.empty_list", "item_type, allocated=0", LIB_CPU | LIB_KEYWORDS, NULL,
     typed_empty_list_call, "List.empty_list", 0, 0},
    {"builtins.sorted", "iterable, /, *, key=None, reverse=False", LIB_CPU | LIB_KEYWORDS, NULL,
     sorted_call, "sorted", 0, 0},
    {"list.append", "object, /", LIB_CPU | LIB_METHOD, NULL, append_call, "list.append", 0, 0},
    {"list.pop", "index=-1, /", LIB_CPU | LIB_METHOD, NULL, pop_call, "list.pop", 0, 0},
    {"list.insert", "index, object, /", LIB_CPU | LIB_METHOD, NULL, insert_call, "list.insert", 0, 0},
    {"list.extend", "iterable, /", LIB_CPU | LIB_METHOD, NULL, extend_call, "list.extend", 0, 0},
    {"list.remove", "value, /", LIB_CPU | LIB_METHOD, NULL, remove_call, "list.remove", 0, 0},
    {"list.index", "value, start=0, stop=9223372036854775807, /", LIB_CPU | LIB_METHOD, NULL,
     index_call, "list.index", 0, 0},
    {"list.count", "value, /", LIB_CPU | LIB_METHOD, NULL, count_call, "list.count", 0, 0},
    {"list.reverse", "", LIB_CPU | LIB_METHOD, NULL, reverse_call, "list.reverse", 0, 0},
    {"list.clear", "", LIB_CPU | LIB_METHOD, NULL, clear_call, "list.clear", 0, 0},
    {"list.copy", "", LIB_CPU | LIB_METHOD, NULL, copy_call, "list.copy", 0, 0},
    {"list.sort", "*, key=None, reverse=False", LIB_CPU | LIB_METHOD | LIB_KEYWORDS, NULL,
     sort_call, "list.sort", 0, 0},
    {NULL, NULL, 0, NULL, NULL, NULL, 0, 0},
};

const LibTable lib_list_table = {"list methods", rows};

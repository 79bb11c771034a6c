/* typer_random_seq.c — the random functions of sequences, as Numba 0.56 has them
 * (numba/cpython/randomimpl.py): np.random.shuffle, random.shuffle, np.random.permutation,
 * np.random.choice, and the distributions whose draws are rows, np.random.multinomial and
 * np.random.dirichlet (stdlib/random_dists.py: a result of shape size + (len(pvals),)).
 *
 * This file checks the arguments with Numba's rules and messages and picks the loop of
 * stdlib/npfunc.py for the argument kinds; the loops are Numba's own (Fisher-Yates from the
 * last element down with np.random.randint(i + 1), or random.randrange(i + 1) for
 * random.shuffle; rows of an n-d array swapped as copies; choice without replacement through
 * a permutation), so that a program that seeds the generator gets Numba's sequences.
 */
#include "typer_internal.h"

#include <string.h>

static Val call_lib(Fn *fn, const char *sym, const char *shown, Val *a, int n, Loc loc) {
    return ty_lib_call(fn, sym, shown, "numpy", a, n, loc);
}

static Val shuffle(Fn *fn, const char *shown, bool np, Val arr, Loc loc) {
    if (arr.t->kind != TY_ARRAY) {
        ty_error(fn, loc, "The argument to shuffle() should be a buffer type, not %s",
                 arr.t->name);
        return verr();
    }
    if (arr.t->readonly) {
        ty_error(fn, loc, "%s() of a read-only array %s", shown, arr.t->name);
        return verr();
    }
    const char *sym = arr.t->ndim == 1 ? (np ? "_nj_np_random_shuffle" : "_nj_random_shuffle")
                                       : (np ? "_nj_np_random_shuffle_rows"
                                             : "_nj_random_shuffle_rows");
    if (call_lib(fn, sym, shown, &arr, 1, loc).k != V_VAL)
        return verr();
    return ty_none_value(fn, loc);
}

static Val permutation(Fn *fn, Val x, Loc loc) {
    if (ty_is_int(x.t))
        return call_lib(fn, "_nj_np_random_permutation_n", "np.random.permutation", &x, 1, loc);
    if (x.t->kind == TY_ARRAY)
        return call_lib(fn, "_nj_np_random_permutation", "np.random.permutation", &x, 1, loc);
    ty_error(fn, loc, "np.random.permutation() of %s is not supported (an integer or an array)",
             x.t->name);
    return verr();
}

static Val choice(Fn *fn, Val a, Node *size_node, Node *replace_node, Loc loc) {
    bool n = ty_is_int(a.t);
    if (!n && !(a.t->kind == TY_ARRAY && a.t->ndim == 1)) {
        if (a.t->kind == TY_ARRAY)
            ty_error(fn, loc, "np.random.choice() of a %d-d array: Numba takes a 1-d one",
                     a.t->ndim);
        else
            ty_error(fn, loc, "np.random.choice() first argument should be int or array, got %s",
                     a.t->name);
        return verr();
    }
    if (!size_node)
        return call_lib(fn, n ? "_nj_np_random_choice1_n" : "_nj_np_random_choice1", "np.random.choice",
                        &a, 1, loc);
    Val size = ty_value(fn, size_node);
    if (size.k != V_VAL)
        return verr();
    if (!ty_is_int(size.t) && size.t->kind != TY_TUPLE) {
        ty_error(fn, size_node->loc, "np.random.choice(): size must be an integer or a tuple of "
                 "integers, not %s", size.t->name);
        return verr();
    }
    Val replace = vval(ty_bool, fn->emit ? ty_const_int(fn, ty_bool, 1, loc) : NULL);
    if (replace_node) {
        Val r = ty_value(fn, replace_node);
        if (r.k != V_VAL)
            return verr();
        if (r.t != ty_bool && !ty_is_int(r.t)) {
            ty_error(fn, replace_node->loc, "np.random.choice(): replace must be a boolean, not %s",
                     r.t->name);
            return verr();
        }
        replace = vval(ty_bool, fn->emit ? ty_truth(fn, r, loc) : NULL);
    }
    Val args[3] = {a, size, replace};
    return call_lib(fn, n ? "_nj_np_random_choice_n" : "_nj_np_random_choice", "np.random.choice",
                    args, 3, loc);
}

/* multinomial(n, pvals, size=None), dirichlet(alpha, size=None): the row function for size
 * None, an integer or a tuple. */
static Val rows(Fn *fn, const char *name, Node **arg, Loc loc) {
    bool multi = strstr(name, "multinomial") != NULL;
    Val v[3];
    int n = multi ? 2 : 1;
    for (int k = 0; k < n; k++)
        if ((v[k] = ty_value(fn, arg[k])).k != V_VAL)
            return verr();
    if (multi && !ty_is_int(v[0].t)) {
        ty_error(fn, arg[0]->loc, "np.random.multinomial(): n should be an integer, got %s",
                 v[0].t->name);
        return verr();
    }
    Val seq = v[n - 1];
    if (!(seq.t->kind == TY_ARRAY && seq.t->ndim == 1) && seq.t->kind != TY_LIST) {
        ty_error(fn, arg[n - 1]->loc, "%s(): %s should be an array or sequence, got %s", name,
                 multi ? "pvals" : "alpha", seq.t->name);
        return verr();
    }
    const char *sym = multi ? "_nj_np_random_multinomial" : "_nj_np_random_dirichlet";
    if (!arg[n])
        return call_lib(fn, sym, name, v, n, loc);
    Val size = ty_value(fn, arg[n]);
    if (size.k != V_VAL)
        return verr();
    bool tuple = size.t->kind == TY_TUPLE;
    if (!ty_is_int(size.t) && !tuple) {
        ty_error(fn, arg[n]->loc, "%s(): size should be int or tuple of ints or None, got %s",
                 name, size.t->name);
        return verr();
    }
    v[n] = size;
    return call_lib(fn, arena_printf(fn->tc->arena, "%s_%s", sym, tuple ? "t" : "n"), name, v,
                    n + 1, loc);
}

Val ty_random_seq_call(Fn *fn, const char *name, Node *call) {
    static const char *const one[] = {"x", NULL}, *const ch[] = {"a", "size", "replace", NULL};
    static const char *const mn[] = {"n", "pvals", "size", NULL};
    static const char *const di[] = {"alpha", "size", NULL};
    Node *arg[3] = {NULL, NULL, NULL};
    if (strstr(name, "multinomial") || strstr(name, "dirichlet")) {
        bool multi = strstr(name, "multinomial") != NULL;
        if (!ty_bind_args(fn, call, name, multi ? mn : di, multi ? 3 : 2, multi ? 2 : 1,
                          TY_BIND_NONE_OMITS, arg))
            return verr();
        if (!ty_la_cpu_only(fn, name, call->loc))
            return verr();
        return rows(fn, name, arg, call->loc);
    }
    bool is_choice = strstr(name, "choice") != NULL;
    if (!ty_bind_args(fn, call, name, is_choice ? ch : one, is_choice ? 3 : 1, 1,
                      TY_BIND_NONE_OMITS, arg))
        return verr();
    Val x = ty_value(fn, arg[0]);
    if (x.k != V_VAL)
        return verr();
    if (!ty_la_cpu_only(fn, name, call->loc))
        return verr();
    if (strstr(name, "shuffle"))
        return shuffle(fn, name, name[0] == 'n', x, call->loc);
    if (strstr(name, "permutation"))
        return permutation(fn, x, call->loc);
    return choice(fn, x, arg[1], arg[2], call->loc);
}

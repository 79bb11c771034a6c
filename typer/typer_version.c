/* typer_version.c — a variable given a value of another type by a later statement, as Numba
 * 0.56 allows it: Numba types each assignment's SSA version of a variable apart, so in
 *
 *     d = np.abs(data)        # float32[::1]
 *     d = 1.0 / d             # float64[::1]: a new version
 *     return d.sum()
 *
 * the second `d` is a variable of its own.  numjit types a variable once per function, so a
 * function whose inference ends with a variable that cannot be unified (TyVar.bad) is typed
 * again from a copy of its body in which such a variable's reassignments at the body's top
 * level start new versions, "d$v2", ... (ty_version_body).  Only the top level is versioned:
 * its statements run once each, in order, so every read after a reassignment sees that
 * assignment's value and no path leads back to an earlier version.  A reassignment inside an
 * `if` or a loop meets the earlier value where the paths join (Numba's phi node), and there
 * the types must unify, in Numba as here: that one stays the located error.  Functions whose
 * other parts name variables by their text (inner defs and lambdas, which capture by name;
 * comprehension targets; `del`; `except ... as`; generators) are left as they are.
 *
 * Only functions that would otherwise fail are versioned, so nothing else changes.
 */
#include "typer_internal.h"

#include <string.h>

typedef struct {
    Arena *arena;
    const char *const *names; /* the variables to version */
    const char **cur;         /* cur[i]: the name names[i] has at this point of the body */
    int n;
    bool refused;             /* the function names one of them in a way versions cannot follow */
    int made;                 /* versions made */
} Ver;

static int name_index(const Ver *v, const char *name) {
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->names[i], name))
            return i;
    return -1;
}

static Node *copy(Ver *v, const Node *x);

static NodeList copy_list(Ver *v, const NodeList *l) {
    NodeList out = {0};
    for (int i = 0; i < l->n; i++)
        ast_list_push(v->arena, &out, copy(v, l->items[i]));
    return out;
}

/* a copy of x in which each read of a versioned name says its current version */
static Node *copy(Ver *v, const Node *x) {
    if (!x)
        return NULL;
    Node *c = arena_alloc(v->arena, sizeof *c);
    *c = *x;
    switch (x->kind) {
    case ND_NAME: {
        int i = name_index(v, x->name);
        if (i >= 0)
            c->name = v->cur[i];
        return c;
    }
    case ND_FUNCDEF:
    case ND_LAMBDA:
    case ND_LISTCOMP:
    case ND_DEL:
    case ND_YIELD:
        v->refused = true; /* these name variables by their text */
        return c;
    case ND_EXCEPT:
        if (x->name && name_index(v, x->name) >= 0)
            v->refused = true;
        break;
    default:
        break;
    }
    c->a = copy(v, x->a);
    c->b = copy(v, x->b);
    c->c = copy(v, x->c);
    c->list = copy_list(v, &x->list);
    c->list2 = copy_list(v, &x->list2);
    return c;
}

/* the top-level assignment's plain name targets (in tuples too) that were defined before
 * start a new version; `defined` marks the others */
static void version_targets(Ver *v, Node *t, const Node *orig, bool *defined, int stmt) {
    if (t->kind == ND_TUPLE) {
        for (int i = 0; i < t->list.n; i++)
            version_targets(v, t->list.items[i], orig->list.items[i], defined, stmt);
        return;
    }
    if (t->kind != ND_NAME)
        return;
    int i = name_index(v, orig->name); /* t's name is already its current version's */
    if (i < 0)
        return;
    if (defined[i]) {
        v->cur[i] = arena_printf(v->arena, "%s$v%d", v->names[i], stmt);
        t->name = v->cur[i];
        v->made++;
    }
    defined[i] = true;
}

/* marks the versioned names that statement s (or anything in it) assigns */
static void mark_assigned(Ver *v, const Node *s, bool *defined) {
    if (!s)
        return;
    if (s->kind == ND_NAME) {
        int i = name_index(v, s->name);
        if (i >= 0)
            defined[i] = true; /* reads too: harmless, a read of an undefined name fails */
        return;
    }
    mark_assigned(v, s->a, defined);
    mark_assigned(v, s->b, defined);
    mark_assigned(v, s->c, defined);
    for (int i = 0; i < s->list.n; i++)
        mark_assigned(v, s->list.items[i], defined);
    for (int i = 0; i < s->list2.n; i++)
        mark_assigned(v, s->list2.items[i], defined);
}

NodeList *ty_version_body(Fn *fn, const NodeList *body, const char *const *names, int n) {
    if (n <= 0 || ty_is_generator(fn->fi))
        return NULL;
    Ver v = {.arena = fn->tc->arena, .names = names, .n = n};
    v.cur = arena_alloc(v.arena, sizeof *v.cur * (size_t)n);
    bool *defined = arena_alloc(v.arena, sizeof *defined * (size_t)n);
    for (int i = 0; i < n; i++) {
        v.cur[i] = names[i];
        defined[i] = false;
    }
    const Node *def = fn->fi->def;
    for (int i = 0; i < def->params.n; i++) {
        int k = name_index(&v, def->params.items[i]->name);
        if (k >= 0)
            defined[k] = true;
    }
    NodeList *out = arena_alloc(v.arena, sizeof *out);
    *out = (NodeList){0};
    for (int s = 0; s < body->n && !v.refused; s++) {
        const Node *st = body->items[s];
        Node *c = copy(&v, st); /* reads (the value too) see the versions before st */
        if (st->kind == ND_ASSIGN) {
            for (int t = 0; t < c->list.n; t++)
                version_targets(&v, c->list.items[t], st->list.items[t], defined, s + 1);
        }
        mark_assigned(&v, c, defined);
        ast_list_push(v.arena, out, c);
    }
    return v.refused || !v.made ? NULL : out;
}

int ty_version_len(const char *name) {
    const char *d = strstr(name, "$v");
    return d && d != name ? (int)(d - name) : (int)strlen(name);
}

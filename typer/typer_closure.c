/* typer_closure.c — inner functions and closures: a def inside a compiled function.
 *
 * Numba 0.56 compiles a def inside a jitted function when the inner function does not escape:
 * it is only called, inside the function that defines it (Numba inlines such closures).  numjit
 * types each call of it as a specialization of its own: the inner def becomes a function whose
 * parameters are its own followed by the variables of the enclosing function that its body
 * reads (its free names that the enclosing function assigns), and a call passes the current
 * values of those variables.  That is Python's late binding: a captured variable assigned
 * between two calls is seen with its new value by the second, as under Numba.
 *
 * The captured names are found syntactically when the def statement is first typed, so the
 * synthesized function (its FuncInfo and ND_FUNCDEF) is fixed for the whole compilation, and
 * its specializations are cached by argument types like any function's.  A def nested in an
 * inner def works the same way, one level up: the free names of the innermost body count as
 * free names of the body around it.  An inner function called from a sibling inner function
 * gets its captured values from the caller's scope, where they must be visible too.
 *
 * What Numba refuses, numjit refuses with a located error: an inner function used as a value
 * (returned, passed, stored: "escapes"), a decorated inner def, a recursive inner function;
 * A call binds its arguments to the def's own parameters (ty_closure_binder: keywords and
 * defaults, typer_optional.c), a default being evaluated where the call is.
 * A lambda is an inner def too (frontend/parse_build.c): `f = lambda x: e` is `def f(x):
 * return e`; a lambda elsewhere gets a hidden name from its place, "<lambda>@LINE:COL".  One
 * that captures nothing is also a function value, as a jitted function is (a sort key, an
 * argument of a function taking a function): its type names its synthesized function, which
 * a call through the value finds again (ty_closure_named).
 * and, numjit's own limit, two defs of one name in one function.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct TyClosure {
    const FuncInfo *parent;  /* the function whose body holds the def */
    const char *name;        /* the def's own name; a lambda's: "<lambda>@LINE:COL" */
    const FuncInfo *fi;      /* the synthesized function: own params + captured ones */
    const FuncInfo *binder;  /* the def as written: a call's arguments bind to its params */
    int nown;                /* its own parameters; fi->def->params has nown + ncap */
    int ncap;
    Node *def;               /* the original ND_FUNCDEF */
} TyClosure;

/* ---- names of a body --------------------------------------------------------------------- */
typedef struct NameSet {
    const char **s;
    int n, cap;
    Arena *arena;
} NameSet;

static bool ns_has(const NameSet *ns, const char *name) {
    for (int i = 0; i < ns->n; i++)
        if (!strcmp(ns->s[i], name))
            return true;
    return false;
}

static void ns_add(NameSet *ns, const char *name) {
    if (!name || ns_has(ns, name))
        return;
    if (ns->n == ns->cap) {
        int cap = ns->cap ? ns->cap * 2 : 16;
        const char **s = arena_alloc(ns->arena, sizeof *s * (size_t)cap);
        if (ns->n)
            memcpy(s, ns->s, sizeof *s * (size_t)ns->n);
        ns->s = s;
        ns->cap = cap;
    }
    ns->s[ns->n++] = name;
}

/* every ND_NAME read or written anywhere under n, nested defs included */
static void used_names(const Node *n, NameSet *ns);
static void used_list(const NodeList *l, NameSet *ns) {
    for (int i = 0; i < l->n; i++)
        used_names(l->items[i], ns);
}
static void used_names(const Node *n, NameSet *ns) {
    if (!n)
        return;
    if (n->kind == ND_NAME)
        ns_add(ns, n->name);
    used_names(n->a, ns);
    used_names(n->b, ns);
    used_names(n->c, ns);
    used_list(&n->list, ns);
    used_list(&n->list2, ns);
}

/* the names a target (name, item, tuple of them) binds */
static void target_names(const Node *t, NameSet *ns) {
    if (!t)
        return;
    if (t->kind == ND_NAME)
        ns_add(ns, t->name);
    else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
        for (int i = 0; i < t->list.n; i++)
            target_names(t->list.items[i], ns);
}

/* the names a body binds (assignments, for targets, defs), not looking into nested defs */
static void bound_names(const NodeList *body, NameSet *ns) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        switch (s->kind) {
        case ND_ASSIGN:
            for (int j = 0; j < s->list.n; j++)
                target_names(s->list.items[j], ns);
            break;
        case ND_AUGASSIGN: target_names(s->a, ns); break;
        case ND_FOR:
            target_names(s->a, ns);
            bound_names(&s->list, ns);
            bound_names(&s->list2, ns);
            break;
        case ND_IF:
        case ND_WHILE:
            bound_names(&s->list, ns);
            bound_names(&s->list2, ns);
            break;
        case ND_FUNCDEF: ns_add(ns, s->name); break;
        default: break;
        }
    }
}

/* the def of name in a body (its ifs and loops too, not nested defs), or NULL */
static const Node *find_def(const NodeList *body, const char *name) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        if (s->kind == ND_FUNCDEF && !strcmp(s->name, name))
            return s;
        if (s->kind == ND_IF || s->kind == ND_WHILE || s->kind == ND_FOR) {
            const Node *d = find_def(&s->list, name);
            if (!d)
                d = find_def(&s->list2, name);
            if (d)
                return d;
        }
    }
    return NULL;
}

/* ---- the table ----------------------------------------------------------------------------- */
static TyClosure *find(Tc *tc, const FuncInfo *parent, const char *name) {
    for (int i = 0; i < tc->nclosures; i++)
        if (tc->closures[i].parent == parent && !strcmp(tc->closures[i].name, name))
            return &tc->closures[i];
    return NULL;
}

static TyClosure *of_fi(Tc *tc, const FuncInfo *fi) {
    for (int i = 0; i < tc->nclosures; i++)
        if (tc->closures[i].fi == fi)
            return &tc->closures[i];
    return NULL;
}

static TyClosure *push(Tc *tc) {
    if (tc->nclosures == tc->capclosures) {
        int cap = tc->capclosures ? tc->capclosures * 2 : 8;
        TyClosure *c = arena_alloc(tc->arena, sizeof *c * (size_t)cap);
        if (tc->nclosures)
            memcpy(c, tc->closures, sizeof *c * (size_t)tc->nclosures);
        tc->closures = c;
        tc->capclosures = cap;
    }
    TyClosure *c = &tc->closures[tc->nclosures++];
    memset(c, 0, sizeof *c);
    return c;
}

/* The synthesized function of def s in fn: s's parameters, then each name that s's body reads
 * and does not bind and that fn binds (its parameters and assigned variables). */
static TyClosure *synthesize(Fn *fn, Node *s, const char *key) {
    Tc *tc = fn->tc;
    Arena *a = tc->arena;
    NameSet used = {.arena = a}, own = {.arena = a}, outer = {.arena = a};
    used_list(&s->list, &used);
    /* a sibling inner function called here gets its captured values from this scope */
    const Node *pdef = fn->fi->def;
    for (int i = 0; i < used.n; i++) {
        const Node *sib = strcmp(used.s[i], s->name) ? find_def(&pdef->list, used.s[i]) : NULL;
        if (sib)
            used_list(&sib->list, &used);
    }
    for (int i = 0; i < s->params.n; i++)
        ns_add(&own, s->params.items[i]->name);
    bound_names(&s->list, &own);
    for (int i = 0; i < pdef->params.n; i++)
        ns_add(&outer, pdef->params.items[i]->name);
    bound_names(&pdef->list, &outer);

    Node *d = ast_new(a, ND_FUNCDEF, s->loc);
    *d = *s;
    d->params = (NodeList){0};
    for (int i = 0; i < s->params.n; i++)
        ast_list_push(a, &d->params, s->params.items[i]);
    int ncap = 0;
    for (int i = 0; i < used.n; i++) {
        const char *nm = used.s[i];
        if (ns_has(&own, nm) || !ns_has(&outer, nm) || find_def(&pdef->list, nm))
            continue; /* its own, not the enclosing function's, or an inner function */
        Node *p = ast_new(a, ND_NAME, s->loc);
        p->name = nm;
        ast_list_push(a, &d->params, p);
        ncap++;
    }
    FuncInfo *fi = arena_alloc(a, sizeof *fi);
    *fi = *fn->fi;
    size_t len = strlen(fn->fi->name) + strlen(s->name) + 48;
    char *name = arena_alloc(a, len);
    if (key != s->name) /* a lambda: named by its place */
        snprintf(name, len, "%s__lambda__%d_%d", fn->fi->name, s->loc.line, s->loc.col);
    else
        snprintf(name, len, "%s__inner__%s", fn->fi->name, s->name);
    fi->name = name;
    fi->def = d;
    fi->kind = FK_PLAIN;
    fi->sigs = (NodeList){0};
    fi->taint = NULL;
    FuncInfo *bi = arena_alloc(a, sizeof *bi);
    *bi = *fi;
    bi->name = s->name;
    bi->def = s;
    TyClosure *c = push(tc);
    c->binder = bi;
    c->parent = fn->fi;
    c->name = key;
    c->fi = fi;
    c->nown = s->params.n;
    c->ncap = ncap;
    c->def = s;
    return c;
}

void ty_closure_def(Fn *fn, Node *s) {
    if (s->list2.n) {
        ty_error(fn, s->list2.items[0]->loc, "a decorated def inside a compiled function is "
                                             "not supported (define '%s' at module level)",
                 s->name);
        return;
    }
    if (ty_lookup_var(fn, s->name)) {
        ty_error(fn, s->loc, "'%s' names both a variable and an inner function; numjit "
                             "needs one name for each", s->name);
        return;
    }
    TyClosure *c = find(fn->tc, fn->fi, s->name);
    if (!c)
        (void)synthesize(fn, s, s->name);
    else if (c->def != s) /* each call would have to know which def ran last */
        ty_error(fn, s->loc, "the inner function '%s' is defined twice; numjit needs one def "
                             "per name", s->name);
}

/* A lambda used as an expression (lam: ND_LAMBDA): its inner function, made the first time,
 * as a function value that may be called where it stands ((lambda x: x + 1)(2)); anything
 * else done with it is an escape. */
Val ty_closure_lambda(Fn *fn, Node *lam) {
    Node *s = lam->a;
    char key[48];
    snprintf(key, sizeof key, "<lambda>@%d:%d", s->loc.line, s->loc.col);
    TyClosure *c = find(fn->tc, fn->fi, key);
    if (!c) {
        size_t len = strlen(key) + 1;
        char *k = arena_alloc(fn->tc->arena, len);
        memcpy(k, key, len);
        c = synthesize(fn, s, k);
    }
    return (Val){.k = V_FUNC, .fn = c->fi, .name = c->name};
}

const FuncInfo *ty_closure_lookup(Fn *fn, const char *name) {
    Tc *tc = fn->tc;
    for (const FuncInfo *scope = fn->fi; scope;) {
        TyClosure *c = find(tc, scope, name);
        if (c)
            return c->fi;
        TyClosure *up = of_fi(tc, scope);
        scope = up ? up->parent : NULL;
    }
    return NULL;
}

bool ty_is_closure(Fn *fn, const FuncInfo *fi) { return of_fi(fn->tc, fi) != NULL; }

/* a lambda (not a named def) that captures nothing: a function value like a jitted function's */
static bool plain_lambda(const TyClosure *c) { return c->name != c->def->name && !c->ncap; }

bool ty_closure_is_value(Fn *fn, const FuncInfo *fi) {
    TyClosure *c = of_fi(fn->tc, fi);
    return c && plain_lambda(c);
}

const FuncInfo *ty_closure_named(Tc *tc, const char *fi_name) {
    for (int i = 0; i < tc->nclosures; i++)
        if (plain_lambda(&tc->closures[i]) && !strcmp(tc->closures[i].fi->name, fi_name))
            return tc->closures[i].fi;
    return NULL;
}

const FuncInfo *ty_closure_binder(Fn *fn, const FuncInfo *fi) {
    TyClosure *c = of_fi(fn->tc, fi);
    return c ? c->binder : fi;
}

void ty_closure_escapes(Fn *fn, const FuncInfo *fi, Loc loc) {
    TyClosure *c = of_fi(fn->tc, fi);
    if (c && c->name != c->def->name) { /* a lambda capturing variables */
        ty_error(fn, loc, "a lambda that reads variables of the function defining it is used "
                          "as a value: numjit calls such a lambda only (f = lambda x: x + k; "
                          "f(2)); one reading only its parameters may be passed");
        return;
    }
    ty_error(fn, loc, "the inner function '%s' is used as a value: only calls of an inner "
                      "function are supported (Numba cannot capture variables in a function "
                      "that will escape)", c ? c->def->name : fi->name);
}

Val ty_closure_call(Fn *fn, const FuncInfo *fi, Val *a, int n, Loc loc) {
    TyClosure *c = of_fi(fn->tc, fi);
    if (n != c->nown) {
        ty_error(fn, loc, "%s() takes %d argument%s but %d %s given", c->def->name, c->nown,
                 c->nown == 1 ? "" : "s", n, n == 1 ? "was" : "were");
        return verr();
    }
    if (n + c->ncap > 16) {
        ty_error(fn, loc, "the inner function '%s' takes more than 16 arguments and captured "
                          "variables", c->def->name);
        return verr();
    }
    bool named = !plain_lambda(c); /* a plain lambda may be called through a value anywhere */
    if (named && (fn->fi == fi || ty_closure_lookup(fn, c->name) != fi)) {
        ty_error(fn, loc, "a recursive inner function is not supported (Numba refuses it too): "
                          "define '%s' at module level", c->def->name);
        return verr();
    }
    for (TyClosure *up = of_fi(fn->tc, fn->fi); up && named; up = of_fi(fn->tc, up->parent))
        if (up->fi == fi) {
            ty_error(fn, loc, "a recursive inner function is not supported (Numba refuses it "
                              "too): define '%s' at module level", c->def->name);
            return verr();
        }
    Val all[16];
    const Type *types[16];
    IrInst *args[16];
    for (int i = 0; i < n; i++)
        all[i] = a[i];
    for (int i = 0; i < c->ncap; i++) {
        const char *nm = fi->def->params.items[n + i]->name;
        all[n + i] = ty_resolve_name(fn, nm, loc);
        if (all[n + i].k != V_VAL) {
            if (all[n + i].k != V_ERR)
                ty_error(fn, loc, "'%s' captured by the inner function '%s' is not a value",
                         nm, c->def->name);
            return verr();
        }
    }
    for (int i = 0; i < n + c->ncap; i++) {
        types[i] = all[i].t;
        args[i] = all[i].v;
    }
    IrFunc *f = ty_specialize_call(fn, fi, types, n + c->ncap, loc);
    if (!f)
        return verr();
    IrInst *r = ty_emit(fn, IR_CALL, f->ret, loc, n + c->ncap, args);
    if (r)
        r->imm.callee = f;
    return ty_own(fn, vval(f->ret, r), loc);
}

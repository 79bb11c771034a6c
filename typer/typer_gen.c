/* typer_gen.c — generators (a def with `yield`) iterated by compiled code, inlined.
 *
 * Numba 0.56 compiles a generator into a resumable state machine; compiled code that iterates
 * one gives the same results when the generator's body is typed in place of the loop, each
 * `yield v` becoming "assign v to the loop's target, then run the loop's body":
 *
 *     for x in gen(a, b):            $gen3.p = a              (the parameters, bound as a call
 *         BODY                       $gen3.q = b               binds them: keywords, defaults)
 *     else:                          GEN-BODY, its own names renamed $gen3.NAME, in which
 *         ELSE                           yield v   is   x = v; BODY   (BODY as a loop body:
 *                                                   `continue` ends this BODY, `break` jumps
 *                                                   past the ELSE, `return` leaves the caller)
 *                                        return    jumps to DONE (a generator's return value
 *                                                   is dropped, as a for loop drops it)
 *                                    DONE: ELSE
 *
 * so the work is control flow alone: the loop's break and continue targets are pushed at each
 * yield (ty_loop_body), and a `return` of the generator's body branches to DONE.  The values
 * stay where they were computed (SSA and variables), no state is saved and nothing is
 * allocated; an endless generator (`while True: yield i`) ends when the body breaks.  A
 * generator's body and the loop's body are typed once per yield (copies of code, as Numba's
 * inliner makes them).  The inlined copy of a generator is built once per loop statement and
 * kept in tc->gens, so its hidden names stay the same through the typer's passes.
 *
 * `for i, x in enumerate(gen(...), start)` counts in a hidden variable; `for x, v in zip(a,
 * gen(...))` reads the other arguments (sequences: arrays, lists, tuples) at such a count and
 * ends the generator at the shortest; list(gen(...)),
 * min(gen(...)) and max(gen(...)) are the list comprehension [v for v in gen(...)] that
 * typer_comp.c turns into such a loop (list(iterable) goes that way for any iterable a for loop
 * takes).  A generator called anywhere else (kept in a variable, given to next(), zip() or
 * sum()) is refused at the call; Numba 0.56 refuses sum() of one too.  A generator that Python
 * calls is compiled as a function returning the list of its values (ty_gen_entry_body), which
 * the Python package hands back as a generator object.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

/* One inlined generator: the loop statement it serves and what it became. */
typedef struct TyGen {
    const Node *site;   /* the ND_FOR (or the argument of list()/min()/max(): then lc is set) */
    NodeList prologue;  /* parameters bound, enumerate's counter set */
    NodeList body;      /* the generator's body, renamed, each yield holding its assignments */
    Node *lc;           /* list(x), min(x), max(x): the comprehension [$v for $v in x] */
    bool ok;
} TyGen;

/* The context of the generator whose body is being typed (a stack through fn->gen). */
struct TyGenCtx {
    struct TyGenCtx *outer;
    NodeList *cbody;    /* the loop's body */
    IrBlock *exit;      /* after the loop: `break` of the loop's body */
    IrBlock *done;      /* the generator ended: the loop's else clause, then exit */
    int depth;
    IrBlock mine;       /* stands as the handler of the loop body's blocks while the generator
                           is typed (see claim) */
};

enum { GEN_MAX_DEPTH = 16 };

/* ---- which calls are generators ----------------------------------------------------------- */
static bool list_has_yield(const NodeList *l);

static bool has_yield(const Node *s) {
    if (!s || s->kind == ND_FUNCDEF) /* an inner def's yield is its own */
        return false;
    if (s->kind == ND_YIELD)
        return true;
    return list_has_yield(&s->list) || list_has_yield(&s->list2) ||
           (s->kind == ND_TRY && (has_yield(s->a) || has_yield(s->b)));
}

static bool list_has_yield(const NodeList *l) {
    for (int i = 0; i < l->n; i++)
        if (has_yield(l->items[i]))
            return true;
    return false;
}

bool ty_is_generator(const FuncInfo *fi) {
    return fi && fi->def && list_has_yield(&fi->def->list);
}

/* The generator e calls (e a call of a def with yield), or NULL; an inner def with yield is
 * refused as Numba refuses it (*bad). */
static const FuncInfo *generator_of(Fn *fn, const Node *e, bool *bad) {
    *bad = false;
    if (!e || e->kind != ND_CALL || e->a->kind != ND_NAME)
        return NULL;
    bool emit = fn->emit;
    fn->emit = false;
    int nerr = fn->tc->diags->nerrors;
    Val callee = ty_expr(fn, e->a);
    fn->emit = emit;
    if (callee.k != V_FUNC || fn->tc->diags->nerrors != nerr || !ty_is_generator(callee.fn))
        return NULL;
    if (ty_is_closure(fn, callee.fn)) {
        ty_error(fn, e->loc, "The use of yield in a closure is unsupported (numjit, as Numba "
                 "0.56: define the generator at the top level of the module)");
        *bad = true;
        return NULL;
    }
    return callee.fn;
}

void ty_gen_misused(Fn *fn, const FuncInfo *fi, Loc loc) {
    ty_error(fn, loc, "%s() is a generator: numjit iterates one in a for loop, list(), min(), "
             "max(), enumerate() or zip() with sequences (for x in %s(...)), not as a value "
             "here", fi->name, fi->name);
}

/* ---- the renamed copy ----------------------------------------------------------------------- */
typedef struct Names {
    const char **from, **to;
    int n, cap;
} Names;

static const char *hidden(Arena *a, int id, const char *what) {
    size_t len = strlen(what) + 24;
    char *s = arena_alloc(a, len);
    snprintf(s, len, "$gen%d.%s", id, what);
    return s;
}

static void add_name(Arena *a, Names *r, int id, const char *name) {
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->from[i], name))
            return;
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        const char **f = arena_alloc(a, sizeof *f * (size_t)cap);
        const char **t = arena_alloc(a, sizeof *t * (size_t)cap);
        if (r->n) {
            memcpy(f, r->from, sizeof *f * (size_t)r->n);
            memcpy(t, r->to, sizeof *t * (size_t)r->n);
        }
        r->from = f;
        r->to = t;
        r->cap = cap;
    }
    r->from[r->n] = name;
    r->to[r->n++] = hidden(a, id, name);
}

static void target_names(Arena *a, Names *r, int id, const Node *t) {
    if (!t)
        return;
    if (t->kind == ND_NAME)
        add_name(a, r, id, t->name);
    else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
        for (int i = 0; i < t->list.n; i++)
            target_names(a, r, id, t->list.items[i]);
}

/* the names a body binds (its locals, as Python decides them) */
static void local_names(Arena *a, Names *r, int id, const NodeList *body) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->list.n; k++)
                target_names(a, r, id, s->list.items[k]);
            break;
        case ND_AUGASSIGN: target_names(a, r, id, s->a); break;
        case ND_FOR: target_names(a, r, id, s->a); break;
        case ND_EXCEPT:
            if (s->name)
                add_name(a, r, id, s->name);
            break;
        case ND_FUNCDEF: add_name(a, r, id, s->name); continue;
        default: break;
        }
        local_names(a, r, id, &s->list);
        local_names(a, r, id, &s->list2);
        if (s->kind == ND_TRY) {
            if (s->a)
                local_names(a, r, id, &s->a->list);
            if (s->b)
                local_names(a, r, id, &s->b->list);
        }
    }
}

static const char *renamed(const Names *r, const char *name) {
    for (int i = 0; i < r->n; i++)
        if (!strcmp(name, r->from[i]))
            return r->to[i];
    return name;
}

/* What the loop iterates: gen(...), enumerate(gen(...)[, start]) or zip(x, gen(...), y, ...)
 * (the generator's position gpos; the others are sequences read at the count). */
typedef struct Over {
    const Node *call;   /* the generator's call */
    bool is_enum;
    Node *start;        /* enumerate's start, or NULL */
    const Node *zip;    /* the zip call, or NULL */
    int gpos;
} Over;

typedef struct Copy {
    Arena *a;
    const Names *r;
    Node *target;       /* the loop's target */
    const char *count;  /* enumerate's counter or zip's index, or NULL */
    const char **zs;    /* zip: the hidden variable of each argument (NULL: the generator's) */
    int nz;
} Copy;

static Node *copy(const Copy *c, const Node *n);

static NodeList copy_list(const Copy *c, const NodeList *l) {
    NodeList out = {0};
    for (int i = 0; i < l->n; i++)
        ast_list_push(c->a, &out, copy(c, l->items[i]));
    return out;
}

static Node *name_node(Arena *a, const char *name, Loc loc) {
    Node *n = ast_new(a, ND_NAME, loc);
    n->name = name;
    return n;
}

static Node *assign(Arena *a, Node *target, Node *value, Loc loc) {
    Node *s = ast_new(a, ND_ASSIGN, loc);
    ast_list_push(a, &s->list, target);
    s->a = value;
    return s;
}

/* `yield v` in the copy: the statements that give the loop's target its value */
static void yield_statements(const Copy *c, Node *y) {
    Arena *a = c->a;
    Loc loc = y->loc;
    Node *v = y->a ? y->a : ast_new(a, ND_NONE, loc);
    y->list = (NodeList){0};
    if (c->zs) { /* zip: ends at the shortest; target = (z0[$k], v, z2[$k], ...) */
        Node *t = ast_new(a, ND_TUPLE, loc);
        for (int i = 0; i < c->nz; i++) {
            if (!c->zs[i]) {
                ast_list_push(a, &t->list, v);
                continue;
            }
            Node *len = ast_new(a, ND_CALL, loc);
            len->a = name_node(a, "len", loc);
            ast_list_push(a, &len->list, name_node(a, c->zs[i], loc));
            Node *cmp = ast_new(a, ND_COMPARE, loc);
            ast_list_push(a, &cmp->list, name_node(a, c->count, loc));
            ast_list_push(a, &cmp->list, len);
            cmp->ops = arena_alloc(a, sizeof *cmp->ops);
            cmp->ops[0] = OP_GE;
            Node *iff = ast_new(a, ND_IF, loc);
            iff->a = cmp;
            ast_list_push(a, &iff->list, ast_new(a, ND_RETURN, loc)); /* the generator is done */
            ast_list_push(a, &y->list, iff);
            Node *item = ast_new(a, ND_SUBSCRIPT, loc);
            item->a = name_node(a, c->zs[i], loc);
            item->b = name_node(a, c->count, loc);
            ast_list_push(a, &t->list, item);
        }
        v = t;
    } else if (c->count) { /* enumerate: target = ($count, v); $count += 1 */
        Node *t = ast_new(a, ND_TUPLE, loc);
        ast_list_push(a, &t->list, name_node(a, c->count, loc));
        ast_list_push(a, &t->list, v);
        v = t;
    }
    ast_list_push(a, &y->list, assign(a, c->target, v, loc));
    if (c->count) {
        Node *inc = ast_new(a, ND_AUGASSIGN, loc);
        inc->op = OP_ADD;
        inc->a = name_node(a, c->count, loc);
        inc->b = ast_new(a, ND_INT, loc);
        inc->b->ival = 1;
        ast_list_push(a, &y->list, inc);
    }
}

static Node *copy(const Copy *c, const Node *n) {
    if (!n)
        return NULL;
    Node *d = ast_new(c->a, n->kind, n->loc);
    *d = *n;
    if ((n->kind == ND_NAME || n->kind == ND_EXCEPT || n->kind == ND_FUNCDEF) && n->name)
        d->name = renamed(c->r, n->name);
    d->a = copy(c, n->a);
    d->b = copy(c, n->b);
    d->c = copy(c, n->c);
    d->list = copy_list(c, &n->list);
    d->list2 = copy_list(c, &n->list2);
    if (n->kind == ND_YIELD)
        yield_statements(c, d);
    return d;
}

/* ---- the table -------------------------------------------------------------------------------- */
static TyGen *find(Tc *tc, const Node *site) {
    for (int i = 0; i < tc->ngens; i++)
        if (tc->gens[i].site == site)
            return &tc->gens[i];
    return NULL;
}

static TyGen *add(Tc *tc, const Node *site, int *id) {
    if (tc->ngens == tc->capgens) {
        int cap = tc->capgens ? tc->capgens * 2 : 8;
        TyGen *g = arena_alloc(tc->arena, sizeof *g * (size_t)cap);
        if (tc->ngens)
            memcpy(g, tc->gens, sizeof *g * (size_t)tc->ngens);
        tc->gens = g;
        tc->capgens = cap;
    }
    *id = tc->ngens;
    TyGen *g = &tc->gens[tc->ngens++];
    memset(g, 0, sizeof *g);
    g->site = site;
    return g;
}

/* The parameters of gi bound to the arguments of call, as assignments in parameter order (the
 * order ty_bind_call evaluates them in); false with the error reported. */
static bool bind(Fn *fn, const FuncInfo *gi, const Node *call, const Names *r, NodeList *out) {
    Arena *a = fn->tc->arena;
    const NodeList *ps = &gi->def->params;
    Node *given[16] = {NULL};
    if (ps->n > 16 || call->list.n > ps->n) {
        ty_error(fn, call->loc, "%s() takes %d arguments but %d were given", gi->name, ps->n,
                 call->list.n);
        return false;
    }
    for (int k = 0; k < call->list.n; k++)
        given[k] = call->list.items[k];
    for (int j = 0; j < call->list2.n; j++) {
        Node *kw = call->list2.items[j];
        int k = -1;
        for (int i = 0; i < ps->n; i++)
            if (!strcmp(ps->items[i]->name, kw->name))
                k = i;
        if (k < 0 || given[k]) {
            ty_error(fn, kw->loc, k < 0 ? "got an unexpected keyword argument '%s' in the call "
                     "of %s()" : "multiple values for argument '%s' in the call of %s()",
                     kw->name, gi->name);
            return false;
        }
        given[k] = kw->a;
    }
    for (int k = 0; k < ps->n; k++) {
        if (!given[k] && !(given[k] = ps->items[k]->a)) {
            ty_error(fn, call->loc, "missing a required argument: '%s' in the call of %s()",
                     ps->items[k]->name, gi->name);
            return false;
        }
        Node *t = name_node(a, renamed(r, ps->items[k]->name), ps->items[k]->loc);
        ast_list_push(a, out, assign(a, t, given[k], given[k]->loc));
    }
    return true;
}

/* The builtin call e makes ("enumerate", "zip"), or NULL. */
static const char *builtin_of(Fn *fn, const Node *e) {
    if (e->kind != ND_CALL || e->a->kind != ND_NAME || e->list2.n)
        return NULL;
    bool emit = fn->emit;
    fn->emit = false;
    int nerr = fn->tc->diags->nerrors;
    Val callee = ty_expr(fn, e->a);
    fn->emit = emit;
    return fn->tc->diags->nerrors == nerr && callee.k == V_BUILTIN ? callee.name : NULL;
}

static void build(Fn *fn, TyGen *g, int id, const FuncInfo *gi, const Over *o, Node *target) {
    Arena *a = fn->tc->arena;
    Names r = {0};
    for (int k = 0; k < gi->def->params.n; k++)
        add_name(a, &r, id, gi->def->params.items[k]->name);
    local_names(a, &r, id, &gi->def->list);
    Copy c = {a, &r, target, NULL, NULL, 0};
    Loc loc = o->call->loc;
    if (o->zip) { /* the arguments in order: the generator's bound, the others kept */
        c.nz = o->zip->list.n;
        c.zs = arena_alloc(a, sizeof *c.zs * (size_t)c.nz);
        for (int i = 0; i < c.nz; i++) {
            Node *x = o->zip->list.items[i];
            char what[32];
            snprintf(what, sizeof what, "zip%d", i);
            c.zs[i] = i == o->gpos ? NULL : hidden(a, id, what);
            if (i == o->gpos ? !bind(fn, gi, o->call, &r, &g->prologue) : false)
                return;
            if (i == o->gpos)
                continue;
            const char *bx = builtin_of(fn, x);
            if (bx && !strcmp(bx, "range")) { /* a range is no value: kept as list(range(...)) */
                Node *l = ast_new(a, ND_CALL, x->loc);
                l->a = name_node(a, "list", x->loc);
                ast_list_push(a, &l->list, x);
                x = l;
            }
            ast_list_push(a, &g->prologue, assign(a, name_node(a, c.zs[i], x->loc), x, x->loc));
        }
    } else if (!bind(fn, gi, o->call, &r, &g->prologue)) {
        return;
    }
    if (o->is_enum || o->zip) { /* enumerate's counter (from start, or 0), zip's index */
        c.count = hidden(a, id, "count");
        Node *s0 = o->start;
        if (!s0) {
            s0 = ast_new(a, ND_INT, loc);
            s0->ival = 0;
        }
        ast_list_push(a, &g->prologue, assign(a, name_node(a, c.count, loc), s0, loc));
    }
    g->body = copy_list(&c, &gi->def->list);
    g->ok = true;
}

/* ---- typing ------------------------------------------------------------------------------- */
/* A raise in the loop's body is the caller's: a `try` of the generator around the yield must
 * not catch it (Python raises it in the caller's frame).  The body's blocks that no try of its
 * own claimed get g->mine as their handler, so that the generator's try passes them by
 * (typer_try.c claims blocks whose handler is unset), and lose it again when the generator is
 * done (release), for a try of the caller to claim. */
static void claim(Fn *fn, struct TyGenCtx *g, int first) {
    for (int i = first; fn->emit && i < fn->f->nblocks; i++)
        if (!fn->f->blocks[i]->handler)
            fn->f->blocks[i]->handler = &g->mine;
}

static void release(Fn *fn, struct TyGenCtx *g, int first) {
    for (int i = first; fn->emit && i < fn->f->nblocks; i++)
        if (fn->f->blocks[i]->handler == &g->mine)
            fn->f->blocks[i]->handler = NULL;
}

/* What s iterates, when a generator is in it: gen(...), enumerate(gen(...)[, start]) or zip()
 * of one generator and sequences.  NULL: no generator (*bad: an error was reported). */
static const FuncInfo *over_of(Fn *fn, Node *s, Over *o, bool *bad) {
    memset(o, 0, sizeof *o);
    *bad = false;
    o->call = s->b;
    const char *b = builtin_of(fn, s->b);
    if (b && !strcmp(b, "enumerate") && s->b->list.n >= 1 && s->b->list.n <= 2) {
        o->is_enum = true;
        o->call = s->b->list.items[0];
        o->start = s->b->list.n == 2 ? s->b->list.items[1] : NULL;
    } else if (b && !strcmp(b, "zip")) {
        const FuncInfo *gi = NULL;
        for (int i = 0; i < s->b->list.n; i++) {
            const FuncInfo *f = generator_of(fn, s->b->list.items[i], bad);
            if (*bad)
                return NULL;
            if (f && gi) { /* two at once need two states: ty_gen_misused at the call */
                ty_gen_misused(fn, f, s->b->list.items[i]->loc);
                *bad = true;
                return NULL;
            }
            if (f) {
                gi = f;
                o->gpos = i;
                o->call = s->b->list.items[i];
            }
        }
        o->zip = gi ? s->b : NULL;
        return gi;
    }
    return generator_of(fn, o->call, bad);
}

bool ty_gen_for(Fn *fn, Node *s) {
    Over o;
    bool bad = false;
    const FuncInfo *gi = over_of(fn, s, &o, &bad);
    if (bad)
        return true;
    if (!gi)
        return false;
    const Node *call = o.call;
    if (fn->tc->target != TARGET_CPU) { /* numba.cuda lowers no generator */
        ty_error(fn, call->loc, "generators are not supported in CUDA kernels and device "
                 "functions (numba.cuda has none): %s() has a yield", gi->name);
        return true;
    }
    TyGen *g = find(fn->tc, s);
    if (!g) {
        int id;
        g = add(fn->tc, s, &id);
        build(fn, g, id, gi, &o, s->a);
    }
    if (!g->ok)
        return true;
    int depth = fn->gen ? fn->gen->depth + 1 : 0;
    if (depth >= GEN_MAX_DEPTH) {
        ty_error(fn, call->loc, "generators nested more than %d deep (does %s() iterate "
                 "itself?); numjit inlines a generator where a loop iterates it",
                 GEN_MAX_DEPTH, gi->name);
        return true;
    }
    ty_stmts(fn, &g->prologue);
    struct TyGenCtx ctx = {fn->gen, &s->list, ty_block(fn), ty_block(fn), depth, {0}};
    int first = fn->emit ? fn->f->nblocks : 0;
    fn->gen = &ctx;
    ty_stmts(fn, &g->body);
    fn->gen = ctx.outer;
    release(fn, &ctx, first);
    ty_br(fn, ctx.done, s->loc);
    ty_set_block(fn, ctx.done);
    if (s->list2.n)
        ty_stmts(fn, &s->list2);
    ty_br(fn, ctx.exit, s->loc);
    ty_set_block(fn, ctx.exit);
    return true;
}

void ty_gen_yield(Fn *fn, Node *s) {
    struct TyGenCtx *g = fn->gen;
    if (!g && fn->coro) { /* the generator Python calls, compiled on its own (typer_genobj.c) */
        ty_genobj_yield(fn, s);
        return;
    }
    if (!g || !s->list.n) {
        ty_error(fn, s->loc, "this generator is compiled on its own: numjit runs a generator "
                 "where compiled code iterates it (for x in gen(...), list(gen(...)))");
        return;
    }
    ty_stmts(fn, &s->list); /* the loop's target = the value */
    IrBlock *cont = ty_block(fn), *body = ty_block(fn);
    ty_br(fn, body, s->loc);
    ty_set_block(fn, body);
    int first = fn->emit ? body->id : 0;
    fn->gen = g->outer; /* the loop's body is the caller's: its return and yield are its own */
    ty_loop_body(fn, g->cbody, g->exit, cont, s->loc);
    fn->gen = g;
    ty_br(fn, cont, s->loc);
    claim(fn, g, first);
    ty_set_block(fn, cont);
}

bool ty_gen_return(Fn *fn, Node *s) {
    if (!fn->gen)
        return fn->coro && ty_genobj_return(fn, s);
    ty_br(fn, fn->gen->done, s->loc);
    return true;
}

/* list(x), min(x), max(x) of one argument x: [$v for $v in x] when x is a generator call (or,
 * all, any iterable: list()); NULL otherwise (and when an error was reported: *bad). */
const Node *ty_gen_listcomp(Fn *fn, Node *x, bool all, bool *bad) {
    *bad = false;
    TyGen *g = find(fn->tc, x);
    if (g)
        return g->lc;
    if (!all && !generator_of(fn, x, bad))
        return NULL;
    if (*bad)
        return NULL;
    int id;
    g = add(fn->tc, x, &id);
    Arena *a = fn->tc->arena;
    const char *v = hidden(a, id, "item");
    Node *lc = ast_new(a, ND_LISTCOMP, x->loc);
    lc->ival = !all; /* a generator's: min() of none raises StopIteration (typer_comp.c) */
    lc->a = name_node(a, v, x->loc);
    Node *cl = ast_new(a, ND_FOR, x->loc);
    cl->a = name_node(a, v, x->loc);
    cl->b = x;
    ast_list_push(a, &lc->list, cl);
    g->lc = lc;
    g->ok = true;
    return lc;
}

/* The body a generator is compiled with when Python calls it (the entry of a specialization):
 *
 *     $out = []
 *     for $v in gen(p1, ..., pn):     (the generator inlined, as in any loop)
 *         $out.append($v)
 *     return $out
 *
 * and the Python package hands the list back as a generator object (dispatcher.py).  Built
 * once per compilation (keyed by the def). */
NodeList *ty_gen_entry_body(Fn *fn) {
    const Node *def = fn->fi->def;
    TyGen *g = find(fn->tc, def);
    if (g)
        return &g->body;
    int id;
    g = add(fn->tc, def, &id);
    Arena *a = fn->tc->arena;
    Loc loc = def->loc;
    const char *out = hidden(a, id, "out"), *v = hidden(a, id, "v");
    ast_list_push(a, &g->body, assign(a, name_node(a, out, loc), ast_new(a, ND_LIST, loc), loc));
    Node *call = ast_new(a, ND_CALL, loc);
    call->a = name_node(a, fn->fi->name, loc);
    for (int k = 0; k < def->params.n; k++)
        ast_list_push(a, &call->list, name_node(a, def->params.items[k]->name, loc));
    Node *loop = ast_new(a, ND_FOR, loc);
    loop->a = name_node(a, v, loc);
    loop->b = call;
    Node *m = ast_new(a, ND_ATTR, loc);
    m->a = name_node(a, out, loc);
    m->name = "append";
    Node *app = ast_new(a, ND_CALL, loc);
    app->a = m;
    ast_list_push(a, &app->list, name_node(a, v, loc));
    Node *st = ast_new(a, ND_EXPR, loc);
    st->a = app;
    ast_list_push(a, &loop->list, st);
    ast_list_push(a, &g->body, loop);
    Node *ret = ast_new(a, ND_RETURN, loc);
    ret->a = name_node(a, out, loc);
    ast_list_push(a, &g->body, ret);
    g->ok = true;
    return &g->body;
}

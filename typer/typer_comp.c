/* typer_comp.c — list comprehensions: as lists, and fed to sum(), min() and max() as loops.
 *
 * Numba 0.56 builds a list for `[e for x in it if c]` and then reduces it; numjit needs no
 * list: the call is rewritten, once per comprehension, into statements the typer already
 * knows, and those are typed in place of the call (hidden variables have names with '$',
 * which no Python name has):
 *
 *     sum([e for x in it if c])        $acc = 0
 *                                      for $x in it:
 *                                          if c[$x]:
 *                                              $acc += e[$x]
 *
 *     min([e for x in it if c])        $first = True
 *                                      for $x in it:
 *                                          if c[$x]:
 *                                              $v = e[$x]
 *                                              if $first or $v < $m:
 *                                                  $m = $v
 *                                                  $first = False
 *                                      (an empty one raises ValueError; StopIteration
 *                                      when it is a generator's, lc->ival set: Numba's)
 *
 *     [e for x in it if c]             $list = []          (anywhere else: a list, whose item
 *                                      for $x in it:        type the appends decide,
 *                                          if c[$x]:        typer_list.c)
 *                                              $list.append(e[$x])
 *
 * Several `for` and `if` clauses nest in source order.  The comprehension's targets are
 * renamed in a copy of its expressions, so that they stay local to it as in Python 3: a
 * variable of the function with the same name is neither read nor changed.  The sum's
 * accumulator starts at the integer 0 and is unified with what is added, as in Numba's
 * sum(): integers give int64, floats float64 (0.0 when nothing is added); min and max keep
 * the first of equal values and compare with `<` / `>` as Numba's do.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct TyComp {
    const Node *lc;     /* the ND_LISTCOMP */
    int kind;           /* TY_COMP_SUM, TY_COMP_MIN, TY_COMP_MAX, TY_COMP_LIST */
    NodeList body;      /* the statements it became */
    const char *result; /* the hidden variable holding the result */
    const char *first;  /* min/max: the hidden variable still true when nothing was seen */
} TyComp;

/* ---- building the statements --------------------------------------------------------------- */
typedef struct Renames {
    const char *from[16], *to[16];
    int n;
} Renames;

static const char *hidden(Arena *a, int id, const char *what) {
    size_t len = strlen(what) + 24;
    char *s = arena_alloc(a, len);
    snprintf(s, len, "$comp%d.%s", id, what);
    return s;
}

static Node *copy_renamed(Arena *a, const Node *n, const Renames *r);
static NodeList copy_list(Arena *a, const NodeList *l, const Renames *r) {
    NodeList out = {0};
    for (int i = 0; i < l->n; i++)
        ast_list_push(a, &out, copy_renamed(a, l->items[i], r));
    return out;
}

/* a copy of expression n whose names in r are renamed (a nested comprehension included) */
static Node *copy_renamed(Arena *a, const Node *n, const Renames *r) {
    if (!n)
        return NULL;
    Node *c = ast_new(a, n->kind, n->loc);
    *c = *n;
    if (n->kind == ND_NAME)
        for (int i = r->n - 1; i >= 0; i--)
            if (!strcmp(n->name, r->from[i])) {
                c->name = r->to[i];
                break;
            }
    c->a = copy_renamed(a, n->a, r);
    c->b = copy_renamed(a, n->b, r);
    c->c = copy_renamed(a, n->c, r);
    c->list = copy_list(a, &n->list, r);
    c->list2 = copy_list(a, &n->list2, r);
    return c;
}

/* adds the names target t binds to r, each to a hidden name */
static bool rename_target(Arena *a, const Node *t, int id, Renames *r) {
    if (t->kind == ND_NAME) {
        if (r->n == 16)
            return false;
        r->from[r->n] = t->name;
        r->to[r->n++] = hidden(a, id, t->name);
        return true;
    }
    if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
        for (int i = 0; i < t->list.n; i++)
            if (!rename_target(a, t->list.items[i], id, r))
                return false;
        return true;
    }
    return false;
}

static Node *name_node(Arena *a, const char *name, Loc loc) {
    Node *n = ast_new(a, ND_NAME, loc);
    n->name = name;
    return n;
}

static Node *assign(Arena *a, const char *name, Node *value, Loc loc) {
    Node *s = ast_new(a, ND_ASSIGN, loc);
    ast_list_push(a, &s->list, name_node(a, name, loc));
    s->a = value;
    return s;
}

static Node *const_node(Arena *a, NodeKind k, int64_t v, Loc loc) {
    Node *n = ast_new(a, k, loc);
    n->ival = v;
    return n;
}

/* The innermost statements for element e (already renamed) of comprehension c. */
static NodeList innermost(Arena *a, TyComp *c, Node *e, int id, Loc loc) {
    NodeList body = {0};
    if (c->kind == TY_COMP_LIST) { /* $list.append(e) */
        Node *m = ast_new(a, ND_ATTR, loc);
        m->a = name_node(a, c->result, loc);
        m->name = "append";
        Node *call = ast_new(a, ND_CALL, loc);
        call->a = m;
        ast_list_push(a, &call->list, e);
        Node *s = ast_new(a, ND_EXPR, loc);
        s->a = call;
        ast_list_push(a, &body, s);
        return body;
    }
    if (c->kind == TY_COMP_SUM) {
        Node *s = ast_new(a, ND_AUGASSIGN, loc);
        s->op = OP_ADD;
        s->a = name_node(a, c->result, loc);
        s->b = e;
        ast_list_push(a, &body, s);
        return body;
    }
    const char *v = hidden(a, id, "v");
    ast_list_push(a, &body, assign(a, v, e, e->loc));
    Node *cmpn = ast_new(a, ND_COMPARE, loc);
    ast_list_push(a, &cmpn->list, name_node(a, v, loc));
    ast_list_push(a, &cmpn->list, name_node(a, c->result, loc));
    cmpn->ops = arena_alloc(a, sizeof *cmpn->ops);
    cmpn->ops[0] = c->kind == TY_COMP_MIN ? OP_LT : OP_GT;
    Node *cond = ast_new(a, ND_BOOLOP, loc);
    cond->op = OP_OR;
    cond->a = name_node(a, c->first, loc);
    cond->b = cmpn;
    Node *iff = ast_new(a, ND_IF, loc);
    iff->a = cond;
    ast_list_push(a, &iff->list, assign(a, c->result, name_node(a, v, loc), loc));
    ast_list_push(a, &iff->list, assign(a, c->first, const_node(a, ND_BOOL, 0, loc), loc));
    ast_list_push(a, &body, iff);
    return body;
}

/* The statements of comprehension lc, or false with an error reported. */
static bool build(Fn *fn, TyComp *c, int id) {
    Arena *a = fn->tc->arena;
    const Node *lc = c->lc;
    Loc loc = lc->loc;
    Renames r = {0};
    c->result = hidden(a, id, c->kind == TY_COMP_SUM ? "acc" : c->kind == TY_COMP_LIST ? "list" : "m");
    c->first = hidden(a, id, "first");
    /* the clauses, outermost first: rename each for's targets for what follows it */
    Node *outer[32];
    int nclauses = lc->list.n;
    if (nclauses > 32) {
        ty_error(fn, loc, "a comprehension of more than 32 clauses is not supported");
        return false;
    }
    for (int i = 0; i < nclauses; i++) {
        const Node *cl = lc->list.items[i];
        Node *s = ast_new(a, cl->kind, cl->loc);
        if (cl->kind == ND_FOR) {
            s->b = i == 0 ? cl->b : copy_renamed(a, cl->b, &r); /* the first runs outside */
            if (!rename_target(a, cl->a, id, &r)) {
                ty_error(fn, cl->a->loc, "this comprehension target is not supported");
                return false;
            }
            s->a = copy_renamed(a, cl->a, &r);
        } else {
            s->a = copy_renamed(a, cl->a, &r);
        }
        outer[i] = s;
    }
    NodeList inner = innermost(a, c, copy_renamed(a, lc->a, &r), id, loc);
    for (int i = nclauses - 1; i >= 0; i--) {
        outer[i]->list = inner;
        inner = (NodeList){0};
        ast_list_push(a, &inner, outer[i]);
    }
    c->body = (NodeList){0};
    if (c->kind == TY_COMP_SUM)
        ast_list_push(a, &c->body, assign(a, c->result, const_node(a, ND_INT, 0, loc), loc));
    else if (c->kind == TY_COMP_LIST)
        ast_list_push(a, &c->body, assign(a, c->result, ast_new(a, ND_LIST, loc), loc));
    else
        ast_list_push(a, &c->body, assign(a, c->first, const_node(a, ND_BOOL, 1, loc), loc));
    ast_list_push(a, &c->body, inner.items[0]);
    return true;
}

/* ---- the table (one entry per comprehension of the compilation) ------------------------------ */
static TyComp *entry(Fn *fn, const Node *lc, int kind) {
    Tc *tc = fn->tc;
    for (int i = 0; i < tc->ncomps; i++)
        if (tc->comps[i].lc == lc)
            return tc->comps[i].kind == kind ? &tc->comps[i] : NULL;
    if (tc->ncomps == tc->capcomps) {
        int cap = tc->capcomps ? tc->capcomps * 2 : 8;
        TyComp *c = arena_alloc(tc->arena, sizeof *c * (size_t)cap);
        if (tc->ncomps)
            memcpy(c, tc->comps, sizeof *c * (size_t)tc->ncomps);
        tc->comps = c;
        tc->capcomps = cap;
    }
    int id = tc->ncomps;
    TyComp *c = &tc->comps[tc->ncomps++];
    memset(c, 0, sizeof *c);
    c->lc = lc;
    c->kind = kind;
    if (!build(fn, c, id)) {
        c->body = (NodeList){0};
        c->result = NULL;
    }
    return c;
}

Val ty_comp_reduce(Fn *fn, int kind, const Node *lc, Loc loc) {
    TyComp *c = entry(fn, lc, kind);
    if (!c || !c->result)
        return verr();
    ty_stmts(fn, &c->body);
    if (fn->emit && !fn->cur)
        return verr();
    if (kind == TY_COMP_MIN || kind == TY_COMP_MAX) {
        Val first = ty_resolve_name(fn, c->first, loc);
        if (first.k != V_VAL)
            return verr();
        if (fn->emit && lc->ival) { /* of a generator (typer_gen.c): Numba's next() raises */
            IrBlock *empty = ty_block(fn), *some = ty_block(fn);
            ty_condbr(fn, first.v, empty, some, loc);
            ty_set_block(fn, empty);
            IrInst *r = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
            if (r)
                r->imm.index = ir_user_raise_site(fn->tc->p, RAISE_STOP_ITERATION, "", loc);
            ty_set_block(fn, some);
        } else if (fn->emit)
            ty_raise_if(fn, first.v, RAISE_VALUE, kind == TY_COMP_MIN ?
                        "min() arg is an empty sequence" : "max() arg is an empty sequence", loc);
    }
    return ty_resolve_name(fn, c->result, loc);
}

void ty_comp_misplaced(Fn *fn, const Node *lc) {
    ty_error(fn, lc->loc, "list comprehensions are not supported in CUDA kernels and device "
                          "functions");
}

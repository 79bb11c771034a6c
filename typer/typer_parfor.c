/* typer_parfor.c — `for i in prange(...)` in an @njit(parallel=True) function: the loop's body
 * outlined into a function of its own and run on the thread pool (IR_PARFOR, ops.def).
 *
 * Types come first, as for any loop: the inference rounds walk a prange loop as a serial range
 * loop in its function, so every variable has its final type before anything is emitted.  At
 * emission the loop is classified from its AST, as Numba's parfor pass does:
 *   - live-ins: variables the body reads and never assigns; passed by value to every chunk;
 *   - reductions: a scalar variable whose every mention in the body is `v += e`, `v -= e`,
 *     `v = v + e`, `v = e + v`, `v = v - e` (add), `v *= e`, `v = v * e`, `v = e * v` (mul),
 *     `v = min(v, e)`, `v = min(e, v)` (min) or the same with max, one operator per variable,
 *     e not mentioning v.  Each chunk starts from the operator's identity; the partial values
 *     are combined in chunk order into the value before the loop;
 *   - private: any other variable the body assigns; it must not carry a value from one
 *     iteration to the next (read before it is assigned in the body) and must not be read after
 *     the loop (the loop variable included): which iteration's value would that be?  Both are
 *     reported as errors (Numba fails or returns an arbitrary thread's value there).
 * A body with `break` or `return` makes the loop serial, as Numba does.  A prange inside the
 * body (nested, or in an inner loop) is a serial range; so is any prange on the GPU, in a
 * function without parallel=True, or in a ufunc.
 *
 * The body function, `<mangled>$parforN(lo, hi, start, step, live-ins...)`, runs the iteration
 * numbers k in [lo, hi) with i = start + k * step, in order, and returns its reductions as a
 * tuple.  Its variables are the function's, retyped in the new IrFunc; everything else about
 * it (error model, bounds checks, references) is that of an ordinary compiled function, so a
 * raise inside it is a raise site of the program like any other.
 */
#include "typer_internal.h"

#include <stdint.h>
#include <string.h>

/* ---- names in the AST ------------------------------------------------------------------------ */
static bool mentions(const Node *n, const char *v);

static bool mentions_list(const NodeList *l, const char *v) {
    for (int i = 0; i < l->n; i++)
        if (mentions(l->items[i], v))
            return true;
    return false;
}

/* Whether v occurs as a name anywhere in n (read or assigned). */
static bool mentions(const Node *n, const char *v) {
    if (!n)
        return false;
    if (n->kind == ND_NAME)
        return !strcmp(n->name, v);
    return mentions(n->a, v) || mentions(n->b, v) || mentions(n->c, v) ||
           mentions_list(&n->list, v) || mentions_list(&n->list2, v);
}

static bool reads(const Node *n, const char *v, const Node *skip);

static bool reads_list(const NodeList *l, const char *v, const Node *skip) {
    for (int i = 0; i < l->n; i++)
        if (reads(l->items[i], v, skip))
            return true;
    return false;
}

/* What an assignment target reads: nothing for a name, the array and indices of a subscript. */
static bool target_reads(const Node *t, const char *v) {
    if (t->kind == ND_NAME)
        return false;
    if (t->kind == ND_TUPLE) {
        for (int i = 0; i < t->list.n; i++)
            if (target_reads(t->list.items[i], v))
                return true;
        return false;
    }
    return mentions(t, v);
}

/* Whether n reads v (assignment targets that are plain names do not), outside the subtree
 * skip. */
static bool reads(const Node *n, const char *v, const Node *skip) {
    if (!n || n == skip)
        return false;
    switch (n->kind) {
    case ND_ASSIGN:
        for (int i = 0; i < n->list.n; i++)
            if (target_reads(n->list.items[i], v))
                return true;
        return reads(n->a, v, skip);
    case ND_AUGASSIGN:
        return mentions(n->a, v) || reads(n->b, v, skip);
    case ND_FOR:
        return target_reads(n->a, v) || reads(n->b, v, skip) || reads_list(&n->list, v, skip) ||
               reads_list(&n->list2, v, skip);
    case ND_NAME:
        return !strcmp(n->name, v);
    default:
        return reads(n->a, v, skip) || reads(n->b, v, skip) || reads(n->c, v, skip) ||
               reads_list(&n->list, v, skip) || reads_list(&n->list2, v, skip);
    }
}

/* Whether an assignment target assigns the name v (also inside a tuple target). */
static bool target_assigns(const Node *t, const char *v) {
    if (t->kind == ND_NAME)
        return !strcmp(t->name, v);
    if (t->kind == ND_TUPLE)
        for (int i = 0; i < t->list.n; i++)
            if (target_assigns(t->list.items[i], v))
                return true;
    return false;
}

/* Liveness on the AST: walking l from index `from`, is v read before it is surely assigned?
 * 1: read first; 0: assigned first on every path; -1: neither (control falls off the end, or
 * leaves by break/continue).  Branches and loop bodies that may not run never kill v. */
static int scan_live(const NodeList *l, int from, const char *v) {
    for (int i = from; i < l->n; i++) {
        const Node *s = l->items[i];
        switch (s->kind) {
        case ND_ASSIGN:
            if (reads(s, v, NULL))
                return 1;
            for (int k = 0; k < s->list.n; k++)
                if (target_assigns(s->list.items[k], v))
                    return 0;
            break;
        case ND_IF: {
            if (reads(s->a, v, NULL))
                return 1;
            int t = scan_live(&s->list, 0, v), e = scan_live(&s->list2, 0, v);
            if (t == 1 || e == 1)
                return 1;
            if (t == 0 && e == 0)
                return 0;
            break;
        }
        case ND_WHILE: /* the body may run (and read before it assigns), or not */
            if (reads(s->a, v, NULL) || scan_live(&s->list, 0, v) == 1 ||
                scan_live(&s->list2, 0, v) == 1)
                return 1;
            break;
        case ND_FOR: /* the body runs after the loop variable is assigned */
            if (target_reads(s->a, v) || reads(s->b, v, NULL) ||
                (!target_assigns(s->a, v) && scan_live(&s->list, 0, v) == 1) ||
                scan_live(&s->list2, 0, v) == 1)
                return 1;
            break;
        case ND_RETURN:
            return reads(s, v, NULL) ? 1 : 0; /* the function ends here */
        case ND_BREAK:
        case ND_CONTINUE:
            return -1;
        default:
            if (reads(s, v, NULL))
                return 1;
        }
    }
    return -1;
}

/* Where a statement is: the lists that hold it, from the function's body inwards. */
typedef struct PathStep {
    const NodeList *list;
    int index;
    const Node *owner; /* the statement whose body or else-part `list` is; NULL: the function */
} PathStep;
enum { PATH_MAX_DEPTH = 64 };

static bool find_path(const NodeList *l, const Node *owner, const Node *target, PathStep *path,
                      int *depth) {
    if (*depth == PATH_MAX_DEPTH)
        return false;
    for (int i = 0; i < l->n; i++) {
        const Node *s = l->items[i];
        path[*depth] = (PathStep){l, i, owner};
        (*depth)++;
        if (s == target)
            return true;
        if ((s->kind == ND_IF || s->kind == ND_WHILE || s->kind == ND_FOR) &&
            (find_path(&s->list, s, target, path, depth) ||
             find_path(&s->list2, s, target, path, depth)))
            return true;
        (*depth)--;
    }
    return false;
}

/* Whether v may be read after the loop statement `loop` of the function def (its else-part,
 * the statements after it, and, inside an enclosing loop, anything of that loop that runs
 * again).  When unsure, yes. */
static bool live_after(const Node *def, const Node *loop, const char *v) {
    int r = scan_live(&loop->list2, 0, v);
    if (r >= 0)
        return r == 1;
    PathStep path[PATH_MAX_DEPTH];
    int depth = 0;
    if (!find_path(&def->list, NULL, loop, path, &depth))
        return true;
    for (int level = depth - 1; level >= 0; level--) {
        r = scan_live(path[level].list, path[level].index + 1, v);
        if (r >= 0)
            return r == 1;
        const Node *owner = path[level].owner;
        if (!owner)
            return false; /* the end of the function */
        if ((owner->kind == ND_WHILE || owner->kind == ND_FOR) &&
            path[level].list == &owner->list && reads(owner, v, loop))
            return true; /* the enclosing loop's next iteration may read it */
    }
    return false;
}

/* ---- classifying the body's variables -------------------------------------------------------- */
typedef struct RedScan {
    int op;   /* ReduceOp seen so far, -1 before the first */
    bool bad; /* v is mentioned in a way that is no reduction */
} RedScan;

static void red_note(RedScan *r, int op) {
    if (r->op >= 0 && r->op != op)
        r->bad = true; /* one operator per variable */
    r->op = op;
}

/* `v = e` as a reduction: v + e, e + v, v - e, v * e, e * v, min(v, e), max(e, v) ...; -1 when
 * the value is none of those.  min and max must be the builtins (not a module function). */
static int red_form(Fn *fn, const Node *e, const char *v) {
    if (e->kind == ND_BINOP) {
        bool left = e->a->kind == ND_NAME && !strcmp(e->a->name, v) && !mentions(e->b, v);
        bool right = e->b->kind == ND_NAME && !strcmp(e->b->name, v) && !mentions(e->a, v);
        if (e->op == OP_ADD && (left || right))
            return REDUCE_ADD;
        if (e->op == OP_SUB && left)
            return REDUCE_ADD;
        if (e->op == OP_MUL && (left || right))
            return REDUCE_MUL;
        return -1;
    }
    if (e->kind == ND_CALL && e->a->kind == ND_NAME && e->list.n == 2 && !e->list2.n &&
        (!strcmp(e->a->name, "min") || !strcmp(e->a->name, "max")) &&
        !fe_find_func(fn->tc->m, e->a->name) && !ty_lookup_var(fn, e->a->name) &&
        !fe_resolve_import(fn->tc->m, e->a->name)) {
        const Node *x = e->list.items[0], *y = e->list.items[1];
        bool first = x->kind == ND_NAME && !strcmp(x->name, v) && !mentions(y, v);
        bool second = y->kind == ND_NAME && !strcmp(y->name, v) && !mentions(x, v);
        if (first || second)
            return e->a->name[1] == 'i' ? REDUCE_MIN : REDUCE_MAX;
    }
    return -1;
}

static void red_scan(Fn *fn, const NodeList *l, const char *v, RedScan *r) {
    for (int i = 0; i < l->n && !r->bad; i++) {
        const Node *s = l->items[i];
        if (!mentions(s, v))
            continue;
        switch (s->kind) {
        case ND_AUGASSIGN:
            if (s->a->kind == ND_NAME && !strcmp(s->a->name, v) && !mentions(s->b, v) &&
                (s->op == OP_ADD || s->op == OP_SUB || s->op == OP_MUL))
                red_note(r, s->op == OP_MUL ? REDUCE_MUL : REDUCE_ADD);
            else
                r->bad = true;
            break;
        case ND_ASSIGN: {
            int op = s->list.n == 1 && s->list.items[0]->kind == ND_NAME &&
                             !strcmp(s->list.items[0]->name, v)
                         ? red_form(fn, s->a, v)
                         : -1;
            if (op < 0)
                r->bad = true;
            else
                red_note(r, op);
            break;
        }
        case ND_IF:
        case ND_WHILE:
            if (mentions(s->a, v))
                r->bad = true;
            red_scan(fn, &s->list, v, r);
            red_scan(fn, &s->list2, v, r);
            break;
        case ND_FOR:
            if (mentions(s->a, v) || mentions(s->b, v))
                r->bad = true;
            red_scan(fn, &s->list, v, r);
            red_scan(fn, &s->list2, v, r);
            break;
        default:
            r->bad = true;
        }
    }
}

/* The names the body assigns (plain targets, augmented assignments, inner loops' variables). */
static void collect_assigned(const NodeList *l, const char **names, int *n, int cap, bool *full);

static void add_name(const char *v, const char **names, int *n, int cap, bool *full) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(names[i], v))
            return;
    if (*n == cap) {
        *full = true;
        return;
    }
    names[(*n)++] = v;
}

static void collect_target(const Node *t, const char **names, int *n, int cap, bool *full) {
    if (t->kind == ND_NAME)
        add_name(t->name, names, n, cap, full);
    else if (t->kind == ND_TUPLE)
        for (int i = 0; i < t->list.n; i++)
            collect_target(t->list.items[i], names, n, cap, full);
}

static void collect_assigned(const NodeList *l, const char **names, int *n, int cap, bool *full) {
    for (int i = 0; i < l->n; i++) {
        const Node *s = l->items[i];
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->list.n; k++)
                collect_target(s->list.items[k], names, n, cap, full);
            break;
        case ND_AUGASSIGN:
            collect_target(s->a, names, n, cap, full);
            break;
        case ND_FOR:
            collect_target(s->a, names, n, cap, full);
            /* fall through */
        case ND_IF:
        case ND_WHILE:
            collect_assigned(&s->list, names, n, cap, full);
            collect_assigned(&s->list2, names, n, cap, full);
            break;
        default:
            break;
        }
    }
}

/* Where the body first assigns v (the target's name): *out, and true; false when nowhere. */
static bool target_loc(const Node *t, const char *v, Loc *out) {
    if (t->kind == ND_NAME && !strcmp(t->name, v)) {
        *out = t->loc;
        return true;
    }
    if (t->kind == ND_TUPLE)
        for (int i = 0; i < t->list.n; i++)
            if (target_loc(t->list.items[i], v, out))
                return true;
    return false;
}

static bool assign_loc(const NodeList *l, const char *v, Loc *out) {
    for (int i = 0; i < l->n; i++) {
        const Node *s = l->items[i];
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->list.n; k++)
                if (target_loc(s->list.items[k], v, out))
                    return true;
            break;
        case ND_AUGASSIGN:
            if (target_loc(s->a, v, out))
                return true;
            break;
        case ND_FOR:
            if (target_loc(s->a, v, out))
                return true;
            /* fall through */
        case ND_IF:
        case ND_WHILE:
            if (assign_loc(&s->list, v, out) || assign_loc(&s->list2, v, out))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

/* A break of this loop (not of an inner one) or a return anywhere in the body. */
static bool leaves_loop(const NodeList *l, bool inner) {
    for (int i = 0; i < l->n; i++) {
        const Node *s = l->items[i];
        if (s->kind == ND_RETURN || (s->kind == ND_BREAK && !inner))
            return true;
        bool loop = s->kind == ND_WHILE || s->kind == ND_FOR;
        if ((s->kind == ND_IF || loop) &&
            (leaves_loop(&s->list, inner || loop) || leaves_loop(&s->list2, inner)))
            return true;
    }
    return false;
}

/* ---- the body function ----------------------------------------------------------------------- */
enum { PARFOR_MAXNAMES = 256 };

typedef struct Parfor {
    Node *s;
    const Type *ct;                      /* the loop counter's type: int64 or uint64 */
    TyVar *live[PARFOR_MAXNAMES];        /* live-ins, in the function's variable order */
    int nlive;
    TyVar *red[IR_PARFOR_MAXRED];        /* reductions */
    uint8_t ops[IR_PARFOR_MAXRED];
    int nred;
} Parfor;

/* The operator's identity, of the reduction's type t. */
static IrInst *identity(Fn *fn, const Type *t, int op, Loc loc) {
    if (ty_is_float(t)) {
        double x = op == REDUCE_ADD ? 0.0 : op == REDUCE_MUL ? 1.0
                   : op == REDUCE_MIN ? __builtin_inf() : -__builtin_inf();
        return ty_const_float(fn, t, x, loc);
    }
    int64_t x;
    int bits = ty_bits(t);
    if (op == REDUCE_ADD)
        x = 0;
    else if (op == REDUCE_MUL)
        x = 1;
    else if (t == ty_bool)
        x = op == REDUCE_MIN;
    else if (ty_is_signed(t))
        x = op == REDUCE_MIN ? (int64_t)(UINT64_MAX >> (65 - bits))
                             : -(int64_t)(UINT64_MAX >> (65 - bits)) - 1;
    else
        x = op == REDUCE_MIN ? (int64_t)(UINT64_MAX >> (64 - bits)) : 0;
    return ty_const_int(fn, t, x, loc);
}

static IrInst *emit_op(Fn *fn, IrOp op, const Type *t, Loc loc, IrInst *a, IrInst *b) {
    IrInst *ops[2] = {a, b};
    return ty_emit(fn, op, t, loc, b ? 2 : 1, ops);
}

/* Builds `<mangled>$parforN(lo, hi, start, step, live-ins...) -> Tuple(reductions)`. */
static IrFunc *body_function(Fn *fn, Parfor *P) {
    Tc *tc = fn->tc;
    Node *s = P->s;
    Loc loc = s->loc;
    const Type *rt = ty_void;
    if (P->nred) {
        const Type *el[IR_PARFOR_MAXRED];
        for (int k = 0; k < P->nred; k++)
            el[k] = P->red[k]->type;
        rt = ty_tuple(el, P->nred);
    }
    IrFunc *g = ir_func_new(tc->p, fn->f->name, IRF_NJIT, 4 + P->nlive);
    g->mangled = arena_printf(tc->arena, "%s$parfor%d", fn->f->mangled, tc->p->nfuncs);
    g->loc = loc;
    g->ret = rt;
    g->error_model = fn->f->error_model;
    g->fastmath = fn->f->fastmath;
    g->fastmath_flags = fn->f->fastmath_flags;
    g->boundscheck = fn->f->boundscheck;
    static const char *const fixed[4] = {"$lo", "$hi", "$start", "$step"};
    const Type *fixed_t[4] = {ty_i64, ty_i64, P->ct, ty_i64};
    for (int k = 0; k < 4; k++)
        g->params[k] = fixed_t[k], g->param_names[k] = fixed[k];
    for (int k = 0; k < P->nlive; k++)
        g->params[4 + k] = P->live[k]->type, g->param_names[4 + k] = P->live[k]->name;

    /* the body is typed as the function's own code, with the function's variable types */
    Fn c = {.tc = tc, .fi = fn->fi, .f = g, .emit = true, .in_parfor = true, .ret = rt,
            .ret_declared = true, .ret_loc = loc};
    c.vars = arena_alloc(tc->arena, sizeof *c.vars * (size_t)(fn->nvars + 1));
    c.nvars = c.capvars = fn->nvars;
    for (int k = 0; k < fn->nvars; k++) {
        c.vars[k] = fn->vars[k];
        c.vars[k].irvar = -1;
        if (c.vars[k].type && mentions(s->a, c.vars[k].name)) /* the loop variable */
            c.vars[k].irvar = ir_var_new(g, c.vars[k].name, c.vars[k].type);
        else if (c.vars[k].type && mentions_list(&s->list, c.vars[k].name))
            c.vars[k].irvar = ir_var_new(g, c.vars[k].name, c.vars[k].type);
    }
    c.cur = ir_block_new(g);
    ty_mark_reach(&c, c.cur);
    IrInst *par[4];
    for (int k = 0; k < 4 + P->nlive; k++) {
        IrInst *pv = ty_emit(&c, IR_PARAM, g->params[k], loc, 0, NULL);
        if (pv)
            pv->imm.index = k;
        if (k < 4)
            par[k] = pv;
        else
            ty_store_var(&c, ty_lookup_var(&c, P->live[k - 4]->name)->irvar, pv, loc);
    }
    for (int k = 0; k < P->nred; k++)
        ty_store_var(&c, ty_lookup_var(&c, P->red[k]->name)->irvar,
                  identity(&c, P->red[k]->type, P->ops[k], loc), loc);
    int kv = ty_temp_var(&c, ty_i64);
    ty_store_var(&c, kv, par[0], loc);
    IrBlock *head = ty_block(&c), *body = ty_block(&c), *latch = ty_block(&c),
            *exit = ty_block(&c);
    ty_br(&c, head, loc);
    ty_set_block(&c, head);
    IrInst *k = ty_load_var(&c, kv, ty_i64, loc);
    IrInst *more = emit_op(&c, IR_CMP, ty_bool, loc, k, par[1]);
    if (more)
        more->imm.pred = CMP_LT;
    ty_condbr(&c, more, body, exit, loc);
    ty_set_block(&c, body);
    /* i = start + k * step, wrapping in the counter's type (uint64 too) */
    IrInst *off = emit_op(&c, IR_MUL, P->ct, loc, ty_cast(&c, k, ty_i64, P->ct, loc),
                          ty_cast(&c, par[3], ty_i64, P->ct, loc));
    Val iv = {.k = V_VAL, .t = P->ct, .v = emit_op(&c, IR_ADD, P->ct, loc, par[2], off)};
    ty_assign_name(&c, s->a->name, iv, s->a->loc);
    ty_loop_body(&c, &s->list, exit, latch, loc);
    ty_br(&c, latch, loc);
    ty_set_block(&c, latch);
    IrInst *k1 = emit_op(&c, IR_ADD, ty_i64, loc, ty_load_var(&c, kv, ty_i64, loc),
                         ty_const_int(&c, ty_i64, 1, loc));
    ty_store_var(&c, kv, k1, loc);
    ty_br(&c, head, loc);
    ty_set_block(&c, exit);
    if (P->nred) {
        IrInst *el[IR_PARFOR_MAXRED];
        for (int j = 0; j < P->nred; j++)
            el[j] = ty_load_var(&c, ty_lookup_var(&c, P->red[j]->name)->irvar, P->red[j]->type,
                                loc);
        IrInst *t = ty_emit(&c, IR_TUPLE, rt, loc, P->nred, el);
        if (t)
            ir_emit(g, c.cur, IR_RET, ty_void, loc, 1, &t);
    } else {
        ir_emit(g, c.cur, IR_RET, ty_void, loc, 0, NULL);
    }
    /* blocks left empty (after a continue, say) still need a terminator */
    for (int b = 0; b < g->nblocks; b++)
        if (!ir_block_terminated(g->blocks[b]))
            ir_emit(g, g->blocks[b], IR_RAISE, ty_void, loc, 0, NULL)->imm.index =
                ir_raise_site(tc->p, RAISE_VALUE, "unreachable", loc);
    return g;
}

/* ---- the loop -------------------------------------------------------------------------------- */
static const char *const red_hint =
    "a variable a prange loop updates must be a reduction: v += x, v -= x, v *= x, "
    "v = min(v, x) or v = max(v, x), with no other use of v in the loop";

/* Sorts the body's variables into P; false after an error. */
static bool classify(Fn *fn, Parfor *P) {
    Node *s = P->s, *def = fn->fi->def;
    const char *assigned[PARFOR_MAXNAMES];
    int nassigned = 0;
    bool full = false;
    collect_assigned(&s->list, assigned, &nassigned, PARFOR_MAXNAMES, &full);
    if (full) {
        ty_error(fn, s->loc, "this prange loop assigns more than %d variables", PARFOR_MAXNAMES);
        return false;
    }
    const char *iname = s->a->name;
    if (live_after(def, s, iname)) {
        ty_error(fn, s->a->loc, "the variable '%s' of this prange loop is read after the loop; "
                 "its value there is not defined when the iterations run in parallel", iname);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < nassigned; i++) {
        const char *v = assigned[i];
        TyVar *var = ty_lookup_var(fn, v);
        if (!strcmp(v, iname) || !var || !var->type)
            continue;
        RedScan r = {.op = -1};
        red_scan(fn, &s->list, v, &r);
        if (!r.bad && r.op >= 0) {
            bool cplx_ok = ty_is_complex(var->type) && (r.op == REDUCE_ADD || r.op == REDUCE_MUL);
            if (!ty_is_scalar(var->type) && !cplx_ok) {
                ty_error(fn, var->loc, "'%s' (%s) is a reduction of the prange loop at line %d; "
                         "numjit reduces only numbers in parallel", v, var->type->name,
                         s->loc.line);
                ok = false;
            } else if (P->nred == IR_PARFOR_MAXRED) {
                ty_error(fn, s->loc, "this prange loop has more than %d reductions",
                         IR_PARFOR_MAXRED);
                ok = false;
            } else {
                P->ops[P->nred] = (uint8_t)r.op;
                P->red[P->nred++] = var;
            }
            continue;
        }
        Loc at = s->loc;
        assign_loc(&s->list, v, &at);
        if (scan_live(&s->list, 0, v) == 1) {
            ty_error(fn, at, "'%s' carries a value from one iteration of this prange loop to "
                     "the next; %s", v, red_hint);
            ok = false;
        } else if (live_after(def, s, v)) {
            ty_error(fn, at, "'%s' is assigned in this prange loop and read after it; which "
                     "iteration's value it has is not defined when the iterations run in "
                     "parallel (%s)", v, red_hint);
            ok = false;
        }
    }
    if (!ok)
        return false;
    for (int k = 0; k < fn->nvars; k++) {
        TyVar *var = &fn->vars[k];
        bool mine = !strcmp(var->name, iname);
        for (int i = 0; i < nassigned && !mine; i++)
            mine = !strcmp(assigned[i], var->name);
        if (mine || !var->type || var->irvar < 0 || !reads_list(&s->list, var->name, NULL))
            continue;
        if (P->nlive == PARFOR_MAXNAMES) {
            ty_error(fn, s->loc, "this prange loop reads more than %d variables", PARFOR_MAXNAMES);
            return false;
        }
        P->live[P->nlive++] = var;
    }
    return true;
}

bool ty_parfor(Fn *fn, Node *s, Val it) {
    Tc *tc = fn->tc;
    if (!fn->emit || !fn->cur || !fn->fi->parallel || fn->in_parfor ||
        tc->target != TARGET_CPU || fn->f->kind != IRF_NJIT || s->a->kind != ND_NAME ||
        leaves_loop(&s->list, false))
        return false;
    Loc loc = s->loc;
    Parfor P = {.s = s};
    P.ct = it.rt[0] == ty_u64 && it.rt[1] == ty_u64 ? ty_u64 : ty_i64;
    IrInst *start = ty_cast(fn, it.r[0], it.rt[0], P.ct, loc);
    IrInst *stop = ty_cast(fn, it.r[1], it.rt[1], P.ct, loc);
    IrInst *step = ty_cast(fn, it.r[2], it.rt[2], ty_i64, loc);
    if (!start || !stop || !step)
        return true;
    if (step->op == IR_CONST && step->imm.i == 0) {
        ty_error(fn, s->b->loc, "range() arg 3 must not be zero");
        return true;
    }
    if (!classify(fn, &P))
        return true;
    if (step->op != IR_CONST) { /* a zero step raises ValueError, as range() */
        IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
        IrInst *zero = emit_op(fn, IR_CMP, ty_bool, loc, step, ty_const_int(fn, ty_i64, 0, loc));
        if (zero)
            zero->imm.pred = CMP_EQ;
        ty_condbr(fn, zero, bad, ok, loc);
        ty_set_block(fn, bad);
        ty_raise(fn, RAISE_VALUE, "range() arg 3 must not be zero", s->b->loc);
        ty_set_block(fn, ok);
    }
    int errors = tc->diags->nerrors;
    IrFunc *g = body_function(fn, &P);
    if (tc->diags->nerrors > errors)
        return true;
    IrInst *args[3 + PARFOR_MAXNAMES + IR_PARFOR_MAXRED];
    int n = 0;
    args[n++] = start, args[n++] = stop, args[n++] = step;
    for (int k = 0; k < P.nlive; k++)
        args[n++] = ty_load_var(fn, P.live[k]->irvar, P.live[k]->type, loc);
    for (int k = 0; k < P.nred; k++)
        args[n++] = ty_load_var(fn, P.red[k]->irvar, P.red[k]->type, loc);
    IrInst *pf = ty_emit(fn, IR_PARFOR, g->ret, loc, n, args);
    if (!pf)
        return true;
    pf->imm.par.body = g;
    pf->imm.par.nred = P.nred;
    memcpy(pf->imm.par.ops, P.ops, (size_t)P.nred);
    for (int k = 0; k < P.nred; k++) {
        IrInst *x = ty_emit(fn, IR_EXTRACT, P.red[k]->type, loc, 1, &pf);
        if (x)
            x->imm.index = k;
        ty_store_var(fn, P.red[k]->irvar, x, loc);
    }
    ty_stmts(fn, &s->list2); /* for ... else: no break, so the else-part always runs */
    return true;
}

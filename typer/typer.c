/* typer.c — from a function's AST and concrete argument types to typed IR: variables and the
 * statements.  The driver (specialize, recursion) is in typer_spec.c, the emission helpers in
 * typer_emit.c, expressions in typer_expr.c.
 *
 * specialize(f, argtypes):
 *   1. inference rounds: walk the body with emit = false, unifying each variable's type with
 *      every value assigned to it (and the return type with every returned value), until a
 *      round changes nothing (a loop that widens an int to a float needs two rounds);
 *   2. one emission round: every variable becomes an IrVar of its final type, every statement
 *      becomes blocks of typed instructions with explicit casts.
 * A call to another function of the module specializes it on the spot (memoized per program
 * by mangled name); a call of a function still being typed is recursion ("recursion" below).
 *
 * Control flow: each construct creates its blocks up front and marks a block reachable when a
 * branch to it is emitted, so code after `return`/`break` lands in an unreachable block and a
 * function whose end is reachable without a return value is reported.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- variables ------------------------------------------------------------------------------ */
/* Variables are found through a hash index of their names, kept up to date lazily: a linear
 * search per name made typing quadratic in the variables of a function (a function of 1,600
 * loops and 1,600 sums took seconds in strcmp).  The index answers what the search did, the
 * first variable of that name, and is rebuilt whenever vars was reallocated or another Fn's
 * (a copy) index is seen. */
static size_t var_hash(const char *name) {
    return (size_t)nj_hash_bytes(name, strlen(name), 0x5bd1e995u);
}

static void vidx_enter(Fn *fn, int i) {
    size_t mask = (size_t)fn->capvidx - 1;
    for (size_t h = var_hash(fn->vars[i].name) & mask;; h = (h + 1) & mask) {
        int at = fn->vidx[h];
        if (!at) {
            fn->vidx[h] = i + 1;
            return;
        }
        if (!strcmp(fn->vars[at - 1].name, fn->vars[i].name))
            return; /* the first of that name stays */
    }
}

static void vidx_sync(Fn *fn) {
    if (fn->vidx_of != fn->vars || fn->vidx_fn != fn || 2 * fn->nvars > fn->capvidx ||
        fn->nvidx > fn->nvars) {
        int cap = 64;
        while (cap < 4 * fn->nvars)
            cap *= 2;
        fn->vidx = arena_alloc(fn->tc->arena, sizeof *fn->vidx * (size_t)cap);
        fn->capvidx = cap;
        fn->nvidx = 0;
        fn->vidx_of = fn->vars;
        fn->vidx_fn = fn;
    }
    for (; fn->nvidx < fn->nvars; fn->nvidx++)
        vidx_enter(fn, fn->nvidx);
}

TyVar *ty_lookup_var(Fn *fn, const char *name) {
    name = ty_renamed(fn, name);
    if (fn->nvars < 8) { /* most functions: a short search costs less than the index */
        for (int i = 0; i < fn->nvars; i++)
            if (!strcmp(fn->vars[i].name, name))
                return &fn->vars[i];
        return NULL;
    }
    vidx_sync(fn);
    size_t mask = (size_t)fn->capvidx - 1;
    for (size_t h = var_hash(name) & mask; fn->vidx[h]; h = (h + 1) & mask)
        if (!strcmp(fn->vars[fn->vidx[h] - 1].name, name))
            return &fn->vars[fn->vidx[h] - 1];
    return NULL;
}

static TyVar *add_var(Fn *fn, const char *name, Loc loc) {
    if (fn->nvars == fn->capvars) {
        int cap = fn->capvars ? fn->capvars * 2 : 16;
        TyVar *v = arena_alloc(fn->tc->arena, sizeof *v * (size_t)cap);
        if (fn->nvars)
            memcpy(v, fn->vars, sizeof *v * (size_t)fn->nvars);
        fn->vars = v;
        fn->capvars = cap;
    }
    TyVar *v = &fn->vars[fn->nvars++];
    memset(v, 0, sizeof *v);
    v->name = ty_renamed(fn, name);
    v->loc = loc;
    v->irvar = -1;
    return v;
}

int ty_temp_var(Fn *fn, const Type *t) {
    char name[32];
    snprintf(name, sizeof name, "$t%d", fn->ntemps++);
    return ir_var_new(fn->f, name, t);
}

static void class_conflict(Fn *fn, const char *name, const char *cls, const char *other,
                           Loc loc) {
    ty_error(fn, loc, "'%s' names the class %s elsewhere in this function and cannot also "
             "hold %s (a name bound to a class keeps that class)", name, cls, other);
}

/* T = type(x), T = np.float32: the name denotes that scalar class wherever the function
 * reads it, as Numba types such a variable (a NumberClass, a compile-time type).  Nothing is
 * stored; the name is only looked up (ty_resolve_name). */
static void bind_class(Fn *fn, Node *target, const Type *cls) {
    TyVar *var = ty_lookup_var(fn, target->name);
    if (fn->emit || (var && var->cls == cls))
        return;
    if (!var)
        var = add_var(fn, target->name, target->loc);
    if (var->type || var->cls) {
        class_conflict(fn, target->name, var->cls ? var->cls->name : cls->name,
                       var->cls ? cls->name : var->type->name, target->loc);
        return;
    }
    var->cls = cls;
    fn->changed = true;
}

/* A range kept in a variable (`rng = range(n - 1, -1, -1) if reverse else range(n)`, as
 * Numba's range_state64 values): `name` is typed range (a variable the lowering leaves out)
 * and its start, stop and step live in the hidden variables name$r0..name$r2, from which
 * ty_resolve_name makes the range again where the name is read (a for loop's iterable). */
void ty_assign_range(Fn *fn, const char *name, Val v, Loc loc) {
    TyVar *var = ty_lookup_var(fn, name);
    if (!fn->emit) {
        if (!var)
            var = add_var(fn, name, loc);
        if (!var->type) {
            var->type = ty_range;
            fn->changed = true;
        } else if (var->type != ty_range && !var->bad) {
            var->bad = ty_range;
            var->bad_loc = loc;
        }
    } else if (var && var->bad && var->bad_loc.line == loc.line &&
               var->bad_loc.col == loc.col) {
        ty_error(fn, loc, "variable '%s' cannot be both %s (assigned at line %d) and range: a "
                 "variable has one type in a function", name, var->type->name, var->loc.line);
        return;
    }
    for (int k = 0; k < 3; k++)
        ty_assign_name(fn, arena_printf(fn->tc->arena, "%s$r%d", name, k),
                       vval(v.rt[k], v.r[k]), loc);
}

/* Assigns a value of type t to variable `name`: unify while inferring, cast+store when
 * emitting. */
void ty_assign_name(Fn *fn, const char *name, Val v, Loc loc) {
    if (v.k != V_VAL)
        return;
    TyVar *var = ty_lookup_var(fn, name);
    if (!fn->emit) {
        if (!var)
            var = add_var(fn, name, loc);
        if (var->cls) {
            class_conflict(fn, name, var->cls->name, v.t->name, loc);
            return;
        }
        if (!var->type) {
            var->type = v.t;
            fn->changed = true;
            return;
        }
        const Type *u = ty_unify(var->type, v.t);
        if (!u) {
            if (!var->bad) {
                var->bad = v.t;
                var->bad_loc = loc;
            }
            return;
        }
        if (u != var->type) {
            var->type = u;
            fn->changed = true;
        }
        return;
    }
    if (!var || var->irvar < 0)
        return;
    if (var->bad && var->bad_loc.line == loc.line && var->bad_loc.col == loc.col) {
        if (var->bad_said)
            return;
        var->bad_said = true;
        ty_error(fn, loc,
                 "variable '%.*s' cannot be both %s (assigned at line %d) and %s: a variable "
                 "has one type in a function",
                 ty_version_len(name), name, var->type->name, var->loc.line, v.t->name);
        return;
    }
    IrInst *x = ty_cast(fn, v.v, v.t, var->type, loc);
    ty_store_var(fn, var->irvar, x, loc);
}

/* ---- statements ----------------------------------------------------------------------------- */
static void assign_target(Fn *fn, Node *target, Val v, Loc loc);

/* The int64 indices of the element target (arr[i, j], as many as arr has dimensions) into
 * args[1..], each evaluated once and bounds-checked when the function asks for it. */
static bool element_indices(Fn *fn, Node *target, Val arr, IrInst **args) {
    Node *ix = target->b;
    int nidx = ix->kind == ND_TUPLE ? ix->list.n : 1;
    const Type *its[TY_MAX_NDIM + 1] = {NULL};
    for (int k = 0; k < nidx; k++) {
        Node *e = ix->kind == ND_TUPLE ? ix->list.items[k] : ix;
        Val iv = ty_value(fn, e);
        if (iv.k != V_VAL)
            return false;
        if (!ty_is_int(iv.t) && iv.t != ty_bool) {
            ty_error(fn, e->loc, "array index must be an integer, not %s", iv.t->name);
            return false;
        }
        args[1 + k] = ty_cast(fn, iv.v, iv.t, ty_i64, e->loc);
        if (k <= TY_MAX_NDIM)
            its[k] = iv.t;
    }
    for (int k = 0; k < nidx; k++)
        args[1 + k] = ty_bounds_check(fn, arr.v, args[1 + k], k <= TY_MAX_NDIM ? its[k] : NULL,
                                      k, target->loc);
    return true;
}

static void assign_subscript(Fn *fn, Node *target, Val v, Loc loc) {
    if (target->a->kind == ND_ATTR && !strcmp(target->a->name, "flat")) { /* typer_iter.c */
        ty_flat_set(fn, target, v, loc);
        return;
    }
    if (ty_record_store(fn, target, v, loc)) /* r['x'] = v: typer_record.c */
        return;
    Val arr = ty_value(fn, target->a);
    if (arr.k != V_VAL || v.k != V_VAL)
        return;
    if (arr.t->kind == TY_LIST) { /* typer_list.c */
        ty_list_set(fn, arr, target->b, v, target->loc);
        return;
    }
    if (arr.t->kind == TY_DICT) { /* typer_dict.c */
        ty_dict_set(fn, arr, target, v, target->loc);
        return;
    }
    if (arr.t->kind != TY_ARRAY) {
        ty_error(fn, target->loc, "cannot assign to an item of %s", arr.t->name);
        return;
    }
    if (arr.t->readonly) {
        ty_error(fn, target->loc, "cannot assign to a read-only array (%s)", arr.t->name);
        return;
    }
    Node *ix = ty_index_expand(fn, arr.t, target->b); /* a[..., i]: typer_ellipsis.c */
    if (!ix)
        return;
    int nidx = ix->kind == ND_TUPLE ? ix->list.n : 1;
    if (ty_tuple_index_set(fn, arr, ix, v, target->loc)) /* a[t] = v, t a tuple: typer_tuple.c */
        return;
    if (ty_index_is_advanced(fn, arr.t, ix)) { /* a[mask] = v, a[idx] = v: typer_index.c */
        ty_index_set(fn, arr, ix, v, loc);
        return;
    }
    if (nidx <= arr.t->ndim && ty_array_has_slice(arr.t, ix)) { /* a view: fill or copy */
        ty_array_assign(fn, arr, ix, v, loc);
        return;
    }
    if (nidx != arr.t->ndim) {
        ty_error(fn, ix->loc, "%s needs %d indices to assign an element, got %d", arr.t->name,
                 arr.t->ndim, nidx);
        return;
    }
    bool whole = v.t->kind == TY_RECORD && v.t == arr.t->dtype; /* a[i] = b[j]: copied */
    if (!whole && (!ty_is_elem(v.t) || (ty_is_complex(v.t) && !ty_is_complex(arr.t->dtype)))) {
        ty_error(fn, loc, "cannot store %s into an element of %s", v.t->name, arr.t->name);
        return;
    }
    IrInst *args[10];
    args[0] = arr.v;
    if (!element_indices(fn, target, arr, args))
        return;
    args[1 + nidx] = ty_cast(fn, v.v, v.t, arr.t->dtype, loc);
    if (fn->emit)
        ty_emit(fn, IR_ASTORE, ty_void, target->loc, nidx + 2, args);
}

static void assign_target(Fn *fn, Node *target, Val v, Loc loc) {
    switch (target->kind) {
    case ND_NAME:
        ty_assign_name(fn, target->name, v, target->loc);
        return;
    case ND_SUBSCRIPT:
        assign_subscript(fn, target, v, loc);
        return;
    case ND_ATTR:
        if (ty_record_store(fn, target, v, loc)) /* r.x = v: typer_record.c */
            return;
        ty_error(fn, target->loc, "cannot assign to attribute '%s' here", target->name);
        return;
    case ND_TUPLE:
        if (v.k != V_VAL)
            return;
        if (v.t->kind == TY_ARRAY) { /* x, y = arr: typer_tuple.c */
            ty_array_unpack(fn, target, v, loc);
            return;
        }
        if (v.t->kind != TY_TUPLE || v.t->nelems != target->list.n) {
            ty_error(fn, target->loc, "cannot unpack %s into %d names", v.t->name,
                     target->list.n);
            return;
        }
        for (int i = 0; i < target->list.n; i++) {
            Val el = {.k = V_VAL, .t = v.t->elems[i]};
            if (fn->emit) {
                el.v = ty_emit(fn, IR_EXTRACT, el.t, target->loc, 1, &v.v);
                if (el.v)
                    el.v->imm.index = i;
            }
            assign_target(fn, target->list.items[i], el, loc);
        }
        return;
    default:
        ty_error(fn, target->loc, "cannot assign to this expression");
    }
}

/* a, b = b, a with values a tuple cannot hold (arrays): every right-hand value is taken
 * first, then each target assigned. */
static bool assign_parallel(Fn *fn, Node *s) {
    Node *rhs = s->a;
    if (rhs->kind != ND_TUPLE || s->list.n != 1 || s->list.items[0]->kind != ND_TUPLE ||
        s->list.items[0]->list.n != rhs->list.n || rhs->list.n > 16)
        return false;
    Val vals[16];
    bool arrays = false;
    for (int i = 0; i < rhs->list.n; i++) {
        vals[i] = ty_keep(fn, ty_value(fn, rhs->list.items[i]), rhs->list.items[i]->loc);
        if (vals[i].k != V_VAL)
            return true;
        arrays |= !ty_is_scalar(vals[i].t);
    }
    if (!arrays) /* scalars: the ordinary tuple path gives the same result */
        return false;
    Node *targets = s->list.items[0];
    for (int i = 0; i < rhs->list.n; i++)
        assign_target(fn, targets->list.items[i], vals[i], rhs->list.items[i]->loc);
    return true;
}

static void stmt_assign(Fn *fn, Node *s) {
    bool emit = fn->emit;
    fn->emit = false; /* peek: does the right side hold arrays? */
    bool parallel = false;
    if (s->a->kind == ND_TUPLE && s->list.n == 1 && s->list.items[0]->kind == ND_TUPLE) {
        for (int i = 0; i < s->a->list.n; i++) {
            Val v = ty_expr(fn, s->a->list.items[i]);
            parallel |= v.k == V_VAL && !ty_is_scalar(v.t);
        }
    }
    fn->emit = emit;
    if (parallel && assign_parallel(fn, s))
        return;
    /* a[:] = b + c: the loop writes into a's memory */
    if (ty_arrexpr_assign(fn, s))
        return;
    /* a, b = b, a: evaluate the whole right side before assigning */
    Val v = ty_expr(fn, s->a);
    if (v.k == V_TYPE && s->list.n == 1 && s->list.items[0]->kind == ND_NAME) {
        bind_class(fn, s->list.items[0], v.t);
        return;
    }
    if (v.k == V_FUNC && !ty_is_closure(fn, v.fn)) /* g = f: a first-class function value */
        v = ty_value(fn, s->a);
    if (v.k == V_RANGE && v.idx == 0 && s->list.n == 1 && s->list.items[0]->kind == ND_NAME) {
        ty_assign_range(fn, s->list.items[0]->name, v, s->a->loc); /* r = range(n) */
        return;
    }
    if (v.k != V_VAL) {
        if (v.k != V_ERR)
            ty_error(fn, s->a->loc, "this is not a value that can be assigned");
        /* still register plain targets, so their uses are not also reported as undefined */
        for (int i = 0; i < s->list.n; i++) {
            Node *t = s->list.items[i];
            if (!fn->emit && t->kind == ND_NAME && !ty_lookup_var(fn, t->name))
                add_var(fn, t->name, t->loc);
        }
        return;
    }
    /* several targets, or a tuple of them: the first assignments must not free the value */
    if (s->list.n > 1 || s->list.items[0]->kind != ND_NAME)
        v = ty_keep(fn, v, s->a->loc);
    for (int i = 0; i < s->list.n; i++)
        assign_target(fn, s->list.items[i], v, s->a->loc);
}

/* s is `arr[i, ...] op= v` on an element: done here (true), or left to the general path,
 * which reports what is wrong (false: not an array, a view, another number of indices). */
static bool augassign_element(Fn *fn, Node *s) {
    Node *t = s->a, *ix = t->b;
    bool emit = fn->emit;
    fn->emit = false; /* look at the array's type without emitting it */
    Val arr = ty_value(fn, t->a);
    fn->emit = emit;
    if (arr.k == V_VAL && !(ix = ty_index_expand(fn, arr.t, ix)))
        return true;
    int nidx = ix->kind == ND_TUPLE ? ix->list.n : 1;
    if (arr.k != V_VAL || arr.t->kind != TY_ARRAY || arr.t->readonly || nidx != arr.t->ndim ||
        nidx > 8 || ty_array_has_slice(arr.t, ix))
        return false;
    arr = ty_value(fn, t->a);
    IrInst *args[10];
    args[0] = arr.v;
    if (arr.k != V_VAL || !element_indices(fn, t, arr, args))
        return true;
    Val cur = {.k = V_VAL, .t = arr.t->dtype};
    cur.v = ty_emit(fn, IR_ALOAD, arr.t->dtype, t->loc, nidx + 1, args);
    Val rhs = ty_value(fn, s->b);
    if (rhs.k != V_VAL)
        return true;
    Val r = ty_binop(fn, s->op, cur, rhs, s->loc);
    if (r.k != V_VAL)
        return true;
    if (!ty_is_elem(r.t) || (ty_is_complex(r.t) && !ty_is_complex(arr.t->dtype))) {
        ty_error(fn, s->loc, "cannot store %s into an element of %s", r.t->name, arr.t->name);
        return true;
    }
    args[1 + nidx] = ty_cast(fn, r.v, r.t, arr.t->dtype, s->loc);
    ty_emit(fn, IR_ASTORE, ty_void, t->loc, nidx + 2, args);
    return true;
}

static void stmt_augassign(Fn *fn, Node *s) {
    Node *t = s->a;
    bool field = ty_record_target(fn, t); /* r.x += v: r.x = r.x + v (typer_record.c) */
    if (t->kind != ND_NAME && t->kind != ND_SUBSCRIPT && !field) {
        ty_error(fn, t->loc, "cannot use an augmented assignment on this expression");
        return;
    }
    /* a[mask] op= v reads a new array: it is a[mask] = a[mask] op v (typer_index.c) */
    bool adv = false;
    if (t->kind == ND_SUBSCRIPT && !field) {
        bool emit = fn->emit;
        fn->emit = false;
        Val arr = ty_expr(fn, t->a);
        fn->emit = emit;
        Node *ix = arr.k == V_VAL ? ty_index_expand(fn, arr.t, t->b) : NULL;
        adv = ix && ty_index_is_advanced(fn, arr.t, ix);
    }
    if (!adv && !field && ty_arrexpr_augassign(fn, s)) /* an array: in place (typer_arrexpr.c) */
        return;
    /* a[i, j] op= v: the array and the indices are evaluated once (an index may draw a
     * random number), then the element is loaded, combined and stored */
    if (!adv && !field && t->kind == ND_SUBSCRIPT && augassign_element(fn, s))
        return;
    if (adv) { /* the operator on arrays needs its node (typer_arrexpr.c) */
        Node *e = ast_new(fn->tc->arena, ND_BINOP, s->loc);
        e->op = s->op, e->a = t, e->b = s->b;
        Val r = ty_value(fn, e);
        if (r.k == V_VAL)
            assign_target(fn, t, r, s->loc);
        return;
    }
    /* x op= v  is  x = x op v (a view's subexpressions are evaluated twice) */
    Val cur = ty_expr(fn, t);
    Val rhs = ty_value(fn, s->b);
    if (cur.k != V_VAL || rhs.k != V_VAL)
        return;
    Val r = ty_binop(fn, s->op, cur, rhs, s->loc);
    assign_target(fn, t, r, s->loc);
}

static void stmt_if(Fn *fn, Node *s) {
    int known = ty_static_truth(fn, s->a); /* `if y is None:` on a type that says: one branch */
    if (known >= 0) {
        ty_stmts(fn, known ? &s->list : &s->list2);
        return;
    }
    IrInst *c = ty_truth(fn, ty_value(fn, s->a), s->a->loc);
    IrBlock *then = ty_block(fn), *els = s->list2.n ? ty_block(fn) : NULL, *join = ty_block(fn);
    ty_condbr(fn, c, then, els ? els : join, s->loc);
    ty_set_block(fn, then);
    ty_stmts(fn, &s->list);
    ty_br(fn, join, s->loc);
    if (s->list2.n) {
        ty_set_block(fn, els);
        ty_stmts(fn, &s->list2);
        ty_br(fn, join, s->loc);
    }
    ty_set_block(fn, join);
}

static void loop_body(Fn *fn, NodeList *body, IrBlock *brk, IrBlock *cont, Loc loc) {
    if (fn->nloops == 64) {
        ty_error(fn, loc, "loops are nested too deeply");
        return;
    }
    fn->brk[fn->nloops] = brk;
    fn->cont[fn->nloops] = cont;
    fn->nloops++;
    ty_stmts(fn, body);
    fn->nloops--;
}

/* A loop's `else:` (list2) runs when its test fails, never after a `break`: the test's false
 * edge goes to the else block, which falls through to the exit that `break` jumps to. */
static IrBlock *loop_else_block(Fn *fn, Node *s, IrBlock *exit) {
    return s->list2.n ? ty_block(fn) : exit;
}

static void loop_else(Fn *fn, Node *s, IrBlock *orelse, IrBlock *exit) {
    if (orelse == exit)
        return;
    ty_set_block(fn, orelse);
    ty_stmts(fn, &s->list2);
    ty_br(fn, exit, s->loc);
}

static void stmt_while(Fn *fn, Node *s) {
    IrBlock *head = ty_block(fn), *body = ty_block(fn), *exit = ty_block(fn);
    IrBlock *orelse = loop_else_block(fn, s, exit);
    ty_br(fn, head, s->loc);
    ty_set_block(fn, head);
    IrInst *c = ty_truth(fn, ty_value(fn, s->a), s->a->loc);
    ty_condbr(fn, c, body, orelse, s->loc);
    ty_set_block(fn, body);
    loop_body(fn, &s->list, exit, head, s->loc);
    ty_br(fn, head, s->loc);
    loop_else(fn, s, orelse, exit);
    ty_set_block(fn, exit);
}

/* enumerate(x[, start]) as a for loop's iterable: *iter becomes x, *start the start (or NULL).
 * False when the iterable is not a call of enumerate. */
static bool enumerate_of(Fn *fn, Node *s, Node **iter, Node **start, bool *bad) {
    Node *c = s->b;
    *bad = false;
    if (c->kind != ND_CALL || c->a->kind != ND_NAME)
        return false;
    bool emit = fn->emit;
    fn->emit = false;
    Val callee = ty_expr(fn, c->a);
    fn->emit = emit;
    if (callee.k != V_BUILTIN || strcmp(callee.name, "enumerate"))
        return false;
    if (c->list.n < 1 || c->list.n > 2 || c->list2.n) {
        ty_error(fn, c->loc, "numjit supports enumerate(iterable) and enumerate(iterable, start)");
        *bad = true;
    } else if (s->a->kind != ND_TUPLE || s->a->list.n != 2) {
        ty_error(fn, s->a->loc, "numjit needs two names to loop over enumerate(): for i, x in "
                 "enumerate(...)");
        *bad = true;
    }
    *iter = c->list.n ? c->list.items[0] : c;
    *start = c->list.n == 2 ? c->list.items[1] : NULL;
    return true;
}

/* len(range(start, stop, step)) as uint64, never overflowing (base/checked.c's nj_range_len,
 * written in IR): the unsigned distance between the bounds, less one, divided by the step's
 * magnitude, plus one; 0 when the range is empty.  sign: the step's sign when it is a constant,
 * else 0 (both cases built, chosen at run time).  ct: int64, or uint64 for uint64 bounds. */
static IrInst *range_len(Fn *fn, const Type *ct, IrInst *start, IrInst *stop, IrInst *step,
                         int sign, Loc loc) {
    IrInst *zero = ty_const_int(fn, ty_u64, 0, loc), *one = ty_const_int(fn, ty_u64, 1, loc);
    IrInst *n[2] = {NULL, NULL}; /* [0]: step > 0, [1]: step < 0 */
    for (int k = 0; k < 2; k++) {
        if ((k == 0 && sign < 0) || (k == 1 && sign > 0))
            continue;
        IrInst *lo = k ? stop : start, *hi = k ? start : stop;
        IrInst *any = cmp(fn, CMP_LT, lo, hi, loc);
        IrInst *dist = ty_cast(fn, bin(fn, IR_SUB, ct, hi, lo, loc), ct, ty_u64, loc);
        IrInst *mag = ty_cast(fn, k ? ty_emit(fn, IR_NEG, ty_i64, loc, 1, &step) : step, ty_i64,
                              ty_u64, loc);
        IrInst *q = bin(fn, IR_FLOORDIV, ty_u64, bin(fn, IR_SUB, ty_u64, dist, one, loc), mag, loc);
        IrInst *ops[3] = {any, bin(fn, IR_ADD, ty_u64, q, one, loc), zero};
        n[k] = ty_emit(fn, IR_SELECT, ty_u64, loc, 3, ops);
    }
    if (n[0] && n[1]) {
        IrInst *ops[3] = {cmp(fn, CMP_GT, step, ty_const_int(fn, ty_i64, 0, loc), loc), n[0], n[1]};
        return ty_emit(fn, IR_SELECT, ty_u64, loc, 3, ops);
    }
    return n[0] ? n[0] : n[1];
}

IrInst *ty_range_len(Fn *fn, const Type *ct, IrInst *start, IrInst *stop, IrInst *step, int sign,
                     Loc loc) {
    return range_len(fn, ct, start, stop, step, sign, loc);
}

/* for i in range(start, stop, step):  a hidden counter k runs from 0 to the range's length
 * (range_len) and i = start + k * step, so no bound or step makes the counter overflow
 * (`range(0, 2**63-1, 2**62)` runs twice, as in Python).  A zero step raises ValueError.
 * `for x in a` walks the first dimension's indices: elements of a 1-d array, row views
 * (typer_array.c) of an n-d one.
 * `for i, x in enumerate(it[, start])` adds a counter from start. */
static void stmt_for(Fn *fn, Node *s) {
    if (ty_unroll_for(fn, s)) /* literal_unroll of a heterogeneous tuple: typer_unroll.c */
        return;
    if (ty_gen_for(fn, s)) /* for x in gen(...): the generator inlined (typer_gen.c) */
        return;
    if (ty_iter_for(fn, s)) /* a.flat, np.ndenumerate(a): typer_iter.c */
        return;
    if (ty_dict_for(fn, s)) /* for k in a dict, d.items(), ...: typer_dict.c */
        return;
    if (ty_set_for(fn, s)) /* for x in a set: typer_set.c */
        return;
    if (ty_list_for(fn, s)) /* for x in a list: typer_list.c */
        return;
    Loc loc = s->loc;
    Node *iter = s->b, *enum_start = NULL;
    bool bad_enum;
    bool is_enum = enumerate_of(fn, s, &iter, &enum_start, &bad_enum);
    if (bad_enum)
        return;
    int enumv = -1;
    IrInst *enum_first = NULL;
    if (is_enum && enum_start) {
        Val sv = ty_value(fn, enum_start);
        if (sv.k != V_VAL)
            return;
        if (!ty_is_int(sv.t) && sv.t != ty_bool) {
            ty_error(fn, enum_start->loc, "the start of enumerate() must be an integer, not %s",
                     sv.t->name);
            return;
        }
        enum_first = ty_cast(fn, sv.v, sv.t, ty_i64, enum_start->loc);
    }
    if (is_enum && fn->emit) {
        enumv = ty_temp_var(fn, ty_i64);
        if (!enum_first)
            enum_first = ty_const_int(fn, ty_i64, 0, loc);
        ty_store_var(fn, enumv, enum_first, loc);
    }
    Val it = ty_expr(fn, iter);
    if (it.k == V_ERR)
        return;
    if (it.k == V_RANGE && it.idx == 1 && !is_enum && ty_parfor(fn, s, it))
        return; /* a parallel loop (typer_parfor.c) */
    Val start, stop, step;
    bool over_array = false;
    Val arr = it;
    if (it.k == V_RANGE) {
        start = (Val){.k = V_VAL, .t = it.rt[0], .v = it.r[0]};
        stop = (Val){.k = V_VAL, .t = it.rt[1], .v = it.r[1]};
        step = (Val){.k = V_VAL, .t = it.rt[2], .v = it.r[2]};
    } else if (it.k == V_VAL && it.t->kind == TY_ARRAY && it.t->ndim >= 1) {
        over_array = true;
        start = (Val){.k = V_VAL, .t = ty_i64, .v = ty_const_int(fn, ty_i64, 0, loc)};
        stop = (Val){.k = V_VAL, .t = ty_i64};
        stop.v = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &arr.v);
        if (stop.v)
            stop.v->imm.index = 0;
        step = (Val){.k = V_VAL, .t = ty_i64, .v = ty_const_int(fn, ty_i64, 1, loc)};
    } else {
        ty_error(fn, iter->loc, "numjit can loop over range(...) or an array, not %s",
                 it.k == V_VAL ? it.t->name : "this");
        return;
    }
    /* the loop variable's type: int64, or uint64 when every bound is uint64 (Numba) */
    const Type *ct = (start.t == ty_u64 && stop.t == ty_u64) ? ty_u64 : ty_i64;
    IrInst *vstart = ty_cast(fn, start.v, start.t, ct, loc);
    IrInst *vstop = ty_cast(fn, stop.v, stop.t, ct, loc);
    IrInst *vstep = ty_cast(fn, step.v, step.t, ty_i64, loc);
    int sign = 0; /* known sign of the step */
    if (!fn->emit || (vstep && vstep->op == IR_CONST)) {
        int64_t k = vstep ? vstep->imm.i : 1;
        sign = k > 0 ? 1 : k < 0 ? -1 : 0;
        if (fn->emit && k == 0) {
            ty_error(fn, s->b->loc, "range() arg 3 must not be zero");
            return;
        }
    }
    int cnt = -1;
    IrInst *len = NULL;
    if (fn->emit) {
        if (!sign && vstep) {
            IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
            IrInst *z = ty_const_int(fn, ty_i64, 0, loc);
            IrInst *ops[2] = {vstep, z};
            IrInst *c = ty_emit(fn, IR_CMP, ty_bool, loc, 2, ops);
            if (c)
                c->imm.pred = CMP_EQ;
            ty_condbr(fn, c, bad, ok, loc);
            ty_set_block(fn, bad);
            ty_raise(fn, RAISE_VALUE, "range() arg 3 must not be zero", s->b->loc);
            ty_set_block(fn, ok);
        }
        if (!vstart || !vstop || !vstep)
            return;
        len = range_len(fn, ct, vstart, vstop, vstep, sign, loc);
        cnt = ty_temp_var(fn, ty_u64);
        ty_store_var(fn, cnt, ty_const_int(fn, ty_u64, 0, loc), loc);
    }
    IrBlock *head = ty_block(fn), *body = ty_block(fn), *latch = ty_block(fn),
            *exit = ty_block(fn);
    IrBlock *orelse = loop_else_block(fn, s, exit);
    ty_br(fn, head, loc);
    ty_set_block(fn, head);
    IrInst *c = NULL, *kv = NULL;
    if (fn->emit) {
        kv = ty_load_var(fn, cnt, ty_u64, loc);
        c = cmp(fn, CMP_LT, kv, len, loc);
    }
    ty_condbr(fn, c, body, orelse, loc);
    ty_set_block(fn, body);
    IrInst *ci = NULL;
    if (fn->emit) /* i = start + k * step, wrapping: exact for every k < len */
        ci = bin(fn, IR_ADD, ct, vstart,
                 bin(fn, IR_MUL, ct, ty_cast(fn, kv, ty_u64, ct, loc),
                     ty_cast(fn, vstep, ty_i64, ct, loc), loc), loc);
    Val el = {.k = V_VAL, .t = ct, .v = ci};
    if (over_array && arr.t->ndim > 1) {
        el = ty_array_row(fn, arr, ci, loc);
    } else if (over_array) {
        el = (Val){.k = V_VAL, .t = arr.t->dtype};
        IrInst *ops[2] = {arr.v, ci};
        el.v = ty_emit(fn, IR_ALOAD, el.t, loc, 2, ops);
    }
    if (is_enum) {
        Val cv = vval(ty_i64, ty_load_var(fn, enumv, ty_i64, loc));
        assign_target(fn, s->a->list.items[0], cv, loc);
        assign_target(fn, s->a->list.items[1], el, loc);
    } else {
        assign_target(fn, s->a, el, loc);
    }
    loop_body(fn, &s->list, exit, latch, loc);
    ty_br(fn, latch, loc);
    ty_set_block(fn, latch);
    if (fn->emit) {
        IrInst *cur = ty_load_var(fn, cnt, ty_u64, loc);
        ty_store_var(fn, cnt, bin(fn, IR_ADD, ty_u64, cur, ty_const_int(fn, ty_u64, 1, loc), loc),
                     loc);
        if (is_enum) {
            IrInst *e = ty_load_var(fn, enumv, ty_i64, loc);
            IrInst *o2[2] = {e, ty_const_int(fn, ty_i64, 1, loc)};
            IrInst *en = ty_emit(fn, IR_ADD, ty_i64, loc, 2, o2);
            ty_store_var(fn, enumv, en, loc);
        }
    }
    ty_br(fn, head, loc);
    loop_else(fn, s, orelse, exit);
    ty_set_block(fn, exit);
}

/* The type of returning v and the other returns (ret so far): None and a value give an
 * Optional (Numba); NULL when they do not unify. */
static const Type *unify_return(const Type *ret, const Type *t) {
    if (ret == t)
        return ret;
    if (ret == ty_void || t == ty_void) {
        const Type *v = ret == ty_void ? t : ret;
        return v->kind == TY_RANGE ? NULL : ty_optional(v);
    }
    return ty_unify(ret, t);
}

static void stmt_return(Fn *fn, Node *s) {
    if (ty_gen_return(fn, s)) /* the end of an inlined generator (typer_gen.c) */
        return;
    Val v = {.k = V_VAL, .t = ty_void};
    if (s->a && s->a->kind != ND_NONE) { /* `return None` is a bare return */
        v = ty_expr(fn, s->a);
        if (v.k != V_VAL && v.k != V_ERR) /* a function returned as a value, or an error */
            v = ty_value(fn, s->a);
        if (v.k != V_VAL)
            return;
        if (ty_is_none(v.t))
            v = (Val){.k = V_VAL, .t = ty_void};
    }
    if (!fn->emit) {
        if (fn->ret_declared)
            return;
        if (!fn->ret) {
            fn->ret = v.t;
            fn->ret_loc = s->loc;
            fn->changed = true;
            return;
        }
        const Type *u = unify_return(fn->ret, v.t);
        if (u && u != fn->ret) {
            fn->ret = u;
            fn->changed = true;
        }
        return;
    }
    const Type *rt = fn->f->ret;
    if (ty_is_optional(rt) && v.t == ty_void) /* return None from an Optional function */
        v = ty_none_value(fn, s->loc);
    if ((rt == ty_void) != (v.t == ty_void) ||
        (rt != ty_void && !ty_unify(rt, v.t))) {
        ty_error(fn, s->loc, "this returns %s but the function returns %s (line %d)",
                 v.t == ty_void ? "nothing" : v.t->name, rt == ty_void ? "nothing" : rt->name,
                 fn->ret_loc.line);
        return;
    }
    if (!fn->cur || ir_block_terminated(fn->cur))
        return;
    if (rt == ty_void) {
        ir_emit(fn->f, fn->cur, IR_RET, ty_void, s->loc, 0, NULL);
    } else {
        IrInst *x = ty_cast(fn, v.v, v.t, rt, s->loc);
        if (x)
            ir_emit(fn->f, fn->cur, IR_RET, ty_void, s->loc, 1, &x);
    }
}

static void stmt_kind(Fn *fn, Node *s);

/* A statement; the new references its expressions made are released at its end. */
static void stmt(Fn *fn, Node *s) {
    if (fn->emit && fn->cur && ir_block_terminated(fn->cur))
        fn->cur = ty_block(fn); /* code after return/break/continue: unreachable */
    int mark = ty_owned_mark(fn);
    fn->serial++;
    stmt_kind(fn, s);
    if (fn->cur && !ir_block_terminated(fn->cur))
        ty_release_owned(fn, mark, s->loc);
    else
        fn->nowned = mark; /* returned: the function's exit releases every variable */
}

static void stmt_kind(Fn *fn, Node *s) {
    switch (s->kind) {
    case ND_ASSIGN: stmt_assign(fn, s); break;
    case ND_AUGASSIGN: stmt_augassign(fn, s); break;
    case ND_EXPR:
        if (s->a->kind == ND_STR) /* docstring or string statement */
            break;
        (void)ty_expr(fn, s->a);
        break;
    case ND_IF: stmt_if(fn, s); break;
    case ND_WHILE: stmt_while(fn, s); break;
    case ND_FOR: stmt_for(fn, s); break;
    case ND_BREAK:
    case ND_CONTINUE:
        if (!fn->nloops) {
            ty_error(fn, s->loc, "'%s' outside a loop", s->kind == ND_BREAK ? "break" : "continue");
            break;
        }
        if (fn->emit)
            ty_br(fn, s->kind == ND_BREAK ? fn->brk[fn->nloops - 1] : fn->cont[fn->nloops - 1],
                  s->loc);
        break;
    case ND_RETURN: stmt_return(fn, s); break;
    case ND_YIELD: ty_gen_yield(fn, s); break; /* typer_gen.c */
    case ND_PASS: break;
    case ND_RAISE: ty_stmt_raise(fn, s); break;
    case ND_ASSERT: ty_stmt_assert(fn, s); break;
    case ND_DEL: ty_stmt_del(fn, s); break; /* typer_dict.c */
    case ND_TRY: ty_stmt_try(fn, s); break; /* typer_try.c */
    case ND_FUNCDEF: ty_closure_def(fn, s); break; /* typer_closure.c */
    case ND_IMPORT:
    case ND_FROMIMPORT:
        ty_error(fn, s->loc, "import inside a function is not supported by numjit");
        break;
    default:
        ty_error(fn, s->loc, "this statement is not supported inside a compiled function");
    }
}

/* The statements of a block; those after one that never completes (a return, an `if` whose
 * branch that runs returns: `if y is None: return x` with y None) are dead and not typed, as
 * Numba never types them. */
void ty_stmts(Fn *fn, NodeList *body) {
    for (int i = 0; i < body->n; i++) {
        Node *s = body->items[i];
        stmt(fn, s);
        if (s->kind == ND_IF && i + 1 < body->n && !ty_falls_through(fn, &(NodeList){&s, 1}))
            break;
    }
}

/* ---- for typer_parfor.c --------------------------------------------------------------------- */
void ty_loop_body(Fn *fn, NodeList *body, IrBlock *brk, IrBlock *cont, Loc loc) {
    loop_body(fn, body, brk, cont, loc);
}
void ty_assign_target(Fn *fn, Node *target, Val v, Loc loc) { assign_target(fn, target, v, loc); }

/* Whether running body can reach its end (Numba's implicit `return None`), as far as the
 * statements say: a return or raise ends it, an `if` whose branches both end it (the branch
 * that runs when the condition is known: `if y is None:`), a `while True:` with no break. */
static bool has_break(const NodeList *body) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        if (s->kind == ND_BREAK)
            return true;
        if (s->kind == ND_IF && (has_break(&s->list) || has_break(&s->list2)))
            return true;
    }
    return false;
}

bool ty_falls_through(Fn *fn, NodeList *body) {
    for (int i = 0; i < body->n; i++) {
        Node *s = body->items[i];
        if (s->kind == ND_RETURN || s->kind == ND_RAISE)
            return false;
        if (s->kind == ND_IF) {
            int k = ty_static_truth(fn, s->a);
            bool t = ty_falls_through(fn, &s->list), e = ty_falls_through(fn, &s->list2);
            if (k == 1 ? !t : k == 0 ? !e : (!t && !e))
                return false;
        }
        if (s->kind == ND_TRY && s->list2.n) { /* the body (then else) or the except ends */
            bool done = ty_falls_through(fn, &s->list) && (!s->a || ty_falls_through(fn, &s->a->list));
            if ((!done && !ty_falls_through(fn, &s->list2.items[0]->list)) ||
                (s->b && !ty_falls_through(fn, &s->b->list)))
                return false;
        }
        if (s->kind == ND_WHILE && ((s->a->kind == ND_BOOL || s->a->kind == ND_INT) && s->a->ival) &&
            !has_break(&s->list))
            return false;
    }
    return true;
}

/* ---- binding a call's arguments to parameter names (library functions) --------------------- */
bool ty_bind_args(Fn *fn, Node *call, const char *shown, const char *const *params, int max,
                  int nreq, unsigned flags, Node **out) {
    int np = 0;
    while (np < max && params[np])
        np++;
    for (int k = 0; k < max; k++)
        out[k] = NULL;
    if (call->list.n > np) {
        ty_error(fn, call->loc, "%s() takes at most %d arguments (%d given)", shown, np,
                 call->list.n);
        return false;
    }
    for (int k = 0; k < call->list.n; k++)
        out[k] = call->list.items[k];
    for (int j = 0; j < call->list2.n; j++) {
        Node *kw = call->list2.items[j];
        int k = -1;
        for (int i = 0; i < np && !(flags & TY_BIND_NO_KEYWORDS); i++)
            if (!strcmp(params[i], kw->name))
                k = i;
        if (k < 0) {
            ty_error(fn, kw->loc, "%s() got an unexpected keyword argument '%s'", shown,
                     kw->name);
            return false;
        }
        if (out[k]) {
            ty_error(fn, kw->loc, "%s() got multiple values for argument '%s'", shown,
                     kw->name);
            return false;
        }
        out[k] = kw->a;
    }
    for (int k = 0; k < np && (flags & TY_BIND_NONE_OMITS); k++)
        if (out[k] && out[k]->kind == ND_NONE)
            out[k] = NULL;
    for (int k = 0; k < nreq; k++)
        if (!out[k]) {
            ty_error(fn, call->loc, "%s() missing required argument '%s'", shown, params[k]);
            return false;
        }
    return true;
}

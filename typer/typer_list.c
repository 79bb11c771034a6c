/* typer_list.c — lists in compiled code, typed as Numba 0.56 types them and expanded into the
 * five list ops of the IR (list.new, list.len, list.get, list.set, list.resize; the storage is
 * codegen/list.c's).
 *
 *   [a, b, c]         list.new 3, then list.set of each item, cast to the items' unified type
 *   []                list(undefined): its type comes from what is appended to the variable
 *   l.append(x)       list.resize len+1, list.set; while inferring, the variable holding l is
 *                     refined to list(unify(item, type(x))) — Numba's refinement of a list's
 *                     type by append, which is how `l = []` gets a type and how `[1]` then
 *                     `.append(2.5)` becomes list(float64)
 *   l[i], l[i] = v    i wrapped when negative; IndexError "getitem out of range" /
 *                     "setitem out of range" as Numba raises them
 *   for x in l        a counter against list.len read each round (appending in the loop
 *                     extends it, as in Python); also `for i, x in enumerate(l[, start])`
 *   [e for x in it]   typer_comp.c rewrites it into `$list = []` and appends in loops
 *   len, pop, ...     rows of lib/list.c, whose handlers are here
 *
 * A list variable owns a reference to the list (ty_has_refs), as an array variable does; a new
 * list is owned by the statement that made it (ty_own) until a variable takes it.  Lists are a
 * CPU feature: in CUDA code each construct is refused at its location.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <string.h>

static bool on_cpu(Fn *fn, Loc loc) {
    if (fn->tc->target == TARGET_CPU)
        return true;
    ty_error(fn, loc, "lists are not supported in CUDA kernels and device functions");
    return false;
}

/* A new list of n items (an int64 value), owned until the end of the statement. */
static Val new_list(Fn *fn, const Type *lt, IrInst *n, Loc loc) {
    IrInst *l = ty_emit(fn, IR_LNEW, lt, loc, 1, &n);
    if (l)
        l->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a list", loc);
    return ty_own(fn, vval(lt, l), loc);
}

static IrInst *list_len(Fn *fn, IrInst *l, Loc loc) {
    return ty_emit(fn, IR_LLEN, ty_i64, loc, 1, &l);
}

static IrInst *list_get(Fn *fn, const Type *lt, IrInst *l, IrInst *i, Loc loc) {
    IrInst *ops[2] = {l, i};
    return ty_emit(fn, IR_LGET, lt->dtype, loc, 2, ops);
}

static void list_set(Fn *fn, IrInst *l, IrInst *i, IrInst *v, Loc loc) {
    IrInst *ops[3] = {l, i, v};
    ty_emit(fn, IR_LSET, ty_void, loc, 3, ops);
}

static void list_resize(Fn *fn, IrInst *l, IrInst *n, Loc loc) {
    IrInst *ops[2] = {l, n};
    IrInst *r = ty_emit(fn, IR_LRESIZE, ty_void, loc, 2, ops);
    if (r)
        r->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a list", loc);
}

/* The type of a list holding item t, or NULL with the error at loc. */
static const Type *list_of(Fn *fn, const Type *t, Loc loc) {
    const Type *lt = ty_list(t, false);
    if (!lt)
        ty_error(fn, loc, "a list cannot hold %s", t->name);
    return lt;
}

/* ---- literals ------------------------------------------------------------------------------ */
Val ty_list_literal(Fn *fn, Node *e) {
    if (!on_cpu(fn, e->loc))
        return verr();
    int n = e->list.n;
    Val *items = arena_alloc(fn->tc->arena, sizeof *items * (size_t)(n ? n : 1));
    const Type *item = NULL;
    for (int i = 0; i < n; i++) {
        items[i] = ty_value(fn, e->list.items[i]);
        if (items[i].k != V_VAL)
            return verr();
        const Type *u = item ? ty_unify(item, items[i].t) : items[i].t;
        if (!u) { /* Numba: "Cannot unify ..." for [1, (2, 3)] or [a1d, a2d] */
            ty_error(fn, e->list.items[i]->loc, "a list cannot hold both %s and %s", item->name,
                     items[i].t->name);
            return verr();
        }
        item = u;
    }
    const Type *lt = list_of(fn, item, e->loc);
    if (!lt)
        return verr();
    Val l = new_list(fn, lt, i64c(fn, n, e->loc), e->loc);
    for (int i = 0; i < n; i++)
        list_set(fn, l.v, i64c(fn, i, e->loc), ty_cast(fn, items[i].v, items[i].t, item, e->loc),
                 e->loc);
    return l;
}

/* A list value of another item type (the variable's, refined by append): a copy with each item
 * converted; the same block when only the empty list's unknown item type is being settled. */
IrInst *ty_list_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    if (!from->dtype || from->dtype == to->dtype)
        return ty_emit(fn, IR_CAST, to, loc, 1, &v);
    IrInst *n = list_len(fn, v, loc);
    Val r = new_list(fn, ty_list(to->dtype, false), n, loc);
    if (!fn->emit)
        return NULL;
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, n, loc);
    list_set(fn, r.v, i, ty_cast(fn, list_get(fn, from, v, i, loc), from->dtype, to->dtype, loc),
             loc);
    ty_loop_close(fn, &L, loc);
    return to->reflected ? ty_emit(fn, IR_CAST, to, loc, 1, &r.v) : r.v;
}

/* ---- indexing ------------------------------------------------------------------------------ */
/* Index node ix of list l as an int64 in [0, len), IndexError `msg` outside [-len, len). */
static IrInst *item_index(Fn *fn, Val l, Node *ix, const char *msg, Loc loc) {
    if (ix->kind == ND_SLICE) {
        ty_error(fn, ix->loc, "slice assignment to a list is not supported by numjit yet");
        return NULL;
    }
    Val i = ty_value(fn, ix);
    if (i.k != V_VAL)
        return NULL;
    if (!ty_is_int(i.t) && i.t != ty_bool) {
        ty_error(fn, ix->loc, "list indices must be integers, not %s", i.t->name);
        return NULL;
    }
    if (!fn->emit)
        return NULL;
    IrInst *k = ty_cast(fn, i.v, i.t, ty_i64, loc);
    IrInst *n = list_len(fn, l.v, loc);
    if (i.t == ty_u64) { /* never negative */
        ty_raise_if(fn, cmp(fn, CMP_GE, ty_cast(fn, k, ty_i64, ty_u64, loc),
                            ty_cast(fn, n, ty_i64, ty_u64, loc), loc), RAISE_INDEX, msg, loc);
        return k;
    }
    IrInst *zero = i64c(fn, 0, loc);
    IrInst *w = sel(fn, ty_i64, cmp(fn, CMP_LT, k, zero, loc), bin(fn, IR_ADD, ty_i64, k, n, loc),
                    k, loc);
    IrInst *bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, w, zero, loc),
                      cmp(fn, CMP_GE, w, n, loc), loc);
    ty_raise_if(fn, bad, RAISE_INDEX, msg, loc);
    return w;
}

static bool typed_items(Fn *fn, Val l, Loc loc) {
    if (l.t->dtype)
        return true;
    ty_error(fn, loc, "the type of this empty list's items is not known: append to it first");
    return false;
}

static Val list_slice(Fn *fn, Val l, Node *ix, Loc loc);

Val ty_list_get(Fn *fn, Val l, Node *ix, Loc loc) {
    if (!typed_items(fn, l, loc))
        return verr();
    if (ix->kind == ND_SLICE)
        return list_slice(fn, l, ix, loc);
    IrInst *i = item_index(fn, l, ix, "getitem out of range", loc);
    if (fn->emit && !i)
        return verr();
    return vval(l.t->dtype, list_get(fn, l.t, l.v, i, loc));
}

void ty_list_set(Fn *fn, Val l, Node *ix, Val v, Loc loc) {
    if (!typed_items(fn, l, loc) || v.k != V_VAL)
        return;
    if (!ty_unify(l.t->dtype, v.t) || (ty_is_elem(l.t->dtype) != ty_is_elem(v.t))) {
        ty_error(fn, loc, "cannot store %s in %s", v.t->name, l.t->name);
        return;
    }
    IrInst *i = item_index(fn, l, ix, "setitem out of range", loc);
    list_set(fn, l.v, i, ty_cast(fn, v.v, v.t, l.t->dtype, loc), loc);
}

Val ty_list_len(Fn *fn, Val l, Loc loc) {
    if (!typed_items(fn, l, loc)) /* Numba cannot type the list either */
        return verr();
    return vval(ty_i64, list_len(fn, l.v, loc));
}

/* ---- for x in l ------------------------------------------------------------------------------- */
/* The list a for loop iterates, peeked without emitting; false when it is not a list. */
static bool iterates_list(Fn *fn, Node *iter) {
    bool emit = fn->emit;
    fn->emit = false;
    Val it = ty_expr(fn, iter);
    fn->emit = emit;
    return it.k == V_VAL && it.t->kind == TY_LIST;
}

/* `enumerate(LIST[, start])` with two targets: the list's node (and *start), else NULL. */
static Node *enumerated_list(Fn *fn, Node *s, Node **start) {
    Node *c = s->b;
    if (c->kind != ND_CALL || c->a->kind != ND_NAME || c->list.n < 1 || c->list.n > 2 ||
        c->list2.n || s->a->kind != ND_TUPLE || s->a->list.n != 2)
        return NULL;
    bool emit = fn->emit;
    fn->emit = false;
    Val callee = ty_expr(fn, c->a);
    fn->emit = emit;
    if (callee.k != V_BUILTIN || strcmp(callee.name, "enumerate") ||
        !iterates_list(fn, c->list.items[0]))
        return NULL;
    *start = c->list.n == 2 ? c->list.items[1] : NULL;
    return c->list.items[0];
}

/* The loop's targets for item i of l: the target, or (counter, item) under enumerate. */
static void assign_targets(Fn *fn, Node *s, Val l, IrInst *i, Val first, bool enumerated, Loc loc) {
    Val item = vval(l.t->dtype, fn->emit ? list_get(fn, l.t, l.v, i, loc) : NULL);
    if (!enumerated) {
        ty_assign_target(fn, s->a, item, loc);
        return;
    }
    Val n = vval(ty_i64, fn->emit ? bin(fn, IR_ADD, ty_i64, first.v, i, loc) : NULL);
    ty_assign_target(fn, s->a->list.items[0], n, loc);
    ty_assign_target(fn, s->a->list.items[1], item, loc);
}

bool ty_list_for(Fn *fn, Node *s) {
    Node *start_node = NULL, *ln = enumerated_list(fn, s, &start_node);
    bool enumerated = ln != NULL;
    if (!ln && !iterates_list(fn, s->b))
        return false;
    if (!ln)
        ln = s->b;
    Loc loc = s->loc;
    Val first = vval(ty_i64, i64c(fn, 0, loc));
    if (start_node) {
        Val sv = ty_value(fn, start_node);
        if (sv.k != V_VAL)
            return true;
        if (!ty_is_int(sv.t) && sv.t != ty_bool) {
            ty_error(fn, start_node->loc, "the start of enumerate() must be an integer, not %s",
                     sv.t->name);
            return true;
        }
        first = vval(ty_i64, ty_cast(fn, sv.v, sv.t, ty_i64, loc));
    }
    Val l = ty_keep(fn, ty_value(fn, ln), ln->loc);
    if (l.k != V_VAL || !typed_items(fn, l, ln->loc))
        return true;
    if (!fn->emit) { /* inference: the targets get their types; the body is walked once */
        assign_targets(fn, s, l, NULL, first, enumerated, loc);
        ty_loop_body(fn, &s->list, NULL, NULL, loc);
        ty_stmts(fn, &s->list2);
        return true;
    }
    int k = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, k, i64c(fn, 0, loc), loc);
    IrBlock *head = ty_block(fn), *body = ty_block(fn), *exit = ty_block(fn);
    IrBlock *orelse = s->list2.n ? ty_block(fn) : exit;
    ty_br(fn, head, loc);
    ty_set_block(fn, head);
    IrInst *i = ty_load_var(fn, k, ty_i64, loc);
    ty_condbr(fn, cmp(fn, CMP_LT, i, list_len(fn, l.v, loc), loc), body, orelse, loc);
    ty_set_block(fn, body);
    ty_store_var(fn, k, bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc), loc);
    assign_targets(fn, s, l, i, first, enumerated, loc);
    ty_loop_body(fn, &s->list, exit, head, loc);
    ty_br(fn, head, loc);
    if (orelse != exit) {
        ty_set_block(fn, orelse);
        ty_stmts(fn, &s->list2);
        ty_br(fn, exit, loc);
    }
    ty_set_block(fn, exit);
    return true;
}

/* ---- methods (lib/list.c's rows) ------------------------------------------------------------ */
/* While inferring, `name.append(x)` refines the variable `name` to hold x's type too. */
static void refine(Fn *fn, Node *call, Val self, const Type *item) {
    Node *recv = call->a->kind == ND_ATTR ? call->a->a : NULL;
    if (fn->emit || !recv || recv->kind != ND_NAME || !item)
        return;
    const Type *u = self.t->dtype ? ty_unify(self.t->dtype, item) : item;
    if (u && u != self.t->dtype && ty_list(u, self.t->reflected))
        ty_assign_name(fn, recv->name, vval(ty_list(u, self.t->reflected), NULL), recv->loc);
}

Val ty_list_append(Fn *fn, Val self, Node *call, Val x) {
    Loc loc = call->loc;
    if (!ty_list_item_ok(x.t)) {
        ty_error(fn, call->list.items[0]->loc, "a list cannot hold %s", x.t->name);
        return verr();
    }
    refine(fn, call, self, x.t);
    if (!fn->emit)
        return vval(ty_void, NULL);
    if (!self.t->dtype || !ty_unify(self.t->dtype, x.t) ||
        ty_unify(self.t->dtype, x.t) != self.t->dtype) {
        ty_error(fn, loc, "cannot append %s to %s", x.t->name, self.t->name);
        return verr();
    }
    IrInst *n = list_len(fn, self.v, loc);
    list_resize(fn, self.v, bin(fn, IR_ADD, ty_i64, n, i64c(fn, 1, loc), loc), loc);
    list_set(fn, self.v, n, ty_cast(fn, x.v, x.t, self.t->dtype, loc), loc);
    return vval(ty_void, NULL);
}

/* l.pop() and l.pop(i): the item, removed; IndexError "pop from empty list" / "pop index out
 * of range" as Numba raises them. */
Val ty_list_pop(Fn *fn, Val self, Node *call, Val *idx) {
    Loc loc = call->loc;
    if (!typed_items(fn, self, loc))
        return verr();
    const Type *it = self.t->dtype;
    if (idx && !ty_is_int(idx->t) && idx->t != ty_bool) {
        ty_error(fn, call->list.items[0]->loc, "list indices must be integers, not %s",
                 idx->t->name);
        return verr();
    }
    if (!fn->emit)
        return vval(it, NULL);
    IrInst *n = list_len(fn, self.v, loc);
    ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_INDEX, "pop from empty list",
                loc);
    IrInst *last = bin(fn, IR_SUB, ty_i64, n, i64c(fn, 1, loc), loc);
    IrInst *i = last;
    if (idx) {
        IrInst *k = ty_cast(fn, idx->v, idx->t, ty_i64, loc);
        IrInst *zero = i64c(fn, 0, loc);
        i = sel(fn, ty_i64, cmp(fn, CMP_LT, k, zero, loc), bin(fn, IR_ADD, ty_i64, k, n, loc), k,
                loc);
        ty_raise_if(fn, bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, i, zero, loc),
                            cmp(fn, CMP_GE, i, n, loc), loc),
                    RAISE_INDEX, "pop index out of range", loc);
    }
    /* the item is kept by the statement before the list lets it go */
    Val r = ty_keep(fn, vval(it, list_get(fn, self.t, self.v, i, loc)), loc);
    if (idx) { /* the items after it move down one */
        TyLoop L;
        IrInst *j = ty_loop_open(fn, &L, bin(fn, IR_SUB, ty_i64, last, i, loc), loc);
        IrInst *at = bin(fn, IR_ADD, ty_i64, i, j, loc);
        list_set(fn, self.v, at,
                 list_get(fn, self.t, self.v, bin(fn, IR_ADD, ty_i64, at, i64c(fn, 1, loc), loc),
                          loc), loc);
        ty_loop_close(fn, &L, loc);
    }
    list_resize(fn, self.v, last, loc);
    return r;
}

/* ---- results ------------------------------------------------------------------------------------ */
static bool result_list_ok(DiagList *diags, const char *name, const Type *t, Loc loc) {
    if (t->kind != TY_LIST || (t->dtype && (ty_is_elem(t->dtype) || t->dtype == ty_str)))
        return true;
    if (!t->dtype)
        diag_error(diags, loc, "'%s' returns an empty list whose item type is never known: "
                   "append to it so that its type can be inferred", name);
    else
        diag_error(diags, loc, "'%s' returns %s: numjit returns lists of numbers to Python, "
                   "not yet lists of %s (inside compiled code they work)", name, t->name,
                   t->dtype->kind == TY_ARRAY ? "arrays"
                   : ty_is_instance(t->dtype) ? "jitclass instances"
                                              : "tuples");
    return false;
}

bool ty_list_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc) {
    if (!ret)
        return true;
    if (ret->kind != TY_TUPLE)
        return result_list_ok(diags, name, ret, loc);
    for (int i = 0; i < ret->nelems; i++) /* nested tuples too: the result's layout has them */
        if (!ty_list_result_ok(diags, name, ret->elems[i], loc))
            return false;
    return true;
}

/* ---- copies, slices, + and * ------------------------------------------------------------------ */
/* dst[dlo + k] = src[slo + k * step] for k in [0, n) (dst's item type; src's converted). */
static void copy_items(Fn *fn, Val dst, IrInst *dlo, Val src, IrInst *slo, IrInst *step,
                       IrInst *n, Loc loc) {
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, n, loc);
    IrInst *from = bin(fn, IR_ADD, ty_i64, slo, step ? bin(fn, IR_MUL, ty_i64, k, step, loc) : k,
                       loc);
    IrInst *x = list_get(fn, src.t, src.v, from, loc);
    list_set(fn, dst.v, bin(fn, IR_ADD, ty_i64, dlo, k, loc),
             ty_cast(fn, x, src.t->dtype, dst.t->dtype, loc), loc);
    ty_loop_close(fn, &L, loc);
}

/* A new list (not reflected) holding n items of l from lo by step. */
static Val sub_list(Fn *fn, Val l, IrInst *lo, IrInst *step, IrInst *n, Loc loc) {
    const Type *rt = ty_list(l.t->dtype, false);
    if (!fn->emit)
        return vval(rt, NULL);
    Val r = new_list(fn, rt, n, loc);
    copy_items(fn, r, i64c(fn, 0, loc), l, lo, step, n, loc);
    return r;
}

/* Python's slice.indices(len) for a step of the given sign: the start and the count. */
static void slice_range(Fn *fn, IrInst *b[2], IrInst *step, int sign, IrInst *len,
                        IrInst **start, IrInst **count, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc), *one = i64c(fn, 1, loc);
    IrInst *lo = sign > 0 ? zero : i64c(fn, -1, loc);
    IrInst *hi = sign > 0 ? len : bin(fn, IR_SUB, ty_i64, len, one, loc);
    IrInst *r[2];
    for (int k = 0; k < 2; k++) {
        if (!b[k]) {
            r[k] = sign > 0 ? (k == 0 ? zero : len) : (k == 0 ? hi : lo);
            continue;
        }
        IrInst *x = sel(fn, ty_i64, cmp(fn, CMP_LT, b[k], zero, loc),
                        bin(fn, IR_ADD, ty_i64, b[k], len, loc), b[k], loc);
        x = sel(fn, ty_i64, cmp(fn, CMP_LT, x, lo, loc), lo, x, loc);
        r[k] = sel(fn, ty_i64, cmp(fn, CMP_GT, x, hi, loc), hi, x, loc);
    }
    IrInst *span = sign > 0 ? bin(fn, IR_SUB, ty_i64, r[1], r[0], loc)
                            : bin(fn, IR_SUB, ty_i64, r[0], r[1], loc);
    IrInst *by = sign > 0 ? step : bin(fn, IR_SUB, ty_i64, zero, step, loc);
    IrInst *n = bin(fn, IR_FLOORDIV, ty_i64,
                    bin(fn, IR_SUB, ty_i64, bin(fn, IR_ADD, ty_i64, span, by, loc), one, loc), by,
                    loc);
    *start = r[0];
    *count = sel(fn, ty_i64, cmp(fn, CMP_GT, span, zero, loc), n, zero, loc);
}

static Val list_slice(Fn *fn, Val l, Node *ix, Loc loc) {
    Node *parts[3] = {ix->a, ix->b, ix->c};
    IrInst *v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (!parts[k] || parts[k]->kind == ND_NONE)
            continue;
        Val x = ty_value(fn, parts[k]);
        if (x.k != V_VAL)
            return verr();
        if (!ty_is_int(x.t) && x.t != ty_bool) {
            ty_error(fn, parts[k]->loc, "slice indices must be integers, not %s", x.t->name);
            return verr();
        }
        v[k] = ty_cast(fn, x.v, x.t, ty_i64, parts[k]->loc);
    }
    if (!fn->emit)
        return vval(ty_list(l.t->dtype, false), NULL);
    IrInst *step = v[2] ? v[2] : i64c(fn, 1, loc);
    ty_raise_if(fn, cmp(fn, CMP_EQ, step, i64c(fn, 0, loc), loc), RAISE_VALUE,
                "slice step cannot be zero", loc);
    IrInst *len = list_len(fn, l.v, loc), *b[2] = {v[0], v[1]};
    IrInst *s1, *n1, *s2, *n2;
    slice_range(fn, b, step, 1, len, &s1, &n1, loc);
    slice_range(fn, b, step, -1, len, &s2, &n2, loc);
    IrInst *up = cmp(fn, CMP_GT, step, i64c(fn, 0, loc), loc);
    return sub_list(fn, l, sel(fn, ty_i64, up, s1, s2, loc), step, sel(fn, ty_i64, up, n1, n2, loc),
                    loc);
}

/* a + b (two lists: a new one of their unified items), a * n and n * a (repeated). */
Val ty_list_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (op == OP_ADD && a.t->kind == TY_LIST && b.t->kind == TY_LIST) {
        const Type *u = !a.t->dtype ? b.t->dtype : !b.t->dtype ? a.t->dtype
                                                                : ty_unify(a.t->dtype, b.t->dtype);
        if ((a.t->dtype && b.t->dtype && !u) || !u) {
            ty_error(fn, loc, "cannot add %s and %s", a.t->name, b.t->name);
            return verr();
        }
        const Type *rt = ty_list(u, false);
        if (!fn->emit)
            return vval(rt, NULL);
        IrInst *na = list_len(fn, a.v, loc), *nb = list_len(fn, b.v, loc);
        Val r = new_list(fn, rt, bin(fn, IR_ADD, ty_i64, na, nb, loc), loc);
        copy_items(fn, r, i64c(fn, 0, loc), a, i64c(fn, 0, loc), NULL, na, loc);
        copy_items(fn, r, na, b, i64c(fn, 0, loc), NULL, nb, loc);
        return r;
    }
    Val l = a.t->kind == TY_LIST ? a : b, k = a.t->kind == TY_LIST ? b : a;
    if (op == OP_MUL && (ty_is_int(k.t) || k.t == ty_bool)) {
        if (!typed_items(fn, l, loc))
            return verr();
        const Type *rt = ty_list(l.t->dtype, false);
        if (!fn->emit)
            return vval(rt, NULL);
        IrInst *times = ty_cast(fn, k.v, k.t, ty_i64, loc), *zero = i64c(fn, 0, loc);
        times = sel(fn, ty_i64, cmp(fn, CMP_LT, times, zero, loc), zero, times, loc);
        IrInst *n = list_len(fn, l.v, loc);
        Val r = new_list(fn, rt, bin(fn, IR_MUL, ty_i64, n, times, loc), loc);
        TyLoop L;
        IrInst *j = ty_loop_open(fn, &L, times, loc);
        copy_items(fn, r, bin(fn, IR_MUL, ty_i64, j, n, loc), l, zero, NULL, n, loc);
        ty_loop_close(fn, &L, loc);
        return r;
    }
    ty_error(fn, loc, "operator %s is not supported between %s and %s", ast_op_spelling[op],
             a.t->name, b.t->name);
    return verr();
}

Val ty_list_copy(Fn *fn, Val l, Loc loc) {
    if (!fn->emit)
        return vval(ty_list(l.t->dtype, false), NULL);
    return sub_list(fn, l, i64c(fn, 0, loc), NULL, list_len(fn, l.v, loc), loc);
}

/* ---- searching: in, index, count, remove ------------------------------------------------------- */
/* item == x as Python compares them (numbers by value, tuples item by item); NULL with an error
 * when they cannot be compared. */
static IrInst *item_eq(Fn *fn, const Type *it, IrInst *a, Val x, Loc loc) {
    Val av = vval(it, a);
    if (it == ty_str || x.t == ty_str) { /* a string equals only a string (Numba's) */
        Val r = ty_str_compare(fn, OP_EQ, av, x, loc);
        return r.k == V_VAL ? r.v : NULL;
    }
    if (it->kind == TY_TUPLE || x.t->kind == TY_TUPLE) {
        Val r = ty_tuple_compare(fn, OP_EQ, av, x, loc);
        return r.k == V_VAL ? r.v : NULL;
    }
    if (ty_is_complex(it) || ty_is_complex(x.t)) {
        Val r = ty_complex_compare(fn, OP_EQ, av, x, loc);
        return r.k == V_VAL ? r.v : NULL;
    }
    if (!ty_is_scalar(it) || !ty_is_scalar(x.t)) {
        ty_error(fn, loc, "cannot compare %s with the items of list(%s)", x.t->name, it->name);
        return NULL;
    }
    const Type *t = (it == ty_bool && x.t == ty_bool) ? ty_bool : ty_arith(it, x.t);
    if (t == ty_i64 && (it == ty_u64 || x.t == ty_u64))
        t = ty_f64;
    return cmp(fn, CMP_EQ, ty_cast(fn, a, it, t, loc), ty_cast(fn, x.v, x.t, t, loc), loc);
}

/* The first index in [lo, hi) of an item equal to x, or -1; with count, the number of them. */
static IrInst *scan(Fn *fn, Val l, Val x, IrInst *lo, IrInst *hi, bool count, Loc loc) {
    int res = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, res, i64c(fn, count ? 0 : -1, loc), loc);
    TyLoop L;
    IrInst *span = bin(fn, IR_SUB, ty_i64, hi, lo, loc);
    IrInst *k = ty_loop_open(fn, &L, span, loc);
    IrInst *i = bin(fn, IR_ADD, ty_i64, lo, k, loc);
    IrInst *eq = item_eq(fn, l.t->dtype, list_get(fn, l.t, l.v, i, loc), x, loc);
    IrBlock *hit = ty_block(fn), *next = ty_block(fn);
    ty_condbr(fn, eq, hit, next, loc);
    ty_set_block(fn, hit);
    if (count) {
        ty_store_var(fn, res, bin(fn, IR_ADD, ty_i64, ty_load_var(fn, res, ty_i64, loc),
                                  i64c(fn, 1, loc), loc), loc);
        ty_br(fn, next, loc);
    } else {
        ty_store_var(fn, res, i, loc);
        ty_br(fn, L.exit, loc);
    }
    ty_set_block(fn, next);
    ty_loop_close(fn, &L, loc);
    return ty_load_var(fn, res, ty_i64, loc);
}

static bool searchable(Fn *fn, Val l, Val x, Loc loc) {
    if (!typed_items(fn, l, loc))
        return false;
    (void)x; /* what cannot be compared is refused by item_eq, at the comparison */
    if (!ty_is_elem(l.t->dtype) && l.t->dtype->kind != TY_TUPLE && l.t->dtype != ty_str) {
        ty_error(fn, loc, "cannot search %s (its items are %s)", l.t->name, l.t->dtype->name);
        return false;
    }
    return true;
}

Val ty_list_contains(Fn *fn, Val l, Val x, bool negate, Loc loc) {
    if (!searchable(fn, l, x, loc))
        return verr();
    if (!fn->emit)
        return vval(ty_bool, NULL);
    IrInst *i = scan(fn, l, x, i64c(fn, 0, loc), list_len(fn, l.v, loc), false, loc);
    return vval(ty_bool, cmp(fn, negate ? CMP_LT : CMP_GE, i, i64c(fn, 0, loc), loc));
}

Val ty_list_count(Fn *fn, Val self, Val x, Loc loc) {
    if (!searchable(fn, self, x, loc))
        return verr();
    if (!fn->emit)
        return vval(ty_i64, NULL);
    return vval(ty_i64, scan(fn, self, x, i64c(fn, 0, loc), list_len(fn, self.v, loc), true, loc));
}

/* A bound of index(x, start, end) clamped into [0, n] as Python clamps it. */
static IrInst *bound(Fn *fn, Val b, IrInst *n, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc);
    IrInst *x = ty_cast(fn, b.v, b.t, ty_i64, loc);
    x = sel(fn, ty_i64, cmp(fn, CMP_LT, x, zero, loc), bin(fn, IR_ADD, ty_i64, x, n, loc), x, loc);
    x = sel(fn, ty_i64, cmp(fn, CMP_LT, x, zero, loc), zero, x, loc);
    return sel(fn, ty_i64, cmp(fn, CMP_GT, x, n, loc), n, x, loc);
}

Val ty_list_index(Fn *fn, Val self, Val *a, int n, Loc loc) {
    if (!searchable(fn, self, a[0], loc))
        return verr();
    for (int k = 1; k < n; k++)
        if (!ty_is_int(a[k].t) && a[k].t != ty_bool) {
            ty_error(fn, loc, "slice indices must be integers, not %s", a[k].t->name);
            return verr();
        }
    if (!fn->emit)
        return vval(ty_i64, NULL);
    IrInst *len = list_len(fn, self.v, loc);
    IrInst *lo = n > 1 ? bound(fn, a[1], len, loc) : i64c(fn, 0, loc);
    IrInst *hi = n > 2 ? bound(fn, a[2], len, loc) : len;
    hi = sel(fn, ty_i64, cmp(fn, CMP_LT, hi, lo, loc), lo, hi, loc);
    IrInst *i = scan(fn, self, a[0], lo, hi, false, loc);
    ty_raise_if(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), RAISE_VALUE, "value not in list",
                loc);
    return vval(ty_i64, i);
}

/* Items i+1 .. n-1 moved down one place, the last slot dropped. */
static void remove_at(Fn *fn, Val l, IrInst *i, IrInst *n, Loc loc) {
    IrInst *last = bin(fn, IR_SUB, ty_i64, n, i64c(fn, 1, loc), loc);
    TyLoop L;
    IrInst *j = ty_loop_open(fn, &L, bin(fn, IR_SUB, ty_i64, last, i, loc), loc);
    IrInst *at = bin(fn, IR_ADD, ty_i64, i, j, loc);
    list_set(fn, l.v, at,
             list_get(fn, l.t, l.v, bin(fn, IR_ADD, ty_i64, at, i64c(fn, 1, loc), loc), loc), loc);
    ty_loop_close(fn, &L, loc);
    list_resize(fn, l.v, last, loc);
}

Val ty_list_remove(Fn *fn, Val self, Val x, Loc loc) {
    if (!searchable(fn, self, x, loc))
        return verr();
    if (!fn->emit)
        return vval(ty_void, NULL);
    IrInst *n = list_len(fn, self.v, loc);
    IrInst *i = scan(fn, self, x, i64c(fn, 0, loc), n, false, loc);
    ty_raise_if(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), RAISE_VALUE,
                "list.remove(x): x not in list", loc);
    remove_at(fn, self, i, n, loc);
    return vval(ty_void, NULL);
}

/* ---- insert, extend, reverse, clear, sort ----------------------------------------------------- */
Val ty_list_insert(Fn *fn, Val self, Node *call, Val i, Val x) {
    Loc loc = call->loc;
    if (!ty_is_int(i.t) && i.t != ty_bool) {
        ty_error(fn, call->list.items[0]->loc, "list indices must be integers, not %s", i.t->name);
        return verr();
    }
    if (!ty_list_item_ok(x.t)) {
        ty_error(fn, call->list.items[1]->loc, "a list cannot hold %s", x.t->name);
        return verr();
    }
    refine(fn, call, self, x.t);
    if (!fn->emit)
        return vval(ty_void, NULL);
    if (!self.t->dtype || ty_unify(self.t->dtype, x.t) != self.t->dtype) {
        ty_error(fn, loc, "cannot insert %s into %s", x.t->name, self.t->name);
        return verr();
    }
    IrInst *n = list_len(fn, self.v, loc);
    IrInst *at = bound(fn, i, n, loc);
    list_resize(fn, self.v, bin(fn, IR_ADD, ty_i64, n, i64c(fn, 1, loc), loc), loc);
    TyLoop L; /* items at..n-1 move up one place, the last first */
    IrInst *j = ty_loop_open(fn, &L, bin(fn, IR_SUB, ty_i64, n, at, loc), loc);
    IrInst *to = bin(fn, IR_SUB, ty_i64, n, j, loc);
    list_set(fn, self.v, to,
             list_get(fn, self.t, self.v, bin(fn, IR_SUB, ty_i64, to, i64c(fn, 1, loc), loc), loc),
             loc);
    ty_loop_close(fn, &L, loc);
    list_set(fn, self.v, at, ty_cast(fn, x.v, x.t, self.t->dtype, loc), loc);
    return vval(ty_void, NULL);
}

/* l.extend(it): a list or a 1-d array, appended item by item (it may be l itself: its length is
 * read first). */
Val ty_list_extend(Fn *fn, Val self, Node *call, Val it) {
    Loc loc = call->loc;
    const Type *item = it.t->kind == TY_LIST ? it.t->dtype
                       : it.t->kind == TY_ARRAY && it.t->ndim == 1 ? it.t->dtype : NULL;
    if (!item) {
        if (it.t->kind == TY_LIST) /* extending by an empty list of unknown items */
            return vval(ty_void, NULL);
        ty_error(fn, call->list.items[0]->loc, "numjit extends a list by a list or a 1-d array, "
                 "not %s", it.t->name);
        return verr();
    }
    refine(fn, call, self, item);
    if (!fn->emit)
        return vval(ty_void, NULL);
    if (!self.t->dtype || ty_unify(self.t->dtype, item) != self.t->dtype) {
        ty_error(fn, loc, "cannot extend %s by %s", self.t->name, it.t->name);
        return verr();
    }
    IrInst *n = list_len(fn, self.v, loc);
    IrInst *m = it.t->kind == TY_LIST ? list_len(fn, it.v, loc) : extent(fn, it.v, 0, loc);
    list_resize(fn, self.v, bin(fn, IR_ADD, ty_i64, n, m, loc), loc);
    if (it.t->kind == TY_LIST) {
        copy_items(fn, self, n, it, i64c(fn, 0, loc), NULL, m, loc);
        return vval(ty_void, NULL);
    }
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, m, loc);
    IrInst *x = ty_aload(fn, it.v, item, &k, 1, loc);
    list_set(fn, self.v, bin(fn, IR_ADD, ty_i64, n, k, loc),
             ty_cast(fn, x, item, self.t->dtype, loc), loc);
    ty_loop_close(fn, &L, loc);
    return vval(ty_void, NULL);
}

Val ty_list_reverse(Fn *fn, Val self, Loc loc) {
    if (!fn->emit || !self.t->dtype)
        return vval(ty_void, NULL);
    IrInst *n = list_len(fn, self.v, loc);
    IrInst *last = bin(fn, IR_SUB, ty_i64, n, i64c(fn, 1, loc), loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, bin(fn, IR_FLOORDIV, ty_i64, n, i64c(fn, 2, loc), loc), loc);
    IrInst *j = bin(fn, IR_SUB, ty_i64, last, i, loc);
    int tmp = ty_temp_var(fn, self.t->dtype); /* holds a reference while the two swap */
    ty_store_var(fn, tmp, list_get(fn, self.t, self.v, i, loc), loc);
    list_set(fn, self.v, i, list_get(fn, self.t, self.v, j, loc), loc);
    list_set(fn, self.v, j, ty_load_var(fn, tmp, self.t->dtype, loc), loc);
    ty_loop_close(fn, &L, loc);
    return vval(ty_void, NULL);
}

Val ty_list_clear(Fn *fn, Val self, Loc loc) {
    list_resize(fn, self.v, i64c(fn, 0, loc), loc);
    return vval(ty_void, NULL);
}

/* l.sort(reverse=False) of numbers: the items copied into an array, sorted there by Numba's
 * quicksort (runtime/sort.c, as np.sort), copied back (in reverse for reverse=True). */
Val ty_list_sort(Fn *fn, Val self, bool reverse, Loc loc) {
    if (!typed_items(fn, self, loc))
        return verr();
    if (!ty_is_scalar(self.t->dtype)) {
        ty_error(fn, loc, "numjit sorts lists of numbers, not %s", self.t->name);
        return verr();
    }
    if (!fn->emit)
        return vval(ty_void, NULL);
    const Type *it = self.t->dtype;
    Val a = ty_list_to_array(fn, self, it, loc);
    IrInst *n = list_len(fn, self.v, loc);
    IrInst *args[4] = {ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &a.v), n,
                       i64c(fn, ty_size(it), loc), i64c(fn, it->kind, loc)};
    IrInst *r = ty_emit(fn, IR_RTCALL, ty_void, loc, 4, args);
    if (r)
        r->imm.index = RT_SORT;
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, n, loc);
    IrInst *from = reverse ? bin(fn, IR_SUB, ty_i64, bin(fn, IR_SUB, ty_i64, n, i64c(fn, 1, loc),
                                                         loc), k, loc) : k;
    list_set(fn, self.v, k, ty_aload(fn, a.v, it, &from, 1, loc), loc);
    ty_loop_close(fn, &L, loc);
    return vval(ty_void, NULL);
}

/* ---- to arrays, and reductions ---------------------------------------------------------------- */
/* np.array(l) / np.asarray(l): a new 1-d array of dtype dt (the items' type when NULL). */
Val ty_list_to_array(Fn *fn, Val l, const Type *dt, Loc loc) {
    if (!typed_items(fn, l, loc))
        return verr();
    if (!ty_is_elem(l.t->dtype)) {
        ty_error(fn, loc, "np.array() of %s is not supported by numjit (a list of numbers)",
                 l.t->name);
        return verr();
    }
    if (!dt)
        dt = l.t->dtype;
    const Type *rt = ty_array(dt, 1, LAYOUT_C);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *n = list_len(fn, l.v, loc);
    Val a = ty_alloc(fn, rt, &n, false, loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, n, loc);
    ty_astore(fn, a.v, &k, 1, ty_cast(fn, list_get(fn, l.t, l.v, k, loc), l.t->dtype, dt, loc),
              loc);
    ty_loop_close(fn, &L, loc);
    return a;
}

/* sum(l, start=0): start + l[0] + l[1] + ..., typed as Numba's loop `acc = acc + x` is. */
Val ty_list_sum(Fn *fn, Val l, Val start, Loc loc) {
    if (!typed_items(fn, l, loc))
        return verr();
    const Type *it = l.t->dtype;
    if (!ty_is_scalar(it) || !ty_is_scalar(start.t)) {
        ty_error(fn, loc, "numjit's sum() of a list adds numbers, not %s", l.t->name);
        return verr();
    }
    const Type *t = start.t;
    for (int k = 0; k < 3; k++)
        t = ty_unify(t, ty_arith(t, it));
    if (!fn->emit)
        return vval(t, NULL);
    int acc = ty_temp_var(fn, t);
    ty_store_var(fn, acc, ty_cast(fn, start.v, start.t, t, loc), loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, list_len(fn, l.v, loc), loc);
    const Type *at = ty_arith(t, it);
    IrInst *s = bin(fn, IR_ADD, at, ty_cast(fn, ty_load_var(fn, acc, t, loc), t, at, loc),
                    ty_cast(fn, list_get(fn, l.t, l.v, k, loc), it, at, loc), loc);
    ty_store_var(fn, acc, ty_cast(fn, s, at, t, loc), loc);
    ty_loop_close(fn, &L, loc);
    return vval(t, ty_load_var(fn, acc, t, loc));
}

/* min(l) / max(l): the first smallest (largest) item; an empty list raises StopIteration, as
 * under Numba (its min() takes the first item with next()). */
Val ty_list_minmax(Fn *fn, Val l, bool is_max, Loc loc) {
    if (!typed_items(fn, l, loc))
        return verr();
    const Type *it = l.t->dtype;
    if (!ty_is_scalar(it)) {
        ty_error(fn, loc, "numjit's %s() of a list compares numbers, not %s",
                 is_max ? "max" : "min", l.t->name);
        return verr();
    }
    if (!fn->emit)
        return vval(it, NULL);
    IrInst *n = list_len(fn, l.v, loc);
    IrBlock *empty = ty_block(fn), *some = ty_block(fn); /* Numba's next() of the iterator */
    ty_condbr(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), empty, some, loc);
    ty_set_block(fn, empty);
    IrInst *r = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
    if (r)
        r->imm.index = ir_user_raise_site(fn->tc->p, RAISE_STOP_ITERATION, "", loc);
    ty_set_block(fn, some);
    int acc = ty_temp_var(fn, it);
    ty_store_var(fn, acc, list_get(fn, l.t, l.v, i64c(fn, 0, loc), loc), loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, n, loc);
    IrInst *x = list_get(fn, l.t, l.v, k, loc), *m = ty_load_var(fn, acc, it, loc);
    ty_store_var(fn, acc, sel(fn, it, cmp(fn, is_max ? CMP_GT : CMP_LT, x, m, loc), x, m, loc),
                 loc);
    ty_loop_close(fn, &L, loc);
    return vval(it, ty_load_var(fn, acc, it, loc));
}

/* ---- numba.typed.List ---------------------------------------------------------------------- */
/* In compiled code a typed list is a list: `List()` is an empty one typed by its first append,
 * as `[]` is, and `List.empty_list(item_type)` an empty list of that item type (the optional
 * `allocated` is typed and, as a capacity hint, not needed: lists grow by doubling). */
Val ty_list_typed_new(Fn *fn, Node *call) {
    if (!on_cpu(fn, call->loc))
        return verr();
    if (call->list.n || call->list2.n) {
        ty_error(fn, call->loc, "numjit does not take an iterable in numba.typed.List(...) "
                 "inside compiled code yet: make List() and append the items");
        return verr();
    }
    return new_list(fn, ty_list(NULL, false), i64c(fn, 0, call->loc), call->loc);
}

Val ty_list_typed_empty(Fn *fn, Node *call) {
    static const char *const params[] = {"item_type", "allocated", NULL};
    Node *a[2];
    if (!on_cpu(fn, call->loc) ||
        !ty_bind_args(fn, call, "List.empty_list", params, 2, 1, 0, a))
        return verr();
    const Type *it = ty_type_expr(fn, a[0]);
    if (!it)
        return verr();
    if (a[1]) {
        Val n = ty_value(fn, a[1]);
        if (n.k != V_VAL)
            return verr();
        if (!ty_is_int(n.t)) {
            ty_error(fn, a[1]->loc, "List.empty_list(allocated=...) takes an integer, not %s",
                     n.t->name);
            return verr();
        }
    }
    const Type *lt = list_of(fn, it, call->loc);
    return lt ? new_list(fn, lt, i64c(fn, 0, call->loc), call->loc) : verr();
}

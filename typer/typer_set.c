/* typer_set.c — sets of numbers in compiled code (Numba's Set), typed as Numba 0.56 types them
 * and expanded into the set ops of the IR (set.new ... set.binop; the table is runtime/set.c's,
 * laid out as Numba's so that a loop over a set sees Numba's order).
 *
 *   {a, b, c}          set.new 3, then set.add of each item, converted to their unified type
 *   set(), set(it)     set(undefined), typed by the variable's first add (Numba's refinement);
 *                      set(it) of a 1-d array, a list or a set: set.new len(it), then each add
 *   x in s, len(s)     set.find >= 0, set.len
 *   for x in s         entries from set.next(s, 0) on, in table order
 *   s | t, s & t, s - t, s ^ t   set.binop (a new set), and their augmented forms set.merge
 *   s.add, s.pop, ...  rows of lib/dict.c, whose handlers are here: KeyError
 *                      "set.pop(): empty set" and "set.remove(): key not in set" as Numba's
 *
 * A set variable owns a reference to the set (ty_has_refs); a new one is owned by the statement
 * that made it (ty_own).  Items are numbers (and bools); sets of strings or tuples, and sets
 * passed in from Python, are not supported yet.  A set returned to Python (alone or in a
 * tuple) is handed over by the C entry as a list of its items (cg_set_put_njarray) that the
 * Python package turns into a set, as Numba boxes its reflected sets.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <string.h>

static bool on_cpu(Fn *fn, Loc loc) {
    if (fn->tc->target == TARGET_CPU)
        return true;
    ty_error(fn, loc, "sets are not supported in CUDA kernels and device functions");
    return false;
}

static bool typed_items(Fn *fn, Val s, Loc loc) {
    if (s.t->dtype)
        return true;
    ty_error(fn, loc, "the type of this empty set's items is not known: add to it first");
    return false;
}

static IrInst *sop(Fn *fn, IrOp op, const Type *t, Loc loc, IrInst *a, IrInst *b, IrInst *c) {
    IrInst *ops[3] = {a, b, c};
    IrInst *in = ty_emit(fn, op, t, loc, c ? 3 : b ? 2 : 1, ops);
    if (in && (op == IR_SNEW || op == IR_SADD || op == IR_SCOPY || op == IR_SMERGE ||
               op == IR_SBINOP))
        in->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a set", loc);
    return in;
}

static Val new_set(Fn *fn, const Type *st, IrInst *hint, Loc loc) {
    return ty_own(fn, vval(st, sop(fn, IR_SNEW, st, loc, hint, NULL, NULL)), loc);
}

static const Type *set_of(Fn *fn, const Type *t, Loc loc) {
    const Type *st = ty_set(t);
    if (!st)
        ty_error(fn, loc, "numjit supports sets of numbers, not of %s", t->name);
    return st;
}

/* x converted to the set's item type; false (with the error) when it cannot be */
static bool item_ok(Fn *fn, Val s, Val x, Loc loc) {
    if (x.t == s.t->dtype || (ty_is_scalar(x.t) && ty_unify(s.t->dtype, x.t) == s.t->dtype))
        return true;
    ty_error(fn, loc, "cannot use %s as an item of %s", x.t->name, s.t->name);
    return false;
}

static void add(Fn *fn, Val s, Val x, Loc loc) {
    sop(fn, IR_SADD, ty_void, loc, s.v, ty_cast(fn, x.v, x.t, s.t->dtype, loc), NULL);
}

/* ---- the order Numba adds a literal's items in ----------------------------------------------
 * Numba builds {a, b, c} by adding c, b, a (the last item first).  CPython 3.11 compiles a
 * literal of more than two constants into a constant frozenset and an update of an empty set,
 * which Numba also runs backwards: the items in the frozenset's own iteration order, last
 * first.  That order is CPython's set table (Objects/setobject.c): 8 slots to start, the
 * entry at hash & mask then up to LINEAR_PROBES after it, then perturbation; four times the
 * used entries when the fill reaches 3/5 of the mask.  It is replayed here for integer
 * constants (whose hash is their value modulo 2**61 - 1, -1 hashing to -2). */
enum { PY_LINEAR_PROBES = 9 };

static bool int_const(const Node *e, int64_t *v) {
    if (e->kind == ND_INT && !e->str) {
        *v = e->ival;
        return true;
    }
    if (e->kind == ND_BOOL) {
        *v = e->ival != 0;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && e->a->kind == ND_INT && !e->a->str) {
        *v = (int64_t)(0 - (uint64_t)e->a->ival);
        return true;
    }
    return false;
}

static int64_t py_int_hash(int64_t x) {
    const uint64_t mod = ((uint64_t)1 << 61) - 1;
    uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    int64_t h = (int64_t)(m % mod);
    h = x < 0 ? -h : h;
    return h == -1 ? -2 : h;
}

typedef struct PySlot { bool full; int64_t hash, key; int item; } PySlot;

static void py_insert_clean(PySlot *t, uint64_t mask, PySlot e) {
    uint64_t perturb = (uint64_t)e.hash, i = (uint64_t)e.hash & mask;
    for (;;) {
        if (!t[i].full)
            goto put;
        if (i + PY_LINEAR_PROBES <= mask)
            for (int j = 0; j < PY_LINEAR_PROBES; j++)
                if (!t[++i].full)
                    goto put;
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
put:
    t[i] = e;
}

/* The items of the constant literal e (n > 2 integer constants) in the order CPython's
 * frozenset of them iterates; false when e is not such a literal (or memory is short). */
static bool frozenset_order(Fn *fn, Node *e, int *order, int *norder) {
    int n = e->list.n;
    if (n <= 2)
        return false;
    int64_t *keys = arena_alloc(fn->tc->arena, sizeof *keys * (size_t)n);
    for (int i = 0; i < n; i++)
        if (!int_const(e->list.items[i], &keys[i]))
            return false;
    uint64_t mask = 7;
    int64_t fill = 0, used = 0;
    PySlot *t = arena_alloc(fn->tc->arena, sizeof *t * 8);
    memset(t, 0, sizeof *t * 8);
    for (int k = 0; k < n; k++) {
        int64_t h = py_int_hash(keys[k]);
        uint64_t perturb = (uint64_t)h, i = (uint64_t)h & mask;
        bool dup = false;
        for (;;) {
            uint64_t probes = i + PY_LINEAR_PROBES <= mask ? PY_LINEAR_PROBES : 0, j = i;
            for (uint64_t p = 0; p <= probes; p++, j++) {
                if (!t[j].full)
                    goto unused;
                if (t[j].hash == h && t[j].key == keys[k]) {
                    dup = true;
                    goto unused;
                }
            }
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
            continue;
        unused:
            i = j;
            break;
        }
        if (dup)
            continue;
        t[i] = (PySlot){true, h, keys[k], k};
        fill++, used++;
        if ((uint64_t)fill * 5 < mask * 3)
            continue;
        uint64_t size = 8;
        while (size <= (uint64_t)used * 4)
            size <<= 1;
        PySlot *nt = arena_alloc(fn->tc->arena, sizeof *nt * size);
        memset(nt, 0, sizeof *nt * size);
        for (uint64_t q = 0; q <= mask; q++)
            if (t[q].full)
                py_insert_clean(nt, size - 1, t[q]);
        t = nt;
        mask = size - 1;
        fill = used;
    }
    *norder = 0;
    for (uint64_t q = 0; q <= mask; q++)
        if (t[q].full)
            order[(*norder)++] = t[q].item;
    return true;
}

Val ty_set_literal(Fn *fn, Node *e) {
    if (!on_cpu(fn, e->loc))
        return verr();
    int n = e->list.n;
    Val *items = arena_alloc(fn->tc->arena, sizeof *items * (size_t)n);
    const Type *item = NULL;
    for (int i = 0; i < n; i++) {
        items[i] = ty_value(fn, e->list.items[i]);
        if (items[i].k != V_VAL)
            return verr();
        const Type *u = item ? ty_unify(item, items[i].t) : items[i].t;
        if (!u) {
            ty_error(fn, e->list.items[i]->loc, "a set cannot hold both %s and %s", item->name,
                     items[i].t->name);
            return verr();
        }
        item = u;
    }
    const Type *st = set_of(fn, item, e->loc);
    if (!st)
        return verr();
    /* the order of the adds: Numba's (see above), the last item first */
    int *order = arena_alloc(fn->tc->arena, sizeof *order * (size_t)(n ? n : 1)), norder = n;
    bool folded = frozenset_order(fn, e, order, &norder);
    if (!folded)
        for (int i = 0; i < n; i++)
            order[i] = i;
    Val s = new_set(fn, st, i64c(fn, folded ? 0 : n, e->loc), e->loc);
    for (int i = norder - 1; i >= 0; i--)
        add(fn, s, items[order[i]], e->loc);
    return s;
}

/* set() and set(iterable): a 1-d array, a list or a set */
Val ty_set_ctor(Fn *fn, Val *a, int n, Loc loc) {
    if (!on_cpu(fn, loc))
        return verr();
    if (n == 0)
        return new_set(fn, ty_set(NULL), i64c(fn, 0, loc), loc);
    Val it = a[0];
    bool arr = it.t->kind == TY_ARRAY && it.t->ndim == 1;
    if (n > 1 || (!arr && it.t->kind != TY_LIST && it.t->kind != TY_SET)) {
        ty_error(fn, loc, "numjit's set() takes nothing, a 1-d array, a list or a set, not %s",
                 n > 1 ? "several arguments" : it.t->name);
        return verr();
    }
    if (it.t->kind != TY_ARRAY && !it.t->dtype) {
        ty_error(fn, loc, "the type of this empty container's items is not known");
        return verr();
    }
    const Type *st = set_of(fn, it.t->dtype, loc);
    if (!st)
        return verr();
    if (it.t->kind == TY_SET)
        return ty_own(fn, vval(st, sop(fn, IR_SCOPY, st, loc, it.v, NULL, NULL)), loc);
    if (!fn->emit)
        return vval(st, NULL);
    IrInst *len = arr ? extent(fn, it.v, 0, loc) : ty_emit(fn, IR_LLEN, ty_i64, loc, 1, &it.v);
    Val s = new_set(fn, st, len, loc);
    TyLoop L;
    IrInst *i = ty_loop_open(fn, &L, len, loc);
    IrInst *x;
    if (arr) {
        x = ty_aload(fn, it.v, it.t->dtype, &i, 1, loc);
    } else {
        IrInst *ops[2] = {it.v, i};
        x = ty_emit(fn, IR_LGET, it.t->dtype, loc, 2, ops);
    }
    add(fn, s, vval(it.t->dtype, x), loc);
    ty_loop_close(fn, &L, loc);
    return s;
}

IrInst *ty_set_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    return ty_emit(fn, IR_CAST, to, loc, 1, &v);
}

Val ty_set_len(Fn *fn, Val s, Loc loc) {
    if (!s.t->dtype)
        return vval(ty_i64, i64c(fn, 0, loc));
    return vval(ty_i64, sop(fn, IR_SLEN, ty_i64, loc, s.v, NULL, NULL));
}

Val ty_set_contains(Fn *fn, Val s, Val x, bool negate, Loc loc) {
    if (!typed_items(fn, s, loc) || !item_ok(fn, s, x, loc))
        return verr();
    IrInst *i = sop(fn, IR_SFIND, ty_i64, loc, s.v, ty_cast(fn, x.v, x.t, s.t->dtype, loc), NULL);
    return vval(ty_bool, cmp(fn, negate ? CMP_LT : CMP_GE, i, i64c(fn, 0, loc), loc));
}

static void assign_item(Fn *fn, Node *s, Val st, IrInst *i, int how, Loc loc) {
    (void)how;
    IrInst *item = fn->emit ? sop(fn, IR_SKEY, st.t->dtype, loc, st.v, i, NULL) : NULL;
    ty_assign_target(fn, s->a, vval(st.t->dtype, item), loc);
}

bool ty_set_for(Fn *fn, Node *s) {
    bool emit = fn->emit;
    fn->emit = false;
    Val peek = ty_expr(fn, s->b);
    fn->emit = emit;
    if (peek.k != V_VAL || peek.t->kind != TY_SET)
        return false;
    Val st = ty_keep(fn, ty_value(fn, s->b), s->b->loc);
    if (st.k == V_VAL && typed_items(fn, st, s->b->loc))
        ty_entries_for(fn, s, st, IR_SNEXT, assign_item, 0);
    return true;
}

/* ---- operators and methods ------------------------------------------------------------------ */
static int op_kind(OpKind op) {
    return op == OP_BITOR ? 0 : op == OP_BITAND ? 1 : op == OP_SUB ? 2 : op == OP_BITXOR ? 3 : -1;
}

static bool same_sets(Fn *fn, Val a, Val b, const char *what, Loc loc) {
    if (a.t->kind == TY_SET && b.t->kind == TY_SET && a.t->dtype && a.t == b.t)
        return true;
    ty_error(fn, loc, "%s of %s and %s is not supported (numjit needs two sets of one item type)",
             what, a.t->name, b.t->name);
    return false;
}

Val ty_set_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    int k = op_kind(op);
    if (k < 0) {
        ty_error(fn, loc, "unsupported operand types for %s: %s and %s", ast_op_spelling[op],
                 a.t->name, b.t->name);
        return verr();
    }
    if (!same_sets(fn, a, b, ast_op_spelling[op], loc))
        return verr();
    IrInst *r = sop(fn, IR_SBINOP, a.t, loc, a.v, b.v, i64c(fn, k, loc));
    return ty_own(fn, vval(a.t, r), loc);
}

/* s.METHOD(other) for the set algebra: a new set (union ...) or s changed in place (..._update,
 * update) */
Val ty_set_algebra(Fn *fn, const char *name, Val s, Val o, Loc loc) {
    static const char *const names[][2] = {
        {"union", "update"}, {"intersection", "intersection_update"},
        {"difference", "difference_update"},
        {"symmetric_difference", "symmetric_difference_update"},
    };
    for (int k = 0; k < 4; k++)
        for (int inplace = 0; inplace < 2; inplace++) {
            if (strcmp(name, names[k][inplace]))
                continue;
            if (inplace && k == 0 && !s.t->dtype && o.t->kind == TY_SET) /* set().update(t) */
                s = vval(o.t, ty_emit(fn, IR_CAST, o.t, loc, 1, &s.v));
            if (!same_sets(fn, s, o, name, loc))
                return verr();
            if (!inplace)
                return ty_own(fn, vval(s.t, sop(fn, IR_SBINOP, s.t, loc, s.v, o.v, i64c(fn, k, loc))),
                              loc);
            sop(fn, IR_SMERGE, ty_void, loc, s.v, o.v, i64c(fn, k, loc));
            return ty_none_value(fn, loc);
        }
    return verr();
}

/* While inferring, `name.add(x)` of an empty set gives the variable `name` its item type. */
static void refine(Fn *fn, Node *call, Val s, const Type *item) {
    Node *recv = call->a->kind == ND_ATTR ? call->a->a : NULL;
    if (fn->emit || !recv || recv->kind != ND_NAME || s.t->dtype || !ty_set(item))
        return;
    ty_assign_name(fn, recv->name, vval(ty_set(item), NULL), recv->loc);
}

Val ty_set_add(Fn *fn, Val s, Node *call, Val x) {
    Loc loc = call->loc;
    refine(fn, call, s, x.t);
    if (!fn->emit)
        return ty_none_value(fn, loc);
    if (!typed_items(fn, s, loc) || !item_ok(fn, s, x, loc))
        return verr();
    add(fn, s, x, loc);
    return ty_none_value(fn, loc);
}

/* s.discard(x), s.remove(x) (KeyError when absent) */
Val ty_set_discard(Fn *fn, Val s, Val x, bool remove, Loc loc) {
    if (!typed_items(fn, s, loc) || !item_ok(fn, s, x, loc))
        return verr();
    IrInst *r = sop(fn, IR_SDISCARD, ty_i64, loc, s.v, ty_cast(fn, x.v, x.t, s.t->dtype, loc),
                    NULL);
    if (remove && fn->emit) {
        IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
        ty_condbr(fn, cmp(fn, CMP_EQ, r, i64c(fn, 0, loc), loc), bad, ok, loc);
        ty_set_block(fn, bad);
        IrInst *in = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
        if (in)
            in->imm.index = ir_user_raise_site(fn->tc->p, RAISE_KEY,
                                               "set.remove(): key not in set", loc);
        ty_set_block(fn, ok);
    }
    return ty_none_value(fn, loc);
}

Val ty_set_pop(Fn *fn, Val s, Loc loc) {
    if (!typed_items(fn, s, loc))
        return verr();
    if (!fn->emit)
        return vval(s.t->dtype, NULL);
    IrInst *n = sop(fn, IR_SLEN, ty_i64, loc, s.v, NULL, NULL);
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *in = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
    if (in)
        in->imm.index = ir_user_raise_site(fn->tc->p, RAISE_KEY, "set.pop(): empty set", loc);
    ty_set_block(fn, ok);
    return vval(s.t->dtype, sop(fn, IR_SPOP, s.t->dtype, loc, s.v, NULL, NULL));
}

Val ty_set_clear(Fn *fn, Val s, Loc loc) {
    if (s.t->dtype)
        sop(fn, IR_SCLEAR, ty_void, loc, s.v, NULL, NULL);
    return ty_none_value(fn, loc);
}

Val ty_set_copy(Fn *fn, Val s, Loc loc) {
    if (!typed_items(fn, s, loc))
        return verr();
    return ty_own(fn, vval(s.t, sop(fn, IR_SCOPY, s.t, loc, s.v, NULL, NULL)), loc);
}

/* A set of numbers goes back to Python as a set (the C entry hands its items over as a list's,
 * NJ_KIND_SET); a set whose item type no add decided cannot be typed for Python. */
bool ty_set_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc) {
    if (!ret || ret->kind != TY_SET || ret->dtype)
        return true;
    diag_error(diags, loc, "'%s' returns %s: the type of the set's items is not known (add an "
               "item to it)", name, ret->name);
    return false;
}

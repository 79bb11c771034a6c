/* typer_seq.c — for loops over tuples, zip(...) and enumerate(...) of them, as Numba 0.56.
 *
 *   for d in (-1, 0, 1):                  a homogeneous tuple (UniTuple): its elements in order
 *   for n in a.shape:  for x in t:        the same for any tuple value (of numbers, tuples or
 *                                         arrays: a tuple holding arrays is kept while it runs)
 *   for x, y in zip(a, range(n), t):      in step, as long as the shortest (arrays, ranges, tuples)
 *   for i, (x, y) in enumerate(zip(...)): a counter from enumerate's start
 *   for i, d in enumerate((-1, 0, 1)):    enumerate of a tuple
 *   for c in s:                           a string's characters, each a string of one
 *
 * Each source has a length (an array's first extent, a range's length as typer.c counts it, a
 * tuple's element count) and an element at counter k (a[k] or a row view, start + k * step,
 * the tuple's k-th element chosen by a chain of selects).  The loop is one counted loop
 * (ty_loop_open) to the least length; its element, or the tuple of the zipped elements, is
 * assigned to the target as an assignment does, so nested targets unpack.  A tuple whose
 * elements differ in type is refused, as Numba refuses it without literal_unroll.  Loops this
 * file does not take (a plain range or array, enumerate of those) stay with typer.c.
 */
#include "typer_internal.h"

#include <string.h>

#define SEQ_MAX 16 /* sources zipped at most */

typedef enum { SRC_RANGE, SRC_ARRAY, SRC_TUPLE, SRC_STR } SrcKind;

typedef struct {
    SrcKind kind;
    Val v;                     /* the array or tuple */
    const Type *ct;            /* SRC_RANGE: the counter's type (int64, or uint64) */
    IrInst *start, *step, *n;  /* SRC_RANGE: bounds cast to ct; all: the length (int64) */
    const Type *et;            /* the element's type */
} Src;

/* The builtin a call's callee names ("zip", "enumerate"), or NULL. */
static const char *builtin_callee(Fn *fn, Node *e) {
    if (!e || e->kind != ND_CALL || e->a->kind != ND_NAME)
        return NULL;
    bool emit = fn->emit;
    fn->emit = false;
    Val c = ty_expr(fn, e->a);
    fn->emit = emit;
    return c.k == V_BUILTIN ? c.name : NULL;
}

/* The type of e, without emitting it. */
static Val probe(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v;
}

static bool is_tuple_val(Val v) {
    return v.k == V_VAL && (v.t->kind == TY_TUPLE || v.t == ty_str); /* strings: typer_str.c */
}

/* Whether this file takes the loop: a tuple iterated, or a zip, or enumerate of either. */
static bool takes(Fn *fn, Node *it) {
    const char *b = builtin_callee(fn, it);
    if (b && !strcmp(b, "zip"))
        return true;
    if (b && !strcmp(b, "enumerate"))
        return it->list.n >= 1 && !it->list2.n && takes(fn, it->list.items[0]);
    if (b && strcmp(b, "literal_unroll")) /* literal_unroll(t): t (lib/numba.c) */
        return false;
    return is_tuple_val(probe(fn, it));
}

static bool src_open(Fn *fn, Node *e, Src *s) {
    Val v = ty_expr(fn, e);
    Loc loc = e->loc;
    memset(s, 0, sizeof *s);
    if (v.k == V_RANGE) {
        if (v.idx == 1) {
            ty_error(fn, loc, "prange() is supported only as the iterable of a for loop itself");
            return false;
        }
        s->kind = SRC_RANGE;
        s->ct = (v.rt[0] == ty_u64 && v.rt[1] == ty_u64) ? ty_u64 : ty_i64;
        s->et = s->ct;
        if (!fn->emit)
            return true;
        s->start = ty_cast(fn, v.r[0], v.rt[0], s->ct, loc);
        IrInst *stop = ty_cast(fn, v.r[1], v.rt[1], s->ct, loc);
        s->step = ty_cast(fn, v.r[2], v.rt[2], ty_i64, loc);
        if (!s->start || !stop || !s->step)
            return false;
        int sign = 0;
        if (s->step->op == IR_CONST) {
            if (s->step->imm.i == 0) {
                ty_error(fn, loc, "range() arg 3 must not be zero");
                return false;
            }
            sign = s->step->imm.i > 0 ? 1 : -1;
        } else {
            ty_raise_if(fn, cmp(fn, CMP_EQ, s->step, i64c(fn, 0, loc), loc), RAISE_VALUE,
                        "range() arg 3 must not be zero", loc);
        }
        s->n = ty_cast(fn, ty_range_len(fn, s->ct, s->start, stop, s->step, sign, loc), ty_u64,
                       ty_i64, loc);
        return true;
    }
    if (v.k != V_VAL)
        return false;
    if (v.t->kind == TY_ARRAY && v.t->ndim >= 1) {
        s->kind = SRC_ARRAY;
        s->v = fn->emit ? ty_keep(fn, v, loc) : v;
        bool emit = fn->emit;
        fn->emit = false; /* the row view's type only */
        s->et = v.t->ndim > 1 ? ty_array_row(fn, vval(v.t, NULL), NULL, loc).t : v.t->dtype;
        fn->emit = emit;
        if (fn->emit)
            s->n = extent(fn, s->v.v, 0, loc);
        return s->et != NULL;
    }
    if (v.t == ty_str) { /* its characters, each a string of one */
        s->kind = SRC_STR;
        s->v = fn->emit ? ty_keep(fn, v, loc) : v;
        s->et = ty_str;
        if (fn->emit)
            s->n = ty_str_nchars(fn, s->v, loc);
        return true;
    }
    if (v.t->kind == TY_TUPLE) {
        for (int j = 1; j < v.t->nelems; j++)
            if (v.t->elems[j] != v.t->elems[0]) {
                ty_error(fn, loc, "numjit cannot iterate the heterogeneous tuple %s (Numba "
                         "needs numba.literal_unroll for it)", v.t->name);
                return false;
            }
        const Type *et = v.t->nelems ? v.t->elems[0] : ty_i64;
        if (!ty_is_elem(et) && et->kind != TY_TUPLE &&
            !(et->kind == TY_ARRAY && et->addrspace == AS_GENERIC)) {
            ty_error(fn, loc, "numjit cannot iterate a tuple of %s", v.t->elems[0]->name);
            return false;
        }
        s->kind = SRC_TUPLE;
        s->v = fn->emit ? ty_keep(fn, v, loc) : v; /* its arrays live while the loop runs */
        s->et = v.t->nelems ? v.t->elems[0] : ty_i64;
        if (fn->emit)
            s->n = i64c(fn, v.t->nelems, loc);
        return true;
    }
    ty_error(fn, loc, "numjit can zip ranges, arrays, tuples and strings, not %s", v.t->name);
    return false;
}

/* The element at counter k (emitting only). */
static Val src_elem(Fn *fn, Src *s, IrInst *k, Loc loc) {
    if (s->kind == SRC_RANGE)
        return vval(s->ct, bin(fn, IR_ADD, s->ct, s->start,
                               bin(fn, IR_MUL, s->ct, ty_cast(fn, k, ty_i64, s->ct, loc),
                                   ty_cast(fn, s->step, ty_i64, s->ct, loc), loc), loc));
    if (s->kind == SRC_ARRAY) {
        if (s->v.t->ndim > 1)
            return ty_array_row(fn, s->v, k, loc);
        IrInst *ops[2] = {s->v.v, k};
        return vval(s->et, ty_emit(fn, IR_ALOAD, s->et, loc, 2, ops));
    }
    if (s->kind == SRC_STR)
        return ty_str_char(fn, s->v, k, loc);
    IrInst *r = NULL;
    for (int j = s->v.t->nelems - 1; j >= 0; j--) {
        IrInst *x = ty_emit(fn, IR_EXTRACT, s->et, loc, 1, &s->v.v);
        if (x)
            x->imm.index = j;
        r = r ? sel(fn, s->et, cmp(fn, CMP_EQ, k, i64c(fn, j, loc), loc), x, r, loc) : x;
    }
    return vval(s->et, r);
}

/* One loop's sources: a zip's arguments, or the one iterable; enum: enumerate's start node
 * (or the call itself when it has none), NULL when not enumerated. */
typedef struct {
    Src src[SEQ_MAX];
    int n;
    bool zipped, enumerated;
    IrInst *first; /* enumerate's start as int64 */
} Seq;

static bool seq_open(Fn *fn, Node *it, Seq *q) {
    const char *b = builtin_callee(fn, it);
    memset(q, 0, sizeof *q);
    if (b && !strcmp(b, "enumerate")) {
        if (it->list.n > 2) {
            ty_error(fn, it->loc, "numjit supports enumerate(iterable) and "
                     "enumerate(iterable, start)");
            return false;
        }
        q->enumerated = true;
        q->first = fn->emit ? i64c(fn, 0, it->loc) : NULL;
        if (it->list.n == 2) {
            Val sv = ty_value(fn, it->list.items[1]);
            if (sv.k != V_VAL)
                return false;
            if (!ty_is_int(sv.t) && sv.t != ty_bool) {
                ty_error(fn, it->list.items[1]->loc,
                         "the start of enumerate() must be an integer, not %s", sv.t->name);
                return false;
            }
            q->first = ty_cast(fn, sv.v, sv.t, ty_i64, it->loc);
        }
        it = it->list.items[0];
        b = builtin_callee(fn, it);
    }
    if (b && !strcmp(b, "zip")) {
        if (it->list2.n || it->list.n > SEQ_MAX) {
            ty_error(fn, it->loc, "numjit supports zip() of at most %d iterables, without "
                     "keywords", SEQ_MAX);
            return false;
        }
        q->zipped = true;
        q->n = it->list.n;
        for (int i = 0; i < q->n; i++)
            if (!src_open(fn, it->list.items[i], &q->src[i]))
                return false;
        return true;
    }
    q->n = 1;
    return src_open(fn, it, &q->src[0]);
}

/* The loop variable's value at counter k: the element, the zip's tuple, enumerate's pair. */
static Val seq_value(Fn *fn, Seq *q, IrInst *k, Loc loc) {
    const Type *t[SEQ_MAX];
    IrInst *v[SEQ_MAX];
    Val r;
    for (int i = 0; i < q->n; i++) {
        Val e = fn->emit ? src_elem(fn, &q->src[i], k, loc) : vval(q->src[i].et, NULL);
        t[i] = e.t, v[i] = e.v;
    }
    if (q->zipped) {
        const Type *tt = ty_tuple(t, q->n);
        r = vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, q->n, v));
    } else {
        r = vval(t[0], v[0]);
    }
    if (!q->enumerated)
        return r;
    const Type *pt[2] = {ty_i64, r.t};
    IrInst *pv[2] = {fn->emit ? bin(fn, IR_ADD, ty_i64, q->first, k, loc) : NULL, r.v};
    const Type *tt = ty_tuple(pt, 2);
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, 2, pv));
}

bool ty_seq_for(Fn *fn, Node *s) {
    if (!takes(fn, s->b))
        return false;
    Loc loc = s->loc;
    Seq q;
    if (!seq_open(fn, s->b, &q))
        return true;
    if (!fn->emit) { /* inference: the target's type, then the bodies */
        ty_assign_target(fn, s->a, seq_value(fn, &q, NULL, loc), loc);
        ty_loop_body(fn, &s->list, NULL, NULL, loc);
        ty_stmts(fn, &s->list2);
        return true;
    }
    IrInst *n = q.n ? q.src[0].n : i64c(fn, 0, loc); /* zip() of nothing is empty */
    for (int i = 1; i < q.n; i++)
        n = sel(fn, ty_i64, cmp(fn, CMP_LT, q.src[i].n, n, loc), q.src[i].n, n, loc);
    TyLoop L;
    IrInst *k = ty_loop_open(fn, &L, n, loc);
    IrBlock *latch = ty_block(fn), *exit = ty_block(fn);
    ty_assign_target(fn, s->a, seq_value(fn, &q, k, loc), loc);
    ty_loop_body(fn, &s->list, exit, latch, loc);
    ty_br(fn, latch, loc);
    ty_set_block(fn, latch);
    ty_loop_close(fn, &L, loc); /* ends in L.exit */
    ty_stmts(fn, &s->list2);    /* else: the loop ended without break */
    ty_br(fn, exit, loc);
    ty_set_block(fn, exit);
    return true;
}

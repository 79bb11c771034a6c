/* typer_tuple.c — tuples as values, as Numba 0.56 types them.
 *
 *   t[1:]  t[::-1]  a.shape[:2]     slices with constant bounds: a new tuple of the elements
 *   t + u                           concatenation (any element types)
 *   x in t   x not in t             x == some element
 *   t == u  t != u  t < u  ...      Python's order: the first elements that differ decide,
 *                                   else the lengths (nested tuples compare the same way)
 *
 * Every result is built from the operands' elements (IR_EXTRACT) and put back together with
 * IR_TUPLE, so the lengths and element types are known while typing, as in Numba, where each
 * tuple length is its own type.  Elements compare as numbers compare (int64, or float64 when
 * a float or a uint64 against a signed integer takes part); complex numbers only by == and !=.
 * A slice bound that is not a constant integer is refused, as Numba refuses it.  Tuples may
 * nest (((1, 2), (3, 4)), (a, a.shape)) inside compiled code; the entry returning one to its
 * caller is refused (ty_tuple_result_ok) until the result layout can describe it.
 */
#include "typer_internal.h"

static Val elem(Fn *fn, Val t, int i, Loc loc) {
    IrInst *x = ty_emit(fn, IR_EXTRACT, t.t->elems[i], loc, 1, &t.v);
    if (x)
        x->imm.index = i;
    return vval(t.t->elems[i], x);
}

static Val build(Fn *fn, Val *v, int n, Loc loc) {
    if (n > 16) {
        ty_error(fn, loc, "tuples of more than 16 values are not supported");
        return verr();
    }
    const Type *t[16];
    IrInst *x[16];
    for (int i = 0; i < n; i++)
        t[i] = v[i].t, x[i] = v[i].v;
    const Type *tt = ty_tuple(t, n);
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, n, x));
}

/* A slice bound: absent (false with *given false), a constant integer, or an error. */
static bool bound(Fn *fn, Node *e, int64_t *k, bool *given) {
    *given = e != NULL;
    if (!e)
        return true;
    if (e->kind == ND_INT) {
        *k = e->ival;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && e->a->kind == ND_INT) {
        *k = -e->a->ival;
        return true;
    }
    ty_error(fn, e->loc, "a tuple can be sliced with constant integers only");
    return false;
}

Val ty_tuple_slice(Fn *fn, Val o, Node *ix, Loc loc) {
    int64_t lo = 0, hi = 0, step = 1, n = o.t->nelems;
    bool has_lo, has_hi, has_step;
    if (!bound(fn, ix->a, &lo, &has_lo) || !bound(fn, ix->b, &hi, &has_hi) ||
        !bound(fn, ix->c, &step, &has_step))
        return verr();
    if (step == 0) {
        ty_error(fn, ix->c->loc, "slice step cannot be zero");
        return verr();
    }
    /* Python's slice.indices(n) */
    int64_t dlo = step > 0 ? 0 : n - 1, dhi = step > 0 ? n : -1;
    int64_t clo = step > 0 ? 0 : -1, chi = step > 0 ? n : n - 1;
    if (has_lo) {
        lo = lo < 0 ? lo + n : lo;
        lo = lo < clo ? clo : lo > chi ? chi : lo;
    } else {
        lo = dlo;
    }
    if (has_hi) {
        hi = hi < 0 ? hi + n : hi;
        hi = hi < clo ? clo : hi > chi ? chi : hi;
    } else {
        hi = dhi;
    }
    Val v[16];
    int m = 0;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step)
        v[m++] = elem(fn, o, (int)i, loc);
    return build(fn, v, m, loc);
}

Val ty_tuple_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (op != OP_ADD || a.t->kind != TY_TUPLE || b.t->kind != TY_TUPLE) {
        ty_error(fn, loc, "unsupported operand types for %s: '%s' and '%s'", ast_op_spelling[op],
                 a.t->name, b.t->name);
        return verr();
    }
    int n = a.t->nelems + b.t->nelems;
    if (n > 16) {
        ty_error(fn, loc, "tuples of more than 16 values are not supported");
        return verr();
    }
    Val v[16];
    for (int i = 0; i < a.t->nelems; i++)
        v[i] = elem(fn, a, i, loc);
    for (int i = 0; i < b.t->nelems; i++)
        v[a.t->nelems + i] = elem(fn, b, i, loc);
    return build(fn, v, n, loc);
}

/* *out = x p y of two numbers; false with the error reported */
static bool num_cmp(Fn *fn, CmpPred p, Val x, Val y, Loc loc, IrInst **out) {
    if (x.t->kind == TY_TUPLE && y.t->kind == TY_TUPLE) { /* nested tuples: in order too */
        OpKind op = p == CMP_EQ ? OP_EQ : p == CMP_NE ? OP_NE : p == CMP_LT ? OP_LT
                    : p == CMP_LE ? OP_LE : p == CMP_GT ? OP_GT : OP_GE;
        Val r = ty_tuple_compare(fn, op, x, y, loc);
        *out = r.v;
        return r.k == V_VAL;
    }
    if ((x.t->kind == TY_TUPLE || y.t->kind == TY_TUPLE) && (p == CMP_EQ || p == CMP_NE)) {
        *out = ty_const_int(fn, ty_bool, p == CMP_NE, loc); /* a tuple is no number */
        return true;
    }
    bool cx = ty_is_complex(x.t) || ty_is_complex(y.t);
    bool okx = ty_is_scalar(x.t) || (cx && ty_is_elem(x.t));
    bool oky = ty_is_scalar(y.t) || (cx && ty_is_elem(y.t));
    if (!okx || !oky || (cx && p != CMP_EQ && p != CMP_NE)) {
        ty_error(fn, loc, "cannot compare '%s' and '%s' in tuples", x.t->name, y.t->name);
        return false;
    }
    if (cx) {
        Val r = ty_complex_compare(fn, p == CMP_EQ ? OP_EQ : OP_NE, x, y, loc);
        *out = r.v;
        return r.k == V_VAL;
    }
    const Type *t = (x.t == ty_bool && y.t == ty_bool) ? ty_bool : ty_arith(x.t, y.t);
    if (t == ty_i64 && (x.t == ty_u64 || y.t == ty_u64))
        t = ty_f64;
    *out = cmp(fn, p, ty_cast(fn, x.v, x.t, t, loc), ty_cast(fn, y.v, y.t, t, loc), loc);
    return true;
}

static IrInst *bconst(Fn *fn, bool v, Loc loc) { return ty_const_int(fn, ty_bool, v, loc); }

Val ty_tuple_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (op == OP_IN || op == OP_NOTIN) {
        if (b.t->kind != TY_TUPLE) {
            ty_error(fn, loc, "'%s' needs a tuple on its right, not '%s' and '%s'",
                     ast_op_spelling[op], a.t->name, b.t->name);
            return verr();
        }
        IrInst *r = bconst(fn, false, loc);
        for (int i = 0; i < b.t->nelems; i++) {
            IrInst *c;
            if (!num_cmp(fn, CMP_EQ, a, elem(fn, b, i, loc), loc, &c))
                return verr();
            r = bin(fn, IR_BITOR, ty_bool, r, c, loc);
        }
        if (op == OP_NOTIN)
            r = bin(fn, IR_BITXOR, ty_bool, r, bconst(fn, true, loc), loc);
        return vval(ty_bool, r);
    }
    if (a.t->kind != TY_TUPLE || b.t->kind != TY_TUPLE || op == OP_IS || op == OP_ISNOT) {
        ty_error(fn, loc, "cannot compare '%s' and '%s' with '%s'", a.t->name, b.t->name,
                 ast_op_spelling[op]);
        return verr();
    }
    int na = a.t->nelems, nb = b.t->nelems, m = na < nb ? na : nb;
    CmpPred p = op == OP_EQ ? CMP_EQ : op == OP_NE ? CMP_NE : op == OP_LT ? CMP_LT
                : op == OP_LE ? CMP_LE : op == OP_GT ? CMP_GT : CMP_GE;
    bool by_len = p == CMP_EQ ? na == nb : p == CMP_NE ? na != nb : p == CMP_LT ? na < nb
                  : p == CMP_LE ? na <= nb : p == CMP_GT ? na > nb : na >= nb;
    if ((p == CMP_EQ || p == CMP_NE) && na != nb)
        return vval(ty_bool, bconst(fn, by_len, loc));
    /* from the last common element back: where x != y, x p y decides, else what follows */
    IrInst *r = bconst(fn, by_len, loc);
    for (int i = m - 1; i >= 0; i--) {
        Val x = elem(fn, a, i, loc), y = elem(fn, b, i, loc);
        IrInst *ne, *c;
        if (!num_cmp(fn, CMP_NE, x, y, loc, &ne) || !num_cmp(fn, p, x, y, loc, &c))
            return verr();
        r = sel(fn, ty_bool, ne, c, r, loc);
    }
    return vval(ty_bool, r);
}

/* The elements of tuple t into v (for min, max and sum).  what: the caller's name when the
 * elements must share one type, as Numba's iteration needs (else the error is reported and the
 * result false); NULL for any types. */
bool ty_tuple_elems(Fn *fn, Val t, Val *v, const char *what, Loc loc) {
    for (int i = 0; i < t.t->nelems; i++) {
        if (what && t.t->elems[i] != t.t->elems[0]) {
            ty_error(fn, loc, "%s() of the heterogeneous tuple %s is not supported", what,
                     t.t->name);
            return false;
        }
        v[i] = elem(fn, t, i, loc);
    }
    return true;
}

bool ty_tuple_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc) {
    for (int i = 0; ret && ret->kind == TY_TUPLE && i < ret->nelems; i++)
        if (ret->elems[i]->kind == TY_TUPLE) {
            diag_error(diags, loc, "'%s' returns the nested tuple %s: numjit cannot return a "
                       "tuple of tuples to Python yet (inside compiled code they work)", name,
                       ret->name);
            return false;
        }
    return true;
}

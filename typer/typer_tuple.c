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
 * nest (((1, 2), (3, 4)), (a, a.shape)); an entry returns them to its caller as nested C
 * structs (numjit.h: NjLayoutNode), and takes them as arguments the same way.
 */
#include "typer_internal.h"

static Val elem(Fn *fn, Val t, int i, Loc loc) {
    IrInst *x = ty_emit(fn, IR_EXTRACT, t.t->elems[i], loc, 1, &t.v);
    if (x)
        x->imm.index = i;
    return vval(t.t->elems[i], x);
}

Val *ty_tuple_vals(Fn *fn, int n) {
    return arena_alloc(fn->tc->arena, sizeof(Val) * (size_t)(n ? n : 1));
}

/* A tuple of any length: the element arrays come from the compilation's arena. */
static Val build(Fn *fn, Val *v, int n, Loc loc) {
    const Type **t = arena_alloc(fn->tc->arena, sizeof *t * (size_t)(n ? n : 1));
    IrInst **x = arena_alloc(fn->tc->arena, sizeof *x * (size_t)(n ? n : 1));
    if (!t || !x)
        return verr();
    for (int i = 0; i < n; i++)
        t[i] = v[i].t, x[i] = v[i].v;
    const Type *tt = ty_tuple(t, n);
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, n, x));
}

Val ty_tuple_literal(Fn *fn, Node *e) {
    int n = e->list.n;
    Val *v = ty_tuple_vals(fn, n);
    if (!v)
        return verr();
    for (int i = 0; i < n; i++) {
        Val x = ty_value(fn, e->list.items[i]);
        if (x.k != V_VAL)
            return verr();
        if (!ty_is_elem(x.t) && x.t->kind != TY_TUPLE &&
            x.t != ty_str && /* strings exist on the CPU only (typer_str.c) */
            !(((x.t->kind == TY_ARRAY && x.t->addrspace == AS_GENERIC) ||
               x.t->kind == TY_LIST || ty_is_instance(x.t)) &&
              fn->tc->target == TARGET_CPU)) {
            ty_error(fn, e->list.items[i]->loc, "tuples of %s are not supported", x.t->name);
            return verr();
        }
        v[i] = x;
    }
    return build(fn, v, n, e->loc);
}

/* Element i of tuple t, and a tuple of the values v[0..n-1]: for binding `*args` and `f(*t)`
 * (typer_optional.c). */
Val ty_tuple_elem(Fn *fn, Val t, int i, Loc loc) { return elem(fn, t, i, loc); }
Val ty_tuple_build(Fn *fn, Val *v, int n, Loc loc) { return build(fn, v, n, loc); }

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
    Val *v = ty_tuple_vals(fn, (int)n);
    if (!v)
        return verr();
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
    Val *v = ty_tuple_vals(fn, n);
    if (!v)
        return verr();
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

/* Whether every leaf of t has a C form (numjit.h: NjLayoutNode), which an entry's result needs:
 * numbers, arrays, strings and lists of numbers or strings (None and Optional are tuples
 * here), and a named tuple only as the whole value (inner: t is inside another tuple). */
static bool c_form(const Type *t, bool inner) {
    if (t->kind == TY_TUPLE) {
        /* a named tuple comes back as its class only as the whole result (python/numjit/
         * _tuple.c: namedtuple_result_class); inside another tuple it would lose its class */
        if (inner && t->role == TR_TUPLE && t->func)
            return false;
        for (int i = 0; i < t->nelems; i++)
            if (!c_form(t->elems[i], true))
                return false;
        return true;
    }
    return ty_is_elem(t) || t == ty_str || (t->kind == TY_ARRAY && t->addrspace == AS_GENERIC) ||
           (t->kind == TY_LIST && t->dtype && (ty_is_elem(t->dtype) || t->dtype == ty_str));
}

bool ty_tuple_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc) {
    if (!ret || ret->kind != TY_TUPLE || c_form(ret, false))
        return true;
    diag_error(diags, loc, "'%s' returns %s, which numjit cannot return to its caller", name,
               ret->name);
    return false;
}

/* ---- a tuple value as the index of an array: a[idx], a[idx] = v ---------------------------- */

/* Whether ix (not written as a tuple) is an expression whose value is a tuple: idx from
 * np.ndindex or np.ndenumerate, a.shape-derived tuples, a tuple argument. */
static bool tuple_valued(Fn *fn, Node *ix) {
    if (ix->kind == ND_TUPLE || ix->kind == ND_SLICE || ix->kind == ND_INT)
        return false;
    bool emit = fn->emit;
    fn->emit = false;
    Val p = ty_expr(fn, ix);
    fn->emit = emit;
    return p.k == V_VAL && p.t->kind == TY_TUPLE;
}

/* The indices of idx into args[1..ndim], as int64, bounds-checked as the function asks. */
static bool tuple_indices(Fn *fn, Val arr, Node *ix, IrInst **args, Loc loc) {
    Val t = ty_value(fn, ix);
    if (t.k != V_VAL)
        return false;
    if (t.t->nelems != arr.t->ndim) { /* Numba gives a view for fewer: not yet here */
        ty_error(fn, ix->loc, "numjit indexes %s with a tuple of %d integers, not %s",
                 arr.t->name, arr.t->ndim, t.t->name);
        return false;
    }
    for (int k = 0; k < t.t->nelems; k++) {
        const Type *et = t.t->elems[k];
        if (!ty_is_int(et) && et != ty_bool) {
            ty_error(fn, ix->loc, "array index must be an integer, not %s (in %s)", et->name,
                     t.t->name);
            return false;
        }
        IrInst *x = elem(fn, t, k, loc).v;
        args[1 + k] = ty_bounds_check(fn, arr.v, ty_cast(fn, x, et, ty_i64, loc), et, k, loc);
    }
    return true;
}

bool ty_tuple_index_get(Fn *fn, Val arr, Node *ix, Loc loc, Val *out) {
    if (!tuple_valued(fn, ix))
        return false;
    IrInst *args[1 + TY_MAX_NDIM];
    args[0] = arr.v;
    *out = verr();
    if (tuple_indices(fn, arr, ix, args, loc))
        *out = vval(arr.t->dtype,
                    ty_emit(fn, IR_ALOAD, arr.t->dtype, loc, arr.t->ndim + 1, args));
    return true;
}

bool ty_tuple_index_set(Fn *fn, Val arr, Node *ix, Val v, Loc loc) {
    if (!tuple_valued(fn, ix))
        return false;
    if (!ty_is_elem(v.t) || (ty_is_complex(v.t) && !ty_is_complex(arr.t->dtype))) {
        ty_error(fn, loc, "cannot store %s into an element of %s", v.t->name, arr.t->name);
        return true;
    }
    IrInst *args[2 + TY_MAX_NDIM];
    args[0] = arr.v;
    if (!tuple_indices(fn, arr, ix, args, loc))
        return true;
    args[1 + arr.t->ndim] = ty_cast(fn, v.v, v.t, arr.t->dtype, loc);
    ty_emit(fn, IR_ASTORE, ty_void, loc, arr.t->ndim + 2, args);
    return true;
}

/* ---- x, y = arr: unpacking an array --------------------------------------------------------- */

/* Numba unpacks an array of at least one dimension along its first: the elements of a 1-d
 * array, the rows (views) of an n-d one.  A length other than the targets' count raises
 * ValueError without a message, as Numba's does. */
void ty_array_unpack(Fn *fn, Node *target, Val v, Loc loc) {
    int n = target->list.n;
    if (v.t->ndim < 1) {
        ty_error(fn, target->loc, "cannot unpack %s into %d names", v.t->name, n);
        return;
    }
    const Type *et = v.t->dtype;
    if (v.t->ndim > 1) {
        bool emit = fn->emit;
        fn->emit = false; /* the row view's type only */
        et = ty_array_row(fn, vval(v.t, NULL), NULL, loc).t;
        fn->emit = emit;
        if (!et)
            return;
    }
    if (!fn->emit) {
        for (int i = 0; i < n; i++)
            ty_assign_target(fn, target->list.items[i], vval(et, NULL), loc);
        return;
    }
    v = ty_keep(fn, v, loc); /* a target may rebind the array's own name */
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_NE, extent(fn, v.v, 0, loc), ty_const_int(fn, ty_i64, n, loc), loc),
              bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *r = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
    if (r)
        r->imm.index = ir_user_raise_site(fn->tc->p, RAISE_VALUE, "", loc);
    ty_set_block(fn, ok);
    Val *el = ty_tuple_vals(fn, n);
    if (!el)
        return;
    for (int i = 0; i < n; i++) { /* every element read before any target is assigned */
        IrInst *k = ty_const_int(fn, ty_i64, i, loc);
        if (v.t->ndim > 1) {
            el[i] = ty_array_row(fn, v, k, loc); /* views of v, which is kept */
        } else {
            IrInst *ops[2] = {v.v, k};
            el[i] = vval(et, ty_emit(fn, IR_ALOAD, et, loc, 2, ops));
        }
    }
    for (int i = 0; i < n; i++)
        ty_assign_target(fn, target->list.items[i], el[i], loc);
}

/* typer_optional.c — None as a value, Numba's Optional, `is None` tests, and the binding of a
 * call's keyword, default and `*t` arguments to a function of the program.
 *
 * None has the type `none` (ty_none: an empty tuple to the IR).  Where a variable, a
 * conditional expression or the returns of a function meet None and a value of type T, the
 * unified type is OptionalType(T) (types.c): the pair (valid, value), the value zero — a null
 * array — when it holds None.  A value of type T or None becomes an Optional by a cast
 * (ty_optional_cast, called by ty_cast); using an Optional where its T is wanted (ty_value:
 * arithmetic, calls, indexing) unwraps it, raising Numba's TypeError "expected T, got None"
 * when it holds None.
 *
 * `x is None` and `x is not None` are constants when the type of x says (none: always None;
 * any type but none and Optional: never), and `if` then types only the branch that runs
 * (ty_static_truth), as Numba's dead-branch pruning does: `if y is None: return x` with y an
 * array never types `x + y` with y None.  On an Optional they test the valid bit.
 *
 * A call f(a, k=v) of a function of the program binds its arguments as Python does: the
 * positional ones first, then the keywords by parameter name, then the defaults of the def
 * (typed where the call is: constants, None, module constants), with the messages of Python's
 * inspect.Signature.bind, which Numba's typer uses (ty_bind_call).
 */
#include "typer_internal.h"

#include <string.h>

/* ---- values ------------------------------------------------------------------------------- */
Val ty_none_value(Fn *fn, Loc loc) {
    const Type *t = ty_none();
    return vval(t, ty_emit(fn, IR_TUPLE, t, loc, 0, NULL));
}

/* The value field of an Optional holding None: zero, or a fresh hidden variable never
 * assigned (a null array: counted variables start empty). */
static IrInst *zero_of(Fn *fn, const Type *t, Loc loc) {
    if (ty_is_float(t))
        return ty_const_float(fn, t, 0.0, loc);
    if (ty_is_scalar(t) || ty_is_complex(t))
        return ty_const_int(fn, t, 0, loc);
    if (!fn->emit)
        return NULL;
    return ty_load_var(fn, ty_temp_var(fn, t), t, loc);
}

static IrInst *extract(Fn *fn, IrInst *v, const Type *t, int k, Loc loc) {
    IrInst *x = ty_emit(fn, IR_EXTRACT, t, loc, 1, &v);
    if (x)
        x->imm.index = k;
    return x;
}

static IrInst *make_optional(Fn *fn, const Type *to, IrInst *valid, IrInst *x, Loc loc) {
    IrInst *ops[2] = {valid, x};
    return ty_emit(fn, IR_TUPLE, to, loc, 2, ops);
}

IrInst *ty_optional_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    const Type *vt = ty_optional_value(to);
    if (ty_is_none(from))
        return make_optional(fn, to, ty_const_int(fn, ty_bool, 0, loc), zero_of(fn, vt, loc), loc);
    if (ty_is_optional(from)) {
        IrInst *valid = extract(fn, v, ty_bool, 0, loc);
        IrInst *x = extract(fn, v, from->elems[1], 1, loc);
        return make_optional(fn, to, valid, ty_cast(fn, x, from->elems[1], vt, loc), loc);
    }
    return make_optional(fn, to, ty_const_int(fn, ty_bool, 1, loc), ty_cast(fn, v, from, vt, loc),
                         loc);
}

static void raise_type_error(Fn *fn, IrInst *bad, const char *msg, Loc loc) {
    if (!bad || !fn->emit || !fn->cur)
        return;
    IrBlock *err = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, bad, err, ok, loc);
    ty_set_block(fn, err);
    if (!ir_block_terminated(fn->cur)) {
        IrInst *in = ir_emit(fn->f, fn->cur, IR_RAISE, ty_void, loc, 0, NULL);
        in->imm.index = ir_user_raise_site(fn->tc->p, RAISE_TYPE, msg, loc);
    }
    ty_set_block(fn, ok);
}

Val ty_optional_unwrap(Fn *fn, Val v, Loc loc) {
    if (v.k != V_VAL || !ty_is_optional(v.t))
        return v;
    const Type *t = v.t->elems[1];
    if (!fn->emit)
        return vval(t, NULL);
    IrInst *valid = extract(fn, v.v, ty_bool, 0, loc);
    IrInst *bad = valid ? ty_emit(fn, IR_NOT, ty_bool, loc, 1, &valid) : NULL;
    raise_type_error(fn, bad, arena_printf(fn->tc->arena, "expected %s, got None", t->name), loc);
    return vval(t, extract(fn, v.v, t, 1, loc));
}

/* ---- `is None` ------------------------------------------------------------------------------ */
/* 1: x is always None, 0: never, -1: only known when it runs (an Optional). */
static int always_none(const Type *t) {
    return ty_is_none(t) ? 1 : ty_is_optional(t) ? -1 : 0;
}

static IrInst *is_none_of(Fn *fn, Val x, Loc loc) {
    int k = always_none(x.t);
    if (k >= 0)
        return ty_const_int(fn, ty_bool, k, loc);
    IrInst *valid = extract(fn, x.v, ty_bool, 0, loc);
    return valid ? ty_emit(fn, IR_NOT, ty_bool, loc, 1, &valid) : NULL;
}

bool ty_is_none_compare(OpKind op, Val a, Val b) {
    return (op == OP_IS || op == OP_ISNOT) && a.k == V_VAL && b.k == V_VAL &&
           (ty_is_none(a.t) || ty_is_none(b.t));
}

Val ty_none_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    Val x = ty_is_none(a.t) ? b : a;
    IrInst *r = is_none_of(fn, x, loc);
    if (op == OP_ISNOT && r)
        r = r->op == IR_CONST ? ty_const_int(fn, ty_bool, !r->imm.i, loc)
                              : ty_emit(fn, IR_NOT, ty_bool, loc, 1, &r);
    return vval(ty_bool, r);
}

/* The type of e, typed without emitting anything; NULL when it is not a value. */
static const Type *peek_type(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v.k == V_VAL ? v.t : NULL;
}

int ty_static_truth(Fn *fn, Node *c) {
    if (c->kind == ND_NONE)
        return 0;
    if (c->kind == ND_UNARY && c->op == OP_NOT) {
        int k = ty_static_truth(fn, c->a);
        return k < 0 ? -1 : !k;
    }
    if (c->kind == ND_COMPARE && c->list.n == 2 && (c->ops[0] == OP_IS || c->ops[0] == OP_ISNOT)) {
        Node *x = c->list.items[0], *y = c->list.items[1];
        if (x->kind == ND_NONE) {
            Node *t = x;
            x = y;
            y = t;
        }
        if (y->kind != ND_NONE)
            return -1;
        const Type *t = peek_type(fn, x);
        int k = t ? always_none(t) : -1;
        return k < 0 ? -1 : c->ops[0] == OP_IS ? k : !k;
    }
    if (c->kind == ND_NAME) {
        const Type *t = peek_type(fn, c);
        return t && ty_is_none(t) ? 0 : -1;
    }
    return -1;
}

/* ---- binding a call of a function of the program ---------------------------------------------- */
/* Whether reading x twice gives the same value and does nothing else: a name, an attribute
 * of one (`t`, `a.shape`), a number, or a tuple display of those (`(t, 1)`). */
static bool pure_read(const Node *x) {
    while (x->kind == ND_ATTR)
        x = x->a;
    if (x->kind == ND_TUPLE) {
        for (int i = 0; i < x->list.n; i++)
            if (!pure_read(x->list.items[i]))
                return false;
        return true;
    }
    return x->kind == ND_NAME || x->kind == ND_INT || x->kind == ND_FLOAT;
}

/* f(x, *t): the call with t's elements as arguments, t[0], t[1], ... (Numba spreads a tuple
 * of known length the same way); e itself when it has no `*`, or when a `*` operand is not a
 * pure read (the program's own functions bind those once: ty_bind_call); NULL after an
 * error. */
Node *ty_spread_starred(Fn *fn, Node *e) {
    int n = 0;
    bool any = false;
    for (int i = 0; i < e->list.n; i++) {
        const Node *x = e->list.items[i];
        if (x->kind == ND_STARRED && !pure_read(x->a))
            return e;
        any |= x->kind == ND_STARRED;
    }
    if (!any)
        return e;
    Arena *ar = fn->tc->arena;
    Node *c = ast_new(ar, ND_CALL, e->loc);
    c->a = e->a;
    c->list2 = e->list2;
    for (int i = 0; i < e->list.n; i++) {
        Node *x = e->list.items[i];
        if (x->kind != ND_STARRED) {
            ast_list_push(ar, &c->list, x);
            continue;
        }
        bool emit = fn->emit;
        fn->emit = false;
        Val t = ty_expr(fn, x->a);
        fn->emit = emit;
        if (t.k == V_ERR)
            return NULL;
        if (t.k != V_VAL || t.t->kind != TY_TUPLE || t.t->role != TR_TUPLE) {
            ty_error(fn, x->loc, "'*' in a call needs a tuple, not %s", ty_what(t));
            return NULL;
        }
        for (int k = 0; k < t.t->nelems; k++, n++) {
            Node *ix = ast_new(ar, ND_INT, x->loc);
            ix->ival = k;
            Node *sub = ast_new(ar, ND_SUBSCRIPT, x->loc);
            sub->a = x->a;
            sub->b = ix;
            ast_list_push(ar, &c->list, sub);
        }
    }
    return c;
}

static const char *plural(int n, const char *one, const char *many) { return n == 1 ? one : many; }

/* The call's positional arguments, `*t` unpacked into t's elements (a tuple, as Numba takes
 * it): nodes in node[], or values in val[] where an element came from a tuple.  -1 on error. */
static int positional(Fn *fn, Node *call, Node **node, Val *val, int max) {
    int n = 0;
    for (int k = 0; k < call->list.n; k++) {
        Node *x = call->list.items[k];
        if (x->kind != ND_STARRED) {
            if (n == max)
                return max + 1;
            node[n] = x, val[n].k = V_ERR;
            n++;
            continue;
        }
        Val t = ty_value(fn, x->a);
        if (t.k != V_VAL)
            return -1;
        if (t.t->kind != TY_TUPLE) {
            ty_error(fn, x->loc, "numjit unpacks only tuples with '*' (this is %s)", t.t->name);
            return -1;
        }
        for (int i = 0; i < t.t->nelems; i++) {
            if (n == max)
                return max + 1;
            node[n] = NULL, val[n] = ty_tuple_elem(fn, t, i, x->loc);
            n++;
        }
    }
    return n;
}

static bool arg_value(Fn *fn, Node *node, Val *v) {
    if (!node)
        return v->k == V_VAL;
    *v = ty_expr(fn, node);
    if (v->k != V_VAL && v->k != V_ERR)
        *v = ty_value(fn, node); /* reports what it is */
    return v->k == V_VAL;
}

/* Binds a call of a function of the program as inspect.Signature.bind does: positional
 * arguments (`*t` unpacked), keywords, defaults; a `*args` parameter (the last) gets the
 * positional arguments left over as one tuple, as Numba passes them. */
bool ty_bind_call(Fn *fn, const FuncInfo *fi, Node *call, Val *a, int *n) {
    const NodeList *ps = &fi->def->params;
    enum { MAXP = 16, MAXPOS = 64 };
    Node *given[MAXP] = {NULL}, *pnode[MAXPOS];
    Val pval[MAXPOS];
    bool star = ps->n && ps->items[ps->n - 1]->ival == 1;
    int nfix = ps->n - star;
    if (ps->n > MAXP) {
        ty_error(fn, call->loc, "%s() has too many parameters for numjit (at most 16)", fi->name);
        return false;
    }
    int npos = positional(fn, call, pnode, pval, MAXPOS);
    if (npos < 0)
        return false;
    if (npos > MAXPOS) {
        ty_error(fn, call->loc, "too many positional arguments for numjit (at most %d)", MAXPOS);
        return false;
    }
    if (npos > nfix && !star) {
        ty_error(fn, call->loc, "too many positional arguments: %s() takes %d %s but %d %s given",
                 fi->name, ps->n, plural(ps->n, "argument", "arguments"), npos,
                 plural(npos, "was", "were"));
        return false;
    }
    int from[MAXP]; /* the positional argument bound to parameter k, or -1 */
    for (int k = 0; k < nfix; k++)
        from[k] = k < npos ? k : -1;
    for (int j = 0; j < call->list2.n; j++) {
        Node *kw = call->list2.items[j];
        int k = -1;
        for (int i = 0; i < nfix; i++)
            if (!strcmp(ps->items[i]->name, kw->name))
                k = i;
        if (k < 0) {
            ty_error(fn, kw->loc, "got an unexpected keyword argument '%s' in the call of %s()",
                     kw->name, fi->name);
            return false;
        }
        if (given[k] || from[k] >= 0) {
            ty_error(fn, kw->loc, "multiple values for argument '%s' in the call of %s()",
                     kw->name, fi->name);
            return false;
        }
        given[k] = kw->a;
    }
    for (int k = 0; k < nfix; k++) {
        if (from[k] < 0 && !given[k] && !(given[k] = ps->items[k]->a)) {
            ty_error(fn, call->loc, "missing a required argument: '%s' in the call of %s()",
                     ps->items[k]->name, fi->name);
            return false;
        }
    }
    *n = ps->n;
    for (int k = 0; k < nfix; k++) { /* an Optional is passed as one (Numba) */
        Val v = from[k] >= 0 ? pval[from[k]] : (Val){V_ERR};
        if (!arg_value(fn, from[k] >= 0 ? pnode[from[k]] : given[k], &v))
            return false;
        a[k] = v;
    }
    if (star) {
        int extra = npos > nfix ? npos - nfix : 0;
        for (int i = 0; i < extra; i++)
            if (!arg_value(fn, pnode[nfix + i], &pval[nfix + i]))
                return false;
        a[nfix] = ty_tuple_build(fn, pval + nfix, extra, call->loc);
        if (a[nfix].k != V_VAL)
            return false;
    }
    return true;
}

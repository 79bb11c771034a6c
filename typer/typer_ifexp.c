/* typer_ifexp.c — conditional expressions, `a if c else b`: both arms typed, their types
 * unified as Numba's phi variable unifies them (an arm not typed yet during inference takes
 * the other's type), each arm's value cast and stored into one temporary on its own branch.
 * Two ranges (`range(a) if c else range(b)`) choose their start, stop and step the same way,
 * so the result is still a range a loop can walk. */
#include "typer_internal.h"

/* `range(a) if c else range(b)`: a range whose start, stop and step are chosen by c. */
static Val ifexp_range(Fn *fn, Node *e, Val ta, Val tb) {
    Val r = {.k = V_RANGE};
    for (int k = 0; k < 3; k++)
        r.rt[k] = ta.rt[k] == ty_u64 && tb.rt[k] == ty_u64 ? ty_u64 : ty_i64;
    if (!fn->emit)
        return r;
    int res[3];
    for (int k = 0; k < 3; k++)
        res[k] = ty_temp_var(fn, r.rt[k]);
    IrInst *c = ty_truth(fn, ty_value(fn, e->a), e->a->loc);
    IrBlock *bt = ty_block(fn), *bf = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, c, bt, bf, e->loc);
    Node *arms[2] = {e->b, e->c};
    IrBlock *blocks[2] = {bt, bf};
    for (int i = 0; i < 2; i++) {
        ty_set_block(fn, blocks[i]);
        Val v = ty_expr(fn, arms[i]);
        if (v.k != V_RANGE)
            return verr();
        for (int k = 0; k < 3; k++)
            ty_store_var(fn, res[k], ty_cast(fn, v.r[k], v.rt[k], r.rt[k], e->loc), e->loc);
        ty_br(fn, done, e->loc);
    }
    ty_set_block(fn, done);
    for (int k = 0; k < 3; k++)
        r.r[k] = ty_load_var(fn, res[k], r.rt[k], e->loc);
    return r;
}

Val ty_ifexp(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val ra = ty_expr(fn, e->b), rb = ty_expr(fn, e->c);
    fn->emit = emit;
    if (ra.k == V_RANGE && rb.k == V_RANGE && !ra.idx && !rb.idx)
        return ifexp_range(fn, e, ra, rb);
    fn->emit = false;
    Val ta = ty_value(fn, e->b), tb = ty_value(fn, e->c);
    fn->emit = emit;
    /* while inferring, an arm not typed yet (a recursive call) takes the other's type, as
     * Numba's phi variable does */
    if (!emit && (ta.k == V_VAL) != (tb.k == V_VAL))
        return vval(ta.k == V_VAL ? ta.t : tb.t, NULL);
    if (ta.k != V_VAL || tb.k != V_VAL) {
        if (emit) {
            ty_value(fn, e->a);
            ty_value(fn, e->b);
            ty_value(fn, e->c);
        }
        return verr();
    }
    const Type *t = ty_unify(ta.t, tb.t);
    if (!t) {
        ty_error(fn, e->loc, "the branches of this conditional expression have incompatible "
                             "types %s and %s", ta.t->name, tb.t->name);
        return verr();
    }
    if (!emit)
        return vval(t, NULL);
    int res = ty_temp_var(fn, t);
    IrInst *c = ty_truth(fn, ty_value(fn, e->a), e->a->loc);
    IrBlock *bt = ty_block(fn), *bf = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, c, bt, bf, e->loc);
    Node *arms[2] = {e->b, e->c};
    IrBlock *blocks[2] = {bt, bf};
    for (int i = 0; i < 2; i++) {
        ty_set_block(fn, blocks[i]);
        Val v = ty_value(fn, arms[i]);
        IrInst *x = ty_cast(fn, v.v, v.t, t, e->loc);
        ty_store_var(fn, res, x, e->loc);
        ty_br(fn, done, e->loc);
    }
    ty_set_block(fn, done);
    IrInst *v = ty_load_var(fn, res, t, e->loc);
    return vval(t, v);
}

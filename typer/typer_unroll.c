/* typer_unroll.c — `for x in literal_unroll(t)` over a tuple whose elements differ in type,
 * as Numba versions it: the loop is unrolled, the body typed and emitted once per element.
 *
 * Each version gets a loop variable of its own: while version j is typed, the target's name
 * stands for a hidden variable "x$uLINE.COL.j" (Fn.ren_from/ren_to, consulted wherever typer.c
 * looks a variable up or adds one), so `x` may be an int64 in one version and an array in the
 * next without a unification error.  Other variables keep one type across the versions, as
 * they would in any loop.  `break` jumps past the last version, `continue` to the next one,
 * and the `else:` clause runs after the last.  One such loop inside another is refused, as
 * Numba refuses it.  A tuple whose elements share a type stays a
 * counted loop (typer_seq.c); the elements are read with `extract` at constant indices, so a
 * tuple of functions (Numba's Dispatcher types) unrolls into direct calls.
 */
#include "typer_internal.h"

#include <string.h>

const char *ty_renamed(Fn *fn, const char *name) {
    for (int i = fn->nren - 1; i >= 0; i--)
        if (!strcmp(fn->ren_from[i], name))
            return fn->ren_to[i];
    return name;
}

/* The tuple of literal_unroll(t) when it is heterogeneous, else NULL (nothing emitted). */
static Node *unrolled_tuple(Fn *fn, Node *it) {
    if (!it || it->kind != ND_CALL || it->list.n != 1 || it->list2.n)
        return NULL;
    bool emit = fn->emit;
    fn->emit = false;
    Val c = ty_expr(fn, it->a);
    Val t = c.k == V_BUILTIN && !strcmp(c.name, "literal_unroll")
                ? ty_expr(fn, it->list.items[0]) : verr();
    fn->emit = emit;
    if (t.k == V_FUNC) /* literal_unroll(f): not a tuple; the row says so */
        return NULL;
    if (t.k != V_VAL || t.t->kind != TY_TUPLE || t.t->role != TR_TUPLE)
        return NULL;
    for (int i = 1; i < t.t->nelems; i++)
        if (t.t->elems[i] != t.t->elems[0])
            return it->list.items[0];
    return NULL;
}

static bool push_name(Fn *fn, Node *target, int j, Loc loc) {
    fn->ren_from[fn->nren] = target->name;
    fn->ren_to[fn->nren] = arena_printf(fn->tc->arena, "%s$u%d.%d.%d", target->name, loc.line,
                                        loc.col, j);
    fn->nren++;
    return true;
}

bool ty_unroll_for(Fn *fn, Node *s) {
    Node *tn = unrolled_tuple(fn, s->b);
    if (!tn)
        return false;
    Loc loc = s->loc;
    if (fn->nren) { /* Numba's mixed container unroll refuses it too */
        ty_error(fn, loc, "Nesting of literal_unroll is unsupported (a loop over a "
                 "heterogeneous tuple inside another)");
        return true;
    }
    if (s->a->kind != ND_NAME) {
        ty_error(fn, s->a->loc, "numjit unrolls a heterogeneous tuple into one name only "
                 "(`for x in literal_unroll(t)`), not into a pattern");
        return true;
    }
    Val t = ty_value(fn, tn);
    if (t.k != V_VAL)
        return true;
    if (fn->emit)
        t = ty_keep(fn, t, loc); /* its arrays live while the versions run */
    IrBlock *exit = fn->emit ? ty_block(fn) : NULL;
    for (int j = 0; j < t.t->nelems; j++) {
        const Type *et = t.t->elems[j];
        IrBlock *next = fn->emit ? ty_block(fn) : NULL;
        if (!push_name(fn, s->a, j, loc))
            return true;
        IrInst *x = NULL;
        if (fn->emit) {
            x = ty_emit(fn, IR_EXTRACT, et, loc, 1, &t.v);
            if (x)
                x->imm.index = j;
        }
        ty_assign_target(fn, s->a, vval(et, x), loc);
        ty_loop_body(fn, &s->list, exit, next, loc);
        fn->nren--;
        if (fn->emit) {
            ty_br(fn, next, loc);
            ty_set_block(fn, next);
        }
    }
    ty_stmts(fn, &s->list2); /* else: after the last version, unless a break left */
    if (fn->emit) {
        ty_br(fn, exit, loc);
        ty_set_block(fn, exit);
    }
    return true;
}

/* typer_genobj.c — a generator that Python calls, typed as a coroutine: a function that runs to
 * its next yield each time it is asked for a value.
 *
 * Where compiled code iterates a generator, its body is inlined into the loop (typer_gen.c).
 * Python's `g = gen(n)` instead needs an object that computes one value per next(g), as
 * Numba's generator object does, so that an endless generator (`while True: yield i`) returns
 * at once and the generator's side effects happen between the values.  The entry of such a
 * specialization is therefore the generator's own body, typed as any function's, except that
 *
 *     yield v     is an IR_YIELD of v, converted to the yields' unified type (IrFunc.yield:
 *                 the first inference rounds unify the type of every yield, as a variable's
 *                 assignments are unified), and
 *     return      ends the generator (the value of `return v` is dropped, as Numba drops it);
 *
 * its result type is the generator object, four int64s that codegen/genobj.c fills when the
 * function is called: the coroutine's handle, the addresses of its next() and destroy()
 * functions, and the dtype of its values.  The lowering keeps the function's variables and the
 * values live across a yield in the coroutine's frame (LLVM's coroutine passes spill them).
 *
 * Python receives the values one by one as numbers and booleans only (ty_genobj_lazy_ok); a
 * generator of strings, arrays or tuples is typed again as the list of its values
 * (ty_specialize, typer_spec.c).
 */
#include "typer_internal.h"

const Type *ty_genobj_type(void) {
    const Type *e[4] = {ty_i64, ty_i64, ty_i64, ty_i64};
    return ty_tuple(e, 4); /* interned: the same pointer each time */
}

bool ty_genobj_lazy_ok(const Type *t) {
    return t && (ty_is_scalar(t) || t->kind == TY_C64 || t->kind == TY_C128);
}

void ty_genobj_yield(Fn *fn, Node *s) {
    if (!s->a) {
        ty_error(fn, s->loc, "'yield' without a value: numjit's generators yield values");
        return;
    }
    Val v = ty_value(fn, s->a);
    if (v.k != V_VAL)
        return;
    if (!fn->emit) {
        const Type *u = fn->yield_t ? ty_unify(fn->yield_t, v.t) : v.t;
        if (!u) {
            ty_error(fn, s->loc, "this yields %s but an earlier yield gives %s: a generator's "
                     "values have one type", v.t->name, fn->yield_t->name);
            return;
        }
        if (u != fn->yield_t) {
            fn->yield_t = u;
            fn->changed = true;
        }
        return;
    }
    if (!fn->cur || ir_block_terminated(fn->cur))
        return;
    IrInst *x = ty_cast(fn, v.v, v.t, fn->f->yield, s->loc);
    if (x)
        ty_emit(fn, IR_YIELD, ty_void, s->loc, 1, &x);
}

bool ty_genobj_return(Fn *fn, Node *s) {
    if (fn->emit && fn->cur && !ir_block_terminated(fn->cur))
        ir_emit(fn->f, fn->cur, IR_RET, ty_void, s->loc, 0, NULL);
    return true;
}

/* typer_print.c — print() in compiled functions, as Numba 0.56 types it: positional arguments
 * that are scalars (bool, int, float) or string literals, written separated by spaces and
 * ended by a newline; print() alone writes an empty line.  The whole line becomes one IR_PRINT
 * whose text holds the literals and a \x01 for each value (ops.def); codegen/print.c and
 * runtime/print.c write it as Python's print would (on the GPU: vprintf, as numba-cuda).
 *
 * Arrays of numbers print as str(a), NumPy's formatting (CPU).  Refused, each with its
 * location: keywords (sep=, end=, file=: Numba refuses them too), tuples, complex arrays,
 * arrays in CUDA kernels, and text that is not a literal.
 */
#include "typer_internal.h"

#include <string.h>

Val ty_print_call(Fn *fn, Node *call) {
    if (call->list2.n) {
        ty_error(fn, call->list2.items[0]->loc,
                 "print() takes no keyword arguments in a compiled function");
        return verr();
    }
    int n = call->list.n;
    IrInst **args = arena_alloc(fn->tc->arena, sizeof(IrInst *) * (size_t)(n ? n : 1));
    if (!args)
        return verr();
    StrBuf line;
    sb_init(&line);
    int nv = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        Node *a = call->list.items[i];
        if (i)
            sb_putc(&line, ' ');
        if (a->kind == ND_STR) {
            for (const char *c = a->str; *c; c++)
                sb_putc(&line, *c == '\x01' ? '?' : *c);
            continue;
        }
        Val v = ty_value(fn, a);
        if (v.k != V_VAL) {
            ok = false;
        } else if (ty_is_none(v.t)) { /* None (typer_optional.c): its text */
            sb_puts(&line, "None");
        } else if (ty_is_complex(v.t) && fn->tc->target == TARGET_NVPTX) {
            ty_error(fn, a->loc, "print() of %s is not supported in CUDA kernels: print its "
                                 ".real and .imag", v.t->name);
            ok = false;
        } else if (v.t->kind == TY_ARRAY && fn->tc->target == TARGET_CPU &&
                   ty_is_scalar(v.t->dtype)) { /* str(a): the runtime formats it (CPU) */
            args[nv++] = v.v;
            sb_putc(&line, '\x01');
        } else if (v.t == ty_str) { /* its text (typer_str.c: strings are CPU only) */
            args[nv++] = v.v;
            sb_putc(&line, '\x01');
        } else if (!ty_is_elem(v.t)) {
            ty_error(fn, a->loc, "print() of %s is not supported by numjit: print its elements",
                     v.t->name);
            ok = false;
        } else {
            args[nv++] = v.v;
            sb_putc(&line, '\x01');
        }
    }
    sb_putc(&line, '\n');
    if (ok && fn->emit) {
        IrInst *in = ty_emit(fn, IR_PRINT, ty_void, call->loc, nv, args);
        if (in)
            in->imm.str = arena_strndup(fn->tc->arena, line.data, line.len);
    }
    sb_free(&line);
    return ok ? vval(ty_void, NULL) : verr();
}

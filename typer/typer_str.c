/* typer_str.c — strings in compiled functions, as Numba 0.56 types them (numba/cpython/
 * unicode.py): the type unicode_type, whose values are UTF-8 text with its byte and character
 * counts (an NjStr; codegen/str.c), counted like arrays when made at run time.
 *
 * A literal is a constant (IR_CONST of unicode_type); everything else is a call of the
 * runtime's string functions through `rtcall` (ir/str.def, runtime/str.c), typed here:
 *   s + t                       concat (a new string, owned until the end of the statement)
 *   s * n, n * s                repeat
 *   for c in s                  typer_seq.c, one character at a time (ty_str_char)
 *   == != < <= > >=             compare; two literals fold at compile time, so that an argument
 *                               such as method='linear' selects its branch as Numba's literal
 *                               dispatch does; a string against another type: == is False and
 *                               != True (Numba's unicode_eq), the others an error
 *   t in s, t not in s          contains
 *   len(s)                      the character count, read from the value (no call)
 *   s[i]                        IndexError "string index out of range" outside [-len, len)
 *   s[a:b:c]                    slice, bounds as Python's slice.indices
 *   str(s), str(int), str(bool) Numba 0.56 has no str() of a float (a located error)
 *   s.startswith(t), s.endswith(t)   (lib/str.c's rows; the other methods: typer_strmeth.c)
 *   if s:                       len(s) != 0
 * Strings are CPU only: in CUDA code a string value is an error (numba-cuda has none); print()
 * of a literal stays allowed there (typer_print.c).
 */
#include "typer_internal.h"

#include <string.h>

static bool on_cpu(Fn *fn, Loc loc) {
    if (fn->tc->target == TARGET_CPU)
        return true;
    ty_error(fn, loc, "strings are not supported in CUDA kernels and device functions");
    return false;
}

Val ty_str_literal(Fn *fn, Node *e) {
    if (!on_cpu(fn, e->loc))
        return verr();
    IrInst *c = ty_emit(fn, IR_CONST, ty_str, e->loc, 0, NULL);
    if (c)
        c->imm.str = e->str;
    return vval(ty_str, c);
}

/* A call of str.def's function f on args (n of them): its result, owned when a string. */
static Val rt(Fn *fn, RtFn f, IrInst **args, int n, Loc loc) {
    const Type *t = ty_scalar(ir_rtcall[f].ret);
    IrInst *r = ty_emit(fn, IR_RTCALL, t, loc, n, args);
    if (r)
        r->imm.index = f;
    return t == ty_str ? ty_own(fn, vval(t, r), loc) : vval(t, r);
}

static IrInst *nchars(Fn *fn, IrInst *s, Loc loc) {
    IrInst *n = ty_emit(fn, IR_EXTRACT, ty_i64, loc, 1, &s);
    if (n)
        n->imm.index = 2;
    return n;
}

static IrInst *str_extent(Fn *fn, IrInst *s, int d, Loc loc) {
    (void)d;
    return nchars(fn, s, loc);
}

Val ty_str_len(Fn *fn, Val s, Loc loc) { return vval(ty_i64, nchars(fn, s.v, loc)); }

IrInst *ty_str_truth(Fn *fn, Val s, Loc loc) {
    return cmp(fn, CMP_NE, nchars(fn, s.v, loc), i64c(fn, 0, loc), loc);
}

Val ty_str_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (op == OP_ADD && a.t == ty_str && b.t == ty_str) {
        IrInst *args[2] = {a.v, b.v};
        return rt(fn, RT_STR_CONCAT, args, 2, loc);
    }
    if (op == OP_MUL && (ty_is_int(a.t) || ty_is_int(b.t))) { /* s * n and n * s */
        Val s = a.t == ty_str ? a : b, n = a.t == ty_str ? b : a;
        IrInst *args[2] = {s.v, ty_cast(fn, n.v, n.t, ty_i64, loc)};
        if (n.t == ty_u64) /* past int64: more than any memory holds */
            args[1] = sel(fn, ty_i64, cmp(fn, CMP_LT, args[1], i64c(fn, 0, loc), loc),
                          i64c(fn, INT64_MAX, loc), args[1], loc);
        return rt(fn, RT_STR_REPEAT, args, 2, loc);
    }
    ty_error(fn, loc, "operator %s is not supported between %s and %s", ast_op_spelling[op],
             a.t->name, b.t->name);
    return verr();
}

/* if (c) raise IndexError(msg), as the library code of Numba raises it: str(e) is msg alone
 * (a site of the program's own kind, without location: docs/design-notes.md "Raise sites"). */
static void raise_if(Fn *fn, IrInst *c, RaiseKind kind, const char *msg, Loc loc) {
    if (!c || !fn->emit)
        return;
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *in = ir_emit(fn->f, fn->cur, IR_RAISE, ty_void, loc, 0, NULL);
    in->imm.index = ir_user_raise_site(fn->tc->p, kind, msg, loc);
    ty_set_block(fn, ok);
}

static bool is_literal(const IrInst *v) { return v && v->op == IR_CONST && v->imm.str; }

Val ty_str_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (a.t != ty_str || b.t != ty_str) {
        if (op == OP_EQ || op == OP_NE) /* Numba: a string equals nothing else */
            return vval(ty_bool, ty_const_int(fn, ty_bool, op == OP_NE, loc));
        ty_error(fn, loc, "'%s' is not supported between %s and %s", ast_op_spelling[op],
                 a.t->name, b.t->name);
        return verr();
    }
    if (op == OP_IN || op == OP_NOTIN) { /* a in b: b contains a */
        IrInst *args[2] = {b.v, a.v};
        Val r = rt(fn, RT_STR_CONTAINS, args, 2, loc);
        return vval(ty_bool, cmp(fn, op == OP_IN ? CMP_NE : CMP_EQ, r.v, i64c(fn, 0, loc), loc));
    }
    if (op == OP_IS || op == OP_ISNOT) {
        ty_error(fn, loc, "'%s' is not supported between strings", ast_op_spelling[op]);
        return verr();
    }
    CmpPred p = op == OP_EQ ? CMP_EQ : op == OP_NE ? CMP_NE : op == OP_LT ? CMP_LT
                : op == OP_LE ? CMP_LE : op == OP_GT ? CMP_GT : CMP_GE;
    if (is_literal(a.v) && is_literal(b.v)) { /* folded: a literal argument picks a branch */
        int c = strcmp(a.v->imm.str, b.v->imm.str);
        bool r = p == CMP_EQ ? c == 0 : p == CMP_NE ? c != 0 : p == CMP_LT ? c < 0
                 : p == CMP_LE ? c <= 0 : p == CMP_GT ? c > 0 : c >= 0;
        return vval(ty_bool, ty_const_int(fn, ty_bool, r, loc));
    }
    IrInst *args[2] = {a.v, b.v};
    Val r = rt(fn, RT_STR_COMPARE, args, 2, loc);
    return vval(ty_bool, cmp(fn, p, r.v, i64c(fn, 0, loc), loc));
}

Val ty_str_subscript(Fn *fn, Val s, Node *ix, Loc loc) {
    if (ix->kind == ND_SLICE) {
        IrInst *sl[3];
        if (!ty_slice_indices(fn, ix, str_extent, s.v, 0, sl, loc))
            return verr();
        if (!fn->emit)
            return vval(ty_str, NULL);
        IrInst *args[4] = {s.v, sl[0], sl[1], sl[2]};
        return rt(fn, RT_STR_SLICE, args, 4, loc);
    }
    if (ix->kind == ND_TUPLE) {
        ty_error(fn, ix->loc, "a string takes one index, not %d", ix->list.n);
        return verr();
    }
    Val i = ty_value(fn, ix);
    if (i.k != V_VAL)
        return verr();
    if (!ty_is_int(i.t)) {
        ty_error(fn, ix->loc, "string indices must be integers, not %s", i.t->name);
        return verr();
    }
    /* Numba's normalize_str_idx: one wrap of a negative index, then [0, len) */
    IrInst *n = nchars(fn, s.v, loc), *zero = i64c(fn, 0, loc);
    IrInst *k = ty_cast(fn, i.v, i.t, ty_i64, loc);
    if (!ty_is_signed(i.t)) /* a uint64 past int64 is out of range, never negative */
        raise_if(fn, cmp(fn, CMP_LT, k, zero, loc), RAISE_INDEX, "string index out of range",
                    loc);
    else
        k = sel(fn, ty_i64, cmp(fn, CMP_LT, k, zero, loc), bin(fn, IR_ADD, ty_i64, k, n, loc), k,
                loc);
    IrInst *bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, k, zero, loc),
                      cmp(fn, CMP_GE, k, n, loc), loc);
    raise_if(fn, bad, RAISE_INDEX, "string index out of range", loc);
    IrInst *args[2] = {s.v, k};
    return rt(fn, RT_STR_CHAR, args, 2, loc);
}

Val ty_str_char(Fn *fn, Val s, IrInst *k, Loc loc) {
    IrInst *args[2] = {s.v, k};
    return rt(fn, RT_STR_CHAR, args, 2, loc);
}

IrInst *ty_str_nchars(Fn *fn, Val s, Loc loc) { return nchars(fn, s.v, loc); }

Val ty_str_of(Fn *fn, Val x, Loc loc) {
    if (x.t == ty_str)
        return x;
    if (!on_cpu(fn, loc))
        return verr();
    if (x.t == ty_bool) { /* "True" if b else "False" */
        IrInst *y = ty_emit(fn, IR_CONST, ty_str, loc, 0, NULL), *no = ty_emit(fn, IR_CONST, ty_str, loc, 0, NULL);
        if (y && no) {
            y->imm.str = "True";
            no->imm.str = "False";
        }
        return vval(ty_str, sel(fn, ty_str, x.v, y, no, loc));
    }
    if (ty_is_int(x.t)) {
        bool sign = ty_is_signed(x.t);
        IrInst *v = ty_cast(fn, x.v, x.t, sign ? ty_i64 : ty_u64, loc);
        if (!sign)
            v = ty_cast(fn, v, ty_u64, ty_i64, loc); /* the same bits */
        return rt(fn, sign ? RT_STR_FROM_INT : RT_STR_FROM_UINT, &v, 1, loc);
    }
    ty_error(fn, loc, "str() of %s is not supported (Numba 0.56 converts integers, booleans and "
                      "strings)", x.t->name);
    return verr();
}

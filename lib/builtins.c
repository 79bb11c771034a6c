/* builtins.c — Python's builtins that compiled code may call: range, len, abs, min, max,
 * sum, list, int, float, bool, type, round, pow, complex, enumerate, zip and print, one row and one
 * handler each.
 *
 * Every rule is Numba's: min/max keep the first extreme, abs of an integer stays an integer
 * (of bool, an int64), round(x) rounds half to even and gives int64, round(x, ndigits) is
 * CPython's algorithm without dtoa (as Numba), int/float/bool convert, complex(re, im) is
 * typer_complex.c's.  range(...) gives a V_RANGE that only a for loop consumes (typer.c);
 * enumerate(...) and zip(...) are for loops' too (typer.c, typer_seq.c), so calling any of
 * them elsewhere is an error.
 */
#include "lib.h"

#include <string.h>

/* ---- range, enumerate, print ------------------------------------------------------------------- */
Val lib_range_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    Loc loc = call->loc;
    const char *name = le->spell;
    if (n < 1 || n > 3) {
        ty_error(fn, loc, "%s expected 1 to 3 arguments, got %d", name, n);
        return verr();
    }
    Val r = {.k = V_RANGE, .idx = name[0] == 'p'};
    for (int i = 0; i < n; i++)
        if (!ty_is_int(a[i].t) && a[i].t != ty_bool) {
            ty_error(fn, call->list.items[i]->loc, "range() needs integers, not %s", a[i].t->name);
            return verr();
        }
    Val start = n >= 2 ? a[0] : vval(ty_i64, ty_const_int(fn, ty_i64, 0, loc));
    Val stop = n >= 2 ? a[1] : a[0];
    Val step = n == 3 ? a[2] : vval(ty_i64, ty_const_int(fn, ty_i64, 1, loc));
    r.r[0] = start.v, r.rt[0] = start.t;
    r.r[1] = stop.v, r.rt[1] = stop.t;
    r.r[2] = step.v, r.rt[2] = step.t;
    return r;
}

static Val enumerate_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    ty_error(fn, call->loc, "enumerate() is supported only as the iterable of a for loop");
    return verr();
}

/* reversed(x): Numba 0.56 has no typing for it ("Untyped global name 'reversed'"), so a
 * program using it cannot run under Numba; refused with the way that works in both. */
static Val reversed_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    ty_error(fn, call->loc, "reversed() is not supported (Numba 0.56 cannot type it either): "
             "count down with range(n - 1, -1, -1) or walk t[::-1]");
    return verr();
}

static Val zip_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    ty_error(fn, call->loc, "zip() is supported only as the iterable of a for loop");
    return verr();
}

static Val print_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_print_call(fn, call); /* typer_print.c */
}

/* ---- min, max, pow ------------------------------------------------------------------------------ */
static Val minmax(Fn *fn, bool is_max, Val *a, int n, Loc loc) {
    if (n < 2) {
        ty_error(fn, loc, "%s() of one value is not supported (it would iterate it)",
                 is_max ? "max" : "min");
        return verr();
    }
    const Type *t = a[0].t;
    for (int i = 0; i < n; i++) {
        if (!ty_is_scalar(a[i].t)) {
            ty_error(fn, loc, "%s() needs numbers, not %s", is_max ? "max" : "min", a[i].t->name);
            return verr();
        }
        t = ty_unify(t, a[i].t);
    }
    /* Python keeps the first extreme: max(a, b) is b only when b > a */
    IrInst *acc = ty_cast(fn, a[0].v, a[0].t, t, loc);
    for (int i = 1; i < n; i++) {
        IrInst *x = ty_cast(fn, a[i].v, a[i].t, t, loc);
        IrInst *c = cmp(fn, is_max ? CMP_GT : CMP_LT, x, acc, loc);
        IrInst *ops[3] = {c, x, acc};
        acc = ty_emit(fn, IR_SELECT, t, loc, 3, ops);
    }
    return vval(t, acc);
}

/* the one argument of call if it is a list comprehension (typer_comp.c reduces it) */
static const Node *listcomp_arg(const Node *call) {
    return call->list.n == 1 && !call->list2.n && call->list.items[0]->kind == ND_LISTCOMP ?
           call->list.items[0] : NULL;
}

Val lib_minmax_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    const Node *lc = listcomp_arg(call);
    bool bad = false;
    if (!lc && call->list.n == 1 && !call->list2.n) /* min(gen(...)): typer_gen.c */
        lc = ty_gen_listcomp(fn, call->list.items[0], false, &bad);
    if (bad)
        return verr();
    if (lc)
        return ty_comp_reduce(fn, le->spell[1] == 'a' ? TY_COMP_MAX : TY_COMP_MIN, lc, call->loc);
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n == 1 && a[0].t->kind == TY_LIST) /* min(l): typer_list.c */
        return ty_list_minmax(fn, a[0], le->spell[1] == 'a', call->loc);
    if (n == 1 && a[0].t->kind == TY_TUPLE) { /* min(t): its elements (typer_tuple.c) */
        Val t = a[0];
        n = t.t->nelems;
        if (n == 0) {
            ty_error(fn, call->loc, "%s() of an empty tuple", le->spell);
            return verr();
        }
        Val *e = ty_tuple_vals(fn, n);
        if (!e || !ty_tuple_elems(fn, t, e, le->spell, call->loc))
            return verr();
        if (n == 1)
            return e[0];
        return minmax(fn, le->spell[1] == 'a', e, n, call->loc);
    }
    return minmax(fn, le->spell[1] == 'a', a, n, call->loc);
}

/* sum([e for x in it]): a loop (typer_comp.c); sum(t, start=0): start + t[0] + t[1] + ...,
 * each step typed as + types it (Numba unrolls a heterogeneous tuple); other iterables are
 * refused. */
static Val sum_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    const Node *lc = listcomp_arg(call);
    if (lc)
        return ty_comp_reduce(fn, TY_COMP_SUM, lc, call->loc);
    bool bad = false;
    if (call->list.n >= 1 && ty_gen_listcomp(fn, call->list.items[0], false, &bad)) {
        ty_error(fn, call->loc, "sum() of a generator is not supported (Numba 0.56 has no such "
                 "signature either); sum(list(...)) adds its values");
        return verr();
    }
    if (bad)
        return verr();
    Val a[16], *e;
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    Loc loc = call->loc;
    if (n < 1 || n > 2) {
        ty_error(fn, loc, "sum() takes an iterable and a start (%d arguments given)", n);
        return verr();
    }
    if (a[0].t->kind == TY_LIST) /* typer_list.c */
        return ty_list_sum(fn, a[0], n == 2 ? a[1] : vval(ty_i64, i64c(fn, 0, loc)), loc);
    if (a[0].t->kind != TY_TUPLE || a[0].t->nelems == 0) {
        ty_error(fn, call->list.items[0]->loc, "numjit's sum() takes a tuple of numbers or a list "
                 "comprehension, not %s (for an array, a.sum() or np.sum(a))", a[0].t->name);
        return verr();
    }
    Val acc = n == 2 ? a[1] : vval(ty_i64, ty_const_int(fn, ty_i64, 0, loc));
    if (!(e = ty_tuple_vals(fn, a[0].t->nelems)) || !ty_tuple_elems(fn, a[0], e, NULL, loc))
        return verr();
    for (int i = 0; i < a[0].t->nelems && acc.k == V_VAL; i++)
        acc = ty_binop(fn, OP_ADD, acc, e[i], loc);
    return acc;
}

/* list(iterable): a copy of a list, or the items a for loop over the iterable gives (a
 * generator, a range, an array, a tuple, ...), as the comprehension [v for v in iterable]
 * (typer_gen.c builds it, typer_comp.c types it). */
static Val list_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le;
    (void)callee;
    if (call->list.n != 1 || call->list2.n) {
        ty_error(fn, call->loc, "numjit's list() takes one iterable (an empty list is [])");
        return verr();
    }
    Node *x = call->list.items[0];
    bool bad;
    const Node *lc = ty_gen_listcomp(fn, x, false, &bad);
    if (bad)
        return verr();
    if (!lc) {
        bool emit = fn->emit;
        fn->emit = false;
        Val v = ty_expr(fn, x);
        fn->emit = emit;
        /* a V_ERR here may be zip(...) or enumerate(...), no values but iterables of the
         * comprehension's loop below, which reports any real error */
        if (v.k == V_VAL && v.t->kind == TY_LIST) {
            Val l = ty_value(fn, x);
            return l.k == V_VAL ? ty_list_copy(fn, l, call->loc) : verr();
        }
        lc = ty_gen_listcomp(fn, x, true, &bad);
        if (!lc)
            return verr();
    }
    return ty_comp_reduce(fn, TY_COMP_LIST, lc, call->loc);
}

static Val pow_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n != 2) {
        ty_error(fn, call->loc, "pow() with %d arguments is not supported", n);
        return verr();
    }
    return ty_binop(fn, OP_POW, a[0], a[1], call->loc);
}

static Val complex_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    return ty_complex_ctor(fn, NULL, a, n, call->loc);
}

/* ---- the one-argument builtins ------------------------------------------------------------------ */
/* The argument of a builtin that takes exactly one; false with the error reported. */
static bool one_arg(Fn *fn, const LibEntry *le, Node *call, Val callee, Val *x) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return false;
    if (n != 1) {
        ty_error(fn, call->loc, "%s() takes exactly one argument (%d given)", le->spell, n);
        return false;
    }
    *x = a[0];
    return true;
}

/* x is a number (complex numbers are the caller's); else the error "NAME() of T". */
static bool scalar_arg(Fn *fn, const LibEntry *le, Val x, Loc loc) {
    if (ty_is_scalar(x.t))
        return true;
    ty_error(fn, loc, "%s() of %s is not supported%s", le->spell, x.t->name,
             le->call == lib_abs_call && x.t->kind == TY_ARRAY ? " (np.abs() is)" : "");
    return false;
}

static Val len_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x))
        return verr();
    Loc loc = call->loc;
    if (x.t->kind == TY_TUPLE)
        return vval(ty_i64, ty_const_int(fn, ty_i64, x.t->nelems, loc));
    if (x.t->kind == TY_LIST)
        return ty_list_len(fn, x, loc);
    if (x.t->kind == TY_DICT)
        return ty_dict_len(fn, x, loc); /* typer_dict.c */
    if (x.t->kind == TY_SET)
        return ty_set_len(fn, x, loc); /* typer_set.c */
    if (x.t == ty_str)
        return ty_str_len(fn, x, loc); /* typer_str.c */
    Val r;
    if (ty_ext_special(fn, "__len__", &x, 1, loc, &r)) /* a jitclass's: typer_ext.c */
        return r;
    if (x.t->kind != TY_ARRAY || x.t->ndim == 0) {
        ty_error(fn, loc, "len() of %s is not supported", x.t->name);
        return verr();
    }
    return vval(ty_i64, extent(fn, x.v, 0, loc));
}

Val lib_abs_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x))
        return verr();
    Loc loc = call->loc;
    if (ty_is_complex(x.t))
        return ty_complex_abs(fn, x, loc);
    Val r;
    if (ty_ext_special(fn, "__abs__", &x, 1, loc, &r)) /* a jitclass's: typer_ext.c */
        return r;
    if (!scalar_arg(fn, le, x, loc))
        return verr();
    if (ty_is_float(x.t)) {
        IrInst *r = ty_emit(fn, IR_MATH, x.t, loc, 1, &x.v);
        if (r)
            r->imm.index = MATH_FABS;
        return vval(x.t, r);
    }
    const Type *t = x.t == ty_bool ? ty_i64 : x.t;
    IrInst *v = ty_cast(fn, x.v, x.t, t, loc);
    if (!ty_is_signed(t))
        return vval(t, v);
    IrInst *neg = ty_emit(fn, IR_NEG, t, loc, 1, &v);
    IrInst *c = cmp(fn, CMP_LT, v, ty_const_int(fn, t, 0, loc), loc);
    return vval(t, sel(fn, t, c, neg, v, loc));
}

static Val int_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x) || !scalar_arg(fn, le, x, call->loc))
        return verr();
    return vval(ty_i64, ty_cast(fn, x.v, x.t, ty_i64, call->loc));
}

static Val float_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x) || !scalar_arg(fn, le, x, call->loc))
        return verr();
    return vval(ty_f64, ty_cast(fn, x.v, x.t, ty_f64, call->loc));
}

static Val bool_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x))
        return verr();
    if (!ty_is_complex(x.t) && !scalar_arg(fn, le, x, call->loc))
        return verr();
    return vval(ty_bool, ty_truth(fn, x, call->loc));
}

/* type(x) of a number or a bool: its class (Numba's NumberClass), which a call then uses as a
 * constructor, as in `type(scale)(1) / scale` (a 1 of scale's own type).  Numba types the
 * __class__ of numbers and booleans only; anything else has none. */
static Val type_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val x;
    if (!one_arg(fn, le, call, callee, &x))
        return verr();
    if (!ty_is_scalar(x.t) && !ty_is_complex(x.t)) {
        ty_error(fn, call->loc, "type() of %s: compiled code has the class of a number or a "
                 "bool only (Numba 0.56 types no other __class__)", x.t->name);
        return verr();
    }
    return (Val){.k = V_TYPE, .t = x.t};
}

/* ---- round -------------------------------------------------------------------------------------- */
static IrInst *math1(Fn *fn, int k, const Type *t, IrInst *x, Loc loc) {
    IrInst *r = ty_emit(fn, IR_MATH, t, loc, 1, &x);
    if (r)
        r->imm.index = k;
    return r;
}

/* round(x, ndigits) as Numba (CPython's algorithm without dtoa): scale by 10**|ndigits|,
 * round, settle exact halves to even, scale back; inf, nan and overflowing scales give x. */
static Val round_ndigits(Fn *fn, Val x, Val nd, Loc loc) {
    if (!ty_is_number(x.t) || !(ty_is_int(nd.t) || nd.t == ty_bool)) {
        ty_error(fn, loc, "round(x, ndigits) needs a number and an integer, not %s and %s",
                 x.t->name, nd.t->name);
        return verr();
    }
    if (!ty_is_float(x.t)) /* an integer is already rounded (for ndigits >= 0) */
        return x;
    const Type *t = ty_f64;
    IrInst *v = ty_cast(fn, x.v, x.t, t, loc), *n = ty_cast(fn, nd.v, nd.t, ty_i64, loc);
    IrInst *zero = ty_const_int(fn, ty_i64, 0, loc);
    IrInst *pos = cmp(fn, CMP_GE, n, zero, loc);
    IrInst *ops[3] = {pos, n, bin(fn, IR_SUB, ty_i64, zero, n, loc)};
    IrInst *an = ty_emit(fn, IR_SELECT, ty_i64, loc, 3, ops);
    IrInst *p = bin(fn, IR_POW, t, ty_const_float(fn, t, 10.0, loc), an, loc);
    IrInst *o2[3] = {pos, bin(fn, IR_MUL, t, v, p, loc), bin(fn, IR_DIV, t, v, p, loc)};
    IrInst *y = ty_emit(fn, IR_SELECT, t, loc, 3, o2);
    IrInst *z = math1(fn, MATH_RINT, t, y, loc);
    IrInst *half = cmp(fn, CMP_EQ, math1(fn, MATH_FABS, t, bin(fn, IR_SUB, t, y, z, loc), loc),
                       ty_const_float(fn, t, 0.5, loc), loc);
    IrInst *two = ty_const_float(fn, t, 2.0, loc);
    IrInst *even = bin(fn, IR_MUL, t, two, math1(fn, MATH_RINT, t, bin(fn, IR_DIV, t, y, two, loc), loc), loc);
    IrInst *o3[3] = {half, even, z};
    z = ty_emit(fn, IR_SELECT, t, loc, 3, o3);
    IrInst *o4[3] = {pos, bin(fn, IR_DIV, t, z, p, loc), bin(fn, IR_MUL, t, z, p, loc)};
    IrInst *r = ty_emit(fn, IR_SELECT, t, loc, 3, o4);
    IrInst *keep = bin(fn, IR_BITAND, ty_bool, math1(fn, MATH_ISFINITE, ty_bool, v, loc),
                       math1(fn, MATH_ISFINITE, ty_bool, y, loc), loc);
    IrInst *o5[3] = {keep, r, v};
    r = ty_emit(fn, IR_SELECT, t, loc, 3, o5);
    return vval(x.t, ty_cast(fn, r, t, x.t, loc));
}

static Val round_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    Loc loc = call->loc;
    if (n == 2)
        return round_ndigits(fn, a[0], a[1], loc);
    if (n != 1) {
        ty_error(fn, loc, "round() takes exactly one argument (%d given)", n);
        return verr();
    }
    Val x = a[0];
    if (!scalar_arg(fn, le, x, loc))
        return verr();
    if (!ty_is_float(x.t))
        return vval(ty_i64, ty_cast(fn, x.v, x.t, ty_i64, loc));
    IrInst *r = math1(fn, MATH_RINT, x.t, x.v, loc); /* half to even, as Python */
    return vval(ty_i64, ty_cast(fn, r, x.t, ty_i64, loc));
}

/* ---- the table ---------------------------------------------------------------------------------- */
static const LibEntry rows[] = {
    {"builtins.range", "start, stop[, step]", 0, NULL, lib_range_call, "range", 0, 0},
    {"builtins.len", "obj, /", 0, NULL, len_call, "len", 0, 0},
    {"builtins.abs", "x, /", 0, NULL, lib_abs_call, "abs", 0, 0},
    {"builtins.min", "arg1, arg2, *args", 0, NULL, lib_minmax_call, "min", 0, 0},
    {"builtins.max", "arg1, arg2, *args", 0, NULL, lib_minmax_call, "max", 0, 0},
    {"builtins.sum", "iterable, /, start=0", 0, NULL, sum_call, "sum", 0, 0},
    {"builtins.list", "iterable=(), /", LIB_CPU, NULL, list_call, "list", 0, 0},
    {"builtins.int", "x, /", 0, NULL, int_call, "int", 0, 0},
    {"builtins.float", "x, /", 0, NULL, float_call, "float", 0, 0},
    {"builtins.bool", "x, /", 0, NULL, bool_call, "bool", 0, 0},
    {"builtins.type", "object, /", 0, NULL, type_call, "type", 0, 0},
    {"builtins.round", "number, ndigits=None", 0, NULL, round_call, "round", 0, 0},
    {"builtins.pow", "base, exp, /", 0, NULL, pow_call, "pow", 0, 0},
    {"builtins.enumerate", "iterable, start=0", 0, NULL, enumerate_call, "enumerate", 0, 0},
    {"builtins.zip", "*iterables", 0, NULL, zip_call, "zip", 0, 0},
    {"builtins.reversed", "sequence", 0, NULL, reversed_call, "reversed", 0, 0},
    {"builtins.complex", "real=0, imag=0", 0, NULL, complex_call, "complex", 0, 0},
    {"builtins.print", "*values", 0, NULL, print_call, "print", 0, 0},
    {NULL},
};
const LibTable lib_builtins_table = {"Python builtins", rows};

/* typer_expr.c — typing and emitting expressions: names, literals, operators, subscripts,
 * attributes and calls.  A name of a library (a module's attribute, a builtin, an array
 * method) is a row of the registry in lib/, whose handler types its call (lib/lib.h).
 *
 * Every rule is Numba's (SEMANTICS.md; the type arithmetic itself is in types.c).  An
 * expression gives a Val: a typed value, or a "denotation" (a module, a function, a type used
 * as a constructor, range(...)) that only a call, an attribute or a for-loop can consume.
 * Under the 'python' error model, integer and float division, floor division and modulo test
 * the divisor first and raise ZeroDivisionError at the operator's location.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


const char *ty_what(Val v) {
    switch (v.k) {
    case V_VAL: return v.t->name;
    case V_MODULE: return "a module";
    case V_FUNC: return "a function";
    case V_BUILTIN: case V_MATH: return "a builtin function";
    case V_TYPE: return "a type";
    case V_SREGS: return "a thread-index object";
    case V_RANGE: return "range";
    case V_METHOD: return "a method";
    default: return "?";
    }
}

Val ty_value(Fn *fn, Node *e) {
    Val v = ty_expr(fn, e);
    if (v.k == V_VAL) /* an Optional where its value is wanted: typer_optional.c */
        return ty_optional_unwrap(fn, v, e->loc);
    if (v.k == V_ERR)
        return v;
    if (v.k == V_FUNC && ty_is_closure(fn, v.fn) && !ty_closure_is_value(fn, v.fn)) {
        ty_closure_escapes(fn, v.fn, e->loc);
        return verr();
    }
    if (v.k == V_FUNC) /* a first-class function value: its type names it, it holds nothing */
        return vval(ty_func(v.fn->name), ty_emit(fn, IR_TUPLE, ty_func(v.fn->name), e->loc, 0,
                                                 NULL));
    ty_error(fn, e->loc, "%s cannot be used as a value here", ty_what(v));
    return verr();
}

IrInst *ty_truth(Fn *fn, Val v, Loc loc) {
    if (v.k != V_VAL)
        return NULL;
    if (v.t == ty_bool)
        return v.v;
    if (ty_is_none(v.t))
        return ty_const_int(fn, ty_bool, 0, loc);
    if (ty_is_complex(v.t))
        return ty_complex_truth(fn, v, loc);
    if (v.t == ty_str)
        return ty_str_truth(fn, v, loc); /* typer_str.c */
    if (v.t->kind == TY_TUPLE) /* a tuple's length is in its type */
        return ty_const_int(fn, ty_bool, v.t->nelems > 0, loc);
    if (v.t->kind == TY_LIST || v.t->kind == TY_SET || v.t->kind == TY_DICT) {
        /* `while queue:` — non-empty, as Numba's bool() of a list, set or dict */
        Val n = v.t->kind == TY_LIST ? ty_list_len(fn, v, loc)
                : v.t->kind == TY_SET ? ty_set_len(fn, v, loc) : ty_dict_len(fn, v, loc);
        if (n.k != V_VAL)
            return NULL;
        v = n;
    }
    if (!ty_is_number(v.t)) {
        ty_error(fn, loc, "the truth value of %s is not defined here", v.t->name);
        return NULL;
    }
    IrInst *z = ty_is_float(v.t) ? ty_const_float(fn, v.t, 0.0, loc) : ty_const_int(fn, v.t, 0, loc);
    IrInst *ops[2] = {v.v, z};
    IrInst *c = ty_emit(fn, IR_CMP, ty_bool, loc, 2, ops);
    if (c)
        c->imm.pred = CMP_NE;
    return c;
}

/* Under the 'python' error model: if (d == 0) raise ZeroDivisionError(msg). */
static void check_zero(Fn *fn, IrInst *d, const Type *t, const char *msg, Loc loc) {
    if (!fn->emit || fn->f->error_model != EM_PYTHON || !d)
        return;
    if (d->op == IR_CONST && (ty_is_float(t) ? d->imm.f != 0 : d->imm.i != 0))
        return;
    IrInst *z = ty_is_float(t) ? ty_const_float(fn, t, 0, loc) : ty_const_int(fn, t, 0, loc);
    IrInst *c = cmp(fn, CMP_EQ, d, z, loc);
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    ty_raise(fn, RAISE_ZERO_DIVISION, msg, loc);
    ty_set_block(fn, ok);
}

/* 0 ** negative raises ZeroDivisionError (Numba): under the 'python' error model, and for a
 * float base under 'numpy' too (Numba's int_power computes 1.0 / r by the 'python' rules
 * whatever the model; an int base gives the type's minimum there, lower.c's int_pow). */
static void check_zero_pow(Fn *fn, IrInst *x, const Type *xt, IrInst *y, const Type *yt,
                           Loc loc) {
    if (!fn->emit || !x || !y || (fn->f->error_model != EM_PYTHON && !ty_is_float(xt)))
        return;
    if (ty_is_float(yt) || !ty_is_signed(yt))
        return; /* float ** float gives inf (IEEE); an unsigned exponent is never negative */
    if (y->op == IR_CONST && (ty_is_float(yt) ? !(y->imm.f < 0) : y->imm.i >= 0))
        return;
    if (x->op == IR_CONST && (ty_is_float(xt) ? x->imm.f != 0 : x->imm.i != 0))
        return;
    IrInst *zx = ty_is_float(xt) ? ty_const_float(fn, xt, 0, loc) : ty_const_int(fn, xt, 0, loc);
    IrInst *zy = ty_is_float(yt) ? ty_const_float(fn, yt, 0, loc) : ty_const_int(fn, yt, 0, loc);
    IrInst *c = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_EQ, x, zx, loc), cmp(fn, CMP_LT, y, zy, loc), loc);
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    ty_raise(fn, RAISE_ZERO_DIVISION, ty_is_float(xt) ? "0.0 cannot be raised to a negative power"
                                                      : "0 cannot be raised to a negative power", loc);
    ty_set_block(fn, ok);
}

/* ---- operators -------------------------------------------------------------------------------- */
Val ty_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
    Val ab[2] = {a, b}, r;
    if (a.t->kind == TY_RECORD && ty_ext_dunder(op) && /* a jitclass's: typer_ext.c */
        ty_ext_special(fn, ty_ext_dunder(op), ab, 2, loc, &r))
        return r;
    if (a.t->kind == TY_TUPLE && b.t->kind == TY_TUPLE)
        return ty_tuple_binop(fn, op, a, b, loc); /* t + u: typer_tuple.c */
    if (a.t->kind == TY_LIST || b.t->kind == TY_LIST)
        return ty_list_binop(fn, op, a, b, loc); /* l + m, l * n: typer_list.c */
    if (a.t->kind == TY_SET || b.t->kind == TY_SET)
        return ty_set_binop(fn, op, a, b, loc); /* s | t, ...: typer_set.c */
    if (a.t == ty_str || b.t == ty_str)
        return ty_str_binop(fn, op, a, b, loc); /* s + t: typer_str.c */
    if (op == OP_MATMUL)
        return ty_array_matmul(fn, a, b, loc);
    if ((ty_is_complex(a.t) || ty_is_complex(b.t)) && ty_is_elem(a.t) && ty_is_elem(b.t))
        return ty_complex_binop(fn, op, a, b, loc);
    if (!ty_is_scalar(a.t) || !ty_is_scalar(b.t)) {
        const char *verb = op == OP_ADD ? "add" : op == OP_SUB ? "subtract" : op == OP_MUL ? "multiply"
                           : op == OP_DIV || op == OP_FLOORDIV ? "divide" : NULL;
        if (verb)
            ty_error(fn, loc, "cannot %s '%s' and '%s'%s", verb, a.t->name, b.t->name,
                     a.t->kind == TY_ARRAY || b.t->kind == TY_ARRAY
                         ? " (whole-array arithmetic is not supported in compiled functions "
                           "yet: loop over the elements)" : "");
        else
            ty_error(fn, loc, "unsupported operand types for %s: '%s' and '%s'",
                     ast_op_spelling[op], a.t->name, b.t->name);
        return verr();
    }
    const Type *t = ty_arith(a.t, b.t);
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: {
        IrOp o = op == OP_ADD ? IR_ADD : op == OP_SUB ? IR_SUB : IR_MUL;
        return vval(t, bin(fn, o, t, ty_cast(fn, a.v, a.t, t, loc), ty_cast(fn, b.v, b.t, t, loc), loc));
    }
    case OP_DIV: {
        if (!ty_is_float(t))
            t = ty_f64;
        IrInst *x = ty_cast(fn, a.v, a.t, t, loc), *y = ty_cast(fn, b.v, b.t, t, loc);
        check_zero(fn, y, t, "division by zero", loc); /* Numba's words, ints or floats */
        return vval(t, bin(fn, IR_DIV, t, x, y, loc));
    }
    case OP_FLOORDIV: case OP_MOD: {
        IrInst *x = ty_cast(fn, a.v, a.t, t, loc), *y = ty_cast(fn, b.v, b.t, t, loc);
        /* Numba 0.56's messages (not CPython's "float modulo", "float divmod()") */
        const char *msg = op == OP_MOD ? (ty_is_float(t) ? "modulo by zero" : "integer modulo by zero")
                          : (ty_is_float(t) ? "division by zero" : "integer division by zero");
        check_zero(fn, y, t, msg, loc);
        return vval(t, bin(fn, op == OP_MOD ? IR_MOD : IR_FLOORDIV, t, x, y, loc));
    }
    case OP_POW: {
        const Type *rt = t, *et = t;
        if (ty_is_float(a.t) && !ty_is_float(b.t)) /* float ** int keeps the float */
            rt = a.t, et = ty_i64;
        IrInst *x = ty_cast(fn, a.v, a.t, rt, loc), *y = ty_cast(fn, b.v, b.t, et, loc);
        check_zero_pow(fn, x, rt, y, et, loc);
        return vval(rt, bin(fn, IR_POW, rt, x, y, loc));
    }
    case OP_BITAND: case OP_BITOR: case OP_BITXOR: case OP_LSHIFT: case OP_RSHIFT: {
        IrOp o = op == OP_BITAND ? IR_BITAND : op == OP_BITOR ? IR_BITOR : op == OP_BITXOR ? IR_BITXOR
                 : op == OP_LSHIFT ? IR_SHL : IR_SHR;
        if (ty_is_float(a.t) || ty_is_float(b.t)) {
            ty_error(fn, loc, "unsupported operand types for %s: '%s' and '%s'",
                     ast_op_spelling[op], a.t->name, b.t->name);
            return verr();
        }
        if (a.t == ty_bool && b.t == ty_bool && o != IR_SHL && o != IR_SHR)
            return vval(ty_bool, bin(fn, o, ty_bool, a.v, b.v, loc));
        if (o == IR_SHL || o == IR_SHR) /* a shift keeps the left operand's (widened) type */
            t = ty_int_widen(a.t);
        else if (ty_is_float(t)) /* int64 & uint64: no float for bit operations */
            t = ty_i64;
        return vval(t, bin(fn, o, t, ty_cast(fn, a.v, a.t, t, loc), ty_cast(fn, b.v, b.t, t, loc), loc));
    }
    default:
        ty_error(fn, loc, "operator %s is not supported here", ast_op_spelling[op]);
        return verr();
    }
}

static Val not_of(Fn *fn, Val v, Loc loc) {
    IrInst *c = ty_truth(fn, v, loc);
    return vval(ty_bool, ty_emit(fn, IR_NOT, ty_bool, loc, 1, &c));
}

/* A comparison of jitclass instances through their special methods, as Numba's
 * jitclass/overloads.py: a.__op__(b), else b's reflected one, else (for !=) not a == b. */
static bool class_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc, Val *out) {
    static const OpKind reflected[][2] = {
        {OP_LT, OP_GT}, {OP_GT, OP_LT}, {OP_LE, OP_GE}, {OP_GE, OP_LE}, {OP_EQ, OP_EQ}};
    Val ab[2] = {a, b}, ba[2] = {b, a};
    if (op == OP_IN || op == OP_NOTIN) {
        if (!ty_ext_special(fn, "__contains__", ba, 2, loc, out))
            return false;
        if (op == OP_NOTIN && out->k == V_VAL)
            *out = not_of(fn, *out, loc);
        return true;
    }
    const char *m = ty_ext_dunder(op);
    if (!m)
        return false;
    if (ty_ext_special(fn, m, ab, 2, loc, out))
        return true;
    for (size_t i = 0; i < sizeof reflected / sizeof *reflected; i++)
        if (reflected[i][0] == op && b.t->kind == TY_RECORD &&
            ty_ext_special(fn, ty_ext_dunder(reflected[i][1]), ba, 2, loc, out))
            return true;
    if (op == OP_NE && ty_ext_special(fn, "__eq__", ab, 2, loc, out)) {
        if (out->k == V_VAL)
            *out = not_of(fn, *out, loc);
        return true;
    }
    return false;
}

static Val compare2(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    Val r;
    if (a.k == V_VAL && b.k == V_VAL && (a.t->kind == TY_RECORD || b.t->kind == TY_RECORD) &&
        class_compare(fn, op, a, b, loc, &r))
        return r;
    if ((op == OP_IN || op == OP_NOTIN) && a.k == V_VAL && b.k == V_VAL && b.t->kind == TY_DICT)
        return ty_dict_contains(fn, b, a, op == OP_NOTIN, loc); /* typer_dict.c */
    if ((op == OP_IN || op == OP_NOTIN) && a.k == V_VAL && b.k == V_VAL && b.t->kind == TY_SET)
        return ty_set_contains(fn, b, a, op == OP_NOTIN, loc); /* typer_set.c */
    if (a.k == V_VAL && b.k == V_VAL && (a.t->kind == TY_TUPLE || b.t->kind == TY_TUPLE))
        return ty_tuple_compare(fn, op, a, b, loc); /* typer_tuple.c */
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
    if ((op == OP_IN || op == OP_NOTIN) && b.t->kind == TY_LIST)
        return ty_list_contains(fn, b, a, op == OP_NOTIN, loc); /* typer_list.c */
    if (a.t == ty_str || b.t == ty_str)
        return ty_str_compare(fn, op, a, b, loc); /* typer_str.c */
    if (op == OP_IS || op == OP_ISNOT || op == OP_IN || op == OP_NOTIN) {
        ty_error(fn, loc, "'%s' is not supported by numjit", ast_op_spelling[op]);
        return verr();
    }
    if ((ty_is_complex(a.t) || ty_is_complex(b.t)) && ty_is_elem(a.t) && ty_is_elem(b.t))
        return ty_complex_compare(fn, op, a, b, loc);
    if (!ty_is_scalar(a.t) || !ty_is_scalar(b.t)) {
        ty_error(fn, loc, "cannot compare '%s' and '%s'", a.t->name, b.t->name);
        return verr();
    }
    const Type *t = (a.t == ty_bool && b.t == ty_bool) ? ty_bool : ty_arith(a.t, b.t);
    /* uint64 against a signed int or bool: no integer type holds both, and Numba's overloads
     * (int64, int64), (uint64, uint64), (float64, float64) leave only float64 */
    if (t == ty_i64 && (a.t == ty_u64 || b.t == ty_u64))
        t = ty_f64;
    CmpPred p = op == OP_EQ ? CMP_EQ : op == OP_NE ? CMP_NE : op == OP_LT ? CMP_LT
                : op == OP_LE ? CMP_LE : op == OP_GT ? CMP_GT : CMP_GE;
    return vval(ty_bool, cmp(fn, p, ty_cast(fn, a.v, a.t, t, loc), ty_cast(fn, b.v, b.t, t, loc), loc));
}

/* a < b < c: (a < b) and (b < c), b evaluated once, short-circuit. */
static Val compare(Fn *fn, Node *e) {
    if (e->list.n == 2 && (e->ops[0] == OP_IS || e->ops[0] == OP_ISNOT)) {
        Val a = ty_expr(fn, e->list.items[0]), b = ty_expr(fn, e->list.items[1]);
        if (ty_is_none_compare(e->ops[0], a, b)) /* x is None: typer_optional.c */
            return ty_none_compare(fn, e->ops[0], a, b, e->loc);
        return compare2(fn, e->ops[0], a, b, e->loc);
    }
    Val left = ty_value(fn, e->list.items[0]);
    if (e->list.n == 2)
        return compare2(fn, e->ops[0], left, ty_value(fn, e->list.items[1]), e->loc);
    int res = fn->emit ? ty_temp_var(fn, ty_bool) : -1;
    IrBlock *done = ty_block(fn);
    bool ok = left.k == V_VAL;
    for (int i = 1; i < e->list.n && ok; i++) {
        Val right = ty_value(fn, e->list.items[i]);
        Val c = compare2(fn, e->ops[i - 1], left, right, e->list.items[i]->loc);
        if (c.k != V_VAL) {
            ok = false;
            break;
        }
        ty_store_var(fn, res, c.v, e->loc);
        if (i + 1 < e->list.n) {
            IrBlock *next = ty_block(fn);
            ty_condbr(fn, c.v, next, done, e->loc);
            ty_set_block(fn, next);
        }
        left = right;
    }
    if (!ok)
        return verr();
    ty_br(fn, done, e->loc);
    ty_set_block(fn, done);
    IrInst *v = ty_load_var(fn, res, ty_bool, e->loc);
    return vval(ty_bool, v);
}

/* `a and b` / `a or b` give one of the operands (Python), typed as their unification. */
static Val boolop(Fn *fn, Node *e) {
    /* type both sides first (inference of b does not depend on control flow) */
    bool emit = fn->emit;
    fn->emit = false;
    Val ta = ty_value(fn, e->a), tb = ty_value(fn, e->b);
    fn->emit = emit;
    if (ta.k != V_VAL || tb.k != V_VAL) {
        if (emit) { /* report the error */
            ty_value(fn, e->a);
            ty_value(fn, e->b);
        }
        return verr();
    }
    const Type *t = ty_unify(ta.t, tb.t);
    if (!t || !ty_is_scalar(t)) {
        ty_error(fn, e->loc, "the operands of '%s' have incompatible types %s and %s",
                 ast_op_spelling[e->op], ta.t->name, tb.t->name);
        return verr();
    }
    if (!emit)
        return vval(t, NULL);
    int res = ty_temp_var(fn, t);
    Val a = ty_value(fn, e->a);
    IrInst *ca = ty_cast(fn, a.v, a.t, t, e->loc);
    ty_store_var(fn, res, ca, e->loc);
    IrInst *c = ty_truth(fn, a, e->a->loc);
    IrBlock *rhs = ty_block(fn), *done = ty_block(fn);
    if (e->op == OP_AND)
        ty_condbr(fn, c, rhs, done, e->loc);
    else
        ty_condbr(fn, c, done, rhs, e->loc);
    ty_set_block(fn, rhs);
    Val b = ty_value(fn, e->b);
    IrInst *cb = ty_cast(fn, b.v, b.t, t, e->loc);
    ty_store_var(fn, res, cb, e->loc);
    ty_br(fn, done, e->loc);
    ty_set_block(fn, done);
    IrInst *v = ty_load_var(fn, res, t, e->loc);
    return vval(t, v);
}

static Val unary(Fn *fn, Node *e) {
    Val a = ty_value(fn, e->a);
    if (a.k != V_VAL)
        return verr();
    if (ty_is_complex(a.t))
        return ty_complex_unary(fn, e->op, a, e->loc);
    Val r;
    if (a.t->kind == TY_RECORD && (e->op == OP_NEG || e->op == OP_POS) && /* typer_ext.c */
        ty_ext_special(fn, e->op == OP_NEG ? "__neg__" : "__pos__", &a, 1, e->loc, &r))
        return r;
    bool sized = a.t->kind == TY_LIST || a.t->kind == TY_SET || a.t->kind == TY_DICT ||
                 a.t->kind == TY_TUPLE; /* `not queue`: ty_truth */
    if (!ty_is_scalar(a.t) && !(e->op == OP_NOT && sized)) {
        ty_error(fn, e->loc, "bad operand type for unary %s: '%s'", ast_op_spelling[e->op], a.t->name);
        return verr();
    }
    switch (e->op) {
    case OP_NOT: {
        IrInst *c = ty_truth(fn, a, e->loc);
        return vval(ty_bool, ty_emit(fn, IR_NOT, ty_bool, e->loc, 1, &c));
    }
    case OP_NEG: case OP_POS: {
        /* Numba keeps the operand's type (-uint8(1) is 255); bool becomes int64 */
        const Type *t = a.t == ty_bool ? ty_i64 : a.t;
        IrInst *x = ty_cast(fn, a.v, a.t, t, e->loc);
        if (e->op == OP_POS)
            return vval(t, x);
        Val r;
        if (x && x->op == IR_CONST && fn->emit) /* fold -literal */
            r = ty_is_float(t) ? vval(t, ty_const_float(fn, t, -x->imm.f, e->loc))
                               : vval(t, ty_const_int(fn, t, (int64_t)(0 - (uint64_t)x->imm.i), e->loc));
        else
            r = vval(t, ty_emit(fn, IR_NEG, t, e->loc, 1, &x));
        r.lit = a.lit;
        return r;
    }
    case OP_INVERT: {
        if (ty_is_float(a.t)) {
            ty_error(fn, e->loc, "bad operand type for unary ~: '%s'", a.t->name);
            return verr();
        }
        const Type *t = a.t;
        return vval(t, ty_emit(fn, IR_INVERT, t, e->loc, 1, &a.v));
    }
    default:
        return verr();
    }
}

/* ---- names and attributes ----------------------------------------------------------------------- */
static Val module_attr(Fn *fn, const char *mod, const char *attr, Loc loc);

/* What an imported dotted name ("math.sqrt", "numba.cuda", "numpy") denotes. */
static Val resolve_dotted(Fn *fn, const char *target, Loc loc) {
    const char *dot = strrchr(target, '.');
    if (!strcmp(target, "math") || !strcmp(target, "numpy") || !strcmp(target, "numba") ||
        !strcmp(target, "numjit"))
        return (Val){.k = V_MODULE, .name = target};
    if (!strcmp(target, "numba.cuda") || !strcmp(target, "numjit.cuda"))
        return (Val){.k = V_MODULE, .name = "cuda"};
    if (!dot)
        return (Val){.k = V_MODULE, .name = target};
    char mod[64];
    size_t n = (size_t)(dot - target);
    if (n >= sizeof mod)
        return verr();
    memcpy(mod, target, n);
    mod[n] = 0;
    Val m = resolve_dotted(fn, mod, loc);
    if (m.k != V_MODULE)
        return verr();
    return module_attr(fn, m.name, dot + 1, loc);
}

Val ty_resolve_name(Fn *fn, const char *name, Loc loc) {
    TyVar *v = ty_lookup_var(fn, name);
    if (v && v->cls) /* T = type(x): typer.c's bind_class */
        return (Val){.k = V_TYPE, .t = v->cls};
    if (v && v->bad) { /* its conflicting assignment is the error */
        if (fn->emit && !v->bad_said) { /* said here when a read comes first: x = f(x) */
            ty_error(fn, v->bad_loc,
                     "variable '%.*s' cannot be both %s (assigned at line %d) and %s: a "
                     "variable has one type in a function",
                     ty_version_len(name), name, v->type->name, v->loc.line, v->bad->name);
            v->bad_said = true;
        }
        return verr();
    }
    if (v) {
        if (!v->type || (fn->emit && v->irvar < 0)) {
            if (fn->emit && !fn->tc->diags->nerrors)
                ty_error(fn, loc, "the type of '%s' could not be inferred", name);
            return verr();
        }
        if (v->type == ty_range) { /* a range kept in a variable: typer.c's ty_assign_range */
            Val r = {.k = V_RANGE};
            for (int k = 0; k < 3; k++) {
                Val x = ty_resolve_name(fn, arena_printf(fn->tc->arena, "%s$r%d", name, k), loc);
                if (x.k != V_VAL)
                    return verr();
                r.rt[k] = x.t, r.r[k] = x.v;
            }
            return r;
        }
        IrInst *ld = ty_load_var(fn, v->irvar, v->type, loc);
        return vval(v->type, ld);
    }
    const FuncInfo *inner = ty_closure_lookup(fn, name); /* a def in this function */
    if (inner)
        return (Val){.k = V_FUNC, .fn = inner, .name = name};
    const ModuleInfo *m = fn->tc->m;
    for (int i = 0; i < m->nconsts; i++)
        if (!strcmp(m->consts[i].name, name)) {
            static _Thread_local int depth;
            if (depth > 16) {
                ty_error(fn, loc, "constant '%s' refers to itself", name);
                return verr();
            }
            depth++;
            Node *cv = m->consts[i].value; /* a call: a typed number or a C function */
            Val c = cv->kind == ND_CALL ? ty_expr(fn, cv) : ty_value(fn, cv);
            depth--;
            return c;
        }
    const FuncInfo *fi = fe_find_func(m, name);
    if (!fi) /* a def of an extension's implementation (typer_ext.c) */
        fi = ty_ext_func(fn->tc, name);
    if (fi)
        return (Val){.k = V_FUNC, .fn = fi, .name = fi->name};
    const char *target = fe_resolve_import(m, name);
    if (target)
        return resolve_dotted(fn, target, loc);
    Val b;
    if (lib_builtin(fn, name, loc, &b)) /* range, len, print, ...: lib/builtins.c */
        return b;
    if (ty_ext_name(fn, name, loc, &b)) /* an @overload of the host program: typer_ext.c */
        return b;
    if (fn->emit)
        ty_error(fn, loc, "name '%s' is not defined", name);
    return verr();
}

/* mod.attr: a row of the library (lib/), or an error naming the closest one */
static Val module_attr(Fn *fn, const char *mod, const char *attr, Loc loc) {
    Val x;
    if (ty_ext_module_attr(fn, mod, attr, loc, &x)) /* an @overload of np.NAME: typer_ext.c */
        return x;
    return lib_module_attr(fn, mod, attr, loc);
}

static IrInst *sreg(Fn *fn, int r, Loc loc) {
    IrInst *in = ty_emit(fn, IR_SREG, ty_i64, loc, 0, NULL);
    if (in)
        in->imm.index = r;
    return in;
}

static Val attribute(Fn *fn, Node *e) {
    Val xi;
    if (e->a->kind == ND_CALL && ty_xinfo_attr(fn, e, &xi)) /* np.finfo(t).eps: typer_xinfo.c */
        return xi;
    Val o = ty_expr(fn, e->a);
    if (o.k == V_ERR)
        return o;
    const char *attr = e->name;
    if (o.k == V_MODULE)
        return module_attr(fn, o.name, attr, e->loc);
    if (o.k == V_SREGS) {
        if (fn->tc->target != TARGET_NVPTX) {
            ty_error(fn, e->loc, "cuda.%s is only available in CUDA kernels and device functions",
                     attr);
            return verr();
        }
        int axis = !strcmp(attr, "x") ? 0 : !strcmp(attr, "y") ? 1 : !strcmp(attr, "z") ? 2 : -1;
        if (axis < 0) {
            ty_error(fn, e->loc, "no attribute '%s' (use .x, .y or .z)", attr);
            return verr();
        }
        return vval(ty_i64, sreg(fn, o.idx + axis, e->loc));
    }
    if (o.k != V_VAL) {
        ty_error(fn, e->loc, "%s has no attribute '%s'", ty_what(o), attr);
        return verr();
    }
    o = ty_optional_unwrap(fn, o, e->a->loc); /* an Optional's are its value's, as in Numba */
    if (o.t->kind == TY_RECORD) { /* r.x: typer_record.c; a jitclass's methods: typer_ext.c */
        Val x;
        if (ty_record_field(o.t, attr) < 0 && ty_ext_attr(fn, o, attr, e->loc, &x))
            return x;
        return ty_record_attr(fn, o, attr, e->loc);
    }
    if (ty_tuple_field(o.t, attr) >= 0) /* r.root of a named tuple (lib/namedtuple.c) */
        return ty_tuple_elem(fn, o, ty_tuple_field(o.t, attr), e->loc);
    if (o.t->kind == TY_ARRAY) {
        if (!strcmp(attr, "shape")) {
            const Type *el[8];
            IrInst *v[8];
            for (int i = 0; i < o.t->ndim; i++) {
                el[i] = ty_i64;
                v[i] = ty_emit(fn, IR_SHAPE, ty_i64, e->loc, 1, &o.v);
                if (v[i])
                    v[i]->imm.index = i;
            }
            const Type *tt = ty_tuple(el, o.t->ndim);
            return vval(tt, ty_emit(fn, IR_TUPLE, tt, e->loc, o.t->ndim, v));
        }
        if (!strcmp(attr, "ndim"))
            return vval(ty_i64, ty_const_int(fn, ty_i64, o.t->ndim, e->loc));
        if (!strcmp(attr, "copy")) /* a bound method: the call reads the array from t and v */
            return (Val){.k = V_BUILTIN, .name = "array.copy", .t = o.t, .v = o.v,
                         .lib = lib_method("copy")};
        if (!strcmp(attr, "size")) {
            IrInst *acc = ty_const_int(fn, ty_i64, 1, e->loc);
            for (int i = 0; i < o.t->ndim; i++) {
                IrInst *s = ty_emit(fn, IR_SHAPE, ty_i64, e->loc, 1, &o.v);
                if (s)
                    s->imm.index = i;
                acc = bin(fn, IR_MUL, ty_i64, acc, s, e->loc);
            }
            return vval(ty_i64, acc);
        }
        if (!strcmp(attr, "flat")) /* only in loops and a.flat[i] (typer_iter.c) */
            return ty_flat_value(fn, e->loc);
        Val r = ty_array_attr(fn, o, attr, e->loc);
        if (r.k != V_ERR)
            return r;
    }
    if (o.t->kind == TY_DICT || o.t->kind == TY_SET) { /* d.get, s.add: rows of lib/dict.c */
        char full[96];
        snprintf(full, sizeof full, "%s.%s", o.t->kind == TY_SET ? "set" : "dict", attr);
        const LibEntry *le = lib_lookup(full);
        if (le)
            return (Val){.k = V_BUILTIN, .name = le->spell, .t = o.t, .v = o.v, .lib = le};
    }
    if (o.t->kind == TY_LIST) { /* l.append, ...: a bound method, a row of lib/list.c */
        char full[96];
        snprintf(full, sizeof full, "list.%s", attr);
        const LibEntry *le = lib_lookup(full);
        if (le)
            return (Val){.k = V_BUILTIN, .name = le->spell, .t = o.t, .v = o.v, .lib = le};
    }
    if (o.t == ty_str) { /* s.find ...: a method bound to the string (lib/str.c) */
        char name[64];
        snprintf(name, sizeof name, "str.%s", attr);
        const LibEntry *m = lib_lookup(name);
        if (m)
            return (Val){.k = V_BUILTIN, .name = m->spell, .t = o.t, .v = o.v, .lib = m};
    }
    if (ty_is_elem(o.t) && o.t != ty_bool) {
        if (ty_is_complex(o.t) && (!strcmp(attr, "real") || !strcmp(attr, "imag")))
            return ty_complex_attr(fn, o, attr, e->loc);
        if (!strcmp(attr, "real")) /* a real number's: itself, and a zero */
            return o;
        if (!strcmp(attr, "imag"))
            return vval(o.t, ty_is_float(o.t) ? ty_const_float(fn, o.t, 0.0, e->loc)
                                              : ty_const_int(fn, o.t, 0, e->loc));
        if (!strcmp(attr, "conjugate"))
            return (Val){.k = V_BUILTIN, .name = "scalar.conjugate", .t = o.t, .v = o.v,
                         .lib = lib_lookup("complex.conjugate")};
    }
    Val x;
    if (ty_ext_attr(fn, o, attr, e->loc, &x)) /* overload_method/_attribute: typer_ext.c */
        return x;
    ty_error(fn, e->loc, "%s has no attribute '%s' that numjit supports", o.t->name, attr);
    return verr();
}

/* ---- subscripts ----------------------------------------------------------------------------- */
/* With boundscheck=True: wraps a negative index as Python does and raises IndexError when it
 * is still outside [0, extent).  Returns the index to use.  An index of an unsigned type (it)
 * is compared as unsigned and never wraps: np.uint64(2**64-1) is out of bounds, not -1
 * (base/checked.c's nj_index_norm and nj_index_norm_u64 are the same rules). */
IrInst *ty_bounds_check(Fn *fn, IrInst *arr, IrInst *idx, const Type *it, int dim, Loc loc) {
    if (!fn->emit || !fn->f->boundscheck || !arr || !idx)
        return idx;
    IrInst *ext = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &arr);
    ext->imm.index = dim;
    if (it && ty_is_int(it) && !ty_is_signed(it)) {
        IrInst *u = ty_cast(fn, idx, ty_i64, ty_u64, loc);
        ty_raise_if(fn, cmp(fn, CMP_GE, u, ty_cast(fn, ext, ty_i64, ty_u64, loc), loc),
                    RAISE_INDEX, "index is out of bounds", loc);
        return idx;
    }
    IrInst *zero = ty_const_int(fn, ty_i64, 0, loc);
    IrInst *neg = cmp(fn, CMP_LT, idx, zero, loc);
    IrInst *wrapped = bin(fn, IR_ADD, ty_i64, idx, ext, loc);
    IrInst *ops[3] = {neg, wrapped, idx};
    IrInst *i = ty_emit(fn, IR_SELECT, ty_i64, loc, 3, ops);
    IrInst *lo = cmp(fn, CMP_LT, i, zero, loc), *hi = cmp(fn, CMP_GE, i, ext, loc);
    IrInst *bad = bin(fn, IR_BITOR, ty_bool, lo, hi, loc);
    IrBlock *bb = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, bad, bb, ok, loc);
    ty_set_block(fn, bb);
    ty_raise(fn, RAISE_INDEX, "index is out of bounds", loc);
    ty_set_block(fn, ok);
    return i;
}

static Val subscript(Fn *fn, Node *e) {
    if (e->a->kind == ND_ATTR && !strcmp(e->a->name, "flat")) /* a.flat[i]: typer_iter.c */
        return ty_flat_get(fn, e);
    Val o = ty_value(fn, e->a);
    if (o.k != V_VAL)
        return verr();
    Node *ix = e->b;
    Val rv;
    if (ty_record_index(fn, o, ix, e->loc, &rv)) /* r['x'], a['x']: typer_record.c */
        return rv;
    if (o.t == ty_str)
        return ty_str_subscript(fn, o, ix, e->loc); /* typer_str.c */
    if (o.t->kind == TY_TUPLE && ix->kind == ND_SLICE)
        return ty_tuple_slice(fn, o, ix, e->loc); /* typer_tuple.c */
    if (o.t->kind == TY_TUPLE) {
        Val i = ty_value(fn, ix);
        if (i.k != V_VAL)
            return verr();
        int64_t k;
        if (ix->kind == ND_INT)
            k = ix->ival;
        else if (ix->kind == ND_UNARY && ix->op == OP_NEG && ix->a->kind == ND_INT)
            k = -ix->a->ival;
        else {
            bool uni = o.t->nelems > 0;
            for (int j = 1; j < o.t->nelems; j++)
                uni &= o.t->elems[j] == o.t->elems[0];
            if (!uni || !ty_is_int(i.t)) {
                ty_error(fn, ix->loc, "a tuple index must be a constant integer here (%s)",
                         o.t->name);
                return verr();
            }
            /* a.shape[k] with a variable k: IndexError outside [-n, n) (Numba's
             * getitem_unituple), then a chain of selects, negative k wrapping */
            const Type *et = o.t->elems[0];
            IrInst *k64 = ty_cast(fn, i.v, i.t, ty_i64, ix->loc);
            if (fn->emit && k64) {
                int64_t n = o.t->nelems;
                int64_t first = i.t == ty_u64 ? 0 : -n; /* 2**64-1 is not -1 */
                IrInst *lo = cmp(fn, CMP_LT, k64, ty_const_int(fn, ty_i64, first, e->loc), e->loc);
                IrInst *hi = cmp(fn, CMP_GE, k64, ty_const_int(fn, ty_i64, n, e->loc), e->loc);
                ty_raise_if(fn, bin(fn, IR_BITOR, ty_bool, lo, hi, e->loc), RAISE_INDEX,
                            "tuple index out of range", ix->loc);
            }
            IrInst *r = NULL;
            for (int j = o.t->nelems - 1; j >= 0; j--) {
                IrInst *x = ty_emit(fn, IR_EXTRACT, et, e->loc, 1, &o.v);
                if (x)
                    x->imm.index = j;
                if (!r) {
                    r = x;
                    continue;
                }
                IrInst *hit = bin(fn, IR_BITOR, ty_bool,
                                  cmp(fn, CMP_EQ, k64, ty_const_int(fn, ty_i64, j, e->loc), e->loc),
                                  cmp(fn, CMP_EQ, k64, ty_const_int(fn, ty_i64, j - o.t->nelems, e->loc), e->loc),
                                  e->loc);
                IrInst *ops[3] = {hit, x, r};
                r = ty_emit(fn, IR_SELECT, et, e->loc, 3, ops);
            }
            return vval(et, r);
        }
        if (k < 0)
            k += o.t->nelems;
        if (k < 0 || k >= o.t->nelems) {
            ty_error(fn, ix->loc, "tuple index out of range (%s has %d elements)", o.t->name,
                     o.t->nelems);
            return verr();
        }
        const Type *t = o.t->elems[k];
        IrInst *x = ty_emit(fn, IR_EXTRACT, t, e->loc, 1, &o.v);
        if (x)
            x->imm.index = (int)k;
        return vval(t, x);
    }
    if (o.t->kind == TY_LIST)
        return ty_list_get(fn, o, ix, e->loc); /* typer_list.c */
    if (o.t->kind == TY_DICT)
        return ty_dict_get(fn, o, ix, e->loc); /* typer_dict.c */
    if (o.t->kind != TY_ARRAY) {
        ty_error(fn, e->loc, "'%s' cannot be indexed", o.t->name);
        return verr();
    }
    if (ix->kind == ND_ELLIPSIS) { /* Numba 0.56 types it, then fails to lower it */
        ty_error(fn, ix->loc, "reading a[...] is not supported (Numba 0.56 cannot compile it); "
                 "use a[:] or the array itself");
        return verr();
    }
    if (!(ix = ty_index_expand(fn, o.t, ix))) /* a[..., i]: typer_ellipsis.c */
        return verr();
    Val tv;
    if (ty_tuple_index_get(fn, o, ix, e->loc, &tv)) /* a[idx], idx a tuple: typer_tuple.c */
        return tv;
    int nidx = ix->kind == ND_TUPLE ? ix->list.n : 1;
    if (ty_index_is_advanced(fn, o.t, ix)) /* a[mask], a[idx]: typer_index.c */
        return ty_index_get(fn, o, ix, e->loc);
    if (nidx <= o.t->ndim && ty_array_has_slice(o.t, ix)) /* a view: typer_array.c */
        return ty_array_view(fn, o, ix, e->loc);
    IrInst *args[10];
    const Type *its[8] = {NULL};
    args[0] = o.v;
    for (int k = 0; k < nidx && k < 8; k++) {
        Node *ie = ix->kind == ND_TUPLE ? ix->list.items[k] : ix;
        if (ie->kind == ND_SLICE) {
            ty_error(fn, ie->loc, "too many indices for %s: %d given", o.t->name, nidx);
            return verr();
        }
        Val iv = ty_value(fn, ie);
        if (iv.k != V_VAL)
            return verr();
        if (!ty_is_int(iv.t) && iv.t != ty_bool) {
            ty_error(fn, ie->loc, "array index must be an integer, not %s", iv.t->name);
            return verr();
        }
        args[1 + k] = ty_cast(fn, iv.v, iv.t, ty_i64, ie->loc);
        its[k] = iv.t;
    }
    if (nidx != o.t->ndim) {
        ty_error(fn, ix->loc, "%s needs %d indices, got %d", o.t->name, o.t->ndim, nidx);
        return verr();
    }
    for (int k = 0; k < nidx; k++)
        args[1 + k] = ty_bounds_check(fn, o.v, args[1 + k], its[k], k, e->loc);
    return vval(o.t->dtype, ty_emit(fn, IR_ALOAD, o.t->dtype, e->loc, nidx + 1, args));
}

/* ---- calls ------------------------------------------------------------------------------------ */
/* A call: of a library name (a row of lib/, whose handler types it), of a function of the
 * program, or of a scalar type used as a constructor. */
static Val call(Fn *fn, Node *e) {
    if (!(e = ty_spread_starred(fn, e)))
        return verr();
    Val folded;
    if (ty_arrexpr_fold_method(fn, e, &folded)) /* (a - b).max(): no temporary array */
        return folded;
    Val callee = ty_expr(fn, e->a);
    if (callee.k == V_ERR)
        return verr();
    if (callee.k == V_VAL && ty_is_func(callee.t)) { /* f(x) where f holds a function */
        const FuncInfo *fi = fe_find_func(fn->tc->m, callee.t->func);
        if (!fi)
            fi = ty_ext_func(fn->tc, callee.t->func);
        if (!fi) /* a lambda passed as a value */
            fi = ty_closure_named(fn->tc, callee.t->func);
        if (!fi) {
            ty_error(fn, e->loc, "the function '%s' is not part of this compilation",
                     callee.t->func);
            return verr();
        }
        callee = (Val){.k = V_FUNC, .fn = fi, .name = fi->name};
    }
    const LibEntry *le = callee.lib;
    if (!le && callee.k == V_METHOD) /* a.sum(), a.sort(), ...: ndarray.NAME */
        le = lib_method(callee.name);
    if (le && le->call)
        return lib_refuse_on_gpu(fn, le, e->loc) ? verr() : le->call(fn, le, e, callee);
    int n;
    Val a[16] = {{V_ERR}};
    if (callee.k == V_FUNC && ty_is_generator(callee.fn)) { /* typer_gen.c iterates them */
        ty_gen_misused(fn, callee.fn, e->loc);
        return verr();
    }
    if (callee.k == V_FUNC) { /* keywords, defaults: typer_optional.c */
        if (!ty_bind_call(fn, ty_closure_binder(fn, callee.fn), e, a, &n))
            return verr();
    } else if (!lib_args(fn, callee, e, a, &n)) {
        return verr();
    }
    switch (callee.k) {
    case V_TYPE: {
        if (ty_is_complex(callee.t) && n <= 2 && !(n == 1 && a[0].t->kind == TY_ARRAY))
            return ty_complex_ctor(fn, callee.t, a, n, e->loc); /* np.complex64(re, im) */
        if (n != 1 || !ty_is_scalar(a[0].t)) {
            ty_error(fn, e->loc, "%s() takes one %s", callee.t->name,
                     n == 1 && ty_is_complex(a[0].t) ? "real number (use .real to convert a "
                                                      "complex number)" : "number");
            return verr();
        }
        if (callee.t == ty_bool)
            return vval(ty_bool, ty_truth(fn, a[0], e->loc));
        return vval(callee.t, ty_cast(fn, a[0].v, a[0].t, callee.t, e->loc));
    }
    case V_FUNC: {
        if (ty_is_closure(fn, callee.fn))
            return ty_closure_call(fn, callee.fn, a, n, e->loc);
        const Type *types[16];
        const Node *lits[16];
        for (int i = 0; i < n; i++)
            types[i] = a[i].t;
        bool lit = n <= 16 && ty_call_literals(fn, callee.fn, e, lits); /* typer_literal.c */
        IrFunc *f = ty_specialize_call_lits(fn, callee.fn, types, lit ? lits : NULL, n, e->loc);
        if (!f)
            return verr();
        IrInst *args[16];
        for (int i = 0; i < n; i++)
            args[i] = a[i].v;
        IrInst *r = ty_emit(fn, IR_CALL, f->ret, e->loc, n, args);
        if (r)
            r->imm.callee = f;
        return ty_own(fn, vval(f->ret, r), e->loc);
    }
    default:
        ty_error(fn, e->loc, "%s is not callable", ty_what(callee));
        return verr();
    }
}

/* ---- the dispatcher ----------------------------------------------------------------------------- */
Val ty_expr(Fn *fn, Node *e) {
    switch (e->kind) {
    case ND_INT: {
        const Type *it = e->str ? ty_u64 : ty_i64; /* above 2**63-1: uint64, as Numba */
        Val v = vval(it, ty_const_int(fn, it, e->ival, e->loc));
        v.lit = !e->str;
        return v;
    }
    case ND_FLOAT:
        return vval(ty_f64, ty_const_float(fn, ty_f64, e->fval, e->loc));
    case ND_IMAG:
        return ty_imag_literal(fn, e->fval, e->loc);
    case ND_BOOL:
        return vval(ty_bool, ty_const_int(fn, ty_bool, e->ival != 0, e->loc));
    case ND_NAME:
        return ty_resolve_name(fn, e->name, e->loc);
    case ND_ATTR:
        return attribute(fn, e);
    case ND_BINOP: {
        Val r;
        if (ty_arrexpr(fn, e, &r)) /* an operand is an array: typer_arrexpr.c */
            return r;
        Val a = ty_value(fn, e->a), b = ty_value(fn, e->b);
        return ty_binop(fn, e->op, a, b, e->loc);
    }
    case ND_UNARY: {
        Val r;
        return ty_arrexpr(fn, e, &r) ? r : unary(fn, e);
    }
    case ND_BOOLOP:
        return boolop(fn, e);
    case ND_COMPARE: {
        Val r;
        return ty_arrexpr(fn, e, &r) ? r : compare(fn, e);
    }
    case ND_IFEXP:
        return ty_ifexp(fn, e);
    case ND_CALL:
        return call(fn, e);
    case ND_SUBSCRIPT:
        return subscript(fn, e);
    case ND_TUPLE:
        return ty_tuple_literal(fn, e); /* typer_tuple.c */
    case ND_ELLIPSIS:
        ty_error(fn, e->loc, "'...' (Ellipsis) is supported only as an array index");
        return verr();
    case ND_STARRED:
        ty_error(fn, e->loc, "'*' is supported among the arguments of a call only (of a "
                 "library function: '*name' of a tuple variable)");
        return verr();
    case ND_NONE:
        return ty_none_value(fn, e->loc);
    case ND_STR:
        return ty_str_literal(fn, e); /* typer_str.c */
    case ND_LIST: /* typer_list.c */
        return ty_list_literal(fn, e);
    case ND_DICT: /* typer_dict.c */
        return ty_dict_literal(fn, e);
    case ND_SET: /* typer_set.c */
        return ty_set_literal(fn, e);
    case ND_LISTCOMP: /* sum/min/max take theirs before this: typer_comp.c */
        if (fn->tc->target != TARGET_CPU) {
            ty_comp_misplaced(fn, e);
            return verr();
        }
        return ty_comp_reduce(fn, TY_COMP_LIST, e, e->loc);
    case ND_LAMBDA: /* `f = lambda ...` alone is a def (parse_build.c) */
        return ty_closure_lambda(fn, e);
    default:
        ty_error(fn, e->loc, "this expression is not supported in compiled functions");
        return verr();
    }
}

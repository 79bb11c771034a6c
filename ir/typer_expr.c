/* typer_expr.c — typing and emitting expressions: names, literals, operators, subscripts,
 * attributes, calls of module functions, builtins, math and the cuda.* intrinsics.
 *
 * Every rule is Numba's (SEMANTICS.md; the type arithmetic itself is in types.c).  An
 * expression gives a Val: a typed value, or a "denotation" (a module, a function, a type used
 * as a constructor, range(...)) that only a call, an attribute or a for-loop can consume.
 * Under the 'python' error model, integer and float division, floor division and modulo test
 * the divisor first and raise ZeroDivisionError at the operator's location.
 */
#include "typer_internal.h"

#include <math.h>
#include <string.h>


static const char *what(Val v) {
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
    if (v.k == V_VAL || v.k == V_ERR)
        return v;
    ty_error(fn, e->loc, "%s cannot be used as a value here", what(v));
    return verr();
}

IrInst *ty_truth(Fn *fn, Val v, Loc loc) {
    if (v.k != V_VAL)
        return NULL;
    if (v.t == ty_bool)
        return v.v;
    if (ty_is_complex(v.t))
        return ty_complex_truth(fn, v, loc);
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

/* Under the 'python' error model: 0 ** negative raises ZeroDivisionError (Numba). */
static void check_zero_pow(Fn *fn, IrInst *x, const Type *xt, IrInst *y, const Type *yt,
                           Loc loc) {
    if (!fn->emit || fn->f->error_model != EM_PYTHON || !x || !y)
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
        check_zero(fn, y, t, ty_is_int(a.t) && ty_is_int(b.t) ? "division by zero"
                                                              : "float division by zero", loc);
        return vval(t, bin(fn, IR_DIV, t, x, y, loc));
    }
    case OP_FLOORDIV: case OP_MOD: {
        IrInst *x = ty_cast(fn, a.v, a.t, t, loc), *y = ty_cast(fn, b.v, b.t, t, loc);
        const char *msg = op == OP_MOD ? (ty_is_float(t) ? "float modulo" : "integer modulo by zero")
                          : (ty_is_float(t) ? "float divmod()" : "integer division or modulo by zero");
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

static Val compare2(Fn *fn, OpKind op, Val a, Val b, Loc loc) {
    if (a.k != V_VAL || b.k != V_VAL)
        return verr();
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
    CmpPred p = op == OP_EQ ? CMP_EQ : op == OP_NE ? CMP_NE : op == OP_LT ? CMP_LT
                : op == OP_LE ? CMP_LE : op == OP_GT ? CMP_GT : CMP_GE;
    return vval(ty_bool, cmp(fn, p, ty_cast(fn, a.v, a.t, t, loc), ty_cast(fn, b.v, b.t, t, loc), loc));
}

/* a < b < c: (a < b) and (b < c), b evaluated once, short-circuit. */
static Val compare(Fn *fn, Node *e) {
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
        IrInst *st = ty_emit(fn, IR_STORE, ty_void, e->loc, 1, &c.v);
        if (st)
            st->imm.index = res;
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
    IrInst *v = ty_emit(fn, IR_LOAD, ty_bool, e->loc, 0, NULL);
    if (v)
        v->imm.index = res;
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
    IrInst *st = ty_emit(fn, IR_STORE, ty_void, e->loc, 1, &ca);
    if (st)
        st->imm.index = res;
    IrInst *c = ty_truth(fn, a, e->a->loc);
    IrBlock *rhs = ty_block(fn), *done = ty_block(fn);
    if (e->op == OP_AND)
        ty_condbr(fn, c, rhs, done, e->loc);
    else
        ty_condbr(fn, c, done, rhs, e->loc);
    ty_set_block(fn, rhs);
    Val b = ty_value(fn, e->b);
    IrInst *cb = ty_cast(fn, b.v, b.t, t, e->loc);
    st = ty_emit(fn, IR_STORE, ty_void, e->loc, 1, &cb);
    if (st)
        st->imm.index = res;
    ty_br(fn, done, e->loc);
    ty_set_block(fn, done);
    IrInst *v = ty_emit(fn, IR_LOAD, t, e->loc, 0, NULL);
    if (v)
        v->imm.index = res;
    return vval(t, v);
}

static Val ifexp(Fn *fn, Node *e) {
    bool emit = fn->emit;
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
        IrInst *st = ty_emit(fn, IR_STORE, ty_void, e->loc, 1, &x);
        if (st)
            st->imm.index = res;
        ty_br(fn, done, e->loc);
    }
    ty_set_block(fn, done);
    IrInst *v = ty_emit(fn, IR_LOAD, t, e->loc, 0, NULL);
    if (v)
        v->imm.index = res;
    return vval(t, v);
}

static Val unary(Fn *fn, Node *e) {
    Val a = ty_value(fn, e->a);
    if (a.k != V_VAL)
        return verr();
    if (ty_is_complex(a.t))
        return ty_complex_unary(fn, e->op, a, e->loc);
    if (!ty_is_scalar(a.t)) {
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
static const char *const builtin_names[] = {"range", "len", "abs", "min", "max", "int",
                                            "float", "bool", "round", "pow", "enumerate",
                                            "complex", NULL};

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
    if (v && v->bad)
        return verr(); /* its conflicting assignment is the error */
    if (v) {
        if (!v->type || (fn->emit && v->irvar < 0)) {
            if (fn->emit && !fn->tc->diags->nerrors)
                ty_error(fn, loc, "the type of '%s' could not be inferred", name);
            return verr();
        }
        IrInst *ld = ty_emit(fn, IR_LOAD, v->type, loc, 0, NULL);
        if (ld)
            ld->imm.index = v->irvar;
        return vval(v->type, ld);
    }
    const ModuleInfo *m = fn->tc->m;
    for (int i = 0; i < m->nconsts; i++)
        if (!strcmp(m->consts[i].name, name)) {
            static _Thread_local int depth;
            if (depth > 16) {
                ty_error(fn, loc, "constant '%s' refers to itself", name);
                return verr();
            }
            depth++;
            Val c = ty_value(fn, m->consts[i].value);
            depth--;
            return c;
        }
    const FuncInfo *fi = fe_find_func(m, name);
    if (fi)
        return (Val){.k = V_FUNC, .fn = fi, .name = fi->name};
    const char *target = fe_resolve_import(m, name);
    if (target)
        return resolve_dotted(fn, target, loc);
    for (int i = 0; builtin_names[i]; i++)
        if (!strcmp(builtin_names[i], name))
            return (Val){.k = V_BUILTIN, .name = builtin_names[i]};
    const Type *t = ty_from_name(name);
    (void)t;
    if (!strcmp(name, "print"))
        return (Val){.k = V_BUILTIN, .name = "print"};
    if (fn->emit)
        ty_error(fn, loc, "name '%s' is not defined", name);
    return verr();
}

static Val const_float(Fn *fn, double x, Loc loc) {
    return vval(ty_f64, ty_const_float(fn, ty_f64, x, loc));
}

static Val module_attr(Fn *fn, const char *mod, const char *attr, Loc loc) {
    if (ty_random_module(mod, attr)) /* np.random, random.NAME ...: typer_random.c */
        return ty_random_attr(fn, mod, attr, loc);
    if (!strcmp(mod, "cmath")) {
        if (!strcmp(attr, "pi")) return const_float(fn, M_PI, loc);
        if (!strcmp(attr, "e")) return const_float(fn, M_E, loc);
        if (!strcmp(attr, "tau")) return const_float(fn, 2 * M_PI, loc);
        if (!strcmp(attr, "inf")) return const_float(fn, INFINITY, loc);
        if (!strcmp(attr, "nan")) return const_float(fn, NAN, loc);
        if (!strcmp(attr, "infj")) return ty_imag_literal(fn, INFINITY, loc);
        if (!strcmp(attr, "nanj")) return ty_imag_literal(fn, NAN, loc);
        if (ty_cmath_has(attr))
            return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "cmath.%s", attr)};
        ty_error(fn, loc, "'cmath' has no attribute '%s' that numjit supports", attr);
        return verr();
    }
    /* np.dot, np.linalg.inv ...: typer_linalg.c */
    if (!strcmp(mod, "numpy") && !strcmp(attr, "linalg"))
        return (Val){.k = V_MODULE, .name = "numpy.linalg"};
    if ((!strcmp(mod, "numpy") && ty_linalg_np(attr)) ||
        (!strcmp(mod, "numpy.linalg") && ty_linalg_module(attr)))
        return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s%s",
                                                          mod[5] ? "linalg." : "", attr)};
    bool is_np = !strcmp(mod, "numpy"), is_math = !strcmp(mod, "math");
    bool is_nb = !strcmp(mod, "numba") || !strcmp(mod, "numjit");
    if (is_np || is_math) {
        if (!strcmp(attr, "pi")) return const_float(fn, M_PI, loc);
        if (!strcmp(attr, "e")) return const_float(fn, M_E, loc);
        if (!strcmp(attr, "inf")) return const_float(fn, INFINITY, loc);
        if (!strcmp(attr, "nan")) return const_float(fn, NAN, loc);
        if (!strcmp(attr, "tau") && is_math) return const_float(fn, 2 * M_PI, loc);
        int k = ir_math_lookup(attr);
        if (is_np && k < 0) {
            static const char *const alias[][2] = {
                {"arcsin", "asin"}, {"arccos", "acos"}, {"arctan", "atan"}, {"arctan2", "atan2"},
                {"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"},
                {"power", "pow"}, {"absolute", "fabs"}, {"deg2rad", "radians"},
                {"rad2deg", "degrees"}};
            for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
                if (!strcmp(attr, alias[i][0]))
                    k = ir_math_lookup(alias[i][1]);
            /* np=true: on arrays they are ufuncs (typer_arrexpr.c) */
            if (!strcmp(attr, "abs"))
                return (Val){.k = V_BUILTIN, .name = "abs", .np = true};
            if (!strcmp(attr, "minimum"))
                return (Val){.k = V_BUILTIN, .name = "min", .np = true};
            if (!strcmp(attr, "maximum"))
                return (Val){.k = V_BUILTIN, .name = "max", .np = true};
            if (ty_np_constructor(attr))
                return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s", attr)};
            if (!strcmp(attr, "real") || !strcmp(attr, "imag") || !strcmp(attr, "conj") ||
                !strcmp(attr, "conjugate") || !strcmp(attr, "angle"))
                return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s", attr),
                             .np = true};
        }
        if (k >= 0 && (is_np || (k != MATH_EXP2 && k != MATH_RINT)))
            return (Val){.k = V_MATH, .idx = k, .np = is_np, .name = attr};
        if (is_np && ty_array_np_func(attr)) /* np.sum, np.dot, ...: typer_array.c */
            return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s", attr)};
        /* typer_index.c, typer_join.c, typer_sort.c */
        if (is_np && (ty_index_np(attr) || ty_join_np(attr) || ty_sort_np(attr) ||
                      ty_npfunc_np(attr))) /* ... and typer_npfunc.c */
            return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s", attr)};
        if (is_np && ty_np_ufunc(attr)) /* np.add, np.where, ...: typer_arrexpr.c */
            return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "np.%s", attr),
                         .np = true};
    }
    if (is_np || is_nb) {
        const Type *t = ty_from_name(attr);
        if (t && t != ty_void && ty_is_elem(t))
            return (Val){.k = V_TYPE, .t = t};
        if (is_nb && !strcmp(attr, "cuda"))
            return (Val){.k = V_MODULE, .name = "cuda"};
        /* prange is range, marked: a for loop over it in a parallel=True function runs on
         * the thread pool (typer_parfor.c); anywhere else it is a serial range, as in Numba */
        if (is_nb && !strcmp(attr, "prange"))
            return (Val){.k = V_BUILTIN, .name = "prange"};
    }
    if (!strcmp(mod, "cuda")) {
        static const char *const objs[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
        for (int i = 0; i < 4; i++)
            if (!strcmp(attr, objs[i]))
                return (Val){.k = V_SREGS, .idx = i * 3};
        if (!strcmp(attr, "shared") || !strcmp(attr, "local") || !strcmp(attr, "atomic") ||
            !strcmp(attr, "const"))
            return (Val){.k = V_MODULE, .name = arena_printf(fn->tc->arena, "cuda.%s", attr)};
        if (!strcmp(attr, "laneid") || !strcmp(attr, "warpsize"))
            return ty_cuda_sreg32(fn, attr, loc);
        static const char *const fns[] = {"grid", "gridsize", "syncthreads", "threadfence", NULL};
        bool known = ty_cuda_has(attr);
        for (int i = 0; fns[i]; i++)
            known |= !strcmp(attr, fns[i]);
        if (known)
            return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "cuda.%s", attr)};
    }
    if (!strcmp(mod, "cuda.shared") || !strcmp(mod, "cuda.local") || !strcmp(mod, "cuda.atomic") ||
        !strcmp(mod, "cuda.const"))
        return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "%s.%s", mod, attr)};
    ty_error(fn, loc, "'%s' has no attribute '%s' that numjit supports", mod, attr);
    return verr();
}

static IrInst *sreg(Fn *fn, int r, Loc loc) {
    IrInst *in = ty_emit(fn, IR_SREG, ty_i64, loc, 0, NULL);
    if (in)
        in->imm.index = r;
    return in;
}

static Val attribute(Fn *fn, Node *e) {
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
        ty_error(fn, e->loc, "%s has no attribute '%s'", what(o), attr);
        return verr();
    }
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
            return (Val){.k = V_BUILTIN, .name = "array.copy", .t = o.t, .v = o.v};
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
    if (ty_is_elem(o.t) && o.t != ty_bool) {
        if (ty_is_complex(o.t) && (!strcmp(attr, "real") || !strcmp(attr, "imag")))
            return ty_complex_attr(fn, o, attr, e->loc);
        if (!strcmp(attr, "real")) /* a real number's: itself, and a zero */
            return o;
        if (!strcmp(attr, "imag"))
            return vval(o.t, ty_is_float(o.t) ? ty_const_float(fn, o.t, 0.0, e->loc)
                                              : ty_const_int(fn, o.t, 0, e->loc));
        if (!strcmp(attr, "conjugate"))
            return (Val){.k = V_BUILTIN, .name = "scalar.conjugate", .t = o.t, .v = o.v};
    }
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
    if (o.t->kind != TY_ARRAY) {
        ty_error(fn, e->loc, "'%s' cannot be indexed", o.t->name);
        return verr();
    }
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
static Val math_call(Fn *fn, int k, bool np, Val *a, int n, Loc loc) {
    const MathInfo *mi = &ir_math[k];
    if (n != mi->arity) {
        ty_error(fn, loc, "%s() takes %d argument%s (%d given)", mi->name, mi->arity,
                 mi->arity == 1 ? "" : "s", n);
        return verr();
    }
    bool cplx = false;
    for (int i = 0; i < n; i++)
        cplx |= ty_is_complex(a[i].t);
    if (np && cplx) { /* NumPy's ufuncs on complex scalars: as cmath (Numba's npyfuncs.py) */
        if (k == MATH_FABS && n == 1)
            return ty_complex_abs(fn, a[0], loc);
        if (k == MATH_POW)
            return ty_binop(fn, OP_POW, a[0], a[1], loc);
        if (n == 1 && ty_cmath_has(mi->name))
            return ty_cmath_call(fn, mi->name, a, 1, loc);
    }
    bool all32 = true;
    for (int i = 0; i < n; i++) {
        if (!ty_is_scalar(a[i].t)) {
            ty_error(fn, loc, "%s() needs numbers, not %s%s", mi->name, a[i].t->name,
                     a[i].t->kind == TY_ARRAY ? " (apply it to each element in a loop)" : "");
            return verr();
        }
        all32 &= a[i].t == ty_f32;
    }
    const Type *t = all32 ? ty_f32 : ty_f64;
    if (k == MATH_FMOD && np && !ty_is_float(a[0].t) && !ty_is_float(a[1].t)) {
        /* np.fmod of ints stays an int: the remainder with the dividend's sign */
        const Type *it = ty_arith(a[0].t, a[1].t);
        IrInst *x = ty_cast(fn, a[0].v, a[0].t, it, loc), *y = ty_cast(fn, a[1].v, a[1].t, it, loc);
        IrInst *m = bin(fn, IR_MOD, it, x, y, loc);
        if (!ty_is_signed(it))
            return vval(it, m);
        IrInst *z = ty_const_int(fn, it, 0, loc);
        IrInst *differ = bin(fn, IR_BITXOR, ty_bool, cmp(fn, CMP_LT, x, z, loc), cmp(fn, CMP_LT, y, z, loc), loc);
        IrInst *adj = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_NE, m, z, loc), differ, loc);
        IrInst *ops[3] = {adj, bin(fn, IR_SUB, it, m, y, loc), m};
        return vval(it, ty_emit(fn, IR_SELECT, it, loc, 3, ops));
    }
    if (mi->kind == MK_PRED && !ty_is_float(a[0].t)) /* ints are never nan or inf */
        return vval(ty_bool, ty_const_int(fn, ty_bool, k == MATH_ISFINITE, loc));
    IrInst *args[2];
    for (int i = 0; i < n; i++)
        args[i] = ty_cast(fn, a[i].v, a[i].t, t, loc);
    const Type *rt = mi->kind == MK_PRED ? ty_bool : t;
    IrInst *r = ty_emit(fn, IR_MATH, rt, loc, n, args);
    if (r)
        r->imm.index = k;
    if (mi->kind == MK_ROUND && !np) /* math.floor/ceil/trunc give int64 */
        return vval(ty_i64, ty_cast(fn, r, t, ty_i64, loc));
    return vval(rt, r);
}

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

static Val cuda_call(Fn *fn, const char *name, Node *call, Val *a, int n);

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

static Val builtin_call(Fn *fn, const char *name, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    if (!strncmp(name, "cuda.", 5))
        return cuda_call(fn, name, call, a, n);
    if (!strncmp(name, "cmath.", 6))
        return ty_cmath_call(fn, name + 6, a, n, loc);
    if ((!strcmp(name, "np.real") || !strcmp(name, "np.imag")) && n == 1 &&
        a[0].t->kind == TY_ARRAY) /* views, as a.real and a.imag */
        return ty_array_attr(fn, a[0], name + 3, loc);
    if (!strncmp(name, "np.", 3) && n == 1 && ty_is_elem(a[0].t) &&
        (!strcmp(name, "np.real") || !strcmp(name, "np.imag") || !strcmp(name, "np.conj") ||
         !strcmp(name, "np.conjugate") || !strcmp(name, "np.angle"))) {
        Val z = a[0];
        if (name[3] == 'c') /* conj, conjugate */
            return ty_complex_conjugate(fn, z, loc);
        if (!strcmp(name, "np.angle")) { /* the phase; a real number's is 0 or pi */
            if (!ty_is_complex(z.t))
                z = vval(ty_complex_of(z.t), ty_cast(fn, z.v, z.t, ty_complex_of(z.t), loc));
            return ty_cmath_call(fn, "phase", &z, 1, loc);
        }
        if (ty_is_complex(z.t))
            return ty_complex_attr(fn, z, name + 3, loc);
        return name[3] == 'r' ? z : vval(z.t, ty_const_int(fn, z.t, 0, loc));
    }
    if (!strncmp(name, "np.", 3))
        return ty_array_call(fn, name + 3, (Val){.k = V_ERR}, call, a, n);
    if (!strcmp(name, "enumerate")) {
        ty_error(fn, loc, "enumerate() is supported only as the iterable of a for loop");
        return verr();
    }
    if (!strcmp(name, "range") || !strcmp(name, "prange")) {
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
    if (!strcmp(name, "min") || !strcmp(name, "max"))
        return minmax(fn, name[1] == 'a', a, n, loc);
    if (!strcmp(name, "pow")) {
        if (n != 2) {
            ty_error(fn, loc, "pow() with %d arguments is not supported", n);
            return verr();
        }
        return ty_binop(fn, OP_POW, a[0], a[1], loc);
    }
    if (!strcmp(name, "round") && n == 2)
        return round_ndigits(fn, a[0], a[1], loc);
    if (!strcmp(name, "complex"))
        return ty_complex_ctor(fn, NULL, a, n, loc);
    if (n != 1) {
        ty_error(fn, loc, "%s() takes exactly one argument (%d given)", name, n);
        return verr();
    }
    Val x = a[0];
    if (!strcmp(name, "len")) {
        if (x.t->kind == TY_TUPLE)
            return vval(ty_i64, ty_const_int(fn, ty_i64, x.t->nelems, loc));
        if (x.t->kind != TY_ARRAY || x.t->ndim == 0) {
            ty_error(fn, loc, "len() of %s is not supported", x.t->name);
            return verr();
        }
        IrInst *s = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &x.v);
        if (s)
            s->imm.index = 0;
        return vval(ty_i64, s);
    }
    if (ty_is_complex(x.t) && !strcmp(name, "abs"))
        return ty_complex_abs(fn, x, loc);
    if (ty_is_complex(x.t) && !strcmp(name, "bool"))
        return vval(ty_bool, ty_truth(fn, x, loc));
    if (!ty_is_scalar(x.t)) {
        ty_error(fn, loc, "%s() of %s is not supported%s", name, x.t->name,
                 !strcmp(name, "abs") && x.t->kind == TY_ARRAY ? " (np.abs() is)" : "");
        return verr();
    }
    if (!strcmp(name, "abs")) {
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
        IrInst *ops[3] = {c, neg, v};
        return vval(t, ty_emit(fn, IR_SELECT, t, loc, 3, ops));
    }
    if (!strcmp(name, "int"))
        return vval(ty_i64, ty_cast(fn, x.v, x.t, ty_i64, loc));
    if (!strcmp(name, "float"))
        return vval(ty_f64, ty_cast(fn, x.v, x.t, ty_f64, loc));
    if (!strcmp(name, "bool"))
        return vval(ty_bool, ty_truth(fn, x, loc));
    if (!strcmp(name, "round")) {
        if (!ty_is_float(x.t))
            return vval(ty_i64, ty_cast(fn, x.v, x.t, ty_i64, loc));
        IrInst *r = ty_emit(fn, IR_MATH, x.t, loc, 1, &x.v); /* half to even, as Python */
        if (r)
            r->imm.index = MATH_RINT;
        return vval(ty_i64, ty_cast(fn, r, x.t, ty_i64, loc));
    }
    ty_error(fn, loc, "%s() is not supported here", name);
    return verr();
}

/* The constant integer value of an expression (a literal, -literal, or a module constant). */
static bool const_int(Fn *fn, Node *e, int64_t *out) {
    if (e->kind == ND_INT) {
        *out = e->ival;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && const_int(fn, e->a, out)) {
        *out = -*out;
        return true;
    }
    if (e->kind == ND_NAME && !ty_lookup_var(fn, e->name)) {
        const ModuleInfo *m = fn->tc->m;
        for (int i = 0; i < m->nconsts; i++)
            if (!strcmp(m->consts[i].name, e->name) && m->consts[i].value != e)
                return const_int(fn, m->consts[i].value, out);
    }
    if (e->kind == ND_BINOP) {
        int64_t a, b;
        if (!const_int(fn, e->a, &a) || !const_int(fn, e->b, &b))
            return false;
        switch (e->op) {
        case OP_ADD: *out = a + b; return true;
        case OP_SUB: *out = a - b; return true;
        case OP_MUL: *out = a * b; return true;
        case OP_FLOORDIV: if (!b) return false; *out = a / b - ((a % b) && ((a < 0) != (b < 0))); return true;
        default: return false;
        }
    }
    return false;
}

static const Type *dtype_arg(Fn *fn, Node *call, Node *e) {
    if (e->kind == ND_STR) {
        const Type *t = ty_from_name(e->str);
        if (t && ty_is_scalar(t))
            return t;
    } else {
        bool emit = fn->emit;
        fn->emit = false;
        Val v = ty_expr(fn, e);
        fn->emit = emit;
        if (v.k == V_TYPE)
            return v.t;
    }
    ty_error(fn, e->loc, "expected a dtype such as float32 or numba.int64");
    return NULL;
}

static Node *kwarg(Node *call, const char *name) {
    for (int i = 0; i < call->list2.n; i++)
        if (!strcmp(call->list2.items[i]->name, name))
            return call->list2.items[i]->a;
    return NULL;
}

static Val cuda_call(Fn *fn, const char *name, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    if (fn->tc->target != TARGET_NVPTX) {
        ty_error(fn, loc, "%s() is only available in CUDA kernels and device functions", name);
        return verr();
    }
    if (!strcmp(name, "cuda.grid") || !strcmp(name, "cuda.gridsize")) {
        int64_t nd;
        if (call->list.n != 1 || !const_int(fn, call->list.items[0], &nd) || nd < 1 || nd > 3) {
            ty_error(fn, loc, "%s() takes a constant 1, 2 or 3", name);
            return verr();
        }
        bool grid = !strcmp(name, "cuda.grid");
        IrInst *v[3];
        const Type *el[3] = {ty_i64, ty_i64, ty_i64};
        for (int d = 0; d < nd; d++) {
            /* grid: tid + ctaid * ntid; gridsize: ntid * nctaid */
            IrInst *ntid = sreg(fn, SREG_NTID_X + d, loc);
            IrInst *other = sreg(fn, grid ? SREG_CTAID_X + d : SREG_NCTAID_X + d, loc);
            IrInst *prod = bin(fn, IR_MUL, ty_i64, other, ntid, loc);
            v[d] = grid ? bin(fn, IR_ADD, ty_i64, sreg(fn, SREG_TID_X + d, loc), prod, loc) : prod;
        }
        if (nd == 1)
            return vval(ty_i64, v[0]);
        const Type *tt = ty_tuple(el, (int)nd);
        return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, (int)nd, v));
    }
    if (!strcmp(name, "cuda.syncthreads") || !strcmp(name, "cuda.threadfence")) {
        ty_emit(fn, name[5] == 's' ? IR_BARRIER : IR_FENCE, ty_void, loc, 0, NULL);
        return vval(ty_void, NULL);
    }
    if (!strcmp(name, "cuda.shared.array") || !strcmp(name, "cuda.local.array")) {
        Node *shape = call->list.n > 0 ? call->list.items[0] : kwarg(call, "shape");
        Node *dt = call->list.n > 1 ? call->list.items[1] : kwarg(call, "dtype");
        if (!shape || !dt) {
            ty_error(fn, loc, "%s(shape, dtype) needs a shape and a dtype", name);
            return verr();
        }
        int64_t dims[3];
        int nd = shape->kind == ND_TUPLE ? shape->list.n : 1;
        if (nd < 1 || nd > 3) {
            ty_error(fn, shape->loc, "%s() supports 1 to 3 dimensions", name);
            return verr();
        }
        bool shared_arr = name[5] == 's';
        for (int d = 0; d < nd; d++) {
            Node *de = shape->kind == ND_TUPLE ? shape->list.items[d] : shape;
            bool ok = const_int(fn, de, &dims[d]) &&
                      (dims[d] > 0 || (dims[d] == 0 && shared_arr && nd == 1)); /* 0: dynamic */
            if (!ok) {
                ty_error(fn, de->loc, "the shape of %s must be positive constants%s", name,
                         shared_arr ? " (or 0 for the launch's dynamic shared memory)" : "");
                return verr();
            }
        }
        const Type *dtype = dtype_arg(fn, call, dt);
        if (!dtype)
            return verr();
        int64_t nbytes;
        if (nj_byte_size(nd, dims, ty_size(dtype), &nbytes) != NJ_SIZE_OK) {
            ty_error(fn, shape->loc, "the size of this %s is larger than INT64_MAX bytes", name);
            return verr();
        }
        bool shared = name[5] == 's';
        const Type *t = ty_array_ex(dtype, nd, LAYOUT_C, shared ? AS_SHARED : AS_LOCAL, false);
        IrInst *in = ty_emit(fn, shared ? IR_SHARED : IR_LOCAL, t, loc, 0, NULL);
        if (in)
            memcpy(in->imm.dims, dims, sizeof(int64_t) * (size_t)nd);
        return vval(t, in);
    }
    if (!strcmp(name, "cuda.const.array_like")) {
        /* numba-cuda copies a module-level NumPy array into constant memory; numjit compiles
         * from the source text and never sees that array's values */
        ty_error(fn, loc, "cuda.const.array_like() is not supported by numjit: it compiles "
                 "kernels from their source and cannot read the module's NumPy array; pass the "
                 "array to the kernel as an argument instead (cuda.to_device(array) once)");
        return verr();
    }
    if (!strncmp(name, "cuda.atomic.", 12))
        return ty_cuda_atomic(fn, name + 12, a, n, loc);
    if (ty_cuda_has(name + 5))
        return ty_cuda_call(fn, name + 5, call, a, n);
    ty_error(fn, loc, "%s() is not supported by numjit", name);
    return verr();
}

static Val call(Fn *fn, Node *e) {
    Val callee = ty_expr(fn, e->a);
    if (callee.k == V_ERR)
        return verr();
    if (callee.k == V_BUILTIN && (!strcmp(callee.name, "cuda.shared.array") ||
                                  !strcmp(callee.name, "cuda.local.array") ||
                                  !strcmp(callee.name, "cuda.const.array_like") ||
                                  !strcmp(callee.name, "cuda.grid") ||
                                  !strcmp(callee.name, "cuda.gridsize")))
        return cuda_call(fn, callee.name, e, NULL, 0);
    if (callee.k == V_BUILTIN && !strcmp(callee.name, "cuda.syncwarp") && e->list.n == 0 &&
        e->list2.n == 1 && !strcmp(e->list2.items[0]->name, "mask")) {
        Val m = ty_value(fn, e->list2.items[0]->a); /* syncwarp(mask=...) */
        return m.k == V_VAL ? cuda_call(fn, callee.name, e, &m, 1) : verr();
    }
    /* NumPy's constructors (np.empty ..., np.copy, a.copy()): typer_alloc.c */
    if (callee.k == V_BUILTIN && ((!strncmp(callee.name, "np.", 3) &&
                                   ty_np_constructor(callee.name + 3)) ||
                                  !strcmp(callee.name, "array.copy")))
        return ty_np_call(fn, callee.name, e, callee);
    if (callee.k == V_BUILTIN && !strcmp(callee.name, "print")) /* typer_print.c */
        return ty_print_call(fn, e);
    if (callee.k == V_BUILTIN && ty_random_callee(callee.name)) /* typer_random.c */
        return ty_random_call(fn, callee.name, e);
    /* sorting, searching, medians: typer_sort.c reads the arguments */
    if (callee.k == V_METHOD && ty_sort_method(callee.name))
        return ty_sort_call(fn, callee.name, callee, e);
    if (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3) && ty_sort_np(callee.name + 3))
        return ty_sort_call(fn, callee.name + 3, verr(), e);
    if (callee.k == V_BUILTIN && ty_linalg_callee(callee.name)) /* typer_linalg.c */
        return ty_linalg_call(fn, callee.name, e);
    /* np.interp, np.histogram, ..., a.repeat(): typer_npfunc.c reads the arguments */
    if (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3) && ty_npfunc_np(callee.name + 3))
        return ty_npfunc_call(fn, callee.name + 3, e, verr());
    if (callee.k == V_METHOD && !strcmp(callee.name, "repeat"))
        return ty_npfunc_call(fn, "repeat", e, callee);
    /* a.reshape(...), a.astype(np.float32) ...: typer_reshape.c reads the arguments */
    if (callee.k == V_METHOD && ty_reshape_method(callee.name))
        return ty_reshape_call(fn, callee, e);
    if (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3) && ty_reshape_np(callee.name + 3))
        return ty_reshape_np_call(fn, callee.name + 3, e);
    /* np.nonzero, a.nonzero(), np.where(a): typer_index.c; np.concatenate ...: typer_join.c */
    if (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3) &&
        (ty_index_np(callee.name + 3) || (!strcmp(callee.name, "np.where") && e->list.n == 1)))
        return ty_index_np_call(fn, callee.name + 3, e, (Val){.k = V_ERR});
    if (callee.k == V_METHOD && !strcmp(callee.name, "nonzero"))
        return ty_index_np_call(fn, "nonzero", e, callee);
    if (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3) && ty_join_np(callee.name + 3))
        return ty_join_call(fn, callee.name + 3, e);
    /* operations of NumPy's ufuncs on arrays, np.where, np.clip: typer_arrexpr.c */
    if ((callee.k == V_MATH && callee.np) || (callee.k == V_BUILTIN && callee.np)) {
        Val r;
        if (ty_arrexpr(fn, e, &r))
            return r;
    }
    /* keywords: only array methods and np.* functions look at them (axis=, ...) */
    bool array_call = callee.k == V_METHOD ||
                      (callee.k == V_BUILTIN && !strncmp(callee.name, "np.", 3));
    if (e->list2.n && !array_call) {
        ty_error(fn, e->list2.items[0]->loc, "keyword arguments are not supported in this call");
        return verr();
    }
    int n = e->list.n;
    if (n > 16) {
        ty_error(fn, e->loc, "too many arguments");
        return verr();
    }
    Val a[16] = {{V_ERR}};
    for (int i = 0; i < n; i++) {
        a[i] = ty_value(fn, e->list.items[i]);
        if (a[i].k != V_VAL)
            return verr();
    }
    if (callee.k == V_BUILTIN && !strcmp(callee.name, "scalar.conjugate")) {
        if (n) { /* z.conjugate(): the bound value rides in callee */
            ty_error(fn, e->loc, "conjugate() takes no arguments");
            return verr();
        }
        return ty_complex_conjugate(fn, vval(callee.t, callee.v), e->loc);
    }
    switch (callee.k) {
    case V_BUILTIN:
        return builtin_call(fn, callee.name, e, a, n);
    case V_METHOD:
        return ty_array_call(fn, callee.name, callee, e, a, n);
    case V_MATH:
        return math_call(fn, callee.idx, callee.np, a, n, e->loc);
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
        const Type *types[16];
        for (int i = 0; i < n; i++)
            types[i] = a[i].t;
        IrFunc *f = ty_specialize_call(fn, callee.fn, types, n, e->loc);
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
        ty_error(fn, e->loc, "%s is not callable", what(callee));
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
        return ifexp(fn, e);
    case ND_CALL:
        return call(fn, e);
    case ND_SUBSCRIPT:
        return subscript(fn, e);
    case ND_TUPLE: {
        int n = e->list.n;
        if (n > 16) {
            ty_error(fn, e->loc, "tuples of more than 16 values are not supported");
            return verr();
        }
        const Type *el[16];
        IrInst *v[16];
        for (int i = 0; i < n; i++) {
            Val x = ty_value(fn, e->list.items[i]);
            if (x.k != V_VAL)
                return verr();
            if (!ty_is_elem(x.t) &&
                !(x.t->kind == TY_ARRAY && x.t->addrspace == AS_GENERIC &&
                  fn->tc->target == TARGET_CPU)) {
                ty_error(fn, e->list.items[i]->loc, "tuples of %s are not supported", x.t->name);
                return verr();
            }
            el[i] = x.t;
            v[i] = x.v;
        }
        const Type *t = ty_tuple(el, n);
        return vval(t, ty_emit(fn, IR_TUPLE, t, e->loc, n, v));
    }
    case ND_NONE:
        ty_error(fn, e->loc, "None is not supported as a value in compiled functions");
        return verr();
    case ND_STR:
        ty_error(fn, e->loc, "strings are not supported in compiled functions");
        return verr();
    case ND_LIST:
        ty_error(fn, e->loc, "lists are not supported in compiled functions");
        return verr();
    default:
        ty_error(fn, e->loc, "this expression is not supported in compiled functions");
        return verr();
    }
}

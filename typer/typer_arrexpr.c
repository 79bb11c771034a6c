/* typer_arrexpr.c — whole-array expressions: arithmetic, comparisons and bit operations on
 * arrays (`a + 2 * b`, `x < 0.5`, `~m`), NumPy's ufuncs called on arrays (np.sqrt, np.maximum,
 * np.add ...) and augmented assignment to arrays and views (`a += b`, `a[1:3] *= 2`);
 * np.where and np.clip are typer_where.c.
 *
 * An expression is typed and emitted as one tree, the way Numba's array-expression rewrite
 * fuses it: every operator or ufunc call with an array operand becomes a node, everything else
 * (names, calls, views, scalar subexpressions) a leaf evaluated once, before the loop.  Each
 * node is typed by NumPy's loop selection as Numba 0.56 does it (numba/np/numpy_support.py,
 * ufunc_find_matching_loop): the first loop of the ufunc, in NumPy's order (? b B h H i I l L
 * f d, float16 skipped), that every input casts to safely — where, when the inputs mix
 * integers and floats, any integer casts to any float — so float32 * int64 is float32 but
 * float32 * 2.0 float64, and int8 / int8 is float32.  A Python int is an int64, a float a
 * float64: no value-based casting.  The tree's result is a new array (C order, F when some
 * array operand is F and none C) of the broadcast shape of its array leaves (NumPy's rule:
 * shapes align on the right, an extent 1 stretches; anything else raises ValueError at run
 * time).  Then one loop nest walks it, computing each element from the leaves' elements: no
 * temporary array per operator.  When every leaf has the result's shape (checked at run
 * time) the loop indexes the leaves directly, which LLVM vectorizes; otherwise a second loop
 * maps stretched dimensions to index 0.
 *
 * Elements are computed as NumPy's loops do (Numba's error model for ufuncs is 'numpy'): no
 * ZeroDivisionError; integer x // 0 and x % 0 give 0, float division gives inf or nan;
 * 0 ** -n is the type's minimum; np.add and np.multiply of bools are `or` and `and`;
 * np.maximum/np.minimum return a NaN operand.  An augmented assignment `t op= v` computes
 * `op(t, v)` into t itself: the loop must be able to cast its result back to t's dtype under
 * NumPy's 'same_kind' rule (int64 += 1.5 is a type error, float32 += float64 is fine), and it
 * reads and writes element by element in order, as Numba does (so `a[1:] += a[:-1]` is a
 * running sum).  Allocation happens on the CPU only; in-place updates of existing arrays work
 * in CUDA kernels too.  `a[...] = expr` runs the loop straight into the view when no operand
 * shares memory with it (checked at run time), and through a new array otherwise.
 */
#include "typer_internal.h"

#include <math.h>
#include <string.h>


/* ---- NumPy's ufuncs and their loops ----------------------------------------------------------- */
/* Which loop types a ufunc has (NumPy 1.2x's ufunc.types restricted to numjit's dtypes). */
typedef enum { LS_ALL, LS_NUM, LS_FLOAT, LS_INTBOOL, LS_INT } LoopSet;

typedef enum {
    UK_ADD, UK_SUB, UK_MUL, UK_DIV, UK_FLOORDIV, UK_MOD, UK_POW, UK_AND, UK_OR, UK_XOR, UK_SHL,
    UK_SHR, UK_CMP, UK_NEG, UK_POS, UK_INVERT, UK_ABS, UK_MAX, UK_MIN, UK_MATH, UK_CONJ,
    UK_SIGN,
} UfKind;

typedef struct Ufunc {
    const char *name;  /* np.NAME (NumPy's name of the operator's ufunc) */
    int nin;
    LoopSet loops;
    UfKind kind;
    const char *math;  /* UK_MATH: the math.def builtin computing it */
    int pred;          /* UK_CMP: CmpPred */
    bool to_bool;      /* the output is bool whatever the loop type */
} Ufunc;

static const Ufunc ufuncs[] = {
    {"add", 2, LS_ALL, UK_ADD, 0, 0, 0},          {"subtract", 2, LS_NUM, UK_SUB, 0, 0, 0},
    {"multiply", 2, LS_ALL, UK_MUL, 0, 0, 0},     {"true_divide", 2, LS_FLOAT, UK_DIV, 0, 0, 0},
    {"divide", 2, LS_FLOAT, UK_DIV, 0, 0, 0},     {"floor_divide", 2, LS_NUM, UK_FLOORDIV, 0, 0, 0},
    {"remainder", 2, LS_NUM, UK_MOD, 0, 0, 0},    {"mod", 2, LS_NUM, UK_MOD, 0, 0, 0},
    {"power", 2, LS_NUM, UK_POW, 0, 0, 0},        {"bitwise_and", 2, LS_INTBOOL, UK_AND, 0, 0, 0},
    {"bitwise_or", 2, LS_INTBOOL, UK_OR, 0, 0, 0}, {"bitwise_xor", 2, LS_INTBOOL, UK_XOR, 0, 0, 0},
    {"left_shift", 2, LS_INT, UK_SHL, 0, 0, 0},   {"right_shift", 2, LS_INT, UK_SHR, 0, 0, 0},
    {"equal", 2, LS_ALL, UK_CMP, 0, CMP_EQ, 1},   {"not_equal", 2, LS_ALL, UK_CMP, 0, CMP_NE, 1},
    {"less", 2, LS_ALL, UK_CMP, 0, CMP_LT, 1},    {"less_equal", 2, LS_ALL, UK_CMP, 0, CMP_LE, 1},
    {"greater", 2, LS_ALL, UK_CMP, 0, CMP_GT, 1}, {"greater_equal", 2, LS_ALL, UK_CMP, 0, CMP_GE, 1},
    {"negative", 1, LS_NUM, UK_NEG, 0, 0, 0},     {"positive", 1, LS_NUM, UK_POS, 0, 0, 0},
    {"invert", 1, LS_INTBOOL, UK_INVERT, 0, 0, 0}, {"absolute", 1, LS_ALL, UK_ABS, 0, 0, 0},
    {"abs", 1, LS_ALL, UK_ABS, 0, 0, 0},          {"maximum", 2, LS_ALL, UK_MAX, 0, 0, 0},
    {"minimum", 2, LS_ALL, UK_MIN, 0, 0, 0},      {"sign", 1, LS_NUM, UK_SIGN, 0, 0, 0},
    {"sqrt", 1, LS_FLOAT, UK_MATH, "sqrt", 0, 0}, {"exp", 1, LS_FLOAT, UK_MATH, "exp", 0, 0},
    {"exp2", 1, LS_FLOAT, UK_MATH, "exp2", 0, 0}, {"expm1", 1, LS_FLOAT, UK_MATH, "expm1", 0, 0},
    {"log", 1, LS_FLOAT, UK_MATH, "log", 0, 0},   {"log2", 1, LS_FLOAT, UK_MATH, "log2", 0, 0},
    {"log10", 1, LS_FLOAT, UK_MATH, "log10", 0, 0}, {"log1p", 1, LS_FLOAT, UK_MATH, "log1p", 0, 0},
    {"sin", 1, LS_FLOAT, UK_MATH, "sin", 0, 0},   {"cos", 1, LS_FLOAT, UK_MATH, "cos", 0, 0},
    {"tan", 1, LS_FLOAT, UK_MATH, "tan", 0, 0},   {"arcsin", 1, LS_FLOAT, UK_MATH, "asin", 0, 0},
    {"arccos", 1, LS_FLOAT, UK_MATH, "acos", 0, 0}, {"arctan", 1, LS_FLOAT, UK_MATH, "atan", 0, 0},
    {"sinh", 1, LS_FLOAT, UK_MATH, "sinh", 0, 0}, {"cosh", 1, LS_FLOAT, UK_MATH, "cosh", 0, 0},
    {"tanh", 1, LS_FLOAT, UK_MATH, "tanh", 0, 0}, {"arcsinh", 1, LS_FLOAT, UK_MATH, "asinh", 0, 0},
    {"arccosh", 1, LS_FLOAT, UK_MATH, "acosh", 0, 0}, {"arctanh", 1, LS_FLOAT, UK_MATH, "atanh", 0, 0},
    {"floor", 1, LS_FLOAT, UK_MATH, "floor", 0, 0}, {"ceil", 1, LS_FLOAT, UK_MATH, "ceil", 0, 0},
    {"trunc", 1, LS_FLOAT, UK_MATH, "trunc", 0, 0}, {"rint", 1, LS_FLOAT, UK_MATH, "rint", 0, 0},
    {"fabs", 1, LS_FLOAT, UK_MATH, "fabs", 0, 0}, {"deg2rad", 1, LS_FLOAT, UK_MATH, "radians", 0, 0},
    {"radians", 1, LS_FLOAT, UK_MATH, "radians", 0, 0},
    {"rad2deg", 1, LS_FLOAT, UK_MATH, "degrees", 0, 0},
    {"degrees", 1, LS_FLOAT, UK_MATH, "degrees", 0, 0},
    {"arctan2", 2, LS_FLOAT, UK_MATH, "atan2", 0, 0}, {"hypot", 2, LS_FLOAT, UK_MATH, "hypot", 0, 0},
    {"copysign", 2, LS_FLOAT, UK_MATH, "copysign", 0, 0},
    {"isnan", 1, LS_ALL, UK_MATH, "isnan", 0, 1}, {"isinf", 1, LS_ALL, UK_MATH, "isinf", 0, 1},
    {"isfinite", 1, LS_ALL, UK_MATH, "isfinite", 0, 1},
    {"conjugate", 1, LS_ALL, UK_CONJ, 0, 0, 0},   {"conj", 1, LS_ALL, UK_CONJ, 0, 0, 0},
};

static const Ufunc *ufunc_named(const char *name) {
    for (size_t i = 0; i < sizeof ufuncs / sizeof *ufuncs; i++)
        if (!strcmp(ufuncs[i].name, name))
            return &ufuncs[i];
    return NULL;
}

/* The ufunc of a binary operator or a comparison, NULL for the others (@, and, is, ...). */
static const Ufunc *operator_ufunc(OpKind op) {
    static const char *const names[OP__COUNT] = {
        [OP_ADD] = "add", [OP_SUB] = "subtract", [OP_MUL] = "multiply", [OP_DIV] = "true_divide",
        [OP_FLOORDIV] = "floor_divide", [OP_MOD] = "remainder", [OP_POW] = "power",
        [OP_LSHIFT] = "left_shift", [OP_RSHIFT] = "right_shift", [OP_BITAND] = "bitwise_and",
        [OP_BITOR] = "bitwise_or", [OP_BITXOR] = "bitwise_xor", [OP_NEG] = "negative",
        [OP_POS] = "positive", [OP_INVERT] = "invert", [OP_EQ] = "equal", [OP_NE] = "not_equal",
        [OP_LT] = "less", [OP_LE] = "less_equal", [OP_GT] = "greater", [OP_GE] = "greater_equal",
    };
    return op < OP__COUNT && names[op] ? ufunc_named(names[op]) : NULL;
}

/* The ufuncs with complex loops (F, D) that numjit computes (Numba's npyfuncs): arithmetic,
 * ==, !=, abs (a real result) and cmath's functions (stdlib/cmath.py). */
static bool complex_loops(const Ufunc *u) {
    static const char *const names[] = {
        "add", "subtract", "multiply", "true_divide", "divide", "power", "negative", "positive",
        "absolute", "abs", "equal", "not_equal", "isnan", "isinf", "isfinite", "sqrt", "exp",
        "log", "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
        "tanh", "arcsinh", "arccosh", "arctanh", "conjugate", "conj", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], u->name))
            return true;
    return false;
}

static bool in_set(const Ufunc *u, const Type *t) {
    if (ty_is_complex(t))
        return complex_loops(u);
    switch (u->loops) {
    case LS_ALL: return true;
    case LS_NUM: return t != ty_bool;
    case LS_FLOAT: return ty_is_float(t);
    case LS_INTBOOL: return !ty_is_float(t);
    case LS_INT: return ty_is_int(t);
    }
    return false;
}

/* NumPy's kinds in the order 'same_kind' casting allows: b < u < i < f < c. */
static int kind_rank(const Type *t) {
    return t == ty_bool ? 0 : ty_is_complex(t) ? 4 : ty_is_float(t) ? 3 : ty_is_signed(t) ? 2 : 1;
}

/* numba's ufunc_can_cast: np.can_cast(from, to, 'safe' or 'same_kind'), where with mixed
 * integer and float inputs every integer casts to every float. */
static bool can_cast(const Type *from, const Type *to, bool mixed, bool same_kind) {
    if (mixed && ty_is_int(from) && (ty_is_float(to) || ty_is_complex(to)))
        return true;
    if (ty_can_cast_safe(from, to))
        return true;
    return same_kind && kind_rank(from) <= kind_rank(to);
}

/* The types of NumPy's loops in their order (l and q are both int64 here). */
static const Type *loop_type(int k) {
    const Type *const order[] = {ty_bool, ty_i8, ty_u8, ty_i16, ty_u16, ty_i32,
                                 ty_u32, ty_i64, ty_u64, ty_f32, ty_f64, ty_c64, ty_c128};
    return k < 13 ? order[k] : NULL;
}

/* The loop of u for inputs in[0..nin-1] (and an explicit output of dtype out, or NULL): the
 * type its inputs are cast to, or NULL when there is none. */
static const Type *find_loop(const Ufunc *u, const Type *const *in, const Type *out) {
    bool has_int = false, has_float = false;
    for (int i = 0; i < u->nin; i++) {
        has_int |= ty_is_int(in[i]);
        has_float |= ty_is_float(in[i]) || ty_is_complex(in[i]);
    }
    bool mixed = has_int && has_float;
    const Type *t;
    for (int k = 0; (t = loop_type(k)); k++) {
        if (!in_set(u, t))
            continue;
        bool ok = true;
        for (int i = 0; i < u->nin && ok; i++)
            ok = can_cast(in[i], t, mixed, false);
        if (ok && out)
            ok = can_cast(u->to_bool ? ty_bool : t, out, mixed, true);
        if (ok)
            return t;
    }
    return NULL;
}

/* np.promote_types of two scalar types: the first type of NumPy's order both cast to. */
const Type *ty_promote_types(const Type *a, const Type *b) {
    const Type *t;
    for (int k = 0; (t = loop_type(k)); k++)
        if (ty_can_cast_safe(a, t) && ty_can_cast_safe(b, t))
            return t;
    return ty_f64;
}

/* ---- expression trees ------------------------------------------------------------------------- */
typedef struct ENode ENode;
struct ENode {
    const Ufunc *uf;   /* NULL: a leaf */
    ENode *k[2];
    Val v;             /* a leaf's value: an array or a scalar */
    int nd;            /* dimensions of its value (0: a scalar) */
    ArrayLayout layout;
    const Type *lt;    /* the loop type the operands are cast to */
    const Type *t;     /* the element type it gives */
    Node *ast;         /* where it was written (NULL for the target of an augmented assignment) */
    Loc loc;
    IrInst *elem;      /* a leaf's element in the loop being emitted */
};

typedef struct Expr {
    Fn *fn;
    ENode **leaves; /* the array leaves, in evaluation order */
    int nleaves, capleaves;
    bool bad;
    int acc;            /* a fused reduction (ty_arrexpr_fold): its accumulator, else -1 */
    const Type *acc_t;  /* the accumulator's type */
    FoldKind fold;      /* what the accumulator does with each element */
} Expr;

/* The type of e without emitting anything.  Every operator asks it of its operands before
 * choosing between the array and the scalar path, and a peek of an operator peeks its own
 * operands, so without a memo `x1 + x2 + ... + xn` would cost 2**n: results are kept for the
 * statement being typed (within one, no variable changes its type). */
static Val peek(Fn *fn, Node *e) {
    if (fn->peek_serial != fn->serial) {
        fn->peek_serial = fn->serial;
        fn->npeek = 0;
    }
    for (int i = fn->npeek - 1; i >= 0; i--)
        if (fn->peek_nodes[i] == e)
            return fn->peek_vals[i];
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    v.v = NULL;
    if (fn->peek_serial != fn->serial) /* e held statements (it cannot): do not keep it */
        return v;
    if (fn->npeek == fn->cappeek) {
        int cap = fn->cappeek ? 2 * fn->cappeek : 32;
        Node **n = arena_alloc(fn->tc->arena, sizeof *n * (size_t)cap);
        Val *vs = arena_alloc(fn->tc->arena, sizeof *vs * (size_t)cap);
        if (fn->npeek) {
            memcpy(n, fn->peek_nodes, sizeof *n * (size_t)fn->npeek);
            memcpy(vs, fn->peek_vals, sizeof *vs * (size_t)fn->npeek);
        }
        fn->peek_nodes = n, fn->peek_vals = vs, fn->cappeek = cap;
    }
    fn->peek_nodes[fn->npeek] = e;
    fn->peek_vals[fn->npeek++] = v;
    return v;
}

static bool is_array(Val v) { return v.k == V_VAL && v.t->kind == TY_ARRAY; }

/* The ufunc that e applies elementwise, with its operands in ops[0..], or NULL.  *own: e calls
 * np.NAME that only this file knows (np.add ...), an array expression even of scalars. */
static const Ufunc *elementwise(Fn *fn, Node *e, Node **ops, bool *own) {
    *own = false;
    switch (e->kind) {
    case ND_BINOP:
        ops[0] = e->a, ops[1] = e->b;
        return operator_ufunc(e->op);
    case ND_UNARY:
        ops[0] = e->a;
        return e->op == OP_NOT ? NULL : operator_ufunc(e->op);
    case ND_COMPARE:
        if (e->list.n != 2)
            return NULL;
        ops[0] = e->list.items[0], ops[1] = e->list.items[1];
        return operator_ufunc(e->ops[0]);
    case ND_CALL: {
        if (e->a->kind == ND_ATTR && !e->list.n && !e->list2.n &&
            (!strcmp(e->a->name, "conjugate") || !strcmp(e->a->name, "conj")) &&
            is_array(peek(fn, e->a->a))) { /* a.conjugate(): np.conjugate(a) */
            ops[0] = e->a->a;
            *own = true;
            return ufunc_named("conjugate");
        }
        Val c = peek(fn, e->a);
        const char *name = NULL;
        if (c.k == V_MATH && c.np)
            name = c.name;
        else if (c.k == V_BUILTIN && c.np)
            name = !strcmp(c.name, "max") ? "maximum" : !strcmp(c.name, "min") ? "minimum"
                   : !strncmp(c.name, "np.", 3) ? c.name + 3 : c.name;
        const Ufunc *u = name ? ufunc_named(name) : NULL;
        *own = c.k == V_BUILTIN && !strncmp(c.name, "np.", 3);
        if (!u || e->list.n != u->nin || e->list2.n)
            return NULL; /* the scalar path reports the call's errors */
        for (int i = 0; i < u->nin; i++)
            ops[i] = e->list.items[i];
        return u;
    }
    default:
        return NULL;
    }
}

static ENode *new_node(Fn *fn, Loc loc) {
    ENode *n = arena_alloc(fn->tc->arena, sizeof *n);
    n->loc = loc;
    return n;
}

static const Type *node_type(const ENode *n) {
    return n->nd ? ty_array(n->t, n->nd, n->layout) : n->t;
}

static ENode *leaf(Expr *x, Val v, Node *ast, Loc loc) {
    Fn *fn = x->fn;
    ENode *n = new_node(fn, loc);
    n->ast = ast;
    n->v = v;
    if (v.k != V_VAL) {
        x->bad = true;
        return n;
    }
    if (v.t->kind == TY_ARRAY && v.t->ndim == 0) { /* a 0-d array is its element, as in Numba */
        IrInst *a = v.v;
        v = vval(v.t->dtype, ty_emit(fn, IR_ALOAD, v.t->dtype, loc, 1, &a));
        n->v = v;
    }
    if (v.t->kind == TY_ARRAY) {
        if (x->nleaves == x->capleaves) {
            int cap = x->capleaves ? 2 * x->capleaves : 8;
            ENode **l = arena_alloc(fn->tc->arena, sizeof *l * (size_t)cap);
            if (x->nleaves)
                memcpy(l, x->leaves, sizeof *l * (size_t)x->nleaves);
            x->leaves = l, x->capleaves = cap;
        }
        x->leaves[x->nleaves++] = n;
        n->nd = v.t->ndim;
        n->layout = v.t->layout;
        n->t = v.t->dtype;
    } else if (ty_is_elem(v.t)) {
        n->t = v.t;
    } else {
        ty_error(fn, loc, "%s cannot be an operand of an array expression", v.t->name);
        x->bad = true;
    }
    return n;
}

static void type_node(Expr *x, ENode *n, const Type *out);

/* The tree of e: nodes for elementwise operations with an array operand, leaves for the rest. */
static ENode *collect(Expr *x, Node *e) {
    Fn *fn = x->fn;
    Node *ops[2];
    bool own;
    const Ufunc *u = elementwise(fn, e, ops, &own);
    bool arr = own;
    for (int i = 0; u && i < u->nin && !arr; i++)
        arr |= is_array(peek(fn, ops[i]));
    if (!u || !arr)
        return leaf(x, ty_value(fn, e), e, e->loc);
    ENode *n = new_node(fn, e->loc);
    n->uf = u;
    n->ast = e;
    for (int i = 0; i < u->nin; i++)
        n->k[i] = collect(x, ops[i]);
    if (!x->bad)
        type_node(x, n, NULL);
    return n;
}

static void type_node(Expr *x, ENode *n, const Type *out) {
    const Ufunc *u = n->uf;
    const Type *in[2] = {NULL, NULL};
    bool c = false, f = false;
    for (int i = 0; i < u->nin; i++) {
        in[i] = n->k[i]->t;
        if (n->k[i]->nd > n->nd)
            n->nd = n->k[i]->nd;
        c |= n->k[i]->nd && n->k[i]->layout == LAYOUT_C;
        f |= n->k[i]->nd && n->k[i]->layout == LAYOUT_F;
    }
    n->layout = f && !c && n->nd > 1 ? LAYOUT_F : LAYOUT_C; /* Numba's choice */
    n->lt = find_loop(u, in, out);
    if (n->lt) {
        n->t = u->to_bool ? ty_bool
               : u->kind == UK_ABS && ty_is_complex(n->lt) ? ty_complex_part(n->lt) /* |z| */
                                                           : n->lt;
        return;
    }
    x->bad = true;
    const char *a = node_type(n->k[0])->name, *b = u->nin > 1 ? node_type(n->k[1])->name : NULL;
    Node *e = n->ast;
    if (out && !find_loop(u, in, NULL))
        out = NULL;
    if (out)
        ty_error(x->fn, n->loc, "cannot cast the result of ufunc '%s' of %s and %s to %s, the "
                 "array's dtype (NumPy's 'same_kind' rule)", u->name, a, b, out->name);
    else if (e && e->kind == ND_BINOP)
        ty_error(x->fn, n->loc, "unsupported operand types for %s: '%s' and '%s'",
                 ast_op_spelling[e->op], a, b);
    else if (e && e->kind == ND_UNARY)
        ty_error(x->fn, n->loc, "bad operand type for unary %s: '%s'", ast_op_spelling[e->op], a);
    else if (b)
        ty_error(x->fn, n->loc, "np.%s() is not defined for %s and %s", u->name, a, b);
    else
        ty_error(x->fn, n->loc, "np.%s() is not defined for %s", u->name, a);
}

/* ---- emitting ------------------------------------------------------------------------------ */
static IrInst *math(Fn *fn, int k, const Type *t, IrInst **args, int n, Loc loc) {
    IrInst *r = ty_emit(fn, IR_MATH, t, loc, n, args);
    if (r)
        r->imm.index = k;
    return r;
}

static IrInst *zero(Fn *fn, const Type *t, Loc loc) {
    return ty_is_float(t) ? ty_const_float(fn, t, 0, loc) : ty_const_int(fn, t, 0, loc);
}

/* One element of a complex loop (Numba's npyfuncs: cmath's functions, NumPy's division). */
static IrInst *apply_complex(Fn *fn, const Ufunc *u, const Type *t, IrInst *x, IrInst *y,
                             Loc loc) {
    Val a = vval(t, x), b = vval(t, y), r = verr();
    switch (u->kind) {
    case UK_ADD: r = ty_complex_binop(fn, OP_ADD, a, b, loc); break;
    case UK_SUB: r = ty_complex_binop(fn, OP_SUB, a, b, loc); break;
    case UK_MUL: r = ty_complex_binop(fn, OP_MUL, a, b, loc); break;
    case UK_POW: r = ty_complex_binop(fn, OP_POW, a, b, loc); break;
    case UK_DIV: return ty_complex_np_divide(fn, t, x, y, loc);
    case UK_NEG: r = ty_complex_unary(fn, OP_NEG, a, loc); break;
    case UK_POS: return x;
    case UK_ABS: r = ty_complex_abs(fn, a, loc); break;
    case UK_CONJ: r = ty_complex_conjugate(fn, a, loc); break;
    case UK_CMP: r = ty_complex_compare(fn, u->pred == CMP_EQ ? OP_EQ : OP_NE, a, b, loc); break;
    case UK_MATH: r = ty_cmath_call(fn, u->math, &a, 1, loc); break;
    default: break;
    }
    return r.k == V_VAL ? r.v : NULL;
}

/* One element of u applied to x (and y), both already of the loop type t. */
static IrInst *apply(Fn *fn, const Ufunc *u, const Type *t, IrInst *x, IrInst *y, Loc loc) {
    if (ty_is_complex(t))
        return apply_complex(fn, u, t, x, y, loc);
    bool fl = ty_is_float(t), b = t == ty_bool;
    switch (u->kind) {
    case UK_ADD: return bin(fn, b ? IR_BITOR : IR_ADD, t, x, y, loc);
    case UK_SUB: return bin(fn, IR_SUB, t, x, y, loc);
    case UK_MUL: return bin(fn, b ? IR_BITAND : IR_MUL, t, x, y, loc);
    case UK_DIV: return bin(fn, IR_DIV, t, x, y, loc);
    case UK_FLOORDIV: return bin(fn, IR_FLOORDIV, t, x, y, loc);
    case UK_MOD: return bin(fn, IR_MOD, t, x, y, loc);
    case UK_POW: {
        IrInst *p = bin(fn, IR_POW, t, x, y, loc);
        if (fl || !ty_is_signed(t))
            return p;
        /* Numba's int_power under the 'numpy' error model: 0 ** -n is the type's minimum */
        IrInst *z = zero(fn, t, loc);
        IrInst *c = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_EQ, x, z, loc),
                        cmp(fn, CMP_LT, y, z, loc), loc);
        int64_t min = ty_bits(t) == 64 ? INT64_MIN : -((int64_t)1 << (ty_bits(t) - 1));
        return sel(fn, t, c, ty_const_int(fn, t, min, loc), p, loc);
    }
    case UK_AND: return bin(fn, IR_BITAND, t, x, y, loc);
    case UK_OR: return bin(fn, IR_BITOR, t, x, y, loc);
    case UK_XOR: return bin(fn, IR_BITXOR, t, x, y, loc);
    case UK_SHL: return bin(fn, IR_SHL, t, x, y, loc);
    case UK_SHR: return bin(fn, IR_SHR, t, x, y, loc);
    case UK_CMP: return cmp(fn, (CmpPred)u->pred, x, y, loc);
    case UK_NEG: return ty_emit(fn, IR_NEG, t, loc, 1, &x);
    case UK_POS: return x;
    case UK_INVERT: return ty_emit(fn, IR_INVERT, t, loc, 1, &x);
    case UK_CONJ: return x; /* a real number's conjugate */
    case UK_ABS:
        if (fl)
            return math(fn, MATH_FABS, t, &x, 1, loc);
        if (!ty_is_signed(t))
            return x;
        return sel(fn, t, cmp(fn, CMP_LT, x, zero(fn, t, loc), loc),
                   ty_emit(fn, IR_NEG, t, loc, 1, &x), x, loc);
    case UK_SIGN: { /* Numba's real_sign_impl / int_sign_impl */
        IrInst *z = zero(fn, t, loc);
        IrInst *one = fl ? ty_const_float(fn, t, 1, loc) : ty_const_int(fn, t, 1, loc);
        IrInst *m1 = fl ? ty_const_float(fn, t, -1, loc) : ty_const_int(fn, t, -1, loc);
        if (fl) /* 0, -0.0 and NaN are their own sign */
            return sel(fn, t, cmp(fn, CMP_GT, x, z, loc), one,
                       sel(fn, t, cmp(fn, CMP_LT, x, z, loc), m1, x, loc), loc);
        /* a signed comparison even for unsigned types, as Numba's: 200 as uint8 gives 255 */
        IrInst *top = bin(fn, IR_SHR, t, x, ty_const_int(fn, t, ty_bits(t) - 1, loc), loc);
        IrInst *neg = cmp(fn, CMP_NE, top, z, loc);
        return sel(fn, t, cmp(fn, CMP_EQ, x, z, loc), z, sel(fn, t, neg, m1, one, loc), loc);
    }
    case UK_MAX: case UK_MIN: {
        /* Numba's np_real_maximum_impl: a NaN operand wins (the first one), else x >= y ? x : y */
        IrInst *pick = sel(fn, t, cmp(fn, u->kind == UK_MAX ? CMP_GE : CMP_LE, x, y, loc), x, y, loc);
        if (!fl)
            return pick;
        IrInst *xnan = math(fn, MATH_ISNAN, ty_bool, &x, 1, loc);
        IrInst *any = bin(fn, IR_BITOR, ty_bool, xnan, math(fn, MATH_ISNAN, ty_bool, &y, 1, loc), loc);
        return sel(fn, t, any, sel(fn, t, xnan, x, y, loc), pick, loc);
    }
    case UK_MATH: {
        int k = ir_math_lookup(u->math);
        if (!fl) /* the predicates on integers and bools: never nan or inf */
            return ty_const_int(fn, ty_bool, k == MATH_ISFINITE, loc);
        IrInst *args[2] = {x, y};
        return math(fn, k, u->to_bool ? ty_bool : t, args, u->nin, loc);
    }
    }
    return NULL;
}

/* The element of node n in the loop's current iteration (leaves' elements are loaded). */
static IrInst *eval(Fn *fn, ENode *n) {
    if (!n->uf)
        return n->nd ? n->elem : n->v.v;
    IrInst *a[2] = {NULL, NULL};
    /* Numba compiles the operator `**` of a float64 array expression with an integer exponent
     * as the scalar float ** int (repeated multiplication, Numba's int_power), not as NumPy's
     * pow(x, double(y)) loop that np.power runs: `a ** 3` is three multiplies, not a libm call */
    if (n->uf->kind == UK_POW && n->lt == ty_f64 && n->ast && n->ast->kind == ND_BINOP &&
        ty_is_int(n->k[1]->t)) {
        IrInst *x = ty_cast(fn, eval(fn, n->k[0]), n->k[0]->t, ty_f64, n->loc);
        IrInst *y = ty_cast(fn, eval(fn, n->k[1]), n->k[1]->t, ty_i64, n->loc);
        /* 0.0 ** -k: Numba's int_power divides 1 by 0.0 ** k, "division by zero", under
         * either error model (as the scalar 0.0 ** -k raises, typer_expr.c) */
        if (!(y->op == IR_CONST && y->imm.i >= 0)) {
            IrInst *c = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_EQ, x, zero(fn, ty_f64, n->loc), n->loc),
                            cmp(fn, CMP_LT, y, zero(fn, ty_i64, n->loc), n->loc), n->loc);
            ty_raise_if(fn, c, RAISE_ZERO_DIVISION, "division by zero", n->loc);
        }
        return bin(fn, IR_POW, ty_f64, x, y, n->loc);
    }
    for (int i = 0; i < n->uf->nin; i++)
        a[i] = ty_cast(fn, eval(fn, n->k[i]), n->k[i]->t, n->lt, n->loc);
    /* Numba compiles the operator `/` of an array expression as the scalar operator (complex
     * division by zero raises), np.divide as NumPy's loop (inf or nan) */
    if (n->uf->kind == UK_DIV && ty_is_complex(n->lt) && n->ast && n->ast->kind == ND_BINOP) {
        Val r = ty_complex_binop(fn, OP_DIV, vval(n->lt, a[0]), vval(n->lt, a[1]), n->loc);
        return r.k == V_VAL ? r.v : NULL;
    }
    return apply(fn, n->uf, n->lt, a[0], a[1], n->loc);
}


/* One element v of a fused reduction into x->acc, as the reduction of the array the expression
 * would make treats its next element (typer_array.c, Numba's numba/np/arraymath.py):
 *  sum, prod, mean: acc = acc op v, in the accumulator's type (ty_binop's rules);
 *  min, max: the first NaN met stays the answer (Numba returns it at once; the elements after
 *    it change nothing, so computing them is harmless), else v replaces acc when strictly
 *    smaller (larger), so ties keep the first, as `if v < min_value` does;
 *  any, all: acc = acc or truth(v) (and). */
static void fold_elem(Expr *x, Val v, Loc loc) {
    Fn *fn = x->fn;
    const Type *t = x->acc_t;
    IrInst *acc = ty_load_var(fn, x->acc, t, loc), *r = NULL;
    switch (x->fold) {
    case FOLD_SUM: case FOLD_PROD: case FOLD_MEAN: {
        Val s = ty_binop(fn, x->fold == FOLD_PROD ? OP_MUL : OP_ADD, vval(t, acc), v, loc);
        if (s.k == V_VAL)
            r = ty_cast(fn, s.v, s.t, t, loc);
        break;
    }
    case FOLD_MIN: case FOLD_MAX: {
        IrInst *take = cmp(fn, x->fold == FOLD_MAX ? CMP_GT : CMP_LT, v.v, acc, loc);
        if (ty_is_float(t)) {
            IrInst *vnan = math(fn, MATH_ISNAN, ty_bool, &v.v, 1, loc);
            IrInst *anan = math(fn, MATH_ISNAN, ty_bool, &acc, 1, loc);
            IrInst *fresh = bin(fn, IR_BITAND, ty_bool, vnan,
                                ty_emit(fn, IR_NOT, ty_bool, loc, 1, &anan), loc);
            take = bin(fn, IR_BITOR, ty_bool, take, fresh, loc);
        }
        r = sel(fn, t, take, v.v, acc, loc);
        break;
    }
    case FOLD_ANY: case FOLD_ALL:
        r = bin(fn, x->fold == FOLD_ALL ? IR_BITAND : IR_BITOR, ty_bool, acc, ty_truth(fn, v, loc),
                loc);
        break;
    }
    if (r)
        ty_store_var(fn, x->acc, r, loc);
}

/* The loop nest writing every element of dst (of type dt, extents ext) from the tree.
 * stretch[leaf][j]: NULL in the direct loop; in the broadcasting one, whether dimension j
 * of that leaf is stretched (its index is then 0). */
static void emit_loop(Expr *x, ENode *root, IrInst *dst, const Type *dt, IrInst **ext,
                      IrInst *(*stretch)[TY_MAX_NDIM], Loc loc) {
    Fn *fn = x->fn;
    int nd = dt->ndim;
    bool f = dt->layout == LAYOUT_F;
    TyLoop loops[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM];
    for (int j = 0; j < nd; j++) {
        int d = f ? nd - 1 - j : j;
        idx[d] = ty_loop_open(fn, &loops[j], ext[d], loc);
    }
    for (int l = 0; l < x->nleaves; l++) {
        ENode *n = x->leaves[l];
        IrInst *args[1 + TY_MAX_NDIM];
        args[0] = n->v.v;
        for (int j = 0; j < n->nd; j++) {
            IrInst *i = idx[j + nd - n->nd];
            args[1 + j] = stretch ? sel(fn, ty_i64, stretch[l][j], i64c(fn, 0, loc), i, loc) : i;
        }
        n->elem = ty_emit(fn, IR_ALOAD, n->t, n->loc, 1 + n->nd, args);
    }
    IrInst *v = ty_cast(fn, eval(fn, root), root->t, dt->dtype, loc);
    if (x->acc >= 0) {
        fold_elem(x, vval(dt->dtype, v), loc);
    } else {
        ty_astore(fn, dst, idx, nd, v, loc);
    }
    for (int j = nd - 1; j >= 0; j--)
        ty_loop_close(fn, &loops[j], loc);
}

/* Broadcasts the array leaves against ext[0..nd-1] and runs the loops.  fixed: ext is the
 * destination's shape (augmented assignment), every leaf must fit it; otherwise ext starts
 * all 1 and grows as NumPy's broadcasting does (Numba's _broadcast_onto).  dst == NULL:
 * allocate the result of type dt once ext is known, unless the loop folds its elements into
 * x->acc (then nothing is allocated and NULL returned). */
static IrInst *broadcast_and_loop(Expr *x, ENode *root, IrInst *dst, const Type *dt,
                                  IrInst **ext, bool fixed, Loc loc) {
    Fn *fn = x->fn;
    int nd = dt->ndim;
    bool one[TY_MAX_NDIM]; /* ext[d] is still the constant 1 */
    for (int d = 0; d < nd; d++)
        one[d] = !fixed;
    IrInst *same = NULL; /* every leaf has the result's shape */
    bool need_check = false;
    for (int l = 0; l < x->nleaves; l++) {
        ENode *n = x->leaves[l];
        if (n->v.v == dst)
            continue;
        IrInst *bad = NULL;
        for (int j = 0; j < n->nd; j++) {
            int d = j + nd - n->nd;
            IrInst *e = extent(fn, n->v.v, j, loc);
            if (one[d]) { /* the first array with this dimension sets it */
                ext[d] = e;
                one[d] = false;
                continue;
            }
            need_check = true;
            IrInst *eq = cmp(fn, CMP_EQ, e, ext[d], loc);
            same = same ? bin(fn, IR_BITAND, ty_bool, same, eq, loc) : eq;
            IrInst *e1 = cmp(fn, CMP_EQ, e, i64c(fn, 1, loc), loc);
            IrInst *fits = bin(fn, IR_BITOR, ty_bool, eq, e1, loc);
            if (!fixed) { /* ext 1 takes e; otherwise e must be ext or 1 */
                IrInst *x1 = cmp(fn, CMP_EQ, ext[d], i64c(fn, 1, loc), loc);
                fits = bin(fn, IR_BITOR, ty_bool, fits, x1, loc);
                ext[d] = sel(fn, ty_i64, x1, e, ext[d], loc);
            }
            IrInst *nf = ty_emit(fn, IR_NOT, ty_bool, loc, 1, &fits);
            bad = bad ? bin(fn, IR_BITOR, ty_bool, bad, nf, loc) : nf;
        }
        if (bad) {
            const char *msg = fixed
                ? "operands could not be broadcast together with the shape of the array assigned to"
                : arena_printf(fn->tc->arena, "unable to broadcast argument %d to output array", l);
            ty_raise_if(fn, bad, RAISE_VALUE, msg, n->loc);
        }
    }
    for (int d = 0; d < nd; d++)
        if (one[d])
            ext[d] = i64c(fn, 1, loc);
    if (!dst && x->acc < 0) {
        Val out = ty_alloc(fn, dt, ext, false, loc);
        dst = out.v;
        if (!dst)
            return NULL;
    }
    if (!need_check) {
        emit_loop(x, root, dst, dt, ext, NULL, loc);
        return dst;
    }
    /* leaves of the result's shape: direct indexing, which LLVM vectorizes; else stretch */
    IrInst *(*stretch)[TY_MAX_NDIM] = arena_alloc(fn->tc->arena, sizeof *stretch * (size_t)x->nleaves);
    IrBlock *direct = ty_block(fn), *bcast = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, same, direct, bcast, loc);
    ty_set_block(fn, direct);
    emit_loop(x, root, dst, dt, ext, NULL, loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, bcast);
    for (int l = 0; l < x->nleaves; l++) {
        ENode *n = x->leaves[l];
        for (int j = 0; j < n->nd; j++)
            stretch[l][j] = cmp(fn, CMP_EQ, extent(fn, n->v.v, j, loc), i64c(fn, 1, loc), loc);
    }
    emit_loop(x, root, dst, dt, ext, stretch, loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
    return dst;
}

/* ---- entry points -------------------------------------------------------------------------------- */
static bool on_gpu(Fn *fn) { return fn->tc->target != TARGET_CPU; }

/* Whether e is an elementwise operator or ufunc call with an array operand (or one that
 * exists only on arrays): an array expression. */
static bool array_elementwise(Fn *fn, Node *e) {
    Node *ops[2];
    bool own;
    const Ufunc *u = elementwise(fn, e, ops, &own);
    if (!u)
        return false;
    bool arr = own;
    for (int i = 0; i < u->nin && !arr; i++)
        arr |= is_array(peek(fn, ops[i]));
    return arr;
}


static Val build(Fn *fn, ENode *root, Expr *x) {
    if (x->bad)
        return verr();
    if (!root->nd) /* a ufunc of scalars (np.add(1, 2)): no loop */
        return vval(root->t, fn->emit ? eval(fn, root) : NULL);
    const Type *rt = ty_array(root->t, root->nd, root->layout);
    if (!fn->emit) /* typed as an array also on the GPU: one error, for the whole tree */
        return vval(rt, NULL);
    if (on_gpu(fn)) {
        ty_error(fn, root->loc, "this array expression creates an array, which CUDA code cannot "
                 "do: loop over the elements, or update an array in place (a += b)");
        return verr();
    }
    IrInst *ext[TY_MAX_NDIM];
    IrInst *r = broadcast_and_loop(x, root, NULL, rt, ext, false, root->loc);
    return vval(rt, r);
}

bool ty_arrexpr(Fn *fn, Node *e, Val *out) {
    if (e->kind == ND_CALL) {
        Val c = peek(fn, e->a);
        if (c.k == V_BUILTIN && c.np && !strcmp(c.name, "np.where")) {
            *out = ty_np_where(fn, e);
            return true;
        }
        if (c.k == V_BUILTIN && c.np && !strcmp(c.name, "np.clip")) {
            *out = ty_np_clip(fn, e);
            return true;
        }
    }
    if (!array_elementwise(fn, e))
        return false;
    Expr x = {.fn = fn, .acc = -1};
    ENode *root = collect(&x, e);
    *out = build(fn, root, &x);
    return true;
}

/* The accumulator of a fused reduction of elements of type et: its type (NULL: this reduction
 * is not fused for et) and its first value.  Numba's: sum and prod widen ints as
 * _expand_integer does (bool counts as int64) and start at 0 or 1; mean sums in the float or
 * complex dtype's own type, float64 for ints and bools; min and max start at the dtype's
 * largest (smallest) value, +inf (-inf) for floats, which the first element replaces unless it
 * equals it (the answer is the same); bools and complex numbers keep the unfused loops. */
static const Type *fold_start(Fn *fn, FoldKind k, const Type *et, IrInst **start, Loc loc) {
    const Type *rt = NULL;
    switch (k) {
    case FOLD_SUM: case FOLD_PROD:
        rt = et == ty_bool ? ty_i64 : ty_is_int(et) ? ty_int_widen(et) : et;
        break;
    case FOLD_MEAN:
        rt = ty_is_float(et) || ty_is_complex(et) ? et : ty_f64;
        break;
    case FOLD_MIN: case FOLD_MAX:
        rt = et == ty_bool || ty_is_complex(et) ? NULL : et;
        break;
    case FOLD_ANY: case FOLD_ALL:
        rt = ty_bool;
        break;
    }
    if (!rt || !fn->emit)
        return rt;
    bool big = k == FOLD_MIN; /* min starts at the largest value, max at the smallest */
    if (k == FOLD_MIN || k == FOLD_MAX) {
        int b = ty_bits(rt);
        int64_t hi = ty_is_signed(rt) ? (int64_t)((UINT64_C(1) << (b - 1)) - 1)
                     : b == 64 ? -1 : (int64_t)((UINT64_C(1) << b) - 1);
        int64_t lo = ty_is_signed(rt) ? -hi - 1 : 0;
        *start = ty_is_float(rt) ? ty_const_float(fn, rt, big ? INFINITY : -INFINITY, loc)
                                 : ty_const_int(fn, rt, big ? hi : lo, loc);
    } else if (k == FOLD_ANY || k == FOLD_ALL) {
        *start = ty_const_int(fn, ty_bool, k == FOLD_ALL, loc);
    } else {
        int one = k == FOLD_PROD;
        *start = ty_is_float(rt) ? ty_const_float(fn, rt, one, loc) : ty_const_int(fn, rt, one, loc);
    }
    return rt;
}

/* A reduction of an array expression e (np.sum(e), np.min(e), e.mean(), ...): the loop of e
 * folds each element into an accumulator (fold_elem) instead of storing it, so nothing is
 * allocated.  The elements, their order (the result's: C, or F when e would give an F array)
 * and the accumulation are those of the reduction of the array e would give (typer_array.c),
 * so the answer is the same to the bit; broadcasting errors are raised as before, then the
 * reduction's own: ValueError for the min or max of no elements, ZeroDivisionError for their
 * mean.  False when e is no array expression (np.where and np.clip included: they keep their
 * own loops), when the reduction is not fused for e's dtype, or when the code is for the GPU. */
bool ty_arrexpr_fold(Fn *fn, Node *e, FoldKind k, Val *out) {
    if (on_gpu(fn) || !array_elementwise(fn, e))
        return false;
    Expr x = {.fn = fn, .acc = -1, .fold = k};
    ENode *root = collect(&x, e);
    if (x.bad) {
        *out = verr();
        return true;
    }
    if (!root->nd)
        return false;
    Loc loc = e->loc;
    const Type *et = root->t;
    IrInst *start = NULL;
    const Type *rt = fold_start(fn, k, et, &start, loc);
    if (!rt)
        return false;
    const Type *res_t = k == FOLD_MEAN && !ty_is_complex(rt) && !ty_is_float(rt) ? ty_f64 : rt;
    if (!fn->emit) {
        *out = vval(res_t, NULL);
        return true;
    }
    x.acc = ty_temp_var(fn, rt);
    x.acc_t = rt;
    ty_store_var(fn, x.acc, start, loc);
    IrInst *ext[TY_MAX_NDIM];
    broadcast_and_loop(&x, root, NULL, ty_array(et, root->nd, root->layout), ext, false, loc);
    Val r = vval(rt, ty_load_var(fn, x.acc, rt, loc));
    if (k != FOLD_MIN && k != FOLD_MAX && k != FOLD_MEAN) {
        *out = r;
        return true;
    }
    IrInst *n = ext[0];
    for (int d = 1; d < root->nd; d++)
        n = bin(fn, IR_MUL, ty_i64, n, ext[d], loc);
    if (k != FOLD_MEAN) {
        ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_VALUE, k == FOLD_MAX
                    ? "zero-size array to reduction operation maximum which has no identity"
                    : "zero-size array to reduction operation minimum which has no identity", loc);
        *out = r;
        return true;
    }
    /* Numba's mean divides under the 'python' error model whatever the caller's (typer_array.c) */
    ty_raise_if(fn, cmp(fn, CMP_EQ, n, i64c(fn, 0, loc), loc), RAISE_ZERO_DIVISION,
                    "division by zero", loc);
    Val q = ty_binop(fn, OP_DIV, r, vval(ty_i64, n), loc);
    *out = q.k == V_VAL ? vval(rt, ty_cast(fn, q.v, q.t, rt, loc)) : verr();
    return true;
}

/* e.NAME() for NAME a reduction fused by ty_arrexpr_fold (sum prod min max mean any all, no
 * arguments) and e an array expression: true with *out set when fused.  Typed before the
 * receiver, which would otherwise become a temporary array first. */
bool ty_arrexpr_fold_method(Fn *fn, Node *call, Val *out) {
    static const struct { const char *name; FoldKind k; } red[] = {
        {"sum", FOLD_SUM}, {"prod", FOLD_PROD}, {"min", FOLD_MIN}, {"max", FOLD_MAX},
        {"mean", FOLD_MEAN}, {"any", FOLD_ANY}, {"all", FOLD_ALL}};
    Node *f = call->a;
    if (f->kind != ND_ATTR || call->list.n || call->list2.n)
        return false;
    for (size_t i = 0; i < sizeof red / sizeof red[0]; i++)
        if (!strcmp(f->name, red[i].name))
            return ty_arrexpr_fold(fn, f->a, red[i].k, out);
    return false;
}

/* t op= v with t an array (a name, a view, a row): elementwise into t itself. */
bool ty_arrexpr_augassign(Fn *fn, Node *s) {
    Node *t = s->a;
    if (!is_array(peek(fn, t)))
        return false;
    const Ufunc *u = operator_ufunc(s->op);
    if (!u || u->nin != 2 || u->to_bool) {
        ty_error(fn, s->loc, "operator %s= is not supported on arrays", ast_op_spelling[s->op]);
        return true;
    }
    Val dst = ty_value(fn, t);
    if (dst.k != V_VAL)
        return true;
    if (dst.t->readonly) {
        ty_error(fn, t->loc, "cannot assign to a read-only array (%s)", dst.t->name);
        return true;
    }
    Expr x = {.fn = fn, .acc = -1};
    ENode *root = new_node(fn, s->loc);
    root->uf = u;
    root->k[0] = leaf(&x, dst, NULL, t->loc);
    root->k[1] = collect(&x, s->b);
    if (x.bad)
        return true;
    if (root->k[1]->nd > dst.t->ndim) {
        ty_error(fn, s->loc, "cannot update %s in place with %s: the result would have more "
                 "dimensions", dst.t->name, node_type(root->k[1])->name);
        return true;
    }
    type_node(&x, root, dst.t->dtype);
    if (x.bad || !fn->emit)
        return true;
    IrInst *ext[TY_MAX_NDIM];
    for (int d = 0; d < dst.t->ndim; d++)
        ext[d] = extent(fn, dst.v, d, s->loc);
    broadcast_and_loop(&x, root, dst.v, dst.t, ext, true, s->loc);
    return true;
}

/* The byte range [lo, hi) that array a's elements may occupy (conservative for any strides). */
static void byte_range(Fn *fn, IrInst *a, const Type *at, IrInst **lo, IrInst **hi, Loc loc) {
    IrInst *zero = i64c(fn, 0, loc);
    *lo = *hi = ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &a);
    for (int d = 0; d < at->ndim; d++) {
        IrInst *st = ty_emit(fn, IR_STRIDE, ty_i64, loc, 1, &a);
        if (st)
            st->imm.index = d;
        IrInst *last = bin(fn, IR_MUL, ty_i64, bin(fn, IR_SUB, ty_i64, extent(fn, a, d, loc),
                                                   i64c(fn, 1, loc), loc), st, loc);
        IrInst *neg = cmp(fn, CMP_LT, last, zero, loc);
        *lo = bin(fn, IR_ADD, ty_i64, *lo, sel(fn, ty_i64, neg, last, zero, loc), loc);
        *hi = bin(fn, IR_ADD, ty_i64, *hi, sel(fn, ty_i64, neg, zero, last, loc), loc);
    }
    *hi = bin(fn, IR_ADD, ty_i64, *hi, i64c(fn, ty_size(at->dtype), loc), loc);
}

bool ty_arrexpr_assign(Fn *fn, Node *s) {
    if (on_gpu(fn) || s->list.n != 1 || s->list.items[0]->kind != ND_SUBSCRIPT)
        return false;
    Node *t = s->list.items[0], *ops[2];
    bool own;
    if (!elementwise(fn, s->a, ops, &own) || !is_array(peek(fn, s->a)))
        return false;
    Val at = peek(fn, t->a);
    Node *ix = is_array(at) ? ty_index_expand(fn, at.t, t->b) : t->b; /* typer_ellipsis.c */
    if (!ix)
        return true;
    int nidx = ix->kind == ND_TUPLE ? ix->list.n : 1;
    if (!is_array(at) || at.t->readonly || at.t->addrspace != AS_GENERIC || nidx > at.t->ndim ||
        !ty_array_has_slice(at.t, ix))
        return false;
    Val arr = ty_value(fn, t->a);
    if (arr.k != V_VAL)
        return true;
    Val dst = ty_array_view(fn, arr, ix, t->loc);
    if (dst.k != V_VAL)
        return true;
    Expr x = {.fn = fn, .acc = -1};
    ENode *root = collect(&x, s->a);
    if (x.bad)
        return true;
    if (root->nd > dst.t->ndim) {
        ty_error(fn, s->a->loc, "cannot assign %s to a %d-d view (%s): too many dimensions",
                 node_type(root)->name, dst.t->ndim, dst.t->name);
        return true;
    }
    if (!fn->emit)
        return true;
    /* an operand that may share memory with the target: compute into a new array first */
    IrInst *dlo, *dhi, *shared = NULL;
    byte_range(fn, dst.v, dst.t, &dlo, &dhi, s->loc);
    for (int l = 0; l < x.nleaves; l++) {
        IrInst *lo, *hi, *v = x.leaves[l]->v.v;
        byte_range(fn, v, x.leaves[l]->v.t, &lo, &hi, s->loc);
        IrInst *o = bin(fn, IR_BITAND, ty_bool, cmp(fn, CMP_LT, dlo, hi, s->loc),
                        cmp(fn, CMP_LT, lo, dhi, s->loc), s->loc);
        shared = shared ? bin(fn, IR_BITOR, ty_bool, shared, o, s->loc) : o;
    }
    IrBlock *tmp = ty_block(fn), *direct = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, shared, tmp, direct, s->loc);
    ty_set_block(fn, tmp);
    const Type *rt = node_type(root);
    IrInst *ext[TY_MAX_NDIM];
    IrInst *r = broadcast_and_loop(&x, root, NULL, rt, ext, false, s->a->loc);
    if (r)
        ty_array_copy(fn, dst, vval(rt, r), s->loc);
    ty_br(fn, done, s->loc);
    ty_set_block(fn, direct);
    for (int d = 0; d < dst.t->ndim; d++)
        ext[d] = extent(fn, dst.v, d, s->loc);
    broadcast_and_loop(&x, root, dst.v, dst.t, ext, true, s->loc);
    ty_br(fn, done, s->loc);
    ty_set_block(fn, done);
    return true;
}

const Type *ty_ufunc_loop(const char *name, const Type *a, const Type *b) {
    const Ufunc *u = ufunc_named(name);
    const Type *in[2] = {a, b};
    return u ? find_loop(u, in, NULL) : NULL;
}

IrInst *ty_ufunc_apply(Fn *fn, const char *name, const Type *lt, IrInst *x, IrInst *y, Loc loc) {
    return apply(fn, ufunc_named(name), lt, x, y, loc);
}

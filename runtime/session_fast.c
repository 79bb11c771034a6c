/* session_fast.c — scalar expressions of a session evaluated directly, without compiling.
 *
 * The statements of a top-level loop (`s += i`, `while k < n:`, `x = a*b + 1`) are mostly
 * arithmetic on a few int64 and float64 scalars.  Running each through the region machinery
 * (session_eval.c: the expression's text as a cache key, a compiled function, a call through
 * the dispatcher) costs microseconds a statement; this evaluator walks the tree instead.
 *
 * It covers exactly the cases whose answer is plain and the same as the compiled function's
 * (Numba's typing of int64 and float64 scalars): + - * on int64 wrap around; an int64 meeting
 * a float64 becomes float64; / gives float64; // and % of int64 round toward minus infinity;
 * & | ^ ~ of int64; comparisons (chained, int64 against float64 as float64); not; unary - and
 * +.  Anything else (another dtype, a bool in arithmetic, **, shifts, float // and %, a
 * division by zero, INT64_MIN // -1, an array, a call) makes it decline: the caller then runs
 * the expression the general way, which gives the result or the located error.  It has no side
 * effects, so declining halfway is harmless.
 */
#include "session.h"

#include <stdint.h>
#include <string.h>

typedef enum { FV_INT, FV_FLOAT, FV_BOOL } FvKind;

typedef struct Fv {
    FvKind k;
    int64_t i; /* FV_INT, FV_BOOL (0/1) */
    double f;  /* FV_FLOAT */
} Fv;

static bool fast(NjSession *s, Node *e, Fv *out);

static double as_f(const Fv *v) { return v->k == FV_FLOAT ? v->f : (double)v->i; }

static bool fast_leaf(NjSession *s, Node *e, Fv *out) {
    switch (e->kind) {
    case ND_INT:
        if (e->str) /* above 2**63-1: uint64 */
            return false;
        *out = (Fv){FV_INT, e->ival, 0};
        return true;
    case ND_FLOAT: *out = (Fv){FV_FLOAT, 0, e->fval}; return true;
    case ND_BOOL: *out = (Fv){FV_BOOL, e->ival != 0, 0}; return true;
    case ND_NAME: {
        const SVal *v = ss_lookup(s, e->name);
        if (!v || v->kind != SV_SCALAR)
            return false;
        if (v->dtype == NJ_INT64)
            *out = (Fv){FV_INT, v->s.i, 0};
        else if (v->dtype == NJ_FLOAT64)
            *out = (Fv){FV_FLOAT, 0, v->s.f};
        else if (v->dtype == NJ_BOOL)
            *out = (Fv){FV_BOOL, v->s.b, 0};
        else
            return false;
        return true;
    }
    default: return false;
    }
}

static bool int_binop(OpKind op, int64_t a, int64_t b, Fv *out) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int64_t r;
    switch (op) {
    case OP_ADD: r = (int64_t)(ua + ub); break;
    case OP_SUB: r = (int64_t)(ua - ub); break;
    case OP_MUL: r = (int64_t)(ua * ub); break;
    case OP_BITAND: r = a & b; break;
    case OP_BITOR: r = a | b; break;
    case OP_BITXOR: r = a ^ b; break;
    case OP_DIV:
        if (!b)
            return false;
        *out = (Fv){FV_FLOAT, 0, (double)a / (double)b};
        return true;
    case OP_FLOORDIV: case OP_MOD: {
        if (!b || (a == INT64_MIN && b == -1))
            return false;
        int64_t q = a / b, m = a % b;
        if (m && ((m < 0) != (b < 0))) {
            q--;
            m += b;
        }
        r = op == OP_FLOORDIV ? q : m;
        break;
    }
    default: return false;
    }
    *out = (Fv){FV_INT, r, 0};
    return true;
}

static bool float_binop(OpKind op, double a, double b, Fv *out) {
    double r;
    switch (op) {
    case OP_ADD: r = a + b; break;
    case OP_SUB: r = a - b; break;
    case OP_MUL: r = a * b; break;
    case OP_DIV:
        if (b == 0)
            return false;
        r = a / b;
        break;
    default: return false;
    }
    *out = (Fv){FV_FLOAT, 0, r};
    return true;
}

static bool compare(OpKind op, const Fv *a, const Fv *b, bool *out) {
    if (a->k == FV_BOOL || b->k == FV_BOOL)
        return false;
    if (a->k == FV_INT && b->k == FV_INT) {
        int64_t x = a->i, y = b->i;
        switch (op) {
        case OP_EQ: *out = x == y; return true;
        case OP_NE: *out = x != y; return true;
        case OP_LT: *out = x < y; return true;
        case OP_LE: *out = x <= y; return true;
        case OP_GT: *out = x > y; return true;
        case OP_GE: *out = x >= y; return true;
        default: return false;
        }
    }
    double x = as_f(a), y = as_f(b);
    switch (op) {
    case OP_EQ: *out = x == y; return true;
    case OP_NE: *out = x != y; return true;
    case OP_LT: *out = x < y; return true;
    case OP_LE: *out = x <= y; return true;
    case OP_GT: *out = x > y; return true;
    case OP_GE: *out = x >= y; return true;
    default: return false;
    }
}

static bool fast_unary(NjSession *s, Node *e, Fv *out) {
    Fv a;
    if (!fast(s, e->a, &a))
        return false;
    switch (e->op) {
    case OP_NOT:
        *out = (Fv){FV_BOOL, a.k == FV_FLOAT ? a.f == 0 : a.i == 0, 0};
        return true;
    case OP_NEG: case OP_POS:
        if (a.k == FV_BOOL)
            return false;
        if (e->op == OP_NEG) {
            a.i = (int64_t)(0 - (uint64_t)a.i);
            a.f = -a.f;
        }
        *out = a;
        return true;
    case OP_INVERT:
        if (a.k != FV_INT)
            return false;
        *out = (Fv){FV_INT, ~a.i, 0};
        return true;
    default: return false;
    }
}

static bool fast(NjSession *s, Node *e, Fv *out) {
    switch (e->kind) {
    case ND_BINOP: {
        Fv a, b;
        if (!fast(s, e->a, &a) || !fast(s, e->b, &b) || a.k == FV_BOOL || b.k == FV_BOOL)
            return false;
        if (a.k == FV_INT && b.k == FV_INT)
            return int_binop(e->op, a.i, b.i, out);
        return float_binop(e->op, as_f(&a), as_f(&b), out);
    }
    case ND_UNARY: return fast_unary(s, e, out);
    case ND_COMPARE: {
        Fv a, b;
        bool all = true;
        if (!fast(s, e->list.items[0], &a))
            return false;
        for (int k = 1; k < e->list.n; k++, a = b) {
            bool r;
            if (!fast(s, e->list.items[k], &b) || !compare(e->ops[k - 1], &a, &b, &r))
                return false;
            all = all && r;
        }
        *out = (Fv){FV_BOOL, all, 0};
        return true;
    }
    default: return fast_leaf(s, e, out);
    }
}

bool se_eval_fast(NjSession *s, Node *e, SVal *out) {
    Fv v;
    if (!fast(s, e, &v))
        return false;
    if (v.k == FV_FLOAT)
        *out = sv_scalar_f(NJ_FLOAT64, v.f);
    else
        *out = sv_scalar_i(v.k == FV_INT ? NJ_INT64 : NJ_BOOL, v.i);
    return true;
}

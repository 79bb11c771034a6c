/* pass_fold.c — constant folding and removal of unused pure values.
 *
 * Sweeps every function to a fixed point:
 *   fold   an instruction whose operands are all constants becomes a constant in place (same
 *          id, type and location, so no use has to change); a select on a constant condition is
 *          replaced by the chosen operand; a condbr on a constant (or with equal targets)
 *          becomes a br.  Blocks made unreachable stay (block numbers never change).
 *   sweep  a pure instruction whose value nobody uses is unlinked; use counts per SSA id are
 *          kept so a chain of dead values goes in one backwards sweep.
 *
 * The arithmetic is exactly what the generated code computes (ops.def, SEMANTICS.md):
 * integers wrap at their width (sums are computed on uint64_t and truncated/extended back),
 * // and % follow Python (floor division, remainder with the divisor's sign; for floats
 * CPython's float_divmod algorithm), float32 is computed in float.  Whatever the generated
 * code might do differently, or whose result is not pinned down, is left alone: a division or
 * remainder by zero (ints and floats, whatever the error model), MIN // -1 and MIN % -1,
 * shifts by a negative count or by the width or more, 0 ** negative, float ** anything, math
 * builtins (libm results), float // and % unless operands and result are finite, and
 * float -> int casts out of the target's range or of NaN/inf.
 */
#include "ir.h"

#include <math.h>
#include <string.h>

/* ---- values of constants ------------------------------------------------------------------- */
/* v truncated to t's width, then sign- or zero-extended to 64 bits. */
static int64_t wrap(const Type *t, uint64_t v) {
    if (t->kind == TY_BOOL)
        return (int64_t)(v != 0);
    int bits = ty_bits(t);
    if (bits >= 64)
        return (int64_t)v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (ty_is_signed(t) && (v >> (bits - 1)) & 1)
        v |= ~mask;
    return (int64_t)v;
}

static int64_t ival(const IrInst *c) { return wrap(c->type, (uint64_t)c->imm.i); }
static double fval(const IrInst *c) { return c->type == ty_f32 ? (float)c->imm.f : c->imm.f; }

static void make_int(IrInst *in, int64_t v) {
    in->op = IR_CONST;
    in->nargs = 0;
    in->imm.i = wrap(in->type, (uint64_t)v);
}

static void make_float(IrInst *in, double v) {
    in->op = IR_CONST;
    in->nargs = 0;
    in->imm.f = in->type == ty_f32 ? (double)(float)v : v;
}

static int64_t min_of(const Type *t) {
    int bits = ty_bits(t);
    return bits >= 64 ? INT64_MIN : -(int64_t)(UINT64_C(1) << (bits - 1));
}

/* ---- integer operations -------------------------------------------------------------------- */
static bool fold_int(IrOp op, const Type *t, int64_t a, int64_t b, int64_t *out) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    bool sign = ty_is_signed(t);
    int bits = ty_bits(t);
    switch (op) {
    case IR_ADD: *out = (int64_t)(ua + ub); return true;
    case IR_SUB: *out = (int64_t)(ua - ub); return true;
    case IR_MUL: *out = (int64_t)(ua * ub); return true;
    case IR_BITAND: *out = a & b; return true;
    case IR_BITOR: *out = a | b; return true;
    case IR_BITXOR: *out = a ^ b; return true;
    case IR_FLOORDIV:
    case IR_MOD: {
        if (b == 0 || (sign && a == min_of(t) && b == -1))
            return false;
        if (!sign) {
            *out = (int64_t)(op == IR_FLOORDIV ? ua / ub : ua % ub);
            return true;
        }
        int64_t q = a / b, r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
            q -= 1;
            r += b;
        }
        *out = op == IR_FLOORDIV ? q : r;
        return true;
    }
    case IR_POW: {
        if (sign && b < 0) {
            if (a == 0)
                return false;
            *out = a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
            return true;
        }
        uint64_t r = 1, x = ua;
        for (uint64_t n = ub; n; n >>= 1) {
            if (n & 1)
                r *= x;
            x *= x;
        }
        *out = (int64_t)r;
        return true;
    }
    case IR_SHL:
    case IR_SHR: {
        if ((sign && b < 0) || ub >= (uint64_t)bits)
            return false;
        if (op == IR_SHL)
            *out = (int64_t)(ua << ub);
        else if (sign && a < 0)
            *out = ~(int64_t)(~ua >> ub); /* arithmetic shift without implementation-defined C */
        else
            *out = (int64_t)(ua >> ub);
        return true;
    }
    default: return false;
    }
}

static bool compare_int(CmpPred p, bool sign, int64_t a, int64_t b) {
    int c = sign ? (a > b) - (a < b) : ((uint64_t)a > (uint64_t)b) - ((uint64_t)a < (uint64_t)b);
    switch (p) {
    case CMP_EQ: return c == 0;
    case CMP_NE: return c != 0;
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* ---- float operations ---------------------------------------------------------------------- */
/* CPython's float_divmod: floor quotient and remainder with the divisor's sign. */
#define DEFINE_DIVMOD(NAME, T, FMOD, FLOOR, COPYSIGN)                                            \
    static void NAME(T vx, T wx, T *floordiv, T *mod) {                                        \
        T m = FMOD(vx, wx);                                                                    \
        T div = (vx - m) / wx;                                                                 \
        if (m) {                                                                               \
            if ((wx < 0) != (m < 0)) {                                                         \
                m += wx;                                                                       \
                div -= 1;                                                                      \
            }                                                                                  \
        } else {                                                                               \
            m = COPYSIGN((T)0, wx);                                                            \
        }                                                                                      \
        T fd;                                                                                  \
        if (div) {                                                                             \
            fd = FLOOR(div);                                                                   \
            if (div - fd > (T)0.5)                                                             \
                fd += 1;                                                                       \
        } else {                                                                               \
            fd = COPYSIGN((T)0, vx / wx);                                                      \
        }                                                                                      \
        *floordiv = fd;                                                                        \
        *mod = m;                                                                              \
    }
DEFINE_DIVMOD(divmod64, double, fmod, floor, copysign)
DEFINE_DIVMOD(divmod32, float, fmodf, floorf, copysignf)

static bool fold_float(IrOp op, const Type *t, double a, double b, double *out) {
    bool f32 = t == ty_f32;
    float fa = (float)a, fb = (float)b;
    switch (op) {
    case IR_ADD: *out = f32 ? (double)(fa + fb) : a + b; return true;
    case IR_SUB: *out = f32 ? (double)(fa - fb) : a - b; return true;
    case IR_MUL: *out = f32 ? (double)(fa * fb) : a * b; return true;
    case IR_DIV:
        if (b == 0)
            return false;
        *out = f32 ? (double)(fa / fb) : a / b;
        return true;
    case IR_FLOORDIV:
    case IR_MOD: {
        if (b == 0 || !isfinite(a) || !isfinite(b))
            return false;
        double q, r;
        if (f32) {
            float fq, fr;
            divmod32(fa, fb, &fq, &fr);
            q = fq, r = fr;
        } else {
            divmod64(a, b, &q, &r);
        }
        *out = op == IR_FLOORDIV ? q : r;
        return isfinite(*out);
    }
    default: return false;
    }
}

static bool compare_float(CmpPred p, double a, double b) {
    switch (p) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b; /* true when unordered, as Python's != */
    case CMP_LT: return a < b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    default: return a >= b;
    }
}

/* ---- casts --------------------------------------------------------------------------------- */
static bool fold_cast(IrInst *in) {
    const IrInst *x = in->args[0];
    const Type *to = in->type, *from = x->type;
    if (!ty_is_scalar(to) || !ty_is_scalar(from))
        return false;
    if (!ty_is_float(from)) {
        int64_t v = ival(x);
        bool sign = ty_is_signed(from);
        if (to == ty_f64)
            make_float(in, sign ? (double)v : (double)(uint64_t)v);
        else if (to == ty_f32)
            make_float(in, sign ? (double)(float)v : (double)(float)(uint64_t)v);
        else
            make_int(in, to == ty_bool ? v != 0 : v);
        return true;
    }
    double d = fval(x);
    if (ty_is_float(to)) {
        make_float(in, d);
        return true;
    }
    if (to == ty_bool) {
        make_int(in, d != 0);
        return true;
    }
    if (!isfinite(d))
        return false;
    double tr = trunc(d), lim = ldexp(1.0, ty_bits(to) - ty_is_signed(to));
    if (ty_is_signed(to) ? (tr < -lim || tr >= lim) : (tr < 0 || tr >= lim))
        return false;
    make_int(in, ty_is_signed(to) ? (int64_t)tr : (int64_t)(uint64_t)tr);
    return true;
}

/* ---- one instruction ----------------------------------------------------------------------- */
static void replace_uses(IrFunc *f, const IrInst *old, IrInst *new_value) {
    for (int b = 0; b < f->nblocks; b++)
        for (IrInst *in = f->blocks[b]->first; in; in = in->next)
            for (int k = 0; k < in->nargs; k++)
                if (in->args[k] == old)
                    in->args[k] = new_value;
}

static bool all_const(const IrInst *in) {
    for (int k = 0; k < in->nargs; k++)
        if (!in->args[k] || in->args[k]->op != IR_CONST)
            return false;
    return in->nargs > 0;
}

static bool fold_inst(IrFunc *f, IrInst *in) {
    const Type *t = in->type;
    if (in->op == IR_CONDBR) {
        const IrInst *c = in->args[0];
        bool same = in->imm.targets[0] == in->imm.targets[1];
        if (!same && c->op != IR_CONST)
            return false;
        int target = same || ival(c) ? in->imm.targets[0] : in->imm.targets[1];
        in->op = IR_BR;
        in->nargs = 0;
        in->imm.targets[0] = target;
        in->imm.targets[1] = 0;
        return true;
    }
    if (in->op == IR_SELECT) {
        if (in->args[0]->op != IR_CONST)
            return false;
        IrInst *pick = ival(in->args[0]) ? in->args[1] : in->args[2];
        replace_uses(f, in, pick);
        in->nargs = 0; /* dead now: the sweep removes it */
        in->op = IR_CONST;
        if (ty_is_float(t))
            in->imm.f = 0;
        else
            in->imm.i = 0;
        return true;
    }
    if (!all_const(in) || !ty_is_scalar(t))
        return false;
    const IrInst *a = in->args[0], *b = in->nargs > 1 ? in->args[1] : NULL;
    switch (in->op) {
    case IR_CAST: return fold_cast(in);
    case IR_NOT:
        make_int(in, !ival(a));
        return true;
    case IR_INVERT:
        make_int(in, t == ty_bool ? !ival(a) : ~ival(a));
        return true;
    case IR_NEG:
        if (ty_is_float(t))
            make_float(in, -fval(a));
        else
            make_int(in, (int64_t)(0 - (uint64_t)ival(a)));
        return true;
    case IR_CMP: {
        const Type *at = a->type;
        bool r = ty_is_float(at) ? compare_float(in->imm.pred, fval(a), fval(b))
                                 : compare_int(in->imm.pred, ty_is_signed(at), ival(a), ival(b));
        make_int(in, r);
        return true;
    }
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_FLOORDIV: case IR_MOD:
    case IR_POW: case IR_BITAND: case IR_BITOR: case IR_BITXOR: case IR_SHL: case IR_SHR:
        if (b->type != a->type)
            return false; /* float ** int64 and the like */
        if (ty_is_float(t)) {
            double r;
            if (in->op == IR_POW || !fold_float(in->op, t, fval(a), fval(b), &r))
                return false;
            make_float(in, r);
        } else {
            int64_t r;
            if (in->op == IR_DIV || !fold_int(in->op, t, ival(a), ival(b), &r))
                return false;
            make_int(in, r);
        }
        return true;
    default: return false;
    }
}

/* ---- the sweep of dead values -------------------------------------------------------------- */
static bool is_pure(const IrInst *in) {
    switch (in->op) {
    case IR_CONST: case IR_LOAD: case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV:
    case IR_FLOORDIV: case IR_MOD: case IR_POW: case IR_NEG: case IR_INVERT: case IR_NOT:
    case IR_BITAND: case IR_BITOR: case IR_BITXOR: case IR_SHL: case IR_SHR: case IR_CMP:
    case IR_CAST: case IR_SELECT: case IR_MATH: case IR_SHAPE: case IR_TUPLE: case IR_EXTRACT:
    case IR_COMPLEX: case IR_CPART: case IR_CPARTVIEW: case IR_FIELDVIEW:
    case IR_SREG: case IR_STRIDE: case IR_ADDR: case IR_VIEW: case IR_TRANSPOSE: case IR_RESHAPE:
    case IR_ADDRARRAY:
    case IR_RAWVIEW:
        return true;
    case IR_RANDOM: /* range_len only: every draw changes the generator's state */
        return in->imm.index >= 0 && in->imm.index < RND__COUNT && ir_random[in->imm.index].pure;
    case IR_CUDA: /* popc, fma, ...; never the warp-synchronous ones */
        return in->imm.index >= 0 && in->imm.index < CU__COUNT && ir_cuda[in->imm.index].pure;
    default:
        return false;
    }
}

static int sweep(IrFunc *f) {
    int n = f->next_id > 0 ? f->next_id : 1;
    int *uses = nj_calloc((size_t)n, sizeof(int));
    if (!uses)
        return 0;
    for (int b = 0; b < f->nblocks; b++)
        for (IrInst *in = f->blocks[b]->first; in; in = in->next)
            for (int k = 0; k < in->nargs; k++) {
                const IrInst *a = in->args[k];
                if (a && a->id >= 0 && a->id < n)
                    uses[a->id]++;
            }
    int removed = 0;
    for (bool again = true; again;) {
        again = false;
        for (int b = f->nblocks - 1; b >= 0; b--) {
            IrBlock *blk = f->blocks[b];
            IrInst *prev = NULL;
            for (IrInst *in = blk->first, *next; in; in = next) {
                next = in->next;
                if (!is_pure(in) || in->id < 0 || in->id >= n || uses[in->id]) {
                    prev = in;
                    continue;
                }
                for (int k = 0; k < in->nargs; k++) {
                    const IrInst *a = in->args[k];
                    if (a && a->id >= 0 && a->id < n && --uses[a->id] == 0)
                        again = true;
                }
                if (prev)
                    prev->next = next;
                else
                    blk->first = next;
                if (blk->last == in)
                    blk->last = prev;
                in->next = NULL;
                removed++;
            }
        }
    }
    nj_free(uses);
    return removed;
}

int ir_pass_fold(IrProgram *p) {
    int changes = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        IrFunc *f = p->funcs[i];
        for (bool again = true; again;) {
            again = false;
            for (int b = 0; b < f->nblocks; b++)
                for (IrInst *in = f->blocks[b]->first; in; in = in->next)
                    if (fold_inst(f, in)) {
                        changes++;
                        again = true;
                    }
        }
        changes += sweep(f);
    }
    return changes;
}

/* lower_arith.c — Python's arithmetic and comparisons of scalars in LLVM IR, never trapping.
 *
 * Integer // and % round to the floor, with x//0 = x%0 = 0 and MIN//-1 = 0 as in Numba (a "safe
 * divisor" and selects); float // and % follow NumPy's npy_divmod; integer ** is
 * square-and-multiply (Numba's algorithm), also for float ** int; shifts by >= the width give
 * Python's result. cg_lower_binop and cg_lower_compare are called by lower.c's instruction
 * switch with the operands already lowered.
 */
#include "cg_internal.h"

/* ---- integer arithmetic ---------------------------------------------------------------------- */
/* Python's a // b (want_mod false) or a % b (true), never trapping: x//0 = x%0 = 0 and
 * MIN//-1 = 0 (Numba), MIN%-1 = 0. */
static LLVMValueRef int_divmod(CgLower *L, const Type *t, LLVMValueRef a, LLVMValueRef b,
                               bool want_mod) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(T), one = cg_ci(T, 1);
    LLVMValueRef bz = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
    if (!ty_is_signed(t)) {
        LLVMValueRef sb = LLVMBuildSelect(B, bz, one, b, "");
        LLVMValueRef r = want_mod ? LLVMBuildURem(B, a, sb, "") : LLVMBuildUDiv(B, a, sb, "");
        return want_mod ? r : LLVMBuildSelect(B, bz, zero, r, ""); /* a % 1 is already 0 */
    }
    LLVMValueRef bm1 = LLVMBuildICmp(B, LLVMIntEQ, b, cg_ci(T, -1), "");
    LLVMValueRef sb = LLVMBuildSelect(B, LLVMBuildOr(B, bz, bm1, ""), one, b, "");
    LLVMValueRef q = LLVMBuildSDiv(B, a, sb, "");
    LLVMValueRef r = LLVMBuildSRem(B, a, sb, "");
    /* floor: when the remainder is non-zero and its sign differs from the divisor's */
    LLVMValueRef rnz = LLVMBuildICmp(B, LLVMIntNE, r, zero, "");
    LLVMValueRef sdiff = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildXor(B, r, sb, ""), zero, "");
    LLVMValueRef adj = LLVMBuildAnd(B, rnz, sdiff, "");
    if (want_mod) /* b == 0 and b == -1 give r == 0 already */
        return LLVMBuildSelect(B, adj, LLVMBuildAdd(B, r, sb, ""), r, "");
    q = LLVMBuildSelect(B, adj, LLVMBuildSub(B, q, one, ""), q, "");
    /* a // -1 is -a, except MIN // -1, which is 0 as in Numba (no overflow trap) */
    unsigned w = LLVMGetIntTypeWidth(T);
    LLVMValueRef amin = LLVMBuildICmp(B, LLVMIntEQ, a, LLVMConstInt(T, 1ULL << (w - 1), 0), "");
    LLVMValueRef neg = LLVMBuildSelect(B, amin, zero, LLVMBuildSub(B, zero, a, ""), "");
    q = LLVMBuildSelect(B, bm1, neg, q, "");
    return LLVMBuildSelect(B, bz, zero, q, "");
}

typedef LLVMValueRef (*MulFn)(CgLower *L, LLVMValueRef a, LLVMValueRef b);
static LLVMValueRef imul(CgLower *L, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildMul(L->b, a, b, "");
}
static LLVMValueRef fmul(CgLower *L, LLVMValueRef a, LLVMValueRef b) {
    return cg_fm(L, LLVMBuildFMul(L->b, a, b, ""));
}

/* r = 1; while e: (if e & 1: r *= x); e >>= 1; x *= x — with e taken as unsigned.  A constant
 * exponent is expanded at compile time (x**2 becomes one multiplication). */
static LLVMValueRef pow_loop(CgLower *L, LLVMValueRef x, LLVMValueRef e, LLVMValueRef one,
                             MulFn mul) {
    LLVMBuilderRef B = L->b;
    if (LLVMIsAConstantInt(e)) {
        unsigned long long n = LLVMConstIntGetZExtValue(e);
        LLVMValueRef r = NULL;
        while (n) {
            if (n & 1)
                r = r ? mul(L, r, x) : x;
            n >>= 1;
            if (n)
                x = mul(L, x, x);
        }
        return r ? r : one;
    }
    LLVMTypeRef ET = LLVMTypeOf(e), XT = LLVMTypeOf(x);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = cg_lower_new_bb(L, "pow.head"), body = cg_lower_new_bb(L, "pow.body"),
                      done = cg_lower_new_bb(L, "pow.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef r = LLVMBuildPhi(B, XT, "pow.r"), base = LLVMBuildPhi(B, XT, "pow.x"),
                 ee = LLVMBuildPhi(B, ET, "pow.e");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, ee, LLVMConstNull(ET), ""), done, body);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef bit = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, ee, cg_ci(ET, 1), ""),
                                     LLVMConstNull(ET), "");
    LLVMValueRef r2 = LLVMBuildSelect(B, bit, mul(L, r, base), r, "");
    LLVMValueRef base2 = mul(L, base, base);
    LLVMValueRef e2 = LLVMBuildLShr(B, ee, cg_ci(ET, 1), "");
    LLVMBuildBr(B, head);
    LLVMValueRef iv[2];
    LLVMBasicBlockRef ib[2] = {pre, body};
    iv[0] = one, iv[1] = r2;
    LLVMAddIncoming(r, iv, ib, 2);
    iv[0] = x, iv[1] = base2;
    LLVMAddIncoming(base, iv, ib, 2);
    iv[0] = e, iv[1] = e2;
    LLVMAddIncoming(ee, iv, ib, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return r;
}

/* int ** int: a negative exponent gives 0 unless the base is 1 (→ 1) or -1 (→ ±1); 0 to a
 * negative power is the type's minimum (what Numba returns under the 'numpy' error model; the
 * 'python' model raised before, typer_expr.c's check_zero_pow). */
static LLVMValueRef int_pow(CgLower *L, const Type *t, LLVMValueRef x, LLVMValueRef n) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(x);
    LLVMValueRef one = cg_ci(T, 1), zero = LLVMConstNull(T);
    /* Numba's int_power returns `1.0 / r if invert else r`, so the wrapped product passes
     * through float64 (3**40 loses its low bits there), with a literal exponent too: Numba
     * types `x ** 39` as (int64, int64) and lowers it by int_power, not its unrolled
     * static_power_impl (tests/lang/fuzz_int_pow.py) */
    LLVMTypeRef F64 = LLVMDoubleTypeInContext(L->M->ctx);
    if (!ty_is_signed(t)) {
        LLVMValueRef r = pow_loop(L, x, n, one, imul);
        return LLVMBuildFPToUI(B, LLVMBuildUIToFP(B, r, F64, ""), T, "");
    }
    if (LLVMIsAConstantInt(n) && LLVMConstIntGetSExtValue(n) >= 0) {
        LLVMValueRef r = pow_loop(L, x, n, one, imul);
        return LLVMBuildFPToSI(B, LLVMBuildSIToFP(B, r, F64, ""), T, "");
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n, zero, "");
    LLVMValueRef e = LLVMBuildSelect(B, neg, zero, n, "");
    LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, n, one, ""), zero, "");
    LLVMValueRef negres = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntEQ, x, one, ""), one,
        LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, x, cg_ci(T, -1), ""),
                        LLVMBuildSelect(B, odd, cg_ci(T, -1), one, ""),
                        LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, x, zero, ""),
                                        LLVMConstInt(T, 1ULL << (ty_bits(t) - 1), 0), zero, ""),
                        ""),
        "");
    LLVMValueRef r = pow_loop(L, x, e, one, imul);
    r = LLVMBuildFPToSI(B, LLVMBuildSIToFP(B, r, F64, ""), T, "");
    return LLVMBuildSelect(B, neg, negres, r, "");
}

/* float ** int64 as Numba: |n| <= 65536 by repeated squaring (1/r for n < 0), else pow(). */
static LLVMValueRef float_pow(CgLower *L, const Type *ft, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef pa[2] = {x, y}; /* through the target: llvm.pow cannot be selected on NVPTX */
    return L->M->target->math(L, &ir_math[MATH_POW], ft, pa);
}

static LLVMValueRef float_pow_int(CgLower *L, const Type *ft, LLVMValueRef x, LLVMValueRef n) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef FT = LLVMTypeOf(x), IT = LLVMTypeOf(n);
    LLVMValueRef one = LLVMConstReal(FT, 1.0);
    if (LLVMIsAConstantInt(n)) {
        int64_t k = LLVMConstIntGetSExtValue(n);
        if (k >= -64 && k <= 64) {
            LLVMValueRef r = pow_loop(L, x, cg_ci(IT, k < 0 ? -k : k), one, fmul);
            return k < 0 ? cg_fm(L, LLVMBuildFDiv(B, one, r, "")) : r;
        }
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n, LLVMConstNull(IT), "");
    LLVMValueRef e = LLVMBuildSelect(B, neg, LLVMBuildSub(B, LLVMConstNull(IT), n, ""), n, "");
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGT, e, cg_ci(IT, 0x10000), "");
    LLVMBasicBlockRef bbig = cg_lower_new_bb(L, "powi.big"), bsmall = cg_lower_new_bb(L, "powi.small"),
                      join = cg_lower_new_bb(L, "powi.join");
    LLVMBuildCondBr(B, big, bbig, bsmall);
    LLVMPositionBuilderAtEnd(B, bbig);
    LLVMValueRef rbig = float_pow(L, ft, x, LLVMBuildSIToFP(B, n, FT, ""));
    LLVMBuildBr(B, join);
    LLVMBasicBlockRef bbig_end = LLVMGetInsertBlock(B);
    LLVMPositionBuilderAtEnd(B, bsmall);
    LLVMValueRef r = pow_loop(L, x, e, one, fmul);
    r = LLVMBuildSelect(B, neg, cg_fm(L, LLVMBuildFDiv(B, one, r, "")), r, "");
    LLVMBasicBlockRef bsmall_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    LLVMValueRef phi = LLVMBuildPhi(B, FT, "");
    LLVMValueRef iv[2] = {rbig, r};
    LLVMBasicBlockRef ib[2] = {bbig_end, bsmall_end};
    LLVMAddIncoming(phi, iv, ib, 2);
    return phi;
}

/* ---- float arithmetic -------------------------------------------------------------------------- */
/* NumPy's npy_divmod (and Numba's): mod = fmod(a, b) moved to the divisor's sign, div the
 * floor of the quotient snapped to an integer; for b == 0 the IEEE results a/b and fmod(a, 0). */
static LLVMValueRef float_divmod(CgLower *L, LLVMValueRef a, LLVMValueRef b, bool want_mod) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstReal(T, 0.0), one = LLVMConstReal(T, 1.0);
    LLVMValueRef mod = cg_fm(L, LLVMBuildFRem(B, a, b, ""));
    LLVMValueRef bz = LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, "");
    LLVMValueRef modnz = LLVMBuildFCmp(B, LLVMRealUNE, mod, zero, "");
    LLVMValueRef bneg = LLVMBuildFCmp(B, LLVMRealOLT, b, zero, "");
    LLVMValueRef mneg = LLVMBuildFCmp(B, LLVMRealOLT, mod, zero, "");
    LLVMValueRef adj = LLVMBuildAnd(B, modnz, LLVMBuildXor(B, bneg, mneg, ""), "");
    LLVMValueRef cs[2] = {zero, b};
    if (want_mod) {
        LLVMValueRef m1 = LLVMBuildSelect(B, adj, cg_fm(L, LLVMBuildFAdd(B, mod, b, "")), mod, "");
        LLVMValueRef m2 = LLVMBuildSelect(B, modnz, m1, cg_call_intr(L, "llvm.copysign", T, cs, 2), "");
        return LLVMBuildSelect(B, bz, mod, m2, "");
    }
    LLVMValueRef quot = cg_fm(L, LLVMBuildFDiv(B, a, b, ""));
    LLVMValueRef div = cg_fm(L, LLVMBuildFDiv(B, cg_fm(L, LLVMBuildFSub(B, a, mod, "")), b, ""));
    div = LLVMBuildSelect(B, adj, cg_fm(L, LLVMBuildFSub(B, div, one, "")), div, "");
    LLVMValueRef fl = cg_call_intr(L, "llvm.floor", T, &div, 1);
    LLVMValueRef up = LLVMBuildFCmp(B, LLVMRealOGT, cg_fm(L, LLVMBuildFSub(B, div, fl, "")),
                                    LLVMConstReal(T, 0.5), "");
    fl = LLVMBuildSelect(B, up, cg_fm(L, LLVMBuildFAdd(B, fl, one, "")), fl, "");
    LLVMValueRef dnz = LLVMBuildFCmp(B, LLVMRealUNE, div, zero, "");
    LLVMValueRef cq[2] = {zero, quot};
    LLVMValueRef fd = LLVMBuildSelect(B, dnz, fl, cg_call_intr(L, "llvm.copysign", T, cq, 2), "");
    return LLVMBuildSelect(B, bz, quot, fd, "");
}

static LLVMValueRef shift(CgLower *L, IrOp op, const Type *t, LLVMValueRef a, LLVMValueRef c) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(a);
    int w = ty_bits(t);
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, c, cg_ci(T, w), "");
    if (op == IR_SHR && ty_is_signed(t)) /* sign fill: a shift by w-1 */
        return LLVMBuildAShr(B, a, LLVMBuildSelect(B, big, cg_ci(T, w - 1), c, ""), "");
    LLVMValueRef safe = LLVMBuildSelect(B, big, LLVMConstNull(T), c, "");
    LLVMValueRef r = op == IR_SHL ? LLVMBuildShl(B, a, safe, "") : LLVMBuildLShr(B, a, safe, "");
    return LLVMBuildSelect(B, big, LLVMConstNull(T), r, "");
}

LLVMValueRef cg_lower_binop(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b) {
    LLVMBuilderRef B = L->b;
    const Type *t = in->type;
    bool fl = ty_is_float(t);
    switch (in->op) {
    case IR_ADD: return fl ? cg_fm(L, LLVMBuildFAdd(B, a, b, "")) : LLVMBuildAdd(B, a, b, "");
    case IR_SUB: return fl ? cg_fm(L, LLVMBuildFSub(B, a, b, "")) : LLVMBuildSub(B, a, b, "");
    case IR_MUL: return fl ? cg_fm(L, LLVMBuildFMul(B, a, b, "")) : LLVMBuildMul(B, a, b, "");
    case IR_DIV:
        if (!fl)
            break;
        return cg_fm(L, LLVMBuildFDiv(B, a, b, ""));
    case IR_FLOORDIV:
    case IR_MOD:
        return fl ? float_divmod(L, a, b, in->op == IR_MOD) : int_divmod(L, t, a, b, in->op == IR_MOD);
    case IR_POW:
        if (fl && ty_is_int(in->args[1]->type))
            return float_pow_int(L, t, a, cg_lower_cast(L, b, in->args[1]->type, ty_i64));
        if (fl)
            return float_pow(L, t, a, b);
        return int_pow(L, t, a, b);
    case IR_BITAND: return LLVMBuildAnd(B, a, b, "");
    case IR_BITOR: return LLVMBuildOr(B, a, b, "");
    case IR_BITXOR: return LLVMBuildXor(B, a, b, "");
    case IR_SHL:
    case IR_SHR:
        if (!ty_is_int(t))
            break;
        return shift(L, in->op, t, a, b);
    default: break;
    }
    cg_error(L, in->loc, "'%s' on %s", ir_op_name[in->op], t->name);
    return NULL;
}

LLVMValueRef cg_lower_compare(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b) {
    const Type *t = in->args[0]->type;
    static const LLVMRealPredicate fp[6] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                            LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    static const LLVMIntPredicate sp[6] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT,
                                           LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[6] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT,
                                           LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    int p = (int)in->imm.pred;
    if (p < 0 || p > 5 || !ty_is_scalar(t)) {
        cg_error(L, in->loc, "bad comparison");
        return NULL;
    }
    if (ty_is_float(t))
        return cg_fm(L, LLVMBuildFCmp(L->b, fp[p], a, b, ""));
    return LLVMBuildICmp(L->b, ty_is_signed(t) ? sp[p] : up[p], a, b, "");
}

/* A call of the runtime's C function numjit_rt_<name> (rtcall.def: sorting, selection), which
 * the JIT resolves (cg_jit_define).  It reads and writes array memory whose address it gets as
 * an integer, so it carries no memory attribute: LLVM keeps every access of escaped memory on
 * its side of the call. */

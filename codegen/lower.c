/* lower.c — typed IR → LLVM IR, one LLVM function per IrFunc, target-independently.
 *
 * Every IrFunc becomes `i32 @<mangled>(ptr %ret, <params>)` (codegen.h gives the ABI): array
 * parameters arrive exploded (data, shape[ndim], strides[ndim]) and are rebuilt into one
 * descriptor struct value in the prologue, so inside a function an array is a single SSA value
 * that SROA takes apart again.  The function returns 0, or the raise site number of an IR_RAISE;
 * IR_CALL propagates a callee's non-zero status.  Results are stored through %ret in their
 * memory form (bool as one byte).
 *
 * Algorithm per function: declare all functions first (calls may go forward), then for each one
 * create an "entry" block holding the allocas of the IR variables (mem2reg turns them into SSA
 * again) and the parameter descriptors, one LLVM block per IR block, and lower the reachable
 * blocks in reverse postorder, so that the definition of every SSA value (which dominates its
 * uses) is lowered before its uses.  Unreachable blocks get just `unreachable`.
 *
 * Arrays that compiled code creates are counted (ops.def, refs.c): in a CPU function with
 * variables of counted types, those variables start empty (zeroed in the prologue), `store`
 * counts the new value up and the old one down, and every exit branches to an exit block that
 * releases the variables and returns the status from a phi: `ret` (which counts its value up
 * first, for the caller) to one that reads the variables, the others (raise, a callee's raise
 * passed on, a failed alloc) to one that reads a volatile shadow copy of each, written beside
 * the variable, so the many raise sites of a long function add no phi entries per variable.
 *
 * Element accesses of functions that allocate carry alias scopes (scopes.c): a fresh array
 * aliases no array value computed before its allocation, which LLVM cannot see across the
 * iterations of a loop.
 *
 * Python semantics that LLVM does not give for free are expanded inline and never trap: integer
 * // and % (floor rounding, x//0 = x%0 = 0, MIN//-1 = 0 as in Numba, through a "safe divisor" and
 * selects), float // and % as NumPy's npy_divmod, integer ** by square-and-multiply (Numba's
 * algorithm, also for float ** int), shifts by >= the width, negative index wrap-around.
 * Target differences (math symbols, GPU registers, barriers, atomics, static arrays, address
 * spaces) go through the CgTarget hooks.
 */
#include "cg_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CgLower {
    CgModule *M;
    const IrFunc *f;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMBasicBlockRef entry;
    LLVMBasicBlockRef *bbs;
    LLVMValueRef *vals;   /* by SSA id */
    LLVMValueRef *vars;   /* allocas by var index */
    LLVMValueRef *shadow; /* counted variables: the copy the raise exit reads (finish_exit) */
    LLVMValueRef *params; /* register values by parameter index */
    LLVMValueRef ret_ptr;
    bool failed;
    bool rc;                   /* counted variables: exits go through exit_bb or raise_bb */
    LLVMBasicBlockRef exit_bb; /* `ret`: made on first use */
    LLVMValueRef exit_phi;     /* the status */
    LLVMBasicBlockRef raise_bb; /* raises and failed allocations: made on first use */
    LLVMValueRef raise_phi;
    CgScopes *scopes;           /* functions that allocate: fresh-memory alias scopes */
    int cur_block, cur_pos;     /* where the instruction being lowered is */
    const IrBlock *blk;         /* the block being lowered (its handler catches raises) */
};

/* ---- errors ------------------------------------------------------------------------------- */
static void cg_verror(CgModule *M, const IrFunc *f, Loc loc, const char *fmt, va_list ap) {
    if (M->err)
        return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    char where[256] = "";
    if (loc.src && loc.src->name)
        snprintf(where, sizeof where, " at %s:%d:%d", loc.src->name, loc.line, loc.col);
    size_t n = strlen(msg) + strlen(where) + 128;
    M->err = malloc(n);
    if (!M->err)
        return;
    if (f)
        snprintf(M->err, n, "codegen: in function '%s'%s: %s", f->name, where, msg);
    else
        snprintf(M->err, n, "codegen: %s", msg);
}

void cg_error(CgLower *L, Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cg_verror(L->M, L->f, loc, fmt, ap);
    va_end(ap);
    L->failed = true;
}

void cg_module_error(CgModule *M, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cg_verror(M, NULL, (Loc){0}, fmt, ap);
    va_end(ap);
}

CgModule *cg_lower_module(CgLower *L) { return L->M; }
LLVMBuilderRef cg_lower_builder(CgLower *L) { return L->b; }
const IrFunc *cg_lower_func(CgLower *L) { return L->f; }

/* ---- types -------------------------------------------------------------------------------- */
static LLVMTypeRef scalar_type(CgModule *M, const Type *t, bool mem) {
    switch (t->kind) {
    case TY_VOID: return LLVMVoidTypeInContext(M->ctx);
    case TY_BOOL: return mem ? LLVMInt8TypeInContext(M->ctx) : LLVMInt1TypeInContext(M->ctx);
    case TY_I8: case TY_U8: return LLVMInt8TypeInContext(M->ctx);
    case TY_I16: case TY_U16: return LLVMInt16TypeInContext(M->ctx);
    case TY_I32: case TY_U32: return LLVMInt32TypeInContext(M->ctx);
    case TY_I64: case TY_U64: return LLVMInt64TypeInContext(M->ctx);
    case TY_F32: return LLVMFloatTypeInContext(M->ctx);
    case TY_F64: return LLVMDoubleTypeInContext(M->ctx);
    case TY_C64:
    case TY_C128: { /* {real, imag}: NumPy's layout */
        LLVMTypeRef p = t->kind == TY_C64 ? LLVMFloatTypeInContext(M->ctx)
                                          : LLVMDoubleTypeInContext(M->ctx);
        LLVMTypeRef el[2] = {p, p};
        return LLVMStructTypeInContext(M->ctx, el, 2, false);
    }
    default: return NULL;
    }
}

static LLVMTypeRef cg_type(CgModule *M, const Type *t, bool mem) {
    if (t->kind == TY_ARRAY) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx);
        LLVMTypeRef dims = LLVMArrayType2(i64, (uint64_t)t->ndim);
        LLVMTypeRef el[4] = {LLVMPointerTypeInContext(M->ctx, M->target->addrspace(t->addrspace)),
                             dims, dims, LLVMPointerTypeInContext(M->ctx, 0)};
        return LLVMStructTypeInContext(M->ctx, el, 4, false);
    }
    if (t->kind == TY_TUPLE) {
        LLVMTypeRef el[16], *els = t->nelems <= 16 ? el : malloc(sizeof *els * (size_t)t->nelems);
        if (!els)
            return NULL;
        for (int i = 0; i < t->nelems; i++)
            els[i] = cg_type(M, t->elems[i], mem);
        LLVMTypeRef r = LLVMStructTypeInContext(M->ctx, els, (unsigned)t->nelems, false);
        if (els != el)
            free(els);
        return r;
    }
    if (t->kind == TY_LIST || t->kind == TY_RECORD || t->kind == TY_DICT || t->kind == TY_SET)
        /* its block (list.c, dict.c), its item (record.c) */
        return LLVMPointerTypeInContext(M->ctx, 0);
    if (t->kind == TY_STR) { /* an NjStr: data, nbytes, nchars, owner (meminfo, field 3) */
        LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx), ptr = LLVMPointerTypeInContext(M->ctx, 0);
        LLVMTypeRef el[4] = {ptr, i64, i64, ptr};
        return LLVMStructTypeInContext(M->ctx, el, 4, false);
    }
    if (t->kind == TY_RANGE) /* never a value in lowered code; a placeholder keeps types total */
        return LLVMInt64TypeInContext(M->ctx);
    return scalar_type(M, t, mem);
}

LLVMTypeRef cg_reg_type(CgModule *M, const Type *t) { return cg_type(M, t, false); }
LLVMTypeRef cg_mem_type(CgModule *M, const Type *t) { return cg_type(M, t, true); }

static LLVMValueRef convert_form(CgModule *M, LLVMBuilderRef b, const Type *t, LLVMValueRef v,
                                 bool to_mem) {
    if (t->kind == TY_BOOL)
        return to_mem ? LLVMBuildZExt(b, v, LLVMInt8TypeInContext(M->ctx), "")
                      : LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(LLVMInt8TypeInContext(M->ctx), 0, 0), "");
    if (t->kind == TY_TUPLE) {
        LLVMValueRef r = LLVMGetPoison(cg_type(M, t, to_mem));
        for (int i = 0; i < t->nelems; i++) {
            LLVMValueRef e = LLVMBuildExtractValue(b, v, (unsigned)i, "");
            r = LLVMBuildInsertValue(b, r, convert_form(M, b, t->elems[i], e, to_mem), (unsigned)i, "");
        }
        return r;
    }
    return v;
}

LLVMValueRef cg_to_mem(CgModule *M, LLVMBuilderRef b, const Type *t, LLVMValueRef v) {
    return convert_form(M, b, t, v, true);
}
LLVMValueRef cg_from_mem(CgModule *M, LLVMBuilderRef b, const Type *t, LLVMValueRef v) {
    return convert_form(M, b, t, v, false);
}

/* Whether f's array parameters carry their meminfo (codegen.h). */
static bool abi_meminfo(const CgModule *M, const IrFunc *f) {
    return M->prog->target == TARGET_CPU && f != M->prog->funcs[0];
}

int cg_abi_params(CgModule *M, const IrFunc *f, LLVMTypeRef *out) {
    int n = 0;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx);
    if (out)
        out[n] = LLVMPointerTypeInContext(M->ctx, 0);
    n++;
    for (int k = 0; k < f->nparams; k++) {
        const Type *t = f->params[k];
        if (t->kind == TY_ARRAY) {
            if (out)
                out[n] = LLVMPointerTypeInContext(M->ctx, M->target->addrspace(t->addrspace));
            n++;
            for (int d = 0; d < 2 * t->ndim; d++, n++)
                if (out)
                    out[n] = i64;
            if (abi_meminfo(M, f)) {
                if (out)
                    out[n] = LLVMPointerTypeInContext(M->ctx, 0);
                n++;
            }
        } else {
            if (out)
                out[n] = cg_reg_type(M, t);
            n++;
        }
    }
    return n;
}

/* ---- declarations --------------------------------------------------------------------------- */
void cg_add_fn_attr(CgModule *M, LLVMValueRef fn, const char *name) {
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(M->ctx, kind, 0));
}

LLVMValueRef cg_declare_pure(CgModule *M, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                             int n) {
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, name);
    if (fn)
        return fn;
    fn = LLVMAddFunction(M->mod, name, LLVMFunctionType(ret, params, (unsigned)n, false));
    cg_add_fn_attr(M, fn, "memory"); /* value 0: memory(none) */
    cg_add_fn_attr(M, fn, "nounwind");
    cg_add_fn_attr(M, fn, "willreturn");
    cg_add_fn_attr(M, fn, "nosync");
    return fn;
}

LLVMValueRef cg_intrinsic(CgModule *M, const char *name, LLVMTypeRef t, LLVMTypeRef *fnty) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id)
        return NULL;
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(M->mod, id, &t, 1);
    if (fnty)
        *fnty = LLVMGlobalGetValueType(fn);
    return fn;
}

/* ---- small helpers -------------------------------------------------------------------------- */
LLVMValueRef cg_entry_alloca(CgLower *L, LLVMTypeRef t, const char *name) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(L->M->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(L->entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, L->entry);
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return a;
}

LLVMValueRef cg_fm(CgLower *L, LLVMValueRef v) {
    bool fast = L->f->fastmath || (L->M->opt && L->M->opt->fastmath);
    if (!v || !LLVMIsAInstruction(v) || !LLVMCanValueUseFastMathFlags(v))
        return v;
    if (fast) /* a flag set's FM_* bits are LLVM's LLVMFastMath* bits */
        LLVMSetFastMathFlags(v, L->f->fastmath && L->f->fastmath_flags
                                    ? (LLVMFastMathFlags)L->f->fastmath_flags
                                    : LLVMFastMathAll);
    else if (!strcmp(L->M->target->name, "nvptx"))
        /* numba-cuda compiles through NVVM, which fuses a*b+c into fma by default: do the
         * same on the GPU so results match it to the last bit (the CPU target, like Numba's,
         * does not contract) */
        LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
    return v;
}

static LLVMValueRef ci(LLVMTypeRef t, int64_t v) { return LLVMConstInt(t, (unsigned long long)v, 1); }

static LLVMValueRef call_intr(CgLower *L, const char *name, LLVMTypeRef t, LLVMValueRef *args,
                              int n) {
    LLVMTypeRef fty;
    LLVMValueRef fn = cg_intrinsic(L->M, name, t, &fty);
    if (!fn) {
        cg_error(L, L->f->loc, "unknown intrinsic %s", name);
        return NULL;
    }
    return LLVMBuildCall2(L->b, fty, fn, args, (unsigned)n, "");
}

static LLVMBasicBlockRef new_bb(CgLower *L, const char *name) {
    return LLVMAppendBasicBlockInContext(L->M->ctx, L->fn, name);
}

static LLVMValueRef val(CgLower *L, const IrInst *in, int k) {
    const IrInst *a = in->args[k];
    if (!a || a->id < 0 || a->id >= L->f->next_id || !L->vals[a->id]) {
        cg_error(L, in->loc, "operand %d of '%s' has no value", k, ir_op_name[in->op]);
        return NULL;
    }
    return L->vals[a->id];
}

/* ---- conversions ------------------------------------------------------------------------------ */
char *cg_errf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    StrBuf sb;
    sb_init(&sb);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    return sb_take(&sb);
}

/* v (register form of `from`) converted to `to` by IR_CAST's rules; NULL when no rule applies
 * (a scalar type that is not a number).  Shared with the loop generators (loops.c,
 * gpu_loops.c), which convert array elements to the core's parameter types. */
LLVMValueRef cg_convert(CgModule *M, LLVMBuilderRef b, LLVMValueRef v, const Type *from,
                        const Type *to) {
    if (from == to)
        return v;
    LLVMTypeRef T = cg_reg_type(M, to);
    if (ty_is_complex(to) || ty_is_complex(from)) { /* part by part; a real gets imag 0 */
        const Type *fp = ty_is_complex(from) ? ty_complex_part(from) : from;
        LLVMValueRef re = ty_is_complex(from) ? LLVMBuildExtractValue(b, v, 0, "") : v;
        if (!ty_is_complex(to)) /* NumPy's unsafe cast: the real part */
            return cg_convert(M, b, re, fp, to);
        const Type *tp = ty_complex_part(to);
        LLVMValueRef im = ty_is_complex(from)
                              ? cg_convert(M, b, LLVMBuildExtractValue(b, v, 1, ""), fp, tp)
                              : LLVMConstReal(cg_reg_type(M, tp), 0.0);
        re = cg_convert(M, b, re, fp, tp);
        if (!re || !im)
            return NULL;
        return LLVMBuildInsertValue(b, LLVMBuildInsertValue(b, LLVMGetPoison(T), re, 0, ""), im,
                                    1, "");
    }
    if (to->kind == TY_BOOL) {
        if (ty_is_float(from))
            return LLVMBuildFCmp(b, LLVMRealUNE, v, LLVMConstReal(LLVMTypeOf(v), 0.0), "");
        return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    }
    if (from->kind == TY_BOOL) {
        if (ty_is_float(to))
            return LLVMBuildUIToFP(b, v, T, "");
        return LLVMBuildZExt(b, v, T, "");
    }
    if (ty_is_int(from) && ty_is_int(to)) {
        int fb = ty_bits(from), tb = ty_bits(to);
        if (fb == tb)
            return v;
        if (fb > tb)
            return LLVMBuildTrunc(b, v, T, "");
        return ty_is_signed(from) ? LLVMBuildSExt(b, v, T, "") : LLVMBuildZExt(b, v, T, "");
    }
    if (ty_is_int(from) && ty_is_float(to))
        return ty_is_signed(from) ? LLVMBuildSIToFP(b, v, T, "") : LLVMBuildUIToFP(b, v, T, "");
    if (ty_is_float(from) && ty_is_int(to)) {
        if (ty_is_signed(to))
            return LLVMBuildFPToSI(b, v, T, "");
        if (ty_bits(to) < 64) /* as C and NumPy on x86: through int64, then wrap */
            return LLVMBuildTrunc(b, LLVMBuildFPToSI(b, v, LLVMInt64TypeInContext(M->ctx), ""), T, "");
        return LLVMBuildFPToUI(b, v, T, "");
    }
    if (ty_is_float(from) && ty_is_float(to))
        return ty_bits(from) < ty_bits(to) ? LLVMBuildFPExt(b, v, T, "") : LLVMBuildFPTrunc(b, v, T, "");
    return NULL;
}

static LLVMValueRef cast(CgLower *L, LLVMValueRef v, const Type *from, const Type *to) {
    LLVMValueRef r = cg_convert(L->M, L->b, v, from, to);
    if (!r)
        cg_error(L, L->f->loc, "cannot convert %s to %s", from->name, to->name);
    return r;
}

/* ---- integer arithmetic ---------------------------------------------------------------------- */
/* Python's a // b (want_mod false) or a % b (true), never trapping: x//0 = x%0 = 0 and
 * MIN//-1 = 0 (Numba), MIN%-1 = 0. */
static LLVMValueRef int_divmod(CgLower *L, const Type *t, LLVMValueRef a, LLVMValueRef b,
                               bool want_mod) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(T), one = ci(T, 1);
    LLVMValueRef bz = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
    if (!ty_is_signed(t)) {
        LLVMValueRef sb = LLVMBuildSelect(B, bz, one, b, "");
        LLVMValueRef r = want_mod ? LLVMBuildURem(B, a, sb, "") : LLVMBuildUDiv(B, a, sb, "");
        return want_mod ? r : LLVMBuildSelect(B, bz, zero, r, ""); /* a % 1 is already 0 */
    }
    LLVMValueRef bm1 = LLVMBuildICmp(B, LLVMIntEQ, b, ci(T, -1), "");
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
    LLVMBasicBlockRef head = new_bb(L, "pow.head"), body = new_bb(L, "pow.body"),
                      done = new_bb(L, "pow.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef r = LLVMBuildPhi(B, XT, "pow.r"), base = LLVMBuildPhi(B, XT, "pow.x"),
                 ee = LLVMBuildPhi(B, ET, "pow.e");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, ee, LLVMConstNull(ET), ""), done, body);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef bit = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, ee, ci(ET, 1), ""),
                                     LLVMConstNull(ET), "");
    LLVMValueRef r2 = LLVMBuildSelect(B, bit, mul(L, r, base), r, "");
    LLVMValueRef base2 = mul(L, base, base);
    LLVMValueRef e2 = LLVMBuildLShr(B, ee, ci(ET, 1), "");
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
    LLVMValueRef one = ci(T, 1), zero = LLVMConstNull(T);
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
        LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, x, ci(T, -1), ""),
                        LLVMBuildSelect(B, odd, ci(T, -1), one, ""),
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
            LLVMValueRef r = pow_loop(L, x, ci(IT, k < 0 ? -k : k), one, fmul);
            return k < 0 ? cg_fm(L, LLVMBuildFDiv(B, one, r, "")) : r;
        }
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n, LLVMConstNull(IT), "");
    LLVMValueRef e = LLVMBuildSelect(B, neg, LLVMBuildSub(B, LLVMConstNull(IT), n, ""), n, "");
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGT, e, ci(IT, 0x10000), "");
    LLVMBasicBlockRef bbig = new_bb(L, "powi.big"), bsmall = new_bb(L, "powi.small"),
                      join = new_bb(L, "powi.join");
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
        LLVMValueRef m2 = LLVMBuildSelect(B, modnz, m1, call_intr(L, "llvm.copysign", T, cs, 2), "");
        return LLVMBuildSelect(B, bz, mod, m2, "");
    }
    LLVMValueRef quot = cg_fm(L, LLVMBuildFDiv(B, a, b, ""));
    LLVMValueRef div = cg_fm(L, LLVMBuildFDiv(B, cg_fm(L, LLVMBuildFSub(B, a, mod, "")), b, ""));
    div = LLVMBuildSelect(B, adj, cg_fm(L, LLVMBuildFSub(B, div, one, "")), div, "");
    LLVMValueRef fl = call_intr(L, "llvm.floor", T, &div, 1);
    LLVMValueRef up = LLVMBuildFCmp(B, LLVMRealOGT, cg_fm(L, LLVMBuildFSub(B, div, fl, "")),
                                    LLVMConstReal(T, 0.5), "");
    fl = LLVMBuildSelect(B, up, cg_fm(L, LLVMBuildFAdd(B, fl, one, "")), fl, "");
    LLVMValueRef dnz = LLVMBuildFCmp(B, LLVMRealUNE, div, zero, "");
    LLVMValueRef cq[2] = {zero, quot};
    LLVMValueRef fd = LLVMBuildSelect(B, dnz, fl, call_intr(L, "llvm.copysign", T, cq, 2), "");
    return LLVMBuildSelect(B, bz, quot, fd, "");
}

static LLVMValueRef shift(CgLower *L, IrOp op, const Type *t, LLVMValueRef a, LLVMValueRef c) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef T = LLVMTypeOf(a);
    int w = ty_bits(t);
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, c, ci(T, w), "");
    if (op == IR_SHR && ty_is_signed(t)) /* sign fill: a shift by w-1 */
        return LLVMBuildAShr(B, a, LLVMBuildSelect(B, big, ci(T, w - 1), c, ""), "");
    LLVMValueRef safe = LLVMBuildSelect(B, big, LLVMConstNull(T), c, "");
    LLVMValueRef r = op == IR_SHL ? LLVMBuildShl(B, a, safe, "") : LLVMBuildLShr(B, a, safe, "");
    return LLVMBuildSelect(B, big, LLVMConstNull(T), r, "");
}

static LLVMValueRef binop(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b) {
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
            return float_pow_int(L, t, a, cast(L, b, in->args[1]->type, ty_i64));
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

static LLVMValueRef compare(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b) {
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
static LLVMValueRef lower_rtcall(CgLower *L, const IrInst *in) {
    int idx = in->imm.index;
    enum { MAXA = 16 };
    if (idx < 0 || idx >= RT__COUNT || in->nargs != (int)strlen(ir_rtcall[idx].args) ||
        in->nargs > MAXA) {
        cg_error(L, in->loc, "bad runtime function");
        return NULL;
    }
    const RtInfo *ri = &ir_rtcall[idx];
    CgModule *M = L->M;
    /* strings (str.def) travel by address: an operand as a copy on the stack, a result through
     * a first parameter pointing at a slot the function fills */
    bool sret = ri->ret == TY_STR;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(M->ctx, 0);
    LLVMTypeRef ret = ri->ret == TY_VOID || sret ? LLVMVoidTypeInContext(M->ctx)
                                                 : cg_reg_type(M, ty_scalar(ri->ret));
    LLVMTypeRef pt[MAXA + 1];
    LLVMValueRef args[MAXA + 1], slot = NULL;
    int n = 0;
    if (sret) {
        slot = cg_entry_alloca(L, cg_reg_type(M, ty_str), "str.ret");
        pt[n] = ptr;
        args[n++] = slot;
    }
    for (int k = 0; k < in->nargs; k++, n++) {
        const Type *at = ir_rtcall_arg(ri, k);
        if (!(args[n] = val(L, in, k)))
            return NULL;
        pt[n] = cg_reg_type(M, at);
        if (at->kind == TY_STR) {
            LLVMValueRef tmp = cg_entry_alloca(L, pt[n], "str.arg");
            LLVMBuildStore(L->b, args[n], tmp);
            args[n] = tmp;
            pt[n] = ptr;
        }
    }
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)n, false);
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, ri->symbol);
    if (!fn) {
        fn = LLVMAddFunction(M->mod, ri->symbol, fty);
        cg_add_fn_attr(M, fn, "nounwind");
        cg_add_fn_attr(M, fn, "willreturn");
    }
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, fn, args, (unsigned)n, "");
    if (sret)
        return LLVMBuildLoad2(L->b, cg_reg_type(M, ty_str), slot, "");
    return ri->ret == TY_VOID ? NULL : r;
}

/* A C function at a run-time address (Numba's WrapperAddressProtocol): an indirect call with
 * the C types of its operands, which the typer made integers and floats, passed in registers
 * as C passes them.  Nothing is known of what it touches, so LLVM assumes anything. */
static LLVMValueRef lower_calladdr(CgLower *L, const IrInst *in) {
    enum { MAXA = 16 };
    CgModule *M = L->M;
    if (in->nargs < 1 || in->nargs > MAXA + 1) {
        cg_error(L, in->loc, "bad call of a C function by address");
        return NULL;
    }
    LLVMTypeRef pt[MAXA];
    LLVMValueRef args[MAXA];
    int n = in->nargs - 1;
    for (int k = 0; k < n; k++) {
        if (!(args[k] = val(L, in, k + 1)))
            return NULL;
        pt[k] = cg_reg_type(M, in->args[k + 1]->type);
    }
    LLVMValueRef addr = val(L, in, 0);
    if (!addr)
        return NULL;
    LLVMTypeRef ret = in->type == ty_void ? LLVMVoidTypeInContext(M->ctx)
                                          : cg_reg_type(M, in->type);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)n, false);
    LLVMValueRef f = LLVMBuildIntToPtr(L->b, addr, LLVMPointerTypeInContext(M->ctx, 0), "");
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, f, args, (unsigned)n, "");
    return in->type == ty_void ? NULL : r;
}

/* ---- math builtins ---------------------------------------------------------------------------- */
/* A call of the runtime's random-number function numjit_rnd_<name> (random.def), which the
 * JIT resolves (cg_jit_define).  Its state is thread-local memory compiled code never sees:
 * memory(inaccessiblemem: readwrite), so loads and stores of arrays around a draw stay free to
 * move; range_len touches no memory at all. */
static LLVMValueRef lower_random(CgLower *L, const IrInst *in) {
    int idx = in->imm.index;
    if (idx < 0 || idx >= RND__COUNT || in->nargs != ir_random[idx].nargs || in->nargs > 3) {
        cg_error(L, in->loc, "bad random-number function");
        return NULL;
    }
    const RandomInfo *ri = &ir_random[idx];
    CgModule *M = L->M;
    LLVMTypeRef ret = ri->ret == TY_VOID ? LLVMVoidTypeInContext(M->ctx)
                                         : cg_reg_type(M, ty_scalar(ri->ret));
    LLVMTypeRef pt[3];
    LLVMValueRef args[3];
    for (int k = 0; k < in->nargs; k++) {
        pt[k] = cg_reg_type(M, ty_scalar(ri->arg));
        if (!(args[k] = val(L, in, k)))
            return NULL;
    }
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)in->nargs, false);
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, ri->symbol);
    if (!fn) {
        fn = LLVMAddFunction(M->mod, ri->symbol, fty);
        unsigned kind = LLVMGetEnumAttributeKindForName("memory", 6);
        uint64_t effects = ri->pure ? 0 : 3u << 2; /* ModRef of InaccessibleMem (LLVM 19) */
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(M->ctx, kind, effects));
        cg_add_fn_attr(M, fn, "nounwind");
        cg_add_fn_attr(M, fn, "willreturn");
        cg_add_fn_attr(M, fn, "nosync");
    }
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, fn, args, (unsigned)in->nargs, "");
    return ri->ret == TY_VOID ? NULL : r;
}

static LLVMValueRef lower_math(CgLower *L, const IrInst *in) {
    int idx = in->imm.index;
    if (idx < 0 || idx >= MATH__COUNT || in->nargs != ir_math[idx].arity) {
        cg_error(L, in->loc, "bad math builtin");
        return NULL;
    }
    const MathInfo *mi = &ir_math[idx];
    LLVMBuilderRef B = L->b;
    const Type *at = in->args[0]->type;
    if (mi->kind == MK_PRED) {
        LLVMTypeRef I1 = LLVMInt1TypeInContext(L->M->ctx);
        if (!ty_is_float(at)) /* integers are never nan or inf */
            return LLVMConstInt(I1, idx == MATH_ISFINITE, 0);
        LLVMValueRef x = val(L, in, 0);
        if (!x)
            return NULL;
        if (idx == MATH_ISNAN)
            return LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
        LLVMValueRef ax = call_intr(L, "llvm.fabs", LLVMTypeOf(x), &x, 1);
        LLVMValueRef inf = LLVMConstReal(LLVMTypeOf(x), __builtin_inf());
        return LLVMBuildFCmp(B, idx == MATH_ISINF ? LLVMRealOEQ : LLVMRealOLT, ax, inf, "");
    }
    /* the float type the builtin computes in */
    const Type *ft = ty_is_float(in->type) ? in->type : ty_is_float(at) ? at : ty_f64;
    LLVMValueRef args[2];
    for (int k = 0; k < in->nargs; k++) {
        LLVMValueRef v = val(L, in, k);
        if (!v)
            return NULL;
        args[k] = cast(L, v, in->args[k]->type, ft);
    }
    LLVMValueRef r;
    if (idx == MATH_RADIANS || idx == MATH_DEGREES) {
        double pi = 3.14159265358979323846;
        double c = idx == MATH_RADIANS ? pi / 180.0 : 180.0 / pi;
        r = cg_fm(L, LLVMBuildFMul(B, args[0], LLVMConstReal(cg_reg_type(L->M, ft), c), ""));
    } else {
        r = L->M->target->math(L, mi, ft, args);
    }
    if (!r)
        return NULL;
    return cast(L, r, ft, in->type); /* math.floor & co. give int64 */
}

/* ---- arrays ------------------------------------------------------------------------------------ */
static LLVMValueRef dim(CgLower *L, LLVMValueRef arr, unsigned field, unsigned k) {
    return LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, arr, field, ""), k, "");
}

/* Address of arr[idx...]: negative indices wrap around; C and F layouts index in elements from
 * the shape (contiguous: the vectorizer sees unit stride), layout A through byte strides. */
static LLVMValueRef elem_addr(CgLower *L, const IrInst *in, const Type *at, LLVMValueRef arr) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    LLVMTypeRef ET = at->dtype->kind == TY_RECORD /* items of rsize bytes */
                         ? LLVMArrayType2(LLVMInt8TypeInContext(L->M->ctx), (uint64_t)at->dtype->rsize)
                         : cg_mem_type(L->M, at->dtype);
    int nd = at->ndim;
    LLVMValueRef idx[NJ_MAX_NDIM], sh[NJ_MAX_NDIM];
    if (nd > NJ_MAX_NDIM || in->nargs < nd + 1) {
        cg_error(L, in->loc, "bad array access");
        return NULL;
    }
    for (int k = 0; k < nd; k++) {
        LLVMValueRef i = val(L, in, k + 1);
        if (!i)
            return NULL;
        i = cast(L, i, in->args[k + 1]->type, ty_i64);
        sh[k] = dim(L, arr, 1, (unsigned)k);
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, i, LLVMConstNull(i64), "");
        idx[k] = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, i, sh[k], ""), i, "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(B, arr, 0, "");
    if (nd == 0)
        return data;
    if (at->layout == LAYOUT_C || at->layout == LAYOUT_F) {
        LLVMValueRef lin;
        if (at->layout == LAYOUT_C) {
            lin = idx[0];
            for (int k = 1; k < nd; k++)
                lin = LLVMBuildAdd(B, LLVMBuildMul(B, lin, sh[k], ""), idx[k], "");
        } else {
            lin = idx[nd - 1];
            for (int k = nd - 2; k >= 0; k--)
                lin = LLVMBuildAdd(B, LLVMBuildMul(B, lin, sh[k], ""), idx[k], "");
        }
        return LLVMBuildGEP2(B, ET, data, &lin, 1, "");
    }
    LLVMValueRef off = NULL;
    for (int k = 0; k < nd; k++) {
        LLVMValueRef t = LLVMBuildMul(B, idx[k], dim(L, arr, 2, (unsigned)k), "");
        off = off ? LLVMBuildAdd(B, off, t, "") : t;
    }
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(L->M->ctx), data, &off, 1, "");
}

/* A C-layout descriptor for a static array at data (shared/local arrays). */
static LLVMValueRef static_desc(CgLower *L, const Type *at, LLVMValueRef data, const int64_t *dims) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    LLVMValueRef d = LLVMBuildInsertValue(B, LLVMGetPoison(cg_reg_type(L->M, at)), data, 0, "");
    int64_t stride = ty_size(at->dtype);
    for (int k = at->ndim - 1; k >= 0; k--) {
        LLVMValueRef sh = LLVMBuildExtractValue(B, d, 1, "");
        LLVMValueRef st = LLVMBuildExtractValue(B, d, 2, "");
        d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, sh, ci(i64, dims[k]), (unsigned)k, ""), 1, "");
        d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, st, ci(i64, stride), (unsigned)k, ""), 2, "");
        stride *= dims[k];
    }
    LLVMValueRef none = LLVMConstPointerNull(LLVMPointerTypeInContext(L->M->ctx, 0));
    return LLVMBuildInsertValue(B, d, none, CG_DESC_MEMINFO, "");
}

/* A view (IR_VIEW) of arr: the data pointer moves to the first element, each sliced
 * dimension keeps its length and multiplies its stride by the step, each indexed one is
 * dropped.  IR_TRANSPOSE reverses shape and strides, or permutes them by its axes.  The view carries its base's memory
 * header (CG_DESC_MEMINFO, NULL for borrowed arrays): a view is a borrowed value of the same
 * memory, and a variable or result that keeps it counts a reference to that memory. */
static LLVMValueRef lower_view(CgLower *L, const IrInst *in, LLVMValueRef arr) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    const Type *at = in->args[0]->type, *rt = in->type;
    if (at->kind != TY_ARRAY || rt->kind != TY_ARRAY) {
        cg_error(L, in->loc, "bad array view");
        return NULL;
    }
    LLVMValueRef d = LLVMGetPoison(cg_reg_type(L->M, rt));
    LLVMValueRef sh = LLVMBuildExtractValue(B, d, 1, ""), st = LLVMBuildExtractValue(B, d, 2, "");
    LLVMValueRef off = LLVMConstNull(i64);
    int k = 1, r = 0;
    for (int dd = 0; dd < at->ndim; dd++) {
        LLVMValueRef stride = dim(L, arr, 2, (unsigned)dd), first;
        if (in->op == IR_TRANSPOSE && in->nargs > 1) {
            /* result dimension dd is dimension args[1 + dd] of arr (0..ndim-1, checked) */
            LLVMValueRef p = val(L, in, 1 + dd);
            if (!p)
                return NULL;
            LLVMValueRef e = dim(L, arr, 1, 0), s = dim(L, arr, 2, 0);
            for (int q = 1; q < at->ndim; q++) {
                LLVMValueRef is = LLVMBuildICmp(B, LLVMIntEQ, p, LLVMConstInt(i64, (unsigned)q, 0), "");
                e = LLVMBuildSelect(B, is, dim(L, arr, 1, (unsigned)q), e, "");
                s = LLVMBuildSelect(B, is, dim(L, arr, 2, (unsigned)q), s, "");
            }
            sh = LLVMBuildInsertValue(B, sh, e, (unsigned)dd, "");
            st = LLVMBuildInsertValue(B, st, s, (unsigned)dd, "");
            continue;
        }
        if (in->op == IR_TRANSPOSE) {
            sh = LLVMBuildInsertValue(B, sh, dim(L, arr, 1, (unsigned)dd), (unsigned)(at->ndim - 1 - dd), "");
            st = LLVMBuildInsertValue(B, st, stride, (unsigned)(at->ndim - 1 - dd), "");
            continue;
        }
        if ((in->imm.i >> dd) & 1) {
            LLVMValueRef len = k + 2 < in->nargs ? val(L, in, k + 1) : NULL;
            LLVMValueRef step = len ? val(L, in, k + 2) : NULL;
            if (!(first = len && step ? val(L, in, k) : NULL))
                return NULL;
            k += 3;
            sh = LLVMBuildInsertValue(B, sh, len, (unsigned)r, "");
            st = LLVMBuildInsertValue(B, st, LLVMBuildMul(B, stride, step, ""), (unsigned)r, "");
            r++;
        } else {
            if (!(first = k < in->nargs ? val(L, in, k) : NULL))
                return NULL;
            k++;
            LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, first, LLVMConstNull(i64), "");
            first = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, first, dim(L, arr, 1, (unsigned)dd), ""),
                                    first, "");
        }
        off = LLVMBuildAdd(B, off, LLVMBuildMul(B, first, stride, ""), "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(B, arr, 0, "");
    data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(L->M->ctx), data, &off, 1, "");
    d = LLVMBuildInsertValue(B, d, data, 0, "");
    d = LLVMBuildInsertValue(B, d, sh, 1, "");
    d = LLVMBuildInsertValue(B, d, st, 2, "");
    return LLVMBuildInsertValue(B, d, LLVMBuildExtractValue(B, arr, CG_DESC_MEMINFO, ""),
                                CG_DESC_MEMINFO, "");
}

/* IR_RESHAPE: arr's data and memory header with new extents and C strides. */
static LLVMValueRef lower_reshape(CgLower *L, const IrInst *in, LLVMValueRef arr) {
    LLVMBuilderRef B = L->b;
    const Type *rt = in->type;
    if (rt->kind != TY_ARRAY || in->nargs != 1 + rt->ndim) {
        cg_error(L, in->loc, "bad reshape");
        return NULL;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    LLVMValueRef d = LLVMGetPoison(cg_reg_type(L->M, rt));
    LLVMValueRef sh = LLVMBuildExtractValue(B, d, CG_DESC_SHAPE, "");
    LLVMValueRef st = LLVMBuildExtractValue(B, d, CG_DESC_STRIDES, "");
    LLVMValueRef stride = LLVMConstInt(i64, (unsigned long long)ty_size(rt->dtype), 0);
    for (int k = rt->ndim - 1; k >= 0; k--) {
        LLVMValueRef e = val(L, in, 1 + k);
        if (!e)
            return NULL;
        sh = LLVMBuildInsertValue(B, sh, e, (unsigned)k, "");
        st = LLVMBuildInsertValue(B, st, stride, (unsigned)k, "");
        stride = LLVMBuildMul(B, stride, e, "");
    }
    d = LLVMBuildInsertValue(B, d, LLVMBuildExtractValue(B, arr, CG_DESC_DATA, ""), CG_DESC_DATA, "");
    d = LLVMBuildInsertValue(B, d, sh, CG_DESC_SHAPE, "");
    d = LLVMBuildInsertValue(B, d, st, CG_DESC_STRIDES, "");
    return LLVMBuildInsertValue(B, d, LLVMBuildExtractValue(B, arr, CG_DESC_MEMINFO, ""),
                                CG_DESC_MEMINFO, "");
}

/* ---- calls ----------------------------------------------------------------------------------- */
static int func_index(const CgModule *M, const IrFunc *f) {
    for (int i = 0; i < M->prog->nfuncs; i++)
        if (M->prog->funcs[i] == f)
            return i;
    return -1;
}

/* Appends the ABI form of value v of type t, an argument of g, to out (arrays exploded). */
static int explode(CgLower *L, const IrFunc *g, const Type *t, LLVMValueRef v, LLVMValueRef *out) {
    if (t->kind != TY_ARRAY) {
        out[0] = v;
        return 1;
    }
    int n = 0;
    out[n++] = LLVMBuildExtractValue(L->b, v, 0, "");
    for (int d = 0; d < t->ndim; d++)
        out[n++] = dim(L, v, 1, (unsigned)d);
    for (int d = 0; d < t->ndim; d++)
        out[n++] = dim(L, v, 2, (unsigned)d);
    if (abi_meminfo(L->M, g))
        out[n++] = LLVMBuildExtractValue(L->b, v, CG_DESC_MEMINFO, "");
    return n;
}

/* Ends the current block returning status (i32): directly, or through an exit block that
 * releases the counted variables.  A `ret` goes to exit_bb, which reads the variables (SSA
 * values after mem2reg); every other exit (a raise, a callee's raise passed on, a failed alloc)
 * goes to raise_bb, which reads their shadow slots: volatile, so never promoted.  With one
 * shared block, each counted variable became a phi with an entry per raise site (a function
 * of n array expressions has O(n) of both): O(n^2) phi entries, and LLVM's register coalescer
 * took seconds on them. */
static void exit_to(CgLower *L, LLVMValueRef status, LLVMBasicBlockRef *bb, LLVMValueRef *phi,
                    const char *name) {
    LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
    if (!*bb) {
        *bb = new_bb(L, name);
        LLVMPositionBuilderAtEnd(L->b, *bb);
        *phi = LLVMBuildPhi(L->b, LLVMInt32TypeInContext(L->M->ctx), "status");
        LLVMPositionBuilderAtEnd(L->b, here);
    }
    LLVMAddIncoming(*phi, &status, &here, 1);
    LLVMBuildBr(L->b, *bb);
}

static void exit_with(CgLower *L, LLVMValueRef status) {
    if (!L->rc)
        LLVMBuildRet(L->b, status);
    else
        exit_to(L, status, &L->raise_bb, &L->raise_phi, "raise.exit");
}

static void exit_ret(CgLower *L, LLVMValueRef status) {
    if (!L->rc)
        LLVMBuildRet(L->b, status);
    else
        exit_to(L, status, &L->exit_bb, &L->exit_phi, "exit");
}

/* A raise (status, nonzero): to the handler of the block being lowered when a try covers it
 * (the except: IrBlock.handler), else out of the function. */
static void raise_with(CgLower *L, LLVMValueRef status) {
    if (L->blk && L->blk->handler) {
        LLVMBuildBr(L->b, L->bbs[L->blk->handler->id]);
        return;
    }
    exit_with(L, status);
}

/* The exit blocks' bodies: every counted variable released, then `ret status`. */
static void finish_exit(CgLower *L) {
    if (L->exit_bb) {
        LLVMPositionBuilderAtEnd(L->b, L->exit_bb);
        for (int v = 0; v < L->f->nvars; v++) {
            const Type *t = L->f->vars[v].type;
            if (L->vars[v] && ty_has_refs(t))
                cg_decref(L->M, L->b, t,
                          LLVMBuildLoad2(L->b, cg_reg_type(L->M, t), L->vars[v], ""));
        }
        LLVMBuildRet(L->b, L->exit_phi);
    }
    if (L->raise_bb) {
        LLVMPositionBuilderAtEnd(L->b, L->raise_bb);
        for (int v = 0; v < L->f->nvars; v++)
            if (L->shadow[v]) {
                const Type *t = L->f->vars[v].type;
                LLVMValueRef x = LLVMBuildLoad2(L->b, cg_reg_type(L->M, t), L->shadow[v], "");
                LLVMSetVolatile(x, true);
                cg_decref(L->M, L->b, t, x);
            }
        LLVMBuildRet(L->b, L->raise_phi);
    }
}

/* status == 0 → continue in a fresh block; else return it. */
static void propagate(CgLower *L, LLVMValueRef st) {
    LLVMBuilderRef B = L->b;
    LLVMBasicBlockRef raise = new_bb(L, "raise"), cont = new_bb(L, "ok");
    LLVMValueRef nz = LLVMBuildICmp(B, LLVMIntNE, st, LLVMConstNull(LLVMTypeOf(st)), "");
    LLVMBuildCondBr(B, nz, raise, cont);
    LLVMPositionBuilderAtEnd(B, raise);
    raise_with(L, st);
    LLVMPositionBuilderAtEnd(B, cont);
}

/* store/own/clear of variable k: the variable's old value is released after the new one is in
 * (store counts the new value up first, so storing a variable's own value is safe). */
static void lower_var_write(CgLower *L, const IrInst *in, LLVMValueRef v) {
    CgModule *M = L->M;
    const Type *t = L->f->vars[in->imm.index].type;
    LLVMValueRef slot = L->vars[in->imm.index];
    if (!L->rc || !ty_has_refs(t)) {
        if (in->op != IR_CLEAR)
            LLVMBuildStore(L->b, v, slot);
        return;
    }
    if (in->op == IR_STORE)
        cg_incref(M, L->b, t, v);
    LLVMValueRef old = LLVMBuildLoad2(L->b, cg_reg_type(M, t), slot, "");
    LLVMValueRef now = in->op == IR_CLEAR ? LLVMConstNull(cg_reg_type(M, t)) : v;
    LLVMBuildStore(L->b, now, slot);
    LLVMSetVolatile(LLVMBuildStore(L->b, now, L->shadow[in->imm.index]), true);
    cg_decref(M, L->b, t, old);
}

static LLVMValueRef lower_alloc(CgLower *L, const IrInst *in) {
    const Type *t = in->type;
    if (t->kind != TY_ARRAY || in->nargs != t->ndim || t->ndim > NJ_MAX_NDIM || !L->rc) {
        cg_error(L, in->loc, "bad alloc");
        return NULL;
    }
    LLVMValueRef dims[NJ_MAX_NDIM], failed;
    for (int d = 0; d < t->ndim; d++)
        if (!(dims[d] = val(L, in, d)))
            return NULL;
    LLVMValueRef desc = cg_alloc_array(L->M, L->b, t, dims, &failed);
    LLVMBasicBlockRef bad = new_bb(L, "alloc.fail"), ok = new_bb(L, "alloc.ok");
    LLVMBuildCondBr(L->b, failed, bad, ok);
    LLVMPositionBuilderAtEnd(L->b, bad);
    raise_with(L, LLVMConstInt(LLVMInt32TypeInContext(L->M->ctx), (unsigned long long)in->imm.index, 0));
    LLVMPositionBuilderAtEnd(L->b, ok);
    return desc;
}

static LLVMValueRef lower_call(CgLower *L, const IrInst *in) {
    CgModule *M = L->M;
    const IrFunc *g = in->imm.callee;
    int gi = g ? func_index(M, g) : -1;
    if (gi < 0 || in->nargs != g->nparams) {
        cg_error(L, in->loc, "call of a function outside the program or with wrong arity");
        return NULL;
    }
    int n = cg_abi_params(M, g, NULL);
    LLVMValueRef *args = malloc(sizeof *args * (size_t)n);
    if (!args) {
        cg_error(L, in->loc, "out of memory");
        return NULL;
    }
    LLVMValueRef slot = NULL;
    if (g->ret->kind == TY_VOID)
        args[0] = LLVMConstPointerNull(LLVMPointerTypeInContext(M->ctx, 0));
    else
        args[0] = slot = cg_entry_alloca(L, cg_mem_type(M, g->ret), "callret");
    int k = 1;
    for (int i = 0; i < in->nargs; i++) {
        LLVMValueRef v = val(L, in, i);
        if (!v) {
            free(args);
            return NULL;
        }
        k += explode(L, g, g->params[i], v, args + k);
    }
    LLVMValueRef st = LLVMBuildCall2(L->b, M->fntys[gi], M->fns[gi], args, (unsigned)k, "");
    free(args);
    propagate(L, st);
    if (!slot)
        return NULL;
    return cg_from_mem(M, L->b, g->ret, LLVMBuildLoad2(L->b, cg_mem_type(M, g->ret), slot, ""));
}

/* ---- for parfor.c --------------------------------------------------------------------------- */
LLVMValueRef cg_lower_val(CgLower *L, const IrInst *in, int k) { return val(L, in, k); }
LLVMBasicBlockRef cg_lower_new_bb(CgLower *L, const char *name) { return new_bb(L, name); }
int cg_lower_explode(CgLower *L, const IrFunc *g, const Type *t, LLVMValueRef v,
                     LLVMValueRef *out) {
    return explode(L, g, t, v, out);
}
void cg_lower_propagate(CgLower *L, LLVMValueRef status) { propagate(L, status); }
int cg_func_index(const CgModule *M, const IrFunc *f) { return func_index(M, f); }

/* ---- instructions ---------------------------------------------------------------------------- */
static bool lower_inst(CgLower *L, const IrInst *in) {
    CgModule *M = L->M;
    LLVMBuilderRef B = L->b;
    LLVMValueRef r = NULL, a = NULL, b = NULL;
    int fixed = ir_op_nargs[in->op];
    if (fixed >= 1 && in->nargs < fixed) {
        cg_error(L, in->loc, "'%s' needs %d operands", ir_op_name[in->op], fixed);
        return false;
    }
    if (fixed >= 1 && in->op != IR_SHAPE && in->op != IR_STRIDE && in->op != IR_EXTRACT &&
        !(a = val(L, in, 0)))
        return false;
    if (fixed >= 2 && !(b = val(L, in, 1)))
        return false;
    if (in->op == IR_ALOAD || in->op == IR_ASTORE || in->op == IR_ATOMIC) {
        if (in->nargs < 1) {
            cg_error(L, in->loc, "'%s' without an array", ir_op_name[in->op]);
            return false;
        }
        if (!(a = val(L, in, 0)))
            return false;
    }
    switch (in->op) {
    case IR_CONST:
        if (ty_is_float(in->type))
            r = LLVMConstReal(cg_reg_type(M, in->type), in->imm.f);
        else if (in->type->kind == TY_BOOL)
            r = LLVMConstInt(cg_reg_type(M, in->type), in->imm.i != 0, 0);
        else if (ty_is_int(in->type))
            r = LLVMConstInt(cg_reg_type(M, in->type), (unsigned long long)in->imm.i, 1);
        else if (in->type->kind == TY_STR)
            r = cg_str_const(M, in->imm.str ? in->imm.str : "");
        else
            cg_error(L, in->loc, "constant of type %s", in->type->name);
        break;
    case IR_PARAM:
        if (in->imm.index < 0 || in->imm.index >= L->f->nparams)
            cg_error(L, in->loc, "no parameter %d", in->imm.index);
        else
            r = L->params[in->imm.index];
        break;
    case IR_LOAD:
    case IR_STORE:
    case IR_OWN:
    case IR_CLEAR:
        if (in->imm.index < 0 || in->imm.index >= L->f->nvars || !L->vars[in->imm.index]) {
            cg_error(L, in->loc, "no variable %d", in->imm.index);
            break;
        }
        if (in->op == IR_LOAD)
            r = LLVMBuildLoad2(B, cg_reg_type(M, L->f->vars[in->imm.index].type),
                               L->vars[in->imm.index], "");
        else
            lower_var_write(L, in, a);
        break;
    case IR_ALLOC:
        r = lower_alloc(L, in);
        if (r)
            cg_scopes_alloc(L->scopes, B, in);
        break;
    case IR_LNEW: case IR_LLEN: case IR_LGET: case IR_LSET: case IR_LRESIZE:
        r = cg_lower_list(L, in);
        break;
    case IR_RGET: case IR_RSET: case IR_FIELDVIEW:
        r = cg_lower_record(L, in);
        break;
    case IR_DNEW: case IR_DLEN: case IR_DFIND: case IR_DINSERT: case IR_DKEY: case IR_DVALUE:
    case IR_DSETVALUE: case IR_DDELETE: case IR_DNEXT: case IR_DLAST: case IR_DCLEAR:
        r = cg_lower_dict(L, in);
        break;
    case IR_SNEW: case IR_SLEN: case IR_SFIND: case IR_SADD: case IR_SDISCARD: case IR_SKEY:
    case IR_SNEXT: case IR_SPOP: case IR_SCLEAR: case IR_SCOPY: case IR_SMERGE: case IR_SBINOP:
        r = cg_lower_set(L, in);
        break;
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_FLOORDIV: case IR_MOD:
    case IR_POW: case IR_BITAND: case IR_BITOR: case IR_BITXOR: case IR_SHL: case IR_SHR:
        r = binop(L, in, a, b);
        break;
    case IR_NEG:
        if (ty_is_float(in->type))
            r = cg_fm(L, LLVMBuildFNeg(B, a, ""));
        else
            r = LLVMBuildNeg(B, a, "");
        break;
    case IR_INVERT:
    case IR_NOT:
        r = LLVMBuildNot(B, a, "");
        break;
    case IR_CMP:
        r = compare(L, in, a, b);
        break;
    case IR_CAST: /* arrays: another layout or read-only, the same descriptor */
        r = in->type->kind == TY_ARRAY || in->type->kind == TY_LIST ||
                    in->type->kind == TY_DICT || in->type->kind == TY_SET
                ? a : cast(L, a, in->args[0]->type, in->type);
        break;
    case IR_SELECT: {
        LLVMValueRef c = val(L, in, 2);
        if (c)
            r = LLVMBuildSelect(B, a, b, c, "");
        break;
    }
    case IR_CALL:
        r = lower_call(L, in);
        break;
    case IR_MATH:
        r = lower_math(L, in);
        break;
    case IR_RANDOM:
        r = lower_random(L, in);
        break;
    case IR_RTCALL:
        r = lower_rtcall(L, in);
        break;
    case IR_CALLADDR:
        r = lower_calladdr(L, in);
        break;
    case IR_PRINT:
        cg_lower_print(L, in);
        break;
    case IR_SHAPE:
    case IR_STRIDE:
        if ((a = val(L, in, 0)))
            r = dim(L, a, in->op == IR_SHAPE ? 1 : 2, (unsigned)in->imm.index);
        break;
    case IR_ADDR:
        r = LLVMBuildPtrToInt(B, LLVMBuildExtractValue(B, a, 0, ""), LLVMInt64TypeInContext(M->ctx), "");
        break;
    case IR_VIEW:
    case IR_TRANSPOSE:
        if (in->nargs >= 1 && (a = val(L, in, 0)))
            r = lower_view(L, in, a);
        break;
    case IR_RESHAPE:
        if (in->nargs >= 1 && (a = val(L, in, 0)))
            r = lower_reshape(L, in, a);
        break;
    case IR_ALOAD:
    case IR_ASTORE: {
        const Type *at = in->args[0]->type;
        if (at->kind != TY_ARRAY) {
            cg_error(L, in->loc, "subscript of a non-array");
            break;
        }
        LLVMValueRef p = elem_addr(L, in, at, a);
        if (!p)
            break;
        if (at->dtype->kind == TY_RECORD) { /* the item's address: a record (record.c) */
            LLVMValueRef v = in->op == IR_ASTORE ? val(L, in, at->ndim + 1) : NULL;
            if (in->op == IR_ALOAD)
                r = p;
            else if (v) /* the record's bytes copied in (the same item: moved onto itself) */
                LLVMBuildMemMove(B, p, 1, v, 1, LLVMConstInt(LLVMInt64TypeInContext(M->ctx),
                                                             (unsigned long long)at->dtype->rsize, 0));
            break;
        }
        LLVMTypeRef ET = cg_mem_type(M, at->dtype);
        LLVMValueRef mem;
        if (in->op == IR_ALOAD) {
            mem = LLVMBuildLoad2(B, ET, p, "");
            r = cg_from_mem(M, B, at->dtype, mem);
        } else {
            if (in->nargs != at->ndim + 2) {
                cg_error(L, in->loc, "bad array store");
                break;
            }
            LLVMValueRef v = val(L, in, at->ndim + 1);
            if (!v)
                break;
            mem = LLVMBuildStore(B, cg_to_mem(M, B, at->dtype, v), p);
        }
        cg_scopes_access(L->scopes, in, mem, L->cur_block, L->cur_pos);
        LLVMSetAlignment(mem, (unsigned)ty_size(at->dtype));
        break;
    }
    case IR_TUPLE:
        r = LLVMGetPoison(cg_reg_type(M, in->type));
        for (int k = 0; k < in->nargs && r; k++) {
            LLVMValueRef e = val(L, in, k);
            r = e ? LLVMBuildInsertValue(B, r, e, (unsigned)k, "") : NULL;
        }
        break;
    case IR_EXTRACT:
    case IR_CPART:
        if ((a = val(L, in, 0)))
            r = LLVMBuildExtractValue(B, a, (unsigned)in->imm.index, "");
        break;
    case IR_CPARTVIEW: /* the same descriptor (its fields do not depend on the dtype), moved */
        if ((a = val(L, in, 0))) {
            LLVMValueRef data = LLVMBuildExtractValue(B, a, 0, "");
            LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(M->ctx),
                                            (unsigned long long)(in->imm.index *
                                                                 ty_size(in->type->dtype)), 0);
            data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(M->ctx), data, &off, 1, "");
            r = LLVMBuildInsertValue(B, a, data, 0, "");
        }
        break;
    case IR_COMPLEX: {
        LLVMValueRef re = val(L, in, 0), im = re ? val(L, in, 1) : NULL;
        if (im)
            r = LLVMBuildInsertValue(B, LLVMBuildInsertValue(B, LLVMGetPoison(cg_reg_type(M, in->type)),
                                                             re, 0, ""),
                                     im, 1, "");
        break;
    }
    case IR_BR:
    case IR_CONDBR: {
        int nt = in->op == IR_BR ? 1 : 2;
        for (int k = 0; k < nt; k++)
            if (in->imm.targets[k] < 0 || in->imm.targets[k] >= L->f->nblocks) {
                cg_error(L, in->loc, "branch to a missing block");
                return false;
            }
        if (in->op == IR_BR)
            LLVMBuildBr(B, L->bbs[in->imm.targets[0]]);
        else
            LLVMBuildCondBr(B, a, L->bbs[in->imm.targets[0]], L->bbs[in->imm.targets[1]]);
        break;
    }
    case IR_RET:
        if (in->nargs == 1 && L->f->ret->kind != TY_VOID) {
            LLVMValueRef v = val(L, in, 0);
            if (!v)
                break;
            if (L->rc) /* the caller's reference */
                cg_incref(M, B, L->f->ret, v);
            LLVMBuildStore(B, cg_to_mem(M, B, L->f->ret, v), L->ret_ptr);
        }
        exit_ret(L, LLVMConstInt(LLVMInt32TypeInContext(M->ctx), 0, 0));
        break;
    case IR_RAISE:
        raise_with(L, LLVMConstInt(LLVMInt32TypeInContext(M->ctx), (unsigned long long)in->imm.index, 0));
        break;
    case IR_PARFOR:
        r = cg_lower_parfor(L, in);
        break;
    case IR_SREG:
        r = M->target->sreg(L, in);
        break;
    case IR_BARRIER:
    case IR_FENCE:
        M->target->barrier(L, in);
        break;
    case IR_ATOMIC: {
        const Type *at = in->args[0]->type;
        int nv = in->imm.index == ATOM_CAS ? 2 : 1;
        if (at->kind != TY_ARRAY || in->nargs != at->ndim + 1 + nv) {
            cg_error(L, in->loc, "bad atomic operation");
            break;
        }
        LLVMValueRef p = elem_addr(L, in, at, a);
        LLVMValueRef v0 = val(L, in, at->ndim + 1);
        LLVMValueRef v1 = nv == 2 ? val(L, in, at->ndim + 2) : NULL;
        if (!p || !v0 || (nv == 2 && !v1))
            break;
        r = M->target->atomic(L, in, p, cg_mem_type(M, at->dtype), v0, v1);
        if (r)
            r = cg_from_mem(M, B, at->dtype, r);
        break;
    }
    case IR_CUDA: {
        LLVMValueRef args[4] = {NULL};
        if (in->imm.index < 0 || in->imm.index >= CU__COUNT || in->nargs > 4 ||
            in->nargs != ir_cuda[in->imm.index].nargs) {
            cg_error(L, in->loc, "bad CUDA intrinsic");
            break;
        }
        for (int k = 0; k < in->nargs; k++)
            if (!(args[k] = val(L, in, k)))
                return false;
        r = M->target->cuda(L, in, args);
        break;
    }
    case IR_SHARED:
    case IR_LOCAL: {
        const Type *at = in->type;
        if (at->kind != TY_ARRAY || at->ndim < 1 || at->ndim > 3) {
            cg_error(L, in->loc, "bad static array type");
            break;
        }
        int64_t n; /* checked: IR text may carry any extents */
        if (nj_byte_size(at->ndim, in->imm.dims, ty_size(at->dtype), &n) != NJ_SIZE_OK) {
            cg_error(L, in->loc, "a static array larger than INT64_MAX bytes");
            break;
        }
        LLVMValueRef data = M->target->static_array(L, in, n);
        if (data)
            r = static_desc(L, at, data, in->imm.dims);
        break;
    }
    default:
        cg_error(L, in->loc, "unknown instruction %d", (int)in->op);
    }
    if (L->failed)
        return false;
    if (in->id >= 0) {
        if (!r) {
            cg_error(L, in->loc, "'%s' produced no value", ir_op_name[in->op]);
            return false;
        }
        L->vals[in->id] = r;
    }
    return true;
}

/* ---- functions --------------------------------------------------------------------------------- */
static void rpo_visit(const IrFunc *f, int b, char *seen, int *order, int *n) {
    seen[b] = 1;
    const IrInst *t = f->blocks[b]->last;
    if (t && (t->op == IR_BR || t->op == IR_CONDBR)) {
        /* visit the false edge first so the true edge (loop bodies, then-branches) comes first */
        for (int k = t->op == IR_CONDBR ? 1 : 0; k >= 0; k--) {
            int s = t->imm.targets[k];
            if (s >= 0 && s < f->nblocks && !seen[s])
                rpo_visit(f, s, seen, order, n);
        }
    }
    const IrBlock *h = f->blocks[b]->handler; /* where its raises go */
    if (h && h->id < f->nblocks && !seen[h->id])
        rpo_visit(f, h->id, seen, order, n);
    order[(*n)++] = b;
}

static bool allocates(const IrFunc *f) {
    for (int b = 0; b < f->nblocks; b++)
        for (const IrInst *in = f->blocks[b] ? f->blocks[b]->first : NULL; in; in = in->next)
            if (in->op == IR_ALLOC)
                return true;
    return false;
}

static bool lower_func(CgModule *M, int fi) {
    const IrFunc *f = M->prog->funcs[fi];
    CgLower Ls = {.M = M, .f = f, .fn = M->fns[fi]}, *L = &Ls;
    size_t nb = (size_t)f->nblocks;
    L->b = LLVMCreateBuilderInContext(M->ctx);
    L->bbs = calloc(nb + 1, sizeof *L->bbs);
    L->vals = calloc((size_t)f->next_id + 1, sizeof *L->vals);
    L->vars = calloc((size_t)f->nvars + 1, sizeof *L->vars);
    L->shadow = calloc((size_t)f->nvars + 1, sizeof *L->shadow);
    L->params = calloc((size_t)f->nparams + 1, sizeof *L->params);
    char *seen = calloc(nb + 1, 1);
    int *order = calloc(nb + 1, sizeof *order);
    int norder = 0;
    if (!L->bbs || !L->vals || !L->vars || !L->shadow || !L->params || !seen || !order) {
        cg_error(L, f->loc, "out of memory");
        goto done;
    }
    if (nb == 0) {
        cg_error(L, f->loc, "function has no blocks");
        goto done;
    }
    L->entry = LLVMAppendBasicBlockInContext(M->ctx, L->fn, "entry");
    for (size_t i = 0; i < nb; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%zu", i);
        L->bbs[i] = LLVMAppendBasicBlockInContext(M->ctx, L->fn, name);
    }
    /* prologue: variables, %ret, parameters (arrays rebuilt into descriptors) */
    LLVMPositionBuilderAtEnd(L->b, L->entry);
    for (int v = 0; v < f->nvars; v++)
        if (f->vars[v].type->kind != TY_RANGE && f->vars[v].type->kind != TY_VOID) {
            LLVMTypeRef T = cg_reg_type(M, f->vars[v].type);
            L->vars[v] = LLVMBuildAlloca(L->b, T, f->vars[v].name);
            if (M->prog->target == TARGET_CPU && ty_has_refs(f->vars[v].type)) {
                L->rc = true; /* counted: starts empty */
                LLVMBuildStore(L->b, LLVMConstNull(T), L->vars[v]);
                L->shadow[v] = LLVMBuildAlloca(L->b, T, "");
                LLVMSetVolatile(LLVMBuildStore(L->b, LLVMConstNull(T), L->shadow[v]), true);
            }
        }
    if (M->prog->target == TARGET_CPU && allocates(f))
        L->scopes = cg_scopes_new(M, f); /* NULL when out of memory: no metadata, still right */
    L->ret_ptr = LLVMGetParam(L->fn, 0);
    LLVMSetValueName2(L->ret_ptr, "ret", 3);
    unsigned pi = 1;
    for (int k = 0; k < f->nparams; k++) {
        const Type *t = f->params[k];
        const char *pname = f->param_names && f->param_names[k] ? f->param_names[k] : "";
        LLVMValueRef p = LLVMGetParam(L->fn, pi++);
        LLVMSetValueName2(p, pname, strlen(pname));
        if (t->kind != TY_ARRAY) {
            L->params[k] = p;
            continue;
        }
        LLVMValueRef d = LLVMBuildInsertValue(L->b, LLVMGetPoison(cg_reg_type(M, t)), p, 0, "");
        for (unsigned field = 1; field <= 2; field++) {
            LLVMValueRef arr = LLVMGetPoison(LLVMArrayType2(LLVMInt64TypeInContext(M->ctx), (uint64_t)t->ndim));
            for (int dd = 0; dd < t->ndim; dd++)
                arr = LLVMBuildInsertValue(L->b, arr, LLVMGetParam(L->fn, pi++), (unsigned)dd, "");
            d = LLVMBuildInsertValue(L->b, d, arr, field, "");
        }
        LLVMValueRef mi = abi_meminfo(M, f) ? LLVMGetParam(L->fn, pi++)
                                            : LLVMConstPointerNull(LLVMPointerTypeInContext(M->ctx, 0));
        L->params[k] = LLVMBuildInsertValue(L->b, d, mi, CG_DESC_MEMINFO, "");
    }
    LLVMBuildBr(L->b, L->bbs[0]);

    rpo_visit(f, 0, seen, order, &norder);
    for (int i = norder - 1; i >= 0 && !L->failed; i--) {
        const IrBlock *blk = f->blocks[order[i]];
        L->blk = blk;
        LLVMPositionBuilderAtEnd(L->b, L->bbs[order[i]]);
        if (!ir_block_terminated(blk)) {
            cg_error(L, f->loc, "block b%d has no terminator", blk->id);
            break;
        }
        L->cur_block = order[i];
        L->cur_pos = 0;
        for (const IrInst *in = blk->first; in && !L->failed; in = in->next, L->cur_pos++) {
            lower_inst(L, in);
            if (in == blk->last)
                break;
        }
    }
    for (size_t i = 0; i < nb && !L->failed; i++)
        if (!seen[i]) {
            LLVMPositionBuilderAtEnd(L->b, L->bbs[i]);
            LLVMBuildUnreachable(L->b);
        }
    if (!L->failed)
        finish_exit(L);
    if (!L->failed && M->target->func_attrs)
        M->target->func_attrs(M, f, L->fn);
done:
    LLVMDisposeBuilder(L->b);
    free(L->bbs);
    free(L->vals);
    free(L->vars);
    free(L->shadow);
    free(L->params);
    cg_scopes_free(L->scopes);
    free(seen);
    free(order);
    return !L->failed;
}

bool cg_lower_program(CgModule *M) {
    const IrProgram *p = M->prog;
    M->fns = calloc((size_t)p->nfuncs + 1, sizeof *M->fns);
    M->fntys = calloc((size_t)p->nfuncs + 1, sizeof *M->fntys);
    if (!M->fns || !M->fntys) {
        cg_module_error(M, "out of memory");
        return false;
    }
    for (int i = 0; i < p->nfuncs; i++) {
        const IrFunc *f = p->funcs[i];
        int n = cg_abi_params(M, f, NULL);
        LLVMTypeRef *pt = malloc(sizeof *pt * (size_t)n);
        if (!pt) {
            cg_module_error(M, "out of memory");
            return false;
        }
        cg_abi_params(M, f, pt);
        M->fntys[i] = LLVMFunctionType(LLVMInt32TypeInContext(M->ctx), pt, (unsigned)n, false);
        free(pt);
        M->fns[i] = LLVMAddFunction(M->mod, f->mangled ? f->mangled : f->name, M->fntys[i]);
        LLVMSetLinkage(M->fns[i], LLVMInternalLinkage);
        cg_add_fn_attr(M, M->fns[i], "nounwind");
    }
    for (int i = 0; i < p->nfuncs; i++)
        if (!lower_func(M, i))
            return false;
    return true;
}

void cg_module_dispose(CgModule *M) {
    free(M->fns);
    free(M->fntys);
    free(M->err);
    M->fns = NULL;
    M->fntys = NULL;
    M->err = NULL;
}

bool cg_verify(CgModule *M) {
    char *msg = NULL;
    if (!LLVMVerifyModule(M->mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    const char *fname = "?";
    for (LLVMValueRef fn = LLVMGetFirstFunction(M->mod); fn; fn = LLVMGetNextFunction(fn))
        if (LLVMCountBasicBlocks(fn) && LLVMVerifyFunction(fn, LLVMReturnStatusAction)) {
            size_t len;
            fname = LLVMGetValueName2(fn, &len);
            break;
        }
    cg_module_error(M, "internal error: LLVM rejects the lowered function '%s': %s", fname,
                    msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
}

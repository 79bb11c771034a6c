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
 * The expansions of arithmetic are in lower_arith.c, the ops that call out (runtime, math,
 * random, by address) in lower_lib.c, element addresses, views and reshapes in lower_array.c.
 * Target differences (math symbols, GPU registers, barriers, atomics, static arrays, address
 * spaces) go through the CgTarget hooks.
 */
#include "cg_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

LLVMValueRef cg_call_intr(CgLower *L, const char *name, LLVMTypeRef t, LLVMValueRef *args,
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

LLVMValueRef cg_lower_cast(CgLower *L, LLVMValueRef v, const Type *from, const Type *to) {
    LLVMValueRef r = cg_convert(L->M, L->b, v, from, to);
    if (!r)
        cg_error(L, L->f->loc, "cannot convert %s to %s", from->name, to->name);
    return r;
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
        out[n++] = cg_lower_dim(L, v, 1, (unsigned)d);
    for (int d = 0; d < t->ndim; d++)
        out[n++] = cg_lower_dim(L, v, 2, (unsigned)d);
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
    if (!L->rc && !L->f->yield)
        LLVMBuildRet(L->b, status);
    else
        exit_to(L, status, &L->raise_bb, &L->raise_phi, "raise.exit");
}

static void exit_ret(CgLower *L, LLVMValueRef status) {
    if (!L->rc && !L->f->yield)
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
            if (L->vars[v] && ty_has_refs(t) && !L->borrowed[v])
                cg_decref(L->M, L->b, t,
                          LLVMBuildLoad2(L->b, cg_reg_type(L->M, t), L->vars[v], ""));
        }
        if (L->f->yield)
            cg_genobj_final(L, L->exit_phi);
        else
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
        if (L->f->yield)
            cg_genobj_final(L, L->raise_phi);
        else
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
    if (!L->rc || !ty_has_refs(t) || L->borrowed[in->imm.index]) {
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
    case IR_NEWREC: {
        LLVMValueRef failed;
        r = L->rc ? cg_lower_newrec(L, in, &failed) : NULL;
        if (!r) {
            cg_error(L, in->loc, "bad newrec");
            break;
        }
        LLVMBasicBlockRef bad = new_bb(L, "newrec.fail"), ok = new_bb(L, "newrec.ok");
        LLVMBuildCondBr(B, failed, bad, ok);
        LLVMPositionBuilderAtEnd(B, bad);
        raise_with(L, LLVMConstInt(LLVMInt32TypeInContext(M->ctx),
                                   (unsigned long long)in->imm.index, 0));
        LLVMPositionBuilderAtEnd(B, ok);
        break;
    }
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
        r = cg_lower_binop(L, in, a, b);
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
        r = cg_lower_compare(L, in, a, b);
        break;
    case IR_CAST: /* arrays: another layout or read-only, the same descriptor */
        r = in->type->kind == TY_ARRAY || in->type->kind == TY_LIST ||
                    in->type->kind == TY_DICT || in->type->kind == TY_SET
                ? a : cg_lower_cast(L, a, in->args[0]->type, in->type);
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
        r = cg_lower_math(L, in);
        break;
    case IR_RANDOM:
        r = cg_lower_random(L, in);
        break;
    case IR_RTCALL:
        r = cg_lower_rtcall(L, in);
        break;
    case IR_CALLADDR:
        r = cg_lower_calladdr(L, in);
        break;
    case IR_PRINT:
        cg_lower_print(L, in);
        break;
    case IR_SHAPE:
    case IR_STRIDE:
        if ((a = val(L, in, 0)))
            r = cg_lower_dim(L, a, in->op == IR_SHAPE ? 1 : 2, (unsigned)in->imm.index);
        break;
    case IR_ADDR:
        r = LLVMBuildPtrToInt(B, LLVMBuildExtractValue(B, a, 0, ""), LLVMInt64TypeInContext(M->ctx), "");
        break;
    case IR_VIEW:
    case IR_TRANSPOSE:
        if (in->nargs >= 1 && (a = val(L, in, 0)))
            r = cg_lower_view(L, in, a);
        break;
    case IR_RESHAPE:
        if (in->nargs >= 1 && (a = val(L, in, 0)))
            r = cg_lower_reshape(L, in, a);
        break;
    case IR_ADDRARRAY:
        r = cg_lower_reshape(L, in, NULL);
        break;
    case IR_RAWVIEW:
        r = cg_lower_rawview(L, in);
        break;
    case IR_ALOAD:
    case IR_ASTORE: {
        const Type *at = in->args[0]->type;
        if (at->kind != TY_ARRAY) {
            cg_error(L, in->loc, "subscript of a non-array");
            break;
        }
        LLVMValueRef p = cg_lower_elem_addr(L, in, at, a);
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
    case IR_YIELD:
        if (!L->f->yield || L->M->prog->target != TARGET_CPU) {
            cg_error(L, in->loc, "'yield' outside a generator compiled for the CPU");
            break;
        }
        cg_genobj_yield(L, a);
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
        LLVMValueRef p = cg_lower_elem_addr(L, in, at, a);
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
            r = cg_lower_static_desc(L, at, data, in->imm.dims);
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
    L->borrowed = cg_borrowed_vars(f);
    L->params = calloc((size_t)f->nparams + 1, sizeof *L->params);
    char *seen = calloc(nb + 1, 1);
    int *order = calloc(nb + 1, sizeof *order);
    int norder = 0;
    if (!L->bbs || !L->vals || !L->vars || !L->shadow || !L->borrowed || !L->params || !seen ||
        !order) {
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
            if (M->prog->target == TARGET_CPU && ty_has_refs(f->vars[v].type))
                L->rc = true; /* counting on: `ret` gives the caller a new reference */
            if (M->prog->target == TARGET_CPU && ty_has_refs(f->vars[v].type) &&
                !L->borrowed[v]) { /* counted: starts empty */
                LLVMBuildStore(L->b, LLVMConstNull(T), L->vars[v]);
                L->shadow[v] = LLVMBuildAlloca(L->b, T, "");
                LLVMSetVolatile(LLVMBuildStore(L->b, LLVMConstNull(T), L->shadow[v]), true);
            }
        }
    if (M->prog->target == TARGET_CPU && allocates(f))
        L->scopes = cg_scopes_new(M, f); /* NULL when out of memory: no metadata, still right */
    if (f->yield) /* a generator: a coroutine whose frame holds the variables (genobj.c) */
        cg_genobj_begin(L);
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
    if (f->yield)
        cg_genobj_start(L, L->bbs[0]);
    else
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
    if (!L->failed && f->yield)
        cg_genobj_finish(L);
    if (!L->failed && M->target->func_attrs)
        M->target->func_attrs(M, f, L->fn);
done:
    LLVMDisposeBuilder(L->b);
    free(L->bbs);
    free(L->vals);
    free(L->vars);
    free(L->shadow);
    free(L->borrowed);
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

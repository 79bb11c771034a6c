/* nvptx_intrin.c — the NVPTX lowering of the IR op `cuda`: the numba-cuda intrinsics of
 * ir/cuda.def, each as the NVVM or generic LLVM intrinsic that numba-cuda itself emits.
 *
 *   shfl_sync / shfl_up_sync / shfl_down_sync / shfl_xor_sync
 *                    llvm.nvvm.shfl.sync.{idx,up,down,bfly}.i32 (mask, value, lane, c) with
 *                    c = 0x1f (clamp at lane 31) except for up, where c = 0 (clamp at lane 0),
 *                    as numba-cuda passes them.  Floats move as their bits; a 64-bit value as two
 *                    32-bit shuffles of its low and high halves, put back together.
 *   all_sync / any_sync / eq_sync / ballot_sync
 *                    llvm.nvvm.vote.{all,any,uni,ballot}.sync (mask, i1 predicate)
 *   match_any_sync / match_all_sync
 *                    llvm.nvvm.match.{any.sync.iN, all.sync.iNp}; floats as their bits
 *   syncwarp         llvm.nvvm.bar.warp.sync (mask)
 *   activemask, lanemask_lt
 *                    llvm.nvvm.activemask, llvm.nvvm.read.ptx.sreg.lanemask.lt
 *   syncthreads_count / _and / _or
 *                    llvm.nvvm.barrier0.{popc,and,or} (bar.red over the block)
 *   threadfence_block / _system
 *                    llvm.nvvm.membar.{cta,sys}
 *   popc, clz, brev  llvm.ctpop, llvm.ctlz (zero input defined: the width), llvm.bitreverse
 *   ffs              1 + llvm.cttz, 0 for 0 (libdevice's __nv_ffs/__nv_ffsll), as uint32
 *   fma              llvm.fma (fma.rn); cbrt: libdevice __nv_cbrtf / __nv_cbrt
 *
 * Operands arrive already converted by the typer (masks and lanes int32, predicates bool), so
 * the lowering never converts except between a float and its bits.
 */
#include "cg_internal.h"

#include <stdio.h>
#include <string.h>

/* A call of the non-overloaded intrinsic `name`; NULL with an error when LLVM lacks it. */
static LLVMValueRef call_intr(CgLower *L, const IrInst *in, const char *name, LLVMValueRef *args,
                              unsigned n) {
    CgModule *M = cg_lower_module(L);
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id) {
        cg_error(L, in->loc, "LLVM does not know the intrinsic %s", name);
        return NULL;
    }
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(M->mod, id, NULL, 0);
    return LLVMBuildCall2(cg_lower_builder(L), LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* A call of the overloaded intrinsic `name` for type t (llvm.ctpop, llvm.fma ...). */
static LLVMValueRef call_overloaded(CgLower *L, const IrInst *in, const char *name,
                                    LLVMTypeRef t, LLVMValueRef *args, unsigned n) {
    LLVMTypeRef fty;
    LLVMValueRef fn = cg_intrinsic(cg_lower_module(L), name, t, &fty);
    if (!fn) {
        cg_error(L, in->loc, "LLVM does not know the intrinsic %s", name);
        return NULL;
    }
    return LLVMBuildCall2(cg_lower_builder(L), fty, fn, args, n, "");
}

static LLVMValueRef i32c(CgModule *M, unsigned long long v) {
    return LLVMConstInt(LLVMInt32TypeInContext(M->ctx), v, 0);
}

/* One 32-bit shuffle: element 0 of the intrinsic's result. */
static LLVMValueRef shfl32(CgLower *L, const IrInst *in, const char *name, LLVMValueRef mask,
                           LLVMValueRef v, LLVMValueRef lane, LLVMValueRef c) {
    LLVMValueRef args[4] = {mask, v, lane, c};
    return call_intr(L, in, name, args, 4);
}

static LLVMValueRef lower_shfl(CgLower *L, const IrInst *in, LLVMValueRef *a) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    static const char *const mode[] = {
        [CU_SHFL_SYNC] = "idx", [CU_SHFL_UP_SYNC] = "up", [CU_SHFL_DOWN_SYNC] = "down",
        [CU_SHFL_XOR_SYNC] = "bfly"};
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.i32", mode[in->imm.index]);
    LLVMValueRef c = i32c(M, in->imm.index == CU_SHFL_UP_SYNC ? 0 : 0x1f);
    const Type *t = in->type;
    int bits = ty_bits(t);
    LLVMTypeRef IT = LLVMIntTypeInContext(M->ctx, (unsigned)bits);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(M->ctx), i64 = LLVMInt64TypeInContext(M->ctx);
    LLVMValueRef v = ty_is_float(t) ? LLVMBuildBitCast(B, a[1], IT, "") : a[1];
    LLVMValueRef r;
    if (bits == 32) {
        r = shfl32(L, in, name, a[0], v, a[2], c);
    } else {
        LLVMValueRef lo = LLVMBuildTrunc(B, v, i32, "");
        LLVMValueRef k32 = LLVMConstInt(i64, 32, 0);
        LLVMValueRef hi = LLVMBuildTrunc(B, LLVMBuildLShr(B, v, k32, ""), i32, "");
        LLVMValueRef rlo = shfl32(L, in, name, a[0], lo, a[2], c);
        LLVMValueRef rhi = shfl32(L, in, name, a[0], hi, a[2], c);
        if (!rlo || !rhi)
            return NULL;
        r = LLVMBuildOr(B, LLVMBuildShl(B, LLVMBuildZExt(B, rhi, i64, ""), k32, ""),
                        LLVMBuildZExt(B, rlo, i64, ""), "");
    }
    if (!r)
        return NULL;
    return ty_is_float(t) ? LLVMBuildBitCast(B, r, cg_reg_type(M, t), "") : r;
}

static LLVMValueRef lower_match(CgLower *L, const IrInst *in, LLVMValueRef *a) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    const Type *vt = in->args[1]->type;
    int bits = ty_bits(vt);
    LLVMValueRef v = a[1];
    if (ty_is_float(vt))
        v = LLVMBuildBitCast(B, v, LLVMIntTypeInContext(M->ctx, (unsigned)bits), "");
    bool any = in->imm.index == CU_MATCH_ANY_SYNC;
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.match.%s.sync.i%d%s", any ? "any" : "all", bits,
             any ? "" : "p");
    LLVMValueRef args[2] = {a[0], v};
    LLVMValueRef r = call_intr(L, in, name, args, 2);
    if (!r || any)
        return r;
    /* {i32, i1} of the intrinsic → the tuple's own struct type */
    LLVMValueRef t = LLVMGetPoison(cg_reg_type(M, in->type));
    t = LLVMBuildInsertValue(B, t, LLVMBuildExtractValue(B, r, 0, ""), 0, "");
    return LLVMBuildInsertValue(B, t, LLVMBuildExtractValue(B, r, 1, ""), 1, "");
}

static LLVMValueRef lower_ffs(CgLower *L, const IrInst *in, LLVMValueRef x) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(M->ctx);
    if (ty_bits(in->args[0]->type) < 32) /* the lowest set bit is the same in any extension */
        x = LLVMBuildZExt(B, x, i32, "");
    LLVMTypeRef T = LLVMTypeOf(x);
    LLVMValueRef args[2] = {x, LLVMConstInt(LLVMInt1TypeInContext(M->ctx), 1, 0)};
    LLVMValueRef tz = call_overloaded(L, in, "llvm.cttz", T, args, 2);
    if (!tz)
        return NULL;
    LLVMValueRef one = LLVMBuildAdd(B, LLVMBuildTrunc(B, tz, i32, ""), i32c(M, 1), "");
    LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, x, LLVMConstNull(T), "");
    return LLVMBuildSelect(B, zero, i32c(M, 0), one, "");
}

LLVMValueRef cg_nvptx_cuda(CgLower *L, const IrInst *in, LLVMValueRef *a) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef T = in->type->kind == TY_VOID ? NULL : cg_reg_type(M, in->type);
    switch ((CudaFn)in->imm.index) {
    case CU_SHFL_SYNC:
    case CU_SHFL_UP_SYNC:
    case CU_SHFL_DOWN_SYNC:
    case CU_SHFL_XOR_SYNC:
        return lower_shfl(L, in, a);
    case CU_ALL_SYNC: return call_intr(L, in, "llvm.nvvm.vote.all.sync", a, 2);
    case CU_ANY_SYNC: return call_intr(L, in, "llvm.nvvm.vote.any.sync", a, 2);
    case CU_EQ_SYNC: return call_intr(L, in, "llvm.nvvm.vote.uni.sync", a, 2);
    case CU_BALLOT_SYNC: return call_intr(L, in, "llvm.nvvm.vote.ballot.sync", a, 2);
    case CU_MATCH_ANY_SYNC:
    case CU_MATCH_ALL_SYNC:
        return lower_match(L, in, a);
    case CU_SYNCWARP: return call_intr(L, in, "llvm.nvvm.bar.warp.sync", a, 1);
    case CU_ACTIVEMASK: return call_intr(L, in, "llvm.nvvm.activemask", NULL, 0);
    case CU_LANEMASK_LT: return call_intr(L, in, "llvm.nvvm.read.ptx.sreg.lanemask.lt", NULL, 0);
    case CU_SYNCTHREADS_COUNT: return call_intr(L, in, "llvm.nvvm.barrier0.popc", a, 1);
    case CU_SYNCTHREADS_AND: return call_intr(L, in, "llvm.nvvm.barrier0.and", a, 1);
    case CU_SYNCTHREADS_OR: return call_intr(L, in, "llvm.nvvm.barrier0.or", a, 1);
    case CU_THREADFENCE_BLOCK: return call_intr(L, in, "llvm.nvvm.membar.cta", NULL, 0);
    case CU_THREADFENCE_SYSTEM: return call_intr(L, in, "llvm.nvvm.membar.sys", NULL, 0);
    case CU_POPC: return call_overloaded(L, in, "llvm.ctpop", T, a, 1);
    case CU_BREV: return call_overloaded(L, in, "llvm.bitreverse", T, a, 1);
    case CU_CLZ: {
        LLVMValueRef args[2] = {a[0], LLVMConstInt(LLVMInt1TypeInContext(M->ctx), 0, 0)};
        return call_overloaded(L, in, "llvm.ctlz", T, args, 2);
    }
    case CU_FFS: return lower_ffs(L, in, a[0]);
    case CU_FMA: return cg_fm(L, call_overloaded(L, in, "llvm.fma", T, a, 3));
    case CU_CBRT: {
        const char *sym = in->type->kind == TY_F32 ? "__nv_cbrtf" : "__nv_cbrt";
        LLVMValueRef fn = cg_declare_pure(M, sym, T, &T, 1);
        return cg_fm(L, LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, a, 1, ""));
    }
    case CU__COUNT:
        break;
    }
    cg_error(L, in->loc, "unknown CUDA intrinsic %d", in->imm.index);
    return NULL;
}

/* nvptx.c — the NVPTX target: CgTarget hooks for GPU code, and the kernel entry wrappers.
 *
 * Hooks (called by lower.c while it lowers each IrFunc):
 *   address spaces   global data 1, shared 3, local 5, generic 0 (Type.addrspace maps 1:1);
 *   math             libdevice `__nv_*` calls (stdlib/math.def's nv64/nv32 columns); fabs, floor,
 *                    ceil, trunc, rint, sqrt and copysign as llvm intrinsics, which the backend
 *                    selects natively; with fastmath, float32 sin/cos/tan/exp/log/log2/log10/pow
 *                    take libdevice's __nv_fast_* approximations (never __nv_fast_tanhf: LLVM 19
 *                    does not know the intrinsic it uses);
 *   special regs     llvm.nvvm.read.ptx.sreg.* (i32) zero-extended to i64;
 *   barrier, fence   llvm.nvvm.barrier0 (bar.sync 0), llvm.nvvm.membar.gl;
 *   atomics          atomicrmw add/sub/max/min/xchg/and/or/xor/uinc_wrap/udec_wrap and cmpxchg,
 *                    monotonic ordering (CUDA's atomicAdd & co. are relaxed); float add is
 *                    `atomicrmw fadd`, float sub adds the negation (both native
 *                    atom.add.f32/.f64); float max/min keep numba-cuda's rule (a NaN value or a
 *                    NaN already stored leaves the element alone) with a CAS loop, float
 *                    nanmax/nanmin are `atomicrmw fmax/fmin` (maxnum/minnum: a NaN value is
 *                    ignored, a stored NaN replaced); integer max/min/nanmax/nanmin are signed or
 *                    unsigned by the array's dtype; inc/dec are CUDA's atomicInc/atomicDec
 *                    (`atomicrmw uinc_wrap/udec_wrap`, which LLVM 19 expands to a CAS loop);
 *                    cas on floats compares and swaps the bit pattern;
 *   static arrays    cuda.shared.array → an internal addrspace(3) global per call site (shape 0:
 *                    the one external dynamic shared memory symbol), cuda.local.array → an
 *                    alloca in the entry block cast to addrspace(5).
 *
 * Kernel ABI.  lower.c gives every IrFunc the internal ABI `i32 @mangled(ptr %ret, params...)`.
 * cg_nvptx_finish adds, for each IRF_KERNEL function, an externally visible `.entry` named by
 * the function's Python name (unmangled) whose parameters are, in order, for each argument:
 *   an array   ptr addrspace(1) data, i64 shape[0..ndim-1], i64 strides[0..ndim-1] (in bytes)
 *   a scalar   its value: bool as u8 (0/1), ints by width, float32/float64
 *   a tuple    its elements, flattened in order, by the same rules
 * The wrapper rebuilds the values, calls the body and returns; the body's status (a raise site
 * from an opt-in check) is dropped, as CUDA kernels in Numba drop exceptions.  Kernels are
 * marked twice: the PTX kernel calling convention and !nvvm.annotations {fn, "kernel", 1}.
 * A program without kernels (a device function compiled alone) keeps funcs[0] visible under
 * its Python name with the internal ABI.
 *
 * Rewrites: lower.c emits a few target-independent intrinsics (llvm.pow for `**`, frem for
 * float `%`) that the NVPTX backend cannot select (llvm.pow aborts codegen; frem becomes an
 * inexact x - trunc(x/y)*y); they are replaced by __nv_pow/__nv_fmod calls before libdevice
 * is linked.
 */
#include "cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- address spaces ------------------------------------------------------------------------- */
static unsigned nvptx_addrspace(AddrSpace as) {
    switch (as) {
    case AS_GLOBAL: return 1;
    case AS_SHARED: return 3;
    case AS_LOCAL: return 5;
    default: return 0;
    }
}

static LLVMTypeRef ptr_as(CgModule *M, unsigned as) { return LLVMPointerTypeInContext(M->ctx, as); }

/* p (in address space `from`) as a pointer of address space `to`. */
static LLVMValueRef as_cast(CgModule *M, LLVMBuilderRef B, LLVMValueRef p, unsigned to) {
    unsigned from = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
    return from == to ? p : LLVMBuildAddrSpaceCast(B, p, ptr_as(M, to), "");
}

static bool fast_for(CgModule *M, const IrFunc *f) {
    return (f && f->fastmath) || (M->opt && M->opt->fastmath);
}

/* ---- math ----------------------------------------------------------------------------------- */
/* Builtins the backend selects natively (no libdevice call needed). */
static bool native_intrinsic(const char *intr) {
    static const char *const ok[] = {"llvm.fabs", "llvm.floor", "llvm.ceil", "llvm.trunc",
                                     "llvm.rint", "llvm.sqrt", "llvm.copysign"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!strcmp(intr, ok[i]))
            return true;
    return false;
}

/* float32 fastmath approximations in libdevice (sin.approx, ex2.approx, lg2.approx ...). */
static const char *fast_f32(const MathInfo *mi) {
    static const char *const map[][2] = {
        {"sin", "__nv_fast_sinf"},   {"cos", "__nv_fast_cosf"},   {"tan", "__nv_fast_tanf"},
        {"exp", "__nv_fast_expf"},   {"log", "__nv_fast_logf"},   {"log2", "__nv_fast_log2f"},
        {"log10", "__nv_fast_log10f"}, {"pow", "__nv_fast_powf"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(mi->name, map[i][0]))
            return map[i][1];
    return NULL;
}

/* A call of libdevice function `sym` of type T(T[, T]). */
static LLVMValueRef nv_call(CgModule *M, LLVMBuilderRef B, const char *sym, LLVMTypeRef T,
                            LLVMValueRef *args, int n) {
    LLVMTypeRef pt[2] = {T, T};
    LLVMValueRef fn = cg_declare_pure(M, sym, T, pt, n);
    return LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, args, (unsigned)n, "");
}

static LLVMValueRef nvptx_math(CgLower *L, const MathInfo *mi, const Type *ty, LLVMValueRef *args) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef T = cg_reg_type(M, ty), fty = NULL;
    if (mi->intrinsic[0] && native_intrinsic(mi->intrinsic)) {
        LLVMValueRef fn = cg_intrinsic(M, mi->intrinsic, T, &fty);
        if (fn)
            return cg_fm(L, LLVMBuildCall2(B, fty, fn, args, (unsigned)mi->arity, ""));
    }
    const char *sym = ty->kind == TY_F32 ? mi->nv32 : mi->nv64;
    if (ty->kind == TY_F32 && fast_for(M, cg_lower_func(L)) && fast_f32(mi))
        sym = fast_f32(mi);
    if (!sym || !sym[0]) {
        cg_error(L, cg_lower_func(L)->loc, "math.%s has no GPU implementation", mi->name);
        return NULL;
    }
    return cg_fm(L, nv_call(M, B, sym, T, args, mi->arity));
}

/* ---- special registers, barriers ------------------------------------------------------------ */
static LLVMValueRef call_nvvm(CgModule *M, LLVMBuilderRef B, const char *name) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id)
        return NULL;
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(M->mod, id, NULL, 0);
    return LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, NULL, 0, "");
}

static LLVMValueRef nvptx_sreg(CgLower *L, const IrInst *in) {
    static const char *const names[] = {
        [SREG_TID_X] = "tid.x",       [SREG_TID_Y] = "tid.y",       [SREG_TID_Z] = "tid.z",
        [SREG_CTAID_X] = "ctaid.x",   [SREG_CTAID_Y] = "ctaid.y",   [SREG_CTAID_Z] = "ctaid.z",
        [SREG_NTID_X] = "ntid.x",     [SREG_NTID_Y] = "ntid.y",     [SREG_NTID_Z] = "ntid.z",
        [SREG_NCTAID_X] = "nctaid.x", [SREG_NCTAID_Y] = "nctaid.y", [SREG_NCTAID_Z] = "nctaid.z",
        [SREG_LANEID] = "laneid",     [SREG_WARPSIZE] = "warpsize",
    };
    int k = in->imm.index;
    if (k < 0 || k > SREG_WARPSIZE) {
        cg_error(L, in->loc, "unknown special register %d", k);
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", names[k]);
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef v = call_nvvm(M, B, name);
    if (!v) {
        cg_error(L, in->loc, "LLVM does not know the intrinsic %s", name);
        return NULL;
    }
    return LLVMBuildZExt(B, v, LLVMInt64TypeInContext(M->ctx), "");
}

static bool nvptx_barrier(CgLower *L, const IrInst *in) {
    const char *name = in->op == IR_BARRIER ? "llvm.nvvm.barrier0" : "llvm.nvvm.membar.gl";
    if (!call_nvvm(cg_lower_module(L), cg_lower_builder(L), name)) {
        cg_error(L, in->loc, "LLVM does not know the intrinsic %s", name);
        return false;
    }
    return true;
}

/* ---- atomics -------------------------------------------------------------------------------- */
/* numba-cuda's float cuda.atomic.max/min: a NaN value, or a NaN already in the element, leaves
 * the element alone (nanmax/nanmin are LLVM's fmax/fmin instead, which replace a stored NaN).
 * A CAS loop stores v while it still beats what the element holds (ordered compare: false on a
 * NaN either side); returns the value the element held before. */
static LLVMValueRef float_minmax(CgLower *L, LLVMValueRef ptr, LLVMTypeRef elty, LLVMValueRef v,
                                 bool is_max, unsigned align) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMAtomicOrdering mo = LLVMAtomicOrderingMonotonic;
    bool f32 = LLVMGetTypeKind(elty) == LLVMFloatTypeKind;
    LLVMTypeRef IT = LLVMIntTypeInContext(M->ctx, f32 ? 32 : 64);
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMValueRef fn = LLVMGetBasicBlockParent(entry);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(M->ctx, fn, "atom.loop");
    LLVMBasicBlockRef try = LLVMAppendBasicBlockInContext(M->ctx, fn, "atom.try");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(M->ctx, fn, "atom.done");
    LLVMValueRef first = LLVMBuildLoad2(B, elty, ptr, "");
    LLVMSetOrdering(first, mo);
    LLVMSetAlignment(first, align);
    LLVMBuildBr(B, loop);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef old = LLVMBuildPhi(B, elty, "");
    LLVMValueRef beats = LLVMBuildFCmp(B, is_max ? LLVMRealOLT : LLVMRealOGT, old, v, "");
    LLVMBuildCondBr(B, beats, try, done);
    LLVMPositionBuilderAtEnd(B, try);
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(B, ptr, LLVMBuildBitCast(B, old, IT, ""),
                                               LLVMBuildBitCast(B, v, IT, ""), mo, mo, false);
    LLVMValueRef seen = LLVMBuildBitCast(B, LLVMBuildExtractValue(B, pair, 0, ""), elty, "");
    LLVMBuildCondBr(B, LLVMBuildExtractValue(B, pair, 1, ""), done, loop);
    LLVMValueRef in_vals[2] = {first, seen};
    LLVMBasicBlockRef in_bbs[2] = {entry, try};
    LLVMAddIncoming(old, in_vals, in_bbs, 2);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef r = LLVMBuildPhi(B, elty, "");
    LLVMValueRef out_vals[2] = {old, old};
    LLVMBasicBlockRef out_bbs[2] = {loop, try};
    LLVMAddIncoming(r, out_vals, out_bbs, 2);
    return r;
}

static LLVMValueRef nvptx_atomic(CgLower *L, const IrInst *in, LLVMValueRef ptr, LLVMTypeRef elty,
                                 LLVMValueRef v0, LLVMValueRef v1) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    const Type *dt = in->args[0]->type->dtype;
    bool fl = ty_is_float(dt), sg = ty_is_signed(dt);
    if (dt->kind == TY_BOOL) {
        cg_error(L, in->loc, "cuda.atomic.%s on a boolean array", ir_atomic_name[in->imm.index]);
        return NULL;
    }
    v0 = cg_to_mem(M, B, dt, v0);
    LLVMAtomicOrdering mo = LLVMAtomicOrderingMonotonic;
    if (in->imm.index == ATOM_CAS) {
        if (!v1) {
            cg_error(L, in->loc, "cuda.atomic.cas needs a new value");
            return NULL;
        }
        v1 = cg_to_mem(M, B, dt, v1);
        LLVMTypeRef IT = fl ? LLVMIntTypeInContext(M->ctx, (unsigned)ty_bits(dt)) : elty;
        LLVMValueRef cmp = fl ? LLVMBuildBitCast(B, v0, IT, "") : v0;
        LLVMValueRef nv = fl ? LLVMBuildBitCast(B, v1, IT, "") : v1;
        LLVMValueRef pair = LLVMBuildAtomicCmpXchg(B, ptr, cmp, nv, mo, mo, false);
        LLVMValueRef old = LLVMBuildExtractValue(B, pair, 0, "");
        return fl ? LLVMBuildBitCast(B, old, elty, "") : old;
    }
    if (fl && (in->imm.index == ATOM_MAX || in->imm.index == ATOM_MIN))
        return float_minmax(L, ptr, elty, v0, in->imm.index == ATOM_MAX, (unsigned)ty_size(dt));
    LLVMAtomicRMWBinOp op;
    switch (in->imm.index) {
    case ATOM_ADD: op = fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd; break;
    case ATOM_SUB:
        if (fl) { /* atom.add of the negation: native, where fsub would be a CAS loop */
            op = LLVMAtomicRMWBinOpFAdd;
            v0 = LLVMBuildFNeg(B, v0, "");
        } else {
            op = LLVMAtomicRMWBinOpSub;
        }
        break;
    case ATOM_MAX: op = sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax; break;
    case ATOM_MIN: op = sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin; break;
    case ATOM_EXCH: op = LLVMAtomicRMWBinOpXchg; break;
    case ATOM_AND: op = LLVMAtomicRMWBinOpAnd; break;
    case ATOM_OR: op = LLVMAtomicRMWBinOpOr; break;
    case ATOM_XOR: op = LLVMAtomicRMWBinOpXor; break;
    case ATOM_INC: op = LLVMAtomicRMWBinOpUIncWrap; break; /* old >= v ? 0 : old + 1 */
    case ATOM_DEC: op = LLVMAtomicRMWBinOpUDecWrap; break; /* old == 0 || old > v ? v : old - 1 */
    case ATOM_NANMAX:
        op = fl ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
        break;
    case ATOM_NANMIN:
        op = fl ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
        break;
    default:
        cg_error(L, in->loc, "unknown atomic operation %d", in->imm.index);
        return NULL;
    }
    return LLVMBuildAtomicRMW(B, op, ptr, v0, mo, false);
}

/* ---- shared and local arrays ---------------------------------------------------------------- */
#define NVPTX_STATIC_SHARED_MAX (48 * 1024) /* static shared memory per block (CUDA's limit) */
#define NVPTX_DYN_SHARED_NAME "numjit_dynamic_shared"

static LLVMValueRef nvptx_static_array(CgLower *L, const IrInst *in, int64_t nbytes) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(M->ctx);
    unsigned want = nvptx_addrspace(in->type->addrspace);
    LLVMValueRef p;
    if (nbytes < 0) {
        cg_error(L, in->loc, "array of negative size");
        return NULL;
    }
    if (in->op == IR_SHARED) {
        if (nbytes == 0) { /* dynamic shared memory: sized by the launch; all uses alias */
            p = LLVMGetNamedGlobal(M->mod, NVPTX_DYN_SHARED_NAME);
            if (!p) {
                p = LLVMAddGlobalInAddressSpace(M->mod, LLVMArrayType2(i8, 0), NVPTX_DYN_SHARED_NAME, 3);
                LLVMSetLinkage(p, LLVMExternalLinkage);
                LLVMSetAlignment(p, 16);
            }
        } else {
            if (nbytes > NVPTX_STATIC_SHARED_MAX) {
                cg_error(L, in->loc,
                         "cuda.shared.array of %lld bytes exceeds the %d bytes of static shared "
                         "memory a block may use",
                         (long long)nbytes, NVPTX_STATIC_SHARED_MAX);
                return NULL;
            }
            char name[96];
            snprintf(name, sizeof name, "shared.%s.%d", cg_lower_func(L)->name, in->id);
            p = LLVMAddGlobalInAddressSpace(M->mod, LLVMArrayType2(i8, (uint64_t)nbytes), name, 3);
            LLVMSetLinkage(p, LLVMInternalLinkage);
            LLVMSetInitializer(p, LLVMGetUndef(LLVMArrayType2(i8, (uint64_t)nbytes)));
            LLVMSetAlignment(p, 16);
        }
    } else {
        if (nbytes > (1 << 20)) {
            cg_error(L, in->loc, "cuda.local.array of %lld bytes is too large", (long long)nbytes);
            return NULL;
        }
        p = cg_entry_alloca(L, LLVMArrayType2(i8, (uint64_t)(nbytes ? nbytes : 1)), "local");
        LLVMSetAlignment(p, 16);
    }
    return as_cast(M, B, p, want);
}

/* ---- function attributes ---------------------------------------------------------------------- */
static void add_str_attr(CgModule *M, LLVMValueRef fn, const char *k, const char *v) {
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(M->ctx, k, (unsigned)strlen(k), v, (unsigned)strlen(v)));
}

/* fastmath: approximate division and square root, flush float32 denormals to zero (Numba's
 * fastmath=True on CUDA: ftz, prec_div and prec_sqrt off). */
static void fast_attrs(CgModule *M, LLVMValueRef fn) {
    add_str_attr(M, fn, "unsafe-fp-math", "true");
    add_str_attr(M, fn, "no-infs-fp-math", "true");
    add_str_attr(M, fn, "no-nans-fp-math", "true");
    add_str_attr(M, fn, "no-signed-zeros-fp-math", "true");
    add_str_attr(M, fn, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
}

static void nvptx_func_attrs(CgModule *M, const IrFunc *f, LLVMValueRef fn) {
    if (fast_for(M, f))
        fast_attrs(M, fn);
}

const CgTarget cg_nvptx_target = {
    .name = "nvptx",
    .addrspace = nvptx_addrspace,
    .math = nvptx_math,
    .sreg = nvptx_sreg,
    .barrier = nvptx_barrier,
    .atomic = nvptx_atomic,
    .cuda = cg_nvptx_cuda,
    .static_array = nvptx_static_array,
    .func_attrs = nvptx_func_attrs,
};

/* ---- kernel entries ------------------------------------------------------------------------- */
/* Kernel parameters of one argument of type t (see the ABI above); types into out (may be NULL
 * to count).  -1 for a type a kernel cannot take. */
static int kparams(CgModule *M, const Type *t, LLVMTypeRef *out) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx);
    if (t->kind == TY_ARRAY) {
        if (out) {
            out[0] = ptr_as(M, 1);
            for (int d = 0; d < 2 * t->ndim; d++)
                out[1 + d] = i64;
        }
        return 1 + 2 * t->ndim;
    }
    if (t->kind == TY_TUPLE) {
        int n = 0;
        for (int i = 0; i < t->nelems; i++) {
            int k = kparams(M, t->elems[i], out ? out + n : NULL);
            if (k < 0)
                return -1;
            n += k;
        }
        return n;
    }
    if (ty_is_scalar(t)) {
        if (out)
            out[0] = cg_mem_type(M, t); /* bool travels as a byte */
        return 1;
    }
    return -1;
}

/* Rebuilds the body's ABI arguments of one kernel argument from the entry's parameters. */
static LLVMValueRef kvalue(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef fn,
                           unsigned *pi) {
    if (t->kind == TY_TUPLE) {
        LLVMValueRef r = LLVMGetPoison(cg_reg_type(M, t));
        for (int i = 0; i < t->nelems; i++)
            r = LLVMBuildInsertValue(B, r, kvalue(M, B, t->elems[i], fn, pi), (unsigned)i, "");
        return r;
    }
    return cg_from_mem(M, B, t, LLVMGetParam(fn, (*pi)++));
}

bool cg_nvptx_is_kernel(LLVMValueRef fn) {
    return LLVMGetFunctionCallConv(fn) == LLVMPTXKernelCallConv;
}

static void annotate_kernel(CgModule *M, LLVMValueRef fn) {
    LLVMMetadataRef md[3] = {
        LLVMValueAsMetadata(fn),
        LLVMMDStringInContext2(M->ctx, "kernel", 6),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(M->ctx), 1, 0)),
    };
    LLVMAddNamedMetadataOperand(M->mod, "nvvm.annotations",
                                LLVMMetadataAsValue(M->ctx, LLVMMDNodeInContext2(M->ctx, md, 3)));
}

/* Frees `name` for a new external symbol: an internal function of ours holding it is renamed. */
static bool claim_name(CgModule *M, const char *name) {
    LLVMValueRef g = LLVMGetNamedFunction(M->mod, name);
    if (!g)
        g = LLVMGetNamedGlobal(M->mod, name);
    if (!g)
        return true;
    if (LLVMGetLinkage(g) != LLVMInternalLinkage)
        return false;
    char buf[512];
    snprintf(buf, sizeof buf, "%s.body", name);
    LLVMSetValueName2(g, buf, strlen(buf));
    return true;
}

static bool kernel_entry(CgModule *M, int fi) {
    const IrFunc *f = M->prog->funcs[fi];
    LLVMContextRef C = M->ctx;
    int n = 0;
    for (int k = 0; k < f->nparams; k++) {
        int c = kparams(M, f->params[k], NULL);
        if (c < 0) {
            cg_module_error(M, "kernel '%s': argument %d of type %s cannot be passed to a kernel",
                            f->name, k + 1, f->params[k]->name);
            return false;
        }
        n += c;
    }
    LLVMTypeRef *pt = calloc((size_t)n + 1, sizeof *pt);
    int nb = cg_abi_params(M, f, NULL);
    LLVMValueRef *args = calloc((size_t)nb + 1, sizeof *args);
    if (!pt || !args) {
        free(pt);
        free(args);
        cg_module_error(M, "out of memory");
        return false;
    }
    for (int k = 0, at = 0; k < f->nparams; k++)
        at += kparams(M, f->params[k], pt + at);
    if (!claim_name(M, f->name)) {
        cg_module_error(M, "kernel '%s': the name is taken by another symbol", f->name);
        free(pt);
        free(args);
        return false;
    }
    LLVMValueRef fn = LLVMAddFunction(M->mod, f->name,
                                      LLVMFunctionType(LLVMVoidTypeInContext(C), pt, (unsigned)n, false));
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
    cg_add_fn_attr(M, fn, "nounwind");
    if (fast_for(M, f))
        fast_attrs(M, fn);
    annotate_kernel(M, fn);

    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    unsigned pi = 0;
    int a = 0;
    args[a++] = LLVMConstPointerNull(ptr_as(M, 0));
    for (int k = 0; k < f->nparams; k++) {
        const Type *t = f->params[k];
        const char *pname = f->param_names && f->param_names[k] ? f->param_names[k] : "arg";
        if (t->kind == TY_ARRAY) {
            LLVMValueRef data = LLVMGetParam(fn, pi++);
            LLVMSetValueName2(data, pname, strlen(pname));
            args[a++] = as_cast(M, B, data, nvptx_addrspace(t->addrspace));
            for (int d = 0; d < 2 * t->ndim; d++)
                args[a++] = LLVMGetParam(fn, pi++);
        } else {
            args[a++] = kvalue(M, B, t, fn, &pi);
        }
    }
    LLVMBuildCall2(B, M->fntys[fi], M->fns[fi], args, (unsigned)a, "");
    LLVMBuildRetVoid(B);
    LLVMDisposeBuilder(B);
    free(pt);
    free(args);
    return true;
}

/* ---- rewrites of what the backend cannot select ----------------------------------------------- */
/* libdevice replacement of a call to intrinsic `callee` (e.g. "llvm.pow.f64"), or NULL. */
static const char *nv_for_intrinsic(const char *callee) {
    static const char *const map[][3] = {
        {"llvm.pow.", "__nv_pow", "__nv_powf"},       {"llvm.exp.", "__nv_exp", "__nv_expf"},
        {"llvm.exp2.", "__nv_exp2", "__nv_exp2f"},    {"llvm.exp10.", "__nv_exp10", "__nv_exp10f"},
        {"llvm.log.", "__nv_log", "__nv_logf"},       {"llvm.log2.", "__nv_log2", "__nv_log2f"},
        {"llvm.log10.", "__nv_log10", "__nv_log10f"}, {"llvm.sin.", "__nv_sin", "__nv_sinf"},
        {"llvm.cos.", "__nv_cos", "__nv_cosf"},       {"llvm.tan.", "__nv_tan", "__nv_tanf"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        size_t n = strlen(map[i][0]);
        if (!strncmp(callee, map[i][0], n)) {
            if (!strcmp(callee + n, "f64"))
                return map[i][1];
            if (!strcmp(callee + n, "f32"))
                return map[i][2];
        }
    }
    return NULL;
}

static void replace_with_call(CgModule *M, LLVMBuilderRef B, LLVMValueRef inst, const char *sym,
                              LLVMValueRef *args, int n) {
    LLVMPositionBuilderBefore(B, inst);
    LLVMValueRef c = nv_call(M, B, sym, LLVMTypeOf(inst), args, n);
    if (LLVMCanValueUseFastMathFlags(inst) && LLVMCanValueUseFastMathFlags(c))
        LLVMSetFastMathFlags(c, LLVMGetFastMathFlags(inst));
    LLVMReplaceAllUsesWith(inst, c);
    LLVMInstructionEraseFromParent(inst);
}

static void rewrite_unselectable(CgModule *M) {
    LLVMBuilderRef B = LLVMCreateBuilderInContext(M->ctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(M->mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
                next = LLVMGetNextInstruction(in);
                if (LLVMGetInstructionOpcode(in) == LLVMFRem) {
                    LLVMTypeRef T = LLVMTypeOf(in);
                    const char *sym = LLVMGetTypeKind(T) == LLVMFloatTypeKind ? "__nv_fmodf" : "__nv_fmod";
                    LLVMValueRef args[2] = {LLVMGetOperand(in, 0), LLVMGetOperand(in, 1)};
                    if (LLVMGetTypeKind(T) == LLVMFloatTypeKind || LLVMGetTypeKind(T) == LLVMDoubleTypeKind)
                        replace_with_call(M, B, in, sym, args, 2);
                    continue;
                }
                if (LLVMGetInstructionOpcode(in) != LLVMCall)
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(in);
                if (!callee || !LLVMIsAFunction(callee))
                    continue;
                size_t len;
                const char *name = LLVMGetValueName2(callee, &len);
                const char *sym = nv_for_intrinsic(name);
                if (!sym)
                    continue;
                int na = LLVMGetNumArgOperands(in);
                LLVMValueRef args[2];
                if (na < 1 || na > 2)
                    continue;
                for (int k = 0; k < na; k++)
                    args[k] = LLVMGetOperand(in, (unsigned)k);
                replace_with_call(M, B, in, sym, args, na);
            }
        }
    LLVMDisposeBuilder(B);
}

/* Under fastmath, the linked libdevice functions get the fast attributes as well: the inliner
 * keeps "unsafe-fp-math" on a caller only when the callee has it too. */
void cg_nvptx_fast_libdevice(CgModule *M) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(M->mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || cg_nvptx_is_kernel(fn))
            continue;
        bool ours = false;
        for (int i = 0; i < M->prog->nfuncs && !ours; i++)
            ours = M->fns[i] == fn;
        if (!ours)
            fast_attrs(M, fn);
    }
}

/* PTX symbols are ASCII: the UTF-8 bytes of a non-ASCII Python name (a kernel `café`, a device
 * function it calls) become $xx (sb_put_symbol; the driver's lookup in runtime/cuda.c escapes
 * the same way).  LLVM aborts on such a name otherwise. */
static void ascii_symbols(CgModule *M) {
    for (int pass = 0; pass < 2; pass++)
        for (LLVMValueRef v = pass ? LLVMGetFirstGlobal(M->mod) : LLVMGetFirstFunction(M->mod); v;
             v = pass ? LLVMGetNextGlobal(v) : LLVMGetNextFunction(v)) {
            size_t n;
            const char *name = LLVMGetValueName2(v, &n);
            bool plain = true;
            for (size_t i = 0; i < n; i++)
                plain &= (unsigned char)name[i] < 0x80;
            if (plain)
                continue;
            StrBuf sb;
            sb_init(&sb);
            char *copy = strndup(name, n);
            if (copy)
                sb_put_symbol(&sb, copy);
            free(copy);
            if (sb.data)
                LLVMSetValueName2(v, sb.data, sb.len);
            sb_free(&sb);
        }
}

bool cg_nvptx_finish(CgModule *M) {
    const IrProgram *p = M->prog;
    bool any_kernel = false;
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->kind == IRF_KERNEL) {
            any_kernel = true;
            if (!kernel_entry(M, i))
                return false;
        }
    if (!any_kernel && p->nfuncs > 0) { /* a device function alone: keep it, by its own name */
        const IrFunc *f = p->funcs[0];
        if (!claim_name(M, f->name)) {
            cg_module_error(M, "function '%s': the name is taken by another symbol", f->name);
            return false;
        }
        LLVMSetValueName2(M->fns[0], f->name, strlen(f->name));
        LLVMSetLinkage(M->fns[0], LLVMExternalLinkage);
    }
    rewrite_unselectable(M);
    ascii_symbols(M);
    return true;
}

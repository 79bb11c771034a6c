/* lower_lib.c — the IR ops that call out of the function's own code: runtime entry points
 * (rtcall.def, by symbol), functions by address (calladdr), the random generators (random.def)
 * and the math builtins, whose symbols and intrinsics the target hooks choose (libm on the CPU,
 * libdevice on NVPTX). Called from lower.c's instruction switch.
 */
#include "cg_internal.h"

#include <string.h>

LLVMValueRef cg_lower_rtcall(CgLower *L, const IrInst *in) {
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
        if (!(args[n] = cg_lower_val(L, in, k)))
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
LLVMValueRef cg_lower_calladdr(CgLower *L, const IrInst *in) {
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
        if (!(args[k] = cg_lower_val(L, in, k + 1)))
            return NULL;
        pt[k] = cg_reg_type(M, in->args[k + 1]->type);
    }
    LLVMValueRef addr = cg_lower_val(L, in, 0);
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
LLVMValueRef cg_lower_random(CgLower *L, const IrInst *in) {
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
        if (!(args[k] = cg_lower_val(L, in, k)))
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

LLVMValueRef cg_lower_math(CgLower *L, const IrInst *in) {
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
        LLVMValueRef x = cg_lower_val(L, in, 0);
        if (!x)
            return NULL;
        if (idx == MATH_ISNAN)
            return LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
        LLVMValueRef ax = cg_call_intr(L, "llvm.fabs", LLVMTypeOf(x), &x, 1);
        LLVMValueRef inf = LLVMConstReal(LLVMTypeOf(x), __builtin_inf());
        return LLVMBuildFCmp(B, idx == MATH_ISINF ? LLVMRealOEQ : LLVMRealOLT, ax, inf, "");
    }
    /* the float type the builtin computes in */
    const Type *ft = ty_is_float(in->type) ? in->type : ty_is_float(at) ? at : ty_f64;
    LLVMValueRef args[2];
    for (int k = 0; k < in->nargs; k++) {
        LLVMValueRef v = cg_lower_val(L, in, k);
        if (!v)
            return NULL;
        args[k] = cg_lower_cast(L, v, in->args[k]->type, ft);
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
    return cg_lower_cast(L, r, ft, in->type); /* math.floor & co. give int64 */
}

/* cfunc.c — C callbacks (Numba's @cfunc): a function of a plain C signature, `double f(double,
 * double)` or `int f(double *buf, intptr_t n, double *out, void *data)`, whose address C code
 * (SciPy's LowLevelCallable, ctypes, qsort) calls, running a compiled specialization.
 *
 * The callback is a thin wrapper built in a module of its own and linked into the JIT
 * (cg_cpu_jit_add): it stores each C argument in a slot, points args[k] at the slots and calls
 * the specialization's generic entry (int32_t entry(void **args, void *result), codegen.h)
 * by address.  A scalar parameter is its C type (bool one byte); a pointer parameter is, for
 * the compiled code, a one-dimensional C-contiguous array of the pointee's dtype starting at
 * the pointer, as long as memory can be (CG_CFUNC_EXTENT elements): `p[0] = x` writes where p
 * points and numba.carray(p, shape) reshapes it (typer: lib/numba.c).  The wrapper writes the
 * NjArray descriptor of such an array (numjit.h) on its stack, owner NULL: the memory stays the
 * caller's.  The result comes back in a slot of the specialization's result type and is
 * converted to the declared C result type as a store converts (truncating floats toward
 * zero); when the entry reports an exception the callback returns zero (Numba prints the
 * exception and returns an undefined value; the library prints nothing).
 */
#include "cg_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C type of a scalar: bool is one byte, as C's _Bool in the x86-64 ABI. */
static LLVMTypeRef c_type(LLVMContextRef C, const Type *t) {
    if (t == ty_void)
        return LLVMVoidTypeInContext(C);
    if (t->kind == TY_ARRAY)
        return LLVMPointerTypeInContext(C, 0);
    if (t->kind == TY_F32)
        return LLVMFloatTypeInContext(C);
    if (t->kind == TY_F64)
        return LLVMDoubleTypeInContext(C);
    return LLVMIntTypeInContext(C, t == ty_bool ? 8 : (unsigned)ty_size(t) * 8);
}

static bool c_ok(const Type *t, bool param) {
    if (t->kind == TY_ARRAY)
        return param && t->ndim == 1 && t->layout == LAYOUT_C && ty_is_scalar(t->dtype) &&
               !ty_is_complex(t->dtype);
    return (t == ty_void && !param) || (ty_is_scalar(t) && !ty_is_complex(t));
}

/* v (C type of `from`) converted to the C type of `to`, as a store converts. */
static LLVMValueRef c_convert(LLVMBuilderRef B, LLVMContextRef C, LLVMValueRef v, const Type *from,
                              const Type *to) {
    LLVMTypeRef dt = c_type(C, to);
    bool ff = ty_is_float(from), tf = ty_is_float(to);
    if (to == ty_bool) { /* nonzero is True */
        LLVMValueRef nz = ff ? LLVMBuildFCmp(B, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "")
                             : LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMBuildZExt(B, nz, dt, "");
    }
    if (ff && tf)
        return ty_size(from) == ty_size(to) ? v
               : ty_size(from) < ty_size(to) ? LLVMBuildFPExt(B, v, dt, "")
                                             : LLVMBuildFPTrunc(B, v, dt, "");
    if (ff)
        return ty_is_signed(to) ? LLVMBuildFPToSI(B, v, dt, "") : LLVMBuildFPToUI(B, v, dt, "");
    bool sgn = from != ty_bool && ty_is_signed(from);
    if (tf)
        return sgn ? LLVMBuildSIToFP(B, v, dt, "") : LLVMBuildUIToFP(B, v, dt, "");
    return LLVMBuildIntCast2(B, v, dt, sgn, "");
}

/* Writes the NjArray of pointer p (a 1-d C array of t->dtype, dtype code `code`) at slot. */
static void put_pointer_array(LLVMBuilderRef B, LLVMContextRef C, LLVMValueRef slot,
                              LLVMValueRef p, const Type *t, int32_t code) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(C), i32 = LLVMInt32TypeInContext(C),
                i64 = LLVMInt64TypeInContext(C);
    LLVMBuildMemSet(B, slot, LLVMConstNull(i8), LLVMConstInt(i64, sizeof(NjArray), 0), 8);
#define AT(off) LLVMBuildGEP2(B, i8, slot, (LLVMValueRef[]){LLVMConstInt(i64, (off), 0)}, 1, "")
    int64_t size = ty_size(t->dtype);
    LLVMBuildStore(B, p, AT(offsetof(NjArray, data)));
    LLVMBuildStore(B, LLVMConstInt(i32, 1, 0), AT(offsetof(NjArray, ndim)));
    LLVMBuildStore(B, LLVMConstInt(i32, (unsigned long long)code, 0), AT(offsetof(NjArray, dtype)));
    LLVMBuildStore(B, LLVMConstInt(i64, (unsigned long long)(CG_CFUNC_EXTENT / size), 0),
                   AT(offsetof(NjArray, shape)));
    LLVMBuildStore(B, LLVMConstInt(i64, (unsigned long long)size, 0),
                   AT(offsetof(NjArray, strides)));
#undef AT
}

/* The wrapper's body: slots, the call of the entry, the converted result. */
static void build_wrapper(LLVMContextRef C, LLVMModuleRef mod, const CgCfunc *cf) {
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), i32 = LLVMInt32TypeInContext(C),
                i64 = LLVMInt64TypeInContext(C);
    LLVMTypeRef pts[CG_CFUNC_MAX_PARAMS];
    for (int k = 0; k < cf->nparams; k++)
        pts[k] = c_type(C, cf->params[k]);
    LLVMTypeRef rty = c_type(C, cf->ret);
    LLVMValueRef fn = LLVMAddFunction(mod, cf->symbol, LLVMFunctionType(rty, pts,
                                                                       (unsigned)cf->nparams, 0));
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    int n = cf->nparams > 0 ? cf->nparams : 1;
    LLVMValueRef args = LLVMBuildAlloca(B, LLVMArrayType2(ptr, (unsigned)n), "args");
    LLVMTypeRef njarr = LLVMArrayType2(LLVMInt8TypeInContext(C), sizeof(NjArray));
    for (int k = 0; k < cf->nparams; k++) {
        const Type *t = cf->params[k];
        LLVMValueRef p = LLVMGetParam(fn, (unsigned)k), slot;
        if (t->kind == TY_ARRAY) {
            slot = LLVMBuildAlloca(B, njarr, "arr");
            LLVMSetAlignment(slot, 8);
            put_pointer_array(B, C, slot, p, t, cf->ptr_dtypes[k]);
        } else {
            slot = LLVMBuildAlloca(B, pts[k], "arg");
            if (t == ty_bool) /* the entry reads a bool as one byte, 0 or 1 */
                p = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, p, LLVMConstNull(pts[k]), ""),
                                  pts[k], "");
            LLVMBuildStore(B, p, slot);
        }
        LLVMValueRef at = LLVMBuildGEP2(B, ptr, args, (LLVMValueRef[]){LLVMConstInt(i64,
                                        (unsigned long long)k, 0)}, 1, "");
        LLVMBuildStore(B, slot, at);
    }
    LLVMValueRef res = LLVMConstNull(ptr);
    LLVMTypeRef sty = cf->spec_ret == ty_void ? NULL : c_type(C, cf->spec_ret);
    if (sty) {
        res = LLVMBuildAlloca(B, sty, "result");
        LLVMBuildStore(B, LLVMConstNull(sty), res);
    }
    LLVMTypeRef ety = LLVMFunctionType(i32, (LLVMTypeRef[]){ptr, ptr}, 2, 0);
    LLVMValueRef entry =
        LLVMConstIntToPtr(LLVMConstInt(i64, (unsigned long long)cf->entry, 0), ptr);
    LLVMValueRef st = LLVMBuildCall2(B, ety, entry, (LLVMValueRef[]){args, res}, 2, "status");
    if (cf->ret == ty_void) {
        LLVMBuildRetVoid(B);
    } else {
        LLVMValueRef v = LLVMBuildLoad2(B, sty, res, "");
        /* a bool result is one byte, 0 or 1: converted as the uint8 it is */
        v = c_convert(B, C, v, cf->spec_ret == ty_bool ? ty_u8 : cf->spec_ret, cf->ret);
        LLVMValueRef ok = LLVMBuildICmp(B, LLVMIntEQ, st, LLVMConstInt(i32, 0, 0), "");
        LLVMBuildRet(B, LLVMBuildSelect(B, ok, v, LLVMConstNull(rty), ""));
    }
    LLVMDisposeBuilder(B);
}

bool cg_jit_cfunc(CgJit *jit, const CgCfunc *cf, void **addr, char **err) {
    *addr = NULL;
    if (cf->nparams > CG_CFUNC_MAX_PARAMS) {
        *err = cg_errf("a C callback takes at most %d arguments", CG_CFUNC_MAX_PARAMS);
        return false;
    }
    for (int k = 0; k < cf->nparams; k++)
        if (!c_ok(cf->params[k], true)) {
            *err = cg_errf("a C callback cannot take %s (argument %d): numbers and pointers "
                           "only", cf->params[k]->name, k + 1);
            return false;
        }
    if (!c_ok(cf->ret, false) || (cf->spec_ret != ty_void && !c_ok(cf->spec_ret, false))) {
        *err = cg_errf("a C callback returns a number or nothing, not %s",
                       (c_ok(cf->ret, false) ? cf->spec_ret : cf->ret)->name);
        return false;
    }
    if (cf->ret != ty_void && cf->spec_ret == ty_void) {
        *err = cg_errf("the function returns None where the C callback's signature says %s",
                       cf->ret->name);
        return false;
    }
    LLVMContextRef C = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(cf->symbol, C);
    build_wrapper(C, mod, cf);
    char *msg = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        *err = cg_errf("codegen: bad C callback wrapper: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(mod);
        LLVMContextDispose(C);
        return false;
    }
    LLVMDisposeMessage(msg);
    return cg_cpu_jit_add(jit, C, mod, 2, cf->symbol, addr, err);
}

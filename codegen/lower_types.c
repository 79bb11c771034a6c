/* lower_types.c — the LLVM types of numjit's types (codegen.h): scalars, arrays' descriptor
 * structs, tuples, lists, dicts, sets, records and strings, in two forms: the register form
 * values have in a function (bool as i1) and the memory form of array elements and struct
 * fields (bool as i8), with the conversions between them.  lower.c and its siblings ask for
 * them through cg_reg_type / cg_mem_type / cg_to_mem / cg_from_mem (cg_internal.h).
 */
#include "cg_internal.h"

#include <stdlib.h>

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

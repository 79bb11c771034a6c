/* record.c — records in generated code: the IR ops rec.get, rec.set and fieldview (ir/ops.def).
 *
 * A record value (TY_RECORD, ir/record.c) is the address of one item of an array of a NumPy
 * structured dtype, as Numba's Record is a reference into its array: `aload` of such an array
 * computes that address and reads nothing (lower.c), a field is read or written at the address
 * plus the field's offset, and a write is seen through the array.  A packed dtype puts fields at
 * any byte, so their loads and stores say alignment 1 unless NumPy aligned the struct.  A field
 * view (`a['x']`) is the array's descriptor with its data moved to the field: the same extents
 * and strides, the field's type, layout A.
 */
#include "cg_internal.h"

static LLVMValueRef field_addr(CgLower *L, const Type *rec, int k, LLVMValueRef base) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(M->ctx),
                                    (unsigned long long)rec->foffsets[k], 0);
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(M->ctx), base, &off, 1, "");
}

static unsigned field_align(const Type *rec, int k) {
    int a = ty_is_complex(rec->elems[k]) ? ty_size(rec->elems[k]) / 2 : ty_size(rec->elems[k]);
    return rec->aligned && rec->foffsets[k] % a == 0 ? (unsigned)a : 1;
}

LLVMValueRef cg_lower_record(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef a = cg_lower_val(L, in, 0);
    if (!a)
        return NULL;
    const Type *t0 = in->args[0]->type;
    const Type *rec = in->op == IR_FIELDVIEW ? t0->dtype : t0;
    int k = in->imm.index;
    if (!rec || rec->kind != TY_RECORD || k < 0 || k >= rec->nelems) {
        cg_error(L, in->loc, "'%s' of a %s value", ir_op_name[in->op], t0->name);
        return NULL;
    }
    const Type *ft = rec->elems[k];
    switch (in->op) {
    case IR_RGET: {
        LLVMValueRef v = LLVMBuildLoad2(B, cg_mem_type(M, ft), field_addr(L, rec, k, a), "");
        LLVMSetAlignment(v, field_align(rec, k));
        return cg_from_mem(M, B, ft, v);
    }
    case IR_RSET: {
        LLVMValueRef v = cg_lower_val(L, in, 1);
        if (!v)
            return NULL;
        LLVMValueRef st = LLVMBuildStore(B, cg_to_mem(M, B, ft, v), field_addr(L, rec, k, a));
        LLVMSetAlignment(st, field_align(rec, k));
        return NULL;
    }
    case IR_FIELDVIEW: {
        LLVMValueRef data = LLVMBuildExtractValue(B, a, CG_DESC_DATA, "");
        return LLVMBuildInsertValue(B, a, field_addr(L, rec, k, data), CG_DESC_DATA, "");
    }
    default:
        cg_error(L, in->loc, "'%s' is not a record op", ir_op_name[in->op]);
        return NULL;
    }
}

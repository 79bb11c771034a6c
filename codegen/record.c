/* record.c — records in generated code: the IR ops rec.get, rec.set and fieldview (ir/ops.def).
 *
 * A record value (TY_RECORD, ir/record.c) is the address of one item of an array of a NumPy
 * structured dtype, as Numba's Record is a reference into its array: `aload` of such an array
 * computes that address and reads nothing (lower.c), a field is read or written at the address
 * plus the field's offset, and a write is seen through the array.  A packed dtype puts fields at
 * any byte, so their loads and stores say alignment 1 unless NumPy aligned the struct.  A field
 * view (`a['x']`) is the array's descriptor with its data moved to the field: the same extents
 * and strides, the field's type, layout A.  A jitclass's array member is kept in its record
 * as integers (address, extents, strides: typer_record.c); rawview makes the array of them,
 * with no memory header (the instance's Python object holds the array).  A jitclass instance
 * made in compiled code (newrec) is a block from malloc, the CgMemInfo header and then the
 * record, zeroed (CG_INSTANCE_HEADER, codegen.h); its value is the record's address, counted
 * as the header says (refs.c), and the last release frees the block.
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

LLVMValueRef cg_lower_rawview(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    const Type *t = in->type;
    if (t->kind != TY_ARRAY || in->nargs != 1 + 2 * t->ndim) {
        cg_error(L, in->loc, "bad rawview");
        return NULL;
    }
    LLVMValueRef d = LLVMGetPoison(cg_reg_type(M, t));
    LLVMValueRef sh = LLVMBuildExtractValue(B, d, CG_DESC_SHAPE, "");
    LLVMValueRef st = LLVMBuildExtractValue(B, d, CG_DESC_STRIDES, "");
    LLVMValueRef addr = cg_lower_val(L, in, 0);
    if (!addr)
        return NULL;
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef e = cg_lower_val(L, in, 1 + k), s = cg_lower_val(L, in, 1 + t->ndim + k);
        if (!e || !s)
            return NULL;
        sh = LLVMBuildInsertValue(B, sh, e, (unsigned)k, "");
        st = LLVMBuildInsertValue(B, st, s, (unsigned)k, "");
    }
    LLVMTypeRef ptr = LLVMPointerTypeInContext(M->ctx, 0);
    d = LLVMBuildInsertValue(B, d, LLVMBuildIntToPtr(B, addr, ptr, ""), CG_DESC_DATA, "");
    d = LLVMBuildInsertValue(B, d, sh, CG_DESC_SHAPE, "");
    d = LLVMBuildInsertValue(B, d, st, CG_DESC_STRIDES, "");
    return LLVMBuildInsertValue(B, d, LLVMConstNull(ptr), CG_DESC_MEMINFO, "");
}

LLVMValueRef cg_lower_newrec(CgLower *L, const IrInst *in, LLVMValueRef *failed) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMContextRef C = M->ctx;
    const Type *t = in->type;
    if (!ty_is_instance(t))
        return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(C), i8 = LLVMInt8TypeInContext(C),
                ptr = LLVMPointerTypeInContext(C, 0);
    LLVMTypeRef cty = LLVMFunctionType(ptr, (LLVMTypeRef[]){i64, i64}, 2, false);
    LLVMValueRef cfn = LLVMGetNamedFunction(M->mod, "calloc");
    if (!cfn)
        cfn = LLVMAddFunction(M->mod, "calloc", cty);
    uint64_t total = CG_INSTANCE_HEADER + (uint64_t)t->rsize;
    LLVMValueRef mi = LLVMBuildCall2(B, cty, cfn,
                                     (LLVMValueRef[]){LLVMConstInt(i64, 1, 0),
                                                      LLVMConstInt(i64, total, 0)},
                                     2, "instance");
    *failed = LLVMBuildIsNull(B, mi, "");
    /* the header (calloc zeroed it, so no destructor): count 1 for this new reference; on
     * failure these stores are skipped (the select below points them at a dummy) */
    LLVMValueRef dummy = cg_entry_alloca(L, LLVMArrayType2(i64, 2), "newrec.dummy");
    LLVMValueRef hdr = LLVMBuildSelect(B, *failed, dummy, mi, "");
    LLVMBuildStore(B, LLVMConstInt(i64, 1, 0), hdr);
    LLVMValueRef off = LLVMConstInt(i64, 8, 0);
    LLVMBuildStore(B, LLVMConstInt(i64, (unsigned long long)t->rsize, 0),
                   LLVMBuildGEP2(B, i8, hdr, &off, 1, ""));
    off = LLVMConstInt(i64, CG_INSTANCE_HEADER, 0);
    return LLVMBuildGEP2(B, i8, mi, &off, 1, "record");
}

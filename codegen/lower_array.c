/* lower_array.c — array descriptors in LLVM IR: a field of the shape or strides, the address
 * of an element (negative indices wrap around, as in Python), descriptors of static arrays,
 * views (basic slicing: new data pointer, shape and strides, no copy) and reshapes of
 * contiguous arrays. Called from lower.c's instruction switch.
 */
#include "cg_internal.h"

/* ---- arrays ------------------------------------------------------------------------------------ */
LLVMValueRef cg_lower_dim(CgLower *L, LLVMValueRef arr, unsigned field, unsigned k) {
    return LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, arr, field, ""), k, "");
}

/* Address of arr[idx...]: negative indices wrap around; C and F layouts index in elements from
 * the shape (contiguous: the vectorizer sees unit stride), layout A through byte strides. */
LLVMValueRef cg_lower_elem_addr(CgLower *L, const IrInst *in, const Type *at, LLVMValueRef arr) {
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
        LLVMValueRef i = cg_lower_val(L, in, k + 1);
        if (!i)
            return NULL;
        i = cg_lower_cast(L, i, in->args[k + 1]->type, ty_i64);
        sh[k] = cg_lower_dim(L, arr, 1, (unsigned)k);
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
        LLVMValueRef t = LLVMBuildMul(B, idx[k], cg_lower_dim(L, arr, 2, (unsigned)k), "");
        off = off ? LLVMBuildAdd(B, off, t, "") : t;
    }
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(L->M->ctx), data, &off, 1, "");
}

/* A C-layout descriptor for a static array at data (shared/local arrays). */
LLVMValueRef cg_lower_static_desc(CgLower *L, const Type *at, LLVMValueRef data, const int64_t *dims) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    LLVMValueRef d = LLVMBuildInsertValue(B, LLVMGetPoison(cg_reg_type(L->M, at)), data, 0, "");
    int64_t stride = ty_size(at->dtype);
    for (int k = at->ndim - 1; k >= 0; k--) {
        LLVMValueRef sh = LLVMBuildExtractValue(B, d, 1, "");
        LLVMValueRef st = LLVMBuildExtractValue(B, d, 2, "");
        d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, sh, cg_ci(i64, dims[k]), (unsigned)k, ""), 1, "");
        d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, st, cg_ci(i64, stride), (unsigned)k, ""), 2, "");
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
LLVMValueRef cg_lower_view(CgLower *L, const IrInst *in, LLVMValueRef arr) {
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
        LLVMValueRef stride = cg_lower_dim(L, arr, 2, (unsigned)dd), first;
        if (in->op == IR_TRANSPOSE && in->nargs > 1) {
            /* result dimension dd is dimension args[1 + dd] of arr (0..ndim-1, checked) */
            LLVMValueRef p = cg_lower_val(L, in, 1 + dd);
            if (!p)
                return NULL;
            LLVMValueRef e = cg_lower_dim(L, arr, 1, 0), s = cg_lower_dim(L, arr, 2, 0);
            for (int q = 1; q < at->ndim; q++) {
                LLVMValueRef is = LLVMBuildICmp(B, LLVMIntEQ, p, LLVMConstInt(i64, (unsigned)q, 0), "");
                e = LLVMBuildSelect(B, is, cg_lower_dim(L, arr, 1, (unsigned)q), e, "");
                s = LLVMBuildSelect(B, is, cg_lower_dim(L, arr, 2, (unsigned)q), s, "");
            }
            sh = LLVMBuildInsertValue(B, sh, e, (unsigned)dd, "");
            st = LLVMBuildInsertValue(B, st, s, (unsigned)dd, "");
            continue;
        }
        if (in->op == IR_TRANSPOSE) {
            sh = LLVMBuildInsertValue(B, sh, cg_lower_dim(L, arr, 1, (unsigned)dd), (unsigned)(at->ndim - 1 - dd), "");
            st = LLVMBuildInsertValue(B, st, stride, (unsigned)(at->ndim - 1 - dd), "");
            continue;
        }
        if ((in->imm.i >> dd) & 1) {
            LLVMValueRef len = k + 2 < in->nargs ? cg_lower_val(L, in, k + 1) : NULL;
            LLVMValueRef step = len ? cg_lower_val(L, in, k + 2) : NULL;
            if (!(first = len && step ? cg_lower_val(L, in, k) : NULL))
                return NULL;
            k += 3;
            sh = LLVMBuildInsertValue(B, sh, len, (unsigned)r, "");
            st = LLVMBuildInsertValue(B, st, LLVMBuildMul(B, stride, step, ""), (unsigned)r, "");
            r++;
        } else {
            if (!(first = k < in->nargs ? cg_lower_val(L, in, k) : NULL))
                return NULL;
            k++;
            LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, first, LLVMConstNull(i64), "");
            first = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, first, cg_lower_dim(L, arr, 1, (unsigned)dd), ""),
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

/* IR_RESHAPE: arr's data and memory header with new extents and C strides.  IR_ADDRARRAY
 * (arr NULL): the same descriptor at the address args[0], without a memory header, so
 * reference counting passes over it (the memory outlives the program: a frozen global). */
LLVMValueRef cg_lower_reshape(CgLower *L, const IrInst *in, LLVMValueRef arr) {
    LLVMBuilderRef B = L->b;
    const Type *rt = in->type;
    if (rt->kind != TY_ARRAY || in->nargs != 1 + rt->ndim) {
        cg_error(L, in->loc, "bad %s", ir_op_name[in->op]);
        return NULL;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->M->ctx);
    LLVMValueRef d = LLVMGetPoison(cg_reg_type(L->M, rt));
    LLVMValueRef sh = LLVMBuildExtractValue(B, d, CG_DESC_SHAPE, "");
    LLVMValueRef st = LLVMBuildExtractValue(B, d, CG_DESC_STRIDES, "");
    LLVMValueRef stride = LLVMConstInt(i64, (unsigned long long)ty_size(rt->dtype), 0);
    for (int k = rt->ndim - 1; k >= 0; k--) {
        LLVMValueRef e = cg_lower_val(L, in, 1 + k);
        if (!e)
            return NULL;
        sh = LLVMBuildInsertValue(B, sh, e, (unsigned)k, "");
        st = LLVMBuildInsertValue(B, st, stride, (unsigned)k, "");
        stride = LLVMBuildMul(B, stride, e, "");
    }
    LLVMTypeRef ptr = LLVMPointerTypeInContext(L->M->ctx, 0);
    LLVMValueRef data, mi;
    if (arr) {
        data = LLVMBuildExtractValue(B, arr, CG_DESC_DATA, "");
        mi = LLVMBuildExtractValue(B, arr, CG_DESC_MEMINFO, "");
    } else {
        LLVMValueRef addr = cg_lower_val(L, in, 0);
        if (!addr)
            return NULL;
        data = LLVMBuildIntToPtr(B, addr, ptr, "frozen");
        mi = LLVMConstPointerNull(ptr);
    }
    d = LLVMBuildInsertValue(B, d, data, CG_DESC_DATA, "");
    d = LLVMBuildInsertValue(B, d, sh, CG_DESC_SHAPE, "");
    d = LLVMBuildInsertValue(B, d, st, CG_DESC_STRIDES, "");
    return LLVMBuildInsertValue(B, d, mi, CG_DESC_MEMINFO, "");
}

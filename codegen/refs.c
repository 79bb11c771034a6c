/* refs.c — the memory of arrays that compiled code creates: allocation and reference counts in
 * generated code (CPU).
 *
 * An array made by `alloc` lives in one block from the C library:
 *
 *   malloc(64 + nbytes + 48) = [ CgMemInfo header | 0-48 bytes | 64-byte-aligned data ]
 *
 * (malloc, not aligned_alloc: glibc serves small malloc blocks from its per-thread cache in
 * ~13 ns, where aligned_alloc takes its slow path, ~100 ns, and a temporary array made per
 * iteration of a loop pays that each time; the padding keeps the data 64-byte aligned)
 * and its descriptor's fourth field (the "meminfo", codegen.h) points at the header; arrays
 * that compiled code did not make (arguments from C or Python, CUDA static arrays) carry NULL
 * there and are never counted.  The count starts at 1 for the new reference `alloc` returns;
 * increments are atomic (monotonic), decrements atomic (acq_rel), and the one that takes the
 * count to 0 calls the header's destructor when it has one (a container releasing the references
 * it holds) and then free() on the block.  Only libc is called, so ahead-of-time objects and the
 * JIT share this code, and the library releases what reaches C or Python the same way
 * (nj_array_release, runtime/arrays.c).  The helpers are small internal functions of the module
 * marked alwaysinline: with a NULL meminfo known at compile time (every array argument of an
 * entry function) they fold away.
 */
#include "cg_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the helpers in the module ----------------------------------------------------------------- */
static LLVMValueRef helper(CgModule *M, bool inc) {
    const char *name = inc ? "numjit.incref" : "numjit.decref";
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, name);
    if (fn)
        return fn;
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), i64 = LLVMInt64TypeInContext(C);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(C), &ptr, 1, false);
    fn = LLVMAddFunction(M->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    cg_add_fn_attr(M, fn, "alwaysinline");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry");
    LLVMBasicBlockRef count = LLVMAppendBasicBlockInContext(C, fn, "count");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "done");
    LLVMValueRef mi = LLVMGetParam(fn, 0);
    LLVMPositionBuilderAtEnd(B, entry);
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, mi, ""), done, count);
    LLVMPositionBuilderAtEnd(B, count);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    if (inc) {
        LLVMBuildAtomicRMW(B, LLVMAtomicRMWBinOpAdd, mi, one, LLVMAtomicOrderingMonotonic, false);
        LLVMBuildBr(B, done);
    } else {
        LLVMValueRef old = LLVMBuildAtomicRMW(B, LLVMAtomicRMWBinOpSub, mi, one,
                                              LLVMAtomicOrderingAcquireRelease, false);
        LLVMBasicBlockRef release = LLVMAppendBasicBlockInContext(C, fn, "release");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, old, one, ""), release, done);
        LLVMPositionBuilderAtEnd(B, release);
        /* the destructor first (a container's references), then the block */
        LLVMValueRef doff = LLVMConstInt(i64, CG_MEMINFO_DTOR, 0);
        LLVMValueRef dslot = LLVMBuildGEP2(B, LLVMInt8TypeInContext(C), mi, &doff, 1, "");
        LLVMValueRef dtor = LLVMBuildLoad2(B, ptr, dslot, "dtor");
        LLVMBasicBlockRef destroy = LLVMAppendBasicBlockInContext(C, fn, "destroy");
        LLVMBasicBlockRef do_free = LLVMAppendBasicBlockInContext(C, fn, "free");
        LLVMBuildCondBr(B, LLVMBuildIsNull(B, dtor, ""), do_free, destroy);
        LLVMPositionBuilderAtEnd(B, destroy);
        LLVMTypeRef dtor_ty = LLVMFunctionType(LLVMVoidTypeInContext(C), &ptr, 1, false);
        LLVMBuildCall2(B, dtor_ty, dtor, &mi, 1, "");
        LLVMBuildBr(B, do_free);
        LLVMPositionBuilderAtEnd(B, do_free);
        LLVMValueRef free_fn = LLVMGetNamedFunction(M->mod, "free");
        LLVMTypeRef free_ty = LLVMFunctionType(LLVMVoidTypeInContext(C), &ptr, 1, false);
        if (!free_fn)
            free_fn = LLVMAddFunction(M->mod, "free", free_ty);
        LLVMBuildCall2(B, free_ty, free_fn, &mi, 1, "");
        LLVMBuildBr(B, done);
    }
    LLVMPositionBuilderAtEnd(B, done);
    LLVMBuildRetVoid(B);
    LLVMDisposeBuilder(B);
    return fn;
}

static void count(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v, bool inc) {
    if (!ty_has_refs(t))
        return;
    if (t->kind == TY_TUPLE) {
        for (int i = 0; i < t->nelems; i++)
            if (ty_has_refs(t->elems[i]))
                count(M, B, t->elems[i], LLVMBuildExtractValue(B, v, (unsigned)i, ""), inc);
        return;
    }
    LLVMValueRef fn = helper(M, inc);
    if (t->kind == TY_RECORD) { /* a jitclass instance: its header before the record */
        LLVMContextRef C = M->ctx;
        LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(C),
                                        (unsigned long long)-(int64_t)CG_INSTANCE_HEADER, 1);
        LLVMValueRef at = LLVMBuildGEP2(B, LLVMInt8TypeInContext(C), v, &off, 1, "");
        LLVMValueRef mi = LLVMBuildSelect(B, LLVMBuildIsNull(B, v, ""), v, at, "meminfo");
        LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, &mi, 1, "");
        return;
    }
    LLVMValueRef mi = t->kind == TY_LIST || t->kind == TY_DICT || t->kind == TY_SET
                          ? v /* a list or dict is its block's address (list.c, dict.c) */
                                         : LLVMBuildExtractValue(B, v, CG_DESC_MEMINFO, "meminfo");
    LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, &mi, 1, "");
}

void cg_incref(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v) {
    count(M, B, t, v, true);
}

void cg_decref(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v) {
    count(M, B, t, v, false);
}

/* ---- parameters ----------------------------------------------------------------------------------
 * A method of a jitclass called in a loop (`p.step(dt)`) gets the instance as a parameter, which
 * the callee stores into its variable `self`: counted as any store, that is an atomic increment
 * at entry and an atomic decrement at every exit, per call, which also keeps LLVM from holding
 * the members in registers across the call.  The caller holds a reference for the whole call
 * (in a variable, or an owned temporary cleared after the statement), so a variable that only
 * ever holds its parameter needs none of its own.  Only instances are treated so: an array
 * parameter from Python has no header (its counting folds away already). */
bool *cg_borrowed_vars(const IrFunc *f) {
    bool *b = calloc((size_t)f->nvars + 1, sizeof *b);
    int *stores = calloc((size_t)f->nvars + 1, sizeof *stores);
    if (!b || !stores) {
        free(b);
        free(stores);
        return NULL;
    }
    for (int v = 0; v < f->nvars; v++)
        b[v] = ty_is_instance(f->vars[v].type);
    for (int k = 0; k < f->nblocks; k++)
        for (const IrInst *in = f->blocks[k] ? f->blocks[k]->first : NULL; in; in = in->next) {
            if (in->op != IR_STORE && in->op != IR_OWN && in->op != IR_CLEAR)
                continue;
            int v = in->imm.index;
            if (v < 0 || v >= f->nvars)
                continue;
            if (in->op != IR_STORE || in->nargs != 1 || !in->args[0] ||
                in->args[0]->op != IR_PARAM || ++stores[v] > 1)
                b[v] = false;
        }
    free(stores);
    return b;
}

/* ---- allocation ---------------------------------------------------------------------------------- */
static LLVMValueRef with_overflow(LLVMBuilderRef B, CgModule *M, const char *name, LLVMValueRef a,
                                  LLVMValueRef b, LLVMValueRef *ov) {
    LLVMTypeRef fty;
    LLVMValueRef fn = cg_intrinsic(M, name, LLVMTypeOf(a), &fty);
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef r = LLVMBuildCall2(B, fty, fn, args, 2, "");
    LLVMValueRef o = LLVMBuildExtractValue(B, r, 1, "");
    *ov = *ov ? LLVMBuildOr(B, *ov, o, "") : o;
    return LLVMBuildExtractValue(B, r, 0, "");
}

LLVMValueRef cg_alloc_array(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef *dims,
                            LLVMValueRef *failed) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(C), ptr = LLVMPointerTypeInContext(C, 0);
    int nd = t->ndim;
    int64_t item = ty_size(t->dtype);
    /* nbytes = prod(dims) * item, checked: the extents are >= 0 and their running products
     * at most INT64_MAX (the typer checks, typer_alloc.c); the item size comes last so that an
     * empty array of a huge extent, (2**62, 0), is not taken for an overflow */
    LLVMValueRef ov = NULL, nbytes = LLVMConstInt(i64, 1, 0);
    for (int d = 0; d < nd; d++)
        nbytes = with_overflow(B, M, "llvm.umul.with.overflow", nbytes, dims[d], &ov);
    nbytes = with_overflow(B, M, "llvm.umul.with.overflow", nbytes,
                           LLVMConstInt(i64, (unsigned long long)item, 0), &ov);
    /* header + data + the 48 bytes that align malloc's 16-byte-aligned block's data to 64 */
    LLVMValueRef total = with_overflow(B, M, "llvm.uadd.with.overflow", nbytes,
                                       LLVMConstInt(i64, CG_MEMINFO_SIZE + 48, 0), &ov);
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntSLT, total, LLVMConstNull(i64), "");
    ov = ov ? LLVMBuildOr(B, ov, big, "") : big;
    /* an impossible size asks for nothing and fails below like a refused allocation */
    total = LLVMBuildSelect(B, ov, LLVMConstInt(i64, 64, 0), total, "");
    LLVMTypeRef mty = LLVMFunctionType(ptr, &i64, 1, false);
    LLVMValueRef mfn = LLVMGetNamedFunction(M->mod, "malloc");
    if (!mfn)
        mfn = LLVMAddFunction(M->mod, "malloc", mty);
    LLVMValueRef mi = LLVMBuildCall2(B, mty, mfn, &total, 1, "meminfo");
    LLVMValueRef null = LLVMBuildIsNull(B, mi, "");
    *failed = LLVMBuildOr(B, ov, null, "alloc.failed");
    /* the header: count 1, nbytes, no destructor; on failure, the block of an impossible size goes back */
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B);
    LLVMValueRef fn = LLVMGetBasicBlockParent(cur);
    LLVMBasicBlockRef init = LLVMAppendBasicBlockInContext(C, fn, "alloc.init");
    LLVMBasicBlockRef undo = LLVMAppendBasicBlockInContext(C, fn, "alloc.undo");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(C, fn, "alloc.done");
    LLVMBuildCondBr(B, *failed, undo, init);
    LLVMPositionBuilderAtEnd(B, undo);
    LLVMTypeRef free_ty = LLVMFunctionType(LLVMVoidTypeInContext(C), &ptr, 1, false);
    LLVMValueRef free_fn = LLVMGetNamedFunction(M->mod, "free");
    if (!free_fn)
        free_fn = LLVMAddFunction(M->mod, "free", free_ty);
    LLVMBuildCall2(B, free_ty, free_fn, &mi, 1, ""); /* free(NULL) does nothing */
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, init);
    LLVMBuildStore(B, LLVMConstInt(i64, 1, 0), mi);
    LLVMValueRef off = LLVMConstInt(i64, 8, 0);
    LLVMBuildStore(B, nbytes, LLVMBuildGEP2(B, LLVMInt8TypeInContext(C), mi, &off, 1, ""));
    off = LLVMConstInt(i64, CG_MEMINFO_DTOR, 0);
    LLVMBuildStore(B, LLVMConstNull(ptr), LLVMBuildGEP2(B, LLVMInt8TypeInContext(C), mi, &off, 1, ""));
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    /* the descriptor: data at the first multiple of 64 from the end of the header (malloc
     * gives 16-byte alignment, so at most 48 bytes on), strides in bytes for the layout */
    LLVMValueRef addr = LLVMBuildPtrToInt(B, mi, i64, "");
    LLVMValueRef pad = LLVMBuildAnd(B, LLVMBuildNeg(B, addr, ""), LLVMConstInt(i64, 63, 0), "");
    LLVMValueRef hoff = LLVMBuildAdd(B, pad, LLVMConstInt(i64, CG_MEMINFO_SIZE, 0), "");
    LLVMValueRef data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(C), mi, &hoff, 1, "data");
    LLVMTypeRef dt = LLVMArrayType2(i64, (uint64_t)nd);
    LLVMValueRef shape = LLVMGetPoison(dt), strides = LLVMGetPoison(dt);
    LLVMValueRef stride = LLVMConstInt(i64, (unsigned long long)item, 0);
    for (int k = 0; k < nd; k++) {
        int d = t->layout == LAYOUT_F ? k : nd - 1 - k;
        shape = LLVMBuildInsertValue(B, shape, dims[d], (unsigned)d, "");
        strides = LLVMBuildInsertValue(B, strides, stride, (unsigned)d, "");
        stride = LLVMBuildMul(B, stride, dims[d], "");
    }
    LLVMValueRef desc = LLVMGetPoison(cg_reg_type(M, t));
    desc = LLVMBuildInsertValue(B, desc, data, CG_DESC_DATA, "");
    desc = LLVMBuildInsertValue(B, desc, shape, CG_DESC_SHAPE, "");
    desc = LLVMBuildInsertValue(B, desc, strides, CG_DESC_STRIDES, "");
    return LLVMBuildInsertValue(B, desc, mi, CG_DESC_MEMINFO, "");
}

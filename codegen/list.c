/* list.c — the storage of lists in generated code (CPU): the IR ops list.new, list.len,
 * list.get, list.set and list.resize (ir/ops.def).
 *
 * A list value is the address of one block from malloc() that begins with the CgMemInfo
 * header every counted object has (refcount, nbytes, dtor; codegen.h), so variables, calls,
 * returns and the C library count and release lists exactly as they do arrays:
 *
 *   [ refcount | nbytes | dtor | size | capacity | data ]      (CG_LIST_* offsets, codegen.h)
 *                                                   └──▶ malloc'd items, capacity of them
 *
 * The items live in a second block so that the list's address never changes when it grows:
 * every variable holding the list sees appends made through any other (Python's aliasing).
 * Growing doubles the capacity (at least 4) with realloc(); new items are zero bits, which for
 * an array item is a descriptor with a NULL meminfo that releasing ignores.  Items are stored
 * in their memory form (cg_mem_type: bool as a byte).  When the items hold references (a list
 * of arrays), the list owns one reference per item: list.set counts the new item up before the
 * old one down, shrinking releases the dropped items, and the destructor (run by the last
 * decref, refs.c) releases every item before freeing the items' block.  Three small functions
 * per item type do the work (numjit.list.new/resize/dtor.<type>), so each op lowers to a call
 * or a load; the destructor is stored again by every resize, which is what gives `[]` (made
 * before its item type is known) the destructor of the type its first append decides.
 */
#include "cg_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The block is numjit.h's NjList, which C callers make and read. */
_Static_assert(offsetof(NjList, dtor) == CG_MEMINFO_DTOR, "NjList.dtor");
_Static_assert(offsetof(NjList, size) == CG_LIST_SIZE, "NjList.size");
_Static_assert(offsetof(NjList, capacity) == CG_LIST_CAP, "NjList.capacity");
_Static_assert(offsetof(NjList, items) == CG_LIST_DATA, "NjList.items");
_Static_assert(sizeof(NjList) == CG_LIST_BLOCK, "NjList size");

static LLVMTypeRef i64t(CgModule *M) { return LLVMInt64TypeInContext(M->ctx); }
static LLVMTypeRef ptrt(CgModule *M) { return LLVMPointerTypeInContext(M->ctx, 0); }

/* The item's memory type (an item of list(undefined) is never stored: one byte). */
static LLVMTypeRef item_type(CgModule *M, const Type *item) {
    return item ? cg_mem_type(M, item) : LLVMInt8TypeInContext(M->ctx);
}

static LLVMValueRef field(CgModule *M, LLVMBuilderRef B, LLVMValueRef l, int off) {
    LLVMValueRef o = LLVMConstInt(i64t(M), (unsigned long long)off, 0);
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(M->ctx), l, &o, 1, "");
}

static LLVMValueRef load_field(CgModule *M, LLVMBuilderRef B, LLVMValueRef l, int off,
                               LLVMTypeRef t) {
    return LLVMBuildLoad2(B, t, field(M, B, l, off), "");
}

static LLVMValueRef libc(CgModule *M, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                         unsigned n, LLVMTypeRef *fty) {
    *fty = LLVMFunctionType(ret, params, n, false);
    LLVMValueRef f = LLVMGetNamedFunction(M->mod, name);
    return f ? f : LLVMAddFunction(M->mod, name, *fty);
}

/* A new internal function `name.<item>` of type fty, or the one the module has; *fresh says
 * whether its body is still to be written (the builder is then at its entry). */
static LLVMValueRef helper(CgModule *M, const char *name, const Type *item, LLVMTypeRef fty,
                           LLVMBuilderRef B, bool *fresh) {
    char full[256];
    snprintf(full, sizeof full, "numjit.list.%s.%s", name, item ? item->name : "undefined");
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, full);
    *fresh = !fn;
    if (fn)
        return fn;
    fn = LLVMAddFunction(M->mod, full, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(M->ctx, fn, "entry"));
    return fn;
}

/* for (i = lo; i < hi; i++) release item i of data: the loop around cg_decref. */
static void release_items(CgModule *M, LLVMBuilderRef B, LLVMValueRef fn, const Type *item,
                          LLVMValueRef data, LLVMValueRef lo, LLVMValueRef hi) {
    LLVMContextRef C = M->ctx;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(C, fn, "rel.head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(C, fn, "rel.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "rel.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64t(M), "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMTypeRef mt = item_type(M, item);
    LLVMValueRef p = LLVMBuildGEP2(B, mt, data, &i, 1, "");
    cg_decref(M, B, item, cg_from_mem(M, B, item, LLVMBuildLoad2(B, mt, p, "")));
    LLVMValueRef next = LLVMBuildAdd(B, i, LLVMConstInt(i64t(M), 1, 0), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, head);
    LLVMAddIncoming(i, &lo, &pre, 1);
    LLVMAddIncoming(i, &next, &end, 1);
    LLVMPositionBuilderAtEnd(B, done);
}

/* void dtor(mi): the items released (when they hold references), their block freed. */
static LLVMValueRef dtor_fn(CgModule *M, const Type *item) {
    LLVMTypeRef ptr = ptrt(M);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(M->ctx), &ptr, 1, false);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(M->ctx);
    bool fresh;
    LLVMValueRef fn = helper(M, "dtor", item, fty, B, &fresh);
    if (fresh) {
        LLVMValueRef l = LLVMGetParam(fn, 0);
        LLVMValueRef data = load_field(M, B, l, CG_LIST_DATA, ptr);
        if (item && ty_has_refs(item))
            release_items(M, B, fn, item, data, LLVMConstInt(i64t(M), 0, 0),
                          load_field(M, B, l, CG_LIST_SIZE, i64t(M)));
        LLVMTypeRef ft;
        LLVMValueRef f = libc(M, "free", LLVMVoidTypeInContext(M->ctx), &ptr, 1, &ft);
        LLVMBuildCall2(B, ft, f, &data, 1, "");
        LLVMBuildRetVoid(B);
    }
    LLVMDisposeBuilder(B);
    return fn;
}

/* i1 resize(l, n): the list's length set to n (>= 0), growing its items' block when needed;
 * false (the list unchanged) when the memory cannot be had. */
static LLVMValueRef resize_fn(CgModule *M, const Type *item) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = ptrt(M), i64 = i64t(M), i1 = LLVMInt1TypeInContext(C);
    LLVMTypeRef params[2] = {ptr, i64};
    LLVMTypeRef fty = LLVMFunctionType(i1, params, 2, false);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    bool fresh;
    LLVMValueRef fn = helper(M, "resize", item, fty, B, &fresh);
    if (!fresh) {
        LLVMDisposeBuilder(B);
        return fn;
    }
    LLVMValueRef dtor = dtor_fn(M, item);
    LLVMValueRef l = LLVMGetParam(fn, 0), n = LLVMGetParam(fn, 1);
    LLVMTypeRef mt = item_type(M, item);
    LLVMValueRef es = LLVMSizeOf(mt); /* the item's size in bytes (i64) */
    LLVMValueRef size = load_field(M, B, l, CG_LIST_SIZE, i64);
    LLVMValueRef cap = load_field(M, B, l, CG_LIST_CAP, i64);
    LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(C, fn, "grow");
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(C, fn, "fail");
    LLVMBasicBlockRef grown = LLVMAppendBasicBlockInContext(C, fn, "grown");
    LLVMBasicBlockRef sized = LLVMAppendBasicBlockInContext(C, fn, "sized");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, cap, ""), grow, sized);
    /* the new capacity: max(n, 2 * capacity, 4), its bytes checked for overflow */
    LLVMPositionBuilderAtEnd(B, grow);
    LLVMValueRef twice = LLVMBuildShl(B, cap, LLVMConstInt(i64, 1, 0), "");
    LLVMValueRef nc = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, twice, n, ""), twice, n, "");
    nc = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, nc, LLVMConstInt(i64, 4, 0), ""),
                         LLVMConstInt(i64, 4, 0), nc, "");
    LLVMTypeRef oty;
    LLVMValueRef ofn = cg_intrinsic(M, "llvm.smul.with.overflow", i64, &oty);
    LLVMValueRef oargs[2] = {nc, es};
    LLVMValueRef prod = LLVMBuildCall2(B, oty, ofn, oargs, 2, "");
    LLVMValueRef bytes = LLVMBuildExtractValue(B, prod, 0, "");
    LLVMValueRef ov = LLVMBuildExtractValue(B, prod, 1, "");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(C, fn, "realloc");
    LLVMBuildCondBr(B, ov, fail, call);
    LLVMPositionBuilderAtEnd(B, call);
    LLVMTypeRef rparams[2] = {ptr, i64}, rty;
    LLVMValueRef rfn = libc(M, "realloc", ptr, rparams, 2, &rty);
    LLVMValueRef rargs[2] = {load_field(M, B, l, CG_LIST_DATA, ptr), bytes};
    LLVMValueRef p = LLVMBuildCall2(B, rty, rfn, rargs, 2, "");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, p, ""), fail, grown);
    LLVMPositionBuilderAtEnd(B, fail);
    LLVMBuildRet(B, LLVMConstInt(i1, 0, 0));
    LLVMPositionBuilderAtEnd(B, grown);
    LLVMBuildStore(B, p, field(M, B, l, CG_LIST_DATA));
    LLVMBuildStore(B, nc, field(M, B, l, CG_LIST_CAP));
    LLVMBuildBr(B, sized);
    /* new items are zero bits; dropped ones are released */
    LLVMPositionBuilderAtEnd(B, sized);
    LLVMValueRef data = load_field(M, B, l, CG_LIST_DATA, ptr);
    LLVMBasicBlockRef zero = LLVMAppendBasicBlockInContext(C, fn, "zero");
    LLVMBasicBlockRef shrink = LLVMAppendBasicBlockInContext(C, fn, "shrink");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, size, ""), zero, shrink);
    LLVMPositionBuilderAtEnd(B, zero);
    LLVMValueRef from = LLVMBuildGEP2(B, mt, data, &size, 1, "");
    LLVMBuildMemSet(B, from, LLVMConstInt(LLVMInt8TypeInContext(C), 0, 0),
                    LLVMBuildMul(B, LLVMBuildSub(B, n, size, ""), es, ""), 1);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, shrink);
    if (item && ty_has_refs(item))
        release_items(M, B, fn, item, data, n, size);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMBuildStore(B, n, field(M, B, l, CG_LIST_SIZE));
    LLVMBuildStore(B, dtor, field(M, B, l, CG_MEMINFO_DTOR));
    LLVMBuildRet(B, LLVMConstInt(i1, 1, 0));
    LLVMDisposeBuilder(B);
    return fn;
}

/* ptr new(n): a new list of n zero items with a count of 1, or NULL without memory. */
static LLVMValueRef new_fn(CgModule *M, const Type *item) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = ptrt(M), i64 = i64t(M);
    LLVMTypeRef fty = LLVMFunctionType(ptr, &i64, 1, false);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    bool fresh;
    LLVMValueRef fn = helper(M, "new", item, fty, B, &fresh);
    if (!fresh) {
        LLVMDisposeBuilder(B);
        return fn;
    }
    LLVMValueRef resize = resize_fn(M, item), dtor = dtor_fn(M, item);
    LLVMTypeRef mty;
    LLVMValueRef mfn = libc(M, "malloc", ptr, &i64, 1, &mty);
    LLVMValueRef bytes = LLVMConstInt(i64, CG_LIST_BLOCK, 0);
    LLVMValueRef l = LLVMBuildCall2(B, mty, mfn, &bytes, 1, "list");
    LLVMBasicBlockRef init = LLVMAppendBasicBlockInContext(C, fn, "init");
    LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(C, fn, "none");
    LLVMBasicBlockRef undo = LLVMAppendBasicBlockInContext(C, fn, "undo");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(C, fn, "ok");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, l, ""), none, init);
    LLVMPositionBuilderAtEnd(B, none);
    LLVMBuildRet(B, LLVMConstNull(ptr));
    LLVMPositionBuilderAtEnd(B, init);
    LLVMBuildStore(B, LLVMConstInt(i64, 1, 0), l);
    LLVMBuildStore(B, LLVMConstInt(i64, CG_LIST_BLOCK - CG_LIST_SIZE, 0), field(M, B, l, 8));
    LLVMBuildStore(B, dtor, field(M, B, l, CG_MEMINFO_DTOR));
    LLVMBuildStore(B, LLVMConstInt(i64, 0, 0), field(M, B, l, CG_LIST_SIZE));
    LLVMBuildStore(B, LLVMConstInt(i64, 0, 0), field(M, B, l, CG_LIST_CAP));
    LLVMBuildStore(B, LLVMConstNull(ptr), field(M, B, l, CG_LIST_DATA));
    LLVMValueRef args[2] = {l, LLVMGetParam(fn, 0)};
    LLVMValueRef grew = LLVMBuildCall2(B, LLVMGlobalGetValueType(resize), resize, args, 2, "");
    LLVMBuildCondBr(B, grew, ok, undo);
    LLVMPositionBuilderAtEnd(B, undo);
    LLVMTypeRef fty2;
    LLVMValueRef ffn = libc(M, "free", LLVMVoidTypeInContext(C), &ptr, 1, &fty2);
    LLVMBuildCall2(B, fty2, ffn, &l, 1, "");
    LLVMBuildRet(B, LLVMConstNull(ptr));
    LLVMPositionBuilderAtEnd(B, ok);
    LLVMBuildRet(B, l);
    LLVMDisposeBuilder(B);
    return fn;
}

/* A failed allocation leaves the function through raise site `site` (MemoryError). */
static void fail_if(CgLower *L, LLVMValueRef failed, int site) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(M->ctx);
    LLVMValueRef st = LLVMBuildSelect(B, failed, LLVMConstInt(i32, (unsigned long long)site, 0),
                                      LLVMConstInt(i32, 0, 0), "");
    cg_lower_propagate(L, st);
}

static LLVMValueRef item_addr(CgModule *M, LLVMBuilderRef B, const Type *item, LLVMValueRef l,
                              LLVMValueRef i) {
    LLVMValueRef data = load_field(M, B, l, CG_LIST_DATA, ptrt(M));
    return LLVMBuildGEP2(B, item_type(M, item), data, &i, 1, "");
}

LLVMValueRef cg_lower_list(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef a = cg_lower_val(L, in, 0), b = NULL, c = NULL;
    if (!a || (in->nargs > 1 && !(b = cg_lower_val(L, in, 1))) ||
        (in->nargs > 2 && !(c = cg_lower_val(L, in, 2))))
        return NULL;
    const Type *lt = in->op == IR_LNEW ? in->type : in->args[0]->type;
    const Type *item = lt->dtype;
    switch (in->op) {
    case IR_LNEW: {
        LLVMValueRef fn = new_fn(M, item);
        LLVMValueRef l = LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, &a, 1, "list");
        fail_if(L, LLVMBuildIsNull(B, l, ""), in->imm.index);
        return l;
    }
    case IR_LRESIZE: {
        LLVMValueRef fn = resize_fn(M, item);
        LLVMValueRef args[2] = {a, b};
        LLVMValueRef ok = LLVMBuildCall2(B, LLVMGlobalGetValueType(fn), fn, args, 2, "");
        fail_if(L, LLVMBuildNot(B, ok, ""), in->imm.index);
        return NULL;
    }
    case IR_LLEN:
        return load_field(M, B, a, CG_LIST_SIZE, i64t(M));
    case IR_LGET: {
        LLVMValueRef p = item_addr(M, B, item, a, b);
        return cg_from_mem(M, B, item, LLVMBuildLoad2(B, item_type(M, item), p, ""));
    }
    case IR_LSET: {
        LLVMValueRef p = item_addr(M, B, item, a, b);
        if (ty_has_refs(item)) { /* the new item counted up before the old one down */
            cg_incref(M, B, item, c);
            LLVMValueRef old = cg_from_mem(M, B, item, LLVMBuildLoad2(B, item_type(M, item), p, ""));
            LLVMBuildStore(B, cg_to_mem(M, B, item, c), p);
            cg_decref(M, B, item, old);
        } else {
            LLVMBuildStore(B, cg_to_mem(M, B, item, c), p);
        }
        return NULL;
    }
    default:
        cg_error(L, in->loc, "'%s' is not a list operation", ir_op_name[in->op]);
        return NULL;
    }
}

/* The entry's result: list l (type t, items numbers) as an NjArray at p of its items, 1-d and
 * contiguous, owned by the list (the reference `ret` made for the caller). */
/* A list of strings as an NjArray: its NjStr items, dtype NJ_DTYPE_COUNT (numjit.h), the
 * fields written one by one (there is no array type of strings to describe it). */
static void put_str_items(CgModule *M, LLVMBuilderRef B, LLVMValueRef l, LLVMValueRef p) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(M->ctx), i32 = LLVMInt32TypeInContext(M->ctx);
    LLVMBuildMemSet(B, p, LLVMConstNull(i8), LLVMConstInt(i64t(M), sizeof(NjArray), 0), 8);
    LLVMBuildStore(B, load_field(M, B, l, CG_LIST_DATA, ptrt(M)),
                   field(M, B, p, offsetof(NjArray, data)));
    LLVMBuildStore(B, LLVMConstInt(i32, 1, 0), field(M, B, p, offsetof(NjArray, ndim)));
    LLVMBuildStore(B, LLVMConstInt(i32, NJ_DTYPE_COUNT, 0), field(M, B, p, offsetof(NjArray, dtype)));
    LLVMBuildStore(B, load_field(M, B, l, CG_LIST_SIZE, i64t(M)),
                   field(M, B, p, offsetof(NjArray, shape)));
    LLVMBuildStore(B, LLVMConstInt(i64t(M), sizeof(NjStr), 0),
                   field(M, B, p, offsetof(NjArray, strides)));
    LLVMBuildStore(B, l, field(M, B, p, offsetof(NjArray, owner)));
}

void cg_list_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef l,
                         LLVMValueRef p) {
    if (t->dtype == ty_str) {
        put_str_items(M, B, l, p);
        return;
    }
    const Type *at = ty_array(t->dtype, 1, LAYOUT_C);
    LLVMTypeRef i64 = i64t(M), dims = LLVMArrayType2(i64, 1);
    LLVMValueRef n = load_field(M, B, l, CG_LIST_SIZE, i64);
    LLVMValueRef es = LLVMConstInt(i64, (unsigned long long)ty_size(t->dtype), 0);
    LLVMValueRef d = LLVMGetPoison(cg_reg_type(M, at));
    d = LLVMBuildInsertValue(B, d, load_field(M, B, l, CG_LIST_DATA, ptrt(M)), CG_DESC_DATA, "");
    d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, LLVMGetPoison(dims), n, 0, ""),
                             CG_DESC_SHAPE, "");
    d = LLVMBuildInsertValue(B, d, LLVMBuildInsertValue(B, LLVMGetPoison(dims), es, 0, ""),
                             CG_DESC_STRIDES, "");
    d = LLVMBuildInsertValue(B, d, l, CG_DESC_MEMINFO, "");
    cg_put_njarray(M, B, at, d, p);
}

/* dict.c — typed dicts and sets in generated code (CPU): the IR ops dict.new ... dict.clear and
 * set.new ... set.binop (ir/ops.def) as calls of the runtime's hash tables (runtime/dict.c,
 * numjit_dict_*; runtime/set.c, numjit_set_*, whose keys are numbers and which shares the
 * equality functions and hashes made here).
 *
 * A dict value is the address of the runtime's block, which begins with the CgMemInfo header,
 * so refs.c counts dicts as it counts lists.  Keys and values travel by address: an operand is
 * stored in its memory form (cg_mem_type) in a slot of the function's entry block and the slot's
 * address passed; dict.key and dict.value load from the address the runtime gives.  What the
 * runtime cannot know about the types comes from three small functions per type made here
 * (numjit.dict.eq/rel.<type>), whose addresses every dict.insert hands to the table (the
 * first keeps them: dict.new makes a dict before its types need be known):
 *
 *   i1 eq(ptr a, ptr b)   keys equal: numbers by value (Python's ==), strings by their text,
 *                         tuples element by element
 *   void rel(ptr item)    releases the references an item holds (absent for numbers)
 *
 * and the key's hash is computed here before find and insert: Python's hash of an integer, a
 * float (through the runtime's numjit_dict_hash_int/uint/float), a string (numjit_str_hash)
 * and a tuple (its items' hashes combined by numjit_dict_hash_tuple), so that equal keys of
 * any of these hash alike.  The dict counts the key and value it is given up (insert,
 * setvalue); the runtime releases what it drops through rel.
 */
#include "cg_internal.h"

#include <stdio.h>
#include <string.h>

static LLVMTypeRef i64t(CgModule *M) { return LLVMInt64TypeInContext(M->ctx); }
static LLVMTypeRef ptrt(CgModule *M) { return LLVMPointerTypeInContext(M->ctx, 0); }

/* A call of the runtime's function `name` (declared on first use). */
static LLVMValueRef rt(CgModule *M, LLVMBuilderRef B, const char *name, LLVMTypeRef ret,
                       LLVMTypeRef *pt, LLVMValueRef *args, unsigned n) {
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, false);
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(M->mod, name, fty);
        cg_add_fn_attr(M, fn, "nounwind");
    }
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* A new internal function `numjit.dict.<what>.<type>` of type fty, or the module's; *fresh:
 * its body is to be written (the builder is then at its entry). */
static LLVMValueRef helper(CgModule *M, const char *what, const Type *t, LLVMTypeRef fty,
                           LLVMBuilderRef B, bool *fresh) {
    char full[512];
    snprintf(full, sizeof full, "numjit.dict.%s.%s", what, t->name);
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

/* Python's a == b of two keys (register form) of type t. */
static LLVMValueRef key_eq(CgModule *M, LLVMBuilderRef B, LLVMValueRef fn, const Type *t,
                           LLVMValueRef a, LLVMValueRef b) {
    if (ty_is_float(t))
        return LLVMBuildFCmp(B, LLVMRealOEQ, a, b, "");
    if (ty_is_scalar(t))
        return LLVMBuildICmp(B, LLVMIntEQ, a, b, "");
    if (t == ty_str) {
        LLVMTypeRef st = cg_reg_type(M, ty_str), ptr = ptrt(M);
        LLVMBuilderRef E = LLVMCreateBuilderInContext(M->ctx);
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        if (first)
            LLVMPositionBuilderBefore(E, first);
        else
            LLVMPositionBuilderAtEnd(E, entry);
        LLVMValueRef pa = LLVMBuildAlloca(E, st, ""), pb = LLVMBuildAlloca(E, st, "");
        LLVMDisposeBuilder(E);
        LLVMBuildStore(B, a, pa);
        LLVMBuildStore(B, b, pb);
        LLVMTypeRef pt[2] = {ptr, ptr};
        LLVMValueRef args[2] = {pa, pb};
        LLVMValueRef c = rt(M, B, "numjit_str_compare", i64t(M), pt, args, 2);
        return LLVMBuildICmp(B, LLVMIntEQ, c, LLVMConstInt(i64t(M), 0, 0), "");
    }
    LLVMValueRef all = LLVMConstInt(LLVMInt1TypeInContext(M->ctx), 1, 0);
    for (int i = 0; i < t->nelems; i++) {
        LLVMValueRef x = LLVMBuildExtractValue(B, a, (unsigned)i, "");
        LLVMValueRef y = LLVMBuildExtractValue(B, b, (unsigned)i, "");
        all = LLVMBuildAnd(B, all, key_eq(M, B, fn, t->elems[i], x, y), "");
    }
    return all;
}

/* i1 eq(ptr a, ptr b) for keys of type t. */
static LLVMValueRef eq_fn(CgModule *M, const Type *t) {
    LLVMTypeRef pt[2] = {ptrt(M), ptrt(M)};
    LLVMTypeRef fty = LLVMFunctionType(LLVMInt1TypeInContext(M->ctx), pt, 2, false);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(M->ctx);
    bool fresh;
    LLVMValueRef fn = helper(M, "eq", t, fty, B, &fresh);
    if (fresh) {
        LLVMTypeRef mt = cg_mem_type(M, t);
        LLVMValueRef a = cg_from_mem(M, B, t, LLVMBuildLoad2(B, mt, LLVMGetParam(fn, 0), ""));
        LLVMValueRef b = cg_from_mem(M, B, t, LLVMBuildLoad2(B, mt, LLVMGetParam(fn, 1), ""));
        LLVMBuildRet(B, key_eq(M, B, fn, t, a, b));
    }
    LLVMDisposeBuilder(B);
    return fn;
}

/* void rel(ptr item) for items of type t, or a null pointer when t holds no references. */
static LLVMValueRef rel_fn(CgModule *M, const Type *t) {
    if (!ty_has_refs(t))
        return LLVMConstNull(ptrt(M));
    LLVMTypeRef ptr = ptrt(M);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(M->ctx), &ptr, 1, false);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(M->ctx);
    bool fresh;
    LLVMValueRef fn = helper(M, "rel", t, fty, B, &fresh);
    if (fresh) {
        LLVMValueRef v = LLVMBuildLoad2(B, cg_mem_type(M, t), LLVMGetParam(fn, 0), "");
        cg_decref(M, B, t, cg_from_mem(M, B, t, v));
        LLVMBuildRetVoid(B);
    }
    LLVMDisposeBuilder(B);
    return fn;
}

/* Python's hash of key k (register form) of type t, as int64. */
static LLVMValueRef key_hash(CgLower *L, const Type *t, LLVMValueRef k) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef i64 = i64t(M);
    if (ty_is_float(t)) {
        LLVMTypeRef d = LLVMDoubleTypeInContext(M->ctx);
        LLVMValueRef x = t == ty_f64 ? k : LLVMBuildFPExt(B, k, d, "");
        return rt(M, B, "numjit_dict_hash_float", i64, &d, &x, 1);
    }
    if (ty_is_scalar(t)) {
        bool u = ty_is_int(t) && !ty_is_signed(t);
        LLVMValueRef x = LLVMGetTypeKind(LLVMTypeOf(k)) == LLVMIntegerTypeKind &&
                                 LLVMGetIntTypeWidth(LLVMTypeOf(k)) == 64
                             ? k
                         : u || t == ty_bool ? LLVMBuildZExt(B, k, i64, "")
                                             : LLVMBuildSExt(B, k, i64, "");
        return rt(M, B, u ? "numjit_dict_hash_uint" : "numjit_dict_hash_int", i64, &i64, &x, 1);
    }
    if (t == ty_str) {
        LLVMValueRef p = cg_entry_alloca(L, cg_reg_type(M, ty_str), "key.str");
        LLVMBuildStore(B, k, p);
        LLVMTypeRef ptr = ptrt(M);
        return rt(M, B, "numjit_str_hash", i64, &ptr, &p, 1);
    }
    LLVMValueRef lanes = cg_entry_alloca(L, LLVMArrayType2(i64, (uint64_t)t->nelems), "key.lanes");
    for (int i = 0; i < t->nelems; i++) {
        LLVMValueRef h = key_hash(L, t->elems[i], LLVMBuildExtractValue(B, k, (unsigned)i, ""));
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)i, 0);
        LLVMBuildStore(B, h, LLVMBuildGEP2(B, i64, lanes, &ix, 1, ""));
    }
    LLVMTypeRef pt[2] = {ptrt(M), i64};
    LLVMValueRef args[2] = {lanes, LLVMConstInt(i64, (unsigned long long)t->nelems, 0)};
    return rt(M, B, "numjit_dict_hash_tuple", i64, pt, args, 2);
}

/* The address of a slot holding v (type t) in its memory form. */
static LLVMValueRef by_addr(CgLower *L, const Type *t, LLVMValueRef v, const char *name) {
    CgModule *M = cg_lower_module(L);
    LLVMValueRef p = cg_entry_alloca(L, cg_mem_type(M, t), name);
    LLVMBuildStore(cg_lower_builder(L), cg_to_mem(M, cg_lower_builder(L), t, v), p);
    return p;
}

/* A failed allocation leaves the function through raise site `site` (MemoryError). */
static void fail_if(CgLower *L, LLVMValueRef failed, int site) {
    CgModule *M = cg_lower_module(L);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(M->ctx);
    LLVMValueRef st = LLVMBuildSelect(cg_lower_builder(L), failed,
                                      LLVMConstInt(i32, (unsigned long long)site, 0),
                                      LLVMConstInt(i32, 0, 0), "");
    cg_lower_propagate(L, st);
}

static LLVMValueRef lower_new(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef d = rt(M, B, "numjit_dict_new", ptrt(M), NULL, NULL, 0);
    fail_if(L, LLVMBuildIsNull(B, d, ""), in->imm.index);
    return d;
}

/* The item at the address the runtime's function `name` gives for entry ix, of type t. */
static LLVMValueRef load_item(CgModule *M, LLVMBuilderRef B, const char *name, const Type *t,
                              LLVMValueRef d, LLVMValueRef ix) {
    LLVMTypeRef pt[2] = {ptrt(M), i64t(M)};
    LLVMValueRef args[2] = {d, ix};
    LLVMValueRef p = rt(M, B, name, ptrt(M), pt, args, 2);
    return cg_from_mem(M, B, t, LLVMBuildLoad2(B, cg_mem_type(M, t), p, ""));
}

LLVMValueRef cg_lower_dict(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    if (in->op == IR_DNEW)
        return lower_new(L, in);
    LLVMValueRef a = cg_lower_val(L, in, 0), b = NULL, c = NULL;
    if (!a || (in->nargs > 1 && !(b = cg_lower_val(L, in, 1))) ||
        (in->nargs > 2 && !(c = cg_lower_val(L, in, 2))))
        return NULL;
    const Type *dt = in->args[0]->type, *kt = dt->key, *vt = dt->dtype;
    LLVMTypeRef i64 = i64t(M), ptr = ptrt(M), vd = LLVMVoidTypeInContext(M->ctx);
    LLVMTypeRef p_i[2] = {ptr, i64};
    LLVMValueRef a_b[2] = {a, b};
    switch (in->op) {
    case IR_DLEN:
        return rt(M, B, "numjit_dict_len", i64, &ptr, &a, 1);
    case IR_DLAST:
        return rt(M, B, "numjit_dict_last", i64, &ptr, &a, 1);
    case IR_DCLEAR:
        rt(M, B, "numjit_dict_clear", vd, &ptr, &a, 1);
        return NULL;
    case IR_DNEXT:
        return rt(M, B, "numjit_dict_next", i64, p_i, a_b, 2);
    case IR_DDELETE:
        rt(M, B, "numjit_dict_delete", vd, p_i, a_b, 2);
        return NULL;
    case IR_DKEY:
        return load_item(M, B, "numjit_dict_key", kt, a, b);
    case IR_DVALUE:
        return load_item(M, B, "numjit_dict_value", vt, a, b);
    case IR_DFIND: {
        LLVMValueRef h = key_hash(L, kt, b);
        LLVMTypeRef pt[3] = {ptr, ptr, i64};
        LLVMValueRef args[3] = {a, by_addr(L, kt, b, "key"), h};
        return rt(M, B, "numjit_dict_find", i64, pt, args, 3);
    }
    case IR_DINSERT: {
        LLVMValueRef h = key_hash(L, kt, b);
        cg_incref(M, B, kt, b);
        cg_incref(M, B, vt, c);
        LLVMTypeRef pt[9] = {ptr, ptr, ptr, i64, i64, i64, ptr, ptr, ptr};
        LLVMValueRef args[9] = {a, by_addr(L, kt, b, "key"), by_addr(L, vt, c, "value"), h,
                                LLVMSizeOf(cg_mem_type(M, kt)), LLVMSizeOf(cg_mem_type(M, vt)),
                                eq_fn(M, kt), rel_fn(M, kt), rel_fn(M, vt)};
        LLVMValueRef r = rt(M, B, "numjit_dict_insert", i64, pt, args, 9);
        LLVMValueRef failed = LLVMBuildICmp(B, LLVMIntSLT, r, LLVMConstInt(i64, 0, 0), "");
        /* without memory the dict took nothing: its counts go back before the raise */
        LLVMBasicBlockRef undo = cg_lower_new_bb(L, "dict.undo");
        LLVMBasicBlockRef ok = cg_lower_new_bb(L, "dict.ok");
        LLVMBuildCondBr(B, failed, undo, ok);
        LLVMPositionBuilderAtEnd(B, undo);
        cg_decref(M, B, kt, b);
        cg_decref(M, B, vt, c);
        LLVMBuildBr(B, ok);
        LLVMPositionBuilderAtEnd(B, ok);
        fail_if(L, failed, in->imm.index);
        return NULL;
    }
    case IR_DSETVALUE: { /* the new value counted up before the old one down */
        LLVMValueRef p = rt(M, B, "numjit_dict_value", ptr, p_i, a_b, 2);
        cg_incref(M, B, vt, c);
        LLVMValueRef old = cg_from_mem(M, B, vt, LLVMBuildLoad2(B, cg_mem_type(M, vt), p, ""));
        LLVMBuildStore(B, cg_to_mem(M, B, vt, c), p);
        cg_decref(M, B, vt, old);
        return NULL;
    }
    default:
        cg_error(L, in->loc, "'%s' is not a dict operation", ir_op_name[in->op]);
        return NULL;
    }
}

/* ---- sets ---------------------------------------------------------------------------------- */
LLVMValueRef cg_lower_set(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMValueRef a = cg_lower_val(L, in, 0), b = NULL, c = NULL;
    if (!a || (in->nargs > 1 && !(b = cg_lower_val(L, in, 1))) ||
        (in->nargs > 2 && !(c = cg_lower_val(L, in, 2))))
        return NULL;
    LLVMTypeRef i64 = i64t(M), ptr = ptrt(M), vd = LLVMVoidTypeInContext(M->ctx);
    if (in->op == IR_SNEW) {
        LLVMValueRef s = rt(M, B, "numjit_set_new", ptr, &i64, &a, 1);
        fail_if(L, LLVMBuildIsNull(B, s, ""), in->imm.index);
        return s;
    }
    const Type *it = in->args[0]->type->dtype;
    LLVMTypeRef p_i[2] = {ptr, i64}, p_p_i[3] = {ptr, ptr, i64};
    LLVMValueRef a_b[2] = {a, b}, a_b_c[3] = {a, b, c};
    switch (in->op) {
    case IR_SLEN:
        return rt(M, B, "numjit_set_len", i64, &ptr, &a, 1);
    case IR_SCLEAR:
        rt(M, B, "numjit_set_clear", vd, &ptr, &a, 1);
        return NULL;
    case IR_SNEXT:
        return rt(M, B, "numjit_set_next", i64, p_i, a_b, 2);
    case IR_SKEY:
        return load_item(M, B, "numjit_set_key", it, a, b);
    case IR_SPOP: {
        LLVMValueRef slot = cg_entry_alloca(L, cg_mem_type(M, it), "set.pop");
        LLVMTypeRef pt[2] = {ptr, ptr};
        LLVMValueRef args[2] = {a, slot};
        rt(M, B, "numjit_set_pop", vd, pt, args, 2);
        return cg_from_mem(M, B, it, LLVMBuildLoad2(B, cg_mem_type(M, it), slot, ""));
    }
    case IR_SFIND:
    case IR_SDISCARD: {
        LLVMValueRef args[3] = {a, by_addr(L, it, b, "item"), key_hash(L, it, b)};
        return rt(M, B, in->op == IR_SFIND ? "numjit_set_find" : "numjit_set_discard", i64,
                  p_p_i, args, 3);
    }
    case IR_SADD: {
        LLVMTypeRef pt[5] = {ptr, ptr, i64, i64, ptr};
        LLVMValueRef args[5] = {a, by_addr(L, it, b, "item"), key_hash(L, it, b),
                                LLVMSizeOf(cg_mem_type(M, it)), eq_fn(M, it)};
        LLVMValueRef r = rt(M, B, "numjit_set_add", i64, pt, args, 5);
        fail_if(L, LLVMBuildICmp(B, LLVMIntSLT, r, LLVMConstInt(i64, 0, 0), ""), in->imm.index);
        return NULL;
    }
    case IR_SCOPY: {
        LLVMValueRef s = rt(M, B, "numjit_set_copy", ptr, &ptr, &a, 1);
        fail_if(L, LLVMBuildIsNull(B, s, ""), in->imm.index);
        return s;
    }
    case IR_SMERGE: {
        LLVMTypeRef pt[3] = {ptr, ptr, i64};
        LLVMValueRef r = rt(M, B, "numjit_set_merge", i64, pt, a_b_c, 3);
        fail_if(L, LLVMBuildICmp(B, LLVMIntSLT, r, LLVMConstInt(i64, 0, 0), ""), in->imm.index);
        return NULL;
    }
    case IR_SBINOP: {
        LLVMTypeRef pt[3] = {ptr, ptr, i64};
        LLVMValueRef s = rt(M, B, "numjit_set_binop", ptr, pt, a_b_c, 3);
        fail_if(L, LLVMBuildIsNull(B, s, ""), in->imm.index);
        return s;
    }
    default:
        cg_error(L, in->loc, "'%s' is not a set operation", ir_op_name[in->op]);
        return NULL;
    }
}

/* A returned set s (type t) at p as an NjArray (NJ_KIND_SET): a new list of its items
 * (numjit_set_tolist) written as a returned list is, owning that list; the set's reference is
 * given back.  Without memory for the list, a zeroed NjArray (owner NULL) says so. */
void cg_set_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef s,
                        LLVMValueRef p) {
    LLVMTypeRef ptr = ptrt(M), i64 = i64t(M);
    LLVMValueRef l = rt(M, B, "numjit_set_tolist", ptr, &ptr, &s, 1);
    cg_decref(M, B, t, s);
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(B));
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(M->ctx, fn, "set.items");
    LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(M->ctx, fn, "set.nomem");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(M->ctx, fn, "set.done");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, l, ""), none, ok);
    LLVMPositionBuilderAtEnd(B, none);
    LLVMBuildMemSet(B, p, LLVMConstNull(LLVMInt8TypeInContext(M->ctx)),
                    LLVMConstInt(i64, sizeof(NjArray), 0), 8);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, ok);
    cg_list_put_njarray(M, B, ty_list(t->dtype, false), l, p);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* A set parameter of the C entry (type t): args[k] is a list of its items that the caller
 * made of its set (an NjList); the function gets a new set of them (numjit_set_fromlist), or
 * NULL without memory (the entry then returns -1 before the call). */
LLVMValueRef cg_set_from_arg(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef l) {
    LLVMTypeRef ptr = ptrt(M), i64 = i64t(M);
    LLVMTypeRef pt[3] = {ptr, i64, ptr};
    LLVMValueRef args[3] = {l, LLVMConstInt(i64, (unsigned long long)(t->dtype->kind - TY_BOOL), 0),
                            eq_fn(M, t->dtype)};
    return rt(M, B, "numjit_set_fromlist", ptr, pt, args, 3);
}

/* After the call: the set's items back into the caller's list when status is 0 (Numba's
 * reflection), the set released; the entry's status (-1 without memory for the items). */
LLVMValueRef cg_set_reflect_arg(CgModule *M, LLVMBuilderRef B, LLVMValueRef s, LLVMValueRef l,
                                LLVMValueRef status) {
    LLVMTypeRef ptr = ptrt(M), i32 = LLVMInt32TypeInContext(M->ctx);
    LLVMTypeRef pt[3] = {ptr, ptr, i32};
    LLVMValueRef args[3] = {s, l, status};
    return rt(M, B, "numjit_set_reflect", i32, pt, args, 3);
}

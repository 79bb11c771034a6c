/* parfor.c — lowering of IR_PARFOR, a parallel loop (ops.def; the typer outlined its body into
 * a function of the program, typer/typer_parfor.c).
 *
 * For a loop whose body is `i32 @B(ptr %ret, i64 lo, i64 hi, start, i64 step, live-ins...)`:
 *   - a closure on the caller's stack: { start, step, the live-ins in B's ABI form (arrays
 *     exploded), the reductions' accumulators (B's result tuple in memory form) }, the
 *     accumulators set to the values before the loop;
 *   - `i32 @B.chunk(ptr closure, i64 lo, i64 hi, ptr slot)`: loads the closure and calls B,
 *     whose result (the chunk's partial reductions) lands in slot;
 *   - `void @B.combine(ptr closure, ptr slot)`: accumulator = op(accumulator, partial) for each
 *     reduction (add, mul, or Python's min/max: the partial replaces the accumulator only when
 *     strictly smaller/larger);
 *   - the trip count n of range(start, stop, step), in unsigned arithmetic so no bound
 *     overflows; then a call of the runtime's CG_PARFOR_SYMBOL (codegen.h) with a state word
 *     of its own (an internal global), whose status propagates like a callee's; the loop's
 *     value is the accumulators after it.
 * Ahead-of-time objects link no runtime (M->parfor_serial): there the chunk function runs once
 * on [0, n) and combine once, when n > 0.
 */
#include "cg_internal.h"

#include <stdio.h>
#include <stdlib.h>

enum { PARFOR_MAXFIELDS = 1024 };

/* The number of iterations of range(start, stop, step), step != 0, as i64 (it fits: at most
 * 2**64 - 1 for uint64 bounds and step 1, which no loop finishes anyway). */
static LLVMValueRef trip_count(LLVMBuilderRef B, LLVMContextRef C, LLVMValueRef start,
                               LLVMValueRef stop, LLVMValueRef step, bool is_unsigned) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(C);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGT, step, zero, "");
    /* distance and step magnitude, both unsigned */
    LLVMValueRef lt = LLVMBuildICmp(B, is_unsigned ? LLVMIntULT : LLVMIntSLT, start, stop, "");
    LLVMValueRef gt = LLVMBuildICmp(B, is_unsigned ? LLVMIntUGT : LLVMIntSGT, start, stop, "");
    LLVMValueRef any = LLVMBuildSelect(B, up, lt, gt, "");
    LLVMValueRef dist = LLVMBuildSelect(B, up, LLVMBuildSub(B, stop, start, ""),
                                        LLVMBuildSub(B, start, stop, ""), "");
    LLVMValueRef mag = LLVMBuildSelect(B, up, step, LLVMBuildNeg(B, step, ""), "");
    LLVMValueRef n = LLVMBuildAdd(B, LLVMBuildUDiv(B, LLVMBuildSub(B, dist, one, ""), mag, ""),
                                  one, "");
    return LLVMBuildSelect(B, any, n, zero, "tripcount");
}

/* Python's min/max of an accumulator a and a partial p (register form, type t), or + and *. */
static LLVMValueRef combine_op(LLVMBuilderRef B, int op, const Type *t, LLVMValueRef a,
                               LLVMValueRef p) {
    if (ty_is_complex(t)) { /* + and * of {re, im}, as the typer's complex arithmetic */
        LLVMValueRef ar = LLVMBuildExtractValue(B, a, 0, ""), ai = LLVMBuildExtractValue(B, a, 1, "");
        LLVMValueRef pr = LLVMBuildExtractValue(B, p, 0, ""), pi = LLVMBuildExtractValue(B, p, 1, "");
        LLVMValueRef re, im;
        if (op == REDUCE_MUL) {
            LLVMValueRef ac = LLVMBuildFMul(B, ar, pr, ""), bd = LLVMBuildFMul(B, ai, pi, "");
            LLVMValueRef ad = LLVMBuildFMul(B, ar, pi, ""), bc = LLVMBuildFMul(B, ai, pr, "");
            re = LLVMBuildFSub(B, ac, bd, "");
            im = LLVMBuildFAdd(B, ad, bc, "");
        } else {
            re = LLVMBuildFAdd(B, ar, pr, "");
            im = LLVMBuildFAdd(B, ai, pi, "");
        }
        return LLVMBuildInsertValue(B, LLVMBuildInsertValue(B, a, re, 0, ""), im, 1, "");
    }
    bool f = ty_is_float(t);
    switch (op) {
    case REDUCE_ADD: return f ? LLVMBuildFAdd(B, a, p, "") : LLVMBuildAdd(B, a, p, "");
    case REDUCE_MUL: return f ? LLVMBuildFMul(B, a, p, "") : LLVMBuildMul(B, a, p, "");
    default: {
        bool min = op == REDUCE_MIN;
        LLVMValueRef better;
        if (f)
            better = LLVMBuildFCmp(B, min ? LLVMRealOLT : LLVMRealOGT, p, a, "");
        else if (ty_is_signed(t))
            better = LLVMBuildICmp(B, min ? LLVMIntSLT : LLVMIntSGT, p, a, "");
        else
            better = LLVMBuildICmp(B, min ? LLVMIntULT : LLVMIntUGT, p, a, "");
        return LLVMBuildSelect(B, better, p, a, "");
    }
    }
}

/* @B.chunk: closure fields 0..nfields-1 are B's parameters after lo and hi. */
static LLVMValueRef make_chunk(CgModule *M, int gi, LLVMTypeRef cloT, LLVMTypeRef *abi,
                               int nabi) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), i64 = LLVMInt64TypeInContext(C);
    LLVMTypeRef pt[4] = {ptr, i64, i64, ptr};
    LLVMTypeRef fty = LLVMFunctionType(LLVMInt32TypeInContext(C), pt, 4, false);
    char name[512];
    snprintf(name, sizeof name, "%s.chunk", M->prog->funcs[gi]->mangled);
    LLVMValueRef fn = LLVMAddFunction(M->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    LLVMValueRef *args = malloc(sizeof *args * (size_t)nabi);
    if (!args) {
        LLVMDisposeBuilder(B);
        return NULL;
    }
    args[0] = LLVMGetParam(fn, 3);
    args[1] = LLVMGetParam(fn, 1);
    args[2] = LLVMGetParam(fn, 2);
    for (int k = 3; k < nabi; k++)
        args[k] = LLVMBuildLoad2(
            B, abi[k],
            LLVMBuildStructGEP2(B, cloT, LLVMGetParam(fn, 0), (unsigned)(k - 3), ""), "");
    LLVMValueRef st = LLVMBuildCall2(B, M->fntys[gi], M->fns[gi], args, (unsigned)nabi, "");
    LLVMBuildRet(B, st);
    free(args);
    LLVMDisposeBuilder(B);
    return fn;
}

/* @B.combine: the accumulators (closure field acc) folded with a slot's partials. */
static LLVMValueRef make_combine(CgModule *M, const IrInst *in, LLVMTypeRef cloT, unsigned acc) {
    LLVMContextRef C = M->ctx;
    const IrFunc *g = in->imm.par.body;
    const Type *rt = g->ret;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), accT = cg_mem_type(M, rt);
    LLVMTypeRef pt[2] = {ptr, ptr};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(C), pt, 2, false);
    char name[512];
    snprintf(name, sizeof name, "%s.combine", g->mangled);
    LLVMValueRef fn = LLVMAddFunction(M->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    LLVMValueRef at = LLVMBuildStructGEP2(B, cloT, LLVMGetParam(fn, 0), acc, "");
    LLVMValueRef a = LLVMBuildLoad2(B, accT, at, "");
    LLVMValueRef p = LLVMBuildLoad2(B, accT, LLVMGetParam(fn, 1), "");
    for (int k = 0; k < in->imm.par.nred; k++) {
        const Type *t = rt->elems[k];
        LLVMValueRef x = cg_from_mem(M, B, t, LLVMBuildExtractValue(B, a, (unsigned)k, ""));
        LLVMValueRef y = cg_from_mem(M, B, t, LLVMBuildExtractValue(B, p, (unsigned)k, ""));
        LLVMValueRef z = combine_op(B, in->imm.par.ops[k], t, x, y);
        a = LLVMBuildInsertValue(B, a, cg_to_mem(M, B, t, z), (unsigned)k, "");
    }
    LLVMBuildStore(B, a, at);
    LLVMBuildRetVoid(B);
    LLVMDisposeBuilder(B);
    return fn;
}

LLVMValueRef cg_lower_parfor(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMContextRef C = M->ctx;
    const IrFunc *g = in->imm.par.body;
    int gi = g ? cg_func_index(M, g) : -1;
    int nred = in->imm.par.nred, nlive = g ? g->nparams - 4 : 0;
    if (M->prog->target != TARGET_CPU || gi < 0 || nlive < 0 || nred < 0 ||
        nred > IR_PARFOR_MAXRED || in->nargs != 3 + nlive + nred ||
        (nred && (g->ret->kind != TY_TUPLE || g->ret->nelems != nred))) {
        cg_error(L, in->loc, "bad parallel loop");
        return NULL;
    }
    int nabi = cg_abi_params(M, g, NULL);
    if (nabi > PARFOR_MAXFIELDS) {
        cg_error(L, in->loc, "a parallel loop that reads too many values");
        return NULL;
    }
    LLVMTypeRef abi[PARFOR_MAXFIELDS + 1];
    cg_abi_params(M, g, abi);
    /* closure: B's parameters from `start` on, then the accumulators */
    LLVMTypeRef fields[PARFOR_MAXFIELDS + 1];
    int nf = 0;
    for (int k = 3; k < nabi; k++)
        fields[nf++] = abi[k];
    unsigned acc = (unsigned)nf;
    LLVMTypeRef accT = nred ? cg_mem_type(M, g->ret) : NULL;
    if (nred)
        fields[nf++] = accT;
    LLVMTypeRef cloT = LLVMStructTypeInContext(C, fields, (unsigned)nf, false);
    LLVMValueRef clo = cg_entry_alloca(L, cloT, "closure");

    LLVMValueRef vals[PARFOR_MAXFIELDS + 1];
    int nv = 0;
    LLVMValueRef start = cg_lower_val(L, in, 0), stop = cg_lower_val(L, in, 1),
                 step = cg_lower_val(L, in, 2);
    if (!start || !stop || !step)
        return NULL;
    vals[nv++] = start;
    vals[nv++] = step;
    for (int k = 0; k < nlive; k++) {
        LLVMValueRef v = cg_lower_val(L, in, 3 + k);
        if (!v)
            return NULL;
        nv += cg_lower_explode(L, g, g->params[4 + k], v, vals + nv);
    }
    if (nv != nabi - 3) {
        cg_error(L, in->loc, "bad parallel loop closure");
        return NULL;
    }
    for (int k = 0; k < nv; k++)
        LLVMBuildStore(B, vals[k], LLVMBuildStructGEP2(B, cloT, clo, (unsigned)k, ""));
    if (nred) {
        LLVMValueRef a = LLVMGetPoison(accT);
        for (int k = 0; k < nred; k++) {
            LLVMValueRef v = cg_lower_val(L, in, 3 + nlive + k);
            if (!v)
                return NULL;
            a = LLVMBuildInsertValue(B, a, cg_to_mem(M, B, g->ret->elems[k], v), (unsigned)k, "");
        }
        LLVMBuildStore(B, a, LLVMBuildStructGEP2(B, cloT, clo, acc, ""));
    }
    LLVMValueRef chunk = make_chunk(M, gi, cloT, abi, nabi);
    LLVMValueRef combine = nred ? make_combine(M, in, cloT, acc) : NULL;
    if (!chunk) {
        cg_error(L, in->loc, "out of memory");
        return NULL;
    }
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), i64 = LLVMInt64TypeInContext(C),
                i32 = LLVMInt32TypeInContext(C);
    LLVMValueRef n = trip_count(B, C, start, stop, step, in->args[0]->type == ty_u64);
    if (M->parfor_serial) { /* if (n > 0) { chunk(closure, 0, n, slot); combine(closure, slot) } */
        LLVMValueRef slot = nred ? cg_entry_alloca(L, accT, "partial") : LLVMConstPointerNull(ptr);
        LLVMBasicBlockRef run = cg_lower_new_bb(L, "parfor.run"),
                          done = cg_lower_new_bb(L, "parfor.done");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, LLVMConstInt(i64, 0, 0), ""), run, done);
        LLVMPositionBuilderAtEnd(B, run);
        LLVMValueRef cargs[4] = {clo, LLVMConstInt(i64, 0, 0), n, slot};
        LLVMValueRef st = LLVMBuildCall2(B, LLVMGlobalGetValueType(chunk), chunk, cargs, 4, "");
        cg_lower_propagate(L, st);
        if (combine) {
            LLVMValueRef kargs[2] = {clo, slot};
            LLVMBuildCall2(B, LLVMGlobalGetValueType(combine), combine, kargs, 2, "");
        }
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, done);
    } else {
        char name[512];
        snprintf(name, sizeof name, "%s.state", g->mangled);
        LLVMValueRef state = LLVMAddGlobal(M->mod, i64, name);
        LLVMSetLinkage(state, LLVMInternalLinkage);
        LLVMSetInitializer(state, LLVMConstInt(i64, 0, 0));
        LLVMValueRef run = LLVMGetNamedFunction(M->mod, CG_PARFOR_SYMBOL);
        LLVMTypeRef rpt[6] = {ptr, ptr, ptr, i64, i64, ptr};
        LLVMTypeRef rty = LLVMFunctionType(i32, rpt, 6, false);
        if (!run) {
            run = LLVMAddFunction(M->mod, CG_PARFOR_SYMBOL, rty);
            cg_add_fn_attr(M, run, "nounwind");
        }
        unsigned long long bytes =
            nred ? LLVMABISizeOfType(LLVMGetModuleDataLayout(M->mod), accT) : 0;
        LLVMValueRef slot_size = LLVMConstInt(i64, bytes, 0);
        LLVMValueRef rargs[6] = {chunk, combine ? combine : LLVMConstPointerNull(ptr), clo, n,
                                 slot_size, state};
        cg_lower_propagate(L, LLVMBuildCall2(B, rty, run, rargs, 6, ""));
    }
    if (!nred)
        return NULL;
    LLVMValueRef a = LLVMBuildLoad2(B, accT, LLVMBuildStructGEP2(B, cloT, clo, acc, ""), "");
    return cg_from_mem(M, B, g->ret, a);
}

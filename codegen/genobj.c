/* genobj.c — a generator compiled as a coroutine (IrFunc.yield): the lazy generator object that
 * a call from Python gives (CPU).
 *
 * The function is lowered as any other (lower.c), and made an LLVM coroutine of the "switched
 * resume" kind: LLVM's coroutine passes (CoroEarly, CoroSplit, CoroCleanup: part of every
 * default<On> pipeline) split it into a ramp, a resume and a destroy function, and move every
 * variable and SSA value that lives across a suspension point into a heap frame.  So the
 * state struct is LLVM's: the coroutine's resume index, its promise (below), the variables
 * (allocas, the counted ones' shadow slots included) and the values that a yield interrupts
 * (a range's length, a loop's counter); nothing is saved that no later code reads.
 *
 *   ramp (the IrFunc's own symbol, i32 (ptr ret, args...)): allocates the frame (malloc),
 *        reads the arguments, writes the generator object to *ret and suspends before the
 *        body's first statement, so nothing runs before the first next() (Python's way);
 *   IR_YIELD v: the promise gets {state 0, v}; suspend; resumed, the code after the yield
 *        runs; destroyed there, the counted variables are released (gen.drop) and the frame
 *        freed (gen.free);
 *   the end (a return, the end of the body, a raise not caught): the exits of lower.c release
 *        the counted variables as for any function, then the promise's state becomes -1 (the
 *        end) or the raise site, and the coroutine suspends for the last time (final).
 *
 * The generator object is UniTuple(int64, 4): {frame, &next, &destroy, dtype of the values
 * (NjDType, -1 when not a number)}, where
 *
 *   int32_t next(void *frame, void *out)   resumes the coroutine unless it has ended; 0 with the
 *        value written at out (its C type, as an entry writes a scalar result), GEN_END when it
 *        has ended, or the raise site that ended it (again at each later call: Numba's
 *        generator raises the same exception again);
 *   void destroy(void *frame)               releases what the frame holds and frees it, at any
 *        suspension point (the owner calls it once, when it drops the generator).
 *
 * The arguments are not counted: an array argument from Python or C belongs to the caller,
 * which keeps it alive as long as the generator (the Python object holds the arguments).
 */
#include "cg_internal.h"

#include <stdlib.h>

enum { GEN_END = -2, GEN_PROMISE_ALIGN = 8 };

static LLVMValueRef call(CgModule *M, LLVMBuilderRef B, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *ps, LLVMValueRef *args, unsigned n) {
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, name);
    LLVMTypeRef fty = LLVMFunctionType(ret, ps, n, false);
    if (!fn)
        fn = LLVMAddFunction(M->mod, name, fty);
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

static LLVMTypeRef ptr_t(CgModule *M) { return LLVMPointerTypeInContext(M->ctx, 0); }
static LLVMTypeRef i32_t(CgModule *M) { return LLVMInt32TypeInContext(M->ctx); }
static LLVMTypeRef i64_t(CgModule *M) { return LLVMInt64TypeInContext(M->ctx); }

/* The promise: {i32 state, the value in memory form}; state 0 while a value waits, -1 at the
 * end, a raise site after a raise. */
static LLVMTypeRef promise_type(CgModule *M, const IrFunc *f) {
    LLVMTypeRef el[2] = {i32_t(M), cg_mem_type(M, f->yield)};
    return LLVMStructTypeInContext(M->ctx, el, 2, false);
}

static LLVMValueRef suspend(CgLower *L, bool final) {
    CgModule *M = L->M;
    LLVMTypeRef ps[2] = {LLVMTokenTypeInContext(M->ctx), LLVMInt1TypeInContext(M->ctx)};
    LLVMValueRef a[2] = {LLVMConstNull(ps[0]), LLVMConstInt(ps[1], final, 0)};
    return call(M, L->b, "llvm.coro.suspend", LLVMInt8TypeInContext(M->ctx), ps, a, 2);
}

/* switch on a suspension's result: 0 resumes at `resume`, 1 destroys through `destroy`, the
 * rest (the suspension itself) leaves to gen.suspend */
static void dispatch(CgLower *L, LLVMValueRef s, LLVMBasicBlockRef resume,
                     LLVMBasicBlockRef destroy) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->M->ctx);
    LLVMValueRef sw = LLVMBuildSwitch(L->b, s, L->co_susp, 2);
    LLVMAddCase(sw, LLVMConstInt(i8, 0, 0), resume);
    LLVMAddCase(sw, LLVMConstInt(i8, 1, 0), destroy);
}

static LLVMValueRef field(CgLower *L, int k) {
    return LLVMBuildStructGEP2(L->b, promise_type(L->M, L->f), L->co_promise, (unsigned)k, "");
}

/* The frame: in the entry block, after the variables' allocas. */
void cg_genobj_begin(CgLower *L) {
    CgModule *M = L->M;
    LLVMBuilderRef B = L->b;
    L->rc = true; /* every exit goes through exit_bb / raise_bb: they end in the final suspend */
    L->co_promise = LLVMBuildAlloca(B, promise_type(M, L->f), "promise");
    LLVMSetAlignment(L->co_promise, GEN_PROMISE_ALIGN);
    LLVMTypeRef ptr = ptr_t(M), tok = LLVMTokenTypeInContext(M->ctx);
    LLVMTypeRef idp[4] = {i32_t(M), ptr, ptr, ptr};
    LLVMValueRef ida[4] = {LLVMConstInt(i32_t(M), 0, 0), L->co_promise,
                           LLVMConstPointerNull(ptr), LLVMConstPointerNull(ptr)};
    L->co_id = call(M, B, "llvm.coro.id", tok, idp, ida, 4);
    LLVMValueRef size = call(M, B, "llvm.coro.size.i64", i64_t(M), NULL, NULL, 0);
    LLVMTypeRef i64 = i64_t(M);
    LLVMValueRef mem = call(M, B, "malloc", ptr, &i64, &size, 1);
    LLVMTypeRef bp[2] = {tok, ptr};
    LLVMValueRef ba[2] = {L->co_id, mem};
    L->co_hdl = call(M, B, "llvm.coro.begin", ptr, bp, ba, 2);
    L->co_susp = cg_lower_new_bb(L, "gen.suspend");
    L->co_free = cg_lower_new_bb(L, "gen.free");
    L->co_drop = cg_lower_new_bb(L, "gen.drop");
}

/* next(): resume unless ended; the value, the end, or the raise that ended it */
static LLVMValueRef make_next(CgModule *M, const IrFunc *f, const char *name) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = ptr_t(M), i32 = i32_t(M), P = promise_type(M, f);
    LLVMTypeRef ps[2] = {ptr, ptr};
    LLVMValueRef fn = LLVMAddFunction(M->mod, name, LLVMFunctionType(i32, ps, 2, false));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry");
    LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(C, fn, "resume");
    LLVMBasicBlockRef value = LLVMAppendBasicBlockInContext(C, fn, "value");
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(C, fn, "ended");
    LLVMValueRef h = LLVMGetParam(fn, 0), out = LLVMGetParam(fn, 1);
    LLVMPositionBuilderAtEnd(B, entry);
    LLVMTypeRef pp[3] = {ptr, i32, LLVMInt1TypeInContext(C)};
    LLVMValueRef pa[3] = {h, LLVMConstInt(i32, GEN_PROMISE_ALIGN, 0), LLVMConstInt(pp[2], 0, 0)};
    LLVMValueRef p = call(M, B, "llvm.coro.promise", ptr, pp, pa, 3);
    LLVMValueRef done = call(M, B, "llvm.coro.done", pp[2], &ptr, &h, 1);
    LLVMBuildCondBr(B, done, stop, go);
    LLVMPositionBuilderAtEnd(B, go);
    call(M, B, "llvm.coro.resume", LLVMVoidTypeInContext(C), &ptr, &h, 1);
    LLVMValueRef st = LLVMBuildLoad2(B, i32, LLVMBuildStructGEP2(B, P, p, 0, ""), "state");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, st, LLVMConstInt(i32, 0, 0), ""), value, stop);
    LLVMPositionBuilderAtEnd(B, value);
    LLVMTypeRef vt = cg_mem_type(M, f->yield);
    LLVMBuildStore(B, LLVMBuildLoad2(B, vt, LLVMBuildStructGEP2(B, P, p, 1, ""), ""), out);
    LLVMBuildRet(B, LLVMConstInt(i32, 0, 0));
    LLVMPositionBuilderAtEnd(B, stop);
    LLVMValueRef end = LLVMBuildLoad2(B, i32, LLVMBuildStructGEP2(B, P, p, 0, ""), "state");
    LLVMValueRef ended = LLVMBuildICmp(B, LLVMIntEQ, end, LLVMConstInt(i32, (unsigned long long)-1, 1), "");
    LLVMBuildRet(B, LLVMBuildSelect(B, ended, LLVMConstInt(i32, (unsigned long long)GEN_END, 1), end, ""));
    LLVMDisposeBuilder(B);
    return fn;
}

static LLVMValueRef make_destroy(CgModule *M, const char *name) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = ptr_t(M), v = LLVMVoidTypeInContext(C);
    LLVMValueRef fn = LLVMAddFunction(M->mod, name, LLVMFunctionType(v, &ptr, 1, false));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    LLVMValueRef h = LLVMGetParam(fn, 0);
    call(M, B, "llvm.coro.destroy", v, &ptr, &h, 1);
    LLVMBuildRetVoid(B);
    LLVMDisposeBuilder(B);
    return fn;
}

/* The end of the prologue: the generator object to *ret, then the first suspension. */
void cg_genobj_start(CgLower *L, LLVMBasicBlockRef body) {
    CgModule *M = L->M;
    LLVMBuilderRef B = L->b;
    const char *base = L->f->mangled ? L->f->mangled : L->f->name;
    char *nn = cg_errf("%s.next", base), *dn = cg_errf("%s.destroy", base);
    if (!nn || !dn) {
        free(nn);
        free(dn);
        cg_error(L, L->f->loc, "out of memory");
        return;
    }
    LLVMValueRef next = make_next(M, L->f, nn), destroy = make_destroy(M, dn);
    free(nn);
    free(dn);
    LLVMTypeRef i64 = i64_t(M);
    const Type *yt = L->f->yield;
    long long dtype = yt->kind >= TY_BOOL && yt->kind <= TY_C128 ? (long long)(yt->kind - TY_BOOL) : -1;
    LLVMValueRef obj[4] = {LLVMBuildPtrToInt(B, L->co_hdl, i64, ""), LLVMConstPtrToInt(next, i64),
                           LLVMConstPtrToInt(destroy, i64), LLVMConstInt(i64, (unsigned long long)dtype, 1)};
    LLVMTypeRef mt = cg_mem_type(M, L->f->ret);
    for (unsigned k = 0; k < 4; k++)
        LLVMBuildStore(B, obj[k], LLVMBuildStructGEP2(B, mt, L->ret_ptr, k, ""));
    dispatch(L, suspend(L, false), body, L->co_free);
}

/* IR_YIELD v */
void cg_genobj_yield(CgLower *L, LLVMValueRef v) {
    CgModule *M = L->M;
    LLVMBuildStore(L->b, LLVMConstInt(i32_t(M), 0, 0), field(L, 0));
    LLVMBuildStore(L->b, cg_to_mem(M, L->b, L->f->yield, v), field(L, 1));
    LLVMBasicBlockRef resume = cg_lower_new_bb(L, "gen.resume");
    dispatch(L, suspend(L, false), resume, L->co_drop);
    LLVMPositionBuilderAtEnd(L->b, resume);
}

/* An exit of the body (lower.c's finish_exit, after the variables are released): the end (status
 * 0) or a raise site into the promise, then to the final suspension (one for the coroutine, as
 * LLVM requires). */
void cg_genobj_final(CgLower *L, LLVMValueRef status) {
    CgModule *M = L->M;
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i32 = i32_t(M);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMValueRef st = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, status, zero, ""),
                                      LLVMConstInt(i32, (unsigned long long)-1, 1), status, "");
    LLVMBuildStore(B, st, field(L, 0));
    if (!L->co_final)
        L->co_final = cg_lower_new_bb(L, "gen.final");
    LLVMBuildBr(B, L->co_final);
}

/* The shared blocks: release (destroyed at a yield), free, and the suspension's return. */
void cg_genobj_finish(CgLower *L) {
    CgModule *M = L->M;
    LLVMBuilderRef B = L->b;
    LLVMTypeRef ptr = ptr_t(M);
    if (L->co_final) {
        LLVMPositionBuilderAtEnd(B, L->co_final);
        LLVMBasicBlockRef never = cg_lower_new_bb(L, "gen.after_end");
        dispatch(L, suspend(L, true), never, L->co_free);
        LLVMPositionBuilderAtEnd(B, never);
        LLVMBuildUnreachable(B);
    }
    LLVMPositionBuilderAtEnd(B, L->co_drop);
    for (int v = 0; v < L->f->nvars; v++)
        if (L->shadow[v]) {
            const Type *t = L->f->vars[v].type;
            LLVMValueRef x = LLVMBuildLoad2(B, cg_reg_type(M, t), L->shadow[v], "");
            LLVMSetVolatile(x, true);
            cg_decref(M, B, t, x);
        }
    LLVMBuildBr(B, L->co_free);
    LLVMPositionBuilderAtEnd(B, L->co_free);
    LLVMTypeRef fp[2] = {LLVMTokenTypeInContext(M->ctx), ptr};
    LLVMValueRef fa[2] = {L->co_id, L->co_hdl};
    LLVMValueRef mem = call(M, B, "llvm.coro.free", ptr, fp, fa, 2);
    call(M, B, "free", LLVMVoidTypeInContext(M->ctx), &ptr, &mem, 1);
    LLVMBuildBr(B, L->co_susp);
    LLVMPositionBuilderAtEnd(B, L->co_susp);
    LLVMTypeRef ep[3] = {ptr, LLVMInt1TypeInContext(M->ctx), LLVMTokenTypeInContext(M->ctx)};
    LLVMValueRef ea[3] = {L->co_hdl, LLVMConstInt(ep[1], 0, 0), LLVMConstNull(ep[2])};
    call(M, B, "llvm.coro.end", ep[1], ep, ea, 3);
    LLVMBuildRet(B, LLVMConstInt(i32_t(M), 0, 0));
    cg_add_fn_attr(M, L->fn, "presplitcoroutine");
}

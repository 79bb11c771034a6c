/* loops.c — ufunc and gufunc inner loops for the CPU: cg_jit_compile_loop (and
 * cg_jit_compile_loop_object, the same loop as an object file for the on-disk cache).
 *
 * The lowered core (funcs[0], marked alwaysinline) is wrapped in NumPy's inner-loop shape
 *   void @nj_loop.<mangled>.<serial>(ptr %args, ptr %dims, ptr %steps, ptr %data)
 * and the module goes through the same O3 pipeline and JIT as every other compilation
 * (cg_cpu_jit_add in cpu.c).
 *
 * ufunc (n = dims[0], one output):
 *   - contiguous path: every step equals its argument's item size.  Elements are addressed
 *     as typed GEPs off the base pointers, so the loop vectorizer sees unit-stride accesses
 *     (behind its own runtime alias checks) and emits AVX2/AVX-512 code for the host;
 *   - broadcast paths, one per input j when there are at most 4 inputs: input j has step 0,
 *     every other argument (the output included) is contiguous.  Input j is loaded and
 *     converted once before the loop, which then vectorizes like the contiguous one.  A
 *     "basic" loop (CgOptions.loop_basic) leaves them out: the runtime compiles one first and
 *     the full loop when a call broadcasts;
 *   - the general path: byte pointers bumped by their steps (any sign, zero included).  An
 *     output of step 0 (a reduction: the executor calls (out, in, out)) always lands here,
 *     where each iteration reloads what the previous one stored.
 *   Inputs are loaded in the array's dtype (arg_dtypes) and converted to the core's parameter
 *   type with IR_CAST's rules; the result is converted to the output's dtype.
 * gufunc (n = dims[0] outer iterations): each iteration passes, per parameter, either a scalar
 *   loaded from args[k] + i*steps[k] or a descriptor {args[k] + i*steps[k], shapes from
 *   dims[1 + core index], strides from the core steps}.  A parameter dimension whose
 *   core_dim_index entry is -1 (a "()" argument declared as a 1-d array) has shape 1 and
 *   stride 0, and takes no slot of the core steps (NumPy passes strides for core dimensions
 *   only).  A second copy of the call is made for the case where every array parameter's
 *   last core stride equals its item size, with that stride a constant: after inlining, the
 *   core's innermost loops become unit-stride and vectorize.
 * The core's status (raise sites) is ignored: ufuncs use the 'numpy' error model.
 */
#include "cg_internal.h"

#include <llvm-c/DebugInfo.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOOP_MAXARGS 32

typedef struct LoopGen {
    CgModule *M;
    LLVMBuilderRef B;
    LLVMValueRef fn;
    LLVMTypeRef i64, ptr;
    const IrFunc *core;
    int nargs, nout;
    const Type *const *dt;     /* arg_dtypes */
    LLVMValueRef base[LOOP_MAXARGS], step[LOOP_MAXARGS];
    LLVMValueRef n, dims, steps, retp;
    /* alias scopes, one per argument: the contiguous and broadcast paths tag their loads and
     * stores (the executor has copied any input that partially overlaps an output, and one
     * that is the output itself is read before written at each index), so the vectorizer
     * needs no runtime overlap checks: less code, less compile time */
    bool scoped;
    LLVMMetadataRef scope[LOOP_MAXARGS], in_scopes, out_scopes;
} LoopGen;

static LLVMValueRef c64(LoopGen *g, int64_t v) { return LLVMConstInt(g->i64, (unsigned long long)v, 1); }

/* A distinct self-referential node: an alias domain {self, name}, or a scope {self, domain,
 * name}. */
static LLVMMetadataRef self_node(LLVMContextRef C, LLVMMetadataRef domain, const char *name) {
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(C, NULL, 0);
    LLVMMetadataRef str = LLVMMDStringInContext2(C, name, strlen(name));
    LLVMMetadataRef ops[3] = {tmp, domain ? domain : str, str};
    LLVMMetadataRef n = LLVMMDNodeInContext2(C, ops, domain ? 3 : 2);
    LLVMMetadataReplaceAllUsesWith(tmp, n);
    return n;
}

static void make_scopes(LoopGen *g) {
    LLVMContextRef C = g->M->ctx;
    LLVMMetadataRef dom = self_node(C, NULL, "nj.loop");
    int nin = g->nargs - g->nout;
    for (int k = 0; k < g->nargs; k++)
        g->scope[k] = self_node(C, dom, k < nin ? "nj.in" : "nj.out");
    g->in_scopes = LLVMMDNodeInContext2(C, g->scope, (size_t)nin);
    g->out_scopes = LLVMMDNodeInContext2(C, g->scope + nin, (size_t)g->nout);
}

/* Tags a load or store of argument k when the path is scoped: inputs never alias outputs. */
static void tag_access(LoopGen *g, LLVMValueRef ins, int k) {
    if (!g->scoped)
        return;
    LLVMContextRef C = g->M->ctx;
    bool is_in = k < g->nargs - g->nout;
    LLVMMetadataRef mine = LLVMMDNodeInContext2(C, &g->scope[k], 1);
    LLVMSetMetadata(ins, LLVMGetMDKindIDInContext(C, "alias.scope", 11), LLVMMetadataAsValue(C, mine));
    LLVMSetMetadata(ins, LLVMGetMDKindIDInContext(C, "noalias", 7),
                    LLVMMetadataAsValue(C, is_in ? g->out_scopes : g->in_scopes));
}

/* Loads argument k's element at p and converts it to the core's parameter k. */
static LLVMValueRef load_in(LoopGen *g, int k, LLVMValueRef p) {
    const Type *t = g->dt[k];
    LLVMValueRef v = LLVMBuildLoad2(g->B, cg_mem_type(g->M, t), p, "");
    tag_access(g, v, k);
    v = cg_from_mem(g->M, g->B, t, v);
    return cg_convert(g->M, g->B, v, t, g->core->params[k]);
}

static void store_out(LoopGen *g, LLVMValueRef v, LLVMValueRef p) {
    const Type *t = g->dt[g->nargs - 1];
    v = cg_convert(g->M, g->B, v, g->core->ret, t);
    tag_access(g, LLVMBuildStore(g->B, cg_to_mem(g->M, g->B, t, v), p), g->nargs - 1);
}

/* A counted loop 0..n (rotated: guard, body with a phi, latch).  Leaves the builder in the
 * body with *i the induction variable; close_loop finishes it. */
typedef struct Loop {
    LLVMBasicBlockRef body, exit;
    LLVMValueRef i;
} Loop;

static Loop open_loop(LoopGen *g, const char *name) {
    LLVMContextRef C = g->M->ctx;
    Loop l;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->B);
    l.body = LLVMAppendBasicBlockInContext(C, g->fn, name);
    l.exit = LLVMAppendBasicBlockInContext(C, g->fn, "exit");
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntSGT, g->n, c64(g, 0), ""), l.body, l.exit);
    LLVMPositionBuilderAtEnd(g->B, l.body);
    l.i = LLVMBuildPhi(g->B, g->i64, "i");
    LLVMValueRef zero = c64(g, 0);
    LLVMAddIncoming(l.i, &zero, &pre, 1);
    return l;
}

/* Loop metadata on the latch branch: the strided path is not vectorized or unrolled (gathers
 * rarely pay, and each vectorized copy of the loop costs compile time); the others keep the
 * vectorizer but no interleaving, which halves their code for a memory-bound body. */
static void loop_hints(LoopGen *g, LLVMValueRef br, bool vectorize) {
    LLVMContextRef C = g->M->ctx;
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(C, NULL, 0);
    LLVMMetadataRef ops[3];
    int n = 0;
    ops[n++] = tmp;
    if (vectorize) {
        LLVMMetadataRef kv[2] = {LLVMMDStringInContext2(C, "llvm.loop.interleave.count", 26),
                                 LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(C), 1, 0))};
        ops[n++] = LLVMMDNodeInContext2(C, kv, 2);
    } else {
        LLVMMetadataRef kv[2] = {LLVMMDStringInContext2(C, "llvm.loop.vectorize.enable", 26),
                                 LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(C), 0, 0))};
        ops[n++] = LLVMMDNodeInContext2(C, kv, 2);
    }
    /* no runtime unrolling (of the scalar remainder either): code size is compile time */
    LLVMMetadataRef un[1] = {LLVMMDStringInContext2(C, "llvm.loop.unroll.disable", 24)};
    ops[n++] = LLVMMDNodeInContext2(C, un, 1);
    LLVMMetadataRef id = LLVMMDNodeInContext2(C, ops, (size_t)n);
    LLVMMetadataReplaceAllUsesWith(tmp, id);
    unsigned kind = LLVMGetMDKindIDInContext(C, "llvm.loop", 9);
    LLVMSetMetadata(br, kind, LLVMMetadataAsValue(C, id));
}

static void close_loop(LoopGen *g, Loop *l, bool vectorize) {
    LLVMValueRef next = LLVMBuildAdd(g->B, l->i, c64(g, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->B);
    LLVMAddIncoming(l->i, &next, &latch, 1);
    LLVMValueRef br = LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntSLT, next, g->n, ""), l->body, l->exit);
    loop_hints(g, br, vectorize);
    LLVMPositionBuilderAtEnd(g->B, l->exit);
    LLVMBuildRetVoid(g->B);
}

static LLVMValueRef call_core(LoopGen *g, LLVMValueRef *args, int n) {
    return LLVMBuildCall2(g->B, g->M->fntys[0], g->M->fns[0], args, (unsigned)n, "");
}

static LLVMValueRef core_result(LoopGen *g) {
    LLVMValueRef v = LLVMBuildLoad2(g->B, cg_mem_type(g->M, g->core->ret), g->retp, "");
    return cg_from_mem(g->M, g->B, g->core->ret, v);
}

/* ufunc body: bcast < 0 contiguous, bcast = j input j broadcast, bcast = nargs general. */
static void ufunc_path(LoopGen *g, int bcast) {
    int nin = g->nargs - 1;
    g->scoped = bcast != g->nargs;
    LLVMValueRef hoisted = NULL;
    if (bcast >= 0 && bcast < nin)
        hoisted = load_in(g, bcast, g->base[bcast]);
    Loop l = open_loop(g, bcast < 0 ? "contig" : bcast < nin ? "bcast" : "strided");
    LLVMValueRef cargs[LOOP_MAXARGS + 1];
    cargs[0] = g->retp;
    LLVMValueRef addr[LOOP_MAXARGS];
    for (int k = 0; k < g->nargs; k++) {
        if (bcast == g->nargs) {
            LLVMValueRef off = LLVMBuildMul(g->B, l.i, g->step[k], "");
            addr[k] = LLVMBuildGEP2(g->B, LLVMInt8TypeInContext(g->M->ctx), g->base[k], &off, 1, "");
        } else if (k != bcast) {
            addr[k] = LLVMBuildGEP2(g->B, cg_mem_type(g->M, g->dt[k]), g->base[k], &l.i, 1, "");
        }
    }
    for (int k = 0; k < nin; k++)
        cargs[k + 1] = k == bcast ? hoisted : load_in(g, k, addr[k]);
    call_core(g, cargs, nin + 1);
    store_out(g, core_result(g), addr[nin]);
    close_loop(g, &l, bcast != g->nargs);
    g->scoped = false;
}

static void build_ufunc(LoopGen *g) {
    LLVMContextRef C = g->M->ctx;
    int nin = g->nargs - 1;
    make_scopes(g);
    LLVMValueRef contig[LOOP_MAXARGS] = {0};
    for (int k = 0; k < g->nargs; k++)
        contig[k] = LLVMBuildICmp(g->B, LLVMIntEQ, g->step[k], c64(g, ty_size(g->dt[k])), "");
    LLVMValueRef all = contig[0];
    for (int k = 1; k < g->nargs; k++)
        all = LLVMBuildAnd(g->B, all, contig[k], "");
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(C, g->fn, "contig.pre");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(C, g->fn, "check");
    LLVMBuildCondBr(g->B, all, bb, next);
    LLVMPositionBuilderAtEnd(g->B, bb);
    ufunc_path(g, -1);
    LLVMPositionBuilderAtEnd(g->B, next);
    for (int j = 0; nin <= 4 && !(g->M->opt && g->M->opt->loop_basic) && j < nin; j++) {
        LLVMValueRef c = LLVMBuildICmp(g->B, LLVMIntEQ, g->step[j], c64(g, 0), "");
        for (int k = 0; k < g->nargs; k++)
            if (k != j)
                c = LLVMBuildAnd(g->B, c, contig[k], "");
        bb = LLVMAppendBasicBlockInContext(C, g->fn, "bcast.pre");
        next = LLVMAppendBasicBlockInContext(C, g->fn, "check");
        LLVMBuildCondBr(g->B, c, bb, next);
        LLVMPositionBuilderAtEnd(g->B, bb);
        ufunc_path(g, j);
        LLVMPositionBuilderAtEnd(g->B, next);
    }
    ufunc_path(g, g->nargs);
}

/* gufunc body; unit: the last core stride of every array parameter is its item size. */
static void gufunc_path(LoopGen *g, const int *core_dim_index, bool unit) {
    LLVMContextRef C = g->M->ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(C);
    Loop l = open_loop(g, unit ? "gu.unit" : "gu");
    LLVMValueRef cargs[1 + LOOP_MAXARGS * (1 + 2 * NJ_MAX_NDIM)];
    int nc = 0, ci = 0, si = g->nargs;
    cargs[nc++] = g->retp;
    for (int k = 0; k < g->nargs; k++) {
        const Type *t = g->core->params[k];
        LLVMValueRef off = LLVMBuildMul(g->B, l.i, g->step[k], "");
        LLVMValueRef p = LLVMBuildGEP2(g->B, i8, g->base[k], &off, 1, "");
        if (t->kind != TY_ARRAY) {
            cargs[nc++] = load_in(g, k, p);
            continue;
        }
        cargs[nc++] = p;
        LLVMValueRef shp[NJ_MAX_NDIM], str[NJ_MAX_NDIM];
        for (int j = 0; j < t->ndim; j++, ci++) {
            int d = core_dim_index[ci];
            if (d < 0) { /* not a core dimension: NumPy passes no stride for it */
                shp[j] = c64(g, 1);
                str[j] = c64(g, 0);
                continue;
            }
            LLVMValueRef di = c64(g, 1 + d), sidx = c64(g, si++);
            shp[j] = LLVMBuildLoad2(g->B, g->i64, LLVMBuildGEP2(g->B, g->i64, g->dims, &di, 1, ""), "");
            str[j] = unit && j == t->ndim - 1
                         ? c64(g, ty_size(t->dtype))
                         : LLVMBuildLoad2(g->B, g->i64, LLVMBuildGEP2(g->B, g->i64, g->steps, &sidx, 1, ""), "");
        }
        for (int j = 0; j < t->ndim; j++)
            cargs[nc++] = shp[j];
        for (int j = 0; j < t->ndim; j++)
            cargs[nc++] = str[j];
    }
    call_core(g, cargs, nc);
    close_loop(g, &l, false); /* the core's own loops vectorize */
}

static void build_gufunc(LoopGen *g, const int *core_dim_index) {
    LLVMContextRef C = g->M->ctx;
    /* the unit-stride test, over the last core stride of each array parameter */
    LLVMValueRef all = NULL;
    int ci = 0, si = g->nargs;
    for (int k = 0; k < g->nargs; k++) {
        const Type *t = g->core->params[k];
        if (t->kind != TY_ARRAY)
            continue;
        for (int j = 0; j < t->ndim; j++, ci++) {
            if (core_dim_index[ci] < 0) /* no stride of NumPy's for it (a "()" argument) */
                continue;
            int sj = si++;
            if (j != t->ndim - 1)
                continue;
            LLVMValueRef sidx = c64(g, sj);
            LLVMValueRef s = LLVMBuildLoad2(g->B, g->i64, LLVMBuildGEP2(g->B, g->i64, g->steps, &sidx, 1, ""), "");
            LLVMValueRef c = LLVMBuildICmp(g->B, LLVMIntEQ, s, c64(g, ty_size(t->dtype)), "");
            all = all ? LLVMBuildAnd(g->B, all, c, "") : c;
        }
    }
    if (all) {
        LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(C, g->fn, "unit.pre");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(C, g->fn, "any.pre");
        LLVMBuildCondBr(g->B, all, bb, next);
        LLVMPositionBuilderAtEnd(g->B, bb);
        gufunc_path(g, core_dim_index, true);
        LLVMPositionBuilderAtEnd(g->B, next);
    }
    gufunc_path(g, core_dim_index, false);
}

static bool check_program(const IrProgram *p, const Type *const *dt, int nargs, int nout,
                          const int *core_dim_index, char **err) {
    const IrFunc *f = p->nfuncs > 0 ? p->funcs[0] : NULL;
    const char *why = NULL;
    if (!f)
        why = "empty program";
    else if (nargs < 1 || nargs > LOOP_MAXARGS || nout < 0 || nout > nargs)
        why = "bad number of loop arguments"; /* a gufunc may have no output: "(a),(a),(z)" */
    else if (f->kind == IRF_SCALAR) {
        if (nout != 1 || f->nparams != nargs - 1 || !ty_is_elem(f->ret))
            why = "a ufunc core takes nargs - 1 scalars and returns one";
        for (int k = 0; !why && k < nargs; k++)
            if (!dt[k] || !ty_is_elem(dt[k]) || (k < nargs - 1 && !ty_is_elem(f->params[k])))
                why = "ufunc arguments must be scalars";
    } else if (f->kind == IRF_GUFUNC) {
        if (f->nparams != nargs || !core_dim_index)
            why = "a gufunc core takes every argument, and needs core_dim_index";
        for (int k = 0; !why && k < nargs; k++) {
            const Type *t = f->params[k];
            const Type *d = t->kind == TY_ARRAY ? t->dtype : t;
            if (!dt[k] || d != dt[k] || t->ndim > NJ_MAX_NDIM)
                why = "gufunc argument dtypes must equal the parameters' dtypes";
        }
    } else {
        why = "the program's entry is neither a ufunc nor a gufunc core";
    }
    if (why) {
        *err = strdup(why);
        return false;
    }
    return true;
}

/* Builds the loop module (lowered, not optimized) in a new context under the symbol sym.
 * False with *err on failure (nothing left to free). */
static bool loop_module(const IrProgram *p, const Type *const *arg_dtypes, int nargs, int nout,
                        const int *core_dim_index, const CgOptions *opt, const char *sym,
                        LLVMContextRef *ctx, LLVMModuleRef *module, char **err) {
    const IrFunc *core = p->funcs[0];
    LLVMContextRef C = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(sym, C);
    CgModule M = {.ctx = C, .mod = mod, .prog = p, .target = &cg_cpu_target, .opt = opt};
    bool ok = cg_lower_program(&M) && !M.err;
    if (ok) {
        cg_add_fn_attr(&M, M.fns[0], "alwaysinline");
        LoopGen g = {.M = &M, .core = core, .nargs = nargs, .nout = nout, .dt = arg_dtypes};
        g.i64 = LLVMInt64TypeInContext(C);
        g.ptr = LLVMPointerTypeInContext(C, 0);
        LLVMTypeRef pt[4] = {g.ptr, g.ptr, g.ptr, g.ptr};
        g.fn = LLVMAddFunction(mod, sym, LLVMFunctionType(LLVMVoidTypeInContext(C), pt, 4, false));
        cg_add_fn_attr(&M, g.fn, "nounwind");
        g.B = LLVMCreateBuilderInContext(C);
        LLVMPositionBuilderAtEnd(g.B, LLVMAppendBasicBlockInContext(C, g.fn, "entry"));
        LLVMValueRef args = LLVMGetParam(g.fn, 0);
        g.dims = LLVMGetParam(g.fn, 1);
        g.steps = LLVMGetParam(g.fn, 2);
        g.n = LLVMBuildLoad2(g.B, g.i64, g.dims, "n");
        for (int k = 0; k < nargs; k++) {
            LLVMValueRef idx = c64(&g, k);
            g.base[k] = LLVMBuildLoad2(g.B, g.ptr, LLVMBuildGEP2(g.B, g.ptr, args, &idx, 1, ""), "");
            g.step[k] = LLVMBuildLoad2(g.B, g.i64, LLVMBuildGEP2(g.B, g.i64, g.steps, &idx, 1, ""), "");
        }
        /* the core's %ret slot (8 bytes is enough for any scalar; gufuncs write none) */
        g.retp = LLVMBuildAlloca(g.B, core->kind == IRF_SCALAR ? cg_mem_type(&M, core->ret) : g.i64, "ret");
        if (core->kind == IRF_SCALAR)
            build_ufunc(&g);
        else
            build_gufunc(&g, core_dim_index);
        LLVMDisposeBuilder(g.B);
        ok = !M.err && cg_verify(&M);
    }
    if (!ok) {
        *err = M.err ? M.err : strdup("codegen: lowering the loop failed");
        M.err = NULL;
        cg_module_dispose(&M);
        LLVMDisposeModule(mod);
        LLVMContextDispose(C);
        return false;
    }
    cg_module_dispose(&M);
    *ctx = C;
    *module = mod;
    return true;
}

/* Checks that the program fits the loop shape and defaults the options; false with *err. */
static bool loop_prepare(const IrProgram *p, const Type *const *arg_dtypes, int nargs, int nout,
                         const int *core_dim_index, const CgOptions **opt, char **err) {
    static const CgOptions defaults = {.opt_level = 3};
    *err = NULL;
    if (!check_program(p, arg_dtypes, nargs, nout, core_dim_index, err))
        return false;
    if (!*opt)
        *opt = &defaults;
    return true;
}

bool cg_jit_compile_loop(CgJit *jit, const IrProgram *p, const Type *const *arg_dtypes,
                         int nargs, int nout, const int *core_dim_index, const CgOptions *opt,
                         CgLoop *loop, char **err) {
    static atomic_ulong serial;
    *loop = NULL;
    if (!loop_prepare(p, arg_dtypes, nargs, nout, core_dim_index, &opt, err))
        return false;
    const IrFunc *core = p->funcs[0];
    char sym[512];
    snprintf(sym, sizeof sym, "nj_loop.%.400s.%lu", core->mangled ? core->mangled : core->name,
             (unsigned long)atomic_fetch_add(&serial, 1) + 1);
    LLVMContextRef C;
    LLVMModuleRef mod;
    if (!loop_module(p, arg_dtypes, nargs, nout, core_dim_index, opt, sym, &C, &mod, err))
        return false;
    void *addr = NULL;
    if (!cg_cpu_jit_add(jit, C, mod, opt->opt_level, sym, &addr, err))
        return false;
    *loop = (CgLoop)addr;
    return true;
}

/* The same loop as an object file under the caller's symbol (the on-disk cache). */
bool cg_jit_compile_loop_object(CgJit *jit, const IrProgram *p, const Type *const *arg_dtypes,
                                int nargs, int nout, const int *core_dim_index,
                                const CgOptions *opt, const char *sym, void **obj, size_t *len,
                                char **err) {
    *obj = NULL;
    *len = 0;
    if (!loop_prepare(p, arg_dtypes, nargs, nout, core_dim_index, &opt, err))
        return false;
    LLVMContextRef C;
    LLVMModuleRef mod;
    if (!loop_module(p, arg_dtypes, nargs, nout, core_dim_index, opt, sym, &C, &mod, err))
        return false;
    return cg_cpu_object(jit, C, mod, opt->opt_level, obj, len, err);
}

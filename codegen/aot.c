/* aot.c — ahead-of-time object files: several specializations in one relocatable x86-64 ELF
 * object that a C program links with plain `cc main.c lib.o -lm`, no numjit at run time.
 *
 * The build, top to bottom (cg_aot_object):
 *   1. one LLVM module with the target's triple and data layout; every program is lowered into
 *      it by lower.c (its functions internal; equal names from two programs are uniquified by
 *      LLVM, and calls go through CgModule.fns, never by name);
 *   2. an exported wrapper per specialization, under the name the user chose, with the C ABI
 *      of codegen.h (arrays as `const NjArray *`, checked against the signature: ndim, dtype
 *      and, for C/F layouts, contiguity, mirroring the dispatcher's rt_layout_of; scalars by
 *      value; the result through a pointer that may be NULL), which calls the lowered entry and
 *      offsets its raise sites by status_base so that statuses are unique in the object;
 *   3. verification, the O3 pipeline on a TargetMachine for the chosen CPU (x86-64 baseline by
 *      default, a named CPU, or this host's CPU and features for "native"), PIC relocations and
 *      the default code model, as a C compiler would produce for a shared or PIE build;
 *   4. vector math: when the process runs with libmvec (cpu.c sets -vector-library for the JIT,
 *      process-wide), the vectorizer calls `_ZGV<isa>N<lanes><v...>_<name>`.  Unless the caller
 *      asked for vector math, each such declaration gets an internal always-inline definition
 *      that applies the scalar libm function lane by lane, so the object needs libm only;
 *   5. object emission to memory.
 */
#include "cg_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Transforms/PassBuilder.h>

static char *aot_err(const char *prefix, const char *msg) {
    size_t n = strlen(prefix) + strlen(msg ? msg : "") + 4;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", prefix, msg ? ": " : "", msg ? msg : "");
    return s;
}

/* ---- CPU names -------------------------------------------------------------------------------
 * LLVM prints a warning (and ignores it) for a CPU name it does not know, and the library never
 * prints: names are checked against this list first. */
static const char *const aot_cpus[] = {
    "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "nehalem", "westmere", "sandybridge",
    "ivybridge", "haswell", "broadwell", "skylake", "skylake-avx512", "cascadelake",
    "cooperlake", "cannonlake", "icelake-client", "icelake-server", "tigerlake", "rocketlake",
    "alderlake", "raptorlake", "meteorlake", "sapphirerapids", "emeraldrapids",
    "graniterapids", "btver2", "bdver4", "znver1", "znver2", "znver3", "znver4", NULL,
};

bool cg_aot_cpu_known(const char *cpu) {
    if (!cpu || !strcmp(cpu, "generic") || !strcmp(cpu, "native"))
        return true;
    for (int i = 0; aot_cpus[i]; i++)
        if (!strcmp(cpu, aot_cpus[i]))
            return true;
    return false;
}

static LLVMTargetMachineRef aot_target_machine(const char *cpu, char **err) {
    const char *name = "x86-64", *features = "";
    if (cpu && !strcmp(cpu, "native"))
        cg_cpu_host(&name, &features);
    else if (cpu && strcmp(cpu, "generic"))
        name = cpu;
    char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
    LLVMTargetRef t;
    LLVMTargetMachineRef tm = NULL;
    if (strncmp(triple, "x86_64", 6)) {
        *err = aot_err("codegen: object files are made for x86-64 hosts only, not", triple);
    } else if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        *err = aot_err("codegen: no target for the host", msg);
        LLVMDisposeMessage(msg);
    } else {
        tm = LLVMCreateTargetMachine(t, triple, name, features, LLVMCodeGenLevelAggressive,
                                     LLVMRelocPIC, LLVMCodeModelDefault);
        if (!tm)
            *err = aot_err("codegen: cannot create a TargetMachine for CPU", name);
    }
    LLVMDisposeMessage(triple);
    return tm;
}

/* ---- the exported wrapper ------------------------------------------------------------------ */
static int aot_dtype(const Type *t) {
    switch (t->kind) {
    case TY_BOOL: return NJ_BOOL;
    case TY_I8: return NJ_INT8;
    case TY_I16: return NJ_INT16;
    case TY_I32: return NJ_INT32;
    case TY_I64: return NJ_INT64;
    case TY_U8: return NJ_UINT8;
    case TY_U16: return NJ_UINT16;
    case TY_U32: return NJ_UINT32;
    case TY_U64: return NJ_UINT64;
    case TY_F32: return NJ_FLOAT32;
    case TY_F64: return NJ_FLOAT64;
    default: return -1;
    }
}

/* Parameter type of the C ABI for t: a pointer for arrays and tuples, else the memory form
 * (bool as i8: a C bool arrives zero-extended to at least 8 bits). */
static LLVMTypeRef aot_param_type(CgModule *M, const Type *t) {
    if (t->kind == TY_ARRAY || t->kind == TY_TUPLE)
        return LLVMPointerTypeInContext(M->ctx, 0);
    return cg_mem_type(M, t);
}

typedef struct AotWrap {
    CgModule *M;
    LLVMBuilderRef B;
    LLVMValueRef fn;
    LLVMBasicBlockRef *bad; /* per argument: returns -1 - k */
} AotWrap;

/* Branches to W->bad[k] unless cond holds; continues in a fresh block. */
static void aot_check(AotWrap *W, LLVMValueRef cond, int k) {
    LLVMContextRef C = W->M->ctx;
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(C, W->fn, "ok");
    LLVMBuildCondBr(W->B, cond, next, W->bad[k]);
    LLVMPositionBuilderAtEnd(W->B, next);
}

static LLVMValueRef aot_field(AotWrap *W, LLVMValueRef p, LLVMTypeRef ty, unsigned off) {
    LLVMContextRef C = W->M->ctx;
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(C), off, 0);
    return LLVMBuildLoad2(W->B, ty, LLVMBuildGEP2(W->B, LLVMInt8TypeInContext(C), p, &o, 1, ""), "");
}

/* Loads array argument k (an NjArray at p) into cargs after checking it against t. */
static int aot_array_arg(AotWrap *W, const Type *t, LLVMValueRef p, int k, LLVMValueRef *cargs) {
    LLVMContextRef C = W->M->ctx;
    LLVMBuilderRef B = W->B;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(C), i64 = LLVMInt64TypeInContext(C),
                ptr = LLVMPointerTypeInContext(C, 0);
    int n = 0, nd = t->ndim;
    /* NjArray: data @0, ndim @8, dtype @12, shape @16, strides @16 + 8 * NJ_MAX_NDIM */
    LLVMValueRef nonnull = LLVMBuildIsNotNull(B, p, "");
    aot_check(W, nonnull, k);
    LLVMValueRef ok = LLVMBuildAnd(
        B, LLVMBuildICmp(B, LLVMIntEQ, aot_field(W, p, i32, 8), LLVMConstInt(i32, (unsigned)nd, 0), ""),
        LLVMBuildICmp(B, LLVMIntEQ, aot_field(W, p, i32, 12),
                      LLVMConstInt(i32, (unsigned long long)aot_dtype(t->dtype), 0), ""),
        "");
    aot_check(W, ok, k);
    cargs[n++] = aot_field(W, p, ptr, 0);
    LLVMValueRef sh[NJ_MAX_NDIM], st[NJ_MAX_NDIM];
    for (int d = 0; d < nd; d++) {
        sh[d] = aot_field(W, p, i64, 16 + 8 * (unsigned)d);
        st[d] = aot_field(W, p, i64, 16 + 8 * NJ_MAX_NDIM + 8 * (unsigned)d);
    }
    if (t->layout == LAYOUT_C || t->layout == LAYOUT_F) {
        /* contiguous: every dimension of extent != 1 has the stride of the ones inside it */
        LLVMValueRef expect = LLVMConstInt(i64, (unsigned long long)ty_size(t->dtype), 0);
        LLVMValueRef good = LLVMConstInt(LLVMInt1TypeInContext(C), 1, 0);
        for (int j = 0; j < nd; j++) {
            int d = t->layout == LAYOUT_C ? nd - 1 - j : j;
            LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ, sh[d], LLVMConstInt(i64, 1, 0), "");
            LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, st[d], expect, "");
            good = LLVMBuildAnd(B, good, LLVMBuildOr(B, one, same, ""), "");
            expect = LLVMBuildMul(B, expect, sh[d], "");
        }
        aot_check(W, good, k);
    }
    for (int d = 0; d < nd; d++)
        cargs[n++] = sh[d];
    for (int d = 0; d < nd; d++)
        cargs[n++] = st[d];
    return n;
}

/* int32_t name([RET *result,] args...) around M->fns[0]. */
static bool aot_wrapper(CgModule *M, const CgAotFunc *af) {
    const IrFunc *f = M->prog->funcs[0];
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(C), ptr = LLVMPointerTypeInContext(C, 0);
    bool has_ret = f->ret->kind != TY_VOID;
    int np = f->nparams + (has_ret ? 1 : 0), ncall = cg_abi_params(M, f, NULL);
    LLVMTypeRef *pt = malloc(sizeof *pt * (size_t)(np + 1));
    LLVMValueRef *cargs = malloc(sizeof *cargs * (size_t)ncall);
    LLVMBasicBlockRef *bad = malloc(sizeof *bad * (size_t)(f->nparams + 1));
    if (!pt || !cargs || !bad) {
        free(pt), free(cargs), free(bad);
        cg_module_error(M, "out of memory");
        return false;
    }
    int k = 0;
    if (has_ret)
        pt[k++] = ptr;
    for (int i = 0; i < f->nparams; i++)
        pt[k++] = aot_param_type(M, f->params[i]);
    LLVMValueRef fn = LLVMAddFunction(M->mod, af->name, LLVMFunctionType(i32, pt, (unsigned)np, false));
    cg_add_fn_attr(M, fn, "nounwind");
    AotWrap W = {M, LLVMCreateBuilderInContext(C), fn, bad};
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry");
    for (int i = 0; i < f->nparams; i++) {
        bad[i] = LLVMAppendBasicBlockInContext(C, fn, "bad_arg");
        LLVMPositionBuilderAtEnd(W.B, bad[i]);
        LLVMBuildRet(W.B, LLVMConstInt(i32, (unsigned long long)(-1 - i), 1));
    }
    LLVMPositionBuilderAtEnd(W.B, entry);
    /* the result slot: the caller's pointer, or a local one when it passed NULL */
    LLVMTypeRef rt = has_ret ? cg_mem_type(M, f->ret) : LLVMInt64TypeInContext(C);
    LLVMValueRef local = LLVMBuildAlloca(W.B, rt, "result"), slot = local;
    if (has_ret) {
        LLVMValueRef user = LLVMGetParam(fn, 0);
        slot = LLVMBuildSelect(W.B, LLVMBuildIsNull(W.B, user, ""), local, user, "");
    }
    int n = 0;
    cargs[n++] = slot;
    for (int i = 0; i < f->nparams; i++) {
        const Type *t = f->params[i];
        LLVMValueRef p = LLVMGetParam(fn, (unsigned)(i + (has_ret ? 1 : 0)));
        if (t->kind == TY_ARRAY) {
            n += aot_array_arg(&W, t, p, i, cargs + n);
        } else if (t->kind == TY_TUPLE) {
            aot_check(&W, LLVMBuildIsNotNull(W.B, p, ""), i);
            cargs[n++] = cg_from_mem(M, W.B, t, LLVMBuildLoad2(W.B, cg_mem_type(M, t), p, ""));
        } else {
            cargs[n++] = cg_from_mem(M, W.B, t, p);
        }
    }
    LLVMValueRef st = LLVMBuildCall2(W.B, M->fntys[0], M->fns[0], cargs, (unsigned)n, "");
    if (af->status_base) { /* unique statuses across the object: site + base */
        LLVMValueRef raised = LLVMBuildICmp(W.B, LLVMIntNE, st, LLVMConstNull(i32), "");
        LLVMValueRef moved = LLVMBuildAdd(W.B, st, LLVMConstInt(i32, (unsigned)af->status_base, 0), "");
        st = LLVMBuildSelect(W.B, raised, moved, st, "");
    }
    LLVMBuildRet(W.B, st);
    LLVMDisposeBuilder(W.B);
    free(pt), free(cargs), free(bad);
    return true;
}

/* ---- libmvec calls back to libm ---------------------------------------------------------------
 * `_ZGV` isa ('b' SSE, 'c' AVX, 'd' AVX2, 'e' AVX-512), 'N' (no mask), lanes, one 'v' per
 * vector parameter, '_', the scalar name (LLVM 19 also uses `__exp_finite`-style names: their
 * scalar twin is the plain function). */
static bool aot_scalarize(LLVMModuleRef mod, LLVMValueRef vf, char **err) {
    size_t len;
    const char *name = LLVMGetValueName2(vf, &len);
    const char *p = name + 4;
    if (!*p || !strchr("bcde", *p) || p[1] != 'N' || !isdigit((unsigned char)p[2]))
        goto unknown;
    char *end;
    unsigned lanes = (unsigned)strtoul(p + 2, &end, 10);
    p = end;
    int nv = 0;
    while (*p == 'v')
        p++, nv++;
    if (*p != '_' || !p[1] || nv < 1 || nv > 3)
        goto unknown;
    char scalar[128];
    snprintf(scalar, sizeof scalar, "%s", p + 1);
    size_t sl = strlen(scalar);
    if (!strncmp(scalar, "__", 2) && sl > 9 && !strcmp(scalar + sl - 7, "_finite")) {
        memmove(scalar, scalar + 2, sl - 2);
        scalar[sl - 9] = 0;
    }
    LLVMTypeRef fty = LLVMGlobalGetValueType(vf), vt = LLVMGetReturnType(fty);
    if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind || LLVMGetVectorSize(vt) != lanes ||
        LLVMCountParamTypes(fty) != (unsigned)nv)
        goto unknown;
    LLVMTypeRef pts[3];
    LLVMGetParamTypes(fty, pts);
    for (int i = 0; i < nv; i++)
        if (pts[i] != vt)
            goto unknown;
    LLVMContextRef C = LLVMGetModuleContext(mod);
    LLVMTypeRef et = LLVMGetElementType(vt), sp[3] = {et, et, et};
    LLVMTypeRef sfty = LLVMFunctionType(et, sp, (unsigned)nv, false);
    LLVMValueRef sf = LLVMGetNamedFunction(mod, scalar);
    if (!sf) {
        sf = LLVMAddFunction(mod, scalar, sfty);
        unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
        LLVMAddAttributeAtIndex(sf, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(C, nounwind, 0));
    } else if (LLVMGlobalGetValueType(sf) != sfty) {
        goto unknown;
    }
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, vf, "entry"));
    LLVMValueRef r = LLVMGetPoison(vt);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(C);
    for (unsigned l = 0; l < lanes; l++) {
        LLVMValueRef lane = LLVMConstInt(i32, l, 0), a[3];
        for (int i = 0; i < nv; i++)
            a[i] = LLVMBuildExtractElement(B, LLVMGetParam(vf, (unsigned)i), lane, "");
        r = LLVMBuildInsertElement(B, r, LLVMBuildCall2(B, sfty, sf, a, (unsigned)nv, ""), lane, "");
    }
    LLVMBuildRet(B, r);
    LLVMDisposeBuilder(B);
    LLVMSetLinkage(vf, LLVMInternalLinkage);
    unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(vf, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(C, inl, 0));
    return true;
unknown:
    *err = aot_err("codegen: cannot express the vector math function without libmvec (use "
                   "vector math)", name);
    return false;
}

/* Defines every `_ZGV*` declaration of mod through libm; inlines them.  False with *err. */
static bool aot_no_libmvec(LLVMModuleRef mod, LLVMTargetMachineRef tm, char **err) {
    int n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (!LLVMCountBasicBlocks(fn) && !strncmp(name, "_ZGV", 4)) {
            if (!aot_scalarize(mod, fn, err))
                return false;
            n++;
        }
    }
    if (!n)
        return true;
    /* The vectorizer keeps its vector variants in @llvm.compiler.used; once they are ours and
     * inlined, nothing needs them: drop the list when it holds only those. */
    LLVMValueRef used = LLVMGetNamedGlobal(mod, "llvm.compiler.used");
    LLVMValueRef init = used ? LLVMGetInitializer(used) : NULL;
    bool only_zgv = init != NULL;
    for (int i = 0; only_zgv && i < LLVMGetNumOperands(init); i++) {
        size_t len;
        const char *name = LLVMGetValueName2(LLVMGetOperand(init, (unsigned)i), &len);
        only_zgv = !strncmp(name, "_ZGV", 4);
    }
    if (only_zgv)
        LLVMDeleteGlobal(used);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "always-inline,globaldce", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        *err = aot_err("codegen: inlining scalar math failed", m);
        LLVMDisposeErrorMessage(m);
        return false;
    }
    return true;
}

/* ---- the pipeline -------------------------------------------------------------------------- */
/* Lowers every program into mod, then adds the wrappers (after all lowering, so that libm
 * declarations made while lowering are known when export names are checked). */
static bool aot_lower(LLVMContextRef ctx, LLVMModuleRef mod, const CgAotFunc *fns, int n,
                      const CgOptions *copt, char **err) {
    CgModule *Ms = calloc((size_t)n, sizeof *Ms);
    if (!Ms) {
        *err = aot_err("codegen: out of memory", NULL);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        const IrProgram *p = fns[i].prog;
        if (!p || p->nfuncs < 1 || p->target != TARGET_CPU) {
            *err = aot_err("codegen: not a CPU program", fns[i].name);
            ok = false;
            break;
        }
        Ms[i] = (CgModule){.ctx = ctx, .mod = mod, .prog = p, .target = &cg_cpu_target, .opt = copt,
                            .parfor_serial = true};
        ok = cg_lower_program(&Ms[i]) && !Ms[i].err;
        if (!ok)
            *err = Ms[i].err ? Ms[i].err : aot_err("codegen: lowering failed", fns[i].name);
        if (!ok)
            Ms[i].err = NULL;
    }
    for (int i = 0; i < n && ok; i++) {
        LLVMValueRef old = LLVMGetNamedFunction(mod, fns[i].name);
        if (old && LLVMGetLinkage(old) == LLVMInternalLinkage) {
            char tmp[300];
            snprintf(tmp, sizeof tmp, "%s.internal", fns[i].name);
            LLVMSetValueName2(old, tmp, strlen(tmp)); /* the export takes the plain name */
        } else if (old) {
            char msg[300];
            snprintf(msg, sizeof msg, "codegen: the exported name '%s' is taken by %s",
                     fns[i].name, LLVMCountBasicBlocks(old) ? "another exported function"
                                                             : "a C library function");
            *err = aot_err(msg, NULL);
            ok = false;
            break;
        }
        ok = aot_wrapper(&Ms[i], &fns[i]);
        if (!ok) {
            *err = Ms[i].err;
            Ms[i].err = NULL;
        }
    }
    if (ok && n > 0) {
        ok = cg_verify(&Ms[0]);
        if (!ok) {
            *err = Ms[0].err;
            Ms[0].err = NULL;
        }
    }
    for (int i = 0; i < n; i++)
        if (Ms[i].prog)
            cg_module_dispose(&Ms[i]);
    free(Ms);
    return ok;
}

bool cg_aot_object(const CgAotFunc *fns, int n, const CgAotOptions *o, void **obj, size_t *len,
                   char **err) {
    static const CgAotOptions defaults = {.opt_level = 3};
    if (!o)
        o = &defaults;
    *obj = NULL;
    *len = 0;
    *err = NULL;
    if (n < 1) {
        *err = aot_err("codegen: no function to compile", NULL);
        return false;
    }
    if (!cg_aot_cpu_known(o->cpu)) {
        *err = aot_err("codegen: unknown CPU name (x86-64, x86-64-v2, x86-64-v3, x86-64-v4, "
                       "native, haswell, skylake-avx512, znver3, ...)", o->cpu);
        return false;
    }
    if (!cg_cpu_init(err))
        return false;
    LLVMTargetMachineRef tm = aot_target_machine(o->cpu, err);
    if (!tm)
        return false;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("numjit_aot", ctx);
    cg_set_module_target(mod, tm);

    CgOptions copt = {.opt_level = o->opt_level};
    bool ok = aot_lower(ctx, mod, fns, n, &copt, err) &&
              cg_cpu_optimize(mod, tm, o->opt_level, err) &&
              (o->vector_math || aot_no_libmvec(mod, tm, err));
    if (ok) {
        char *msg = NULL;
        LLVMMemoryBufferRef buf;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &buf)) {
            *err = aot_err("codegen: object emission failed", msg);
            LLVMDisposeMessage(msg);
            ok = false;
        } else {
            size_t sz = LLVMGetBufferSize(buf);
            *obj = malloc(sz ? sz : 1);
            if (*obj) {
                memcpy(*obj, LLVMGetBufferStart(buf), sz);
                *len = sz;
            } else {
                *err = aot_err("codegen: out of memory", NULL);
                ok = false;
            }
            LLVMDisposeMemoryBuffer(buf);
        }
    }
    if (!ok && !*err)
        *err = aot_err("codegen: object file build failed", NULL);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return ok;
}

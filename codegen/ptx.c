/* ptx.c — the NVPTX pipeline: typed IR in, PTX text out.  No GPU or driver involved.
 *
 * One compilation, top to bottom (ptx_build):
 *   1. a TargetMachine for nvptx64-nvidia-cuda, CPU = the arch ("sm_90"), features "+ptxNN"
 *      (the newest PTX ISA LLVM 19 knows, 8.5, or less under a cap given by the caller, never
 *      below what the arch needs);
 *   2. a module in a fresh LLVM context with that triple and data layout; a diagnostic handler
 *      collects LLVM's messages instead of letting them reach stderr;
 *   3. lower.c lowers every IrFunc with the NVPTX hooks (nvptx.c);
 *   4. cg_nvptx_finish adds the `.entry` kernel wrappers and rewrites what the backend cannot
 *      select into libdevice calls (cg_ptx_build: a caller's step instead, e.g. gpu_loops.c's
 *      ufunc kernel, which calls cg_nvptx_finish itself);
 *   5. the module is verified;
 *   6. libdevice is linked lazily (only when `__nv_*` functions are called) and internalized;
 *      the "nvvm-reflect-ftz" module flag is 1 under fastmath, else 0;
 *   7. "default<O3>" with the TargetMachine (it adds NVVMReflect, which folds the
 *      `__nvvm_reflect` queries, and the address-space inference that turns generic accesses
 *      into ld.global/ld.shared); opt_level 0 still runs O1, which libdevice needs;
 *   8. the TargetMachine emits PTX assembly; PTX still referring to an undefined function
 *      (`.extern .func`) is an error, since the driver could not load it.
 * With the libNVVM backend (CgOptions.ptx_backend, or auto for sm_100 and newer: codegen.h)
 * steps 1-5 are the same, except that the TargetMachine is an sm_90 one used only for the data
 * layout, and nvvm.c replaces 6-8: libNVVM links libdevice, optimizes and writes the PTX.
 * Process-wide state: the NVPTX target initialized once; libdevice's bytes (libdevice.c).
 * Each compilation owns its context, module and TargetMachine, so compilations may run in
 * parallel threads.
 */
#include "cg_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"
#define NVPTX_NEWEST_PTX 85

static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_init_once(void) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

/* ---- arch and PTX version ------------------------------------------------------------------ */
/* The processors LLVM 19's NVPTX backend knows and the PTX ISA each needs at least. */
static const struct {
    const char *arch;
    int min_ptx;
} nv_archs[] = {
    {"sm_20", 32}, {"sm_21", 32}, {"sm_30", 60}, {"sm_32", 40}, {"sm_35", 32}, {"sm_37", 41},
    {"sm_50", 40}, {"sm_52", 41}, {"sm_53", 42}, {"sm_60", 50}, {"sm_61", 50}, {"sm_62", 50},
    {"sm_70", 60}, {"sm_72", 61}, {"sm_75", 63}, {"sm_80", 70}, {"sm_86", 71}, {"sm_87", 74},
    {"sm_89", 78}, {"sm_90", 78}, {"sm_90a", 80},
};
/* PTX ISA versions LLVM 19 can emit (+ptxNN). */
static const int nv_ptx_versions[] = {32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72,
                                      73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85};

int cg_ptx_version(const char *arch, int max_ptx) {
    int need = -1;
    for (size_t i = 0; arch && i < sizeof nv_archs / sizeof *nv_archs; i++)
        if (!strcmp(arch, nv_archs[i].arch))
            need = nv_archs[i].min_ptx;
    if (need < 0)
        return 0;
    int best = 0;
    for (size_t i = 0; i < sizeof nv_ptx_versions / sizeof *nv_ptx_versions; i++) {
        int v = nv_ptx_versions[i];
        if (v >= need && (max_ptx <= 0 || v <= max_ptx))
            best = v;
    }
    return best;
}

/* ---- errors --------------------------------------------------------------------------------- */
/* cg_errf (lower.c) formats the messages. */
/* LLVM's diagnostics of one compilation: errors kept (the first few), the rest dropped. */
typedef struct NvDiag {
    StrBuf errors;
    int n;
} NvDiag;

static void nv_diag_handler(LLVMDiagnosticInfoRef di, void *opaque) {
    NvDiag *d = opaque;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || d->n >= 4)
        return;
    char *msg = LLVMGetDiagInfoDescription(di);
    if (d->n++)
        sb_puts(&d->errors, "; ");
    sb_puts(&d->errors, msg ? msg : "?");
    LLVMDisposeMessage(msg);
}

/* ---- pieces of the pipeline --------------------------------------------------------------- */
static LLVMTargetMachineRef nv_target_machine(const char *arch, int ptx, int level, char **err) {
    LLVMTargetRef t;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(NVPTX_TRIPLE, &t, &msg)) {
        *err = cg_errf("codegen: this LLVM has no NVPTX target: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    char feat[16];
    snprintf(feat, sizeof feat, "+ptx%d", ptx);
    LLVMCodeGenOptLevel cl = level >= 3 ? LLVMCodeGenLevelAggressive
                             : level >= 1 ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelNone;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, NVPTX_TRIPLE, arch, feat, cl,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm)
        *err = cg_errf("codegen: cannot create an NVPTX TargetMachine for %s", arch);
    return tm;
}

static bool nv_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level, char **err) {
    char pipeline[32];
    snprintf(pipeline, sizeof pipeline, "default<O%d>", level < 1 ? 1 : level > 3 ? 3 : level);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopUnrolling(po, level >= 2);
    LLVMErrorRef e = LLVMRunPasses(mod, pipeline, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        *err = cg_errf("codegen: NVPTX optimization failed: %s", m ? m : "");
        LLVMDisposeErrorMessage(m);
        return false;
    }
    return true;
}

static void set_reflect_ftz(LLVMModuleRef mod, bool ftz) {
    LLVMContextRef C = LLVMGetModuleContext(mod);
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(C), ftz ? 1 : 0, 0)));
}

static bool any_fastmath(const IrProgram *p, const CgOptions *opt) {
    if (opt && opt->fastmath)
        return true;
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->fastmath)
            return true;
    return false;
}

/* "... .extern .func (.param .b64 func_retval0) foo(" → an error naming foo; vprintf (print()),
 * a system call of the CUDA ABI that the driver provides, is not one. */
static char *check_unresolved(const char *ptx) {
    for (const char *s = strstr(ptx, ".extern .func"); s; s = strstr(s + 1, ".extern .func")) {
        const char *end = strchr(s, '(');
        const char *name = end;
        if (end && end[1] == '.') { /* a return parameter list comes first */
            const char *close = strchr(end, ')');
            name = close ? close + 1 : end;
            end = strchr(name, '(');
        }
        while (name && *name == ' ')
            name++;
        int len = name && end && end > name ? (int)(end - name) : 0;
        while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\n'))
            len--;
        if (len == 7 && !memcmp(name, "vprintf", 7))
            continue;
        return cg_errf("codegen: the PTX calls the undefined function '%.*s' (not in libdevice?)",
                       len, len ? name : "?");
    }
    return NULL;
}

/* ---- the pipeline ----------------------------------------------------------------------------- */
static char *ptx_build(const IrProgram *p, const char *arch, int max_ptx, bool llvm_ir,
                       const CgOptions *opt, CgNvFinish finish, void *finish_arg, char **err) {
    static const CgOptions defaults = {.opt_level = 3};
    char *out = NULL;
    *err = NULL;
    if (!opt)
        opt = &defaults;
    if (!p || p->nfuncs < 1) {
        *err = cg_errf("codegen: empty program");
        return NULL;
    }
    pthread_once(&nv_once, nv_init_once);
    if (!arch || !*arch)
        arch = "sm_90";
    CgPtxBackend backend = cg_ptx_backend_for(arch, opt->ptx_backend);
    if (backend == CG_PTX_NVVM || !cg_ptx_version(arch, 0)) {
        char *why = NULL;
        if (!cg_ptx_can_target(arch, backend, &why)) {
            *err = cg_errf("codegen: %s", why ? why : "no backend for this arch");
            free(why);
            return NULL;
        }
    }
    /* libNVVM: an sm_90 TargetMachine only to give the module LLVM's NVPTX data layout */
    const char *tm_arch = backend == CG_PTX_NVVM ? "sm_90" : arch;
    int ptx = cg_ptx_version(tm_arch, backend == CG_PTX_NVVM ? 0 : max_ptx);
    if (!ptx) {
        if (cg_ptx_version(arch, 0))
            *err = cg_errf("codegen: %s needs a newer PTX ISA than %d.%d (the driver's limit)",
                              arch, max_ptx / 10, max_ptx % 10);
        else
            *err = cg_errf("codegen: LLVM %s cannot generate code for '%s' (it knows sm_20 to "
                              "sm_90a; newer GPUs need the libNVVM backend)",
                              cg_llvm_version(), arch);
        return NULL;
    }
    LLVMTargetMachineRef tm = nv_target_machine(tm_arch, ptx, opt->opt_level, err);
    if (!tm)
        return NULL;
    NvDiag diag = {0};
    sb_init(&diag.errors);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, nv_diag_handler, &diag);
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(p->funcs[0]->name, ctx);
    LLVMSetTarget(mod, NVPTX_TRIPLE);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);

    CgModule M = {.ctx = ctx, .mod = mod, .prog = p, .target = &cg_nvptx_target, .opt = opt};
    bool ok = cg_lower_program(&M) && (finish ? finish(&M, finish_arg) : cg_nvptx_finish(&M)) &&
              cg_verify(&M);
    if (!ok) {
        *err = M.err ? M.err : cg_errf("codegen: NVPTX lowering failed");
        M.err = NULL;
    }
    if (ok && !any_fastmath(p, opt))
        cg_libdevice_prepare(mod);
    if (ok && backend == CG_PTX_NVVM) { /* nvvm.c: libdevice, reflect, O3 and PTX there */
        out = cg_nvvm_compile(mod, arch, max_ptx, llvm_ir, opt->opt_level, any_fastmath(p, opt),
                              err);
        char *bad = out && !llvm_ir ? check_unresolved(out) : NULL;
        if (bad) {
            free(out);
            out = NULL;
            *err = bad;
        }
        ok = false; /* done */
    }
    if (ok && !(ok = cg_libdevice_link(mod, err)) && diag.n) {
        free(*err);
        *err = cg_errf("codegen: linking libdevice: %s", diag.errors.data);
    }
    if (ok) {
        bool fast = any_fastmath(p, opt);
        if (fast)
            cg_nvptx_fast_libdevice(&M);
        set_reflect_ftz(mod, fast);
        ok = nv_optimize(mod, tm, opt->opt_level, err);
    }
    if (ok && llvm_ir) {
        char *s = LLVMPrintModuleToString(mod);
        out = strdup(s ? s : "");
        LLVMDisposeMessage(s);
    } else if (ok) {
        char *msg = NULL;
        LLVMMemoryBufferRef buf = NULL;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &buf)) {
            *err = cg_errf("codegen: PTX emission failed: %s%s%s", msg ? msg : "",
                              diag.n ? "; " : "", diag.n ? diag.errors.data : "");
        } else {
            size_t n = LLVMGetBufferSize(buf);
            out = malloc(n + 1);
            if (out) {
                memcpy(out, LLVMGetBufferStart(buf), n);
                out[n] = 0;
                char *bad = check_unresolved(out);
                if (bad) {
                    free(out);
                    out = NULL;
                    *err = bad;
                }
            } else {
                *err = cg_errf("codegen: out of memory");
            }
            LLVMDisposeMemoryBuffer(buf);
        }
        LLVMDisposeMessage(msg);
    }
    if (!out && !*err)
        *err = cg_errf("codegen: NVPTX compilation failed%s%s", diag.n ? ": " : "",
                          diag.n ? diag.errors.data : "");
    cg_module_dispose(&M);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    sb_free(&diag.errors);
    return out;
}

char *cg_emit_ptx_ex(const IrProgram *p, const char *arch, int max_ptx, bool llvm_ir,
                     const CgOptions *opt, char **err) {
    return ptx_build(p, arch, max_ptx, llvm_ir, opt, NULL, NULL, err);
}

char *cg_ptx_build(const IrProgram *p, const char *arch, int max_ptx, bool llvm_ir,
                   const CgOptions *opt, CgNvFinish finish, void *arg, char **err) {
    return ptx_build(p, arch, max_ptx, llvm_ir, opt, finish, arg, err);
}

char *cg_emit_ptx(const IrProgram *p, const char *arch, const CgOptions *opt, char **err) {
    return ptx_build(p, arch, 0, false, opt, NULL, NULL, err);
}

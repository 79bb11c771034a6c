/* nvvm.c — libNVVM, the second PTX backend: the way to Blackwell (compute_100 and newer),
 * which LLVM 19's NVPTX backend cannot target.
 *
 * Loading.  libnvvm.so is opened with dlopen, never linked, so the build and every machine
 * without the CUDA toolkit are unaffected: there the backend is simply unavailable and says
 * why.  The search runs once per process: $NUMJIT_LIBNVVM (a file; when set, nothing else is
 * tried), then under each candidate toolkit root — $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT,
 * /usr/local/cuda, the parent of the directory of the nvcc found on $PATH, /opt/cuda,
 * /usr/local/cuda-* (newest name first) — nvvm/lib64, nvvm/lib, lib64 and lib (pip wheels and
 * some toolkit layouts keep it next to libcudart), then the dynamic loader's own search for
 * the soname.  The dozen entry points are resolved by name and declared here (the toolkit's
 * nvvm.h is not needed to build).
 *
 * Compiling (cg_nvvm_compile), after ptx.c has lowered, finished and verified the module:
 *   1. the arch: "sm_100" → "-arch=compute_100" (also sm_100a/sm_100f → compute_100a/f).
 *      libNVVM has two IR readers: compute_90 and older accept only the LLVM 7.0.1 dialect
 *      (typed pointers, older attributes), which LLVM 19 cannot write, so those archs are
 *      refused with a pointer to the LLVM backend; compute_100 and newer read LLVM 19 bitcode;
 *   2. NVVM IR: triple nvptx64-nvidia-cuda and the NVPTX data layout (ptx.c sets both; an empty
 *      layout crashes libNVVM), `!nvvmir.version = !{!{i32 MAJOR, i32 MINOR}}` from
 *      nvvmIRVersion, kernels already carry `!nvvm.annotations {fn, !"kernel", i32 1}`
 *      (nvptx.c); the module is written as bitcode;
 *   3. a program: the module, nvvmVerifyProgram, then libdevice.10.bc (the same bytes the LLVM
 *      backend links, libdevice.c) through nvvmLazyAddModuleToProgram when the module calls a
 *      `__nv_*` function — libNVVM materializes only what is used and resolves
 *      `__nvvm_reflect` itself from -ftz;
 *   4. nvvmCompileProgram with -opt=N and the floating-point options of numba-cuda: fastmath
 *      gives -ftz=1 -prec-div=0 -prec-sqrt=0 -fma=1, otherwise -ftz=0 -prec-div=1
 *      -prec-sqrt=1 -fma=1 (libNVVM's defaults, spelled out);
 *   5. the PTX; a `.version` above the caller's cap (the driver's newest PTX ISA) is an error,
 *      as is PTX still calling an undefined function (ptx.c checks).
 * libNVVM's entry points are thread-safe for distinct programs; each compilation owns one.
 */
#include "cg_internal.h"

#include <dlfcn.h>
#include <llvm-c/BitWriter.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the libNVVM API (nvvm.h), declared here ----------------------------------------------- */
typedef int NvvmResult; /* NVVM_SUCCESS = 0 */
typedef struct NvvmProgramImpl *NvvmProgram;

static struct {
    void *handle;
    char path[4096];
    char error[4096 + 256];
    int major, minor;       /* nvvmVersion */
    int ir_major, ir_minor; /* nvvmIRVersion */
    const char *(*get_error_string)(NvvmResult);
    NvvmResult (*version)(int *, int *);
    NvvmResult (*ir_version)(int *, int *, int *, int *);
    NvvmResult (*create)(NvvmProgram *);
    NvvmResult (*destroy)(NvvmProgram *);
    NvvmResult (*add_module)(NvvmProgram, const char *, size_t, const char *);
    NvvmResult (*lazy_add_module)(NvvmProgram, const char *, size_t, const char *);
    NvvmResult (*verify)(NvvmProgram, int, const char **);
    NvvmResult (*compile)(NvvmProgram, int, const char **);
    NvvmResult (*result_size)(NvvmProgram, size_t *);
    NvvmResult (*result)(NvvmProgram, char *);
    NvvmResult (*log_size)(NvvmProgram, size_t *);
    NvvmResult (*log)(NvvmProgram, char *);
} nv;

static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

/* ---- finding and opening libnvvm.so --------------------------------------------------------- */
/* dlopens path and resolves every entry point; false (handle closed) when one is missing. */
static bool nv_open(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return false;
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"nvvmGetErrorString", (void **)&nv.get_error_string},
        {"nvvmVersion", (void **)&nv.version},
        {"nvvmIRVersion", (void **)&nv.ir_version},
        {"nvvmCreateProgram", (void **)&nv.create},
        {"nvvmDestroyProgram", (void **)&nv.destroy},
        {"nvvmAddModuleToProgram", (void **)&nv.add_module},
        {"nvvmLazyAddModuleToProgram", (void **)&nv.lazy_add_module},
        {"nvvmVerifyProgram", (void **)&nv.verify},
        {"nvvmCompileProgram", (void **)&nv.compile},
        {"nvvmGetCompiledResultSize", (void **)&nv.result_size},
        {"nvvmGetCompiledResult", (void **)&nv.result},
        {"nvvmGetProgramLogSize", (void **)&nv.log_size},
        {"nvvmGetProgramLog", (void **)&nv.log},
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        /* POSIX guarantees a data pointer from dlsym converts to a function pointer */
        void *f = dlsym(h, syms[i].name);
        if (!f) {
            snprintf(nv.error, sizeof nv.error, "%s lacks %s (libNVVM too old?)", path,
                     syms[i].name);
            dlclose(h);
            return false;
        }
        memcpy(syms[i].slot, &f, sizeof f);
    }
    if (nv.version(&nv.major, &nv.minor) != 0) {
        snprintf(nv.error, sizeof nv.error, "%s: nvvmVersion failed", path);
        dlclose(h);
        return false;
    }
    int dbg_major, dbg_minor;
    if (nv.ir_version(&nv.ir_major, &nv.ir_minor, &dbg_major, &dbg_minor) != 0) {
        nv.ir_major = 2;
        nv.ir_minor = 0;
    }
    nv.handle = h;
    snprintf(nv.path, sizeof nv.path, "%s", path);
    return true;
}

static bool nv_try_root(const char *root) {
    static const char *const subs[] = {"/nvvm/lib64/", "/nvvm/lib/", "/lib64/", "/lib/"};
    static const char *const names[] = {"libnvvm.so", "libnvvm.so.4", "libnvvm.so.3"};
    if (!root || !*root)
        return false;
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++)
        for (size_t j = 0; j < sizeof names / sizeof *names; j++) {
            char p[4200];
            if ((size_t)snprintf(p, sizeof p, "%s%s%s", root, subs[i], names[j]) >= sizeof p)
                continue;
            if (cg_is_file(p) && nv_open(p))
                return true;
        }
    return false;
}

static void nv_load(void) {
    const char *explicit_file = getenv("NUMJIT_LIBNVVM");
    if (explicit_file && *explicit_file) {
        if (!nv_open(explicit_file) && !nv.error[0])
            snprintf(nv.error, sizeof nv.error, "cannot load NUMJIT_LIBNVVM=%s: %s",
                     explicit_file, dlerror());
        return;
    }
    if (cg_cuda_find_root(nv_try_root, NULL) || nv_open("libnvvm.so") || nv_open("libnvvm.so.4"))
        return;
    if (!nv.error[0])
        snprintf(nv.error, sizeof nv.error,
                 "libNVVM (libnvvm.so) not found: the CUDA toolkit provides it (set CUDA_HOME to "
                 "the toolkit root, or NUMJIT_LIBNVVM to the file)");
}

bool cg_nvvm_available(const char **why) {
    pthread_once(&nv_once, nv_load);
    if (why)
        *why = nv.handle ? NULL : nv.error;
    return nv.handle != NULL;
}

const char *cg_nvvm_path(void) { return cg_nvvm_available(NULL) ? nv.path : NULL; }

bool cg_nvvm_version(int *major, int *minor) {
    if (!cg_nvvm_available(NULL))
        return false;
    *major = nv.major;
    *minor = nv.minor;
    return true;
}

/* ---- archs ------------------------------------------------------------------------------------ */
/* "sm_100" / "sm_120a" / "compute_100f" → 100 and the suffix; 0 when not an arch name. */
static int nv_arch_number(const char *arch, char *suffix) {
    const char *s = !strncmp(arch, "sm_", 3) ? arch + 3 : !strncmp(arch, "compute_", 8) ? arch + 8
                                                                                       : NULL;
    if (!s || *s < '1' || *s > '9')
        return 0;
    int n = 0;
    while (*s >= '0' && *s <= '9' && n < 10000)
        n = n * 10 + (*s++ - '0');
    if ((*s == 'a' || *s == 'f') && !s[1])
        *suffix = *s;
    else if (*s)
        return 0;
    else
        *suffix = 0;
    return n;
}

int cg_nvvm_arch(const char *arch) {
    char suffix;
    int n = arch ? nv_arch_number(arch, &suffix) : 0;
    return n >= 100 ? n : 0;
}

/* ---- compiling ---------------------------------------------------------------------------------- */
/* The program's log (malloc'ed, trailing newlines trimmed), "" when empty. */
static char *nv_program_log(NvvmProgram prog) {
    size_t n = 0;
    if (nv.log_size(prog, &n) != 0 || n == 0)
        return strdup("");
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    if (nv.log(prog, s) != 0)
        s[0] = 0;
    s[n] = 0;
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
        s[--len] = 0;
    return s;
}

static const char *nv_result_name(NvvmResult r) {
    const char *s = nv.get_error_string ? nv.get_error_string(r) : NULL;
    return s ? s : "?";
}

/* Step 2: the module as NVVM IR (in place). */
static void nv_prepare(LLVMModuleRef mod) {
    LLVMContextRef C = LLVMGetModuleContext(mod);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(C);
    if (!LLVMGetNamedMetadataNumOperands(mod, "nvvmir.version")) {
        LLVMMetadataRef v[2] = {
            LLVMValueAsMetadata(LLVMConstInt(i32, (unsigned long long)nv.ir_major, 0)),
            LLVMValueAsMetadata(LLVMConstInt(i32, (unsigned long long)nv.ir_minor, 0)),
        };
        LLVMAddNamedMetadataOperand(mod, "nvvmir.version",
                                    LLVMMetadataAsValue(C, LLVMMDNodeInContext2(C, v, 2)));
    }
}

/* The ".version X.Y" of PTX text as XY (e.g. 90), 0 when absent. */
static int nv_ptx_isa(const char *ptx) {
    const char *v = strstr(ptx, ".version ");
    if (!v)
        return 0;
    int major = 0, minor = 0;
    if (sscanf(v + 9, "%d.%d", &major, &minor) != 2)
        return 0;
    return major * 10 + minor;
}

char *cg_nvvm_compile(LLVMModuleRef mod, const char *arch, int max_ptx, bool llvm_ir,
                      int opt_level, bool fast, char **err) {
    *err = NULL;
    char suffix = 0;
    int num = arch ? nv_arch_number(arch, &suffix) : 0;
    if (!num) {
        *err = cg_errf("codegen: '%s' is not a CUDA arch (expected sm_XX, e.g. sm_100)",
                       arch ? arch : "(null)");
        return NULL;
    }
    if (num < 100) {
        *err = cg_errf("codegen: the libNVVM backend does not support %s: libNVVM reads only its "
                       "LLVM 7 dialect of NVVM IR for compute_90 and older, which numjit does "
                       "not write; use the LLVM backend (--backend llvm) for %s",
                       arch, arch);
        return NULL;
    }
    const char *why;
    if (!cg_nvvm_available(&why)) {
        *err = cg_errf("codegen: the libNVVM backend is unavailable: %s", why);
        return NULL;
    }
    if (!LLVMGetDataLayoutStr(mod)[0]) { /* libNVVM would crash */
        *err = cg_errf("codegen: internal error: an NVVM module without a data layout");
        return NULL;
    }
    nv_prepare(mod);
    if (llvm_ir) {
        char *s = LLVMPrintModuleToString(mod);
        char *out = strdup(s ? s : "");
        LLVMDisposeMessage(s);
        if (!out)
            *err = cg_errf("codegen: out of memory");
        return out;
    }
    bool needs_libdevice = cg_calls_libdevice(mod);
    const char *ld = NULL;
    size_t ld_size = 0;
    if (needs_libdevice && !cg_libdevice_bytes(&ld, &ld_size, err))
        return NULL;

    char opt_arg[16], arch_arg[48];
    snprintf(opt_arg, sizeof opt_arg, "-opt=%d", opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level);
    snprintf(arch_arg, sizeof arch_arg, "-arch=compute_%d%.1s", num, suffix ? &suffix : "");
    const char *opts[] = {arch_arg,
                          opt_arg,
                          fast ? "-ftz=1" : "-ftz=0",
                          fast ? "-prec-div=0" : "-prec-div=1",
                          fast ? "-prec-sqrt=0" : "-prec-sqrt=1",
                          "-fma=1"};
    int nopts = (int)(sizeof opts / sizeof *opts);

    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(mod);
    if (!bc) {
        *err = cg_errf("codegen: cannot write the module as bitcode");
        return NULL;
    }
    NvvmProgram prog = NULL;
    char *out = NULL;
    const char *step = "nvvmCreateProgram";
    NvvmResult r = nv.create(&prog);
    if (r == 0) {
        step = "nvvmAddModuleToProgram";
        r = nv.add_module(prog, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "numjit");
    }
    if (r == 0) {
        step = "nvvmVerifyProgram";
        r = nv.verify(prog, nopts, opts);
    }
    if (r == 0 && needs_libdevice) {
        step = "nvvmLazyAddModuleToProgram(libdevice)";
        r = nv.lazy_add_module(prog, ld, ld_size, "libdevice.10.bc");
    }
    if (r == 0) {
        step = "nvvmCompileProgram";
        r = nv.compile(prog, nopts, opts);
    }
    size_t n = 0;
    if (r == 0) {
        step = "nvvmGetCompiledResult";
        r = nv.result_size(prog, &n);
    }
    if (r == 0) {
        out = malloc(n + 1);
        if (!out) {
            *err = cg_errf("codegen: out of memory");
        } else if ((r = nv.result(prog, out)) != 0) {
            free(out);
            out = NULL;
        } else {
            out[n] = 0;
        }
    }
    if (r != 0 && prog) {
        char *log = nv_program_log(prog);
        *err = cg_errf("codegen: libNVVM %d.%d (%s, %s): %s failed: %s%s%s", nv.major, nv.minor,
                       nv.path, arch_arg + 6, step, nv_result_name(r), log && *log ? ": " : "",
                       log ? log : "");
        free(log);
    } else if (r != 0) {
        *err = cg_errf("codegen: libNVVM: %s failed: %s", step, nv_result_name(r));
    }
    if (prog)
        nv.destroy(&prog);
    LLVMDisposeMemoryBuffer(bc);
    if (out && max_ptx > 0 && nv_ptx_isa(out) > max_ptx) {
        int v = nv_ptx_isa(out);
        *err = cg_errf("codegen: libNVVM %d.%d writes PTX ISA %d.%d for %s, newer than the "
                       "driver's limit %d.%d (update the driver, or use an older toolkit's "
                       "libNVVM through NUMJIT_LIBNVVM)",
                       nv.major, nv.minor, v / 10, v % 10, arch, max_ptx / 10, max_ptx % 10);
        free(out);
        out = NULL;
    }
    return out;
}

/* ---- the PTX ISA version libNVVM writes ---------------------------------------------------- */
static int nv_isa;
static pthread_once_t nv_isa_once = PTHREAD_ONCE_INIT;

/* Compiles an empty kernel (NVVM IR text) once and reads its `.version`. */
static void nv_probe_isa(void) {
    if (!cg_nvvm_available(NULL))
        return;
    char ir[512];
    snprintf(ir, sizeof ir,
             "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n"
             "target triple = \"nvptx64-nvidia-cuda\"\n"
             "define void @probe() {\n  ret void\n}\n"
             "!nvvm.annotations = !{!0}\n!0 = !{ptr @probe, !\"kernel\", i32 1}\n"
             "!nvvmir.version = !{!1}\n!1 = !{i32 %d, i32 %d}\n",
             nv.ir_major, nv.ir_minor);
    const char *opts[] = {"-arch=compute_100"};
    NvvmProgram prog = NULL;
    if (nv.create(&prog) != 0)
        return;
    size_t n = 0;
    if (nv.add_module(prog, ir, strlen(ir), "probe") == 0 && nv.compile(prog, 1, opts) == 0 &&
        nv.result_size(prog, &n) == 0) {
        char *ptx = malloc(n + 1);
        if (ptx && nv.result(prog, ptx) == 0) {
            ptx[n] = 0;
            nv_isa = nv_ptx_isa(ptx);
        }
        free(ptx);
    }
    nv.destroy(&prog);
}

int cg_nvvm_ptx_isa(void) {
    pthread_once(&nv_isa_once, nv_probe_isa);
    return nv_isa;
}

/* ---- choosing a backend --------------------------------------------------------------------- */
bool cg_ptx_backend_parse(const char *s, CgPtxBackend *out) {
    static const struct {
        const char *name;
        CgPtxBackend b;
    } names[] = {{"auto", CG_PTX_AUTO}, {"llvm", CG_PTX_LLVM}, {"nvvm", CG_PTX_NVVM},
                 {"libnvvm", CG_PTX_NVVM}};
    for (size_t i = 0; s && i < sizeof names / sizeof *names; i++)
        if (!strcmp(s, names[i].name)) {
            *out = names[i].b;
            return true;
        }
    return false;
}

const char *cg_ptx_backend_name(CgPtxBackend b) {
    return b == CG_PTX_LLVM ? "llvm" : b == CG_PTX_NVVM ? "nvvm" : "auto";
}

CgPtxBackend cg_ptx_backend_for(const char *arch, CgPtxBackend want) {
    if (want == CG_PTX_AUTO) {
        CgPtxBackend env;
        if (cg_ptx_backend_parse(getenv("NUMJIT_PTX_BACKEND"), &env))
            want = env;
    }
    if (want != CG_PTX_AUTO)
        return want;
    if (arch && cg_ptx_version(arch, 0))
        return CG_PTX_LLVM;
    return cg_nvvm_arch(arch) && cg_nvvm_available(NULL) ? CG_PTX_NVVM : CG_PTX_LLVM;
}

bool cg_ptx_can_target(const char *arch, CgPtxBackend want, char **why) {
    if (why)
        *why = NULL;
    if (!arch || !*arch)
        arch = "sm_90";
    CgPtxBackend b = cg_ptx_backend_for(arch, want);
    const char *absent = NULL;
    if (b == CG_PTX_LLVM && cg_ptx_version(arch, 0))
        return true;
    if (b == CG_PTX_NVVM && cg_nvvm_arch(arch) && cg_nvvm_available(&absent))
        return true;
    if (!why)
        return false;
    if (b == CG_PTX_NVVM && cg_nvvm_arch(arch))
        *why = cg_errf("the libNVVM backend is unavailable: %s", absent);
    else if (b == CG_PTX_NVVM)
        *why = cg_errf("the libNVVM backend takes sm_100 and newer, not '%s' (libNVVM reads "
                       "only an LLVM 7 dialect for older archs): use the LLVM backend", arch);
    else if (cg_nvvm_arch(arch) && !cg_nvvm_available(&absent))
        *why = cg_errf("LLVM %s targets sm_20 ... sm_90a, not '%s', and the libNVVM backend "
                       "that can is unavailable: %s", cg_llvm_version(), arch, absent);
    else if (cg_nvvm_arch(arch))
        *why = cg_errf("LLVM %s targets sm_20 ... sm_90a, not '%s': use the libNVVM backend "
                       "(auto or nvvm)", cg_llvm_version(), arch);
    else
        *why = cg_errf("unknown CUDA arch '%s' (LLVM %s targets sm_20 ... sm_90a; libNVVM "
                       "sm_100 and newer)", arch, cg_llvm_version());
    return false;
}

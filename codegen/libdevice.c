/* libdevice.c — finds NVIDIA's libdevice (libdevice.10.bc) and links the math functions a
 * module calls into it.
 *
 * Finding it: $NUMJIT_LIBDEVICE (a file), then under each candidate CUDA root —
 * $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, /usr/local/cuda, the parent of the directory of the nvcc
 * found on $PATH, /opt/cuda, /usr/lib/cuda, then /usr/local/cuda-* (newest name first) — the
 * file nvvm/libdevice/libdevice.10.bc; Debian's packaged toolkit keeps it in
 * /usr/lib/nvidia-cuda-toolkit/libdevice.  The search runs once per process; the list of roots
 * is cg_cuda_find_root, which nvvm.c walks for libnvvm.so too.
 *
 * Linking (the cost that matters: parsing all of libdevice takes ~100 ms, lazily ~15-25 ms):
 * the file is read into memory once per process and never freed.  Per module, a lazy module is
 * opened over those bytes (LLVMGetBitcodeModuleInContext2: only the function index is read),
 * its triple and data layout are set to the module's (no mismatch warning), every definition
 * is made linkonce_odr, and LLVMLinkModules2 then materializes and copies only the functions
 * the module references, transitively.  Afterwards every definition that is not a kernel entry
 * or the module's one exported function gets internal linkage, so that the optimizer inlines
 * and drops them: ptxas rejects PTX with unused libdevice code left in.  `__nvvm_reflect` calls
 * (FTZ and arch queries inside libdevice) are resolved by the NVVMReflect pass, which the NVPTX
 * TargetMachine adds to the O1-O3 pipelines; ptx.c sets the "nvvm-reflect-ftz" module flag.
 * The libNVVM backend (nvvm.c) hands the same bytes to libNVVM (cg_libdevice_bytes).
 */
#include "cg_internal.h"

#include <dirent.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static pthread_once_t ld_once = PTHREAD_ONCE_INIT;
static char *msg_dup(const char *a, const char *b);
static char ld_path[4096];
static char *ld_bytes; /* the whole file, kept for the life of the process */
static size_t ld_size;
static char ld_error[4096 + 128];

/* ---- finding the CUDA toolkit (libdevice here, libNVVM in nvvm.c) ----------------------------- */
bool cg_is_file(const char *p) {
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The toolkit root of the nvcc on $PATH: <root>/bin/nvcc. */
static bool try_nvcc_on_path(bool (*try_root)(const char *)) {
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char dir[4096], nvcc[4200];
        if (n > 0 && n < sizeof dir) {
            memcpy(dir, path, n);
            dir[n] = 0;
            snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir);
            char *slash = strrchr(dir, '/');
            if (cg_is_file(nvcc) && slash && slash != dir) {
                *slash = 0; /* strip /bin */
                if (try_root(dir))
                    return true;
            }
        }
        if (!end)
            break;
        path = end + 1;
    }
    return false;
}

static int cmp_desc(const void *a, const void *b) {
    return strcmp(*(char *const *)b, *(char *const *)a);
}

/* /usr/local/cuda-13.0, /usr/local/cuda-12.4, ...: newest name first. */
static bool try_versioned(bool (*try_root)(const char *)) {
    DIR *d = opendir("/usr/local");
    if (!d)
        return false;
    char *names[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;)
        if (!strncmp(e->d_name, "cuda-", 5) && (names[n] = strdup(e->d_name)))
            n++;
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_desc);
    bool found = false;
    for (int i = 0; i < n; i++) {
        char root[512];
        snprintf(root, sizeof root, "/usr/local/%s", names[i]);
        if (!found)
            found = try_root(root);
        free(names[i]);
    }
    return found;
}

bool cg_cuda_find_root(bool (*try_root)(const char *root), const char *const *extra) {
    static const char *const envs[] = {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"};
    for (size_t i = 0; i < sizeof envs / sizeof *envs; i++)
        if (try_root(getenv(envs[i])))
            return true;
    if (try_root("/usr/local/cuda") || try_nvcc_on_path(try_root) || try_root("/opt/cuda"))
        return true;
    for (; extra && *extra; extra++)
        if (try_root(*extra))
            return true;
    return try_versioned(try_root);
}

/* ---- libdevice ------------------------------------------------------------------------------ */
static bool try_root(const char *root) {
    static const char *const subs[] = {"/nvvm/libdevice/libdevice.10.bc", "/libdevice/libdevice.10.bc",
                                       "/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"};
    if (!root || !*root)
        return false;
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        char p[4096];
        if ((size_t)snprintf(p, sizeof p, "%s%s", root, subs[i]) >= sizeof p)
            continue;
        if (cg_is_file(p)) {
            snprintf(ld_path, sizeof ld_path, "%s", p);
            return true;
        }
    }
    return false;
}

static void ld_find(void) {
    const char *explicit_file = getenv("NUMJIT_LIBDEVICE");
    if (explicit_file && *explicit_file) {
        if (cg_is_file(explicit_file))
            snprintf(ld_path, sizeof ld_path, "%s", explicit_file);
        return;
    }
    /* Debian's packaged toolkit keeps it in /usr/lib/nvidia-cuda-toolkit/libdevice */
    static const char *const debian[] = {"/usr/lib/cuda", "/usr/lib", NULL};
    cg_cuda_find_root(try_root, debian);
}

static void ld_load(void) {
    ld_find();
    if (!ld_path[0]) {
        snprintf(ld_error, sizeof ld_error,
                 "libdevice.10.bc not found: math functions on the GPU need the CUDA toolkit's "
                 "libdevice (set CUDA_HOME to the toolkit root, or NUMJIT_LIBDEVICE to the file)");
        return;
    }
    FILE *fp = fopen(ld_path, "rb");
    if (!fp) {
        snprintf(ld_error, sizeof ld_error, "cannot open %s", ld_path);
        return;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    bool bad = ferror(fp);
    fclose(fp);
    if (!buf || bad || n < 4) {
        free(buf);
        snprintf(ld_error, sizeof ld_error, "cannot read %s", ld_path);
        return;
    }
    ld_bytes = buf;
    ld_size = n;
}

const char *cg_libdevice_path(void) {
    pthread_once(&ld_once, ld_load);
    return ld_path[0] ? ld_path : NULL;
}

bool cg_libdevice_bytes(const char **data, size_t *size, char **err) {
    pthread_once(&ld_once, ld_load);
    if (!ld_bytes) {
        *err = msg_dup(ld_error, "");
        return false;
    }
    *data = ld_bytes;
    *size = ld_size;
    return true;
}

bool cg_calls_libdevice(LLVMModuleRef mod) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (LLVMIsDeclaration(fn) && len > 5 && !strncmp(name, "__nv_", 5))
            return true;
    }
    return false;
}

static char *msg_dup(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 16;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "codegen: %s%s", a, b);
    return s;
}

/* ---- sin and cos of one value: one __nv_sincos ------------------------------------------------
 * `sin(x)**2 + cos(x)**2` calls __nv_sin(x) and __nv_cos(x): two argument reductions and two
 * polynomial setups.  Where both take the same x in the same basic block, they become one
 * __nv_sincos(x, &s, &c) before the first of them (libdevice computes sincos from the same
 * reduction and polynomials as sin and cos, so the values are the same; nvcc fuses likewise);
 * the two temporaries are entry-block allocas that SROA removes after inlining. */
static LLVMValueRef sincos_decl(LLVMModuleRef mod, bool f32) {
    const char *name = f32 ? "__nv_sincosf" : "__nv_sincos";
    LLVMValueRef fn = LLVMGetNamedFunction(mod, name);
    if (fn)
        return fn;
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef ft = f32 ? LLVMFloatTypeInContext(ctx) : LLVMDoubleTypeInContext(ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef params[3] = {ft, ptr, ptr};
    return LLVMAddFunction(mod, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 3, 0));
}

/* 1 for __nv_sin / __nv_sinf, 2 for __nv_cos / __nv_cosf, else 0; *f32 for the float forms. */
static int trig_kind(LLVMValueRef call, bool *f32) {
    if (!LLVMIsACallInst(call))
        return 0;
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee) || LLVMGetNumArgOperands(call) != 1)
        return 0;
    size_t len;
    const char *n = LLVMGetValueName2(callee, &len);
    *f32 = len == 9;
    if (!strcmp(n, "__nv_sin") || !strcmp(n, "__nv_sinf"))
        return 1;
    if (!strcmp(n, "__nv_cos") || !strcmp(n, "__nv_cosf"))
        return 2;
    return 0;
}

static void fuse_block(LLVMModuleRef mod, LLVMValueRef fn, LLVMBasicBlockRef bb) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    for (LLVMValueRef a = LLVMGetFirstInstruction(bb); a; a = LLVMGetNextInstruction(a)) {
        bool fa, fb;
        int ka = trig_kind(a, &fa);
        if (!ka)
            continue;
        LLVMValueRef x = LLVMGetOperand(a, 0);
        for (LLVMValueRef b = LLVMGetNextInstruction(a); b; b = LLVMGetNextInstruction(b)) {
            int kb = trig_kind(b, &fb);
            if (!kb || kb == ka || fb != fa || LLVMGetOperand(b, 0) != x)
                continue;
            LLVMTypeRef ft = LLVMTypeOf(a);
            LLVMBuilderRef B = LLVMCreateBuilderInContext(ctx);
            LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
            LLVMValueRef first = LLVMGetFirstInstruction(entry);
            if (first)
                LLVMPositionBuilderBefore(B, first);
            else
                LLVMPositionBuilderAtEnd(B, entry);
            LLVMValueRef ps = LLVMBuildAlloca(B, ft, "sin.tmp"), pc = LLVMBuildAlloca(B, ft, "cos.tmp");
            LLVMPositionBuilderBefore(B, a);
            LLVMValueRef callee = sincos_decl(mod, fa);
            LLVMValueRef args[3] = {x, ps, pc};
            LLVMBuildCall2(B, LLVMGlobalGetValueType(callee), callee, args, 3, "");
            LLVMValueRef vs = LLVMBuildLoad2(B, ft, ps, "sin"), vc = LLVMBuildLoad2(B, ft, pc, "cos");
            LLVMDisposeBuilder(B);
            LLVMReplaceAllUsesWith(ka == 1 ? a : b, vs);
            LLVMReplaceAllUsesWith(ka == 1 ? b : a, vc);
            LLVMValueRef next = LLVMGetPreviousInstruction(a); /* the load of cos: go on after it */
            LLVMInstructionEraseFromParent(b);
            LLVMInstructionEraseFromParent(a);
            a = next;
            break;
        }
    }
}

static void fuse_sincos(LLVMModuleRef mod) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            fuse_block(mod, fn, bb);
}

void cg_libdevice_prepare(LLVMModuleRef mod) {
    if (!cg_calls_libdevice(mod))
        return;
    /* locals out of memory and equal loads merged, so that sin(x) and cos(x) see one x */
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "function(sroa,early-cse)", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) { /* an optimization only: the module is still whole */
        LLVMConsumeError(e);
        return;
    }
    fuse_sincos(mod);
}

bool cg_libdevice_link(LLVMModuleRef mod, char **err) {
    if (!cg_calls_libdevice(mod))
        return true;
    pthread_once(&ld_once, ld_load);
    if (!ld_bytes) {
        *err = msg_dup(ld_error, "");
        return false;
    }
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    /* the module takes the buffer (which does not own the bytes) on success and on failure */
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(ld_bytes, ld_size, "libdevice.10.bc", 0);
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(ctx, mb, &lib) || !lib) {
        *err = msg_dup("cannot read libdevice: ", ld_path);
        return false;
    }
    LLVMSetTarget(lib, LLVMGetTarget(mod));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(mod));
    for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
            LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
    if (LLVMLinkModules2(mod, lib)) { /* lib is gone either way */
        *err = msg_dup("linking libdevice failed: ", ld_path);
        return false;
    }
    /* internalize: only kernel entries and an explicitly exported function stay visible */
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || cg_nvptx_is_kernel(fn))
            continue;
        LLVMLinkage l = LLVMGetLinkage(fn);
        if (l == LLVMLinkOnceODRLinkage || l == LLVMLinkOnceAnyLinkage || l == LLVMWeakODRLinkage ||
            l == LLVMWeakAnyLinkage)
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
        LLVMLinkage l = LLVMGetLinkage(g);
        if (!LLVMIsDeclaration(g) && (l == LLVMLinkOnceODRLinkage || l == LLVMLinkOnceAnyLinkage))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    }
    return true;
}

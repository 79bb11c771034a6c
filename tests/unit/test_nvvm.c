/* test_nvvm.c — the libNVVM backend without a GPU: PTX for Blackwell (sm_100, sm_120).
 *
 * Skips (exit 77) where libnvvm.so is not found.  Otherwise, for a module of numba-cuda source
 * written here (a 1-D and a 2-D kernel, a shared-memory block reduction with syncthreads,
 * atomics, a local array, a device function, fastmath float32 math, float64 libdevice math,
 * a target='cuda' ufunc calling libdevice and a gufunc) it asks nj_ptx for sm_100 and sm_120 —
 * the automatic backend must take libNVVM there — and checks substrings (`.target sm_100`,
 * `.visible .entry NAME(`, no `.extern .func`, the fastmath approximations), then has ptxas
 * assemble each PTX for the same arch when ptxas knows it ($PTXAS, $PATH, $CUDA_HOME/bin,
 * /usr/local/cuda/bin; CUDA 13's does).  Then the choice of backend (cg_ptx_backend_for,
 * NUMJIT_PTX_BACKEND through nj_ptx, CgOptions.ptx_backend through cg_emit_ptx_ex on a kernel
 * in numjit's IR text), the NVVM IR dump (`!nvvmir.version`, the NVPTX data layout, the kernel
 * annotation) and the refusals: libNVVM for sm_90, LLVM for sm_100, a PTX cap below
 * libNVVM's version.
 */
#include "codegen/codegen.h"
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/ptxas.h"

static const char k_source[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import cuda, float32, float64, vectorize, guvectorize\n"
    "\n"
    "@cuda.jit\n"
    "def saxpy(a, x, y):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        y[i] = a * x[i] + y[i]\n"
    "\n"
    "@cuda.jit\n"
    "def plus2d(a, out):\n"
    "    i, j = cuda.grid(2)\n"
    "    if i < out.shape[0] and j < out.shape[1]:\n"
    "        out[i, j] = a[i, j] + 1.0\n"
    "\n"
    "@cuda.jit\n"
    "def reduce_block(x, out):\n"
    "    buf = cuda.shared.array(256, float32)\n"
    "    t = cuda.threadIdx.x\n"
    "    i = cuda.grid(1)\n"
    "    buf[t] = x[i] if i < x.shape[0] else float32(0)\n"
    "    cuda.syncthreads()\n"
    "    s = 128\n"
    "    while s > 0:\n"
    "        if t < s:\n"
    "            buf[t] += buf[t + s]\n"
    "        cuda.syncthreads()\n"
    "        s //= 2\n"
    "    if t == 0:\n"
    "        cuda.atomic.add(out, 0, buf[0])\n"
    "\n"
    "@cuda.jit\n"
    "def counts(x, bins):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        cuda.atomic.add(bins, x[i] % bins.shape[0], 1)\n"
    "        cuda.atomic.max(bins, 0, x[i])\n"
    "\n"
    "@cuda.jit\n"
    "def reverse4(x, out):\n"
    "    tmp = cuda.local.array(4, float64)\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        for k in range(4):\n"
    "            tmp[k] = x[i, k]\n"
    "        for k in range(4):\n"
    "            out[i, k] = tmp[3 - k]\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def clip(v, lo, hi):\n"
    "    return min(max(v, lo), hi)\n"
    "\n"
    "@cuda.jit\n"
    "def clipped(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        out[i] = clip(x[i], 0.0, 1.0)\n"
    "\n"
    "@cuda.jit(fastmath=True)\n"
    "def fast32(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        out[i] = math.sin(x[i]) * math.exp(x[i]) / math.sqrt(x[i])\n"
    "\n"
    "@cuda.jit\n"
    "def math64(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        out[i] = math.sin(x[i]) * math.log(x[i]) + math.pow(x[i], 1.5) + x[i] % 3.0\n"
    "\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')\n"
    "def wave(x, y):\n"
    "    return math.cos(x) * math.exp(-y) + math.atan2(y, x)\n"
    "\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()', target='cuda')\n"
    "def dot(a, b, out):\n"
    "    acc = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        acc += a[i] * b[i]\n"
    "    out[0] = acc\n";

typedef struct Case {
    const char *sig;
    const char *entry; /* the .entry name */
    const char *must[4];
    const char *mustnot[3];
} Case;

static const Case cases[] = {
    {"saxpy(float32, float32[:], float32[:])", "saxpy", {"%tid.x", "%ctaid.x", "ld.global"}},
    {"plus2d(float64[:, :], float64[:, :])", "plus2d", {"%tid.y", "%ctaid.y"}},
    {"reduce_block(float32[::1], float32[::1])", "reduce_block",
     {".shared", "bar.sync", "atom.global.add.f32"}},
    {"counts(int32[:], int32[:])", "counts", {"atom.global.add", "atom.global.max"}},
    {"reverse4(float64[:, :], float64[:, :])", "reverse4", {0}},
    {"clipped(float64[:], float64[:])", "clipped", {0}},
    {"fast32(float32[:], float32[:])", "fast32", {"sin.approx", "ex2.approx", ".ftz"}, {".f64"}},
    {"math64(float64[:], float64[:])", "math64", {".f64"}},
    {"wave(float32, float32)", "wave", {"ld.global", "st.global", ".f32"}},
    {"wave(float64, float64)", "wave", {"ld.global", "st.global"}},
    {"dot(float64[:], float64[:], float64[:])", "dot", {"fma.rn.f64"}},
};

/* True when ptxas lists arch among its --gpu-name values. */
static bool ptxas_knows(const char *arch) {
    if (!ptxas[0])
        return false;
    char cmd[4200], quoted[32];
    snprintf(cmd, sizeof cmd, "'%s' --help 2>&1", ptxas);
    snprintf(quoted, sizeof quoted, "'%s'", arch);
    FILE *p = popen(cmd, "r");
    if (!p)
        return false;
    bool found = false;
    char line[1024];
    while (fgets(line, sizeof line, p))
        if (strstr(line, quoted))
            found = true;
    pclose(p);
    return found;
}

/* ---- the tests ------------------------------------------------------------------------------ */
static void test_kernels(NjModule *m, const char *arch) {
    bool assemble = ptxas_knows(arch);
    if (!assemble)
        printf("note: no ptxas for %s; PTX checked by substrings only\n", arch);
    char target[32];
    snprintf(target, sizeof target, ".target %s", arch);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const Case *c = &cases[i];
        char *ptx = NULL;
        NjStatus st = nj_ptx(m, c->sig, arch, &ptx);
        CHECK(st == NJ_OK && ptx, "nj_ptx(%s, %s): %s\n%s", c->sig, arch, nj_status_name(st),
              ptx ? "" : "(see the error above)");
        if (!ptx)
            continue;
        char entry[96];
        snprintf(entry, sizeof entry, ".visible .entry %s(", c->entry);
        CHECK(strstr(ptx, "NVVM"), "%s (%s): not made by libNVVM", c->sig, arch);
        CHECK(strstr(ptx, target), "%s: PTX lacks '%s'", c->sig, target);
        CHECK(strstr(ptx, entry), "%s: PTX lacks '%s'", c->sig, entry);
        CHECK(!strstr(ptx, ".extern .func"), "%s: PTX calls an undefined function", c->sig);
        for (int k = 0; k < 4 && c->must[k]; k++)
            CHECK(strstr(ptx, c->must[k]), "%s (%s): PTX lacks '%s'", c->sig, arch, c->must[k]);
        for (int k = 0; k < 3 && c->mustnot[k]; k++)
            CHECK(!strstr(ptx, c->mustnot[k]), "%s (%s): PTX has '%s'", c->sig, arch,
                  c->mustnot[k]);
        if (assemble) {
            char name[32];
            snprintf(name, sizeof name, "k%zu_%s", i, arch);
            CHECK(run_ptxas(name, ptx, arch), "ptxas -arch=%s rejects %s", arch, c->sig);
        }
        nj_free_string(ptx);
    }
}

static void test_choice(NjContext *ctx, NjModule *m) {
    CHECK(cg_ptx_backend_for("sm_90", CG_PTX_AUTO) == CG_PTX_LLVM, "auto for sm_90 is LLVM");
    CHECK(cg_ptx_backend_for("sm_80", CG_PTX_AUTO) == CG_PTX_LLVM, "auto for sm_80 is LLVM");
    CHECK(cg_ptx_backend_for("sm_100", CG_PTX_AUTO) == CG_PTX_NVVM, "auto for sm_100 is libNVVM");
    CHECK(cg_ptx_backend_for("sm_120a", CG_PTX_AUTO) == CG_PTX_NVVM, "auto for sm_120a");
    CHECK(cg_ptx_backend_for("sm_100", CG_PTX_LLVM) == CG_PTX_LLVM, "explicit llvm stays");
    CHECK(cg_nvvm_arch("sm_100") == 100 && cg_nvvm_arch("sm_120f") == 120 &&
              cg_nvvm_arch("sm_90") == 0 && cg_nvvm_arch("sm_1x") == 0 && cg_nvvm_arch(NULL) == 0,
          "cg_nvvm_arch");
    CgPtxBackend b;
    CHECK(cg_ptx_backend_parse("nvvm", &b) && b == CG_PTX_NVVM, "parse nvvm");
    CHECK(cg_ptx_backend_parse("llvm", &b) && b == CG_PTX_LLVM, "parse llvm");
    CHECK(cg_ptx_backend_parse("auto", &b) && b == CG_PTX_AUTO, "parse auto");
    CHECK(!cg_ptx_backend_parse("gcc", &b), "parse gcc");
    int isa = cg_nvvm_ptx_isa();
    CHECK(isa >= 86, "libNVVM's PTX ISA %d.%d (sm_100 needs 8.6)", isa / 10, isa % 10);

    /* the environment steers auto: llvm refuses sm_100, nvvm refuses sm_90 */
    const char *sig = "saxpy(float32, float32[:], float32[:])";
    char *ptx = NULL;
    setenv("NUMJIT_PTX_BACKEND", "llvm", 1);
    CHECK(cg_ptx_backend_for("sm_100", CG_PTX_AUTO) == CG_PTX_LLVM, "env llvm");
    NjStatus st = nj_ptx(m, sig, "sm_100", &ptx);
    CHECK(st == NJ_ERR_UNSUPPORTED && !ptx && strstr(nj_error_message(ctx), "sm_100") &&
              strstr(nj_error_message(ctx), "libNVVM"),
          "LLVM for sm_100: %s %s", nj_status_name(st), nj_error_message(ctx));
    nj_free_string(ptx);
    ptx = NULL;
    setenv("NUMJIT_PTX_BACKEND", "nvvm", 1);
    st = nj_ptx(m, sig, "sm_90", &ptx);
    CHECK(st == NJ_ERR_UNSUPPORTED && !ptx && strstr(nj_error_message(ctx), "LLVM backend"),
          "libNVVM for sm_90: %s %s", nj_status_name(st), nj_error_message(ctx));
    nj_free_string(ptx);
    ptx = NULL;
    setenv("NUMJIT_PTX_BACKEND", "auto", 1);
    st = nj_ptx(m, sig, "sm_90", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".target sm_90") && !strstr(ptx, "NVVM"),
          "auto for sm_90 is LLVM's PTX");
    nj_free_string(ptx);
    unsetenv("NUMJIT_PTX_BACKEND");
    char *why = NULL;
    CHECK(!cg_ptx_can_target("sm_90", CG_PTX_NVVM, &why) && why && strstr(why, "sm_90"),
          "cg_ptx_can_target(sm_90, nvvm): %s", why ? why : "(none)");
    free(why);
    why = NULL;
    CHECK(cg_ptx_can_target("sm_100", CG_PTX_AUTO, &why) && !why, "sm_100 auto: %s",
          why ? why : "");
    free(why);
}

/* out[i] = sin(x[i]) in numjit's IR text, for cg_emit_ptx_ex with an explicit backend. */
static const char *const k_sin =
    "target nvptx\n"
    "func @sines(x: float64[::1], out: float64[::1]) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float64[::1]\n"
    "  %1 = param 1 : float64[::1]\n"
    "  %2 = sreg tid.x : int64\n"
    "  %3 = sreg ctaid.x : int64\n"
    "  %4 = sreg ntid.x : int64\n"
    "  %5 = mul %3, %4 : int64\n"
    "  %6 = add %2, %5 : int64\n"
    "  %7 = shape 0 %1 : int64\n"
    "  %8 = cmp lt %6, %7 : bool\n"
    "  condbr %8, b1, b2\n"
    "b1:\n"
    "  %9 = aload %0, %6 : float64\n"
    "  %10 = math sin %9 : float64\n"
    "  astore %1, %6, %10\n"
    "  br b2\n"
    "b2:\n"
    "  ret\n"
    "}\n";

/* The explicit backend in CgOptions, the NVVM IR dump, the PTX cap, the libNVVM facts. */
static void test_internal(void) {
    Arena *a = arena_new();
    Source src = {.name = "sines.ir", .text = k_sin, .len = strlen(k_sin)};
    DiagList d;
    diag_init(&d);
    IrProgram *p = ir_parse(a, &src, &d);
    CHECK(p && ir_verify(p, &d), "sines.ir does not parse");
    diag_free(&d);
    if (p) {
        CgOptions nvvm = {.opt_level = 3, .ptx_backend = CG_PTX_NVVM};
        char *err = NULL;
        char *ir = cg_emit_ptx_ex(p, "sm_100", 0, true, &nvvm, &err);
        CHECK(ir && strstr(ir, "!nvvmir.version") && strstr(ir, "nvptx64-nvidia-cuda") &&
                  strstr(ir, "target datalayout = \"e-") && strstr(ir, "\"kernel\"") &&
                  strstr(ir, "@__nv_sin"),
              "NVVM IR dump: %s", ir ? ir : err);
        free(ir);
        free(err);
        err = NULL;
        char *ptx = cg_emit_ptx_ex(p, "sm_100", 0, false, &nvvm, &err);
        CHECK(ptx && strstr(ptx, ".target sm_100") && strstr(ptx, ".visible .entry sines(") &&
                  !strstr(ptx, ".extern"),
              "explicit nvvm: %s", ptx ? "bad PTX" : err);
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_100", 80, false, &nvvm, &err); /* below what sm_100 needs */
        CHECK(!ptx && err && strstr(err, "driver"), "cap 8.0: %s", err ? err : "(none)");
        free(ptx);
        free(err);
        err = NULL;
        CgOptions llvm = {.opt_level = 3, .ptx_backend = CG_PTX_LLVM};
        ptx = cg_emit_ptx_ex(p, "sm_100", 0, false, &llvm, &err);
        CHECK(!ptx && err && strstr(err, "libNVVM"), "explicit llvm, sm_100: %s",
              err ? err : "(none)");
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_90", 0, false, &nvvm, &err);
        CHECK(!ptx && err && strstr(err, "LLVM backend"), "explicit nvvm, sm_90: %s",
              err ? err : "(none)");
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_100a", 0, false, &nvvm, &err);
        CHECK(ptx && strstr(ptx, ".target sm_100a"), "sm_100a: %s", ptx ? "bad PTX" : err);
        free(ptx);
        free(err);
    }
    arena_free(a);
    int isa = cg_nvvm_ptx_isa();
    int major = 0, minor = 0;
    CHECK(cg_nvvm_version(&major, &minor) && major >= 1, "nvvmVersion %d.%d", major, minor);
    CHECK(cg_nvvm_path() && strstr(cg_nvvm_path(), "nvvm"), "libnvvm path: %s",
          cg_nvvm_path() ? cg_nvvm_path() : "(none)");
    printf("libNVVM %d.%d at %s writes PTX ISA %d.%d\n", major, minor,
           cg_nvvm_path() ? cg_nvvm_path() : "?", isa / 10, isa % 10);
}

int main(void) {
    const char *why = NULL;
    if (!cg_nvvm_available(&why)) {
        printf("SKIP: %s\n", why ? why : "libNVVM unavailable");
        return 77;
    }
    find_ptxas();
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        printf("FAIL: nj_context_new\n");
        return 1;
    }
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "blackwell.py", k_source, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st == NJ_OK) {
        test_kernels(m, "sm_100");
        test_kernels(m, "sm_120");
        test_choice(ctx, m);
        test_internal();
    }
    nj_context_free(ctx);
    printf("%s: %d checks, %d failures\n", failures ? "FAIL" : "PASS", checks, failures);
    return failures ? 1 : 0;
}

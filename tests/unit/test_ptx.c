/* test_ptx.c — PTX generation without a GPU: kernels written in the IR's text form (what
 * ir_print writes and ir_parse reads), verified, lowered through cg_emit_ptx, and checked by
 * substrings of the PTX (the kernel entry and its ABI, global/shared/local accesses, barriers,
 * atomics, libdevice math inlined with nothing left undefined, fastmath approximations), then
 * assembled by `ptxas -arch=sm_90` when ptxas is found ($PTXAS, $PATH, $CUDA_HOME/bin,
 * /usr/local/cuda/bin; skipped with a message otherwise).  Also the arch/PTX-version table and
 * the error paths (unknown arch, a PTX cap below the arch's need).  Last, the CUDA runtime layer
 * where no driver can be loaded ($NUMJIT_LIBCUDA pointed at the toolkit's stub library, or at
 * nothing): NJ_ERR_UNSUPPORTED with a clear message from every entry point, never a crash.
 *
 * Exit status: 0 when every check passes, 1 otherwise; each failure is printed with the PTX
 * line context that was expected.
 */
#include "codegen/codegen.h"
#include "runtime/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/ptxas.h"

/* ---- helpers ------------------------------------------------------------------------------- */
static IrProgram *parse(Arena *a, const char *name, const char *text) {
    static Source srcs[64];
    static int nsrc;
    Source *src = &srcs[nsrc++ % 64];
    *src = (Source){.name = name, .text = text, .len = strlen(text)};
    DiagList d;
    diag_init(&d);
    IrProgram *p = ir_parse(a, src, &d);
    if (p && !ir_verify(p, &d))
        p = NULL;
    if (!p) {
        StrBuf sb;
        sb_init(&sb);
        diag_render(&d, &sb);
        printf("FAIL: %s does not parse/verify:\n%s\n", name, sb.data ? sb.data : "");
        sb_free(&sb);
        failures++;
    }
    diag_free(&d);
    return p;
}

/* Compiles one program; every `want` substring must occur in the PTX, no `never` substring. */
static char *compile(const char *name, const char *ir, const char *arch, bool fastmath,
                     const char *const *want, const char *const *never) {
    Arena *a = arena_new();
    IrProgram *p = parse(a, name, ir);
    char *ptx = NULL;
    if (p) {
        CgOptions opt = {.opt_level = 3, .fastmath = fastmath};
        char *err = NULL;
        ptx = cg_emit_ptx(p, arch, &opt, &err);
        CHECK(ptx != NULL, "%s: cg_emit_ptx failed: %s", name, err ? err : "(no message)");
        free(err);
    }
    if (ptx) {
        for (int i = 0; want && want[i]; i++)
            CHECK(strstr(ptx, want[i]) != NULL, "%s: PTX lacks '%s'", name, want[i]);
        for (int i = 0; never && never[i]; i++)
            CHECK(strstr(ptx, never[i]) == NULL, "%s: PTX has '%s'", name, never[i]);
        CHECK(strstr(ptx, ".extern .func") == NULL, "%s: PTX has an undefined function", name);
        CHECK(run_ptxas(name, ptx, arch), "%s: ptxas -arch=%s fails", name, arch);
        if (getenv("NUMJIT_TEST_SHOW_PTX"))
            printf("==== %s ====\n%s\n", name, ptx);
    }
    arena_free(a);
    return ptx;
}

static int count(const char *s, const char *sub) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
        n++;
    return n;
}

/* ---- the kernels ---------------------------------------------------------------------------- */
static const char *const k_axpy =
    "target nvptx\n"
    "func @axpy(a: float32, x: float32[::1], y: float32[::1]) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float32\n"
    "  %1 = param 1 : float32[::1]\n"
    "  %2 = param 2 : float32[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = sreg ctaid.x : int64\n"
    "  %5 = sreg ntid.x : int64\n"
    "  %6 = mul %4, %5 : int64\n"
    "  %7 = add %3, %6 : int64\n"
    "  %8 = shape 0 %2 : int64\n"
    "  %9 = cmp lt %7, %8 : bool\n"
    "  condbr %9, b1, b2\n"
    "b1:\n"
    "  %10 = aload %1, %7 : float32\n"
    "  %11 = mul %0, %10 : float32\n"
    "  %12 = aload %2, %7 : float32\n"
    "  %13 = add %11, %12 : float32\n"
    "  astore %2, %7, %13\n"
    "  br b2\n"
    "b2:\n"
    "  ret\n"
    "}\n";

/* Sum of a block's elements through shared memory, added atomically into out[0]. */
static const char *const k_block_sum =
    "target nvptx\n"
    "func @block_sum(x: float32[::1], out: float32[::1]) -> void kernel numpy {\n"
    "  var acc: float32\n"
    "  var k: int64\n"
    "b0:\n"
    "  %0 = param 0 : float32[::1]\n"
    "  %1 = param 1 : float32[::1]\n"
    "  %2 = shared.array 256 : shared float32[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = sreg ctaid.x : int64\n"
    "  %5 = sreg ntid.x : int64\n"
    "  %6 = mul %4, %5 : int64\n"
    "  %7 = add %3, %6 : int64\n"
    "  %8 = aload %0, %7 : float32\n"
    "  astore %2, %3, %8\n"
    "  syncthreads\n"
    "  %9 = const 0 : int64\n"
    "  %10 = cmp eq %3, %9 : bool\n"
    "  condbr %10, b1, b5\n"
    "b1:\n"
    "  %11 = const 0.0 : float32\n"
    "  store acc, %11\n"
    "  store k, %9\n"
    "  br b2\n"
    "b2:\n"
    "  %12 = load k : int64\n"
    "  %13 = cmp lt %12, %5 : bool\n"
    "  condbr %13, b3, b4\n"
    "b3:\n"
    "  %14 = load acc : float32\n"
    "  %15 = aload %2, %12 : float32\n"
    "  %16 = add %14, %15 : float32\n"
    "  store acc, %16\n"
    "  %17 = const 1 : int64\n"
    "  %18 = add %12, %17 : int64\n"
    "  store k, %18\n"
    "  br b2\n"
    "b4:\n"
    "  %19 = load acc : float32\n"
    "  %20 = atomic add %1, %9, %19 : float32\n"
    "  br b5\n"
    "b5:\n"
    "  ret\n"
    "}\n";

/* out[i] = sin(x[i]) * cos(x[i]) + x[i] ** y[i] + x[i] % 3.0 (libdevice, pow, fmod) */
static const char *const k_math64 =
    "target nvptx\n"
    "func @trig(x: float64[::1], y: float64[::1], out: float64[::1]) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float64[::1]\n"
    "  %1 = param 1 : float64[::1]\n"
    "  %2 = param 2 : float64[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = sreg ctaid.x : int64\n"
    "  %5 = sreg ntid.x : int64\n"
    "  %6 = mul %4, %5 : int64\n"
    "  %7 = add %3, %6 : int64\n"
    "  %8 = shape 0 %2 : int64\n"
    "  %9 = cmp lt %7, %8 : bool\n"
    "  condbr %9, b1, b2\n"
    "b1:\n"
    "  %10 = aload %0, %7 : float64\n"
    "  %11 = math sin %10 : float64\n"
    "  %12 = math cos %10 : float64\n"
    "  %13 = mul %11, %12 : float64\n"
    "  %14 = aload %1, %7 : float64\n"
    "  %15 = pow %10, %14 : float64\n"
    "  %16 = add %13, %15 : float64\n"
    "  %17 = const 3.0 : float64\n"
    "  %18 = mod %10, %17 : float64\n"
    "  %19 = add %16, %18 : float64\n"
    "  %20 = math sqrt %19 : float64\n"
    "  %21 = math isnan %20 : bool\n"
    "  %22 = const 0.0 : float64\n"
    "  %23 = select %21, %22, %20 : float64\n"
    "  astore %2, %7, %23\n"
    "  br b2\n"
    "b2:\n"
    "  ret\n"
    "}\n";

/* float32 math: with fastmath, sin/exp become approximations and no .f64 appears */
static const char *const k_math32 =
    "target nvptx\n"
    "func @fast(x: float32[::1], out: float32[::1]) -> void kernel numpy fastmath {\n"
    "b0:\n"
    "  %0 = param 0 : float32[::1]\n"
    "  %1 = param 1 : float32[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = sreg ctaid.x : int64\n"
    "  %5 = sreg ntid.x : int64\n"
    "  %6 = mul %4, %5 : int64\n"
    "  %7 = add %3, %6 : int64\n"
    "  %8 = shape 0 %1 : int64\n"
    "  %9 = cmp lt %7, %8 : bool\n"
    "  condbr %9, b1, b2\n"
    "b1:\n"
    "  %10 = aload %0, %7 : float32\n"
    "  %11 = math sin %10 : float32\n"
    "  %12 = math exp %10 : float32\n"
    "  %13 = div %11, %12 : float32\n"
    "  %14 = math tanh %13 : float32\n"
    "  astore %1, %7, %14\n"
    "  br b2\n"
    "b2:\n"
    "  ret\n"
    "}\n";

/* Every atomic kind on global int32/uint32/int64/float32/float64 arrays. */
static const char *const k_atomics =
    "target nvptx\n"
    "func @atomics(i: int32[::1], u: uint32[::1], l: int64[::1], f: float32[::1], "
    "d: float64[::1]) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : int32[::1]\n"
    "  %1 = param 1 : uint32[::1]\n"
    "  %2 = param 2 : int64[::1]\n"
    "  %3 = param 3 : float32[::1]\n"
    "  %4 = param 4 : float64[::1]\n"
    "  %5 = const 0 : int64\n"
    "  %6 = const 1 : int64\n"
    "  %7 = const 7 : int32\n"
    "  %8 = atomic max %0, %5, %7 : int32\n"
    "  %9 = atomic min %0, %6, %8 : int32\n"
    "  %10 = const 9 : uint32\n"
    "  %11 = atomic max %1, %5, %10 : uint32\n"
    "  %12 = atomic min %1, %6, %11 : uint32\n"
    "  %13 = const 5 : int64\n"
    "  %14 = atomic cas %2, %5, %13, %6 : int64\n"
    "  %15 = atomic sub %2, %6, %14 : int64\n"
    "  %16 = const 2.5 : float32\n"
    "  %17 = atomic exch %3, %5, %16 : float32\n"
    "  %18 = atomic sub %3, %6, %17 : float32\n"
    "  %19 = const 1.5 : float64\n"
    "  %20 = atomic add %4, %5, %19 : float64\n"
    "  %21 = atomic max %4, %6, %20 : float64\n"
    "  %22 = atomic add %0, %5, %9 : int32\n"
    "  %23 = cast %12 : int64\n"
    "  %24 = add %23, %15 : int64\n"
    "  %25 = atomic add %2, %5, %24 : int64\n"
    "  %26 = cast %18 : float64\n"
    "  %27 = add %26, %21 : float64\n"
    "  astore %4, %6, %27\n"
    "  ret\n"
    "}\n";

/* A per-thread local array indexed at run time; a 2-D grid over a strided (layout A) array. */
static const char *const k_local2d =
    "target nvptx\n"
    "func @local2d(a: float64[:, :], n: int64) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float64[:, :]\n"
    "  %1 = param 1 : int64\n"
    "  %2 = local.array 16 : local float64[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = sreg tid.y : int64\n"
    "  %5 = sreg ctaid.y : int64\n"
    "  %6 = sreg ntid.y : int64\n"
    "  %7 = mul %5, %6 : int64\n"
    "  %8 = add %4, %7 : int64\n"
    "  %9 = const 15 : int64\n"
    "  %10 = bitand %1, %9 : int64\n"
    "  %11 = cast %8 : float64\n"
    "  astore %2, %10, %11\n"
    "  %12 = bitand %3, %9 : int64\n"
    "  %13 = aload %2, %12 : float64\n"
    "  astore %0, %8, %3, %13\n"
    "  ret\n"
    "}\n";

/* A kernel calling a device function that returns a value; a bool and a tuple-free ABI. */
static const char *const k_device =
    "target nvptx\n"
    "func @scale__f8_b(x: float64, twice: bool) -> float64 device numpy def scale {\n"
    "b0:\n"
    "  %0 = param 0 : float64\n"
    "  %1 = param 1 : bool\n"
    "  %2 = const 2.0 : float64\n"
    "  %3 = mul %0, %2 : float64\n"
    "  %4 = select %1, %3, %0 : float64\n"
    "  ret %4\n"
    "}\n"
    "func @apply(x: float64[::1], twice: bool) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float64[::1]\n"
    "  %1 = param 1 : bool\n"
    "  %2 = sreg tid.x : int64\n"
    "  %3 = aload %0, %2 : float64\n"
    "  %4 = call @scale__f8_b(%3, %1) : float64\n"
    "  astore %0, %2, %4\n"
    "  ret\n"
    "}\n";

/* The device function alone (no kernel): exported as a .func. */
static const char *const k_device_only =
    "target nvptx\n"
    "func @hyp__f4_f4(x: float32, y: float32) -> float32 device numpy def hyp {\n"
    "b0:\n"
    "  %0 = param 0 : float32\n"
    "  %1 = param 1 : float32\n"
    "  %2 = math hypot %0, %1 : float32\n"
    "  ret %2\n"
    "}\n";

/* Shared-memory atomics and a global-addrspace parameter type. */
static const char *const k_histogram =
    "target nvptx\n"
    "func @hist(x: global uint8[::1], bins: global int32[::1]) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : global uint8[::1]\n"
    "  %1 = param 1 : global int32[::1]\n"
    "  %2 = shared.array 256 : shared int32[::1]\n"
    "  %3 = sreg tid.x : int64\n"
    "  %4 = const 0 : int32\n"
    "  astore %2, %3, %4\n"
    "  syncthreads\n"
    "  %5 = sreg ctaid.x : int64\n"
    "  %6 = sreg ntid.x : int64\n"
    "  %7 = mul %5, %6 : int64\n"
    "  %8 = add %3, %7 : int64\n"
    "  %9 = aload %0, %8 : uint8\n"
    "  %10 = cast %9 : int64\n"
    "  %11 = const 1 : int32\n"
    "  %12 = atomic add %2, %10, %11 : int32\n"
    "  syncthreads\n"
    "  %13 = aload %2, %3 : int32\n"
    "  %14 = atomic add %1, %3, %13 : int32\n"
    "  threadfence\n"
    "  ret\n"
    "}\n";

/* Tuple and bool parameters of a kernel: flattened, bool as .u8. */
static const char *const k_tuple =
    "target nvptx\n"
    "func @tk(a: float64[::1], t: UniTuple(int64, 2), f: bool) -> void kernel numpy {\n"
    "b0:\n"
    "  %0 = param 0 : float64[::1]\n"
    "  %1 = param 1 : UniTuple(int64, 2)\n"
    "  %2 = param 2 : bool\n"
    "  %3 = extract 0 %1 : int64\n"
    "  %4 = extract 1 %1 : int64\n"
    "  %5 = cast %4 : float64\n"
    "  %6 = cast %2 : float64\n"
    "  %7 = add %5, %6 : float64\n"
    "  astore %0, %3, %7\n"
    "  ret\n"
    "}\n";

/* ---- tests ------------------------------------------------------------------------------------ */
static void test_versions(void) {
    CHECK(cg_ptx_version("sm_90", 0) == 85, "sm_90 newest: %d", cg_ptx_version("sm_90", 0));
    CHECK(cg_ptx_version("sm_90", 78) == 78, "sm_90 cap 78: %d", cg_ptx_version("sm_90", 78));
    CHECK(cg_ptx_version("sm_90", 90) == 85, "sm_90 cap 90: %d", cg_ptx_version("sm_90", 90));
    CHECK(cg_ptx_version("sm_90", 77) == 0, "sm_90 needs 7.8: %d", cg_ptx_version("sm_90", 77));
    CHECK(cg_ptx_version("sm_80", 79) == 78, "sm_80 cap 79: %d", cg_ptx_version("sm_80", 79));
    CHECK(cg_ptx_version("sm_90a", 0) == 85, "sm_90a");
    CHECK(cg_ptx_version("sm_100", 0) == 0, "sm_100 is beyond LLVM 19");
    CHECK(cg_ptx_version("compute_90", 0) == 0, "compute_90 is not an sm");
}

static void test_kernels(void) {
    const char *w_axpy[] = {".visible .entry axpy(", ".param .f32 axpy_param_0",
                            ".param .u64 axpy_param_6", "ld.global.f32", "st.global.f32",
                            "%tid.x", "%ctaid.x", "%ntid.x", ".version 8.5", ".target sm_90", NULL};
    const char *n_axpy[] = {"axpy_param_7", ".f64", NULL};
    free(compile("axpy", k_axpy, "sm_90", false, w_axpy, n_axpy));

    const char *w_sum[] = {".entry block_sum(", ".shared .align 16 .b8", "bar.sync",
                           "atom.global.add.f32", "st.shared.f32", "ld.shared.f32", NULL};
    free(compile("block_sum", k_block_sum, "sm_90", false, w_sum, NULL));

    if (!cg_libdevice_path()) {
        printf("libdevice.10.bc not found: skipping the kernels that call math functions\n");
        goto no_math;
    }
    const char *w_m64[] = {".entry trig(", "ld.global.f64", "sqrt.rn.f64", "st.global.f64", NULL};
    const char *n_m64[] = {"__nv_", NULL};
    char *ptx = compile("trig", k_math64, "sm_90", false, w_m64, n_m64);
    if (ptx)
        CHECK(strlen(ptx) > 4000, "trig: libdevice sin/cos/pow/fmod should inline a lot of code "
                                  "(got %zu bytes)", strlen(ptx));
    free(ptx);

    const char *w_m32[] = {".entry fast(", "sin.approx", "ex2.approx", "div.approx", ".ftz", NULL};
    const char *n_m32[] = {".f64", "tanh.approx", "__nv_", NULL};
    free(compile("fast", k_math32, "sm_90", true, w_m32, n_m32));

    const char *w_donly[] = {".visible .func", "hyp(", NULL};
    const char *n_donly[] = {".entry", NULL};
    free(compile("hyp", k_device_only, "sm_90", false, w_donly, n_donly));

no_math:;
    const char *w_at[] = {"atom.global.max.s32", "atom.global.min.s32", "atom.global.max.u32",
                          "atom.global.min.u32", "atom.global.cas.b64", "atom.global.exch.b32",
                          "atom.global.add.f32", "atom.global.add.f64", "atom.global.add.u64",
                          "atom.global.cas.b64", "atom.global.add.u32", NULL};
    ptx = compile("atomics", k_atomics, "sm_90", false, w_at, NULL);
    if (ptx)
        CHECK(count(ptx, "atom.global.") >= 12, "atomics: expected >= 12 atom.global ops, got %d",
              count(ptx, "atom.global."));
    free(ptx);

    const char *w_l2[] = {".local .align 16 .b8", "st.local.f64", "ld.local.f64", "%tid.y",
                          "%ctaid.y", "st.global.f64", ".param .u64 local2d_param_5", NULL};
    const char *n_l2[] = {"local2d_param_6", NULL};
    free(compile("local2d", k_local2d, "sm_90", false, w_l2, n_l2));

    const char *w_dev[] = {".entry apply(", ".param .u8 apply_param_3", "ld.global.f64", NULL};
    free(compile("apply", k_device, "sm_90", false, w_dev, NULL));

    const char *w_h[] = {".entry hist(", "atom.shared.add.u32", "atom.global.add.u32",
                         "ld.global.u8", "membar.gl", "bar.sync", NULL};
    free(compile("hist", k_histogram, "sm_90", false, w_h, NULL));

    const char *w_tk[] = {".param .u64 tk_param_4", ".param .u8 tk_param_5", NULL};
    const char *n_tk[] = {"tk_param_6", NULL};
    free(compile("tk", k_tuple, "sm_90", false, w_tk, n_tk));

    /* other archs of the table and a PTX cap */
    const char *w_80[] = {".target sm_80", NULL};
    free(compile("axpy_sm80", k_axpy, "sm_80", false, w_80, NULL));
}

static void test_dynamic_shared(void) {
    /* shape 0 = dynamic shared memory (the parser wants positive extents: patched after) */
    Arena *a = arena_new();
    IrProgram *p = parse(a, "dyn", k_histogram);
    if (p) {
        for (IrInst *in = p->funcs[0]->blocks[0]->first; in; in = in->next)
            if (in->op == IR_SHARED)
                in->imm.dims[0] = 0;
        char *err = NULL;
        char *ptx = cg_emit_ptx(p, "sm_90", NULL, &err);
        CHECK(ptx && strstr(ptx, ".extern .shared .align 16 .b8 numjit_dynamic_shared[]"),
              "dynamic shared: %s", ptx ? "no extern .shared array" : err);
        if (ptx)
            CHECK(run_ptxas("dyn", ptx, "sm_90"), "dyn: ptxas fails");
        free(ptx);
        free(err);
    }
    arena_free(a);
}

static void test_errors(void) {
    Arena *a = arena_new();
    IrProgram *p = parse(a, "axpy", k_axpy);
    if (p) {
        char *err = NULL;
        /* LLVM's backend alone: auto would take libNVVM here where the toolkit is installed */
        CgOptions llvm_only = {.opt_level = 3, .ptx_backend = CG_PTX_LLVM};
        char *ptx = cg_emit_ptx(p, "sm_100", &llvm_only, &err);
        CHECK(!ptx && err && strstr(err, "sm_100") && strstr(err, "libNVVM"),
              "sm_100 should fail naming libNVVM: %s", err ? err : "(none)");
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_90", 70, false, NULL, &err);
        CHECK(!ptx && err && strstr(err, "7.0"), "cap 7.0 for sm_90 should fail: %s",
              err ? err : "(none)");
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_90", 78, false, NULL, &err);
        CHECK(ptx && strstr(ptx, ".version 7.8"), "cap 7.8: %s", ptx ? "wrong .version" : err);
        free(ptx);
        free(err);
        err = NULL;
        ptx = cg_emit_ptx_ex(p, "sm_90", 0, true, NULL, &err);
        CHECK(ptx && strstr(ptx, "ptx_kernel") && strstr(ptx, "nvptx64-nvidia-cuda"),
              "llvm IR dump: %s", ptx ? "no kernel calling convention" : err);
        free(ptx);
        free(err);
    }
    arena_free(a);
}

static void test_no_driver(void) {
    const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    bool have_stub = access(stub, R_OK) == 0;
    setenv("NUMJIT_LIBCUDA", have_stub ? stub : "/nonexistent/libcuda.so.1", 1);
    NjStatus st = cu_init();
    CHECK(st == NJ_ERR_UNSUPPORTED && strstr(cu_error(), "no CUDA driver found"),
          "cu_init without a driver: %d %s", (int)st, cu_error());
    printf("no driver (%s): %s\n", have_stub ? "stub library" : "nothing to load", cu_error());
    CuDevice *d = (CuDevice *)1;
    st = cu_device_get(0, &d);
    CHECK(st == NJ_ERR_UNSUPPORTED && d == NULL && strstr(cu_error(), "no CUDA driver found"),
          "cu_device_get without a driver: %s", cu_error());
    int n = 5;
    CHECK(cu_device_count(&n) == NJ_ERR_UNSUPPORTED && n == 0, "cu_device_count: %d", n);
    CHECK(cu_driver_version() == 0 && cu_driver_max_ptx() == 0, "no version without a driver");
    CHECK(!strcmp(cu_result_name(700), "CUDA_ERROR_ILLEGAL_ADDRESS"), "error name table");
    CHECK(!strcmp(cu_result_name(34), "CUDA_ERROR_STUB_LIBRARY"), "error name table");
    CHECK(cu_ptx_for_driver_version(11080) == 78 && cu_ptx_for_driver_version(12040) == 84 &&
              cu_ptx_for_driver_version(12060) == 85 && cu_ptx_for_driver_version(13000) == 90,
          "driver version → PTX table");
}

int main(void) {
    /* as in a real process: the CPU target's process-wide LLVM options are set first */
    printf("host: %.40s...\n", cg_host_cpu());
    find_ptxas();
    if (ptxas[0])
        printf("ptxas: %s\n", ptxas);
    else
        printf("ptxas not found ($PTXAS, $PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): skipping "
               "the assembler checks\n");
    const char *ld = cg_libdevice_path();
    printf("libdevice: %s\n", ld ? ld : "(not found)");
    test_versions();
    test_kernels();
    test_dynamic_shared();
    test_errors();
    test_no_driver();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* test_kernel.c — explicit CUDA kernels without a GPU: the public API from Python-subset
 * source (tests/gpu/kernels.py, valid numba-cuda code) through typing and nj_ptx.
 *
 * For each kernel (1-D, 2-D and 3-D grids, a grid-stride loop, the shared-memory tiled matmul,
 * a block reduction with syncthreads, an atomic histogram and atomic min/max, device
 * functions, a local array, fastmath float32 math, float64 libdevice math, an explicit
 * signature, scalar arguments, row views and reductions) it checks substrings of the PTX
 * (`.entry NAME(`, `bar.sync`, `atom.global.add`, `.shared`, `.local`, no `.f64` in the
 * fastmath float32 kernel) and has `ptxas -arch=sm_90` assemble it when ptxas is found
 * ($PTXAS, $PATH, $CUDA_HOME/bin, /usr/local/cuda/bin; that part is skipped with a message
 * otherwise).  Then the error paths:
 * type errors with locations, wrong signatures, unknown arch, @vectorize functions, and every
 * launch/device-memory entry point with no CUDA driver ($NUMJIT_LIBCUDA is pointed at nothing
 * first): NJ_ERR_UNSUPPORTED with a clear message, never a crash.
 *
 * Usage: test_kernel [path/to/tests/gpu/kernels.py].  Exit 0 when every check passes.
 */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/ptxas.h"

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* ---- the kernels of tests/gpu/kernels.py --------------------------------------------------- */
typedef struct KCase {
    const char *sig;
    const char *must[6];    /* substrings the PTX must contain */
    const char *mustnot[3]; /* ... and must not */
} KCase;

static const KCase cases[] = {
    {"axpy(float32, float32[:], float32[:])",
     {".visible .entry axpy(", ".param .f32 axpy_param_0", "%tid.x", "%ctaid.x", "%ntid.x"},
     {".f64", "bar.sync"}},
    {"axpy(float32, float32[::1], float32[::1])", {".entry axpy(", "ld.global"}, {".f64"}},
    {"add2d(float64[:, :], float64[:, :], float64[:, :])",
     {".entry add2d(", "%tid.y", "%ctaid.y", "%ntid.y", "fma.rn.f64"}},
    {"scale_stride(float64[:], float64[:], float64)", {".entry scale_stride(", "%nctaid.x"}},
    {"matmul(float32[:, :], float32[:, :], float32[:, :])",
     {".entry matmul(", ".shared", "bar.sync", "st.shared.f32", "ld.shared.f32"}, {".f64"}},
    {"block_sum(float32[::1], float32[::1])", {".entry block_sum(", ".shared", "bar.sync"}},
    {"histogram(uint8[:], int32[:])", {".entry histogram(", "atom.global.add"}},
    {"atomic_minmax(float64[:], float64[:])", {".entry atomic_minmax(", "atom.global"}},
    {"apply_dev(float64[:], float64[:])", {".entry apply_dev(", "selp.f64", "0d3FD0000000000000"}},
    {"apply_dev(float32[:], float32[:])", {".entry apply_dev("}},
    {"local_rev(float64[:, :], float64[:, :])", {".entry local_rev("}},
    {"fast_f32(float32[:], float32[:])", {".entry fast_f32(", "sin.approx", "ex2.approx"},
     {".f64"}},
    {"trig64(float64[:], float64[:])", {".entry trig64("}, {".extern .func"}},
    {"sig_copy(float32[:], float32[:])", {".entry sig_copy("}},
    {"scalars(float64[:], int64, float64, bool)",
     {".entry scalars(", ".param .u64 scalars_param_3", ".param .f64 scalars_param_4",
      ".param .u8 scalars_param_5"}},
    {"idx3d(int64[:, :, :])", {".entry idx3d(", "%tid.z", "%ctaid.z", "%ntid.z"}},
    {"row_stats(float32[:, ::1], float32[::1])", {".entry row_stats(", "ld.global.f32"}, {".f64"}},
    {"row_stats(float64[:, :], float64[:])", {".entry row_stats(", "ld.global.f64"}},
};

static void test_ptx(NjContext *ctx, NjModule *m) {
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const KCase *c = &cases[i];
        char *ptx = NULL;
        NjStatus st = nj_ptx(m, c->sig, "sm_90", &ptx);
        CHECK(st == NJ_OK && ptx, "nj_ptx(%s): %s\n%s", c->sig, nj_status_name(st),
              nj_error_message(ctx));
        if (!ptx)
            continue;
        for (int k = 0; k < 6 && c->must[k]; k++)
            CHECK(strstr(ptx, c->must[k]), "%s: PTX lacks '%s'", c->sig, c->must[k]);
        for (int k = 0; k < 3 && c->mustnot[k]; k++)
            CHECK(!strstr(ptx, c->mustnot[k]), "%s: PTX contains '%s'", c->sig, c->mustnot[k]);
        char name[64];
        snprintf(name, sizeof name, "k%zu", i);
        CHECK(run_ptxas(name, ptx, "sm_90"), "ptxas -arch=sm_90 rejects %s", c->sig);
        nj_free_string(ptx);
    }
    /* other archs: the .target line follows, a PTX version the arch accepts */
    char *ptx = NULL;
    NjStatus st = nj_ptx(m, "axpy(float32, float32[:], float32[:])", "sm_80", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".target sm_80"), "sm_80: %s",
          nj_error_message(ctx));
    nj_free_string(ptx);
    ptx = NULL;
    st = nj_ptx(m, "axpy(float32, float32[:], float32[:])", NULL, &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".target sm_90"), "default arch is sm_90");
    nj_free_string(ptx);
    /* a device function alone: a .func under its Python name */
    ptx = NULL;
    st = nj_ptx(m, "poly(float64)", "sm_90", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".func") && !strstr(ptx, ".entry"),
          "device function PTX: %s %s", nj_status_name(st), nj_error_message(ctx));
    if (ptx)
        CHECK(run_ptxas("poly", ptx, "sm_90"), "ptxas rejects the device function");
    nj_free_string(ptx);
}

static void expect_error(NjContext *ctx, NjModule *m, const char *sig, const char *arch,
                         NjStatus want, const char *msg_part) {
    char *ptx = NULL;
    NjStatus st = nj_ptx(m, sig, arch, &ptx);
    const char *msg = nj_error_message(ctx);
    CHECK(st == want && !ptx, "nj_ptx(%s, %s): %s, expected %s", sig, arch ? arch : "NULL",
          nj_status_name(st), nj_status_name(want));
    CHECK(strstr(msg, msg_part), "nj_ptx(%s): message lacks '%s':\n%s", sig, msg_part, msg);
    nj_free_string(ptx);
}

static const char *const bad_src =
    "from numba import cuda, vectorize\n"
    "\n"
    "@cuda.jit\n"
    "def returns(x):\n"
    "    return x[0]\n"
    "\n"
    "@cuda.jit\n"
    "def badadd(x, flag):\n"
    "    i = cuda.grid(1)\n"
    "    x[i] = x + flag\n"
    "\n"
    "@vectorize(['float32(float32)'], target='cuda')\n"
    "def vf(x):\n"
    "    return x + 1\n";

static void test_errors(NjContext *ctx, NjModule *m) {
    expect_error(ctx, m, "axpy(float32, float32[:])", "sm_90", NJ_ERR_ARGS, "takes 3 arguments");
    expect_error(ctx, m, "axpy(float32, float32[:], floot32[:])", "sm_90", NJ_ERR_ARGS,
                 "bad signature");
    expect_error(ctx, m, "nosuch(float32)", "sm_90", NJ_ERR_NAME, "no function named 'nosuch'");
    setenv("NUMJIT_PTX_BACKEND", "llvm", 1); /* else libNVVM, where present, makes sm_100 */
    expect_error(ctx, m, "axpy(float32, float32[:], float32[:])", "sm_100", NJ_ERR_UNSUPPORTED,
                 "sm_100");
    unsetenv("NUMJIT_PTX_BACKEND");
    expect_error(ctx, m, "axpy float32", "sm_90", NJ_ERR_ARGS, "NAME(TYPE");
    NjModule *b;
    NjStatus st = nj_compile_source(ctx, "bad.py", bad_src, &b);
    CHECK(st == NJ_OK, "bad.py parses: %s", nj_error_message(ctx));
    if (st)
        return;
    expect_error(ctx, b, "returns(float32[:])", "sm_90", NJ_ERR_TYPE, "cannot return a value");
    expect_error(ctx, b, "badadd(float32[:], bool)", "sm_90", NJ_ERR_TYPE, "bad.py:10:");
    /* a @vectorize function: its generated GPU ufunc kernel (tests/unit/test_gpu_loops.c) */
    char *ptx = NULL;
    st = nj_ptx(b, "vf(float32)", "sm_90", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".visible .entry vf("), "GPU ufunc PTX: %s %s",
          nj_status_name(st), nj_error_message(ctx));
    nj_free_string(ptx);
}

/* Every entry point that needs the driver, with none: NJ_ERR_UNSUPPORTED and a message. */
static void test_no_driver(NjContext *ctx, NjModule *m) {
    NjKernel *k = NULL;
    NjStatus st = nj_module_kernel(m, "axpy", &k);
    CHECK(st == NJ_OK && k, "nj_module_kernel(axpy): %s", nj_error_message(ctx));
    NjKernel *k2 = NULL;
    nj_module_kernel(m, "axpy", &k2);
    CHECK(k2 == k, "the same kernel object twice");
    CHECK(nj_module_kernel(m, "poly", &k2) == NJ_ERR_NAME &&
              strstr(nj_error_message(ctx), "not a CUDA kernel"),
          "a device function is not a kernel");
    CHECK(nj_module_kernel(m, "nosuch", &k2) == NJ_ERR_NAME, "no such kernel");
    if (!k)
        return;
    float x[4] = {1, 2, 3, 4}, y[4] = {0};
    int64_t shape[1] = {4};
    NjArray ax = nj_array_c(x, NJ_FLOAT32, 1, shape), ay = nj_array_c(y, NJ_FLOAT32, 1, shape);
    NjValue args[3] = {nj_f32(2), nj_arr(&ax), nj_arr(&ay)};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    st = nj_kernel_launch(k, grid, block, 0, NULL, args, 3);
    CHECK(st == NJ_ERR_UNSUPPORTED, "launch without a driver: %s", nj_status_name(st));
    CHECK(strstr(nj_error_message(ctx), "no CUDA driver"), "message: %s", nj_error_message(ctx));
    st = nj_kernel_launch(k, grid, block, 0, NULL, args, 2);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "takes 3 arguments"),
          "wrong argument count: %s %s", nj_status_name(st), nj_error_message(ctx));
    /* explicit signatures type-check without a driver; a bad one fails */
    NjKernel *ks = NULL;
    CHECK(nj_module_kernel(m, "sig_copy", &ks) == NJ_OK, "sig_copy");
    st = nj_kernel_compile(ks, "void(float32[:], float32[:])");
    CHECK(st == NJ_OK, "eager compile without a driver: %s %s", nj_status_name(st),
          nj_error_message(ctx));
    st = nj_kernel_compile(ks, "float32(float32[:], float32[:])");
    CHECK(st == NJ_ERR_TYPE, "a kernel signature with a return type: %s", nj_status_name(st));
    st = nj_kernel_compile(ks, "void(float32[:])");
    CHECK(st == NJ_ERR_ARGS, "too few types: %s", nj_status_name(st));
    int n = -1;
    CHECK(nj_cuda_device_count(ctx, &n) == NJ_OK && n == 0, "device count 0 (%d)", n);
    void *p = (void *)1;
    CHECK(nj_cuda_malloc(ctx, 64, &p) == NJ_ERR_UNSUPPORTED && p == NULL, "malloc");
    CHECK(strstr(nj_error_message(ctx), "no CUDA driver"), "malloc message: %s",
          nj_error_message(ctx));
    CHECK(nj_cuda_memcpy_htod(ctx, NULL, x, 16, NULL) == NJ_ERR_UNSUPPORTED, "htod");
    CHECK(nj_cuda_memcpy_dtoh(ctx, x, NULL, 16, NULL) == NJ_ERR_UNSUPPORTED, "dtoh");
    CHECK(nj_cuda_memcpy_dtod(ctx, NULL, NULL, 16, NULL) == NJ_ERR_UNSUPPORTED, "dtod");
    CHECK(nj_cuda_synchronize(ctx) == NJ_ERR_UNSUPPORTED, "synchronize");
    NjStream s = (NjStream)1;
    CHECK(nj_cuda_stream_new(ctx, &s) == NJ_ERR_UNSUPPORTED && !s, "stream_new");
    CHECK(nj_cuda_set_device(ctx, 0) == NJ_ERR_UNSUPPORTED, "set_device");
    /* events, pinned memory, memory information and attributes: the same clear refusal */
    NjEvent e = (NjEvent)1;
    CHECK(nj_cuda_event_new(ctx, 1, &e) == NJ_ERR_UNSUPPORTED && !e, "event_new");
    CHECK(strstr(nj_error_message(ctx), "no CUDA driver"), "event_new message: %s",
          nj_error_message(ctx));
    CHECK(nj_cuda_event_record(ctx, NULL, NULL) == NJ_ERR_ARGS, "event_record(NULL)");
    CHECK(nj_cuda_event_free(ctx, NULL) == NJ_OK, "event_free(NULL)");
    int done = 1;
    CHECK(nj_cuda_event_query(ctx, (NjEvent)8, &done) == NJ_ERR_UNSUPPORTED && !done, "event_query");
    float ms = 1.0f;
    CHECK(nj_cuda_event_elapsed(ctx, (NjEvent)8, (NjEvent)16, &ms) == NJ_ERR_UNSUPPORTED && ms == 0.0f,
          "event_elapsed");
    CHECK(nj_cuda_stream_wait_event(ctx, NULL, (NjEvent)8) == NJ_ERR_UNSUPPORTED, "stream_wait_event");
    void *hp = (void *)1;
    CHECK(nj_cuda_host_alloc(ctx, 64, &hp) == NJ_ERR_UNSUPPORTED && !hp, "host_alloc");
    CHECK(nj_cuda_host_free(ctx, NULL) == NJ_OK, "host_free(NULL)");
    int reg = 1;
    CHECK(nj_cuda_host_register(ctx, x, 16, 0, &reg) == NJ_ERR_UNSUPPORTED && !reg, "host_register");
    size_t fr = 1, tot = 1;
    CHECK(nj_cuda_mem_info(ctx, &fr, &tot) == NJ_ERR_UNSUPPORTED && !fr && !tot, "mem_info");
    int attr = 1;
    CHECK(nj_cuda_device_attribute(ctx, 16, &attr) == NJ_ERR_UNSUPPORTED && !attr, "attribute");
    CHECK(nj_cuda_mem_trim(ctx) == NJ_ERR_UNSUPPORTED, "mem_trim");
    CHECK(nj_cuda_free(ctx, NULL) == NJ_OK, "free(NULL)");
}

int main(int argc, char **argv) {
    setenv("NUMJIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("NUMJIT_VERIFY", "1", 0);
    const char *path = argc > 1 ? argv[1] : "tests/gpu/kernels.py";
    char *src = read_file(path);
    if (!src) {
        printf("FAIL: cannot read %s\n", path);
        return 1;
    }
    find_ptxas();
    if (!ptxas[0])
        printf("ptxas not found: PTX is checked by substrings only\n");
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return 1;
    NjModule *m;
    NjStatus st = nj_compile_source(ctx, path, src, &m);
    CHECK(st == NJ_OK, "%s parses: %s", path, nj_error_message(ctx));
    if (!st) {
        test_ptx(ctx, m);
        test_errors(ctx, m);
        test_no_driver(ctx, m);
    }
    nj_context_free(ctx);
    free(src);
    printf("%s: %d checks, %d failures\n", failures ? "FAIL" : "PASS", checks, failures);
    return failures ? 1 : 0;
}

/* test_gpu_loops.c — GPU ufunc and gufunc kernels without a GPU: nj_ptx of the @vectorize /
 * @guvectorize functions of tests/gpu/ufuncs.py for their scalar or core signatures, checked
 * by substrings (the vector path's 16-byte loads and stores, the grid-stride loop, no float64
 * in an all-float32 ufunc, shared-memory staging and barriers in a gufunc) and, when ptxas is
 * found ($PTXAS, $PATH, $CUDA_HOME/bin, /usr/local/cuda/bin), assembled for sm_90.
 * Usage: test_gpu_loops tests/gpu/ufuncs.py
 */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/ptxas.h"

static char *ptx_of(NjModule *m, NjContext *ctx, const char *sig) {
    char *out = NULL;
    NjStatus st = nj_ptx(m, sig, "sm_90", &out);
    CHECK(st == NJ_OK && out, "nj_ptx(%s): %s: %s", sig, nj_status_name(st), nj_error_message(ctx));
    if (out)
        CHECK(run_ptxas("ufunc", out, "sm_90"), "ptxas -arch=sm_90 rejects the PTX of %s", sig);
    return out;
}

static int count(const char *s, const char *sub) {
    int n = 0;
    for (const char *p = s; p && (p = strstr(p, sub)); p += strlen(sub))
        n++;
    return n;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s tests/gpu/ufuncs.py\n", argv[0]);
        return 2;
    }
    find_ptxas();
    if (!ptxas[0])
        printf("note: no ptxas found: PTX is checked by substrings only\n");
    NjContext *ctx;
    NjModule *m;
    if (nj_context_new(&ctx) || nj_compile_file(ctx, argv[1], &m)) {
        printf("FAIL: cannot load %s: %s\n", argv[1], nj_error_message(ctx));
        return 1;
    }
    char *p;
    /* an all-float32 ufunc: the vector path moves float4s, nothing is float64 */
    p = ptx_of(m, ctx, "rel32(float32, float32)");
    if (p) {
        CHECK(strstr(p, ".visible .entry rel32("), "the kernel keeps the Python name");
        CHECK(count(p, "ld.global.v4.f32") >= 2, "two float4 loads per group");
        CHECK(strstr(p, "st.global.v4.f32"), "a float4 store per group");
        CHECK(!strstr(p, ".f64"), "no float64 in an all-float32 ufunc");
        CHECK(strstr(p, "%nctaid.x") && strstr(p, "%ntid.x"), "a grid-stride loop");
        CHECK(count(p, ".param .u64") == 2 + 3 * 3, "the ufunc ABI: n, inner, 3 x (data, istride, ostride)");
        nj_free_string(p);
    }
    p = ptx_of(m, ctx, "rel32(float64, float64)");
    if (p) {
        CHECK(count(p, "ld.global.v2.f64") >= 4, "float64: two double2 loads per input and group");
        CHECK(count(p, "st.global.v2.f64") >= 2, "float64: two double2 stores per group");
        nj_free_string(p);
    }
    /* W1: the int literal widens float32 to float64, as in Numba; the output follows */
    p = ptx_of(m, ctx, "rel_diff(float32, float32)");
    if (p) {
        CHECK(strstr(p, "ld.global.v4.f32"), "float32 inputs still load as float4");
        nj_free_string(p);
    }
    /* libdevice math */
    p = ptx_of(m, ctx, "trig(float64)");
    if (p) {
        CHECK(strstr(p, "ld.global.v2.f64") && strstr(p, "st.global.v2.f64"), "trig: vector path");
        CHECK(!strstr(p, ".extern"), "libdevice linked in");
        nj_free_string(p);
    }
    p = ptx_of(m, ctx, "trig(float32)");
    if (p) {
        /* (libdevice's accurate sinf reduces huge arguments in float64: .f64 may appear) */
        CHECK(strstr(p, "ld.global.v4.f32"), "trig(float32): float4 loads");
        nj_free_string(p);
    }
    /* small integers: 8 per group, Python's floor division and modulo */
    p = ptx_of(m, ctx, "imix(int8, int16)");
    if (p) {
        CHECK(strstr(p, ".visible .entry imix("), "imix kernel");
        nj_free_string(p);
    }
    p = ptx_of(m, ctx, "close(float64, float64)");
    if (p)
        nj_free_string(p);
    p = ptx_of(m, ctx, "fma3(float64, float64, float64)");
    if (p) {
        CHECK(count(p, "ld.global.v2.f64") >= 6, "three inputs, double2 loads");
        nj_free_string(p);
    }
    /* gufuncs: shared-memory staging with barriers, and the direct path */
    p = ptx_of(m, ctx, "rowdot(float64[:], float64[:], float64[:])");
    if (p) {
        CHECK(strstr(p, ".visible .entry rowdot("), "rowdot kernel");
        CHECK(strstr(p, "bar.sync"), "staged tiles synchronize");
        CHECK(strstr(p, "st.shared"), "rows are staged into shared memory");
        CHECK(strstr(p, ".extern .shared"), "dynamic shared memory for the tiles");
        CHECK(strstr(p, ".param .u32"), "the staged mask parameter");
        nj_free_string(p);
    }
    p = ptx_of(m, ctx, "rowdot(float32[:], float32[:], float32[:])");
    if (p) {
        CHECK(!strstr(p, ".f64") || strstr(p, "cvt.f64.f32"), "float32 rowdot");
        nj_free_string(p);
    }
    p = ptx_of(m, ctx, "axpy_rows(float64[:], float64, float64[:])");
    if (p)
        nj_free_string(p);
    p = ptx_of(m, ctx, "matmul_core(float32[:, :], float32[:, :], float32[:, :])");
    if (p)
        nj_free_string(p);
    /* errors */
    char *out = NULL;
    NjStatus st = nj_ptx(m, "rel32(float32)", "sm_90", &out);
    CHECK(st == NJ_ERR_ARGS && !out, "wrong arity: %s", nj_status_name(st));
    st = nj_ptx(m, "rel32(float32[:], float32[:])", "sm_90", &out);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "scalar signature"),
          "array types for a ufunc: %s", nj_error_message(ctx));
    st = nj_ptx(m, "rowdot(float64[:, :], float64[:], float64[:])", "sm_90", &out);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "core dimension"),
          "layout mismatch: %s", nj_error_message(ctx));
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* test_warp.c — numba-cuda's warp, block and bit intrinsics without a GPU: the kernels of
 * tests/gpu/warp_kernels.py (valid numba-cuda code) through typing and nj_ptx.
 *
 * For each kernel signature it checks substrings of the PTX — the instruction each intrinsic
 * must become: `shfl.sync.down.b32` (two per shuffle of a 64-bit value), `vote.sync.ballot.b32`,
 * `bar.red.popc.u32`, `popc.b32`, `brev.b64`, `atom.global.and.b32`, `match.any.sync.b64`,
 * `activemask.b32`, `%lanemask_lt`, `bar.warp.sync`, `membar.sys` ... — and has `ptxas
 * -arch=sm_90` assemble it where ptxas is found (skipped with a message otherwise).  Then the
 * error paths, each a type error at the right line with numba-cuda's rule in the message: a
 * shuffle of an int16, atomic inc on int32, selp of two types, a float mask, popc of a float,
 * wrong arity, and every intrinsic in a CPU (@njit) function.
 *
 * Usage: test_warp [path/to/tests/gpu/warp_kernels.py].  Exit 0 when every check passes.
 */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The number of times needle occurs in hay. */
static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

typedef struct WCase {
    const char *sig;
    const char *must[7];    /* substrings the PTX must contain */
    const char *mustnot[3]; /* ... and must not */
} WCase;

static const WCase cases[] = {
    {"reduce_sum(float32[:], float32[:])",
     {".entry reduce_sum(", "shfl.sync.down.b32", "%laneid", "atom.global.add.f32"}, {".f64"}},
    {"reduce_sum64(float64[:], float64[:])",
     {".entry reduce_sum64(", "shfl.sync.down.b32", "atom.global.add.f64"}},
    {"shuffles(int32[:], int32[:], int32[:], int32[:], int32[:])",
     {"shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32"}},
    {"shuffles(float32[:], float32[:], float32[:], float32[:], float32[:])",
     {"shfl.sync.idx.b32", "shfl.sync.bfly.b32"}},
    {"shuffles(int64[:], int64[:], int64[:], int64[:], int64[:])", {"shfl.sync.up.b32"}},
    {"shuffles(uint32[:], uint32[:], uint32[:], uint32[:], uint32[:])", {"shfl.sync.down.b32"}},
    {"shuffles(uint64[:], uint64[:], uint64[:], uint64[:], uint64[:])", {"shfl.sync.idx.b32"}},
    {"shuffles(float64[:], float64[:], float64[:], float64[:], float64[:])",
     {"shfl.sync.bfly.b32"}},
    {"votes(float32[:], int64[:], int32[:, :])",
     {"vote.sync.ballot.b32", "vote.sync.all.pred", "vote.sync.any.pred", "vote.sync.uni.pred"}},
    {"block_votes(float32[:], int32[:, :])",
     {"bar.red.popc.u32", "bar.red.and.pred", "bar.red.or.pred"}},
    {"bits32(uint32[:], int64[:], int64[:], int64[:], uint32[:])",
     {"popc.b32", "clz.b32", "brev.b32"}, {"popc.b64"}},
    {"bits64(int64[:], int64[:], int64[:], int64[:])", {"popc.b64", "clz.b64"}},
    {"brev64(uint64[:], uint64[:])", {"brev.b64"}},
    {"arith(float32[:], float32[:], float32[:], float32[:], float32[:], float32[:])",
     {"fma.rn.f32", "selp.f32"}, {".f64"}},
    {"arith(float64[:], float64[:], float64[:], float64[:], float64[:], float64[:])",
     {"fma.rn.f64", "selp.f64"}, {".extern .func"}},
    {"atomics_bits(uint32[:], uint32[:], int64[:, :])",
     {"atom.global.and.b32", "atom.global.or.b32", "atom.global.xor.b32", "atom.global.cas.b32"}},
    {"atomics_bits(uint64[:], uint64[:], int64[:, :])",
     {"atom.global.and.b64", "atom.global.or.b64", "atom.global.xor.b64", "atom.global.cas.b64"}},
    {"atomics_nan(float32[:], float32[:])", {"atom.global.cas.b32"}},
    {"atomics_nan(float64[:], float64[:])", {"atom.global.cas.b64"}},
    {"lanes(int32[:], int64[:, :])",
     {"%laneid", "%lanemask_lt", "activemask.b32", "match.any.sync.b32", "match.all.sync.b32",
      "bar.warp.sync", "membar.sys"}},
    {"lanes(float64[:], int64[:, :])",
     {"match.any.sync.b64", "match.all.sync.b64", "membar.cta"}},
};

static void test_ptx(NjContext *ctx, NjModule *m) {
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const WCase *c = &cases[i];
        char *ptx = NULL;
        NjStatus st = nj_ptx(m, c->sig, "sm_90", &ptx);
        CHECK(st == NJ_OK && ptx, "nj_ptx(%s): %s\n%s", c->sig, nj_status_name(st),
              nj_error_message(ctx));
        if (!ptx)
            continue;
        for (int k = 0; k < 7 && c->must[k]; k++)
            CHECK(strstr(ptx, c->must[k]), "%s: PTX lacks '%s'", c->sig, c->must[k]);
        for (int k = 0; k < 3 && c->mustnot[k]; k++)
            CHECK(!strstr(ptx, c->mustnot[k]), "%s: PTX contains '%s'", c->sig, c->mustnot[k]);
        char name[64];
        snprintf(name, sizeof name, "w%zu", i);
        CHECK(run_ptxas(name, ptx, "sm_90"), "ptxas -arch=sm_90 rejects %s", c->sig);
        nj_free_string(ptx);
    }
    /* a 64-bit value is two 32-bit shuffles: five steps of the float64 reduction, ten shuffles;
     * the float32 one needs five */
    char *p32 = NULL, *p64 = NULL;
    nj_ptx(m, "reduce_sum(float32[:], float32[:])", "sm_90", &p32);
    nj_ptx(m, "reduce_sum64(float64[:], float64[:])", "sm_90", &p64);
    CHECK(p32 && count(p32, "shfl.sync.down.b32") == 5, "float32 reduction: 5 shuffles");
    CHECK(p64 && count(p64, "shfl.sync.down.b32") == 10, "float64 reduction: 10 shuffles");
    /* shfl_up clamps at lane 0 (c = 0), the others at lane 31 (c = 0x1f) */
    char *ps = NULL;
    nj_ptx(m, "shuffles(int32[:], int32[:], int32[:], int32[:], int32[:])", "sm_90", &ps);
    CHECK(ps && strstr(ps, "shfl.sync.down.b32") && strstr(strstr(ps, "shfl.sync.down.b32"), ", 31, "),
          "shfl_down_sync clamps at 31:\n%s", ps ? ps : "");
    CHECK(ps && strstr(ps, "shfl.sync.up.b32") && strstr(strstr(ps, "shfl.sync.up.b32"), ", 0, "),
          "shfl_up_sync clamps at 0");
    nj_free_string(p32);
    nj_free_string(p64);
    nj_free_string(ps);
}

/* ---- errors --------------------------------------------------------------------------------- */
static const char *const bad_src =
    "from numba import cuda, njit\n"                          /* 1 */
    "\n"                                                      /* 2 */
    "@cuda.jit\n"                                             /* 3 */
    "def shfl16(a):\n"                                        /* 4 */
    "    a[0] = cuda.shfl_sync(0xffffffff, a[0], 1)\n"        /* 5 */
    "\n"                                                      /* 6 */
    "@cuda.jit\n"                                             /* 7 */
    "def inc32(a):\n"                                         /* 8 */
    "    cuda.atomic.inc(a, 0, 1)\n"                          /* 9 */
    "\n"                                                      /* 10 */
    "@cuda.jit\n"                                             /* 11 */
    "def selp2(a, b):\n"                                      /* 12 */
    "    a[0] = cuda.selp(True, a[0], b[0])\n"                /* 13 */
    "\n"                                                      /* 14 */
    "@cuda.jit\n"                                             /* 15 */
    "def fmask(a):\n"                                         /* 16 */
    "    a[0] = cuda.shfl_down_sync(1.5, a[0], 1)\n"          /* 17 */
    "\n"                                                      /* 18 */
    "@cuda.jit\n"                                             /* 19 */
    "def fpopc(a):\n"                                         /* 20 */
    "    a[0] = cuda.popc(a[0])\n"                            /* 21 */
    "\n"                                                      /* 22 */
    "@cuda.jit\n"                                             /* 23 */
    "def arity(a):\n"                                         /* 24 */
    "    a[0] = cuda.ballot_sync(0xffffffff)\n"               /* 25 */
    "\n"                                                      /* 26 */
    "@cuda.jit\n"                                             /* 27 */
    "def xorf(a):\n"                                          /* 28 */
    "    cuda.atomic.xor(a, 0, 1)\n"                          /* 29 */
    "\n"                                                      /* 30 */
    "@cuda.jit\n"                                             /* 31 */
    "def fpred(a):\n"                                         /* 32 */
    "    a[0] = cuda.syncthreads_count(a[0])\n"               /* 33 */
    "\n"                                                      /* 34 */
    "@njit\n"                                                 /* 35 */
    "def on_cpu(x):\n"                                        /* 36 */
    "    return cuda.popc(x)\n"                               /* 37 */
    "\n"                                                      /* 38 */
    "@njit\n"                                                 /* 39 */
    "def lane_cpu(x):\n"                                      /* 40 */
    "    return cuda.laneid + x\n"                            /* 41 */
    "\n"                                                      /* 42 */
    "@njit\n"                                                 /* 43 */
    "def warp_cpu(x):\n"                                      /* 44 */
    "    cuda.syncwarp()\n"                                   /* 45 */
    "    return cuda.shfl_down_sync(0xffffffff, x, 1)\n"      /* 46 */
    "\n"                                                      /* 47 */
    "@cuda.jit\n"                                             /* 48 */
    "def cas0(a):\n"                                          /* 49 */
    "    cuda.syncwarp(mask=0xffff)\n"                        /* 50 */
    "    a[1] = cuda.atomic.compare_and_swap(a, 0, 1)\n"      /* 51 */
    "    a[2] = cuda.warpsize\n";                             /* 52 */

static void expect_error(NjContext *ctx, NjModule *m, const char *sig, const char *want) {
    char *ptx = NULL;
    NjStatus st = nj_ptx(m, sig, "sm_90", &ptx);
    const char *msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_TYPE && !ptx, "nj_ptx(%s): %s, expected a type error", sig,
          nj_status_name(st));
    CHECK(strstr(msg, want), "nj_ptx(%s): message lacks '%s':\n%s", sig, want, msg);
    nj_free_string(ptx);
}

static void expect_cpu_error(NjContext *ctx, NjModule *m, const char *name, const char *sig,
                             const char *want) {
    NjFunction *f = NULL;
    NjEntry e = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK && f, "nj_module_function(%s)", name);
    if (!f)
        return;
    NjStatus st = nj_function_entry(f, sig, &e);
    const char *msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_TYPE && !e, "%s%s on the CPU: %s, expected a type error", name, sig,
          nj_status_name(st));
    CHECK(strstr(msg, want), "%s%s: message lacks '%s':\n%s", name, sig, want, msg);
}

static void test_errors(NjContext *ctx) {
    NjModule *b;
    NjStatus st = nj_compile_source(ctx, "bad.py", bad_src, &b);
    CHECK(st == NJ_OK, "bad.py parses: %s", nj_error_message(ctx));
    if (st)
        return;
    expect_error(ctx, b, "shfl16(int16[:])",
                 "bad.py:5:39: error: cuda.shfl_sync() shuffles int32, int64, uint32, uint64, "
                 "float32 or float64 values, not int16");
    expect_error(ctx, b, "inc32(int32[:])",
                 "bad.py:9:5: error: cuda.atomic.inc supports arrays of uint32 uint64, not "
                 "int32[:]");
    expect_error(ctx, b, "selp2(float32[:], float64[:])",
                 "bad.py:13:12: error: cuda.selp() needs a and b of one type");
    expect_error(ctx, b, "fmask(int32[:])",
                 "bad.py:17:32: error: the mask of cuda.shfl_down_sync() must be an integer, not "
                 "float64");
    expect_error(ctx, b, "fpopc(float64[:])", "bad.py:21:22: error: cuda.popc() needs an integer");
    expect_error(ctx, b, "arity(int32[:])",
                 "bad.py:25:12: error: cuda.ballot_sync() takes (mask, predicate), 1 argument "
                 "given");
    expect_error(ctx, b, "xorf(float32[:])", "bad.py:29:5: error: cuda.atomic.xor supports arrays");
    expect_error(ctx, b, "fpred(float32[:])",
                 "bad.py:33:35: error: the predicate of cuda.syncthreads_count() must be an "
                 "integer");
    expect_cpu_error(ctx, b, "on_cpu", "(int64)",
                     "bad.py:37:12: error: cuda.popc() is only available in CUDA kernels and "
                     "device functions");
    expect_cpu_error(ctx, b, "lane_cpu", "(int64)",
                     "bad.py:41:12: error: cuda.laneid is only available in CUDA kernels");
    expect_cpu_error(ctx, b, "warp_cpu", "(int32)",
                     "bad.py:45:5: error: cuda.syncwarp() is only available in CUDA kernels");
    /* syncwarp(mask=...), compare_and_swap on element 0, warpsize as a value */
    char *ptx = NULL;
    st = nj_ptx(b, "cas0(int32[:])", "sm_90", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, "bar.warp.sync") && strstr(ptx, "atom.global.cas.b32"),
          "cas0: %s %s", nj_status_name(st), nj_error_message(ctx));
    if (ptx)
        CHECK(run_ptxas("cas0", ptx, "sm_90"), "ptxas rejects cas0");
    nj_free_string(ptx);
}

int main(int argc, char **argv) {
    setenv("NUMJIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("NUMJIT_VERIFY", "1", 0);
    const char *path = argc > 1 ? argv[1] : "tests/gpu/warp_kernels.py";
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
    if (!st)
        test_ptx(ctx, m);
    test_errors(ctx);
    nj_context_free(ctx);
    free(src);
    printf("%s: %d checks, %d failures\n", failures ? "FAIL" : "PASS", checks, failures);
    return failures ? 1 : 0;
}

/* test_cache.c — the on-disk cache, across processes.
 *
 * The test runs itself as child processes ("test_cache child SRC.py SCALE"), each a fresh
 * process with a fresh context, all sharing one cache directory (NUMJIT_CACHE_DIR, a temporary
 * directory).  A child compiles and calls every kind of cached function of SRC.py (an @njit
 * that calls a helper, an @njit that raises, a two-signature @vectorize, a dynamic @vectorize,
 * a @guvectorize), checks the values, and prints how many times LLVM's optimizer ran
 * (cg_opt_runs) and how long the first call took.  The parent checks:
 *   cold cache: the optimizer runs and entries appear, all valid;
 *   warm cache: a new process gets the same results (and the same raise message) with the
 *     optimizer never run;
 *   the helper's source edited: its caller is compiled again (and gives the new value);
 *   truncated, bit-flipped and foreign entries: ignored, results unchanged, entries rewritten;
 *   four processes writing the same entries at once: all succeed, every entry valid, no
 *     temporary file left;
 *   a cache directory that cannot be created: no error, no caching;
 *   the same key in two modules of one context (the entry symbol already linked) is reused;
 *   `nj_cache_clear` empties it;
 *   trust (test_trust): a directory the cache creates is 0700 and its entries 0600; an entry
 *     that is a symbolic link, writable by others or owned by another user, and a directory
 *     writable by others or owned by another user, are not used (a miss, nothing stored in
 *     such a directory) and each is a warning nj_cache_warnings returns (never printed).
 * `test_cache measure N` prints medians of N cold and N warm processes instead.
 * Unit checks of the pieces run in the parent: SHA-256 test vectors (through keys being
 * stable), blob round trips of types, and key sensitivity to the things it must cover; and,
 * with no GPU needed, the cubin entries of CUDA kernels (test_cubin_pieces): their keys (the
 * device arch, the driver, a device function's source...), payload round trips and rejects,
 * and rt_cubin_load refusing an entry written for another kernel before touching a device.
 * tests/gpu/test_cubin_cache.py covers the rest on a GPU.
 */
#include "runtime/runtime.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/check.h"

/* Entries a cold child leaves: f (its helper inlined), quot, twice's and dot's loops, and
 * three of rel: its float64 loop, the loop its float32 call into a float32 out= uses, and the
 * loop for float32 inputs with an allocated output (the float64 signature, declared first,
 * reading float32), which the ufunc compiles ahead of need on its own thread. */
#define ENTRIES 7

static const char *source_fmt =
    "from numba import njit, vectorize, guvectorize\n"
    "\n"
    "BIAS = 1.0\n"
    "\n"
    "@njit\n"
    "def helper(x):\n"
    "    return x * %s + BIAS\n"
    "\n"
    "@njit(cache=True)\n"
    "def f(x, y):\n"
    "    return helper(x) + y\n"
    "\n"
    "@njit(cache=True)\n"
    "def quot(a, b):\n"
    "    return a // b\n"
    "\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'], cache=True)\n"
    "def rel(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "@vectorize(cache=True)\n"
    "def twice(x):\n"
    "    return x + x\n"
    "\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()', cache=True)\n"
    "def dot(a, b, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i] * b[i]\n"
    "    out[0] = s\n";

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* ---- the child: one fresh process using the cache ------------------------------------------ */
static char *read_text(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    return buf;
}

static int child(const char *path, double scale) {
    const char *src = read_text(path);
    if (!src) {
        printf("child: cannot read %s\n", path);
        return 1;
    }
    double t0 = now_ms();
    NjContext *ctx;
    NjModule *m;
    NjFunction *f, *q;
    if (nj_context_new(&ctx) || nj_compile_source(ctx, path, src, &m) ||
        nj_module_function(m, "f", &f) || nj_module_function(m, "quot", &q)) {
        printf("child: setup failed: %s\n", nj_error_message(ctx));
        return 1;
    }
    NjValue args[2] = {nj_f64(3.0), nj_f64(0.5)}, res;
    double t1 = now_ms();
    NjStatus st = nj_call(f, args, 2, &res);
    double t2 = now_ms();
    CHECK(!st && res.v.f == 3.0 * scale + 1.0 + 0.5, "f(3, 0.5) = %g (%s)", res.v.f,
          nj_error_message(ctx));
    NjValue qa[2] = {nj_i64(7), nj_i64(0)};
    double t5 = now_ms();
    st = nj_call(q, qa, 2, &res);
    double t6 = now_ms();
    const char *msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_RUNTIME && strstr(msg, "ZeroDivisionError") && strstr(msg, "a // b") &&
              strstr(msg, ":15:"),
          "quot(7, 0): %s / %s", nj_status_name(st), msg);
    qa[1] = nj_i64(2);
    CHECK(!nj_call(q, qa, 2, &res) && res.v.i == 3, "quot(7, 2)");

    NjUfunc *rel, *twice, *dot;
    CHECK(!nj_module_ufunc(m, "rel", &rel) && !nj_module_ufunc(m, "twice", &twice) &&
              !nj_module_ufunc(m, "dot", &dot),
          "ufuncs: %s", nj_error_message(ctx));
    double x[4] = {1, 2, 3, 4}, y[4] = {3, 2, 1, 0}, o[4];
    NjArray in[2] = {nj_array_c(x, NJ_FLOAT64, 1, (int64_t[]){4}),
                     nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){4})};
    NjArray out = nj_array_c(o, NJ_FLOAT64, 1, (int64_t[]){4});
    double t3 = now_ms();
    st = nj_ufunc_call(rel, in, 2, &out, 1);
    double t4 = now_ms();
    CHECK(!st && o[0] == -1.0 && o[1] == 0.0 && o[3] == 2.0, "rel: %s", nj_error_message(ctx));
    float xf[2] = {1, 3}, yf[2] = {3, 1}, of[2];
    NjArray inf[2] = {nj_array_c(xf, NJ_FLOAT32, 1, (int64_t[]){2}),
                      nj_array_c(yf, NJ_FLOAT32, 1, (int64_t[]){2})};
    NjArray outf = nj_array_c(of, NJ_FLOAT32, 1, (int64_t[]){2});
    CHECK(!nj_ufunc_call(rel, inf, 2, &outf, 1) && of[0] == -1.0f && of[1] == 1.0f, "rel f32");
    int32_t xi[3] = {1, -2, 5};
    NjArray ini = nj_array_c(xi, NJ_INT32, 1, (int64_t[]){3}), outi = {0};
    st = nj_ufunc_call(twice, &ini, 1, &outi, 1);
    CHECK(!st && outi.dtype == NJ_INT64 && ((int64_t *)outi.data)[1] == -4,
          "twice(int32) dtype %d: %s", (int)outi.dtype, nj_error_message(ctx));
    if (!st)
        nj_array_free(&outi);
    double a[6] = {1, 2, 3, 4, 5, 6}, d[2];
    NjArray gin[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){2, 3}),
                      nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){2, 3})};
    NjArray gout = nj_array_c(d, NJ_FLOAT64, 1, (int64_t[]){2});
    CHECK(!nj_ufunc_call(dot, gin, 2, &gout, 1) && d[0] == 14 && d[1] == 77, "dot: %s",
          nj_error_message(ctx));
    printf("opt_runs=%lu first_call_ms=%.3f context_to_result_ms=%.3f first_ufunc_ms=%.3f "
           "second_func_ms=%.3f\n",
           cg_opt_runs(), t2 - t1, t2 - t0, t4 - t3, t6 - t5);
    nj_context_free(ctx);
    return failures ? 1 : 0;
}

/* ---- the parent --------------------------------------------------------------------------- */
static char self_path[4096], dir[256], src_path[512];

typedef struct ChildResult {
    int rc;
    unsigned long opt_runs;
    double first_ms, ctx_ms, ufunc_ms, second_ms;
    char out[4096];
} ChildResult;

static void write_source(const char *scale) {
    FILE *fp = fopen(src_path, "w");
    fprintf(fp, source_fmt, scale);
    fclose(fp);
}

/* Starts a child; read its output with finish(). */
static FILE *start(const char *scale) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' child '%s' %s 2>&1", self_path, src_path, scale);
    return popen(cmd, "r");
}

static ChildResult finish(FILE *p) {
    ChildResult r = {0};
    size_t n = p ? fread(r.out, 1, sizeof r.out - 1, p) : 0;
    r.out[n] = 0;
    r.rc = p ? pclose(p) : -1;
    const char *s = strstr(r.out, "opt_runs=");
    r.opt_runs = (unsigned long)-1;
    if (s)
        sscanf(s, "opt_runs=%lu first_call_ms=%lf context_to_result_ms=%lf first_ufunc_ms=%lf "
               "second_func_ms=%lf",
               &r.opt_runs, &r.first_ms, &r.ctx_ms, &r.ufunc_ms, &r.second_ms);
    return r;
}

static ChildResult run_child(const char *scale) { return finish(start(scale)); }

typedef struct Census {
    int valid, invalid;
} Census;

static void count_entry(const NjCacheEntry *e, void *user) {
    Census *c = user;
    if (e->valid)
        c->valid++;
    else
        c->invalid++;
}

static Census census(void) {
    Census c = {0, 0};
    nj_cache_list(count_entry, &c);
    return c;
}

static int count_temp_files(void) {
    DIR *dp = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (dp && (de = readdir(dp)))
        n += strstr(de->d_name, ".tmp") != NULL;
    if (dp)
        closedir(dp);
    return n;
}

/* Paths of the entries (at most 16). */
static int entry_paths(char paths[16][512]) {
    DIR *dp = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (dp && (de = readdir(dp)) && n < 16)
        if (strstr(de->d_name, ".nje"))
            snprintf(paths[n++], 512, "%s/%s", dir, de->d_name);
    if (dp)
        closedir(dp);
    return n;
}

static void damage(const char *path, int how) {
    struct stat st;
    if (stat(path, &st))
        return;
    if (how == 0) { /* truncate */
        CHECK(!truncate(path, st.st_size / 2), "truncate");
        return;
    }
    FILE *fp = fopen(path, "r+b");
    if (!fp)
        return;
    long at = how == 1 ? (long)st.st_size - 20 : 20; /* a payload byte, or the key hash */
    fseek(fp, at, SEEK_SET);
    int c = fgetc(fp);
    fseek(fp, at, SEEK_SET);
    fputc(c ^ 0x5a, fp);
    fclose(fp);
}

static void test_pieces(void) {
    /* blobs: every field kind round-trips, and reading past the end is caught */
    RtBlob b = {0};
    const Type *el[2] = {ty_f64, ty_array(ty_i32, 2, LAYOUT_C)};
    const Type *tup = ty_tuple(el, 2);
    rt_blob_u32(&b, 7);
    rt_blob_str(&b, "hello");
    rt_blob_type(&b, tup);
    rt_blob_type(&b, ty_optional(el[1]));
    rt_blob_type(&b, ty_none());
    rt_blob_type(&b, NULL);
    rt_blob_bytes(&b, "\0\1\2", 3);
    b.pos = 0;
    CHECK(rt_blob_get_u32(&b) == 7, "u32");
    const char *s = rt_blob_get_str(&b);
    CHECK(s && !strcmp(s, "hello"), "str");
    CHECK(rt_blob_get_type(&b) == tup, "tuple type round trip");
    CHECK(rt_blob_get_type(&b) == ty_optional(el[1]), "Optional type round trip");
    CHECK(rt_blob_get_type(&b) == ty_none(), "none type round trip");
    CHECK(rt_blob_get_type(&b) == NULL && !b.bad, "no type");
    size_t n;
    const uint8_t *p = rt_blob_get_bytes(&b, &n);
    CHECK(p && n == 3 && p[2] == 2 && !b.bad, "bytes");
    rt_blob_get_u32(&b);
    CHECK(b.bad, "reading past the end is caught");
    rt_blob_free(&b);

    /* keys: stable, and sensitive to argument types, constants, callees (not to other defs) */
    const char *v1 = "from numba import njit\nK = 2\n@njit\ndef h(x):\n    return x * K\n"
                     "@njit\ndef f(x):\n    return h(x)\n@njit\ndef other(x):\n    return x\n";
    const char *v2 = "from numba import njit\nK = 3\n@njit\ndef h(x):\n    return x * K\n"
                     "@njit\ndef f(x):\n    return h(x)\n@njit\ndef other(x):\n    return x\n";
    const char *v3 = "from numba import njit\nK = 2\n@njit\ndef h(x):\n    return x * K\n"
                     "@njit\ndef f(x):\n    return h(x)\n@njit\ndef other(x):\n    return -x\n";
    const char *v4 = "from numba import njit\nK = 2\n@njit\ndef h(x):\n    return x * K + 0\n"
                     "@njit\ndef f(x):\n    return h(x)\n@njit\ndef other(x):\n    return x\n";
    const char *srcs[4] = {v1, v2, v3, v4};
    RtCacheKey k[5];
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return;
    for (int i = 0; i < 4; i++) {
        NjModule *m;
        CHECK(!nj_compile_source(ctx, "keys.py", srcs[i], &m), "parse %d", i);
        const Type *args[1] = {ty_f64};
        CHECK(rt_cache_key(&k[i], m, fe_find_func(m->info, "f"), "njit", args, 1, NULL),
              "key %d", i);
        if (i == 0) {
            const Type *args2[1] = {ty_i64};
            CHECK(rt_cache_key(&k[4], m, fe_find_func(m->info, "f"), "njit", args2, 1, NULL),
                  "key i64");
        }
    }
    CHECK(strcmp(k[0].hex, k[1].hex), "a constant's value is in the key");
    CHECK(!strcmp(k[0].hex, k[2].hex), "an unrelated function is not in the key");
    CHECK(strcmp(k[0].hex, k[3].hex), "the callee's source is in the key");
    CHECK(strcmp(k[0].hex, k[4].hex), "the argument types are in the key");
    CHECK(strlen(k[0].hex) == 64 && !strncmp(k[0].sym, "nj_cache.", 9), "key shape %s", k[0].sym);
    CHECK(k[0].desc && strstr(k[0].desc, "keys.py: f(float64) [njit]"), "desc %s", k[0].desc);
    for (int i = 0; i < 5; i++)
        rt_cache_key_free(&k[i]);
    nj_context_free(ctx);
}

/* ---- cubin entries (no GPU) ------------------------------------------------------------------ */
static const char *kernel_fmt =
    "from numba import cuda\n"
    "K = 2.0\n"
    "@cuda.jit(device=True)\n"
    "def scale(x):\n"
    "    return x * %s\n"
    "@cuda.jit(cache=True)\n"
    "def kern(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.shape[0]:\n"
    "        out[i] = scale(x[i])\n";

static void test_cubin_pieces(void) {
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return;
    char src[1024];
    NjModule *m1, *m2;
    snprintf(src, sizeof src, kernel_fmt, "K");
    CHECK(!nj_compile_source(ctx, "kern.py", src, &m1), "kernel source: %s",
          nj_error_message(ctx));
    snprintf(src, sizeof src, kernel_fmt, "K + 1.0");
    CHECK(!nj_compile_source(ctx, "kern.py", src, &m2), "edited kernel source");
    const FuncInfo *f1 = fe_find_func(m1->info, "kern"), *f2 = fe_find_func(m2->info, "kern");
    CHECK(f1 && f2 && f1->cache && f1->kind == FK_KERNEL, "@cuda.jit(cache=True) is read");
    if (!f1 || !f2) {
        nj_context_free(ctx);
        return;
    }
    const Type *p32 = ty_array(ty_f32, 1, LAYOUT_C), *p64 = ty_array(ty_f64, 1, LAYOUT_C);
    const Type *a32[2] = {p32, p32}, *a64[2] = {p64, p64};
    RtGpuTarget t = {.dev_arch = "sm_90", .gen_arch = "sm_90", .max_ptx = 85, .driver = 12040};
    enum { BASE, ARCH, DRIVER, CAP, GEN, TYPES, CALLEE, EXTRA, CPU, NKEYS };
    RtCacheKey k[NKEYS];
    bool ok = rt_cubin_key(&k[BASE], m1, f1, "kernel", a32, 2, &t, NULL);
    RtGpuTarget v = t;
    snprintf(v.dev_arch, sizeof v.dev_arch, "sm_80");
    ok = ok && rt_cubin_key(&k[ARCH], m1, f1, "kernel", a32, 2, &v, NULL);
    v = t;
    v.driver = 12080;
    ok = ok && rt_cubin_key(&k[DRIVER], m1, f1, "kernel", a32, 2, &v, NULL);
    v = t;
    v.max_ptx = 78;
    ok = ok && rt_cubin_key(&k[CAP], m1, f1, "kernel", a32, 2, &v, NULL);
    v = t;
    snprintf(v.gen_arch, sizeof v.gen_arch, "sm_89");
    ok = ok && rt_cubin_key(&k[GEN], m1, f1, "kernel", a32, 2, &v, NULL);
    ok = ok && rt_cubin_key(&k[TYPES], m1, f1, "kernel", a64, 2, &t, NULL);
    ok = ok && rt_cubin_key(&k[CALLEE], m2, f2, "kernel", a32, 2, &t, NULL);
    ok = ok && rt_cubin_key(&k[EXTRA], m1, f1, "kernel", a32, 2, &t, "dtypes f4 f4");
    ok = ok && rt_cache_key(&k[CPU], m1, f1, "kernel", a32, 2, NULL);
    CHECK(ok, "cubin keys");
    if (!ok) {
        nj_context_free(ctx);
        return;
    }
    RtCacheKey again;
    CHECK(rt_cubin_key(&again, m1, f1, "kernel", a32, 2, &t, NULL) &&
              !strcmp(again.hex, k[BASE].hex),
          "a cubin key is stable");
    rt_cache_key_free(&again);
    static const char *const what[NKEYS] = {"", "the device arch", "the driver version",
                                            "the driver's PTX cap", "the PTX arch",
                                            "the parameter types", "a device function's source",
                                            "the caller's extra text", "the target (cpu/cuda)"};
    for (int i = 1; i < NKEYS; i++)
        CHECK(strcmp(k[BASE].hex, k[i].hex), "%s is in the cubin key", what[i]);
    CHECK(k[BASE].desc && strstr(k[BASE].desc, "kern.py: kern(float32[::1], float32[::1])") &&
              strstr(k[BASE].desc, "[kernel sm_90]"),
          "cubin desc %s", k[BASE].desc);

    /* payloads: a round trip, the caller's fields included */
    static const uint8_t fake_cubin[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7, 0, 0, 0};
    RtBlob meta = {0};
    rt_blob_u32(&meta, 256);
    rt_blob_str(&meta, "launch shape");
    RtCubinEntry e = {.dev_arch = "sm_90", .entry = "kern", .nparams = 2,
                      .params = {p32, p32}, .meta = meta.data, .meta_len = meta.len,
                      .cubin = fake_cubin, .cubin_len = sizeof fake_cubin};
    RtBlob b = {0};
    rt_cubin_put(&b, &e);
    RtCubinEntry g;
    const char *why = rt_cubin_get(&b, &g);
    CHECK(!why && !strcmp(g.dev_arch, "sm_90") && !strcmp(g.entry, "kern") && g.nparams == 2 &&
              g.params[0] == p32 && g.params[1] == p32 && g.cubin_len == sizeof fake_cubin &&
              !memcmp(g.cubin, fake_cubin, sizeof fake_cubin) && g.meta_len == meta.len &&
              !memcmp(g.meta, meta.data, meta.len),
          "cubin payload round trip: %s", why ? why : "fields differ");
    /* rejects: a truncated payload, bytes after it, a payload of another kind, a non-ELF image */
    size_t full = b.len;
    for (size_t cut = 0; cut < full; cut += 7) {
        b.len = cut;
        b.pos = 0;
        b.bad = false;
        if (!rt_cubin_get(&b, &g)) {
            CHECK(false, "a payload cut at %zu of %zu bytes is accepted", cut, full);
            break;
        }
    }
    b.len = full;
    b.bad = false;
    rt_blob_u32(&b, 0);
    b.pos = 0;
    b.bad = false;
    CHECK(rt_cubin_get(&b, &g) != NULL, "bytes after the cubin are rejected");
    rt_blob_free(&b);
    RtBlob njit = {0};
    rt_blob_str(&njit, "njit");
    rt_blob_str(&njit, "nj_cache.0");
    CHECK(rt_cubin_get(&njit, &g) != NULL, "a CPU payload is not a cubin entry");
    rt_blob_free(&njit);
    RtCubinEntry bad = e;
    bad.cubin = "// PTX text";
    bad.cubin_len = 11;
    rt_cubin_put(&b, &bad);
    why = rt_cubin_get(&b, &g);
    CHECK(why && strstr(why, "ELF"), "an image that is not a cubin is rejected: %s",
          why ? why : "accepted");
    rt_blob_free(&b);

    /* stored under its key in the cache directory, listed with its description, loaded back */
    rt_cubin_put(&b, &e);
    rt_cache_store(&k[BASE], &b);
    rt_blob_free(&b);
    RtBlob got;
    CHECK(rt_cache_load(&k[BASE], &got) && !rt_cubin_get(&got, &g) && g.nparams == 2,
          "a stored cubin entry loads back");
    rt_blob_free(&got);
    CHECK(!rt_cache_load(&k[ARCH], &got), "no entry for another device arch");
    /* rt_cubin_load refuses an entry written for another kernel (other entry name, other
     * parameter types, other device arch) before it would touch the device (NULL here) */
    RtCubinEntry want = e;
    want.entry = "other";
    struct CuModule *cm = (struct CuModule *)&want;
    RtBlob mb = {.bad = true};
    CHECK(!rt_cubin_load(&k[BASE], NULL, &want, &mb, &cm) && !cm && !mb.data && !mb.bad,
          "an entry for another entry name is refused");
    want = e;
    want.params[1] = p64;
    CHECK(!rt_cubin_load(&k[BASE], NULL, &want, NULL, &cm) && !cm,
          "an entry for other parameter types is refused");
    want = e;
    want.dev_arch = "sm_80";
    CHECK(!rt_cubin_load(&k[BASE], NULL, &want, NULL, &cm) && !cm,
          "an entry for another device arch is refused");
    rt_blob_free(&meta);
    for (int i = 0; i < NKEYS; i++)
        rt_cache_key_free(&k[i]);
    nj_cache_clear(NULL);
    nj_context_free(ctx);
}

/* Whether the next load of k misses with a recorded warning containing want. */
static bool refused_with(const RtCacheKey *k, const char *want) {
    RtBlob got;
    bool hit = rt_cache_load(k, &got);
    if (hit)
        rt_blob_free(&got);
    char text[2048];
    int n = nj_cache_warnings(text, sizeof text, true);
    CHECK(!hit && n == 1 && strstr(text, want), "refused (%s): hit %d, %d warnings: %s", want,
          hit, n, text);
    return !hit;
}

static void test_trust(void) {
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return;
    char src[1024], sub[400], deep[500], entry[700], alias[700];
    NjModule *m;
    snprintf(src, sizeof src, kernel_fmt, "K");
    const FuncInfo *fi = !nj_compile_source(ctx, "kern.py", src, &m)
                             ? fe_find_func(m->info, "kern") : NULL;
    const Type *p32 = ty_array(ty_f32, 1, LAYOUT_C), *args[2] = {p32, p32};
    RtGpuTarget t = {.dev_arch = "sm_90", .gen_arch = "sm_90", .max_ptx = 85, .driver = 12040};
    RtCacheKey k;
    if (!fi || !rt_cubin_key(&k, m, fi, "kernel", args, 2, &t, NULL)) {
        CHECK(0, "trust: no key");
        nj_context_free(ctx);
        return;
    }
    snprintf(sub, sizeof sub, "%s/trust", dir);
    snprintf(deep, sizeof deep, "%s/a/b", sub);
    setenv("NUMJIT_CACHE_DIR", deep, 1);
    RtBlob b = {0};
    rt_blob_str(&b, "payload");
    rt_cache_store(&k, &b);
    snprintf(entry, sizeof entry, "%s/%.40s.nje", deep, k.hex);
    snprintf(alias, sizeof alias, "%s/elsewhere.bin", sub);
    struct stat st;
    char a[500];
    snprintf(a, sizeof a, "%s/a", sub);
    CHECK(!stat(a, &st) && (st.st_mode & 0777) == 0700 && !stat(deep, &st) &&
              (st.st_mode & 0777) == 0700, "created directories are 0700");
    CHECK(!stat(entry, &st) && (st.st_mode & 0777) == 0600, "an entry is 0600: %o",
          (unsigned)st.st_mode & 0777);
    RtBlob got;
    bool hit = rt_cache_load(&k, &got);
    CHECK(hit && nj_cache_warnings(NULL, 0, false) == 0, "a trusted entry loads, no warning");
    if (hit)
        rt_blob_free(&got);

    /* an entry that is a symbolic link (to a valid entry) is not followed */
    CHECK(!rename(entry, alias) && !symlink(alias, entry), "symlink");
    refused_with(&k, "symbolic link");
    Census c = census();
    CHECK(c.valid == 0 && c.invalid == 1, "a symlinked entry is listed as not valid");
    unlink(entry);
    CHECK(!rename(alias, entry), "rename back");
    /* an entry others may write */
    chmod(entry, 0666);
    refused_with(&k, "writable by its group or by others");
    chmod(entry, 0620);
    refused_with(&k, "writable by its group");
    chmod(entry, 0600);
    /* a directory others may write: no load, and nothing stored there */
    chmod(deep, 0777);
    refused_with(&k, "cache directory");
    unlink(entry);
    rt_cache_store(&k, &b);
    CHECK(access(entry, F_OK) && nj_cache_warnings(NULL, 0, true) == 1,
          "nothing stored in a directory others may write");
    chmod(deep, 0700);
    rt_cache_store(&k, &b);
    CHECK(rt_cache_load(&k, &got), "trusted again");
    rt_blob_free(&got);
    /* owned by another user (only root can give a file away) */
    if (geteuid() == 0) {
        CHECK(!chown(entry, 65534, 65534), "chown entry");
        refused_with(&k, "owned by another user");
        CHECK(!chown(entry, 0, 0) && !chown(deep, 65534, 65534), "chown directory");
        refused_with(&k, "owned by another user");
        CHECK(!chown(deep, 0, 0), "chown back");
    }
    /* the same refusal twice is one warning */
    chmod(entry, 0666);
    for (int i = 0; i < 3; i++)
        if (rt_cache_load(&k, &got))
            rt_blob_free(&got);
    CHECK(nj_cache_warnings(NULL, 0, true) == 1, "one warning per refusal");
    CHECK(!nj_cache_clear(NULL), "clear");
    rmdir(deep);
    rmdir(a);
    rmdir(sub);
    setenv("NUMJIT_CACHE_DIR", dir, 1);
    rt_blob_free(&b);
    rt_cache_key_free(&k);
    nj_context_free(ctx);
}

/* Two modules of one source in one context: the second finds the entry symbol already in the
 * JIT (a hit, or with no usable directory a second compile of the same key) and reuses it. */
static void test_same_key_twice(void) {
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return;
    const char *src = read_text(src_path);
    for (int i = 0; i < 2; i++) {
        NjModule *m;
        NjFunction *f;
        NjValue args[2] = {nj_f64(1.0), nj_f64(1.0)}, res;
        NjStatus st = nj_compile_source(ctx, src_path, src, &m);
        if (!st)
            st = nj_module_function(m, "f", &f);
        if (!st)
            st = nj_call(f, args, 2, &res);
        CHECK(!st && res.v.f == 4.0, "module %d: %s", i, nj_error_message(ctx));
    }
    nj_context_free(ctx);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* `test_cache measure N`: medians of N cold and N warm fresh processes (docs/performance.md). */
static int measure(int n) {
    double cf[64], wf[64], cc[64], wc[64], cs[64], ws[64], cu[64], wu[64];
    if (n < 1 || n > 64)
        n = 7;
    for (int i = 0; i < n; i++) {
        nj_cache_clear(NULL);
        ChildResult c = run_child("2.0"), w = run_child("2.0");
        if (c.rc || w.rc || w.opt_runs != 0) {
            printf("measure: a child failed\n%s%s", c.out, w.out);
            return 1;
        }
        cf[i] = c.first_ms, wf[i] = w.first_ms, cc[i] = c.ctx_ms, wc[i] = w.ctx_ms;
        cs[i] = c.second_ms, ws[i] = w.second_ms, cu[i] = c.ufunc_ms, wu[i] = w.ufunc_ms;
    }
    printf("medians of %d fresh processes (cold cache / warm cache):\n", n);
    printf("  nj_context_new to the first result of f: %.2f / %.3f ms\n", median(cc, n),
           median(wc, n));
    printf("  first call of f (starts the JIT):        %.2f / %.3f ms\n", median(cf, n),
           median(wf, n));
    printf("  then the first call of quot:             %.2f / %.3f ms\n", median(cs, n),
           median(ws, n));
    printf("  then the first call of the ufunc rel:    %.2f / %.3f ms\n", median(cu, n),
           median(wu, n));
    nj_cache_clear(NULL);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 4 && !strcmp(argv[1], "child"))
        return child(argv[2], atof(argv[3]));
    ssize_t sn = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
    if (sn <= 0)
        return 1;
    self_path[sn] = 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/numjit-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    char cache[300];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(src_path, sizeof src_path, "%s/kernels.py", dir);
    setenv("NUMJIT_CACHE_DIR", cache, 1);
    unsetenv("NUMJIT_CACHE");
    strcpy(dir, cache); /* from here on `dir` is the cache directory */
    CHECK(nj_cache_dir() && !strcmp(nj_cache_dir(), cache), "nj_cache_dir %s", nj_cache_dir());
    if (argc == 3 && !strcmp(argv[1], "measure")) {
        write_source("2.0");
        int rc = measure(atoi(argv[2]));
        unlink(src_path);
        rmdir(cache);
        *strrchr(cache, '/') = 0;
        rmdir(cache);
        return rc;
    }

    test_pieces();
    test_cubin_pieces();
    test_trust();
    write_source("2.0");

    /* 1. cold, then warm */
    ChildResult cold = run_child("2.0");
    CHECK(cold.rc == 0 && cold.opt_runs > 0 && cold.opt_runs != (unsigned long)-1,
          "cold child: rc %d, opt_runs %lu\n%s", cold.rc, cold.opt_runs, cold.out);
    Census c = census();
    CHECK(c.valid == ENTRIES && c.invalid == 0, "after the cold run: %d valid, %d damaged entries",
          c.valid, c.invalid);
    ChildResult warm = run_child("2.0");
    CHECK(warm.rc == 0 && warm.opt_runs == 0, "warm child: rc %d, opt_runs %lu\n%s", warm.rc,
          warm.opt_runs, warm.out);
    printf("fresh process, C: first call of f (JIT start included) cold %.2f ms, warm cache "
           "%.3f ms; nj_context_new to result %.2f / %.3f ms; then first call of quot %.2f / "
           "%.3f ms, of the ufunc %.2f / %.3f ms\n",
           cold.first_ms, warm.first_ms, cold.ctx_ms, warm.ctx_ms, cold.second_ms,
           warm.second_ms, cold.ufunc_ms, warm.ufunc_ms);
    /* the proof is opt_runs == 0; the time of one cached load (the JIT already started) is
     * printed above and not checked: other processes share these machines (an ASan build
     * beside a compile once took longer than any fixed bound) */

    /* 2. the callee's source changes: the caller compiles again and sees it */
    write_source("5.0");
    ChildResult edited = run_child("5.0");
    CHECK(edited.rc == 0 && edited.opt_runs == 1, "after editing helper: rc %d opt_runs %lu\n%s",
          edited.rc, edited.opt_runs, edited.out);
    ChildResult edited2 = run_child("5.0");
    CHECK(edited2.rc == 0 && edited2.opt_runs == 0, "edited, warm: rc %d opt_runs %lu\n%s",
          edited2.rc, edited2.opt_runs, edited2.out);
    write_source("2.0");
    CHECK(!nj_cache_clear(NULL), "clear");
    ChildResult refill = run_child("2.0");
    CHECK(refill.rc == 0 && census().valid == ENTRIES, "refilled: rc %d\n%s", refill.rc, refill.out);

    /* 3. damaged entries are ignored and rewritten */
    char paths[16][512];
    int np = entry_paths(paths);
    for (int i = 0; i < np; i++)
        damage(paths[i], i % 3);
    c = census();
    CHECK(c.invalid == np, "damaged: %d of %d entries seen as damaged", c.invalid, np);
    ChildResult fixed = run_child("2.0");
    CHECK(fixed.rc == 0 && fixed.opt_runs >= 5, "over damaged entries: rc %d opt_runs %lu\n%s",
          fixed.rc, fixed.opt_runs, fixed.out);
    c = census();
    CHECK(c.invalid == 0 && c.valid == np, "rewritten: %d valid, %d damaged", c.valid, c.invalid);
    ChildResult again = run_child("2.0");
    CHECK(again.rc == 0 && again.opt_runs == 0, "after rewriting: opt_runs %lu", again.opt_runs);

    /* 4. four processes filling an empty cache at once */
    int removed = -1;
    CHECK(!nj_cache_clear(&removed) && removed == np, "clear removed %d of %d", removed, np);
    CHECK(census().valid == 0, "empty after clear");
    FILE *ps[4];
    for (int i = 0; i < 4; i++)
        ps[i] = start("2.0");
    for (int i = 0; i < 4; i++) {
        ChildResult r = finish(ps[i]);
        CHECK(r.rc == 0, "concurrent child %d: rc %d\n%s", i, r.rc, r.out);
    }
    c = census();
    CHECK(c.valid == ENTRIES && c.invalid == 0, "concurrent writers: %d valid, %d damaged", c.valid,
          c.invalid);
    CHECK(count_temp_files() == 0, "temporary files left behind");
    ChildResult after = run_child("2.0");
    CHECK(after.rc == 0 && after.opt_runs == 0, "after concurrent writers: opt_runs %lu",
          after.opt_runs);

    /* 5. a cache directory that cannot be created is no error */
    char blocked[400];
    snprintf(blocked, sizeof blocked, "%s/file", dir);
    FILE *fp = fopen(blocked, "w");
    if (fp)
        fclose(fp);
    char under[500];
    snprintf(under, sizeof under, "%s/sub", blocked); /* a directory under a regular file */
    setenv("NUMJIT_CACHE_DIR", under, 1);
    ChildResult nodir = run_child("2.0");
    CHECK(nodir.rc == 0 && nodir.opt_runs > 0, "unwritable cache: rc %d\n%s", nodir.rc,
          nodir.out);
    test_same_key_twice();
    unlink(blocked);
    setenv("NUMJIT_CACHE_DIR", cache, 1);

    unsigned long runs = cg_opt_runs();
    test_same_key_twice(); /* hits */
    CHECK(cg_opt_runs() == runs, "two modules, warm cache: the optimizer ran");
    CHECK(!nj_cache_clear(&removed) && removed == ENTRIES, "final clear removed %d", removed);
    rmdir(cache);
    char *slash = strrchr(cache, '/');
    *slash = 0;
    unlink(src_path);
    rmdir(cache);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* test_cuda_driver.c — the CUDA runtime layer (runtime/cuda*.c) on a real GPU, end to end with
 * PTX from cg_emit_ptx: driver and device, the caching allocator, copies (sync, async,
 * pinned), streams, events, registered and mapped host memory, kernels written in the IR text form (global/shared/local memory, atomics,
 * libdevice math, fastmath, device functions, bool parameters, 2-D grids over a strided array,
 * dynamic shared memory), PTX → cubin through the driver's linker and loading the cubin, the
 * occupancy API, launch round-trip time, and the error paths (too many threads, a block the
 * driver rejects, bad PTX with the JIT log, a missing kernel, a bogus free, an impossible
 * allocation, an illegal address naming the kernel, then a device reset that recovers).
 *
 * Exit 77 (meson's "skipped") when there is no driver or no device; 0 when every check passes;
 * 1 otherwise.  Each check prints one line, "ok" or "FAIL" with the reason.  The kernels, in the
 * IR's text form, are test_cuda_driver_kernels.c.
 */
#include "codegen/codegen.h"
#include "runtime/cuda.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/unit/check.h"
#include "test_cuda_driver.h"

static CuDevice *dev;
static char arch[16];
static int max_ptx;

/* A runtime call that must succeed. */
#define OK(call)                                                                                 \
    do {                                                                                         \
        NjStatus st_ = (call);                                                                   \
        CHECK(st_ == NJ_OK, "%s -> %s: %s", #call, nj_status_name_local(st_), cu_error());       \
    } while (0)

static const char *nj_status_name_local(NjStatus s) {
    static const char *const names[] = {"NJ_OK", "NJ_ERR_SYNTAX", "NJ_ERR_TYPE", "NJ_ERR_NAME",
                                        "NJ_ERR_ARGS", "NJ_ERR_RUNTIME", "NJ_ERR_COMPILE",
                                        "NJ_ERR_NOMEM", "NJ_ERR_IO", "NJ_ERR_UNSUPPORTED",
                                        "NJ_ERR_CUDA", "NJ_ERR_INTERNAL"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- helpers ---------------------------------------------------------------------------------- */
/* IR text → PTX for this device (dyn_shared: shared arrays become dynamic). */
static char *ptx_of(const char *name, const char *ir, bool dyn_shared) {
    Arena *a = arena_new();
    Source src = {.name = name, .text = ir, .len = strlen(ir)};
    DiagList d;
    diag_init(&d);
    IrProgram *p = ir_parse(a, &src, &d);
    char *ptx = NULL;
    if (p && ir_verify(p, &d)) {
        if (dyn_shared)
            for (IrInst *in = p->funcs[0]->blocks[0]->first; in; in = in->next)
                if (in->op == IR_SHARED)
                    in->imm.dims[0] = 0;
        char *err = NULL;
        double t0 = now_ms();
        ptx = cg_emit_ptx_ex(p, arch, max_ptx, false, NULL, &err);
        CHECK(ptx != NULL, "%s: cg_emit_ptx: %s", name, err ? err : "?");
        if (ptx)
            printf("     %s: PTX in %.1f ms (%zu bytes)\n", name, now_ms() - t0, strlen(ptx));
        free(err);
    } else {
        StrBuf sb;
        sb_init(&sb);
        diag_render(&d, &sb);
        CHECK(false, "%s: IR does not parse:\n%s", name, sb.data ? sb.data : "");
        sb_free(&sb);
    }
    diag_free(&d);
    arena_free(a);
    return ptx;
}

/* Loads the PTX and finds the kernel (module returned for freeing). */
static CuKernel *load(const char *name, const char *ir, bool dyn, CuModule **mod) {
    *mod = NULL;
    char *ptx = ptx_of(name, ir, dyn);
    if (!ptx)
        return NULL;
    double t0 = now_ms();
    NjStatus st = cu_module_load_ptx(dev, ptx, mod);
    free(ptx);
    CHECK(st == NJ_OK, "%s: load: %s", name, cu_error());
    if (st)
        return NULL;
    CuKernel *k = NULL;
    st = cu_module_kernel(*mod, name, &k);
    CHECK(st == NJ_OK, "%s: kernel lookup: %s", name, cu_error());
    if (k)
        printf("     %s: loaded in %.1f ms; %d regs, %d B static shared, %d B local, max %d threads\n",
               name, now_ms() - t0, k->num_regs, k->static_shared, k->local_bytes, k->max_threads);
    return k;
}

static CuDevPtr upload(const void *host, size_t n) {
    CuDevPtr p = 0;
    OK(cu_mem_alloc(dev, n, &p));
    if (p)
        OK(cu_memcpy_htod(dev, p, host, n, NULL));
    return p;
}

static unsigned blocks_for(size_t n, unsigned tpb) { return (unsigned)((n + tpb - 1) / tpb); }

static void report(const char *name, int before) {
    printf("%s %s\n", failures == before ? "ok  " : "FAIL", name);
}

/* ---- tests -------------------------------------------------------------------------------------- */
static void test_allocator(void) {
    int f0 = failures;
    CuMemStats s0, s1;
    cu_mem_stats(dev, &s0);
    CuDevPtr a = 0, b = 0, c = 0, z = 1;
    OK(cu_mem_alloc(dev, 1000, &a));
    OK(cu_mem_alloc(dev, 3 << 20, &b));
    OK(cu_mem_alloc(dev, 0, &z));
    CHECK(z == 0, "zero-byte allocation gives 0");
    OK(cu_mem_free(dev, a));
    OK(cu_mem_alloc(dev, 1024, &c)); /* same class as 1000: reused */
    CHECK(c == a, "a freed 1000-byte block should serve a 1024-byte request");
    OK(cu_mem_free(dev, b));
    CuDevPtr b2 = 0;
    OK(cu_mem_alloc(dev, (3 << 20) + 100, &b2)); /* rounds to the same 4 MiB class */
    CHECK(b2 == b, "a freed 4 MiB block should be reused");
    cu_mem_stats(dev, &s1);
    CHECK(s1.driver_allocs - s0.driver_allocs == 2, "2 driver allocations expected, got %ld",
          s1.driver_allocs - s0.driver_allocs);
    OK(cu_mem_free(dev, c));
    OK(cu_mem_free(dev, b2));
    OK(cu_mem_free(dev, 0));
    NjStatus st = cu_mem_free(dev, c);
    CHECK(st == NJ_ERR_ARGS && strstr(cu_error(), "freed twice"), "double free: %s", cu_error());
    OK(cu_mem_trim(dev));
    cu_mem_stats(dev, &s1);
    CHECK(s1.cached == 0, "trim leaves %zu bytes cached", s1.cached);
    st = cu_mem_alloc(dev, (size_t)1 << 50, &a);
    CHECK(st == NJ_ERR_NOMEM && strstr(cu_error(), "cuMemAlloc_v2") &&
              strstr(cu_error(), "CUDA_ERROR_OUT_OF_MEMORY"),
          "a 1 PiB allocation should fail with the call and error name: %s", cu_error());
    printf("     message: %s\n", cu_error());
    report("allocator (size classes, reuse, trim, double free, out of memory)", f0);
}

static void test_copies(void) {
    int f0 = failures;
    enum { N = 1 << 20 };
    unsigned char *h = malloc(N), *back = malloc(N);
    for (int i = 0; i < N; i++)
        h[i] = (unsigned char)(i * 7 + 3);
    CuDevPtr a = upload(h, N), b = 0;
    OK(cu_mem_alloc(dev, N, &b));
    OK(cu_memcpy_dtod(dev, b, a, N, NULL));
    memset(back, 0, N);
    OK(cu_memcpy_dtoh(dev, back, b, N, NULL));
    CHECK(!memcmp(h, back, N), "htod → dtod → dtoh round trip differs");
    OK(cu_memset8(dev, b + 100, 0xAB, 1000, NULL));
    OK(cu_memcpy_dtoh(dev, back, b, N, NULL));
    CHECK(back[99] == h[99] && back[100] == 0xAB && back[1099] == 0xAB && back[1100] == h[1100],
          "memset8 range wrong");
    /* async on a stream, pinned memory */
    CuStream s = NULL;
    void *pin = NULL;
    OK(cu_stream_new(dev, &s));
    OK(cu_host_alloc(dev, N, &pin));
    if (pin && s) {
        memcpy(pin, h, N);
        OK(cu_memcpy_htod(dev, b, pin, N, s));
        OK(cu_memset8(dev, a, 0, N, s));
        OK(cu_memcpy_dtod(dev, a, b, N, s));
        memset(pin, 0, N);
        OK(cu_memcpy_dtoh(dev, pin, a, N, s));
        OK(cu_stream_sync(dev, s));
        CHECK(!memcmp(pin, h, N), "async round trip on a stream differs");
    }
    OK(cu_host_free(dev, pin));
    OK(cu_stream_free(dev, s));
    OK(cu_mem_free(dev, a));
    OK(cu_mem_free(dev, b));
    free(h);
    free(back);
    report("copies (sync, async on a stream, pinned, memset)", f0);
}

static void test_axpy(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("axpy", k_axpy, false, &m);
    if (k) {
        size_t n = 1000003;
        float *x = malloc(n * 4), *y = malloc(n * 4), *r = malloc(n * 4);
        for (size_t i = 0; i < n; i++)
            x[i] = (float)i * 0.5f, y[i] = 1.0f - (float)(i % 100);
        CuDevPtr dx = upload(x, n * 4), dy = upload(y, n * 4);
        float a = 3.0f;
        int64_t shape = (int64_t)n, stride = 4;
        void *params[] = {&a, &dx, &shape, &stride, &dy, &shape, &stride};
        unsigned grid[3] = {blocks_for(n, 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_device_synchronize(dev));
        OK(cu_memcpy_dtoh(dev, r, dy, n * 4, NULL));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            if (fabsf(r[i] - (a * x[i] + y[i])) > 1e-6f * fabsf(a * x[i] + y[i]) + 1e-6f)
                bad++;
        CHECK(bad == 0, "axpy: %zu of %zu elements wrong", bad, n);
        int mg = 0, bs = 0;
        OK(cu_occupancy_block_size(k, 0, &mg, &bs));
        int per_sm = 0;
        OK(cu_occupancy_blocks_per_sm(k, 256, 0, &per_sm));
        printf("     occupancy: block %d (min grid %d); %d blocks of 256 per SM\n", bs, mg, per_sm);
        CHECK(bs > 0 && per_sm > 0, "occupancy API answers");

        /* the same kernel through the driver's linker: PTX → cubin → load */
        char *ptx = ptx_of("axpy", k_axpy, false);
        void *cubin = NULL;
        size_t nc = 0;
        double t0 = now_ms();
        if (ptx)
            OK(cu_link_ptx(dev, ptx, &cubin, &nc));
        double t1 = now_ms();
        CuModule *m2 = NULL;
        if (cubin)
            OK(cu_module_load_cubin(dev, cubin, nc, &m2));
        double t2 = now_ms();
        CuKernel *k2 = NULL;
        if (m2)
            OK(cu_module_kernel(m2, "axpy", &k2));
        if (k2) {
            printf("     cubin: %zu bytes, linked in %.1f ms, loaded in %.2f ms\n", nc, t1 - t0, t2 - t1);
            OK(cu_memcpy_htod(dev, dy, y, n * 4, NULL));
            OK(cu_launch(k2, grid, block, 0, NULL, params));
            OK(cu_memcpy_dtoh(dev, r, dy, n * 4, NULL));
            bad = 0;
            for (size_t i = 0; i < n; i++)
                if (fabsf(r[i] - (a * x[i] + y[i])) > 1e-6f * fabsf(a * x[i] + y[i]) + 1e-6f)
                    bad++;
            CHECK(bad == 0, "axpy from the cubin: %zu elements wrong", bad);
        }
        cu_module_free(m2);
        free(cubin);
        free(ptx);

        /* error paths of a launch, each naming the kernel */
        unsigned big[3] = {2048, 1, 1};
        NjStatus st = cu_launch(k, grid, big, 0, NULL, params);
        CHECK(st == NJ_ERR_ARGS && strstr(cu_error(), "'axpy'") && strstr(cu_error(), "2048"),
              "a 2048-thread block: %s", cu_error());
        printf("     message: %s\n", cu_error());
        unsigned tall[3] = {1, 1, 65}; /* z is at most 64: the driver refuses */
        st = cu_launch(k, grid, tall, 0, NULL, params);
        CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "cuLaunchKernel") && strstr(cu_error(), "'axpy'") &&
                  strstr(cu_error(), "CUDA_ERROR_INVALID_VALUE"),
              "a 1x1x65 block: %s", cu_error());
        printf("     message: %s\n", cu_error());
        OK(cu_device_synchronize(dev));
        OK(cu_mem_free(dev, dx));
        OK(cu_mem_free(dev, dy));
        free(x);
        free(y);
        free(r);
    }
    cu_module_free(m);
    report("axpy float32 (1-D grid, occupancy, cubin via cuLink, launch errors)", f0);
}

/* Events around a kernel on a stream, a stream waiting on another's event, an event without
 * timing, page-locked ranges of ordinary memory (cuMemHostRegister) mapped into the device,
 * cuMemGetInfo and attributes by number. */
static void test_events_host(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("axpy", k_axpy, false, &m);
    CuStream s1 = NULL, s2 = NULL;
    CuEvent e0 = NULL, e1 = NULL, nt = NULL;
    OK(cu_stream_new(dev, &s1));
    OK(cu_stream_new(dev, &s2));
    OK(cu_event_new(dev, true, &e0));
    OK(cu_event_new(dev, true, &e1));
    OK(cu_event_new(dev, false, &nt));
    size_t n = 1 << 24;
    float *x = malloc(n * 4), *r = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(i % 1000);
    CuDevPtr dx = upload(x, n * 4), dy = 0;
    OK(cu_mem_alloc(dev, n * 4, &dy));
    if (k && s1 && s2 && e0 && e1 && nt && dx && dy) {
        OK(cu_memset8(dev, dy, 0, n * 4, NULL));
        float a = 2.0f;
        int64_t shape = (int64_t)n, stride = 4;
        void *params[] = {&a, &dx, &shape, &stride, &dy, &shape, &stride};
        unsigned grid[3] = {blocks_for(n, 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_event_record(dev, e0, s1));
        for (int rep = 0; rep < 4; rep++)
            OK(cu_launch(k, grid, block, 0, s1, params)); /* y = 8 x */
        OK(cu_event_record(dev, e1, s1));
        OK(cu_event_record(dev, nt, s1));
        /* s2 copies y back only after s1's kernels: the event orders the streams */
        OK(cu_stream_wait_event(dev, s2, e1));
        OK(cu_memcpy_dtoh(dev, r, dy, n * 4, s2));
        OK(cu_stream_sync(dev, s2));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += r[i] != 8.0f * x[i];
        CHECK(bad == 0, "stream_wait_event: %zu of %zu elements read before the kernels ended", bad, n);
        OK(cu_event_sync(dev, e1));
        bool done = false;
        OK(cu_event_query(dev, e1, &done));
        CHECK(done, "a synchronized event queries as done");
        float ms = -1.0f;
        OK(cu_event_elapsed(dev, e0, e1, &ms));
        printf("     4 axpy launches over %zu floats: %.3f ms between the events\n", n, ms);
        CHECK(ms > 0.0f && ms < 10000.0f, "elapsed time %.3f ms", ms);
        NjStatus st = cu_event_elapsed(dev, e0, nt, &ms);
        CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "cuEventElapsedTime") &&
                  strstr(cu_error(), "CUDA_ERROR_INVALID_HANDLE"),
              "elapsed time to an event without timing: %s", cu_error());
        printf("     message: %s\n", cu_error());
        /* a query while a long kernel runs answers false without an error (not asserted:
         * the kernel may already be done) */
        for (int rep = 0; rep < 8; rep++)
            OK(cu_launch(k, grid, block, 0, s1, params));
        OK(cu_event_record(dev, e1, s1));
        OK(cu_event_query(dev, e1, &done));
        printf("     query right after 8 launches: %s\n", done ? "done" : "not ready");
        OK(cu_stream_sync(dev, s1));
    }
    /* page-locking an ordinary allocation, mapped: the kernel reads and writes it in place */
    size_t nh = 1 << 20;
    float *h = NULL;
    if (posix_memalign((void **)&h, 4096, nh * 4) == 0 && k) {
        for (size_t i = 0; i < nh; i++)
            h[i] = (float)i;
        bool reg = false, again = true;
        OK(cu_host_register(dev, h, nh * 4, true, &reg));
        CHECK(reg, "the range was registered");
        OK(cu_host_register(dev, h, nh * 4, true, &again));
        CHECK(!again, "a second registration is a no-op");
        CuDevPtr dh = 0;
        OK(cu_host_device_pointer(dev, h, &dh));
        if (reg && dh) {
            float a = 1.0f;
            int64_t shape = (int64_t)nh, stride = 4;
            void *params[] = {&a, &dh, &shape, &stride, &dh, &shape, &stride}; /* h += h */
            unsigned grid[3] = {blocks_for(nh, 256), 1, 1}, block[3] = {256, 1, 1};
            OK(cu_launch(k, grid, block, 0, NULL, params));
            OK(cu_device_synchronize(dev));
            size_t bad = 0;
            for (size_t i = 0; i < nh; i++)
                bad += h[i] != 2.0f * (float)i;
            CHECK(bad == 0, "mapped host memory: %zu elements wrong", bad);
        }
        if (reg)
            OK(cu_host_unregister(dev, h));
        NjStatus st = cu_host_unregister(dev, h);
        CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "cuMemHostUnregister"),
              "unregistering twice: %s", cu_error());
    }
    free(h);
    size_t fr = 0, tot = 0;
    OK(cu_mem_info(dev, &fr, &tot));
    CHECK(tot == cu_device_info(dev)->total_mem && fr > 0 && fr <= tot,
          "mem info: free %zu, total %zu", fr, tot);
    int sms = 0, warp = 0;
    OK(cu_device_attribute(dev, 16, &sms));
    OK(cu_device_attribute(dev, 10, &warp));
    CHECK(sms == cu_device_info(dev)->sm_count && warp == 32, "attributes: %d SMs, warp %d", sms, warp);
    NjStatus st = cu_device_attribute(dev, 100000, &sms);
    CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "cuDeviceGetAttribute"), "bad attribute: %s",
          cu_error());
    OK(cu_mem_free(dev, dx));
    OK(cu_mem_free(dev, dy));
    OK(cu_event_free(dev, e0));
    OK(cu_event_free(dev, e1));
    OK(cu_event_free(dev, nt));
    OK(cu_stream_free(dev, s1));
    OK(cu_stream_free(dev, s2));
    free(x);
    free(r);
    cu_module_free(m);
    report("events (record, wait, query, elapsed), registered host memory, mem info, attributes", f0);
}

static void test_block_sum(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("block_sum", k_block_sum, false, &m);
    if (k) {
        size_t n = 256 * 1000;
        float *x = malloc(n * 4), out = 0;
        double ref = 0;
        for (size_t i = 0; i < n; i++)
            x[i] = (float)((i % 17) * 0.25), ref += x[i];
        CuDevPtr dx = upload(x, n * 4), dout = upload(&out, 4);
        int64_t shape = (int64_t)n, one = 1, stride = 4;
        void *params[] = {&dx, &shape, &stride, &dout, &one, &stride};
        unsigned grid[3] = {(unsigned)(n / 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, &out, dout, 4, NULL));
        CHECK(fabs(out - ref) <= 1e-5 * ref, "block_sum: %.1f, expected %.1f", out, ref);
        OK(cu_mem_free(dev, dx));
        OK(cu_mem_free(dev, dout));
        free(x);
    }
    cu_module_free(m);
    report("block sum (shared memory, syncthreads, atomic float add)", f0);
}

static void test_trig(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("trig", k_trig, false, &m);
    if (k) {
        size_t n = 100000;
        double *x = malloc(n * 8), *y = malloc(n * 8), *r = malloc(n * 8);
        for (size_t i = 0; i < n; i++)
            x[i] = 0.001 + (double)i * 1e-3, y[i] = (double)(i % 7) * 0.3;
        CuDevPtr dx = upload(x, n * 8), dy = upload(y, n * 8), dr = 0;
        OK(cu_mem_alloc(dev, n * 8, &dr));
        int64_t shape = (int64_t)n, stride = 8;
        void *params[] = {&dx, &shape, &stride, &dy, &shape, &stride, &dr, &shape, &stride};
        unsigned grid[3] = {blocks_for(n, 128), 1, 1}, block[3] = {128, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, r, dr, n * 8, NULL));
        size_t bad = 0;
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            double m3 = fmod(x[i], 3.0);
            double e = sqrt(sin(x[i]) * cos(x[i]) + pow(x[i], y[i]) + m3);
            double rel = fabs(r[i] - e) / (fabs(e) + 1e-300);
            if (rel > worst)
                worst = rel;
            if (rel > 1e-13)
                bad++;
        }
        CHECK(bad == 0, "trig: %zu of %zu elements off by more than 1e-13 (worst %.3g)", bad, n, worst);
        printf("     worst relative error vs glibc: %.3g\n", worst);
        OK(cu_mem_free(dev, dx));
        OK(cu_mem_free(dev, dy));
        OK(cu_mem_free(dev, dr));
        free(x);
        free(y);
        free(r);
    }
    cu_module_free(m);
    report("float64 libdevice math (sin cos pow fmod sqrt)", f0);
}

static void test_fast(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("fast", k_fast, false, &m);
    if (k) {
        size_t n = 4096;
        float *x = malloc(n * 4), *r = malloc(n * 4);
        for (size_t i = 0; i < n; i++)
            x[i] = -3.0f + 6.0f * (float)i / (float)n;
        CuDevPtr dx = upload(x, n * 4), dr = 0;
        OK(cu_mem_alloc(dev, n * 4, &dr));
        int64_t shape = (int64_t)n, stride = 4;
        void *params[] = {&dx, &shape, &stride, &dr, &shape, &stride};
        unsigned grid[3] = {blocks_for(n, 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, r, dr, n * 4, NULL));
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            double e = tanh(sin(x[i]) / exp(x[i]));
            double d = fabs(r[i] - e);
            if (d > worst)
                worst = d;
        }
        CHECK(worst < 1e-4, "fastmath float32: worst absolute error %.3g", worst);
        printf("     worst absolute error (approximations): %.3g\n", worst);
        OK(cu_mem_free(dev, dx));
        OK(cu_mem_free(dev, dr));
        free(x);
        free(r);
    }
    cu_module_free(m);
    report("float32 fastmath (sin.approx, ex2.approx, div.approx)", f0);
}

static void test_atomics(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("atomics", k_atomics, false, &m);
    if (k) {
        int32_t i[2] = {3, 10};
        uint32_t u[2] = {4, 2};
        int64_t l[2] = {5, 100};
        float f[2] = {1.0f, 10.0f};
        double d[2] = {2.0, 0.5};
        CuDevPtr di = upload(i, 8), du = upload(u, 8), dl = upload(l, 16), df = upload(f, 8),
                 dd = upload(d, 16);
        int64_t two = 2, s4 = 4, s8 = 8;
        void *params[] = {&di, &two, &s4, &du, &two, &s4, &dl, &two, &s8,
                          &df, &two, &s4, &dd, &two, &s8};
        unsigned one[3] = {1, 1, 1};
        OK(cu_launch(k, one, one, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, i, di, 8, NULL));
        OK(cu_memcpy_dtoh(dev, u, du, 8, NULL));
        OK(cu_memcpy_dtoh(dev, l, dl, 16, NULL));
        OK(cu_memcpy_dtoh(dev, f, df, 8, NULL));
        OK(cu_memcpy_dtoh(dev, d, dd, 16, NULL));
        CHECK(i[0] == 17 && i[1] == 3, "int32 max/min/add: [%d, %d], expected [17, 3]", i[0], i[1]);
        CHECK(u[0] == 9 && u[1] == 2, "uint32 max/min: [%u, %u], expected [9, 2]", u[0], u[1]);
        CHECK(l[0] == 103 && l[1] == 95, "int64 cas/sub/add: [%lld, %lld], expected [103, 95]",
              (long long)l[0], (long long)l[1]);
        CHECK(f[0] == 2.5f && f[1] == 9.0f, "float32 exch/sub: [%g, %g], expected [2.5, 9]", f[0], f[1]);
        CHECK(d[0] == 3.5 && d[1] == 10.5, "float64 add/max: [%g, %g], expected [3.5, 10.5]", d[0], d[1]);
        OK(cu_mem_free(dev, di));
        OK(cu_mem_free(dev, du));
        OK(cu_mem_free(dev, dl));
        OK(cu_mem_free(dev, df));
        OK(cu_mem_free(dev, dd));
    }
    cu_module_free(m);
    report("atomics (max min add sub exch cas on int32 uint32 int64 float32 float64; old values)", f0);
}

static void test_hist(bool dynamic) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("hist", k_hist, dynamic, &m);
    if (k) {
        size_t n = 256 * 4096;
        uint8_t *x = malloc(n);
        int32_t bins[256] = {0}, ref[256] = {0};
        uint32_t s = 12345;
        for (size_t i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            x[i] = (uint8_t)((s >> 16) % 37 * 7);
            ref[x[i]]++;
        }
        CuDevPtr dx = upload(x, n), db = upload(bins, sizeof bins);
        int64_t shape = (int64_t)n, one = 1, nb = 256, s4 = 4;
        void *params[] = {&dx, &shape, &one, &db, &nb, &s4};
        unsigned grid[3] = {(unsigned)(n / 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_launch(k, grid, block, dynamic ? 256 * 4 : 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, bins, db, sizeof bins, NULL));
        int bad = 0;
        for (int i = 0; i < 256; i++)
            bad += bins[i] != ref[i];
        CHECK(bad == 0, "histogram: %d of 256 bins wrong", bad);
        OK(cu_mem_free(dev, dx));
        OK(cu_mem_free(dev, db));
        free(x);
    }
    cu_module_free(m);
    report(dynamic ? "histogram with dynamic shared memory (launch shared_bytes)"
                   : "histogram (shared-memory atomics under contention, uint8 loads)",
           f0);
}

static void test_local2d(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("local2d", k_local2d, false, &m);
    if (k) {
        int64_t rows = 100, cols = 70, nshift = 5;
        double *a = calloc((size_t)(rows * cols), 8);
        CuDevPtr da = upload(a, (size_t)(rows * cols) * 8);
        /* a Fortran-ordered (column-major) view: strides (8, 8*rows), layout A */
        int64_t s0 = 8, s1 = 8 * rows;
        void *params[] = {&da, &rows, &cols, &s0, &s1, &nshift};
        unsigned block[3] = {16, 8, 1};
        unsigned grid[3] = {blocks_for((size_t)cols, 16), blocks_for((size_t)rows, 8), 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, a, da, (size_t)(rows * cols) * 8, NULL));
        int bad = 0;
        for (int64_t y = 0; y < rows; y++)
            for (int64_t x = 0; x < cols; x++)
                bad += a[x * rows + y] != (double)(y * 16 + ((x + nshift) & 15));
        CHECK(bad == 0, "local2d: %d of %lld elements wrong", bad, (long long)(rows * cols));
        OK(cu_mem_free(dev, da));
        free(a);
    }
    cu_module_free(m);
    report("2-D grid over a strided array, per-thread local array", f0);
}

static void test_device_fn(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("apply", k_device, false, &m);
    if (k) {
        double x[64];
        for (int i = 0; i < 64; i++)
            x[i] = i + 0.25;
        CuDevPtr dx = upload(x, sizeof x);
        int64_t n = 64, s8 = 8;
        uint8_t twice = 1;
        void *params[] = {&dx, &n, &s8, &twice};
        unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        twice = 0; /* the value was captured at launch */
        OK(cu_launch(k, grid, block, 0, NULL, params));
        OK(cu_memcpy_dtoh(dev, x, dx, sizeof x, NULL));
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += x[i] != 2 * (i + 0.25);
        CHECK(bad == 0, "device function with a bool parameter: %d wrong", bad);
        OK(cu_mem_free(dev, dx));
    }
    cu_module_free(m);
    report("device function call, bool parameter as u8", f0);
}

static void test_round_trip(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("empty", k_empty, false, &m);
    if (k) {
        CuDevPtr dx = 0;
        int64_t n = 0, s = 4;
        void *params[] = {&dx, &n, &s};
        unsigned one[3] = {1, 1, 1};
        CuStream st = NULL;
        OK(cu_stream_new(dev, &st));
        for (int i = 0; i < 100; i++) { /* warm up */
            cu_launch(k, one, one, 0, st, params);
            cu_stream_sync(dev, st);
        }
        int iters = 2000;
        double t0 = now_ms();
        for (int i = 0; i < iters; i++) {
            cu_launch(k, one, one, 0, st, params);
            cu_stream_sync(dev, st);
        }
        double us = (now_ms() - t0) * 1e3 / iters;
        t0 = now_ms();
        for (int i = 0; i < iters; i++) {
            cu_launch(k, one, one, 0, NULL, params);
            cu_stream_sync(dev, NULL);
        }
        double us0 = (now_ms() - t0) * 1e3 / iters;
        /* the driver alone, for comparison: the overhead of this layer is the difference */
        typedef int (*LaunchFn)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                unsigned, void *, void **, void **);
        typedef int (*SyncFn)(void *);
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        LaunchFn launch = lib ? (LaunchFn)dlsym(lib, "cuLaunchKernel") : NULL;
        SyncFn sync = lib ? (SyncFn)dlsym(lib, "cuStreamSynchronize") : NULL;
        double usr = 0;
        if (launch && sync) {
            t0 = now_ms();
            for (int i = 0; i < iters; i++) {
                launch(k->fn, 1, 1, 1, 1, 1, 1, 0, st, params, NULL);
                sync(st);
            }
            usr = (now_ms() - t0) * 1e3 / iters;
        }
        printf("     launch + synchronize round trip: %.2f us on a stream, %.2f us on the default "
               "stream; raw driver calls %.2f us\n", us, us0, usr);
        OK(cu_stream_sync(dev, st));
        OK(cu_stream_free(dev, st));
    }
    cu_module_free(m);
    report("launch round trip of an empty kernel (timing only)", f0);
}

static void test_bad_modules(void) {
    int f0 = failures;
    CuModule *m = NULL;
    const char *bad_ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry broken()\n{\n\tthis is not ptx;\n\tret;\n}\n";
    NjStatus st = cu_module_load_ptx(dev, bad_ptx, &m);
    CHECK(st == NJ_ERR_CUDA && m == NULL && strstr(cu_error(), "cuModuleLoadDataEx") &&
              strstr(cu_error(), "JIT error log"),
          "bad PTX should fail with the JIT log: %s", cu_error());
    printf("     message: %.300s\n", cu_error());
    st = cu_module_load_cubin(dev, "not a cubin", 11, &m);
    CHECK(st == NJ_ERR_ARGS, "a non-ELF cubin is refused: %s", cu_error());
    CuKernel *k = load("axpy", k_axpy, false, &m);
    if (k) {
        CuKernel *nope = NULL;
        st = cu_module_kernel(m, "no_such_kernel", &nope);
        CHECK(st == NJ_ERR_CUDA && !nope && strstr(cu_error(), "cuModuleGetFunction") &&
                  strstr(cu_error(), "'no_such_kernel'") && strstr(cu_error(), "CUDA_ERROR_NOT_FOUND"),
              "missing kernel: %s", cu_error());
        printf("     message: %s\n", cu_error());
        CuKernel *again = NULL;
        OK(cu_module_kernel(m, "axpy", &again));
        CHECK(again == k, "kernel lookups are cached");
    }
    cu_module_free(m);
    report("module errors (bad PTX with the JIT log, non-cubin, missing kernel)", f0);
}

/* Last: an illegal address leaves the context unusable until the device is reset. */
static void test_illegal_address(void) {
    int f0 = failures;
    CuModule *m;
    CuKernel *k = load("axpy", k_axpy, false, &m);
    if (k) {
        float a = 1.0f;
        CuDevPtr bogus = 0x10;
        int64_t n = 1 << 20, s4 = 4;
        void *params[] = {&a, &bogus, &n, &s4, &bogus, &n, &s4};
        unsigned grid[3] = {(unsigned)(n / 256), 1, 1}, block[3] = {256, 1, 1};
        OK(cu_launch(k, grid, block, 0, NULL, params));
        NjStatus st = cu_device_synchronize(dev);
        CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "CUDA_ERROR_ILLEGAL_ADDRESS") &&
                  strstr(cu_error(), "after kernel 'axpy'"),
              "an illegal address should name the kernel: %s", cu_error());
        printf("     message: %s\n", cu_error());
        CHECK(cu_device_broken(dev), "the device is marked unusable");
    }
    cu_module_free(m);
    CuDevPtr p = 0;
    NjStatus st = cu_mem_alloc(dev, 1024, &p);
    CHECK(st == NJ_ERR_CUDA && strstr(cu_error(), "unusable since an earlier error") &&
              strstr(cu_error(), "'axpy'"),
          "calls on a broken device repeat the first error: %s", cu_error());
    printf("     message: %s\n", cu_error());
    st = cu_device_reset(dev);
    if (st == NJ_OK) {
        CHECK(!cu_device_broken(dev), "usable again after the reset");
        test_axpy(); /* everything works again */
    } else {
        CHECK(strstr(cu_error(), "restart the process") != NULL, "reset failure says why: %s",
              cu_error());
        printf("     the driver does not recover in-process: %s\n", cu_error());
    }
    report("illegal address: names the kernel, later calls repeat it, reset recovers or says to restart", f0);
}

int main(void) {
    NjStatus st = cu_init();
    if (st != NJ_OK) {
        printf("skipped: %s\n", cu_error());
        return 77;
    }
    int n = 0;
    st = cu_device_count(&n);
    if (st != NJ_OK || n == 0) {
        printf("skipped: no CUDA device (%s)\n", st ? cu_error() : "count 0");
        return 77;
    }
    st = cu_device_get(0, &dev);
    if (st != NJ_OK) {
        printf("FAIL device 0: %s\n", cu_error());
        return 1;
    }
    const CuDeviceInfo *I = cu_device_info(dev);
    max_ptx = cu_driver_max_ptx();
    snprintf(arch, sizeof arch, "%s", I->arch);
    if (!cg_ptx_version(arch, max_ptx)) { /* newer than LLVM 19 knows: PTX for sm_90 JITs forward */
        const char *fallbacks[] = {"sm_90", "sm_89", "sm_86", "sm_80", "sm_75"};
        for (int i = 0; i < 5; i++)
            if (cg_ptx_version(fallbacks[i], max_ptx)) {
                snprintf(arch, sizeof arch, "%s", fallbacks[i]);
                break;
            }
    }
    printf("device 0: %s, %s, %d SMs, %.1f GiB, driver %d (PTX <= %d.%d); generating for %s "
           "with PTX %d.%d\nlibdevice: %s\n",
           I->name, I->arch, I->sm_count, I->total_mem / 1073741824.0, cu_driver_version(),
           max_ptx / 10, max_ptx % 10, arch, cg_ptx_version(arch, max_ptx) / 10,
           cg_ptx_version(arch, max_ptx) % 10, cg_libdevice_path() ? cg_libdevice_path() : "(none)");
    CHECK(I->warp_size == 32 && I->max_threads_per_block >= 1024, "device attributes");
    test_allocator();
    test_copies();
    test_axpy();
    test_events_host();
    test_block_sum();
    if (cg_libdevice_path()) {
        test_trig();
        test_fast();
    } else {
        printf("skip math kernels: libdevice.10.bc not found\n");
    }
    test_atomics();
    test_hist(false);
    test_hist(true);
    test_local2d();
    test_device_fn();
    test_bad_modules();
    test_round_trip();
    test_illegal_address();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* parfor.c — the runtime of parallel loops: CG_PARFOR_SYMBOL (codegen.h), which compiled code of
 * an @njit(parallel=True) function calls for each prange loop.
 *
 * The n iterations are cut into consecutive chunks, threads * PARFOR_CHUNKS_PER_THREAD of them
 * (at most n): the cut depends only on n and the thread count, never on timing, so a float
 * reduction gives the same result on every run, whether the chunks ran on the pool or on the
 * calling thread.  Each chunk writes its partial reductions into a slot of its own (64-byte
 * strides: no two threads write one cache line); the generated combine function folds the
 * slots into the reduction variables in chunk order, on the calling thread.
 *
 * Threads or not: the pool pays off only when the loop is long enough to hide waking the
 * workers (docs/design-notes.md, "Serial or parallel").  Each loop has a state word in the
 * generated code: the cost of one iteration (picoseconds) seen on the calling thread and a call
 * count.  Without an estimate (the first call, and every 64th, to notice a change) chunk 0 runs
 * first on the calling thread, timed, and the rest go to the pool when their estimated serial
 * time is at least PARFOR_MIN_NS; with one, a loop estimated that long goes to the pool whole,
 * and a shorter one runs on the calling thread, timed again; a pooled run's time times the
 * number of threads caps the estimate (threads never do better than divide the work), so an
 * estimate that came out too high is corrected at the next call.  A busy pool (a parallel loop
 * inside a parallel loop, another thread's job) runs the chunks on the caller (pool.c).
 *
 * Errors: a chunk stops at its first raise and records the status; chunks after the lowest
 * failing one are skipped, the ones before it run to their end, and the status returned is the
 * lowest failing chunk's: the raise of the first iteration, in loop order, that raised, which
 * is what the serial loop reports.  The reductions are then not combined.
 */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PARFOR_CHUNKS_PER_THREAD 8
#define PARFOR_MAX_CHUNKS 2048
#define PARFOR_MIN_NS 50000.0 /* serial time below which the loop stays on the caller */
#define PARFOR_SLOT_ALIGN 64
#define PARFOR_STACK_BYTES 8192

typedef struct ParJob {
    CgParforChunk chunk;
    void *closure;
    int64_t base, rem; /* chunk k is [k * base + min(k, rem), ... + base + (k < rem)) */
    char *slots;
    int64_t stride;
    int32_t *status;
    int *tid;
    atomic_int fail_at; /* the lowest chunk that failed, nchunks while none */
} ParJob;

static atomic_int next_tid;
static _Thread_local int my_tid;

static void run_chunk(ParJob *J, int k) {
    if (k > atomic_load_explicit(&J->fail_at, memory_order_relaxed))
        return; /* a chunk before it failed: the loop's result is that error */
    if (!my_tid)
        my_tid = atomic_fetch_add(&next_tid, 1) + 1;
    J->tid[k] = my_tid;
    int64_t lo = k * J->base + (k < J->rem ? k : J->rem);
    int64_t hi = lo + J->base + (k < J->rem);
    int32_t st = J->chunk(J->closure, lo, hi, J->slots + k * J->stride);
    J->status[k] = st;
    if (st) {
        int cur = atomic_load(&J->fail_at);
        while (k < cur && !atomic_compare_exchange_weak(&J->fail_at, &cur, k))
            ;
    }
}

typedef struct PoolArg {
    ParJob *J;
    int first; /* pool chunk j is chunk first + j */
} PoolArg;

static void pool_chunk(void *arg, int j) {
    PoolArg *A = arg;
    run_chunk(A->J, A->first + j);
}

/* ---- statistics (nj_parfor_stats) -------------------------------------------------------- */
static _Atomic int64_t stat_loops, stat_pooled;
static atomic_int stat_chunks, stat_threads;

void nj_parfor_stats(NjParforStats *out) {
    if (!out)
        return;
    out->loops = atomic_load(&stat_loops);
    out->pooled = atomic_load(&stat_pooled);
    out->chunks = atomic_load(&stat_chunks);
    out->threads = atomic_load(&stat_threads);
}

static void note_stats(const ParJob *J, int nchunks, bool pooled) {
    int seen[PARFOR_MAX_CHUNKS], nseen = 0;
    for (int k = 0; k < nchunks; k++) {
        if (!J->tid[k])
            continue; /* skipped after an error */
        bool dup = false;
        for (int i = 0; i < nseen && !dup; i++)
            dup = seen[i] == J->tid[k];
        if (!dup)
            seen[nseen++] = J->tid[k];
    }
    atomic_fetch_add(&stat_loops, 1);
    if (pooled)
        atomic_fetch_add(&stat_pooled, 1);
    atomic_store(&stat_chunks, nchunks);
    atomic_store(&stat_threads, nseen);
}

/* ---- the loop ------------------------------------------------------------------------------ */
static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The state word: picoseconds per iteration (high 32 bits, 0: unknown), calls (low 32). */
static uint64_t state_make(double ps, uint32_t calls) {
    uint64_t p = ps < 1 ? 1 : ps > 4e9 ? 4000000000u : (uint64_t)ps;
    return p << 32 | calls;
}

int32_t rt_parfor_run(CgParforChunk chunk, CgParforCombine combine, void *closure, int64_t n,
                      int64_t slot_size, uint64_t *state) {
    if (n <= 0)
        return 0;
    int threads = rt_pool_threads();
    int64_t want = threads <= 1 ? 1 : (int64_t)threads * PARFOR_CHUNKS_PER_THREAD;
    if (want > PARFOR_MAX_CHUNKS)
        want = PARFOR_MAX_CHUNKS;
    int nchunks = (int)(n < want ? n : want);
    int64_t stride = (slot_size + PARFOR_SLOT_ALIGN - 1) / PARFOR_SLOT_ALIGN * PARFOR_SLOT_ALIGN;
    if (stride < PARFOR_SLOT_ALIGN)
        stride = PARFOR_SLOT_ALIGN;
    size_t per_chunk = (size_t)stride + sizeof(int32_t) + sizeof(int);
    _Alignas(PARFOR_SLOT_ALIGN) char stack[PARFOR_STACK_BYTES];
    char *mem = stack;
    if ((size_t)nchunks * per_chunk > sizeof stack) {
        mem = aligned_alloc(PARFOR_SLOT_ALIGN,
                            ((size_t)nchunks * per_chunk + PARFOR_SLOT_ALIGN - 1) /
                                PARFOR_SLOT_ALIGN * PARFOR_SLOT_ALIGN);
        if (!mem) { /* no memory for the slots: one chunk, on this thread */
            mem = stack;
            nchunks = 1;
        }
    }
    ParJob J = {.chunk = chunk, .closure = closure, .base = n / nchunks, .rem = n % nchunks,
                .slots = mem, .stride = stride};
    J.status = (int32_t *)(mem + (size_t)nchunks * (size_t)stride);
    J.tid = (int *)(J.status + nchunks);
    memset(J.status, 0, (size_t)nchunks * (sizeof(int32_t) + sizeof(int)));
    atomic_init(&J.fail_at, nchunks);

    uint64_t s = state ? __atomic_load_n(state, __ATOMIC_RELAXED) : 0;
    uint32_t calls = (uint32_t)s + 1;
    double ps = (double)(s >> 32);
    bool pooled = false;
    int first = 0; /* chunks before it have run */
    if (nchunks > 1 && threads > 1) {
        if (!ps || (calls & 63) == 0) { /* measure chunk 0, then decide for the rest */
            double t0 = now_ns();
            run_chunk(&J, 0);
            double t = now_ns() - t0;
            int64_t iters = J.base + (J.rem > 0);
            ps = t * 1e3 / (double)iters;
            first = 1;
            if (state)
                __atomic_store_n(state, state_make(ps, calls), __ATOMIC_RELAXED);
            pooled = !J.status[0] && t * (double)(nchunks - 1) >= PARFOR_MIN_NS;
        } else {
            pooled = ps * 1e-3 * (double)n >= PARFOR_MIN_NS;
            if (state && pooled)
                __atomic_store_n(state, state_make(ps, calls), __ATOMIC_RELAXED);
        }
    }
    if (pooled) {
        /* threads can at best divide the serial time: the pooled time times the threads
         * bounds the serial cost from above, so an estimate too high (a noisy first probe)
         * comes down at once and the next call measures serially */
        PoolArg A = {&J, first};
        double t0 = now_ns();
        rt_pool_run(nchunks - first, pool_chunk, &A);
        int64_t done = n - (first ? J.base + (J.rem > 0) : 0);
        double bound = (now_ns() - t0) * 1e3 * threads / (double)(done > 0 ? done : 1);
        if (state && bound < ps)
            __atomic_store_n(state, state_make(bound, calls), __ATOMIC_RELAXED);
    } else if (first < nchunks && !J.status[0]) {
        double t0 = now_ns();
        for (int k = first; k < nchunks && atomic_load(&J.fail_at) == nchunks; k++)
            run_chunk(&J, k);
        if (state && first == 0 && atomic_load(&J.fail_at) == nchunks)
            __atomic_store_n(state, state_make((now_ns() - t0) * 1e3 / (double)n, calls),
                             __ATOMIC_RELAXED);
    }
    note_stats(&J, nchunks, pooled);
    int fail = atomic_load(&J.fail_at);
    int32_t st = fail < nchunks ? J.status[fail] : 0;
    if (!st && combine)
        for (int k = 0; k < nchunks; k++)
            combine(closure, J.slots + k * J.stride);
    if (mem != stack)
        free(mem);
    return st;
}

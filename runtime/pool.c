/* pool.c — the thread pool of target 'parallel'.
 *
 * One process-wide pool of worker threads, started lazily and grown on demand up to the
 * configured count minus one (the calling thread is always one of the workers).  The size is
 * the machine's online cores by default, NUMJIT_NUM_THREADS when set, or nj_set_num_threads(n).
 *
 * A job is (fn, arg, nchunks).  rt_pool_run publishes it under the pool mutex with a new
 * generation number and wakes the workers.  Chunks are claimed from one 64-bit ticket holding
 * (generation << 32 | next chunk) by compare-and-swap, so a worker that wakes late — even
 * after its job is over and another has begun — can never run a chunk of a job that is not
 * the current one.  The caller claims chunks too and then waits only for the chunks that were
 * claimed to finish, never for a sleeping worker to wake: on a loaded machine a job costs at
 * most what running it alone costs.  Workers poll for POOL_SPIN_NS after a job before
 * sleeping, so back-to-back parallel calls do not pay a futex wake-up each; rt_pool_hot says
 * whether they are polling now (a short job pays off only then), rt_pool_warm wakes them
 * without a job, for a caller that expects to have short jobs back to back.  One job runs at a time: a second caller (a
 * thread of its own, or a ufunc called inside a chunk) finds the run lock taken and runs its
 * chunks serially, which is never a deadlock and never slower than target 'cpu'.
 */
#include "runtime.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define POOL_MAX 256
/* A worker polls this long after a job before sleeping.  Waking a sleeping thread here costs
 * tens of microseconds, at times more than a call's work (a 25 us gufunc call measured no faster
 * on a pool woken for it), so calls a few milliseconds apart must find the workers polling; the
 * polls yield, so a polling worker costs other threads little.  OpenMP's default is similar
 * (Numba's OpenMP workers poll ~8 ms after a job, measured here). */
#define POOL_SPIN_NS 5000000

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;  /* guards job_* and nworkers */
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER;
static int nworkers; /* started */
static _Atomic uint32_t generation;
static void (*job_fn)(void *, int);
static void *job_arg;
static int job_chunks, job_workers;
static _Atomic uint64_t ticket; /* generation << 32 | next chunk */
static atomic_int job_done;     /* chunks finished in the current job */
static atomic_int want_threads; /* 0: default */
static atomic_int spinning;     /* workers polling for the next job */
static int default_threads;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void read_defaults(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    default_threads = n > 0 ? (int)(n > POOL_MAX ? POOL_MAX : n) : 1;
    const char *e = getenv("NUMJIT_NUM_THREADS");
    if (e && *e) {
        long v = strtol(e, NULL, 10);
        if (v > 0)
            default_threads = (int)(v > POOL_MAX ? POOL_MAX : v);
    }
}

void nj_set_num_threads(int n) {
    atomic_store(&want_threads, n < 0 ? 0 : n > POOL_MAX ? POOL_MAX : n);
}

int nj_get_num_threads(void) {
    pthread_once(&defaults_once, read_defaults);
    int n = atomic_load(&want_threads);
    return n > 0 ? n : default_threads;
}

int rt_pool_threads(void) { return nj_get_num_threads(); }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Claims and runs chunks of job `gen` until none are left. */
static void take_chunks(uint32_t gen, void (*fn)(void *, int), void *arg, int n) {
    uint64_t t = atomic_load(&ticket);
    for (;;) {
        if ((uint32_t)(t >> 32) != gen || (int)(uint32_t)t >= n)
            return;
        if (!atomic_compare_exchange_weak(&ticket, &t, t + 1))
            continue;
        fn(arg, (int)(uint32_t)t);
        atomic_fetch_add_explicit(&job_done, 1, memory_order_release);
        t = atomic_load(&ticket);
    }
}

static void *worker(void *p) {
    int id = (int)(intptr_t)p;
    uint32_t seen = atomic_load(&generation);
    for (;;) {
        atomic_fetch_add(&spinning, 1);
        int64_t until = mono_ns() + POOL_SPIN_NS;
        for (int i = 1; atomic_load_explicit(&generation, memory_order_acquire) == seen; i++) {
            /* pause a little, then yield between polls: a worker the scheduler put on the
             * caller's core must not take that core's time from the caller */
            if (i < 256)
                cpu_relax();
            else
                sched_yield();
            if (!(i & 63) && mono_ns() > until)
                break;
        }
        atomic_fetch_sub(&spinning, 1);
        if (atomic_load_explicit(&generation, memory_order_acquire) != seen) {
            /* a job came while polling: the caller holds pool_mu for a moment only, and
             * sleeping on the mutex would cost a wake-up as long as the job */
            while (pthread_mutex_trylock(&pool_mu))
                cpu_relax();
        } else {
            pthread_mutex_lock(&pool_mu);
        }
        while (atomic_load(&generation) == seen)
            pthread_cond_wait(&pool_wake, &pool_mu);
        seen = atomic_load(&generation);
        void (*fn)(void *, int) = job_fn;
        void *arg = job_arg;
        int n = job_chunks;
        bool part = id < job_workers;
        pthread_mutex_unlock(&pool_mu);
        if (part)
            take_chunks(seen, fn, arg, n);
    }
    return NULL;
}

/* Starts workers up to `want` (pool_mu held).  Returns how many there are. */
static int grow(int want) {
    while (nworkers < want) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &at, worker, (void *)(intptr_t)nworkers);
        pthread_attr_destroy(&at);
        if (rc)
            break;
        nworkers++;
    }
    return nworkers;
}

/* Publishes job (fn, arg, nchunks) to the workers, started up to threads - 1, and wakes them
 * (run_lock held).  Returns its generation.  No chunks (an empty job) only wakes them. */
static uint32_t publish(int threads, int nchunks, void (*fn)(void *, int), void *arg) {
    pthread_mutex_lock(&pool_mu);
    int w = grow(threads - 1);
    job_workers = nchunks ? (w < threads - 1 ? w : threads - 1) : 0;
    job_fn = fn;
    job_arg = arg;
    job_chunks = nchunks;
    atomic_store(&job_done, 0);
    uint32_t gen = atomic_load(&generation) + 1;
    atomic_store(&ticket, (uint64_t)gen << 32);
    atomic_store_explicit(&generation, gen, memory_order_release);
    pthread_cond_broadcast(&pool_wake);
    pthread_mutex_unlock(&pool_mu);
    return gen;
}

void rt_pool_run(int nchunks, void (*fn)(void *arg, int k), void *arg) {
    int threads = nj_get_num_threads();
    if (nchunks <= 1 || threads <= 1 || pthread_mutex_trylock(&run_lock)) {
        for (int k = 0; k < nchunks; k++)
            fn(arg, k);
        return;
    }
    uint32_t gen = publish(threads, nchunks, fn, arg);
    take_chunks(gen, fn, arg, nchunks);
    /* every chunk is claimed; wait for the ones other threads are running */
    for (long spins = 0; atomic_load_explicit(&job_done, memory_order_acquire) < nchunks; spins++) {
        if (spins < 20000)
            cpu_relax();
        else
            sched_yield();
    }
    pthread_mutex_unlock(&run_lock);
}

bool rt_pool_hot(void) {
    int threads = nj_get_num_threads();
    return threads > 1 && atomic_load_explicit(&spinning, memory_order_relaxed) >= threads - 1;
}

void rt_pool_warm(void) {
    int threads = nj_get_num_threads();
    if (threads <= 1 || rt_pool_hot() || pthread_mutex_trylock(&run_lock))
        return;
    /* an empty job: the workers wake, find no chunk and poll for the next one */
    publish(threads, 0, NULL, NULL);
    pthread_mutex_unlock(&run_lock);
}

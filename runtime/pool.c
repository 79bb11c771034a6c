/* pool.c — the thread pool of target 'parallel'.
 *
 * One process-wide pool of worker threads, started lazily and grown on demand up to the
 * configured count minus one (the calling thread is always the last worker).  The size is the
 * machine's online cores by default, NUMJIT_NUM_THREADS when set, or nj_set_num_threads(n).
 *
 * A job is (fn, arg, nchunks).  rt_pool_run publishes it under the pool mutex by bumping a
 * generation number and waking the workers; every participant (workers and caller) takes
 * chunk numbers from one atomic counter until they run out, so a worker that wakes late simply
 * finds less to do.  The caller then waits until every worker has left the job.  Workers spin
 * briefly on the generation number before sleeping, so back-to-back parallel calls do not pay
 * a futex wake-up each.  Only one job runs at a time: a second caller (another thread, or a
 * ufunc called from inside a chunk) finds the run lock taken and runs its chunks serially,
 * which is never a deadlock and never slower than target 'cpu'.
 */
#include "runtime.h"

#include <stdlib.h>
#include <unistd.h>

#define POOL_MAX 256
#define POOL_SPIN 4000 /* polls of the generation number before sleeping */

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;  /* guards the fields below */
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pool_done = PTHREAD_COND_INITIALIZER;
static int nworkers;           /* started */
static int use_workers;        /* taking part in the current job */
static int active;             /* workers still inside the current job */
static _Atomic unsigned long generation;
static void (*job_fn)(void *, int);
static void *job_arg;
static int job_chunks;
static atomic_int job_next;
static atomic_int want_threads; /* 0: default */
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

static void take_chunks(void (*fn)(void *, int), void *arg, int n) {
    for (int k = atomic_fetch_add(&job_next, 1); k < n; k = atomic_fetch_add(&job_next, 1))
        fn(arg, k);
}

static void *worker(void *p) {
    int id = (int)(intptr_t)p;
    unsigned long seen = 0;
    for (;;) {
        /* spin a little: the next job often follows at once */
        for (int i = 0; i < POOL_SPIN && atomic_load_explicit(&generation, memory_order_acquire) == seen; i++) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        pthread_mutex_lock(&pool_mu);
        while (atomic_load(&generation) == seen)
            pthread_cond_wait(&pool_wake, &pool_mu);
        seen = atomic_load(&generation);
        void (*fn)(void *, int) = job_fn;
        void *arg = job_arg;
        int n = job_chunks;
        bool part = id < use_workers;
        pthread_mutex_unlock(&pool_mu);
        if (part)
            take_chunks(fn, arg, n);
        pthread_mutex_lock(&pool_mu);
        if (--active == 0)
            pthread_cond_signal(&pool_done);
        pthread_mutex_unlock(&pool_mu);
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

void rt_pool_run(int nchunks, void (*fn)(void *arg, int k), void *arg) {
    int threads = nj_get_num_threads();
    if (nchunks <= 1 || threads <= 1 || pthread_mutex_trylock(&run_lock)) {
        for (int k = 0; k < nchunks; k++)
            fn(arg, k);
        return;
    }
    pthread_mutex_lock(&pool_mu);
    int w = grow(threads - 1);
    use_workers = w < threads - 1 ? w : threads - 1;
    job_fn = fn;
    job_arg = arg;
    job_chunks = nchunks;
    atomic_store(&job_next, 0);
    active = nworkers;
    atomic_fetch_add_explicit(&generation, 1, memory_order_release);
    pthread_cond_broadcast(&pool_wake);
    pthread_mutex_unlock(&pool_mu);

    take_chunks(fn, arg, nchunks);

    pthread_mutex_lock(&pool_mu);
    while (active > 0)
        pthread_cond_wait(&pool_done, &pool_mu);
    pthread_mutex_unlock(&pool_mu);
    pthread_mutex_unlock(&run_lock);
}

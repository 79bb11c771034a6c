/* ufunc_exec.c — the ufunc/gufunc executor: one resolved inner loop run over arrays.
 *
 * The algorithm, NumPy's:
 *  1. Split every operand's shape into outer dimensions and core dimensions (gufuncs: the last
 *     core_n[k]; ufuncs: none).  Bind core dimensions by name and check that they agree.
 *  2. Broadcast the outer shapes, right-aligned (a missing or size-1 dimension gets stride 0);
 *     out= arrays must have exactly the broadcast outer shape.
 *  3. Choose the iteration order: dimensions sorted by the operands' summed |stride|, largest
 *     outermost (stable, so C order stays C and F-ordered operands iterate along memory).
 *     Allocated outputs are laid out contiguously in that order (NumPy's order='K').
 *  4. Collapse: drop size-1 dimensions, and merge neighbours i, i+1 when every operand has
 *     stride[i] == stride[i+1] * shape[i+1]: a contiguous 2-D problem becomes one long loop.
 *  5. The innermost dimension goes to the loop (dims[0], steps[0..nargs-1]; gufuncs append
 *     the core sizes and each parameter's core strides); the outer ones are iterated here with
 *     an index vector and per-operand pointers.  Work is the flattened index range
 *     [0, total): a thread runs a sub-range, starting in the middle of a row if need be, so
 *     the same code serves one thread and many.  Chunks are split at multiples of 64 bytes of
 *     the first output so two threads never write one cache line; problems below
 *     EXEC_PAR_MIN elements stay serial, and so do larger ones whose measured serial cost is
 *     too small for threads to pay off (run_plan).
 * Nothing on this path allocates unless an output is allocated: every table is on the stack
 * (NJ_MAX_NDIM dims, RT_UF_MAXARGS operands).
 *
 * Reduce runs the binary loop as a three-operand elementwise problem (out, in, out) over the
 * input's shape with out's stride 0 along the axis, after initializing out from the first
 * slice (or the identity): NumPy's trick.  It is serial (the axis carries a dependency).
 */
#include "runtime.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXEC_PAR_MIN 32768   /* elements; below this 'parallel' runs on one thread */
#define EXEC_CHUNK_MIN 8192  /* elements per chunk at least */
#define MAXD (NJ_MAX_NDIM + 1)
#define MAXCORE (RT_UF_MAXARGS * NJ_MAX_NDIM)

typedef struct Plan {
    CgLoop fn;
    void *data;
    int nargs;
    int nd;                                 /* outer dims after collapse (>= 1) */
    int64_t shape[MAXD];
    int64_t strides[MAXD][RT_UF_MAXARGS];   /* [dim][operand] */
    char *base[RT_UF_MAXARGS];
    int ndims;                              /* entries of dims (1 + core sizes) */
    int64_t dims[1 + MAXCORE];
    int nsteps;
    int64_t steps[RT_UF_MAXARGS + MAXCORE]; /* inner steps, then core strides */
    int64_t total;
    int64_t work;                           /* work per element: 1, or a gufunc's core size */
    int64_t align;                          /* chunk granularity in elements */
} Plan;

/* ---- errors ---------------------------------------------------------------------------------- */
static void put_shape(StrBuf *sb, const int64_t *shape, int nd) {
    sb_putc(sb, '(');
    for (int i = 0; i < nd; i++)
        sb_printf(sb, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (nd == 1)
        sb_putc(sb, ',');
    sb_putc(sb, ')');
}

static NjStatus broadcast_error(NjContext *ctx, const char *name, const NjArray *ins, int nin) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "error: %s(): operands could not be broadcast together with shapes", name);
    for (int k = 0; k < nin; k++) {
        sb_putc(&sb, ' ');
        put_shape(&sb, ins[k].shape, ins[k].ndim);
    }
    rt_set_error(ctx, sb.data ? sb.data : "error: broadcast");
    sb_free(&sb);
    return NJ_ERR_ARGS;
}

/* ---- the iteration --------------------------------------------------------------------------- */
/* Runs the flattened index range [start, end) of plan P. */
static void run_range(const Plan *P, int64_t start, int64_t end) {
    int nd = P->nd, na = P->nargs;
    int64_t inner = P->shape[nd - 1];
    int64_t idx[MAXD];
    char *row[RT_UF_MAXARGS], *ptr[RT_UF_MAXARGS];
    int64_t dims[1 + MAXCORE];
    memcpy(dims, P->dims, sizeof(int64_t) * (size_t)P->ndims);
    int64_t r = 0, off = 0;
    for (int k = 0; k < na; k++)
        row[k] = P->base[k];
    if (start) {
        r = start / inner;
        off = start % inner;
    }
    for (int d = nd - 2; d >= 0; d--) {
        idx[d] = r ? r % P->shape[d] : 0;
        r = r ? r / P->shape[d] : 0;
        for (int k = 0; k < na && idx[d]; k++)
            row[k] += idx[d] * P->strides[d][k];
    }
    const int64_t *istep = P->strides[nd - 1];
    int64_t pos = start;
    for (;;) {
        int64_t cnt = inner - off;
        if (cnt > end - pos)
            cnt = end - pos;
        for (int k = 0; k < na; k++)
            ptr[k] = row[k] + off * istep[k];
        dims[0] = cnt;
        P->fn(ptr, dims, P->steps, P->data);
        pos += cnt;
        if (pos >= end)
            return;
        off = 0;
        for (int d = nd - 2; d >= 0; d--) {
            for (int k = 0; k < na; k++)
                row[k] += P->strides[d][k];
            if (++idx[d] < P->shape[d])
                break;
            for (int k = 0; k < na; k++)
                row[k] -= P->strides[d][k] * P->shape[d];
            idx[d] = 0;
        }
    }
}

typedef struct ParJob {
    const Plan *P;
    int64_t chunk; /* elements per chunk, a multiple of P->align */
} ParJob;

static void par_chunk(void *arg, int k) {
    const ParJob *J = arg;
    int64_t s = (int64_t)k * J->chunk, e = s + J->chunk;
    if (e > J->P->total)
        e = J->P->total;
    if (s < e)
        run_range(J->P, s, e);
}

/* ---- serial or parallel -----------------------------------------------------------------------
 * Threads pay off only when the serial run is long enough to hide waking them and the cache
 * lines they share: a light loop on 1e5 float32 elements (~30 us) measured 2x slower on two
 * threads than on one, a transcendental one of the same size (~400 us) 1.8x faster.  So each
 * (loop, size class) keeps what its runs cost, in picoseconds per element: serial (the lowest
 * seen, refreshed by every serial run) and parallel.  A parallel-eligible problem runs on the
 * pool only when its serial estimate is at least EXEC_PAR_MIN_NS and parallel runs of its size
 * class have not been slower; the first run of a class is serial (it measures), and every 64th
 * eligible run goes the other way so that a changed machine is noticed.  The table is a fixed
 * set of slots, lock-free, its races benign (a lost update costs one estimate). */
#define EXEC_PAR_MIN_NS 50000.0
#define EXEC_PAR_HOT_NS 8000.0       /* the bound while the pool's workers poll for work */
#define EXEC_BACK_TO_BACK_NS 100000.0 /* calls this close keep the pool polling */
#define EXEC_HOT_TRIAL 4             /* parallel runs of a trial on a polling pool */
#define EST_SLOTS 512

typedef struct Est {
    _Atomic uintptr_t key;        /* loop address ^ size class; 0: free */
    _Atomic uint32_t serial_ps, par_ps, calls;
    _Atomic uint32_t hot_ps;      /* parallel on a polling pool: the recent average */
    _Atomic uint32_t trial;       /* parallel runs left before hot_ps is a verdict */
    _Atomic uint64_t last_ns;     /* when the last call began */
} Est;

static Est est_table[EST_SLOTS];

static Est *est_of(CgLoop fn, int64_t total) {
    int cls = 0;
    for (int64_t t = total; t > 1; t >>= 2)
        cls++; /* size classes of powers of 4 */
    uintptr_t key = ((uintptr_t)fn ^ (uintptr_t)cls << 56) | 1;
    size_t h = (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull >> 55) % EST_SLOTS;
    for (int probe = 0; probe < 8; probe++) {
        Est *e = &est_table[(h + (size_t)probe) % EST_SLOTS];
        uintptr_t k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == key)
            return e;
        uintptr_t zero = 0;
        if (!k && atomic_compare_exchange_strong(&e->key, &zero, key))
            return e;
        if (zero == key)
            return e;
    }
    return NULL; /* table full here: no estimate, parallel as asked */
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint32_t ps_per_elem(double ns, int64_t total) {
    double ps = ns * 1e3 / (double)total;
    return ps < 1 ? 1 : ps > 4e9 ? 4000000000u : (uint32_t)ps;
}

static void run_chunks(const Plan *P, int threads, int per_thread);

static void run_plan(const Plan *P, bool parallel) {
    if (P->total <= 0)
        return;
    int threads = parallel ? rt_pool_threads() : 1;
    if (threads <= 1 || P->total * P->work < EXEC_PAR_MIN) {
        run_range(P, 0, P->total);
        return;
    }
    Est *e = est_of(P->fn, P->total);
    if (!e) {
        run_chunks(P, threads, 4);
        return;
    }
    uint32_t sps = atomic_load_explicit(&e->serial_ps, memory_order_relaxed);
    uint32_t pps = atomic_load_explicit(&e->par_ps, memory_order_relaxed);
    uint32_t n = atomic_fetch_add_explicit(&e->calls, 1, memory_order_relaxed);
    double t0 = now_ns();
    double gap = t0 - (double)atomic_exchange_explicit(&e->last_ns, (uint64_t)t0,
                                                       memory_order_relaxed);
    bool par = false, warm = false, hot = false;
    int phase = -1; /* the run's place in a trial */
    double est = (double)sps * 1e-3 * (double)P->total;
    if (sps && est >= EXEC_PAR_MIN_NS) {
        par = !pps || pps < sps;
        if ((n & 63) == 63) /* now and then the other way, to notice a change */
            par = !par;
    } else if (sps && est >= EXEC_PAR_HOT_NS) {
        /* short work pays off on threads already polling, not on sleeping ones: calls that
         * come back to back keep the pool awake and go parallel while it is */
        uint32_t hps = atomic_load_explicit(&e->hot_ps, memory_order_relaxed);
        uint32_t trial = atomic_load_explicit(&e->trial, memory_order_relaxed);
        bool wins = trial || (uint64_t)hps * 5 < (uint64_t)sps * 4;
        if ((!hps && !trial) || (!wins && (n & 127) == 127)) {
            atomic_store_explicit(&e->trial, trial = EXEC_HOT_TRIAL, memory_order_relaxed);
            wins = true;
        }
        if (rt_pool_hot()) {
            hot = par = wins;
            if (hot && trial) {
                phase = EXEC_HOT_TRIAL - (int)trial;
                atomic_store_explicit(&e->trial, trial - 1, memory_order_relaxed);
            }
        } else {
            warm = gap < EXEC_BACK_TO_BACK_NS && wins;
        }
    }
    if (par) /* short work: one piece per thread, the same piece call after call (its data
              * stays in that core's cache) */
        run_chunks(P, threads, hot ? 1 : 4);
    else
        run_range(P, 0, P->total);
    uint32_t ps = ps_per_elem(now_ns() - t0, P->total);
    if (hot) {
        /* the recent average: how short work fares on two threads moves with where the
         * scheduler put them, and must stop going parallel when it stops paying; it does so
         * only when at least 20% faster, and every 128th call tries again with a trial of
         * EXEC_HOT_TRIAL runs.  The trial's first run does not count (the other core's cache
         * lost the data to the serial runs), its second starts the average afresh.  Then a
         * sample counts for a quarter and at most twice or half the average: one run whose
         * thread the scheduler put aside is no verdict. */
        uint32_t old = atomic_load_explicit(&e->hot_ps, memory_order_relaxed);
        uint64_t x = ps, o = old;
        x = x > 2 * o ? 2 * o : x < o / 2 ? o / 2 : x;
        if (!old || phase == 1)
            atomic_store_explicit(&e->hot_ps, ps, memory_order_relaxed);
        else if (phase != 0)
            atomic_store_explicit(&e->hot_ps, (uint32_t)(o - o / 4 + x / 4), memory_order_relaxed);
    } else {
        /* each the lowest cost seen, drifting up slowly when the machine slows */
        uint32_t old = par ? pps : sps;
        atomic_store_explicit(par ? &e->par_ps : &e->serial_ps,
                              !old || ps < old ? ps : old + (ps - old) / 8, memory_order_relaxed);
    }
    if (warm)
        rt_pool_warm();
}

static void run_chunks(const Plan *P, int threads, int per_thread) {
    /* several chunks per thread for long work, so a thread that is descheduled mid-job (a
     * busy machine) holds up only a small piece; each chunk at least EXEC_CHUNK_MIN elements */
    int nchunks = threads * per_thread;
    int64_t chunk = (P->total + nchunks - 1) / nchunks;
    int64_t min = per_thread > 1 ? EXEC_CHUNK_MIN / P->work : 1;
    if (chunk < min)
        chunk = min;
    chunk = (chunk + P->align - 1) / P->align * P->align;
    ParJob J = {P, chunk};
    nchunks = (int)((P->total + chunk - 1) / chunk);
    rt_pool_run(nchunks, par_chunk, &J);
}

/* Sorts the nd dims (shape, strides[d][0..na)) into iteration order and collapses them into
 * P (P->nargs set).  Order: by summed |stride| over the operands, largest first (stable). */
static void collapse(Plan *P, int nd, const int64_t *shape, int64_t (*strides)[RT_UF_MAXARGS]) {
    int na = P->nargs, perm[MAXD];
    int64_t key[MAXD];
    for (int d = 0; d < nd; d++) {
        perm[d] = d;
        key[d] = 0;
        for (int k = 0; k < na; k++)
            key[d] += strides[d][k] < 0 ? -strides[d][k] : strides[d][k];
    }
    for (int i = 1; i < nd; i++) { /* insertion sort, stable, descending */
        int p = perm[i], j = i;
        while (j > 0 && key[perm[j - 1]] < key[p]) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = p;
    }
    int m = 0;
    P->total = 1;
    for (int i = 0; i < nd; i++) {
        int d = perm[i];
        P->total *= shape[d];
        if (shape[d] == 1)
            continue;
        if (m > 0) {
            bool merge = true;
            for (int k = 0; k < na && merge; k++)
                merge = P->strides[m - 1][k] == strides[d][k] * shape[d];
            if (merge) {
                P->shape[m - 1] *= shape[d];
                for (int k = 0; k < na; k++)
                    P->strides[m - 1][k] = strides[d][k];
                continue;
            }
        }
        P->shape[m] = shape[d];
        for (int k = 0; k < na; k++)
            P->strides[m][k] = strides[d][k];
        m++;
    }
    if (m == 0) {
        P->shape[0] = 1;
        for (int k = 0; k < na; k++)
            P->strides[0][k] = 0;
        m = 1;
    }
    P->nd = m;
}

/* Strides of a contiguous array laid out in the iteration order of the given strides
 * (NumPy's order='K'): dims sorted by |stride| sum, largest outermost; inner bytes below. */
static void k_order_strides(int nd, const int64_t *shape, int64_t (*strides)[RT_UF_MAXARGS],
                            int nref, int64_t inner_bytes, int64_t *out) {
    int perm[MAXD];
    int64_t key[MAXD];
    for (int d = 0; d < nd; d++) {
        perm[d] = d;
        key[d] = 0;
        for (int k = 0; k < nref; k++)
            key[d] += strides[d][k] < 0 ? -strides[d][k] : strides[d][k];
    }
    for (int i = 1; i < nd; i++) {
        int p = perm[i], j = i;
        while (j > 0 && key[perm[j - 1]] < key[p]) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = p;
    }
    int64_t acc = inner_bytes;
    for (int i = nd - 1; i >= 0; i--) {
        out[perm[i]] = acc;
        acc *= shape[perm[i]] > 0 ? shape[perm[i]] : 1;
    }
}

static void *alloc_data(int64_t bytes) {
    size_t n = bytes > 0 ? ((size_t)bytes + 63) / 64 * 64 : 64;
    return aligned_alloc(64, n);
}

void nj_array_free(NjArray *a) {
    if (!a)
        return;
    free(a->data);
    a->data = NULL;
}

/* Frees the data of the arrays a[k], k < n, whose bit is set in mask. */
static void free_masked(NjArray *a, int n, unsigned mask) {
    for (int k = 0; k < n; k++)
        if (mask & 1u << k)
            nj_array_free(&a[k]);
}

/* ---- overlap ------------------------------------------------------------------------------------ */
/* Whether the bytes two arrays address intersect (an empty array addresses none). */
static bool extents_overlap(const NjArray *a, const NjArray *b) {
    int64_t alo, ahi, blo, bhi;
    if (!rt_array_span(a, &alo, &ahi) || !rt_array_span(b, &blo, &bhi))
        return false;
    intptr_t pa = (intptr_t)a->data, pb = (intptr_t)b->data;
    return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

/* Whether input k and output o are the same elements in the same order (broadcast strides). */
static bool same_operand(const NjArray *in, const NjArray *out, int64_t (*strides)[RT_UF_MAXARGS],
                         int nd, int k, int o) {
    if (in->data != out->data || in->dtype != out->dtype)
        return false;
    for (int d = 0; d < nd; d++)
        if (strides[d][k] != strides[d][o])
            return false;
    return true;
}

/* ---- the executor ------------------------------------------------------------------------------ */
/* The common small case without the general machinery: a ufunc over operands of at most one
 * dimension, one length n (size 1 and 0-d broadcast), outputs given with the loop's dtypes,
 * no input overlapping an output unless it is that very output, and no threads to start.
 * One call of the loop; false (nothing done) when the case is not this one. */
static bool exec_1d(const RtLoop *L, const NjArray *ins, NjArray *outs, bool parallel) {
    int nin = L->nin, nout = L->nout, na = nin + nout;
    if (L->gufunc || na > RT_UF_MAXARGS)
        return false;
    int64_t n = 1;
    int nd = 0;
    for (int k = 0; k < nin; k++) {
        if (ins[k].ndim > 1)
            return false;
        if (ins[k].ndim == 1) {
            nd = 1;
            if (ins[k].shape[0] != 1 && n != 1 && ins[k].shape[0] != n)
                return false; /* a broadcast error: the general path words it */
            if (ins[k].shape[0] != 1)
                n = ins[k].shape[0];
        }
    }
    if (parallel && n >= EXEC_PAR_MIN)
        return false;
    char *ptr[RT_UF_MAXARGS];
    int64_t steps[RT_UF_MAXARGS];
    for (int k = 0; k < nout; k++) {
        const NjArray *o = &outs[k];
        if (!o->data || o->ndim != nd || (nd && o->shape[0] != n) ||
            o->dtype != L->dtypes[nin + k])
            return false;
        ptr[nin + k] = o->data;
        steps[nin + k] = nd ? o->strides[0] : 0;
        for (int j = 0; j < nin; j++) {
            bool same = ins[j].data == o->data && ins[j].dtype == o->dtype &&
                        ins[j].ndim == nd && (!nd || ins[j].strides[0] == o->strides[0]);
            if (!same && extents_overlap(&ins[j], o))
                return false;
        }
    }
    for (int k = 0; k < nin; k++) {
        ptr[k] = ins[k].data;
        steps[k] = ins[k].ndim == 1 && ins[k].shape[0] != 1 ? ins[k].strides[0] : 0;
    }
    if (n > 0) {
        int64_t dims[1] = {n};
        L->fn(ptr, dims, steps, L->data);
    }
    return true;
}

NjStatus rt_uf_exec(NjContext *ctx, const char *name, const RtLoop *L, const NjArray *ins,
                    NjArray *outs, bool parallel, bool shape_only) {
    int nin = L->nin, nout = L->nout, na = nin + nout;
    if (!shape_only && exec_1d(L, ins, outs, parallel))
        return NJ_OK;
    int64_t core_size[MAXCORE];
    int ncore = L->gufunc ? L->ncore : 0;
    for (int c = 0; c < ncore; c++)
        core_size[c] = -1;
    /* 1. core dimensions */
    for (int k = 0; k < na; k++) {
        bool is_out = k >= nin;
        const NjArray *a = is_out ? &outs[k - nin] : &ins[k];
        int cn = L->gufunc ? L->core_n[k] : 0;
        if (is_out && !a->data)
            continue;
        if (a->ndim < cn) {
            rt_set_errorf(ctx, "error: %s(): %s %d has %d dimension%s but its core signature needs %d",
                          name, is_out ? "output" : "input", is_out ? k - nin : k, a->ndim,
                          a->ndim == 1 ? "" : "s", cn);
            return NJ_ERR_ARGS;
        }
        for (int j = 0; j < cn; j++) {
            int c = L->core_idx[k][j];
            int64_t s = a->shape[a->ndim - cn + j];
            if (core_size[c] < 0) {
                core_size[c] = s;
            } else if (core_size[c] != s) {
                StrBuf sb;
                sb_init(&sb);
                sb_printf(&sb, "error: %s(): core dimension '%s' is %lld in %s %d (shape ", name,
                          L->core_names ? L->core_names[c] : "?", (long long)s,
                          is_out ? "output" : "input", is_out ? k - nin : k);
                put_shape(&sb, a->shape, a->ndim);
                sb_printf(&sb, ") but %lld in an earlier argument", (long long)core_size[c]);
                rt_set_error(ctx, sb.data ? sb.data : "error");
                sb_free(&sb);
                return NJ_ERR_ARGS;
            }
        }
    }
    for (int k = nin; k < na; k++)
        for (int j = 0; L->gufunc && j < L->core_n[k]; j++)
            if (core_size[L->core_idx[k][j]] < 0) {
                rt_set_errorf(ctx, "error: %s(): core dimension '%s' of output %d is not set by any "
                              "input; pass the output array", name,
                              L->core_names ? L->core_names[L->core_idx[k][j]] : "?", k - nin);
                return NJ_ERR_ARGS;
            }
    /* 2. broadcast the outer shapes */
    int nd = 0;
    int64_t shape[NJ_MAX_NDIM] = {0};
    for (int k = 0; k < nin; k++) {
        int o = ins[k].ndim - (L->gufunc ? L->core_n[k] : 0);
        if (o > nd)
            nd = o;
    }
    for (int d = 0; d < nd; d++)
        shape[d] = 1;
    for (int k = 0; k < nin; k++) {
        int o = ins[k].ndim - (L->gufunc ? L->core_n[k] : 0);
        for (int j = 0; j < o; j++) {
            int d = nd - o + j;
            int64_t s = ins[k].shape[j];
            if (s == shape[d] || s == 1)
                continue;
            if (shape[d] != 1)
                return broadcast_error(ctx, name, ins, nin);
            shape[d] = s;
        }
    }
    for (int k = 0; k < nout; k++) {
        const NjArray *a = &outs[k];
        if (!a->data)
            continue;
        int o = a->ndim - (L->gufunc ? L->core_n[nin + k] : 0);
        bool ok = o == nd;
        for (int d = 0; ok && d < nd; d++)
            ok = a->shape[d] == shape[d];
        if (!ok) {
            StrBuf sb;
            sb_init(&sb);
            sb_printf(&sb, "error: %s(): output %d has shape ", name, k);
            put_shape(&sb, a->shape, a->ndim);
            sb_puts(&sb, L->gufunc ? " but the inputs' outer dimensions broadcast to "
                                   : " but the inputs broadcast to ");
            put_shape(&sb, shape, nd);
            rt_set_error(ctx, sb.data ? sb.data : "error");
            sb_free(&sb);
            return NJ_ERR_ARGS;
        }
        if (a->dtype != L->dtypes[nin + k]) {
            rt_set_errorf(ctx, "error: %s(): output %d has dtype %s but the loop writes %s", name,
                          k, nj_dtype_name(a->dtype), nj_dtype_name(L->dtypes[nin + k]));
            return NJ_ERR_TYPE;
        }
    }
    /* per-operand outer strides, broadcast */
    int64_t strides[MAXD][RT_UF_MAXARGS];
    for (int k = 0; k < na; k++) {
        const NjArray *a = k < nin ? &ins[k] : &outs[k - nin];
        int o = a->ndim - (L->gufunc ? L->core_n[k] : 0);
        for (int d = 0; d < nd; d++) {
            int j = d - (nd - o);
            strides[d][k] = (k >= nin && !a->data) || j < 0 || a->shape[j] == 1 ? 0 : a->strides[j];
        }
    }
    /* 3. allocate outputs (order 'K' from the inputs and given outputs) */
    int64_t total = 1;
    unsigned allocated = 0;
    for (int d = 0; d < nd; d++)
        total *= shape[d];
    for (int k = 0; k < nout; k++) {
        NjArray *a = &outs[k];
        if (a->data)
            continue;
        int cn = L->gufunc ? L->core_n[nin + k] : 0;
        int64_t isz = nj_dtype_size(L->dtypes[nin + k]), inner = isz;
        a->dtype = L->dtypes[nin + k];
        a->ndim = nd + cn;
        for (int j = cn - 1; j >= 0; j--) {
            int64_t s = core_size[L->core_idx[nin + k][j]];
            a->shape[nd + j] = s;
            a->strides[nd + j] = inner;
            inner *= s > 0 ? s : 1;
        }
        for (int d = 0; d < nd; d++)
            a->shape[d] = shape[d];
        if (shape_only) {
            int64_t acc = inner;
            for (int d = nd - 1; d >= 0; d--) {
                a->strides[d] = acc;
                acc *= shape[d] > 0 ? shape[d] : 1;
            }
            continue;
        }
        int64_t ost[NJ_MAX_NDIM];
        k_order_strides(nd, shape, strides, na, inner, ost);
        int64_t bytes;
        for (int d = 0; d < nd; d++)
            a->strides[d] = ost[d];
        /* checked (base/checked.c): broadcast inputs of zero strides can describe an output
         * whose size wraps int64, which must not become a small block */
        if (nj_byte_size(a->ndim, a->shape, isz, &bytes) != NJ_SIZE_OK) {
            free_masked(outs, k, allocated);
            rt_set_errorf(ctx, "error: ValueError: %s", nj_size_message(NJ_SIZE_OVERFLOW));
            return NJ_ERR_ARGS;
        }
        if (!(a->data = alloc_data(bytes))) {
            free_masked(outs, k, allocated);
            rt_set_error(ctx, "error: out of memory allocating an output");
            return NJ_ERR_NOMEM;
        }
        allocated |= 1u << k;
        for (int d = 0; d < nd; d++)
            strides[d][nin + k] = shape[d] == 1 ? 0 : ost[d];
    }
    if (shape_only)
        return NJ_OK;
    if (total == 0)
        return NJ_OK;
    /* 3b. inputs overlapping an output are read from a copy (NumPy's rule: the result is as if
     * every input were read before any output is written), except an elementwise operand that
     * is the very same array as the output (same data, strides and dtype: each element is read
     * before it is written).  Reduce's (out, in, out) is such a case. */
    NjArray cin[RT_UF_MAXARGS];
    unsigned copied = 0;
    for (int k = 0; k < nin; k++) {
        cin[k] = ins[k];
        for (int j = 0; j < nout && !(copied & 1u << k); j++) {
            if (!extents_overlap(&ins[k], &outs[j]) ||
                (!L->gufunc && same_operand(&ins[k], &outs[j], strides, nd, k, nin + j)))
                continue;
            if (rt_uf_cast_copy(&ins[k], ins[k].dtype, &cin[k]) != NJ_OK) {
                free_masked(cin, k, copied);
                free_masked(outs, nout, allocated);
                rt_set_error(ctx, "error: out of memory copying an input that overlaps an output");
                return NJ_ERR_NOMEM;
            }
            copied |= 1u << k;
            int o = cin[k].ndim - (L->gufunc ? L->core_n[k] : 0);
            for (int d = 0; d < nd; d++) {
                int jd = d - (nd - o);
                strides[d][k] = jd < 0 || cin[k].shape[jd] == 1 ? 0 : cin[k].strides[jd];
            }
        }
    }
    ins = cin;
    /* 4. collapse, 5. run */
    Plan P;
    P.fn = L->fn;
    P.data = L->data;
    P.nargs = na;
    collapse(&P, nd, shape, strides);
    for (int k = 0; k < na; k++) {
        const NjArray *a = k < nin ? &ins[k] : &outs[k - nin];
        P.base[k] = a->data;
        P.steps[k] = P.strides[P.nd - 1][k];
    }
    P.ndims = 1;
    P.nsteps = na;
    P.dims[0] = 0;
    if (L->gufunc) {
        for (int c = 0; c < ncore; c++)
            P.dims[P.ndims++] = core_size[c];
        for (int k = 0; k < na; k++) {
            const NjArray *a = k < nin ? &ins[k] : &outs[k - nin];
            int cn = L->core_n[k]; /* strides of core dimensions only, as NumPy passes them
                                      (a "()" argument declared as an array has none) */
            for (int j = 0; j < cn; j++)
                P.steps[P.nsteps++] = a->shape[a->ndim - cn + j] == 1 ? 0 : a->strides[a->ndim - cn + j];
        }
    }
    /* chunk granularity: 64 bytes of the first output along the inner dimension */
    int64_t ostep = nout ? P.strides[P.nd - 1][nin] : 0;
    if (ostep < 0)
        ostep = -ostep;
    P.align = ostep && ostep < 64 && 64 % ostep == 0 ? 64 / ostep : 1;
    /* a gufunc's element is a whole core: its work grows with the core's size */
    P.work = 1;
    for (int c = 0; c < ncore && P.work < EXEC_PAR_MIN; c++)
        P.work *= core_size[c] > 1 ? core_size[c] : 1;
    if (P.work > EXEC_PAR_MIN)
        P.work = EXEC_PAR_MIN;
    run_plan(&P, parallel);
    free_masked(cin, nin, copied);
    return NJ_OK;
}

/* ---- values and casts -------------------------------------------------------------------------- */
typedef struct Num {
    bool isf;
    bool isu;
    double f;
    int64_t i;
    double im; /* a complex's imaginary part (isf set, f the real part) */
} Num;

static Num load_num(const void *p, NjDType d) {
    Num n = {0};
    switch (d) {
    case NJ_BOOL: n.i = *(const uint8_t *)p != 0; break;
    case NJ_INT8: n.i = *(const int8_t *)p; break;
    case NJ_INT16: n.i = *(const int16_t *)p; break;
    case NJ_INT32: n.i = *(const int32_t *)p; break;
    case NJ_INT64: n.i = *(const int64_t *)p; break;
    case NJ_UINT8: n.i = *(const uint8_t *)p; break;
    case NJ_UINT16: n.i = *(const uint16_t *)p; break;
    case NJ_UINT32: n.i = *(const uint32_t *)p; break;
    case NJ_UINT64: n.i = (int64_t) * (const uint64_t *)p; n.isu = true; break;
    case NJ_FLOAT32: n.f = *(const float *)p; n.isf = true; break;
    case NJ_FLOAT64: n.f = *(const double *)p; n.isf = true; break;
    case NJ_COMPLEX64: n.f = ((const float *)p)[0], n.im = ((const float *)p)[1]; n.isf = true; break;
    case NJ_COMPLEX128: n.f = ((const double *)p)[0], n.im = ((const double *)p)[1]; n.isf = true; break;
    default: break;
    }
    return n;
}

static int64_t num_int(Num n) {
    if (!n.isf)
        return n.i;
    if (n.f != n.f)
        return INT64_MIN;
    if (n.f >= 9223372036854775808.0)
        return n.f < 18446744073709551616.0 ? (int64_t)(uint64_t)n.f : INT64_MIN;
    if (n.f < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)n.f;
}

static double num_float(Num n) {
    return n.isf ? n.f : n.isu ? (double)(uint64_t)n.i : (double)n.i;
}

static void store_num(void *p, NjDType d, Num n) {
    switch (d) {
    case NJ_BOOL: *(uint8_t *)p = n.isf ? n.f != 0 : n.i != 0; break;
    case NJ_INT8: *(int8_t *)p = (int8_t)num_int(n); break;
    case NJ_INT16: *(int16_t *)p = (int16_t)num_int(n); break;
    case NJ_INT32: *(int32_t *)p = (int32_t)num_int(n); break;
    case NJ_INT64: *(int64_t *)p = num_int(n); break;
    case NJ_UINT8: *(uint8_t *)p = (uint8_t)num_int(n); break;
    case NJ_UINT16: *(uint16_t *)p = (uint16_t)num_int(n); break;
    case NJ_UINT32: *(uint32_t *)p = (uint32_t)num_int(n); break;
    case NJ_UINT64: *(uint64_t *)p = (uint64_t)num_int(n); break;
    case NJ_FLOAT32: *(float *)p = (float)num_float(n); break;
    case NJ_FLOAT64: *(double *)p = num_float(n); break;
    case NJ_COMPLEX64: ((float *)p)[0] = (float)num_float(n), ((float *)p)[1] = (float)n.im; break;
    case NJ_COMPLEX128: ((double *)p)[0] = num_float(n), ((double *)p)[1] = n.im; break;
    default: break;
    }
}

void rt_uf_store_value(void *p, NjDType d, const NjValue *v) {
    Num n = {0};
    switch (v->dtype) {
    case NJ_BOOL: n.i = v->v.b; break;
    case NJ_FLOAT32:
    case NJ_FLOAT64: n.isf = true; n.f = v->v.f; break;
    case NJ_COMPLEX64:
    case NJ_COMPLEX128: n.isf = true; n.f = v->v.c[0]; n.im = v->v.c[1]; break;
    case NJ_UINT8: case NJ_UINT16: case NJ_UINT32: case NJ_UINT64:
        n.isu = true; n.i = (int64_t)v->v.u; break;
    default: n.i = v->v.i; break;
    }
    store_num(p, d, n);
}

NjStatus rt_uf_cast_copy(const NjArray *src, NjDType to, NjArray *dst) {
    int nd = src->ndim;
    int64_t n = 1, isz = nj_dtype_size(to);
    memset(dst, 0, sizeof *dst);
    dst->dtype = to;
    dst->ndim = nd;
    for (int d = nd - 1; d >= 0; d--) {
        dst->shape[d] = src->shape[d];
        dst->strides[d] = isz * n;
        n *= src->shape[d];
    }
    if (!(dst->data = alloc_data(n * isz)))
        return NJ_ERR_NOMEM;
    int64_t idx[NJ_MAX_NDIM] = {0};
    const char *p = src->data;
    char *q = dst->data;
    int ssz = nj_dtype_size(src->dtype);
    for (int64_t i = 0; i < n; i++) {
        if (ssz == isz && src->dtype == to)
            memcpy(q, p, (size_t)isz);
        else
            store_num(q, to, load_num(p, src->dtype));
        q += isz;
        for (int d = nd - 1; d >= 0; d--) {
            p += src->strides[d];
            if (++idx[d] < src->shape[d])
                break;
            p -= src->strides[d] * src->shape[d];
            idx[d] = 0;
        }
    }
    return NJ_OK;
}

/* ---- reduce ------------------------------------------------------------------------------------ */
NjStatus rt_uf_reduce_exec(NjContext *ctx, const char *name, const RtLoop *L, const NjArray *in,
                           int axis, const NjValue *init, NjArray *out) {
    int nd = in->ndim;
    if (axis < 0)
        axis += nd;
    if (axis < 0 || axis >= nd) {
        rt_set_errorf(ctx, "error: %s.reduce(): axis %d is out of bounds for an array of "
                      "dimension %d", name, axis < 0 ? axis - nd : axis, nd);
        return NJ_ERR_ARGS;
    }
    NjDType odt = L->dtypes[2];
    int64_t len = in->shape[axis];
    /* output shape: in's without the axis */
    int64_t oshape[NJ_MAX_NDIM] = {0};
    int ond = 0;
    for (int d = 0; d < nd; d++)
        if (d != axis)
            oshape[ond++] = in->shape[d];
    bool alloc = !out->data;
    if (!alloc) {
        bool ok = out->ndim == ond && out->dtype == odt;
        for (int d = 0; ok && d < ond; d++)
            ok = out->shape[d] == oshape[d];
        if (!ok) {
            StrBuf sb;
            sb_init(&sb);
            sb_printf(&sb, "error: %s.reduce(): out has shape ", name);
            put_shape(&sb, out->shape, out->ndim);
            sb_printf(&sb, " and dtype %s but the result has shape ", nj_dtype_name(out->dtype));
            put_shape(&sb, oshape, ond);
            sb_printf(&sb, " and dtype %s", nj_dtype_name(odt));
            rt_set_error(ctx, sb.data ? sb.data : "error");
            sb_free(&sb);
            return NJ_ERR_ARGS;
        }
    } else {
        *out = nj_array_c(NULL, odt, ond, oshape);
        int64_t bytes = nj_dtype_size(odt);
        for (int d = 0; d < ond; d++)
            bytes *= oshape[d];
        if (!(out->data = alloc_data(bytes)))
            return NJ_ERR_NOMEM;
    }
    if (len == 0 && !init) {
        if (alloc)
            nj_array_free(out);
        rt_set_errorf(ctx, "error: %s.reduce(): zero-size array to reduction operation %s which "
                      "has no identity", name, name);
        return NJ_ERR_ARGS;
    }
    /* out's strides over in's dims (0 along the axis) */
    int64_t ostr[NJ_MAX_NDIM];
    for (int d = 0, j = 0; d < nd; d++)
        ostr[d] = d == axis ? 0 : out->strides[j++];
    /* initialize out: identity, or the first slice converted */
    int64_t osize = 1;
    for (int d = 0; d < ond; d++)
        osize *= oshape[d];
    {
        int64_t idx[NJ_MAX_NDIM] = {0};
        for (int64_t i = 0; i < osize; i++) {
            char *op = out->data;
            const char *ip = in->data;
            for (int d = 0; d < ond; d++) {
                op += idx[d] * out->strides[d];
                ip += idx[d] * in->strides[d < axis ? d : d + 1];
            }
            if (init)
                rt_uf_store_value(op, odt, init);
            else
                store_num(op, odt, load_num(ip, in->dtype));
            for (int d = ond - 1; d >= 0; d--) {
                if (++idx[d] < oshape[d])
                    break;
                idx[d] = 0;
            }
        }
    }
    int64_t start = init ? 0 : 1;
    if (len - start <= 0 || osize == 0)
        return NJ_OK;
    int64_t shape[NJ_MAX_NDIM], strides[MAXD][RT_UF_MAXARGS];
    for (int d = 0; d < nd; d++) {
        shape[d] = d == axis ? len - start : in->shape[d];
        strides[d][0] = strides[d][2] = shape[d] == 1 ? 0 : ostr[d];
        strides[d][1] = shape[d] == 1 ? 0 : in->strides[d];
    }
    Plan P;
    P.fn = L->fn;
    P.data = L->data;
    P.nargs = 3;
    collapse(&P, nd, shape, strides);
    P.base[0] = P.base[2] = out->data;
    P.base[1] = (char *)in->data + start * in->strides[axis];
    for (int k = 0; k < 3; k++)
        P.steps[k] = P.strides[P.nd - 1][k];
    P.ndims = 1;
    P.nsteps = 3;
    P.dims[0] = 0;
    P.align = 1;
    P.work = 1;
    run_plan(&P, false);
    return NJ_OK;
}

/* ---- NumPy's inner loop on the pool (target 'parallel' of numpy.ufunc objects) ----------------
 * NumPy calls a loop on one outer dimension at a time: dims[0] elements, steps[0..nargs) their
 * byte steps, then (gufuncs) the core sizes and each argument's core strides.  Those become
 * arrays of shape (n, core...) over the same memory, and rt_uf_exec runs them as any call:
 * serial below EXEC_PAR_MIN elements or where run_plan's timing says threads do not pay,
 * chunks on the pool otherwise.  A call can fail only on arguments NumPy has already checked,
 * so there is no error to report (NumPy's loop signature has no way to). */
void rt_uf_numpy_par_loop(char **args, const int64_t *dims, const int64_t *steps, void *data) {
    const RtNpLoop *n = data;
    const RtLoop *L = &n->loop;
    int na = L->nin + L->nout, cs = na;
    NjArray ops[RT_UF_MAXARGS];
    for (int k = 0; k < na; k++) {
        NjArray *a = &ops[k];
        memset(a, 0, sizeof *a);
        a->data = args[k];
        a->dtype = L->dtypes[k];
        a->shape[0] = dims[0];
        a->strides[0] = steps[k];
        int cn = L->gufunc ? L->core_n[k] : 0;
        a->ndim = 1 + cn;
        for (int j = 0; j < cn; j++) {
            a->shape[1 + j] = dims[1 + L->core_idx[k][j]];
            a->strides[1 + j] = steps[cs++];
        }
    }
    (void)rt_uf_exec(n->ctx, n->name, L, ops, ops + L->nin, true, false);
}

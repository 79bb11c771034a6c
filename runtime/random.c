/* random.c — the random numbers of compiled code: np.random.* and random.* in @njit functions
 * draw from the C functions below, which the JIT resolves by name (ir/random.def lists them;
 * rt_random_define makes them absolute symbols of each JIT, so objects from the on-disk cache
 * find them too).
 *
 * As in Numba 0.56 (numba/_random.c, numba/cpython/randomimpl.py), every thread has two
 * Mersenne Twister (MT19937) states, one behind np.random and one behind the `random` module,
 * shared by all compiled functions of the process.  A state is seeded on its first use from the
 * operating system's entropy (624 words through MT19937's init_by_array), so unseeded sequences
 * differ from run to run; seed(n) is MT19937's init_genrand of the low 32 bits of n (NumPy's
 * legacy RandomState.seed for an integer; Numba seeds `random` the same way, not as CPython
 * does).  A forked child reseeds its states on first use.  Being thread-local, the states
 * need no lock: threads calling compiled code at the same time (nogil=True) each draw their
 * own sequence.
 *
 * The draws are Numba's bit for bit:
 *   random()  53 bits from two outputs, (a >> 5) * 2**26 + (b >> 6) over 2**53, as NumPy's
 *             legacy random_sample;
 *   gauss()   Marsaglia's polar method on 2 * random() - 1 pairs; of each accepted pair the
 *             second value is returned and the first kept for the next call (NumPy's legacy
 *             gauss; Numba uses the same for random.gauss, with the `random` state);
 *   below(n)  an integer in [0, n) by rejection: np takes the low bits of an output (the
 *             high 32 bits first when more are needed), py the high bits (the low word
 *             first), with Numba's bit counts (np: of n - 1, and no draw at all for n == 1;
 *             py: of n).
 * The library is compiled as ISO C11 without FMA contraction, so the float arithmetic rounds
 * as the IR Numba emits does.
 */
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

enum { MT_N = 624, MT_M = 397 };

typedef struct RtRandom {
    int index; /* next word of mt; MT_N: twist first */
    uint32_t mt[MT_N];
    bool has_gauss;
    double gauss;
    bool initialized;
} RtRandom;

static _Thread_local RtRandom np_state, py_state;

/* ---- MT19937 -------------------------------------------------------------------------------- */
static void init_genrand(RtRandom *s, uint32_t seed) {
    for (int pos = 0; pos < MT_N; pos++) {
        s->mt[pos] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)pos + 1;
    }
    s->index = MT_N;
    s->has_gauss = false;
    s->gauss = 0.0;
    s->initialized = true;
}

static void init_by_array(RtRandom *s, const uint32_t *key, int n) {
    uint32_t *mt = s->mt;
    init_genrand(s, 19650218u);
    int i = 1, j = 0;
    for (int k = MT_N > n ? MT_N : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= n)
            j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u; /* a non-zero state */
}

static void twist(RtRandom *s) {
    uint32_t *mt = s->mt, y;
#define MT_MIX(a, b) (((a) & 0x80000000u) | ((b) & 0x7fffffffu))
#define MT_MAG(y) ((y) & 1 ? 0x9908b0dfu : 0u)
    int i = 0;
    for (; i < MT_N - MT_M; i++) {
        y = MT_MIX(mt[i], mt[i + 1]);
        mt[i] = mt[i + MT_M] ^ (y >> 1) ^ MT_MAG(y);
    }
    for (; i < MT_N - 1; i++) {
        y = MT_MIX(mt[i], mt[i + 1]);
        mt[i] = mt[i + MT_M - MT_N] ^ (y >> 1) ^ MT_MAG(y);
    }
    y = MT_MIX(mt[MT_N - 1], mt[0]);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ MT_MAG(y);
#undef MT_MIX
#undef MT_MAG
}

static uint32_t next_u32(RtRandom *s) {
    if (s->index >= MT_N) {
        twist(s);
        s->index = 0;
    }
    uint32_t y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static double next_double(RtRandom *s) {
    double a = next_u32(s) >> 5, b = next_u32(s) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* ---- the thread's states -------------------------------------------------------------------- */
static void forget_states(void) { /* a forked child: reseed on first use */
    np_state.initialized = false;
    py_state.initialized = false;
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void register_fork(void) { pthread_atfork(NULL, NULL, forget_states); }

/* n bytes of the system's entropy; the clock and addresses when no source answers. */
static void entropy(void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom((char *)buf + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got == n)
        return;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd >= 0 && got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (fd >= 0)
        close(fd);
    if (got == n)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                 (uint64_t)(uintptr_t)buf ^ ((uint64_t)getpid() << 32);
    for (size_t i = got; i < n; i++) { /* splitmix64's increments through xorshift */
        x += 0x9E3779B97F4A7C15u;
        uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
        ((unsigned char *)buf)[i] = (unsigned char)(z ^ (z >> 31));
    }
}

static RtRandom *ready(RtRandom *s) {
    if (!s->initialized) {
        pthread_once(&fork_once, register_fork);
        uint32_t key[MT_N];
        entropy(key, sizeof key);
        init_by_array(s, key, MT_N);
    }
    return s;
}

static void seed(RtRandom *s, uint32_t n) {
    pthread_once(&fork_once, register_fork);
    init_genrand(s, n);
}

/* ---- the draws ------------------------------------------------------------------------------ */
static double gauss(RtRandom *s) {
    if (s->has_gauss) {
        s->has_gauss = false;
        return s->gauss;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * next_double(s) - 1.0;
        x2 = 2.0 * next_double(s) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (!(r2 < 1.0 && r2 != 0.0));
    double f = sqrt(-2.0 * log(r2) / r2);
    s->gauss = f * x1;
    s->has_gauss = true;
    return f * x2;
}

/* nbits (1..64) random bits: np keeps an output's low bits, py its high bits (below()) */
static uint64_t bits(RtRandom *s, int nbits, bool np) {
    if (nbits <= 32) {
        uint32_t y = next_u32(s);
        return np ? y & (0xffffffffu >> (32 - nbits)) : y >> (32 - nbits);
    }
    uint64_t high = 0, low;
    if (np)
        high = next_u32(s) & (0xffffffffu >> (64 - nbits));
    low = next_u32(s);
    if (!np)
        high = next_u32(s) >> (64 - nbits);
    return low + (high << 32);
}

static int64_t below(RtRandom *s, int64_t n, bool np) {
    if (n <= 0 || (np && n == 1)) /* the typer raises for n <= 0 first */
        return 0;
    uint64_t m = (uint64_t)(np ? n - 1 : n);
    int nbits = 64 - __builtin_clzll(m);
    int64_t r;
    do
        r = (int64_t)bits(s, nbits, np);
    while (r >= n);
    return r;
}

/* ---- the functions compiled code calls (ir/random.def) -------------------------------------- */
static void numjit_rnd_np_seed(uint32_t n) { seed(&np_state, n); }
static void numjit_rnd_py_seed(uint32_t n) { seed(&py_state, n); }
static double numjit_rnd_np_random(void) { return next_double(ready(&np_state)); }
static double numjit_rnd_py_random(void) { return next_double(ready(&py_state)); }
static double numjit_rnd_np_gauss(void) { return gauss(ready(&np_state)); }
static double numjit_rnd_py_gauss(void) { return gauss(ready(&py_state)); }

static double numjit_rnd_np_standard_exponential(void) {
    return -log(1.0 - next_double(ready(&np_state)));
}

static double numjit_rnd_py_standard_exponential(void) {
    return -log(1.0 - next_double(ready(&py_state)));
}

static int64_t numjit_rnd_np_below(int64_t n) { return below(ready(&np_state), n, true); }
static int64_t numjit_rnd_py_below(int64_t n) { return below(ready(&py_state), n, false); }
static uint64_t numjit_rnd_py_getrandbits(int64_t n) {
    return n >= 1 && n <= 64 ? bits(ready(&py_state), (int)n, false) : 0;
}

/* Numba's count of randrange(start, stop, step), in wrapping 64-bit arithmetic (truncating
 * division, as LLVM's sdiv; the one overflowing quotient wraps instead of trapping). */
static int64_t numjit_rnd_range_len(int64_t start, int64_t stop, int64_t step) {
    int64_t n = (int64_t)((uint64_t)stop - (uint64_t)start);
    int64_t w = n;
    if (step < 0)
        w = (int64_t)((uint64_t)n + (uint64_t)step + 1);
    else if (step > 1)
        w = (int64_t)((uint64_t)n + (uint64_t)step - 1);
    else
        return n;
    if (step == -1)
        return (int64_t)(0 - (uint64_t)w);
    return w / step;
}

bool rt_random_define(CgJit *jit, char **err) {
    const uintptr_t addrs[RND__COUNT] = {
#define X(e, name, nargs, arg, ret, pure) [e] = (uintptr_t)numjit_rnd_##name,
#include "../ir/random.def"
#undef X
    };
    const char *names[RND__COUNT];
    for (int i = 0; i < RND__COUNT; i++)
        names[i] = ir_random[i].symbol;
    return cg_jit_define(jit, names, addrs, RND__COUNT, err);
}

/* test_random.c — random numbers of compiled code, from C: after a seed in compiled code the
 * first draws are Numba 0.56's (values printed by Numba for the same calls); an empty range
 * raises; arrays of draws are freed (leak-checked in the sanitizer build); and threads calling
 * the same compiled function at once each draw from their own state, so that every thread that
 * seeds with 7 sees the same numbers as the main thread. */
#include "numjit.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import random\n"
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def np_first(seed):\n"
    "    np.random.seed(seed)\n"
    "    return np.random.random()\n"
    "\n"
    "@njit\n"
    "def py_first(seed):\n"
    "    random.seed(seed)\n"
    "    return random.random()\n"
    "\n"
    "@njit\n"
    "def np_fifth(seed):\n"
    "    np.random.seed(seed)\n"
    "    for i in range(4):\n"
    "        np.random.random()\n"
    "    return np.random.randn()\n"
    "\n"
    "@njit\n"
    "def big_int(seed):\n"
    "    np.random.seed(seed)\n"
    "    for i in range(10):\n"
    "        np.random.random()\n"
    "    return np.random.randint(-5, 1000000000000)\n"
    "\n"
    "@njit\n"
    "def sums(seed, n):\n"
    "    np.random.seed(seed)\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        s += np.random.normal(0.0, 1.0, size=16).sum() + np.random.rand(2, 3).sum()\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def empty(lo, hi):\n"
    "    return np.random.randint(lo, hi)\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

static double call_f(NjFunction *f, const NjValue *args, int n) {
    NjValue r;
    memset(&r, 0, sizeof r);
    NjStatus st = nj_call(f, args, n, &r);
    CHECK(st == NJ_OK, "call: status %d", (int)st);
    return r.dtype == NJ_FLOAT64 ? r.v.f : (double)r.v.i;
}

typedef struct Worker {
    NjFunction *f;
    double want;
    int bad;
} Worker;

static void *worker(void *p) {
    Worker *w = p;
    NjValue args[2] = {nj_i64(7), nj_i64(50)};
    for (int k = 0; k < 40; k++) {
        NjValue r;
        memset(&r, 0, sizeof r);
        if (nj_call(w->f, args, 2, &r) != NJ_OK || r.v.f != w->want)
            w->bad++;
    }
    return NULL;
}

int main(void) {
    NjContext *ctx = NULL;
    NjModule *m = NULL;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjStatus st = nj_compile_source(ctx, "rand.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        nj_context_free(ctx);
        return 1;
    }
    NjValue s0 = nj_i64(0), s42 = nj_i64(42);
    CHECK(call_f(get(m, "np_first"), &s0, 1) == 0.5488135039273248, "np.random seed 0");
    CHECK(call_f(get(m, "np_first"), &s42, 1) == 0.3745401188473625, "np.random seed 42");
    CHECK(call_f(get(m, "py_first"), &s0, 1) == 0.5488135039273248, "random seed 0");
    CHECK(call_f(get(m, "np_fifth"), &s0, 1) == 1.8675579901499675, "randn after 4 draws");
    CHECK(call_f(get(m, "big_int"), &s0, 1) == 991330716194.0, "randint of 40 bits");

    NjValue e[2] = {nj_i64(5), nj_i64(5)};
    NjValue r;
    CHECK(nj_call(get(m, "empty"), e, 2, &r) == NJ_ERR_RUNTIME &&
              strstr(nj_error_message(ctx), "empty range for randrange()"),
          "empty range: %s", nj_error_message(ctx));

    /* arrays of draws in a loop: freed as they go (ASan's leak check) */
    NjFunction *sums = get(m, "sums");
    NjValue sa[2] = {nj_i64(7), nj_i64(50)};
    double want = call_f(sums, sa, 2);
    CHECK(want == call_f(sums, sa, 2), "the same seed, the same sum");

    /* four threads seeding and drawing at once, each from its own state */
    pthread_t t[4];
    Worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (Worker){sums, want, 0};
        CHECK(pthread_create(&t[i], NULL, worker, &w[i]) == 0, "thread %d", i);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK(w[i].bad == 0, "thread %d: %d wrong sums", i, w[i].bad);
    }
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

/* test_library.c — the bundled libraries' trees (frontend/library.c) are parsed once per
 * process and shared by every module: check that compiling and running modules that use each
 * library leaves the shared tree as a fresh parse of the same text prints it (the typer and
 * the module table must copy a node before changing it), that two modules get the very same
 * tree, and that modules compiled from several threads at once agree. */
#include "numjit.h"
#include "frontend/frontend.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *const LIBS[] = {"npfunc", "cmath", "str", "random_dists", "nanfunc",
                                   "lists", "cuda_random", NULL};

/* Uses a function of each CPU library, so each is added, typed and compiled. */
static const char *SRC =
    "import cmath\n"
    "import random\n"
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def use(n):\n"
    "    x = np.arange(n) * 1.0\n"
    "    h, e = np.histogram(x, 4)\n"
    "    y = np.interp(2.5, x, x * 2)\n"
    "    z = cmath.exp(1j * y)\n"
    "    s = str(n) + 'a'\n"
    "    l = [3, 1, 2]\n"
    "    l.sort()\n"
    "    random.seed(1)\n"
    "    g = random.gauss(0.0, 1.0) * 0.0\n"
    "    w = np.random.gamma(2.0) * 0.0\n"
    "    return y + z.real + h[0] + len(s) + l[0] + np.nanmean(x) + np.median(x) + g + w\n";

static double run_once(void) {
    NjContext *ctx = NULL;
    NjModule *m = NULL;
    NjFunction *f = NULL;
    NjValue a[1] = {nj_i64(8)}, r;
    double got = -1;
    if (nj_context_new(&ctx) == NJ_OK && nj_compile_source(ctx, "uses.py", SRC, &m) == NJ_OK &&
        nj_module_function(m, "use", &f) == NJ_OK && nj_call(f, a, 1, &r) == NJ_OK)
        got = r.v.f;
    else
        printf("uses.py: %s\n", ctx ? nj_error_message(ctx) : "no context");
    nj_context_free(ctx);
    return got;
}

static void *thread_run(void *p) {
    *(double *)p = run_once();
    return NULL;
}

static void print_tree(const Node *mod, StrBuf *out) {
    sb_init(out);
    ast_print(mod, out);
}

int main(void) {
    /* y = 5, z.real = cos 5, h[0] = 2, len('8a') = 2, l[0] = 1, mean = median = 3.5 */
    double want = 5 + 0.28366218546322625 + 2 + 2 + 1 + 3.5 + 3.5;
    double first = run_once();
    CHECK(first > want - 1e-12 && first < want + 1e-12, "use(8) = %.17g, want %.17g", first,
          want);
    pthread_t th[4];
    double got[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, thread_run, &got[i]);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(got[i] == first, "thread %d: %.17g", i, got[i]);
    }
    for (int i = 0; LIBS[i]; i++) {
        const Source *src = NULL, *again = NULL;
        const Node *shared = fe_library_module(LIBS[i], &src);
        CHECK(shared && src && strstr(src->name, LIBS[i]), "%s is parsed and shared", LIBS[i]);
        if (!shared)
            continue;
        CHECK(fe_library_module(LIBS[i], &again) == shared && again == src,
              "%s: every caller gets the same tree", LIBS[i]);
        Arena *a = arena_new();
        DiagList d;
        diag_init(&d);
        Source fresh = {src->name, src->text, src->len, 0};
        Node *mod = fe_parse(a, &fresh, &d);
        StrBuf s1, s2;
        print_tree(shared, &s1);
        print_tree(mod, &s2);
        CHECK(s1.len == s2.len && !memcmp(s1.data, s2.data, s1.len),
              "%s: the shared tree is unchanged after use", LIBS[i]);
        sb_free(&s1);
        sb_free(&s2);
        diag_free(&d);
        arena_free(a);
    }
    const Source *none = NULL;
    CHECK(!fe_library_module("no_such_library", &none) && !none, "an unknown library");
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

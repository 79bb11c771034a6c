/* main.c — numjit embedded in a C program: Python source from a string, compiled and called.
 *
 *   cc main.c $(pkg-config --cflags --libs numjit) -lm -o embed && ./embed
 *
 * (with numjit installed by `meson install`; for a prefix outside the loader's path add
 * -Wl,-rpath,$(pkg-config --variable=libdir numjit)).  The program compiles two functions of
 * a module given as text, calls one on scalars and one on an array through nj_call (each
 * specializes on its first call), shows the ZeroDivisionError of the Python code as a located
 * message, checks the results against C and prints PASS.
 */
#include <numjit.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char source[] =
    "import math\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def hypot_ratio(a, b):\n"
    "    return math.sqrt(a * a + b * b) / b\n"
    "\n"
    "@njit\n"
    "def rms(x):\n"
    "    s = 0.0\n"
    "    for i in range(x.shape[0]):\n"
    "        s += x[i] * x[i]\n"
    "    return math.sqrt(s / x.shape[0])\n";

static int fail(NjContext *ctx, NjStatus st, const char *what) {
    fprintf(stderr, "%s: %s\n%s\n", what, nj_status_name(st), nj_error_message(ctx));
    nj_context_free(ctx);
    return 1;
}

int main(void) {
    NjContext *ctx;
    NjModule *m;
    NjFunction *hr, *rms;
    NjStatus st = nj_context_new(&ctx);
    if (st) {
        fprintf(stderr, "nj_context_new: %s\n", nj_status_name(st));
        return 1;
    }
    printf("numjit %s\n", nj_version());
    if ((st = nj_compile_source(ctx, "embedded.py", source, &m)) ||
        (st = nj_module_function(m, "hypot_ratio", &hr)) ||
        (st = nj_module_function(m, "rms", &rms)))
        return fail(ctx, st, "compile");

    NjValue args[2] = {nj_f64(3.0), nj_f64(4.0)}, res;
    if ((st = nj_call(hr, args, 2, &res)))
        return fail(ctx, st, "hypot_ratio");
    printf("hypot_ratio(3, 4) = %.17g\n", res.v.f);
    int ok = res.kind == NJ_KIND_SCALAR && res.v.f == 1.25;

    enum { N = 1000 };
    double x[N], want = 0;
    for (int i = 0; i < N; i++) {
        x[i] = 0.001 * i;
        want += x[i] * x[i];
    }
    want = sqrt(want / N);
    int64_t n = N;
    NjArray a = nj_array_c(x, NJ_FLOAT64, 1, &n);
    NjValue xa = nj_arr(&a);
    if ((st = nj_call(rms, &xa, 1, &res)))
        return fail(ctx, st, "rms");
    printf("rms(x) = %.17g (C: %.17g)\n", res.v.f, want);
    ok &= fabs(res.v.f - want) <= 1e-12 * want;

    /* b == 0: the Python code raises ZeroDivisionError; the call reports where */
    args[1] = nj_f64(0.0);
    st = nj_call(hr, args, 2, &res);
    printf("hypot_ratio(3, 0): %s\n%s", nj_status_name(st), nj_error_message(ctx));
    ok &= st == NJ_ERR_RUNTIME && strstr(nj_error_message(ctx), "ZeroDivisionError") != NULL;

    nj_context_free(ctx);
    puts(ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

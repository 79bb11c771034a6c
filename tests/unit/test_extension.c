/* test_extension.c — nj_set_extension_hook from C, with no Python: a hook that answers for a
 * function `twice` (one implementation per argument type, declined for bool), a method
 * `a.scaled(k)` and an attribute `a.span` of arrays, each implementation a module compiled
 * from source.  Checks the results, that the typer asks once per name and tuple of types in a
 * compile (not once per inference round), the located errors of a declined call and of a hook
 * error, and that without a hook the name is simply undefined. */
#include "numjit.h"

#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def f(x, y):\n"
    "    s = 0.0\n"
    "    for i in range(3):\n"
    "        s += twice(x) + twice(y)\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def g(a):\n"
    "    return a.scaled(2.0).sum() + a.span\n";

static NjContext *ctx;
static NjModule *impl_int, *impl_float, *impl_scaled, *impl_span;
static int asked_mine, asked_impl;

static int hook(void *arg, NjExtKind kind, const char *file, const char *name, const char *attr,
                int nargs, const char *const *argtypes, NjModule **impl_module, char **impl_func,
                char **message) {
    (void)arg;
    (void)file;
    bool twice = kind == NJ_EXT_FUNC && !strcmp(name, "twice");
    bool scaled = kind == NJ_EXT_METHOD && !strcmp(name, "ndarray") && !strcmp(attr, "scaled");
    bool span = kind == NJ_EXT_ATTR && !strcmp(name, "ndarray") && !strcmp(attr, "span");
    if (!twice && !scaled && !span)
        return NJ_EXT_NOT_MINE;
    if (nargs < 0) {
        asked_mine++;
        return NJ_EXT_MINE;
    }
    asked_impl++;
    if (twice && !strcmp(argtypes[0], "bool")) {
        *message = strdup("twice() takes numbers");
        return NJ_EXT_DECLINED;
    }
    if (twice && !strcmp(argtypes[0], "int32")) {
        *message = strdup("the hook failed");
        return NJ_EXT_ERROR;
    }
    if (twice)
        *impl_module = !strcmp(argtypes[0], "int64") ? impl_int : impl_float;
    else if (scaled)
        *impl_module = nargs == 2 && !strcmp(argtypes[0], "array(float64, 1d, C)") &&
                               !strcmp(argtypes[1], "float64") ? impl_scaled : NULL;
    else
        *impl_module = impl_span;
    if (!*impl_module)
        return NJ_EXT_DECLINED;
    *impl_func = strdup("impl");
    return NJ_EXT_IMPL;
}

static NjModule *compile(const char *name, const char *text) {
    NjModule *m = NULL;
    NjStatus st = nj_compile_source_lazy(ctx, name, text, &m);
    CHECK(st == NJ_OK, "compile %s: %s", name, nj_error_message(ctx));
    return m;
}

int main(void) {
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    impl_int = compile("impl_int.py", "def impl(x):\n    return x * 2\n");
    impl_float = compile("impl_float.py", "def impl(x):\n    return x * 2.5\n");
    impl_scaled = compile("impl_scaled.py", "import numpy as np\n\ndef impl(a, k):\n"
                                            "    return a * k\n");
    impl_span = compile("impl_span.py", "def impl(a):\n    return a.max() - a.min()\n");
    NjModule *m = compile("main.py", SRC);
    if (!m || !impl_int || !impl_float || !impl_scaled || !impl_span)
        return 1;
    NjFunction *f = NULL, *g = NULL;
    CHECK(nj_module_function(m, "f", &f) == NJ_OK && nj_module_function(m, "g", &g) == NJ_OK,
          "functions");

    /* no hook: an undefined name, as before */
    NjValue args[2] = {nj_i64(3), nj_f64(1.0)}, res;
    NjStatus st = nj_call(f, args, 2, &res);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "name 'twice' is not defined"),
          "no hook: %s", nj_error_message(ctx));

    nj_set_extension_hook(hook, NULL);
    st = nj_call(f, args, 2, &res);
    CHECK(st == NJ_OK && res.dtype == NJ_FLOAT64 && res.v.f == 3 * (6 + 2.5),
          "f(3, 1.0): %d %s %g", st, nj_error_message(ctx), res.v.f);
    CHECK(asked_mine == 1 && asked_impl == 2, "asked %d + %d times", asked_mine, asked_impl);

    NjValue bad[2] = {nj_bool(true), nj_f64(1.0)};
    st = nj_call(f, bad, 2, &res);
    const char *msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_TYPE && strstr(msg, "main.py:7:14: error: No implementation of "
                                           "function 'twice' found for signature: twice(bool): "
                                           "twice() takes numbers"),
          "declined: %s", msg);
    NjValue err[2] = {nj_i32(1), nj_f64(1.0)};
    st = nj_call(f, err, 2, &res);
    msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_TYPE && strstr(msg, "main.py:7:14: error: the typing of 'twice' failed: "
                                           "the hook failed"),
          "hook error: %s", msg);

    double data[4] = {1.0, 4.0, -2.0, 0.5};
    int64_t shape[1] = {4};
    NjArray a = nj_array_c(data, NJ_FLOAT64, 1, shape);
    NjValue ga[1] = {nj_arr(&a)};
    st = nj_call(g, ga, 1, &res);
    CHECK(st == NJ_OK && res.v.f == 2.0 * 3.5 + 6.0, "g: %d %s %g", st, nj_error_message(ctx),
          res.v.f);
    int64_t idata[2] = {1, 2};
    NjArray ia = nj_array_c(idata, NJ_INT64, 1, shape);
    ia.shape[0] = 2;
    NjValue gi[1] = {nj_arr(&ia)};
    st = nj_call(g, gi, 1, &res);
    msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_TYPE && strstr(msg, "No implementation of method 'scaled' of "
                                           "array(int64, 1d, C) found for signature: (float64)"),
          "method declined: %s", msg);
    nj_set_extension_hook(NULL, NULL);
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

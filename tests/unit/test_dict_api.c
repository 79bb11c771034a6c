/* test_dict_api.c — typed dicts shared by a C host and compiled code (numjit.h: nj_dict_*): a
 * dict filled from C and passed to compiled functions (args[k] is the dict; their changes are
 * in the same table), a dict compiled code returns (NJ_KIND_DICT, a reference the host gives
 * back) read and changed from C, string keys and values owned by the dict (copied when they
 * have no owner), growth, deletion and clearing; leak-checked in the sanitizer build. */
#include "numjit.h"

#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def total(d):\n"
    "    s = 0.0\n"
    "    for k, v in d.items():\n"
    "        s += k * v\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def put(d, k, v):\n"
    "    d[k] = v\n"
    "    return len(d)\n"
    "\n"
    "@njit\n"
    "def make(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d['k' + str(i)] = i\n"
    "    return d\n";

static NjStr text(const char *s) { return (NjStr){s, (int64_t)strlen(s), (int64_t)strlen(s), NULL}; }

static void from_c(NjModule *m, NjContext *ctx) {
    NjDict *d = nj_dict_new();
    CHECK(d && nj_dict_len(d) == 0, "a new dict");
    for (int64_t i = 0; i < 1000; i++) {
        double v = (double)i * 0.5;
        CHECK(nj_dict_set(d, NJ_INT64, NJ_FLOAT64, &i, &v) == NJ_OK, "set %lld", (long long)i);
    }
    for (int64_t i = 0; i < 1000; i += 2)
        nj_dict_delete(d, nj_dict_find(d, NJ_INT64, &i));
    int64_t k = 999, absent = 4;
    double v = 1.0;
    CHECK(nj_dict_set(d, NJ_INT64, NJ_FLOAT64, &k, &v) == NJ_OK && nj_dict_len(d) == 500 &&
              *(const double *)nj_dict_value(d, nj_dict_find(d, NJ_INT64, &k)) == 1.0 &&
              nj_dict_find(d, NJ_INT64, &absent) < 0,
          "replace, delete: %lld items", (long long)nj_dict_len(d));
    int64_t first = nj_dict_next(d, 0), last = nj_dict_last(d);
    CHECK(*(const int64_t *)nj_dict_key(d, first) == 1 && *(const int64_t *)nj_dict_key(d, last) == 999,
          "insertion order");

    NjFunction *total = NULL, *put = NULL;
    nj_module_function(m, "total", &total);
    nj_module_function(m, "put", &put);
    NjEntryInfo ti, pi;
    const char *sig = "(DictType[int64,float64]<iv=None>)";
    CHECK(nj_function_entry_info(total, sig, &ti) == NJ_OK, "total: %s", nj_error_message(ctx));
    CHECK(nj_function_entry_info(put, "(DictType[int64,float64], int64, float64)", &pi) == NJ_OK,
          "put: %s", nj_error_message(ctx));
    double want = 0;
    for (int64_t i = nj_dict_next(d, 0); i >= 0; i = nj_dict_next(d, i + 1))
        want += (double)*(const int64_t *)nj_dict_key(d, i) * *(const double *)nj_dict_value(d, i);
    double got = 0;
    void *args[3] = {d};
    CHECK(ti.entry && ti.entry(args, &got) == 0 && got == want, "total = %g, want %g", got, want);
    int64_t nk = 5000, len = 0;
    double nv = 2.5;
    void *pargs[3] = {d, &nk, &nv};
    CHECK(pi.entry && pi.entry(pargs, &len) == 0 && len == 501, "put: %lld", (long long)len);
    int64_t ix = nj_dict_find(d, NJ_INT64, &nk);
    CHECK(ix >= 0 && *(const double *)nj_dict_value(d, ix) == 2.5, "compiled code's item, from C");
    nj_dict_clear(d);
    CHECK(nj_dict_len(d) == 0 && ti.entry && ti.entry(args, &got) == 0 && got == 0.0, "cleared");
    nj_dict_release(d);
}

static void strings(NjModule *m, NjContext *ctx) {
    NjFunction *make = NULL;
    nj_module_function(m, "make", &make);
    NjEntryInfo info;
    CHECK(nj_function_entry_info(make, "(int64)", &info) == NJ_OK && info.result_kind == NJ_KIND_DICT &&
              info.result_dtypes[0] == (NjDType)NJ_DICT_STR && info.result_dtypes[1] == NJ_INT64,
          "make: %s", nj_error_message(ctx));
    int64_t n = 20;
    void *args[1] = {&n};
    NjDict *d = NULL;
    CHECK(info.entry && info.entry(args, &d) == 0 && d && nj_dict_len(d) == 20, "made by compiled code");
    if (!d)
        return;
    char buf[8] = "k13";
    NjStr key = text(buf), word = text("fresh");
    int64_t ix = nj_dict_find(d, NJ_DICT_STR, &key);
    CHECK(ix >= 0 && *(const int64_t *)nj_dict_value(d, ix) == 13, "a string key from C");
    int64_t v = 77;
    CHECK(nj_dict_set(d, NJ_DICT_STR, NJ_INT64, &word, &v) == NJ_OK, "a new string key");
    buf[1] = '9'; /* the dict copied the text it was given without an owner */
    NjStr again = text("fresh");
    ix = nj_dict_find(d, NJ_DICT_STR, &again);
    CHECK(ix >= 0 && *(const int64_t *)nj_dict_value(d, ix) == 77 &&
              ((const NjStr *)nj_dict_key(d, ix))->owner != NULL,
          "the dict owns its copy");
    nj_dict_retain(d);
    nj_dict_release(d);
    nj_dict_release(d); /* the last reference: the strings go with it */

    NjDict *s = nj_dict_new();
    NjStr a = text("alpha"), b = text("beta");
    int64_t one = 1;
    CHECK(nj_dict_set(s, NJ_INT64, NJ_DICT_STR, &one, &a) == NJ_OK &&
              nj_dict_set(s, NJ_INT64, NJ_DICT_STR, &one, &b) == NJ_OK && nj_dict_len(s) == 1,
          "a string value replaced");
    const NjStr *got = nj_dict_value(s, nj_dict_find(s, NJ_INT64, &one));
    CHECK(got->nbytes == 4 && !memcmp(got->data, "beta", 4), "the new value");
    nj_dict_release(s);
    CHECK(!nj_dict_item_ok(NJ_COMPLEX128, NJ_INT64) && !nj_dict_item_ok(NJ_INT64, NJ_COMPLEX64) &&
              nj_dict_item_ok(NJ_DICT_STR, NJ_BOOL),
          "item codes a host can hold");
}

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "dict_api.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (!st) {
        from_c(m, ctx);
        strings(m, ctx);
    }
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

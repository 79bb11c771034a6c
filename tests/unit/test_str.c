/* test_str.c — strings (unicode_type) from C: NJ_KIND_STR arguments of nj_call read in place,
 * string results written as an NjStr whose owner the caller releases (nj_str_release), a
 * literal returned without owner, strings in a returned tuple (NjEntryInfo's layout), a loop
 * making a temporary string per iteration, a raise with strings alive, and a string parameter
 * refused by ahead-of-time objects.  Run under ASan, every path must free what it allocated. */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def greet(name, n):\n"
    "    return 'hello ' + name + ' #' + str(n)\n"
    "\n"
    "@njit\n"
    "def lit():\n"
    "    return 'abc'\n"
    "\n"
    "@njit\n"
    "def pair(s):\n"
    "    return s[:2], len(s), s[-1]\n"
    "\n"
    "@njit\n"
    "def churn(n):\n"
    "    k = 0\n"
    "    for i in range(n):\n"
    "        t = str(i) + '-' + str(i)\n"
    "        k += len(t)\n"
    "    return k\n"
    "\n"
    "@njit\n"
    "def pick(s, i):\n"
    "    t = s + s\n"
    "    return t[i]\n";

static NjStr str_of(const char *s, int64_t nchars) {
    return (NjStr){s, (int64_t)strlen(s), nchars, NULL};
}

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "str.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    NjFunction *greet = NULL, *lit = NULL, *pair = NULL, *churn = NULL, *pick = NULL;
    CHECK(nj_module_function(m, "greet", &greet) == NJ_OK && nj_module_function(m, "lit", &lit) == NJ_OK &&
              nj_module_function(m, "pair", &pair) == NJ_OK &&
              nj_module_function(m, "churn", &churn) == NJ_OK &&
              nj_module_function(m, "pick", &pick) == NJ_OK,
          "functions");

    /* nj_call: a string argument in place, a string result with an owner */
    NjStr name = str_of("wörld", 5), out = {0};
    NjValue args[2] = {{NJ_KIND_STR, 0, {.s = &name}}, nj_i64(-42)};
    NjValue res = {NJ_KIND_STR, 0, {.s = &out}};
    st = nj_call(greet, args, 2, &res);
    CHECK(st == NJ_OK, "greet: %s", nj_error_message(ctx));
    CHECK(out.nbytes == 17 && out.nchars == 16 && !memcmp(out.data, "hello wörld #-42", 17) &&
              out.data[out.nbytes] == 0 && out.owner != NULL,
          "greet's result: '%.*s' (%lld bytes, %lld chars)", (int)out.nbytes, out.data,
          (long long)out.nbytes, (long long)out.nchars);
    nj_str_release(&out);
    CHECK(out.owner == NULL && out.nbytes == 0, "release empties the string");
    nj_str_release(&out); /* no owner: harmless */

    /* a string result needs a place to go */
    NjValue scalar_res = {0};
    CHECK(nj_call(greet, args, 2, &scalar_res) == NJ_ERR_UNSUPPORTED &&
              strstr(nj_error_message(ctx), "returns a string"),
          "a string result without NJ_KIND_STR: %s", nj_error_message(ctx));

    /* a literal comes back without owner */
    CHECK(nj_call(lit, NULL, 0, &res) == NJ_OK && out.owner == NULL && out.nbytes == 3 &&
              !memcmp(out.data, "abc", 3),
          "lit()");

    /* a tuple holding strings: NjEntryInfo's kinds and offsets */
    NjEntryInfo pi;
    memset(&pi, 0, sizeof pi);
    CHECK(nj_function_entry_info(pair, "(unicode_type)", &pi) == NJ_OK, "pair: %s",
          nj_error_message(ctx));
    CHECK(pi.result_kind == NJ_KIND_TUPLE && pi.result_count == 3 &&
              pi.result_kinds[0] == NJ_KIND_STR && pi.result_kinds[1] == NJ_KIND_SCALAR &&
              pi.result_kinds[2] == NJ_KIND_STR && pi.result_offsets[1] == (int)sizeof(NjStr) &&
              pi.result_offsets[2] == (int)sizeof(NjStr) + 8,
          "pair's layout: %d %d %d", pi.result_kinds[0], pi.result_offsets[1],
          pi.result_offsets[2]);
    if (pi.entry) {
        NjStr s = str_of("日本語", 3);
        void *av[1] = {&s};
        unsigned char buf[NJ_RESULT_MAX];
        CHECK(pi.entry(av, buf) == 0, "pair runs");
        NjStr a, c;
        int64_t n;
        memcpy(&a, buf, sizeof a);
        memcpy(&n, buf + pi.result_offsets[1], sizeof n);
        memcpy(&c, buf + pi.result_offsets[2], sizeof c);
        CHECK(a.nchars == 2 && a.nbytes == 6 && !memcmp(a.data, "日本", 6), "s[:2]");
        CHECK(n == 3, "len(s) = %lld", (long long)n);
        CHECK(c.nchars == 1 && !memcmp(c.data, "語", 3), "s[-1]");
        nj_str_release(&a);
        nj_str_release(&c);
    }

    /* temporaries in a loop go back as they are overwritten (ASan: no leak) */
    NjValue n = nj_i64(1000), k = {0};
    CHECK(nj_call(churn, &n, 1, &k) == NJ_OK && k.v.i == 2 * 2890 + 1000,
          "churn(1000) = %lld", (long long)k.v.i);

    /* a raise with a string alive releases it */
    NjStr ab = str_of("ab", 2);
    NjValue pargs[2] = {{NJ_KIND_STR, 0, {.s = &ab}}, nj_i64(4)};
    CHECK(nj_call(pick, pargs, 2, &res) == NJ_ERR_RUNTIME &&
              strstr(nj_error_message(ctx), "string index out of range"),
          "pick('ab', 4) raises: %s", nj_error_message(ctx));
    pargs[1] = nj_i64(-1);
    CHECK(nj_call(pick, pargs, 2, &res) == NJ_OK && out.nbytes == 1 && out.data[0] == 'b',
          "pick('ab', -1)");
    nj_str_release(&out);

    /* ahead-of-time objects have no C form for strings */
    void *obj = NULL;
    size_t len = 0;
    const char *sigs[1] = {"lit()"};
    CHECK(nj_aot_object(m, sigs, 1, NULL, &obj, &len) != NJ_OK &&
              strstr(nj_error_message(ctx), "no C form"),
          "nj_aot_object refuses a string result: %s", nj_error_message(ctx));
    nj_aot_free(obj);

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

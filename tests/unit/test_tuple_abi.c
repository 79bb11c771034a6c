/* test_tuple_abi.c — tuples through the C entry: a tuple argument is a pointer to a C struct,
 * a nested tuple result is a nested C struct, and the layouts nj_type_layout and
 * nj_function_result_layout describe are the ones a C compiler gives the same structs (the
 * offsets are checked against offsetof).  Also: tuples longer than 16 and arrays inside
 * tuples (borrowed as arguments; owned, and released by the caller, as results), strings and
 * lists as leaves, and the dispatcher keeping one specialization per tuple type. */
#include "numjit.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def pair_sum(t):\n"
    "    return t[0] + t[1][0] * t[1][1]\n"
    "\n"
    "@njit\n"
    "def nested(n):\n"
    "    return (n, (np.int8(n), 2.5, True), n * 3)\n"
    "\n"
    "@njit\n"
    "def with_array(t):\n"
    "    a, k = t\n"
    "    return (a.sum() * k, (a * k, k))\n"
    "\n"
    "@njit\n"
    "def long_sum(t):\n"
    "    s = 0\n"
    "    for x in t:\n"
    "        s += x\n"
    "    return s\n";

/* The C structs the layouts must match. */
typedef struct { int32_t a; double b; } Inner;     /* Tuple(int32, float64) */
typedef struct { int16_t x; Inner in; } Outer;     /* Tuple(int16, Tuple(int32, float64)) */
typedef struct { int8_t a; double b; bool c; } R1; /* Tuple(int8, float64, bool) */
typedef struct { int64_t n; R1 r; int64_t m; } R0; /* nested's result */
typedef struct { NjArray a; int64_t k; } ArgA;     /* Tuple(float64[::1], int64) */
typedef struct { NjArray a; int64_t k; } ResB;
typedef struct { double s; ResB b; } ResA;         /* with_array's result */
typedef struct { int8_t k; NjStr s; NjArray l; } SL; /* Tuple(int8, unicode_type, list(int64)) */

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

static void layouts(NjContext *ctx) {
    NjLayoutNode nd[8];
    int size = 0;
    int n = nj_type_layout(ctx, "Tuple(int16, Tuple(int32, float64))", nd, 8, &size);
    CHECK(n == 5 && size == (int)sizeof(Outer), "Outer: %d nodes, %d bytes", n, size);
    CHECK(nd[0].kind == NJ_KIND_TUPLE && nd[0].count == 2 && nd[1].kind == NJ_KIND_SCALAR &&
              nd[1].dtype == NJ_INT16 && nd[1].offset == (int)offsetof(Outer, x) &&
              nd[2].kind == NJ_KIND_TUPLE && nd[2].offset == (int)offsetof(Outer, in) &&
              nd[3].offset == (int)offsetof(Outer, in.a) && nd[3].dtype == NJ_INT32 &&
              nd[4].offset == (int)offsetof(Outer, in.b) && nd[4].dtype == NJ_FLOAT64,
          "Outer's nodes");
    n = nj_type_layout(ctx, "Tuple(float64[::1], int64)", nd, 8, &size);
    CHECK(n == 3 && size == (int)sizeof(ArgA) && nd[1].kind == NJ_KIND_ARRAY &&
              nd[1].count == 1 && nd[1].dtype == NJ_FLOAT64 &&
              nd[2].offset == (int)offsetof(ArgA, k),
          "ArgA: %d nodes, %d bytes", n, size);
    n = nj_type_layout(ctx, "UniTuple(complex64, 3)", nd, 2, &size);
    CHECK(n == 4 && size == 24 && nd[1].offset == 0 && nd[1].dtype == NJ_COMPLEX64,
          "complex64 x 3: %d nodes, %d bytes", n, size);
    CHECK(nj_type_layout(ctx, "Tuple(int64, nonsense)", nd, 8, &size) < 0 &&
              strstr(nj_error_message(ctx), "nonsense"),
          "a bad spelling: %s", nj_error_message(ctx));
    CHECK(nj_type_layout(ctx, "UniTuple(int64)", nd, 8, &size) < 0, "UniTuple without count");
    n = nj_type_layout(ctx, "Tuple(int8, unicode_type, list(int64))", nd, 8, &size);
    CHECK(n == 4 && size == (int)sizeof(SL) && nd[2].kind == NJ_KIND_STR &&
              nd[2].offset == (int)offsetof(SL, s) && nd[3].kind == NJ_KIND_LIST &&
              nd[3].dtype == NJ_INT64 && nd[3].offset == (int)offsetof(SL, l),
          "strings and lists as leaves: %d nodes, %d bytes", n, size);
}

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "tup.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    layouts(ctx);

    /* a nested tuple argument */
    NjEntryInfo info;
    NjFunction *ps = get(m, "pair_sum");
    st = nj_function_entry_info(ps, "(Tuple(int16, Tuple(int32, float64)))", &info);
    CHECK(st == NJ_OK && info.result_dtype == NJ_FLOAT64, "pair_sum: %s", nj_error_message(ctx));
    Outer o = {.x = 7, .in = {.a = 3, .b = 1.5}};
    void *args[1] = {&o};
    double d = 0;
    CHECK(st || (info.entry(args, &d) == 0 && d == 11.5), "pair_sum(o) = %g", d);
    /* another tuple type is another specialization; the first one is kept */
    NjEntryInfo info2;
    CHECK(nj_function_entry_info(ps, "(UniTuple(int64, 2))", &info2) != NJ_OK,
          "pair_sum of a flat tuple cannot index t[1][0]");
    NjEntryInfo again;
    CHECK(nj_function_entry_info(ps, "(Tuple(int16, Tuple(int32, float64)))", &again) == NJ_OK &&
              again.entry == info.entry,
          "the same tuple type finds the same entry");

    /* a nested result */
    NjFunction *ne = get(m, "nested");
    st = nj_function_entry_info(ne, "(int64)", &info);
    CHECK(st == NJ_OK && info.result_kind == NJ_KIND_TUPLE && info.result_count == 3 &&
              info.result_kinds[1] == NJ_KIND_TUPLE && info.result_size == (int)sizeof(R0) &&
              info.result_offsets[2] == (int)offsetof(R0, m),
          "nested's info: size %d", info.result_size);
    NjLayoutNode nd[8];
    int size = 0;
    int n = nj_function_result_layout(ne, info.entry, nd, 8, &size);
    CHECK(n == 7 && size == (int)sizeof(R0) && nd[2].count == 3 && nd[3].dtype == NJ_INT8 &&
              nd[4].offset == (int)offsetof(R0, r.b) && nd[5].dtype == NJ_BOOL &&
              nd[5].offset == (int)offsetof(R0, r.c) && nd[6].offset == (int)offsetof(R0, m),
          "nested's layout: %d nodes", n);
    int64_t k = 4;
    void *kv[1] = {&k};
    R0 r;
    memset(&r, 0, sizeof r);
    CHECK(info.entry(kv, &r) == 0 && r.n == 4 && r.r.a == 4 && r.r.b == 2.5 && r.r.c &&
              r.m == 12,
          "nested(4)");

    /* an array inside a tuple argument and inside a nested result */
    NjFunction *wa = get(m, "with_array");
    st = nj_function_entry_info(wa, "(Tuple(float64[::1], int64))", &info);
    CHECK(st == NJ_OK && info.result_size == (int)sizeof(ResA), "with_array: %s",
          nj_error_message(ctx));
    double u[3] = {1, 2, 3};
    int64_t us[1] = {3};
    ArgA a = {.a = nj_array_c(u, NJ_FLOAT64, 1, us), .k = 2};
    void *av[1] = {&a};
    ResA ra;
    memset(&ra, 0, sizeof ra);
    CHECK(!st && info.entry(av, &ra) == 0 && ra.s == 12.0 && ra.b.k == 2 && ra.b.a.owner &&
              ra.b.a.shape[0] == 3 && ((double *)ra.b.a.data)[2] == 6.0,
          "with_array((u, 2))");
    nj_array_release(&ra.b.a);

    /* more than 16 elements */
    NjFunction *ls = get(m, "long_sum");
    st = nj_function_entry_info(ls, "(UniTuple(int64, 20))", &info);
    int64_t t20[20];
    for (int i = 0; i < 20; i++)
        t20[i] = i;
    void *tv[1] = {t20};
    int64_t s = 0;
    CHECK(!st && info.entry(tv, &s) == 0 && s == 190, "long_sum of 20: %lld", (long long)s);

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

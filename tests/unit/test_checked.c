/* test_checked.c — size and index arithmetic that cannot overflow (base/checked.c), and the
 * places that use it: the session's array constructors and top-level range loops, and the .npy
 * reader given crafted headers.
 *
 * Also the check that no NUL byte in a source file is silently taken for its end.
 *
 * Range lengths are compared with Python's len(range(...)) for bounds and steps at the edges of
 * int64 (the expected numbers are Python's); sizes with NumPy's refusals.  Every case here
 * crashed, hung or wrapped before the helper existed.
 */
#include "../../base/base.h"
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(c, ...)                                                                          \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

#define BIG INT64_MAX
#define SMALL INT64_MIN

static void test_range_len(void) {
    static const struct {
        int64_t start, stop, step;
        uint64_t len; /* Python's len(range(start, stop, step)) */
    } cases[] = {
        {0, BIG, INT64_C(1) << 62, 2},
        {0, BIG, BIG, 1},
        {SMALL, BIG, INT64_C(1) << 62, 4},
        {BIG - 3, BIG, 1, 3},
        {BIG, SMALL, -(INT64_C(1) << 62), 4},
        {BIG, SMALL, SMALL, 2},
        {SMALL + 3, SMALL, -1, 3},
        {SMALL, BIG, BIG, 3},
        {BIG, SMALL, -BIG, 3},
        {SMALL, BIG, 1, UINT64_MAX},
        {BIG, SMALL, -1, UINT64_MAX},
        {SMALL, 0, BIG, 2},
        {0, 10, 3, 4},
        {10, 0, -3, 4},
        {5, 5, 1, 0},
        {5, 5, -1, 0},
        {0, 10, -1, 0},
        {10, 0, 1, 0},
        {0, 10, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t n = nj_range_len(cases[i].start, cases[i].stop, cases[i].step);
        CHECK(n == cases[i].len, "range(%lld, %lld, %lld): %llu, want %llu",
              (long long)cases[i].start, (long long)cases[i].stop, (long long)cases[i].step,
              (unsigned long long)n, (unsigned long long)cases[i].len);
    }
    CHECK(nj_range_len_u64(UINT64_MAX - 2, UINT64_MAX, 1) == 2, "uint64 range");
    CHECK(nj_range_len_u64(0, UINT64_MAX, INT64_C(1) << 62) == 4, "uint64 range, big step");
    CHECK(nj_range_len_u64(UINT64_MAX, 0, SMALL) == 2, "uint64 range, step INT64_MIN");
    CHECK(nj_range_at(SMALL, INT64_C(1) << 62, 3) == INT64_C(1) << 62, "range_at");
    CHECK(nj_range_at(BIG, -1, UINT64_MAX - 1) == SMALL + 1, "range_at, down");
}

static void test_sizes(void) {
    int64_t n = -7, s2[2] = {INT64_C(1) << 32, INT64_C(1) << 32};
    CHECK(nj_shape_size(2, s2, &n) == NJ_SIZE_OVERFLOW && n == -7, "2**32 x 2**32");
    int64_t s3[3] = {INT64_C(1) << 62, 2, 0};
    CHECK(nj_shape_size(3, s3, &n) == NJ_SIZE_OK && n == 0, "a zero extent after an overflow");
    int64_t s4[2] = {INT64_C(1) << 62, 0};
    CHECK(nj_byte_size(2, s4, 8, &n) == NJ_SIZE_OK && n == 0, "(2**62, 0) of float64");
    int64_t s5[1] = {INT64_C(1) << 62};
    CHECK(nj_byte_size(1, s5, 8, &n) == NJ_SIZE_OVERFLOW, "2**62 float64");
    CHECK(nj_byte_size(1, s5, 1, &n) == NJ_SIZE_OK && n == INT64_C(1) << 62, "2**62 int8");
    int64_t s6[2] = {3, -1};
    CHECK(nj_shape_size(2, s6, &n) == NJ_SIZE_NEGATIVE, "negative extent");
    CHECK(nj_shape_size(0, NULL, &n) == NJ_SIZE_OK && n == 1, "0-d");
    CHECK(!nj_mul_size(BIG, 2, &n) && nj_mul_size(BIG, 1, &n) && n == BIG, "mul_size");
    CHECK(!nj_mul_size(-1, 2, &n), "mul_size of a negative");
    CHECK(strstr(nj_size_message(NJ_SIZE_OVERFLOW), "array is too big"), "message");
}

static void test_index(void) {
    int64_t i = 99;
    CHECK(nj_index_norm(-1, 3, &i) && i == 2, "-1 of 3");
    CHECK(nj_index_norm(-3, 3, &i) && i == 0, "-3 of 3");
    CHECK(!nj_index_norm(-4, 3, &i) && !nj_index_norm(3, 3, &i), "outside [-3, 3)");
    CHECK(!nj_index_norm(SMALL, BIG, &i) && !nj_index_norm(0, 0, &i), "extremes");
    CHECK(nj_index_norm(SMALL + 1, BIG, &i) && i == 0, "-(2**63-1) of 2**63-1");
    CHECK(!nj_index_norm_u64(UINT64_MAX, 5, &i), "uint64 2**64-1 is not -1");
    CHECK(nj_index_norm_u64(4, 5, &i) && i == 4, "uint64 4 of 5");
}

/* the session: no size wraps to a small block, no loop steps past INT64_MAX */
static void test_session(NjContext *ctx) {
    NjSession *s;
    if (nj_session_new(ctx, NJ_TARGET_CPU, &s)) {
        CHECK(0, "no session");
        return;
    }
    static const struct {
        const char *src, *want; /* want: a substring of the output, or of the error */
        bool ok;
    } cases[] = {
        {"n = 0\nfor i in range(0, 2**63-1, 2**62):\n    n += 1\nprint(n, i)\n",
         "2 4611686018427387904", true},
        {"n = 0\nfor i in range(2**63-1, -2**63, -2**62):\n    n += 1\nprint(n, i)\n",
         "4 -4611686018427387905", true},
        {"x = np.zeros((2**32, 2**32))\n", "ValueError: array is too big", false},
        {"x = np.zeros(2**62)\n", "ValueError: array is too big", false},
        {"x = np.ones((2**62, 0))\nprint(x.shape)\n", "(4611686018427387904, 0)", true},
        {"x = np.linspace(0, 1, 2**62)\n", "ValueError: array is too big", false},
        {"x = np.arange(0, 2**63-1, 1)\n", "ValueError: Maximum allowed size exceeded", false},
        {"x = np.arange(2**62, 2**63-1, 2**61)\nprint(x)\n",
         "[4611686018427387904 6917529027641081856]", true},
        {"x = np.random.uniform(0, 1, (2**32, 2**32))\n", "ValueError: array is too big", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        NjStatus st = nj_session_exec(s, "<t>", cases[i].src, &out);
        const char *got = cases[i].ok ? (out ? out : "") : nj_error_message(ctx);
        CHECK((st == NJ_OK) == cases[i].ok && strstr(got, cases[i].want),
              "%s\n  want %s containing [%s]\n  got [%s]", cases[i].src,
              cases[i].ok ? "output" : "an error", cases[i].want, got);
        nj_free_string(out);
    }
    nj_session_free(s);
}

/* A .npy file whose header is pre (magic, version 1.0, header length) + header, then payload. */
static void write_npy(const char *path, const char *header, size_t payload) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    size_t h = strlen(header);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(h & 255),
                             (unsigned char)(h >> 8)};
    fwrite(pre, 1, 10, f);
    fwrite(header, 1, h, f);
    for (size_t i = 0; i < payload; i++)
        fputc(0, f);
    fclose(f);
}

static void test_npy(NjContext *ctx) {
    NjSession *s;
    if (nj_session_new(ctx, NJ_TARGET_CPU, &s))
        return;
    char path[64], src[160];
    snprintf(path, sizeof path, "/tmp/nj_checked_%d.npy", (int)getpid());
    static const struct {
        const char *header, *want;
        size_t payload;
    } cases[] = {
        /* 2**32 * 2**32 wraps to 0 elements: once read as an empty array, then overrun */
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n",
         "too large", 64},
        /* 2**61 float64 = 2**64 bytes wraps to 0 */
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }\n",
         "too large", 64},
        /* a shape larger than the file */
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000,), }\n", "truncated", 64},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }\n",
         "too large", 64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_npy(path, cases[i].header, cases[i].payload);
        snprintf(src, sizeof src, "x = np.load('%s')\n", path);
        char *out = NULL;
        NjStatus st = nj_session_exec(s, "<t>", src, &out);
        nj_free_string(out);
        const char *msg = nj_error_message(ctx);
        CHECK(st != NJ_OK && strstr(msg, cases[i].want), "npy case %zu: want [%s], got [%s]", i,
              cases[i].want, st ? msg : "no error");
    }
    write_npy(path, "{'descr': '<f8', 'fortran_order': False, 'shape': (8,), }\n", 64);
    snprintf(src, sizeof src, "x = np.load('%s')\nprint(x.sum(), x.shape)\n", path);
    char *out = NULL;
    NjStatus st = nj_session_exec(s, "<t>", src, &out);
    CHECK(st == NJ_OK && out && strstr(out, "0.0 (8,)"), "a well-formed file: [%s]",
          out ? out : nj_error_message(ctx));
    nj_free_string(out);
    unlink(path);
    nj_session_free(s);
}

/* A NUL byte in source is a located error, never the silent end of the text. */
static void test_nul(NjContext *ctx) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/nj_checked_nul_%d.py", (int)getpid());
    static const char text[] = "@njit\ndef f(x):\n    return x \0+ 5\n\n@njit\ndef g(y):\n"
                               "    return y\n";
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    NjModule *m = NULL;
    NjStatus st = nj_compile_file(ctx, path, &m);
    const char *msg = nj_error_message(ctx);
    CHECK(st == NJ_ERR_SYNTAX && strstr(msg, ":3:14: error: source code cannot contain NUL") &&
              strstr(msg, "^"),
          "NUL in a file: %s", st ? msg : "accepted");
    unlink(path);
    CHECK(nj_check_source_bytes(ctx, "<t>", "x = 1\n", 6) == NJ_OK, "no NUL");
    CHECK(nj_check_source_bytes(ctx, "<t>", "x\0", 2) == NJ_ERR_SYNTAX &&
              strstr(nj_error_message(ctx), "<t>:1:2: error:"),
          "NUL at 1:2: %s", nj_error_message(ctx));
}

int main(void) {
    test_range_len();
    test_sizes();
    test_index();
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        fprintf(stderr, "no context\n");
        return 1;
    }
    test_session(ctx);
    test_npy(ctx);
    test_nul(ctx);
    nj_context_free(ctx);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}

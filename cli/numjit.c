/* numjit.c — the numjit command.
 *
 *   numjit check FILE.py                       parse; report every syntax error
 *   numjit ir    FILE.py --sig 'f(float64[:], int64)'   typed IR of that specialization
 *   numjit llvm  FILE.py --sig ...             optimized LLVM IR
 *   numjit asm   FILE.py --sig ...             x86-64 assembly
 *   numjit version
 *
 * Exit status: 0 on success, 1 when the input has errors (printed to stderr as
 * file:line:col diagnostics with a caret), 2 on bad usage.  Only the public API is used:
 * the command is an ordinary client of libnumjit.
 */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *to) {
    fputs("usage: numjit check FILE.py\n"
          "       numjit ir|llvm|asm FILE.py --sig 'NAME(TYPE, ...)'\n"
          "       numjit version\n"
          "types: float64 float32 int64 int32 int16 int8 uint64 ... bool,\n"
          "       arrays as float64[:] (any layout), float64[::1] (C), float64[:, ::1], "
          "float64[::1, :] (F)\n",
          to);
}

static int report(NjContext *ctx, NjStatus st) {
    const char *msg = nj_error_message(ctx);
    fprintf(stderr, "%s", *msg ? msg : nj_status_name(st));
    if (*msg && msg[strlen(msg) - 1] != '\n')
        fputc('\n', stderr);
    return 1;
}

/* Splits "f(float64[:], int64)" into the function name and the signature. */
static int split_sig(const char *sig, char *name, size_t n) {
    const char *p = strchr(sig, '(');
    if (!p || p == sig || (size_t)(p - sig) >= n)
        return -1;
    size_t k = (size_t)(p - sig);
    memcpy(name, sig, k);
    while (k > 0 && name[k - 1] == ' ')
        k--;
    name[k] = 0;
    return 0;
}

static int dump(NjContext *ctx, const char *what, const char *file, const char *sig) {
    char name[256];
    if (!sig || split_sig(sig, name, sizeof name)) {
        fprintf(stderr, "numjit %s: --sig 'NAME(TYPES)' is required, e.g. --sig 'f(float64[:], int64)'\n",
                what);
        return 2;
    }
    NjModule *m;
    NjFunction *f;
    NjStatus st = nj_compile_file(ctx, file, &m);
    if (!st)
        st = nj_module_function(m, name, &f);
    char *text = NULL;
    if (!st)
        st = nj_function_dump(f, strchr(sig, '('), !strcmp(what, "ir") ? "typed" : what, &text);
    if (st)
        return report(ctx, st);
    fputs(text, stdout);
    nj_free_string(text);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("numjit %s\n", nj_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    const char *file = NULL, *sig = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--sig") && i + 1 < argc)
            sig = argv[++i];
        else if (!strncmp(argv[i], "--sig=", 6))
            sig = argv[i] + 6;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "numjit: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!file)
            file = argv[i];
        else {
            fprintf(stderr, "numjit: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!file) {
        usage(stderr);
        return 2;
    }
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        fputs("numjit: out of memory\n", stderr);
        return 1;
    }
    int rc;
    if (!strcmp(cmd, "check")) {
        NjModule *m;
        NjStatus st = nj_compile_file(ctx, file, &m);
        rc = st ? report(ctx, st) : 0;
    } else if (!strcmp(cmd, "ir") || !strcmp(cmd, "llvm") || !strcmp(cmd, "asm")) {
        rc = dump(ctx, cmd, file, sig);
    } else {
        fprintf(stderr, "numjit: unknown command '%s'\n", cmd);
        usage(stderr);
        rc = 2;
    }
    nj_context_free(ctx);
    return rc;
}

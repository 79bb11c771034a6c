/* numjit.c — the numjit command.
 *
 *   numjit check FILE.py [--sig 'f(TYPES)']    parse; report every syntax error; with --sig,
 *                                              also type f for TYPES (undefined names, ...)
 *   numjit ir    FILE.py --sig 'f(float64[:], int64)'   typed IR of that specialization
 *   numjit llvm  FILE.py --sig ...             optimized LLVM IR
 *   numjit asm   FILE.py --sig ...             x86-64 assembly
 *   numjit ptx   FILE.py --sig 'k(float32[:])' [--arch sm_90] [--backend auto|llvm|nvvm]
 *                [-o FILE.ptx]                 PTX of a @cuda.jit kernel (docs/cuda.md); the
 *                                              backend goes to libnumjit as NUMJIT_PTX_BACKEND
 *   numjit obj   FILE.py --sig 'f(float64[:])' [--sig ...] -o lib.o [--header lib.h]
 *                [--cpu generic|native|NAME] [--vector-math] [--prefix NAME]
 *                                              one x86-64 object + C header (obj.c, docs/aot.md)
 *   numjit version
 *   numjit cache list|clear                    the on-disk cache (entries, or remove them)
 *   numjit [--target cpu|parallel]             the REPL (repl.c)
 *   numjit run FILE.py [--target cpu|parallel] run a file's top-level statements (script.c)
 *
 * Exit status: 0 on success, 1 when the input has errors (printed to stderr as
 * file:line:col diagnostics with a caret), 2 on bad usage.  Only the public API is used:
 * the command is an ordinary client of libnumjit.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *to) {
    fputs("usage: numjit                              (interactive session; :help inside)\n"
          "       numjit run FILE.py [--target cpu|parallel]\n"
          "       numjit check FILE.py [--sig 'NAME(TYPE, ...)']\n"
          "       numjit ir|llvm|asm FILE.py --sig 'NAME(TYPE, ...)'\n"
          "       numjit ptx FILE.py --sig 'KERNEL(TYPE, ...)' [--arch sm_90|sm_100|...]\n"
          "                  [--backend auto|llvm|nvvm] [-o FILE.ptx]\n"
          "       numjit obj FILE.py --sig 'NAME(TYPE, ...)' [--sig ...] -o FILE.o [--header FILE.h]\n"
          "                  [--cpu generic|native|NAME] [--vector-math] [--prefix NAME]\n"
          "       numjit cache list|clear\n"
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

/* numjit ptx: the PTX of a @cuda.jit kernel for an explicit signature (no GPU needed). */
static int ptx(NjContext *ctx, const char *file, const char *sig, const char *arch,
               const char *out) {
    if (!sig) {
        fputs("numjit ptx: --sig 'NAME(TYPES)' is required, e.g. --sig 'k(float32[:], float32[:])'\n",
              stderr);
        return 2;
    }
    NjModule *m;
    char *text = NULL;
    NjStatus st = nj_compile_file(ctx, file, &m);
    if (!st)
        st = nj_ptx(m, sig, arch, &text);
    if (st)
        return report(ctx, st);
    FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "numjit ptx: cannot write '%s'\n", out);
        nj_free_string(text);
        return 1;
    }
    bool ok = fputs(text, f) >= 0;
    if (f != stdout)
        ok = fclose(f) == 0 && ok;
    nj_free_string(text);
    if (!ok) {
        fprintf(stderr, "numjit ptx: cannot write '%s'\n", out ? out : "stdout");
        return 1;
    }
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
    bool check = !strcmp(what, "check");
    if (!st)
        st = nj_function_dump(f, strchr(sig, '('), check || !strcmp(what, "ir") ? "typed" : what,
                              &text);
    if (st)
        return report(ctx, st);
    if (!check)
        fputs(text, stdout);
    nj_free_string(text);
    return 0;
}

/* numjit [--target T] and numjit run FILE.py [--target T] */
static int session_command(int argc, char **argv) {
    bool run = argc >= 2 && !strcmp(argv[1], "run");
    const char *file = NULL;
    int target = NJ_TARGET_CPU;
    for (int i = run ? 2 : 1; i < argc; i++) {
        const char *t = NULL;
        if (!strcmp(argv[i], "--target") && i + 1 < argc)
            t = argv[++i];
        else if (!strncmp(argv[i], "--target=", 9))
            t = argv[i] + 9;
        else if (run && !file && argv[i][0] != '-')
            file = argv[i];
        else {
            fprintf(stderr, "numjit: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
        if (t && (target = cli_target(t)) < 0) {
            fprintf(stderr, "numjit: unknown target '%s' (cpu, parallel, cuda)\n", t);
            return 2;
        }
    }
    if (run && !file) {
        usage(stderr);
        return 2;
    }
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        fputs("numjit: out of memory\n", stderr);
        return 1;
    }
    int rc = run ? cli_run(ctx, file, (NjTarget)target) : cli_repl(ctx, (NjTarget)target);
    nj_context_free(ctx);
    return rc;
}

/* numjit cache list|clear: the on-disk cache under nj_cache_dir(). */
static void cache_line(const NjCacheEntry *e, void *user) {
    int *n = user;
    (*n)++;
    if (e->valid)
        printf("%8lld  %s\n          %s\n", (long long)e->size, e->desc, e->path);
    else
        printf("%8lld  (damaged: %s; ignored, rebuilt on next use)\n          %s\n",
               (long long)e->size, e->problem ? e->problem : "?", e->path);
}

static int cache_command(int argc, char **argv) {
    const char *sub = argc >= 3 ? argv[2] : NULL, *dir = nj_cache_dir();
    if (!sub || argc > 3 || (strcmp(sub, "list") && strcmp(sub, "clear"))) {
        fputs("usage: numjit cache list|clear\n", stderr);
        return 2;
    }
    if (!dir) {
        fputs("numjit cache: no cache directory (set NUMJIT_CACHE_DIR or HOME)\n", stderr);
        return 1;
    }
    if (!strcmp(sub, "list")) {
        int n = 0;
        printf("cache directory: %s\n", dir);
        if (nj_cache_list(cache_line, &n)) {
            fprintf(stderr, "numjit cache: cannot read %s\n", dir);
            return 1;
        }
        printf("%d entr%s\n", n, n == 1 ? "y" : "ies");
        return 0;
    }
    int removed = 0;
    NjStatus st = nj_cache_clear(&removed);
    printf("removed %d entr%s from %s\n", removed, removed == 1 ? "y" : "ies", dir);
    if (st) {
        fprintf(stderr, "numjit cache: some files in %s could not be removed\n", dir);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "run") || !strncmp(argv[1], "--target", 8))
        return session_command(argc, argv);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "cache"))
        return cache_command(argc, argv);
    if (!strcmp(cmd, "obj"))
        return cli_obj(argc, argv);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("numjit %s\n", nj_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    const char *file = NULL, *sig = NULL, *arch = NULL, *out = NULL, *backend = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--sig") && i + 1 < argc)
            sig = argv[++i];
        else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
            arch = argv[++i];
        else if (!strncmp(argv[i], "--arch=", 7))
            arch = argv[i] + 7;
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            backend = argv[++i];
        else if (!strncmp(argv[i], "--backend=", 10))
            backend = argv[i] + 10;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
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
    if (backend) { /* the PTX backend: libnumjit reads it where the choice is automatic */
        if (strcmp(backend, "auto") && strcmp(backend, "llvm") && strcmp(backend, "nvvm")) {
            fprintf(stderr, "numjit: --backend takes auto, llvm or nvvm, not '%s'\n", backend);
            return 2;
        }
        setenv("NUMJIT_PTX_BACKEND", backend, 1);
    }
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        fputs("numjit: out of memory\n", stderr);
        return 1;
    }
    int rc;
    if (!strcmp(cmd, "check") && sig) {
        rc = dump(ctx, "check", file, sig); /* types that specialization: its errors, no text */
    } else if (!strcmp(cmd, "check")) {
        NjModule *m;
        NjStatus st = nj_compile_file(ctx, file, &m);
        rc = st ? report(ctx, st) : 0;
    } else if (!strcmp(cmd, "ptx")) {
        rc = ptx(ctx, file, sig, arch, out);
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

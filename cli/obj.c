/* obj.c — `numjit obj`: @njit functions ahead of time, into one object file and a C header.
 *
 *   numjit obj FILE.py --sig 'f(float64[:], float64)' [--sig 'g32=g(float32[:])' ...]
 *              -o lib.o [--header lib.h] [--cpu generic|x86-64-v3|native|NAME]
 *              [--vector-math] [--prefix NAME]
 *
 * Parses the file, then asks libnumjit for the object (nj_aot_object) and, with --header, for
 * its header (nj_aot_header) with the same signatures and options; both outputs are written to
 * temporary files next to their destinations and renamed only when both were written, so a
 * failed run leaves neither a half file nor an object without its header.
 * A C program then builds with `cc main.c lib.o -lm` (docs/aot.md).
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBJ_MAX_SIGS 256

static void obj_usage(FILE *to) {
    fputs("usage: numjit obj FILE.py --sig 'NAME(TYPE, ...)' [--sig 'EXPORT=NAME(TYPE, ...)' ...]\n"
          "                  -o FILE.o [--header FILE.h] [--cpu generic|x86-64-v2|x86-64-v3|"
          "x86-64-v4|native|NAME]\n"
          "                  [--vector-math] [--prefix NAME]\n"
          "  Compiles the @njit functions for the signatures into one x86-64 object file; the\n"
          "  header declares them for C (link with: cc main.c FILE.o -lm).  --cpu: generic\n"
          "  (default, any x86-64) or the CPU to tune for; --vector-math: loops may call glibc's\n"
          "  libmvec (link -lmvec too); --prefix: of the header's macros and helpers (default:\n"
          "  the header's file name: lib.h gives LIB_RAISE_1, lib_status_message).\n",
          to);
}

/* Writes n bytes to path's temporary file (path + ".tmp", malloc'ed into *tmp). */
static bool obj_write_tmp(const char *path, const void *data, size_t n, char **tmp) {
    size_t len = strlen(path) + 16;
    *tmp = malloc(len);
    if (!*tmp)
        return false;
    snprintf(*tmp, len, "%s.tmp", path);
    FILE *f = fopen(*tmp, "wb");
    bool ok = f && fwrite(data, 1, n, f) == n;
    if (f)
        ok = fclose(f) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "numjit obj: cannot write '%s': %s\n", path, strerror(errno));
        remove(*tmp);
    }
    return ok;
}

/* Writes the object and (when header) its header: both, or neither. */
static bool obj_write_all(const char *out, const void *obj, size_t len, const char *header,
                          const char *text) {
    char *tobj = NULL, *thdr = NULL;
    bool ok = obj_write_tmp(out, obj, len, &tobj);
    if (ok && header && !obj_write_tmp(header, text, strlen(text), &thdr)) {
        remove(tobj);
        ok = false;
    }
    if (ok && header && rename(thdr, header)) {
        fprintf(stderr, "numjit obj: cannot write '%s': %s\n", header, strerror(errno));
        remove(thdr);
        remove(tobj);
        ok = false;
    }
    if (ok && rename(tobj, out)) {
        fprintf(stderr, "numjit obj: cannot write '%s': %s\n", out, strerror(errno));
        remove(tobj);
        remove(header); /* the header without its object would be a lie */
        ok = false;
    }
    free(tobj);
    free(thdr);
    return ok;
}

static int obj_fail(NjContext *ctx, NjStatus st) {
    const char *msg = nj_error_message(ctx);
    fprintf(stderr, "%s", *msg ? msg : nj_status_name(st));
    if (!*msg || msg[strlen(msg) - 1] != '\n')
        fputc('\n', stderr);
    return 1;
}

int cli_obj(int argc, char **argv) {
    const char *file = NULL, *out = NULL, *header = NULL;
    const char *sigs[OBJ_MAX_SIGS];
    int nsigs = 0;
    NjAotOptions opt = {0};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
#define OBJ_OPT(name) \
    ((!strcmp(a, name) && i + 1 < argc && (v = argv[++i])) || \
     (!strncmp(a, name "=", strlen(name) + 1) && (v = a + strlen(name) + 1)))
        if (OBJ_OPT("--sig")) {
            if (nsigs == OBJ_MAX_SIGS) {
                fprintf(stderr, "numjit obj: at most %d signatures\n", OBJ_MAX_SIGS);
                return 2;
            }
            sigs[nsigs++] = v;
        } else if (OBJ_OPT("-o") || OBJ_OPT("--output")) {
            out = v;
        } else if (OBJ_OPT("--header")) {
            header = v;
        } else if (OBJ_OPT("--cpu")) {
            opt.cpu = v;
        } else if (OBJ_OPT("--prefix")) {
            opt.prefix = v;
        } else if (!strcmp(a, "--vector-math")) {
            opt.vector_math = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            obj_usage(stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "numjit obj: unknown option or missing value '%s'\n", a);
            obj_usage(stderr);
            return 2;
        } else if (!file) {
            file = a;
        } else {
            fprintf(stderr, "numjit obj: unexpected argument '%s'\n", a);
            return 2;
        }
#undef OBJ_OPT
    }
    if (!file || !nsigs || !out) {
        fprintf(stderr, "numjit obj: %s\n", !file ? "FILE.py is required"
                                            : !nsigs ? "at least one --sig is required"
                                                     : "-o FILE.o is required");
        obj_usage(stderr);
        return 2;
    }
    /* the header's names follow its file name: lib.h gives LIB_RAISE_1, lib_status_message */
    char prefix[256];
    if (!opt.prefix && header) {
        const char *base = strrchr(header, '/');
        base = base ? base + 1 : header;
        size_t n = 0;
        if (isdigit((unsigned char)*base))
            prefix[n++] = 'h';
        for (; *base && *base != '.' && n + 1 < sizeof prefix; base++)
            prefix[n++] = isalnum((unsigned char)*base) ? *base : '_';
        prefix[n] = 0;
        if (n)
            opt.prefix = prefix;
    }
    NjContext *ctx;
    if (nj_context_new(&ctx)) {
        fputs("numjit: out of memory\n", stderr);
        return 1;
    }
    NjModule *m;
    void *obj = NULL;
    size_t len = 0;
    char *text = NULL;
    int rc = 0;
    NjStatus st = nj_compile_file(ctx, file, &m);
    if (!st && header)
        st = nj_aot_header(m, sigs, nsigs, &opt, &text);
    if (!st)
        st = nj_aot_object(m, sigs, nsigs, &opt, &obj, &len);
    if (st)
        rc = obj_fail(ctx, st);
    else if (!obj_write_all(out, obj, len, header, text))
        rc = 1;
    nj_aot_free(obj);
    nj_free_string(text);
    nj_context_free(ctx);
    return rc;
}

/* golden_typed.c — golden tests of the typer: for each NAME.py in a directory, whose first
 * line is "# sig: FUNC(TYPES)", the typed IR (numjit ir) must equal NAME.ir, or — when the
 * typing fails — the rendered diagnostics must equal NAME.err.  NJ_UPDATE_GOLDEN=1 rewrites
 * the expected files instead of comparing.  Usage: golden_typed DIR */
#include "numjit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static int check(const char *name) {
    char *src = slurp(name);
    if (!src || strncmp(src, "# sig: ", 7)) {
        printf("FAIL %s: first line must be '# sig: FUNC(TYPES)'\n", name);
        free(src);
        return 1;
    }
    char sig[512], fname[128];
    size_t n = strcspn(src + 7, "\n");
    snprintf(sig, sizeof sig, "%.*s", (int)n, src + 7);
    snprintf(fname, sizeof fname, "%.*s", (int)strcspn(sig, "("), sig);
    NjContext *ctx;
    nj_context_new(&ctx);
    NjModule *m;
    NjFunction *f;
    char *out = NULL;
    NjStatus st = nj_compile_source(ctx, name, src, &m);
    if (!st)
        st = nj_module_function(m, fname, &f);
    if (!st)
        st = nj_function_dump(f, strchr(sig, '('), "typed", &out);
    char expect_path[512];
    snprintf(expect_path, sizeof expect_path, "%.*s.%s", (int)(strlen(name) - 3), name,
             st ? "err" : "ir");
    const char *got = st ? nj_error_message(ctx) : out;
    int bad = 0;
    if (getenv("NJ_UPDATE_GOLDEN")) {
        FILE *o = fopen(expect_path, "wb");
        if (o) {
            fputs(got, o);
            fclose(o);
        }
    } else {
        char *want = slurp(expect_path);
        if (!want || strcmp(want, got)) {
            printf("FAIL %s: output differs from %s%s\n--- got:\n%s\n", name, expect_path,
                   want ? "" : " (missing)", got);
            bad = 1;
        }
        free(want);
    }
    nj_free_string(out);
    nj_context_free(ctx);
    free(src);
    return bad;
}

int main(int argc, char **argv) {
    if (argc != 2 || chdir(argv[1])) {
        fprintf(stderr, "usage: golden_typed DIR\n");
        return 2;
    }
    DIR *d = opendir(".");
    struct dirent *e;
    int files = 0, bad = 0;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && !strcmp(e->d_name + n - 3, ".py")) {
            files++;
            bad += check(e->d_name);
        }
    }
    if (d)
        closedir(d);
    printf("%d golden programs, %d failed\n", files, bad);
    return bad != 0 || files == 0;
}

/* golden_frontend.c — golden-file runner for the frontend.
 *
 *   golden_frontend parse DIR   every DIR/NAME.py is parsed; ast_print of the module, then the
 *                               module table (";; " lines), must equal DIR/NAME.ast, and the
 *                               file must give no diagnostics
 *   golden_frontend diag DIR    every DIR/NAME.py must give diagnostics; their rendering
 *                               (diag_render, file named NAME.py) must equal DIR/NAME.err
 *   golden_frontend dump FILE   prints the AST, the module table and the diagnostics of FILE
 *
 * With NJ_UPDATE_GOLDEN=1 in the environment, mismatching or missing expected files are
 * rewritten instead of failing.  Exits 0 when every file matched, 1 otherwise.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

static const char *kind_names[] = {"plain", "njit", "vectorize", "guvectorize", "kernel",
                                   "device"};

static void print_table(const ModuleInfo *m, StrBuf *out)
{
    /* what the compiler's own library modules add (stdlib/) is not the program's */
    for (int i = 0; i < m->nbinds; i++)
        if (strncmp(m->bind_names[i], "_nj_", 4))
            sb_printf(out, ";; bind %s = %s\n", m->bind_names[i], m->bind_targets[i]);
    for (int i = 0; i < m->nconsts; i++) {
        if (m->consts[i].library)
            continue;
        StrBuf v;
        sb_init(&v);
        ast_print(m->consts[i].value, &v);
        sb_printf(out, ";; const %s = %s", m->consts[i].name, v.data);
        sb_free(&v);
    }
    for (int i = 0; i < m->nfuncs; i++) {
        const FuncInfo *f = &m->funcs[i];
        if (f->library)
            continue;
        sb_printf(out, ";; func %s kind=%s target=%s error_model=%s", f->name,
                  kind_names[f->kind], f->target, f->error_model == EM_PYTHON ? "python" : "numpy");
        if (f->cache) sb_puts(out, " cache");
        if (f->fastmath) sb_puts(out, " fastmath");
        if (f->boundscheck) sb_puts(out, " boundscheck");
        if (f->parallel) sb_puts(out, " parallel");
        if (f->layout) sb_printf(out, " layout=\"%s\"", f->layout);
        if (f->identity) {
            StrBuf v;
            sb_init(&v);
            ast_print(f->identity, &v);
            v.data[v.len - 1] = 0;
            sb_printf(out, " identity=%s", v.data);
            sb_free(&v);
        }
        sb_putc(out, '\n');
        for (int j = 0; j < f->sigs.n; j++) {
            StrBuf v;
            sb_init(&v);
            ast_print(f->sigs.items[j], &v);
            sb_printf(out, ";;   sig %s", v.data);
            sb_free(&v);
        }
        int lines = 0;
        for (const char *s = f->source_text; s && *s; s++)
            lines += *s == '\n';
        sb_printf(out, ";;   source %d lines\n", f->source_text ? lines + 1 : 0);
    }
}

/* Parses text (named name) and renders the AST + table into ast and diagnostics into err. */
static void run(const char *name, const char *text, size_t len, StrBuf *ast, StrBuf *err)
{
    Source src = {name, text, len};
    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags);
    Node *mod = fe_parse(arena, &src, &diags);
    if (mod) {
        ast_print(mod, ast);
        ModuleInfo *m = fe_module_info(arena, &src, mod, &diags);
        if (m)
            print_table(m, ast);
    }
    diag_render(&diags, err);
    diag_free(&diags);
    arena_free(arena);
}

static int check(const char *path, const char *got, bool update)
{
    size_t n;
    char *want = read_file(path, &n);
    int ok = want && strcmp(want, got) == 0;
    if (!ok && update) {
        FILE *f = fopen(path, "wb");
        if (f) {
            fputs(got, f);
            fclose(f);
            printf("updated %s\n", path);
        }
        ok = 1;
    } else if (!ok) {
        printf("FAIL %s\n--- expected\n%s--- got\n%s---\n", path, want ? want : "(missing)\n", got);
    }
    free(want);
    return ok;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    bool update = getenv("NJ_UPDATE_GOLDEN") && strcmp(getenv("NJ_UPDATE_GOLDEN"), "1") == 0;
    if (argc != 3) {
        fprintf(stderr, "usage: %s parse|diag DIR  |  %s dump FILE\n", argv[0], argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "dump") == 0) {
        size_t len;
        char *text = read_file(argv[2], &len);
        StrBuf ast, err;
        if (!text) {
            fprintf(stderr, "cannot read %s\n", argv[2]);
            return 2;
        }
        sb_init(&ast);
        sb_init(&err);
        run(argv[2], text, len, &ast, &err);
        printf("%s%s", ast.data ? ast.data : "", err.data ? err.data : "");
        sb_free(&ast);
        sb_free(&err);
        free(text);
        return 0;
    }
    bool diag = strcmp(argv[1], "diag") == 0;
    DIR *d = opendir(argv[2]);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", argv[2]);
        return 2;
    }
    char *names[1024];
    int nn = 0, failed = 0, total = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 1024) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".py") == 0)
            names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0], cmp_names);
    for (int i = 0; i < nn; i++) {
        char path[4096], exp[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", argv[2], names[i]);
        char *text = read_file(path, &len);
        StrBuf ast, err;
        sb_init(&ast);
        sb_init(&err);
        if (!text) {
            printf("FAIL cannot read %s\n", path);
            failed++;
            continue;
        }
        run(names[i], text, len, &ast, &err);
        snprintf(exp, sizeof exp, "%.*s.%s", (int)(strlen(path) - 3), path, diag ? "err" : "ast");
        total++;
        if (diag) {
            if (!err.data || !err.len) {
                printf("FAIL %s: expected diagnostics, got none\n", path);
                failed++;
            } else if (!check(exp, err.data, update)) {
                failed++;
            }
        } else {
            if (err.len) {
                printf("FAIL %s: unexpected diagnostics\n%s", path, err.data);
                failed++;
            } else if (!check(exp, ast.data ? ast.data : "", update)) {
                failed++;
            }
        }
        sb_free(&ast);
        sb_free(&err);
        free(text);
        free(names[i]);
    }
    printf("%d/%d golden files match in %s\n", total - failed, total, argv[2]);
    return failed ? 1 : 0;
}

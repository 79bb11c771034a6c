/* session_cmd.c — a session's inspection commands and tab completion.
 *
 *   :type EXPR        the type of the value (evaluates EXPR)
 *   :ir NAME          typed numjit IR of a session function (signature of its last call, or
 *   :llvm NAME        given: ":ir f(float64[:], int64)"); with no NAME, the function synthesized
 *   :asm NAME         for the last array expression
 *   :ptx NAME         PTX for sm_90 (no GPU needed): the function as a device function
 *   :time STATEMENT   runs it once (compile time measured apart), then repeatedly: median
 *   :target cpu|parallel|cuda
 *   :load FILE.py     runs a file's statements in the session
 *   :vars             the variables and their types
 *   :help
 * Completion offers variables, session functions, keywords, builtins, np.NAMEs and commands.
 */
#include "session.h"
#include "cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help_text =
    "Type Python statements: assignments, expressions, def blocks, for/while/if, print().\n"
    "Array expressions such as  y = 2*(x - z)/(x + z)  compile into one fused loop;\n"
    "sum/min/max/mean/prod fuse with the expression they reduce.\n"
    "Arrays: np.zeros ones empty full arange linspace array, np.random.uniform/normal\n"
    "(seed=...), np.random.default_rng(seed), np.load / np.save (.npy files).\n"
    "Commands:\n"
    "  :type EXPR          type of an expression's value\n"
    "  :ir NAME            numjit IR of a function (NAME(types) to choose the signature;\n"
    "  :llvm NAME          no NAME: the last array expression's loop body)\n"
    "  :asm NAME           x86-64 assembly\n"
    "  :ptx NAME           PTX for sm_90 (no GPU needed)\n"
    "  :time STATEMENT     median time of repeated runs, compile time shown apart\n"
    "  :target cpu|parallel|cuda\n"
    "  :load FILE.py       run a file's statements here\n"
    "  :vars               variables and their types\n"
    "  :help               this text\n"
    "Ctrl-D or exit() leaves.\n";

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* "f(float64[:])" or "f": the function's module, name and signature. */
static NjStatus resolve_target(NjSession *s, const char *arg, NjModule **m, char *name,
                               size_t nn, const char **sig) {
    const char *p = skip_ws(arg);
    size_t k = 0;
    while (p[k] && p[k] != '(' && p[k] != ' ' && p[k] != '\n')
        k++;
    if (k == 0) {
        if (!s->last_expr_fn) {
            rt_set_error(s->ctx, "error: no array expression yet: give a function name");
            return NJ_ERR_ARGS;
        }
        *m = s->last_expr_mod;
        snprintf(name, nn, "%s", s->last_expr_fn);
        *sig = s->last_expr_sig;
        return NJ_OK;
    }
    if (k >= nn)
        return NJ_ERR_ARGS;
    memcpy(name, p, k);
    name[k] = 0;
    if (!ss_is_func(s, name)) {
        rt_set_errorf(s->ctx, "error: '%s' is not a function of this session", name);
        return NJ_ERR_NAME;
    }
    NjStatus st = ss_sync(s);
    if (st)
        return st;
    *m = s->defs;
    *sig = p[k] == '(' ? p + k : ss_last_sig(s, name);
    if (!*sig) {
        rt_set_errorf(s->ctx, "error: '%s' has not been called yet: give a signature, e.g. "
                      ":ir %s(float64, float64)", name, name);
        return NJ_ERR_ARGS;
    }
    return NJ_OK;
}

static NjStatus cmd_ptx(NjSession *s, NjModule *m, const char *name, const char *sig, char **out) {
    const Type *ret, *args[16];
    const char *err = NULL;
    int n = ty_parse_sig(sig, &ret, args, 16, &err);
    if (n < 0) {
        rt_set_errorf(s->ctx, "error: bad signature '%s': %s", sig, err ? err : "?");
        return NJ_ERR_ARGS;
    }
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    DiagList d;
    diag_init(&d);
    TyRequest req = {.module = m->info, .func = name, .args = args, .nargs = n,
                     .target = TARGET_NVPTX, .kind = IRF_DEVICE};
    IrProgram *p = ty_specialize(a, &req, &d);
    NjStatus st = NJ_OK;
    if (!p || d.nerrors || !ir_run_passes(p, false, &d)) {
        rt_set_diags(s->ctx, &d);
        st = NJ_ERR_TYPE;
    } else {
        char *cerr = NULL;
        char *ptx = cg_emit_ptx(p, "sm_90", NULL, &cerr);
        if (!ptx) {
            rt_set_errorf(s->ctx, "error: PTX generation failed: %s", cerr ? cerr : "?");
            st = NJ_ERR_COMPILE;
        } else {
            st = rt_give_string(ptx, out);
            free(ptx);
        }
        free(cerr);
    }
    diag_free(&d);
    arena_free(a);
    return st;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static NjStatus cmd_time(NjSession *s, const char *stmt, char **out) {
    s->compile_ms = 0;
    double t0 = ss_now_ms();
    NjStatus st = ss_exec_text(s, "<time>", stmt, false);
    double first = ss_now_ms() - t0, compile = s->compile_ms;
    nj_free(ss_take_output(s));
    if (st)
        return st;
    double times[64];
    int n = 0;
    double budget = ss_now_ms() + 1000;
    while (n < 64 && (n < 5 || ss_now_ms() < budget)) {
        double a = ss_now_ms();
        if ((st = ss_exec_text(s, "<time>", stmt, false)))
            return st;
        times[n++] = ss_now_ms() - a;
        nj_free(ss_take_output(s));
    }
    qsort(times, (size_t)n, sizeof *times, cmp_double);
    char buf[256];
    snprintf(buf, sizeof buf,
             "median %.3f ms, min %.3f ms over %d runs; first run %.3f ms, of which compile "
             "%.3f ms\n", times[n / 2], times[0], n, first, compile);
    return rt_give_string(buf, out);
}

static NjStatus cmd_target(NjSession *s, const char *arg, char **out) {
    arg = skip_ws(arg);
    char buf[256];
    if (!*arg) {
        static const char *const names[] = {"cpu", "parallel", "cuda"};
        snprintf(buf, sizeof buf, "target: %s\n", names[s->target]);
        return rt_give_string(buf, out);
    }
    NjTarget t;
    if (!strncmp(arg, "cpu", 3))
        t = NJ_TARGET_CPU;
    else if (!strncmp(arg, "parallel", 8))
        t = NJ_TARGET_PARALLEL;
    else if (!strncmp(arg, "cuda", 4)) {
        int ndev = 0;
        if (cu_init() || cu_device_count(&ndev) || ndev == 0) {
            const char *why = cu_error();
            rt_set_errorf(s->ctx, "error: target cuda is not available: %s (no GPU or no CUDA "
                          "driver here); the target stays as it was",
                          why && *why ? why : "no CUDA device");
            return NJ_ERR_UNSUPPORTED;
        }
        t = NJ_TARGET_CUDA;
    } else {
        rt_set_errorf(s->ctx, "error: unknown target '%s' (cpu, parallel or cuda)", arg);
        return NJ_ERR_ARGS;
    }
    s->target = t;
    snprintf(buf, sizeof buf, "target: %s%s\n", arg,
             t == NJ_TARGET_PARALLEL ? "" : "");
    if (t == NJ_TARGET_PARALLEL)
        snprintf(buf, sizeof buf, "target: parallel (%d threads)\n", nj_get_num_threads());
    return rt_give_string(buf, out);
}

static NjStatus cmd_load(NjSession *s, const char *arg, char **out) {
    char path[1024];
    snprintf(path, sizeof path, "%s", skip_ws(arg));
    size_t n = strlen(path);
    while (n > 0 && (path[n - 1] == ' ' || path[n - 1] == '\n'))
        path[--n] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        rt_set_errorf(s->ctx, "error: cannot read '%s'", path);
        return NJ_ERR_IO;
    }
    StrBuf sb;
    sb_init(&sb);
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&sb, buf, k);
    fclose(f);
    NjStatus st = nj_session_exec(s, path, sb.data ? sb.data : "", out);
    sb_free(&sb);
    return st;
}

static NjStatus cmd_vars(NjSession *s, char **out) {
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "");
    for (int i = 0; i < s->nvars; i++) {
        sb_printf(&sb, "%-12s ", s->vars[i].name);
        sv_type_name(&s->vars[i].v, &sb);
        sb_putc(&sb, '\n');
    }
    for (int i = 0; i < s->funcs.n; i++) {
        const char *nm = *(char **)s->funcs.items[i];
        const char *sig = ss_last_sig(s, nm);
        sb_printf(&sb, "%-12s function%s%s\n", nm, sig ? ", last called as " : "", sig ? sig : "");
    }
    *out = sb_take(&sb);
    return NJ_OK;
}

NjStatus nj_session_command(NjSession *s, const char *line, char **out) {
    *out = NULL;
    if (!s || !line)
        return NJ_ERR_ARGS;
    const char *p = skip_ws(line);
    if (*p == ':')
        p++;
    size_t k = 0;
    while (p[k] && p[k] != ' ' && p[k] != '\t' && p[k] != '\n')
        k++;
    char cmd[16];
    if (k >= sizeof cmd)
        k = sizeof cmd - 1;
    memcpy(cmd, p, k);
    cmd[k] = 0;
    const char *arg = skip_ws(p + k);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "h") || !strcmp(cmd, "?"))
        return rt_give_string(help_text, out);
    if (!strcmp(cmd, "type")) {
        StrBuf src;
        sb_init(&src);
        sb_printf(&src, "__nj_type = %s", arg);
        /* evaluate as an expression statement of its own */
        Source so = {.name = "<type>", .text = arg, .len = strlen(arg)};
        Arena *a = arena_new();
        DiagList d;
        diag_init(&d);
        Node *m = a ? fe_parse(a, &so, &d) : NULL;
        NjStatus st = NJ_OK;
        if (!m || d.nerrors) {
            rt_set_diags(s->ctx, &d);
            st = NJ_ERR_SYNTAX;
        } else if (m->list.n != 1 || m->list.items[0]->kind != ND_EXPR) {
            rt_set_error(s->ctx, "error: :type takes one expression");
            st = NJ_ERR_ARGS;
        } else {
            SVal v;
            if (!(st = se_eval(s, m->list.items[0]->a, &v))) {
                StrBuf t;
                sb_init(&t);
                sv_type_name(&v, &t);
                sb_putc(&t, '\n');
                *out = sb_take(&t);
                sv_free(&v);
            }
        }
        sb_free(&src);
        diag_free(&d);
        arena_free(a);
        return st;
    }
    if (!strcmp(cmd, "ir") || !strcmp(cmd, "llvm") || !strcmp(cmd, "asm") || !strcmp(cmd, "ptx")) {
        NjModule *m;
        char name[256];
        const char *sig;
        NjStatus st = resolve_target(s, arg, &m, name, sizeof name, &sig);
        if (st)
            return st;
        if (!strcmp(cmd, "ptx"))
            return cmd_ptx(s, m, name, sig, out);
        NjFunction *f;
        if ((st = nj_module_function(m, name, &f)))
            return st;
        char *text = NULL;
        st = nj_function_dump(f, sig, !strcmp(cmd, "ir") ? "typed" : cmd, &text);
        if (st)
            return st;
        *out = text;
        return NJ_OK;
    }
    if (!strcmp(cmd, "time")) {
        if (!*arg) {
            rt_set_error(s->ctx, "error: :time STATEMENT");
            return NJ_ERR_ARGS;
        }
        return cmd_time(s, arg, out);
    }
    if (!strcmp(cmd, "target"))
        return cmd_target(s, arg, out);
    if (!strcmp(cmd, "load"))
        return cmd_load(s, arg, out);
    if (!strcmp(cmd, "vars"))
        return cmd_vars(s, out);
    rt_set_errorf(s->ctx, "error: unknown command ':%s' (:help lists them)", cmd);
    return NJ_ERR_ARGS;
}

/* ---- completion ------------------------------------------------------------------------------ */
static const char *const keywords[] = {
    "def", "return", "if", "elif", "else", "for", "in", "range", "while", "break", "continue",
    "pass", "import", "from", "and", "or", "not", "True", "False", "None", "print", "len", "abs",
    "min", "max", "sum", "int", "float", "bool", "round", "np", "math", NULL};
static const char *const np_names[] = {
    "zeros", "ones", "empty", "full", "arange", "linspace", "array", "load", "save", "sum",
    "min", "max", "mean", "prod", "sqrt", "exp", "log", "log1p", "expm1", "log2", "log10", "sin",
    "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "floor",
    "ceil", "trunc", "abs", "absolute", "hypot", "power", "minimum", "maximum", "where", "pi",
    "e", "inf", "nan", "float32", "float64", "int32", "int64", "random", "copy", NULL};
static const char *const commands[] = {":type", ":ir", ":llvm", ":asm", ":ptx", ":time",
                                       ":target", ":load", ":vars", ":help", NULL};

static void offer(PtrVec *v, const char *prefix, const char *prefix_add, const char *cand) {
    size_t n = strlen(prefix);
    if (strncmp(cand, prefix, n))
        return;
    for (int i = 0; i < v->n; i++)
        if (!strcmp((char *)v->items[i] + strlen(prefix_add), cand))
            return;
    size_t a = strlen(prefix_add), c = strlen(cand);
    char *s = malloc(a + c + 1);
    if (!s)
        return;
    memcpy(s, prefix_add, a);
    memcpy(s + a, cand, c + 1);
    pv_push(v, s);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int nj_session_complete(NjSession *s, const char *word, char ***out) {
    *out = NULL;
    if (!s || !word)
        return 0;
    PtrVec v = {0};
    if (word[0] == ':') {
        for (int i = 0; commands[i]; i++)
            offer(&v, word, "", commands[i]);
    } else if (!strncmp(word, "np.random.", 10)) {
        static const char *const r[] = {"uniform", "normal", "random", "seed", "default_rng", NULL};
        for (int i = 0; r[i]; i++)
            offer(&v, word + 10, "np.random.", r[i]);
    } else if (!strncmp(word, "np.", 3)) {
        for (int i = 0; np_names[i]; i++)
            offer(&v, word + 3, "np.", np_names[i]);
    } else if (!strncmp(word, "math.", 5)) {
        for (int i = 0; i < MATH__COUNT; i++)
            offer(&v, word + 5, "math.", ir_math[i].name);
        offer(&v, word + 5, "math.", "pi");
    } else {
        for (int i = 0; i < s->nvars; i++)
            offer(&v, word, "", s->vars[i].name);
        for (int i = 0; i < s->funcs.n; i++)
            offer(&v, word, "", *(char **)s->funcs.items[i]);
        for (int i = 0; keywords[i]; i++)
            offer(&v, word, "", keywords[i]);
    }
    if (v.n)
        qsort(v.items, (size_t)v.n, sizeof *v.items, cmp_str);
    *out = (char **)v.items;
    return v.n;
}

void nj_session_free_completions(char **list, int n) {
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

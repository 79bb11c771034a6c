/* context.c — contexts, modules, per-thread error messages and the small public helpers.
 *
 * Errors: each thread keeps the message of its last failure together with the context it
 * belongs to, so two threads calling into one context never see each other's errors and
 * nj_error_message needs no lock.
 */
#include "runtime.h"

#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local struct {
    NjContext *ctx;
    char *msg;
} tl_err;

void rt_set_error(NjContext *ctx, const char *msg) {
    nj_free(tl_err.msg);
    size_t n = strlen(msg);
    tl_err.msg = nj_malloc(n + 1);
    if (tl_err.msg)
        memcpy(tl_err.msg, msg, n + 1);
    tl_err.ctx = ctx;
}

void rt_set_errorf(NjContext *ctx, const char *fmt, ...) {
    StrBuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    rt_set_error(ctx, sb.data ? sb.data : "out of memory");
    sb_free(&sb);
}

void rt_set_diags(NjContext *ctx, const DiagList *d) {
    StrBuf sb;
    sb_init(&sb);
    diag_render(d, &sb);
    rt_set_error(ctx, sb.data ? sb.data : "error");
    sb_free(&sb);
}

const char *nj_error_message(NjContext *ctx) {
    return tl_err.ctx == ctx && tl_err.msg ? tl_err.msg : "";
}

const char *nj_version(void) {
    static char buf[64];
    if (!buf[0])
        snprintf(buf, sizeof buf, "%s (LLVM %s)", NJ_VERSION_STRING, cg_llvm_version());
    return buf;
}

const char *nj_status_name(NjStatus s) {
    static const char *const names[] = {
        "NJ_OK", "NJ_ERR_SYNTAX", "NJ_ERR_TYPE", "NJ_ERR_NAME", "NJ_ERR_ARGS",
        "NJ_ERR_RUNTIME", "NJ_ERR_COMPILE", "NJ_ERR_NOMEM", "NJ_ERR_IO",
        "NJ_ERR_UNSUPPORTED", "NJ_ERR_CUDA", "NJ_ERR_INTERNAL"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "NJ_ERR_UNKNOWN";
}

static const char *const dtype_names[NJ_DTYPE_COUNT] = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128"};
static const int dtype_sizes[NJ_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16};

const char *nj_dtype_name(NjDType t) {
    return (unsigned)t < NJ_DTYPE_COUNT ? dtype_names[t] : "?";
}
int nj_dtype_size(NjDType t) { return (unsigned)t < NJ_DTYPE_COUNT ? dtype_sizes[t] : 0; }

NjArray nj_array_c(void *data, NjDType dtype, int ndim, const int64_t *shape) {
    NjArray a;
    memset(&a, 0, sizeof a);
    a.data = data;
    a.dtype = dtype;
    a.ndim = ndim < 0 ? 0 : ndim > NJ_MAX_NDIM ? NJ_MAX_NDIM : ndim;
    int64_t stride = nj_dtype_size(dtype);
    for (int i = a.ndim - 1; i >= 0; i--) {
        a.shape[i] = shape[i];
        a.strides[i] = stride;
        stride *= shape[i];
    }
    return a;
}

/* The memory of arrays compiled code made: a CgMemInfo header (codegen.h) that generated code
 * counts with the same atomic operations (codegen/refs.c); the last release frees the block. */
void nj_array_release(NjArray *a) {
    if (!a)
        return;
    CgMemInfo *mi = a->owner;
    if (mi && __atomic_fetch_sub(&mi->refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        if (mi->dtor)
            mi->dtor(mi);
        free(mi);
    }
    a->owner = NULL;
    a->data = NULL;
}

void nj_array_retain(const NjArray *a) {
    CgMemInfo *mi = a ? a->owner : NULL;
    if (mi)
        __atomic_fetch_add(&mi->refcount, 1, __ATOMIC_RELAXED);
}

void nj_free_string(char *s) { nj_free(s); }

NjStatus rt_give_string(const char *s, char **out) {
    size_t n = strlen(s);
    *out = nj_malloc(n + 1);
    if (!*out)
        return NJ_ERR_NOMEM;
    memcpy(*out, s, n + 1);
    return NJ_OK;
}

NjStatus nj_context_new(NjContext **out) {
    *out = NULL;
    NjContext *ctx = nj_calloc(1, sizeof *ctx);
    if (!ctx)
        return NJ_ERR_NOMEM;
    pthread_mutex_init(&ctx->lock, NULL);
    *out = ctx;
    return NJ_OK;
}

/* A JIT with the runtime's functions that compiled code calls defined in it: the random
 * generators (random.c), sorting (sort.c), linear algebra (linalg.c), strings (str.c), dicts (dict.c), sets (set.c), the parallel-loop entry (parfor.c) and print()
 * (print.c). */
static CgJit *new_jit(char **err) {
    CgJit *j = cg_jit_new(err);
    const char *names[2] = {CG_PARFOR_SYMBOL, CG_PRINT_SYMBOL};
    uintptr_t addrs[2] = {(uintptr_t)rt_parfor_run, (uintptr_t)rt_print_line};
    if (j && (!rt_random_define(j, err) || !rt_sort_define(j, err) || !rt_linalg_define(j, err) ||
              !rt_str_define(j, err) || !rt_dict_define(j, err) ||
              !rt_set_define(j, err) || !cg_jit_define(j, names, addrs, 2, err))) {
        cg_jit_free(j);
        return NULL;
    }
    return j;
}

/* The JIT is created on first need, so parsing-only users (numjit check) never pay for it. */
NjStatus rt_ensure_jit(NjContext *ctx) {
    pthread_mutex_lock(&ctx->lock);
    NjStatus st = NJ_OK;
    if (!ctx->jit) {
        char *err = NULL;
        ctx->jit = new_jit(&err);
        if (!ctx->jit) {
            rt_set_errorf(ctx, "error: cannot start the JIT: %s", err ? err : "unknown error");
            free(err);
            st = NJ_ERR_COMPILE;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* ---- background threads ---------------------------------------------------------------------
 * The library's own threads (the JIT's start, loops compiled ahead of need) are counted from
 * before they are created until they finish.  fork() waits until none runs (pthread_atfork): a
 * child must not inherit LLVM's or the context's locks held by a thread it does not have
 * (Python's multiprocessing forks right after `import numjit`).  exit() waits too: a thread
 * still compiling would run into LLVM's static destructors (this handler is registered after
 * LLVM's, so it runs before them). */
static pthread_mutex_t bg_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bg_cv = PTHREAD_COND_INITIALIZER;
static int bg_active;
static pthread_once_t bg_once = PTHREAD_ONCE_INIT;

static void bg_quiet(void) { /* bg_mu held */
    while (bg_active)
        pthread_cond_wait(&bg_cv, &bg_mu);
}

static void bg_fork_prepare(void) {
    pthread_mutex_lock(&bg_mu);
    bg_quiet();
}

static void bg_fork_done(void) { pthread_mutex_unlock(&bg_mu); }

static void bg_at_exit(void) {
    pthread_mutex_lock(&bg_mu);
    bg_quiet();
    pthread_mutex_unlock(&bg_mu);
}

static void bg_register(void) {
    pthread_atfork(bg_fork_prepare, bg_fork_done, bg_fork_done);
    atexit(bg_at_exit);
}

static void bg_count(int d) {
    pthread_mutex_lock(&bg_mu);
    bg_active += d;
    if (!bg_active)
        pthread_cond_broadcast(&bg_cv);
    pthread_mutex_unlock(&bg_mu);
}

typedef struct BgStart {
    void *(*fn)(void *);
    void *arg;
} BgStart;

static void *bg_main(void *p) {
    BgStart b = *(BgStart *)p;
    free(p);
    b.fn(b.arg);
    bg_count(-1);
    return NULL;
}

bool rt_background_start(pthread_t *t, void *(*fn)(void *), void *arg) {
    pthread_once(&bg_once, bg_register);
    BgStart *b = malloc(sizeof *b);
    if (!b)
        return false;
    *b = (BgStart){fn, arg};
    bg_count(1);
    if (pthread_create(t, NULL, bg_main, b) == 0)
        return true;
    free(b);
    bg_count(-1);
    return false;
}

static void *prepare_main(void *arg) {
    NjContext *ctx = arg;
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->jit) { /* a failure is left for the first real need to report */
        char *err = NULL;
        ctx->jit = new_jit(&err);
        free(err);
    }
    pthread_mutex_unlock(&ctx->lock);
    return NULL;
}

void nj_context_prepare(NjContext *ctx) {
    if (!ctx)
        return;
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->jit && !ctx->preparing) {
        ctx->preparing = rt_background_start(&ctx->preparer, prepare_main, ctx);
        ctx->preparer_pid = getpid();
    }
    pthread_mutex_unlock(&ctx->lock);
}

static void module_free(NjModule *m) {
    rt_module_ufuncs_free(m);
    rt_module_kernels_free(m);
    for (int i = 0; i < m->nfuncs; i++)
        rt_function_free(m->funcs[i]);
    nj_free(m->funcs);
    arena_free(m->arena);
    nj_free(m);
}

void nj_context_free(NjContext *ctx) {
    if (!ctx)
        return;
    if (ctx->preparing && ctx->preparer_pid == getpid()) /* a forked child has no such thread */
        pthread_join(ctx->preparer, NULL);
    for (int i = 0; i < ctx->modules.n; i++)
        module_free(ctx->modules.items[i]);
    pv_free(&ctx->modules);
    if (ctx->jit)
        cg_jit_free(ctx->jit);
    pthread_mutex_destroy(&ctx->lock);
    if (tl_err.ctx == ctx) {
        nj_free(tl_err.msg);
        tl_err.msg = NULL;
        tl_err.ctx = NULL;
    }
    nj_free(ctx);
}

static NjStatus compile_source(NjContext *ctx, const char *filename, const char *source,
                               bool lazy, NjModule **out);

NjStatus nj_compile_source(NjContext *ctx, const char *filename, const char *source,
                           NjModule **out) {
    return compile_source(ctx, filename, source, false, out);
}

NjStatus nj_compile_source_lazy(NjContext *ctx, const char *filename, const char *source,
                                NjModule **out) {
    return compile_source(ctx, filename, source, true, out);
}

static NjStatus compile_source(NjContext *ctx, const char *filename, const char *source,
                               bool lazy, NjModule **out) {
    *out = NULL;
    if (!source) {
        rt_set_error(ctx, "error: no source text given");
        return NJ_ERR_ARGS;
    }
    NjModule *m = nj_calloc(1, sizeof *m);
    Arena *a = arena_new();
    if (!m || !a) {
        nj_free(m);
        arena_free(a);
        return NJ_ERR_NOMEM;
    }
    m->ctx = ctx;
    m->arena = a;
    size_t n = strlen(source);
    m->src.name = arena_strdup(a, filename ? filename : "<string>");
    m->src.text = arena_strndup(a, source, n);
    m->src.len = n;
    DiagList d;
    diag_init(&d);
    Node *ast = fe_parse(a, &m->src, &d);
    if (ast)
        m->info = fe_module_info(a, &m->src, ast, &d);
    if (m->info) /* Python outside the compiled functions is the Python runner's business */
        fe_defer_unsupported(a, m->info, &d, lazy);
    if (arena_failed(a) && !d.nerrors) {
        diag_free(&d);
        module_free(m);
        rt_set_error(ctx, "error: out of memory");
        return NJ_ERR_NOMEM;
    }
    if (d.nerrors || !m->info) {
        rt_set_diags(ctx, &d);
        diag_free(&d);
        module_free(m);
        return NJ_ERR_SYNTAX;
    }
    diag_free(&d);
    m->funcs = nj_calloc((size_t)(m->info->nfuncs ? m->info->nfuncs : 1), sizeof *m->funcs);
    if (!m->funcs) {
        module_free(m);
        return NJ_ERR_NOMEM;
    }
    m->nfuncs = m->info->nfuncs;
    pthread_mutex_lock(&ctx->lock);
    size_t before = (size_t)ctx->modules.n;
    pv_push(&ctx->modules, m);
    bool ok = (size_t)ctx->modules.n > before;
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        module_free(m);
        return NJ_ERR_NOMEM;
    }
    *out = m;
    return NJ_OK;
}

NjStatus nj_check_source_bytes(NjContext *ctx, const char *filename, const char *text,
                               size_t len) {
    Source src = {filename ? filename : "<string>", text, len};
    DiagList d;
    diag_init(&d);
    bool bad = diag_nul_in_source(&d, &src);
    if (bad)
        rt_set_diags(ctx, &d);
    diag_free(&d);
    return bad ? NJ_ERR_SYNTAX : NJ_OK;
}

NjStatus nj_compile_file(NjContext *ctx, const char *path, NjModule **out) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        rt_set_errorf(ctx, "error: cannot open '%s'", path);
        return NJ_ERR_IO;
    }
    StrBuf sb;
    sb_init(&sb);
    char buf[8192];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&sb, buf, k);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        sb_free(&sb);
        rt_set_errorf(ctx, "error: cannot read '%s'", path);
        return NJ_ERR_IO;
    }
    if (nj_check_source_bytes(ctx, path, sb.data, sb.len)) {
        sb_free(&sb);
        return NJ_ERR_SYNTAX;
    }
    NjStatus st = nj_compile_source(ctx, path, sb.data ? sb.data : "", out);
    sb_free(&sb);
    return st;
}

NjStatus nj_module_function(NjModule *m, const char *name, NjFunction **out) {
    *out = NULL;
    const FuncInfo *fi = NULL;
    int idx = -1;
    for (int i = 0; i < m->info->nfuncs; i++)
        if (!strcmp(m->info->funcs[i].name, name)) {
            fi = &m->info->funcs[i];
            idx = i;
        }
    if (!fi) {
        rt_set_errorf(m->ctx, "%s: error: no function named '%s'", m->src.name, name);
        return NJ_ERR_NAME;
    }
    pthread_mutex_lock(&m->ctx->lock);
    NjFunction *f = m->funcs[idx];
    if (!f) {
        f = nj_calloc(1, sizeof *f);
        if (f) {
            f->module = m;
            f->info = fi;
            pthread_mutex_init(&f->lock, NULL);
            m->funcs[idx] = f;
        }
    }
    pthread_mutex_unlock(&m->ctx->lock);
    if (!f)
        return NJ_ERR_NOMEM;
    *out = f;
    return NJ_OK;
}

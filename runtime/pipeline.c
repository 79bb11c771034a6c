/* pipeline.c — compile_specialization(): the whole pipeline for one signature, top to bottom.
 *
 *   type (typer: AST → typed IR) → IR passes (each verified in checking builds)
 *   → lower + O3 + JIT (codegen) → entry address and rendered raise messages
 *
 * Every step's output can be dumped (rt_dump_spec) and every failure ends as rendered
 * diagnostics in the context's per-thread error.  An arena holds the step's IR and dies here.
 *
 * With the on-disk cache (cache=True or NUMJIT_CACHE=1) the key is computed first, from the
 * source alone; a hit links the stored object and takes the return type and the rendered raise
 * messages from the entry, so neither the typer nor LLVM runs.  A miss compiles as above but
 * stops codegen at the object file (entry symbol from the key), links it and stores it with
 * that information:  payload = "njit" sym ret-type nraises {exception message}* object.
 */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

static bool verify_ir(void) {
#ifdef NDEBUG
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("NUMJIT_VERIFY");
        on = e && *e && *e != '0';
    }
    return on;
#else
    return true;
#endif
}

static const char *exc_name(RaiseKind k) {
    return k > 0 && k < RAISE__COUNT ? ir_raise_kind_name[k] : "ValueError";
}

/* AST + argument types → verified, optimized typed IR. */
static IrProgram *build_ir(NjFunction *f, Arena *a, const Type **args, int n, DiagList *d) {
    TyRequest req = {
        .module = f->module->info,
        .func = f->info->name,
        .args = args,
        .nargs = n,
        .target = TARGET_CPU,
        .kind = IRF_NJIT,
    };
    IrProgram *p = ty_specialize(a, &req, d);
    if (!p)
        return NULL;
    if (!ir_run_passes(p, verify_ir(), d))
        return NULL;
    return p;
}

static NjStatus fail(NjContext *ctx, DiagList *d, Arena *a, NjStatus st) {
    bool oom = a && arena_failed(a);
    if (d->nerrors)
        rt_set_diags(ctx, d);
    else if (oom)
        rt_set_error(ctx, "error: out of memory");
    diag_free(d);
    arena_free(a);
    return oom ? NJ_ERR_NOMEM : st;
}

static NjStatus render_raises(const IrProgram *p, Spec *s) {
    s->nraises = p->nraises;
    if (!p->nraises)
        return NJ_OK;
    s->raise_msgs = nj_calloc((size_t)p->nraises, sizeof *s->raise_msgs);
    s->raise_exc = nj_calloc((size_t)p->nraises, sizeof *s->raise_exc);
    if (!s->raise_msgs || !s->raise_exc) {
        s->nraises = 0;
        return NJ_ERR_NOMEM;
    }
    for (int i = 0; i < p->nraises; i++) {
        const RaiseSite *r = &p->raises[i];
        Diag g = {DG_ERROR, r->loc, NULL};
        StrBuf msg, out;
        sb_init(&msg);
        sb_init(&out);
        sb_printf(&msg, "%s: %s", exc_name(r->kind), r->msg ? r->msg : "");
        g.msg = msg.data ? msg.data : (char *)"error";
        if (r->user) /* the program's own raise: "KeyError: text", the text as str(e) shows it */
            sb_puts(&out, msg.data ? msg.data : "");
        else
            diag_render_one(&g, &out);
        s->raise_msgs[i] = sb_take(&out);
        s->raise_exc[i] = exc_name(r->kind);
        sb_free(&msg);
    }
    return NJ_OK;
}

/* ---- the on-disk cache ------------------------------------------------------------------ */
static const char *exc_static(const char *name) {
    RaiseKind k = ir_raise_kind_of(name);
    return k ? ir_raise_kind_name[k] : NULL;
}

/* A hit: fills spec from the entry and links its object.  False: compile as usual. */
static bool load_spec(NjFunction *f, const RtCacheKey *k, Spec *spec) {
    NjContext *ctx = f->module->ctx;
    RtBlob b;
    if (!rt_cache_load(k, &b))
        return false;
    bool ok = false;
    const char *tag = rt_blob_get_str(&b), *sym = rt_blob_get_str(&b);
    const Type *ret = rt_blob_get_type(&b);
    uint32_t nr = rt_blob_get_u32(&b);
    bool fit = !b.bad && ret && tag && !strcmp(tag, "njit") && sym && !strcmp(sym, k->sym);
    if (fit && nr < 1u << 20) {
        spec->raise_msgs = nr ? nj_calloc(nr, sizeof *spec->raise_msgs) : NULL;
        spec->raise_exc = nr ? nj_calloc(nr, sizeof *spec->raise_exc) : NULL;
        ok = !nr || (spec->raise_msgs && spec->raise_exc);
        spec->nraises = ok ? (int)nr : 0;
        for (uint32_t i = 0; ok && i < nr; i++) {
            const char *exc = exc_static(rt_blob_get_str(&b)), *msg = rt_blob_get_str(&b);
            size_t n = msg ? strlen(msg) + 1 : 0;
            ok = exc && msg && (spec->raise_msgs[i] = nj_malloc(n));
            if (ok) {
                memcpy(spec->raise_msgs[i], msg, n);
                spec->raise_exc[i] = exc;
            }
        }
        size_t olen = 0;
        const void *obj = ok ? rt_blob_get_bytes(&b, &olen) : NULL;
        void *entry = NULL;
        char *err = NULL;
        ok = ok && obj && !b.bad && cg_jit_add_object(ctx->jit, obj, olen, k->sym, &entry, &err);
        if (ok) {
            spec->entry = (NjEntry)entry;
            spec->ret = ret;
        } else {
            rt_cache_debug("unusable entry for %s%s%s", k->desc, err ? ": " : "", err ? err : "");
        }
        free(err);
    } else {
        rt_cache_debug("unusable entry for %s: bad payload", k->desc);
    }
    if (!ok) { /* leave spec as it came (compiled next) */
        for (int i = 0; i < spec->nraises; i++)
            nj_free(spec->raise_msgs[i]);
        nj_free(spec->raise_msgs);
        nj_free(spec->raise_exc);
        spec->raise_msgs = NULL;
        spec->raise_exc = NULL;
        spec->nraises = 0;
    } else {
        rt_cache_debug("hit %s (optimizer runs in this process: %lu)", k->desc, cg_opt_runs());
    }
    rt_blob_free(&b);
    return ok;
}

/* A miss: stores what compile_spec produced (spec filled, obj the linked object). */
static void store_spec(const RtCacheKey *k, const Spec *spec, const void *obj, size_t olen) {
    RtBlob b = {0};
    rt_blob_str(&b, "njit");
    rt_blob_str(&b, k->sym);
    rt_blob_type(&b, spec->ret);
    rt_blob_u32(&b, (uint32_t)spec->nraises);
    for (int i = 0; i < spec->nraises; i++) {
        rt_blob_str(&b, spec->raise_exc[i]);
        rt_blob_str(&b, spec->raise_msgs[i]);
    }
    rt_blob_bytes(&b, obj, olen);
    rt_cache_store(k, &b);
    rt_blob_free(&b);
}

/* The pipeline proper; key: cache this compilation under it (NULL: no cache). */
static NjStatus compile_spec(NjFunction *f, const Type **args, int nargs, Spec *spec,
                             const RtCacheKey *key) {
    NjContext *ctx = f->module->ctx;
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    /* 1. type and check */
    IrProgram *p = build_ir(f, a, args, nargs, &d);
    if (!p)
        return fail(ctx, &d, a, f->info->taint ? NJ_ERR_SYNTAX : NJ_ERR_TYPE);
    /* 2. lower, optimize, JIT (for the cache: stop at the object file, then link it) */
    CgOptions opt = {.opt_level = 3};
    void *entry = NULL, *obj = NULL;
    size_t olen = 0;
    char *err = NULL;
    bool ok = key ? cg_jit_compile_object(ctx->jit, p, &opt, key->sym, &obj, &olen, &err) &&
                        cg_jit_add_object(ctx->jit, obj, olen, key->sym, &entry, &err)
                  : cg_jit_compile(ctx->jit, p, &opt, &entry, &err);
    if (!ok) {
        rt_set_errorf(ctx, "%s: internal error: code generation failed for %s: %s",
                      f->module->src.name, p->funcs[0]->mangled, err ? err : "?");
        free(err);
        free(obj);
        diag_free(&d);
        arena_free(a);
        return NJ_ERR_COMPILE;
    }
    /* 3. publishable result */
    spec->entry = (NjEntry)entry;
    spec->ret = p->funcs[0]->ret;
    NjStatus st = render_raises(p, spec);
    if (!st && key)
        store_spec(key, spec, obj, olen);
    free(obj);
    diag_free(&d);
    arena_free(a);
    return st;
}

NjStatus rt_compile_spec(NjFunction *f, const Type **args, int nargs, Spec *spec) {
    RtCacheKey key;
    bool cached = rt_cache_wanted(f->info) &&
                  rt_cache_key(&key, f->module, f->info, "njit", args, nargs, NULL);
    if (cached && load_spec(f, &key, spec)) {
        rt_cache_key_free(&key);
        return NJ_OK;
    }
    NjStatus st = compile_spec(f, args, nargs, spec, cached ? &key : NULL);
    if (cached)
        rt_cache_key_free(&key);
    return st;
}

NjStatus rt_dump_spec(NjFunction *f, const Type **args, int nargs, const char *what, char **out) {
    NjContext *ctx = f->module->ctx;
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    IrProgram *p = build_ir(f, a, args, nargs, &d);
    if (!p)
        return fail(ctx, &d, a, f->info->taint ? NJ_ERR_SYNTAX : NJ_ERR_TYPE);
    CgOptions opt = {.opt_level = 3};
    char *err = NULL, *text = NULL;
    if (!strcmp(what, "typed") || !strcmp(what, "ir")) {
        StrBuf sb;
        sb_init(&sb);
        ir_print_program(p, &sb);
        text = sb_take(&sb);
    } else if (!strcmp(what, "llvm")) {
        text = cg_emit_llvm(p, &opt, &err);
    } else if (!strcmp(what, "asm")) {
        text = cg_emit_asm(p, &opt, &err);
    } else {
        rt_set_errorf(ctx, "error: unknown dump '%s' (typed, llvm or asm)", what);
        diag_free(&d);
        arena_free(a);
        return NJ_ERR_ARGS;
    }
    diag_free(&d);
    arena_free(a);
    if (!text) {
        rt_set_errorf(ctx, "internal error: %s", err ? err : "dump failed");
        free(err);
        return NJ_ERR_COMPILE;
    }
    *out = text;
    return NJ_OK;
}

/* pipeline.c — compile_specialization(): the whole pipeline for one signature, top to bottom.
 *
 *   type (typer: AST → typed IR) → IR passes (each verified in checking builds)
 *   → lower + O3 + JIT (codegen) → entry address and rendered raise messages
 *
 * Every step's output can be dumped (rt_dump_spec) and every failure ends as rendered
 * diagnostics in the context's per-thread error.  An arena holds the step's IR and dies here.
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
    switch (k) {
    case RAISE_ZERO_DIVISION: return "ZeroDivisionError";
    case RAISE_INDEX: return "IndexError";
    default: return "ValueError";
    }
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
        diag_render_one(&g, &out);
        s->raise_msgs[i] = sb_take(&out);
        s->raise_exc[i] = exc_name(r->kind);
        sb_free(&msg);
    }
    return NJ_OK;
}

NjStatus rt_compile_spec(NjFunction *f, const Type **args, int nargs, Spec *spec) {
    NjContext *ctx = f->module->ctx;
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    /* 1. type and check */
    IrProgram *p = build_ir(f, a, args, nargs, &d);
    if (!p)
        return fail(ctx, &d, a, NJ_ERR_TYPE);
    /* 2. lower, optimize, JIT */
    CgOptions opt = {.opt_level = 3};
    void *entry = NULL;
    char *err = NULL;
    if (!cg_jit_compile(ctx->jit, p, &opt, &entry, &err)) {
        rt_set_errorf(ctx, "%s: internal error: code generation failed for %s: %s",
                      f->module->src.name, p->funcs[0]->mangled, err ? err : "?");
        free(err);
        diag_free(&d);
        arena_free(a);
        return NJ_ERR_COMPILE;
    }
    /* 3. publishable result */
    spec->entry = (NjEntry)entry;
    spec->ret = p->funcs[0]->ret;
    NjStatus st = render_raises(p, spec);
    diag_free(&d);
    arena_free(a);
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
        return fail(ctx, &d, a, NJ_ERR_TYPE);
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

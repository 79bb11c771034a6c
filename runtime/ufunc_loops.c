/* ufunc_loops.c — the loop a ufunc call runs: type resolution (the first declared signature
 * every input casts to safely, or a new one for a dynamic ufunc), the published table of
 * entries scanned without a lock, the compile of one loop (typer → IR passes →
 * cg_jit_compile_loop, "basic" first and "full" on the first call that broadcasts), the
 * on-disk cache of loops, declared signatures compiled ahead of need on a thread, and the
 * loops handed to NumPy's own ufunc objects.  ufunc.c's header comment gives the whole path.
 */
#include "ufunc_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- type resolution and the loop cache ------------------------------------------------------ */
#define KEY_ALLOC 0xff

static UfEntry *find_entry(const NjUfunc *u, const uint8_t *key, int n) {
    UfTable *t = atomic_load_explicit((_Atomic(UfTable *) *)&u->table, memory_order_acquire);
    if (!t)
        return NULL;
    for (int i = 0; i < t->n; i++)
        if (!memcmp(t->items[i]->key, key, (size_t)n))
            return t->items[i];
    return NULL;
}

/* NumPy's 'same_kind' casting (for out=): safe, or within one kind (b < u < i < f order). */
static bool can_cast_same_kind(const Type *from, const Type *to) {
    if (ty_can_cast_safe(from, to))
        return true;
    int kf = from->kind == TY_BOOL ? 0 : ty_is_float(from) ? 3 : ty_is_signed(from) ? 2 : 1;
    int kt = to->kind == TY_BOOL ? 0 : ty_is_float(to) ? 3 : ty_is_signed(to) ? 2 : 1;
    return kf <= kt && !(kf == 2 && kt == 1);
}

static const Type *sig_dtype(const Type *t) { return t->kind == TY_ARRAY ? t->dtype : t; }

static void list_sigs(const NjUfunc *u, StrBuf *sb) {
    for (int i = 0; i < u->nsigs; i++)
        sb_printf(sb, "%s'%s'", i ? ", " : "", u->sigs[i].text);
}

static NjStatus no_loop_error(NjUfunc *u, const uint8_t *key) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "error: %s(): no signature matches the input types (", u->name);
    for (int k = 0; k < u->nin; k++)
        sb_printf(&sb, "%s%s", k ? ", " : "", nj_dtype_name((NjDType)key[k]));
    sb_puts(&sb, ") under 'safe' casting; declared: ");
    list_sigs(u, &sb);
    rt_set_error(u->module->ctx, sb.data ? sb.data : "error");
    sb_free(&sb);
    return NJ_ERR_TYPE;
}

static bool verify_ir(void) {
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("NUMJIT_VERIFY");
#ifdef NDEBUG
        on = e && *e && *e != '0';
#else
        on = !e || *e != '0';
#endif
    }
    return on;
}

/* The ufunc's return type r checked against the output's dtype, or made the output's dtype
 * (KEY_ALLOC: "the inferred return type"). */
static NjStatus check_ret(NjUfunc *u, RtLoop *L, const Type *r, const Type **ret_out) {
    NjContext *ctx = u->module->ctx;
    NjDType rd;
    if (!r || rt_dtype_of_type(r, &rd) != NJ_OK) {
        rt_set_errorf(ctx, "error: %s(): returns %s, which is not a number", u->name,
                      r ? r->name : "nothing");
        return NJ_ERR_TYPE;
    }
    *ret_out = r;
    if (L->dtypes[u->nin] == (NjDType)KEY_ALLOC) {
        L->dtypes[u->nin] = rd;
    } else if (!can_cast_same_kind(r, rt_type_of_dtype(L->dtypes[u->nin]))) {
        rt_set_errorf(ctx, "error: %s(): the loop returns %s, which cannot be written to an "
                      "output of dtype %s (casting rule 'same_kind')", u->name, r->name,
                      nj_dtype_name(L->dtypes[u->nin]));
        return NJ_ERR_TYPE;
    }
    return NJ_OK;
}

/* ---- the on-disk cache of loops -------------------------------------------------------------
 * Key: the function's (cache.c), the typer's parameter types, plus the declared return type,
 * the loop's dtypes (the output's "alloc" when the return type decides it) and the core
 * dimensions.  Payload: "loop" sym ret-type(or none) nargs param_nd[nargs] object. */
static bool loop_key(NjUfunc *u, const RtLoop *L, const Type **params, int np, const Type *ret,
                     bool basic, RtCacheKey *k) {
    StrBuf sb;
    sb_init(&sb);
    int na = u->nin + u->nout;
    sb_printf(&sb, "%s%s nin=%d nout=%d ret=%s dtypes=", u->gufunc ? "gufunc" : "ufunc",
              basic ? " basic" : "", u->nin, u->nout, ret ? ret->name : "inferred");
    for (int k2 = 0; k2 < na; k2++)
        sb_printf(&sb, "%s%s", k2 ? "," : "",
                  L->dtypes[k2] == (NjDType)KEY_ALLOC ? "alloc" : nj_dtype_name(L->dtypes[k2]));
    if (u->gufunc) {
        sb_puts(&sb, " layout=");
        for (int k2 = 0; k2 < na; k2++) {
            sb_printf(&sb, "%s(", k2 == u->nin ? "->" : k2 ? "," : "");
            for (int j = 0; j < u->core_n[k2]; j++)
                sb_printf(&sb, "%s%s", j ? "," : "", u->core_names[u->core_idx[k2][j]]);
            sb_putc(&sb, ')');
        }
    }
    bool ok = sb.data && rt_cache_key(k, u->module, u->fi, u->gufunc ? "gufunc" : "ufunc",
                                      params, np, sb.data);
    sb_free(&sb);
    return ok;
}

/* A hit: links the stored loop and fills what typing would have given.  *st is the result
 * when true is returned (an output dtype error is still an error). */
static bool load_loop(NjUfunc *u, RtLoop *L, const RtCacheKey *k, const Type **ret_out,
                      NjStatus *st) {
    RtBlob b;
    if (!rt_cache_load(k, &b))
        return false;
    int na = u->nin + u->nout;
    const char *tag = rt_blob_get_str(&b), *sym = rt_blob_get_str(&b);
    const Type *r = rt_blob_get_type(&b);
    bool ok = !b.bad && (u->gufunc ? !r : r != NULL) && tag && !strcmp(tag, "loop") && sym &&
              !strcmp(sym, k->sym) && rt_blob_get_u32(&b) == (uint32_t)na;
    int8_t nd[RT_UF_MAXARGS];
    for (int i = 0; ok && i < na; i++) {
        uint32_t v = rt_blob_get_u32(&b);
        ok = v <= NJ_MAX_NDIM;
        nd[i] = (int8_t)v;
    }
    size_t olen = 0;
    const void *obj = ok ? rt_blob_get_bytes(&b, &olen) : NULL;
    ok = ok && obj && !b.bad;
    void *fn = NULL;
    char *err = NULL;
    if (ok && (ok = cg_jit_add_object(u->module->ctx->jit, obj, olen, k->sym, &fn, &err))) {
        *st = u->gufunc ? NJ_OK : check_ret(u, L, r, ret_out);
        memcpy(L->param_nd, nd, sizeof(int8_t) * (size_t)na);
        L->fn = (CgLoop)fn;
        rt_cache_debug("hit %s (optimizer runs in this process: %lu)", k->desc, cg_opt_runs());
    } else {
        rt_cache_debug("unusable entry for %s%s%s", k->desc, err ? ": " : "", err ? err : "");
    }
    free(err);
    rt_blob_free(&b);
    return ok;
}

static void store_loop(NjUfunc *u, const RtLoop *L, const RtCacheKey *k, const Type *r,
                       const void *obj, size_t olen) {
    RtBlob b = {0};
    int na = u->nin + u->nout;
    rt_blob_str(&b, "loop");
    rt_blob_str(&b, k->sym);
    rt_blob_type(&b, u->gufunc ? NULL : r);
    rt_blob_u32(&b, (uint32_t)na);
    for (int i = 0; i < na; i++)
        rt_blob_u32(&b, (uint32_t)L->param_nd[i]);
    rt_blob_bytes(&b, obj, olen);
    rt_cache_store(k, &b);
    rt_blob_free(&b);
}

/* Types and compiles the loop of entry e (e->loop.dtypes set except, for a dynamic ufunc
 * without out=, the output's: KEY_ALLOC there means "the inferred return type").  With the
 * on-disk cache a hit skips typing and LLVM. */
static NjStatus compile_entry(NjUfunc *u, UfEntry *e, bool basic, const Type **ret_out) {
    NjContext *ctx = u->module->ctx;
    int na = u->nin + u->nout;
    const Type *params[RT_UF_MAXARGS];
    const Type *ret = NULL;
    if (e->sig >= 0) {
        const UfSig *s = &u->sigs[e->sig];
        for (int k = 0; k < (u->gufunc ? na : u->nin); k++) {
            const Type *t = s->args[k];
            params[k] = t->kind == TY_ARRAY ? ty_array(t->dtype, t->ndim, LAYOUT_A) : t;
        }
        ret = u->gufunc ? NULL : s->ret;
    } else {
        for (int k = 0; k < u->nin; k++)
            params[k] = rt_type_of_dtype(e->loop.dtypes[k]);
    }
    NjStatus st = rt_ensure_jit(ctx);
    if (st)
        return st;
    RtLoop *L = &e->loop;
    int np = u->gufunc ? na : u->nin;
    RtCacheKey key;
    bool cached = rt_cache_wanted(u->fi) && loop_key(u, L, params, np, ret, basic, &key);
    if (cached && load_loop(u, L, &key, ret_out, &st)) {
        rt_cache_key_free(&key);
        return st;
    }
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a) {
        if (cached)
            rt_cache_key_free(&key);
        return NJ_ERR_NOMEM;
    }
    TyRequest req = {
        .module = u->module->info,
        .func = u->fi->name,
        .args = params,
        .nargs = np,
        .target = TARGET_CPU,
        .kind = u->gufunc ? IRF_GUFUNC : IRF_SCALAR,
        .ret = ret,
    };
    IrProgram *p = ty_specialize(a, &req, &d);
    if (p && !ir_run_passes(p, verify_ir(), &d))
        p = NULL;
    const Type *r = p && !u->gufunc ? p->funcs[0]->ret : NULL;
    if (!p) {
        if (d.nerrors)
            rt_set_diags(ctx, &d);
        else
            rt_set_errorf(ctx, "error: %s(): typing failed", u->name);
        st = arena_failed(a) ? NJ_ERR_NOMEM : u->fi->taint ? NJ_ERR_SYNTAX : NJ_ERR_TYPE;
    } else if (!u->gufunc) {
        st = check_ret(u, L, r, ret_out);
    }
    if (st) {
        diag_free(&d);
        arena_free(a);
        if (cached)
            rt_cache_key_free(&key);
        return st;
    }
    const Type *adt[RT_UF_MAXARGS];
    int cidx[RT_UF_MAXARGS * NJ_MAX_NDIM], nc = 0;
    for (int k = 0; k < na; k++) {
        adt[k] = rt_type_of_dtype(L->dtypes[k]);
        if (!u->gufunc)
            continue;
        const Type *pt = p->funcs[0]->params[k];
        int pnd = pt->kind == TY_ARRAY ? pt->ndim : 0;
        L->param_nd[k] = (int8_t)pnd;
        for (int j = 0; j < pnd; j++)
            cidx[nc++] = u->core_n[k] ? u->core_idx[k][j] : -1;
    }
    CgOptions opt = {.opt_level = 3, .fastmath = u->fi->fastmath, .loop_basic = basic};
    char *err = NULL;
    CgLoop fn = NULL;
    bool ok;
    if (cached) {
        void *obj = NULL, *addr = NULL;
        size_t olen = 0;
        ok = cg_jit_compile_loop_object(ctx->jit, p, adt, na, u->nout, u->gufunc ? cidx : NULL,
                                        &opt, key.sym, &obj, &olen, &err) &&
             cg_jit_add_object(ctx->jit, obj, olen, key.sym, &addr, &err);
        fn = (CgLoop)addr;
        if (ok)
            store_loop(u, L, &key, r, obj, olen);
        free(obj);
        rt_cache_key_free(&key);
    } else {
        ok = cg_jit_compile_loop(ctx->jit, p, adt, na, u->nout, u->gufunc ? cidx : NULL, &opt,
                                 &fn, &err);
    }
    diag_free(&d);
    arena_free(a);
    if (!ok) {
        rt_set_errorf(ctx, "%s: internal error: code generation failed for the loop of %s(): %s",
                      u->module->src.name, u->name, err ? err : "?");
        free(err);
        return NJ_ERR_COMPILE;
    }
    L->fn = fn;
    return NJ_OK;
}

/* Appends the signature of a newly compiled dynamic loop: the inputs' types -> ret. */
static NjStatus add_dynamic_sig(NjUfunc *u, const uint8_t *key, const Type *ret, int *index) {
    if (u->nsigs == u->capsigs) {
        UfSig *n = nj_realloc(u->sigs, sizeof *n * (size_t)u->capsigs * 2);
        if (!n)
            return NJ_ERR_NOMEM;
        memset(n + u->capsigs, 0, sizeof *n * (size_t)u->capsigs);
        u->sigs = n;
        u->capsigs *= 2;
    }
    UfSig *s = &u->sigs[u->nsigs];
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s(", ret->name);
    for (int k = 0; k < u->nin; k++) {
        s->args[k] = rt_type_of_dtype((NjDType)key[k]);
        sb_printf(&sb, "%s%s", k ? ", " : "", s->args[k]->name);
    }
    sb_putc(&sb, ')');
    s->ret = ret;
    s->text = sb_take(&sb);
    if (!s->text)
        return NJ_ERR_NOMEM;
    *index = u->nsigs++;
    return NJ_OK;
}

/* Resolves and compiles the loop for key (under u->lock), publishing it. */
static bool same_loop(const NjUfunc *u, const UfEntry *a, const UfEntry *b);
static bool ahead_take(NjUfunc *u, const UfEntry *want, RtLoop *L);
static void maybe_ahead(NjUfunc *u, const UfEntry *first);

/* Steps 1 and 2 of make_entry: the signature for these input dtypes (NumPy's 'safe' linear
 * search) and the loop's dtypes, into *e. */
static NjStatus entry_desc(NjUfunc *u, const uint8_t *key, UfEntry *e) {
    NjContext *ctx = u->module->ctx;
    int nin = u->nin, na = u->nin + u->nout;
    UfEntry tmp;
    memset(&tmp, 0, sizeof tmp);
    memcpy(tmp.key, key, (size_t)na);
    tmp.sig = -1;
    /* 1. the signature */
    for (int i = 0; i < u->nsigs && tmp.sig < 0; i++) {
        bool ok = true;
        for (int k = 0; k < nin && ok; k++)
            ok = ty_can_cast_safe(rt_type_of_dtype((NjDType)key[k]), sig_dtype(u->sigs[i].args[k]));
        if (ok)
            tmp.sig = i;
    }
    if (!u->dynamic && tmp.sig < 0)
        return no_loop_error(u, key);
    /* 2. the loop's dtypes */
    RtLoop *L = &tmp.loop;
    L->nin = nin;
    L->nout = u->nout;
    for (int k = 0; k < na; k++) {
        if (u->gufunc) {
            const Type *t = sig_dtype(u->sigs[tmp.sig].args[k]);
            rt_dtype_of_type(t, &L->dtypes[k]);
            if (k >= nin && key[k] != KEY_ALLOC && key[k] != L->dtypes[k]) {
                rt_set_errorf(ctx, "error: %s(): output %d has dtype %s but the signature '%s' "
                              "writes %s", u->name, k - nin, nj_dtype_name((NjDType)key[k]),
                              u->sigs[tmp.sig].text, t->name);
                return NJ_ERR_TYPE;
            }
        } else if (k < nin) {
            L->dtypes[k] = (NjDType)key[k];
        } else if (key[k] != KEY_ALLOC) {
            L->dtypes[k] = (NjDType)key[k];
            if (tmp.sig >= 0 && !can_cast_same_kind(u->sigs[tmp.sig].ret, rt_type_of_dtype(L->dtypes[k]))) {
                rt_set_errorf(ctx, "error: %s(): output %d has dtype %s but the loop '%s' returns "
                              "%s, which does not cast to it (casting rule 'same_kind')", u->name,
                              k - nin, nj_dtype_name(L->dtypes[k]), u->sigs[tmp.sig].text,
                              u->sigs[tmp.sig].ret->name);
                return NJ_ERR_TYPE;
            }
        } else if (tmp.sig >= 0) {
            rt_dtype_of_type(u->sigs[tmp.sig].ret, &L->dtypes[k]);
        } else {
            L->dtypes[k] = (NjDType)KEY_ALLOC;
        }
    }
    L->gufunc = u->gufunc;
    L->ncore = u->ncore;
    memcpy(L->core_n, u->core_n, sizeof L->core_n);
    memcpy(L->core_idx, u->core_idx, sizeof L->core_idx);
    L->core_names = (const char *const *)u->core_names;
    memcpy(e, &tmp, sizeof tmp);
    return NJ_OK;
}

static NjStatus make_entry(NjUfunc *u, const uint8_t *key, UfEntry **out) {
    int nin = u->nin, na = u->nin + u->nout;
    UfEntry tmp;
    NjStatus dst = entry_desc(u, key, &tmp);
    if (dst)
        return dst;
    RtLoop *L = &tmp.loop;
    /* 3. an existing loop with the same dtypes, or a new one */
    UfTable *old = atomic_load(&u->table);
    bool have = false;
    for (int i = 0; old && i < old->n && !have; i++) {
        const UfEntry *o = old->items[i];
        if (o->sig == tmp.sig && L->dtypes[nin] != (NjDType)KEY_ALLOC &&
            !memcmp(o->loop.dtypes, L->dtypes, sizeof(NjDType) * (size_t)na)) {
            tmp.loop = o->loop;
            tmp.basic = o->basic;
            atomic_init(&tmp.full, atomic_load(&((UfEntry *)o)->full));
            have = true;
        }
    }
    if (!have && ahead_take(u, &tmp, &tmp.loop)) {
        tmp.basic = true;
        have = true;
    }
    if (!have) {
        const Type *ret = NULL;
        tmp.basic = !u->gufunc;
        maybe_ahead(u, &tmp);
        NjStatus st = compile_entry(u, &tmp, tmp.basic, &ret);
        if (!st && tmp.sig < 0) /* dynamic: the new loop becomes a signature */
            st = add_dynamic_sig(u, key, ret, &tmp.sig);
        if (st)
            return st;
    }
    UfEntry *e = nj_malloc(sizeof *e);
    int on = old ? old->n : 0;
    UfTable *t = nj_malloc(sizeof *t + sizeof(UfEntry *) * (size_t)(on + 1));
    if (!e || !t) {
        nj_free(e);
        nj_free(t);
        return NJ_ERR_NOMEM;
    }
    memcpy(e, &tmp, sizeof *e);
    t->n = on + 1;
    if (on)
        memcpy(t->items, old->items, sizeof(UfEntry *) * (size_t)on);
    t->items[on] = e;
    atomic_store_explicit(&u->table, t, memory_order_release);
    if (old)
        pv_push(&u->old_tables, old);
    *out = e;
    return NJ_OK;
}

/* The entry for these arrays: the lock-free scan, then the slow path. */
/* ---- declared signatures ahead of need ----------------------------------------------------------
 * Numba compiles every declared signature when the decorator runs; numjit compiles a loop on
 * the first call that needs it.  A CPU ufunc with several declared signatures gets the best of
 * both: the first compile (make_entry, ufunc lock held) starts a thread that compiles the
 * other signatures' basic loops for their own dtypes, one after the other, while the caller
 * compiles its own: LLVM work runs in parallel (codegen/cpu.c pools TargetMachines; only
 * linking is serialized) and takes no ufunc lock.  make_entry then uses such a loop when its
 * signature and dtypes are the same, waiting for it while it is being compiled.  A loop that
 * failed there is compiled again by the call that needs it, which reports the error. */
enum { AHEAD_QUEUED = 1, AHEAD_DONE, AHEAD_FAILED };

typedef struct AheadSlot {
    UfEntry e; /* signature and loop dtypes (entry_desc), then the compiled basic loop */
    int state; /* AHEAD_* */
} AheadSlot;

static bool same_loop(const NjUfunc *u, const UfEntry *a, const UfEntry *b) {
    return a->sig == b->sig &&
           !memcmp(a->loop.dtypes, b->loop.dtypes, sizeof(NjDType) * (size_t)(u->nin + u->nout));
}

static void *ahead_main(void *arg) {
    NjUfunc *u = arg;
    for (int i = 0; i < u->nahead; i++) {
        AheadSlot *slot = &u->ahead_slot[i]; /* only this thread writes e until DONE */
        const Type *ret = NULL;
        bool ok = compile_entry(u, &slot->e, true, &ret) == NJ_OK;
        pthread_mutex_lock(&u->ahead_mu);
        slot->state = ok ? AHEAD_DONE : AHEAD_FAILED;
        pthread_cond_broadcast(&u->ahead_cv);
        pthread_mutex_unlock(&u->ahead_mu);
    }
    return NULL;
}

/* Starts the thread once, for CPU ufuncs with several declared signatures: for each declared
 * signature's input dtypes, the loop a call with such inputs would use (entry_desc), except
 * `first` (being compiled by the caller) and repeats.  Ufunc lock held. */
static void maybe_ahead(NjUfunc *u, const UfEntry *first) {
    const char *off = getenv("NUMJIT_NO_AHEAD");
    if (u->ahead_started || u->dynamic || u->gufunc || u->nsigs < 2 ||
        u->target == NJ_TARGET_CUDA || (off && *off))
        return;
    u->ahead_slot = nj_calloc((size_t)u->nsigs, sizeof(AheadSlot));
    if (!u->ahead_slot)
        return;
    u->nahead = 0;
    for (int j = 0; j < u->nsigs; j++) {
        uint8_t key[RT_UF_MAXARGS];
        NjDType dt;
        bool ok = true;
        for (int k = 0; k < u->nin && ok; k++) {
            ok = rt_dtype_of_type(sig_dtype(u->sigs[j].args[k]), &dt) == NJ_OK;
            key[k] = (uint8_t)dt;
        }
        for (int k = u->nin; k < u->nin + u->nout; k++)
            key[k] = KEY_ALLOC;
        AheadSlot *slot = &u->ahead_slot[u->nahead];
        if (!ok || entry_desc(u, key, &slot->e) != NJ_OK || same_loop(u, &slot->e, first))
            continue;
        for (int i = 0; i < u->nahead && ok; i++)
            ok = !same_loop(u, &slot->e, &u->ahead_slot[i].e);
        if (ok) {
            slot->state = AHEAD_QUEUED;
            u->nahead++;
        }
    }
    if (!u->nahead)
        return;
    pthread_mutex_init(&u->ahead_mu, NULL);
    pthread_cond_init(&u->ahead_cv, NULL);
    u->ahead_started = rt_background_start(&u->ahead, ahead_main, u);
    if (!u->ahead_started) {
        pthread_mutex_destroy(&u->ahead_mu);
        pthread_cond_destroy(&u->ahead_cv);
    }
}

/* The loop compiled ahead for want's signature and dtypes into *L, waiting for it while it is
 * being compiled; false when there is none.  Ufunc lock held. */
static bool ahead_take(NjUfunc *u, const UfEntry *want, RtLoop *L) {
    if (!u->ahead_started)
        return false;
    for (int i = 0; i < u->nahead; i++) {
        AheadSlot *slot = &u->ahead_slot[i];
        if (!same_loop(u, &slot->e, want))
            continue;
        pthread_mutex_lock(&u->ahead_mu);
        while (slot->state == AHEAD_QUEUED)
            pthread_cond_wait(&u->ahead_cv, &u->ahead_mu);
        bool ok = slot->state == AHEAD_DONE;
        if (ok)
            *L = slot->e.loop;
        pthread_mutex_unlock(&u->ahead_mu);
        return ok;
    }
    return false;
}

NjStatus rt_uf_get_entry(NjUfunc *u, const NjArray *ins, const NjArray *outs, UfEntry **out) {
    int nin = u->nin, na = nin + u->nout;
    uint8_t key[RT_UF_MAXARGS];
    for (int k = 0; k < nin; k++)
        key[k] = (uint8_t)ins[k].dtype;
    for (int k = 0; k < u->nout; k++)
        key[nin + k] = outs[k].data ? (uint8_t)outs[k].dtype : KEY_ALLOC;
    UfEntry *e = find_entry(u, key, na);
    if (e) {
        *out = e;
        return NJ_OK;
    }
    pthread_mutex_lock(&u->lock);
    e = find_entry(u, key, na);
    NjStatus st = e ? NJ_OK : make_entry(u, key, &e);
    pthread_mutex_unlock(&u->lock);
    *out = e;
    return st;
}

NjStatus rt_uf_full_loop(NjUfunc *u, UfEntry *e, CgLoop *out) {
    CgLoop f = atomic_load_explicit(&e->full, memory_order_acquire);
    NjStatus st = NJ_OK;
    if (!f) {
        pthread_mutex_lock(&u->lock);
        f = atomic_load(&e->full);
        /* entries that share e's loop (same signature and dtypes) share its full loop too */
        UfTable *t = atomic_load(&u->table);
        for (int i = 0; !f && t && i < t->n; i++)
            if (t->items[i] != e && same_loop(u, t->items[i], e))
                f = atomic_load(&t->items[i]->full);
        if (f)
            atomic_store_explicit(&e->full, f, memory_order_release);
        if (!f) {
            UfEntry tmp;
            memcpy(&tmp, e, sizeof tmp);
            const Type *ret = NULL;
            st = compile_entry(u, &tmp, false, &ret);
            if (!st) {
                f = tmp.loop.fn;
                atomic_store_explicit(&e->full, f, memory_order_release);
            }
        }
        pthread_mutex_unlock(&u->lock);
    }
    *out = f;
    return st;
}

/* ---- loops for NumPy's own ufunc objects --------------------------------------------------------
 * numpy.ufunc (PyUFunc_FromFuncAndData) keeps one inner loop per signature, each reading and
 * writing exactly its signature's dtypes; NumPy itself broadcasts, casts, buffers, allocates
 * and iterates, and calls the loop on one dimension at a time (any strides, 0 included).  So
 * the loop handed out is the full one (not the basic one of entries), compiled for the
 * signature's own dtypes, and for target 'parallel' it is wrapped in rt_uf_numpy_par_loop,
 * which runs each call of NumPy's on this library's thread pool (rt_uf_exec, parallel).  A
 * dynamic ufunc gets a new signature for the input dtypes given, as an entry's miss would
 * (its loop is typed for those inputs; the output is the inferred return type).  The RtNpLoop
 * lives as long as the ufunc. */
static NjStatus numpy_loop_locked(NjUfunc *u, int *sig, NjDType *dtypes, RtNpLoop **out) {
    int nin = u->nin, na = nin + u->nout;
    UfEntry tmp;
    memset(&tmp, 0, sizeof tmp);
    RtLoop *L = &tmp.loop;
    tmp.sig = *sig;
    if (*sig < 0) { /* dynamic: an existing signature with these input dtypes, or a new one */
        for (int i = 0; i < u->nsigs && tmp.sig < 0; i++) {
            bool same = true;
            for (int k = 0; k < nin && same; k++) {
                NjDType d;
                same = rt_dtype_of_type(u->sigs[i].args[k], &d) == NJ_OK && d == dtypes[k];
            }
            if (same)
                tmp.sig = i;
        }
    }
    for (int k = 0; k < na; k++) {
        const Type *t = tmp.sig >= 0 ? rt_ufunc_sig_type(u, tmp.sig, k) : NULL;
        if (t)
            rt_dtype_of_type(sig_dtype(t), &L->dtypes[k]);
        else
            L->dtypes[k] = k < nin ? dtypes[k] : (NjDType)KEY_ALLOC;
    }
    L->nin = nin;
    L->nout = u->nout;
    L->gufunc = u->gufunc;
    L->ncore = u->ncore;
    memcpy(L->core_n, u->core_n, sizeof L->core_n);
    memcpy(L->core_idx, u->core_idx, sizeof L->core_idx);
    L->core_names = (const char *const *)u->core_names;
    const Type *ret = NULL;
    NjStatus st = compile_entry(u, &tmp, false, &ret);
    if (!st && tmp.sig < 0) {
        uint8_t key[RT_UF_MAXARGS];
        for (int k = 0; k < nin; k++)
            key[k] = (uint8_t)dtypes[k];
        st = add_dynamic_sig(u, key, ret, &tmp.sig);
    }
    if (st)
        return st;
    RtNpLoop *n = nj_malloc(sizeof *n);
    if (!n)
        return NJ_ERR_NOMEM;
    n->loop = tmp.loop;
    n->ctx = u->module->ctx;
    n->name = u->name;
    pv_push(&u->np_loops, n);
    memcpy(dtypes, L->dtypes, sizeof(NjDType) * (size_t)na);
    *sig = tmp.sig;
    *out = n;
    return NJ_OK;
}

NjStatus nj_ufunc_numpy_loop(NjUfunc *u, int *sig, NjDType *dtypes, NjUfuncLoop *fn,
                             void **data) {
    if (!u || !sig || !dtypes || !fn || !data)
        return NJ_ERR_ARGS;
    if (u->target == NJ_TARGET_CUDA) {
        rt_set_errorf(u->module->ctx, "error: %s: NumPy loops are for CPU ufuncs", u->name);
        return NJ_ERR_UNSUPPORTED;
    }
    if (*sig >= u->nsigs || (*sig < 0 && !u->dynamic)) {
        rt_set_errorf(u->module->ctx, "error: %s: no signature %d", u->name, *sig);
        return NJ_ERR_ARGS;
    }
    for (int k = 0; *sig < 0 && k < u->nin; k++)
        if ((unsigned)dtypes[k] >= NJ_DTYPE_COUNT) {
            rt_set_errorf(u->module->ctx, "error: %s: bad dtype for input %d", u->name, k);
            return NJ_ERR_ARGS;
        }
    NjStatus st = rt_ensure_jit(u->module->ctx);
    if (st)
        return st;
    RtNpLoop *n = NULL;
    pthread_mutex_lock(&u->lock);
    st = numpy_loop_locked(u, sig, dtypes, &n);
    pthread_mutex_unlock(&u->lock);
    if (st)
        return st;
    if (u->target == NJ_TARGET_PARALLEL) {
        *fn = rt_uf_numpy_par_loop;
        *data = n;
    } else {
        *fn = (NjUfuncLoop)n->loop.fn;
        *data = n->loop.data;
    }
    return NJ_OK;
}


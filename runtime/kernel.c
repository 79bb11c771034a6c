/* kernel.c — explicit CUDA kernels (@cuda.jit): specialization, the cubin cache, launch, and
 * PTX ahead of time.
 *
 * An NjKernel is the dispatcher of one @cuda.jit function, built like dispatch.c's: a launch
 * packs each argument into an ArgKey (kind, dtype, ndim, layout; host and device arrays give
 * the same key since they give the same type), scans the kernel's published table of
 * specializations for (keys, device) without a lock, and on a miss takes the kernel's lock,
 * checks again and compiles:
 *
 *   ty_specialize (TARGET_NVPTX, IRF_KERNEL; device functions become IRF_DEVICE callees)
 *   → ir_run_passes → cg_emit_ptx_ex for the device's arch under the driver's PTX cap (the
 *     backend chosen automatically: LLVM's NVPTX up to sm_90a, libNVVM for sm_100 and newer)
 *   → cu_module_load_ptx (the driver's JIT) → cu_module_kernel
 *
 * then publishes a new immutable table.  With the on-disk cache (cache=True, or NUMJIT_CACHE=1)
 * the compile is, instead: the key (rt_cubin_key: the kernel's source, every module function
 * it may call, the constants, the parameter types, options, numjit/LLVM versions, the device's
 * arch, the driver's version and PTX cap, the PTX backend) → rt_cache_load → a hit loads the
 * stored cubin (cu_module_load_cubin, ~0.1 ms): no typer, no LLVM, no PTX JIT.  The parameter
 * types, which the launch's marshaling needs, are known before typing (argument keys or a
 * declared signature) and the entry name is the kernel's, so a hit needs nothing from the typed
 * IR; both are in the entry and checked.  A miss generates PTX as above, links it to a cubin
 * (cu_link_ptx), loads that and stores it (rt_cubin_build).  These cubin helpers take any GPU
 * compilation (runtime.h says how): GPU ufunc kernels can use them as they are.
 *
 * A kernel with declared signatures (the decorator's or nj_kernel_compile's) takes, on a
 * miss, the best declared signature the arguments fit (arrays exactly, scalars exact < safe <
 * any conversion) and launches with its types.
 *
 * A launch then marshals the arguments into the PTX kernel ABI (codegen.h): an array is its
 * data pointer, shape[ndim] and strides[ndim] as int64; a scalar is converted to its
 * parameter's C type.  A host array is copied in whole — the byte span its shape and strides
 * reach, so any strides (negative, zero, gaps) work — and copied back after the kernel; the
 * launch then waits on its stream.  Device arrays stay, and such a launch is asynchronous.
 *
 * Kernels of a module live in a process-wide registry and die with their module
 * (rt_module_kernels_free).  Device memory, copies, streams and events of the public API, and
 * the calling thread's current device, are device.c.
 */
#include "cuda.h"
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_MAXARGS 16
#define K_MAXDECL 16

typedef struct KSpec {
    int nargs;
    ArgKey keys[K_MAXARGS];
    int device;
    const Type *params[K_MAXARGS]; /* the kernel's parameter types */
    CuModule *cm;                  /* owned when owns_module */
    bool owns_module;
    CuKernel *ck;
} KSpec;

typedef struct KTable {
    int n;
    KSpec *items[];
} KTable;

struct NjKernel {
    NjModule *module;
    const FuncInfo *info;
    pthread_mutex_t lock;
    _Atomic(KTable *) table;
    PtrVec old_tables;
    int ndecl;
    const Type *decl[K_MAXDECL][K_MAXARGS]; /* declared signatures' argument types */
    bool decl_parsed;                       /* the decorator's signatures were read */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static PtrVec registry;

/* ---- keys and types ------------------------------------------------------------------------ */
static bool is_array(const NjValue *v) {
    return v->kind == NJ_KIND_ARRAY || v->kind == NJ_KIND_DEVICE_ARRAY;
}

static NjStatus check_args(NjKernel *k, const NjValue *args, int nargs) {
    NjContext *ctx = k->module->ctx;
    int want = k->info->def->params.n;
    if (nargs != want || nargs > K_MAXARGS || (nargs && !args)) {
        rt_set_errorf(ctx, "error: kernel %s() takes %d argument%s but %d %s given", k->info->name,
                      want, want == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        return NJ_ERR_ARGS;
    }
    for (int i = 0; i < nargs; i++) {
        const NjValue *v = &args[i];
        bool ok = (v->kind == NJ_KIND_SCALAR && (unsigned)v->dtype < NJ_DTYPE_COUNT) ||
                  (is_array(v) && v->v.a && (unsigned)v->v.a->dtype < NJ_DTYPE_COUNT &&
                   v->v.a->ndim >= 0 && v->v.a->ndim <= NJ_MAX_NDIM);
        if (!ok) {
            rt_set_errorf(ctx, "error: argument %d of kernel %s() is not a number or an array",
                          i + 1, k->info->name);
            return NJ_ERR_ARGS;
        }
    }
    return NJ_OK;
}

/* A signature written as a Python expression (void(float32[:], int64)) back to text. */
static bool sig_text(const Node *n, StrBuf *sb) {
    switch (n->kind) {
    case ND_STR: sb_puts(sb, n->str); return true;
    case ND_NAME:
    case ND_ATTR: sb_puts(sb, n->name); return true;
    case ND_INT: sb_printf(sb, "%lld", (long long)n->ival); return true;
    case ND_SLICE:
        if (n->a || n->b)
            return false;
        sb_puts(sb, n->c ? "::" : ":");
        return !n->c || sig_text(n->c, sb);
    case ND_SUBSCRIPT: {
        if (!sig_text(n->a, sb))
            return false;
        sb_putc(sb, '[');
        const NodeList *l = n->b->kind == ND_TUPLE ? &n->b->list : NULL;
        for (int i = 0; i < (l ? l->n : 1); i++) {
            if (i)
                sb_puts(sb, ", ");
            if (!sig_text(l ? l->items[i] : n->b, sb))
                return false;
        }
        sb_putc(sb, ']');
        return true;
    }
    case ND_CALL:
    case ND_TUPLE:
        if (n->kind == ND_CALL && !sig_text(n->a, sb))
            return false;
        sb_putc(sb, '(');
        for (int i = 0; i < n->list.n; i++) {
            if (i)
                sb_puts(sb, ", ");
            if (!sig_text(n->list.items[i], sb))
                return false;
        }
        sb_putc(sb, ')');
        return true;
    default: return false;
    }
}

/* Parses a signature of k's parameters into types (n of them). */
static NjStatus parse_sig(NjKernel *k, const char *sig, const Type **types) {
    const Type *ret;
    const char *err;
    int n = ty_parse_sig(sig, &ret, types, K_MAXARGS, &err);
    NjContext *ctx = k->module->ctx;
    if (n < 0) {
        rt_set_errorf(ctx, "error: bad signature '%s' of kernel %s: %s", sig, k->info->name, err);
        return NJ_ERR_ARGS;
    }
    if (ret && ret != ty_void) {
        rt_set_errorf(ctx, "error: kernel %s: a kernel returns void, not %s ('%s')", k->info->name,
                      ret->name, sig);
        return NJ_ERR_TYPE;
    }
    if (n != k->info->def->params.n) {
        rt_set_errorf(ctx, "error: kernel %s() takes %d arguments but the signature '%s' has %d",
                      k->info->name, k->info->def->params.n, sig, n);
        return NJ_ERR_ARGS;
    }
    return NJ_OK;
}

static bool add_decl(NjKernel *k, const Type **types) {
    int n = k->info->def->params.n;
    for (int i = 0; i < k->ndecl; i++)
        if (!memcmp(k->decl[i], types, sizeof *types * (size_t)n))
            return true;
    if (k->ndecl == K_MAXDECL)
        return false;
    memcpy(k->decl[k->ndecl++], types, sizeof *types * (size_t)n);
    return true;
}

/* The decorator's signatures, read once (under k->lock). */
static NjStatus read_declared(NjKernel *k) {
    if (k->decl_parsed)
        return NJ_OK;
    k->decl_parsed = true;
    for (int i = 0; i < k->info->sigs.n; i++) {
        StrBuf sb;
        sb_init(&sb);
        const Type *types[K_MAXARGS];
        NjStatus st = NJ_OK;
        if (!sig_text(k->info->sigs.items[i], &sb) || !sb.data) {
            rt_set_errorf(k->module->ctx, "%s: error: kernel %s: cannot read its signature",
                          k->module->src.name, k->info->name);
            st = NJ_ERR_ARGS;
        } else if (!(st = parse_sig(k, sb.data, types))) {
            add_decl(k, types);
        }
        sb_free(&sb);
        if (st)
            return st;
    }
    return NJ_OK;
}

/* How well a value fits a declared parameter type: 0 exact, 1 safe, 2 a conversion, -1 not. */
static int fit(const NjValue *v, ArgKey key, const Type *t) {
    if (is_array(v)) {
        if (t->kind != TY_ARRAY)
            return -1;
        NjDType d;
        if (rt_dtype_of_type(t->dtype, &d) || d != v->v.a->dtype || t->ndim != v->v.a->ndim)
            return -1;
        ArrayLayout l = (ArrayLayout)((key >> 16) & 0xff);
        if (t->layout == l)
            return 0;
        return t->layout == LAYOUT_A || v->v.a->ndim <= 1 ? 1 : -1;
    }
    if (!ty_is_elem(t))
        return -1;
    const Type *vt = rt_type_of_dtype(v->dtype);
    return vt == t ? 0 : ty_can_cast_safe(vt, t) ? 1 : 2;
}

static int pick_decl(NjKernel *k, const NjValue *args, const ArgKey *keys, int n) {
    int best = -1, best_score = 1 << 30;
    for (int i = 0; i < k->ndecl; i++) {
        int score = 0;
        for (int j = 0; j < n && score >= 0; j++) {
            int f = fit(&args[j], keys[j], k->decl[i][j]);
            score = f < 0 ? -1 : score + f;
        }
        if (score >= 0 && score < best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* ---- the table ------------------------------------------------------------------------------ */
static KSpec *find_spec(NjKernel *k, const ArgKey *keys, int n, int device) {
    KTable *t = atomic_load_explicit(&k->table, memory_order_acquire);
    for (int i = 0; t && i < t->n; i++) {
        KSpec *s = t->items[i];
        if (s->device == device && s->nargs == n &&
            !memcmp(s->keys, keys, sizeof(ArgKey) * (size_t)n))
            return s;
    }
    return NULL;
}

/* A compiled spec of the same parameter types on the device (declared signatures). */
static KSpec *find_compiled(NjKernel *k, const Type **params, int n, int device) {
    KTable *t = atomic_load_explicit(&k->table, memory_order_acquire);
    for (int i = 0; t && i < t->n; i++) {
        KSpec *s = t->items[i];
        if (s->device == device && s->nargs == n &&
            !memcmp(s->params, params, sizeof *params * (size_t)n))
            return s;
    }
    return NULL;
}

static bool publish(NjKernel *k, KSpec *s) {
    KTable *old = atomic_load(&k->table);
    int on = old ? old->n : 0;
    KTable *t = nj_malloc(sizeof *t + sizeof(KSpec *) * (size_t)(on + 1));
    if (!t)
        return false;
    t->n = on + 1;
    if (on)
        memcpy(t->items, old->items, sizeof(KSpec *) * (size_t)on);
    t->items[on] = s;
    atomic_store_explicit(&k->table, t, memory_order_release);
    if (old)
        pv_push(&k->old_tables, old);
    return true;
}

/* ---- compiling ------------------------------------------------------------------------------ */
static bool verify_ir(void) {
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("NUMJIT_VERIFY");
        on = e && *e && *e != '0';
    }
    return on;
}

/* The arch to generate for a device: its own when LLVM 19 can target it under the cap, or
 * when it is sm_100+ and libNVVM is present and writes PTX the driver accepts (the auto
 * backend then takes libNVVM); else the newest one below it that LLVM can target (PTX is
 * forward compatible: the driver JITs it). */
static const char *pick_arch(const char *dev_arch, int cap, char *buf, size_t n) {
    if (cg_ptx_version(dev_arch, cap))
        return dev_arch;
    if (cg_ptx_backend_for(dev_arch, CG_PTX_AUTO) == CG_PTX_NVVM &&
        cg_ptx_can_target(dev_arch, CG_PTX_AUTO, NULL) &&
        (cap <= 0 || cg_nvvm_ptx_isa() <= cap))
        return dev_arch;
    static const char *const fallback[] = {"sm_90", "sm_89", "sm_87", "sm_86", "sm_80", "sm_75",
                                           "sm_70", "sm_61", "sm_60", "sm_52", "sm_50"};
    int want = atoi(dev_arch + 3);
    for (size_t i = 0; i < sizeof fallback / sizeof *fallback; i++)
        if (atoi(fallback[i] + 3) <= want && cg_ptx_version(fallback[i], cap)) {
            snprintf(buf, n, "%s", fallback[i]);
            return buf;
        }
    return dev_arch;
}

static atomic_ulong ptx_gens; /* gen_ptx runs in this process (for the cache's debug notes) */

/* Types and generates PTX for (fi, types): a kernel, or a device function (.func). */
static NjStatus gen_ptx(NjModule *m, const FuncInfo *fi, const Type **types, int n,
                        const char *arch, int max_ptx, char **out) {
    NjContext *ctx = m->ctx;
    *out = NULL;
    atomic_fetch_add(&ptx_gens, 1);
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    TyRequest req = {
        .module = m->info,
        .func = fi->name,
        .args = types,
        .nargs = n,
        .target = TARGET_NVPTX,
        .kind = fi->kind == FK_KERNEL ? IRF_KERNEL : IRF_DEVICE,
    };
    IrProgram *p = ty_specialize(a, &req, &d);
    if (p && !ir_run_passes(p, verify_ir(), &d))
        p = NULL;
    NjStatus st = NJ_OK;
    if (!p) {
        bool oom = arena_failed(a);
        if (d.nerrors)
            rt_set_diags(ctx, &d);
        else
            rt_set_error(ctx, oom ? "error: out of memory" : "error: typing failed");
        st = oom ? NJ_ERR_NOMEM : fi->taint ? NJ_ERR_SYNTAX : NJ_ERR_TYPE;
    } else {
        CgOptions opt = {.opt_level = 3, .fastmath = fi->fastmath};
        char *err = NULL;
        char *ptx = cg_emit_ptx_ex(p, arch, max_ptx, false, &opt, &err);
        if (!ptx) {
            rt_set_errorf(ctx, "%s: error: PTX generation for %s (%s) failed: %s", m->src.name,
                          fi->name, arch, err ? err : "?");
            st = NJ_ERR_COMPILE;
        } else {
            st = rt_give_string(ptx, out); /* ours: nj_free_string frees it */
            free(ptx);
        }
        free(err);
    }
    diag_free(&d);
    arena_free(a);
    return st;
}

/* ---- the cubin cache (any GPU compilation; runtime.h) ---------------------------------------- */
void rt_gpu_target(CuDevice *d, RtGpuTarget *t) {
    memset(t, 0, sizeof *t);
    const CuDeviceInfo *di = cu_device_info(d);
    char abuf[16];
    t->max_ptx = cu_driver_max_ptx();
    t->driver = cu_driver_version();
    snprintf(t->dev_arch, sizeof t->dev_arch, "%s", di->arch);
    snprintf(t->gen_arch, sizeof t->gen_arch, "%s",
             pick_arch(di->arch, t->max_ptx, abuf, sizeof abuf));
}

static bool same_entry(const RtCubinEntry *a, const RtCubinEntry *b) {
    return !strcmp(a->dev_arch, b->dev_arch) && !strcmp(a->entry, b->entry) &&
           a->nparams == b->nparams &&
           !memcmp(a->params, b->params, sizeof *a->params * (size_t)a->nparams);
}

bool rt_cubin_load(const RtCacheKey *k, CuDevice *d, const RtCubinEntry *want, RtBlob *meta,
                   CuModule **out) {
    *out = NULL;
    if (meta)
        memset(meta, 0, sizeof *meta);
    RtBlob b;
    if (!rt_cache_load(k, &b))
        return false;
    RtCubinEntry e;
    char why_buf[512];
    const char *why = rt_cubin_get(&b, &e);
    if (!why && !same_entry(&e, want))
        why = "written for another kernel or device";
    if (!why && meta && e.meta_len) { /* a blob of the caller's fields alone, read from 0 */
        if ((meta->data = nj_malloc(e.meta_len))) {
            memcpy(meta->data, e.meta, e.meta_len);
            meta->len = meta->cap = e.meta_len;
        } else {
            why = "out of memory";
        }
    }
    if (!why && cu_module_load_cubin(d, e.cubin, e.cubin_len, out)) {
        snprintf(why_buf, sizeof why_buf, "%s", cu_error());
        why = why_buf;
        *out = NULL;
    }
    if (why) {
        rt_cache_debug("unusable entry for %s: %s", k->desc, why);
        if (meta)
            rt_blob_free(meta);
    } else {
        rt_cache_debug("hit %s (cubin of %zu bytes; PTX generated in this process: %lu)",
                       k->desc, e.cubin_len, (unsigned long)atomic_load(&ptx_gens));
    }
    rt_blob_free(&b);
    return !why;
}

NjStatus rt_cubin_build(CuDevice *d, const char *ptx, const RtCacheKey *k,
                        const RtCubinEntry *want, CuModule **out) {
    *out = NULL;
    if (k) {
        void *cubin = NULL;
        size_t n = 0;
        NjStatus st = cu_link_ptx(d, ptx, &cubin, &n);
        if (!st)
            st = cu_module_load_cubin(d, cubin, n, out);
        if (!st) { /* stored only once the driver has loaded it */
            RtCubinEntry e = *want;
            e.cubin = cubin;
            e.cubin_len = n;
            RtBlob b = {0};
            rt_cubin_put(&b, &e);
            rt_cache_store(k, &b);
            rt_blob_free(&b);
            free(cubin);
            return NJ_OK;
        }
        free(cubin);
        rt_cache_debug("not cached %s: %s", k->desc, cu_error());
        *out = NULL;
    }
    return cu_module_load_ptx(d, ptx, out); /* its error is the one to report */
}

/* Compiles and loads the kernel for params on device `ordinal` into s (through the cubin
 * cache when wanted). */
static NjStatus build_spec(NjKernel *k, const Type **params, int n, int ordinal, KSpec *s) {
    NjContext *ctx = k->module->ctx;
    CuDevice *dev;
    NjStatus st = cu_device_get(ordinal, &dev);
    if (st)
        return rt_cu_fail(ctx, st, NULL);
    memcpy(s->params, params, sizeof *params * (size_t)n);
    KSpec *same = find_compiled(k, params, n, ordinal);
    if (same) { /* another key that converts to the same declared signature */
        s->cm = same->cm;
        s->ck = same->ck;
        return NJ_OK;
    }
    RtGpuTarget t;
    rt_gpu_target(dev, &t);
    RtCubinEntry want = {.dev_arch = t.dev_arch, .entry = k->info->name, .nparams = n};
    memcpy(want.params, params, sizeof *params * (size_t)n);
    RtCacheKey key;
    bool cached = rt_cache_wanted(k->info) &&
                  rt_cubin_key(&key, k->module, k->info, "kernel", params, n, &t, NULL);
    CuModule *cm = NULL;
    if (!cached || !rt_cubin_load(&key, dev, &want, NULL, &cm)) {
        char *ptx = NULL;
        st = gen_ptx(k->module, k->info, params, n, t.gen_arch, t.max_ptx, &ptx);
        if (!st && (st = rt_cubin_build(dev, ptx, cached ? &key : NULL, &want, &cm))) {
            StrBuf sb;
            sb_init(&sb);
            sb_printf(&sb, "kernel %s (%s)", k->info->name, t.gen_arch);
            rt_cu_fail(ctx, st, sb.data);
            sb_free(&sb);
        }
        nj_free(ptx);
    }
    if (cached)
        rt_cache_key_free(&key);
    if (st)
        return st;
    CuKernel *ck = NULL;
    if ((st = cu_module_kernel(cm, k->info->name, &ck))) {
        rt_cu_fail(ctx, st, k->info->name);
        cu_module_free(cm);
        return st;
    }
    s->cm = cm;
    s->owns_module = true;
    s->ck = ck;
    return NJ_OK;
}

/* Finds or compiles the spec for these keys (args, for declared signatures; types: the
 * parameter types to use when keys are synthesized from a signature). */
static NjStatus get_spec(NjKernel *k, const NjValue *args, const ArgKey *keys,
                         const Type **types, int n, KSpec **out) {
    int dev = nj_cuda_get_device();
    KSpec *s = find_spec(k, keys, n, dev);
    if (s) {
        *out = s;
        return NJ_OK;
    }
    NjContext *ctx = k->module->ctx;
    NjStatus st = NJ_OK;
    pthread_mutex_lock(&k->lock);
    if ((s = find_spec(k, keys, n, dev)))
        goto done;
    if ((st = read_declared(k)))
        goto done;
    const Type *params[K_MAXARGS];
    if (types) {
        memcpy(params, types, sizeof *types * (size_t)n);
    } else if (k->ndecl) {
        int i = pick_decl(k, args, keys, n);
        if (i < 0) {
            StrBuf sb;
            sb_init(&sb);
            sb_printf(&sb, "error: kernel %s: no declared signature matches the arguments (",
                      k->info->name);
            for (int j = 0; j < n; j++) {
                const Type *t = rt_type_of_key(keys[j]);
                sb_printf(&sb, "%s%s", j ? ", " : "", t ? t->name : "?");
            }
            sb_puts(&sb, "); declared:");
            for (int d = 0; d < k->ndecl; d++) {
                sb_puts(&sb, d ? ", (" : " (");
                for (int j = 0; j < n; j++)
                    sb_printf(&sb, "%s%s", j ? ", " : "", k->decl[d][j]->name);
                sb_putc(&sb, ')');
            }
            rt_set_error(ctx, sb.data ? sb.data : "error: no matching signature");
            sb_free(&sb);
            st = NJ_ERR_TYPE;
            goto done;
        }
        memcpy(params, k->decl[i], sizeof *params * (size_t)n);
    } else {
        for (int j = 0; j < n; j++)
            if (!(params[j] = rt_type_of_key(keys[j]))) {
                rt_set_errorf(ctx, "error: argument %d of kernel %s has an unknown dtype", j + 1,
                              k->info->name);
                st = NJ_ERR_ARGS;
                goto done;
            }
    }
    s = nj_calloc(1, sizeof *s);
    if (!s) {
        st = NJ_ERR_NOMEM;
        goto done;
    }
    s->nargs = n;
    s->device = dev;
    memcpy(s->keys, keys, sizeof(ArgKey) * (size_t)n);
    if ((st = build_spec(k, params, n, dev, s)) || !publish(k, s)) {
        if (!st && s->owns_module)
            cu_module_free(s->cm);
        nj_free(s);
        s = NULL;
        st = st ? st : NJ_ERR_NOMEM;
    }
done:
    pthread_mutex_unlock(&k->lock);
    *out = s;
    return st;
}

/* ---- kernels: creation and teardown ---------------------------------------------------------- */
static void kernel_free(NjKernel *k) {
    KTable *t = atomic_load(&k->table);
    for (int i = 0; t && i < t->n; i++) {
        if (t->items[i]->owns_module)
            cu_module_free(t->items[i]->cm);
        nj_free(t->items[i]);
    }
    nj_free(t);
    for (int i = 0; i < k->old_tables.n; i++)
        nj_free(k->old_tables.items[i]);
    pv_free(&k->old_tables);
    pthread_mutex_destroy(&k->lock);
    nj_free(k);
}

void rt_module_kernels_free(NjModule *m) {
    pthread_mutex_lock(&registry_lock);
    int j = 0;
    for (int i = 0; i < registry.n; i++) {
        NjKernel *k = registry.items[i];
        if (k->module == m)
            kernel_free(k);
        else
            registry.items[j++] = k;
    }
    registry.n = j;
    if (!j)
        pv_free(&registry);
    pthread_mutex_unlock(&registry_lock);
}

NjStatus nj_module_kernel(NjModule *m, const char *name, NjKernel **out) {
    *out = NULL;
    const FuncInfo *fi = fe_find_func(m->info, name);
    if (!fi) {
        rt_set_errorf(m->ctx, "%s: error: no function named '%s'", m->src.name, name);
        return NJ_ERR_NAME;
    }
    if (fi->kind != FK_KERNEL) {
        rt_set_errorf(m->ctx, "%s: error: '%s' is not a CUDA kernel (decorate it with @cuda.jit)",
                      m->src.name, name);
        return NJ_ERR_NAME;
    }
    if (fi->def->params.n > K_MAXARGS) {
        rt_set_errorf(m->ctx, "%s: error: kernel %s has more than %d parameters", m->src.name,
                      name, K_MAXARGS);
        return NJ_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&registry_lock);
    NjKernel *k = NULL;
    for (int i = 0; i < registry.n && !k; i++) {
        NjKernel *r = registry.items[i];
        if (r->module == m && r->info == fi)
            k = r;
    }
    if (!k && (k = nj_calloc(1, sizeof *k))) {
        k->module = m;
        k->info = fi;
        pthread_mutex_init(&k->lock, NULL);
        int before = registry.n;
        pv_push(&registry, k);
        if (registry.n == before) {
            pthread_mutex_destroy(&k->lock);
            nj_free(k);
            k = NULL;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    if (!k)
        return NJ_ERR_NOMEM;
    *out = k;
    return NJ_OK;
}

NjStatus nj_kernel_compile(NjKernel *k, const char *signature) {
    const Type *types[K_MAXARGS];
    NjStatus st = parse_sig(k, signature, types);
    if (st)
        return st;
    int n = k->info->def->params.n;
    pthread_mutex_lock(&k->lock);
    st = read_declared(k);
    bool ok = st || add_decl(k, types);
    pthread_mutex_unlock(&k->lock);
    if (st)
        return st;
    if (!ok) {
        rt_set_errorf(k->module->ctx, "error: kernel %s: more than %d signatures", k->info->name,
                      K_MAXDECL);
        return NJ_ERR_UNSUPPORTED;
    }
    if (cu_init() != NJ_OK) { /* no driver: type-check and generate PTX, load nothing */
        char *ptx = NULL;
        st = gen_ptx(k->module, k->info, types, n, "sm_90", 0, &ptx);
        nj_free(ptx);
        return st;
    }
    ArgKey keys[K_MAXARGS];
    for (int i = 0; i < n; i++) {
        const Type *t = types[i];
        NjDType d;
        if (rt_dtype_of_type(t->kind == TY_ARRAY ? t->dtype : t, &d)) {
            rt_set_errorf(k->module->ctx, "error: kernel %s: argument %d of type %s is not "
                          "supported", k->info->name, i + 1, t->name);
            return NJ_ERR_TYPE;
        }
        keys[i] = t->kind == TY_ARRAY
                      ? (ArgKey)d | (ArgKey)t->ndim << 8 | (ArgKey)t->layout << 16 | 2u << 24
                      : (ArgKey)d | 1u << 24;
    }
    KSpec *s;
    return get_spec(k, NULL, keys, types, n, &s);
}

/* ---- launching ------------------------------------------------------------------------------- */
typedef union KSlot {
    uint8_t b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    float c64[2];
    double c128[2];
} KSlot;

typedef struct KArg {
    KSlot scalar;
    uint64_t data;
    int64_t shape[NJ_MAX_NDIM], strides[NJ_MAX_NDIM];
    CuDevPtr dev;  /* a host array's device copy */
    char *host;    /* where its span starts on the host */
    size_t nbytes; /* of the span */
} KArg;

/* v converted to scalar type t (Python's conversions: float → int truncates). */
static void convert_scalar(const NjValue *v, const Type *t, KSlot *s) {
    bool is_f = v->dtype == NJ_FLOAT32 || v->dtype == NJ_FLOAT64;
    bool is_u = v->dtype >= NJ_UINT8 && v->dtype <= NJ_UINT64;
    double f = is_f ? v->v.f : v->dtype == NJ_BOOL ? (double)v->v.b : is_u ? (double)v->v.u
                                                                          : (double)v->v.i;
    int64_t i = is_f ? (int64_t)v->v.f : v->dtype == NJ_BOOL ? (int64_t)v->v.b : v->v.i;
    switch (t->kind) {
    case TY_BOOL: s->b = is_f ? f != 0 : i != 0; break;
    case TY_I8: s->i8 = (int8_t)i; break;
    case TY_I16: s->i16 = (int16_t)i; break;
    case TY_I32: s->i32 = (int32_t)i; break;
    case TY_I64: s->i64 = i; break;
    case TY_U8: s->u8 = (uint8_t)i; break;
    case TY_U16: s->u16 = (uint16_t)i; break;
    case TY_U32: s->u32 = (uint32_t)i; break;
    case TY_U64: s->u64 = is_f ? (uint64_t)f : (uint64_t)i; break;
    case TY_F32: s->f32 = (float)f; break;
    case TY_F64: s->f64 = f; break;
    case TY_C64:
    case TY_C128: { /* a real number converts with a zero imaginary part */
        bool c = v->dtype == NJ_COMPLEX64 || v->dtype == NJ_COMPLEX128;
        double re = c ? v->v.c[0] : f, im = c ? v->v.c[1] : 0.0;
        if (t->kind == TY_C64)
            s->c64[0] = (float)re, s->c64[1] = (float)im;
        else
            s->c128[0] = re, s->c128[1] = im;
        break;
    }
    default: s->u64 = 0; break;
    }
}


NjStatus nj_kernel_launch(NjKernel *k, const unsigned grid[3], const unsigned block[3],
                          unsigned shared_bytes, NjStream stream, const NjValue *args,
                          int nargs) {
    NjContext *ctx = k->module->ctx;
    ArgKey keys[K_MAXARGS];
    if (nargs < 0 || nargs > K_MAXARGS || nargs != k->info->def->params.n)
        return check_args(k, args, nargs < 0 ? 0 : nargs);
    for (int i = 0; i < nargs; i++) {
        const NjValue *v = &args[i];
        if ((is_array(v) && v->v.a && (unsigned)v->v.a->dtype < NJ_DTYPE_COUNT &&
             (unsigned)v->v.a->ndim <= NJ_MAX_NDIM) ||
            (v->kind == NJ_KIND_SCALAR && (unsigned)v->dtype < NJ_DTYPE_COUNT))
            keys[i] = rt_arg_key(v);
        else
            return check_args(k, args, nargs);
    }
    if (!grid || !block) {
        rt_set_errorf(ctx, "error: kernel %s: no grid or block given", k->info->name);
        return NJ_ERR_ARGS;
    }
    KSpec *s;
    NjStatus st = get_spec(k, args, keys, NULL, nargs, &s);
    if (st)
        return st;
    CuDevice *dev = cu_module_device(s->cm);
    CuStream cs = (CuStream)stream;
    KArg ka[K_MAXARGS];
    void *params[K_MAXARGS * (1 + 2 * NJ_MAX_NDIM)];
    int np = 0;
    bool any_host = false;
    for (int i = 0; i < nargs; i++) {
        ka[i].dev = 0;
        ka[i].nbytes = 0;
    }
    for (int i = 0; i < nargs; i++) {
        const NjValue *v = &args[i];
        KArg *a = &ka[i];
        if (!is_array(v)) {
            convert_scalar(v, s->params[i], &a->scalar);
            params[np++] = &a->scalar;
            continue;
        }
        const NjArray *arr = v->v.a;
        a->data = (uint64_t)(uintptr_t)arr->data;
        for (int d = 0; d < arr->ndim; d++) {
            a->shape[d] = arr->shape[d];
            a->strides[d] = arr->strides[d];
        }
        if (v->kind == NJ_KIND_ARRAY) {
            any_host = true;
            int64_t lo, hi;
            if (rt_array_span(arr, &lo, &hi)) {
                a->host = (char *)arr->data + lo;
                a->nbytes = (size_t)(hi - lo);
                if ((st = cu_mem_alloc(dev, a->nbytes, &a->dev)) ||
                    (st = cu_memcpy_htod(dev, a->dev, a->host, a->nbytes, cs))) {
                    if (a->dev)
                        cu_mem_free(dev, a->dev);
                    a->dev = 0;
                    rt_cu_fail(ctx, st, k->info->name);
                    goto cleanup;
                }
                a->data = a->dev - (uint64_t)lo;
            } else {
                a->data = 0;
            }
        }
        params[np++] = &a->data;
        for (int d = 0; d < arr->ndim; d++)
            params[np++] = &a->shape[d];
        for (int d = 0; d < arr->ndim; d++)
            params[np++] = &a->strides[d];
    }
    unsigned g[3], b[3];
    for (int d = 0; d < 3; d++) {
        g[d] = grid[d];
        b[d] = block[d];
    }
    if ((st = cu_launch(s->ck, g, b, shared_bytes, cs, params))) {
        rt_cu_fail(ctx, st, NULL);
        goto cleanup;
    }
    if (any_host) { /* copy back, then wait: the host arrays are the caller's results */
        for (int i = 0; i < nargs && !st; i++)
            if (ka[i].nbytes && args[i].kind == NJ_KIND_ARRAY)
                st = cu_memcpy_dtoh(dev, ka[i].host, ka[i].dev, ka[i].nbytes, cs);
        if (!st)
            st = cs ? cu_stream_sync(dev, cs) : cu_device_synchronize(dev);
        if (st)
            rt_cu_fail(ctx, st, NULL);
    }
cleanup:
    for (int i = 0; i < nargs; i++)
        if (ka[i].dev)
            cu_mem_free(dev, ka[i].dev);
    return st;
}

/* ---- ahead of time ----------------------------------------------------------------------------- */
NjStatus nj_ptx(NjModule *m, const char *signature, const char *arch, char **out) {
    NjContext *ctx = m->ctx;
    *out = NULL;
    const char *paren = signature ? strchr(signature, '(') : NULL;
    if (!paren || paren == signature) {
        rt_set_errorf(ctx, "error: expected a signature 'NAME(TYPE, ...)', not '%s'",
                      signature ? signature : "(null)");
        return NJ_ERR_ARGS;
    }
    char name[256];
    size_t len = (size_t)(paren - signature);
    while (len && signature[len - 1] == ' ')
        len--;
    if (len >= sizeof name) {
        rt_set_error(ctx, "error: the function name is too long");
        return NJ_ERR_ARGS;
    }
    memcpy(name, signature, len);
    name[len] = 0;
    const FuncInfo *fi = fe_find_func(m->info, name);
    if (!fi) {
        rt_set_errorf(ctx, "%s: error: no function named '%s'", m->src.name, name);
        return NJ_ERR_NAME;
    }
    if (!arch || !*arch)
        arch = "sm_90";
    char *why = NULL;
    if (!cg_ptx_can_target(arch, CG_PTX_AUTO, &why)) {
        rt_set_errorf(ctx, "error: numjit cannot generate PTX for '%s': %s", arch,
                      why ? why : "no backend");
        free(why);
        return NJ_ERR_UNSUPPORTED;
    }
    if (fi->kind == FK_VECTORIZE || fi->kind == FK_GUVECTORIZE) /* gpu_ufunc.c */
        return rt_gpu_ufunc_ptx(m, fi, paren, arch, out);
    if (fi->kind == FK_NJIT) {
        rt_set_errorf(ctx, "%s: error: '%s' is an @njit function (CPU); PTX is made of "
                      "@cuda.jit kernels and device functions", m->src.name, name);
        return NJ_ERR_UNSUPPORTED;
    }
    const Type *ret, *types[K_MAXARGS];
    const char *err;
    int n = ty_parse_sig(paren, &ret, types, K_MAXARGS, &err);
    if (n < 0) {
        rt_set_errorf(ctx, "error: bad signature '%s': %s", signature, err);
        return NJ_ERR_ARGS;
    }
    if (n != fi->def->params.n) {
        rt_set_errorf(ctx, "error: %s() takes %d arguments but the signature '%s' has %d", name,
                      fi->def->params.n, signature, n);
        return NJ_ERR_ARGS;
    }
    return gen_ptx(m, fi, types, n, arch, 0, out);
}


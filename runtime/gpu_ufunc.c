/* gpu_ufunc.c — target='cuda' ufuncs and gufuncs: resolution, kernels, copies and launch.
 *
 * ufunc.c owns the NjUfunc (signatures, layout) and hands calls of a 'cuda' ufunc over here.
 * A call (nj_ufunc_call_values; nj_ufunc_call is the same with host arrays):
 *  1. Scalars become 0-d host arrays; the signature is chosen as numba-cuda does: the first
 *     whose types the array inputs' dtypes equal, else the first they cast to safely — but a
 *     device array must match exactly (no conversion of device memory).  Scalars take the
 *     signature's type.
 *  2. The loop's dtypes: a ufunc kernel reads each host input in its own dtype and converts
 *     (no host-side conversion pass); device inputs and gufunc arguments are the signature's
 *     (a gufunc's host input of another dtype is converted on the host first).  An output
 *     given as out= keeps its dtype (the kernel converts the result).
 *  3. Shapes: the CPU executor (rt_uf_exec, shape only) checks broadcasting, core dimensions
 *     and out= shapes, and gives the allocated outputs' shapes.
 *  4. Memory: host operands are copied in whole (the byte span their strides reach, as
 *     kernel.c does, so any strides work and gaps of an out= view are preserved); device
 *     operands are used in place; outputs are allocated C-contiguous on the device (device
 *     results, or temporaries for host results, copied back after the kernel).
 *  5. The outer iteration space is broadcast (stride 0 where an operand has size 1) and
 *     collapsed (size-1 dimensions dropped, neighbours merged when every operand allows it);
 *     the kernel takes two dimensions (n, inner); more are run as one launch per leading
 *     index.  Gufuncs stage arguments whose cores are C-contiguous rows, packed, through
 *     shared memory in tiles of T rows (gpu_loops.c); the variant (NUMJIT_GU_VARIANT, read
 *     per call: async32 by default from sm_80 on, see gu_plans and docs/cuda.md) gives T, the
 *     block size, the copy method and the buffers; T is halved until the tiles fit a block's
 *     opt-in shared memory (NUMJIT_GU_STAGE=0 turns staging off, for measurements).
 *  6. Launch shape: the occupancy API's block size (cached per kernel; a staged gufunc: the
 *     variant's), and enough blocks to fill every SM at that occupancy, no more (the kernels
 *     are grid-stride loops; above the shared memory opted into so far the occupancy is
 *     estimated from shared memory, threads and registers).
 * Kernels are cached per (signature, loop dtypes, device) in the ufunc's state; a miss types
 * the core for TARGET_NVPTX, generates PTX (cg_emit_gpu_loop_ptx) for the device's arch under
 * the driver's PTX cap, and loads it.  Ahead of time, rt_gpu_ufunc_ptx gives the same PTX.
 * Steps 5 and 6 are gpu_ufunc_launch.c (rt_gu_run); gpu_ufunc_internal.h is private to the two.
 */
#include "gpu_ufunc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rt_gpu_ufunc_free(void *gpu) {
    GState *g = gpu;
    if (!g)
        return;
    for (int i = 0; i < g->kernels.n; i++) {
        GKernel *k = g->kernels.items[i];
        cu_module_free(k->cm);
        nj_free(k);
    }
    pv_free(&g->kernels);
    nj_free(g);
}

NjStatus rt_gu_cu_failed(NjContext *ctx, NjStatus st, const char *name) {
    const char *m = cu_error();
    rt_set_errorf(ctx, "error: %s(): %s", name, m && *m ? m : nj_status_name(st));
    return st;
}

static bool verify_ir(void) {
    const char *e = getenv("NUMJIT_VERIFY");
    return e && *e && *e != '0';
}

/* ---- PTX of one (signature, dtypes) ---------------------------------------------------------- */
/* Types the core for params (ufunc: scalars, ret the declared return or NULL to infer;
 * gufunc: the signature's types) and generates the kernel.  dtypes: the loop's dtypes (a
 * ufunc's output NJ_DTYPE_COUNT: the core's return type).  *out nj_malloc'ed. */
static NjStatus gen_ptx(const RtUfDesc *u, const Type **params, const Type *ret,
                        const NjDType *dtypes, const char *arch, int max_ptx, char **out) {
    NjContext *ctx = u->module->ctx;
    int na = u->nin + u->nout, np = u->gufunc ? na : u->nin;
    *out = NULL;
    DiagList d;
    diag_init(&d);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    const Type *tp[RT_UF_MAXARGS];
    for (int k = 0; k < np; k++)
        tp[k] = params[k]->kind == TY_ARRAY ? ty_array(params[k]->dtype, params[k]->ndim, LAYOUT_A)
                                            : params[k];
    TyRequest req = {.module = u->module->info, .func = u->fi->name, .args = tp, .nargs = np,
                     .target = TARGET_NVPTX, .kind = u->gufunc ? IRF_GUFUNC : IRF_SCALAR,
                     .ret = ret};
    IrProgram *p = ty_specialize(a, &req, &d);
    if (p && !ir_run_passes(p, verify_ir(), &d))
        p = NULL;
    NjStatus st = NJ_OK;
    if (!p) {
        if (d.nerrors)
            rt_set_diags(ctx, &d);
        else
            rt_set_errorf(ctx, "error: %s(): typing failed", u->name);
        st = arena_failed(a) ? NJ_ERR_NOMEM : NJ_ERR_TYPE;
    } else {
        const Type *adt[RT_UF_MAXARGS];
        int cidx[GU_MAXCORE], nc = 0;
        for (int k = 0; k < na; k++) {
            adt[k] = dtypes[k] < NJ_DTYPE_COUNT ? rt_type_of_dtype(dtypes[k]) : p->funcs[0]->ret;
            if (!u->gufunc)
                continue;
            const Type *pt = p->funcs[0]->params[k];
            for (int j = 0; pt->kind == TY_ARRAY && j < pt->ndim; j++)
                cidx[nc++] = u->core_n[k] ? u->core_idx[k][j] : -1;
        }
        CgOptions opt = {.opt_level = 3, .fastmath = u->fi->fastmath};
        char *err = NULL;
        char *ptx = cg_emit_gpu_loop_ptx(p, adt, na, u->nout, u->gufunc ? cidx : NULL, u->ncore,
                                         arch, max_ptx, &opt, &err);
        if (!ptx) {
            rt_set_errorf(ctx, "%s: error: PTX generation for the GPU %s %s (%s) failed: %s",
                          u->module->src.name, u->gufunc ? "gufunc" : "ufunc", u->name, arch,
                          err ? err : "?");
            st = NJ_ERR_COMPILE;
        } else {
            st = rt_give_string(ptx, out);
            free(ptx);
        }
        free(err);
    }
    diag_free(&d);
    arena_free(a);
    return st;
}

/* The kernel for (sig, dtypes) on device `ordinal`, compiled and loaded on a miss. */
static NjStatus get_kernel(NjUfunc *uf, const RtUfDesc *u, int sig, const NjDType *dtypes,
                           int ordinal, CuDevice *dev, GKernel **out) {
    NjContext *ctx = u->module->ctx;
    int na = u->nin + u->nout;
    NjStatus st = NJ_OK;
    pthread_mutex_lock(u->lock);
    GState *g = *u->gpu;
    if (!g && !(g = *u->gpu = nj_calloc(1, sizeof *g))) {
        pthread_mutex_unlock(u->lock);
        return NJ_ERR_NOMEM;
    }
    for (int i = 0; i < g->kernels.n; i++) {
        GKernel *k = g->kernels.items[i];
        if (k->sig == sig && k->device == ordinal &&
            !memcmp(k->dtypes, dtypes, sizeof *dtypes * (size_t)na)) {
            pthread_mutex_unlock(u->lock);
            *out = k;
            return NJ_OK;
        }
    }
    const Type *params[RT_UF_MAXARGS];
    for (int k = 0; k < (u->gufunc ? na : u->nin); k++)
        params[k] = rt_ufunc_sig_type(uf, sig, k);
    const Type *ret = u->gufunc ? NULL : rt_ufunc_sig_type(uf, sig, u->nin);
    RtGpuTarget t;
    rt_gpu_target(dev, &t);
    /* the on-disk cubin cache, as for kernels (cache=True or NUMJIT_CACHE): the key holds the
     * core's source and callees, its parameter types (the signature's), the result type and
     * every argument's dtype as the generated loop reads or writes it */
    RtCubinEntry want = {.dev_arch = t.dev_arch, .entry = u->fi->name, .nparams = na};
    StrBuf extra;
    sb_init(&extra);
    sb_printf(&extra, "%s ret %s dtypes", u->gufunc ? "gufunc" : "ufunc", ret ? ret->name : "-");
    for (int j = 0; j < na; j++) {
        want.params[j] = rt_type_of_dtype(dtypes[j]);
        sb_printf(&extra, " %s", nj_dtype_name(dtypes[j]));
    }
    RtCacheKey key;
    bool cached = rt_cache_wanted(u->fi) &&
                  rt_cubin_key(&key, u->module, u->fi, u->gufunc ? "gufunc" : "ufunc", params,
                               u->gufunc ? na : u->nin, &t, extra.data);
    sb_free(&extra);
    char *ptx = NULL;
    GKernel *k = nj_calloc(1, sizeof *k);
    if (!k)
        st = NJ_ERR_NOMEM;
    if (!st && (!cached || !rt_cubin_load(&key, dev, &want, NULL, &k->cm))) {
        st = gen_ptx(u, params, ret, dtypes, t.gen_arch, t.max_ptx, &ptx);
        if (!st && (st = rt_cubin_build(dev, ptx, cached ? &key : NULL, &want, &k->cm)))
            rt_gu_cu_failed(ctx, st, u->name);
    }
    if (cached)
        rt_cache_key_free(&key);
    if (!st && (st = cu_module_kernel(k->cm, u->fi->name, &k->ck)))
        rt_gu_cu_failed(ctx, st, u->name);
    int mg = 0;
    if (!st && (st = cu_occupancy_block_size(k->ck, 0, &mg, &k->block)))
        rt_gu_cu_failed(ctx, st, u->name);
    if (!st && (st = cu_occupancy_blocks_per_sm(k->ck, k->block, 0, &k->blocks_per_sm)))
        rt_gu_cu_failed(ctx, st, u->name);
    nj_free(ptx);
    if (!st) {
        k->sig = sig;
        k->device = ordinal;
        memcpy(k->dtypes, dtypes, sizeof *dtypes * (size_t)na);
        const Type *adt[RT_UF_MAXARGS];
        for (int j = 0; j < na; j++)
            adt[j] = rt_type_of_dtype(dtypes[j]);
        k->group = cg_gpu_loop_group(adt, na);
        int before = g->kernels.n;
        pv_push(&g->kernels, k);
        if (g->kernels.n == before)
            st = NJ_ERR_NOMEM;
    }
    if (st && k) {
        if (k->cm)
            cu_module_free(k->cm);
        nj_free(k);
        k = NULL;
    }
    pthread_mutex_unlock(u->lock);
    *out = k;
    return st;
}

/* ---- resolution ------------------------------------------------------------------------------ */
static const Type *sig_dtype(const Type *t) { return t && t->kind == TY_ARRAY ? t->dtype : t; }

/* The signature for these inputs (see the file comment); -1 with the error set. */
static int pick_sig(NjUfunc *uf, const RtUfDesc *u, const NjValue *ins) {
    int nin = u->nin;
    bool any_array = false;
    for (int k = 0; k < nin; k++)
        any_array |= ins[k].kind != NJ_KIND_SCALAR;
    int safe = -1;
    for (int i = 0; i < u->nsigs; i++) {
        bool exact = true, ok = true;
        for (int k = 0; k < nin && ok; k++) {
            const Type *want = sig_dtype(rt_ufunc_sig_type(uf, i, k));
            bool scalar = ins[k].kind == NJ_KIND_SCALAR;
            const Type *have = rt_type_of_dtype(scalar ? ins[k].dtype : ins[k].v.a->dtype);
            if (scalar && any_array)
                continue;
            if (have != want) {
                exact = false;
                ok = ty_can_cast_safe(have, want);
            }
        }
        if (exact && ok)
            return i;
        if (ok && safe < 0)
            safe = i;
    }
    NjContext *ctx = u->module->ctx;
    StrBuf sb;
    sb_init(&sb);
    if (safe >= 0) {
        for (int k = 0; k < nin; k++)
            if (ins[k].kind == NJ_KIND_DEVICE_ARRAY &&
                rt_type_of_dtype(ins[k].v.a->dtype) != sig_dtype(rt_ufunc_sig_type(uf, safe, k))) {
                sb_printf(&sb, "error: %s(): no matching version: a GPU ufunc requires device "
                          "array arguments to have the exact types (casting='no'); input %d is "
                          "%s but the signature '%s' takes %s", u->name, k,
                          nj_dtype_name(ins[k].v.a->dtype), rt_ufunc_sig_text(uf, safe),
                          sig_dtype(rt_ufunc_sig_type(uf, safe, k))->name);
                rt_set_error(ctx, sb.data ? sb.data : "error");
                sb_free(&sb);
                return -1;
            }
        sb_free(&sb);
        return safe;
    }
    sb_printf(&sb, "error: %s(): no signature matches the input types (", u->name);
    for (int k = 0; k < nin; k++) {
        NjDType d = ins[k].kind == NJ_KIND_SCALAR ? ins[k].dtype : ins[k].v.a->dtype;
        sb_printf(&sb, "%s%s", k ? ", " : "", nj_dtype_name(d));
    }
    sb_puts(&sb, ") under 'safe' casting; declared: ");
    for (int i = 0; i < u->nsigs; i++)
        sb_printf(&sb, "%s'%s'", i ? ", " : "", rt_ufunc_sig_text(uf, i));
    rt_set_error(ctx, sb.data ? sb.data : "error");
    sb_free(&sb);
    return -1;
}

/* ---- the call -------------------------------------------------------------------------------- */

/* A scalar as a 0-d host array of dtype d. */
static void scalar_operand(Operand *o, const NjValue *v, NjDType d) {
    memset(&o->a, 0, sizeof o->a);
    o->a.dtype = d;
    o->a.ndim = 0;
    o->a.data = o->scalar;
    o->scalar[0] = o->scalar[1] = 0;
    rt_uf_store_value(o->scalar, d, v);
    o->host = true;
}

static NjStatus gpu_call(NjUfunc *uf, const NjValue *ins, int nin, NjValue *outs, int nout,
                         CuStream stream, bool shape_only) {
    RtUfDesc ud;
    rt_ufunc_describe(uf, &ud);
    const RtUfDesc *u = &ud;
    NjContext *ctx = u->module->ctx;
    int na = u->nin + u->nout;
    if (nin != u->nin || nout != u->nout || !ins || !outs) {
        rt_set_errorf(ctx, "error: %s() takes %d input%s and %d output%s, got %d and %d", u->name,
                      u->nin, u->nin == 1 ? "" : "s", u->nout, u->nout == 1 ? "" : "s", nin, nout);
        return NJ_ERR_ARGS;
    }
    for (int k = 0; k < na; k++) {
        const NjValue *v = k < nin ? &ins[k] : &outs[k - nin];
        bool arr = v->kind == NJ_KIND_ARRAY || v->kind == NJ_KIND_DEVICE_ARRAY;
        bool ok = arr ? v->v.a && (unsigned)v->v.a->dtype < NJ_DTYPE_COUNT &&
                            v->v.a->ndim >= 0 && v->v.a->ndim <= NJ_MAX_NDIM &&
                            (v->v.a->data || k >= nin)
                      : k < nin && v->kind == NJ_KIND_SCALAR && (unsigned)v->dtype < NJ_DTYPE_COUNT;
        if (!ok) {
            rt_set_errorf(ctx, "error: %s(): %s %d is not %s", u->name, k < nin ? "input" : "output",
                          k < nin ? k : k - nin, k < nin ? "a number or a valid array"
                                                         : "an array (data NULL to allocate)");
            return NJ_ERR_ARGS;
        }
    }
    int sig = pick_sig(uf, u, ins);
    if (sig < 0)
        return NJ_ERR_TYPE;
    Operand ops[RT_UF_MAXARGS];
    memset(ops, 0, sizeof ops);
    NjDType dtypes[RT_UF_MAXARGS];
    bool device_mode = false;
    NjStatus st = NJ_OK;
    for (int k = 0; k < na; k++) {
        const NjValue *v = k < nin ? &ins[k] : &outs[k - nin];
        const Type *want = sig_dtype(rt_ufunc_sig_type(uf, sig, k));
        NjDType wd;
        rt_dtype_of_type(want, &wd);
        Operand *o = &ops[k];
        if (v->kind == NJ_KIND_SCALAR) {
            scalar_operand(o, v, wd);
            dtypes[k] = wd;
            continue;
        }
        o->a = *v->v.a;
        o->host = v->kind == NJ_KIND_ARRAY;
        device_mode |= !o->host;
        if (k >= nin) {
            o->user = v->v.a;
            o->alloc = !v->v.a->data;
            if (o->alloc)
                o->a.dtype = wd;
        }
        dtypes[k] = o->a.dtype;
        if (u->gufunc && o->a.dtype != wd) {
            if (k >= nin || !o->host) {
                rt_set_errorf(ctx, "error: %s(): %s %d has dtype %s but the signature '%s' "
                              "takes %s", u->name, k < nin ? "input" : "output",
                              k < nin ? k : k - nin, nj_dtype_name(o->a.dtype),
                              rt_ufunc_sig_text(uf, sig), want->name);
                st = NJ_ERR_TYPE;
                goto done;
            }
            if (!shape_only) {
                if ((st = rt_uf_cast_copy(&o->a, wd, &o->cast))) {
                    rt_set_error(ctx, "error: out of memory converting an input");
                    goto done;
                }
                o->has_cast = true;
                o->a = o->cast;
            }
            o->a.dtype = wd;
            dtypes[k] = wd;
        } else if (!u->gufunc && !o->host && k < nin) {
            dtypes[k] = wd; /* exact, by pick_sig */
        }
    }
    /* shapes: the CPU executor's checks */
    {
        RtLoop L;
        memset(&L, 0, sizeof L);
        L.nin = u->nin;
        L.nout = u->nout;
        memcpy(L.dtypes, dtypes, sizeof *dtypes * (size_t)na);
        L.gufunc = u->gufunc;
        L.ncore = u->ncore;
        for (int k = 0; k < na; k++) {
            L.core_n[k] = u->gufunc ? u->core_n[k] : 0;
            memcpy(L.core_idx[k], u->core_idx[k], sizeof L.core_idx[k]);
            const Type *t = rt_ufunc_sig_type(uf, sig, k);
            L.param_nd[k] = (int8_t)(t && t->kind == TY_ARRAY ? t->ndim : 0);
        }
        L.core_names = u->core_names;
        NjArray ia[RT_UF_MAXARGS], oa[RT_UF_MAXARGS];
        for (int k = 0; k < nin; k++)
            ia[k] = ops[k].a;
        for (int k = 0; k < u->nout; k++) {
            oa[k] = ops[nin + k].a;
            if (ops[nin + k].alloc)
                oa[k].data = NULL;
        }
        if ((st = rt_uf_exec(ctx, u->name, &L, ia, oa, false, true)))
            goto done;
        for (int k = 0; k < u->nout; k++)
            if (ops[nin + k].alloc) {
                ops[nin + k].a = oa[k];
                if (shape_only)
                    *ops[nin + k].user = oa[k];
            }
        if (shape_only)
            goto done;
    }
    /* the device and the kernel */
    int ordinal = nj_cuda_get_device();
    CuDevice *dev;
    if ((st = cu_device_get(ordinal, &dev))) {
        rt_gu_cu_failed(ctx, st, u->name);
        goto done;
    }
    GKernel *gk;
    if ((st = get_kernel(uf, u, sig, dtypes, ordinal, dev, &gk)))
        goto done;
    Launch L = {.u = u, .k = gk, .dev = dev, .s = stream, .na = na};
    if (u->gufunc) {
        for (int c = 0; c < u->ncore; c++)
            L.core_size[c] = 1;
        for (int k = 0; k < na; k++)
            for (int j = 0; j < u->core_n[k]; j++)
                L.core_size[u->core_idx[k][j]] = ops[k].a.shape[ops[k].a.ndim - u->core_n[k] + j];
    }
    /* memory */
    for (int k = 0; k < na && !st; k++) {
        Operand *o = &ops[k];
        NjValue *ov = k >= nin ? &outs[k - nin] : NULL;
        if (o->alloc) {
            int64_t bytes = nj_dtype_size(o->a.dtype);
            for (int d = 0; d < o->a.ndim; d++)
                bytes *= o->a.shape[d];
            o->nbytes = (size_t)bytes;
            bool on_dev = ov->kind == NJ_KIND_DEVICE_ARRAY || (device_mode && ov->kind != NJ_KIND_ARRAY);
            o->host = !on_dev;
            if ((st = cu_mem_alloc(dev, o->nbytes, &o->dev))) {
                rt_gu_cu_failed(ctx, st, u->name);
                break;
            }
            if (o->host) {
                o->hspan = aligned_alloc(64, (o->nbytes + 63) / 64 * 64 + 64);
                if (!o->hspan) {
                    rt_set_error(ctx, "error: out of memory allocating an output");
                    st = NJ_ERR_NOMEM;
                    break;
                }
            }
            o->a.data = (void *)(uintptr_t)o->dev;
            continue;
        }
        if (!o->host)
            continue;
        int64_t lo, hi;
        if (!rt_array_span(&o->a, &lo, &hi))
            continue;
        o->hspan = (char *)o->a.data + lo;
        o->nbytes = (size_t)(hi - lo);
        if ((st = cu_mem_alloc(dev, o->nbytes, &o->dev)) ||
            (st = cu_memcpy_htod(dev, o->dev, o->hspan, o->nbytes, stream))) {
            rt_gu_cu_failed(ctx, st, u->name);
            break;
        }
        o->a.data = (void *)(uintptr_t)(o->dev - (uint64_t)lo);
    }
    if (!st)
        st = rt_gu_run(&L, ops);
    /* results back */
    bool any_host = false;
    for (int k = 0; k < na; k++)
        any_host |= ops[k].host && ops[k].dev;
    for (int k = nin; k < na && !st; k++) {
        Operand *o = &ops[k];
        if (!o->host || !o->dev)
            continue;
        if ((st = cu_memcpy_dtoh(dev, o->hspan, o->dev, o->nbytes, stream)))
            rt_gu_cu_failed(ctx, st, u->name);
    }
    if (!st && any_host && (st = stream ? cu_stream_sync(dev, stream) : cu_device_synchronize(dev)))
        rt_gu_cu_failed(ctx, st, u->name);
    for (int k = nin; k < na && !st; k++) {
        Operand *o = &ops[k];
        if (!o->alloc)
            continue;
        NjArray *r = o->user;
        *r = o->a;
        if (o->host) {
            r->data = o->hspan;
            o->hspan = NULL;
        } else {
            o->dev = 0; /* the caller's now */
        }
    }
    for (int k = 0; k < na; k++) {
        Operand *o = &ops[k];
        if (o->dev)
            cu_mem_free(dev, o->dev);
        if (o->alloc && o->host)
            free(o->hspan);
    }
done:
    for (int k = 0; k < na; k++)
        if (ops[k].has_cast)
            nj_array_free(&ops[k].cast);
    return st;
}

NjStatus nj_ufunc_call_values(NjUfunc *u, const NjValue *ins, int nin, NjValue *outs, int nout,
                              void *stream) {
    RtUfDesc d;
    rt_ufunc_describe(u, &d);
    if (d.target == NJ_TARGET_CUDA)
        return gpu_call(u, ins, nin, outs, nout, (CuStream)stream, false);
    /* CPU targets: host arrays and scalars (0-d arrays) */
    NjArray ia[RT_UF_MAXARGS], oa[RT_UF_MAXARGS];
    uint64_t slots[RT_UF_MAXARGS][2]; /* a complex128 takes two words */
    if (nin < 0 || nin > RT_UF_MAXARGS || nout < 0 || nout > RT_UF_MAXARGS || (nin && !ins) ||
        (nout && !outs)) {
        rt_set_errorf(d.module->ctx, "error: %s(): bad argument counts", d.name);
        return NJ_ERR_ARGS;
    }
    for (int k = 0; k < nin; k++) {
        if (ins[k].kind == NJ_KIND_SCALAR) {
            memset(&ia[k], 0, sizeof ia[k]);
            ia[k].dtype = ins[k].dtype;
            ia[k].data = slots[k];
            rt_uf_store_value(slots[k], ins[k].dtype, &ins[k]);
        } else if (ins[k].kind == NJ_KIND_ARRAY && ins[k].v.a) {
            ia[k] = *ins[k].v.a;
        } else {
            rt_set_errorf(d.module->ctx, "error: %s(): input %d must be a host array or a number "
                          "(device arrays need target='cuda')", d.name, k);
            return NJ_ERR_ARGS;
        }
    }
    for (int k = 0; k < nout; k++) {
        if (outs[k].kind != NJ_KIND_ARRAY || !outs[k].v.a) {
            rt_set_errorf(d.module->ctx, "error: %s(): output %d must be a host array", d.name, k);
            return NJ_ERR_ARGS;
        }
        oa[k] = *outs[k].v.a;
    }
    NjStatus st = nj_ufunc_call(u, ia, nin, oa, nout);
    for (int k = 0; !st && k < nout; k++)
        *outs[k].v.a = oa[k];
    return st;
}

static NjStatus arrays_call(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs, int nout,
                            bool shape_only) {
    NjValue iv[RT_UF_MAXARGS], ov[RT_UF_MAXARGS];
    for (int k = 0; k < nin && k < RT_UF_MAXARGS; k++)
        iv[k] = nj_arr((NjArray *)&ins[k]);
    for (int k = 0; k < nout && k < RT_UF_MAXARGS; k++)
        ov[k] = nj_arr(&outs[k]);
    return gpu_call(u, iv, nin, ov, nout, NULL, shape_only);
}

NjStatus rt_gpu_ufunc_call_arrays(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs,
                                  int nout) {
    return arrays_call(u, ins, nin, outs, nout, false);
}

NjStatus rt_gpu_ufunc_resolve(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs, int nout) {
    return arrays_call(u, ins, nin, outs, nout, true);
}

/* ---- ahead of time ---------------------------------------------------------------------------- */
NjStatus rt_gpu_ufunc_ptx(NjModule *m, const FuncInfo *fi, const char *sig, const char *arch,
                          char **out) {
    NjContext *ctx = m->ctx;
    *out = NULL;
    NjUfunc *uf;
    NjStatus st = nj_module_ufunc(m, fi->name, &uf);
    if (st)
        return st;
    RtUfDesc u;
    rt_ufunc_describe(uf, &u);
    const Type *ret, *types[RT_UF_MAXARGS];
    const char *err;
    int n = ty_parse_sig(sig, &ret, types, RT_UF_MAXARGS, &err);
    int want = u.gufunc ? u.nin + u.nout : u.nin;
    if (n < 0) {
        rt_set_errorf(ctx, "error: bad signature '%s%s': %s", fi->name, sig, err);
        return NJ_ERR_ARGS;
    }
    if (n != want) {
        rt_set_errorf(ctx, "error: %s: the %s signature '%s' has %d argument%s but %d are "
                      "expected%s", fi->name, u.gufunc ? "gufunc" : "ufunc", sig, n,
                      n == 1 ? "" : "s", want,
                      u.gufunc ? " (inputs and outputs, as the layout says)" : "");
        return NJ_ERR_ARGS;
    }
    NjDType dtypes[RT_UF_MAXARGS];
    for (int k = 0; k < n; k++) {
        const Type *t = types[k];
        int nd = t->kind == TY_ARRAY ? t->ndim : 0;
        if (!u.gufunc && nd) {
            rt_set_errorf(ctx, "error: %s is a @vectorize function: give its scalar signature, "
                          "e.g. '%s(float32, float32)'", fi->name, fi->name);
            return NJ_ERR_ARGS;
        }
        if (u.gufunc) {
            int cn = u.core_n[k];
            if (!(nd == cn || (cn == 0 && nd == 1) || (cn == 0 && nd == 0 && k < u.nin))) {
                rt_set_errorf(ctx, "error: %s: argument %d of '%s' is %s but the layout gives it "
                              "%d core dimension%s", fi->name, k + 1, sig, t->name, cn,
                              cn == 1 ? "" : "s");
                return NJ_ERR_ARGS;
            }
        }
        if (rt_dtype_of_type(sig_dtype(t), &dtypes[k])) {
            rt_set_errorf(ctx, "error: %s: unsupported type %s", fi->name, t->name);
            return NJ_ERR_TYPE;
        }
    }
    if (!u.gufunc)
        dtypes[u.nin] = ret && ret != ty_void && !rt_dtype_of_type(ret, &dtypes[u.nin])
                            ? dtypes[u.nin] : NJ_DTYPE_COUNT;
    return gen_ptx(&u, types, u.gufunc ? NULL : (ret == ty_void ? NULL : ret), dtypes, arch, 0, out);
}

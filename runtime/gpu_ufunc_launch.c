/* gpu_ufunc_launch.c — the launches of one target='cuda' ufunc or gufunc call, once
 * gpu_ufunc.c has its kernel and its operands on the device: the outer iteration space
 * broadcast (stride 0 where an operand has size 1) and collapsed, the kernel given two
 * dimensions (n, inner) and one launch per leading index beyond them; the gufunc staging
 * variant (NUMJIT_GU_VARIANT: rows staged through shared memory in tiles of T rows, the copy
 * method and the buffers, T halved until the tiles fit a block's opt-in shared memory); and
 * the launch shape: the occupancy API's block size and enough blocks to fill every SM at that
 * occupancy, no more.
 */
#include "gpu_ufunc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pitch of a staged core row (gpu_loops.c computes the same). */
static int64_t stage_pitch(int64_t bytes, int size) {
    int64_t unit = size > 4 ? size : 4;
    int64_t words = ((bytes + unit - 1) / unit) | 1;
    return words * unit;
}

/* One buffer of T-row tiles of the staged arguments, each rounded up to 16 bytes (gpu_loops.c
 * lays them out the same way). */
static int64_t tile_bytes(int64_t T, const int64_t *pitch, uint32_t bits) {
    int64_t b = 0;
    for (int k = 0; k < 16; k++)
        if (bits >> k & 1)
            b += (T * pitch[k] + 15) / 16 * 16;
    return b;
}

/* ---- gufunc staging variants (NUMJIT_GU_VARIANT) ----------------------------------------------
 * How a gufunc stages rows (the `staged` word of codegen.h): tile rows T, threads per block,
 * copy flags, buffers.  NUMJIT_GU_TILE and NUMJIT_GU_BLOCK override T and the block size of
 * the tiled variants (measurements); NUMJIT_GU_STAGE=0 is "direct". */
#define GU_STAGE_ARGS 16
#define GU_STAGE_TSHIFT 16
#define GU_STAGE_VEC (1u << 28)
#define GU_STAGE_ASYNC (1u << 29)

typedef enum GuMode { GU_DIRECT, GU_ROWS, GU_TILES } GuMode;

typedef struct GuPlan {
    const char *name;
    GuMode mode;
    int tile, block, nbuf;
    uint32_t flags;
} GuPlan;

static const GuPlan gu_plans[] = {
    /* each thread reads its rows in place */
    {"direct", GU_DIRECT, 0, 0, 1, 0},
    /* T = blockDim rows in 48 KiB, copied item by item (the first design) */
    {"rows", GU_ROWS, 0, 0, 1, 0},
    /* 256 threads copy T rows in 16-byte chunks through registers; T threads run the rows */
    {"vec32", GU_TILES, 32, 256, 1, GU_STAGE_VEC},
    {"vec64", GU_TILES, 64, 256, 1, GU_STAGE_VEC},
    /* cp.async into two buffers: the next tile in flight while the current one runs */
    {"async32", GU_TILES, 32, 128, 2, GU_STAGE_VEC | GU_STAGE_ASYNC},
    {"async16", GU_TILES, 16, 128, 2, GU_STAGE_VEC | GU_STAGE_ASYNC},
    {"async64", GU_TILES, 64, 128, 2, GU_STAGE_VEC | GU_STAGE_ASYNC},
    {"async32w", GU_TILES, 32, 32, 2, GU_STAGE_VEC | GU_STAGE_ASYNC},
};

/* The plan for this call: $NUMJIT_GU_VARIANT, else the default (GU_DEFAULT from sm_80 on, where
 * cp.async exists, GU_DEFAULT_OLD before); an unknown name is the default. */
#define GU_DEFAULT "async32"
#define GU_DEFAULT_OLD "vec32"

static const GuPlan *gu_plan_named(const char *name) {
    size_t len = name ? strlen(name) : 0;
    for (size_t i = 0; name && i < sizeof gu_plans / sizeof *gu_plans; i++)
        if (strlen(gu_plans[i].name) == len && !memcmp(name, gu_plans[i].name, len))
            return &gu_plans[i];
    return NULL;
}

/* Returns whether the environment chose the plan (else the default may still be refined by
 * gu_refine once the rows are known). */
static bool gu_variant(const CuDeviceInfo *di, GuPlan *out) {
    const char *v = getenv("NUMJIT_GU_VARIANT"), *st = getenv("NUMJIT_GU_STAGE");
    bool async_ok = di->cc_major >= 8;
    const GuPlan *p = st && *st == '0' ? gu_plan_named("direct") : gu_plan_named(v);
    bool chosen = p != NULL;
    *out = *(p ? p : gu_plan_named(async_ok ? GU_DEFAULT : GU_DEFAULT_OLD));
    const char *t = getenv("NUMJIT_GU_TILE"), *b = getenv("NUMJIT_GU_BLOCK");
    if (out->mode == GU_TILES && t && atoi(t) >= 1 && atoi(t) <= 4095)
        out->tile = atoi(t);
    if (out->mode == GU_TILES && b && atoi(b) >= 32 && atoi(b) <= 1024)
        out->block = atoi(b) / 32 * 32;
    if (!async_ok && (out->flags & GU_STAGE_ASYNC)) {
        out->flags &= ~GU_STAGE_ASYNC;
        out->nbuf = 1;
    }
    return chosen;
}

/* The default plan for small rows: when the staged rows of a call take at most 320 bytes
 * of shared memory (4x4 float32 matrices, 16-element float64 rows), one warp per block copies and runs
 * the tiles with less waiting (H100, bench/results/gpu_gufunc_variants.txt: matmul4 f32 0.42
 * against 0.69 ms, rowdot f64 k=16 0.40 against 0.42 ms); longer rows keep the default
 * (rowdot f64 k=64: 0.38 against 0.40 ms). */
static void gu_refine(const CuDeviceInfo *di, int64_t row_bytes, GuPlan *plan) {
    if (di->cc_major >= 8 && plan->mode == GU_TILES && row_bytes > 0 && row_bytes <= 320)
        *plan = *gu_plan_named("async32w");
}

/* Blocks per launch, in units of what fills every SM once.  A ufunc kernel gets a block per
 * block-sized piece of work, which keeps the most loads in flight: on an H100, W1 f32 at 98%
 * of copy bandwidth against 92% with one wave of grid-stride blocks, and W2 f64 (libdevice
 * sincos, local memory for its rare slow path) 0.369 ms against 0.388 with 8 waves and 0.421
 * with one (2026-11-25, one process each; an earlier build had measured one wave faster for
 * W2, 0.399 against 0.497 ms, before sin and cos of one value shared a sincos).  Gufuncs,
 * whose blocks stage rows through shared memory, get one wave.  $NUMJIT_GPU_WAVES overrides
 * (0: unlimited), for measurements. */
static int64_t gpu_waves(const RtUfDesc *u, const CuKernel *ck) {
    const char *w = getenv("NUMJIT_GPU_WAVES");
    if (w && *w)
        return atoi(w) > 0 ? atoi(w) : INT32_MAX;
    (void)ck;
    return u->gufunc ? 1 : INT32_MAX;
}

/* Runs one launch over the (collapsed) outer space: n, inner, per operand base and strides. */
static NjStatus launch_one(const Launch *L, Operand *ops, int64_t n, int64_t inner,
                           const uint64_t *base, const int64_t *is, const int64_t *os) {
    const RtUfDesc *u = L->u;
    NjContext *ctx = u->module->ctx;
    int na = L->na;
    void *params[4 + GU_MAXCORE + RT_UF_MAXARGS * (3 + NJ_MAX_NDIM)];
    int64_t cst[RT_UF_MAXARGS][NJ_MAX_NDIM];
    uint64_t dat[RT_UF_MAXARGS];
    int64_t isv[RT_UF_MAXARGS], osv[RT_UF_MAXARGS];
    uint32_t staged = 0;
    int np = 0;
    params[np++] = &n;
    params[np++] = &inner;
    unsigned shared = 0;
    int block = L->k->block;
    const CuDeviceInfo *di = cu_device_info(L->dev);
    int64_t work = n;
    if (u->gufunc) {
        /* staging: one row, C-contiguous cores, rows packed; the variant sizes the tiles */
        GuPlan plan;
        bool chosen = gu_variant(di, &plan);
        bool want = plan.mode != GU_DIRECT && inner >= n && n > 1;
        int64_t pitch_in = 0, pitch_all = 0, pitch_of[GU_STAGE_ARGS] = {0};
        uint32_t bits_in = 0, bits_all = 0;
        for (int k = 0; want && k < na && k < GU_STAGE_ARGS; k++) {
            int cn = u->core_n[k];
            if (!cn)
                continue;
            const NjArray *a = &ops[k].a;
            int64_t sz = nj_dtype_size(a->dtype), expect = sz, elems = 1;
            bool ok = true;
            for (int j = cn - 1; j >= 0; j--) {
                int64_t sh = a->shape[a->ndim - cn + j];
                if (sh != 1 && a->strides[a->ndim - cn + j] != expect)
                    ok = false;
                expect *= sh;
                elems *= sh;
            }
            if (!ok || is[k] != elems * sz || elems * sz < 32)
                continue;
            int64_t p = stage_pitch(elems * sz, (int)sz);
            pitch_of[k] = p;
            pitch_all += p;
            bits_all |= 1u << k;
            if (k < u->nin) {
                pitch_in += p;
                bits_in |= 1u << k;
            }
        }
        int64_t tile = 0;
        if (!chosen)
            gu_refine(di, pitch_all, &plan);
        if (bits_all && plan.mode == GU_ROWS) {
            /* rows = threads, item-sized copies, 48 KiB */
            int64_t pitch = pitch_all;
            staged = bits_all;
            if (pitch * 32 > GU_STAGE_BYTES) {
                pitch = pitch_in;
                staged = bits_in;
            }
            if (staged && pitch * 32 > GU_STAGE_BYTES)
                staged = 0;
            if (staged) {
                block = 256;
                while (block > 32 && pitch * block > GU_STAGE_BYTES)
                    block /= 2;
                if (block > L->k->ck->max_threads)
                    block = L->k->ck->max_threads / 32 * 32;
                shared = (unsigned)(pitch * block);
                tile = block;
            }
        } else if (bits_all) {
            /* T rows per tile (at least 8, halved until the buffers fit one block's opt-in
             * shared memory), every staged argument, else the inputs only */
            int64_t limit = di->max_shared_per_block_optin > 0 ? di->max_shared_per_block_optin
                                                               : di->max_shared_per_block;
            limit -= L->k->ck->static_shared;
            int64_t bytes = 0;
            staged = bits_all;
            for (int pass = 0; pass < 2 && staged; pass++) {
                tile = plan.tile;
                while (tile > 8 && plan.nbuf * tile_bytes(tile, pitch_of, staged) > limit)
                    tile /= 2;
                bytes = plan.nbuf * tile_bytes(tile, pitch_of, staged);
                if (bytes <= limit)
                    break;
                staged = pass == 0 ? bits_in : 0;
            }
            if (staged) {
                block = plan.block;
                if (block > L->k->ck->max_threads)
                    block = L->k->ck->max_threads / 32 * 32;
                shared = (unsigned)bytes;
                staged |= (uint32_t)tile << GU_STAGE_TSHIFT | plan.flags;
            }
        }
        if (staged)
            work = (n + tile - 1) / tile * block; /* a block per tile */
        params[np++] = &staged;
        for (int c = 0; c < u->ncore; c++)
            params[np++] = (void *)&L->core_size[c];
    } else {
        int64_t g = L->k->group;
        bool vec = inner >= n;
        for (int k = 0; vec && k < na; k++)
            vec = is[k] == nj_dtype_size(ops[k].a.dtype) || (k < u->nin && is[k] == 0);
        if (vec)
            work = (n + g - 1) / g;
    }
    for (int k = 0; k < na; k++) {
        dat[k] = base[k];
        isv[k] = is[k];
        osv[k] = os[k];
        params[np++] = &dat[k];
        params[np++] = &isv[k];
        params[np++] = &osv[k];
        if (!u->gufunc)
            continue;
        int cn = u->core_n[k];
        const NjArray *a = &ops[k].a;
        for (int j = 0; j < cn; j++) {
            cst[k][j] = a->shape[a->ndim - cn + j] == 1 ? 0 : a->strides[a->ndim - cn + j];
            params[np++] = &cst[k][j];
        }
    }
    int per_sm = L->k->blocks_per_sm;
    if (shared) {
        per_sm = 0;
        if ((int)shared <= L->k->ck->max_dynamic_shared) {
            NjStatus st = cu_occupancy_blocks_per_sm(L->k->ck, block, shared, &per_sm);
            if (st)
                return rt_gu_cu_failed(ctx, st, u->name);
        }
        if (per_sm <= 0) { /* above the shared memory opted into so far: estimated (an SM
                            * holds the opt-in maximum + 1 KiB, 1 KiB reserved per block) */
            int64_t sm = (int64_t)di->max_shared_per_block_optin + 1024;
            int64_t by_regs = L->k->ck->num_regs > 0 ? 65536 / ((int64_t)L->k->ck->num_regs * block) : 64;
            int64_t est = sm / ((int64_t)shared + 1024);
            if (est > di->max_threads_per_sm / block)
                est = di->max_threads_per_sm / block;
            if (est > by_regs)
                est = by_regs;
            per_sm = est > 0 ? (int)est : 1;
        }
    }
    const char *bo = u->gufunc ? NULL : getenv("NUMJIT_GPU_BLOCK"); /* measurements */
    if (bo && atoi(bo) >= 32 && atoi(bo) <= L->k->ck->max_threads) {
        block = atoi(bo) / 32 * 32;
        if (cu_occupancy_blocks_per_sm(L->k->ck, block, shared, &per_sm))
            per_sm = 1;
    }
    if (block < 32)
        block = 32;
    int64_t fill = (int64_t)(per_sm > 0 ? per_sm : 1) * di->sm_count * gpu_waves(u, L->k->ck);
    int64_t need = (work + block - 1) / block;
    int64_t grid = need < fill ? need : fill;
    if (grid < 1)
        grid = 1;
    if (grid > di->max_grid_dim[0])
        grid = di->max_grid_dim[0];
    unsigned gd[3] = {(unsigned)grid, 1, 1}, bd[3] = {(unsigned)block, 1, 1};
    NjStatus st = cu_launch(L->k->ck, gd, bd, shared, L->s, params);
    return st ? rt_gu_cu_failed(ctx, st, u->name) : NJ_OK;
}

/* Broadcast strides, collapse, and the launches (one per index of the leading dimensions
 * beyond two). */
NjStatus rt_gu_run(const Launch *L, Operand *ops) {
    const RtUfDesc *u = L->u;
    int na = L->na, nin = u->nin;
    /* the outer shape: the first output's, without its core dimensions */
    const NjArray *o0 = &ops[nin].a;
    int nd = o0->ndim - (u->gufunc ? u->core_n[nin] : 0);
    int64_t shape[NJ_MAX_NDIM], str[NJ_MAX_NDIM][RT_UF_MAXARGS];
    for (int d = 0; d < nd; d++)
        shape[d] = o0->shape[d];
    for (int k = 0; k < na; k++) {
        const NjArray *a = &ops[k].a;
        int o = a->ndim - (u->gufunc ? u->core_n[k] : 0);
        for (int d = 0; d < nd; d++) {
            int j = d - (nd - o);
            str[d][k] = j < 0 || a->shape[j] == 1 ? 0 : a->strides[j];
        }
    }
    int64_t total = 1;
    for (int d = 0; d < nd; d++)
        total *= shape[d];
    if (total == 0)
        return NJ_OK;
    /* collapse */
    int m = 0;
    int64_t cs[NJ_MAX_NDIM], cstr[NJ_MAX_NDIM][RT_UF_MAXARGS];
    for (int d = 0; d < nd; d++) {
        if (shape[d] == 1)
            continue;
        if (m > 0) {
            bool merge = true;
            for (int k = 0; k < na && merge; k++)
                merge = cstr[m - 1][k] == str[d][k] * shape[d];
            if (merge) {
                cs[m - 1] *= shape[d];
                for (int k = 0; k < na; k++)
                    cstr[m - 1][k] = str[d][k];
                continue;
            }
        }
        cs[m] = shape[d];
        for (int k = 0; k < na; k++)
            cstr[m][k] = str[d][k];
        m++;
    }
    int64_t n, inner, is[RT_UF_MAXARGS], os[RT_UF_MAXARGS];
    uint64_t base[RT_UF_MAXARGS];
    for (int k = 0; k < na; k++) {
        base[k] = (uint64_t)(uintptr_t)ops[k].a.data;
        is[k] = m ? cstr[m - 1][k] : 0;
        os[k] = m > 1 ? cstr[m - 2][k] : 0;
    }
    n = m ? cs[m - 1] : 1;
    inner = n;
    if (m > 1) {
        inner = cs[m - 1];
        n = cs[m - 2] * inner;
    }
    /* leading dimensions beyond two: one launch per index */
    int lead = m > 2 ? m - 2 : 0;
    int64_t idx[NJ_MAX_NDIM] = {0};
    for (;;) {
        uint64_t b[RT_UF_MAXARGS];
        for (int k = 0; k < na; k++) {
            int64_t off = 0;
            for (int d = 0; d < lead; d++)
                off += idx[d] * cstr[d][k];
            b[k] = base[k] + (uint64_t)off;
        }
        NjStatus st = launch_one(L, ops, n, inner, b, is, os);
        if (st)
            return st;
        int d = lead - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < cs[d])
                break;
            idx[d] = 0;
        }
        if (d < 0)
            return NJ_OK;
    }
}


/* cuda.c — numba.cuda's names in kernels and device functions: the thread indices
 * (cuda.threadIdx.x ...), cuda.grid and cuda.gridsize, barriers and fences, shared, local
 * and constant arrays, the warp, vote and bit intrinsics of ir/cuda.def (typer_cuda.c) and
 * the cuda.atomic family.
 *
 * All are GPU only: on the CPU each is refused with one wording ("cuda.grid() is only
 * available in CUDA kernels and device functions").  cuda.grid(n), cuda.gridsize(n) and the
 * shapes of cuda.shared.array / cuda.local.array must be constants, as in numba-cuda, so their
 * handlers read the call's nodes rather than its values.
 */
#include "lib.h"

#include <string.h>

/* The one refusal of a GPU-only name in CPU code; true when refused. */
static bool cpu_refused(Fn *fn, const char *name, Loc loc) {
    if (fn->tc->target == TARGET_NVPTX)
        return false;
    ty_error(fn, loc, "%s() is only available in CUDA kernels and device functions", name);
    return true;
}

static IrInst *sreg(Fn *fn, int r, Loc loc) {
    IrInst *in = ty_emit(fn, IR_SREG, ty_i64, loc, 0, NULL);
    if (in)
        in->imm.index = r;
    return in;
}

/* The constant integer value of an expression (a literal, -literal, or a module constant). */
static bool const_int(Fn *fn, Node *e, int64_t *out) {
    if (e->kind == ND_INT) {
        *out = e->ival;
        return true;
    }
    if (e->kind == ND_UNARY && e->op == OP_NEG && const_int(fn, e->a, out)) {
        *out = -*out;
        return true;
    }
    if (e->kind == ND_NAME && !ty_lookup_var(fn, e->name)) {
        const ModuleInfo *m = fn->tc->m;
        for (int i = 0; i < m->nconsts; i++)
            if (!strcmp(m->consts[i].name, e->name) && m->consts[i].value != e)
                return const_int(fn, m->consts[i].value, out);
    }
    if (e->kind == ND_BINOP) {
        int64_t a, b;
        if (!const_int(fn, e->a, &a) || !const_int(fn, e->b, &b))
            return false;
        switch (e->op) {
        case OP_ADD: *out = a + b; return true;
        case OP_SUB: *out = a - b; return true;
        case OP_MUL: *out = a * b; return true;
        case OP_FLOORDIV: if (!b) return false; *out = a / b - ((a % b) && ((a < 0) != (b < 0))); return true;
        default: return false;
        }
    }
    return false;
}

static const Type *dtype_arg(Fn *fn, Node *call, Node *e) {
    if (e->kind == ND_STR) {
        const Type *t = ty_from_name(e->str);
        if (t && ty_is_scalar(t))
            return t;
    } else {
        bool emit = fn->emit;
        fn->emit = false;
        Val v = ty_expr(fn, e);
        fn->emit = emit;
        if (v.k == V_TYPE)
            return v.t;
    }
    ty_error(fn, e->loc, "expected a dtype such as float32 or numba.int64");
    return NULL;
}

static Node *kwarg(Node *call, const char *name) {
    for (int i = 0; i < call->list2.n; i++)
        if (!strcmp(call->list2.items[i]->name, name))
            return call->list2.items[i]->a;
    return NULL;
}

/* ---- values ------------------------------------------------------------------------------------ */
static Val sregs_value(Fn *fn, const LibEntry *le, Loc loc) { /* cuda.threadIdx ... */
    return (Val){.k = V_SREGS, .idx = le->idx};
}

static Val sreg32_value(Fn *fn, const LibEntry *le, Loc loc) { /* cuda.laneid, cuda.warpsize */
    return ty_cuda_sreg32(fn, le->spell + 5, loc);
}

/* ---- calls -------------------------------------------------------------------------------------- */
static Val grid_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    const char *name = le->spell;
    Loc loc = call->loc;
    if (cpu_refused(fn, name, loc))
        return verr();
    int64_t nd;
    if (call->list.n != 1 || !const_int(fn, call->list.items[0], &nd) || nd < 1 || nd > 3) {
        ty_error(fn, loc, "%s() takes a constant 1, 2 or 3", name);
        return verr();
    }
    bool grid = !le->idx;
    IrInst *v[3];
    const Type *el[3] = {ty_i64, ty_i64, ty_i64};
    for (int d = 0; d < nd; d++) {
        /* grid: tid + ctaid * ntid; gridsize: ntid * nctaid */
        IrInst *ntid = sreg(fn, SREG_NTID_X + d, loc);
        IrInst *other = sreg(fn, grid ? SREG_CTAID_X + d : SREG_NCTAID_X + d, loc);
        IrInst *prod = bin(fn, IR_MUL, ty_i64, other, ntid, loc);
        v[d] = grid ? bin(fn, IR_ADD, ty_i64, sreg(fn, SREG_TID_X + d, loc), prod, loc) : prod;
    }
    if (nd == 1)
        return vval(ty_i64, v[0]);
    const Type *tt = ty_tuple(el, (int)nd);
    return vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, (int)nd, v));
}

static Val barrier_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n) || cpu_refused(fn, le->spell, call->loc))
        return verr();
    ty_emit(fn, le->idx ? IR_FENCE : IR_BARRIER, ty_void, call->loc, 0, NULL);
    return vval(ty_void, NULL);
}

/* cuda.shared.array(shape, dtype), cuda.local.array(shape, dtype) */
static Val array_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    const char *name = le->spell;
    Loc loc = call->loc;
    if (cpu_refused(fn, name, loc))
        return verr();
    Node *shape = call->list.n > 0 ? call->list.items[0] : kwarg(call, "shape");
    Node *dt = call->list.n > 1 ? call->list.items[1] : kwarg(call, "dtype");
    if (!shape || !dt) {
        ty_error(fn, loc, "%s(shape, dtype) needs a shape and a dtype", name);
        return verr();
    }
    int64_t dims[3];
    int nd = shape->kind == ND_TUPLE ? shape->list.n : 1;
    if (nd < 1 || nd > 3) {
        ty_error(fn, shape->loc, "%s() supports 1 to 3 dimensions", name);
        return verr();
    }
    bool shared = le->idx;
    for (int d = 0; d < nd; d++) {
        Node *de = shape->kind == ND_TUPLE ? shape->list.items[d] : shape;
        bool ok = const_int(fn, de, &dims[d]) &&
                  (dims[d] > 0 || (dims[d] == 0 && shared && nd == 1)); /* 0: dynamic */
        if (!ok) {
            ty_error(fn, de->loc, "the shape of %s must be positive constants%s", name,
                     shared ? " (or 0 for the launch's dynamic shared memory)" : "");
            return verr();
        }
    }
    const Type *dtype = dtype_arg(fn, call, dt);
    if (!dtype)
        return verr();
    int64_t nbytes;
    if (nj_byte_size(nd, dims, ty_size(dtype), &nbytes) != NJ_SIZE_OK) {
        ty_error(fn, shape->loc, "the size of this %s is larger than INT64_MAX bytes", name);
        return verr();
    }
    const Type *t = ty_array_ex(dtype, nd, LAYOUT_C, shared ? AS_SHARED : AS_LOCAL, false);
    IrInst *in = ty_emit(fn, shared ? IR_SHARED : IR_LOCAL, t, loc, 0, NULL);
    if (in)
        memcpy(in->imm.dims, dims, sizeof(int64_t) * (size_t)nd);
    return vval(t, in);
}

static Val const_array_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    if (cpu_refused(fn, le->spell, call->loc))
        return verr();
    /* numba-cuda copies a module-level NumPy array into constant memory; numjit compiles
     * from the source text and never sees that array's values */
    ty_error(fn, call->loc, "cuda.const.array_like() is not supported by numjit: it compiles "
             "kernels from their source and cannot read the module's NumPy array; pass the "
             "array to the kernel as an argument instead (cuda.to_device(array) once)");
    return verr();
}

static Val atomic_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n) || cpu_refused(fn, callee.name, call->loc))
        return verr();
    return ty_cuda_atomic(fn, callee.name + 12, a, n, call->loc); /* typer_cuda.c */
}

static Val intrinsic_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n) || cpu_refused(fn, le->spell, call->loc))
        return verr();
    return ty_cuda_call(fn, le->spell + 5, call, a, n); /* typer_cuda.c */
}

static Val syncwarp_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    if (call->list.n == 0 && call->list2.n == 1 && !strcmp(call->list2.items[0]->name, "mask")) {
        Val m = ty_value(fn, call->list2.items[0]->a); /* syncwarp(mask=...) */
        if (m.k != V_VAL || cpu_refused(fn, le->spell, call->loc))
            return verr();
        return ty_cuda_call(fn, "syncwarp", call, &m, 1);
    }
    return intrinsic_call(fn, le, call, callee);
}

/* cuda.shared.NAME ... that no row has: numba-cuda's error comes at the call */
static Val unknown_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n) || cpu_refused(fn, callee.name, call->loc))
        return verr();
    if (!strncmp(callee.name, "cuda.atomic.", 12))
        return ty_cuda_atomic(fn, callee.name + 12, a, n, call->loc); /* its error */
    ty_error(fn, call->loc, "%s() is not supported by numjit", callee.name);
    return verr();
}
const LibEntry lib_cuda_unknown = {"numba.cuda.?", "", LIB_GPU, NULL, unknown_call, NULL, 0, 0};

/* ---- the tables --------------------------------------------------------------------------------- */
static const LibEntry rows[] = {
    {"numba.cuda.threadIdx", "", LIB_GPU | LIB_CONST, sregs_value, NULL, "cuda.threadIdx", SREG_TID_X, 0},
    {"numba.cuda.blockIdx", "", LIB_GPU | LIB_CONST, sregs_value, NULL, "cuda.blockIdx", SREG_CTAID_X, 0},
    {"numba.cuda.blockDim", "", LIB_GPU | LIB_CONST, sregs_value, NULL, "cuda.blockDim", SREG_NTID_X, 0},
    {"numba.cuda.gridDim", "", LIB_GPU | LIB_CONST, sregs_value, NULL, "cuda.gridDim", SREG_NCTAID_X, 0},
    {"numba.cuda.laneid", "", LIB_GPU | LIB_CONST, sreg32_value, NULL, "cuda.laneid", 0, 0},
    {"numba.cuda.warpsize", "", LIB_GPU | LIB_CONST, sreg32_value, NULL, "cuda.warpsize", 0, 0},
    {"numba.cuda.shared", "", LIB_MODULE, lib_module, NULL, "cuda.shared", 0, 0},
    {"numba.cuda.local", "", LIB_MODULE, lib_module, NULL, "cuda.local", 0, 0},
    {"numba.cuda.atomic", "", LIB_MODULE, lib_module, NULL, "cuda.atomic", 0, 0},
    {"numba.cuda.const", "", LIB_MODULE, lib_module, NULL, "cuda.const", 0, 0},
    {"numba.cuda.grid", "ndim", LIB_GPU, NULL, grid_call, "cuda.grid", 0, 0},
    {"numba.cuda.gridsize", "ndim", LIB_GPU, NULL, grid_call, "cuda.gridsize", 1, 0},
    {"numba.cuda.syncthreads", "", LIB_GPU, NULL, barrier_call, "cuda.syncthreads", 0, 0},
    {"numba.cuda.threadfence", "", LIB_GPU, NULL, barrier_call, "cuda.threadfence", 1, 0},
    {"numba.cuda.shared.array", "shape, dtype", LIB_GPU, NULL, array_call, "cuda.shared.array", 1, 0},
    {"numba.cuda.local.array", "shape, dtype", LIB_GPU, NULL, array_call, "cuda.local.array", 0, 0},
    {"numba.cuda.const.array_like", "ndarray", LIB_GPU, NULL, const_array_call, "cuda.const.array_like", 0, 0},
    {"numba.cuda.shfl_sync", "mask, value, src_lane", LIB_GPU, NULL, intrinsic_call, "cuda.shfl_sync", 0, 0},
    {"numba.cuda.shfl_up_sync", "mask, value, delta", LIB_GPU, NULL, intrinsic_call, "cuda.shfl_up_sync", 0, 0},
    {"numba.cuda.shfl_down_sync", "mask, value, delta", LIB_GPU, NULL, intrinsic_call, "cuda.shfl_down_sync", 0, 0},
    {"numba.cuda.shfl_xor_sync", "mask, value, lane_mask", LIB_GPU, NULL, intrinsic_call, "cuda.shfl_xor_sync", 0, 0},
    {"numba.cuda.all_sync", "mask, predicate", LIB_GPU, NULL, intrinsic_call, "cuda.all_sync", 0, 0},
    {"numba.cuda.any_sync", "mask, predicate", LIB_GPU, NULL, intrinsic_call, "cuda.any_sync", 0, 0},
    {"numba.cuda.eq_sync", "mask, predicate", LIB_GPU, NULL, intrinsic_call, "cuda.eq_sync", 0, 0},
    {"numba.cuda.ballot_sync", "mask, predicate", LIB_GPU, NULL, intrinsic_call, "cuda.ballot_sync", 0, 0},
    {"numba.cuda.match_any_sync", "mask, value", LIB_GPU, NULL, intrinsic_call, "cuda.match_any_sync", 0, 0},
    {"numba.cuda.match_all_sync", "mask, value", LIB_GPU, NULL, intrinsic_call, "cuda.match_all_sync", 0, 0},
    {"numba.cuda.syncwarp", "mask=0xFFFFFFFF", LIB_GPU, NULL, syncwarp_call, "cuda.syncwarp", 0, 0},
    {"numba.cuda.activemask", "", LIB_GPU, NULL, intrinsic_call, "cuda.activemask", 0, 0},
    {"numba.cuda.lanemask_lt", "", LIB_GPU, NULL, intrinsic_call, "cuda.lanemask_lt", 0, 0},
    {"numba.cuda.syncthreads_count", "predicate", LIB_GPU, NULL, intrinsic_call, "cuda.syncthreads_count", 0, 0},
    {"numba.cuda.syncthreads_and", "predicate", LIB_GPU, NULL, intrinsic_call, "cuda.syncthreads_and", 0, 0},
    {"numba.cuda.syncthreads_or", "predicate", LIB_GPU, NULL, intrinsic_call, "cuda.syncthreads_or", 0, 0},
    {"numba.cuda.threadfence_block", "", LIB_GPU, NULL, intrinsic_call, "cuda.threadfence_block", 0, 0},
    {"numba.cuda.threadfence_system", "", LIB_GPU, NULL, intrinsic_call, "cuda.threadfence_system", 0, 0},
    {"numba.cuda.popc", "x", LIB_GPU, NULL, intrinsic_call, "cuda.popc", 0, 0},
    {"numba.cuda.brev", "x", LIB_GPU, NULL, intrinsic_call, "cuda.brev", 0, 0},
    {"numba.cuda.clz", "x", LIB_GPU, NULL, intrinsic_call, "cuda.clz", 0, 0},
    {"numba.cuda.ffs", "x", LIB_GPU, NULL, intrinsic_call, "cuda.ffs", 0, 0},
    {"numba.cuda.fma", "a, b, c", LIB_GPU, NULL, intrinsic_call, "cuda.fma", 0, 0},
    {"numba.cuda.cbrt", "x", LIB_GPU, NULL, intrinsic_call, "cuda.cbrt", 0, 0},
    {"numba.cuda.selp", "test, a, b", LIB_GPU, NULL, intrinsic_call, "cuda.selp", 0, 0},
    {"numba.cuda.atomic.add", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.add", 0, 0},
    {"numba.cuda.atomic.sub", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.sub", 0, 0},
    {"numba.cuda.atomic.max", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.max", 0, 0},
    {"numba.cuda.atomic.min", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.min", 0, 0},
    {"numba.cuda.atomic.exch", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.exch", 0, 0},
    {"numba.cuda.atomic.cas", "array, old, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.cas", 0, 0},
    {"numba.cuda.atomic.compare_and_swap", "array, old, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.compare_and_swap", 0, 0},
    {"numba.cuda.atomic.and_", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.and_", 0, 0},
    {"numba.cuda.atomic.or_", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.or_", 0, 0},
    {"numba.cuda.atomic.xor", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.xor", 0, 0},
    {"numba.cuda.atomic.inc", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.inc", 0, 0},
    {"numba.cuda.atomic.dec", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.dec", 0, 0},
    {"numba.cuda.atomic.nanmax", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.nanmax", 0, 0},
    {"numba.cuda.atomic.nanmin", "array, idx, val", LIB_GPU, NULL, atomic_call, "cuda.atomic.nanmin", 0, 0},
    {NULL},
};
const LibTable lib_cuda_table = {"numba.cuda (kernels)", rows};

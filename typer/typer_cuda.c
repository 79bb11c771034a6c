/* typer_cuda.c — typing the numba-cuda intrinsics: cuda.laneid and cuda.warpsize, the warp
 * functions (shuffles, votes, match, syncwarp, lane masks), syncthreads_count/and/or, the block
 * and system fences, popc brev clz ffs selp fma cbrt, and the cuda.atomic.* family.
 *
 * Each follows numba-cuda's typing (cudadecl.py and intrinsics.py).  Where numba-cuda declares
 * a list of signatures (a ConcreteTemplate: popc, clz, ffs, brev, fma, cbrt, match_*), the
 * signature is chosen as Numba chooses it: every argument's conversion to the parameter type
 * is rated exact, promote, safe or unsafe by Numba's casting graph (numba/core/typeconv/
 * rules.py: int8 -> int16 promotes, uint32 -> int64 is safe, int64 -> float64 unsafe, each
 * edge's reverse unsafe, a path as bad as its worst edge), and the candidate with the fewest
 * unsafe, then safe, then promoting conversions wins, the first listed on a tie.  The typed
 * call becomes one IR `cuda` instruction (ir/cuda.def) with operands already converted: masks
 * and lanes to int32, predicates to bool (votes) or int32 (syncthreads_*).  selp is IR
 * `select`; laneid and warpsize are special registers read as int32.
 *
 * Departures, each a superset of what numba-cuda accepts: shuffles also take uint32 and uint64
 * values (numba-cuda rejects them; the bits move the same), syncthreads_count/and/or also take
 * a bool predicate, and selp's test may be any number (its truth value).  Masks, lanes and
 * predicates must be integers or bools, never floats.
 */
#include "typer_internal.h"

#include <string.h>


static bool is_intlike(const Type *t) { return ty_is_int(t) || t == ty_bool; }

/* ---- Numba's overload resolution over scalar signatures ------------------------------------ */
enum { CV_EXACT, CV_PROMOTE, CV_SAFE, CV_UNSAFE, CV_NONE };
enum { NSCALAR = TY_F64 + 1 };

/* The conversion kind from one scalar kind to another (Floyd–Warshall over the casting graph,
 * minimizing the worst edge of a path). */
static void conversions(unsigned char d[NSCALAR][NSCALAR]) {
    static const struct { TypeKind a, b; unsigned char ab, ba; } edges[] = {
        {TY_BOOL, TY_I8, CV_SAFE, CV_UNSAFE},   {TY_BOOL, TY_U8, CV_SAFE, CV_UNSAFE},
        {TY_I8, TY_I16, CV_PROMOTE, CV_UNSAFE}, {TY_U8, TY_U16, CV_PROMOTE, CV_UNSAFE},
        {TY_I16, TY_I32, CV_PROMOTE, CV_UNSAFE}, {TY_U16, TY_U32, CV_PROMOTE, CV_UNSAFE},
        {TY_I32, TY_I64, CV_PROMOTE, CV_UNSAFE}, {TY_U32, TY_U64, CV_PROMOTE, CV_UNSAFE},
        {TY_U8, TY_I16, CV_SAFE, CV_UNSAFE},    {TY_U16, TY_I32, CV_SAFE, CV_UNSAFE},
        {TY_U32, TY_I64, CV_SAFE, CV_UNSAFE},   {TY_I16, TY_F32, CV_SAFE, CV_UNSAFE},
        {TY_I32, TY_F64, CV_SAFE, CV_UNSAFE},   {TY_I64, TY_F64, CV_UNSAFE, CV_UNSAFE},
        {TY_U64, TY_F64, CV_UNSAFE, CV_UNSAFE}, {TY_F32, TY_F64, CV_PROMOTE, CV_UNSAFE},
    };
    for (int i = 0; i < NSCALAR; i++)
        for (int j = 0; j < NSCALAR; j++)
            d[i][j] = i == j ? CV_EXACT : CV_NONE;
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
        d[edges[e].a][edges[e].b] = edges[e].ab;
        d[edges[e].b][edges[e].a] = edges[e].ba;
    }
    for (int k = TY_BOOL; k < NSCALAR; k++)
        for (int i = TY_BOOL; i < NSCALAR; i++)
            for (int j = TY_BOOL; j < NSCALAR; j++) {
                unsigned char via = d[i][k] > d[k][j] ? d[i][k] : d[k][j];
                if (via < d[i][j])
                    d[i][j] = via;
            }
}

/* cases[c] = {result, param 0, param 1, param 2}; the chosen case, or -1 when none applies. */
static int resolve(const TypeKind (*cases)[4], int ncases, const Type **args, int n) {
    unsigned char d[NSCALAR][NSCALAR];
    conversions(d);
    int best = -1, best_rate[3] = {0, 0, 0};
    for (int c = 0; c < ncases; c++) {
        int rate[3] = {0, 0, 0}; /* unsafe, safe, promote */
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            if (!ty_is_scalar(args[i])) {
                ok = false;
                break;
            }
            int k = d[args[i]->kind][cases[c][i + 1]];
            if (k == CV_NONE)
                ok = false;
            else if (k == CV_UNSAFE)
                rate[0]++;
            else if (k == CV_SAFE)
                rate[1]++;
            else if (k == CV_PROMOTE)
                rate[2]++;
        }
        if (!ok)
            continue;
        bool better = best < 0;
        for (int r = 0; r < 3 && !better; r++) {
            if (rate[r] != best_rate[r]) {
                better = rate[r] < best_rate[r];
                break;
            }
        }
        if (better) { /* a tie keeps the earlier case */
            best = c;
            memcpy(best_rate, rate, sizeof rate);
        }
    }
    return best;
}

/* ---- cuda.laneid, cuda.warpsize ------------------------------------------------------------ */
Val ty_cuda_sreg32(Fn *fn, const char *attr, Loc loc) {
    if (fn->tc->target != TARGET_NVPTX) {
        ty_error(fn, loc, "cuda.%s is only available in CUDA kernels and device functions", attr);
        return verr();
    }
    IrInst *r = ty_emit(fn, IR_SREG, ty_i64, loc, 0, NULL);
    if (r)
        r->imm.index = !strcmp(attr, "laneid") ? SREG_LANEID : SREG_WARPSIZE;
    return vval(ty_i32, ty_cast(fn, r, ty_i64, ty_i32, loc)); /* int32, as numba-cuda */
}

/* ---- the intrinsics of ir/cuda.def ---------------------------------------------------------- */
static IrInst *emit_cuda(Fn *fn, int k, const Type *t, Loc loc, int n, IrInst **args) {
    IrInst *r = ty_emit(fn, IR_CUDA, t, loc, n, args);
    if (r)
        r->imm.index = k;
    return r;
}

/* Where argument i of the call is written (the call's own location when it has none there). */
static Loc argloc(Node *call, int i, Loc loc) {
    return call && i < call->list.n ? call->list.items[i]->loc : loc;
}

/* A mask, lane or delta operand: an integer (or bool) as int32 (numba-cuda truncates). */
static bool int32_arg(Fn *fn, const char *fname, const char *what, Val v, Loc loc, IrInst **out) {
    if (!is_intlike(v.t)) {
        ty_error(fn, loc, "the %s of cuda.%s() must be an integer, not %s", what, fname, v.t->name);
        return false;
    }
    *out = ty_cast(fn, v.v, v.t, ty_i32, loc);
    return true;
}

static const char *const params_of[] = {
    [CU_SHFL_SYNC] = "mask, value, src_lane", [CU_SHFL_UP_SYNC] = "mask, value, delta",
    [CU_SHFL_DOWN_SYNC] = "mask, value, delta", [CU_SHFL_XOR_SYNC] = "mask, value, lane_mask",
    [CU_ALL_SYNC] = "mask, predicate",         [CU_ANY_SYNC] = "mask, predicate",
    [CU_EQ_SYNC] = "mask, predicate",          [CU_BALLOT_SYNC] = "mask, predicate",
    [CU_MATCH_ANY_SYNC] = "mask, value",       [CU_MATCH_ALL_SYNC] = "mask, value",
    [CU_SYNCWARP] = "[mask]",                  [CU_ACTIVEMASK] = "",
    [CU_LANEMASK_LT] = "",                     [CU_SYNCTHREADS_COUNT] = "predicate",
    [CU_SYNCTHREADS_AND] = "predicate",        [CU_SYNCTHREADS_OR] = "predicate",
    [CU_THREADFENCE_BLOCK] = "",               [CU_THREADFENCE_SYSTEM] = "",
    [CU_POPC] = "x",                           [CU_BREV] = "x",
    [CU_CLZ] = "x",                            [CU_FFS] = "x",
    [CU_FMA] = "a, b, c",                      [CU_CBRT] = "x",
};

/* The numba-cuda signature lists of the ConcreteTemplate functions. */
static const TypeKind int_cases[8][4] = {
    {TY_I8, TY_I8}, {TY_I16, TY_I16}, {TY_I32, TY_I32}, {TY_I64, TY_I64},
    {TY_U8, TY_U8}, {TY_U16, TY_U16}, {TY_U32, TY_U32}, {TY_U64, TY_U64}};
static const TypeKind ffs_cases[8][4] = {
    {TY_U32, TY_I8}, {TY_U32, TY_I16}, {TY_U32, TY_I32}, {TY_U32, TY_I64},
    {TY_U32, TY_U8}, {TY_U32, TY_U16}, {TY_U32, TY_U32}, {TY_U32, TY_U64}};
static const TypeKind brev_cases[2][4] = {{TY_U32, TY_U32}, {TY_U64, TY_U64}};
static const TypeKind fma_cases[2][4] = {{TY_F32, TY_F32, TY_F32, TY_F32},
                                         {TY_F64, TY_F64, TY_F64, TY_F64}};
static const TypeKind cbrt_cases[2][4] = {{TY_F32, TY_F32}, {TY_F64, TY_F64}};
static const TypeKind match_cases[4][4] = {
    {TY_I32, TY_I32, TY_I32}, {TY_I32, TY_I32, TY_I64}, {TY_I32, TY_I32, TY_F32},
    {TY_I32, TY_I32, TY_F64}};

/* popc clz ffs brev fma cbrt: the chosen signature, arguments converted to it. */
static Val concrete(Fn *fn, int k, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    const TypeKind (*cases)[4];
    int ncases;
    switch (k) {
    case CU_POPC: case CU_CLZ: cases = int_cases; ncases = 8; break;
    case CU_FFS: cases = ffs_cases; ncases = 8; break;
    case CU_BREV: cases = brev_cases; ncases = 2; break;
    case CU_FMA: cases = fma_cases; ncases = 2; break;
    default: cases = cbrt_cases; ncases = 2; break;
    }
    const char *name = ir_cuda[k].name;
    bool want_float = k == CU_FMA || k == CU_CBRT;
    const Type *types[3];
    for (int i = 0; i < n; i++) {
        if (!ty_is_scalar(a[i].t) || (!want_float && ty_is_float(a[i].t))) {
            ty_error(fn, argloc(call, i, loc), "cuda.%s() needs %s, not %s", name,
                     want_float ? "numbers" : "an integer", a[i].t->name);
            return verr();
        }
        types[i] = a[i].t;
    }
    int c = resolve(cases, ncases, types, n);
    if (c < 0) {
        ty_error(fn, loc, "cuda.%s() of %s is not supported", name, a[0].t->name);
        return verr();
    }
    IrInst *args[3];
    for (int i = 0; i < n; i++)
        args[i] = ty_cast(fn, a[i].v, a[i].t, ty_scalar(cases[c][i + 1]), loc);
    const Type *rt = ty_scalar(cases[c][0]);
    return vval(rt, emit_cuda(fn, k, rt, loc, n, args));
}

static Val selp(Fn *fn, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    if (n != 3) {
        ty_error(fn, loc, "cuda.selp() takes (test, a, b), %d arguments given", n);
        return verr();
    }
    const Type *t = a[1].t;
    bool ok = t == a[2].t && (t == ty_f64 || t == ty_f32 || t == ty_i16 || t == ty_u16 ||
                              t == ty_i32 || t == ty_u32 || t == ty_i64 || t == ty_u64);
    if (!ok) {
        ty_error(fn, loc, "cuda.selp() needs a and b of one type among float64 float32 int16 "
                          "uint16 int32 uint32 int64 uint64, not %s and %s", a[1].t->name,
                 a[2].t->name);
        return verr();
    }
    if (!ty_is_scalar(a[0].t)) {
        ty_error(fn, argloc(call, 0, loc),
                 "the test of cuda.selp() must be a bool or a number, not %s", a[0].t->name);
        return verr();
    }
    IrInst *ops[3] = {ty_truth(fn, a[0], loc), a[1].v, a[2].v};
    return vval(t, ty_emit(fn, IR_SELECT, t, loc, 3, ops));
}

Val ty_cuda_call(Fn *fn, const char *name, Node *call, Val *a, int n) {
    Loc loc = call->loc;
    if (!strcmp(name, "selp"))
        return selp(fn, call, a, n);
    int k = ir_cuda_lookup(name);
    if (k < 0) {
        ty_error(fn, loc, "cuda.%s() is not supported by numjit", name);
        return verr();
    }
    const CudaInfo *ci = &ir_cuda[k];
    bool arity_ok = n == ci->nargs || (k == CU_SYNCWARP && n == 0);
    if (!arity_ok) {
        ty_error(fn, loc, "cuda.%s() takes (%s), %d argument%s given", name, params_of[k], n,
                 n == 1 ? "" : "s");
        return verr();
    }
    IrInst *args[3] = {NULL, NULL, NULL};
    switch (ci->kind) {
    case CK_SHFL: {
        const Type *t = a[1].t;
        if (!(t == ty_i32 || t == ty_i64 || t == ty_u32 || t == ty_u64 || t == ty_f32 ||
              t == ty_f64)) {
            ty_error(fn, argloc(call, 1, loc), "cuda.%s() shuffles int32, int64, uint32, "
                     "uint64, float32 or float64 values, not %s", name, t->name);
            return verr();
        }
        if (!int32_arg(fn, name, "mask", a[0], argloc(call, 0, loc), &args[0]) ||
            !int32_arg(fn, name, k == CU_SHFL_SYNC ? "source lane" : k == CU_SHFL_XOR_SYNC
                                                                   ? "lane mask" : "delta",
                       a[2], argloc(call, 2, loc), &args[2]))
            return verr();
        args[1] = a[1].v;
        return vval(t, emit_cuda(fn, k, t, loc, 3, args));
    }
    case CK_VOTE:
    case CK_BALLOT: {
        if (!int32_arg(fn, name, "mask", a[0], argloc(call, 0, loc), &args[0]))
            return verr();
        if (!is_intlike(a[1].t)) {
            ty_error(fn, argloc(call, 1, loc),
                     "the predicate of cuda.%s() must be an integer or bool, not %s", name,
                     a[1].t->name);
            return verr();
        }
        args[1] = ty_truth(fn, a[1], loc);
        const Type *t = ci->kind == CK_VOTE ? ty_bool : ty_i32;
        return vval(t, emit_cuda(fn, k, t, loc, 2, args));
    }
    case CK_MATCH_ANY:
    case CK_MATCH_ALL: {
        if (!int32_arg(fn, name, "mask", a[0], argloc(call, 0, loc), &args[0]))
            return verr();
        const Type *types[2] = {ty_i32, a[1].t};
        int c = ty_is_scalar(a[1].t) ? resolve(match_cases, 4, types, 2) : -1;
        if (c < 0) {
            ty_error(fn, argloc(call, 1, loc), "cuda.%s() of %s is not supported", name,
                     a[1].t->name);
            return verr();
        }
        args[1] = ty_cast(fn, a[1].v, a[1].t, ty_scalar(match_cases[c][2]), loc);
        const Type *el[2] = {ty_i32, ty_bool};
        const Type *t = ci->kind == CK_MATCH_ANY ? ty_i32 : ty_tuple(el, 2);
        return vval(t, emit_cuda(fn, k, t, loc, 2, args));
    }
    case CK_SYNCWARP:
        if (n == 0)
            args[0] = ty_const_int(fn, ty_i32, -1, loc); /* 0xffffffff: the whole warp */
        else if (!int32_arg(fn, name, "mask", a[0], argloc(call, 0, loc), &args[0]))
            return verr();
        emit_cuda(fn, k, ty_void, loc, 1, args);
        return vval(ty_void, NULL);
    case CK_LANEMASK:
        return vval(ty_u32, emit_cuda(fn, k, ty_u32, loc, 0, NULL));
    case CK_BARPRED:
        if (!int32_arg(fn, name, "predicate", a[0], argloc(call, 0, loc), &args[0]))
            return verr();
        return vval(ty_i32, emit_cuda(fn, k, ty_i32, loc, 1, args));
    case CK_FENCE:
        emit_cuda(fn, k, ty_void, loc, 0, NULL);
        return vval(ty_void, NULL);
    case CK_BITS:
    case CK_FFS:
    case CK_FLOAT:
        return concrete(fn, k, call, a, n);
    }
    return verr();
}

/* ---- cuda.atomic.* ----------------------------------------------------------------------- */
/* Python spelling -> AtomicKind, and the array dtypes numba-cuda accepts for the newer ones. */
static const struct {
    const char *py;
    AtomicKind kind;
    const char *dtypes; /* NULL: any number (numjit's older rule for add ... cas) */
} atomics[] = {
    {"add", ATOM_ADD, NULL},   {"sub", ATOM_SUB, NULL},   {"max", ATOM_MAX, NULL},
    {"min", ATOM_MIN, NULL},   {"exch", ATOM_EXCH, NULL}, {"cas", ATOM_CAS, NULL},
    {"compare_and_swap", ATOM_CAS, NULL},
    {"and_", ATOM_AND, "int32 uint32 int64 uint64"},
    {"or_", ATOM_OR, "int32 uint32 int64 uint64"},
    {"xor", ATOM_XOR, "int32 uint32 int64 uint64"},
    {"inc", ATOM_INC, "uint32 uint64"},
    {"dec", ATOM_DEC, "uint32 uint64"},
    {"nanmax", ATOM_NANMAX, "int32 uint32 int64 uint64 float32 float64"},
    {"nanmin", ATOM_NANMIN, "int32 uint32 int64 uint64 float32 float64"},
};

/* Whether the space-separated list holds the name. */
static bool in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

Val ty_cuda_atomic(Fn *fn, const char *op, Val *a, int n, Loc loc) {
    int w = -1;
    for (size_t i = 0; i < sizeof atomics / sizeof *atomics; i++)
        if (!strcmp(op, atomics[i].py))
            w = (int)i;
    if (w < 0) {
        ty_error(fn, loc, "cuda.atomic.%s is not supported", op);
        return verr();
    }
    AtomicKind kind = atomics[w].kind;
    /* compare_and_swap(ary, old, val) is cas on ary[0] of a 1-d array */
    bool cas0 = !strcmp(op, "compare_and_swap");
    int want = cas0 ? 3 : kind == ATOM_CAS ? 4 : 3;
    if (n != want) {
        ty_error(fn, loc, "cuda.atomic.%s takes (array, %s)", op,
                 cas0 ? "old, value" : kind == ATOM_CAS ? "index, old, value" : "index, value");
        return verr();
    }
    if (a[0].t->kind != TY_ARRAY) {
        ty_error(fn, loc, "cuda.atomic.%s needs an array, not %s", op, a[0].t->name);
        return verr();
    }
    const Type *at = a[0].t;
    if (atomics[w].dtypes && !in_list(atomics[w].dtypes, at->dtype->name)) {
        ty_error(fn, loc, "cuda.atomic.%s supports arrays of %s, not %s", op, atomics[w].dtypes,
                 at->name);
        return verr();
    }
    IrInst *args[8];
    int k = 0;
    args[k++] = a[0].v;
    int first_value = 2;
    if (cas0) {
        if (at->ndim != 1) {
            ty_error(fn, loc, "cuda.atomic.compare_and_swap needs a 1-d array, not %s", at->name);
            return verr();
        }
        args[k++] = ty_const_int(fn, ty_i64, 0, loc);
        first_value = 1;
    } else if (a[1].t->kind == TY_TUPLE) {
        Val idx = a[1];
        if (idx.t->nelems != at->ndim) {
            ty_error(fn, loc, "%s needs %d indices", at->name, at->ndim);
            return verr();
        }
        for (int d = 0; d < at->ndim; d++) {
            if (!is_intlike(idx.t->elems[d])) {
                ty_error(fn, loc, "the indices of cuda.atomic.%s must be integers", op);
                return verr();
            }
            IrInst *x = ty_emit(fn, IR_EXTRACT, idx.t->elems[d], loc, 1, &idx.v);
            if (x)
                x->imm.index = d;
            args[k++] = ty_cast(fn, x, idx.t->elems[d], ty_i64, loc);
        }
    } else {
        if (at->ndim != 1 || !ty_is_int(a[1].t)) {
            ty_error(fn, loc, "the index of cuda.atomic.%s must be %s", op,
                     at->ndim == 1 ? "an integer" : "a tuple");
            return verr();
        }
        args[k++] = ty_cast(fn, a[1].v, a[1].t, ty_i64, loc);
    }
    for (int i = first_value; i < n; i++) {
        if (!ty_is_scalar(a[i].t)) {
            ty_error(fn, loc, "the value of cuda.atomic.%s must be a number, not %s", op,
                     a[i].t->name);
            return verr();
        }
        args[k++] = ty_cast(fn, a[i].v, a[i].t, at->dtype, loc);
    }
    IrInst *r = ty_emit(fn, IR_ATOMIC, at->dtype, loc, k, args);
    if (r)
        r->imm.index = kind;
    return vval(at->dtype, r);
}

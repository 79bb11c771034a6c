/* gpu_loops.c — GPU ufunc and gufunc kernels (target='cuda'): generated, not interpreted.
 *
 * From the program of a @vectorize core (IRF_SCALAR) or a @guvectorize core (IRF_GUFUNC) this
 * file builds one PTX kernel, `.visible .entry NAME`, NAME the Python name, with the ABI of
 * codegen.h ("GPU ufunc and gufunc kernels"): the outer iteration space is at most 2-D after
 * the runtime has broadcast and collapsed the operands, element i of n lying at row
 * r = i / inner, column c = i % inner, and argument k's element (or core block) at
 * data_k + c * istride_k + r * ostride_k (bytes).  The core (funcs[0], alwaysinline) is
 * lowered by lower.c with the NVPTX hooks as any device function is; math goes to libdevice.
 *
 * ufunc kernel, two paths chosen in the kernel from its arguments (uniform branches):
 *   vector   one row (inner >= n), every argument contiguous (istride == item size) or, for
 *            an input, broadcast (istride == 0), and every non-broadcast base pointer 16-byte
 *            aligned: a grid-stride loop over groups of E consecutive elements per thread
 *            (E = 4, 8 for 1- and 2-byte dtypes), each argument moved as 16-byte vectors
 *            (ld.global.v4.f32, ld.global.v2.f64, st.global.v4.f32 ...), the core inlined E
 *            times; a broadcast input is loaded and converted once, before the loop;
 *   general  anything else, and the last n % E elements of the vector path: a grid-stride
 *            loop over elements whose (row, column) advance without a division per element
 *            (the thread count is split into whole rows and a remainder once).  Broadcast and
 *            negative strides need nothing special here: a stride of 0 re-reads one element.
 *   Inputs are loaded in the arrays' dtypes and converted to the core's parameter types with
 *   IR_CAST's rules (as loops.c does on the CPU); the result is converted to the output's.
 * gufunc kernel: an outer element (core row) per thread.  A thread walking its own row of a
 *   C-contiguous (outer, k) input reads addresses k items apart from its neighbours' (no
 *   coalescing), so arguments may be staged through shared memory, T rows at a time (the
 *   `staged` word, below and codegen.h: which arguments, T, copy flags; the host checks one
 *   row, a C-contiguous core, rows packed: istride_k == core bytes).  A tile of packed rows is
 *   one contiguous byte range: the block copies it as a flat array, thread tid taking chunks
 *   tid, tid + ntid, ... (coalesced), each chunk's (row, column) advanced without a division,
 *   into rows `pitch` apart (the row's bytes rounded up to an odd number of 4- or 8-byte
 *   words: a warp whose threads walk their own rows hits distinct banks).  Chunks are 16-byte
 *   vectors through registers (GL_ST_VEC, rows and data 16-aligned), cp.async (GL_ST_ASYNC,
 *   sm_80+, two buffers: tile i + 1 in flight while tile i is computed), or items through
 *   registers otherwise.  Each thread then runs the core on rows tid, tid + ntid, ... of the
 *   tile; the core is inlined with the staged arguments' pointers derived from the
 *   addrspace(3) array (ld.shared/st.shared after inlining) for the usual masks, generic ones
 *   otherwise; unstaged arguments are used in place (a "()" output written by each thread is
 *   coalesced already); staged outputs are copied back after a barrier.  Without staged
 *   arguments each thread runs its outer elements directly in a grid-stride loop.
 * The core's status (raise sites) is ignored: ufuncs use the 'numpy' error model.
 */
#include "cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_MAXARGS 32
#define GL_MAXCORE (GL_MAXARGS * NJ_MAX_NDIM)
#define GL_MAXE 8
#define GL_STAGE_SYM "numjit_gu_stage"

typedef struct GpuGen {
    CgModule *M;
    LLVMBuilderRef B;
    LLVMValueRef fn;
    LLVMTypeRef i1, i32, i64, i8, gptr, ptr0;
    const IrFunc *core;
    int nargs, nin, ncore;
    const Type *const *dt;
    const int *cidx;
    LLVMValueRef n, inner, staged;
    LLVMValueRef dims[GL_MAXCORE];
    LLVMValueRef data[GL_MAXARGS], is[GL_MAXARGS], os[GL_MAXARGS];
    LLVMValueRef cst[GL_MAXARGS][NJ_MAX_NDIM]; /* core strides (gufuncs) */
    LLVMValueRef tid, ntid, gtid, nthreads;
    LLVMValueRef retp;
    bool async_ok; /* cp.async exists (sm_80 and newer) */
} GpuGen;

static LLVMValueRef c64(GpuGen *g, int64_t v) { return LLVMConstInt(g->i64, (unsigned long long)v, 1); }

static LLVMBasicBlockRef new_block(GpuGen *g, const char *name) {
    return LLVMAppendBasicBlockInContext(g->M->ctx, g->fn, name);
}

static LLVMValueRef sreg(GpuGen *g, const char *name) {
    char full[64];
    snprintf(full, sizeof full, "llvm.nvvm.read.ptx.sreg.%s", name);
    unsigned id = LLVMLookupIntrinsicID(full, strlen(full));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->M->mod, id, NULL, 0);
    LLVMValueRef v = LLVMBuildCall2(g->B, LLVMGlobalGetValueType(f), f, NULL, 0, "");
    return LLVMBuildZExt(g->B, v, g->i64, name);
}

static void barrier(GpuGen *g) {
    const char *name = "llvm.nvvm.barrier0";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->M->mod, id, NULL, 0);
    LLVMBuildCall2(g->B, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

/* A loaded memory-form element of argument k as the core's parameter k. */
static LLVMValueRef to_param(GpuGen *g, int k, LLVMValueRef mem) {
    LLVMValueRef v = cg_from_mem(g->M, g->B, g->dt[k], mem);
    return cg_convert(g->M, g->B, v, g->dt[k], g->core->params[k]);
}

static LLVMValueRef load_param(GpuGen *g, int k, LLVMValueRef p) {
    LLVMValueRef v = LLVMBuildLoad2(g->B, cg_mem_type(g->M, g->dt[k]), p, "");
    return to_param(g, k, v);
}

/* The core's result in memory form of the output's dtype. */
static LLVMValueRef call_scalar_core(GpuGen *g, LLVMValueRef *params) {
    LLVMValueRef args[GL_MAXARGS + 1];
    args[0] = g->retp;
    for (int k = 0; k < g->nin; k++)
        args[k + 1] = params[k];
    LLVMBuildCall2(g->B, g->M->fntys[0], g->M->fns[0], args, (unsigned)g->nin + 1, "");
    const Type *rt = g->core->ret, *ot = g->dt[g->nargs - 1];
    LLVMValueRef r = LLVMBuildLoad2(g->B, cg_mem_type(g->M, rt), g->retp, "");
    r = cg_convert(g->M, g->B, cg_from_mem(g->M, g->B, rt, r), rt, ot);
    return cg_to_mem(g->M, g->B, ot, r);
}

static LLVMValueRef byte_gep(GpuGen *g, LLVMValueRef base, LLVMValueRef off) {
    return LLVMBuildGEP2(g->B, g->i8, base, &off, 1, "");
}

/* ---- a grid-stride style loop: i from start while i < limit, i += step ------------------------ */
typedef struct GLoop {
    LLVMBasicBlockRef pre, body, exit;
    LLVMValueRef i;
} GLoop;

static GLoop loop_open(GpuGen *g, LLVMValueRef start, LLVMValueRef limit, const char *name) {
    GLoop l;
    l.pre = LLVMGetInsertBlock(g->B);
    l.body = new_block(g, name);
    l.exit = new_block(g, "exit");
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntULT, start, limit, ""), l.body, l.exit);
    LLVMPositionBuilderAtEnd(g->B, l.body);
    l.i = LLVMBuildPhi(g->B, g->i64, "i");
    LLVMAddIncoming(l.i, &start, &l.pre, 1);
    return l;
}

static void loop_close(GpuGen *g, GLoop *l, LLVMValueRef step, LLVMValueRef limit) {
    LLVMValueRef next = LLVMBuildAdd(g->B, l->i, step, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->B);
    LLVMAddIncoming(l->i, &next, &latch, 1);
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntULT, next, limit, ""), l->body, l->exit);
    LLVMPositionBuilderAtEnd(g->B, l->exit);
}

/* ---- the general path: (row, column) of each element, advanced without dividing ------------- */
typedef void (*ElemFn)(GpuGen *g, LLVMValueRef *base);

/* Runs elem for i = start, start + nthreads, ... < n; base[k] = argument k's element. */
static void general_loop(GpuGen *g, LLVMValueRef start, ElemFn elem) {
    LLVMBasicBlockRef ph = new_block(g, "gen.ph"), exit = new_block(g, "gen.exit");
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntULT, start, g->n, ""), ph, exit);
    LLVMPositionBuilderAtEnd(g->B, ph);
    LLVMValueRef r0 = LLVMBuildUDiv(g->B, start, g->inner, "");
    LLVMValueRef c0 = LLVMBuildSub(g->B, start, LLVMBuildMul(g->B, r0, g->inner, ""), "");
    LLVMValueRef tr = LLVMBuildUDiv(g->B, g->nthreads, g->inner, "");
    LLVMValueRef tm = LLVMBuildSub(g->B, g->nthreads, LLVMBuildMul(g->B, tr, g->inner, ""), "");
    LLVMBasicBlockRef body = new_block(g, "gen");
    LLVMBuildBr(g->B, body);
    LLVMPositionBuilderAtEnd(g->B, body);
    LLVMValueRef i = LLVMBuildPhi(g->B, g->i64, "i");
    LLVMValueRef r = LLVMBuildPhi(g->B, g->i64, "r");
    LLVMValueRef c = LLVMBuildPhi(g->B, g->i64, "c");
    LLVMAddIncoming(i, &start, &ph, 1);
    LLVMAddIncoming(r, &r0, &ph, 1);
    LLVMAddIncoming(c, &c0, &ph, 1);
    LLVMValueRef base[GL_MAXARGS];
    for (int k = 0; k < g->nargs; k++) {
        LLVMValueRef off = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, c, g->is[k], ""),
                                        LLVMBuildMul(g->B, r, g->os[k], ""), "");
        base[k] = byte_gep(g, g->data[k], off);
    }
    elem(g, base);
    LLVMValueRef ni = LLVMBuildAdd(g->B, i, g->nthreads, "");
    LLVMValueRef nc = LLVMBuildAdd(g->B, c, tm, "");
    LLVMValueRef nr = LLVMBuildAdd(g->B, r, tr, "");
    LLVMValueRef wrap = LLVMBuildICmp(g->B, LLVMIntUGE, nc, g->inner, "");
    nc = LLVMBuildSelect(g->B, wrap, LLVMBuildSub(g->B, nc, g->inner, ""), nc, "");
    nr = LLVMBuildSelect(g->B, wrap, LLVMBuildAdd(g->B, nr, c64(g, 1), ""), nr, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->B);
    LLVMAddIncoming(i, &ni, &latch, 1);
    LLVMAddIncoming(r, &nr, &latch, 1);
    LLVMAddIncoming(c, &nc, &latch, 1);
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntULT, ni, g->n, ""), body, exit);
    LLVMPositionBuilderAtEnd(g->B, exit);
}

/* ---- ufunc kernels ---------------------------------------------------------------------------- */
static void ufunc_elem(GpuGen *g, LLVMValueRef *base) {
    LLVMValueRef v[GL_MAXARGS];
    for (int k = 0; k < g->nin; k++)
        v[k] = load_param(g, k, base[k]);
    LLVMBuildStore(g->B, call_scalar_core(g, v), base[g->nin]);
}

int cg_gpu_loop_group(const Type *const *arg_dtypes, int nargs) {
    int min = 8;
    for (int k = 0; k < nargs; k++)
        if (arg_dtypes[k] && ty_size(arg_dtypes[k]) < min)
            min = ty_size(arg_dtypes[k]);
    int e = 16 / (min > 0 ? min : 1);
    return e < 4 ? 4 : e > GL_MAXE ? GL_MAXE : e;
}

/* The vector path's loop over groups of E elements; hoisted[k] is input k's broadcast value
 * (meaningful where bc[k] holds). */
static void vector_loop(GpuGen *g, int E, const LLVMValueRef *bc, const LLVMValueRef *hoisted,
                        LLVMValueRef ngroups) {
    GLoop l = loop_open(g, g->gtid, ngroups, "vec");
    LLVMValueRef vals[GL_MAXARGS][GL_MAXE];
    for (int k = 0; k < g->nargs; k++) {
        bool out = k == g->nargs - 1;
        int s = ty_size(g->dt[k]);
        int bytes = E * s, chunk = bytes < 16 ? bytes : 16, per = chunk / s;
        LLVMTypeRef et = cg_mem_type(g->M, g->dt[k]);
        LLVMTypeRef vt = LLVMVectorType(et, (unsigned)per);
        LLVMValueRef gbase = byte_gep(g, g->data[k], LLVMBuildMul(g->B, l.i, c64(g, bytes), ""));
        if (out) { /* the core runs first: stores come below */
            for (int e = 0; e < E; e++)
                vals[k][e] = gbase; /* remembered: the group's address */
            continue;
        }
        LLVMBasicBlockRef from = LLVMGetInsertBlock(g->B);
        LLVMBasicBlockRef ld = new_block(g, "vec.ld"), join = new_block(g, "vec.in");
        LLVMBuildCondBr(g->B, bc[k], join, ld);
        LLVMPositionBuilderAtEnd(g->B, ld);
        LLVMValueRef lv[GL_MAXE];
        for (int c = 0; c < bytes / chunk; c++) {
            LLVMValueRef p = byte_gep(g, gbase, c64(g, (int64_t)c * chunk));
            LLVMValueRef v = LLVMBuildLoad2(g->B, vt, p, "");
            LLVMSetAlignment(v, (unsigned)chunk);
            for (int j = 0; j < per; j++)
                lv[c * per + j] = to_param(g, k, LLVMBuildExtractElement(g->B, v, LLVMConstInt(g->i32, (unsigned)j, 0), ""));
        }
        LLVMBasicBlockRef ld_end = LLVMGetInsertBlock(g->B);
        LLVMBuildBr(g->B, join);
        LLVMPositionBuilderAtEnd(g->B, join);
        for (int e = 0; e < E; e++) {
            LLVMValueRef phi = LLVMBuildPhi(g->B, cg_reg_type(g->M, g->core->params[k]), "");
            LLVMValueRef inc[2] = {hoisted[k], lv[e]};
            LLVMBasicBlockRef bbs[2] = {from, ld_end};
            LLVMAddIncoming(phi, inc, bbs, 2);
            vals[k][e] = phi;
        }
    }
    int o = g->nargs - 1, s = ty_size(g->dt[o]);
    int bytes = E * s, chunk = bytes < 16 ? bytes : 16, per = chunk / s;
    LLVMTypeRef vt = LLVMVectorType(cg_mem_type(g->M, g->dt[o]), (unsigned)per);
    LLVMValueRef res[GL_MAXE];
    for (int e = 0; e < E; e++) {
        LLVMValueRef p[GL_MAXARGS];
        for (int k = 0; k < g->nin; k++)
            p[k] = vals[k][e];
        res[e] = call_scalar_core(g, p);
    }
    for (int c = 0; c < bytes / chunk; c++) {
        LLVMValueRef v = LLVMGetUndef(vt);
        for (int j = 0; j < per; j++)
            v = LLVMBuildInsertElement(g->B, v, res[c * per + j], LLVMConstInt(g->i32, (unsigned)j, 0), "");
        LLVMValueRef st = LLVMBuildStore(g->B, v, byte_gep(g, vals[o][0], c64(g, (int64_t)c * chunk)));
        LLVMSetAlignment(st, (unsigned)chunk);
    }
    loop_close(g, &l, g->nthreads, ngroups);
}

static void build_ufunc(GpuGen *g) {
    LLVMBuilderRef B = g->B;
    bool cplx = false; /* the vector path loads vectors of items: a complex is a struct */
    for (int k = 0; k < g->nargs; k++)
        cplx |= ty_is_complex(g->dt[k]);
    if (cplx) {
        general_loop(g, g->gtid, ufunc_elem);
        LLVMBuildRetVoid(B);
        return;
    }
    int E = cg_gpu_loop_group(g->dt, g->nargs);
    LLVMValueRef one_row = LLVMBuildICmp(B, LLVMIntUGE, g->inner, g->n, "one_row");
    LLVMValueRef fast = one_row, aligned = LLVMConstInt(g->i1, 1, 0);
    LLVMValueRef bc[GL_MAXARGS];
    for (int k = 0; k < g->nargs; k++) {
        LLVMValueRef contig = LLVMBuildICmp(B, LLVMIntEQ, g->is[k], c64(g, ty_size(g->dt[k])), "");
        bc[k] = k < g->nin ? LLVMBuildICmp(B, LLVMIntEQ, g->is[k], c64(g, 0), "bcast")
                           : LLVMConstInt(g->i1, 0, 0);
        fast = LLVMBuildAnd(B, fast, LLVMBuildOr(B, contig, bc[k], ""), "");
        LLVMValueRef addr = LLVMBuildPtrToInt(B, g->data[k], g->i64, "");
        LLVMValueRef al = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, addr, c64(g, 15), ""), c64(g, 0), "");
        aligned = LLVMBuildAnd(B, aligned, LLVMBuildOr(B, al, bc[k], ""), "");
    }
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef vpre = new_block(g, "vec.pre"), gen = new_block(g, "general");
    LLVMBuildCondBr(B, LLVMBuildAnd(B, fast, aligned, ""), vpre, gen);
    /* vector path: broadcast inputs loaded once, then groups, then the tail */
    LLVMPositionBuilderAtEnd(B, vpre);
    LLVMValueRef hoisted[GL_MAXARGS];
    for (int k = 0; k < g->nin; k++) {
        LLVMBasicBlockRef from = LLVMGetInsertBlock(B);
        LLVMBasicBlockRef ld = new_block(g, "bc.ld"), join = new_block(g, "bc.in");
        LLVMBuildCondBr(B, bc[k], ld, join);
        LLVMPositionBuilderAtEnd(B, ld);
        LLVMValueRef v = load_param(g, k, g->data[k]);
        LLVMBasicBlockRef ld_end = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, join);
        LLVMPositionBuilderAtEnd(B, join);
        LLVMTypeRef T = cg_reg_type(g->M, g->core->params[k]);
        hoisted[k] = LLVMBuildPhi(B, T, "");
        LLVMValueRef inc[2] = {LLVMGetPoison(T), v};
        LLVMBasicBlockRef bbs[2] = {from, ld_end};
        LLVMAddIncoming(hoisted[k], inc, bbs, 2);
    }
    LLVMValueRef ngroups = LLVMBuildUDiv(B, g->n, c64(g, E), "ngroups");
    vector_loop(g, E, bc, hoisted, ngroups);
    LLVMValueRef tail = LLVMBuildAdd(B, LLVMBuildMul(B, ngroups, c64(g, E), ""), g->gtid, "");
    LLVMBasicBlockRef vend = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, gen);
    /* general path (and the vector path's tail) */
    LLVMPositionBuilderAtEnd(B, gen);
    LLVMValueRef start = LLVMBuildPhi(B, g->i64, "start");
    LLVMValueRef inc[2] = {g->gtid, tail};
    LLVMBasicBlockRef bbs[2] = {entry, vend};
    LLVMAddIncoming(start, inc, bbs, 2);
    general_loop(g, start, ufunc_elem);
    LLVMBuildRetVoid(B);
}

/* ---- gufunc kernels --------------------------------------------------------------------------- */
/* Calls the core with base[k] as argument k's data (generic pointers) or scalar address. */
static void call_gufunc_core(GpuGen *g, LLVMValueRef *base) {
    LLVMValueRef args[1 + GL_MAXARGS * (1 + 2 * NJ_MAX_NDIM)];
    int na = 0, ci = 0;
    args[na++] = g->retp;
    for (int k = 0; k < g->nargs; k++) {
        const Type *t = g->core->params[k];
        if (t->kind != TY_ARRAY) {
            args[na++] = load_param(g, k, base[k]);
            continue;
        }
        LLVMValueRef p = base[k];
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) != 0)
            p = LLVMBuildAddrSpaceCast(g->B, p, g->ptr0, "");
        args[na++] = p;
        LLVMValueRef shp[NJ_MAX_NDIM], str[NJ_MAX_NDIM];
        for (int j = 0, cj = 0; j < t->ndim; j++, ci++) {
            int d = g->cidx[ci];
            shp[j] = d < 0 ? c64(g, 1) : g->dims[d];
            str[j] = d < 0 ? c64(g, 0) : g->cst[k][cj++];
        }
        for (int j = 0; j < t->ndim; j++)
            args[na++] = shp[j];
        for (int j = 0; j < t->ndim; j++)
            args[na++] = str[j];
    }
    LLVMBuildCall2(g->B, g->M->fntys[0], g->M->fns[0], args, (unsigned)na, "");
}

/* Core dimensions of argument k that the layout gives (cidx >= 0), and its element count. */
static LLVMValueRef core_elems(GpuGen *g, int k, int *ncd) {
    const Type *t = g->core->params[k];
    int ci = 0;
    for (int j = 0; j < k; j++)
        ci += g->core->params[j]->kind == TY_ARRAY ? g->core->params[j]->ndim : 0;
    LLVMValueRef e = c64(g, 1);
    *ncd = 0;
    for (int j = 0; t->kind == TY_ARRAY && j < t->ndim; j++)
        if (g->cidx[ci + j] >= 0) {
            e = LLVMBuildMul(g->B, e, g->dims[g->cidx[ci + j]], "");
            (*ncd)++;
        }
    return e;
}

/* Row pitch in shared memory: the row's bytes rounded up to an odd number of words (4 bytes,
 * or the item size when larger).  The host computes the same (runtime/gpu_ufunc.c). */
static LLVMValueRef stage_pitch(GpuGen *g, int k, LLVMValueRef elems) {
    int s = ty_size(g->dt[k]), unit = s > 4 ? s : 4;
    LLVMValueRef bytes = LLVMBuildMul(g->B, elems, c64(g, s), "");
    LLVMValueRef words = LLVMBuildUDiv(g->B, LLVMBuildAdd(g->B, bytes, c64(g, unit - 1), ""), c64(g, unit), "");
    words = LLVMBuildOr(g->B, words, c64(g, 1), ""); /* odd */
    return LLVMBuildMul(g->B, words, c64(g, unit), "pitch");
}

/* ---- gufunc tiles ------------------------------------------------------------------------------
 * The `staged` word (codegen.h): bits 0..15 stage argument k; bits 16..27 the tile's rows T
 * (0: blockDim.x); GL_ST_VEC lets copies move 16-byte chunks; GL_ST_ASYNC (sm_80 and newer)
 * copies inputs with cp.async into two buffers, the next tile in flight while the current one
 * runs.  Shared memory per block: (ASYNC ? 2 : 1) * sum over staged k of T * pitch_k rounded
 * up to 16; buffer b holds the staged arguments' tiles in argument order (each 16-aligned),
 * argument k's T rows pitch_k apart. */
#define GL_ST_ARGBITS 16
#define GL_ST_TSHIFT 16
#define GL_ST_TMASK 0xfffu
#define GL_ST_VEC (1u << 28)
#define GL_ST_ASYNC (1u << 29)

/* Whether argument k can be staged at all: an array with at least one core dimension. */
static bool is_staged_kind(GpuGen *g, int k) {
    const Type *t = g->core->params[k];
    if (k >= GL_ST_ARGBITS || t->kind != TY_ARRAY)
        return false;
    int ncd = 0, ci = 0;
    for (int j = 0; j < k; j++)
        ci += g->core->params[j]->kind == TY_ARRAY ? g->core->params[j]->ndim : 0;
    for (int j = 0; j < t->ndim; j++)
        ncd += g->cidx[ci + j] >= 0;
    return ncd > 0;
}

typedef struct Stage {  /* one stageable argument (on == NULL: not stageable) */
    LLVMValueRef on;    /* i1: staged in this launch */
    LLVMValueRef pitch; /* i32: bytes between its rows in shared memory */
    LLVMValueRef rowb;  /* i32: the core's bytes */
    LLVMValueRef off;   /* i32: its tile's offset in a buffer */
    LLVMValueRef w16;   /* i1: 16-byte chunks (VEC, rows a multiple of 16, 16-aligned data) */
    LLVMValueRef acp;   /* i1: cp.async of acs bytes (ASYNC, rows and data aligned to acs) */
    int acs;
} Stage;

typedef struct Tiles {
    LLVMValueRef sh;            /* the dynamic shared array, addrspace(3) */
    LLVMValueRef tid, ntid;     /* i32 */
    Stage s[GL_MAXARGS];
    unsigned all_mask, in_mask; /* stageable arguments, stageable inputs */
} Tiles;

static LLVMValueRef c32(GpuGen *g, int64_t v) { return LLVMConstInt(g->i32, (unsigned long long)v, 1); }

static LLVMValueRef intrinsic_call(GpuGen *g, const char *name, LLVMValueRef *args, unsigned n) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->M->mod, id, NULL, 0);
    return LLVMBuildCall2(g->B, LLVMGlobalGetValueType(f), f, args, n, "");
}

/* (r, c) advanced by (dr, dc) within rows of cpr chunks (dc < cpr, c < cpr). */
static void rc_advance(GpuGen *g, LLVMValueRef *r, LLVMValueRef *c, LLVMValueRef dr, LLVMValueRef dc,
                       LLVMValueRef cpr) {
    LLVMBuilderRef B = g->B;
    LLVMValueRef nc = LLVMBuildAdd(B, *c, dc, ""), nr = LLVMBuildAdd(B, *r, dr, "");
    LLVMValueRef wrap = LLVMBuildICmp(B, LLVMIntUGE, nc, cpr, "");
    *c = LLVMBuildSelect(B, wrap, LLVMBuildSub(B, nc, cpr, ""), nc, "");
    *r = LLVMBuildSelect(B, wrap, LLVMBuildAdd(B, nr, c32(g, 1), ""), nr, "");
}

typedef enum CopyKind { CK_IN, CK_OUT, CK_ASYNC } CopyKind;

/* Moves cnt rows of argument k between global memory (rows packed from gbase) and its tile at
 * sbase (rows s->pitch apart) by the whole block, in chunks of W bytes: thread tid takes chunks
 * tid, tid + ntid, ... (consecutive threads, consecutive addresses), chunk e being row e / cpr,
 * column e % cpr, both advanced without dividing; U chunks per thread in flight.  CK_IN and
 * CK_OUT go through registers (a 16-byte chunk is one global vector access and pieces of the
 * pitch's alignment in shared memory); CK_ASYNC issues cp.async of W bytes. */
static void tile_copy(GpuGen *g, const Tiles *t, int k, LLVMValueRef gbase, LLVMValueRef sbase,
                      LLVMValueRef cnt, int W, CopyKind kind) {
    LLVMBuilderRef B = g->B;
    const Stage *s = &t->s[k];
    int sz = ty_size(g->dt[k]), unit = sz > 4 ? sz : 4;
    int piece = W == sz ? sz : unit < W ? unit : W;
    if (piece > 8)
        piece = 8;
    int galign = W == sz ? (sz < 8 ? sz : 8) : W;
    int npc = W / piece;
    int U = kind == CK_ASYNC ? 4 : W >= 16 ? 4 : 8;
    LLVMTypeRef pt = LLVMIntTypeInContext(g->M->ctx, (unsigned)piece * 8);
    LLVMTypeRef vt = npc > 1 ? LLVMVectorType(pt, (unsigned)npc) : pt;
    LLVMValueRef cpr = LLVMBuildUDiv(B, s->rowb, c32(g, W), "cpr");
    LLVMValueRef total = LLVMBuildMul(B, cnt, cpr, "chunks");
    LLVMValueRef r0 = LLVMBuildUDiv(B, t->tid, cpr, "");
    LLVMValueRef c0 = LLVMBuildSub(B, t->tid, LLVMBuildMul(B, r0, cpr, ""), "");
    LLVMValueRef dr = LLVMBuildUDiv(B, t->ntid, cpr, "");
    LLVMValueRef dc = LLVMBuildSub(B, t->ntid, LLVMBuildMul(B, dr, cpr, ""), "");
    LLVMValueRef step = LLVMBuildMul(B, t->ntid, c32(g, U), "");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef body = new_block(g, kind == CK_OUT ? "tile.out" : "tile.in");
    LLVMBasicBlockRef exit = new_block(g, "tile.cp.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, t->tid, total, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef e = LLVMBuildPhi(B, g->i32, "e"), r = LLVMBuildPhi(B, g->i32, "r"),
                 c = LLVMBuildPhi(B, g->i32, "c");
    LLVMValueRef tid = t->tid;
    LLVMAddIncoming(e, &tid, &pre, 1);
    LLVMAddIncoming(r, &r0, &pre, 1);
    LLVMAddIncoming(c, &c0, &pre, 1);
    LLVMValueRef ok[8], sp[8], gp[8], v[8];
    LLVMValueRef eu = e, ru = r, cu = c;
    for (int u = 0; u < U; u++) {
        if (u) {
            eu = LLVMBuildAdd(B, eu, t->ntid, "");
            rc_advance(g, &ru, &cu, dr, dc, cpr);
        }
        ok[u] = LLVMBuildICmp(B, LLVMIntULT, eu, total, "");
        LLVMValueRef soff = LLVMBuildAdd(B, LLVMBuildMul(B, ru, s->pitch, ""), LLVMBuildMul(B, cu, c32(g, W), ""), "");
        LLVMValueRef goff = LLVMBuildMul(B, eu, c32(g, W), "");
        /* past the end: chunk 0 (in bounds; loads then stay harmless, stores are skipped) */
        soff = LLVMBuildSelect(B, ok[u], soff, c32(g, 0), "");
        goff = LLVMBuildSelect(B, ok[u], goff, c32(g, 0), "");
        sp[u] = LLVMBuildGEP2(B, g->i8, sbase, &soff, 1, "");
        gp[u] = byte_gep(g, gbase, LLVMBuildZExt(B, goff, g->i64, ""));
        if (kind == CK_IN) {
            v[u] = LLVMBuildLoad2(B, vt, gp[u], "");
            LLVMSetAlignment(v[u], (unsigned)galign);
        } else if (kind == CK_OUT) {
            LLVMValueRef vv = npc > 1 ? LLVMGetUndef(vt) : NULL;
            for (int j = 0; j < npc; j++) {
                LLVMValueRef o = c32(g, (int64_t)j * piece);
                LLVMValueRef x = LLVMBuildLoad2(B, pt, LLVMBuildGEP2(B, g->i8, sp[u], &o, 1, ""), "");
                LLVMSetAlignment(x, (unsigned)piece);
                vv = npc > 1 ? LLVMBuildInsertElement(B, vv, x, c32(g, j), "") : x;
            }
            v[u] = vv;
        }
    }
    for (int u = 0; u < U; u++) {
        LLVMBasicBlockRef st = new_block(g, "tile.st"), next = new_block(g, "tile.next");
        LLVMBuildCondBr(B, ok[u], st, next);
        LLVMPositionBuilderAtEnd(B, st);
        if (kind == CK_ASYNC) {
            char name[64];
            snprintf(name, sizeof name, "llvm.nvvm.cp.async.%s.shared.global.%d", W == 16 ? "cg" : "ca", W);
            LLVMValueRef a[2] = {sp[u], gp[u]};
            intrinsic_call(g, name, a, 2);
        } else if (kind == CK_IN) {
            for (int j = 0; j < npc; j++) {
                LLVMValueRef o = c32(g, (int64_t)j * piece);
                LLVMValueRef x = npc > 1 ? LLVMBuildExtractElement(B, v[u], c32(g, j), "") : v[u];
                LLVMValueRef st1 = LLVMBuildStore(B, x, LLVMBuildGEP2(B, g->i8, sp[u], &o, 1, ""));
                LLVMSetAlignment(st1, (unsigned)piece);
            }
        } else {
            LLVMValueRef st1 = LLVMBuildStore(B, v[u], gp[u]);
            LLVMSetAlignment(st1, (unsigned)galign);
        }
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
    }
    LLVMValueRef ne = LLVMBuildAdd(B, e, step, "");
    rc_advance(g, &ru, &cu, dr, dc, cpr);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMAddIncoming(e, &ne, &latch, 1);
    LLVMAddIncoming(r, &ru, &latch, 1);
    LLVMAddIncoming(c, &cu, &latch, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, ne, total, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, exit);
}

/* if (cond) { ... }: if_open leaves the builder in the then-block and returns the join block,
 * which if_close branches to and continues in. */
static LLVMBasicBlockRef if_open(GpuGen *g, LLVMValueRef cond, const char *name) {
    LLVMBasicBlockRef then = new_block(g, name), join = new_block(g, "endif");
    LLVMBuildCondBr(g->B, cond, then, join);
    LLVMPositionBuilderAtEnd(g->B, then);
    return join;
}

static void if_close(GpuGen *g, LLVMBasicBlockRef join) {
    LLVMBuildBr(g->B, join);
    LLVMPositionBuilderAtEnd(g->B, join);
}

/* Argument k's tile in buffer bofs (i32 byte offset) of rows i0 .. i0 + cnt - 1, copied in
 * (async: by cp.async where its alignment allows) or out; nothing when k is not staged. */
static void tile_copy_arg(GpuGen *g, const Tiles *t, int k, LLVMValueRef bofs, LLVMValueRef i0,
                          LLVMValueRef cnt, bool in, bool async) {
    LLVMBuilderRef B = g->B;
    const Stage *s = &t->s[k];
    int sz = ty_size(g->dt[k]);
    LLVMBasicBlockRef join = if_open(g, s->on, "tile.arg");
    LLVMValueRef gbase = byte_gep(g, g->data[k], LLVMBuildMul(B, i0, g->is[k], ""));
    LLVMValueRef so = LLVMBuildZExt(B, LLVMBuildAdd(B, bofs, s->off, ""), g->i64, "");
    LLVMValueRef sbase = LLVMBuildGEP2(B, g->i8, t->sh, &so, 1, "");
    CopyKind kind = in ? CK_IN : CK_OUT;
    if (async && in) {
        LLVMBasicBlockRef a = new_block(g, "tile.async"), rg = new_block(g, "tile.reg"),
                          done = new_block(g, "tile.arg.done");
        LLVMBuildCondBr(B, s->acp, a, rg);
        LLVMPositionBuilderAtEnd(B, a);
        tile_copy(g, t, k, gbase, sbase, cnt, s->acs, CK_ASYNC);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, rg); /* misaligned rows: items through registers */
        tile_copy(g, t, k, gbase, sbase, cnt, sz, kind);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, done);
    } else if (sz < 16) {
        LLVMBasicBlockRef v = new_block(g, "tile.v16"), it = new_block(g, "tile.item"),
                          done = new_block(g, "tile.arg.done");
        LLVMBuildCondBr(B, s->w16, v, it);
        LLVMPositionBuilderAtEnd(B, v);
        tile_copy(g, t, k, gbase, sbase, cnt, 16, kind);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, it);
        tile_copy(g, t, k, gbase, sbase, cnt, sz, kind);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, done);
    } else {
        tile_copy(g, t, k, gbase, sbase, cnt, sz, kind);
    }
    if_close(g, join);
}

static void tile_copy_all(GpuGen *g, const Tiles *t, LLVMValueRef bofs, LLVMValueRef i0,
                          LLVMValueRef cnt, bool in, bool async) {
    for (int k = in ? 0 : g->nin; k < (in ? g->nin : g->nargs); k++)
        if (t->s[k].on)
            tile_copy_arg(g, t, k, bofs, i0, cnt, in, async);
}

/* Each thread runs the core on rows tid, tid + ntid, ... < cnt of the tile in buffer bofs.
 * Staged arguments are passed as pointers into shared memory: the core is inlined once for
 * every stageable argument staged, once for the stageable inputs only (when that differs), so
 * that their loads and stores are ld.shared/st.shared, and once with generic pointers chosen
 * per argument for any other mask. */
static void tile_compute(GpuGen *g, const Tiles *t, LLVMValueRef bofs, LLVMValueRef i0, LLVMValueRef cnt) {
    LLVMBuilderRef B = g->B;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef body = new_block(g, "tile.row"), exit = new_block(g, "tile.rows.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, t->tid, cnt, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef r = LLVMBuildPhi(B, g->i32, "row"), tid = t->tid;
    LLVMAddIncoming(r, &tid, &pre, 1);
    LLVMValueRef i = LLVMBuildAdd(B, i0, LLVMBuildZExt(B, r, g->i64, ""), "");
    LLVMValueRef gp[GL_MAXARGS], sp[GL_MAXARGS] = {0};
    for (int k = 0; k < g->nargs; k++) {
        gp[k] = byte_gep(g, g->data[k], LLVMBuildMul(B, i, g->is[k], ""));
        if (!t->s[k].on)
            continue;
        LLVMValueRef so = LLVMBuildAdd(B, LLVMBuildAdd(B, bofs, t->s[k].off, ""),
                                       LLVMBuildMul(B, r, t->s[k].pitch, ""), "");
        so = LLVMBuildZExt(B, so, g->i64, "");
        sp[k] = LLVMBuildGEP2(B, g->i8, t->sh, &so, 1, "");
    }
    LLVMValueRef mask = LLVMBuildAnd(B, g->staged, LLVMConstInt(g->i32, t->all_mask, 0), "");
    unsigned masks[2] = {t->all_mask, t->in_mask};
    int nm = t->in_mask && t->in_mask != t->all_mask ? 2 : 1;
    LLVMBasicBlockRef join = new_block(g, "tile.row.done");
    for (int m = 0; m < nm && t->all_mask; m++) {
        LLVMBasicBlockRef yes = new_block(g, "tile.core.sh"), no = new_block(g, "tile.core.next");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, mask, LLVMConstInt(g->i32, masks[m], 0), ""), yes, no);
        LLVMPositionBuilderAtEnd(B, yes);
        LLVMValueRef base[GL_MAXARGS];
        for (int k = 0; k < g->nargs; k++)
            base[k] = (masks[m] >> k) & 1 ? sp[k] : gp[k];
        call_gufunc_core(g, base);
        LLVMBuildBr(B, join);
        LLVMPositionBuilderAtEnd(B, no);
    }
    { /* any other mask: generic pointers */
        LLVMValueRef base[GL_MAXARGS];
        for (int k = 0; k < g->nargs; k++) {
            base[k] = gp[k];
            if (!t->s[k].on)
                continue;
            LLVMValueRef a = LLVMBuildAddrSpaceCast(B, sp[k], g->ptr0, "");
            LLVMValueRef b = LLVMBuildAddrSpaceCast(B, gp[k], g->ptr0, "");
            base[k] = LLVMBuildSelect(B, t->s[k].on, a, b, "");
        }
        call_gufunc_core(g, base);
        LLVMBuildBr(B, join);
    }
    LLVMPositionBuilderAtEnd(B, join);
    LLVMValueRef nr = LLVMBuildAdd(B, r, t->ntid, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMAddIncoming(r, &nr, &latch, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, nr, cnt, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, exit);
}

/* min(T, n - i0) as i32 (i0 < n). */
static LLVMValueRef tile_rows(GpuGen *g, LLVMValueRef T64, LLVMValueRef i0) {
    LLVMValueRef rest = LLVMBuildSub(g->B, g->n, i0, "");
    LLVMValueRef cnt = LLVMBuildSelect(g->B, LLVMBuildICmp(g->B, LLVMIntULT, rest, T64, ""), rest, T64, "");
    return LLVMBuildTrunc(g->B, cnt, g->i32, "cnt");
}

static void build_gufunc_tiles(GpuGen *g) {
    LLVMBuilderRef B = g->B;
    Tiles t;
    memset(&t, 0, sizeof t);
    t.sh = LLVMGetNamedGlobal(g->M->mod, GL_STAGE_SYM);
    if (!t.sh) {
        t.sh = LLVMAddGlobalInAddressSpace(g->M->mod, LLVMArrayType2(g->i8, 0), GL_STAGE_SYM, 3);
        LLVMSetLinkage(t.sh, LLVMExternalLinkage);
        LLVMSetAlignment(t.sh, 16);
    }
    t.tid = LLVMBuildTrunc(B, g->tid, g->i32, "tid32");
    t.ntid = LLVMBuildTrunc(B, g->ntid, g->i32, "ntid32");
    LLVMValueRef T = LLVMBuildAnd(B, LLVMBuildLShr(B, g->staged, c32(g, GL_ST_TSHIFT), ""), c32(g, GL_ST_TMASK), "");
    T = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, T, c32(g, 0), ""), t.ntid, T, "T");
    LLVMValueRef T64 = LLVMBuildZExt(B, T, g->i64, "");
    LLVMValueRef vec = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, g->staged, c32(g, GL_ST_VEC), ""), c32(g, 0), "vec");
    LLVMValueRef async = g->async_ok ? LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, g->staged, c32(g, GL_ST_ASYNC), ""), c32(g, 0), "async")
                                     : LLVMConstInt(g->i1, 0, 0);
    LLVMValueRef off = c32(g, 0);
    for (int k = 0; k < g->nargs; k++) {
        if (!is_staged_kind(g, k))
            continue;
        Stage *s = &t.s[k];
        int ncd, sz = ty_size(g->dt[k]), unit = sz > 4 ? sz : 4;
        LLVMValueRef elems = core_elems(g, k, &ncd);
        s->on = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, g->staged, c32(g, 1u << k), ""), c32(g, 0), "");
        s->pitch = LLVMBuildTrunc(B, stage_pitch(g, k, elems), g->i32, "");
        s->rowb = LLVMBuildTrunc(B, LLVMBuildMul(B, elems, c64(g, sz), ""), g->i32, "rowb");
        s->off = off;
        LLVMValueRef region = LLVMBuildAnd(B, LLVMBuildAdd(B, LLVMBuildMul(B, T, s->pitch, ""), c32(g, 15), ""), c32(g, ~(int64_t)15), "");
        off = LLVMBuildAdd(B, off, LLVMBuildSelect(B, s->on, region, c32(g, 0), ""), "");
        LLVMValueRef addr = LLVMBuildPtrToInt(B, g->data[k], g->i64, "");
        LLVMValueRef rowb64 = LLVMBuildZExt(B, s->rowb, g->i64, "");
        /* rows packed (istride == rowb), so every tile starts as aligned as data */
        LLVMValueRef a16 = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, LLVMBuildOr(B, addr, rowb64, ""), c64(g, 15), ""), c64(g, 0), "");
        s->w16 = LLVMBuildAnd(B, vec, a16, "w16");
        s->acs = unit < 16 ? unit : 16;
        LLVMValueRef aa = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, LLVMBuildOr(B, addr, rowb64, ""), c64(g, s->acs - 1), ""), c64(g, 0), "");
        s->acp = LLVMBuildAnd(B, async, aa, "acp");
        t.all_mask |= 1u << k;
        if (k < g->nin)
            t.in_mask |= 1u << k;
    }
    LLVMValueRef bufstride = off;
    LLVMValueRef t0 = LLVMBuildMul(B, sreg(g, "ctaid.x"), T64, "");
    LLVMValueRef tstep = LLVMBuildMul(B, sreg(g, "nctaid.x"), T64, "");
    bool any_out = t.all_mask != t.in_mask;
    LLVMBasicBlockRef sync_pre = new_block(g, "tiles.sync"), async_pre = new_block(g, "tiles.async");
    LLVMBuildCondBr(B, async, async_pre, sync_pre);

    /* synchronous: copy in, barrier, rows, barrier, copy out (the next copy in writes only the
     * input tiles, read before the second barrier; outputs are written after the next first) */
    LLVMPositionBuilderAtEnd(B, sync_pre);
    {
        GLoop l = loop_open(g, t0, g->n, "tile");
        LLVMValueRef cnt = tile_rows(g, T64, l.i);
        tile_copy_all(g, &t, c32(g, 0), l.i, cnt, true, false);
        barrier(g);
        tile_compute(g, &t, c32(g, 0), l.i, cnt);
        barrier(g);
        if (any_out)
            tile_copy_all(g, &t, c32(g, 0), l.i, cnt, false, false);
        loop_close(g, &l, tstep, g->n);
        LLVMBuildRetVoid(B);
    }

    /* cp.async, two buffers: tile i's inputs were issued one iteration earlier (the first
     * iteration issues its own too); issue tile i + 1's into the other buffer (whose last
     * readers passed the previous iteration's second barrier), one commit group per tile, wait
     * for all groups but the newest, barrier, rows, barrier, copy out.  The issuing code is
     * emitted once: a two-trip loop over q (tile i0 + q * tstep into buffer q), from q = 0 on
     * the first iteration and q = 1 after. */
    LLVMPositionBuilderAtEnd(B, async_pre);
    if (g->async_ok) {
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
        LLVMBasicBlockRef body = new_block(g, "atile"), exit = new_block(g, "atile.exit");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, t0, g->n, ""), body, exit);
        LLVMPositionBuilderAtEnd(B, body);
        LLVMValueRef i0 = LLVMBuildPhi(B, g->i64, "i0"), bofs = LLVMBuildPhi(B, g->i32, "bofs");
        LLVMValueRef q0 = LLVMBuildPhi(B, g->i32, "q0");
        LLVMValueRef zero = c32(g, 0), one = c32(g, 1);
        LLVMAddIncoming(i0, &t0, &pre, 1);
        LLVMAddIncoming(bofs, &zero, &pre, 1);
        LLVMAddIncoming(q0, &zero, &pre, 1);
        LLVMValueRef nx = LLVMBuildAdd(B, i0, tstep, "next");
        LLVMValueRef nbofs = LLVMBuildSub(B, bufstride, bofs, "nbofs");
        /* issue */
        LLVMBasicBlockRef ipre = LLVMGetInsertBlock(B), ib = new_block(g, "issue");
        LLVMBasicBlockRef iexit = new_block(g, "issue.done");
        LLVMBuildBr(B, ib);
        LLVMPositionBuilderAtEnd(B, ib);
        LLVMValueRef q = LLVMBuildPhi(B, g->i32, "q");
        LLVMAddIncoming(q, &q0, &ipre, 1);
        LLVMValueRef second = LLVMBuildICmp(B, LLVMIntNE, q, zero, "");
        LLVMValueRef idx = LLVMBuildSelect(B, second, nx, i0, "");
        LLVMValueRef bo = LLVMBuildSelect(B, second, nbofs, bofs, "");
        LLVMBasicBlockRef have = if_open(g, LLVMBuildICmp(B, LLVMIntULT, idx, g->n, ""), "issue.tile");
        tile_copy_all(g, &t, bo, idx, tile_rows(g, T64, idx), true, true);
        if_close(g, have);
        intrinsic_call(g, "llvm.nvvm.cp.async.commit.group", NULL, 0);
        LLVMValueRef nq = LLVMBuildAdd(B, q, one, "");
        LLVMBasicBlockRef ilatch = LLVMGetInsertBlock(B);
        LLVMAddIncoming(q, &nq, &ilatch, 1);
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, nq, c32(g, 2), ""), ib, iexit);
        LLVMPositionBuilderAtEnd(B, iexit);
        /* this tile */
        intrinsic_call(g, "llvm.nvvm.cp.async.wait.group", &one, 1);
        barrier(g);
        LLVMValueRef cnt = tile_rows(g, T64, i0);
        tile_compute(g, &t, bofs, i0, cnt);
        barrier(g);
        if (any_out)
            tile_copy_all(g, &t, bofs, i0, cnt, false, false);
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
        LLVMAddIncoming(i0, &nx, &latch, 1);
        LLVMAddIncoming(bofs, &nbofs, &latch, 1);
        LLVMAddIncoming(q0, &one, &latch, 1);
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, nx, g->n, ""), body, exit);
        LLVMPositionBuilderAtEnd(B, exit);
    }
    LLVMBuildRetVoid(B);
}

static void build_gufunc(GpuGen *g) {
    LLVMBuilderRef B = g->B;
    LLVMBasicBlockRef tiles = new_block(g, "tiles"), direct = new_block(g, "direct");
    LLVMValueRef args = LLVMBuildAnd(B, g->staged, c32(g, (1u << GL_ST_ARGBITS) - 1), "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, args, c32(g, 0), ""), tiles, direct);
    LLVMPositionBuilderAtEnd(B, direct);
    general_loop(g, g->gtid, call_gufunc_core);
    LLVMBuildRetVoid(B);
    LLVMPositionBuilderAtEnd(B, tiles);
    build_gufunc_tiles(g);
}

/* ---- the kernel --------------------------------------------------------------------------- */
typedef struct GpuLoopReq {
    const Type *const *dt;
    int nargs, nout, ncore;
    const int *cidx;
    const char *arch;
} GpuLoopReq;

static bool check_req(const IrProgram *p, const GpuLoopReq *r, char **err) {
    const IrFunc *f = p->nfuncs > 0 ? p->funcs[0] : NULL;
    const char *why = NULL;
    if (!f)
        why = "empty program";
    else if (r->nargs < 2 || r->nargs > GL_MAXARGS || r->nout < 1)
        why = "bad number of kernel arguments";
    else if (f->kind == IRF_SCALAR) {
        if (r->nout != 1 || f->nparams != r->nargs - 1 || !ty_is_elem(f->ret))
            why = "a ufunc core takes nargs - 1 scalars and returns one";
        for (int k = 0; !why && k < r->nargs; k++)
            if (!r->dt[k] || !ty_is_elem(r->dt[k]) || (k < r->nargs - 1 && !ty_is_elem(f->params[k])))
                why = "ufunc arguments must be scalars";
    } else if (f->kind == IRF_GUFUNC) {
        if (f->nparams != r->nargs || !r->cidx || r->ncore < 0 || r->ncore > GL_MAXCORE)
            why = "a gufunc core takes every argument, and needs core_dim_index";
        int ci = 0;
        for (int k = 0; !why && k < r->nargs; k++) {
            const Type *t = f->params[k];
            const Type *d = t->kind == TY_ARRAY ? t->dtype : t;
            if (!r->dt[k] || d != r->dt[k] || t->ndim > NJ_MAX_NDIM)
                why = "gufunc argument dtypes must equal the parameters' dtypes";
            for (int j = 0; !why && t->kind == TY_ARRAY && j < t->ndim; j++, ci++)
                if (r->cidx[ci] >= r->ncore)
                    why = "core_dim_index out of range";
        }
    } else {
        why = "the program's entry is neither a ufunc nor a gufunc core";
    }
    if (why) {
        *err = strdup(why);
        return false;
    }
    return true;
}

/* Builds the kernel into M (after cg_lower_program): the ptx.c pipeline's finishing step. */
static bool gpu_finish(CgModule *M, void *arg) {
    const GpuLoopReq *r = arg;
    const IrFunc *core = M->prog->funcs[0];
    /* libdevice rewrites, and funcs[0] exported by its name: take the name back for the kernel */
    if (!cg_nvptx_finish(M))
        return false;
    char body[512];
    snprintf(body, sizeof body, "%.400s.core", core->name);
    LLVMSetValueName2(M->fns[0], body, strlen(body));
    LLVMSetLinkage(M->fns[0], LLVMInternalLinkage);
    cg_add_fn_attr(M, M->fns[0], "alwaysinline");
    if (LLVMGetNamedFunction(M->mod, core->name) || LLVMGetNamedGlobal(M->mod, core->name)) {
        cg_module_error(M, "kernel '%s': the name is taken by another symbol", core->name);
        return false;
    }
    LLVMContextRef C = M->ctx;
    GpuGen g = {.M = M, .core = core, .nargs = r->nargs, .dt = r->dt, .cidx = r->cidx,
                .ncore = core->kind == IRF_GUFUNC ? r->ncore : 0};
    g.async_ok = r->arch && !strncmp(r->arch, "sm_", 3) && atoi(r->arch + 3) >= 80;
    g.nin = r->nargs - r->nout;
    g.i1 = LLVMInt1TypeInContext(C);
    g.i8 = LLVMInt8TypeInContext(C);
    g.i32 = LLVMInt32TypeInContext(C);
    g.i64 = LLVMInt64TypeInContext(C);
    g.gptr = LLVMPointerTypeInContext(C, 1);
    g.ptr0 = LLVMPointerTypeInContext(C, 0);
    bool gu = core->kind == IRF_GUFUNC;
    /* parameters: n, inner, [staged, dims...], per argument data, istride, ostride[, core strides] */
    LLVMTypeRef pt[4 + GL_MAXCORE + GL_MAXARGS * (3 + NJ_MAX_NDIM)];
    int np = 0, ncs[GL_MAXARGS] = {0};
    pt[np++] = g.i64;
    pt[np++] = g.i64;
    if (gu) {
        pt[np++] = g.i32;
        for (int d = 0; d < g.ncore; d++)
            pt[np++] = g.i64;
    }
    for (int k = 0, ci = 0; k < r->nargs; k++) {
        pt[np++] = g.gptr;
        pt[np++] = g.i64;
        pt[np++] = g.i64;
        const Type *t = core->params[k];
        for (int j = 0; gu && t->kind == TY_ARRAY && j < t->ndim; j++, ci++)
            if (r->cidx[ci] >= 0) {
                pt[np++] = g.i64;
                ncs[k]++;
            }
    }
    g.fn = LLVMAddFunction(M->mod, core->name, LLVMFunctionType(LLVMVoidTypeInContext(C), pt, (unsigned)np, false));
    LLVMSetFunctionCallConv(g.fn, LLVMPTXKernelCallConv);
    cg_add_fn_attr(M, g.fn, "nounwind");
    LLVMMetadataRef md[3] = {LLVMValueAsMetadata(g.fn), LLVMMDStringInContext2(C, "kernel", 6),
                             LLVMValueAsMetadata(LLVMConstInt(g.i32, 1, 0))};
    LLVMAddNamedMetadataOperand(M->mod, "nvvm.annotations",
                                LLVMMetadataAsValue(C, LLVMMDNodeInContext2(C, md, 3)));
    if (core->fastmath || (M->opt && M->opt->fastmath)) {
        static const char *const kv[][2] = {
            {"unsafe-fp-math", "true"}, {"no-infs-fp-math", "true"}, {"no-nans-fp-math", "true"},
            {"no-signed-zeros-fp-math", "true"}, {"denormal-fp-math-f32", "preserve-sign,preserve-sign"}};
        for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
            LLVMAddAttributeAtIndex(g.fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(C, kv[i][0], (unsigned)strlen(kv[i][0]),
                                                              kv[i][1], (unsigned)strlen(kv[i][1])));
    }
    unsigned pi = 0;
    g.n = LLVMGetParam(g.fn, pi++);
    g.inner = LLVMGetParam(g.fn, pi++);
    LLVMSetValueName2(g.n, "n", 1);
    LLVMSetValueName2(g.inner, "inner", 5);
    if (gu) {
        g.staged = LLVMGetParam(g.fn, pi++);
        LLVMSetValueName2(g.staged, "staged", 6);
        for (int d = 0; d < g.ncore; d++)
            g.dims[d] = LLVMGetParam(g.fn, pi++);
    }
    for (int k = 0; k < r->nargs; k++) {
        char nm[32];
        g.data[k] = LLVMGetParam(g.fn, pi++);
        snprintf(nm, sizeof nm, "data%d", k);
        LLVMSetValueName2(g.data[k], nm, strlen(nm));
        g.is[k] = LLVMGetParam(g.fn, pi++);
        g.os[k] = LLVMGetParam(g.fn, pi++);
        for (int j = 0; j < ncs[k]; j++)
            g.cst[k][j] = LLVMGetParam(g.fn, pi++);
    }
    g.B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(g.B, LLVMAppendBasicBlockInContext(C, g.fn, "entry"));
    g.retp = LLVMBuildAlloca(g.B, gu ? g.i64 : cg_mem_type(M, core->ret), "ret");
    g.tid = sreg(&g, "tid.x");
    g.ntid = sreg(&g, "ntid.x");
    g.gtid = LLVMBuildAdd(g.B, LLVMBuildMul(g.B, sreg(&g, "ctaid.x"), g.ntid, ""), g.tid, "gtid");
    g.nthreads = LLVMBuildMul(g.B, sreg(&g, "nctaid.x"), g.ntid, "nthreads");
    if (gu)
        build_gufunc(&g);
    else
        build_ufunc(&g);
    LLVMDisposeBuilder(g.B);
    return !M->err;
}

char *cg_emit_gpu_loop_ptx_ex(const IrProgram *p, const Type *const *arg_dtypes, int nargs,
                              int nout, const int *core_dim_index, int ncore, const char *arch,
                              int max_ptx, bool llvm_ir, const CgOptions *opt, char **err) {
    *err = NULL;
    GpuLoopReq r = {.dt = arg_dtypes, .nargs = nargs, .nout = nout, .ncore = ncore,
                    .cidx = core_dim_index, .arch = arch};
    if (!p || !check_req(p, &r, err))
        return NULL;
    return cg_ptx_build(p, arch, max_ptx, llvm_ir, opt, gpu_finish, &r, err);
}

char *cg_emit_gpu_loop_ptx(const IrProgram *p, const Type *const *arg_dtypes, int nargs,
                           int nout, const int *core_dim_index, int ncore, const char *arch,
                           int max_ptx, const CgOptions *opt, char **err) {
    return cg_emit_gpu_loop_ptx_ex(p, arg_dtypes, nargs, nout, core_dim_index, ncore, arch,
                                   max_ptx, false, opt, err);
}

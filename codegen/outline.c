/* outline.c — the top-level loops of a long CPU function move into functions of their own, so
 * that LLVM's per-function passes see bounded functions and compile time grows linearly.
 *
 * Many of LLVM's function passes are superlinear in the size of one function: InstCombine's
 * known-bits queries walk every dominating condition on a value (every loop of a function tests
 * the same `n > 0`), LoopRotate, LoopUnroll and LoopDeletion update a dominator tree as deep as
 * the function is long, and so do SROA and instruction selection.  A function of n loops then
 * compiles in O(n^2); n functions of one loop each compile in O(n).  cg_outline_loops runs on
 * the freshly lowered function (variables still in allocas, before any optimization) and, when
 * the function is long, replaces each top-level loop by a call of an internal, noinline function
 * that holds the loop's blocks.
 *
 * Algorithm: number the blocks, take the reverse postorder and the dominator tree (Cooper,
 * Harvey and Kennedy's iteration), find the back edges (a retreating edge u → h where h
 * dominates u) and the natural loop of each header; the loops whose header lies in no other
 * loop are the top-level ones.  A loop is outlined when it is
 *   - single-exit: every edge leaving it goes to one block, which has no phi,
 *   - closed: no value it defines is used outside it, and it holds no `ret`,
 *   - entered without phis (its header has none; lowering emits few phis before mem2reg).
 * The values it uses from outside (instructions of the rest of the function and parameters)
 * become parameters of the new function.  An alloca of the entry block that the loop only loads
 * and stores (not volatile) is passed by value into a local alloca of the new function, and
 * returned (a field of the result struct) when the loop stores it, so that mem2reg promotes it
 * on both sides as before (the loop sees the constants its variables start from); only what
 * the rest of the function may read is returned (read_outside); any other alloca is passed as
 * its pointer.  Back edges inside a moved region turn runtime unrolling off
 * (no_runtime_unroll).  Parameters of the old function keep their attributes (noalias ...),
 * which hold for any part of its execution.  The blocks themselves move (LLVM keeps their
 * instructions and metadata); edges into the header go to a new block that calls the function
 * and branches to the exit.
 *
 * Short functions are left whole (CG_OUTLINE_MIN instructions): there the optimizer sees
 * everything at once, as before, and the call costs nothing measurable next to a long loop.
 */
#include "cg_internal.h"

#include <llvm-c/DebugInfo.h> /* LLVMTemporaryMDNode */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    CG_OUTLINE_MIN = 1500,     /* instructions in a function before its loops move out */
    CG_OUTLINE_MIN_LOOP = 12,  /* instructions in a loop worth a function of its own */
    CG_OUTLINE_CHUNK = 1200,   /* instructions of a run of loops moved together */
};

/* ---- a map from LLVM pointers to ints (open addressing) ---------------------------------- */
typedef struct {
    const void **keys;
    int *vals;
    size_t cap;   /* a power of two */
    size_t count; /* keys set */
} PtrMap;

static bool map_init(PtrMap *m, size_t n) {
    m->cap = 16;
    m->count = 0;
    while (m->cap < 2 * n + 2)
        m->cap <<= 1;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    return m->keys && m->vals;
}

static void map_free(PtrMap *m) {
    free(m->keys);
    free(m->vals);
}

static size_t map_slot(const PtrMap *m, const void *k) {
    size_t h = (size_t)((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull;
    size_t i = (h >> 17) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* the value of k, or -1 */
static int map_get(const PtrMap *m, const void *k) {
    size_t i = map_slot(m, k);
    return m->keys[i] ? m->vals[i] : -1;
}

/* sets k; the table doubles when half full.  False when out of memory. */
static bool map_put(PtrMap *m, const void *k, int v) {
    if (2 * (m->count + 1) > m->cap) {
        PtrMap big;
        if (!map_init(&big, m->cap)) {
            map_free(&big);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                map_put(&big, m->keys[i], m->vals[i]);
        map_free(m);
        *m = big;
    }
    size_t i = map_slot(m, k);
    m->count += !m->keys[i];
    m->keys[i] = k;
    m->vals[i] = v;
    return true;
}

/* ---- the control-flow graph --------------------------------------------------------------- */
typedef struct {
    LLVMValueRef fn;
    int n;                  /* blocks */
    LLVMBasicBlockRef *bb;  /* by number (function order; 0 is the entry) */
    PtrMap num;             /* block → number */
    int *succ, *succ_at;    /* successors of b: succ[succ_at[b] .. succ_at[b+1]) */
    int *rpo, *rpo_of;      /* blocks in reverse postorder; each block's place there (-1: dead) */
    int *idom;              /* immediate dominator by number (-1: none) */
    int *loop;              /* the top-level loop a block belongs to (its header), else -1 */
    int *pred, *pred_at;    /* predecessors of b: pred[pred_at[b] .. pred_at[b+1]) */
    int *ninst_rpo;         /* instructions before place i of the reverse postorder, summed */
    char *in_reg;           /* the blocks of the region being moved */
} Cfg;

static void cfg_free(Cfg *g) {
    free(g->bb);
    map_free(&g->num);
    free(g->succ);
    free(g->succ_at);
    free(g->rpo);
    free(g->rpo_of);
    free(g->idom);
    free(g->loop);
    free(g->pred);
    free(g->pred_at);
    free(g->ninst_rpo);
    free(g->in_reg);
}

static bool cfg_build(Cfg *g, LLVMValueRef fn) {
    g->fn = fn;
    g->n = (int)LLVMCountBasicBlocks(fn);
    size_t n = (size_t)g->n;
    g->bb = malloc(sizeof *g->bb * n);
    g->succ_at = malloc(sizeof *g->succ_at * (n + 1));
    g->rpo = malloc(sizeof *g->rpo * n);
    g->rpo_of = malloc(sizeof *g->rpo_of * n);
    g->idom = malloc(sizeof *g->idom * n);
    g->loop = malloc(sizeof *g->loop * n);
    g->pred_at = calloc(n + 1, sizeof *g->pred_at);
    g->ninst_rpo = calloc(n + 1, sizeof *g->ninst_rpo);
    g->in_reg = calloc(n + 1, 1);
    if (!g->bb || !g->succ_at || !g->rpo || !g->rpo_of || !g->idom || !g->loop || !g->pred_at ||
        !g->ninst_rpo || !g->in_reg || !map_init(&g->num, n))
        return false;
    LLVMGetBasicBlocks(fn, g->bb);
    size_t nsucc = 0;
    for (int b = 0; b < g->n; b++) {
        map_put(&g->num, g->bb[b], b);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
        nsucc += t ? LLVMGetNumSuccessors(t) : 0;
    }
    g->succ = malloc(sizeof *g->succ * (nsucc + 1));
    if (!g->succ)
        return false;
    size_t k = 0;
    for (int b = 0; b < g->n; b++) {
        g->succ_at[b] = (int)k;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            g->succ[k++] = map_get(&g->num, LLVMGetSuccessor(t, s));
    }
    g->succ_at[g->n] = (int)k;
    for (size_t e = 0; e < k; e++)
        if (g->succ[e] >= 0)
            g->pred_at[g->succ[e] + 1]++;
    for (int b = 0; b < g->n; b++)
        g->pred_at[b + 1] += g->pred_at[b];
    g->pred = malloc(sizeof *g->pred * (k + 1));
    int *fill = malloc(sizeof *fill * (n + 1));
    if (!g->pred || !fill) {
        free(fill);
        return false;
    }
    memcpy(fill, g->pred_at, sizeof *fill * n);
    for (int b = 0; b < g->n; b++)
        for (int e = g->succ_at[b]; e < g->succ_at[b + 1]; e++)
            if (g->succ[e] >= 0)
                g->pred[fill[g->succ[e]]++] = b;
    free(fill);
    return true;
}

/* Reverse postorder from the entry by an explicit stack (functions have thousands of blocks).
 * The last successor is visited first, so that the blocks of a loop `br %cond, %body, %exit`
 * come right after its header and before what follows the loop: a run of loops is then one
 * interval of the order.  Also sums the instructions up to each place (chunks are cut by size). */
static bool cfg_rpo(Cfg *g) {
    int *stack = malloc(sizeof *stack * (size_t)g->n), *next = malloc(sizeof *next * (size_t)g->n);
    if (!stack || !next) {
        free(stack);
        free(next);
        return false;
    }
    for (int b = 0; b < g->n; b++)
        g->rpo_of[b] = -1, next[b] = -2;
    int sp = 0, post = g->n;
    stack[sp++] = 0;
    next[0] = g->succ_at[1] - 1;
    while (sp) {
        int b = stack[sp - 1];
        if (next[b] >= g->succ_at[b]) {
            int s = g->succ[next[b]--];
            if (s >= 0 && next[s] == -2) {
                next[s] = g->succ_at[s + 1] - 1;
                stack[sp++] = s;
            }
            continue;
        }
        sp--;
        g->rpo[--post] = b;
    }
    /* unreachable blocks: rpo[0 .. post) stays unused; shift the reachable ones down */
    int nr = g->n - post;
    memmove(g->rpo, g->rpo + post, sizeof *g->rpo * (size_t)nr);
    for (int i = 0; i < nr; i++)
        g->rpo_of[g->rpo[i]] = i;
    for (int i = nr; i < g->n; i++)
        g->rpo[i] = -1;
    for (int i = 0; i < nr; i++) {
        int c = 0;
        for (LLVMValueRef in = LLVMGetFirstInstruction(g->bb[g->rpo[i]]); in; in = LLVMGetNextInstruction(in))
            c++;
        g->ninst_rpo[i + 1] = g->ninst_rpo[i] + c;
    }
    free(stack);
    free(next);
    return true;
}

static int intersect(const Cfg *g, int a, int b) {
    while (a != b) {
        while (g->rpo_of[a] > g->rpo_of[b])
            a = g->idom[a];
        while (g->rpo_of[b] > g->rpo_of[a])
            b = g->idom[b];
    }
    return a;
}

/* Cooper, Harvey and Kennedy: iterate idom over the reverse postorder until it settles.  The
 * predecessors are found through each block's successors, so one sweep is over the edges. */
static bool cfg_dominators(Cfg *g) {
    int *preds = NULL, *pred_at = calloc((size_t)g->n + 1, sizeof *pred_at);
    if (!pred_at)
        return false;
    for (int b = 0; b < g->n; b++)
        for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++)
            if (g->succ[k] >= 0 && g->rpo_of[b] >= 0)
                pred_at[g->succ[k] + 1]++;
    for (int b = 0; b < g->n; b++)
        pred_at[b + 1] += pred_at[b];
    preds = malloc(sizeof *preds * ((size_t)pred_at[g->n] + 1));
    int *fill = malloc(sizeof *fill * (size_t)g->n);
    if (!preds || !fill) {
        free(pred_at);
        free(preds);
        free(fill);
        return false;
    }
    memcpy(fill, pred_at, sizeof *fill * (size_t)g->n);
    for (int b = 0; b < g->n; b++)
        for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++)
            if (g->succ[k] >= 0 && g->rpo_of[b] >= 0)
                preds[fill[g->succ[k]]++] = b;
    for (int b = 0; b < g->n; b++)
        g->idom[b] = -1;
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 1; i < g->n && g->rpo[i] >= 0; i++) {
            int b = g->rpo[i], nd = -1;
            for (int k = pred_at[b]; k < pred_at[b + 1]; k++) {
                int p = preds[k];
                if (g->idom[p] < 0)
                    continue;
                nd = nd < 0 ? p : intersect(g, p, nd);
            }
            if (nd >= 0 && g->idom[b] != nd) {
                g->idom[b] = nd;
                changed = true;
            }
        }
    }
    free(pred_at);
    free(preds);
    free(fill);
    return true;
}

static bool dominates(const Cfg *g, int h, int b) {
    while (b != h && b != 0)
        b = g->idom[b];
    return b == h;
}

/* Marks the top-level natural loops: g->loop[b] is the header of the outermost loop holding b.
 * Headers are taken in reverse postorder, so an outer loop's header comes before its inner
 * ones, and a block already claimed is not claimed again.  The body of header h is found by
 * walking backwards from the sources of its back edges without passing h, over the
 * predecessor lists built here. */
static bool cfg_loops(Cfg *g) {
    int *pred_at = calloc((size_t)g->n + 1, sizeof *pred_at), *preds = NULL, *fill = NULL;
    int *work = malloc(sizeof *work * (size_t)g->n);
    bool ok = false;
    if (!pred_at || !work)
        goto out;
    for (int b = 0; b < g->n; b++)
        for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++)
            if (g->succ[k] >= 0)
                pred_at[g->succ[k] + 1]++;
    for (int b = 0; b < g->n; b++)
        pred_at[b + 1] += pred_at[b];
    preds = malloc(sizeof *preds * ((size_t)pred_at[g->n] + 1));
    fill = malloc(sizeof *fill * (size_t)g->n);
    if (!preds || !fill)
        goto out;
    memcpy(fill, pred_at, sizeof *fill * (size_t)g->n);
    for (int b = 0; b < g->n; b++)
        for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++)
            if (g->succ[k] >= 0)
                preds[fill[g->succ[k]]++] = b;
    for (int b = 0; b < g->n; b++)
        g->loop[b] = -1;
    for (int i = 0; i < g->n && g->rpo[i] >= 0; i++) {
        int h = g->rpo[i];
        if (g->loop[h] >= 0)
            continue; /* inside an outer loop */
        int nw = 0;
        for (int k = pred_at[h]; k < pred_at[h + 1]; k++) {
            int u = preds[k];
            if (g->rpo_of[u] >= g->rpo_of[h] && dominates(g, h, u) && g->loop[u] < 0 && u != h)
                work[nw++] = u, g->loop[u] = h;
            else if (u == h)
                g->loop[h] = h;
        }
        bool any = g->loop[h] == h || nw > 0;
        if (!any)
            continue;
        g->loop[h] = h;
        while (nw) {
            int u = work[--nw];
            for (int k = pred_at[u]; k < pred_at[u + 1]; k++) {
                int p = preds[k];
                if (g->rpo_of[p] >= 0 && g->loop[p] < 0)
                    work[nw++] = p, g->loop[p] = h;
            }
        }
    }
    ok = true;
out:
    free(pred_at);
    free(preds);
    free(fill);
    free(work);
    return ok;
}

/* ---- one loop --------------------------------------------------------------------------- */
typedef struct {
    LLVMValueRef v;    /* the outside value the loop uses */
    bool copy;         /* an alloca the loop only loads and stores: passed by value (and returned) */
    bool stored;       /* ... and stores, and the rest of the function may read it: returned */
    LLVMValueRef repl; /* its stand-in inside the new function */
} LiveIn;

static bool in_region(const Cfg *g, LLVMBasicBlockRef bb) {
    int b = map_get(&g->num, bb);
    return b >= 0 && g->in_reg[b];
}

static bool has_phi(LLVMBasicBlockRef bb) {
    LLVMValueRef first = LLVMGetFirstInstruction(bb);
    return first && LLVMGetInstructionOpcode(first) == LLVMPHI;
}

/* How the loop uses alloca a: only as the address of plain loads and stores (copy), and
 * whether it stores. */
static void alloca_use(const Cfg *g, LLVMValueRef a, bool *copy, bool *stored) {
    *copy = true;
    *stored = false;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || !in_region(g, LLVMGetInstructionParent(user)))
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(user);
        if (op == LLVMLoad && !LLVMGetVolatile(user))
            continue;
        if (op == LLVMStore && !LLVMGetVolatile(user) && LLVMGetOperand(user, 0) != a) {
            *stored = true;
            continue;
        }
        *copy = false;
    }
}

/* Whether the function may read alloca a outside the region: any use there but a plain store
 * into it.  A variable the region stores and nothing else reads (a loop's counter, a sum
 * written out inside the region) is not returned: a result struct of every variable a run of
 * loops stores cost IPSCCP time quadratic in its fields before it was dropped. */
static bool read_outside(const Cfg *g, LLVMValueRef a) {
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) && in_region(g, LLVMGetInstructionParent(user)))
            continue;
        if (LLVMIsAInstruction(user) && LLVMGetInstructionOpcode(user) == LLVMStore &&
            !LLVMGetVolatile(user) && LLVMGetOperand(user, 0) != a)
            continue;
        return true;
    }
    return false;
}

typedef struct {
    CgModule *M;
    Cfg *g;
    int h;             /* the region's header: its one entry */
    int *blocks, nblocks; /* the region: one top-level loop, or a run of them */
    LLVMBasicBlockRef exit;
    LiveIn *in;
    int nin, capin;
    PtrMap inmap;      /* live-in value → index in `in` */
    int ninst;
} Loop;

static bool add_live_in(Loop *lp, LLVMValueRef v) {
    if (map_get(&lp->inmap, v) >= 0)
        return true;
    if (lp->nin == lp->capin) {
        int cap = lp->capin ? 2 * lp->capin : 16;
        LiveIn *in = realloc(lp->in, sizeof *in * (size_t)cap);
        if (!in)
            return false;
        lp->in = in;
        lp->capin = cap;
    }
    lp->in[lp->nin] = (LiveIn){.v = v};
    return map_put(&lp->inmap, v, lp->nin++);
}

/* Collects the region's exit and live-ins (g->in_reg marks its blocks); false when it cannot
 * move (see the file's comment) or is too short to be worth it. */
static bool loop_scan(Loop *lp) {
    Cfg *g = lp->g;
    int h = lp->h;
    if (has_phi(g->bb[h]))
        return false;
    for (int i = 0; i < lp->nblocks; i++) {
        int b = lp->blocks[i];
        if (b != h)
            for (int k = g->pred_at[b]; k < g->pred_at[b + 1]; k++)
                if (!g->in_reg[g->pred[k]])
                    return false; /* a second entry */
        for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++) {
            int s = g->succ[k];
            if (s < 0)
                return false;
            if (g->in_reg[s])
                continue;
            if (lp->exit && lp->exit != g->bb[s])
                return false; /* a second exit */
            lp->exit = g->bb[s];
        }
        for (LLVMValueRef in = LLVMGetFirstInstruction(g->bb[b]); in; in = LLVMGetNextInstruction(in)) {
            lp->ninst++;
            LLVMOpcode op = LLVMGetInstructionOpcode(in);
            if (op == LLVMRet || op == LLVMIndirectBr || op == LLVMCallBr || op == LLVMInvoke)
                return false;
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!LLVMIsAInstruction(user) || !in_region(g, LLVMGetInstructionParent(user)))
                    return false; /* used after the loop */
            }
            int nops = LLVMGetNumOperands(in);
            for (int o = 0; o < nops; o++) {
                LLVMValueRef v = LLVMGetOperand(in, (unsigned)o);
                if (!v)
                    continue;
                bool outside = LLVMIsAArgument(v) ||
                               (LLVMIsAInstruction(v) && !in_region(g, LLVMGetInstructionParent(v)));
                if (outside && !add_live_in(lp, v))
                    return false;
            }
        }
    }
    if (!lp->exit || has_phi(lp->exit) || lp->ninst < CG_OUTLINE_MIN_LOOP)
        return false;
    for (int i = 0; i < lp->nin; i++) {
        LiveIn *li = &lp->in[i];
        if (LLVMIsAAllocaInst(li->v) && LLVMGetInstructionParent(li->v) == g->bb[0]) {
            alloca_use(g, li->v, &li->copy, &li->stored);
            li->stored = li->stored && read_outside(g, li->v);
        }
    }
    return true;
}

/* Copies the attributes at index `from` of fn to index `to` of nf (LLVMAttributeIndex). */
static void copy_attrs(LLVMValueRef fn, unsigned from, LLVMValueRef nf, unsigned to) {
    unsigned n = LLVMGetAttributeCountAtIndex(fn, from);
    if (!n)
        return;
    LLVMAttributeRef *a = malloc(sizeof *a * n);
    if (!a)
        return;
    LLVMGetAttributesAtIndex(fn, from, a);
    for (unsigned i = 0; i < n; i++)
        LLVMAddAttributeAtIndex(nf, to, a[i]);
    free(a);
}

/* The parameter number of argument v of fn. */
static unsigned param_index(LLVMValueRef fn, LLVMValueRef v) {
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetParam(fn, i) == v)
            return i;
    return 0;
}

/* Marks the back edge of each loop in the region (the terminator of block b that goes back
 * to a block no later in the reverse postorder) with loop metadata that turns off runtime
 * unrolling.  A long function is compiled for compile time that grows linearly, not for the
 * last cycle of each of its loops: runtime unrolling made each loop four copies plus a
 * remainder loop, and those copies took 40% of the time of optimization and instruction
 * selection of a function of 400 loops.  Vectorized loops keep the vectorizer's own
 * interleaving, and loops of constant trip count are still unrolled. */
static void no_runtime_unroll(CgModule *M, const Cfg *g, int b) {
    LLVMContextRef C = M->ctx;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
    unsigned kind = LLVMGetMDKindIDInContext(C, "llvm.loop", 9);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || LLVMGetMetadata(t, kind))
        return;
    bool back = false;
    for (int k = g->succ_at[b]; k < g->succ_at[b + 1]; k++)
        back |= g->succ[k] >= 0 && g->in_reg[g->succ[k]] && g->rpo_of[g->succ[k]] <= g->rpo_of[b];
    if (!back)
        return;
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(C, NULL, 0);
    LLVMMetadataRef off = LLVMMDStringInContext2(C, "llvm.loop.unroll.runtime.disable", 32);
    LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(C, &off, 1)};
    LLVMMetadataRef id = LLVMMDNodeInContext2(C, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, id);
    LLVMSetMetadata(t, kind, LLVMMetadataAsValue(C, id));
}

/* Moves the loop into a new function `<name>.loop<k>` and calls it in its place. */
static bool loop_move(Loop *lp, int k) {
    CgModule *M = lp->M;
    Cfg *g = lp->g;
    LLVMContextRef C = M->ctx;
    LLVMTypeRef *pt = malloc(sizeof *pt * ((size_t)lp->nin + 1));
    LLVMValueRef *args = malloc(sizeof *args * ((size_t)lp->nin + 1));
    if (!pt || !args) {
        free(pt);
        free(args);
        return false;
    }
    LLVMTypeRef *rt = malloc(sizeof *rt * ((size_t)lp->nin + 1));
    if (!rt) {
        free(pt);
        free(args);
        return false;
    }
    unsigned nret = 0;
    for (int i = 0; i < lp->nin; i++) {
        LiveIn *li = &lp->in[i];
        pt[i] = li->copy ? LLVMGetAllocatedType(li->v) : LLVMTypeOf(li->v);
        args[i] = li->v;
        if (li->copy && li->stored)
            rt[nret++] = pt[i];
    }
    LLVMTypeRef ret = nret ? LLVMStructTypeInContext(C, rt, nret, false) : LLVMVoidTypeInContext(C);
    free(rt);
    size_t len;
    const char *base = LLVMGetValueName2(g->fn, &len);
    char *name = malloc(len + 32);
    if (!name) {
        free(pt);
        free(args);
        return false;
    }
    snprintf(name, len + 32, "%.*s.loop%d", (int)len, base, k);
    LLVMValueRef nf = LLVMAddFunction(M->mod, name, LLVMFunctionType(ret, pt, (unsigned)lp->nin, false));
    free(name);
    LLVMSetLinkage(nf, LLVMInternalLinkage);
    copy_attrs(g->fn, LLVMAttributeFunctionIndex, nf, LLVMAttributeFunctionIndex);
    unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMRemoveEnumAttributeAtIndex(nf, LLVMAttributeFunctionIndex, ai);
    cg_add_fn_attr(M, nf, "noinline");
    cg_add_fn_attr(M, nf, "nounwind");

    /* entry: copies of the allocas the loop loads and stores */
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, nf, "entry");
    LLVMPositionBuilderAtEnd(B, entry);
    for (int i = 0; i < lp->nin; i++) {
        LiveIn *li = &lp->in[i];
        LLVMValueRef p = LLVMGetParam(nf, (unsigned)i);
        if (LLVMIsAArgument(li->v)) {
            unsigned pi = param_index(g->fn, li->v);
            copy_attrs(g->fn, pi + 1, nf, (unsigned)i + 1);
        }
        if (!li->copy) {
            li->repl = p;
            continue;
        }
        LLVMTypeRef T = LLVMGetAllocatedType(li->v);
        li->repl = LLVMBuildAlloca(B, T, "");
        LLVMBuildStore(B, p, li->repl);
    }
    LLVMBuildBr(B, g->bb[lp->h]);

    /* the blocks move; uses of outside values and edges to the exit are rewritten */
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, nf, "exit");
    for (int i = 0; i < lp->nblocks; i++) {
        int b = lp->blocks[i];
        no_runtime_unroll(M, g, b);
        LLVMRemoveBasicBlockFromParent(g->bb[b]);
        LLVMAppendExistingBasicBlock(nf, g->bb[b]);
        for (LLVMValueRef in = LLVMGetFirstInstruction(g->bb[b]); in; in = LLVMGetNextInstruction(in)) {
            int nops = LLVMGetNumOperands(in);
            for (int o = 0; o < nops; o++) {
                LLVMValueRef v = LLVMGetOperand(in, (unsigned)o);
                int at = v ? map_get(&lp->inmap, v) : -1;
                if (at >= 0)
                    LLVMSetOperand(in, (unsigned)o, lp->in[at].repl);
            }
        }
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
        unsigned ns = LLVMGetNumSuccessors(t);
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == lp->exit)
                LLVMSetSuccessor(t, s, done);
    }
    LLVMMoveBasicBlockAfter(done, LLVMGetLastBasicBlock(nf));
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef rv = nret ? LLVMGetPoison(ret) : NULL;
    for (int i = 0, r = 0; i < lp->nin; i++) {
        LiveIn *li = &lp->in[i];
        if (li->copy && li->stored)
            rv = LLVMBuildInsertValue(B, rv, LLVMBuildLoad2(B, pt[i], li->repl, ""), (unsigned)r++, "");
    }
    if (rv)
        LLVMBuildRet(B, rv);
    else
        LLVMBuildRetVoid(B);

    /* the caller: edges into the header now call the loop, then go on to the exit */
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(C, g->fn, "loop.call");
    LLVMPositionBuilderAtEnd(B, call);
    for (int i = 0; i < lp->nin; i++)
        if (lp->in[i].copy)
            args[i] = LLVMBuildLoad2(B, pt[i], lp->in[i].v, "");
    LLVMValueRef res = LLVMBuildCall2(B, LLVMGlobalGetValueType(nf), nf, args, (unsigned)lp->nin, "");
    for (int i = 0, r = 0; i < lp->nin; i++)
        if (lp->in[i].copy && lp->in[i].stored)
            LLVMBuildStore(B, LLVMBuildExtractValue(B, res, (unsigned)r++, ""), lp->in[i].v);
    LLVMBuildBr(B, lp->exit);
    LLVMValueRef hv = LLVMBasicBlockAsValue(g->bb[lp->h]);
    int nusers = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(hv); u; u = LLVMGetNextUse(u))
        nusers++;
    LLVMValueRef *users = malloc(sizeof *users * ((size_t)nusers + 1));
    bool ok = users != NULL;
    if (ok) {
        int nu = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(hv); u; u = LLVMGetNextUse(u))
            users[nu++] = LLVMGetUser(u);
        for (int i = 0; i < nu; i++) {
            LLVMValueRef t = users[i];
            if (!LLVMIsATerminatorInst(t) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(t)) != g->fn)
                continue;
            unsigned ns = LLVMGetNumSuccessors(t);
            for (unsigned s = 0; s < ns; s++)
                if (LLVMGetSuccessor(t, s) == g->bb[lp->h])
                    LLVMSetSuccessor(t, s, call);
        }
    }
    free(users);
    LLVMDisposeBuilder(B);
    free(pt);
    free(args);
    return ok;
}

static int count_insts(LLVMValueRef fn, int stop) {
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && n < stop; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n++;
    return n;
}

/* Tries to move the region of blocks[0..n) (blocks[0] its header) into function number k. */
static bool try_region(CgModule *M, Cfg *g, int *blocks, int n, int k) {
    for (int i = 0; i < n; i++)
        g->in_reg[blocks[i]] = 1;
    Loop lp = {.M = M, .g = g, .h = blocks[0], .blocks = blocks, .nblocks = n};
    bool ok = map_init(&lp.inmap, 64) && loop_scan(&lp) && loop_move(&lp, k);
    map_free(&lp.inmap);
    free(lp.in);
    for (int i = 0; i < n; i++)
        g->in_reg[blocks[i]] = 0;
    return ok;
}

/* The blocks of the top-level loop of header h, h first. */
static int loop_blocks(const Cfg *g, int h, int *out) {
    int n = 0;
    out[n++] = h;
    for (int i = g->rpo_of[h] + 1; i < g->n && g->rpo[i] >= 0; i++)
        if (g->loop[g->rpo[i]] == h)
            out[n++] = g->rpo[i];
    return n;
}

/* The place in the reverse postorder after the blocks of the top-level loop of header h. */
static int loop_end(const Cfg *g, int h) {
    int r = g->rpo_of[h] + 1;
    while (r < g->n && g->rpo[r] >= 0 && g->loop[g->rpo[r]] == h)
        r++;
    return r;
}

/* Top-level loops in order; each chunk is the longest run of loops (and the code between
 * them) of at most CG_OUTLINE_CHUNK instructions, or failing that the loop alone.  A run is an interval of the reverse postorder (cfg_rpo); loop_scan checks that
 * it is entered at its header only and left to one block. */
int cg_outline_loops(CgModule *M, LLVMValueRef fn) {
    if (!LLVMCountBasicBlocks(fn) || count_insts(fn, CG_OUTLINE_MIN) < CG_OUTLINE_MIN)
        return 0;
    Cfg g = {0};
    int moved = 0, nheads = 0;
    int *heads = NULL, *blocks = NULL;
    if (!cfg_build(&g, fn) || !cfg_rpo(&g) || !cfg_dominators(&g) || !cfg_loops(&g))
        goto out;
    heads = malloc(sizeof *heads * ((size_t)g.n + 1));
    blocks = malloc(sizeof *blocks * ((size_t)g.n + 1));
    if (!heads || !blocks)
        goto out;
    for (int i = 0; i < g.n && g.rpo[i] >= 0; i++)
        if (g.loop[g.rpo[i]] == g.rpo[i])
            heads[nheads++] = g.rpo[i];
    for (int i = 0; i < nheads;) {
        int lo = g.rpo_of[heads[i]], j = i;
        while (j + 1 < nheads && g.ninst_rpo[loop_end(&g, heads[j + 1])] - g.ninst_rpo[lo] <= CG_OUTLINE_CHUNK)
            j++;
        if (j > i) { /* the loops i .. j and the code between them */
            int hi = loop_end(&g, heads[j]);
            for (int r = lo; r < hi; r++)
                blocks[r - lo] = g.rpo[r];
            if (try_region(M, &g, blocks, hi - lo, moved)) {
                moved++;
                i = j + 1;
                continue;
            }
        }
        int n = loop_blocks(&g, heads[i], blocks);
        moved += try_region(M, &g, blocks, n, moved);
        i++;
    }
out:
    free(heads);
    free(blocks);
    cfg_free(&g);
    return moved;
}

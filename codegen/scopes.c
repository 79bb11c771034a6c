/* scopes.c — telling LLVM that a fresh array aliases nothing older (CPU lowering).
 *
 * An `alloc` returns memory that did not exist before it ran, so no array value computed
 * before the alloc can point into it.  LLVM knows this of one call (malloc is noalias)
 * but not across the iterations of a loop: in `for _ in range(k): z = z * z + c` the operand
 * `z` is a phi of the argument and of the previous step's result, i.e. of an earlier run of the
 * very allocation that makes this step's output, and the loop vectorizer then refuses the
 * expression's loop ("unknown data dependence").  Here each alloc declares a fresh alias scope
 * (`llvm.experimental.noalias.scope.decl`: a new instance every time it runs), the element
 * accesses through the alloc's own value are in that scope (`!alias.scope`), and element
 * accesses through an array value whose definition strictly dominates the alloc, made where
 * the alloc dominates them, are outside it (`!noalias`).
 *
 * Why that is sound: if def(v) dominates the alloc r and r dominates the access B, every path
 * from def(v) to B passes r (else entry → def(v) → B would avoid r), so at B the value of v
 * was computed before the latest run of r, and cannot address r's newest block.
 *
 * Algorithm: IR dominators (Cooper, Harvey and Kennedy over reverse postorder, with real
 * predecessor lists), each instruction's block and position, each block's allocs in a list of
 * their own (an access never scans a block's instructions); for an access, walk the
 * dominator chain up from it to the block of def(v), collecting the allocs passed; the walk is
 * capped (CG_SCOPE_WALK blocks, CG_SCOPE_MAX scopes) so compile time stays linear, which only
 * leaves some accesses unmarked (still correct: LLVM then assumes they may alias).
 */
#include "cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CG_SCOPE_WALK = 32, CG_SCOPE_MAX = 4 };

struct CgScopes {
    CgModule *M;
    const IrFunc *f;
    int nblocks, nids;
    int *idom;               /* by block; -1 unreachable */
    int *blk, *pos;          /* by SSA id: block and position of the definition */
    LLVMMetadataRef *scope;  /* by SSA id of an alloc: its scope (NULL: not declared) */
    int *astart;             /* by block: the allocs of block b are apos/aid[astart[b] ..] */
    int *apos, *aid;         /*   (position in the block, SSA id), in order */
    LLVMMetadataRef domain;
    unsigned kind_scope, kind_noalias;
};

static int succs(const IrFunc *f, int b, int out[2]) {
    const IrInst *t = f->blocks[b] ? f->blocks[b]->last : NULL;
    int n = 0;
    if (t && (t->op == IR_BR || t->op == IR_CONDBR))
        for (int k = 0; k < (t->op == IR_BR ? 1 : 2); k++)
            if (t->imm.targets[k] >= 0 && t->imm.targets[k] < f->nblocks)
                out[n++] = t->imm.targets[k];
    return n;
}

/* Fills S->idom; false when out of memory. */
static bool dominators(CgScopes *S) {
    const IrFunc *f = S->f;
    int n = S->nblocks;
    int *post = calloc((size_t)n + 1, sizeof(int)), *stack = calloc((size_t)n + 1, sizeof(int));
    int *next = calloc((size_t)n + 1, sizeof(int)), *order = calloc((size_t)n + 1, sizeof(int));
    int *npred = calloc((size_t)n + 1, sizeof(int)), *pstart = calloc((size_t)n + 2, sizeof(int));
    int *preds = calloc((size_t)2 * n + 1, sizeof(int));
    bool ok = post && stack && next && order && npred && pstart && preds;
    int np = 0;
    if (ok) {
        for (int b = 0; b < n; b++) {
            S->idom[b] = -1;
            order[b] = -1;
        }
        int sp = 0;
        stack[sp++] = 0;
        order[0] = 0; /* marks seen until the real numbers below */
        while (sp) {
            int b = stack[sp - 1], s[2], ns = succs(f, b, s);
            if (next[b] < ns) {
                int t = s[next[b]++];
                if (order[t] < 0) {
                    order[t] = 0;
                    stack[sp++] = t;
                }
            } else {
                post[np++] = b;
                sp--;
            }
        }
        for (int b = 0; b < n; b++)
            order[b] = -1;
        for (int i = 0; i < np; i++)
            order[post[i]] = np - 1 - i;
        for (int b = 0; b < n; b++) { /* predecessors of reachable blocks, by counting */
            int s[2], ns = order[b] < 0 ? 0 : succs(f, b, s);
            for (int k = 0; k < ns; k++)
                npred[s[k]]++;
        }
        for (int b = 0; b < n; b++)
            pstart[b + 1] = pstart[b] + npred[b];
        memset(npred, 0, (size_t)n * sizeof(int));
        for (int b = 0; b < n; b++) {
            int s[2], ns = order[b] < 0 ? 0 : succs(f, b, s);
            for (int k = 0; k < ns; k++)
                preds[pstart[s[k]] + npred[s[k]]++] = b;
        }
        S->idom[0] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = np - 2; i >= 0; i--) {
                int b = post[i], nd = -1;
                for (int k = pstart[b]; k < pstart[b + 1]; k++) {
                    int q = preds[k];
                    if (S->idom[q] < 0)
                        continue;
                    if (nd < 0) {
                        nd = q;
                        continue;
                    }
                    int x = q, y = nd;
                    while (x != y) {
                        while (order[x] > order[y])
                            x = S->idom[x];
                        while (order[y] > order[x])
                            y = S->idom[y];
                    }
                    nd = x;
                }
                if (nd >= 0 && S->idom[b] != nd) {
                    S->idom[b] = nd;
                    changed = true;
                }
            }
        }
    }
    free(post), free(stack), free(next), free(order), free(npred), free(pstart), free(preds);
    return ok;
}

CgScopes *cg_scopes_new(CgModule *M, const IrFunc *f) {
    CgScopes *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->M = M;
    S->f = f;
    S->nblocks = f->nblocks;
    S->nids = f->next_id > 0 ? f->next_id : 1;
    S->idom = calloc((size_t)S->nblocks + 1, sizeof(int));
    S->blk = calloc((size_t)S->nids, sizeof(int));
    S->pos = calloc((size_t)S->nids, sizeof(int));
    S->scope = calloc((size_t)S->nids, sizeof *S->scope);
    if (!S->idom || !S->blk || !S->pos || !S->scope || !dominators(S)) {
        cg_scopes_free(S);
        return NULL;
    }
    for (int i = 0; i < S->nids; i++)
        S->blk[i] = -1;
    int nalloc = 0;
    for (int b = 0; b < f->nblocks; b++) {
        int k = 0;
        for (const IrInst *in = f->blocks[b] ? f->blocks[b]->first : NULL; in; in = in->next, k++) {
            if (in->id >= 0 && in->id < S->nids) {
                S->blk[in->id] = b;
                S->pos[in->id] = k;
            }
            nalloc += in->op == IR_ALLOC && in->id >= 0 && in->id < S->nids;
        }
    }
    S->astart = calloc((size_t)S->nblocks + 1, sizeof(int));
    S->apos = calloc((size_t)nalloc + 1, sizeof(int));
    S->aid = calloc((size_t)nalloc + 1, sizeof(int));
    if (!S->astart || !S->apos || !S->aid) {
        cg_scopes_free(S);
        return NULL;
    }
    nalloc = 0;
    for (int b = 0; b < f->nblocks; b++) {
        S->astart[b] = nalloc;
        int k = 0;
        for (const IrInst *in = f->blocks[b] ? f->blocks[b]->first : NULL; in; in = in->next, k++)
            if (in->op == IR_ALLOC && in->id >= 0 && in->id < S->nids) {
                S->apos[nalloc] = k;
                S->aid[nalloc++] = in->id;
            }
    }
    S->astart[f->nblocks] = nalloc;
    LLVMContextRef C = M->ctx;
    LLVMMetadataRef name = LLVMMDStringInContext2(C, "numjit.fresh", 12);
    S->domain = LLVMMDNodeInContext2(C, &name, 1);
    S->kind_scope = LLVMGetMDKindIDInContext(C, "alias.scope", 11);
    S->kind_noalias = LLVMGetMDKindIDInContext(C, "noalias", 7);
    return S;
}

void cg_scopes_free(CgScopes *S) {
    if (!S)
        return;
    free(S->idom), free(S->blk), free(S->pos), free(S->scope);
    free(S->astart), free(S->apos), free(S->aid);
    free(S);
}

/* Right after the alloc `in` succeeded: a new instance of its scope. */
void cg_scopes_alloc(CgScopes *S, LLVMBuilderRef B, const IrInst *in) {
    if (!S || in->id < 0 || in->id >= S->nids)
        return;
    LLVMContextRef C = S->M->ctx;
    char buf[256];
    const char *fname = S->f->mangled ? S->f->mangled : S->f->name;
    int n = snprintf(buf, sizeof buf, "numjit.fresh.%s.%d", fname ? fname : "", in->id);
    size_t len = n < 0 ? 0 : n < (int)sizeof buf ? (size_t)n : sizeof buf - 1;
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(C, buf, len), S->domain};
    S->scope[in->id] = LLVMMDNodeInContext2(C, ops, 2);
    static const char decl[] = "llvm.experimental.noalias.scope.decl";
    unsigned id = LLVMLookupIntrinsicID(decl, sizeof decl - 1);
    if (!id)
        return;
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(S->M->mod, id, NULL, 0);
    LLVMTypeRef fty = LLVMIntrinsicGetType(C, id, NULL, 0);
    LLVMValueRef arg = LLVMMetadataAsValue(C, LLVMMDNodeInContext2(C, &S->scope[in->id], 1));
    LLVMBuildCall2(B, fty, fn, &arg, 1, "");
}

/* The element access `in` (aload/astore of array in->args[0]) lowered to `mem`; it is the
 * instruction number `at` of IR block `b`. */
void cg_scopes_access(CgScopes *S, const IrInst *in, LLVMValueRef mem, int b, int at) {
    const IrInst *v = in->args[0];
    if (!S || !mem || !v || v->id < 0 || v->id >= S->nids || b < 0 || b >= S->nblocks)
        return;
    LLVMContextRef C = S->M->ctx;
    if (S->scope[v->id])
        LLVMSetMetadata(mem, S->kind_scope,
                        LLVMMetadataAsValue(C, LLVMMDNodeInContext2(C, &S->scope[v->id], 1)));
    int vb = S->blk[v->id];
    if (vb < 0)
        return;
    LLVMMetadataRef found[CG_SCOPE_MAX];
    int nf = 0, limit = at; /* in the access's own block: only what comes before it */
    for (int steps = 0; steps < CG_SCOPE_WALK && nf < CG_SCOPE_MAX; steps++) {
        for (int k = S->astart[b]; k < S->astart[b + 1] && S->apos[k] < limit &&
                                   nf < CG_SCOPE_MAX; k++) {
            int id = S->aid[k];
            if (id != v->id && S->scope[id] && (b != vb || S->apos[k] > S->pos[v->id]))
                found[nf++] = S->scope[id]; /* an alloc after def(v) */
        }
        if (b == vb || b == 0 || S->idom[b] < 0 || S->idom[b] == b)
            break;
        b = S->idom[b];
        limit = 1 << 30;
    }
    if (nf)
        LLVMSetMetadata(mem, S->kind_noalias,
                        LLVMMetadataAsValue(C, LLVMMDNodeInContext2(C, found, (size_t)nf)));
}

/* ir_verify.c — checks the invariants of the typed IR; runs after the typer and after every pass
 * in test builds (ir_run_passes(..., verify = true)).
 *
 * Per function, in three sweeps:
 *   1. structure: every block is non-empty, numbered by its index, ends with exactly one
 *      terminator (br condbr ret raise) and has none before; branch targets are in range.
 *      Every instruction is entered in a hash table (pointer -> block, position) and its SSA
 *      id is checked: unique, >= 0 exactly when the result is not void.
 *   2. dominators, by Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder
 *      ("A Simple, Fast Dominance Algorithm"): idom[] of the reachable blocks.
 *   3. each instruction: its operands exist, are defined in this function, produce a value, and
 *      their definition dominates the use (earlier in the same block, or in a dominating block;
 *      uses in unreachable blocks are not checked for dominance, as in LLVM); operand count per
 *      op (ops.def, or the op's rule where it is variable: aload 1+ndim, astore 2+ndim, call the
 *      callee's parameters, parfor its body's and reductions (check_parfor), math the
 *      builtin's arity, atomic 2+ndim or 3+ndim for cas, cuda the intrinsic's count in
 *      cuda.def); operand
 *      and result types per op (arithmetic operands equal to the result, cmp operands equal and
 *      a bool result, condbr on a bool, store/load of the variable's type, param of the
 *      parameter's type, ret of the function's type, aload of the dtype with int64 indices, ...);
 *      immediates in range (parameter, variable, dimension, element, builtin, sreg, raise site).
 * The per-op rules of sweep 3 (operand counts, operand and result types, immediates) are in
 * ir_verify_types.c; ir_verify_internal.h holds the state both share.
 * Each violation is reported with the instruction's Loc (the function's when it has none) and
 * "in @symbol, bN:"; verification goes on, so one run lists every problem.
 */
#include "ir_verify_internal.h"

#include <stdarg.h>
#include <string.h>


void ir_vreport(Verifier *V, const IrInst *in, int block, const char *fmt, ...) {
    StrBuf sb;
    sb_init(&sb);
    const IrFunc *f = V->f;
    sb_printf(&sb, "in @%s", f->mangled ? f->mangled : f->name ? f->name : "?");
    if (block >= 0)
        sb_printf(&sb, ", b%d", block);
    sb_puts(&sb, ": ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    Loc loc = in && in->loc.src ? in->loc : f->loc;
    diag_error(V->diags, loc, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
    V->errors++;
}

const char *ir_vtname(Verifier *V, const Type *t) {
    StrBuf sb;
    sb_init(&sb);
    ir_print_type(t, &sb);
    const char *s = arena_strdup(V->p->arena, sb.data ? sb.data : "?");
    sb_free(&sb);
    return s;
}

const char *ir_vopname(const IrInst *in) {
    return in->op < IR__COUNT ? ir_op_name[in->op] : "?";
}

bool ir_vterminator(IrOp op) {
    return op == IR_BR || op == IR_CONDBR || op == IR_RET || op == IR_RAISE;
}

/* ---- the instruction table ----------------------------------------------------------------- */
static size_t hash_ptr(const void *p) {
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 29;
    return (size_t)x;
}

static Slot *lookup(Verifier *V, const IrInst *in) {
    for (size_t h = hash_ptr(in) & V->mask;; h = (h + 1) & V->mask)
        if (V->table[h].in == in || !V->table[h].in)
            return &V->table[h];
}

/* ---- dominators ---------------------------------------------------------------------------- */
static int successors(const IrFunc *f, int b, int out[3]) {
    const IrInst *t = f->blocks[b] ? f->blocks[b]->last : NULL;
    if (!t)
        return 0;
    int n = 0;
    const IrBlock *h = f->blocks[b]->handler; /* a raise in b goes there */
    if (h && h->id >= 0 && h->id < f->nblocks && f->blocks[h->id] == h)
        out[n++] = h->id;
    if (t->op == IR_BR || t->op == IR_CONDBR) {
        for (int k = 0; k < (t->op == IR_BR ? 1 : 2); k++)
            if (t->imm.targets[k] >= 0 && t->imm.targets[k] < f->nblocks)
                out[n++] = t->imm.targets[k];
    }
    return n;
}

static int intersect(const int *idom, const int *order, int a, int b) {
    while (a != b) {
        while (order[a] > order[b])
            a = idom[a];
        while (order[b] > order[a])
            b = idom[b];
    }
    return a;
}

/* The predecessors of each block, as lists in one array: those of b are
 * pred[at[b] .. at[b + 1]).  Built once, so that each sweep of the dominator iteration is
 * linear in the blocks (scanning every block's successors per block made it quadratic: a
 * function of 1,600 loops spent seconds here).  false when out of memory. */
static bool predecessors(const IrFunc *f, int **pred, int **at) {
    int n = f->nblocks, succ[3];
    *at = nj_calloc((size_t)n + 1, sizeof(int));
    int *fill = nj_calloc((size_t)n + 1, sizeof(int));
    if (!*at || !fill) {
        nj_free(fill);
        return false;
    }
    for (int q = 0; q < n; q++)
        for (int k = 0, ns = successors(f, q, succ); k < ns; k++)
            (*at)[succ[k] + 1]++;
    for (int b = 0; b < n; b++)
        (*at)[b + 1] += (*at)[b];
    *pred = nj_calloc((size_t)(*at)[n] + 1, sizeof(int));
    if (*pred) {
        memcpy(fill, *at, sizeof(int) * (size_t)n);
        for (int q = 0; q < n; q++)
            for (int k = 0, ns = successors(f, q, succ); k < ns; k++)
                (*pred)[fill[succ[k]]++] = q;
    }
    nj_free(fill);
    return *pred != NULL;
}

/* Fills V->idom and V->order; false when out of memory. */
static bool dominators(Verifier *V) {
    const IrFunc *f = V->f;
    int n = f->nblocks;
    int *post = nj_calloc((size_t)n, sizeof(int));        /* blocks in postorder */
    int *stack = nj_calloc((size_t)n, sizeof(int));
    int *next = nj_calloc((size_t)n, sizeof(int));        /* next successor to visit */
    bool *seen = nj_calloc((size_t)n, sizeof(bool));
    int *pred = NULL, *pred_at = NULL;
    V->idom = nj_calloc((size_t)n, sizeof(int));
    V->order = nj_calloc((size_t)n, sizeof(int));
    bool ok = post && stack && next && seen && V->idom && V->order &&
              predecessors(f, &pred, &pred_at);
    if (ok) {
        int np = 0, sp = 0;
        stack[sp++] = 0;
        seen[0] = true;
        while (sp) { /* iterative depth-first search */
            int b = stack[sp - 1], succ[3];
            int ns = successors(f, b, succ);
            if (next[b] < ns) {
                int s = succ[next[b]++];
                if (!seen[s]) {
                    seen[s] = true;
                    stack[sp++] = s;
                }
            } else {
                post[np++] = b;
                sp--;
            }
        }
        for (int b = 0; b < n; b++) {
            V->idom[b] = -1;
            V->order[b] = -1;
        }
        for (int i = 0; i < np; i++)
            V->order[post[i]] = np - 1 - i; /* reverse postorder: entry is 0 */
        /* the processed predecessors of each block (a block reached twice from q, as a
         * condbr with equal targets, meets q twice: intersect(q, q) is q) */
        V->idom[0] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = np - 2; i >= 0; i--) { /* reverse postorder, entry skipped */
                int b = post[i], nd = -1;
                for (int k = pred_at[b]; k < pred_at[b + 1]; k++) {
                    int q = pred[k];
                    if (V->order[q] < 0 || V->idom[q] < 0)
                        continue;
                    nd = nd < 0 ? q : intersect(V->idom, V->order, q, nd);
                }
                if (nd >= 0 && V->idom[b] != nd) {
                    V->idom[b] = nd;
                    changed = true;
                }
            }
        }
    }
    nj_free(post);
    nj_free(stack);
    nj_free(next);
    nj_free(seen);
    nj_free(pred);
    nj_free(pred_at);
    return ok;
}

static bool dominates(const Verifier *V, int a, int b) {
    if (V->idom[b] < 0)
        return false;
    for (;;) {
        if (a == b)
            return true;
        if (b == 0)
            return false;
        b = V->idom[b];
    }
}


static void check_inst(Verifier *V, const IrInst *in, int b, int pos) {
    /* operands: present, defined here, dominating */
    bool ok = true;
    for (int k = 0; k < in->nargs; k++) {
        const IrInst *a = in->args ? in->args[k] : NULL;
        if (!a) {
            ir_vreport(V, in, b, "operand %d of '%s' is missing", k + 1, ir_vopname(in));
            ok = false;
            continue;
        }
        Slot *s = lookup(V, a);
        if (!s->in) {
            ir_vreport(V, in, b, "operand %d of '%s' (%%%d) is not defined in this function", k + 1,
                   ir_vopname(in), a->id);
            ok = false;
            continue;
        }
        if (!a->type || a->type->kind == TY_VOID) {
            ir_vreport(V, in, b, "operand %d of '%s' is a '%s', which has no result", k + 1,
                   ir_vopname(in), ir_vopname(a));
            ok = false;
            continue;
        }
        if (V->idom[b] < 0)
            continue; /* unreachable: anything goes */
        if (s->block == b ? s->pos >= pos : !dominates(V, s->block, b))
            ir_vreport(V, in, b, "%%%d is used where its definition (in b%d) does not dominate",
                   a->id, s->block);
    }
    int want = ir_vnargs(V->p, in);
    if (want >= 0 && in->nargs != want) {
        ir_vreport(V, in, b, "'%s' has %d operands, expected %d", ir_vopname(in), in->nargs, want);
        ok = false;
    }
    if (in->op == IR_RET && in->nargs > 1) {
        ir_vreport(V, in, b, "'ret' has %d operands", in->nargs);
        ok = false;
    }
    if (!in->type) {
        ir_vreport(V, in, b, "'%s' has no type", ir_vopname(in));
        ok = false;
    }
    if (ok)
        ir_vtypes(V, in, b);
}

/* ---- per function -------------------------------------------------------------------------- */
static void verify_func(Verifier *V) {
    const IrFunc *f = V->f;
    if (f->nblocks < 1 || !f->blocks) {
        ir_vreport(V, NULL, -1, "the function has no blocks");
        return;
    }
    if (!f->ret) {
        ir_vreport(V, NULL, -1, "the function has no return type");
        return;
    }
    for (int i = 0; i < f->nparams; i++)
        if (!f->params || !f->params[i] || f->params[i]->kind == TY_VOID) {
            ir_vreport(V, NULL, -1, "parameter %d has no type", i);
            return;
        }
    if ((f->kind == IRF_KERNEL || f->kind == IRF_GUFUNC) && f->ret->kind != TY_VOID)
        ir_vreport(V, NULL, -1, "a %s returns void", f->kind == IRF_KERNEL ? "kernel" : "gufunc");

    /* 1. structure and the instruction table */
    size_t ninst = 0;
    for (int b = 0; b < f->nblocks; b++) {
        if (!f->blocks[b]) {
            ir_vreport(V, NULL, b, "block b%d is missing", b);
            return;
        }
        for (const IrInst *in = f->blocks[b]->first; in && ninst < (1u << 24); in = in->next)
            ninst++; /* bounded: a list that loops back on itself is reported below */
    }
    size_t cap = 16;
    while (cap < 2 * ninst)
        cap *= 2;
    V->table = nj_calloc(cap, sizeof(Slot));
    V->mask = cap - 1;
    int maxid = f->next_id > 0 ? f->next_id : 0;
    for (int b = 0; b < f->nblocks; b++)
        for (const IrInst *in = f->blocks[b]->first; in; in = in->next)
            if (in->id >= maxid && in->id < (1 << 24))
                maxid = in->id + 1;
    const IrInst **byid = nj_calloc((size_t)maxid + 1, sizeof(IrInst *));
    if (!V->table || !byid) {
        Loc none = {0};
        diag_error(V->diags, none, "out of memory in the IR verifier");
        V->errors++;
        nj_free(byid);
        return;
    }
    for (int b = 0; b < f->nblocks; b++) {
        const IrBlock *blk = f->blocks[b];
        if (blk->id != b)
            ir_vreport(V, NULL, b, "block b%d says it is b%d", b, blk->id);
        if (!blk->first) {
            ir_vreport(V, NULL, b, "block b%d is empty (it needs a terminator)", b);
            continue;
        }
        int pos = 0;
        const IrInst *last = NULL;
        for (const IrInst *in = blk->first; in; in = in->next, pos++) {
            Slot *s = lookup(V, in);
            if (s->in) {
                ir_vreport(V, in, b, "an instruction appears twice (also in b%d)", s->block);
                break; /* a cycle in the list would never end */
            }
            *s = (Slot){in, b, pos};
            if (ir_vterminator(in->op) && in->next)
                ir_vreport(V, in->next, b, "'%s' after the terminator '%s'", ir_vopname(in->next),
                       ir_vopname(in));
            bool has_result = in->type && in->type->kind != TY_VOID;
            if (has_result && in->id < 0)
                ir_vreport(V, in, b, "'%s' has a result but no SSA id", ir_vopname(in));
            else if (!has_result && in->id != -1)
                ir_vreport(V, in, b, "'%s' has no result but has SSA id %%%d", ir_vopname(in), in->id);
            else if (has_result && in->id < (1 << 24)) {
                if (byid[in->id])
                    ir_vreport(V, in, b, "%%%d is defined twice", in->id);
                byid[in->id] = in;
                if (in->id >= f->next_id)
                    ir_vreport(V, in, b, "%%%d is not below the function's next_id %d", in->id,
                           f->next_id);
            }
            last = in;
        }
        if (last != blk->last)
            ir_vreport(V, last, b, "the block's last pointer does not match its list");
        if (!ir_vterminator(last->op))
            ir_vreport(V, last, b, "block b%d does not end with a terminator (br condbr ret raise)",
                   b);
    }
    nj_free(byid);

    /* 2. dominators; 3. instructions */
    if (!dominators(V)) {
        Loc none = {0};
        diag_error(V->diags, none, "out of memory in the IR verifier");
        V->errors++;
    } else {
        for (int b = 0; b < f->nblocks; b++) {
            int pos = 0;
            for (const IrInst *in = f->blocks[b]->first; in; in = in->next, pos++) {
                if (lookup(V, in)->block != b || lookup(V, in)->pos != pos)
                    break; /* a repeated instruction, reported above */
                check_inst(V, in, b, pos);
            }
        }
    }
    nj_free(V->table);
    nj_free(V->idom);
    nj_free(V->order);
    V->table = NULL;
    V->idom = V->order = NULL;
}

bool ir_verify(const IrProgram *p, DiagList *diags) {
    Verifier V = {.p = p, .diags = diags};
    for (int k = 0; k < p->nraises; k++)
        if (p->raises[k].kind < RAISE_ZERO_DIVISION || p->raises[k].kind >= RAISE__COUNT) {
            diag_error(diags, p->raises[k].loc, "raise site %d has a bad kind %d", k + 1,
                       (int)p->raises[k].kind);
            V.errors++;
        }
    for (int i = 0; i < p->nfuncs; i++) {
        V.f = p->funcs[i];
        for (int j = 0; j < i; j++)
            if (p->funcs[j]->mangled && V.f->mangled && !strcmp(p->funcs[j]->mangled, V.f->mangled))
                ir_vreport(&V, NULL, -1, "two functions are called @%s", V.f->mangled);
        verify_func(&V);
    }
    return V.errors == 0;
}

/* typer_emit.c — the typer's emission helpers: errors, instructions and constants, casts
 * between number types (explicit IR casts), blocks and branches (a block is marked reachable
 * when a branch to it is emitted, so code after a return lands in an unreachable block), calls
 * of library symbols, raises, the counting of arrays the function owns (ty_own, ty_keep,
 * ty_release_owned), and the typer's own hidden variables, counted loops and walks over the
 * live entries of a dict or a set (the `for` statement over either included). In the inference
 * rounds (fn->emit false) they emit nothing and return NULL values; only types flow.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- emission helpers ------------------------------------------------------------------- */
void ty_error(Fn *fn, Loc loc, const char *fmt, ...) {
    if (!fn->emit)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(fn->tc->diags, DG_ERROR, loc, fmt, ap);
    va_end(ap);
}

IrInst *ty_emit(Fn *fn, IrOp op, const Type *t, Loc loc, int n, IrInst **args) {
    if (!fn->emit || !fn->cur)
        return NULL;
    for (int i = 0; i < n; i++)
        if (args && !args[i])
            return NULL; /* an operand failed: an error was already reported */
    return ir_emit(fn->f, fn->cur, op, t, loc, n, args);
}

IrInst *ty_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    if (from == to || !v)
        return v;
    if (ty_is_optional(to)) /* None or a value into an Optional: typer_optional.c */
        return ty_optional_cast(fn, v, from, to, loc);
    if (ty_is_complex(from) || ty_is_complex(to))
        return ty_complex_cast(fn, v, from, to, loc);
    if (from->kind == TY_LIST && to->kind == TY_LIST) /* typer_list.c */
        return ty_list_cast(fn, v, from, to, loc);
    if (from->kind == TY_DICT && to->kind == TY_DICT) /* {} getting its types: typer_dict.c */
        return ty_dict_cast(fn, v, from, to, loc);
    if (from->kind == TY_SET && to->kind == TY_SET) /* set() getting its type: typer_set.c */
        return ty_set_cast(fn, v, from, to, loc);
    if (from->kind == TY_TUPLE && to->kind == TY_TUPLE && from->nelems == to->nelems) {
        /* element by element */
        IrInst **el = arena_alloc(fn->tc->arena, sizeof *el * (size_t)(to->nelems + 1));
        if (!el)
            return NULL;
        for (int i = 0; i < to->nelems; i++) {
            IrInst *x = ty_emit(fn, IR_EXTRACT, from->elems[i], loc, 1, &v);
            if (x)
                x->imm.index = i;
            el[i] = ty_cast(fn, x, from->elems[i], to->elems[i], loc);
        }
        return ty_emit(fn, IR_TUPLE, to, loc, to->nelems, el);
    }
    bool ffrom = ty_is_float(from), fto = ty_is_float(to);
    if (v->op == IR_CONST && ty_is_scalar(to) && (fto || !ffrom)) {
        /* fold casts of constants (not float -> int: codegen converts those) */
        IrInst *c = ty_emit(fn, IR_CONST, to, loc, 0, NULL);
        if (!c)
            return NULL;
        if (ffrom)
            c->imm.f = to == ty_f32 ? (double)(float)v->imm.f : v->imm.f;
        else if (fto)
            c->imm.f = from == ty_u64 ? (double)(uint64_t)v->imm.i : (double)v->imm.i;
        else if (to == ty_bool)
            c->imm.i = v->imm.i != 0;
        else if (ty_bits(to) < 64) {
            int sh = 64 - ty_bits(to);
            uint64_t u = (uint64_t)v->imm.i << sh;
            c->imm.i = ty_is_signed(to) ? (int64_t)u >> sh : (int64_t)(u >> sh);
        } else {
            c->imm.i = v->imm.i;
        }
        if (fto && to == ty_f32)
            c->imm.f = (double)(float)c->imm.f;
        return c;
    }
    return ty_emit(fn, IR_CAST, to, loc, 1, &v);
}

/* A complex constant is made of its parts (the IR has no complex constants). */
static IrInst *complex_const(Fn *fn, const Type *t, double x, Loc loc) {
    IrInst *re = ty_const_float(fn, ty_complex_part(t), x, loc);
    IrInst *im = ty_const_float(fn, ty_complex_part(t), 0.0, loc);
    return ty_complex_make(fn, t, re, im, loc);
}

IrInst *ty_const_int(Fn *fn, const Type *t, int64_t x, Loc loc) {
    if (ty_is_complex(t))
        return complex_const(fn, t, (double)x, loc);
    IrInst *c = ty_emit(fn, IR_CONST, t, loc, 0, NULL);
    if (c)
        c->imm.i = x;
    return c;
}

IrInst *ty_const_float(Fn *fn, const Type *t, double x, Loc loc) {
    if (ty_is_complex(t))
        return complex_const(fn, t, x, loc);
    IrInst *c = ty_emit(fn, IR_CONST, t, loc, 0, NULL);
    if (c)
        c->imm.f = x;
    return c;
}

void ty_mark_reach(Fn *fn, IrBlock *b) {
    if (b->id >= fn->capreach) {
        int cap = fn->capreach ? fn->capreach * 2 : 32;
        while (cap <= b->id)
            cap *= 2;
        char *r = arena_alloc(fn->tc->arena, (size_t)cap);
        if (fn->capreach)
            memcpy(r, fn->reach, (size_t)fn->capreach);
        fn->reach = r;
        fn->capreach = cap;
    }
    fn->reach[b->id] = 1;
}

bool ty_reachable(Fn *fn, IrBlock *b) { return b->id < fn->capreach && fn->reach[b->id]; }

IrBlock *ty_block(Fn *fn) { return fn->emit ? ir_block_new(fn->f) : NULL; }
/* While inferring there are no blocks (ty_block gives NULL): cur stays, so that typing an
 * expression ahead with emit off (the operands of and/or) keeps the block emission goes on in. */
void ty_set_block(Fn *fn, IrBlock *b) {
    if (fn->emit)
        fn->cur = b;
}

void ty_br(Fn *fn, IrBlock *to, Loc loc) {
    if (!fn->emit || !fn->cur || ir_block_terminated(fn->cur))
        return;
    IrInst *in = ir_emit(fn->f, fn->cur, IR_BR, ty_void, loc, 0, NULL);
    in->imm.targets[0] = to->id;
    if (ty_reachable(fn, fn->cur))
        ty_mark_reach(fn, to);
}

void ty_condbr(Fn *fn, IrInst *c, IrBlock *t, IrBlock *f, Loc loc) {
    if (!fn->emit || !fn->cur || ir_block_terminated(fn->cur))
        return;
    if (!c) { /* the condition failed to type: keep the CFG well formed */
        ty_br(fn, t, loc);
        ty_mark_reach(fn, f);
        return;
    }
    IrInst *in = ir_emit(fn->f, fn->cur, IR_CONDBR, ty_void, loc, 1, &c);
    in->imm.targets[0] = t->id;
    in->imm.targets[1] = f->id;
    if (ty_reachable(fn, fn->cur)) {
        ty_mark_reach(fn, t);
        ty_mark_reach(fn, f);
    }
}

/* A call of the library function sym (stdlib/: cmath.py, npfunc.py; it joins any module that
 * imports the library's module), shown to the user as `shown`; its result owned (an array a
 * library function creates is a new reference). */
Val ty_lib_call(Fn *fn, const char *sym, const char *shown, const char *module, Val *a, int n,
                Loc loc) {
    const FuncInfo *fi = fe_find_func(fn->tc->m, sym);
    if (!fi) {
        ty_error(fn, loc, "%s needs `import %s` in this module", shown, module);
        return verr();
    }
    const Type *types[16];
    IrInst *args[16];
    for (int i = 0; i < n && i < 16; i++) {
        types[i] = a[i].t;
        args[i] = a[i].v;
    }
    IrFunc *f = ty_specialize_call(fn, fi, types, n, loc);
    if (!f)
        return verr();
    if (!fn->emit)
        return vval(f->ret, NULL);
    IrInst *r = ty_emit(fn, IR_CALL, f->ret, loc, n, args);
    if (r)
        r->imm.callee = f;
    return ty_own(fn, vval(f->ret, r), loc);
}

/* if (c) raise kind(msg): the raise in a block of its own, the code after it in another. */
void ty_raise_if(Fn *fn, IrInst *c, RaiseKind kind, const char *msg, Loc loc) {
    if (!c || !fn->emit)
        return;
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    ty_raise(fn, kind, msg, loc);
    ty_set_block(fn, ok);
}

void ty_raise(Fn *fn, RaiseKind kind, const char *msg, Loc loc) {
    if (!fn->emit || !fn->cur || ir_block_terminated(fn->cur))
        return;
    IrInst *in = ir_emit(fn->f, fn->cur, IR_RAISE, ty_void, loc, 0, NULL);
    in->imm.index = ir_raise_site(fn->tc->p, kind, msg, loc);
}

/* ---- references ----------------------------------------------------------------------------- */
static bool counted(Fn *fn, Val v) {
    return fn->emit && fn->cur && v.k == V_VAL && v.v && fn->tc->target == TARGET_CPU &&
           ty_has_refs(v.t);
}

static int owned_var(Fn *fn, const Type *t) {
    if (fn->nowned == fn->capowned) {
        int cap = fn->capowned ? fn->capowned * 2 : 8;
        int *o = arena_alloc(fn->tc->arena, sizeof *o * (size_t)cap);
        if (fn->nowned)
            memcpy(o, fn->owned, sizeof *o * (size_t)fn->nowned);
        fn->owned = o;
        fn->capowned = cap;
    }
    int var = ty_temp_var(fn, t);
    fn->owned[fn->nowned++] = var;
    return var;
}

Val ty_own(Fn *fn, Val v, Loc loc) {
    if (!counted(fn, v))
        return v;
    IrInst *st = ty_emit(fn, IR_OWN, ty_void, loc, 1, &v.v);
    if (st)
        st->imm.index = owned_var(fn, v.t);
    return v;
}

Val ty_keep(Fn *fn, Val v, Loc loc) {
    if (!counted(fn, v))
        return v;
    IrInst *st = ty_emit(fn, IR_STORE, ty_void, loc, 1, &v.v);
    if (st)
        st->imm.index = owned_var(fn, v.t);
    return v;
}

int ty_owned_mark(Fn *fn) { return fn->nowned; }

void ty_release_owned(Fn *fn, int mark, Loc loc) {
    for (int i = mark; i < fn->nowned && fn->emit; i++) {
        IrInst *c = ty_emit(fn, IR_CLEAR, ty_void, loc, 0, NULL);
        if (c)
            c->imm.index = fn->owned[i];
    }
    if (mark < fn->nowned)
        fn->nowned = mark;
}

/* ---- hidden variables and counted loops (the typer's own expansions) ------------------------ */
IrInst *ty_load_var(Fn *fn, int var, const Type *t, Loc loc) {
    IrInst *v = ty_emit(fn, IR_LOAD, t, loc, 0, NULL);
    if (v)
        v->imm.index = var;
    return v;
}

void ty_store_var(Fn *fn, int var, IrInst *v, Loc loc) {
    IrInst *st = ty_emit(fn, IR_STORE, ty_void, loc, 1, &v);
    if (st)
        st->imm.index = var;
}

IrInst *ty_loop_open(Fn *fn, TyLoop *L, IrInst *n, Loc loc) {
    L->var = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, L->var, i64c(fn, 0, loc), loc);
    L->head = ty_block(fn), L->body = ty_block(fn), L->exit = ty_block(fn);
    ty_br(fn, L->head, loc);
    ty_set_block(fn, L->head);
    IrInst *i = ty_load_var(fn, L->var, ty_i64, loc);
    ty_condbr(fn, cmp(fn, CMP_LT, i, n, loc), L->body, L->exit, loc);
    ty_set_block(fn, L->body);
    return i;
}

void ty_loop_close(Fn *fn, TyLoop *L, Loc loc) {
    IrInst *next = bin(fn, IR_ADD, ty_i64, ty_load_var(fn, L->var, ty_i64, loc), i64c(fn, 1, loc),
                       loc);
    ty_store_var(fn, L->var, next, loc);
    ty_br(fn, L->head, loc);
    ty_set_block(fn, L->exit);
}

/* A walk over the live entries of a dict or a set c: next_op (IR_DNEXT, IR_SNEXT) gives the first
 * live entry at or after an index, -1 past the last.  The next entry is fetched before the body
 * runs, so the body may delete this turn's entry.  The walk ends at done (a `for`'s else), or
 * at L->exit when done is NULL. */
IrInst *ty_entries_open(Fn *fn, TyLoop *L, IrOp next_op, IrInst *c, IrBlock *done, Loc loc) {
    IrInst *ops[2] = {c, i64c(fn, 0, loc)};
    L->var = ty_temp_var(fn, ty_i64);
    ty_store_var(fn, L->var, ty_emit(fn, next_op, ty_i64, loc, 2, ops), loc);
    L->head = ty_block(fn), L->body = ty_block(fn), L->exit = ty_block(fn);
    ty_br(fn, L->head, loc);
    ty_set_block(fn, L->head);
    IrInst *i = ty_load_var(fn, L->var, ty_i64, loc);
    ty_condbr(fn, cmp(fn, CMP_GE, i, i64c(fn, 0, loc), loc), L->body, done ? done : L->exit, loc);
    ty_set_block(fn, L->body);
    ops[1] = bin(fn, IR_ADD, ty_i64, i, i64c(fn, 1, loc), loc);
    ty_store_var(fn, L->var, ty_emit(fn, next_op, ty_i64, loc, 2, ops), loc);
    return i;
}

/* `for targets in c: body [else: orelse]` over c's live entries; targets(fn, s, c, i, how, loc)
 * assigns s's targets from entry i (NULL in the inference rounds, where the body is walked
 * once for its types). */
void ty_entries_for(Fn *fn, Node *s, Val c, IrOp next_op, TyEntryTargets targets, int how) {
    Loc loc = s->loc;
    if (!fn->emit) {
        targets(fn, s, c, NULL, how, loc);
        ty_loop_body(fn, &s->list, NULL, NULL, loc);
        ty_stmts(fn, &s->list2);
        return;
    }
    TyLoop L;
    IrBlock *orelse = s->list2.n ? ty_block(fn) : NULL;
    IrInst *i = ty_entries_open(fn, &L, next_op, c.v, orelse, loc);
    targets(fn, s, c, i, how, loc);
    ty_loop_body(fn, &s->list, L.exit, L.head, loc);
    ty_br(fn, L.head, loc);
    if (orelse) {
        ty_set_block(fn, orelse);
        ty_stmts(fn, &s->list2);
        ty_br(fn, L.exit, loc);
    }
    ty_set_block(fn, L.exit);
}

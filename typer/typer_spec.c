/* typer_spec.c — specializations: a function typed for one tuple of argument types. specialize
 * runs the inference rounds (walk the body with emit = false until no variable's type changes)
 * and then one emission round into an IrFunc, memoized per program by mangled name; calls of
 * module functions specialize their callee on the spot (ty_specialize_call), and a call of a
 * specialization still being typed is recursion (below). ty_specialize is the typer's entry:
 * the requested function plus, for entry points, a trampoline that the dispatcher calls.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- functions -------------------------------------------------------------------------------- */
/* the statements fn is compiled from: its def's (a generator's too when it is compiled as a
 * coroutine, typer_genobj.c), or for a generator of other values that Python calls, a body that
 * returns the list of its values (typer_gen.c) */
static NodeList *body_of(Fn *fn) {
    if (fn->body)
        return fn->body;
    return ty_is_generator(fn->fi) && !fn->coro ? ty_gen_entry_body(fn) : &fn->fi->def->list;
}

static void walk_function(Fn *fn) {
    Node *def = fn->fi->def;
    /* parameters are variables first assigned their argument */
    for (int i = 0; i < fn->f->nparams; i++) {
        Val pv = {.k = V_VAL, .t = fn->f->params[i]};
        if (fn->emit) {
            pv.v = ty_emit(fn, IR_PARAM, pv.t, def->params.items[i]->loc, 0, NULL);
            if (pv.v)
                pv.v->imm.index = i;
        }
        ty_assign_name(fn, def->params.items[i]->name, pv, def->params.items[i]->loc);
    }
    ty_stmts(fn, body_of(fn));
}

/* fn's inference left variables with two types: fn->body = its body with those variables
 * versioned at the top level (true), or nothing to do (false) */
static bool retype_versioned(Fn *fn) {
    const char *names[32];
    int n = 0;
    for (int i = 0; i < fn->nvars && n < 32; i++)
        if (fn->vars[i].bad && !strchr(fn->vars[i].name, '$'))
            names[n++] = fn->vars[i].name;
    if (!n)
        return false;
    fn->body = ty_version_body(fn, body_of(fn), names, n);
    return fn->body != NULL;
}

static const char *kind_word(IrFuncKind k) {
    return k == IRF_KERNEL ? "a kernel" : k == IRF_GUFUNC ? "a gufunc" : "this function";
}

/* ---- recursion ----------------------------------------------------------------------------
 * A call of a specialization still being typed is recursive (Numba's RecursiveCall, in
 * numba/core/typeinfer.py: resolve_call).  Its type is the return type inferred so far from
 * the returns that do not depend on the recursion:
 *   - the function calling itself: its own walker's return type; the inference rounds go on
 *     until it stops changing, so `if n < 1: return 1` ... `return f(n - 1) * 0.5` settles on
 *     float64 in both the call and the function, as Numba's propagation does;
 *   - a function further up the call chain (mutual recursion, is_even -> is_odd -> is_even):
 *     a partial inference of that function with every recursive call left untyped (Numba's
 *     return_types_from_partial), whose result is checked against the final type once the
 *     function is done (check_assumptions);
 *   - a function with no `return value` returns nothing, whatever its recursion does.
 * No return type at all is Numba's "cannot type infer runaway recursion", an error at each
 * recursive call. */
static bool has_value_return(const NodeList *body) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        if ((s->kind == ND_RETURN && s->a) || has_value_return(&s->list) ||
            has_value_return(&s->list2))
            return true;
    }
    return false;
}

static void walk_function(Fn *fn);

/* The return type of g (being inferred) from its returns that do not recurse; NULL: none. */
static const Type *partial_ret(Fn *g) {
    if (g->ret_declared)
        return g->ret;
    Fn c = {.tc = g->tc, .fi = g->fi, .f = g->f, .skip_rec = true};
    int round = 0;
    do {
        c.changed = false;
        c.nloops = 0;
        walk_function(&c);
    } while (c.changed && ++round < 32);
    const Type *u = c.ret && g->ret ? ty_unify(c.ret, g->ret) : NULL;
    return u ? u : c.ret ? c.ret : g->ret;
}

static void assume(Tc *tc, int slot, const Type *t, Loc loc) {
    if (tc->nassume == tc->capassume) {
        int cap = tc->capassume ? tc->capassume * 2 : 8;
        struct TyAssume *a = arena_alloc(tc->arena, sizeof *a * (size_t)cap);
        if (tc->nassume)
            memcpy(a, tc->assume, sizeof *a * (size_t)tc->nassume);
        tc->assume = a;
        tc->capassume = cap;
    }
    tc->assume[tc->nassume++] = (struct TyAssume){slot, t, loc};
}

static void check_assumptions(Tc *tc, int slot) {
    IrFunc *f = tc->spec_funcs[slot];
    for (int i = 0; i < tc->nassume; i++)
        if (tc->assume[i].slot == slot && tc->assume[i].t != f->ret)
            diag_error(tc->diags, tc->assume[i].loc,
                       "this recursive call of '%s' was typed %s from the returns of '%s' that "
                       "do not recurse, but '%s' returns %s: make every return give one type",
                       f->name, tc->assume[i].t->name, f->name, f->name, f->ret->name);
}

/* A call from fn of the specialization `slot`, which is still being typed.  Returns its
 * IrFunc with f->ret set to the call's type, or NULL (unknown while inferring, or an error
 * reported). */
static IrFunc *recursive_call(Fn *fn, int slot, Loc loc) {
    Tc *tc = fn->tc;
    IrFunc *f = tc->spec_funcs[slot];
    Fn *g = tc->spec_fn[slot];
    if (!g || (f->kind != IRF_NJIT && f->kind != IRF_DEVICE)) {
        ty_error(fn, loc, "'%s' is compiled as %s here and cannot be called recursively",
                 f->name, f->kind == IRF_KERNEL ? "a kernel" : f->kind == IRF_GUFUNC ? "a gufunc"
                                                                                 : "a ufunc");
        return NULL;
    }
    if (fn->skip_rec)
        return NULL; /* partial inference: left untyped */
    if (g->emit) {   /* g's types are final (g == fn: typing its own body's code) */
        if (g->runaway) {
            ty_error(fn, loc,
                     "cannot infer the return type of '%s': every return depends on a "
                     "recursive call (Numba: cannot type infer runaway recursion); add a "
                     "return that does not recurse",
                     f->name);
            return NULL;
        }
        if (slot == 0 && fn->emit)
            tc->root_called = true;
        return f;
    }
    const Type *rt = g == fn ? g->ret : partial_ret(g);
    if (!rt && !has_value_return(&g->fi->def->list))
        rt = ty_void;
    if (!rt) {
        if (g == fn)
            fn->rec_unknown = true;
        ty_error(fn, loc,
                 "cannot infer the return type of '%s': every return depends on a recursive "
                 "call (Numba: cannot type infer runaway recursion); add a return that does "
                 "not recurse",
                 f->name);
        return NULL;
    }
    if (fn->emit) {
        assume(tc, slot, rt, loc);
        if (slot == 0)
            tc->root_called = true;
    }
    f->ret = rt;
    return f;
}

static IrFunc *specialize(Tc *tc, const FuncInfo *fi, const Type **args, int nargs,
                          const Node *const *lits, IrFuncKind kind, const Type *declared_ret,
                          Loc call_loc) {
    Node *def = fi->def;
    if (nargs != def->params.n) {
        diag_error(tc->diags, call_loc, "%s() takes %d argument%s but %d %s given", fi->name,
                   def->params.n, def->params.n == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        return NULL;
    }
    const char *mangled = ty_literal_mangle(tc->arena, ir_mangle(tc->arena, fi->name, args, nargs),
                                            lits, nargs);
    for (int i = 0; i < tc->nspecs; i++) {
        if (strcmp(tc->spec_names[i], mangled))
            continue;
        if (!tc->spec_done[i]) {
            diag_error(tc->diags, call_loc,
                       "recursive call of '%s' is not supported by numjit yet", fi->name);
            return NULL;
        }
        return tc->spec_funcs[i];
    }
    if (tc->depth > 64) {
        diag_error(tc->diags, call_loc, "calls are nested too deeply");
        return NULL;
    }
    if (tc->nspecs == tc->capspecs) {
        int cap = tc->capspecs ? tc->capspecs * 2 : 8;
        const char **n = arena_alloc(tc->arena, sizeof *n * (size_t)cap);
        IrFunc **f = arena_alloc(tc->arena, sizeof *f * (size_t)cap);
        bool *d = arena_alloc(tc->arena, sizeof *d * (size_t)cap);
        Fn **w = arena_alloc(tc->arena, sizeof *w * (size_t)cap);
        if (tc->nspecs) {
            memcpy(n, tc->spec_names, sizeof *n * (size_t)tc->nspecs);
            memcpy(f, tc->spec_funcs, sizeof *f * (size_t)tc->nspecs);
            memcpy(d, tc->spec_done, sizeof *d * (size_t)tc->nspecs);
            memcpy(w, tc->spec_fn, sizeof *w * (size_t)tc->nspecs);
        }
        tc->spec_names = n, tc->spec_funcs = f, tc->spec_done = d, tc->spec_fn = w;
        tc->capspecs = cap;
    }
    int slot = tc->nspecs++;
    IrFunc *f = ir_func_new(tc->p, fi->name, kind, nargs);
    tc->spec_names[slot] = mangled;
    tc->spec_funcs[slot] = f;
    tc->spec_done[slot] = false;
    f->mangled = mangled;
    f->loc = def->loc;
    f->error_model = kind == IRF_NJIT || kind == IRF_DEVICE ? fi->error_model : EM_NUMPY;
    if (kind == IRF_DEVICE)
        f->error_model = EM_NUMPY;
    f->fastmath = fi->fastmath;
    f->fastmath_flags = fi->fastmath_flags;
    f->boundscheck = fe_boundscheck(fi);
    for (int i = 0; i < nargs; i++) {
        f->params[i] = args[i];
        f->param_names[i] = def->params.items[i]->name;
    }
    tc->depth++;
    Fn fn = {.tc = tc, .fi = fi, .f = f};
    fn.coro = tc->gen_lazy && ty_is_generator(fi) && kind == IRF_NJIT;
    bool any = false;
    for (int i = 0; lits && i < nargs; i++)
        any |= lits[i] != NULL;
    if (any) {
        const Node **l = arena_alloc(tc->arena, sizeof *l * (size_t)nargs);
        memcpy(l, lits, sizeof *l * (size_t)nargs);
        fn.lits = l;
    }
    tc->spec_fn[slot] = &fn;
    if (declared_ret) {
        fn.ret = declared_ret;
        fn.ret_declared = true;
    }
    /* 1. inference rounds (a recursive call has the return type found so far) */
    int round = 0;
    do {
        fn.changed = false;
        fn.nloops = 0;
        walk_function(&fn);
    } while (fn.changed && ++round < 32);
    /* a variable given a value of another type: typed again with versions (typer_version.c) */
    if (!fn.body && retype_versioned(&fn)) {
        fn = (Fn){.tc = tc, .fi = fi, .f = f, .body = fn.body, .coro = fn.coro, .lits = fn.lits};
        if (declared_ret) {
            fn.ret = declared_ret;
            fn.ret_declared = true;
        }
        round = 0;
        do {
            fn.changed = false;
            fn.nloops = 0;
            walk_function(&fn);
        } while (fn.changed && ++round < 32);
    }
    fn.runaway = !fn.ret && fn.rec_unknown;
    if (fn.coro) { /* calling it gives the generator object; its values are the yields' */
        f->yield = fn.yield_t ? fn.yield_t : ty_i64;
        fn.ret = ty_genobj_type();
    }
    /* a function returning a value that can also reach its end returns None there: Optional */
    if (fn.ret && !fn.ret_declared && !fn.coro && kind == IRF_NJIT && fn.ret != ty_void &&
        !ty_is_optional(fn.ret) && fn.ret->kind != TY_RANGE && ty_falls_through(&fn, body_of(&fn)))
        fn.ret = ty_optional(fn.ret);
    /* 2. emission */
    f->ret = fn.ret ? fn.ret : ty_void;
    if ((kind == IRF_KERNEL || kind == IRF_GUFUNC) && f->ret != ty_void) {
        diag_error(tc->diags, fn.ret_loc, "%s cannot return a value", kind_word(kind));
        f->ret = ty_void;
    }
    if (kind == IRF_SCALAR && f->ret == ty_void)
        diag_error(tc->diags, def->loc, "a ufunc's function must return a value");
    int nerr = tc->diags->nerrors;
    fn.emit = true;
    for (int i = 0; i < fn.nvars; i++) {
        TyVar *v = &fn.vars[i];
        if (v->type)
            v->irvar = ir_var_new(f, v->name, v->type);
    }
    fn.cur = ir_block_new(f);
    ty_mark_reach(&fn, fn.cur);
    fn.nloops = 0;
    walk_function(&fn);
    if (fn.cur && !ir_block_terminated(fn.cur)) {
        Loc end = def->loc;
        if (f->ret == ty_void || f->yield) {
            ir_emit(f, fn.cur, IR_RET, ty_void, end, 0, NULL);
        } else if (ty_is_optional(f->ret)) { /* the implicit `return None` */
            IrInst *none = ty_cast(&fn, ty_none_value(&fn, end).v, ty_none(), f->ret, end);
            if (none)
                ir_emit(f, fn.cur, IR_RET, ty_void, end, 1, &none);
        } else {
            if (ty_reachable(&fn, fn.cur) && tc->diags->nerrors == nerr)
                diag_error(tc->diags, def->loc,
                           "'%s' can reach its end without returning a %s (numjit cannot "
                           "return None from a function that returns a value)",
                           fi->name, f->ret->name);
            IrInst *z = ty_is_float(f->ret) ? ty_const_float(&fn, f->ret, 0, end)
                        : ty_is_scalar(f->ret) ? ty_const_int(&fn, f->ret, 0, end) : NULL;
            if (z)
                ir_emit(f, fn.cur, IR_RET, ty_void, end, 1, &z);
            else
                ir_emit(f, fn.cur, IR_RAISE, ty_void, end, 0, NULL)->imm.index =
                    ir_raise_site(tc->p, RAISE_VALUE, "unreachable", end);
        }
    }
    /* blocks left empty (created but never entered) still need a terminator */
    for (int i = 0; i < f->nblocks; i++) {
        IrBlock *b = f->blocks[i];
        if (!ir_block_terminated(b))
            ir_emit(f, b, IR_RAISE, ty_void, def->loc, 0, NULL)->imm.index =
                ir_raise_site(tc->p, RAISE_VALUE, "unreachable", def->loc);
    }
    tc->spec_done[slot] = true;
    tc->spec_fn[slot] = NULL;
    check_assumptions(tc, slot);
    tc->depth--;
    return f;
}

IrFunc *ty_specialize_call(Fn *fn, const FuncInfo *fi, const Type **args, int n, Loc loc) {
    return ty_specialize_call_lits(fn, fi, args, NULL, n, loc);
}

IrFunc *ty_specialize_call_lits(Fn *fn, const FuncInfo *fi, const Type **args,
                                const Node *const *lits, int n, Loc loc) {
    Tc *tc = fn->tc;
    IrFuncKind kind = tc->target == TARGET_NVPTX ? IRF_DEVICE : IRF_NJIT;
    if (fi->kind == FK_KERNEL) {
        ty_error(fn, loc, "a kernel cannot be called from compiled code; launch it with "
                          "%s[blocks, threads](...)", fi->name);
        return NULL;
    }
    if (n != fi->def->params.n) {
        ty_error(fn, loc, "%s() takes %d argument%s but %d %s given", fi->name,
                 fi->def->params.n, fi->def->params.n == 1 ? "" : "s", n, n == 1 ? "was" : "were");
        return NULL;
    }
    if (fi->taint) {
        ty_error(fn, loc, "'%s' cannot be compiled: it uses Python that numjit does not support",
                 fi->name);
        if (fn->emit)
            diag_add(tc->diags, DG_NOTE, fi->taint_loc, "%s", fi->taint);
        return NULL;
    }
    const char *mangled = ty_literal_mangle(tc->arena, ir_mangle(tc->arena, fi->name, args, n),
                                            lits, n);
    for (int i = 0; i < tc->nspecs; i++)
        if (!tc->spec_done[i] && !strcmp(tc->spec_names[i], mangled))
            return recursive_call(fn, i, loc);
    int before = tc->diags->nerrors;
    IrFunc *f = specialize(tc, fi, args, n, lits, kind, NULL, loc);
    if (tc->diags->nerrors > before && f) {
        diag_add(tc->diags, DG_NOTE, loc, "in the call of '%s' here", fi->name);
        return NULL;
    }
    return f;
}

/* The entry (funcs[0]) takes its arrays without their reference counts (wrappers pass
 * borrowed arrays: docs/design-notes.md), so compiled code that calls it recursively with an
 * array it made would hand over an array the callee cannot keep.  When that can happen, the
 * body moves to a function of the full ABI, `<mangled>$rec`, which the recursive calls
 * already name, and the entry becomes a call of it. */
static void entry_trampoline(Tc *tc, const FuncInfo *fi, IrFunc *body) {
    bool arrays = false;
    for (int i = 0; i < body->nparams; i++)
        arrays |= ty_has_refs(body->params[i]);
    if (!arrays || tc->target != TARGET_CPU || body->kind != IRF_NJIT || body->nparams > 16)
        return;
    IrProgram *p = tc->p;
    IrFunc *t = ir_func_new(p, fi->name, body->kind, body->nparams);
    p->funcs[p->nfuncs - 1] = p->funcs[0];
    p->funcs[0] = t;
    t->mangled = body->mangled;
    body->mangled = arena_printf(tc->arena, "%s$rec", body->mangled);
    t->loc = body->loc;
    t->error_model = body->error_model;
    t->fastmath = body->fastmath;
    t->fastmath_flags = body->fastmath_flags;
    t->boundscheck = body->boundscheck;
    t->ret = body->ret;
    IrInst *args[16];
    Fn fn = {.tc = tc, .fi = fi, .f = t, .emit = true};
    fn.cur = ir_block_new(t);
    ty_mark_reach(&fn, fn.cur);
    for (int i = 0; i < t->nparams && i < 16; i++) {
        t->params[i] = body->params[i];
        t->param_names[i] = body->param_names[i];
        args[i] = ty_emit(&fn, IR_PARAM, t->params[i], t->loc, 0, NULL);
        args[i]->imm.index = i;
    }
    IrInst *r = ty_emit(&fn, IR_CALL, t->ret, t->loc, t->nparams, args);
    r->imm.callee = body;
    ty_own(&fn, vval(t->ret, r), t->loc);
    ir_emit(t, fn.cur, IR_RET, ty_void, t->loc, t->ret == ty_void ? 0 : 1, &r);
}

IrProgram *ty_specialize(Arena *arena, const TyRequest *req, DiagList *diags) {
    const FuncInfo *fi = fe_find_func(req->module, req->func);
    if (!fi) {
        diag_error(diags, (Loc){0}, "no function named '%s' in %s", req->func,
                   req->module->src && req->module->src->name ? req->module->src->name
                                                              : "the module");
        return NULL;
    }
    if (fi->taint) { /* a lazily compiled module: what the parser could not take, now */
        diag_error(diags, fi->taint_loc, "%s", fi->taint);
        diag_add(diags, DG_NOTE, fi->def->loc, "in '%s', which numjit therefore cannot compile",
                 fi->name);
        return NULL;
    }
    Tc tc = {.arena = arena, .m = req->module, .diags = diags, .target = req->target};
    tc.p = ir_program_new(arena, req->target);
    /* a generator of numbers that Python calls runs lazily, as a coroutine; one of other values
     * is compiled again as the list of its values (typer_genobj.c) */
    tc.gen_lazy = ty_is_generator(fi) && req->target == TARGET_CPU && req->kind == IRF_NJIT;
    int before = diags->nerrors;
    IrFunc *f = specialize(&tc, fi, req->args, req->nargs, NULL, req->kind, req->ret,
                           fi->def->loc);
    if (f && f->yield && diags->nerrors == before && !ty_genobj_lazy_ok(f->yield)) {
        tc = (Tc){.arena = arena, .m = req->module, .diags = diags, .target = req->target};
        tc.p = ir_program_new(arena, req->target);
        f = specialize(&tc, fi, req->args, req->nargs, NULL, req->kind, req->ret,
                       fi->def->loc);
    }
    if (!f || diags->nerrors > before || arena_failed(arena))
        return NULL;
    if (ty_is_generator(fi) && f->ret->kind == TY_LIST && f->ret->dtype &&
        !ty_is_elem(f->ret->dtype) && f->ret->dtype != ty_str) { /* its values' list: typer_gen.c */
        diag_error(diags, fi->def->loc, "'%s' is a generator of %s: numjit gives Python "
                   "generators of numbers, booleans and strings, not yet of %s (compiled code "
                   "iterates it: for x in %s(...))", fi->name, f->ret->dtype->name,
                   f->ret->dtype->kind == TY_ARRAY ? "arrays" : "tuples", fi->name);
        return NULL;
    }
    if (!ty_list_result_ok(diags, fi->name, f->ret, fi->def->loc) ||  /* typer_list.c */
        !ty_dict_result_ok(diags, fi->name, f->ret, fi->def->loc) ||  /* typer_dict.c */
        !ty_set_result_ok(diags, fi->name, f->ret, fi->def->loc) ||   /* typer_set.c */
        !ty_tuple_result_ok(diags, fi->name, f->ret, fi->def->loc))   /* typer_tuple.c */
        return NULL;
    if (tc.root_called)
        entry_trampoline(&tc, fi, f);
    return tc.p;
}

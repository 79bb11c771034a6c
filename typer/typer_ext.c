/* typer_ext.c — names the host program types: Numba's @overload, overload_method and
 * overload_attribute, answered through the extension hook (include/numjit.h has the protocol;
 * runtime/extension.c adapts the public hook; the Python package's numjit.extending answers).
 *
 * How a call of an extension is typed:
 *   1. A name no def, constant, import or builtin of the module binds (ty_ext_name), a
 *      function of a library module that the registry has no row for (ty_ext_module_attr:
 *      "numpy.isclose"), or an attribute no array or scalar has (ty_ext_attr), is offered to the hook once per compile
 *      ("is it yours?").  A yes makes the name a callable whose row (ext_func_row,
 *      ext_method_row) has ext_call as its handler; an attribute is typed at once as a call
 *      with the object alone.
 *   2. At each call the arguments are typed and the hook is asked, once per compile and tuple
 *      of types, for the implementation: a module table (the implementation's text, which the
 *      host compiled) and the name of the def in it.  It may decline (Numba's typing function
 *      returning None): an error at the call, as Numba's "No implementation of function".
 *   3. The def is specialized for the argument types like any callee, with the typer's module
 *      switched to the implementation's for the time of it (its names are its own: its
 *      imports, constants and helpers).  The implementation's defs are renamed NAME$xN in a
 *      copy of its table, N counting the implementation modules of this compile, because
 *      specializations are memoized by mangled name and every implementation tends to be
 *      called `impl`; ty_ext_func finds a def by its own name inside such a copy.
 * What the hook said is kept in the compile's TyExt (Tc.ext), so the inference rounds, which
 * walk every call several times, ask Python once.
 */
#include "typer_internal.h"
#include "../include/numjit.h"
#include "../lib/lib.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static TyExtHook hook_fn;
static void *hook_arg;

void ty_set_ext_hook(TyExtHook hook, void *arg) {
    pthread_mutex_lock(&hook_mu);
    hook_fn = hook;
    hook_arg = arg;
    pthread_mutex_unlock(&hook_mu);
}

static int ask(int kind, const char *file, const char *name, const char *attr, int nargs,
               const char *const *args, const ModuleInfo **m, char **impl, char **msg) {
    pthread_mutex_lock(&hook_mu);
    TyExtHook h = hook_fn;
    void *arg = hook_arg;
    pthread_mutex_unlock(&hook_mu);
    *m = NULL;
    *impl = *msg = NULL;
    if (!h)
        return NJ_EXT_NOT_MINE;
    return h(arg, kind, file, name, attr, nargs, args, m, impl, msg);
}

/* A type as Numba spells it (its messages, and what numjit.types parses): arrays as
 * array(float64, 1d, C), the rest as numjit names them. */
static const char *spell(Arena *a, const Type *t) {
    if (t->kind != TY_ARRAY || t->readonly)
        return t->name;
    return arena_printf(a, "array(%s, %dd, %c)", t->dtype->name, t->ndim, (char)t->layout);
}

/* What the hook said, per compile. */
typedef struct ExtAnswer {
    int kind;
    const char *file, *name, *attr; /* file: NULL for methods and attributes (not per file) */
    const char *key;                /* the argument types mangled; NULL: "is it yours?" */
    int status;                     /* NJ_EXT_* */
    const char *msg;                /* declined or error: why (may be NULL) */
    const ModuleInfo *m;            /* an implementation: the renamed copy of its table */
    const FuncInfo *fi;             /* and its def */
} ExtAnswer;

typedef struct ExtCopy {
    const ModuleInfo *orig;
    ModuleInfo *copy;
    int serial;
} ExtCopy;

struct TyExt {
    ExtAnswer *ans;
    int nans, capans;
    ExtCopy *copies;
    int ncopies, capcopies;
};

static struct TyExt *state(Tc *tc) {
    if (!tc->ext)
        tc->ext = arena_alloc(tc->arena, sizeof *tc->ext);
    return tc->ext;
}

static bool same(const char *a, const char *b) {
    return a == b || (a && b && !strcmp(a, b));
}

static ExtAnswer *find_answer(Tc *tc, int kind, const char *file, const char *name,
                              const char *attr, const char *key) {
    struct TyExt *x = state(tc);
    for (int i = 0; i < x->nans; i++) {
        ExtAnswer *a = &x->ans[i];
        if (a->kind == kind && same(a->file, file) && same(a->name, name) &&
            same(a->attr, attr) && same(a->key, key))
            return a;
    }
    return NULL;
}

static ExtAnswer *new_answer(Tc *tc) {
    struct TyExt *x = state(tc);
    if (x->nans == x->capans) {
        int cap = x->capans ? x->capans * 2 : 8;
        ExtAnswer *n = arena_alloc(tc->arena, sizeof *n * (size_t)cap);
        if (x->nans)
            memcpy(n, x->ans, sizeof *n * (size_t)x->nans);
        x->ans = n;
        x->capans = cap;
    }
    return &x->ans[x->nans++];
}

/* The renamed copy of an implementation's module table (made once per compile). */
static ExtCopy *copy_of(Tc *tc, const ModuleInfo *orig) {
    struct TyExt *x = state(tc);
    for (int i = 0; i < x->ncopies; i++)
        if (x->copies[i].orig == orig)
            return &x->copies[i];
    if (x->ncopies == x->capcopies) {
        int cap = x->capcopies ? x->capcopies * 2 : 4;
        ExtCopy *n = arena_alloc(tc->arena, sizeof *n * (size_t)cap);
        if (x->ncopies)
            memcpy(n, x->copies, sizeof *n * (size_t)x->ncopies);
        x->copies = n;
        x->capcopies = cap;
    }
    ExtCopy *c = &x->copies[x->ncopies];
    c->orig = orig;
    c->serial = ++x->ncopies;
    c->copy = arena_alloc(tc->arena, sizeof *c->copy);
    *c->copy = *orig;
    FuncInfo *funcs = arena_alloc(tc->arena, sizeof *funcs * (size_t)(orig->nfuncs + 1));
    for (int i = 0; i < orig->nfuncs; i++) {
        funcs[i] = orig->funcs[i];
        if (!funcs[i].library) /* library defs are the same text everywhere: shared names */
            funcs[i].name = arena_printf(tc->arena, "%s$x%d", funcs[i].name, c->serial);
    }
    c->copy->funcs = funcs;
    return c;
}

const FuncInfo *ty_ext_func(Tc *tc, const char *name) {
    if (!tc->ext)
        return NULL;
    for (int i = 0; i < tc->ext->ncopies; i++) {
        ExtCopy *c = &tc->ext->copies[i];
        if (c->copy != tc->m)
            continue;
        const char *renamed = arena_printf(tc->arena, "%s$x%d", name, c->serial);
        return fe_find_func(c->copy, renamed);
    }
    return NULL;
}

static const char *file_of(Tc *tc) {
    return tc->m->src && tc->m->src->name ? tc->m->src->name : "<string>";
}

/* Step 1: whether the hook answers (kind, name, attr); asked once per compile. */
static bool is_mine(Tc *tc, int kind, const char *file, const char *name, const char *attr) {
    ExtAnswer *a = find_answer(tc, kind, file, name, attr, NULL);
    if (!a) {
        const ModuleInfo *m;
        char *impl, *msg;
        int r = ask(kind, file, name, attr, -1, NULL, &m, &impl, &msg);
        free(impl);
        free(msg);
        a = new_answer(tc);
        *a = (ExtAnswer){.kind = kind, .file = file, .name = arena_strdup(tc->arena, name),
                         .attr = attr ? arena_strdup(tc->arena, attr) : NULL, .status = r};
    }
    return a->status == NJ_EXT_MINE;
}

static Val ext_call(Fn *fn, const LibEntry *le, Node *call, Val callee);

static const LibEntry ext_func_row = {"numba.extending.overload", "*args", 0, NULL, ext_call,
                                      "overload", 0, 0};
static const LibEntry ext_method_row = {"numba.extending.overload_method", "*args", 0, NULL,
                                        ext_call, "overload_method", NJ_EXT_METHOD, 0};

bool ty_ext_name(Fn *fn, const char *name, Loc loc, Val *out) {
    (void)loc;
    Tc *tc = fn->tc;
    if (fn->tc->target != TARGET_CPU || !is_mine(tc, NJ_EXT_FUNC, file_of(tc), name, NULL))
        return false;
    *out = (Val){.k = V_BUILTIN, .name = name, .lib = &ext_func_row};
    return true;
}

bool ty_ext_module_attr(Fn *fn, const char *mod, const char *attr, Loc loc, Val *out) {
    (void)loc;
    Tc *tc = fn->tc;
    if (tc->target != TARGET_CPU)
        return false;
    const char *full = arena_printf(tc->arena, "%s.%s", lib_module_name(mod), attr);
    if (lib_lookup(full) || !is_mine(tc, NJ_EXT_FUNC, file_of(tc), full, NULL))
        return false; /* numjit's own row comes first */
    *out = (Val){.k = V_BUILTIN, .name = full, .lib = &ext_func_row};
    return true;
}

/* The name the hook knows an object's type by: "ndarray" for arrays, else the type's. */
static const char *owner_name(const Type *t) {
    return t->kind == TY_ARRAY ? "ndarray" : t->name;
}

/* A call's arguments as the hook is asked about them: the positional ones, then the keywords
 * (kw[i] their names, NULL for a positional one), each with the literal it stands for
 * (typer_literal.c), or NULL. */
typedef struct ExtArgs {
    Val a[16];
    const Node *lit[16];
    const char *kw[16];
    int n;
} ExtArgs;

/* An argument as the hook reads it: "int64", "Literal[int](3)", "order=Literal[int](3)". */
static const char *spell_arg(Arena *ar, const ExtArgs *x, int i) {
    const char *lit = ty_literal_spelling(ar, x->lit[i], x->a[i].t);
    const char *t = lit ? lit : spell(ar, x->a[i].t);
    return x->kw[i] ? arena_printf(ar, "%s=%s", x->kw[i], t) : t;
}

/* The implementation fi's parameters bound to the call's arguments as Python binds them
 * (positional, keywords, fi's defaults), in out[] with their literals in lits[] (NULL where
 * fi does not specialize on one); false after an error at loc. */
static bool bind_impl(Fn *fn, const FuncInfo *fi, const ExtArgs *x, Val *out, const Node **lits,
                      int *nout, Loc loc) {
    const NodeList *ps = &fi->def->params;
    int npos = 0;
    while (npos < x->n && !x->kw[npos])
        npos++;
    bool star = ps->n && ps->items[ps->n - 1]->ival == 1;
    if (star || (npos == x->n && npos == ps->n)) { /* as written: positional only */
        if (star && npos < x->n) {
            ty_error(fn, loc, "keyword arguments in a call of an extension whose "
                     "implementation takes *args are not supported by numjit");
            return false;
        }
        for (int i = 0; i < x->n; i++)
            out[i] = x->a[i], lits[i] = NULL;
        *nout = x->n;
        return true;
    }
    if (ps->n > 16 || npos > ps->n) {
        ty_error(fn, loc, "the implementation of '%s' takes %d arguments but %d were given",
                 fi->name, ps->n, npos);
        return false;
    }
    for (int k = 0; k < ps->n; k++) {
        const char *pname = ps->items[k]->name;
        int from = k < npos ? k : -1;
        for (int i = npos; i < x->n && from < 0; i++)
            if (!strcmp(x->kw[i], pname))
                from = i;
        lits[k] = NULL;
        if (from >= 0) {
            out[k] = x->a[from];
            lits[k] = x->lit[from];
        } else if (ps->items[k]->a) { /* the default, typed in the implementation's module */
            out[k] = ty_value(fn, ps->items[k]->a);
            if (out[k].k != V_VAL)
                return false;
            lits[k] = ty_literal_of(fn, ps->items[k]->a);
        } else {
            ty_error(fn, loc, "missing a required argument: '%s' in the call of the "
                     "implementation of '%s'", pname, fi->name);
            return false;
        }
        if (lits[k] && !ty_wants_literal(fn, fi, k))
            lits[k] = NULL;
    }
    for (int i = npos; i < x->n; i++) {
        bool known = false;
        for (int k = 0; k < ps->n && !known; k++)
            known = !strcmp(x->kw[i], ps->items[k]->name);
        if (!known) {
            ty_error(fn, loc, "got an unexpected keyword argument '%s' in the call of the "
                     "implementation of '%s'", x->kw[i], fi->name);
            return false;
        }
    }
    *nout = ps->n;
    return true;
}

/* Steps 2 and 3 for the arguments x: the implementation's result (owned). */
static Val ext_apply(Fn *fn, int kind, const char *name, const char *attr, const ExtArgs *x,
                     Loc loc) {
    Tc *tc = fn->tc;
    const char *spelled[16];
    int n = x->n;
    StrBuf kb;
    sb_init(&kb);
    for (int i = 0; i < n; i++) {
        spelled[i] = spell_arg(tc->arena, x, i);
        sb_printf(&kb, "%s\x1e", spelled[i]);
    }
    const char *file = kind == NJ_EXT_FUNC ? file_of(tc) : NULL;
    const char *key = arena_strdup(tc->arena, kb.data ? kb.data : "");
    sb_free(&kb);
    ExtAnswer *ans = find_answer(tc, kind, file, name, attr, key);
    if (!ans) {
        const ModuleInfo *m;
        char *impl, *msg;
        int r = ask(kind, file, name, attr, n, spelled, &m, &impl, &msg);
        ans = new_answer(tc);
        *ans = (ExtAnswer){.kind = kind, .file = file, .name = arena_strdup(tc->arena, name),
                           .attr = attr ? arena_strdup(tc->arena, attr) : NULL, .key = key,
                           .status = r, .msg = msg ? arena_strdup(tc->arena, msg) : NULL};
        if (r == NJ_EXT_IMPL) {
            ExtCopy *c = copy_of(tc, m);
            ans->m = c->copy;
            ans->fi = fe_find_func(c->copy, arena_printf(tc->arena, "%s$x%d", impl, c->serial));
            if (!ans->fi) {
                ans->status = NJ_EXT_ERROR;
                ans->msg = arena_printf(tc->arena, "the implementation names a def '%s' that "
                                        "its source does not have", impl);
            }
        }
        free(impl);
        free(msg);
    }
    if (ans->status != NJ_EXT_IMPL) {
        if (!fn->emit)
            return verr();
        StrBuf sig;
        sb_init(&sig);
        for (int i = kind == NJ_EXT_FUNC ? 0 : 1; i < n; i++)
            sb_printf(&sig, "%s%s", i > (kind == NJ_EXT_FUNC ? 0 : 1) ? ", " : "", spelled[i]);
        const char *args = sig.data ? sig.data : "";
        if (ans->status == NJ_EXT_ERROR)
            ty_error(fn, loc, "the typing of '%s' failed: %s", attr ? attr : name,
                     ans->msg ? ans->msg : "error in the extension");
        else if (kind == NJ_EXT_FUNC)
            ty_error(fn, loc, "No implementation of function '%s' found for signature: %s(%s)%s%s",
                     name, name, args, ans->msg ? ": " : "", ans->msg ? ans->msg : "");
        else
            ty_error(fn, loc, "No implementation of %s '%s' of %s found for signature: (%s)%s%s",
                     kind == NJ_EXT_ATTR ? "attribute" : "method", attr, spelled[0], args,
                     ans->msg ? ": " : "", ans->msg ? ans->msg : "");
        sb_free(&sig);
        return verr();
    }
    const ModuleInfo *saved = tc->m;
    tc->m = ans->m;
    Val a[16];
    const Node *lits[16];
    const Type *types[16];
    int nb = 0;
    IrFunc *f = NULL;
    if (bind_impl(fn, ans->fi, x, a, lits, &nb, loc)) {
        for (int i = 0; i < nb; i++)
            types[i] = a[i].t;
        f = ty_specialize_call_lits(fn, ans->fi, types, lits, nb, loc);
    }
    tc->m = saved;
    if (!f)
        return verr();
    IrInst *args[16];
    for (int i = 0; i < nb; i++)
        args[i] = a[i].v;
    IrInst *r = ty_emit(fn, IR_CALL, f->ret, loc, nb, args);
    if (r)
        r->imm.callee = f;
    return ty_own(fn, vval(f->ret, r), loc);
}

static Val ext_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    bool method = le == &ext_method_row;
    ExtArgs x = {.n = 0};
    if (method)
        x.a[x.n++] = vval(callee.t, callee.v);
    for (int i = 0; i < call->list.n; i++) {   /* f(*t): t's elements, one by one */
        Node *e = call->list.items[i];
        Val v = ty_value(fn, e->kind == ND_STARRED ? e->a : e);
        if (v.k != V_VAL)
            return verr();
        if (e->kind == ND_STARRED && v.t->kind != TY_TUPLE) {
            ty_error(fn, e->loc, "numjit unpacks only tuples with '*' (this is %s)", v.t->name);
            return verr();
        }
        int m = e->kind == ND_STARRED ? v.t->nelems : 1;
        if (x.n + m > 16) {
            ty_error(fn, call->loc, "too many arguments");
            return verr();
        }
        for (int j = 0; j < m; j++) {
            x.kw[x.n] = NULL;
            x.lit[x.n] = e->kind == ND_STARRED ? NULL : ty_literal_of(fn, e);
            x.a[x.n++] = e->kind == ND_STARRED ? ty_tuple_elem(fn, v, j, e->loc) : v;
        }
    }
    for (int i = 0; i < call->list2.n; i++) {  /* keywords, after the positional ones */
        Node *kw = call->list2.items[i];
        if (!kw->name) {
            ty_error(fn, kw->loc, "'**' arguments in a call of an extension are not supported "
                     "by numjit");
            return verr();
        }
        Val v = ty_value(fn, kw->a);
        if (v.k != V_VAL)
            return verr();
        if (x.n == 16) {
            ty_error(fn, call->loc, "too many arguments");
            return verr();
        }
        x.kw[x.n] = kw->name;
        x.lit[x.n] = ty_literal_of(fn, kw->a);
        x.a[x.n++] = v;
    }
    if (method)
        return ext_apply(fn, NJ_EXT_METHOD, owner_name(callee.t), callee.name, &x, call->loc);
    return ext_apply(fn, NJ_EXT_FUNC, callee.name, NULL, &x, call->loc);
}

/* x of n plain arguments (attributes, setters, special methods) */
static ExtArgs *plain_args(Fn *fn, const Val *a, int n) {
    ExtArgs *x = arena_alloc(fn->tc->arena, sizeof *x);
    memset(x, 0, sizeof *x);
    for (int i = 0; i < n && i < 16; i++)
        x->a[i] = a[i];
    x->n = n < 16 ? n : 16;
    return x;
}

bool ty_ext_is_func(Fn *fn, const char *name) {
    Tc *tc = fn->tc;
    return tc->target == TARGET_CPU && !fe_find_func(tc->m, name) &&
           !fe_resolve_import(tc->m, name) && is_mine(tc, NJ_EXT_FUNC, file_of(tc), name, NULL);
}

bool ty_ext_attr(Fn *fn, Val o, const char *attr, Loc loc, Val *out) {
    Tc *tc = fn->tc;
    if (o.k != V_VAL || tc->target != TARGET_CPU)
        return false;
    const char *owner = owner_name(o.t);
    if (is_mine(tc, NJ_EXT_METHOD, NULL, owner, attr)) {
        *out = (Val){.k = V_BUILTIN, .name = arena_strdup(tc->arena, attr), .t = o.t, .v = o.v,
                     .lib = &ext_method_row};
        return true;
    }
    if (is_mine(tc, NJ_EXT_ATTR, NULL, owner, attr)) {
        *out = ext_apply(fn, NJ_EXT_ATTR, owner, attr, plain_args(fn, &o, 1), loc);
        return true;
    }
    return false;
}

/* o.attr = v where the hook knows a setter for attr (a jitclass's property: the method
 * "attr$set", called with o and v); false when it does not. */
bool ty_ext_setattr(Fn *fn, Val o, const char *attr, Val v, Loc loc) {
    Tc *tc = fn->tc;
    if (o.k != V_VAL || v.k != V_VAL || tc->target != TARGET_CPU)
        return false;
    const char *owner = owner_name(o.t);
    const char *set = arena_printf(tc->arena, "%s$set", attr);
    if (!is_mine(tc, NJ_EXT_METHOD, NULL, owner, set))
        return false;
    Val a[2] = {o, v};
    ext_apply(fn, NJ_EXT_METHOD, owner, set, plain_args(fn, a, 2), loc);
    return true;
}

/* Numba's special methods of a jitclass instance (a record the hook knows methods of, Numba's
 * jitclass/overloads.py): meth of a[0], with a[1..n-1]; false when a[0] has none. */
bool ty_ext_special(Fn *fn, const char *meth, Val *a, int n, Loc loc, Val *out) {
    Tc *tc = fn->tc;
    if (a[0].k != V_VAL || a[0].t->kind != TY_RECORD || tc->target != TARGET_CPU)
        return false;
    for (int i = 1; i < n; i++)
        if (a[i].k != V_VAL)
            return false;
    const char *owner = owner_name(a[0].t);
    if (!is_mine(tc, NJ_EXT_METHOD, NULL, owner, meth))
        return false;
    *out = ext_apply(fn, NJ_EXT_METHOD, owner, meth, plain_args(fn, a, n), loc);
    return true;
}

/* The special method of operator op ("__add__"), or NULL. */
const char *ty_ext_dunder(OpKind op) {
    switch (op) {
    case OP_ADD: return "__add__";
    case OP_SUB: return "__sub__";
    case OP_MUL: return "__mul__";
    case OP_DIV: return "__truediv__";
    case OP_FLOORDIV: return "__floordiv__";
    case OP_MOD: return "__mod__";
    case OP_POW: return "__pow__";
    case OP_LSHIFT: return "__lshift__";
    case OP_RSHIFT: return "__rshift__";
    case OP_BITAND: return "__and__";
    case OP_BITOR: return "__or__";
    case OP_BITXOR: return "__xor__";
    case OP_EQ: return "__eq__";
    case OP_NE: return "__ne__";
    case OP_LT: return "__lt__";
    case OP_LE: return "__le__";
    case OP_GT: return "__gt__";
    case OP_GE: return "__ge__";
    default: return NULL;
    }
}

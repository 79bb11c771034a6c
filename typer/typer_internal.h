/* typer_internal.h — shared state of typer.c (statements, driver), typer_expr.c
 * (expressions, calls, builtins), typer_cuda.c (the numba-cuda intrinsics), typer_array.c,
 * typer_alloc.c, typer_arrexpr.c, typer_reshape.c, typer_axis.c and typer_construct.c
 * (arrays), typer_random.c and typer_parfor.c (parallel loops).
 *
 * The typer walks a function's AST in two modes with one walker: first in inference mode
 * (emit == false) until the variables' types stop changing — each assignment unifies the
 * variable's type with the value's (Numba's rules), so a loop that widens a variable is seen on
 * the next round — then once in emission mode, which builds the IR with explicit casts.  Errors
 * are reported only while emitting, so each is said once, with its location.
 *
 * The names a program calls (NumPy, math, cmath, random, numba.cuda, builtins) are rows of the
 * registry in lib/ (lib/lib.h); the typer finds them there, and their handlers call the
 * family files here (typer_alloc.c, typer_sort.c, ...) to type them and build their IR.
 */
#ifndef NUMJIT_TYPER_INTERNAL_H
#define NUMJIT_TYPER_INTERNAL_H

#include "../ir/ir.h"

/* What an expression denotes: a typed value, or something only calls/attributes can use. */
typedef enum {
    V_ERR,     /* an error was reported (or the type is not known yet while inferring) */
    V_VAL,     /* a typed value: t (and v when emitting) */
    V_MODULE,  /* name: "math", "numpy", "cuda", "cuda.shared", "cuda.local", "cuda.atomic", ... */
    V_FUNC,    /* fn: a function of the module */
    V_BUILTIN, /* name: "range", "len", "abs", "min", "max", "int", "float", "bool", "round",
                  "cuda.grid", "cuda.gridsize", "cuda.syncthreads", ... */
    V_MATH,    /* idx: math builtin; np = spelled np.NAME */
    V_TYPE,    /* t: a scalar type used as a function (float32(x), np.int64(x)) */
    V_SREGS,   /* idx: first SReg of cuda.threadIdx/blockIdx/blockDim/gridDim */
    V_RANGE,   /* range(start, stop, step): r[0..2] with types rt[0..2]; idx 1: prange */
    V_METHOD,  /* name: a method of the array t (value v): a.sum, a.transpose, ... */
} ValKind;

typedef struct Val {
    ValKind k;
    const Type *t;
    IrInst *v;
    const char *name;
    int idx;
    bool np;
    const FuncInfo *fn;
    IrInst *r[3];
    const Type *rt[3];
    bool lit;  /* an integer literal (or its negation) */
    const struct LibEntry *lib; /* V_BUILTIN, V_MATH: its row of the library (lib/lib.h) */
} Val;

typedef struct TyVar {
    const char *name;
    const Type *type;     /* unified type of every assignment; NULL while unknown */
    Loc loc;              /* first assignment */
    const Type *bad;      /* a type that could not be unified with `type`, and where */
    Loc bad_loc;
    bool bad_said;        /* that error is reported */
    int irvar;            /* IrVar index when emitting */
    const Type *cls;      /* a name bound to a scalar class (T = type(x)): what it denotes */
} TyVar;

typedef struct Tc Tc;

typedef struct Fn {
    Tc *tc;
    const FuncInfo *fi;
    IrFunc *f;
    bool emit;
    bool changed;
    TyVar *vars;
    int nvars, capvars;
    /* an index of vars by name (typer.c: ty_lookup_var), built lazily; rebuilt when vars
     * moved or the Fn was copied */
    int *vidx;            /* open addressing: var number + 1, 0 empty */
    int capvidx, nvidx;   /* slots (a power of two); vars entered so far */
    const TyVar *vidx_of; /* the vars array indexed */
    const struct Fn *vidx_fn;
    const Type *ret;      /* unified type of the returned values; ty_void for bare returns */
    Loc ret_loc;
    bool ret_declared;
    IrBlock *cur;
    char *reach;          /* reach[block id]: something branches there (or it is the entry) */
    int capreach;
    IrBlock *brk[64], *cont[64];
    int nloops;
    int ntemps;
    int *owned;           /* hidden variables holding the statement's new references */
    int nowned, capowned;
    unsigned serial;      /* counts statements; the peek cache of typer_arrexpr.c is per statement */
    unsigned peek_serial;
    Node **peek_nodes;
    Val *peek_vals;
    int npeek, cappeek;
    bool in_parfor;       /* typing a parallel loop's body: a prange in it is a serial range */
    /* recursion (typer.c: recursive_call) */
    bool skip_rec;        /* partial inference: a call of a function being typed is unknown */
    bool rec_unknown;     /* a recursive call was seen before any return gave a type */
    bool runaway;         /* inference ended with no return type and such a call: an error */
    /* literal_unroll of a heterogeneous tuple (typer_unroll.c): while one version of a body is
     * typed, the loop variable's name stands for a variable of that version */
    const char *ren_from[8], *ren_to[8];
    int nren;
    struct TyGenCtx *gen; /* the generator whose inlined body is being typed (typer_gen.c) */
    /* a generator compiled as a coroutine (typer_genobj.c): its yields' unified type */
    bool coro;
    const Type *yield_t;
    const Node *const *lits; /* per parameter: the literal this specialization is for, or
                                NULL (typer_literal.c) */
    NodeList *body;       /* the def's body with versioned variables, or NULL (typer_version.c) */
} Fn;

struct Tc {
    Arena *arena;
    const ModuleInfo *m;
    IrProgram *p;
    DiagList *diags;
    Target target;
    /* specializations made so far in this program */
    const char **spec_names;
    IrFunc **spec_funcs;
    bool *spec_done;
    Fn **spec_fn;         /* the walker of a specialization being typed (!spec_done) */
    int nspecs, capspecs;
    int depth;
    /* mutual recursion: a call typed with the partial return type of a function still being
     * inferred; checked against its final type when it is done */
    struct TyAssume { int slot; const Type *t; Loc loc; } *assume;
    int nassume, capassume;
    bool root_called;     /* compiled code calls the entry (funcs[0]) itself */
    struct TyExt *ext;    /* what the extension hook said (typer_ext.c); NULL: nothing yet */
    /* inner functions (typer_closure.c) */
    struct TyClosure *closures;
    int nclosures, capclosures;
    /* list comprehensions reduced by sum/min/max (typer_comp.c) */
    struct TyComp *comps;
    int ncomps, capcomps;
    /* generators inlined where a loop iterates them (typer_gen.c) */
    struct TyGen *gens;
    int ngens, capgens;
    bool gen_lazy;        /* the entry, a generator, becomes a coroutine (typer_genobj.c) */
};

/* typer_unroll.c: `for x in literal_unroll(t)` over a heterogeneous tuple, the body typed
 * once per element (false: not such a loop); the name a variable has in the current version */
bool ty_unroll_for(Fn *fn, Node *s);
const char *ty_renamed(Fn *fn, const char *name);

/* typer.c */
void ty_error(Fn *fn, Loc loc, const char *fmt, ...) NJ_PRINTF(3, 4);
IrInst *ty_emit(Fn *fn, IrOp op, const Type *t, Loc loc, int n, IrInst **args);
IrInst *ty_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
IrInst *ty_const_int(Fn *fn, const Type *t, int64_t x, Loc loc);
IrInst *ty_const_float(Fn *fn, const Type *t, double x, Loc loc);
IrBlock *ty_block(Fn *fn);
void ty_set_block(Fn *fn, IrBlock *b);
void ty_br(Fn *fn, IrBlock *to, Loc loc);
void ty_condbr(Fn *fn, IrInst *c, IrBlock *t, IrBlock *f, Loc loc);
TyVar *ty_lookup_var(Fn *fn, const char *name);
int ty_temp_var(Fn *fn, const Type *t); /* emission only: a fresh hidden variable */
void ty_raise(Fn *fn, RaiseKind kind, const char *msg, Loc loc);
void ty_raise_if(Fn *fn, IrInst *c, RaiseKind kind, const char *msg, Loc loc); /* if (c) raise */
/* typer_ifexp.c: `a if c else b` (ranges too) */
Val ty_ifexp(Fn *fn, Node *e);
/* typer_raise.c: the `raise` and `assert` statements */
void ty_stmt_raise(Fn *fn, Node *s);
void ty_stmt_assert(Fn *fn, Node *s);
/* typer_try.c: the `try` statement */
void ty_stmt_try(Fn *fn, Node *s);
/* a call of stdlib function sym ("_nj_cmath_exp"), named `shown` in errors ("cmath.exp") */
Val ty_lib_call(Fn *fn, const char *sym, const char *shown, const char *module, Val *a, int n,
                Loc loc);
IrFunc *ty_specialize_call(Fn *fn, const FuncInfo *fi, const Type **args, int n, Loc loc);
/* typer.c: name = v, v a range (kept as name$r0..2, read back by ty_resolve_name) */
void ty_assign_range(Fn *fn, const char *name, Val v, Loc loc);
/* the same, specialized for the literals lits[k] of the parameters that want one (NULL: none) */
IrFunc *ty_specialize_call_lits(Fn *fn, const FuncInfo *fi, const Type **args,
                                const Node *const *lits, int n, Loc loc);
/* typer_literal.c: Numba's literal types (see there).  ty_count_binds: how many statements of
 * body bind name (*value: the value of a plain `name = value`); ty_literal_of: the constant
 * node e stands for, or NULL; ty_wants_literal: whether fi is specialized per literal of its
 * parameter k; ty_call_literals: lits[k] for each such parameter the call gives a literal
 * (false when none); ty_literal_spelling: "Literal[int](3)" for a literal of type t (NULL if
 * t is not its type); ty_literal_mangle: a specialization's name for its literals */
int ty_count_binds(const NodeList *body, const char *name, const Node **value);
const Node *ty_literal_of(Fn *fn, const Node *e);
bool ty_wants_literal(Fn *fn, const FuncInfo *fi, int k);
bool ty_call_literals(Fn *fn, const FuncInfo *fi, const Node *call, const Node **lits);
const char *ty_literal_spelling(Arena *a, const Node *lit, const Type *t);
const char *ty_literal_mangle(Arena *a, const char *mangled, const Node *const *lits, int n);
/* References (CPU): v, a new reference (alloc, a call's counted result), is moved into a hidden
 * variable that owns it until the end of the statement; ty_keep makes such a variable take a
 * reference of its own to a borrowed v (so that assigning targets cannot free it).  Both return
 * v; neither does anything for values without references or on the GPU. */
Val ty_own(Fn *fn, Val v, Loc loc);
Val ty_keep(Fn *fn, Val v, Loc loc);
/* Clears the hidden variables made since ty_owned_mark() returned mark. */
int ty_owned_mark(Fn *fn);
void ty_release_owned(Fn *fn, int mark, Loc loc);

/* typer_record.c: fields of records (items of arrays of structured dtypes).  r.NAME; r['x']
 * and a['x'] (true with *out, or false when o is neither a record nor an array of records
 * indexed by a string); a store to r.x or r['x'] (false when target is no field of a record);
 * whether target is a field of a record (emits nothing). */
Val ty_record_attr(Fn *fn, Val r, const char *name, Loc loc);
bool ty_record_index(Fn *fn, Val o, Node *ix, Loc loc, Val *out);
bool ty_record_store(Fn *fn, Node *target, Val v, Loc loc);
bool ty_record_target(Fn *fn, Node *target);
/* The record type a dtype argument names (a module constant or literal holding a record's
 * spelling: a structured dtype global), or NULL. */
const Type *ty_record_dtype(Fn *fn, Node *e);

/* typer.c, for typer_parfor.c and typer_spec.c: statements (with a loop's break/continue
 * targets), reachability of a block of a new function (typer_emit.c), and assignment to a named
 * variable (cast and store) */
void ty_mark_reach(Fn *fn, IrBlock *b);
bool ty_reachable(Fn *fn, IrBlock *b);
/* Whether running body can reach its end (Numba's implicit `return None`). */
bool ty_falls_through(Fn *fn, NodeList *body);
void ty_stmts(Fn *fn, NodeList *body);
void ty_loop_body(Fn *fn, NodeList *body, IrBlock *brk, IrBlock *cont, Loc loc);
void ty_assign_name(Fn *fn, const char *name, Val v, Loc loc);
void ty_assign_target(Fn *fn, Node *target, Val v, Loc loc); /* a name, item or tuple of them */

/* typer_parfor.c: `for i in prange(...)` s in an @njit(parallel=True) CPU function, `it` its
 * range (V_RANGE, idx 1), as a parallel loop (IR_PARFOR over an outlined body).  False when
 * the loop is to run serially instead (not parallel=True, the GPU, inside another parallel
 * loop, break or return in the body, or while inferring types); true when it was emitted or an
 * error reported. */
bool ty_parfor(Fn *fn, Node *s, Val it);

/* typer_closure.c: a def inside a compiled function (statement s), the inner function a name
 * denotes in fn's scope (NULL if none), whether fi is one, its call with the values it captures,
 * the FuncInfo a call's arguments are bound by (the def's own parameters), a lambda that
 * captures nothing (a function value) and the one of a function type's name,
 * and the error for one used as a value. */
void ty_closure_def(Fn *fn, Node *s);
const FuncInfo *ty_closure_lookup(Fn *fn, const char *name);
bool ty_is_closure(Fn *fn, const FuncInfo *fi);
Val ty_closure_call(Fn *fn, const FuncInfo *fi, Val *a, int n, Loc loc);
const FuncInfo *ty_closure_binder(Fn *fn, const FuncInfo *fi);
Val ty_closure_lambda(Fn *fn, Node *lam);
bool ty_closure_is_value(Fn *fn, const FuncInfo *fi);
const FuncInfo *ty_closure_named(Tc *tc, const char *fi_name);
void ty_closure_escapes(Fn *fn, const FuncInfo *fi, Loc loc);

/* typer_ext.c: extensions the host program types (Numba's @overload and its relatives).
 * ty_ext_name: name, which nothing else binds, as an extension function (ty_ext_module_attr:
 * a library module's function numjit does not have, "numpy.isclose"); ty_ext_attr: the
 * attribute of value o as an extension method (a callable bound to o) or attribute (its value);
 * ty_ext_setattr: o.attr = v through a setter the hook knows; all false when the hook does
 * not know the name.  ty_ext_func: a def of the implementation module
 * being typed, by its own name (typer_ext.c renames them). */
bool ty_ext_name(Fn *fn, const char *name, Loc loc, Val *out);
bool ty_ext_attr(Fn *fn, Val o, const char *attr, Loc loc, Val *out);
bool ty_ext_setattr(Fn *fn, Val o, const char *attr, Val v, Loc loc); /* o.attr = v */
/* a jitclass instance's special method meth called with a[0..n-1] (len(o), o[i], o + x, ...);
 * ty_ext_dunder: the special method of an operator, or NULL */
bool ty_ext_special(Fn *fn, const char *meth, Val *a, int n, Loc loc, Val *out);
const char *ty_ext_dunder(OpKind op);
/* mod.attr ("numpy", "isclose") that no row of the registry has, as an extension function */
bool ty_ext_module_attr(Fn *fn, const char *mod, const char *attr, Loc loc, Val *out);
const FuncInfo *ty_ext_func(Tc *tc, const char *name);
/* whether name, which no def of the module binds, is an extension function */
bool ty_ext_is_func(Fn *fn, const char *name);

/* typer_comp.c: sum(), min() or max() of list comprehension lc, as a loop, or (TY_COMP_LIST)
 * the list it makes; the error for a list comprehension in CUDA code. */
enum { TY_COMP_SUM, TY_COMP_MIN, TY_COMP_MAX, TY_COMP_LIST };
Val ty_comp_reduce(Fn *fn, int kind, const Node *lc, Loc loc);
void ty_comp_misplaced(Fn *fn, const Node *lc);

/* typer_gen.c: generators (defs with yield) iterated by compiled code, their bodies inlined
 * into the loop.  ty_gen_for: s (a for statement) over gen(...) or enumerate(gen(...)), typed
 * (true) or not such a loop (false); ty_gen_yield: a yield statement; ty_gen_return: a return
 * inside an inlined generator (true: it ended the generator); ty_gen_listcomp: the list
 * comprehension [v for v in x] for list(x), min(x), max(x) when x calls a generator (all: any
 * x), else NULL; ty_gen_misused: the error for a generator called anywhere else. */
bool ty_is_generator(const FuncInfo *fi);
bool ty_gen_for(Fn *fn, Node *s);
void ty_gen_yield(Fn *fn, Node *s);
bool ty_gen_return(Fn *fn, Node *s);
const Node *ty_gen_listcomp(Fn *fn, Node *x, bool all, bool *bad);
void ty_gen_misused(Fn *fn, const FuncInfo *fi, Loc loc);
/* the body a generator that Python calls is compiled with: it returns the list of the values */
NodeList *ty_gen_entry_body(Fn *fn);

/* typer_genobj.c: a generator that Python calls, compiled as a coroutine (IrFunc.yield) that
 * runs to each yield when asked: ty_genobj_yield types `yield v` in it, ty_genobj_return a
 * `return`; ty_genobj_type is what calling it gives (the generator object: four int64s,
 * codegen/genobj.c); ty_genobj_lazy_ok whether values of type t can be handed to Python one by
 * one (else the generator is compiled to the list of its values, ty_gen_entry_body). */
void ty_genobj_yield(Fn *fn, Node *s);
bool ty_genobj_return(Fn *fn, Node *s);
const Type *ty_genobj_type(void);
bool ty_genobj_lazy_ok(const Type *t);

/* typer_optional.c: None, Optional values (an Optional where its value is wanted is unwrapped,
 * raising TypeError when it holds None), `x is None` (constant when x's type tells: then
 * ty_static_truth gives 0 or 1 for a condition, -1 when only the run knows), and the binding
 * of a call's keywords and defaults to a function of the program (a[0..*n-1]; false with the
 * error reported). */
Val ty_none_value(Fn *fn, Loc loc);
IrInst *ty_optional_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
Val ty_optional_unwrap(Fn *fn, Val v, Loc loc);
bool ty_is_none_compare(OpKind op, Val a, Val b);
Val ty_none_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc);
int ty_static_truth(Fn *fn, Node *cond);
bool ty_bind_call(Fn *fn, const FuncInfo *fi, Node *call, Val *a, int *n);
/* typer_expr.c: what a value is, for messages (its type's name, "a module", ...) */
const char *ty_what(Val v);
/* f(x, *t) as the call f(x, t[0], t[1], ...) when t is a pure read (a name, an attribute, a
 * tuple display of those); the call itself otherwise; NULL after an error. */
Node *ty_spread_starred(Fn *fn, Node *e);
/* typer_list.c: lists (the file's header has the rules) */
Val ty_list_literal(Fn *fn, Node *e);                         /* [a, b, ...] and [] */
Val ty_list_typed_new(Fn *fn, Node *call);                    /* numba.typed.List() */
Val ty_list_typed_empty(Fn *fn, Node *call);        /* numba.typed.List.empty_list(item_type) */
IrInst *ty_list_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
Val ty_list_get(Fn *fn, Val l, Node *ix, Loc loc);            /* l[i] */
void ty_list_set(Fn *fn, Val l, Node *ix, Val v, Loc loc);    /* l[i] = v */
Val ty_list_len(Fn *fn, Val l, Loc loc);
bool ty_list_for(Fn *fn, Node *s);       /* s is `for x in LIST` (true: done or an error) */
Val ty_list_append(Fn *fn, Val self, Node *call, Val x);
Val ty_list_pop(Fn *fn, Val self, Node *call, Val *idx);     /* idx: NULL for l.pop() */
Val ty_list_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc); /* l + m, l * n, n * l */
Val ty_list_copy(Fn *fn, Val l, Loc loc);
Val ty_list_contains(Fn *fn, Val l, Val x, bool negate, Loc loc); /* x in l, x not in l */
Val ty_list_count(Fn *fn, Val self, Val x, Loc loc);
Val ty_list_index(Fn *fn, Val self, Val *a, int n, Loc loc); /* a: x[, start[, end]] */
Val ty_list_remove(Fn *fn, Val self, Val x, Loc loc);
Val ty_list_insert(Fn *fn, Val self, Node *call, Val i, Val x);
Val ty_list_extend(Fn *fn, Val self, Node *call, Val it);
Val ty_list_reverse(Fn *fn, Val self, Loc loc);
Val ty_list_clear(Fn *fn, Val self, Loc loc);
Val ty_list_sort(Fn *fn, Val self, bool reverse, Loc loc);
Val ty_list_to_array(Fn *fn, Val l, const Type *dt, Loc loc); /* np.array(l), dt NULL: items' */
Val ty_list_sum(Fn *fn, Val l, Val start, Loc loc);
Val ty_list_minmax(Fn *fn, Val l, bool is_max, Loc loc);
/* The entry's result: a list reaches the caller when its items are numbers (an error at loc) */
bool ty_list_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc);

/* typer_dict.c: typed dicts (the file's header has the rules) */
Val ty_dict_literal(Fn *fn, Node *e);                        /* {k: v, ...} and {} */
Val ty_dict_empty(Fn *fn, Loc loc);                          /* dict() */
Val ty_dict_typed_empty(Fn *fn, Node *call);                 /* numba.typed.Dict.empty(...) */
const Type *ty_type_expr(Fn *fn, Node *e);                   /* types.int64, ... as a Type */
IrInst *ty_dict_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
Val ty_dict_get(Fn *fn, Val d, Node *ix, Loc loc);           /* d[k] */
void ty_dict_set(Fn *fn, Val d, Node *target, Val v, Loc loc); /* d[k] = v (target: d[k]) */
void ty_stmt_del(Fn *fn, Node *s);                           /* del d[k], ... */
Val ty_dict_len(Fn *fn, Val d, Loc loc);
Val ty_dict_contains(Fn *fn, Val d, Val k, bool negate, Loc loc); /* k in d, k not in d */
bool ty_dict_for(Fn *fn, Node *s);  /* s is `for x in d` / d.keys() / d.values() / d.items() */
Val ty_dict_getitem_default(Fn *fn, Val d, Val k, Val *dflt, Loc loc); /* d.get(k[, dflt]) */
Val ty_dict_pop(Fn *fn, Val d, Val k, Val *dflt, Loc loc);
Val ty_dict_setdefault(Fn *fn, Val d, Val k, Val *dflt, Loc loc);
Val ty_dict_popitem(Fn *fn, Val d, Loc loc);
Val ty_dict_clear(Fn *fn, Val d, Loc loc);
Val ty_dict_copy(Fn *fn, Val d, Loc loc);
Val ty_dict_update(Fn *fn, Val d, Val other, Loc loc);
Val ty_dict_view(Fn *fn, const char *name, Loc loc);         /* d.keys() outside a for loop */
bool ty_dict_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc);

/* typer_set.c: sets of numbers (the file's header has the rules) */
Val ty_set_literal(Fn *fn, Node *e);                         /* {a, b, ...} */
Val ty_set_ctor(Fn *fn, Val *a, int n, Loc loc);             /* set(), set(iterable) */
IrInst *ty_set_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
Val ty_set_len(Fn *fn, Val s, Loc loc);
Val ty_set_contains(Fn *fn, Val s, Val x, bool negate, Loc loc);
bool ty_set_for(Fn *fn, Node *s);                            /* s is `for x in SET` */
Val ty_set_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc);  /* s | t, s & t, s - t, s ^ t */
Val ty_set_algebra(Fn *fn, const char *name, Val s, Val o, Loc loc); /* s.union(t), ... */
Val ty_set_add(Fn *fn, Val s, Node *call, Val x);
Val ty_set_discard(Fn *fn, Val s, Val x, bool remove, Loc loc);
Val ty_set_pop(Fn *fn, Val s, Loc loc);
Val ty_set_clear(Fn *fn, Val s, Loc loc);
Val ty_set_copy(Fn *fn, Val s, Loc loc);
bool ty_set_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc);

/* Small builders every typer file uses (values, constants, operators, extents). */
static inline Val verr(void) { return (Val){.k = V_ERR}; }
static inline Val vval(const Type *t, IrInst *v) { return (Val){.k = V_VAL, .t = t, .v = v}; }
static inline IrInst *i64c(Fn *fn, int64_t x, Loc loc) { return ty_const_int(fn, ty_i64, x, loc); }
static inline IrInst *bin(Fn *fn, IrOp op, const Type *t, IrInst *a, IrInst *b, Loc loc) {
    IrInst *ops[2] = {a, b};
    return ty_emit(fn, op, t, loc, 2, ops);
}
static inline IrInst *cmp(Fn *fn, CmpPred p, IrInst *a, IrInst *b, Loc loc) {
    IrInst *c = bin(fn, IR_CMP, ty_bool, a, b, loc);
    if (c)
        c->imm.pred = p;
    return c;
}
static inline IrInst *sel(Fn *fn, const Type *t, IrInst *c, IrInst *a, IrInst *b, Loc loc) {
    IrInst *ops[3] = {c, a, b};
    return ty_emit(fn, IR_SELECT, t, loc, 3, ops);
}
/* arr[idx[0], ..., idx[nd-1]] of element type dt, and its store */
static inline IrInst *ty_aload(Fn *fn, IrInst *arr, const Type *dt, IrInst **idx, int nd, Loc loc) {
    IrInst *ops[1 + TY_MAX_NDIM] = {arr};
    for (int d = 0; d < nd; d++)
        ops[1 + d] = idx[d];
    return ty_emit(fn, IR_ALOAD, dt, loc, 1 + nd, ops);
}
static inline void ty_astore(Fn *fn, IrInst *arr, IrInst **idx, int nd, IrInst *v, Loc loc) {
    IrInst *ops[2 + TY_MAX_NDIM] = {arr};
    for (int d = 0; d < nd; d++)
        ops[1 + d] = idx[d];
    ops[1 + nd] = v;
    ty_emit(fn, IR_ASTORE, ty_void, loc, 2 + nd, ops);
}
/* the same for an array value a, indexed in all its dimensions */
static inline IrInst *ty_aload_at(Fn *fn, Val a, IrInst **idx, Loc loc) {
    return ty_aload(fn, a.v, a.t->dtype, idx, a.t->ndim, loc);
}
static inline void ty_astore_at(Fn *fn, Val a, IrInst **idx, IrInst *v, Loc loc) {
    ty_astore(fn, a.v, idx, a.t->ndim, v, loc);
}
static inline IrInst *extent(Fn *fn, IrInst *arr, int d, Loc loc) { /* arr.shape[d] */
    IrInst *s = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &arr);
    if (s)
        s->imm.index = d;
    return s;
}

/* Hidden variables (ty_temp_var) read and written, and counted loops over them:
 * `for i in range(n)` as the typer's expansions write it, the body between ty_loop_open
 * (which returns i) and ty_loop_close; a branch to L->exit leaves the loop. */
IrInst *ty_load_var(Fn *fn, int var, const Type *t, Loc loc);
void ty_store_var(Fn *fn, int var, IrInst *v, Loc loc);
typedef struct TyLoop {
    IrBlock *head, *body, *exit;
    int var;
} TyLoop;
IrInst *ty_loop_open(Fn *fn, TyLoop *L, IrInst *n, Loc loc);
void ty_loop_close(Fn *fn, TyLoop *L, Loc loc);
/* Walks over the live entries of a dict or a set (next_op IR_DNEXT or IR_SNEXT): the body
 * between ty_entries_open (which returns the entry) and a branch to L->head; the walk ends at
 * done, else at L->exit.  ty_entries_for is the `for` statement over them, targets assigning
 * its targets from an entry (NULL while inferring); how is passed through to it. */
typedef void (*TyEntryTargets)(Fn *fn, Node *s, Val c, IrInst *i, int how, Loc loc);
IrInst *ty_entries_open(Fn *fn, TyLoop *L, IrOp next_op, IrInst *c, IrBlock *done, Loc loc);
void ty_entries_for(Fn *fn, Node *s, Val c, IrOp next_op, TyEntryTargets targets, int how);

/* Binds call's positional and keyword arguments to params (at most max names, NULL-terminated
 * when fewer): out[k] = the node of params[k] or NULL; the first nreq are required.  shown:
 * the function as written ("np.zeros").  False with the error reported. */
enum { TY_BIND_NO_KEYWORDS = 1, TY_BIND_NONE_OMITS = 2 /* an argument None counts as left out */ };
bool ty_bind_args(Fn *fn, Node *call, const char *shown, const char *const *params, int max,
                  int nreq, unsigned flags, Node **out);

/* typer_expr.c */
Val ty_expr(Fn *fn, Node *e);
Val ty_value(Fn *fn, Node *e);              /* ty_expr, and an error unless it is a value */
IrInst *ty_truth(Fn *fn, Val v, Loc loc);   /* Python truthiness as bool */
Val ty_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc);
Val ty_resolve_name(Fn *fn, const char *name, Loc loc);
/* idx: the index as int64; it: its type before that cast (a uint64 index never wraps) */
IrInst *ty_bounds_check(Fn *fn, IrInst *arr, IrInst *idx, const Type *it, int dim, Loc loc);

/* typer_cuda.c */
Val ty_cuda_sreg32(Fn *fn, const char *attr, Loc loc);      /* cuda.laneid, cuda.warpsize */
Val ty_cuda_call(Fn *fn, const char *name, Node *call, Val *a, int n); /* name sans "cuda." */
Val ty_cuda_atomic(Fn *fn, const char *op, Val *a, int n, Loc loc); /* op: "add", "and_" ... */

/* typer_array.c: views (basic slicing, transposes), slice assignment and whole-array
 * reductions, each expanded into typed IR (loops over the elements) by the typer. */
bool ty_array_has_slice(const Type *at, Node *ix);         /* a view rather than an element? */
Val ty_array_view(Fn *fn, Val arr, Node *ix, Loc loc);     /* arr[ix] with slices */
Val ty_array_row(Fn *fn, Val arr, IrInst *i, Loc loc);     /* arr[i] of an n-d array, n > 1 */
void ty_array_assign(Fn *fn, Val arr, Node *ix, Val v, Loc loc); /* arr[ix] = v, a view */
void ty_array_copy(Fn *fn, Val dst, Val src, Loc loc); /* dst[...] = src, emission only */
Val ty_array_attr(Fn *fn, Val arr, const char *attr, Loc loc);   /* V_ERR: not one of ours */
/* Slice e (lo:hi:step, NULL: the whole extent) of extent d of the sequence seq, whose length
 * extent_of gives (int64, asked for once the bounds are typed, when emitting), as Python's
 * slice.indices gives it: out[0] start, out[1] length, out[2] step, with ValueError for a zero
 * step.  False after an error (a bound that is not an integer). */
typedef IrInst *(*TyExtentFn)(Fn *fn, IrInst *seq, int d, Loc loc);
bool ty_slice_indices(Fn *fn, Node *e, TyExtentFn extent_of, IrInst *seq, int d, IrInst **out,
                      Loc loc);
/* A call of method `name` of self (V_METHOD) or of np.NAME (self.k == V_ERR) with the
 * positional arguments a[0..n-1] and the call's keywords. */
Val ty_array_call(Fn *fn, const char *name, Val self, Node *call, Val *a, int n);
Val ty_array_matmul(Fn *fn, Val a, Val b, Loc loc);       /* a @ b (typer_linalg.c) */

/* typer_alloc.c: NumPy's array constructors (np.empty ... np.linspace, np.copy, a.copy()) */
bool ty_np_constructor(const char *attr);   /* attr of numpy that ty_np_call handles */
/* name: "np.empty" ... or "array.copy" (self: the array); call: the call's node, whose
 * positional and keyword arguments are read here. */
Val ty_np_call(Fn *fn, const char *name, Node *call, Val self);
/* A new array of type t (C or F) with extents dims[] (int64), owned until the end of the
 * statement; check: ValueError for a negative extent. */
Val ty_alloc(Fn *fn, const Type *t, IrInst **dims, bool check, Loc loc);

/* typer_arrexpr.c: whole-array expressions (operators and NumPy's ufuncs on arrays, fused
 * into one loop), augmented assignment to arrays */
/* e (an operator, a comparison or a call) as an array expression: true with *out set when
 * it is one (an operand is an array, or the function exists only there). */
bool ty_arrexpr(Fn *fn, Node *e, Val *out);
/* A whole-array reduction of an array expression e, folded in e's loop: true with *out set
 * when e is one and the reduction is fused for its dtype (nothing is allocated).
 * ty_arrexpr_fold_method: call is e.sum(), e.min() ... with no arguments. */
typedef enum { FOLD_SUM, FOLD_PROD, FOLD_MIN, FOLD_MAX, FOLD_MEAN, FOLD_ANY, FOLD_ALL } FoldKind;
bool ty_arrexpr_fold(Fn *fn, Node *e, FoldKind k, Val *out);
bool ty_arrexpr_fold_method(Fn *fn, Node *call, Val *out);
/* s (t op= v): true when t is an array, done in place. */
bool ty_arrexpr_augassign(Fn *fn, Node *s);
/* s (view = array expression), CPU: true when done, the loop writing into the view itself
 * unless an operand overlaps it. */
bool ty_arrexpr_assign(Fn *fn, Node *s);
/* The loop dtype NumPy's binary ufunc `name` ("multiply" ...) picks for dtypes a and b (NULL:
 * none), and one element of it computed in that dtype. */
const Type *ty_ufunc_loop(const char *name, const Type *a, const Type *b);
IrInst *ty_ufunc_apply(Fn *fn, const char *name, const Type *lt, IrInst *x, IrInst *y, Loc loc);
/* np.promote_types of two scalar types */
const Type *ty_promote_types(const Type *a, const Type *b);

/* typer_where.c: np.where(c, x, y) and np.clip(a, lo, hi) calls (arrays of one shape), and a
 * new array of type rt (a's shape) holding a's elements converted to rt's dtype. */
Val ty_np_where(Fn *fn, Node *call);
Val ty_np_clip(Fn *fn, Node *call);
Val ty_array_convert(Fn *fn, Val a, const Type *rt, Loc loc);

/* typer_alloc.c, for typer_construct.c: binds a call's arguments (and keywords) to params
 * (NULL-terminated, the first nreq required; out[k] the node or NULL) and reads a dtype. */
bool ty_np_bind(Fn *fn, Node *call, const char *fname, const char *const *params, int nreq,
                Node **out);
const Type *ty_np_dtype(Fn *fn, Node *e, bool int_bool);

/* typer_construct.c: np.array of a flat list or tuple, np.eye, np.identity, np.diag, np.outer */
bool ty_np_construct_has(const char *name);
Val ty_np_construct(Fn *fn, const char *name, Node *call);

/* typer_reshape.c: a.reshape(...), a.ravel(), a.flatten(), a.astype(dtype), and the
 * functions np.reshape and np.ravel */
Val ty_reshape_call(Fn *fn, Val self, Node *call); /* self: the V_METHOD */
Val ty_reshape_np_call(Fn *fn, const char *name, Node *call);

/* typer_axis.c: a.sum(axis=k), argmin and argmax along an axis, np.cumsum, np.cumprod.
 * ty_axis_reduce: the reduction `name` of the array a along the axis ax, the value of
 * axis_node (spell: "np." or "" for a method).  True with *out set when done (or an error reported);
 * false, after the axis was checked, when a is 1-d: the caller reduces the whole array. */
bool ty_axis_reduce(Fn *fn, const char *name, const char *spell, Val a, Node *axis_node,
                    Val ax, Val *out);
Val ty_cumulative(Fn *fn, const char *name, const char *spell, Val a, Loc loc);

/* typer_linalg.c: np.dot, @, np.vdot, np.trace, np.cross and np.linalg.norm/det/inv/solve
 * (matrix work in the runtime's kernels: ir/linalg.def, runtime/linalg.c) */
Val ty_linalg_call(Fn *fn, const char *name, Node *call);
/* ... and for typer_decomp.c: an operand as (extents, address, byte strides) of a matrix, a
 * vector as a row (as_row) or a column of one; a call of the runtime's function f of
 * linalg.def; the _f32 one of an _f64 / _f32 pair for dtype dt; an array's data address;
 * LinAlgError unless the 2-d a is square (its order returned); Numba's _check_finite_matrix;
 * an error unless compiling for the CPU */
typedef struct TyMat {
    IrInst *rows, *cols, *a, *s0, *s1;
} TyMat;
TyMat ty_la_mat(Fn *fn, Val v, bool as_row, Loc loc);
IrInst *ty_la_call(Fn *fn, RtFn f, IrInst **args, int n, Loc loc);
RtFn ty_la_typed(RtFn f64, const Type *dt);
IrInst *ty_la_addr(Fn *fn, IrInst *arr, Loc loc);
IrInst *ty_la_square(Fn *fn, Val a, Loc loc);
void ty_la_check_finite(Fn *fn, Val a, Loc loc);
bool ty_la_cpu_only(Fn *fn, const char *shown, Loc loc);
/* typer_decomp.c: np.linalg.eig, eigvals, eigh, eigvalsh, svd, qr, lstsq, pinv, slogdet,
 * matrix_rank, cond, matrix_power; ty_la_sv: the singular values of the float 2-d a as a new
 * float64 array (Numba's _compute_singular_values: LinAlgError when a is empty or not finite) */
Val ty_decomp_call(Fn *fn, const char *name, Node *call);
Val ty_la_sv(Fn *fn, Val a, Loc loc);

/* typer_random.c: np.random.* and random.* (ir/random.def, runtime/random.c) */
Val ty_random_attr(Fn *fn, const char *mod, const char *attr, Loc loc);
Val ty_random_call(Fn *fn, const char *name, Node *call);
/* typer_random_seq.c: np.random.shuffle, random.shuffle, np.random.permutation and
 * np.random.choice (name: "np.random.shuffle" ...) */
Val ty_random_seq_call(Fn *fn, const char *name, Node *call);
/* typer_complex.c: complex numbers as float arithmetic on their parts (the file's header has
 * the rules) */
IrInst *ty_cpart(Fn *fn, IrInst *z, const Type *ct, int which, Loc loc); /* 0 real, 1 imag */
IrInst *ty_complex_make(Fn *fn, const Type *ct, IrInst *re, IrInst *im, Loc loc);
IrInst *ty_complex_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc);
Val ty_complex_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc);
IrInst *ty_complex_np_divide(Fn *fn, const Type *ct, IrInst *x, IrInst *y, Loc loc); /* ufunc */
Val ty_complex_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc);
Val ty_complex_unary(Fn *fn, OpKind op, Val z, Loc loc);
IrInst *ty_complex_truth(Fn *fn, Val z, Loc loc);
Val ty_complex_abs(Fn *fn, Val z, Loc loc);
Val ty_complex_attr(Fn *fn, Val z, const char *attr, Loc loc); /* .real, .imag */
Val ty_complex_conjugate(Fn *fn, Val z, Loc loc);
Val ty_complex_ctor(Fn *fn, const Type *ct, Val *a, int n, Loc loc); /* complex(re, im) */
Val ty_imag_literal(Fn *fn, double x, Loc loc);                    /* 2.5j */
bool ty_cmath_has(const char *name);                          /* cmath.NAME is supported */
Val ty_cmath_call(Fn *fn, const char *name, Val *a, int n, Loc loc); /* cmath.NAME(a...) */
/* typer_index.c: indexing with an array (a[mask], a[idx], a[:, idx] and their assignment),
 * np.nonzero / a.nonzero() / np.where(a), np.flatnonzero, np.argwhere */
bool ty_index_is_advanced(Fn *fn, const Type *at, Node *ix); /* an index item is an array */
Val ty_index_get(Fn *fn, Val arr, Node *ix, Loc loc);
void ty_index_set(Fn *fn, Val arr, Node *ix, Val v, Loc loc);
/* np.NAME(a) (self.k == V_ERR), a.nonzero() (self: the V_METHOD), np.where(a) (name "where") */
Val ty_index_np_call(Fn *fn, const char *name, Node *call, Val self);

/* typer_ellipsis.c: the index ix of an array of type at with its '...' replaced by whole
 * slices (ix itself when it has none or at is not an array; NULL after an error) */
Node *ty_index_expand(Fn *fn, const Type *at, Node *ix);

/* typer_dtype.c: e with np.dtype(...) around it taken off; *t = the element type when e is
 * `a.dtype` of an array, else NULL */
Node *ty_dtype_unwrap(Fn *fn, Node *e, const Type **t);
const Type *ty_np_dtype_str(const char *s);

/* typer_version.c: a copy of body in which the top-level reassignments of the variables names
 * start new versions (Numba's SSA names), or NULL where there is none or the function names
 * variables in ways versions cannot follow (inner defs, comprehensions, del, generators) */
NodeList *ty_version_body(Fn *fn, const NodeList *body, const char *const *names, int n);
int ty_version_len(const char *name); /* the length of the name the source gives a version */ /* 'float', 'f8', '<i4': as np.dtype(s), or NULL */

/* typer_xinfo.c: e is `np.finfo(X).attr` or `np.iinfo(X).attr`: *r its value (true) */
bool ty_xinfo_attr(Fn *fn, Node *e, Val *r);

/* typer_join.c: np.concatenate, np.stack, np.vstack, np.hstack, np.column_stack, np.dstack */
Val ty_join_call(Fn *fn, const char *name, Node *call);

/* typer_sort.c: a.sort(), np.sort, argsort, np.searchsorted, np.unique, np.median and the
 * percentiles (sorting and selection in runtime/sort.c through `rtcall`) */
const char *ty_sort_method(const char *name); /* a.NAME is: its static name, else NULL */
/* name: "sort" ...; self: the V_METHOD of a method call, else V_ERR (np.NAME) */
Val ty_sort_call(Fn *fn, const char *name, Val self, Node *call);
/* typer_iter.c: a.flat and np.ndenumerate(a).  ty_iter_for: s is `for v in a.flat` or
 * `for idx, v in np.ndenumerate(a)` (true: done, or an error reported); ty_flat_get: e is
 * a.flat[i]; ty_flat_set: target is a.flat[i]; ty_flat_value: a.flat elsewhere (an error). */
bool ty_iter_for(Fn *fn, Node *s);

/* typer_seq.c: `for` over a tuple, zip(...) of ranges, arrays and tuples, enumerate of those.
 * False when s is none of them; true when emitted or an error reported. */
bool ty_seq_for(Fn *fn, Node *s);
/* typer_tuple.c: tuples as values: o[slice] with constant bounds, t + u, `in` and the
 * comparisons (either operand a tuple), and a tuple's elements into v (what: the caller's name
 * when they must share one type, else NULL) */
Val ty_tuple_slice(Fn *fn, Val o, Node *ix, Loc loc);
Val ty_tuple_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc);
Val ty_tuple_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc);
bool ty_tuple_elems(Fn *fn, Val t, Val *v, const char *what, Loc loc);
/* A tuple literal (a, b, ...) of any length; room for n values from the compilation's arena */
Val ty_tuple_literal(Fn *fn, Node *e);
/* a[idx] and a[idx] = v where idx is not written as a tuple but its value is one (from
 * np.ndindex, np.ndenumerate, a.shape): false when ix is no such index, else done (or an
 * error reported) */
bool ty_tuple_index_get(Fn *fn, Val arr, Node *ix, Loc loc, Val *out);
bool ty_tuple_index_set(Fn *fn, Val arr, Node *ix, Val v, Loc loc);
/* x, y = arr (target an ND_TUPLE): the elements, or the rows, of arr's first dimension */
void ty_array_unpack(Fn *fn, Node *target, Val v, Loc loc);
Val *ty_tuple_vals(Fn *fn, int n);
Val ty_tuple_elem(Fn *fn, Val t, int i, Loc loc);
Val ty_tuple_build(Fn *fn, Val *v, int n, Loc loc);
/* The entry's result: every leaf must have a C form (an error at loc) */
bool ty_tuple_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc);
/* typer.c: len(range(start, stop, step)) as uint64 (sign: the step's sign if constant, else 0) */
IrInst *ty_range_len(Fn *fn, const Type *ct, IrInst *start, IrInst *stop, IrInst *step, int sign,
                     Loc loc);
Val ty_flat_get(Fn *fn, Node *e);
void ty_flat_set(Fn *fn, Node *target, Val v, Loc loc);
Val ty_flat_value(Fn *fn, Loc loc);

/* typer_npfunc.c: np.interp, np.histogram, np.diff, np.bincount, np.digitize, np.roll,
 * np.repeat / a.repeat, the flips, np.triu/tril, np.count_nonzero, np.array_equal, np.around
 * (the loops in stdlib/npfunc.py) */
/* name: "interp" ...; self: the V_METHOD of a.repeat(...), else V_ERR */
Val ty_npfunc_call(Fn *fn, const char *name, Node *call, Val self);
/* typer_str.c: strings (unicode_type): a literal, operators, len, indexing, str(x), truth */
Val ty_str_literal(Fn *fn, Node *e);
Val ty_str_binop(Fn *fn, OpKind op, Val a, Val b, Loc loc);   /* an operand is a string */
Val ty_str_compare(Fn *fn, OpKind op, Val a, Val b, Loc loc); /* an operand is a string */
Val ty_str_subscript(Fn *fn, Val s, Node *ix, Loc loc);
Val ty_str_len(Fn *fn, Val s, Loc loc);
Val ty_str_of(Fn *fn, Val x, Loc loc);                        /* str(x) */
Val ty_str_char(Fn *fn, Val s, IrInst *k, Loc loc); /* s[k], 0 <= k < len(s) (emitting) */
IrInst *ty_str_nchars(Fn *fn, Val s, Loc loc);      /* len(s) as int64 */
/* s.NAME(a...) for the rows str.find, str.startswith, str.endswith of lib/str.c */
/* typer_strmeth.c: s.NAME(...) with its arguments bound to the row's signature (lib/str.c),
 * and ord(c), chr(i) */
typedef struct StrArgs {
    Val v[4];      /* the arguments by parameter */
    bool given[4]; /* false where left out (or None for a parameter whose default is None) */
    Loc at[4];
} StrArgs;
Val ty_str_method(Fn *fn, const char *name, Val s, const StrArgs *b, Loc loc);
Val ty_str_ord(Fn *fn, Val c, Loc loc);
Val ty_str_chr(Fn *fn, Val i, Loc loc);
IrInst *ty_str_truth(Fn *fn, Val s, Loc loc);
/* typer_print.c: print(...) */
Val ty_print_call(Fn *fn, Node *call);
/* typer_alloc.c, for them: the int64 extents of a shape argument (an integer or a tuple of
 * integers; the number of dimensions, -1 after an error; fname as in "np.FNAME()"), and a new
 * C- or F-layout array of type t (ValueError for a negative extent), owned until the end of
 * the statement. */
int ty_alloc_shape(Fn *fn, const char *fname, Node *e, IrInst **dims);
Val ty_alloc_array(Fn *fn, const Type *t, IrInst **dims, Loc loc);

#endif

/* typer_random.c — np.random.* and Python's random.* in compiled functions, typed as Numba 0.56
 * types them (numba/core/typing/randomdecl.py) and expanded into IR around the op `random`
 * (ir/random.def), whose functions the runtime implements (runtime/random.c).
 *
 * Names: `np.random` is a module; `random.NAME`, `np.random.NAME` (also through `from ...
 * import NAME` and `import numpy.random as npr`) are builtins named "random.NAME" and
 * "np.random.NAME" that ty_random_call types.  Each function below is the table's row:
 *
 *   seed(n)                          n: an integer, converted to uint32 (Numba's signature)
 *   random(), random_sample(), sample(), ranf()        float64 in [0, 1)
 *   uniform(a, b)                    a + (b - a) * random()
 *   normal(loc=0, scale=1), standard_normal(), gauss(mu, sigma), normalvariate(mu, sigma)
 *                                    loc + scale * gauss()
 *   exponential(scale=1), standard_exponential(), expovariate(lambd)
 *                                    -log(1 - random()) * scale (/ lambd)
 *   np.random.randint(low, high=None)     int64 in [low, high) ([0, low) with one argument)
 *   random.randint(a, b)                  int64 in [a, b]
 *   random.randrange(start, stop=None, step=1)
 *   random.getrandbits(k)                 uint64 of k bits (OverflowError unless 1 <= k <= 64)
 *   rand(d0, d1, ...), randn(d0, ...)     random() and standard_normal() of shape (d0, ...)
 *   laplace, logistic, lognormal, gumbel, wald, pareto, power, weibull, rayleigh,
 *   standard_cauchy, triangular, gamma, standard_gamma, chisquare, f, standard_t, beta,
 *   vonmises, noncentral_chisquare; random.lognormvariate, paretovariate, weibullvariate,
 *   triangular, gammavariate, betavariate, vonmisesvariate
 *                                    (RK_LIB) a call of stdlib/random_dists.py's function
 *                                    with every argument as float64, defaults filled in
 *   geometric, logseries, zipf, poisson, binomial, negative_binomial, hypergeometric
 *                                    (RK_LIB) the same, int64 draws; binomial's and
 *                                    negative_binomial's n, hypergeometric's three are int64
 *
 * Parameters take any number or bool, converted to float64 or int64 as Numba converts them (a
 * float for an integer parameter truncates; seed keeps the low 32 bits).  Keywords follow
 * Numba's typing: np.random.uniform's are a and b, normal's scale needs its loc, Python's
 * random.* take none.  A range is counted with the
 * runtime's range_len (Numba's formula), an empty one raises ValueError("empty range for
 * randrange()"), then below(n) draws the offset: start + r * step, wrapping as Numba's.
 *
 * `size=` (np.random only: Numba rejects it for `random`, and wants every other argument with
 * it: np.random.normal(0.0, 1.0, size=n), not normal(size=n)): an integer or a tuple of integers;
 * the result is a new C-contiguous array of that shape (typer_alloc.c's allocation: ValueError
 * for a negative extent) filled in C order by the scalar draw with the same arguments, each
 * evaluated once, which is the order Numba's loop draws in.  An empty range raises only when
 * an element is drawn, as in Numba.
 *
 * On the GPU these names are a diagnostic that points to numba.cuda.random.
 */
#include "typer_internal.h"

#include <string.h>


typedef enum {
    RK_SEED, RK_RANDOM, RK_UNIFORM, RK_NORMAL, RK_EXPONENTIAL, RK_RANDINT, RK_RANDRANGE,
    RK_RAND, RK_RANDN, RK_GETRANDBITS,
    RK_LIB, /* a function of stdlib/random_dists.py */
} RandKind;

typedef struct RandFunc {
    const char *name;
    bool np;                  /* np.random.NAME, else random.NAME */
    RandKind kind;
    int nreq;                 /* required parameters */
    const char *params[4];    /* NULL-terminated; "size" is the array form's */
    /* RK_LIB: the library function, the one for a call that leaves out the last parameter
     * (NULL: that parameter's default is passed), and the defaults of the optional ones */
    const char *sym, *sym_short;
    double defs[3];
    unsigned ints;            /* RK_LIB: bit k, parameter k is an int64 (else float64) */
    bool int_result;          /* RK_LIB: int64 draws (else float64) */
} RandFunc;

static const RandFunc rand_funcs[] = {
    {"seed", true, RK_SEED, 1, {"seed"}},
    {"random", true, RK_RANDOM, 0, {"size"}},
    {"random_sample", true, RK_RANDOM, 0, {"size"}},
    {"sample", true, RK_RANDOM, 0, {"size"}},
    {"ranf", true, RK_RANDOM, 0, {"size"}},
    {"rand", true, RK_RAND, 0, {NULL}},
    {"randn", true, RK_RANDN, 0, {NULL}},
    {"uniform", true, RK_UNIFORM, 2, {"a", "b", "size"}}, /* Numba's names, not NumPy's */
    {"normal", true, RK_NORMAL, 0, {"loc", "scale", "size"}},
    {"standard_normal", true, RK_NORMAL, 0, {"size"}},
    {"exponential", true, RK_EXPONENTIAL, 0, {"scale", "size"}},
    {"standard_exponential", true, RK_EXPONENTIAL, 0, {"size"}},
    {"randint", true, RK_RANDINT, 1, {"low", "high", "size"}},
    {"laplace", true, RK_LIB, 0, {"loc", "scale", "size"}, "_nj_np_random_laplace", NULL,
     {0.0, 1.0}},
    {"logistic", true, RK_LIB, 0, {"loc", "scale", "size"}, "_nj_np_random_logistic", NULL,
     {0.0, 1.0}},
    {"lognormal", true, RK_LIB, 0, {"loc", "scale", "size"}, "_nj_np_random_lognormal", NULL,
     {0.0, 1.0}},
    {"gumbel", true, RK_LIB, 2, {"a", "b", "size"}, "_nj_np_random_gumbel", NULL, {0}},
    {"wald", true, RK_LIB, 2, {"a", "b", "size"}, "_nj_np_random_wald", NULL, {0}},
    {"pareto", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_pareto", NULL, {0}},
    {"power", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_power", NULL, {0}},
    {"weibull", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_weibull", NULL, {0}},
    {"rayleigh", true, RK_LIB, 0, {"scale", "size"}, "_nj_np_random_rayleigh", NULL, {1.0}},
    {"standard_cauchy", true, RK_LIB, 0, {"size"}, "_nj_np_random_standard_cauchy", NULL, {0}},
    {"triangular", true, RK_LIB, 3, {"left", "mode", "right", "size"},
     "_nj_np_random_triangular", NULL, {0}},
    {"gamma", true, RK_LIB, 1, {"shape", "scale", "size"}, "_nj_np_random_gamma", NULL,
     {0.0, 1.0}},
    {"standard_gamma", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_standard_gamma", NULL, {0}},
    {"chisquare", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_chisquare", NULL, {0}},
    {"f", true, RK_LIB, 2, {"a", "b", "size"}, "_nj_np_random_f", NULL, {0}},
    {"standard_t", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_standard_t", NULL, {0}},
    {"beta", true, RK_LIB, 2, {"a", "b", "size"}, "_nj_np_random_beta", NULL, {0}},
    {"vonmises", true, RK_LIB, 2, {"a", "b", "size"}, "_nj_np_random_vonmises", NULL, {0}},
    {"noncentral_chisquare", true, RK_LIB, 2, {"df", "nonc", "size"},
     "_nj_np_random_noncentral_chisquare", NULL, {0}},
    {"geometric", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_geometric", NULL, {0}, 0, true},
    {"logseries", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_logseries", NULL, {0}, 0, true},
    {"zipf", true, RK_LIB, 1, {"a", "size"}, "_nj_np_random_zipf", NULL, {0}, 0, true},
    {"poisson", true, RK_LIB, 0, {"lam", "size"}, "_nj_np_random_poisson", NULL, {1.0}, 0, true},
    {"binomial", true, RK_LIB, 2, {"n", "p", "size"}, "_nj_np_random_binomial", NULL, {0}, 1,
     true},
    {"negative_binomial", true, RK_LIB, 2, {"n", "p", "size"}, "_nj_np_random_negative_binomial",
     NULL, {0}, 1, true},
    {"hypergeometric", true, RK_LIB, 3, {"ngood", "nbad", "nsample", "size"},
     "_nj_np_random_hypergeometric", NULL, {0}, 7, true},
    {"seed", false, RK_SEED, 1, {"a"}},
    {"random", false, RK_RANDOM, 0, {NULL}},
    {"uniform", false, RK_UNIFORM, 2, {"a", "b"}},
    {"gauss", false, RK_NORMAL, 2, {"mu", "sigma"}},
    {"normalvariate", false, RK_NORMAL, 2, {"mu", "sigma"}},
    {"expovariate", false, RK_EXPONENTIAL, 1, {"lambd"}},
    {"randint", false, RK_RANDINT, 2, {"a", "b"}},
    {"randrange", false, RK_RANDRANGE, 1, {"start", "stop", "step"}},
    {"getrandbits", false, RK_GETRANDBITS, 1, {"k"}},
    {"lognormvariate", false, RK_LIB, 2, {"mu", "sigma"}, "_nj_random_lognormvariate", NULL,
     {0}},
    {"paretovariate", false, RK_LIB, 1, {"alpha"}, "_nj_random_paretovariate", NULL, {0}},
    {"weibullvariate", false, RK_LIB, 2, {"alpha", "beta"}, "_nj_random_weibullvariate", NULL,
     {0}},
    {"triangular", false, RK_LIB, 2, {"low", "high", "mode"}, "_nj_random_triangular",
     "_nj_random_triangular2", {0}},
    {"gammavariate", false, RK_LIB, 2, {"alpha", "beta"}, "_nj_random_gammavariate", NULL, {0}},
    {"betavariate", false, RK_LIB, 2, {"alpha", "beta"}, "_nj_random_betavariate", NULL, {0}},
    {"vonmisesvariate", false, RK_LIB, 2, {"mu", "kappa"}, "_nj_random_vonmisesvariate", NULL,
     {0}},
};
enum { NFUNCS = sizeof rand_funcs / sizeof *rand_funcs };

static const RandFunc *find(const char *name, bool np) {
    for (int i = 0; i < NFUNCS; i++)
        if (rand_funcs[i].np == np && !strcmp(rand_funcs[i].name, name))
            return &rand_funcs[i];
    return NULL;
}

/* ---- names ---------------------------------------------------------------------------------- */
Val ty_random_attr(Fn *fn, const char *mod, const char *attr, Loc loc) {
    if (!strcmp(mod, "numpy"))
        return (Val){.k = V_MODULE, .name = "numpy.random"};
    bool np = strcmp(mod, "random") != 0;
    const char *shown = np ? "np.random" : "random";
    if (!find(attr, np)) {
        ty_error(fn, loc, "%s.%s is not supported by numjit", shown, attr);
        return verr();
    }
    if (fn->tc->target == TARGET_NVPTX) {
        ty_error(fn, loc, "%s.%s is not available in CUDA kernels and device functions: use "
                          "numba.cuda.random (create_xoroshiro128p_states, "
                          "xoroshiro128p_uniform_float32, xoroshiro128p_normal_float32, ...)",
                 shown, attr);
        return verr();
    }
    return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "%s.%s", shown, attr)};
}

/* ---- IR helpers ----------------------------------------------------------------------------- */
static IrInst *rnd(Fn *fn, RandomFn which, const Type *t, IrInst **args, int n, Loc loc) {
    IrInst *in = ty_emit(fn, IR_RANDOM, t, loc, n, args);
    if (in)
        in->imm.index = which;
    return in;
}

static IrInst *icmp(Fn *fn, CmpPred p, IrInst *a, IrInst *b, Loc loc) {
    IrInst *ops[2] = {a, b};
    IrInst *c = ty_emit(fn, IR_CMP, ty_bool, loc, 2, ops);
    if (c)
        c->imm.pred = p;
    return c;
}

static Val binop(Fn *fn, OpKind op, const Type *t, IrInst *a, IrInst *b, Loc loc) {
    return ty_binop(fn, op, vval(t, a), vval(t, b), loc);
}

/* ---- the scalar draw ------------------------------------------------------------------------ */
/* f's function of stdlib/random_dists.py on a[0..] (float64, defaults in place). */
static Val lib_draw(Fn *fn, const RandFunc *f, IrInst **a, Loc loc) {
    Val args[4];
    int n = 0;
    for (; n < 4 && f->params[n] && strcmp(f->params[n], "size"); n++)
        args[n] = vval(f->ints >> n & 1 ? ty_i64 : ty_f64, a[n]);
    const char *mod = f->np ? "numpy" : "random";
    return ty_lib_call(fn, f->sym, arena_printf(fn->tc->arena, "%s.%s", f->np ? "np.random" : mod,
                                                f->name), mod, args, n, loc);
}

/* One value of f with its converted arguments a[0..] (float64 or int64; NULL = left out). */
static Val draw(Fn *fn, const RandFunc *f, IrInst **a, Loc loc) {
    bool np = f->np;
    switch (f->kind) {
    case RK_SEED:
        rnd(fn, np ? RND_NP_SEED : RND_PY_SEED, ty_void, a, 1, loc);
        return vval(ty_void, NULL);
    case RK_RANDOM:
    case RK_RAND:
        return vval(ty_f64, rnd(fn, np ? RND_NP_RANDOM : RND_PY_RANDOM, ty_f64, NULL, 0, loc));
    case RK_UNIFORM: { /* a + (b - a) * r */
        IrInst *r = rnd(fn, np ? RND_NP_RANDOM : RND_PY_RANDOM, ty_f64, NULL, 0, loc);
        Val w = binop(fn, OP_SUB, ty_f64, a[1], a[0], loc);
        Val wr = ty_binop(fn, OP_MUL, w, vval(ty_f64, r), loc);
        return ty_binop(fn, OP_ADD, vval(ty_f64, a[0]), wr, loc);
    }
    case RK_NORMAL:
    case RK_RANDN: { /* loc + scale * g */
        IrInst *g = rnd(fn, np ? RND_NP_GAUSS : RND_PY_GAUSS, ty_f64, NULL, 0, loc);
        if (!a[0] && !a[1])
            return vval(ty_f64, g);
        IrInst *mu = a[0] ? a[0] : ty_const_float(fn, ty_f64, 0.0, loc);
        IrInst *sigma = a[1] ? a[1] : ty_const_float(fn, ty_f64, 1.0, loc);
        Val sg = binop(fn, OP_MUL, ty_f64, sigma, g, loc);
        return ty_binop(fn, OP_ADD, vval(ty_f64, mu), sg, loc);
    }
    case RK_EXPONENTIAL: { /* -log(1 - r) * scale, or / lambd */
        IrInst *e = rnd(fn, np ? RND_NP_STDEXP : RND_PY_STDEXP, ty_f64, NULL, 0, loc);
        if (!a[0])
            return vval(ty_f64, e);
        return binop(fn, np ? OP_MUL : OP_DIV, ty_f64, e, a[0], loc);
    }
    case RK_LIB:
        return lib_draw(fn, f, a, loc);
    case RK_GETRANDBITS: { /* Numba's int32 parameter compared unsigned: 1..64 */
        IrInst *k = ty_cast(fn, ty_cast(fn, a[0], ty_i64, ty_i32, loc), ty_i32, ty_u32, loc);
        IrInst *bad = binop(fn, OP_BITOR, ty_bool,
                            icmp(fn, CMP_GE, k, ty_const_int(fn, ty_u32, 65, loc), loc),
                            icmp(fn, CMP_EQ, k, ty_const_int(fn, ty_u32, 0, loc), loc), loc).v;
        ty_raise_if(fn, bad, RAISE_OVERFLOW, "getrandbits() limited to 64 bits", loc);
        IrInst *n = ty_cast(fn, k, ty_u32, ty_i64, loc);
        return vval(ty_u64, rnd(fn, RND_PY_GETRANDBITS, ty_u64, &n, 1, loc));
    }
    case RK_RANDINT:
    case RK_RANDRANGE: {
        IrInst *start = a[0], *stop = a[1], *step = a[2];
        IrInst *one = ty_const_int(fn, ty_i64, 1, loc);
        if (!stop) { /* randint(high), randrange(stop) */
            stop = start;
            start = ty_const_int(fn, ty_i64, 0, loc);
        } else if (f->kind == RK_RANDINT && !np) { /* random.randint(a, b): [a, b + 1) */
            stop = binop(fn, OP_ADD, ty_i64, stop, one, loc).v;
        }
        if (!step)
            step = one;
        IrInst *len_args[3] = {start, stop, step};
        IrInst *n = rnd(fn, RND_RANGE_LEN, ty_i64, len_args, 3, loc);
        IrInst *empty = icmp(fn, CMP_LE, n, ty_const_int(fn, ty_i64, 0, loc), loc);
        if (fn->emit && empty) {
            IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
            ty_condbr(fn, empty, bad, ok, loc);
            ty_set_block(fn, bad);
            ty_raise(fn, RAISE_VALUE, "empty range for randrange()", loc);
            ty_set_block(fn, ok);
        }
        IrInst *r = rnd(fn, np ? RND_NP_BELOW : RND_PY_BELOW, ty_i64, &n, 1, loc);
        if (a[2])
            r = binop(fn, OP_MUL, ty_i64, r, step, loc).v;
        return binop(fn, OP_ADD, ty_i64, start, r, loc);
    }
    }
    return verr();
}

/* ---- arguments ------------------------------------------------------------------------------ */
/* Binds the call's arguments to f's parameters (out[k]: a node or NULL). */
static bool bind(Fn *fn, const RandFunc *f, const char *shown, Node *call, Node **out) {
    if (call->list2.n && !f->np) { /* Numba types Python's random.* by position only */
        ty_error(fn, call->list2.items[0]->loc, "%s() takes no keyword arguments in compiled "
                                                "code", shown);
        return false;
    }
    /* size=None, high=None: left out */
    if (!ty_bind_args(fn, call, shown, f->params, 4, f->nreq, TY_BIND_NONE_OMITS, out))
        return false;
    if (f->kind == RK_NORMAL && f->np && out[1] && !out[0]) { /* no such signature in Numba */
        ty_error(fn, out[1]->loc, "%s() with a scale needs the loc too", shown);
        return false;
    }
    return true;
}

/* An argument converted to t (float64 or int64): any number or bool, as Numba converts
 * (a float to an integer parameter truncates). */
static bool convert(Fn *fn, const char *shown, const char *param, Node *e, const Type *t,
                    IrInst **out) {
    Val v = ty_value(fn, e);
    if (v.k != V_VAL)
        return false;
    if (!ty_is_scalar(v.t)) {
        ty_error(fn, e->loc, "the argument '%s' of %s() must be a number, not %s", param, shown,
                 v.t->name);
        return false;
    }
    *out = ty_cast(fn, v.v, v.t, t, e->loc);
    return true;
}

/* ---- arrays --------------------------------------------------------------------------------- */
/* A new C array of dtype with extents dims[0..nd-1], each element a draw of f, in C order. */
static Val fill(Fn *fn, const RandFunc *f, const Type *dtype, IrInst **dims, int nd,
                IrInst **a, Loc loc) {
    const Type *at = ty_array(dtype, nd, LAYOUT_C);
    Val arr = ty_alloc_array(fn, at, dims, loc);
    if (!fn->emit || !arr.v) {
        draw(fn, f, a, loc);
        return arr;
    }
    int var[TY_MAX_NDIM];
    IrBlock *head[TY_MAX_NDIM], *exit[TY_MAX_NDIM];
    IrInst *idx[TY_MAX_NDIM + 2];
    for (int d = 0; d < nd; d++) { /* for i_d in range(dims[d]) */
        var[d] = ty_temp_var(fn, ty_i64);
        ty_store_var(fn, var[d], ty_const_int(fn, ty_i64, 0, loc), loc);
        head[d] = ty_block(fn), exit[d] = ty_block(fn);
        IrBlock *body = ty_block(fn);
        ty_br(fn, head[d], loc);
        ty_set_block(fn, head[d]);
        idx[1 + d] = ty_load_var(fn, var[d], ty_i64, loc);
        ty_condbr(fn, icmp(fn, CMP_LT, idx[1 + d], dims[d], loc), body, exit[d], loc);
        ty_set_block(fn, body);
    }
    idx[0] = arr.v;
    idx[nd + 1] = draw(fn, f, a, loc).v;
    ty_emit(fn, IR_ASTORE, ty_void, loc, nd + 2, idx);
    for (int d = nd - 1; d >= 0; d--) {
        IrInst *next = binop(fn, OP_ADD, ty_i64, ty_load_var(fn, var[d], ty_i64, loc),
                             ty_const_int(fn, ty_i64, 1, loc), loc).v;
        ty_store_var(fn, var[d], next, loc);
        ty_br(fn, head[d], loc);
        ty_set_block(fn, exit[d]);
    }
    return arr;
}

/* ---- calls ---------------------------------------------------------------------------------- */
/* The form of RK_LIB function f for the given arguments args[]: the defaults of those left out
 * into a[], or the short form (*buf) where f has one and its last parameter is left out. */
static const RandFunc *lib_form(Fn *fn, const RandFunc *f, Node **args, IrInst **a,
                                RandFunc *buf, Loc loc) {
    int n = 0;
    while (n < 4 && f->params[n] && strcmp(f->params[n], "size"))
        n++;
    if (f->sym_short && !args[n - 1]) {
        *buf = *f;
        buf->sym = f->sym_short;
        buf->params[n - 1] = NULL;
        return buf;
    }
    for (int k = f->nreq; k < n; k++)
        if (!args[k])
            a[k] = ty_const_float(fn, ty_f64, f->defs[k], loc);
    return f;
}

Val ty_random_call(Fn *fn, const char *name, Node *call) {
    bool np = name[0] == 'n';
    const char *fname = name + (np ? 10 : 7), *shown = name;
    const RandFunc *f = find(fname, np);
    if (!f) {
        ty_error(fn, call->loc, "%s() is not supported by numjit", shown);
        return verr();
    }
    Loc loc = call->loc;
    IrInst *a[4] = {NULL}, *dims[TY_MAX_NDIM];
    int nd = 0;
    RandFunc short_form;
    if (f->kind == RK_RAND || f->kind == RK_RANDN) { /* rand(d0, d1, ...): the shape */
        if (call->list2.n) {
            ty_error(fn, call->list2.items[0]->loc, "%s() takes no keyword arguments", shown);
            return verr();
        }
        if (call->list.n > TY_MAX_NDIM) {
            ty_error(fn, loc, "%s() of %d dimensions: numjit has arrays of 1 to %d dimensions",
                     shown, call->list.n, TY_MAX_NDIM);
            return verr();
        }
        for (nd = 0; nd < call->list.n; nd++)
            if (!convert(fn, shown, "d", call->list.items[nd], ty_i64, &dims[nd]))
                return verr();
    } else {
        Node *args[4];
        if (!bind(fn, f, shown, call, args))
            return verr();
        for (int k = 0; k < 4 && f->params[k]; k++) {
            if (!args[k])
                continue;
            if (!strcmp(f->params[k], "size")) {
                for (int j = 0; j < k; j++)
                    if (!args[j]) { /* Numba's array forms take every argument */
                        ty_error(fn, args[k]->loc, "%s() with a size needs the argument '%s' "
                                                   "too", shown, f->params[j]);
                        return verr();
                    }
                if ((nd = ty_alloc_shape(fn, name + 3, args[k], dims)) < 0)
                    return verr();
                continue;
            }
            bool ints = f->kind == RK_SEED || f->kind == RK_RANDINT || f->kind == RK_RANDRANGE ||
                        f->kind == RK_GETRANDBITS || (f->ints >> k & 1);
            if (!convert(fn, shown, f->params[k], args[k], ints ? ty_i64 : ty_f64, &a[k]))
                return verr();
            if (f->kind == RK_SEED) /* the low 32 bits, as Numba's uint32 parameter */
                a[k] = ty_cast(fn, a[k], ty_i64, ty_u32, args[k]->loc);
        }
        if (f->kind == RK_LIB && !(f = lib_form(fn, f, args, a, &short_form, loc)))
            return verr();
    }
    const Type *dtype = f->kind == RK_RANDINT || f->kind == RK_RANDRANGE || f->int_result
                            ? ty_i64 : ty_f64;
    if (nd > 0)
        return fill(fn, f, dtype, dims, nd, a, loc);
    return draw(fn, f, a, loc);
}

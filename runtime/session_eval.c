/* session_eval.c — expressions of a session: fused array expressions and calls (reductions of
 * them are session_reduce.c; session_region.h is private to the two).
 *
 * An expression made of arithmetic, comparisons, math functions, casts and calls of the
 * session's scalar functions is a *region*.  Its leaves are variables, literals and *opaque*
 * subexpressions (constructors, reductions, subscripts, attributes, calls that take whole
 * arrays), which are evaluated first.  The region then becomes the source text of one scalar
 * function,
 *
 *     y = 2*(x - z)/(x + z)    →    def __nj_e0(x, z):
 *                                       return ((2 * (x - z)) / (x + z))
 *
 * compiled in a module made of the session's defs plus that function and run as a dynamic
 * ufunc (nj_ufunc_new without signatures): ONE loop over the broadcast shape, no temporaries,
 * NumPy broadcasting and Numba's typing.  With no array among the leaves the function runs as a
 * plain compiled call (Python's error model: 1/0 raises).  A reduction (sum min max mean prod)
 * of a region over contiguous arrays of one shape becomes a compiled loop with an accumulator
 * over the flattened leaves; with axis= it materializes the region and reduces with a binary
 * ufunc (nj_ufunc_reduce).
 *
 * Compiled functions are cached by the region's normalized text (leaves written as $k), so
 * `a*b+1` and `x*y+1` share one function, and the ufunc keeps one loop per dtype combination.
 * Before a new function runs, the session types it itself so that a type error is reported at
 * the user's expression: the emitted text keeps, for each node, its span and the user's Loc.
 */
#include "session_region.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------------------------------- */
static const char *const np_elementwise[] = {
    "arcsin", "arccos", "arctan", "arctan2", "arcsinh", "arccosh", "arctanh", "power",
    "absolute", "abs", "deg2rad", "rad2deg", "minimum", "maximum", "float32", "float64", "int8",
    "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "where", NULL};
static const char *const builtin_names[] = {"print", "len", "range", "sum", "min", "max", "abs",
                                            "int", "float", "bool", "round", "pow", NULL};
static const char *const np_functions[] = {
    "zeros", "ones", "empty", "full", "arange", "linspace", "array", "asarray", "load", "save",
    "sum", "min", "max", "amin", "amax", "mean", "prod", "copy", "zeros_like", "ones_like",
    "empty_like", "full_like", NULL};

static bool in_list(const char *const *l, const char *n) {
    for (int i = 0; l[i]; i++)
        if (!strcmp(l[i], n))
            return true;
    return false;
}

/* The module a name denotes ("numpy", "math", "numpy.random"), or NULL. */
static const char *module_of(NjSession *s, Node *e) {
    if (e->kind == ND_NAME) {
        if (ss_lookup(s, e->name) || ss_is_func(s, e->name))
            return NULL;
        if (!strcmp(e->name, "np") || !strcmp(e->name, "numpy"))
            return "numpy";
        if (!strcmp(e->name, "math"))
            return "math";
        return NULL;
    }
    if (e->kind == ND_ATTR) {
        const char *m = module_of(s, e->a);
        if (m && !strcmp(m, "numpy") && !strcmp(e->name, "random"))
            return "numpy.random";
    }
    return NULL;
}

/* "numpy.sum", "math.sin", "builtin.print", "numpy.random.uniform", "func.f", or NULL. */
bool se_qualname(NjSession *s, Node *callee, char *q, size_t n) {
    if (callee->kind == ND_NAME) {
        const char *nm = callee->name;
        if (ss_lookup(s, nm))
            return false;
        if (ss_is_func(s, nm))
            snprintf(q, n, "func.%s", nm);
        else if (in_list(builtin_names, nm))
            snprintf(q, n, "builtin.%s", nm);
        else if (in_list(np_functions, nm) || ir_math_lookup(nm) >= 0 ||
                 in_list(np_elementwise, nm))
            snprintf(q, n, "numpy.%s", nm); /* REPL convenience: sin(x), zeros(3) */
        else
            return false;
        return true;
    }
    if (callee->kind == ND_ATTR) {
        const char *m = module_of(s, callee->a);
        if (!m)
            return false;
        snprintf(q, n, "%s.%s", m, callee->name);
        return true;
    }
    return false;
}

static bool is_elementwise_call(NjSession *s, Node *e) {
    char q[128];
    if (e->kind != ND_CALL || !se_qualname(s, e->a, q, sizeof q) || e->list2.n)
        return false;
    const char *dot = strrchr(q, '.');
    const char *nm = dot + 1;
    if (!strncmp(q, "builtin.", 8)) {
        if (!strcmp(nm, "min") || !strcmp(nm, "max"))
            return e->list.n >= 2;
        return !strcmp(nm, "abs") || !strcmp(nm, "int") || !strcmp(nm, "float") ||
               !strcmp(nm, "bool") || !strcmp(nm, "round") || !strcmp(nm, "pow");
    }
    if (!strncmp(q, "math.", 5))
        return ir_math_lookup(nm) >= 0;
    if (!strncmp(q, "numpy.", 6) && !strchr(q + 6, '.'))
        return ir_math_lookup(nm) >= 0 || in_list(np_elementwise, nm);
    return false;
}

bool se_is_region_node(NjSession *s, Node *e) {
    switch (e->kind) {
    case ND_BINOP: return e->op != OP_MATMUL;
    case ND_UNARY: case ND_COMPARE: case ND_BOOLOP: case ND_IFEXP: return true;
    case ND_CALL: return is_elementwise_call(s, e);
    default: return false;
    }
}

static bool is_np_const(NjSession *s, Node *e) {
    if (e->kind != ND_ATTR)
        return false;
    const char *m = module_of(s, e->a);
    return m && (!strcmp(m, "numpy") || !strcmp(m, "math")) &&
           (!strcmp(e->name, "pi") || !strcmp(e->name, "e") || !strcmp(e->name, "inf") ||
            !strcmp(e->name, "nan") || !strcmp(e->name, "tau"));
}

const char *se_dtype_type_name(NjDType d) { return nj_dtype_name(d); }

/* ---- regions: collecting leaves ------------------------------------------------------------- */
NjStatus se_add_leaf(Region *R, SVal v, bool owned, const char *name, Node *node) {
    NjSession *s = R->s;
    if (R->nleaves == MAX_LEAVES) {
        if (owned)
            sv_free(&v);
        return ss_error(s, node ? node->loc : (Loc){0}, NJ_ERR_UNSUPPORTED,
                        "an array expression may use at most %d distinct values", MAX_LEAVES);
    }
    Leaf *L = &R->leaves[R->nleaves];
    memset(L, 0, sizeof *L);
    L->v = v;
    L->owned = owned;
    L->name = name;
    L->node = node;
    if (name && strncmp(name, "__nj", 4))
        snprintf(L->pname, sizeof L->pname, "%s", name);
    else
        snprintf(L->pname, sizeof L->pname, "__nj_a%d", R->nleaves);
    if (v.kind == SV_ARRAY)
        R->any_array = true;
    R->nleaves++;
    return NJ_OK;
}

static int leaf_of_node(const Region *R, const Node *e) {
    for (int i = 0; i < R->nleaves; i++)
        if (R->leaves[i].node == e)
            return i;
    return -1;
}

static int leaf_of_name(const Region *R, const char *name) {
    for (int i = 0; i < R->nleaves; i++)
        if (R->leaves[i].name && !R->leaves[i].node && !strcmp(R->leaves[i].name, name))
            return i;
    return -1;
}

static NjStatus check_operand(NjSession *s, const SVal *v, Loc loc) {
    if (v->kind == SV_SCALAR || v->kind == SV_ARRAY)
        return NJ_OK;
    StrBuf t;
    sb_init(&t);
    sv_type_name(v, &t);
    NjStatus st = ss_error(s, loc, NJ_ERR_TYPE, "a %s cannot be used in an arithmetic expression",
                           t.data ? t.data : "value");
    sb_free(&t);
    return st;
}

NjStatus se_collect_opaque(Region *R, Node *e) {
    SVal v;
    NjStatus st = se_eval(R->s, e, &v);
    if (st)
        return st;
    if ((st = check_operand(R->s, &v, e->loc))) {
        sv_free(&v);
        return st;
    }
    return se_add_leaf(R, v, true, NULL, e);
}

/* Whether session function `name` can take these values whole (Numba's call), or must be
 * applied elementwise.  Scalars only: always a plain call. */
bool se_direct_call_ok(NjSession *s, const char *name, const SVal *args, int n) {
    bool arrays = false;
    for (int i = 0; i < n; i++)
        arrays |= args[i].kind == SV_ARRAY;
    if (!arrays)
        return true;
    if (ss_sync(s))
        return false;
    const FuncInfo *fi = fe_find_func(s->defs->info, name);
    if (!fi || fi->kind == FK_VECTORIZE || fi->kind == FK_GUVECTORIZE)
        return fi != NULL;
    const Type *types[16];
    for (int i = 0; i < n && i < 16; i++) {
        if (args[i].kind == SV_ARRAY) {
            const NjArray *a = &args[i].arr->a;
            types[i] = ty_array(rt_type_of_dtype(a->dtype), a->ndim,
                                sa_is_contig(a) ? LAYOUT_C : LAYOUT_A);
        } else if (args[i].kind == SV_SCALAR)
            types[i] = rt_type_of_dtype(args[i].dtype);
        else
            return true; /* let the call report it */
    }
    /* the decision is cached per function and argument types */
    StrBuf key;
    sb_init(&key);
    sb_printf(&key, "D:%s(", name);
    for (int i = 0; i < n; i++)
        sb_printf(&key, "%s,", types[i]->name);
    SCache *c = key.data ? se_cache_find(s, key.data) : NULL;
    if (c) {
        sb_free(&key);
        return c->fname[0] == '1';
    }
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d);
    TyRequest req = {.module = s->defs->info, .func = name, .args = types, .nargs = n,
                     .target = TARGET_CPU, .kind = IRF_NJIT};
    IrProgram *p = a ? ty_specialize(a, &req, &d) : NULL;
    bool ok = p && !d.nerrors; /* an array result comes back through nj_call too */
    if (ok && ty_has_refs(p->funcs[0]->ret)) {
        /* an array result from array arguments: a function written for numbers (whole-array
         * arithmetic since then) keeps running elementwise, as the session always ran it;
         * one that needs its arrays (indexing, slicing, reductions) is called directly */
        const Type *el[16];
        for (int i = 0; i < n && i < 16; i++)
            el[i] = types[i]->kind == TY_ARRAY ? types[i]->dtype : types[i];
        DiagList d2;
        diag_init(&d2);
        TyRequest er = req;
        er.args = el;
        IrProgram *q = ty_specialize(a, &er, &d2);
        ok = !(q && !d2.nerrors && ty_is_scalar(q->funcs[0]->ret));
        diag_free(&d2);
    }
    diag_free(&d);
    arena_free(a);
    if (key.data && (c = se_cache_add(s, key.data)))
        c->fname = strdup(ok ? "1" : "0");
    sb_free(&key);
    return ok;
}

static NjStatus eval_args(NjSession *s, Node *call, SVal *vals, int *n) {
    *n = 0;
    if (call->list.n > 16)
        return ss_error(s, call->loc, NJ_ERR_ARGS, "too many arguments");
    for (int i = 0; i < call->list.n; i++) {
        NjStatus st = se_eval(s, call->list.items[i], &vals[i]);
        if (st) {
            for (int j = 0; j < i; j++)
                sv_free(&vals[j]);
            return st;
        }
        (*n)++;
    }
    return NJ_OK;
}

NjStatus se_collect(Region *R, Node *e) {
    NjSession *s = R->s;
    switch (e->kind) {
    case ND_INT: case ND_FLOAT: case ND_BOOL:
        return NJ_OK;
    case ND_NAME: {
        if (leaf_of_name(R, e->name) >= 0)
            return NJ_OK;
        SVal *v = ss_lookup(s, e->name);
        if (!v) {
            if (ss_is_func(s, e->name))
                return ss_error(s, e->loc, NJ_ERR_TYPE,
                                "function '%s' used as a value (call it: %s(...))", e->name, e->name);
            return ss_error(s, e->loc, NJ_ERR_NAME, "name '%s' is not defined", e->name);
        }
        NjStatus st = check_operand(s, v, e->loc);
        return st ? st : se_add_leaf(R, *v, false, e->name, NULL);
    }
    case ND_ATTR:
        return is_np_const(s, e) ? NJ_OK : se_collect_opaque(R, e);
    case ND_BINOP:
        if (e->op == OP_MATMUL)
            return se_collect_opaque(R, e);
        /* fallthrough */
    case ND_BOOLOP: {
        NjStatus st = se_collect(R, e->a);
        return st ? st : se_collect(R, e->b);
    }
    case ND_UNARY:
        return se_collect(R, e->a);
    case ND_IFEXP: {
        NjStatus st = se_collect(R, e->a);
        if (!st)
            st = se_collect(R, e->b);
        return st ? st : se_collect(R, e->c);
    }
    case ND_COMPARE:
        for (int i = 0; i < e->list.n; i++) {
            NjStatus st = se_collect(R, e->list.items[i]);
            if (st)
                return st;
        }
        return NJ_OK;
    case ND_CALL: {
        if (is_elementwise_call(s, e)) {
            for (int i = 0; i < e->list.n; i++) {
                NjStatus st = se_collect(R, e->list.items[i]);
                if (st)
                    return st;
            }
            return NJ_OK;
        }
        char q[128];
        if (se_qualname(s, e->a, q, sizeof q) && !strncmp(q, "func.", 5) && !e->list2.n) {
            /* a session function: whole-array call, or elementwise inside the loop */
            SVal vals[16];
            int n;
            NjStatus st = NJ_OK;
            if (e == R->pre) {
                n = R->npre;
                memcpy(vals, R->pre_vals, sizeof(SVal) * (size_t)n);
                R->pre = NULL;
                R->npre = 0;
            } else if ((st = eval_args(s, e, vals, &n)))
                return st;
            if (se_direct_call_ok(s, q + 5, vals, n)) {
                SVal r;
                st = se_call_direct(s, q + 5, vals, n, e->loc, &r);
                for (int i = 0; i < n; i++)
                    sv_free(&vals[i]);
                if (st)
                    return st;
                if ((st = check_operand(s, &r, e->loc))) {
                    sv_free(&r);
                    return st;
                }
                return se_add_leaf(R, r, true, NULL, e);
            }
            SVal el[16]; /* the element types it is called with, for ":ir f" */
            for (int i = 0; i < n; i++)
                el[i] = vals[i].kind == SV_ARRAY ? sv_scalar_i(vals[i].arr->a.dtype, 0) : vals[i];
            ss_note_sig(s, q + 5, el, n);
            for (int i = 0; i < n && !st; i++) {
                Node *a = e->list.items[i];
                if (a->kind == ND_NAME || a->kind == ND_INT || a->kind == ND_FLOAT ||
                    a->kind == ND_BOOL) {
                    sv_free(&vals[i]);
                    st = se_collect(R, a);
                } else {
                    st = check_operand(s, &vals[i], a->loc);
                    if (!st)
                        st = se_add_leaf(R, vals[i], true, NULL, a);
                    else
                        sv_free(&vals[i]);
                }
                vals[i] = sv_none();
            }
            for (int i = 0; i < n; i++)
                sv_free(&vals[i]);
            return st;
        }
        return se_collect_opaque(R, e);
    }
    default:
        return se_collect_opaque(R, e);
    }
}

/* ---- regions: emitting source --------------------------------------------------------------- */
static void emit(Region *R, Node *e, StrBuf *sb);

static void emit_leaf(Region *R, int k, StrBuf *sb) {
    Leaf *L = &R->leaves[k];
    if (R->mode == 1)
        sb_printf(sb, "$%d", k);
    else if (R->mode == 2 && L->v.kind == SV_ARRAY)
        sb_printf(sb, "%s[%s]", L->pname, R->idx);
    else
        sb_puts(sb, L->pname);
}

static void emit_float(double f, StrBuf *sb) {
    if (isinf(f)) {
        sb_puts(sb, f > 0 ? "__nj_np.inf" : "(-__nj_np.inf)");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", f);
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    sb_puts(sb, buf);
}

static void emit_inner(Region *R, Node *e, StrBuf *sb) {
    NjSession *s = R->s;
    int k = leaf_of_node(R, e);
    if (k >= 0) {
        emit_leaf(R, k, sb);
        return;
    }
    switch (e->kind) {
    case ND_INT: sb_printf(sb, "%lld", (long long)e->ival); return;
    case ND_FLOAT: emit_float(e->fval, sb); return;
    case ND_BOOL: sb_puts(sb, e->ival ? "True" : "False"); return;
    case ND_NAME: {
        int j = leaf_of_name(R, e->name);
        if (j >= 0)
            emit_leaf(R, j, sb);
        else
            sb_puts(sb, e->name);
        return;
    }
    case ND_ATTR: {
        const char *m = module_of(s, e->a);
        sb_printf(sb, "%s.%s", m && !strcmp(m, "math") ? "__nj_math" : "__nj_np", e->name);
        return;
    }
    case ND_BINOP:
        sb_putc(sb, '(');
        emit(R, e->a, sb);
        sb_printf(sb, " %s ", ast_op_spelling[e->op]);
        emit(R, e->b, sb);
        sb_putc(sb, ')');
        return;
    case ND_BOOLOP:
        sb_putc(sb, '(');
        emit(R, e->a, sb);
        sb_puts(sb, e->op == OP_AND ? " and " : " or ");
        emit(R, e->b, sb);
        sb_putc(sb, ')');
        return;
    case ND_UNARY:
        sb_printf(sb, "(%s", ast_op_spelling[e->op]);
        if (e->op == OP_NOT)
            sb_putc(sb, ' ');
        emit(R, e->a, sb);
        sb_putc(sb, ')');
        return;
    case ND_IFEXP:
        sb_putc(sb, '(');
        emit(R, e->b, sb);
        sb_puts(sb, " if ");
        emit(R, e->a, sb);
        sb_puts(sb, " else ");
        emit(R, e->c, sb);
        sb_putc(sb, ')');
        return;
    case ND_COMPARE:
        sb_putc(sb, '(');
        for (int i = 0; i < e->list.n; i++) {
            if (i)
                sb_printf(sb, " %s ", ast_op_spelling[e->ops[i - 1]]);
            emit(R, e->list.items[i], sb);
        }
        sb_putc(sb, ')');
        return;
    case ND_CALL: {
        char q[128] = "";
        se_qualname(s, e->a, q, sizeof q);
        const char *nm = strrchr(q, '.') ? strrchr(q, '.') + 1 : q;
        if (!strcmp(q, "numpy.where") && e->list.n == 3) {
            sb_putc(sb, '(');
            emit(R, e->list.items[1], sb);
            sb_puts(sb, " if ");
            emit(R, e->list.items[0], sb);
            sb_puts(sb, " else ");
            emit(R, e->list.items[2], sb);
            sb_putc(sb, ')');
            return;
        }
        if (!strncmp(q, "math.", 5))
            sb_printf(sb, "__nj_math.%s(", nm);
        else if (!strncmp(q, "numpy.", 6))
            sb_printf(sb, "__nj_np.%s(", nm);
        else
            sb_printf(sb, "%s(", nm);
        for (int i = 0; i < e->list.n; i++) {
            if (i)
                sb_puts(sb, ", ");
            emit(R, e->list.items[i], sb);
        }
        sb_putc(sb, ')');
        return;
    }
    default:
        sb_puts(sb, "None");
    }
}

static void emit(Region *R, Node *e, StrBuf *sb) {
    int start = (int)sb->len;
    emit_inner(R, e, sb);
    if (R->nspans < MAX_SPANS)
        R->spans[R->nspans++] = (Span){start, (int)sb->len, e};
}

char *se_region_text(Region *R, Node *root, int mode, const char *idx) {
    StrBuf sb;
    sb_init(&sb);
    R->mode = mode;
    R->idx = idx;
    R->nspans = 0;
    emit(R, root, &sb);
    return sb_take(&sb);
}

void se_free_region(Region *R) {
    for (int i = 0; i < R->nleaves; i++)
        if (R->leaves[i].owned)
            sv_free(&R->leaves[i].v);
    R->nleaves = 0;
}

/* ---- compiling synthesized functions ---------------------------------------------------------- */
SCache *se_cache_find(NjSession *s, const char *key) {
    for (int i = 0; i < s->ncache; i++)
        if (!strcmp(s->cache[i].key, key))
            return &s->cache[i];
    return NULL;
}

SCache *se_cache_add(NjSession *s, const char *key) {
    if (s->ncache == s->capcache) {
        int cap = s->capcache ? s->capcache * 2 : 16;
        SCache *c = realloc(s->cache, sizeof *c * (size_t)cap);
        if (!c)
            return NULL;
        s->cache = c;
        s->capcache = cap;
    }
    SCache *c = &s->cache[s->ncache++];
    memset(c, 0, sizeof *c);
    c->key = strdup(key);
    return c;
}

static int count_lines(const char *t) {
    int n = 0;
    for (; *t; t++)
        n += *t == '\n';
    return n;
}

/* Maps diagnostics in the synthesized line (line `ret_line`, expression text starting at column
 * `col0`) back to the user's nodes; other synthesized lines map to root. */
static void remap_diags(Region *R, DiagList *d, const Source *msrc, int base_lines, int ret_line,
                        int col0, Node *root) {
    for (int i = 0; i < d->n; i++) {
        Loc *l = &d->items[i].loc;
        if (l->src != msrc || l->line <= base_lines)
            continue;
        Node *best = NULL;
        if (l->line == ret_line) {
            int off = l->col - col0;
            for (int k = 0; k < R->nspans; k++) {
                Span *sp = &R->spans[k];
                if (sp->start == off && (!best || sp->end - sp->start == l->len))
                    best = sp->node;
            }
            for (int k = 0; !best && k < R->nspans; k++)
                if (R->spans[k].start <= off && off < R->spans[k].end)
                    best = R->spans[k].node; /* spans are innermost first */
        }
        if (!best && i > 0 && d->items[i].level == DG_ERROR) {
            /* a follow-on error inside the synthesized function: the first one said it */
            nj_free(d->items[i].msg);
            memmove(&d->items[i], &d->items[i + 1], sizeof *d->items * (size_t)(d->n - i - 1));
            d->n--;
            d->nerrors--;
            i--;
            continue;
        }
        *l = (best ? best : root)->loc;
        if (best && best->loc.len == 0)
            l->len = 1;
    }
}

static const Type *leaf_type(const Leaf *L, bool whole) {
    if (L->v.kind == SV_ARRAY) {
        const NjArray *a = &L->v.arr->a;
        const Type *dt = rt_type_of_dtype(a->dtype);
        return whole ? ty_array(dt, 1, LAYOUT_C) : dt;
    }
    return rt_type_of_dtype(L->v.dtype);
}

/* Compiles `src` (a synthesized function named fname, appended to the base text) and types it
 * for the leaves' types; reports type errors at the user's expression. */
NjStatus se_compile_synth(Region *R, Node *root, const char *fname, const char *func_src,
                              int ret_line_in_func, int col0, IrFuncKind kind, bool whole,
                              NjModule **mout, const Type **ret) {
    NjSession *s = R->s;
    char *base = ss_base_text(s);
    if (!base)
        return NJ_ERR_NOMEM;
    int base_lines = count_lines(base);
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, base);
    sb_puts(&sb, "import math as __nj_math\nimport numpy as __nj_np\n");
    sb_puts(&sb, func_src);
    free(base);
    double t0 = ss_now_ms();
    NjModule *m;
    NjStatus st = nj_compile_source(s->ctx, s->main_name, sb.data, &m);
    sb_free(&sb);
    if (st)
        return st;
    /* type it here, so that errors point at what the user typed */
    const Type *types[MAX_LEAVES];
    for (int i = 0; i < R->nleaves; i++)
        types[i] = leaf_type(&R->leaves[i], whole);
    Arena *a = arena_new();
    if (!a)
        return NJ_ERR_NOMEM;
    DiagList d;
    diag_init(&d);
    TyRequest req = {.module = m->info, .func = fname, .args = types, .nargs = R->nleaves,
                     .target = TARGET_CPU, .kind = kind};
    IrProgram *p = ty_specialize(a, &req, &d);
    if (!p || d.nerrors) {
        remap_diags(R, &d, &m->src, base_lines, base_lines + 3 + ret_line_in_func, col0, root);
        /* drop the note that only says "in the call of '__nj_e0' here" */
        rt_set_diags(s->ctx, &d);
        diag_free(&d);
        arena_free(a);
        return NJ_ERR_TYPE;
    }
    if (ret)
        *ret = p->funcs[0]->ret;
    diag_free(&d);
    arena_free(a);
    s->compile_ms += ss_now_ms() - t0;
    *mout = m;
    return NJ_OK;
}

static void leaf_arrays(Region *R, NjArray *ins) {
    for (int i = 0; i < R->nleaves; i++) {
        Leaf *L = &R->leaves[i];
        if (L->v.kind == SV_ARRAY) {
            ins[i] = L->v.arr->a;
        } else {
            memset(L->sbuf, 0, sizeof L->sbuf);
            sv_store(L->sbuf, &L->v);
            ins[i] = nj_array_c(L->sbuf, L->v.dtype, 0, NULL);
        }
    }
}

void se_params_text(Region *R, StrBuf *sb) {
    for (int i = 0; i < R->nleaves; i++)
        sb_printf(sb, "%s%s", i ? ", " : "", R->leaves[i].pname);
}

void se_note_last(NjSession *s, NjModule *m, const char *fname, Region *R, bool scalar_types) {
    free(s->last_expr_fn);
    free(s->last_expr_sig);
    s->last_expr_fn = strdup(fname);
    StrBuf sb;
    sb_init(&sb);
    sb_putc(&sb, '(');
    for (int i = 0; i < R->nleaves; i++) {
        const Type *t = leaf_type(&R->leaves[i], !scalar_types);
        sb_printf(&sb, "%s%s", i ? ", " : "", t->name);
    }
    sb_putc(&sb, ')');
    s->last_expr_sig = sb_take(&sb);
    s->last_expr_mod = m;
}

/* A failure of a synthesized function's ufunc (operands that do not broadcast, an output of
 * the wrong shape) says so under the name of that function and without a location: report it
 * at the user's expression instead, in the user's words. */
static NjStatus at_expr(NjSession *s, Node *root, NjStatus st) {
    if (st == NJ_OK || st == NJ_ERR_NOMEM)
        return st;
    const char *msg = nj_error_message(s->ctx);
    if (strncmp(msg, "error: ", 7)) /* already located at the user's code */
        return st;
    msg += 7;
    if (!strncmp(msg, "__nj", 4)) { /* "__nj_e6(): ..." */
        const char *p = strstr(msg, ": ");
        if (p)
            msg = p + 2;
    }
    char what[512];
    snprintf(what, sizeof what, "%s", msg);
    char *nl = strchr(what, '\n');
    if (nl)
        *nl = 0;
    bool bc = strstr(what, "broadcast") != NULL;
    return ss_error(s, root->loc, st, "%s%s", bc && strncmp(what, "ValueError", 10)
                                                  ? "ValueError: " : "", what);
}

/* Runs an elementwise region: a ufunc over arrays, or a scalar call. */
NjStatus se_exec_elementwise(NjSession *s, Region *R, Node *root, SArr *hint, SArr *force,
                                 SVal *out) {
    NjStatus st = ss_sync(s);
    if (st)
        return st;
    char *key_text = se_region_text(R, root, 1, NULL);
    StrBuf key;
    sb_init(&key);
    sb_printf(&key, "%c%d:%s", R->any_array ? 'U' : 'S', (int)s->target, key_text);
    for (int i = 0; i < R->nleaves; i++)
        sb_putc(&key, R->leaves[i].v.kind == SV_ARRAY ? 'a' : 's');
    free(key_text);
    SCache *c = se_cache_find(s, key.data);
    if (!c) {
        char fname[32];
        snprintf(fname, sizeof fname, "__nj_e%d", s->counter++);
        StrBuf fsrc;
        sb_init(&fsrc);
        sb_printf(&fsrc, "def %s(", fname);
        se_params_text(R, &fsrc);
        sb_puts(&fsrc, "):\n    return ");
        char *body = se_region_text(R, root, 0, NULL);
        sb_printf(&fsrc, "%s\n", body);
        free(body);
        NjModule *m = NULL;
        st = se_compile_synth(R, root, fname, fsrc.data, 1, 12,
                           R->any_array ? IRF_SCALAR : IRF_NJIT, false, &m, NULL);
        sb_free(&fsrc);
        if (st) {
            sb_free(&key);
            return st;
        }
        c = se_cache_add(s, key.data);
        if (!c) {
            sb_free(&key);
            return NJ_ERR_NOMEM;
        }
        c->m = m;
        c->fname = strdup(fname);
        NjTarget tg = s->target;
        st = R->any_array ? nj_ufunc_new(m, fname, NULL, 0, NULL, tg, &c->u)
                          : nj_module_function(m, fname, &c->f);
        if (st) {
            sb_free(&key);
            return st;
        }
    }
    sb_free(&key);
    se_note_last(s, c->m, c->fname, R, true);
    if (!R->any_array) {
        NjValue args[MAX_LEAVES], res;
        for (int i = 0; i < R->nleaves; i++)
            args[i] = sv_to_nj(&R->leaves[i].v);
        double t0 = ss_now_ms();
        bool first = !atomic_load(&c->f->table);
        st = nj_call(c->f, args, R->nleaves, &res);
        if (first)
            s->compile_ms += ss_now_ms() - t0;
        if (st == NJ_ERR_RUNTIME) {
            const char *msg = nj_error_message(s->ctx);
            const char *p = strstr(msg, "error: ");
            char what[256];
            snprintf(what, sizeof what, "%s", p ? p + 7 : "the expression raised");
            char *nl = strchr(what, '\n');
            if (nl)
                *nl = 0;
            return ss_error(s, root->loc, st, "%s", what);
        }
        if (st)
            return st;
        *out = sv_from_nj(&res);
        return NJ_OK;
    }
    NjArray ins[MAX_LEAVES], res[1];
    leaf_arrays(R, ins);
    memset(res, 0, sizeof res);
    double t0 = ss_now_ms();
    st = nj_ufunc_resolve(c->u, ins, R->nleaves, res, 1); /* compiles a new dtype loop */
    s->compile_ms += ss_now_ms() - t0;
    if (st)
        return at_expr(s, root, st);
    SArr *dst = force;
    if (!dst && hint && hint->refs == 1 && !hint->base && hint->a.dtype == res[0].dtype &&
        hint->a.ndim == res[0].ndim && sa_is_contig(&hint->a) &&
        !memcmp(hint->a.shape, res[0].shape, sizeof(int64_t) * (size_t)res[0].ndim))
        dst = hint;
    if (dst) {
        res[0] = dst->a;
        st = nj_ufunc_call(c->u, ins, R->nleaves, res, 1);
        if (st)
            return at_expr(s, root, st);
        dst->refs++;
        *out = sv_array(dst);
        return NJ_OK;
    }
    SArr *a = sa_new(res[0].dtype, res[0].ndim, res[0].shape);
    if (!a)
        return NJ_ERR_NOMEM;
    res[0] = a->a;
    st = nj_ufunc_call(c->u, ins, R->nleaves, res, 1);
    if (st) {
        sa_decref(a);
        return at_expr(s, root, st);
    }
    *out = sv_array(a);
    return NJ_OK;
}

NjStatus se_run_region(NjSession *s, Node *root, SArr *hint, SArr *force, SVal *out) {
    Region *R = calloc(1, sizeof *R);
    if (!R)
        return NJ_ERR_NOMEM;
    R->s = s;
    NjStatus st = NJ_OK;
    char q[128];
    if (root->kind == ND_CALL && !root->list2.n && se_qualname(s, root->a, q, sizeof q) &&
        !strncmp(q, "func.", 5)) {
        /* f(...) alone: a whole-array call when f types for the values, else elementwise */
        if ((st = eval_args(s, root, R->pre_vals, &R->npre))) {
            free(R);
            return st;
        }
        if (se_direct_call_ok(s, q + 5, R->pre_vals, R->npre)) {
            st = se_call_direct(s, q + 5, R->pre_vals, R->npre, root->loc, out);
            for (int i = 0; i < R->npre; i++)
                sv_free(&R->pre_vals[i]);
            free(R);
            return st;
        }
        R->pre = root;
    }
    st = se_collect(R, root);
    int k = leaf_of_node(R, root);
    if (!st && k >= 0)
        *out = sv_copy(&R->leaves[k].v);
    else if (!st)
        st = se_exec_elementwise(s, R, root, hint, force, out);
    for (int i = 0; i < R->npre; i++)
        sv_free(&R->pre_vals[i]);
    se_free_region(R);
    free(R);
    return st;
}

/* ---- public face of this file --------------------------------------------------------------- */
void se_type_str(const Type *t, StrBuf *out) { sb_puts(out, t ? t->name : "?"); }



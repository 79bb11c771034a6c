/* ufunc.c — NjUfunc: the objects behind @vectorize / @guvectorize and the C API of ufuncs.
 *
 * A ufunc is a module function plus what its decorator (or nj_ufunc_new) declared: signatures
 * in order, a gufunc layout, a target, an identity.  Calling it:
 *  1. key = the inputs' dtypes and each output's dtype (0xff for "allocate");
 *  2. scan the published loop table for the key (no lock: tables are immutable and replaced
 *     whole, as in dispatch.c; retired ones live until the ufunc is freed);
 *  3. on a miss, under the ufunc's lock: pick the first signature every input casts to
 *     safely (NumPy's 'safe' rule, ty_can_cast_safe).  A dynamic ufunc (no signatures) does
 *     as Numba's DUFunc: the loops compiled so far are its signatures, tried in order, and
 *     when none fits it compiles one for the inputs' own types and appends it; check out= dtypes ('same_kind' for ufuncs, exact for
 *     gufuncs); compile a loop whose arguments are read and written in the arrays' own dtypes
 *     (so a float64 signature runs int32 inputs without a converted copy), or reuse an entry
 *     that already has the same loop dtypes; publish a new table;
 *  4. hand the loop to the executor (ufunc_exec.c).
 * Steps 2 and 3 are ufunc_loops.c (rt_uf_get_entry); this file is the object and its calls.
 * Compiling one loop: typer (IRF_SCALAR with the declared return type, or IRF_GUFUNC with
 * array parameters of each argument's core rank) → IR passes → cg_jit_compile_loop.
 *
 * Ufuncs belong to their module.  The module struct has no slot for them, so a registry here
 * (one mutex, touched only when a ufunc is created or a module freed) records the owner;
 * rt_module_ufuncs_free runs at module teardown.
 */
#include "ufunc_internal.h"

#include <stdlib.h>
#include <string.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static PtrVec registry;

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = nj_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- declarations: layouts and signatures -------------------------------------------------- */
/* "(m,n),(n,p)->(m,p)": fills core_n/core_idx/core_names, nin, nout. */
static bool parse_layout(NjUfunc *u, const char *s, const char **why) {
    int arg = 0, nin = -1;
    const char *p = s;
    *why = "expected '(' ";
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p != '(')
            return false;
        p++;
        if (arg >= RT_UF_MAXARGS) {
            *why = "too many arguments";
            return false;
        }
        int n = 0;
        for (;;) {
            while (*p == ' ')
                p++;
            if (*p == ')')
                break;
            const char *b = p;
            while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
                   (p > b && *p >= '0' && *p <= '9'))
                p++;
            if (p == b) {
                *why = "expected a dimension name";
                return false;
            }
            if (n >= NJ_MAX_NDIM) {
                *why = "too many core dimensions";
                return false;
            }
            int c;
            for (c = 0; c < u->ncore; c++)
                if (strlen(u->core_names[c]) == (size_t)(p - b) && !strncmp(u->core_names[c], b, (size_t)(p - b)))
                    break;
            if (c == u->ncore) {
                if (c >= UF_MAXCORE) {
                    *why = "too many core dimension names";
                    return false;
                }
                char *nm = nj_malloc((size_t)(p - b) + 1);
                if (!nm)
                    return false;
                memcpy(nm, b, (size_t)(p - b));
                nm[p - b] = 0;
                u->core_names[u->ncore++] = nm;
            }
            u->core_idx[arg][n++] = (int8_t)c;
            while (*p == ' ')
                p++;
            if (*p == ',')
                p++;
            else if (*p != ')') {
                *why = "expected ',' or ')'";
                return false;
            }
        }
        p++;
        u->core_n[arg++] = (int8_t)n;
        while (*p == ' ')
            p++;
        if (*p == ',') {
            p++;
        } else if (p[0] == '-' && p[1] == '>' && nin < 0) {
            nin = arg;
            p += 2;
        } else if (!*p) {
            break;
        } else {
            *why = nin < 0 ? "expected '->'" : "unexpected text";
            return false;
        }
    }
    /* without '->' every operand is an input and there is no output, as in Numba's sigparse:
     * the kernel writes into an argument ("(a),(a),(z)") */
    u->nin = nin < 0 ? arg : nin;
    u->nout = arg - u->nin;
    if (u->nin < 1 || (nin >= 0 && u->nout < 1)) {
        *why = "a gufunc needs at least one input and one output";
        return false;
    }
    return true;
}

/* A signature written as a Python expression (float64(float64, float64), float32[:],
 * nb.types.int64, (float64[:], float64[:])) back to the text ty_parse_sig reads. */
static bool sig_node_text(const Node *n, StrBuf *sb) {
    switch (n->kind) {
    case ND_STR: sb_puts(sb, n->str); return true;
    case ND_NAME: sb_puts(sb, n->name); return true;
    case ND_ATTR: sb_puts(sb, n->name); return true; /* nb.float64, numba.types.int32 */
    case ND_INT: sb_printf(sb, "%lld", (long long)n->ival); return true;
    case ND_SLICE:
        if (n->a || n->b)
            return false;
        sb_puts(sb, n->c ? "::" : ":");
        return !n->c || sig_node_text(n->c, sb);
    case ND_SUBSCRIPT:
        if (!sig_node_text(n->a, sb))
            return false;
        sb_putc(sb, '[');
        if (n->b->kind == ND_TUPLE) {
            for (int i = 0; i < n->b->list.n; i++) {
                if (i)
                    sb_puts(sb, ", ");
                if (!sig_node_text(n->b->list.items[i], sb))
                    return false;
            }
        } else if (!sig_node_text(n->b, sb)) {
            return false;
        }
        sb_putc(sb, ']');
        return true;
    case ND_CALL:
    case ND_TUPLE:
        if (n->kind == ND_CALL && !sig_node_text(n->a, sb))
            return false;
        sb_putc(sb, '(');
        for (int i = 0; i < n->list.n; i++) {
            if (i)
                sb_puts(sb, ", ");
            if (!sig_node_text(n->list.items[i], sb))
                return false;
        }
        sb_putc(sb, ')');
        return true;
    default: return false;
    }
}

static NjStatus add_sig(NjUfunc *u, const char *text, int k) {
    NjContext *ctx = u->module->ctx;
    UfSig *s = &u->sigs[k];
    const char *err;
    int n = ty_parse_sig(text, &s->ret, s->args, RT_UF_MAXARGS, &err);
    s->text = dup_str(text);
    if (!s->text)
        return NJ_ERR_NOMEM;
    if (n < 0) {
        rt_set_errorf(ctx, "error: %s: bad signature '%s': %s", u->name, text, err);
        return NJ_ERR_ARGS;
    }
    int want = u->gufunc ? u->nin + u->nout : u->nin;
    if (!u->gufunc && k == 0)
        want = u->nin = n;
    if (n != want) {
        rt_set_errorf(ctx, "error: %s: the signature '%s' has %d argument%s but %s %d", u->name,
                      text, n, n == 1 ? "" : "s",
                      u->gufunc ? "the layout has" : "the first signature has", want);
        return NJ_ERR_ARGS;
    }
    if (u->gufunc) {
        if (s->ret && s->ret != ty_void) {
            rt_set_errorf(ctx, "error: %s: a gufunc signature returns void: '%s'", u->name, text);
            return NJ_ERR_ARGS;
        }
        for (int i = 0; i < n; i++) {
            const Type *t = s->args[i];
            int nd = t->kind == TY_ARRAY ? t->ndim : 0, cn = u->core_n[i];
            bool ok = nd == cn || (cn == 0 && nd == 1) || (cn == 0 && nd == 0 && i < u->nin);
            if (!ok) {
                rt_set_errorf(ctx, "error: %s: argument %d of '%s' is %s but the layout gives it "
                              "%d core dimension%s", u->name, i + 1, text, t->name, cn,
                              cn == 1 ? "" : "s");
                return NJ_ERR_ARGS;
            }
        }
    } else {
        if (!s->ret || s->ret == ty_void || !ty_is_elem(s->ret)) {
            rt_set_errorf(ctx, "error: %s: a ufunc signature names its return type, as in "
                          "'float64(float64, float64)': '%s'", u->name, text);
            return NJ_ERR_ARGS;
        }
        for (int i = 0; i < n; i++)
            if (!ty_is_elem(s->args[i])) {
                rt_set_errorf(ctx, "error: %s: ufunc signatures take scalar types: '%s'", u->name,
                              text);
                return NJ_ERR_ARGS;
            }
    }
    return NJ_OK;
}

static void ufunc_free(NjUfunc *u) {
    if (u->ahead_started) {
        pthread_join(u->ahead, NULL);
        pthread_mutex_destroy(&u->ahead_mu);
        pthread_cond_destroy(&u->ahead_cv);
    }
    nj_free(u->ahead_slot);
    for (int i = 0; i < u->nsigs; i++)
        nj_free(u->sigs[i].text);
    nj_free(u->sigs);
    for (int c = 0; c < u->ncore; c++)
        nj_free(u->core_names[c]);
    UfTable *t = atomic_load(&u->table);
    if (t) {
        for (int i = 0; i < t->n; i++)
            nj_free(t->items[i]);
        nj_free(t);
    }
    for (int i = 0; i < u->old_tables.n; i++)
        nj_free(u->old_tables.items[i]);
    pv_free(&u->old_tables);
    for (int i = 0; i < u->np_loops.n; i++)
        nj_free(u->np_loops.items[i]);
    pv_free(&u->np_loops);
    rt_gpu_ufunc_free(u->gpu);
    nj_free(u->name);
    pthread_mutex_destroy(&u->lock);
    nj_free(u);
}

void rt_module_ufuncs_free(NjModule *m) {
    pthread_mutex_lock(&registry_lock);
    int j = 0;
    for (int i = 0; i < registry.n; i++) {
        NjUfunc *u = registry.items[i];
        if (u->module == m)
            ufunc_free(u);
        else
            registry.items[j++] = u;
    }
    registry.n = j;
    if (!j)
        pv_free(&registry);
    pthread_mutex_unlock(&registry_lock);
}

static NjStatus ufunc_create(NjModule *m, const char *name, const char *const *sigs, int nsigs,
                             const Node *const *signodes, const char *layout, NjTarget target,
                             bool from_decorator, NjUfunc **out) {
    NjContext *ctx = m->ctx;
    *out = NULL;
    const FuncInfo *fi = fe_find_func(m->info, name);
    if (!fi) {
        rt_set_errorf(ctx, "%s: error: no function named '%s'", m->src.name, name);
        return NJ_ERR_NAME;
    }
    if (target == NJ_TARGET_CUDA && nsigs == 0) {
        rt_set_errorf(ctx, "error: %s: a target='cuda' %s needs its signatures", name,
                      layout ? "gufunc" : "ufunc");
        return NJ_ERR_ARGS;
    }
    if (target != NJ_TARGET_CPU && target != NJ_TARGET_PARALLEL && target != NJ_TARGET_CUDA) {
        rt_set_errorf(ctx, "error: %s: unknown target %d", name, (int)target);
        return NJ_ERR_ARGS;
    }
    if (nsigs < 0 || nsigs > 64) {
        rt_set_errorf(ctx, "error: %s: bad number of signatures (%d)", name, nsigs);
        return NJ_ERR_ARGS;
    }
    NjUfunc *u = nj_calloc(1, sizeof *u);
    if (!u)
        return NJ_ERR_NOMEM;
    pthread_mutex_init(&u->lock, NULL);
    u->module = m;
    u->fi = fi;
    u->target = target;
    u->from_decorator = from_decorator;
    u->name = dup_str(name);
    u->capsigs = nsigs ? nsigs : 4;
    u->sigs = nj_calloc((size_t)u->capsigs, sizeof *u->sigs);
    u->dynamic = nsigs == 0 && !layout;
    NjStatus st = u->name && u->sigs ? NJ_OK : NJ_ERR_NOMEM;
    int nparams = fi->def->params.n;
    if (!st && layout) {
        const char *why = "";
        u->gufunc = true;
        if (!parse_layout(u, layout, &why)) {
            rt_set_errorf(ctx, "error: %s: bad gufunc layout '%s': %s", name, layout, why);
            st = NJ_ERR_ARGS;
        } else if (u->nin + u->nout != nparams) {
            rt_set_errorf(ctx, "error: %s: the layout '%s' has %d arguments but %s() takes %d",
                          name, layout, u->nin + u->nout, name, nparams);
            st = NJ_ERR_ARGS;
        } else if (nsigs == 0) {
            rt_set_errorf(ctx, "error: %s: a gufunc needs at least one signature", name);
            st = NJ_ERR_ARGS;
        }
    } else if (!st) {
        u->nin = nparams;
        u->nout = 1;
        if (nparams < 1 || nparams >= RT_UF_MAXARGS) {
            rt_set_errorf(ctx, "error: %s: a ufunc takes 1 to %d arguments", name, RT_UF_MAXARGS - 1);
            st = NJ_ERR_ARGS;
        }
    }
    for (int k = 0; !st && k < nsigs; k++) {
        StrBuf sb;
        sb_init(&sb);
        const char *text = sigs ? sigs[k] : NULL;
        if (!text) {
            if (!signodes || !sig_node_text(signodes[k], &sb)) {
                rt_set_errorf(ctx, "error: %s: signature %d is not a type signature", name, k + 1);
                st = NJ_ERR_ARGS;
            }
            text = sb.data ? sb.data : "";
        }
        if (!st) {
            u->nsigs = k + 1;
            st = add_sig(u, text, k);
        }
        sb_free(&sb);
    }
    if (!st && !u->gufunc && u->nin != nparams) {
        rt_set_errorf(ctx, "error: %s: the signatures have %d arguments but %s() takes %d", name,
                      u->nin, name, nparams);
        st = NJ_ERR_ARGS;
    }
    if (!st && fi->identity && fi->identity->kind != ND_NONE) {
        const Node *n = fi->identity;
        bool neg = n->kind == ND_UNARY && n->op == OP_NEG;
        if (neg)
            n = n->a;
        u->has_identity = true;
        if (n->kind == ND_FLOAT)
            u->identity = nj_f64(neg ? -n->fval : n->fval);
        else if (n->kind == ND_INT || n->kind == ND_BOOL)
            u->identity = nj_i64(neg ? -n->ival : n->ival);
        else
            u->has_identity = false;
    }
    if (!st) {
        pthread_mutex_lock(&registry_lock);
        int before = registry.n;
        pv_push(&registry, u);
        if (registry.n == before)
            st = NJ_ERR_NOMEM;
        pthread_mutex_unlock(&registry_lock);
    }
    if (st) {
        ufunc_free(u);
        return st;
    }
    *out = u;
    return NJ_OK;
}

NjStatus nj_ufunc_new(NjModule *m, const char *name, const char *const *sigs, int nsigs,
                      const char *layout, NjTarget target, NjUfunc **out) {
    if (nsigs > 0 && !sigs) {
        rt_set_errorf(m->ctx, "error: %s: %d signatures announced but none given", name, nsigs);
        return NJ_ERR_ARGS;
    }
    for (int k = 0; k < nsigs; k++)
        if (!sigs[k]) {
            rt_set_errorf(m->ctx, "error: %s: signature %d is NULL", name, k + 1);
            return NJ_ERR_ARGS;
        }
    return ufunc_create(m, name, sigs, nsigs, NULL, layout, target, false, out);
}

NjStatus nj_module_ufunc(NjModule *m, const char *name, NjUfunc **out) {
    *out = NULL;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < registry.n; i++) {
        NjUfunc *u = registry.items[i];
        if (u->module == m && u->from_decorator && !strcmp(u->name, name)) {
            pthread_mutex_unlock(&registry_lock);
            *out = u;
            return NJ_OK;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    const FuncInfo *fi = fe_find_func(m->info, name);
    if (!fi) {
        rt_set_errorf(m->ctx, "%s: error: no function named '%s'", m->src.name, name);
        return NJ_ERR_NAME;
    }
    if (fi->kind != FK_VECTORIZE && fi->kind != FK_GUVECTORIZE) {
        rt_set_errorf(m->ctx, "%s: error: '%s' is not decorated with @vectorize or @guvectorize",
                      m->src.name, name);
        return NJ_ERR_NAME;
    }
    NjTarget target = NJ_TARGET_CPU;
    if (fi->target && !strcmp(fi->target, "parallel"))
        target = NJ_TARGET_PARALLEL;
    else if (fi->target && !strcmp(fi->target, "cuda"))
        target = NJ_TARGET_CUDA;
    NjStatus st = ufunc_create(m, name, NULL, fi->sigs.n, (const Node *const *)fi->sigs.items,
                               fi->kind == FK_GUVECTORIZE ? (fi->layout ? fi->layout : "") : NULL,
                               target, true, out);
    if (st)
        return st;
    /* two threads may have raced to create it: keep the first one registered */
    pthread_mutex_lock(&registry_lock);
    NjUfunc *first = *out;
    for (int i = 0; i < registry.n; i++) {
        NjUfunc *u = registry.items[i];
        if (u->module == m && u->from_decorator && !strcmp(u->name, name)) {
            first = u;
            break;
        }
    }
    if (first != *out) {
        for (int i = 0; i < registry.n; i++)
            if (registry.items[i] == *out)
                registry.items[i] = registry.items[--registry.n];
        ufunc_free(*out);
        *out = first;
    }
    pthread_mutex_unlock(&registry_lock);
    return NJ_OK;
}

int nj_ufunc_nin(const NjUfunc *u) { return u ? u->nin : 0; }
int nj_ufunc_nout(const NjUfunc *u) { return u ? u->nout : 0; }

static NjStatus check_arrays(NjUfunc *u, const NjArray *ins, int nin, const NjArray *outs,
                             int nout) {
    NjContext *ctx = u->module->ctx;
    if (nin != u->nin || (nout != u->nout && !(nout == 0 && outs == NULL))) {
        rt_set_errorf(ctx, "error: %s() takes %d input%s and %d output%s, got %d and %d", u->name,
                      u->nin, u->nin == 1 ? "" : "s", u->nout, u->nout == 1 ? "" : "s", nin, nout);
        return NJ_ERR_ARGS;
    }
    if (!ins || !outs) {
        rt_set_errorf(ctx, "error: %s(): inputs and outputs must be given (outputs with data "
                      "NULL are allocated)", u->name);
        return NJ_ERR_ARGS;
    }
    for (int k = 0; k < nin + nout; k++) {
        const NjArray *a = k < nin ? &ins[k] : &outs[k - nin];
        bool ok = (unsigned)a->dtype < NJ_DTYPE_COUNT && a->ndim >= 0 && a->ndim <= NJ_MAX_NDIM &&
                  (a->data || k >= nin);
        for (int d = 0; ok && d < a->ndim && (a->data || k < nin); d++)
            ok = a->shape[d] >= 0;
        if (!ok) {
            rt_set_errorf(ctx, "error: %s(): %s %d is not a valid array (dtype, ndim 0..%d, data)",
                          u->name, k < nin ? "input" : "output", k < nin ? k : k - nin, NJ_MAX_NDIM);
            return NJ_ERR_ARGS;
        }
    }
    return NJ_OK;
}

NjStatus nj_ufunc_resolve(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs, int nout) {
    NjStatus st = check_arrays(u, ins, nin, outs, nout);
    if (st)
        return st;
    if (u->target == NJ_TARGET_CUDA)
        return rt_gpu_ufunc_resolve(u, ins, nin, outs, nout);
    UfEntry *e;
    if ((st = rt_uf_get_entry(u, ins, outs, &e)))
        return st;
    return rt_uf_exec(u->module->ctx, u->name, &e->loop, ins, outs,
                      u->target == NJ_TARGET_PARALLEL, true);
}

NjStatus nj_ufunc_loop(NjUfunc *u, NjDType *dtypes, int nargs, NjUfuncLoop *fn, void **data) {
    if (u->gufunc || u->target == NJ_TARGET_CUDA) {
        rt_set_errorf(u->module->ctx, "error: %s: nj_ufunc_loop is for CPU ufuncs only", u->name);
        return NJ_ERR_UNSUPPORTED;
    }
    if (nargs != u->nin + u->nout || !dtypes || !fn || !data) {
        rt_set_errorf(u->module->ctx, "error: %s: nj_ufunc_loop needs %d dtypes", u->name,
                      u->nin + u->nout);
        return NJ_ERR_ARGS;
    }
    NjArray ins[RT_UF_MAXARGS], outs[RT_UF_MAXARGS];
    memset(ins, 0, sizeof ins);
    memset(outs, 0, sizeof outs);
    for (int k = 0; k < nargs; k++) {
        NjArray *a = k < u->nin ? &ins[k] : &outs[k - u->nin];
        bool alloc = k >= u->nin && dtypes[k] == NJ_DTYPE_COUNT;
        if ((unsigned)dtypes[k] >= NJ_DTYPE_COUNT && !alloc) {
            rt_set_errorf(u->module->ctx, "error: %s: nj_ufunc_loop: bad dtype %d for argument %d",
                          u->name, (int)dtypes[k], k);
            return NJ_ERR_ARGS;
        }
        a->dtype = alloc ? NJ_FLOAT64 : dtypes[k];
        a->data = alloc ? NULL : (void *)1; /* only "given or not" matters for the key */
    }
    UfEntry *e;
    NjStatus st = rt_uf_get_entry(u, ins, outs, &e);
    if (st)
        return st;
    for (int k = 0; k < nargs; k++)
        if (k >= u->nin || e->loop.dtypes[k] != dtypes[k]) {
            if (k < u->nin) { /* the loop reads another dtype: the caller must convert */
                rt_set_errorf(u->module->ctx, "error: %s: nj_ufunc_loop: the loop reads input %d "
                              "as %s", u->name, k, nj_dtype_name(e->loop.dtypes[k]));
                return NJ_ERR_TYPE;
            }
            dtypes[k] = e->loop.dtypes[k];
        }
    *fn = (NjUfuncLoop)e->loop.fn;
    *data = e->loop.data;
    return NJ_OK;
}

/* Whether a ufunc call broadcasts an input: one with fewer dimensions than another, a size-1
 * or zero-stride dimension where another input is longer, or a 0-d input (a scalar). */
static bool broadcasts(const NjArray *ins, int nin) {
    int nd = 0;
    int64_t shape[NJ_MAX_NDIM] = {0};
    for (int k = 0; k < nin; k++)
        if (ins[k].ndim > nd)
            nd = ins[k].ndim;
    for (int k = 0; k < nin; k++)
        for (int j = 0; j < ins[k].ndim; j++) {
            int d = nd - ins[k].ndim + j;
            if (ins[k].shape[j] > shape[d])
                shape[d] = ins[k].shape[j];
        }
    for (int k = 0; k < nin; k++) {
        if (ins[k].ndim < nd || ins[k].ndim == 0)
            return true;
        for (int j = 0; j < ins[k].ndim; j++)
            if ((ins[k].shape[j] == 1 && shape[j] > 1) ||
                (ins[k].strides[j] == 0 && ins[k].shape[j] > 1))
                return true;
    }
    return false;
}

/* The full loop of a basic entry (compiled on first need, under the ufunc's lock). */
NjStatus nj_ufunc_call(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs, int nout) {
    NjStatus st = check_arrays(u, ins, nin, outs, nout);
    if (st)
        return st;
    if (u->target == NJ_TARGET_CUDA)
        return rt_gpu_ufunc_call_arrays(u, ins, nin, outs, nout);
    UfEntry *e;
    if ((st = rt_uf_get_entry(u, ins, outs, &e)))
        return st;
    RtLoop full;
    const RtLoop *L = &e->loop;
    if (e->basic && broadcasts(ins, nin)) {
        full = e->loop;
        if ((st = rt_uf_full_loop(u, e, &full.fn)))
            return st;
        L = &full;
    }
    bool cast = false;
    for (int k = 0; k < nin; k++)
        cast |= ins[k].dtype != e->loop.dtypes[k];
    if (!cast)
        return rt_uf_exec(u->module->ctx, u->name, L, ins, outs,
                          u->target == NJ_TARGET_PARALLEL, false);
    /* a gufunc's loop reads its signature's dtypes: convert the other inputs first */
    NjArray tmp[RT_UF_MAXARGS];
    int ncast = 0;
    for (int k = 0; k < nin && !st; k++) {
        if (ins[k].dtype == e->loop.dtypes[k]) {
            tmp[k] = ins[k];
            continue;
        }
        st = rt_uf_cast_copy(&ins[k], e->loop.dtypes[k], &tmp[k]);
        if (!st)
            ncast = k + 1;
    }
    if (!st)
        st = rt_uf_exec(u->module->ctx, u->name, L, tmp, outs,
                        u->target == NJ_TARGET_PARALLEL, false);
    else
        rt_set_error(u->module->ctx, "error: out of memory converting an input");
    for (int k = 0; k < ncast; k++)
        if (ins[k].dtype != e->loop.dtypes[k])
            nj_array_free(&tmp[k]);
    return st;
}

NjStatus nj_ufunc_reduce(NjUfunc *u, const NjArray *in, int axis, NjArray *out) {
    NjContext *ctx = u->module->ctx;
    if (u->gufunc || u->nin != 2 || u->nout != 1) {
        rt_set_errorf(ctx, "error: %s.reduce() needs a binary ufunc (two inputs, one output)",
                      u->name);
        return NJ_ERR_ARGS;
    }
    if (u->target == NJ_TARGET_CUDA) {
        rt_set_errorf(ctx, "error: %s.reduce() is not supported for target='cuda' ufuncs",
                      u->name);
        return NJ_ERR_UNSUPPORTED;
    }
    if (!in || !out || (unsigned)in->dtype >= NJ_DTYPE_COUNT || in->ndim < 1 ||
        in->ndim > NJ_MAX_NDIM || !in->data) {
        rt_set_errorf(ctx, "error: %s.reduce(): the input must be an array of 1 to %d dimensions",
                      u->name, NJ_MAX_NDIM);
        return NJ_ERR_ARGS;
    }
    /* the result type of (in, in); then the loop (result, in) -> result */
    NjArray pair[2] = {*in, *in}, res[1];
    memset(res, 0, sizeof res);
    UfEntry *e;
    NjStatus st = rt_uf_get_entry(u, pair, res, &e);
    if (st)
        return st;
    NjDType rd = e->loop.dtypes[2];
    pair[0].dtype = rd;
    res[0].dtype = rd;
    res[0].data = (void *)1; /* a given output: its dtype is part of the key */
    if ((st = rt_uf_get_entry(u, pair, res, &e)))
        return st;
    int ax = axis < 0 ? axis + in->ndim : axis;
    bool empty = ax >= 0 && ax < in->ndim && in->shape[ax] == 0;
    return rt_uf_reduce_exec(ctx, u->name, &e->loop, in, axis,
                             empty && u->has_identity ? &u->identity : NULL, out);
}

/* ---- for gpu_ufunc.c ----------------------------------------------------------------------- */
void rt_ufunc_describe(NjUfunc *u, RtUfDesc *d) {
    d->module = u->module;
    d->fi = u->fi;
    d->name = u->name;
    d->target = u->target;
    d->nin = u->nin;
    d->nout = u->nout;
    d->gufunc = u->gufunc;
    d->ncore = u->ncore;
    d->core_names = (const char *const *)u->core_names;
    d->core_n = u->core_n;
    d->core_idx = (const int8_t(*)[NJ_MAX_NDIM])u->core_idx;
    d->nsigs = u->nsigs;
    d->lock = &u->lock;
    d->gpu = &u->gpu;
}

const Type *rt_ufunc_sig_type(const NjUfunc *u, int sig, int k) {
    if (sig < 0 || sig >= u->nsigs)
        return NULL;
    if (!u->gufunc && k == u->nin)
        return u->sigs[sig].ret;
    return k >= 0 && k < RT_UF_MAXARGS ? u->sigs[sig].args[k] : NULL;
}

const char *rt_ufunc_sig_text(const NjUfunc *u, int sig) {
    return sig >= 0 && sig < u->nsigs ? u->sigs[sig].text : "";
}

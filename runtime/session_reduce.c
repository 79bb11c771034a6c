/* session_reduce.c — reductions of a session (sum, prod, min, max, mean: np.sum(e), e.sum(),
 * ... with or without axis=).
 *
 * A reduction of a region (session_eval.c) over contiguous arrays of one shape becomes one
 * compiled loop with an accumulator over the flattened leaves: no temporary for the
 * expression.  With axis= (or over arrays that are not so), the region is materialized and
 * reduced with a binary helper ufunc (nj_ufunc_reduce), which the session compiles once.
 */
#include "session_region.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reductions ----------------------------------------------------------------------------- */

static const char *acc_type(RedKind k, const Type *t) {
    if (k == RED_MEAN)
        return "float64";
    if (k == RED_MIN || k == RED_MAX)
        return t->name;
    if (ty_is_float(t))
        return t->name;
    if (ty_is_int(t) && !ty_is_signed(t))
        return "uint64";
    return "int64";
}

/* The reduction of a helper ufunc along an axis (sum, prod, min, max). */
NjStatus se_helper_ufunc(NjSession *s, RedKind k, NjUfunc **out) {
    static const char *const names[] = {"__nj_add", "__nj_mul", "__nj_min", "__nj_max", "__nj_id"};
    char key[32];
    snprintf(key, sizeof key, "H:%s", names[k]);
    SCache *c = se_cache_find(s, key);
    if (!c) {
        static const char *const src =
            "def __nj_add(a, b):\n    return a + b\n"
            "def __nj_mul(a, b):\n    return a * b\n"
            "def __nj_min(a, b):\n    return a if a < b or a != a else b\n"
            "def __nj_max(a, b):\n    return a if a > b or a != a else b\n"
            "def __nj_id(a):\n    return a\n";
        NjModule *m;
        NjStatus st = nj_compile_source(s->ctx, "<numjit>", src, &m);
        if (st)
            return st;
        if (!(c = se_cache_add(s, key)))
            return NJ_ERR_NOMEM;
        c->m = m;
        if ((st = nj_ufunc_new(m, names[k], NULL, 0, NULL, NJ_TARGET_CPU, &c->u)))
            return st;
    }
    *out = c->u;
    return NJ_OK;
}


/* Whole-array reduction fused with the region feeding it. */
static NjStatus reduce_fused(NjSession *s, Region *R, Node *root, RedKind k, Loc loc, SVal *out) {
    /* every array leaf contiguous and of one shape: flatten; else materialize first */
    const NjArray *first = NULL;
    bool fusable = true;
    for (int i = 0; i < R->nleaves; i++) {
        if (R->leaves[i].v.kind != SV_ARRAY)
            continue;
        const NjArray *a = &R->leaves[i].v.arr->a;
        if (!sa_is_contig(a))
            fusable = false;
        if (!first)
            first = a;
        else if (a->ndim != first->ndim ||
                 memcmp(a->shape, first->shape, sizeof(int64_t) * (size_t)a->ndim))
            fusable = false;
    }
    Node tmp_name = {.kind = ND_NAME, .name = "__nj_t", .loc = root->loc};
    if (!fusable) {
        SVal v;
        NjStatus st = se_exec_elementwise(s, R, root, NULL, NULL, &v);
        if (st)
            return st;
        se_free_region(R);
        R->any_array = false;
        se_add_leaf(R, v, true, "__nj_t", NULL);
        first = &R->leaves[0].v.arr->a;
        root = &tmp_name;
    }
    int64_t n = sa_size(first);
    if (n == 0 && (k == RED_MIN || k == RED_MAX))
        return ss_error(s, loc, NJ_ERR_RUNTIME, "ValueError: zero-size array to reduction "
                        "operation %s which has no identity", k == RED_MIN ? "minimum" : "maximum");
    NjStatus st = ss_sync(s);
    if (st)
        return st;
    static const char *const kname[] = {"sum", "prod", "min", "max", "mean"};
    char *kt = se_region_text(R, root, 1, NULL);
    StrBuf key;
    sb_init(&key);
    sb_printf(&key, "R%s:%s:", kname[k], kt);
    free(kt);
    for (int i = 0; i < R->nleaves; i++) {
        const Leaf *L = &R->leaves[i];
        sb_printf(&key, "%c%d", L->v.kind == SV_ARRAY ? 'a' : 's',
                  L->v.kind == SV_ARRAY ? (int)L->v.arr->a.dtype : (int)L->v.dtype);
    }
    SCache *c = se_cache_find(s, key.data);
    const Type *et = NULL;
    if (!c) {
        /* 1. the element type, by typing the elementwise function */
        char ename[32], rname[32];
        int num = s->counter++;
        snprintf(ename, sizeof ename, "__nj_e%d", num);
        snprintf(rname, sizeof rname, "__nj_r%d", num);
        StrBuf f;
        sb_init(&f);
        sb_printf(&f, "def %s(", ename);
        se_params_text(R, &f);
        char *body = se_region_text(R, root, 0, NULL);
        sb_printf(&f, "):\n    return %s\n", body);
        free(body);
        NjModule *m;
        st = se_compile_synth(R, root, ename, f.data, 1, 12, IRF_SCALAR, false, &m, &et);
        if (st) {
            sb_free(&f);
            sb_free(&key);
            return st;
        }
        /* 2. the reduction loop over the flattened leaves */
        const char *at = acc_type(k, et);
        char *ex0 = se_region_text(R, root, 2, "0");
        char *exi = se_region_text(R, root, 2, "__i");
        const char *lead = NULL;
        for (int i = 0; i < R->nleaves && !lead; i++)
            if (R->leaves[i].v.kind == SV_ARRAY)
                lead = R->leaves[i].pname;
        sb_printf(&f, "def %s(", rname);
        se_params_text(R, &f);
        sb_printf(&f, "):\n    __n = %s.shape[0]\n", lead ? lead : ""); /* an array leaf: always */
        if (k == RED_MIN || k == RED_MAX) {
            sb_printf(&f, "    __acc = __nj_np.%s(%s)\n    for __i in range(1, __n):\n"
                          "        __v = __nj_np.%s(%s)\n"
                          "        if __v %s __acc or __v != __v:\n            __acc = __v\n"
                          "    return __acc\n",
                      at, ex0, at, exi, k == RED_MIN ? "<" : ">");
        } else {
            /* four accumulators: independent chains the CPU overlaps */
            const char *op = k == RED_PROD ? "*" : "+";
            const char *id = k == RED_PROD ? "1" : "0";
            sb_printf(&f, "    __a0 = __nj_np.%s(%s)\n    __a1 = __a0\n    __a2 = __a0\n"
                          "    __a3 = __a0\n    __m = __n - __n %% 4\n"
                          "    for __j in range(0, __m, 4):\n", at, id);
            for (int u = 0; u < 4; u++) {
                char ix[16];
                snprintf(ix, sizeof ix, "__j + %d", u);
                char *eu = se_region_text(R, root, 2, ix);
                sb_printf(&f, "        __a%d = __a%d %s __nj_np.%s(%s)\n", u, u, op, at, eu);
                free(eu);
            }
            sb_printf(&f, "    for __i in range(__m, __n):\n        __a0 = __a0 %s __nj_np.%s(%s)\n"
                          "    return (__a0 %s __a1) %s (__a2 %s __a3)\n",
                      op, at, exi, op, op, op);
        }
        free(ex0);
        free(exi);
        st = se_compile_synth(R, root, rname, f.data, 1, 12, IRF_NJIT, true, &m, NULL);
        sb_free(&f);
        if (st) {
            sb_free(&key);
            return st;
        }
        if (!(c = se_cache_add(s, key.data))) {
            sb_free(&key);
            return NJ_ERR_NOMEM;
        }
        c->m = m;
        c->fname = strdup(rname);
        if ((st = nj_module_function(m, rname, &c->f))) {
            sb_free(&key);
            return st;
        }
    }
    sb_free(&key);
    se_note_last(s, c->m, c->fname, R, false);
    NjArray flat[MAX_LEAVES];
    NjValue args[MAX_LEAVES], res;
    for (int i = 0; i < R->nleaves; i++) {
        const SVal *v = &R->leaves[i].v;
        if (v->kind == SV_ARRAY) {
            flat[i] = nj_array_c(v->arr->a.data, v->arr->a.dtype, 1, &n);
            args[i] = nj_arr(&flat[i]);
        } else
            args[i] = sv_to_nj(v);
    }
    double t0 = ss_now_ms();
    bool first_call = !atomic_load(&c->f->table);
    st = nj_call(c->f, args, R->nleaves, &res);
    if (first_call)
        s->compile_ms += ss_now_ms() - t0;
    if (st)
        return st;
    *out = sv_from_nj(&res);
    if (k == RED_MEAN) {
        double m = n ? out->s.f / (double)n : NAN;
        bool f32 = false;
        for (int i = 0; i < R->nleaves; i++)
            f32 |= R->leaves[i].v.kind == SV_ARRAY && R->leaves[i].v.arr->a.dtype == NJ_FLOAT32;
        *out = sv_scalar_f(f32 && res.dtype == NJ_FLOAT64 && et != ty_f64 ? NJ_FLOAT32 : NJ_FLOAT64, m);
    }
    return NJ_OK;
}

static NjStatus reduce_axis(NjSession *s, SVal *v, RedKind k, int64_t axis, Loc loc, SVal *out) {
    const NjArray *a = &v->arr->a;
    int ax = (int)(axis < 0 ? axis + a->ndim : axis);
    if (ax < 0 || ax >= a->ndim)
        return ss_error(s, loc, NJ_ERR_ARGS, "axis %lld is out of bounds for an array of "
                        "dimension %d", (long long)axis, a->ndim);
    NjUfunc *u;
    NjStatus st = se_helper_ufunc(s, k == RED_MEAN ? RED_SUM : k, &u);
    if (st)
        return st;
    NjArray r;
    memset(&r, 0, sizeof r);
    if ((st = nj_ufunc_reduce(u, a, ax, &r)))
        return st;
    SArr *res = sa_wrap(r);
    if (!res)
        return NJ_ERR_NOMEM;
    if (k == RED_MEAN) {
        NjDType to = r.dtype == NJ_FLOAT32 ? NJ_FLOAT32 : NJ_FLOAT64;
        SArr *c = sa_cast_copy(&res->a, to);
        sa_decref(res);
        if (!c)
            return NJ_ERR_NOMEM;
        int64_t n = sa_size(&c->a), cnt = a->shape[ax];
        for (int64_t i = 0; i < n; i++) {
            if (to == NJ_FLOAT32)
                ((float *)c->buf)[i] /= (float)cnt;
            else
                ((double *)c->buf)[i] /= (double)cnt;
        }
        res = c;
    }
    if (res->a.ndim == 0) { /* a 1-d array reduced along its axis: a number, as NumPy's */
        *out = sv_load(res->a.data, res->a.dtype);
        sa_decref(res);
        return NJ_OK;
    }
    *out = sv_array(res);
    return NJ_OK;
}

NjStatus se_eval_reduce(NjSession *s, RedKind k, Node *arg, Node *axis_node, Loc loc,
                            SVal *out) {
    if (axis_node && axis_node->kind != ND_NONE) {
        SVal ax, v;
        NjStatus st = se_eval(s, axis_node, &ax);
        if (st)
            return st;
        if (ax.kind != SV_SCALAR || ax.dtype == NJ_FLOAT32 || ax.dtype == NJ_FLOAT64) {
            sv_free(&ax);
            return ss_error(s, axis_node->loc, NJ_ERR_ARGS, "axis must be an integer");
        }
        if ((st = se_eval(s, arg, &v)))
            return st;
        if (v.kind != SV_ARRAY) {
            sv_free(&v);
            return ss_error(s, arg->loc, NJ_ERR_ARGS, "axis= needs an array");
        }
        st = reduce_axis(s, &v, k, sv_as_int(&ax), loc, out);
        sv_free(&v);
        return st;
    }
    Region *R = calloc(1, sizeof *R);
    if (!R)
        return NJ_ERR_NOMEM;
    R->s = s;
    NjStatus st;
    if (se_is_region_node(s, arg) || arg->kind == ND_NAME)
        st = se_collect(R, arg);
    else
        st = se_collect_opaque(R, arg);
    if (!st && !R->any_array) { /* a scalar: its own reduction */
        st = se_exec_elementwise(s, R, arg, NULL, NULL, out);
        if (!st && k == RED_MEAN)
            *out = sv_scalar_f(NJ_FLOAT64, sv_as_double(out));
    } else if (!st)
        st = reduce_fused(s, R, arg, k, loc, out);
    se_free_region(R);
    free(R);
    return st;
}


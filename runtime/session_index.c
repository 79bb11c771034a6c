/* session_index.c — the rest of a session's expressions: literals, names, attributes,
 * subscripts, and assignment targets.
 *
 * se_eval dispatches on the node: elementwise regions go to session_eval.c (one fused loop),
 * calls to session_call.c; a subscript builds a strided view (basic indexing: integers and
 * slices, as NumPy) or loads one element.  Assignment into a view copies through the identity
 * ufunc, so it broadcasts like NumPy's `a[...] = v`.
 */
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- subscripts --------------------------------------------------------------------------- */
static NjStatus slice_bounds(NjSession *s, Node *sl, int64_t len, int64_t *start, int64_t *stop,
                             int64_t *step) {
    double v = 0;
    NjStatus st;
    *step = 1;
    if (sl->c) {
        if ((st = se_eval_number(s, sl->c, 1, &v, NULL)))
            return st;
        *step = (int64_t)v;
        if (*step == 0)
            return ss_error(s, sl->c->loc, NJ_ERR_ARGS, "slice step cannot be zero");
    }
    int64_t lo = *step < 0 ? len - 1 : 0, hi = *step < 0 ? -1 : len;
    if (sl->a) {
        if ((st = se_eval_number(s, sl->a, 0, &v, NULL)))
            return st;
        lo = (int64_t)v;
        if (lo < 0)
            lo += len;
        if (lo < 0)
            lo = *step < 0 ? -1 : 0;
        if (lo >= len)
            lo = *step < 0 ? len - 1 : len;
    }
    if (sl->b) {
        if ((st = se_eval_number(s, sl->b, 0, &v, NULL)))
            return st;
        hi = (int64_t)v;
        if (hi < 0)
            hi += len;
        if (hi < 0)
            hi = *step < 0 ? -1 : 0;
        if (hi >= len)
            hi = *step < 0 ? len - 1 : len;
    }
    *start = lo;
    *stop = hi;
    return NJ_OK;
}

/* a[idx]: a view (slices) or an element (as many integers as dimensions). */
static NjStatus index_array(NjSession *s, SVal *arr, Node *idx, SVal *out, bool *is_elem,
                            char **elem_ptr) {
    NjArray *a = &arr->arr->a;
    Node *items[NJ_MAX_NDIM];
    int n = 0;
    if (idx->kind == ND_TUPLE) {
        for (int i = 0; i < idx->list.n && n < NJ_MAX_NDIM; i++)
            items[n++] = idx->list.items[i];
    } else
        items[n++] = idx;
    if (n > a->ndim)
        return ss_error(s, idx->loc, NJ_ERR_ARGS, "too many indices for an array of dimension %d",
                        a->ndim);
    NjArray v = *a;
    v.ndim = 0;
    char *p = a->data;
    int nints = 0;
    for (int d = 0; d < a->ndim; d++) {
        Node *it = d < n ? items[d] : NULL;
        if (!it || it->kind == ND_SLICE) {
            int64_t lo = 0, hi = a->shape[d], step = 1;
            if (it) {
                NjStatus st = slice_bounds(s, it, a->shape[d], &lo, &hi, &step);
                if (st)
                    return st;
            }
            int64_t len = step > 0 ? (hi - lo + step - 1) / step : (lo - hi - step - 1) / -step;
            if (len < 0)
                len = 0;
            p += lo * a->strides[d];
            v.shape[v.ndim] = len;
            v.strides[v.ndim] = a->strides[d] * step;
            v.ndim++;
            continue;
        }
        SVal iv;
        NjStatus st = se_eval(s, it, &iv);
        if (st)
            return st;
        if (iv.kind != SV_SCALAR || iv.dtype == NJ_FLOAT32 || iv.dtype == NJ_FLOAT64 ||
            iv.dtype == NJ_BOOL) {
            sv_free(&iv);
            return ss_error(s, it->loc, NJ_ERR_UNSUPPORTED,
                            "only integers and slices are supported as indices (basic indexing)");
        }
        int64_t i = sv_as_int(&iv);
        if (i < 0)
            i += a->shape[d];
        if (i < 0 || i >= a->shape[d])
            return ss_error(s, it->loc, NJ_ERR_RUNTIME,
                            "IndexError: index %lld is out of bounds for axis %d with size %lld",
                            (long long)sv_as_int(&iv), d, (long long)a->shape[d]);
        p += i * a->strides[d];
        nints++;
    }
    v.data = p;
    *is_elem = nints == a->ndim;
    if (*is_elem) {
        if (elem_ptr)
            *elem_ptr = p;
        *out = sv_load(p, a->dtype);
        return NJ_OK;
    }
    SArr *r = sa_view(arr->arr, v);
    if (!r)
        return NJ_ERR_NOMEM;
    *out = sv_array(r);
    return NJ_OK;
}

NjStatus se_eval_subscript(NjSession *s, Node *e, SVal *out) {
    SVal base;
    NjStatus st = se_eval(s, e->a, &base);
    if (st)
        return st;
    if (base.kind == SV_TUPLE) {
        SVal iv;
        if ((st = se_eval(s, e->b, &iv))) {
            sv_free(&base);
            return st;
        }
        int64_t i = sv_as_int(&iv);
        if (i < 0)
            i += base.n;
        if (iv.kind != SV_SCALAR || i < 0 || i >= base.n)
            st = ss_error(s, e->b->loc, NJ_ERR_RUNTIME, "IndexError: tuple index out of range");
        else
            *out = sv_copy(&base.elems[i]);
        sv_free(&base);
        return st;
    }
    if (base.kind != SV_ARRAY) {
        sv_free(&base);
        return ss_error(s, e->a->loc, NJ_ERR_TYPE, "this value is not subscriptable");
    }
    bool elem;
    st = index_array(s, &base, e->b, out, &elem, NULL);
    sv_free(&base);
    return st;
}

/* ---- attributes ----------------------------------------------------------------------------- */
NjStatus se_eval_attr(NjSession *s, Node *e, SVal *out) {
    const char *nm = e->name;
    if (e->a->kind == ND_NAME && !ss_lookup(s, e->a->name) &&
        (!strcmp(e->a->name, "np") || !strcmp(e->a->name, "numpy") || !strcmp(e->a->name, "math"))) {
        if (!strcmp(nm, "pi")) { *out = sv_scalar_f(NJ_FLOAT64, M_PI); return NJ_OK; }
        if (!strcmp(nm, "e")) { *out = sv_scalar_f(NJ_FLOAT64, M_E); return NJ_OK; }
        if (!strcmp(nm, "inf")) { *out = sv_scalar_f(NJ_FLOAT64, INFINITY); return NJ_OK; }
        if (!strcmp(nm, "nan")) { *out = sv_scalar_f(NJ_FLOAT64, NAN); return NJ_OK; }
        if (!strcmp(nm, "tau")) { *out = sv_scalar_f(NJ_FLOAT64, 2 * M_PI); return NJ_OK; }
        NjDType dt;
        if (sa_dtype_from_name(nm, &dt)) {
            *out = (SVal){.kind = SV_DTYPE, .dtype = dt};
            return NJ_OK;
        }
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "%s.%s is not supported here",
                        e->a->name, nm);
    }
    SVal o;
    NjStatus st = se_eval(s, e->a, &o);
    if (st)
        return st;
    if (o.kind != SV_ARRAY) {
        sv_free(&o);
        return ss_error(s, e->loc, NJ_ERR_TYPE, "this value has no attribute '%s'", nm);
    }
    NjArray *a = &o.arr->a;
    st = NJ_OK;
    if (!strcmp(nm, "shape")) {
        SVal t = {.kind = SV_TUPLE, .n = a->ndim};
        t.elems = calloc((size_t)(a->ndim ? a->ndim : 1), sizeof *t.elems);
        for (int i = 0; t.elems && i < a->ndim; i++)
            t.elems[i] = sv_scalar_i(NJ_INT64, a->shape[i]);
        *out = t;
    } else if (!strcmp(nm, "size"))
        *out = sv_scalar_i(NJ_INT64, sa_size(a));
    else if (!strcmp(nm, "ndim"))
        *out = sv_scalar_i(NJ_INT64, a->ndim);
    else if (!strcmp(nm, "dtype"))
        *out = (SVal){.kind = SV_DTYPE, .dtype = a->dtype};
    else if (!strcmp(nm, "itemsize"))
        *out = sv_scalar_i(NJ_INT64, nj_dtype_size(a->dtype));
    else if (!strcmp(nm, "nbytes"))
        *out = sv_scalar_i(NJ_INT64, sa_size(a) * nj_dtype_size(a->dtype));
    else if (!strcmp(nm, "T")) {
        NjArray t = *a;
        for (int i = 0; i < a->ndim; i++) {
            t.shape[i] = a->shape[a->ndim - 1 - i];
            t.strides[i] = a->strides[a->ndim - 1 - i];
        }
        SArr *r = sa_view(o.arr, t);
        st = se_made(s, e->loc, r, out);
    } else
        st = ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "arrays have no attribute '%s' in numjit", nm);
    sv_free(&o);
    return st;
}

/* ---- se_eval ------------------------------------------------------------------------------------ */
NjStatus se_eval(NjSession *s, Node *e, SVal *out) {
    *out = sv_none();
    if (se_is_region_node(s, e) && se_eval_fast(s, e, out)) {
        s->hint = s->force = NULL;
        return NJ_OK;
    }
    if (se_is_region_node(s, e) &&
        !(e->kind == ND_BINOP && e->op == OP_MOD && e->a->kind == ND_STR)) {
        SArr *hint = s->hint, *force = s->force;
        s->hint = s->force = NULL;
        return se_run_region(s, e, hint, force, out);
    }
    if (e->kind != ND_CALL)
        s->hint = s->force = NULL;
    switch (e->kind) {
    case ND_INT: *out = sv_scalar_i(NJ_INT64, e->ival); return NJ_OK;
    case ND_FLOAT: *out = sv_scalar_f(NJ_FLOAT64, e->fval); return NJ_OK;
    case ND_IMAG:
        *out = (SVal){.kind = SV_SCALAR, .dtype = NJ_COMPLEX128, .s.c = {0.0, e->fval}};
        return NJ_OK;
    case ND_BOOL: *out = sv_scalar_i(NJ_BOOL, e->ival); return NJ_OK;
    case ND_NONE: return NJ_OK;
    case ND_STR:
        *out = (SVal){.kind = SV_STR, .str = strdup(e->str ? e->str : "")};
        return out->str ? NJ_OK : NJ_ERR_NOMEM;
    case ND_NAME: {
        SVal *v = ss_lookup(s, e->name);
        if (v) {
            *out = sv_copy(v);
            return NJ_OK;
        }
        if (ss_is_func(s, e->name))
            return ss_error(s, e->loc, NJ_ERR_TYPE, "function '%s' used as a value", e->name);
        return ss_error(s, e->loc, NJ_ERR_NAME, "name '%s' is not defined", e->name);
    }
    case ND_TUPLE: {
        SVal t = {.kind = SV_TUPLE};
        t.elems = calloc((size_t)(e->list.n ? e->list.n : 1), sizeof *t.elems);
        if (!t.elems)
            return NJ_ERR_NOMEM;
        for (int i = 0; i < e->list.n; i++) {
            NjStatus st = se_eval(s, e->list.items[i], &t.elems[i]);
            if (st) {
                sv_free(&t);
                return st;
            }
            t.n++;
        }
        *out = t;
        return NJ_OK;
    }
    case ND_BINOP: { /* "format" % values */
        if (e->op != OP_MOD || e->a->kind != ND_STR)
            return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED, "operator '%s' is not supported by "
                            "numjit", ast_op_spelling[e->op]);
        SVal fmt, v;
        NjStatus st = se_eval(s, e->a, &fmt);
        if (st)
            return st;
        if ((st = se_eval(s, e->b, &v))) {
            sv_free(&fmt);
            return st;
        }
        StrBuf sb;
        sb_init(&sb);
        sb_puts(&sb, "");
        st = v.kind == SV_TUPLE ? se_format_percent(s, fmt.str, v.elems, v.n, e->loc, &sb)
                                : se_format_percent(s, fmt.str, &v, 1, e->loc, &sb);
        sv_free(&fmt);
        sv_free(&v);
        if (st) {
            sb_free(&sb);
            return st;
        }
        *out = (SVal){.kind = SV_STR, .str = sb_take(&sb)};
        return NJ_OK;
    }
    case ND_ATTR: return se_eval_attr(s, e, out);
    case ND_SUBSCRIPT: return se_eval_subscript(s, e, out);
    case ND_CALL: return se_eval_call(s, e, out);
    case ND_LIST:
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED,
                        "lists are supported only as the argument of np.array([...])");
    default:
        return ss_error(s, e->loc, NJ_ERR_UNSUPPORTED,
                        "this expression is not supported at the top level of a numjit session");
    }
}

/* ---- assignment ---------------------------------------------------------------------------- */
NjStatus se_copy_into(NjSession *s, const NjArray *dst, const SVal *v, Loc loc) {
    if (v->kind != SV_SCALAR && v->kind != SV_ARRAY)
        return ss_error(s, loc, NJ_ERR_TYPE, "only numbers and arrays can be stored in an array");
    NjUfunc *u;
    NjStatus st = se_helper_ufunc(s, RED_MEAN, &u); /* the identity */
    if (st)
        return st;
    SArr *tmp = NULL;
    NjArray in;
    char sbuf[8] = {0};
    if (v->kind == SV_SCALAR) {
        SVal c = dst->dtype == NJ_FLOAT32 || dst->dtype == NJ_FLOAT64
                     ? sv_scalar_f(dst->dtype, sv_as_double(v))
                     : sv_scalar_i(dst->dtype, sv_as_int(v));
        sv_store(sbuf, &c);
        in = nj_array_c(sbuf, dst->dtype, 0, NULL);
    } else if (v->arr->a.dtype != dst->dtype) { /* setitem casts unsafely, as NumPy */
        if (!(tmp = sa_cast_copy(&v->arr->a, dst->dtype)))
            return NJ_ERR_NOMEM;
        in = tmp->a;
    } else
        in = v->arr->a;
    /* broadcast the value to dst's shape (stride 0 where it repeats) */
    NjArray b = in;
    if (in.ndim > dst->ndim) {
        sa_decref(tmp);
        return ss_error(s, loc, NJ_ERR_ARGS, "could not broadcast a %d-d value into a %d-d "
                        "array", in.ndim, dst->ndim);
    }
    b.ndim = dst->ndim;
    for (int d = 0; d < dst->ndim; d++) {
        int k = d - (dst->ndim - in.ndim);
        int64_t n = k >= 0 ? in.shape[k] : 1;
        if (n != dst->shape[d] && n != 1) {
            sa_decref(tmp);
            return ss_error(s, loc, NJ_ERR_ARGS, "could not broadcast the value's shape into "
                            "the target's shape");
        }
        b.shape[d] = dst->shape[d];
        b.strides[d] = k >= 0 && n != 1 ? in.strides[k] : 0;
    }
    in = b;
    NjArray out = *dst;
    st = nj_ufunc_call(u, &in, 1, &out, 1);
    sa_decref(tmp);
    return st;
}

NjStatus se_assign(NjSession *s, Node *t, const SVal *value) {
    switch (t->kind) {
    case ND_NAME:
        if (!strncmp(t->name, "__nj", 4))
            return ss_error(s, t->loc, NJ_ERR_NAME, "names starting with '__nj' are reserved");
        if (ss_is_func(s, t->name))
            return ss_error(s, t->loc, NJ_ERR_UNSUPPORTED,
                            "'%s' is a function of this session: pick another name", t->name);
        return ss_set(s, t->name, sv_copy(value)) ? NJ_OK : NJ_ERR_NOMEM;
    case ND_TUPLE: case ND_LIST:
        if (value->kind != SV_TUPLE || value->n != t->list.n)
            return ss_error(s, t->loc, NJ_ERR_ARGS, "cannot unpack %s into %d names",
                            value->kind == SV_TUPLE ? "a tuple of another length" : "a non-tuple",
                            t->list.n);
        for (int i = 0; i < t->list.n; i++) {
            NjStatus st = se_assign(s, t->list.items[i], &value->elems[i]);
            if (st)
                return st;
        }
        return NJ_OK;
    case ND_SUBSCRIPT: {
        SVal base;
        NjStatus st = se_eval(s, t->a, &base);
        if (st)
            return st;
        if (base.kind != SV_ARRAY) {
            sv_free(&base);
            return ss_error(s, t->a->loc, NJ_ERR_TYPE, "only arrays support item assignment here");
        }
        SVal view;
        bool elem;
        char *p = NULL;
        st = index_array(s, &base, t->b, &view, &elem, &p);
        if (!st && elem) {
            if (value->kind != SV_SCALAR)
                st = ss_error(s, t->loc, NJ_ERR_TYPE, "setting an array element with a sequence");
            else {
                NjDType d = base.arr->a.dtype;
                SVal c = d == NJ_FLOAT32 || d == NJ_FLOAT64 ? sv_scalar_f(d, sv_as_double(value))
                                                           : sv_scalar_i(d, sv_as_int(value));
                sv_store(p, &c);
            }
        } else if (!st) {
            st = se_copy_into(s, &view.arr->a, value, t->loc);
        }
        sv_free(&view);
        sv_free(&base);
        return st;
    }
    default:
        return ss_error(s, t->loc, NJ_ERR_UNSUPPORTED, "cannot assign to this expression");
    }
}

NjStatus se_augassign(NjSession *s, Node *st) {
    /* x op= v: in place when x names an array (NumPy), else x = x op v */
    Node bin = {.kind = ND_BINOP, .loc = st->loc, .op = st->op, .a = st->a, .b = st->b};
    if (st->a->kind == ND_NAME) {
        SVal *cur = ss_lookup(s, st->a->name);
        if (!cur)
            return ss_error(s, st->a->loc, NJ_ERR_NAME, "name '%s' is not defined", st->a->name);
        if (cur->kind == SV_ARRAY) {
            SArr *dst = cur->arr;
            dst->refs++;
            SVal r;
            s->force = dst;
            NjStatus rc = se_eval(s, &bin, &r);
            s->force = NULL;
            if (!rc)
                sv_free(&r);
            sa_decref(dst);
            return rc;
        }
    }
    SVal r;
    NjStatus rc = se_eval(s, &bin, &r);
    if (rc)
        return rc;
    rc = se_assign(s, st->a, &r);
    sv_free(&r);
    return rc;
}

/* arrays.c — the values of a session: reference-counted arrays, scalars, and how NumPy and
 * Python print them; the array constructors and the random generator.
 *
 * Arrays are 64-byte aligned, C-contiguous when created, and shared by reference as in
 * Python (`y = x` names the same array; a slice is a view holding a reference on its base).
 *
 * Printing follows NumPy 1.24's arrayprint: one format for all the elements shown (the first
 * and last three of each axis when an array has more than 1000 elements), chosen as NumPy
 * does — scientific when the largest magnitude is >= 1e8 or the ratio of largest to smallest
 * nonzero magnitude exceeds 1000 or the smallest is < 1e-4, else positional with each value's
 * shortest round-trip digits (at most 8 after the point), padded to common widths; lines wrap
 * at 75 columns with NumPy's hanging indent.  Scalars print as Python's repr (shortest digits
 * that read back as the same float32/float64; exponent form below 1e-4 and from 1e16).
 *
 * Random numbers: xoshiro256** seeded through splitmix64; uniform from the top 53 bits,
 * normal by Box-Muller.  The streams differ from NumPy's PCG64 but the distributions are
 * the same.
 */
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arrays ---------------------------------------------------------------------------------- */
int64_t sa_size(const NjArray *a) {
    int64_t n = 0;
    return nj_shape_size(a->ndim, a->shape, &n) == NJ_SIZE_OK ? n : 0;
}

/* NumPy's error for an array of this shape and dtype that cannot exist (a negative extent, a
 * byte size beyond INT64_MAX: base/checked.c), or NULL when it can. */
const char *sa_shape_error(NjDType dt, int ndim, const int64_t *shape) {
    int64_t nb;
    switch (nj_byte_size(ndim, shape, nj_dtype_size(dt), &nb)) {
    case NJ_SIZE_OK: return NULL;
    case NJ_SIZE_NEGATIVE: return "ValueError: negative dimensions are not allowed";
    case NJ_SIZE_OVERFLOW: break;
    }
    return "ValueError: array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
           "maximum possible size.";
}

bool sa_is_contig(const NjArray *a) {
    int64_t expect = nj_dtype_size(a->dtype);
    for (int i = a->ndim - 1; i >= 0; i--) {
        if (a->shape[i] != 1 && a->strides[i] != expect)
            return false;
        expect *= a->shape[i];
    }
    return true;
}

SArr *sa_new(NjDType dt, int ndim, const int64_t *shape) {
    int64_t nb; /* checked: a shape that cannot exist is refused, never wrapped to a small block */
    if (nj_byte_size(ndim, shape, nj_dtype_size(dt), &nb) != NJ_SIZE_OK)
        return NULL;
    SArr *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t bytes = ((size_t)nb + 63) & ~(size_t)63; /* nb <= INT64_MAX: no wrap */
    s->buf = aligned_alloc(64, bytes ? bytes : 64);
    if (!s->buf) {
        free(s);
        return NULL;
    }
    s->refs = 1;
    s->a = nj_array_c(s->buf, dt, ndim, shape);
    return s;
}

SArr *sa_wrap(NjArray a) {
    SArr *s = calloc(1, sizeof *s);
    if (!s) {
        if (a.owner)
            nj_array_release(&a);
        else
            free(a.data);
        return NULL;
    }
    s->refs = 1;
    s->a = a;
    s->buf = a.data;
    return s;
}

SArr *sa_view(SArr *base, NjArray a) {
    SArr *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    while (base->base)
        base = base->base;
    s->refs = 1;
    s->a = a;
    s->base = base;
    base->refs++;
    return s;
}

void sa_decref(SArr *a) {
    if (!a || --a->refs > 0)
        return;
    if (a->base)
        sa_decref(a->base);
    if (a->a.owner && !a->base) /* memory made by compiled code: its reference given back */
        nj_array_release(&a->a);
    else
        free(a->buf);
    free(a);
}

/* ---- scalars ---------------------------------------------------------------------------------- */
SVal sv_none(void) { return (SVal){.kind = SV_NONE}; }

SVal sv_scalar_i(NjDType dt, int64_t i) {
    SVal v = {.kind = SV_SCALAR, .dtype = dt};
    if (dt == NJ_BOOL)
        v.s.b = i != 0;
    else if (dt == NJ_FLOAT32 || dt == NJ_FLOAT64)
        v.s.f = (double)i;
    else
        v.s.i = i;
    return v;
}

SVal sv_scalar_f(NjDType dt, double f) {
    SVal v = {.kind = SV_SCALAR, .dtype = dt};
    if (dt == NJ_FLOAT32)
        v.s.f = (float)f;
    else if (dt == NJ_FLOAT64)
        v.s.f = f;
    else if (dt == NJ_BOOL)
        v.s.b = f != 0;
    else
        v.s.i = (int64_t)f;
    return v;
}

SVal sv_array(SArr *a) { return (SVal){.kind = SV_ARRAY, .arr = a}; }

SVal sv_copy(const SVal *v) {
    SVal c = *v;
    if (v->kind == SV_ARRAY)
        v->arr->refs++;
    else if (v->kind == SV_TUPLE) {
        c.elems = calloc((size_t)(v->n ? v->n : 1), sizeof *c.elems);
        for (int i = 0; c.elems && i < v->n; i++)
            c.elems[i] = sv_copy(&v->elems[i]);
        if (!c.elems)
            c.n = 0;
    } else if (v->kind == SV_STR)
        c.str = strdup(v->str ? v->str : "");
    else if (v->kind == SV_RNG)
        v->rng[4]++;
    return c;
}

void sv_free(SVal *v) {
    switch (v->kind) {
    case SV_ARRAY: sa_decref(v->arr); break;
    case SV_TUPLE:
        for (int i = 0; i < v->n; i++)
            sv_free(&v->elems[i]);
        free(v->elems);
        break;
    case SV_STR: free(v->str); break;
    case SV_RNG:
        if (v->rng[4]-- == 0)
            free(v->rng);
        break;
    default: break;
    }
    *v = sv_none();
}

static bool is_float(NjDType d) { return d == NJ_FLOAT32 || d == NJ_FLOAT64; }
static bool is_complex(NjDType d) { return d == NJ_COMPLEX64 || d == NJ_COMPLEX128; }
static bool is_unsigned(NjDType d) { return d >= NJ_UINT8 && d <= NJ_UINT64; }

double sv_as_double(const SVal *v) {
    if (v->kind != SV_SCALAR)
        return NAN;
    if (v->dtype == NJ_BOOL)
        return v->s.b;
    if (is_float(v->dtype))
        return v->s.f;
    return is_unsigned(v->dtype) ? (double)v->s.u : (double)v->s.i;
}

int64_t sv_as_int(const SVal *v) {
    if (v->kind != SV_SCALAR)
        return 0;
    if (v->dtype == NJ_BOOL)
        return v->s.b;
    if (is_float(v->dtype))
        return (int64_t)v->s.f;
    return v->s.i;
}

bool sv_truth(const SVal *v) {
    switch (v->kind) {
    case SV_SCALAR: return v->dtype == NJ_BOOL ? v->s.b : is_float(v->dtype) ? v->s.f != 0 : v->s.i != 0;
    case SV_TUPLE: return v->n > 0;
    case SV_STR: return v->str && *v->str;
    case SV_NONE: return false;
    default: return true;
    }
}

NjValue sv_to_nj(const SVal *v) {
    NjValue r = {NJ_KIND_SCALAR, v->dtype, {.i = 0}};
    if (v->kind == SV_ARRAY)
        return nj_arr(&v->arr->a);
    if (v->dtype == NJ_BOOL)
        r.v.b = v->s.b;
    else if (is_complex(v->dtype))
        r.v.c[0] = v->s.c[0], r.v.c[1] = v->s.c[1];
    else if (is_float(v->dtype))
        r.v.f = v->s.f;
    else
        r.v.i = v->s.i;
    return r;
}

SVal sv_from_nj(const NjValue *v) {
    if (v->kind != NJ_KIND_SCALAR)
        return sv_none();
    SVal r = {.kind = SV_SCALAR, .dtype = v->dtype};
    if (v->dtype == NJ_BOOL)
        r.s.b = v->v.b;
    else if (is_complex(v->dtype))
        r.s.c[0] = v->v.c[0], r.s.c[1] = v->v.c[1];
    else if (is_float(v->dtype))
        r.s.f = v->dtype == NJ_FLOAT32 ? (float)v->v.f : v->v.f;
    else
        r.s.i = v->v.i;
    return r;
}

void sv_store(void *p, const SVal *v) {
    NjValue n = sv_to_nj(v);
    rt_uf_store_value(p, v->dtype, &n);
}

SVal sv_load(const void *p, NjDType dt) {
    SVal v = {.kind = SV_SCALAR, .dtype = dt};
    switch (dt) {
    case NJ_BOOL: v.s.b = *(const uint8_t *)p != 0; break;
    case NJ_INT8: v.s.i = *(const int8_t *)p; break;
    case NJ_INT16: v.s.i = *(const int16_t *)p; break;
    case NJ_INT32: v.s.i = *(const int32_t *)p; break;
    case NJ_INT64: v.s.i = *(const int64_t *)p; break;
    case NJ_UINT8: v.s.u = *(const uint8_t *)p; break;
    case NJ_UINT16: v.s.u = *(const uint16_t *)p; break;
    case NJ_UINT32: v.s.u = *(const uint32_t *)p; break;
    case NJ_UINT64: v.s.u = *(const uint64_t *)p; break;
    case NJ_FLOAT32: v.s.f = *(const float *)p; break;
    case NJ_FLOAT64: v.s.f = *(const double *)p; break;
    case NJ_COMPLEX64: v.s.c[0] = ((const float *)p)[0], v.s.c[1] = ((const float *)p)[1]; break;
    case NJ_COMPLEX128: memcpy(v.s.c, p, sizeof v.s.c); break;
    default: break;
    }
    return v;
}

bool sa_dtype_from_name(const char *name, NjDType *out) {
    static const struct { const char *n; NjDType d; } t[] = {
        {"float64", NJ_FLOAT64}, {"float", NJ_FLOAT64}, {"f8", NJ_FLOAT64}, {"double", NJ_FLOAT64},
        {"float_", NJ_FLOAT64}, {"float32", NJ_FLOAT32}, {"f4", NJ_FLOAT32}, {"single", NJ_FLOAT32},
        {"int64", NJ_INT64}, {"int", NJ_INT64}, {"i8", NJ_INT64}, {"int_", NJ_INT64},
        {"int32", NJ_INT32}, {"i4", NJ_INT32}, {"intc", NJ_INT32}, {"int16", NJ_INT16},
        {"i2", NJ_INT16}, {"int8", NJ_INT8}, {"i1", NJ_INT8}, {"uint64", NJ_UINT64},
        {"u8", NJ_UINT64}, {"uint32", NJ_UINT32}, {"u4", NJ_UINT32}, {"uint16", NJ_UINT16},
        {"u2", NJ_UINT16}, {"uint8", NJ_UINT8}, {"u1", NJ_UINT8}, {"bool", NJ_BOOL},
        {"bool_", NJ_BOOL}, {"b1", NJ_BOOL}, {"?", NJ_BOOL}, {"complex128", NJ_COMPLEX128},
        {"complex", NJ_COMPLEX128}, {"c16", NJ_COMPLEX128}, {"complex64", NJ_COMPLEX64},
        {"c8", NJ_COMPLEX64}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(t[i].n, name)) {
            *out = t[i].d;
            return true;
        }
    return false;
}

/* ---- number formatting ----------------------------------------------------------------------- */
/* Shortest "%.*e" digits of x that read back as the same value of its width: returns the
 * number of significant digits. */
static int shortest_digits(double x, bool f32) {
    char buf[64];
    for (int p = 1; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, x);
        if (f32 ? strtof(buf, NULL) == (float)x : strtod(buf, NULL) == x)
            return p;
    }
    return 17;
}

/* Python's repr of a float (float32 values with their own shortest digits). */
void rt_float_repr(double x, bool f32, StrBuf *out) {
    if (isnan(x)) {
        sb_puts(out, "nan");
        return;
    }
    if (isinf(x)) {
        sb_puts(out, x < 0 ? "-inf" : "inf");
        return;
    }
    if (x == 0) {
        sb_puts(out, signbit(x) ? "-0.0" : "0.0");
        return;
    }
    int p = shortest_digits(x, f32);
    char buf[64];
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    int e = atoi(strchr(buf, 'e') + 1);
    if (e < -4 || e >= 16) {
        /* mantissa without trailing zeros, exponent with at least two digits */
        char *ep = strchr(buf, 'e');
        *ep = 0;
        sb_puts(out, buf);
        sb_printf(out, "e%c%02d", e < 0 ? '-' : '+', abs(e));
        return;
    }
    int frac = p - 1 - e;
    if (frac < 1)
        frac = 1;
    snprintf(buf, sizeof buf, "%.*f", frac, x);
    sb_puts(out, buf);
}

/* Python's repr of a complex: "1j", "(1.5-2j)", "(nan+infj)" (parts without a ".0"). */
void rt_complex_repr(double re, double im, StrBuf *out) {
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    rt_float_repr(re, false, &a);
    rt_float_repr(im, false, &b);
    for (StrBuf *p = &a; p; p = p == &a ? &b : NULL)
        if (p->len > 2 && !strcmp(p->data + p->len - 2, ".0"))
            p->data[p->len -= 2] = 0;
    if (re == 0 && !signbit(re)) {
        sb_printf(out, "%sj", b.data);
    } else {
        sb_printf(out, "(%s%s%sj)", a.data, b.data[0] == '-' ? "" : "+", b.data);
    }
    sb_free(&a);
    sb_free(&b);
}

static void scalar_repr(const SVal *v, StrBuf *out) {
    switch (v->dtype) {
    case NJ_BOOL: sb_puts(out, v->s.b ? "True" : "False"); break;
    case NJ_COMPLEX64: case NJ_COMPLEX128: rt_complex_repr(v->s.c[0], v->s.c[1], out); break;
    case NJ_FLOAT32: rt_float_repr(v->s.f, true, out); break;
    case NJ_FLOAT64: rt_float_repr(v->s.f, false, out); break;
    default:
        if (is_unsigned(v->dtype))
            sb_printf(out, "%llu", (unsigned long long)v->s.u);
        else
            sb_printf(out, "%lld", (long long)v->s.i);
    }
}

/* NumPy's FloatingFormat for the values shown. */
typedef struct FFmt {
    bool exp;
    int precision, pad_left, pad_right, exp_size;
    bool f32;
} FFmt;

static void split_positional(double x, bool f32, char *ip, char *fp) {
    int p = shortest_digits(x, f32);
    char buf[400];
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    int e = atoi(strchr(buf, 'e') + 1);
    int frac = p - 1 - e;
    if (frac < 0)
        frac = 0;
    if (frac > 8)
        frac = 8;
    snprintf(buf, sizeof buf, "%.*f", frac, x);
    char *dot = strchr(buf, '.');
    if (dot) {
        *dot = 0;
        size_t n = strlen(dot + 1);
        while (n > 0 && dot[n] == '0')
            dot[n--] = 0;
        strcpy(fp, dot + 1);
    } else
        fp[0] = 0;
    strcpy(ip, buf);
}

static void split_sci(double x, bool f32, int prec, char *mant, char *ip, char *fp, char *ex) {
    int p = shortest_digits(x, f32) - 1;
    if (prec >= 0)
        p = prec;
    if (p > 8)
        p = 8;
    char buf[64];
    snprintf(buf, sizeof buf, "%.*e", p, x);
    char *e = strchr(buf, 'e');
    strcpy(ex, e + 1);
    *e = 0;
    if (prec < 0) { /* trim zeros of the unique digits */
        size_t n = strlen(buf);
        while (n > 0 && buf[n - 1] == '0' && strchr(buf, '.'))
            buf[--n] = 0;
    }
    strcpy(mant, buf);
    char *dot = strchr(buf, '.');
    if (dot) {
        *dot = 0;
        strcpy(fp, dot + 1);
    } else
        fp[0] = 0;
    strcpy(ip, buf);
}

static FFmt float_format(const double *v, int64_t n, bool f32) {
    FFmt f = {.f32 = f32, .exp_size = -1};
    double maxv = 0, minv = INFINITY;
    int64_t nfinite = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        nfinite++;
        double a = fabs(v[i]);
        if (a == 0)
            continue;
        if (a > maxv)
            maxv = a;
        if (a < minv)
            minv = a;
    }
    if (maxv > 0 && (maxv >= 1e8 || minv < 0.0001 || maxv / minv > 1000.))
        f.exp = true;
    char ip[400], fp[400], mant[64], ex[16];
    if (nfinite == 0) {
        f.exp = false;
    } else if (f.exp) {
        int prec = 0, pl = 0, es = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!isfinite(v[i]))
                continue;
            split_sci(v[i], f32, -1, mant, ip, fp, ex);
            if ((int)strlen(fp) > prec)
                prec = (int)strlen(fp);
            if ((int)strlen(ip) > pl)
                pl = (int)strlen(ip);
            int el = (int)strlen(ex) - 1;
            if (el > es)
                es = el;
        }
        f.precision = prec;
        f.pad_left = pl;
        f.exp_size = es;
        f.pad_right = es + 2 + prec;
    } else {
        for (int64_t i = 0; i < n; i++) {
            if (!isfinite(v[i]))
                continue;
            split_positional(v[i], f32, ip, fp);
            if ((int)strlen(ip) > f.pad_left)
                f.pad_left = (int)strlen(ip);
            if ((int)strlen(fp) > f.pad_right)
                f.pad_right = (int)strlen(fp);
        }
    }
    if (nfinite != n) {
        bool neginf = false;
        for (int64_t i = 0; i < n; i++)
            neginf |= isinf(v[i]) && v[i] < 0;
        int off = f.pad_right + 1;
        if (3 - off > f.pad_left)
            f.pad_left = 3 - off;
        if (3 + neginf - off > f.pad_left)
            f.pad_left = 3 + neginf - off;
    }
    return f;
}

static void float_item(const FFmt *f, double x, StrBuf *out) {
    char ip[400], fp[400], mant[64], ex[16];
    if (!isfinite(x)) {
        const char *s = isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
        int w = f->pad_left + f->pad_right + 1 - (int)strlen(s);
        for (int i = 0; i < w; i++)
            sb_putc(out, ' ');
        sb_puts(out, s);
        return;
    }
    if (f->exp) {
        split_sci(x, f->f32, f->precision, mant, ip, fp, ex);
        for (int i = (int)strlen(ip); i < f->pad_left; i++)
            sb_putc(out, ' ');
        sb_printf(out, "%s.%s", ip, fp);
        int e = atoi(ex);
        sb_printf(out, "e%c%0*d", e < 0 ? '-' : '+', f->exp_size > 2 ? f->exp_size : 2, abs(e));
        return;
    }
    split_positional(x, f->f32, ip, fp);
    for (int i = (int)strlen(ip); i < f->pad_left; i++)
        sb_putc(out, ' ');
    sb_printf(out, "%s.%s", ip, fp);
    for (int i = (int)strlen(fp); i < f->pad_right; i++)
        sb_putc(out, ' ');
}

/* ---- array printing ----------------------------------------------------------------------- */
#define EDGE 3
#define THRESHOLD 1000
#define LINEWIDTH 75

typedef struct PrintCtx {
    const NjArray *a;
    bool summarize;
    FFmt ff;
    int iwidth; /* ints and bools */
    const char *sep;
} PrintCtx;

static const char *elem_ptr(const NjArray *a, const int64_t *idx) {
    const char *p = a->data;
    for (int d = 0; d < a->ndim; d++)
        p += idx[d] * a->strides[d];
    return p;
}

static void format_elem(const PrintCtx *pc, const int64_t *idx, StrBuf *out) {
    SVal v = sv_load(elem_ptr(pc->a, idx), pc->a->dtype);
    if (is_float(v.dtype)) {
        float_item(&pc->ff, v.s.f, out);
        return;
    }
    StrBuf t;
    sb_init(&t);
    scalar_repr(&v, &t);
    for (int i = (int)t.len; i < pc->iwidth; i++)
        sb_putc(out, ' ');
    sb_puts(out, t.data ? t.data : "");
    sb_free(&t);
}

/* Visits the elements shown (the leading and trailing EDGE of each summarized axis). */
static void visit(const NjArray *a, bool summarize, int axis, int64_t *idx,
                  void (*fn)(void *, const int64_t *), void *arg) {
    if (axis == a->ndim) {
        fn(arg, idx);
        return;
    }
    int64_t n = a->shape[axis];
    for (int64_t i = 0; i < n; i++) {
        if (summarize && n > 2 * EDGE && i == EDGE)
            i = n - EDGE;
        idx[axis] = i;
        visit(a, summarize, axis + 1, idx, fn, arg);
    }
}

typedef struct Gather {
    const NjArray *a;
    double *vals;
    int64_t n;
    int iwidth;
} Gather;

static void gather_fn(void *arg, const int64_t *idx) {
    Gather *g = arg;
    SVal v = sv_load(elem_ptr(g->a, idx), g->a->dtype);
    if (is_float(v.dtype)) {
        g->vals[g->n++] = v.s.f;
        return;
    }
    StrBuf t;
    sb_init(&t);
    scalar_repr(&v, &t);
    if ((int)t.len > g->iwidth)
        g->iwidth = (int)t.len;
    sb_free(&t);
}

static void extend_line(StrBuf *s, StrBuf *line, const char *word, int width, const char *indent) {
    bool wrap = (int)(line->len + strlen(word)) > width;
    if ((int)line->len <= (int)strlen(indent))
        wrap = false;
    if (wrap) {
        size_t n = line->len;
        while (n > 0 && line->data[n - 1] == ' ')
            n--;
        sb_putn(s, line->data, n);
        sb_putc(s, '\n');
        line->len = 0;
        line->data[0] = 0;
        sb_puts(line, indent);
    }
    sb_puts(line, word);
}

static void recurse(const PrintCtx *pc, int64_t *idx, int axis, const char *indent, int width,
                    StrBuf *res) {
    const NjArray *a = pc->a;
    int left = a->ndim - axis;
    char next_indent[256];
    size_t ilen = strlen(indent);
    if (ilen > sizeof next_indent - 2)
        ilen = sizeof next_indent - 2;
    memcpy(next_indent, indent, ilen);
    next_indent[ilen] = ' ';
    next_indent[ilen + 1] = 0;
    int next_width = width - 1;
    int64_t n = a->shape[axis];
    bool summary = pc->summarize && 2 * EDGE < n;
    int64_t lead = summary ? EDGE : 0, trail = summary ? EDGE : n;
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "");
    size_t sep_r = strlen(pc->sep);
    while (sep_r > 0 && pc->sep[sep_r - 1] == ' ')
        sep_r--;
    if (left == 1) {
        int elem_width = width - (int)(sep_r > 1 ? sep_r : 1);
        StrBuf line, word;
        sb_init(&line);
        sb_init(&word);
        sb_puts(&line, indent);
        for (int64_t i = 0; i < lead + trail; i++) {
            int64_t k = i < lead ? i : n - (lead + trail - i);
            if (summary && i == lead) {
                extend_line(&s, &line, "...", elem_width, indent);
                sb_puts(&line, pc->sep);
            }
            idx[axis] = k;
            word.len = 0;
            sb_puts(&word, "");
            format_elem(pc, idx, &word);
            extend_line(&s, &line, word.data, elem_width, indent);
            if (i + 1 < lead + trail)
                sb_puts(&line, pc->sep);
        }
        sb_putn(&s, line.data, line.len);
        sb_free(&line);
        sb_free(&word);
    } else {
        StrBuf ls;
        sb_init(&ls);
        sb_putn(&ls, pc->sep, sep_r);
        for (int i = 0; i < left - 1; i++)
            sb_putc(&ls, '\n');
        for (int64_t i = 0; i < lead + trail; i++) {
            int64_t k = i < lead ? i : n - (lead + trail - i);
            if (summary && i == lead) {
                sb_puts(&s, indent);
                sb_puts(&s, "...");
                sb_puts(&s, ls.data);
            }
            idx[axis] = k;
            sb_puts(&s, indent);
            recurse(pc, idx, axis + 1, next_indent, next_width, &s);
            if (i + 1 < lead + trail)
                sb_puts(&s, ls.data);
        }
        sb_free(&ls);
    }
    sb_putc(res, '[');
    size_t il = strlen(indent);
    if (s.len >= il)
        sb_puts(res, s.data + il);
    sb_putc(res, ']');
    sb_free(&s);
}

static void array_body(const NjArray *a, const char *sep, const char *indent, int width,
                       StrBuf *out) {
    int64_t n = sa_size(a);
    if (n == 0) {
        sb_puts(out, "[]");
        return;
    }
    PrintCtx pc = {.a = a, .summarize = n > THRESHOLD, .sep = sep};
    int64_t idx[NJ_MAX_NDIM] = {0};
    int64_t shown = 1;
    for (int d = 0; d < a->ndim; d++)
        shown *= pc.summarize && a->shape[d] > 2 * EDGE ? 2 * EDGE : a->shape[d];
    Gather g = {.a = a, .vals = malloc(sizeof(double) * (size_t)(shown ? shown : 1))};
    if (!g.vals)
        return;
    visit(a, pc.summarize, 0, idx, gather_fn, &g);
    if (is_float(a->dtype))
        pc.ff = float_format(g.vals, g.n, a->dtype == NJ_FLOAT32);
    pc.iwidth = g.iwidth;
    free(g.vals);
    if (a->ndim == 0) {
        format_elem(&pc, idx, out);
        return;
    }
    recurse(&pc, idx, 0, indent, width, out);
}

void rt_array_str(const NjArray *a, StrBuf *out) { array_body(a, " ", " ", LINEWIDTH, out); }

static void array_repr(const NjArray *a, StrBuf *out) {
    bool implied = a->dtype == NJ_FLOAT64 || a->dtype == NJ_INT64 || a->dtype == NJ_BOOL;
    int64_t n = sa_size(a);
    bool skipdtype = implied && n > 0;
    size_t start = out->len;
    sb_puts(out, "array(");
    if (n > 0 || (a->ndim == 1 && a->shape[0] == 0))
        array_body(a, ", ", "       ", LINEWIDTH - (skipdtype ? 1 : 1), out);
    else {
        sb_puts(out, "[], shape=(");
        for (int d = 0; d < a->ndim; d++)
            sb_printf(out, "%lld%s", (long long)a->shape[d], a->ndim == 1 || d + 1 < a->ndim ? (d + 1 < a->ndim ? ", " : ",") : "");
        sb_putc(out, ')');
    }
    if (skipdtype) {
        sb_putc(out, ')');
        return;
    }
    sb_putc(out, ',');
    const char *last = strrchr(out->data + start, '\n');
    size_t last_len = out->len - (last ? (size_t)(last + 1 - out->data) : start);
    char dt[64];
    snprintf(dt, sizeof dt, "dtype=%s)", nj_dtype_name(a->dtype));
    if (last_len + strlen(dt) + 1 > LINEWIDTH)
        sb_puts(out, "\n      ");
    else
        sb_putc(out, ' ');
    sb_puts(out, dt);
}

static void tuple_out(const SVal *v, StrBuf *out, bool repr) {
    sb_putc(out, '(');
    for (int i = 0; i < v->n; i++) {
        if (i)
            sb_puts(out, ", ");
        sv_repr(&v->elems[i], out);
    }
    if (v->n == 1)
        sb_putc(out, ',');
    sb_putc(out, ')');
    (void)repr;
}

void sv_repr(const SVal *v, StrBuf *out) {
    switch (v->kind) {
    case SV_NONE: sb_puts(out, "None"); break;
    case SV_SCALAR: scalar_repr(v, out); break;
    case SV_ARRAY: array_repr(&v->arr->a, out); break;
    case SV_TUPLE: tuple_out(v, out, true); break;
    case SV_STR: sb_printf(out, "'%s'", v->str ? v->str : ""); break;
    case SV_RNG: sb_puts(out, "Generator(xoshiro256**)"); break;
    case SV_DTYPE: sb_printf(out, "dtype('%s')", nj_dtype_name(v->dtype)); break;
    }
}

void sv_str(const SVal *v, StrBuf *out) {
    switch (v->kind) {
    case SV_ARRAY: array_body(&v->arr->a, " ", " ", LINEWIDTH, out); break;
    case SV_STR: sb_puts(out, v->str ? v->str : ""); break;
    case SV_DTYPE: sb_puts(out, nj_dtype_name(v->dtype)); break;
    default: sv_repr(v, out);
    }
}

void sv_type_name(const SVal *v, StrBuf *out) {
    switch (v->kind) {
    case SV_NONE: sb_puts(out, "none"); break;
    case SV_SCALAR: sb_puts(out, nj_dtype_name(v->dtype)); break;
    case SV_ARRAY: {
        const NjArray *a = &v->arr->a;
        sb_printf(out, "array(%s, %dd, %s), shape (", nj_dtype_name(a->dtype), a->ndim,
                  sa_is_contig(a) ? "C" : "A");
        for (int d = 0; d < a->ndim; d++)
            sb_printf(out, "%lld%s", (long long)a->shape[d],
                      a->ndim == 1 ? "," : d + 1 < a->ndim ? ", " : "");
        sb_putc(out, ')');
        break;
    }
    case SV_TUPLE:
        sb_puts(out, "tuple(");
        for (int i = 0; i < v->n; i++) {
            if (i)
                sb_puts(out, ", ");
            sv_type_name(&v->elems[i], out);
        }
        sb_putc(out, ')');
        break;
    case SV_STR: sb_puts(out, "str"); break;
    case SV_RNG: sb_puts(out, "Generator"); break;
    case SV_DTYPE: sb_puts(out, "dtype"); break;
    }
}

/* ---- constructors --------------------------------------------------------------------------- */
SArr *sa_full(NjDType dt, int ndim, const int64_t *shape, const SVal *fill) {
    SArr *a = sa_new(dt, ndim, shape);
    if (!a || !fill)
        return a;
    int64_t n = sa_size(&a->a);
    int isz = nj_dtype_size(dt);
    SVal f = *fill;
    if (f.kind == SV_SCALAR && f.dtype != dt)
        f = is_float(f.dtype) ? sv_scalar_f(dt, f.s.f) : sv_scalar_i(dt, sv_as_int(&f));
    char item[8] = {0};
    sv_store(item, &f);
    bool zero = true;
    for (int i = 0; i < isz; i++)
        zero &= item[i] == 0;
    if (zero) {
        memset(a->buf, 0, (size_t)(n * isz));
        return a;
    }
    char *p = a->buf;
    for (int64_t i = 0; i < n; i++)
        memcpy(p + i * isz, item, (size_t)isz);
    return a;
}

SArr *sa_arange(NjDType dt, double start, double stop, double step, bool ints, const char **err) {
    if (step == 0) {
        *err = "arange: step must not be zero";
        return NULL;
    }
    double len = ceil((stop - start) / step);
    if (len >= 0x1p63 || len != len) { /* no int64 count: NumPy's error, no undefined cast */
        *err = "ValueError: Maximum allowed size exceeded";
        return NULL;
    }
    int64_t n = len > 0 ? (int64_t)len : 0;
    if ((*err = sa_shape_error(dt, 1, &n)))
        return NULL;
    SArr *a = sa_new(dt, 1, &n);
    if (!a) {
        *err = "out of memory";
        return NULL;
    }
    int isz = nj_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        SVal v = ints && !is_float(dt)
                     ? sv_scalar_i(dt, nj_range_at((int64_t)start, (int64_t)step, (uint64_t)i))
                     : sv_scalar_f(dt, start + (double)i * step);
        sv_store((char *)a->buf + i * isz, &v);
    }
    return a;
}

SArr *sa_linspace(double lo, double hi, int64_t n, bool endpoint, NjDType dt) {
    if (n < 0)
        n = 0;
    SArr *a = sa_new(dt, 1, &n);
    if (!a)
        return NULL;
    int64_t div = endpoint ? n - 1 : n;
    double step = div > 0 ? (hi - lo) / (double)div : 0;
    int isz = nj_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        double x = lo + (double)i * step;
        if (endpoint && n > 1 && i == n - 1)
            x = hi;
        SVal v = sv_scalar_f(dt, x);
        sv_store((char *)a->buf + i * isz, &v);
    }
    return a;
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sa_seed(uint64_t *s, uint64_t seed) {
    for (int i = 0; i < 4; i++)
        s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xoshiro(uint64_t *s) {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

static double unit(uint64_t *s) { return (double)(xoshiro(s) >> 11) * 0x1.0p-53; }

SArr *sa_random(uint64_t *st, int ndim, const int64_t *shape, bool normal, double p0, double p1) {
    SArr *a = sa_new(NJ_FLOAT64, ndim, shape);
    if (!a)
        return NULL;
    double *d = a->buf;
    int64_t n = sa_size(&a->a);
    if (!normal) {
        for (int64_t i = 0; i < n; i++)
            d[i] = p0 + (p1 - p0) * unit(st);
        return a;
    }
    for (int64_t i = 0; i < n; i += 2) {
        double u1 = 1.0 - unit(st), u2 = unit(st);
        double r = sqrt(-2.0 * log(u1)), t = 2 * M_PI * u2;
        d[i] = p0 + p1 * r * cos(t);
        if (i + 1 < n)
            d[i + 1] = p0 + p1 * r * sin(t);
    }
    return a;
}

SArr *sa_cast_copy(const NjArray *src, NjDType to) {
    NjArray dst;
    memset(&dst, 0, sizeof dst);
    if (rt_uf_cast_copy(src, to, &dst))
        return NULL;
    /* rt_uf_cast_copy's buffer is aligned_alloc'ed: ours from now on */
    return sa_wrap(dst);
}

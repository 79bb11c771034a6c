/* type_names.c — types from their spellings: the scalar names Numba and NumPy use ("float64",
 * "f8", "intp", ...), array and tuple spellings ("float64[:, ::1]", "UniTuple(int64, 3)",
 * "Tuple(...)", named tuples, "DictType[K,V]"), and whole signatures ("float64(int32[:])"), as
 * @njit("..."), `numjit obj --sig`, CUDA signatures and the cache's keys write them.  The
 * types themselves are made and interned by types.c. */
#include "ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names and signatures -------------------------------------------------------------------- */
static const struct {
    const char *name;
    TypeKind kind;
} scalar_names[] = {
    {"bool", TY_BOOL},     {"boolean", TY_BOOL}, {"b1", TY_BOOL},     {"bool_", TY_BOOL},
    {"int8", TY_I8},       {"i1", TY_I8},        {"int16", TY_I16},   {"i2", TY_I16},
    {"int32", TY_I32},     {"i4", TY_I32},       {"int64", TY_I64},   {"i8", TY_I64},
    {"intp", TY_I64},      {"intc", TY_I32},     {"int_", TY_I64},    {"uint8", TY_U8},
    {"u1", TY_U8},         {"byte", TY_U8},      {"uint16", TY_U16},  {"u2", TY_U16},
    {"uint32", TY_U32},    {"u4", TY_U32},       {"uint64", TY_U64},  {"u8", TY_U64},
    {"uintp", TY_U64},     {"uintc", TY_U32},    {"float32", TY_F32}, {"f4", TY_F32},
    {"float_", TY_F32},    {"single", TY_F32},   {"float64", TY_F64}, {"f8", TY_F64},
    {"double", TY_F64},    {"void", TY_VOID},    {"none", TY_VOID},
    {"complex64", TY_C64}, {"c8", TY_C64},       {"csingle", TY_C64}, {"complex128", TY_C128},
    {"c16", TY_C128},      {"complex", TY_C128}, {"cdouble", TY_C128}, {"complex_", TY_C128},
    {"unicode_type", TY_STR},
};

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    return s;
}

static bool word_at(const char *s, const char *w) {
    size_t n = strlen(w);
    return !strncmp(s, w, n) && !(isalnum((unsigned char)s[n]) || s[n] == '_');
}

static const Type *parse_type(const char **sp, const char **err);

/* Numba's spelling "array(float64, 2d, C)" after "array(": the dtype, ndim and layout. */
static const Type *parse_array_call(const char **sp, const char **err) {
    const char *s = *sp;
    const Type *dt = parse_type(&s, err);
    if (!dt)
        return NULL;
    s = skip_ws(s);
    char *end = NULL;
    long nd = *s == ',' ? strtol(s + 1, &end, 10) : -1;
    if (!(ty_is_elem(dt) || dt->kind == TY_RECORD) || nd < 0 || nd > TY_MAX_NDIM || !end ||
        *end != 'd') {
        *err = "expected 'array(DTYPE, Nd, LAYOUT)'";
        return NULL;
    }
    s = skip_ws(end + 1);
    ArrayLayout lay = LAYOUT_A;
    if (*s == ',') {
        s = skip_ws(s + 1);
        lay = *s == 'C' ? LAYOUT_C : *s == 'F' ? LAYOUT_F : *s == 'A' ? LAYOUT_A : (ArrayLayout)0;
        if (lay) /* past the layout letter only: *s may be the string's end */
            s = skip_ws(s + 1);
    }
    if (!lay || *s != ')') {
        *err = "expected 'array(DTYPE, Nd, LAYOUT)'";
        return NULL;
    }
    *sp = s + 1;
    return ty_array(dt, (int)nd, lay);
}

/* Numba's spellings of tuple types at *sp: "UniTuple(T, n)" and "Tuple(T1, T2, ...)". */
static const Type *parse_tuple_call(const char **sp, const char **err) {
    const char *s = *sp;
    bool uni = *s == 'U';
    s = skip_ws(s + (uni ? 8 : 5)) + 1;
    int n = 0, cap = 16;
    const Type *buf[16], **el = buf;
    const Type *t = NULL;
    for (s = skip_ws(s); *s != ')';) {
        if (uni && n == 1) { /* UniTuple(T, n): the count */
            char *end = NULL;
            long k = strtol(s, &end, 10);
            if (end == s || k < 0 || k > 100000) {
                *err = "expected 'UniTuple(TYPE, COUNT)'";
                goto out;
            }
            s = skip_ws(end);
            if (*s != ')') {
                *err = "expected 'UniTuple(TYPE, COUNT)'";
                goto out;
            }
            const Type *e0 = el[0];
            n = (int)k;
            if (n > cap) {
                const Type **g = malloc(sizeof *g * (size_t)n);
                if (!g) {
                    *err = "out of memory";
                    goto out;
                }
                if (el != buf)
                    free(el);
                el = g;
                cap = n;
            }
            for (int i = 0; i < n; i++)
                el[i] = e0;
            uni = false;
            break;
        }
        if (n == cap) {
            const Type **g = malloc(sizeof *g * (size_t)cap * 2);
            if (!g) {
                *err = "out of memory";
                goto out;
            }
            memcpy(g, el, sizeof *g * (size_t)n);
            if (el != buf)
                free(el);
            el = g;
            cap *= 2;
        }
        if (!(el[n] = parse_type(&s, err)))
            goto out;
        if (el[n] == ty_void) {
            *err = "a tuple cannot hold void";
            goto out;
        }
        n++;
        s = skip_ws(s);
        if (*s == ',')
            s = skip_ws(s + 1);
        else if (*s != ')') {
            *err = "expected ',' or ')' in a tuple type";
            goto out;
        }
    }
    if (uni) { /* "UniTuple(T)" without its count */
        *err = "expected 'UniTuple(TYPE, COUNT)'";
        goto out;
    }
    t = ty_tuple(el, n);
    *sp = s + 1;
out:
    if (el != buf)
        free(el);
    return t;
}

/* A named tuple as the Python package spells an argument of one (python/numjit/_tuple.c):
 * "NamedTuple(NAME, (FIELD, ...), TUPLE)", TUPLE the spelling of its plain tuple type. */
static const Type *parse_named_tuple(const char **sp, const char **err) {
    enum { MAXF = 64 };
    const char *s = skip_ws(skip_ws(*sp + 10) + 1), *name = s, *fields[MAXF];
    char buf[2048], *w = buf, *end = buf + sizeof buf;
    int n = 0;
    *err = "expected 'NamedTuple(NAME, (FIELD, ...), TUPLE)'";
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    if (s == name || s - name >= end - w)
        return NULL;
    size_t len = (size_t)(s - name);
    memcpy(w, name, len);
    w[len] = 0;
    name = w;
    w += len + 1;
    s = skip_ws(s);
    if (*s != ',' || *(s = skip_ws(s + 1)) != '(')
        return NULL;
    for (s = skip_ws(s + 1); *s != ')'; n++) {
        const char *f = s;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        if (s == f || n == MAXF || s - f >= end - w)
            return NULL;
        memcpy(w, f, (size_t)(s - f));
        w[s - f] = 0;
        fields[n] = w;
        w += s - f + 1;
        s = skip_ws(s);
        if (*s == ',')
            s = skip_ws(s + 1);
        else if (*s != ')')
            return NULL;
    }
    s = skip_ws(s + 1);
    if (*s != ',')
        return NULL;
    s = skip_ws(s + 1);
    const Type *tt = parse_type(&s, err);
    if (!tt)
        return NULL;
    s = skip_ws(s);
    if (tt->kind != TY_TUPLE || tt->role != TR_TUPLE || tt->func || tt->nelems != n ||
        *s != ')') {
        *err = "expected 'NamedTuple(NAME, (FIELD, ...), TUPLE)' of as many fields as elements";
        return NULL;
    }
    const Type *t = ty_named_tuple(name, fields, tt->elems, n);
    if (t)
        *sp = s + 1;
    return t;
}

/* Parses one type at *sp; advances *sp.  NULL with *err on failure.  Arrays are spelled
 * "float64[:, ::1]" or as Numba prints them, "array(float64, 2d, C)"; either may follow
 * "readonly " (an array the function must not write, as Numba's). */
static const Type *parse_type(const char **sp, const char **err) {
    const char *s = skip_ws(*sp), *start = s;
    if (word_at(s, "readonly")) {
        s += 8;
        const Type *t = parse_type(&s, err);
        if (!t)
            return NULL;
        if (t->kind != TY_ARRAY) {
            *err = "only an array can be readonly";
            return NULL;
        }
        *sp = s;
        return ty_array_ex(t->dtype, t->ndim, t->layout, t->addrspace, true);
    }
    if (word_at(s, "unaligned")) { /* Numba's array of a packed record type */
        s += 9;
        const Type *t = parse_type(&s, err);
        if (t && (t->kind != TY_ARRAY || t->dtype->kind != TY_RECORD || t->dtype->aligned)) {
            *err = "only an array of a packed record type is unaligned";
            return NULL;
        }
        if (t)
            *sp = s;
        return t;
    }
    if (word_at(s, "Record") && *skip_ws(s + 6) == '(') {
        const Type *t = ty_parse_record(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    if (word_at(s, "NamedTuple") && *skip_ws(s + 10) == '(') {
        const Type *t = parse_named_tuple(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    if ((word_at(s, "UniTuple") && *skip_ws(s + 8) == '(') ||
        (word_at(s, "Tuple") && *skip_ws(s + 5) == '(')) {
        const Type *t = parse_tuple_call(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    /* Numba's "DictType[int64,float64]<iv=None>" (a typed dict; the suffix may be left out) */
    if (word_at(s, "DictType") && *skip_ws(s + 8) == '[') {
        s = skip_ws(s + 8) + 1;
        const Type *key = parse_type(&s, err), *val = NULL;
        if (!key)
            return NULL;
        s = skip_ws(s);
        if (*s == ',') {
            s++;
            if (!(val = parse_type(&s, err)))
                return NULL;
            s = skip_ws(s);
        }
        if (!val || *s != ']') {
            *err = "expected 'DictType[KEY, VALUE]'";
            return NULL;
        }
        s = skip_ws(s + 1);
        if (!strncmp(s, "<iv=None>", 9))
            s += 9;
        const Type *t = ty_dict(key, val);
        if (!t) {
            *err = "a dict cannot have these key and value types";
            return NULL;
        }
        *sp = s;
        return t;
    }
    /* Numba's "list(int64)" and "reflected list(int64)" (a list from Python) */
    bool reflected = word_at(s, "reflected");
    const char *l = reflected ? skip_ws(s + 9) : s;
    if (word_at(l, "list") && *skip_ws(l + 4) == '(') {
        s = skip_ws(l + 4) + 1;
        const Type *item = parse_type(&s, err);
        if (!item)
            return NULL;
        s = skip_ws(s);
        const Type *t = *s == ')' ? ty_list(item, reflected) : NULL;
        if (!t) {
            *err = *s == ')' ? "a list cannot hold this type" : "expected 'list(TYPE)'";
            return NULL;
        }
        *sp = s + 1;
        return t;
    }
    /* Numba's "reflected set(int64)" (a set from Python) and "set(int64)": a set of numbers */
    if (word_at(l, "set") && *skip_ws(l + 3) == '(') {
        s = skip_ws(l + 3) + 1;
        const Type *item = parse_type(&s, err);
        if (!item)
            return NULL;
        s = skip_ws(s);
        if (*s != ')' || !ty_is_elem(item) || ty_is_complex(item)) {
            *err = *s == ')' ? "a set holds numbers" : "expected 'set(TYPE)'";
            return NULL;
        }
        *sp = s + 1;
        return ty_set(item);
    }
    if (word_at(s, "array") && *skip_ws(s + 5) == '(') {
        s = skip_ws(s + 5) + 1;
        const Type *t = parse_array_call(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
           *s == '_' || *s == '.')
        s++;
    size_t n = (size_t)(s - start);
    /* accept "numba.float64", "nb.float64", "np.float64" */
    const char *dot = memchr(start, '.', n);
    if (dot) {
        n -= (size_t)(dot + 1 - start);
        start = dot + 1;
    }
    const Type *t = NULL;
    for (size_t i = 0; i < sizeof scalar_names / sizeof *scalar_names; i++)
        if (strlen(scalar_names[i].name) == n && !memcmp(scalar_names[i].name, start, n))
            t = ty_scalar(scalar_names[i].kind);
    if (!t) {
        *err = "unknown type name";
        return NULL;
    }
    s = skip_ws(s);
    if (*s == '[') {
        if (t == ty_void) {
            *err = "an array of void";
            return NULL;
        }
        int ndim = 0, unit_at = -1;
        s++;
        for (;;) {
            s = skip_ws(s);
            if (*s != ':') {
                *err = "expected ':' in an array type";
                return NULL;
            }
            s++;
            if (s[0] == ':' && s[1] == '1') {
                unit_at = ndim;
                s += 2;
            }
            ndim++;
            s = skip_ws(s);
            if (*s == ',') {
                s++;
                continue;
            }
            if (*s == ']') {
                s++;
                break;
            }
            *err = "expected ',' or ']' in an array type";
            return NULL;
        }
        ArrayLayout lay = LAYOUT_A;
        if (unit_at == ndim - 1)
            lay = LAYOUT_C;
        else if (unit_at == 0)
            lay = LAYOUT_F;
        if (ndim > TY_MAX_NDIM) {
            _Static_assert(TY_MAX_NDIM == 8, "the message below names the limit");
            *err = "too many dimensions in an array type (at most 8)";
            return NULL;
        }
        t = ty_array(t, ndim, lay);
        if (!t) {
            *err = "an array's element must be a number or a boolean";
            return NULL;
        }
    }
    *sp = s;
    return t;
}

const Type *ty_from_name(const char *name) {
    const char *err = NULL, *s = name;
    const Type *t = parse_type(&s, &err);
    if (!t || *skip_ws(s))
        return NULL;
    return t;
}

int ty_parse_sig(const char *s, const Type **ret, const Type **args, int maxargs,
                 const char **err) {
    *err = NULL;
    *ret = NULL;
    s = skip_ws(s);
    if (*s != '(') {
        /* "name(" or "rettype(" — a leading identifier that is not a type is a function name */
        const char *save = s;
        const char *e2 = NULL;
        const Type *r = parse_type(&s, &e2);
        if (!r) {
            /* a function name is a dotted identifier; anything else was a bad return type */
            for (s = save; *s && *s != '('; s++)
                if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
                      (unsigned char)*s >= 0x80 || isspace((unsigned char)*s))) {
                    *err = e2 ? e2 : "unknown return type";
                    return -1;
                }
        } else {
            *ret = r;
        }
        s = skip_ws(s);
        if (*s != '(') {
            *err = "expected '(' in a signature";
            return -1;
        }
    }
    s++;
    int n = 0;
    s = skip_ws(s);
    if (*s == ')') {
        s++;
    } else {
        for (;;) {
            if (n == maxargs) {
                *err = "too many arguments in a signature";
                return -1;
            }
            bool none = word_at(skip_ws(s), "none");
            const Type *t = parse_type(&s, err);
            if (!t)
                return -1;
            if (t == ty_void && none) /* an argument None (Numba's `none`) */
                t = ty_none();
            if (t == ty_void) {
                *err = "an argument cannot be void";
                return -1;
            }
            args[n++] = t;
            s = skip_ws(s);
            if (*s == ',') { /* a trailing comma, as Python's "(int64,)" tuple needs */
                s = skip_ws(s + 1);
                if (*s == ')') {
                    s++;
                    break;
                }
                continue;
            }
            if (*s == ')') {
                s++;
                break;
            }
            *err = "expected ',' or ')' in a signature";
            return -1;
        }
    }
    if (*skip_ws(s)) {
        *err = "unexpected text after a signature";
        return -1;
    }
    return n;
}
